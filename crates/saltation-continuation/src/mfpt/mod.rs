//! Mean first-passage time on rough terrain: how many strides, on average, a walker takes
//! before it falls when a parameter (the slope, the ground height) is drawn afresh at every
//! stride from a distribution ([`terrain`]).
//!
//! Two methods side by side, on the same stochastic section map
//! `u_{k+1} = π(P_{p_k}(χ_{p_k}(u_k)))` ([`step`]):
//!
//! - the **mesh Markov chain** of Byl & Tedrake (2009, "Metastable walking machines"): a mesh
//!   over the section's reduced coordinates ([`mesh`]), from every point one stride at each of
//!   `K` stratified terrain samples, the ends mapped to the mesh by interpolation weights
//!   ([`chain`]), with an absorbing *fallen* state; `MFPT = 1/(1 − λ₂)` from the transient
//!   block's largest eigenvalue, and the expected strides to absorption from the nominal orbit
//!   by `(I − Q) m = 1` ([`solve`]);
//! - **Monte Carlo** walks from the nominal orbit, censored at a cap, with a confidence
//!   interval ([`monte_carlo`]).
//!
//! Both are deterministic: the chain's samples are quantiles, the walks' draws are seeded per
//! run, so results are the same at any thread count and however the work is sharded.

pub mod agreement;
pub mod chain;
pub mod mesh;
pub mod monte_carlo;
pub mod solve;
pub mod step;
pub mod terrain;

pub use agreement::agreement;
pub use chain::{chain_rows, validate_chain, ChainRow, MAX_SAMPLES, MAX_TRANSITIONS};
pub use mesh::{validate_mesh, weights, MAX_MESH_CELLS};
pub use monte_carlo::{mc_runs, summarize, McRun, McSummary, MAX_RUNS, MAX_STEPS, MIN_FALLS};
pub use solve::{solve_chain, ChainOptions, ChainSolution};
pub use step::{Step, Stepper};
pub use terrain::{normal_quantile, SplitMix64, Terrain};
