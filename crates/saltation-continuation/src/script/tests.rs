//! Tests of continuation scripts: validation of every field, events, and runs.

use super::*;
use crate::diagram::MAX_DIAGRAM_COUNT;
use crate::diagram::{MAX_DIAGRAM_VALUES, MAX_KEEP, MAX_TRANSIENT};
use crate::options::MAX_POINTS;
use crate::run::continue_branch;
use crate::test_models::{bounce, broken_family, integer_family, QuadraticBounce};
use saltation_hybrid::{Bound, ParamError};

fn branch(from: f64, to: f64) -> BranchSpec {
    BranchSpec {
        label: "lower".into(),
        from,
        to,
        guess: vec![0.1],
        period_doublings: 0,
        max_points: None,
    }
}

fn diagram() -> DiagramSpec {
    DiagramSpec {
        from: 0.05,
        to: 0.2,
        count: 4,
        start: vec![0.0, 0.2],
        settings: OrbitDiagramOptions {
            transient: 60,
            keep: 4,
            component: 1,
        },
    }
}

/// The orbit options the scripts run with.
fn orbit() -> OrbitOptions {
    OrbitOptions::default()
}

fn spec() -> ContinuationSpec {
    let mut settings = ContinuationOptions::default();
    (settings.step, settings.max_step) = (0.02, 0.02);
    settings.corrector_tol = 1e-12;
    ContinuationSpec {
        param: "p".into(),
        branches: vec![branch(0.1, 0.2)],
        settings,
        orbit_diagram: Some(diagram()),
        curves: Vec::new(),
    }
}

fn field_of(r: Result<(), ContinuationError>) -> String {
    match r {
        Err(e) => {
            assert!(e.is_input_error(), "{e}");
            e.field()
                .unwrap_or_else(|| panic!("no field: {e}"))
                .to_string()
        }
        Ok(()) => panic!("expected an error"),
    }
}

#[test]
fn branch_fields_are_checked_and_named() {
    assert_eq!(branch(0.1, 0.2).validate(&bounce, "p"), Ok(()));
    type Edit = fn(&mut BranchSpec);
    let cases: &[(&str, Edit)] = &[
        ("from", |b| b.from = f64::NAN),
        ("from", |b| b.from = f64::NEG_INFINITY),
        ("to", |b| b.to = f64::INFINITY),
        ("to", |b| b.to = b.from),
        ("max_points", |b| b.max_points = Some(0)),
        ("max_points", |b| b.max_points = Some(MAX_POINTS + 1)),
        ("period_doublings", |b| {
            b.period_doublings = MAX_PERIOD_DOUBLINGS + 1
        }),
        ("guess[0]", |b| b.guess = vec![f64::NAN]),
        ("guess", |b| b.guess = vec![0.1, 0.2]),
        ("guess", |b| b.guess = vec![]),
    ];
    for (field, edit) in cases {
        let mut b = branch(0.1, 0.2);
        edit(&mut b);
        assert_eq!(field_of(b.validate(&bounce, "p")), *field, "{b:?}");
    }
    // The model cannot be built at `from`.
    let e = branch(0.1, 0.2).validate(&broken_family, "p").unwrap_err();
    assert!(
        matches!(e, ContinuationError::InvalidParameter { ref field, value, .. }
            if field == "from" && value == 0.1),
        "{e:?}"
    );
}

#[test]
fn an_integer_parameter_cannot_be_continued() {
    // Fractional start: rejected at `from`.
    let e = branch(0.2, 0.3).validate(&integer_family, "n").unwrap_err();
    assert!(
        matches!(e, ContinuationError::NotContinuable { ref param, value, .. }
            if param == "n" && value == 0.2),
        "{e:?}"
    );
    // Integral ends: rejected in between.
    let e = branch(6.0, 8.0).validate(&integer_family, "n").unwrap_err();
    match e {
        ContinuationError::NotContinuable { param, value, .. } => {
            assert_eq!(param, "n");
            assert!(
                value > 6.0 && value < 8.0 && value.fract() != 0.0,
                "{value}"
            );
        }
        other => panic!("{other:?}"),
    }
    // An unknown name is the same kind of error.
    let unknown = |_p: f64| -> Result<Bound<QuadraticBounce>, ParamError> {
        Err(ParamError::Unknown {
            name: "q".into(),
            known: vec!["p".into()],
        })
    };
    assert!(matches!(
        branch(0.1, 0.2).validate(&unknown, "q"),
        Err(ContinuationError::NotContinuable { .. })
    ));
}

