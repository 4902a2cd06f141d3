//! The one stepper type every method family is a variant of.
//!
//! [`Stepper`] has generic methods, so it cannot be a trait object; [`AnyStepper`] is the closed
//! sum of the families instead, and dispatches each call with one `match`. It is what
//! [`crate::Method::stepper`] returns and what the hybrid layer runs.

use crate::adams::Abm;
use crate::bdf::Bdf;
use crate::explicit_rk::ExplicitRk;
use crate::exponential::AffineExp;
use crate::method::Method;
use crate::radau::Radau5;
use crate::rosenbrock::Rosenbrock23;
use crate::sdirk::{Trapezoid, Trbdf2};
use crate::stepper::{StepEnds, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// A stepper of any built-in family.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum AnyStepper {
    /// An explicit Runge–Kutta pair or fixed-step method.
    ExplicitRk(ExplicitRk),
    /// Radau IIA order 5.
    Radau5(Radau5),
    /// NDF or BDF, orders 1–5.
    Bdf(Bdf),
    /// Rosenbrock 2(3) W-method.
    Rosenbrock23(Rosenbrock23),
    /// Trapezoidal rule.
    Trapezoid(Trapezoid),
    /// TR-BDF2.
    Trbdf2(Trbdf2),
    /// Adams–Bashforth–Moulton PECE, orders 1–12.
    Abm(Abm),
    /// Exact steps of an autonomous affine system (not a [`Method`]: the hybrid layer picks
    /// it for the modes that say they are affine).
    AffineExp(AffineExp),
}

impl AnyStepper {
    /// A fresh stepper for `method` (workspace sized on start).
    pub fn new(method: Method) -> Self {
        match method {
            Method::Radau5 => AnyStepper::Radau5(Radau5::new()),
            Method::Ndf => AnyStepper::Bdf(Bdf::ndf()),
            Method::Bdf => AnyStepper::Bdf(Bdf::bdf()),
            Method::Rosenbrock23 => AnyStepper::Rosenbrock23(Rosenbrock23::new()),
            Method::Trapezoid => AnyStepper::Trapezoid(Trapezoid::new()),
            Method::Trbdf2 => AnyStepper::Trbdf2(Trbdf2::new()),
            Method::Abm => AnyStepper::Abm(Abm::new()),
            m => AnyStepper::ExplicitRk(ExplicitRk::new(
                m.tableau()
                    .expect("every other method is an explicit tableau"),
            )),
        }
    }
}

/// Calls `$body` with `$s` bound to the variant's stepper.
macro_rules! dispatch {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            AnyStepper::ExplicitRk($s) => $body,
            AnyStepper::Radau5($s) => $body,
            AnyStepper::Bdf($s) => $body,
            AnyStepper::Rosenbrock23($s) => $body,
            AnyStepper::Trapezoid($s) => $body,
            AnyStepper::Trbdf2($s) => $body,
            AnyStepper::Abm($s) => $body,
            AnyStepper::AffineExp($s) => $body,
        }
    };
}

impl Stepper for AnyStepper {
    fn name(&self) -> &'static str {
        dispatch!(self, s => s.name())
    }
    fn order(&self) -> u32 {
        dispatch!(self, s => s.order())
    }
    fn is_adaptive(&self) -> bool {
        dispatch!(self, s => s.is_adaptive())
    }
    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        dispatch!(self, s => s.start(sys, t, y, opts, stats))
    }
    #[inline]
    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        dispatch!(self, s => s.step(sys, t_stop, opts, stats))
    }
    #[inline]
    fn t(&self) -> f64 {
        dispatch!(self, s => s.t())
    }
    #[inline]
    fn y(&self) -> &[f64] {
        dispatch!(self, s => s.y())
    }
    fn ends(&self) -> StepEnds<'_> {
        dispatch!(self, s => s.ends())
    }
    #[inline]
    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) {
        dispatch!(self, s => s.dense(sys, t, out, stats))
    }
    fn truncate<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, y: &[f64], stats: &mut Stats) {
        dispatch!(self, s => s.truncate(sys, t, y, stats))
    }
    fn steps_need_guard_scale(&self) -> bool {
        dispatch!(self, s => s.steps_need_guard_scale())
    }
    fn limit_next_step(&mut self, h: f64) {
        dispatch!(self, s => s.limit_next_step(h))
    }
}
