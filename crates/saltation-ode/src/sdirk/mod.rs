//! Trapezoid and TR-BDF2.
crate::any_stepper::not_yet!(Trapezoid, "trapezoid");
crate::any_stepper::not_yet!(Trbdf2, "trbdf2");
