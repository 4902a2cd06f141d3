//! What continuation produces: branches of orbits, bifurcations, why a branch ended.

use saltation_orbit::Multiplier;
use serde::{Deserialize, Serialize};

/// One orbit on a branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchPoint {
    /// Parameter value.
    pub param: f64,
    /// Fixed point in reduced coordinates.
    pub u: Vec<f64>,
    /// Fixed point, full state.
    pub x0: Vec<f64>,
    /// Duration of the (composed) stride.
    pub period: f64,
    /// Multipliers of the full-state stride Jacobian (of the section's reduced Jacobian for a
    /// model whose `multipliers_on_section` is true), by decreasing modulus.
    pub multipliers: Vec<Multiplier>,
    /// All multipliers strictly inside the unit circle.
    pub stable: bool,
    /// Whether the orbit is physically admissible (contact forces push, gaps stay open), for
    /// a model with such conditions (`EvalModel::admissibility`); `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub admissible: Option<bool>,
    /// Times of the stride's events from its start (a hopper's flight time is the first).
    #[serde(default)]
    pub event_times: Vec<f64>,
    /// Test functions at this point: `[fold, period doubling, Neimark–Sacker]`.
    #[serde(skip)]
    pub tests: [f64; 3],
}

/// Kinds of codimension-one bifurcations of a fixed point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BifurcationKind {
    /// A multiplier crosses +1 (`det(J − I) = 0`): a fold (limit point), passed by arclength.
    Fold,
    /// A multiplier crosses −1 (`det(J + I) = 0`): period doubling (flip).
    PeriodDoubling,
    /// A complex pair crosses the unit circle: Neimark–Sacker (torus).
    NeimarkSacker,
    /// The orbit stops being admissible (or becomes admissible): a contact force reaches zero
    /// inside its contact phase, or a gap closes inside its free phase. Beyond it the computed
    /// orbit is not physical.
    Grazing,
}

impl BifurcationKind {
    /// Human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            BifurcationKind::Fold => "fold",
            BifurcationKind::PeriodDoubling => "period doubling",
            BifurcationKind::NeimarkSacker => "Neimark–Sacker bifurcation",
            BifurcationKind::Grazing => "grazing (admissibility boundary)",
        }
    }
}

/// A located bifurcation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bifurcation {
    /// What kind.
    pub kind: BifurcationKind,
    /// Label of the branch it lies on.
    pub branch: String,
    /// Parameter value.
    pub param: f64,
    /// Fixed point, full state.
    pub x0: Vec<f64>,
    /// Fixed point, reduced coordinates.
    #[serde(skip)]
    pub u: Vec<f64>,
    /// Duration of the (composed) stride there.
    pub period: f64,
    /// Multipliers there.
    pub multipliers: Vec<Multiplier>,
}

/// Why a branch ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The parameter bound was reached.
    ParameterBound,
    /// The requested number of points was computed.
    MaxPoints,
    /// The corrector failed even at the smallest step: the branch ends here (e.g. the orbit
    /// ceases to exist or the Newton matrix is singular).
    CorrectorFailed(String),
    /// The branch could not start (a script's branch whose orbit was not found from its guess,
    /// or a switch at a period doubling that found no new branch): it has no points; the text
    /// says why.
    NotStarted(String),
    /// The branch was asked to end at its first bifurcation of this kind, located at its last
    /// point.
    StoppedAt(BifurcationKind),
    /// The stride map failed near the last point (guard no longer reached, grazing, …): the end
    /// of existence of the orbit.
    StrideFailed(String),
    /// The family rejected the parameter values beyond the last point
    /// ([`crate::ModelFamily::model_at`] returned an error, e.g. a value outside the parameter's
    /// declared range): the branch ends at the edge of the valid range.
    ParameterRejected(String),
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::ParameterBound => write!(f, "parameter bound reached"),
            EndReason::MaxPoints => write!(f, "maximum number of points reached"),
            EndReason::CorrectorFailed(s) => {
                write!(f, "corrector failed at the smallest step: {s}")
            }
            EndReason::StrideFailed(s) => write!(f, "orbit ceases to exist: {s}"),
            EndReason::NotStarted(s) => write!(f, "could not start: {s}"),
            EndReason::ParameterRejected(s) => write!(f, "parameter rejected by the model: {s}"),
            EndReason::StoppedAt(k) => write!(f, "stopped at its first {}", k.name()),
        }
    }
}

/// A continued branch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Branch {
    /// Label ("stable gait", "period-2 from PD at γ = …").
    pub label: String,
    /// Period multiplicity `k`: the branch holds fixed points of `P^k`.
    pub period_k: usize,
    /// The points, in continuation order.
    pub points: Vec<BranchPoint>,
    /// Why it ended.
    pub end: EndReason,
    /// Bifurcations found on it, in order.
    pub bifurcations: Vec<Bifurcation>,
}
