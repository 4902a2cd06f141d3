//! Rosenbrock 2(3).
crate::any_stepper::not_yet!(Rosenbrock23, "rosenbrock23");
