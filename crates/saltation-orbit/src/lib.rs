//! saltation-orbit (under construction)
