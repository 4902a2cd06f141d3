//! Settings written where they would not be read.
//!
//! A model file states its orbit settings (`stride`, `newton`, `eigen`) once, in `orbit`; the
//! continuation script runs with them. The same names anywhere else — at the top level (the
//! older layout), in the continuation's `settings`, in a branch, in the orbit diagram's
//! `settings` (the diagram integrates with its own `stride` but solves for no orbit) — would be
//! a second copy that nothing reads. The parser refuses them as unknown fields; this module
//! turns that error into one that names the place and says where the setting belongs. The
//! position is the parser's: the field in the text.

/// The orbit settings, the fields of [`saltation_orbit::OrbitOptions`].
const ORBIT_SETTINGS: [&str; 3] = ["stride", "newton", "eigen"];

/// Where a setting was written: the struct the parser was reading (as serde names it), the
/// place in the file's words, and why the place does not read orbit settings.
struct Place {
    /// Rust name of the struct (the parser's `outer`).
    outer: &'static str,
    /// The place in the file.
    place: &'static str,
    /// Why nothing there reads it.
    why: &'static str,
}

/// The places an orbit setting may be mistakenly written.
const PLACES: [Place; 6] = [
    Place {
        outer: "ModelFile",
        place: "at the top level",
        why: "the file's orbit settings are one block",
    },
    Place {
        outer: "ContinuationSpec",
        place: "in `continuation`",
        why: "the continuation runs with the file's orbit settings",
    },
    Place {
        outer: "ContinuationOptions",
        place: "in `continuation.settings`",
        why: "the continuation runs with the file's orbit settings",
    },
    Place {
        outer: "BranchSpec",
        place: "in a branch of `continuation.branches`",
        why: "every branch runs with the file's orbit settings",
    },
    Place {
        outer: "DiagramSpec",
        place: "in `continuation.orbit_diagram`",
        why: "the orbit diagram integrates with its `settings.stride` and solves for no orbit",
    },
    Place {
        outer: "OrbitDiagramOptions",
        place: "in `continuation.orbit_diagram.settings`",
        why: "the orbit diagram solves for no orbit",
    },
];

/// The message for an orbit setting written where it would not be read, if `code` is the
/// parser's unknown-field error for one; `None` for any other error.
///
/// `` `stride` is not read in `continuation.settings`: the continuation runs with the file's
/// orbit settings; it belongs in `orbit: (stride: ...)` ``
pub(crate) fn misplaced_setting(code: &ron::Error) -> Option<String> {
    let ron::Error::NoSuchStructField {
        found,
        outer: Some(outer),
        ..
    } = code
    else {
        return None;
    };
    let field = ORBIT_SETTINGS.into_iter().find(|s| s == found)?;
    let place = PLACES.iter().find(|p| p.outer == outer)?;
    // The orbit diagram's own integration settings are its `settings.stride`.
    let home = if place.outer == "DiagramSpec" && field == "stride" {
        "`continuation.orbit_diagram.settings: (stride: ...)`".to_string()
    } else {
        format!("`orbit: ({field}: ...)`")
    };
    Some(format!(
        "`{field}` is not read {}: {}; it belongs in {home}",
        place.place, place.why
    ))
}

#[cfg(test)]
mod tests {
    use crate::{parse_model_file, FileError};

    /// The error of `text`: line, column, message.
    fn error(text: &str) -> (usize, usize, String) {
        match parse_model_file(text, "t.ron") {
            Err(FileError::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    const HEAD: &str = "(\n  model: SimplestWalker(gamma: 0.009),\n";
    const BRANCH: &str = "(label: \"a\", from: 0.009, to: 0.01, guess: [0.2, -0.2])";

    #[test]
    fn orbit_settings_outside_orbit_are_located_and_redirected() {
        let cases = [
            (
                format!("{HEAD}  stride: (t_max: 20.0),\n)"),
                (3, 3),
                "`stride` is not read at the top level",
                "`orbit: (stride: ...)`",
            ),
            (
                format!("{HEAD}  orbit: (),\n  newton: (ftol: 1e-12),\n)"),
                (4, 3),
                "`newton` is not read at the top level",
                "`orbit: (newton: ...)`",
            ),
            (
                format!(
                    "{HEAD}  continuation: (\n    param: \"gamma\",\n    branches: [{BRANCH}],\n    \
                     settings: (step: 1e-3,\n      stride: (t_max: 20.0)),\n  ),\n)"
                ),
                (7, 7),
                "`stride` is not read in `continuation.settings`: the continuation runs with \
                 the file's orbit settings",
                "`orbit: (stride: ...)`",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [{BRANCH}],\n    \
                     settings: (eigen: Native)),\n)"
                ),
                (4, 16),
                "`eigen` is not read in `continuation.settings`",
                "`orbit: (eigen: ...)`",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\",\n    newton: (max_iters: 3),\n    \
                     branches: [{BRANCH}]),\n)"
                ),
                (4, 5),
                "`newton` is not read in `continuation`",
                "`orbit: (newton: ...)`",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [(label: \"a\", \
                     from: 0.009, to: 0.01,\n    guess: [0.2, -0.2], stride: (t_max: 5.0))]),\n)"
                ),
                (4, 25),
                "`stride` is not read in a branch of `continuation.branches`",
                "`orbit: (stride: ...)`",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [],\n    orbit_diagram: \
                     (from: 0.01, to: 0.02, count: 2, start: [0, 0, 0, 0],\n      \
                     settings: (keep: 2, newton: (ftol: 1e-9)))),\n)"
                ),
                (5, 27),
                "`newton` is not read in `continuation.orbit_diagram.settings`",
                "`orbit: (newton: ...)`",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [],\n    orbit_diagram: \
                     (from: 0.01, to: 0.02, count: 2, start: [0, 0, 0, 0],\n      \
                     stride: (t_max: 5.0))),\n)"
                ),
                (5, 7),
                "`stride` is not read in `continuation.orbit_diagram`",
                "`continuation.orbit_diagram.settings: (stride: ...)`",
            ),
        ];
        for (text, at, what, home) in cases {
            let (line, column, message) = error(&text);
            assert!(
                message.contains(what) && message.ends_with(&format!("it belongs in {home}")),
                "{text}\n{message}"
            );
            assert_eq!((line, column), at, "{text}\n{message}");
        }
    }

    /// Other unknown fields keep the parser's message (with the fields it expected).
    #[test]
    fn other_unknown_fields_are_unchanged() {
        let (_, _, message) = error(&format!("{HEAD}  orbit: (strid: ()),\n)"));
        assert!(
            message.contains("strid") && message.contains("stride"),
            "{message}"
        );
        let (_, _, message) = error(&format!("{HEAD}  orbit: (stride: (newton: ())),\n)"));
        assert!(!message.contains("belongs"), "{message}");
    }
}
