//! Orbit settings where an older layout had them: the orbit settings (`stride`, `newton`,
//! `eigen`) live in the file's one `orbit` block, which the continuation and its orbit diagram
//! run with. Written anywhere else — in the continuation's `settings` (once silently ignored),
//! in the continuation section, a branch, the orbit diagram or its settings, or at the top level
//! (the first layout) — each is refused at its line and column, whatever the subcommand, naming
//! its new place.

use super::harness::Case;

/// The message for a `stride` anywhere but `orbit`.
const IN_SETTINGS: &str = "`stride` moved: write it in `orbit.stride`";

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let walker = "simplest_walker.ron";
    let cont = "simplest_walker_continuation.ron";
    let hopper = "hopper_continuation.ron";
    let compass = "equations/compass_gait_continuation.ron";
    vec![
        Case::edit(
            "stride in the continuation's settings (the walker's second copy)",
            cont,
            &[(
                "corrector_tol: 1e-9,",
                "corrector_tol: 1e-9,\n            \
                 stride: (ode: (rtol: 1e-10, atol: Scalar(1e-10)), t_max: 20.0),",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(
            2,
            &["simplest_walker_continuation.ron:", IN_SETTINGS],
        ))
        .located(),
        Case::edit(
            "stride in the continuation's settings, for orbit too",
            cont,
            &[(
                "corrector_tol: 1e-9,",
                "corrector_tol: 1e-9, stride: (t_max: 5.0),",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &[IN_SETTINGS]))
        .located(),
        Case::edit(
            "stride in the continuation's settings of an equation model",
            compass,
            &[(
                "corrector_tol: 1e-9,",
                "corrector_tol: 1e-9, stride: (t_max: 5.0),",
            )],
            &["orbit-diagram", "--count", "2", "--out", "{out}"],
        )
        .expect(Fails(2, &["compass_gait_continuation.ron:", IN_SETTINGS]))
        .located(),
        Case::edit(
            "newton in the continuation's settings",
            hopper,
            &[(
                "predictor: Arclength,",
                "predictor: Arclength, newton: (ftol: 1e-11),",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["`newton` moved: write it in `orbit.newton`"]))
        .located(),
        Case::edit(
            "eigen in the continuation's settings",
            hopper,
            &[(
                "predictor: Arclength,",
                "predictor: Arclength, eigen: Native,",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["`eigen` moved: write it in `orbit.eigen`"]))
        .located(),
        Case::edit(
            "stride in the continuation section itself",
            cont,
            &[(
                "param: \"gamma\",",
                "param: \"gamma\", stride: (t_max: 20.0),",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &[IN_SETTINGS]))
        .located(),
        Case::edit(
            "stride in a branch",
            cont,
            &[(
                "period_doublings: 1)",
                "period_doublings: 1, stride: (t_max: 5.0))",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &[IN_SETTINGS]))
        .located(),
        Case::edit(
            "newton in the orbit diagram's settings",
            cont,
            &[("component: 0)", "component: 0, newton: (ftol: 1e-9))")],
            &["orbit-diagram", "--count", "2", "--out", "{out}"],
        )
        .expect(Fails(2, &["`newton` moved: write it in `orbit.newton`"]))
        .located(),
        Case::edit(
            "stride in the orbit diagram outside its settings",
            cont,
            &[("count: 400,", "count: 400, stride: (t_max: 20.0),")],
            &["orbit-diagram", "--count", "2", "--out", "{out}"],
        )
        .expect(Fails(2, &[IN_SETTINGS]))
        .located(),
        Case::edit(
            "stride in the orbit diagram's settings (its own stride, before the file had one)",
            cont,
            &[("component: 0)", "component: 0, stride: (t_max: 20.0))")],
            &["orbit-diagram", "--count", "2", "--out", "{out}"],
        )
        .expect(Fails(2, &[IN_SETTINGS]))
        .located(),
        Case::edit(
            "stride at the top level (the older layout)",
            walker,
            &[("    orbit: (", "    stride: (t_max: 20.0),\n    orbit: (")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", IN_SETTINGS]))
        .located(),
        Case::edit(
            "newton at the top level (the older layout)",
            walker,
            &[("    orbit: (", "    newton: (ftol: 1e-13),\n    orbit: (")],
            &["orbit"],
        )
        .expect(Fails(2, &["`newton` moved: write it in `orbit.newton`"]))
        .located(),
        Case::edit(
            "eigen at the top level (the older layout)",
            walker,
            &[("    orbit: (", "    eigen: Native,\n    orbit: (")],
            &["orbit"],
        )
        .expect(Fails(2, &["`eigen` moved: write it in `orbit.eigen`"]))
        .located(),
        Case::edit(
            "eigen in the orbit settings is read",
            walker,
            &[("    orbit: (", "    orbit: (\n        eigen: Native,")],
            &["orbit", "--json"],
        )
        .expect(Succeeds(&["\"period\":"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