#[test]
fn diagram_fields_are_checked_and_named() {
    assert_eq!(diagram().validate(2), Ok(()));
    type Edit = fn(&mut DiagramSpec);
    let cases: &[(&str, Edit)] = &[
        ("orbit_diagram.from", |d| d.from = f64::NAN),
        ("orbit_diagram.to", |d| d.to = f64::INFINITY),
        ("orbit_diagram.to", |d| (d.from, d.to) = (1e308, -1e308)),
        ("orbit_diagram.count", |d| d.count = 0),
        ("orbit_diagram.count", |d| d.count = MAX_DIAGRAM_COUNT + 1),
        ("orbit_diagram.count", |d| {
            (d.count, d.settings.keep) = (MAX_DIAGRAM_VALUES / MAX_KEEP + 1, MAX_KEEP)
        }),
        ("orbit_diagram.start", |d| d.start = vec![0.0]),
        ("orbit_diagram.start[1]", |d| d.start = vec![0.0, f64::NAN]),
        ("orbit_diagram.settings.component", |d| {
            d.settings.component = 99
        }),
        ("orbit_diagram.settings.keep", |d| d.settings.keep = 0),
        ("orbit_diagram.settings.keep", |d| {
            d.settings.keep = usize::MAX
        }),
        ("orbit_diagram.settings.transient", |d| {
            d.settings.transient = MAX_TRANSIENT + 1
        }),
    ];
    for (field, edit) in cases {
        let mut d = diagram();
        edit(&mut d);
        assert_eq!(field_of(d.validate(2)), *field, "{d:?}");
        assert_eq!(field_of(d.validate_for(&bounce)), *field, "{d:?}");
    }
    let e = diagram().validate_for(&broken_family).unwrap_err();
    assert_eq!(e.field(), Some("orbit_diagram.from"), "{e}");
}

#[test]
fn diagram_checks_the_model_at_every_value() {
    // The values are 0.05, 0.1, 0.15, 0.2: the first that cannot be built is named.
    fn window(lo: f64, hi: f64, p: f64) -> Result<Bound<QuadraticBounce>, ParamError> {
        if p > lo && p < hi {
            Err(ParamError::NonFinite {
                name: "p".into(),
                value: p,
            })
        } else {
            bounce(p)
        }
    }
    type Family = fn(f64) -> Result<Bound<QuadraticBounce>, ParamError>;
    let cases: [(Family, &str, f64); 3] = [
        (|p| window(0.12, 0.3, p), "orbit_diagram", 0.15),
        (|p| window(0.17, 0.3, p), "orbit_diagram.to", 0.2),
        (|p| window(0.0, 0.07, p), "orbit_diagram.from", 0.05),
    ];
    for (family, field, value) in cases {
        let e = diagram().validate_for(&family).unwrap_err();
        assert!(e.is_input_error(), "{e}");
        match e {
            ContinuationError::InvalidParameter {
                field: ref f,
                value: v,
                ..
            } => {
                assert_eq!(f, field, "{e}");
                assert!((v - value).abs() < 1e-12, "{e}");
            }
            ref other => panic!("{other:?}"),
        }
    }
    // An integer parameter between integral ends: 3.5 is rejected.
    let d = DiagramSpec {
        from: 3.0,
        to: 4.0,
        count: 3,
        ..diagram()
    };
    let e = d.validate_for(&integer_family).unwrap_err();
    assert!(
        matches!(e, ContinuationError::InvalidParameter { ref field, value, .. }
            if field == "orbit_diagram" && value == 3.5),
        "{e:?}"
    );
    let d = DiagramSpec { count: 2, ..d };
    assert_eq!(d.validate_for(&integer_family), Ok(()));
}

