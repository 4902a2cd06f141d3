//! The `continuation` section of a model file: the file schema of a continuation script
//! (which branches, the continuation's own settings, an optional orbit diagram), read into the
//! library's [`ContinuationSpec`] and run with the file's `orbit` settings beside it.
//!
//! ```ron
//! continuation: (
//!     param: "gamma",
//!     branches: [(label: "stable gait", from: 0.009, to: 0.0195, guess: [0.2, -0.2])],
//!     settings: (step: 5e-4, max_step: 2e-3),
//!     orbit_diagram: (from: 0.014, to: 0.0195, count: 400, start: [0.25, -0.24, 0.49, -0.03],
//!         settings: (transient: 300, keep: 64)),
//! ),
//! ```
//!
//! The stride, Newton and eigenvalue settings are not part of the section: the file states them
//! once, in `orbit`. Written here (an older layout), they are an error naming `orbit.stride`.

use crate::curves::CurveSection;
use crate::moved::{checked, checked_option, checked_vec, Moves, ORBIT_SETTINGS};
use saltation_continuation::{
    BranchSpec, ContinuationOptions, ContinuationSpec, DiagramSpec, OrbitDiagramOptions, Predictor,
};
use saltation_orbit::{Segments, Shooting};
use serde::{Deserialize, Serialize};

/// The `continuation` section: the script the file runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuationSection {
    /// Name of the continuation parameter: a real-valued parameter of the model.
    pub param: String,
    /// Branches to continue ([`BranchSpec`]); at least one unless there is an orbit diagram.
    #[serde(deserialize_with = "checked_vec")]
    pub branches: Vec<BranchSpec>,
    /// The continuation's own settings (steps, corrector, detection), shared by all branches.
    #[serde(default, deserialize_with = "checked")]
    pub settings: SettingsSection,
    /// Orbit diagram, if wanted.
    #[serde(default, deserialize_with = "checked_option")]
    pub orbit_diagram: Option<DiagramSection>,
    /// Two-parameter curves from the bifurcations of the branches ([`CurveSection`]).
    #[serde(default, deserialize_with = "checked_vec")]
    pub curves: Vec<CurveSection>,
}

/// The continuation's own settings as a file writes them: those of [`ContinuationOptions`]
/// that one script shares between its branches. A branch's direction and parameter bounds are
/// not among them: each branch's `from` and `to` set them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SettingsSection {
    /// Predictor: `Arclength` (default), `Natural`, `EventTime(event: j)`.
    pub predictor: Predictor,
    /// First step (arclength in `(u, p)`, or `Δp` for `Natural`).
    pub step: f64,
    /// Smallest step: a failed step is halved, and the branch ends below this.
    pub min_step: f64,
    /// Largest step.
    pub max_step: f64,
    /// Largest number of points per branch.
    pub max_points: usize,
    /// Corrector iterations allowed per point.
    pub max_corrector_iters: usize,
    /// Corrector convergence, `‖G‖ ≤ corrector_tol`.
    pub corrector_tol: f64,
    /// Corrector iterations at or below which the step grows.
    pub fast_iters: usize,
    /// Step growth factor.
    pub growth: f64,
    /// Relative step of the central difference for `F_p` where no exact derivative exists.
    pub fd_param_step: f64,
    /// Detect and locate bifurcations.
    pub detect: bool,
    /// Tolerance of bifurcation location, in units of the parameter.
    pub locate_tol: f64,
    /// End each branch at its first period doubling.
    pub stop_at_period_doubling: bool,
    /// The correctors' shooting: `Single` (default), `Phases` or `PerMode(N)`.
    pub shooting: ShootingSetting,
}

/// How a file writes the correctors' shooting ([`ContinuationOptions::shooting`]): `Single`
/// (one stride, default), `Phases` (multiple shooting, one segment per phase of the stride) or
/// `PerMode(N)` (every phase in `N` pieces of equal time, `N` in `1..=1000`, checked on load
/// with the field's line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ShootingSetting {
    /// Single shooting.
    #[default]
    Single,
    /// One segment per phase.
    Phases,
    /// `N` pieces per phase.
    PerMode(usize),
}

