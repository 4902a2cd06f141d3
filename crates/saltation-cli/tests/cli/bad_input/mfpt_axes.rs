//! `saltation mfpt`'s N-axis mesh and `--method`: meshes of three and four axes, more axes than
//! the section has coordinates, a coordinate on two axes, a mesh too big for memory, the chain
//! without a mesh, and the options of a method that does not run.

use super::harness::{Case, Expect};

const COMPASS: &str = "{models}/equations/compass_gait.ron";
const WALKER: &str = "{models}/simplest_walker.ron";
const WHEEL: &str = "{models}/rimless_wheel.ron";

/// `mfpt` on `file` with `flags` (name, value; an empty value for a switch).
fn mfpt(name: &str, file: &str, dist: &str, param: &str, flags: &[(&str, &str)]) -> Case {
    let mut args = vec!["mfpt", file, "--param", param, "--distribution", dist];
    for &(k, v) in flags {
        args.push(k);
        if !v.is_empty() {
            args.push(v);
        }
    }
    Case::args(name, &args)
}

fn compass(name: &str, flags: &[(&str, &str)]) -> Case {
    mfpt(name, COMPASS, "uniform(0.03,0.075)", "phi", flags)
}

fn wheel(name: &str, flags: &[(&str, &str)]) -> Case {
    mfpt(name, WHEEL, "normal(0.2,0.2)", "alpha", flags)
}

const MESH3: &str = "th_s=0.1:0.35:3,dth_ns=-0.8:0:3,dth_s=-1.5:-0.7:3";