#[test]
fn a_script_where_no_branch_started_is_reported() {
    let failed = |label: &str| Branch {
        label: label.into(),
        period_k: 1,
        points: Vec::new(),
        end: EndReason::NotStarted("no convergence".into()),
        bifurcations: Vec::new(),
    };
    let mut r = ScriptResult {
        param: "p".into(),
        branches: vec![failed("up"), failed("down")],
        bifurcations: Vec::new(),
        orbit_diagram: None,
        curves: Vec::new(),
    };
    let e = r.no_branch_started().expect("nothing started");
    assert!(!e.is_input_error(), "{e}");
    let text = e.to_string();
    assert!(
        text.starts_with("no branch could start: \"up\": no convergence; \"down\": no convergence"),
        "{text}"
    );
    assert!(!text.contains("corrector failed"), "{text}");
    // An orbit diagram beside them does not make it a result (probe defect N10: rc 0 with
    // "2 branch(es), 0 point(s)").
    r.orbit_diagram = Some(Vec::new());
    assert_eq!(r.no_branch_started().map(|e| e.to_string()), Some(text));
    r.orbit_diagram = None;
    // One branch with points is a result.
    let started = run_script(&bounce, &orbit(), &spec(), &mut |_| {}).unwrap();
    r.branches.push(started.branches[0].clone());
    assert_eq!(r.no_branch_started(), None);
    assert_eq!(started.no_branch_started(), None);
}

#[test]
fn diagram_params_are_even_and_finite() {
    let d = DiagramSpec {
        from: 0.0,
        to: 1.7e308,
        count: 3,
        ..diagram()
    };
    let p = d.params();
    assert_eq!(p, [0.0, 0.85e308, 1.7e308]);
    let d = DiagramSpec {
        from: 2.0,
        to: 1.0,
        count: 5,
        ..diagram()
    };
    assert_eq!(d.params(), [2.0, 1.75, 1.5, 1.25, 1.0]);
    let d = DiagramSpec {
        count: 1,
        ..diagram()
    };
    assert_eq!(d.params(), [0.05]);
}

#[test]
fn spec_errors_name_the_section_field() {
    assert_eq!(spec().validate(&bounce, &orbit()), Ok(()));
    type Edit = fn(&mut ContinuationSpec);
    let cases: &[(&str, Edit)] = &[
        ("settings.max_step", |s| s.settings.max_step = f64::NAN),
        ("settings.max_points", |s| s.settings.max_points = 0),
        ("branches[2].from", |s| {
            s.branches = vec![branch(0.1, 0.2), branch(0.1, 0.15), branch(f64::NAN, 0.2)]
        }),
        ("branches[1].to", |s| {
            s.branches = vec![branch(0.1, 0.2), branch(0.1, 0.1)]
        }),
        ("branches[0].max_points", |s| {
            s.branches[0].max_points = Some(0)
        }),
        ("branches", |s| {
            s.branches = vec![branch(0.1, 0.2); MAX_BRANCHES + 1]
        }),
        // Nothing to compute.
        ("branches", |s| {
            (s.branches, s.orbit_diagram) = (vec![], None)
        }),
        // Set per branch by `from`/`to`: the settings' values would be overwritten.
        ("settings.direction", |s| s.settings.direction = -1.0),
        ("settings.p_min", |s| s.settings.p_min = 0.0),
        ("settings.p_max", |s| s.settings.p_max = 1.0),
        ("orbit_diagram.count", |s| {
            if let Some(d) = &mut s.orbit_diagram {
                d.count = 0;
            }
        }),
        ("orbit_diagram.settings.component", |s| {
            if let Some(d) = &mut s.orbit_diagram {
                d.settings.component = 99;
            }
        }),
    ];
    for (field, edit) in cases {
        let mut s = spec();
        edit(&mut s);
        assert_eq!(field_of(s.validate(&bounce, &orbit())), *field);
    }
    let e = ContinuationSpec {
        branches: vec![],
        orbit_diagram: None,
        ..spec()
    }
    .validate(&bounce, &orbit())
    .unwrap_err();
    assert!(e.to_string().contains("nothing to compute"), "{e}");
    let mut s = spec();
    s.settings.p_max = 1.0;
    let e = s.validate(&bounce, &orbit()).unwrap_err();
    assert!(e.to_string().contains("from/to; remove it"), "{e}");
    // An orbit diagram alone is something to compute.
    let s = ContinuationSpec {
        branches: vec![],
        ..spec()
    };
    assert_eq!(s.validate(&bounce, &orbit()), Ok(()));
    // The orbit options beside the script are checked and named as theirs, and an event-time
    // predictor's event must be one of their stride's.
    let mut short = orbit();
    short.stride.t_max = f64::INFINITY;
    assert_eq!(field_of(spec().validate(&bounce, &short)), "stride.t_max");
    let mut s = spec();
    s.settings.predictor = crate::Predictor::EventTime { event: 1 };
    assert_eq!(
        field_of(s.validate(&bounce, &orbit())),
        "settings.predictor.event"
    );
    let e = spec().validate(&broken_family, &orbit()).unwrap_err();
    assert_eq!(e.field(), Some("branches[0].from"), "{e}");
    let e = spec().validate(&integer_family, &orbit()).unwrap_err();
    assert_eq!(e.field(), Some("param"), "{e}");
    assert!(e.to_string().contains("cannot be continued"), "{e}");
}

