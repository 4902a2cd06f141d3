//! Integration tests of saltation-orbit, built as one test binary (one link, and one
//! instantiation of the stride maps and solvers for each test model, instead of one per file):
//! [`periodic_orbit`] and [`compass_gait`] find orbits of the hybrid models of [`models`]
//! (written here: saltation-orbit does not depend on saltation-models), [`newton`] tests the
//! damped Newton solver, [`multiple_shooting`] finds orbits by multiple shooting, [`eigen`] that the eigenvalue routines re-exported from
//! saltation-linalg (and tested there) are reachable by their old names, with the `lapack`
//! feature passed on.

mod models;

mod compass_gait;
mod eigen;
mod multiple_shooting;
mod newton;
mod periodic_orbit;