fn cases() -> Vec<Case> {
    use Expect::{Fails, Succeeds};
    vec![
        // Three axes on the compass gait's three coordinates: runs (a tiny chain).
        compass(
            "3-axis mesh",
            &[
                ("--mesh", MESH3),
                ("--samples", "1"),
                ("--runs", "2"),
                ("--max-steps", "3"),
                ("--json", ""),
            ],
        )
        .expect(Succeeds(&[
            "\"points\":27",
            "\"name\":\"dth_s\"",
            "\"lambda2\":",
        ])),
        // Four axes on a section of three coordinates.
        compass(
            "4-axis mesh",
            &[(
                "--mesh",
                "th_s=0.1:0.35:3,dth_ns=-0.8:0:3,dth_s=-1.5:-0.7:3,th_s=0:1:2",
            )],
        )
        .expect(Fails(
            2,
            &[
                "--mesh",
                "4 axes",
                "3 reduced coordinate(s)",
                "th_s, dth_ns, dth_s",
            ],
        )),
        // Three axes on the simplest walker's two coordinates.
        mfpt(
            "3-axis mesh on a 2-coordinate section",
            WALKER,
            "normal(0.009,0.001)",
            "gamma",
            &[("--mesh", "θ=0.1:0.3:3,dθ/dt=-0.3:-0.1:3,θ=0:1:2")],
        )
        .expect(Fails(2, &["--mesh", "3 axes", "2 reduced coordinate(s)"])),
        compass(
            "two axes on a 3-coordinate section",
            &[("--mesh", "th_s=0.1:0.35:3,dth_s=-1.5:-0.7:3")],
        )
        .expect(Fails(2, &["--mesh", "every one on an axis"])),
        compass(
            "a coordinate repeated among three axes",
            &[("--mesh", "th_s=0.1:0.35:3,dth_s=-0.8:0:3,dth_s=-1.5:-0.7:3")],
        )
        .expect(Fails(2, &["--mesh", "`dth_s` is on two axes"])),
        compass(
            "a coordinate repeated by its other name",
            &[("--mesh", "th_s=0.1:0.35:3,u0=-0.8:0:3,dth_s=-1.5:-0.7:3")],
        )
        .expect(Fails(2, &["--mesh", "on two axes"])),
        compass(
            "3-axis mesh beyond the point limit",
            &[(
                "--mesh",
                "th_s=0.1:0.35:101,dth_ns=-0.8:0:101,dth_s=-1.5:-0.7:101",
            )],
        )
        .expect(Fails(2, &["--mesh", "at most 1000000"])),
        compass(
            "3-axis mesh × samples beyond memory",
            &[
                (
                    "--mesh",
                    "th_s=0.1:0.35:100,dth_ns=-0.8:0:100,dth_s=-1.5:-0.7:100",
                ),
                ("--samples", "100"),
            ],
        )
        .expect(Fails(
            2,
            &["--samples 100", "× 8 weights", "transitions (memory)"],
        )),
        compass(
            "3-axis mesh count overflowing",
            &[(
                "--mesh",
                "th_s=0.1:0.35:99999999999,dth_ns=-0.8:0:99999999999,dth_s=-1.5:-0.7:99999999999",
            )],
        )
        .expect(Fails(2, &["--mesh"])),
        compass(
            "3-axis mesh missing the orbit",
            &[(
                "--mesh",
                "th_s=0.3:0.35:3,dth_ns=-0.8:0:3,dth_s=-1.5:-0.7:3",
            )],
        )
        .expect(Fails(2, &["--mesh", "outside the mesh's box"])),
        // The chain needs a mesh; Monte Carlo alone does not, and refuses the chain's options.
        compass("no mesh for the chain", &[]).expect(Fails(
            2,
            &[
                "--mesh",
                "the chain needs a mesh",
                "th_s=a:b:N,dth_ns=a:b:N,dth_s=a:b:N",
                "--method monte-carlo",
            ],
        )),
        compass("no mesh for the chain alone", &[("--method", "chain")])
            .expect(Fails(2, &["--mesh", "the chain needs a mesh"])),
        wheel(
            "Monte Carlo with a mesh",
            &[("--method", "monte-carlo"), ("--mesh", "u0=0:1:11")],
        )
        .expect(Fails(
            2,
            &["--mesh", "option of the chain", "--method monte-carlo"],
        )),
        wheel(
            "Monte Carlo with samples",
            &[("--method", "monte-carlo"), ("--samples", "10")],
        )
        .expect(Fails(2, &["--samples", "option of the chain"])),
        wheel(
            "the chain with runs",
            &[
                ("--method", "chain"),
                ("--mesh", "u0=0:1:11"),
                ("--runs", "10"),
            ],
        )
        .expect(Fails(
            2,
            &["--runs", "option of Monte Carlo", "--method chain"],
        )),
        wheel(
            "the chain with a seed",
            &[
                ("--method", "chain"),
                ("--mesh", "u0=0:1:11"),
                ("--seed", "3"),
            ],
        )
        .expect(Fails(2, &["--seed", "option of Monte Carlo"])),
        wheel(
            "the chain with max steps",
            &[
                ("--method", "chain"),
                ("--mesh", "u0=0:1:11"),
                ("--max-steps", "3"),
            ],
        )
        .expect(Fails(2, &["--max-steps", "option of Monte Carlo"])),
        wheel("unknown method", &[("--method", "markov")])
            .expect(Fails(2, &["--method", "markov"])),
        wheel(
            "Monte Carlo without runs",
            &[("--method", "monte-carlo"), ("--runs", "0")],
        )
        .expect(Fails(2, &["--runs 0", "must be in"])),
        // Monte Carlo alone: no mesh, no chain keys, no null.
        wheel(
            "Monte Carlo alone",
            &[
                ("--method", "monte-carlo"),
                ("--runs", "20"),
                ("--json", ""),
            ],
        )
        .expect(Succeeds(&["\"monte_carlo\":{", "\"runs\":20"])),
        wheel(
            "the chain alone",
            &[
                ("--method", "chain"),
                ("--mesh", "u0=0:1:11"),
                ("--samples", "4"),
                ("--json", ""),
            ],
        )
        .expect(Succeeds(&["\"chain\":{", "\"points\":11"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