impl ShootingSetting {
    /// The library's shooting.
    pub fn to_shooting(self) -> Shooting {
        match self {
            ShootingSetting::Single => Shooting::Single,
            ShootingSetting::Phases => Shooting::Multiple {
                segments: Segments::Phases,
            },
            ShootingSetting::PerMode(n) => Shooting::Multiple {
                segments: Segments::PerMode(n),
            },
        }
    }
}

impl Default for SettingsSection {
    /// The library's defaults ([`ContinuationOptions::default`]).
    fn default() -> Self {
        let d = ContinuationOptions::default();
        Self {
            predictor: d.predictor,
            step: d.step,
            min_step: d.min_step,
            max_step: d.max_step,
            max_points: d.max_points,
            max_corrector_iters: d.max_corrector_iters,
            corrector_tol: d.corrector_tol,
            fast_iters: d.fast_iters,
            growth: d.growth,
            fd_param_step: d.fd_param_step,
            detect: d.detect,
            locate_tol: d.locate_tol,
            stop_at_period_doubling: d.stop_at_period_doubling,
            shooting: ShootingSetting::Single,
        }
    }
}

impl SettingsSection {
    /// The library's options with these settings; direction and bounds at their defaults (the
    /// script sets them per branch from `from` and `to`).
    pub fn to_options(&self) -> ContinuationOptions {
        ContinuationOptions {
            predictor: self.predictor,
            step: self.step,
            min_step: self.min_step,
            max_step: self.max_step,
            max_points: self.max_points,
            max_corrector_iters: self.max_corrector_iters,
            corrector_tol: self.corrector_tol,
            fast_iters: self.fast_iters,
            growth: self.growth,
            fd_param_step: self.fd_param_step,
            detect: self.detect,
            locate_tol: self.locate_tol,
            stop_at_period_doubling: self.stop_at_period_doubling,
            shooting: self.shooting.to_shooting(),
            ..ContinuationOptions::default()
        }
    }
}

/// The orbit diagram of a `continuation` section. It integrates with the file's
/// `orbit.stride`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagramSection {
    /// First parameter value.
    pub from: f64,
    /// Last parameter value.
    pub to: f64,
    /// Number of parameter values, evenly spaced from `from` to `to`.
    pub count: usize,
    /// Start state (full state) for every parameter value.
    pub start: Vec<f64>,
    /// Transient, kept strides, recorded component ([`OrbitDiagramOptions`]).
    #[serde(default, deserialize_with = "checked")]
    pub settings: OrbitDiagramOptions,
}

impl ContinuationSection {
    /// The script this section describes (run it with the file's `orbit` settings beside it:
    /// [`saltation_continuation::run_script`]).
    pub fn to_spec(&self) -> ContinuationSpec {
        ContinuationSpec {
            param: self.param.clone(),
            branches: self.branches.clone(),
            settings: self.settings.to_options(),
            orbit_diagram: self.orbit_diagram.as_ref().map(|d| DiagramSpec {
                from: d.from,
                to: d.to,
                count: d.count,
                start: d.start.clone(),
                settings: d.settings.clone(),
            }),
            curves: self.curves.iter().map(CurveSection::to_spec).collect(),
        }
    }
}

impl Moves for ContinuationSection {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for BranchSpec {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for SettingsSection {
    const MOVED: &'static [(&'static str, &'static str)] = &[
        ("stride", "orbit.stride"),
        ("newton", "orbit.newton"),
        ("eigen", "orbit.eigen"),
        ("direction", BOUNDS_FROM_BRANCHES),
        ("p_min", BOUNDS_FROM_BRANCHES),
        ("p_max", BOUNDS_FROM_BRANCHES),
    ];
}

/// Why a file's settings have no direction or parameter bounds.
const BOUNDS_FROM_BRANCHES: &str =
    "each branch's `from` and `to` set its direction and its parameter bounds";

impl Moves for DiagramSection {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for OrbitDiagramOptions {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}
