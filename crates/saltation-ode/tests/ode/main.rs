//! Integration tests of saltation-ode, one module per integrator or concern, built as one test
//! binary (one link, and one instantiation of the generic solver code, instead of one per file).
//! The problems with closed forms, the order measurement and the allocation counter they share
//! are in [`common`].

mod common;

mod abm;
mod affine_exp;
mod bad_input;
mod bdf;
mod convergence;
mod crossings;
mod first_crossing;
mod radau5;
mod rosenbrock23;
mod sampling;
mod sdirk;
mod stiffness;
