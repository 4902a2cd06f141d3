//! `saltation study` and its study file: every field's range, the cross-field checks (a ranking
//! or figure tolerance that is not one of the study's), sizes, unknown names, and the output
//! directory. Each is refused before anything runs (exit 2, located in the file).

use super::harness::{run_all, Case, Expect};

fn cases() -> Vec<Case> {
    use Expect::Fails;
    let f = "monopod_study.ron";
    let study = &["study", "--json"];
    let edit = |name: &str, from: &str, to: &str, expect: &'static [&'static str]| {
        Case::edit(name, f, &[(from, to)], study)
            .expect(Fails(2, expect))
            .located()
    };
    vec![
        edit(
            "unknown field",
            "t_end: 50.0,",
            "t_stop: 50.0,",
            &["t_stop"],
        ),
        edit(
            "unknown method",
            "methods: [ode45,",
            "methods: [ode99,",
            &["ode99"],
        ),
        edit(
            "fixed-step method",
            "methods: [ode45,",
            "methods: [rk4, ode45,",
            &["methods[0]", "fixed step"],
        ),
        edit(
            "method twice",
            "methods: [ode45,",
            "methods: [ode45, dp5,",
            &["methods[1]", "twice"],
        ),
        edit(
            "no methods",
            "methods: [ode45, ode23, ode113, ode15s, ode23s, ode23t, ode23tb, dop853, radau5],",
            "methods: [],",
            &["methods", "at least one"],
        ),
        Case::text("no sets".into(), f, "(sets: [])".into(), study)
            .expect(Fails(2, &["sets", "1 to 1000"]))
            .located(),
        edit(
            "set out of range",
            "(b: 1951.0, m1: 20.0,",
            "(b: 1951.0, m1: 50.0,",
            &["sets[0]", "m1"],
        ),
        edit(
            "set with a negative weight",
            "(b: 1951.0, m1: 10.4, k: 22.8, f: 0.051)",
            "(b: 1951.0, m1: 10.4, k: 22.8, f: -0.051)",
            &["sets[1]", "f"],
        ),
        edit(
            "unknown parameter in a set",
            "(b: 550.0,",
            "(b: 550.0, c: 1.0,",
            &["c"],
        ),
        edit(
            "tolerance too large",
            "tolerances: [1e-3,",
            "tolerances: [0.5,",
            &["tolerances[0]", "[1e-16, 0.1]"],
        ),
        edit(
            "tolerance zero",
            "tolerances: [1e-3,",
            "tolerances: [0.0,",
            &["tolerances[0]"],
        ),
        edit(
            "tolerance twice",
            "tolerances: [1e-3, 1e-6, 1e-9],",
            "tolerances: [1e-3, 1e-3, 1e-9],",
            &["tolerances[1]", "twice"],
        ),
        edit(
            "epsilon count",
            "epsilon: [0.05, 0.01, 0.01],",
            "epsilon: [0.05, 0.01],",
            &["epsilon", "one threshold per tolerance"],
        ),
        edit(
            "epsilon negative",
            "epsilon: [0.05,",
            "epsilon: [-0.05,",
            &["epsilon[0]", "> 0"],
        ),
        edit(
            "no strategies",
            "strategies: [IfElse, Events],",
            "strategies: [],",
            &["strategies"],
        ),
        edit(
            "strategy twice",
            "strategies: [IfElse, Events],",
            "strategies: [Events, Events],",
            &["strategies", "each once"],
        ),
        edit(
            "unknown strategy",
            "strategies: [IfElse, Events],",
            "strategies: [IfElse, Switch],",
            &["Switch"],
        ),
        edit(
            "initial of the wrong length",
            "initial: (0.5, 0.0, 1.5, 0.0),",
            "initial: (0.5, 0.0, 1.5),",
            &["array of length 4"],
        ),
        edit(
            "t_end negative",
            "t_end: 50.0,",
            "t_end: -1.0,",
            &["t_end", "(0, 1e4]"],
        ),
        edit("t_end huge", "t_end: 50.0,", "t_end: 1e9,", &["t_end"]),
        edit(
            "grid too fine",
            "grid_step: 0.001,",
            "grid_step: 1e-9,",
            &["grid_step", "1e7 grid points"],
        ),
        edit(
            "grid step zero",
            "grid_step: 0.001,",
            "grid_step: 0.0,",
            &["grid_step"],
        ),
        edit(
            "dt_floor negative",
            "dt_floor: 0.05,",
            "dt_floor: -1.0,",
            &["dt_floor"],
        ),
        edit(
            "reference tolerance zero",
            "reference: (method: dop853, tol: 1e-15,",
            "reference: (method: dop853, tol: 0.0,",
            &["reference.tol"],
        ),
        edit(
            "reference check tolerance too large",
            "check_tol: 1e-13,",
            "check_tol: 1.0,",
            &["reference.check_tol"],
        ),
        edit(
            "reference without steps",
            "max_steps: 10000000)",
            "max_steps: 0)",
            &["reference.max_steps", "1 to"],
        ),
        edit(
            "fixed-step reference",
            "reference: (method: dop853,",
            "reference: (method: rk4,",
            &["reference.method"],
        ),
        edit(
            "no repeats",
            "repeats: 5,",
            "repeats: 0,",
            &["repeats", "1 to 100"],
        ),
        edit(
            "too many repeats",
            "repeats: 5,",
            "repeats: 1000,",
            &["repeats"],
        ),
        edit(
            "negative repeat budget",
            "repeat_budget_s: 0.2,",
            "repeat_budget_s: -1.0,",
            &["repeat_budget_s"],
        ),
        edit(
            "no steps",
            "max_steps: 1000000,",
            "max_steps: 0,",
            &["max_steps"],
        ),
        edit(
            "too many steps",
            "max_steps: 1000000,",
            "max_steps: 1000000000000,",
            &["max_steps"],
        ),
        edit(
            "ranking tolerance not studied",
            "ranking: (strategy: IfElse, tol: 1e-6,",
            "ranking: (strategy: IfElse, tol: 1e-7,",
            &["ranking.tol", "one of `tolerances`"],
        ),
        edit(
            "ranking weight negative",
            "w_sd: 2.0,",
            "w_sd: -2.0,",
            &["ranking.w_sd"],
        ),
        edit(
            "ranking strategy not studied",
            "strategies: [IfElse, Events],",
            "strategies: [Events],",
            &["ranking.strategy"],
        ),
        edit(
            "figure set out of range",
            "figures: (set: 5,",
            "figures: (set: 14,",
            &["figures.set", "1 to 13"],
        ),
        edit(
            "figure set zero",
            "figures: (set: 5,",
            "figures: (set: 0,",
            &["figures.set"],
        ),
        edit(
            "figure tolerance not studied",
            "figures: (set: 5, tol: 1e-3,",
            "figures: (set: 5, tol: 1e-4,",
            &["figures.tol"],
        ),
        Case::args(
            "missing study file",
            &["study", "no_such_study.ron", "--json"],
        )
        .expect(Fails(2, &["no_such_study.ron"])),
        Case::args(
            "a model file is not a study file",
            &["study", "{models}/monopod.ron", "--json"],
        )
        .expect(Fails(2, &["monopod.ron:14:5:", "`model`"])),
        Case::args(
            "output directory is a file",
            &[
                "study",
                "{models}/monopod_study.ron",
                "--out",
                "{models}/monopod.ron",
            ],
        )
        .expect(Fails(2, &["monopod.ron", "not a directory"])),
    ]
}

#[test]
fn study_files() {
    run_all(cases());
}
