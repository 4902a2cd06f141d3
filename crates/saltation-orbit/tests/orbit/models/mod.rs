//! Hybrid models written for the integration tests (saltation-orbit does not depend on
//! saltation-models).

pub mod compass_gait;
pub mod linear_kicks;
pub mod van_der_pol;
