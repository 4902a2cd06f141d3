//! Saltation facade.
