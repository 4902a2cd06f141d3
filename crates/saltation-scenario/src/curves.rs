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
