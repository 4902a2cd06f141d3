//! The `curves` of a `continuation` section: two-parameter curves from the bifurcations its
//! branches find, as a file writes them, read into the library's [`CurveSpec`]s.
//!
//! ```ron
//! curves: [
//!     (kind: Fold, branch: "towards stronger ground damping", param2: "mu", to2: 0.9),
//!     (kind: PeriodDoubling, branch: "period 1", index: 0, param2: "e", to2: 0.3,
//!      direction: Backward, max_points: 400),
//! ],
//! ```
//!
//! `saltation continue` continues each (after the branches) and draws them all in one
//! two-parameter diagram beside the branch figures.

use crate::moved::{Moves, ORBIT_SETTINGS};
use saltation_continuation::{CurveDirection, CurveKind, CurveSpec};
use serde::{Deserialize, Serialize};

/// Which bifurcation a requested curve follows (grazing curves are not implemented: the name
/// is refused where it is written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CurveKindSection {
    /// A multiplier at +1.
    Fold,
    /// A multiplier at −1.
    PeriodDoubling,
    /// A complex pair on the unit circle.
    NeimarkSacker,
}

/// Which way a requested curve leaves its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum DirectionSection {
    /// Towards `to2` (default).
    #[default]
    Forward,
    /// Away from `to2`.
    Backward,
}

/// One request of `curves`: the bifurcations of `kind` on the branch labelled `branch` (all of
/// them, or the one `index`, counted from 0 in the order found), each continued in the
/// section's `param` and `param2` until `param2` reaches `to2`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveSection {
    /// `Fold`, `PeriodDoubling` or `NeimarkSacker`.
    pub kind: CurveKindSection,
    /// The label of one of the section's branches.
    pub branch: String,
    /// Which bifurcation of that kind on the branch (0 = the first found); all when absent.
    #[serde(default)]
    pub index: Option<usize>,
    /// The second parameter: a real-valued parameter of the model other than `param`.
    pub param2: String,
    /// Where each curve ends: this value of `param2`.
    pub to2: f64,
    /// `Forward` (towards `to2`, default) or `Backward`.
    #[serde(default)]
    pub direction: DirectionSection,
    /// Largest number of points per curve (default: the section's `settings.max_points`).
    #[serde(default)]
    pub max_points: Option<usize>,
}

impl CurveSection {
    /// The library's request.
    pub fn to_spec(&self) -> CurveSpec {
        CurveSpec {
            kind: match self.kind {
                CurveKindSection::Fold => CurveKind::Fold,
                CurveKindSection::PeriodDoubling => CurveKind::PeriodDoubling,
                CurveKindSection::NeimarkSacker => CurveKind::NeimarkSacker,
            },
            branch: self.branch.clone(),
            index: self.index,
            param2: self.param2.clone(),
            to2: self.to2,
            direction: match self.direction {
                DirectionSection::Forward => CurveDirection::Forward,
                DirectionSection::Backward => CurveDirection::Backward,
            },
            max_points: self.max_points,
        }
    }
}

impl Moves for CurveSection {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

#[cfg(test)]
mod tests {
    use crate::{load_model_file, parse_model_file, FileError};
    use saltation_continuation::{CurveDirection, CurveKind};
    use std::path::Path;

    fn shipped() -> (String, String) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../models/equations/vibrating_table_forced.ron");
        let text = std::fs::read_to_string(&path).unwrap();
        (path.display().to_string(), text)
    }

    /// The shipped request, read into the library's; absent fields at their defaults.
    #[test]
    fn the_shipped_curves_are_read() {
        let (path, _) = shipped();
        let file = load_model_file(Path::new(&path)).unwrap();
        let spec = file.script().unwrap();
        assert_eq!(spec.curves.len(), 2);
        let c = &spec.curves[0];
        assert_eq!(c.kind, CurveKind::PeriodDoubling);
        assert_eq!((c.branch.as_str(), c.index), ("period 1", Some(0)));
        assert_eq!((c.param2.as_str(), c.to2), ("e", 0.8));
        assert_eq!(c.direction, CurveDirection::Forward);
        assert_eq!(c.max_points, None);
    }

    /// Mistakes in a request are refused at load time at their line and column: a kind that
    /// cannot be continued, an unknown field, a branch label the section does not have, a
    /// second parameter that is the first, a `to2` at the model's value.
    #[test]
    fn mistakes_are_located() {
        let (_, text) = shipped();
        let line_of = |needle: &str| text[..text.find(needle).unwrap()].matches('\n').count() + 1;
        let kind_line = line_of(
            "(kind: PeriodDoubling, branch: \"period 1\", index: 0, param2: \"e\", to2: 0.8)",
        );
        for (from, to, says) in [
            (
                "kind: PeriodDoubling, branch: \"period 1\", index: 0, param2: \"e\", to2: 0.8",
                "kind: Grazing, branch: \"period 1\", index: 0, param2: \"e\", to2: 0.8",
                "Grazing",
            ),
            (
                "index: 0, param2: \"e\", to2: 0.8",
                "index: 0, param2: \"e\", to2: 0.8, dir: Forward",
                "dir",
            ),
            (
                "branch: \"period 1\", index: 0, param2: \"e\", to2: 0.8",
                "branch: \"period one\", index: 0, param2: \"e\", to2: 0.8",
                "period one",
            ),
            (
                "param2: \"e\", to2: 0.8",
                "param2: \"Gamma\", to2: 0.8",
                "second one",
            ),
            (
                "param2: \"e\", to2: 0.8",
                "param2: \"e\", to2: 0.5",
                "no length",
            ),
            (
                "param2: \"e\", to2: 0.8",
                "param2: \"e\", to2: 0.8, max_points: 0",
                "max_points",
            ),
            (
                "index: 0, param2: \"e\", to2: 0.8",
                "index: -1, param2: \"e\", to2: 0.8",
                "",
            ),
        ] {
            assert!(text.contains(from), "{from}");
            let edited = text.replacen(from, to, 1);
            match parse_model_file(&edited, "t.ron") {
                Err(FileError::Parse { line, message, .. }) => {
                    assert_eq!(line, kind_line, "{to}: {message}");
                    assert!(message.contains(says), "{to}: {message}");
                }
                other => panic!("{to}: {other:?}"),
            }
        }
    }
}