#[test]
fn run_script_rejects_an_invalid_section_before_computing() {
    let mut s = spec();
    if let Some(d) = &mut s.orbit_diagram {
        d.count = 0;
    }
    let mut events = 0;
    let r = run_script(&bounce, &orbit(), &s, &mut |_| events += 1);
    assert!(
        matches!(r, Err(ContinuationError::InvalidOption { ref field, .. })
            if field == "orbit_diagram.count"),
        "{r:?}"
    );
    assert_eq!(events, 0, "nothing was computed");
    let mut s = spec();
    s.branches[0].max_points = Some(0);
    let r = run_script(&bounce, &orbit(), &s, &mut |_| {});
    assert_eq!(
        r.as_ref().err().and_then(ContinuationError::field),
        Some("branches[0].max_points"),
        "{r:?}"
    );
    // A model that cannot be built at the start is an error, not a branch that "could not
    // start".
    let r = run_script(&broken_family, &orbit(), &spec(), &mut |_| {});
    assert!(
        matches!(r, Err(ContinuationError::InvalidParameter { .. })),
        "{r:?}"
    );
}

#[test]
fn bad_starts_name_the_branch_field() {
    let b = branch(0.1, 0.2);
    let param = ParamError::NonFinite {
        name: "other".into(),
        value: f64::NAN,
    };
    let cases = [
        (ContinuationError::Param(param.clone()), "branches[3].from"),
        (
            ContinuationError::InvalidParameter {
                field: "start.param".into(),
                value: 0.1,
                source: param,
            },
            "branches[3].from",
        ),
        (
            ContinuationError::invalid("start.u[1]", "is not finite"),
            "branches[3].guess[1]",
        ),
        (
            ContinuationError::Orbit(OrbitError::GuessLength {
                expected: 1,
                got: 2,
            }),
            "branches[3].guess",
        ),
    ];
    for (e, field) in cases {
        assert!(start_is_bad_input(&e), "{e}");
        let e = start_error(3, &b, e);
        assert!(e.is_input_error(), "{e}");
        assert_eq!(e.field(), Some(field), "{e}");
    }
    assert!(!start_is_bad_input(&ContinuationError::Singular { p: 0.1 }));
}

#[test]
fn continue_branch_checks_its_start() {
    let start = |param: f64, u: f64| Start {
        param,
        u: vec![u],
        label: "s".into(),
        period_k: 1,
    };
    let opts = ContinuationOptions::default();
    type Family = fn(f64) -> Result<Bound<QuadraticBounce>, ParamError>;
    let field = |f: Family, s: Start| {
        let e = continue_branch(&f, &s, &orbit(), &opts).unwrap_err();
        assert!(e.is_input_error(), "{e}");
        e.field().map(str::to_string)
    };
    assert_eq!(
        field(bounce, start(f64::NAN, 0.1)).as_deref(),
        Some("start.param")
    );
    assert_eq!(
        field(bounce, start(0.1, f64::INFINITY)).as_deref(),
        Some("start.u[0]")
    );
    assert_eq!(
        field(broken_family, start(0.1, 0.1)).as_deref(),
        Some("start.param")
    );
    let mut bad = opts.clone();
    bad.max_points = 0;
    let e = continue_branch(&bounce, &start(0.1, 0.1), &orbit(), &bad).unwrap_err();
    assert_eq!(e.field(), Some("max_points"));
    // A start outside [p_min, p_max] is an input error, not a branch that ends at once.
    let mut bounded = opts.clone();
    (bounded.p_min, bounded.p_max) = (0.0, 0.2);
    let e = continue_branch(&bounce, &start(0.3, 0.1), &orbit(), &bounded).unwrap_err();
    assert!(e.is_input_error(), "{e}");
    assert_eq!(e.field(), Some("start.param"));
    assert!(e.to_string().contains("outside"), "{e}");
}

