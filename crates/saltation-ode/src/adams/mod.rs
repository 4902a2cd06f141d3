//! Adams–Bashforth–Moulton.
crate::any_stepper::not_yet!(Abm, "abm");
