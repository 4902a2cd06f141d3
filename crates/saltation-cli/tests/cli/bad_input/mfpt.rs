//! `saltation mfpt`: every flag's bad values — distributions, parameters, meshes, sizes bounded
//! by memory, shards, roughness levels.

use super::harness::{Case, Expect};

const W: &str = "{models}/rimless_wheel.ron";

/// `mfpt` on the rimless wheel with a good set of flags, `over` replacing or adding some.
fn wheel(name: &str, over: &[(&str, &str)]) -> Case {
    let mut flags: Vec<(&str, &str)> = vec![
        ("--param", "alpha"),
        ("--distribution", "normal(0.2,0.2)"),
        ("--mesh", "u0=0:1:11"),
        ("--samples", "4"),
        ("--runs", "20"),
    ];
    for &(k, v) in over {
        match flags.iter_mut().find(|f| f.0 == k) {
            Some(f) => f.1 = v,
            None => flags.push((k, v)),
        }
    }
    let mut args = vec!["mfpt", W];
    for (k, v) in flags {
        args.push(k);
        if !v.is_empty() {
            args.push(v);
        }
    }
    Case::args(name, &args)
}

fn cases() -> Vec<Case> {
    use Expect::Fails;
    vec![
        wheel("unknown distribution", &[("--distribution", "cauchy(0,1)")])
            .expect(Fails(2, &["--distribution cauchy(0,1)", "unknown distribution"])),
        wheel("one argument", &[("--distribution", "normal(0.2)")])
            .expect(Fails(2, &["--distribution normal(0.2)", "expected two"])),
        wheel("no parentheses", &[("--distribution", "normal 0.2 0.1")])
            .expect(Fails(2, &["--distribution", "expected normal(mean,sd)"])),
        wheel("sd zero", &[("--distribution", "normal(0.2,0)")])
            .expect(Fails(2, &["--distribution normal(0.2,0)", "sd must be > 0"])),
        wheel("sd negative", &[("--distribution", "normal(0.2,-0.1)")])
            .expect(Fails(2, &["sd must be > 0"])),
        wheel("a = b", &[("--distribution", "uniform(0.2,0.2)")])
            .expect(Fails(2, &["uniform(0.2,0.2)", "a must be below b"])),
        wheel("a > b", &[("--distribution", "uniform(0.3,0.1)")])
            .expect(Fails(2, &["a must be below b"])),
        wheel("NaN mean", &[("--distribution", "normal(NaN,0.1)")])
            .expect(Fails(2, &["not finite"])),
        wheel("infinite sd", &[("--distribution", "normal(0.2,inf)")])
            .expect(Fails(2, &["not finite"])),
        wheel("a number that is not one", &[("--distribution", "normal(0.2,x)")])
            .expect(Fails(2, &["`x` is not a number"])),
        wheel("samples beyond the parameter's range", &[("--distribution", "normal(0.2,1)")])
            .expect(Fails(2, &["--distribution normal(0.2,1)", "terrain sample", "alpha"])),
        wheel("mean the model rejects", &[("--distribution", "uniform(1.5,1.6)")])
            .expect(Fails(2, &["--distribution", "alpha"])),
        wheel("unknown parameter", &[("--param", "alfa")])
            .expect(Fails(2, &["--param alfa", "unknown parameter"])),
        wheel("mesh not NAME=a:b:N", &[("--mesh", "u0=0:1")])
            .expect(Fails(2, &["--mesh u0=0:1", "NAME=a:b:N"])),
        wheel("mesh of one point", &[("--mesh", "u0=0:1:1")])
            .expect(Fails(2, &["--mesh u0=0:1:1", "at least 2 points"])),
        wheel("mesh decreasing", &[("--mesh", "u0=1:0:5")])
            .expect(Fails(2, &["--mesh u0=1:0:5", "must be below"])),
        wheel("mesh on an unknown coordinate", &[("--mesh", "speed=0:1:5")])
            .expect(Fails(2, &["unknown section coordinate `speed`"])),
        wheel("mesh count not a number", &[("--mesh", "u0=0:1:many")])
            .expect(Fails(2, &["not a whole number"])),
        wheel("huge mesh", &[("--mesh", "u0=0:1:2000000")])
            .expect(Fails(2, &["--mesh", "at most 1000000"])),
        wheel("mesh beside the nominal orbit", &[("--mesh", "u0=0.6:1:5")])
            .expect(Fails(2, &["--mesh u0=0.6:1:5", "outside the mesh's box"])),
        Case::args(
            "mesh missing a coordinate",
            &[
                "mfpt",
                "{models}/simplest_walker.ron",
                "--param",
                "gamma",
                "--distribution",
                "normal(0.009,0.001)",
                "--mesh",
                "θ=0.1:0.3:5",
            ],
        )
        .expect(Fails(2, &["--mesh", "every one on an axis"])),
        wheel("no samples", &[("--samples", "0")])
            .expect(Fails(2, &["--samples 0", "must be in 1..=100000"])),
        wheel("too many samples", &[("--samples", "1000000")])
            .expect(Fails(2, &["--samples 1000000", "must be in 1..=100000"])),
        wheel(
            "mesh × samples beyond memory",
            &[("--mesh", "u0=0:1:1000000"), ("--samples", "1000")],
        )
        .expect(Fails(2, &["--samples 1000", "transitions (memory)"])),
        wheel("no runs", &[("--runs", "0")]).expect(Fails(2, &["--runs 0", "must be in"])),
        wheel("no steps", &[("--max-steps", "0")])
            .expect(Fails(2, &["--max-steps 0", "must be in"])),
        wheel("too many steps", &[("--max-steps", "99999999999")])
            .expect(Fails(2, &["--max-steps", "must be in"])),
        wheel("negative seed", &[("--seed", "-1")]).expect(Fails(2, &["--seed"])),
        wheel("seed not a number", &[("--seed", "abc")]).expect(Fails(2, &["--seed"])),
        wheel("shard beyond N", &[("--shard", "2/2")])
            .expect(Fails(2, &["--shard 2/2", "below N"])),
        wheel("zero shards", &[("--shard", "0/0")])
            .expect(Fails(2, &["--shard 0/0", "at least 1"])),
        wheel("shard not i/N", &[("--shard", "1")]).expect(Fails(2, &["--shard 1", "i/N"])),
        wheel("roughness zero", &[("--roughness", "0.1,0")])
            .expect(Fails(2, &["--roughness 0.1,0", "`0` is not a positive"])),
        wheel("roughness negative", &[("--roughness", "-0.1")])
            .expect(Fails(2, &["--roughness -0.1", "positive"])),
        wheel("roughness empty item", &[("--roughness", "0.1,,0.2")])
            .expect(Fails(2, &["--roughness 0.1,,0.2", "``"])),
        wheel("roughness beyond the parameter's range", &[("--roughness", "0.1,1")])
            .expect(Fails(2, &["--roughness 0.1,1", "terrain sample"])),
        wheel(
            "too many roughness levels",
            &[(
                "--roughness",
                "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
            )],
        )
        .expect(Fails(2, &["65 levels", "at most 64"])),
        wheel("a good run", &[("--json", "")]).expect(Expect::Succeeds(&[
            "\"param\":\"alpha\"",
            "\"distribution\":\"normal(0.2,0.2)\"",
            "\"lambda2\":",
            "\"monte_carlo\":{",
        ])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