/// A family that rejects parameter values (`model_at` returning an error, as a model's range
/// check does) ends the branch at the edge of its valid range, saying so.
#[test]
fn a_rejected_parameter_ends_the_branch_at_the_edge() {
    let limited = |p: f64| {
        if p > 0.15 {
            Err(ParamError::OutOfRange {
                name: "p".into(),
                value: p,
                range: "p <= 0.15",
            })
        } else {
            bounce(p)
        }
    };
    let opts = ContinuationOptions {
        p_max: 0.2,
        step: 0.01,
        max_step: 0.02,
        min_step: 1e-6,
        ..ContinuationOptions::default()
    };
    let s = Start::new(0.1, vec![0.1]).labelled("limited");
    let b = continue_branch(&limited, &s, &orbit(), &opts).unwrap();
    assert!(
        matches!(&b.end, EndReason::ParameterRejected(why) if why.contains("p <= 0.15")),
        "{}",
        b.end
    );
    let last = b.points.last().unwrap().param;
    assert!(
        (0.15 - 1e-4..=0.15).contains(&last),
        "last point at p = {last}"
    );
    // Every point is the closed-form fixed point.
    for p in &b.points {
        assert!((p.u[0] - QuadraticBounce::fixed_point(p.param)).abs() < 1e-9);
    }
}

#[test]
fn events_count_branches_points_and_diagram_values() {
    let mut s = spec();
    s.branches.push(BranchSpec {
        label: "down".into(),
        ..branch(0.1, 0.05)
    });
    let mut log = Vec::new();
    let r = run_script_with_events(&bounce, &orbit(), &s, &mut |e| {
        log.push(match e {
            ScriptEvent::BranchStarted {
                index,
                count,
                from,
                to,
                max_points,
                ..
            } => format!("start {index}/{count} {from}->{to} max {max_points}"),
            ScriptEvent::Point {
                index, progress, ..
            } => format!("point {index} {}/{}", progress.points, progress.max_points),
            ScriptEvent::BranchDone {
                index, points, end, ..
            } => format!("done {index} {points} {end}"),
            ScriptEvent::DiagramStarted { total } => format!("diagram {total}"),
            ScriptEvent::DiagramProgress { done, total } => format!("value {done}/{total}"),
        })
    })
    .unwrap();
    assert_eq!(r.branches.len(), 2);
    for b in &r.branches {
        assert_eq!(b.end, EndReason::ParameterBound);
        for p in &b.points {
            let exact = QuadraticBounce::fixed_point(p.param);
            assert!((p.u[0] - exact).abs() < 1e-9, "{} vs {exact}", p.u[0]);
            assert!((p.multipliers[0].re - 2.0 * exact).abs() < 1e-8);
        }
    }
    let n0 = r.branches[0].points.len();
    let n1 = r.branches[1].points.len();
    let mut expected = vec!["start 0/2 0.1->0.2 max 200".to_string()];
    expected.extend((1..=n0).map(|k| format!("point 0 {k}/200")));
    expected.push(format!("done 0 {n0} parameter bound reached"));
    expected.push("start 1/2 0.1->0.05 max 200".into());
    expected.extend((1..=n1).map(|k| format!("point 1 {k}/200")));
    expected.push(format!("done 1 {n1} parameter bound reached"));
    expected.push("diagram 4".into());
    expected.extend((1..=4).map(|k| format!("value {k}/4")));
    assert_eq!(log, expected);
    let cols = r.orbit_diagram.unwrap();
    assert_eq!(cols.len(), 4);
    for c in &cols {
        let exact = QuadraticBounce::fixed_point(c.param);
        assert!(c.values.iter().all(|v| (v - exact).abs() < 1e-8), "{c:?}");
    }
}
