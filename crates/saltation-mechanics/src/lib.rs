//! # saltation-mechanics
//!
//! Constrained multibody systems with impacts as hybrid models. Describe the mechanics —
//! coordinates `q`, mass matrix `H(q; p)`, forces `C(q, q̇; p)` per contact mode, bilateral
//! constraints, unilateral contacts by their gap functions, and the parameters `p` they depend
//! on, declared as data — by implementing [`MechanicalSystem`]; [`Constrained`] turns it into a
//! [`saltation_hybrid::HybridModel`], and a [`saltation_hybrid::Bound`] of that (the model with
//! its parameter values) into a [`saltation_hybrid::EvalModel`] whose stride maps, saltation
//! matrices, periodic orbits and continuation come from the rest of Saltation unchanged.
//!
//! ## Equations (Zana, Bodor, Bencsik & Zelei 2018, §3)
//! - **Contact mode** (a set of closed contacts): `H q̈ + C + γ_qᵀ λ = 0`, `γ(q) = 0` with the
//!   bilateral constraints and the closed gaps, solved at acceleration level from the
//!   saddle-point system `[[H, γ_qᵀ], [γ_q, 0]] [q̈; λ] = [−C; −γ̇_q q̇ − 2ω γ̇ − ω² γ]`
//!   ([`accelerations`]): index 1, with Baumgarte (1972) drift control at rate `ω`
//!   ([`ConstraintOptions::baumgarte`]; on the constraint manifold the term vanishes).
//!   `γ_q` and `γ̇_q q̇` come from nested forward-mode automatic differentiation of the
//!   user's `γ` ([`constraints`]).
//! - **Touchdown**: a contact's gap falls through 0; perfectly inelastic impact
//!   `q̇⁺ = P_a q̇`, `P_a = I − H⁻¹γ_qᵀ(γ_q H⁻¹ γ_qᵀ)⁻¹γ_q` of the new active set
//!   ([`impact_velocity`]), kinetic energy split into kept `T_a` and lost `T_c`
//!   ([`Constrained::impact_energy`]).
//! - **Lift-off**: a closed contact's multiplier rises through 0 (the ground would have to
//!   pull); identity reset, new vector field.
//! - **Saltation matrices** of both transitions follow from these pieces by the general
//!   formula `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)`, with `f`, `g` and `h` differentiated
//!   automatically: nothing is written per model.
//! - **Shooting section** on the constraint manifold ([`Section`]): independent coordinates
//!   and their velocities; the rest follow from the constraints.
//! - **Admissibility** of an orbit ([`check_admissibility`]): every contact pushes through its
//!   contact phase, every open gap stays open — the model's declared conditions, checked by
//!   the checker of every model ([`saltation_hybrid::check_stride`]).
//! - **Parameter derivatives**: every formula takes the parameter values `p` in the scalar of
//!   the state, so a dual number seeded in `p_k` gives exact `∂/∂p_k` of the flow, the
//!   multipliers, the impact and the chart (what [`saltation_hybrid::Bound`] does for every
//!   parameter), and continuation takes the exact `∂F/∂p`. The flow's `∂q̈/∂p` is also
//!   available as the implicit derivative of the saddle-point system,
//!   `z_p = K⁻¹ (b_p − K_p z)`, on the real factors of `K`
//!   (its [`saltation_hybrid::FlowParamDerivative`], which continuation uses with the hand
//!   `f_x`).
//!
//! ## Cost
//! The flow is evaluated at every integration stage, so it allocates nothing in `f64`
//! (stack buffers and a per-thread scratch pool) and factors the saddle-point matrix `K` once
//! per call in `f64`. The flow Jacobian `f_x` (for the variational equations) is not
//! differentiated through the solve but derived from it: with `z = [q̈; λ]`,
//! `z_x = −K⁻¹ ∂(K z − b)/∂x` at fixed `z`, one dual pass over the user's functions and a
//! solve on the same factors. Dual scalars (guard gradients, reset Jacobians) reuse the real
//! factors too, by iterative refinement. A system that declares its mass matrix constant and
//! its constraints affine ([`MechanicalSystem::mass_matrix_is_constant`],
//! [`MechanicalSystem::constraints_are_linear`]) gets `K⁻¹`, `G` and the constant part of
//! `f_x` computed once per contact mode and parameter vector (again when the values change);
//! its flow is then `C`, `γ` and one product with `K⁻¹`.
#![warn(missing_docs)]
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod admissibility;
mod cache;
pub mod constraints;
mod error;
mod jacobian;
mod kernel;
mod lu;
mod model;
mod queries;
mod saddle;
mod section;
mod system;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_kernel;
#[cfg(test)]
mod tests_params;
mod work;

pub use admissibility::{check_admissibility, AdmissibilityOptions};
pub use error::MechanicsError;
pub use model::{Constrained, ConstraintOptions, ContactGuard, ImpactEnergy};
pub use queries::ContactReports;
pub use saddle::{accelerations, impact_velocity, kinetic_energy};
pub use saltation_hybrid::{Admissibility, Violation, ViolationKind};
pub use section::{constraint_values, Section};
pub use system::{ContactSet, MechanicalSystem, MAX_CONTACTS};
