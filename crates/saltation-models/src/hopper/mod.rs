//! The vertical hopper with an active spring-damper (Zana, Bodor, Bencsik & Zelei 2018): two
//! blocks above rigid ground, a spring with a damper that dissipates in flight and injects
//! energy on the ground, inelastic touchdown, lift-off when the ground would have to pull.
//! Two forms — the paper's constrained four-particle DAE built with
//! [`saltation_mechanics`] ([`Hopper`]) and the minimal-coordinate model written by hand
//! ([`HopperUnconstrained`]) — and the closed-form reference of §4.1
//! ([`closed_form`]). Both forms are equations with their parameters declared as data
//! ([`PARAMS`], [`PARTICLE_PARAMS`]); a [`saltation_hybrid::Bound`] of either holds the values
//! (`HopperUnconstrained::bound(&HopperParams::default())`,
//! `Bound::<Hopper>::default()`).

pub mod closed_form;
mod params;
mod particles;
mod unconstrained;

#[cfg(test)]
mod tests_seeded;

pub use params::{HopperParams, D_F, D_G, G, K, L0, M, MU, PARAMS};
pub use particles::{Hopper, HopperParticles, FLIGHT, GROUND, MU_L, MU_U, PARTICLE_PARAMS};
pub use unconstrained::{HopperGuard, HopperUnconstrained};

/// The hopper's stride for both forms: from lift-off in flight ([`FLIGHT`]) through touchdown and
/// the next lift-off (two events), DOP853 at `rtol = atol = tol`, at most `t_max` long.
pub fn stride_options(tol: f64, t_max: f64) -> saltation_hybrid::StrideOptions {
    saltation_hybrid::StrideOptions {
        method: saltation_ode::Method::Dop853,
        ode: saltation_ode::SolverOptions::with_tol(tol),
        start_mode: FLIGHT,
        events_per_stride: 2,
        t_max,
        ..saltation_hybrid::StrideOptions::default()
    }
}
