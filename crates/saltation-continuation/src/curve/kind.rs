//! Which codimension-one bifurcation a curve continues.

use crate::branch::BifurcationKind;
use serde::{Deserialize, Serialize};

/// The codimension-one bifurcation of a hybrid periodic orbit a curve follows in two
/// parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveKind {
    /// A multiplier at +1 (saddle-node of orbits).
    Fold,
    /// A multiplier at −1 (flip).
    PeriodDoubling,
    /// A complex pair `e^{±iθ}` on the unit circle.
    NeimarkSacker,
    /// The admissibility boundary (an orbit touching a guard tangentially, a contact force at
    /// zero).
    Grazing,
}

impl CurveKind {
    /// The kinds' names as the command line and the JSON spell them.
    pub const NAMES: [&'static str; 4] = ["fold", "period_doubling", "neimark_sacker", "grazing"];

    /// The kind named `name` (one of [`CurveKind::NAMES`]).
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "fold" => CurveKind::Fold,
            "period_doubling" => CurveKind::PeriodDoubling,
            "neimark_sacker" => CurveKind::NeimarkSacker,
            "grazing" => CurveKind::Grazing,
            _ => return None,
        })
    }

    /// The name as [`CurveKind::NAMES`] spells it.
    pub fn key(self) -> &'static str {
        match self {
            CurveKind::Fold => "fold",
            CurveKind::PeriodDoubling => "period_doubling",
            CurveKind::NeimarkSacker => "neimark_sacker",
            CurveKind::Grazing => "grazing",
        }
    }

    /// The one-parameter bifurcation a curve of this kind starts from.
    pub fn bifurcation(self) -> BifurcationKind {
        match self {
            CurveKind::Fold => BifurcationKind::Fold,
            CurveKind::PeriodDoubling => BifurcationKind::PeriodDoubling,
            CurveKind::NeimarkSacker => BifurcationKind::NeimarkSacker,
            CurveKind::Grazing => BifurcationKind::Grazing,
        }
    }

    /// Number of conditions added to `F = 0` (the entries of the bordered system's `G`): 1,
    /// or 2 for Neimark–Sacker (whose extra unknown is `κ = cos θ`).
    pub(crate) fn conditions(self) -> usize {
        match self {
            CurveKind::NeimarkSacker => 2,
            _ => 1,
        }
    }
}

impl std::fmt::Display for CurveKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.bifurcation().name())
    }
}
