//! Integration tests of saltation-scenario, built as one test binary: property tests of the
//! model-file loader ([`file_properties`]).
//!
//! The package sets `autotests = false`: a new file under `tests/` is compiled only when it is
//! declared here as a module.

mod constant_values;
mod file_properties;
mod registry;
