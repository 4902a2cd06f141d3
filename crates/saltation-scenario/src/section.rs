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

use crate::moved::{checked, checked_option, checked_vec, Moves, ORBIT_SETTINGS};
use saltation_continuation::{
    BranchSpec, ContinuationOptions, ContinuationSpec, DiagramSpec, OrbitDiagramOptions,
};
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
    /// The continuation's own settings ([`ContinuationOptions`]: steps, corrector,
    /// detection), shared by all branches.
    #[serde(default, deserialize_with = "checked")]
    pub settings: ContinuationOptions,
    /// Orbit diagram, if wanted.
    #[serde(default, deserialize_with = "checked_option")]
    pub orbit_diagram: Option<DiagramSection>,
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
            settings: self.settings.clone(),
            orbit_diagram: self.orbit_diagram.as_ref().map(|d| DiagramSpec {
                from: d.from,
                to: d.to,
                count: d.count,
                start: d.start.clone(),
                settings: d.settings.clone(),
            }),
        }
    }
}

impl Moves for ContinuationSection {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for BranchSpec {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for ContinuationOptions {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for DiagramSection {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

impl Moves for OrbitDiagramOptions {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}
