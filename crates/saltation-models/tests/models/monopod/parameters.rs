//! The monopod: parameters and the model file.

use super::*;

#[test]
fn table2_passes_the_parameter_checks() {
    assert_eq!(FOUR_PI_SQ, W2);
    for p in Monopod::TABLE2 {
        for s in Strategy::ALL {
            Monopod::new(s).at(p).check_params().unwrap();
        }
    }
    assert_eq!(Monopod::TABLE2[NOMINAL], Monopod::NOMINAL);
    assert_eq!(
        Bound::<Monopod>::default(),
        Monopod::default().at(Monopod::NOMINAL)
    );
}

#[test]
fn out_of_range_parameters_are_refused_by_name() {
    let model = Model::Monopod(Bound::default());
    for (name, value) in [
        ("m1", W2),
        ("m1", 50.0),
        ("m1", 0.0),
        ("f", 0.0),
        ("f", -1.0),
        ("b", -1.0),
        ("k", -0.5),
    ] {
        match model.with_param(name, value) {
            Err(ParamError::OutOfRange {
                name: n, value: v, ..
            }) => {
                assert_eq!((n.as_str(), v), (name, value))
            }
            other => panic!("{name} = {value}: {other:?}"),
        }
    }
    for name in ["b", "m1", "k", "f"] {
        for value in [f64::NAN, f64::INFINITY] {
            match model.with_param(name, value) {
                Err(e @ ParamError::NonFinite { .. }) => {
                    assert!(e.to_string().contains(&format!("`{name}`")), "{e}")
                }
                other => panic!("{name} = {value}: {other:?}"),
            }
        }
        // A NaN that bypasses with_param is caught by check_params.
        let mut p = Monopod::NOMINAL;
        match name {
            "b" => p[B] = f64::NAN,
            "m1" => p[M1] = f64::NAN,
            "k" => p[K] = f64::NAN,
            _ => p[F] = f64::NAN,
        }
        let e = Monopod::default().at(p).check_params().unwrap_err();
        assert!(
            matches!(&e, ParamError::NonFinite { name: n, .. } if n == name),
            "{e:?}"
        );
    }
    // A value in range is taken; the strategy survives the round trip.
    let m = Model::Monopod(Monopod::new(Strategy::IfElse).at(Monopod::NOMINAL));
    match m.with_param("m1", 20.0).unwrap() {
        Model::Monopod(p) => assert_eq!(p, Monopod::new(Strategy::IfElse).at(Monopod::TABLE2[0])),
        other => panic!("{other:?}"),
    }
    // The strategy is a choice, not a numeric parameter: setting it by number is refused,
    // listing the parameters there are.
    match model.with_param("strategy", 1.0) {
        Err(ParamError::Unknown { known, .. }) => assert_eq!(known, ["b", "m1", "k", "f"]),
        other => panic!("{other:?}"),
    }
}

pub(crate) fn shipped_text() -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/monopod.ron");
    (
        path.display().to_string(),
        std::fs::read_to_string(&path).unwrap(),
    )
}

#[test]
fn model_file_parses_with_both_strategies() {
    let (path, text) = shipped_text();
    let file = load_model_file(Path::new(&path)).unwrap();
    assert_eq!(file.model, Model::Monopod(Bound::default()));
    let init = file.initial.as_ref().unwrap();
    assert_eq!(
        (init.t, init.x.as_slice(), init.mode),
        (0.0, &Monopod::Q0[..], FLIGHT)
    );
    for (name, strategy) in [("IfElse", Strategy::IfElse), ("Events", Strategy::Events)] {
        let edited = text.replacen(
            "f: 0.051, strategy: Events",
            &format!("f: 0.051, strategy: {name}"),
            1,
        );
        assert_eq!(edited != text, name == "IfElse");
        let file = parse_model_file(&edited, "monopod.ron").unwrap();
        assert_eq!(
            file.model,
            Model::Monopod(Monopod::new(strategy).at(Monopod::NOMINAL))
        );
        assert_eq!(file.model.modes(), if name == "IfElse" { 1 } else { 2 });
    }
    // Without the field the strategy is events.
    let edited = text.replacen(", strategy: Events", "", 1);
    assert_ne!(edited, text);
    let file = parse_model_file(&edited, "monopod.ron").unwrap();
    assert_eq!(file.model, Model::Monopod(Bound::default()));
}

#[test]
fn unknown_strategy_is_a_located_parse_error() {
    let (_, text) = shipped_text();
    let edited = text.replacen(
        "f: 0.051, strategy: Events",
        "f: 0.051, strategy: Hopping",
        1,
    );
    assert_ne!(edited, text);
    let at = edited.find("Hopping").unwrap();
    let want_line = edited[..at].matches('\n').count() + 1;
    let want_column = at - edited[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    match parse_model_file(&edited, "monopod.ron") {
        Err(FileError::Parse {
            origin,
            line,
            column,
            message,
        }) => {
            println!("monopod: unknown strategy -> {origin}:{line}:{column}: {message}");
            assert_eq!(origin, "monopod.ron");
            assert_eq!(line, want_line, "{message}");
            assert_eq!(column, want_column, "{message}");
            assert!(message.contains("Hopping"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // An out-of-range parameter in the file is located too.
    let edited = text.replacen("m1: 1.88", "m1: 50.0", 1);
    assert_ne!(edited, text);
    let want_line = edited[..edited.find("m1: 50.0").unwrap()]
        .matches('\n')
        .count()
        + 1;
    match parse_model_file(&edited, "monopod.ron") {
        Err(FileError::Parse { line, message, .. }) => {
            assert_eq!(line, want_line, "{message}");
            assert!(message.contains("m1"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}
