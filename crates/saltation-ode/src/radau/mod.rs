//! Radau IIA of order 5.
crate::any_stepper::not_yet!(Radau5, "radau5");
