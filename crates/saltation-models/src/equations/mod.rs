//! Hybrid models written as equations in a model file (`model: Equations(…)`): states,
//! parameters, intermediate definitions, modes with their vector fields, guards with resets,
//! and the shooting section, each expression a string compiled once into a flat program
//! (the `saltation-equations` crate). The compiled model is a [`saltation_hybrid::HybridModel`]
//! whose parameters are declared by the file; a model file holds it with its values as a
//! [`saltation_hybrid::Bound`]. Everything a built-in model has follows: Jacobians of flows,
//! guards, resets and chart, and parameter derivatives, by forward-mode automatic
//! differentiation through the evaluator (exact); orbits, multipliers, continuation in any
//! declared parameter, simulation. The format is documented field by field in
//! `docs/models.md`.

mod load;
mod load_error;
mod model;
mod spec;

pub use load::{LoadError, Place, MAX_ITEMS};
pub use model::{in_file, EquationModel};
pub use spec::{
    EquationSpec, ForcingSpec, GuardSpec, ModeSpec, ParameterSpec, SectionSpec, StroboscopicSpec,
};
