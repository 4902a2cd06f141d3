//! Integration tests of saltation-models, built as one test binary (one link, and one
//! instantiation of the solvers for the models, instead of one per file): property tests of the
//! library's entry points ([`entry_properties`]) and the reference harness of the implicit
//! methods on the stiff test problems ([`stiff_reference`]; its table: `cargo test -p
//! saltation-models --test models stiff_reference -- --nocapture`). (The model-file loader's
//! property tests are saltation-scenario's.)
//!
//! The package sets `autotests = false`: a new file under `tests/` is compiled only when it is
//! declared here as a module.

mod compass_gait;
mod compass_gait_curve_shooting;
mod compass_gait_shooting;
mod entry_properties;
mod equations;
mod forced;
mod guard_grazing;
mod hopper;
mod hopper_admissibility;
mod hopper_continuation;
mod monopod;
mod shooting_admissibility;
#[path = "../stiff_reference.rs"]
mod stiff_reference;
