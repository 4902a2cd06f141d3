//! The text of an equation model as written in a model file: names and expression strings,
//! before compilation (field by field in `docs/models.md`).

use saltation_ode::Direction;
use serde::{Deserialize, Serialize};

/// A parameter: name, value, and optionally the range of valid values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParameterSpec {
    /// Name, usable in every expression and by `--set name=value`.
    pub name: String,
    /// Value: a number, or a constant expression in quotes (`"2*pi*10"`).
    #[serde(deserialize_with = "saltation_equations::number")]
    pub value: f64,
    /// Smallest valid value (inclusive), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Largest valid value (inclusive), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

/// One mode: a name and the vector field, one expression per state in the order of `states`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModeSpec {
    /// Name (used by guards' `from` and `to`).
    pub name: String,
    /// `dx_i/dt`, one expression per state.
    pub flow: Vec<String>,
}

/// A guard: where it applies, the event function, the direction of crossing that counts, an
/// optional enabling condition, and what happens: a reset into `to`, or a failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardSpec {
    /// Name (for messages, and for `section.after`).
    pub name: String,
    /// Mode in which the guard is watched.
    pub from: String,
    /// Mode entered after the reset (default: `from`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The event function `h(x)`: the event is a zero crossing.
    pub when: String,
    /// Which sign changes of `h` count (default `Either`).
    #[serde(default)]
    pub direction: Direction,
    /// The crossing counts only where this expression is non-zero (true); default: always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<String>,
    /// The reset `x⁺ = g(x⁻)`: `(state, expression)` pairs; states not listed keep their value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reset: Vec<(String, String)>,
    /// Reaching this guard ends the stride as a failure with this message (e.g. "the walker
    /// fell"); no reset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Where this guard's crossings accumulate (a ball chattering to rest: a Zeno point), a
    /// simulation goes on through the named guard of the same mode: its reset and `to` are
    /// applied at the last located crossing (e.g. into a sticking mode). Without it an
    /// accumulation ends the run with a Zeno error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_accumulation: Option<String>,
}

/// An admissibility condition: while the state is in `mode`, the expression `when` must stay
/// `≥ 0` (the ball above the table in flight, a contact force that pushes in stance). Orbits
/// report whether it holds, continuation marks where that changes, and `simulate` stops with
/// an error at its first violation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdmissibleSpec {
    /// Name (for messages).
    pub name: String,
    /// Mode in which it must hold.
    pub mode: String,
    /// The condition's value `c(x)`; admissible where `c ≥ 0`.
    pub when: String,
}

/// The shooting section: which guard's reset a stride starts after (or, for a time-forced
/// model, the forcing phase it starts at), the states that are free on it (the reduced
/// coordinates `u`), and the other states as functions of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionSpec {
    /// The guard after whose reset a stride starts (its target mode is the stride's start
    /// mode); exactly one of `after` and `stroboscopic`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// A stroboscopic section of a time-forced model: strides start at the forcing phase
    /// `t = phase` and last whole forcing periods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroboscopic: Option<StroboscopicSpec>,
    /// The states that are the reduced coordinates, in order.
    pub free: Vec<String>,
    /// Every other state as an expression of the free states (and the parameters).
    #[serde(default)]
    pub chart: Vec<(String, String)>,
}

/// The periodic time dependence of a time-forced model: with it, `t` in every expression is the
/// forcing phase, a state appended after the declared ones (`t' = 1`), carried modulo the
/// period by the strides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForcingSpec {
    /// The period `T`, an expression of the parameters (e.g. `"2*pi/omega"`).
    pub period: String,
}

/// A stroboscopic section: the forcing phase at which strides start and end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StroboscopicSpec {
    /// The phase `t₀` (an expression of the parameters; the section is `t = t₀` modulo the
    /// period).
    pub phase: String,
}

/// A hybrid model written as equations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquationSpec {
    /// Short name (`"compass_gait"`).
    pub name: String,
    /// State names, in order.
    pub states: Vec<String>,
    /// Parameters.
    #[serde(default)]
    pub parameters: Vec<ParameterSpec>,
    /// Named intermediate quantities `(name, expression)`, usable in every expression; in any
    /// order (a cycle is an error).
    #[serde(default, rename = "let", skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<(String, String)>,
    /// Modes (at least one; the first is mode 0).
    pub modes: Vec<ModeSpec>,
    /// Guards.
    #[serde(default)]
    pub guards: Vec<GuardSpec>,
    /// Admissibility conditions, each in one mode.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub admissible: Vec<AdmissibleSpec>,
    /// The periodic forcing of a time-forced model, if its equations depend on time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forcing: Option<ForcingSpec>,
    /// The section for shooting, if the model has periodic orbits to find.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<SectionSpec>,
    /// Named outputs `(name, expression)` for plots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<(String, String)>,
}
