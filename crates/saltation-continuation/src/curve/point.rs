//! What a curve produces: its points, its codimension-two points, why it ended.

use super::kind::CurveKind;
use crate::branch::Bifurcation;
use saltation_orbit::Multiplier;
use serde::{Deserialize, Serialize};

/// One orbit on a curve of codimension-one bifurcations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// `[p, p2]`.
    pub params: [f64; 2],
    /// Fixed point in reduced coordinates.
    pub u: Vec<f64>,
    /// Fixed point, full state.
    pub x0: Vec<f64>,
    /// Duration of the (composed) stride.
    pub period: f64,
    /// Multipliers of the stride Jacobian (as on a branch), by decreasing modulus.
    pub multipliers: Vec<Multiplier>,
    /// The angle `θ = arccos κ` of the critical pair `e^{±iθ}` (Neimark–Sacker curves only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub angle: Option<f64>,
    /// Whether the orbit is admissible, for a model with admissibility conditions.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub admissible: Option<bool>,
}

/// Kinds of codimension-two points met on a curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Codim2Kind {
    /// Two folds meet (on a fold curve: the normal-form coefficient `wᵀF_uu(v, v)` vanishes and
    /// the curve turns back in the parameter plane).
    Cusp,
    /// A multiplier at +1 and one at −1.
    FoldFlip,
    /// A double multiplier +1 (1:1 resonance).
    Resonance11,
    /// A double multiplier −1 (1:2 resonance).
    Resonance12,
    /// A multiplier at +1 and a complex pair on the unit circle.
    FoldNeimarkSacker,
    /// A multiplier at −1 and a complex pair on the unit circle.
    FlipNeimarkSacker,
    /// The curve meets the admissibility boundary (fold–grazing, flip–grazing, …).
    Grazing,
    /// On a grazing curve: a multiplier passes +1 (where it meets a fold curve).
    GrazingFold,
    /// On a grazing curve: a multiplier passes −1 (where it meets a period-doubling curve).
    GrazingFlip,
    /// On a grazing curve: a complex pair crosses the unit circle (where it meets a
    /// Neimark–Sacker curve).
    GrazingNeimarkSacker,
}

impl Codim2Kind {
    /// The name as the JSON spells it.
    pub fn key(self) -> &'static str {
        match self {
            Codim2Kind::Cusp => "cusp",
            Codim2Kind::FoldFlip => "fold_flip",
            Codim2Kind::Resonance11 => "resonance_1_1",
            Codim2Kind::Resonance12 => "resonance_1_2",
            Codim2Kind::FoldNeimarkSacker => "fold_neimark_sacker",
            Codim2Kind::FlipNeimarkSacker => "flip_neimark_sacker",
            Codim2Kind::Grazing => "grazing",
            Codim2Kind::GrazingFold => "grazing_fold",
            Codim2Kind::GrazingFlip => "grazing_flip",
            Codim2Kind::GrazingNeimarkSacker => "grazing_neimark_sacker",
        }
    }

    /// In words, on a curve of `curve`: "cusp", "fold–flip", "1:1 resonance", "fold–grazing".
    pub fn name(self, curve: CurveKind) -> String {
        match self {
            Codim2Kind::Cusp => "cusp".into(),
            Codim2Kind::FoldFlip => "fold–flip".into(),
            Codim2Kind::Resonance11 => "1:1 resonance".into(),
            Codim2Kind::Resonance12 => "1:2 resonance".into(),
            Codim2Kind::FoldNeimarkSacker => "fold–Neimark–Sacker".into(),
            Codim2Kind::FlipNeimarkSacker => "flip–Neimark–Sacker".into(),
            Codim2Kind::Grazing => match curve {
                CurveKind::Fold => "fold–grazing".into(),
                CurveKind::PeriodDoubling => "flip–grazing".into(),
                CurveKind::NeimarkSacker => "Neimark–Sacker–grazing".into(),
                CurveKind::Grazing => "grazing".into(),
            },
            Codim2Kind::GrazingFold => "grazing–fold".into(),
            Codim2Kind::GrazingFlip => "grazing–flip".into(),
            Codim2Kind::GrazingNeimarkSacker => "grazing–Neimark–Sacker".into(),
        }
    }
}

/// A located codimension-two point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Codim2Point {
    /// What kind.
    pub kind: Codim2Kind,
    /// The orbit there.
    pub point: CurvePoint,
}

/// Why a curve ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveEnd {
    /// `P2` reached the requested value; the last point lies exactly on it.
    Reached,
    /// The requested number of points was computed.
    MaxPoints,
    /// The curve came back to its first point.
    Closed,
    /// The corrector failed even at the smallest step (the text: its last error).
    CorrectorFailed(String),
    /// The stride map failed near the last point: the orbit ceases to exist there.
    OrbitLost(String),
    /// The model rejected the parameter values beyond the last point (outside a parameter's
    /// declared range).
    ParameterRejected(String),
    /// A Neimark–Sacker curve reached a strong resonance (the text: `1:1` or `1:2`, where
    /// `κ = cos θ` reaches ±1): beyond it the defining system's solutions have `|κ| > 1`, a real
    /// pair of multipliers `μ`, `1/μ` (a neutral saddle, not a bifurcation), so the curve ends
    /// at its last point with `|κ| ≤ 1`; the resonance itself is among the codimension-two
    /// points.
    StrongResonance(String),
}

impl CurveEnd {
    /// A short key for the JSON (`reached`, `max_points`, `closed`, `corrector_failed`,
    /// `orbit_lost`, `parameter_rejected`, `strong_resonance`).
    pub fn key(&self) -> &'static str {
        match self {
            CurveEnd::Reached => "reached",
            CurveEnd::MaxPoints => "max_points",
            CurveEnd::Closed => "closed",
            CurveEnd::CorrectorFailed(_) => "corrector_failed",
            CurveEnd::OrbitLost(_) => "orbit_lost",
            CurveEnd::ParameterRejected(_) => "parameter_rejected",
            CurveEnd::StrongResonance(_) => "strong_resonance",
        }
    }
}

impl std::fmt::Display for CurveEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CurveEnd::Reached => write!(f, "the second parameter reached its end value"),
            CurveEnd::MaxPoints => write!(f, "maximum number of points reached"),
            CurveEnd::Closed => write!(f, "the curve closed on itself"),
            CurveEnd::CorrectorFailed(s) => {
                write!(f, "corrector failed at the smallest step: {s}")
            }
            CurveEnd::OrbitLost(s) => write!(f, "orbit ceases to exist: {s}"),
            CurveEnd::ParameterRejected(s) => write!(f, "parameter rejected by the model: {s}"),
            CurveEnd::StrongResonance(s) => write!(
                f,
                "the Neimark–Sacker curve reached a {s} resonance: beyond it the critical \
                 multipliers are a real pair μ, 1/μ (a neutral saddle, not a bifurcation)"
            ),
        }
    }
}

/// A continued curve of codimension-one bifurcations in two parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    /// What it continues.
    pub kind: CurveKind,
    /// The parameters `[P, P2]`.
    pub params: [String; 2],
    /// Period multiplicity `k` (fixed points of `P^k`).
    pub period_k: usize,
    /// The codimension-one point located in `P` at the starting `P2`, where the curve starts.
    pub start: Bifurcation,
    /// The points, in continuation order.
    pub points: Vec<CurvePoint>,
    /// Codimension-two points met, in order.
    pub codim2: Vec<Codim2Point>,
    /// The admissibility condition a grazing curve keeps at zero (grazing curves only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub grazing: Option<super::grazing::GrazingCondition>,
    /// Why it ended.
    pub end: CurveEnd,
}
