//! Small models with closed-form orbits for the unit tests.

use saltation_hybrid::{EvalModel, Guard, ParamError, Scalar};

/// A ball thrown up from the ground with speed `u`, landing after `2u` with speed `−u`, and
/// bouncing back with speed `u² + p`: on the section `x = 0` the stride map is the quadratic map
/// `u ↦ u² + p`. For `0 < p < 1/4` its stable fixed point is `u* = (1 − sqrt(1 − 4p)) / 2` with
/// multiplier `2u*` (the full-state stride Jacobian has the multipliers `{2u*, 0}`).
#[derive(Debug, Clone)]
pub(crate) struct QuadraticBounce {
    pub p: f64,
}

impl QuadraticBounce {
    /// The stable fixed point `u*`.
    pub fn fixed_point(p: f64) -> f64 {
        (1.0 - (1.0 - 4.0 * p).sqrt()) / 2.0
    }
}

impl EvalModel for QuadraticBounce {
    fn name(&self) -> &str {
        "quadratic_bounce"
    }
    fn dim(&self) -> usize {
        2
    }
    fn flow<D: Scalar>(&self, _m: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = D::from(-1.0);
    }
    fn guards(&self, _m: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, _m: usize, _j: usize, x: &[D]) -> D {
        x[0]
    }
    fn describe_guard(&self, _m: usize, _j: usize) -> Guard<Self> {
        Guard::to(0).falling()
    }
    fn reset<D: Scalar>(&self, m: usize, j: usize, x: &[D], out: &mut [D]) {
        self.reset_with_param(0, D::from(self.p), m, j, x, out);
    }
    saltation_hybrid::named_params!("p" => p);
    fn param_derivatives(&self, k: usize) -> bool {
        k == 0
    }
    fn reset_with_param<D: Scalar>(
        &self,
        _k: usize,
        p: D,
        _m: usize,
        _j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        out[0] = D::from(0.0);
        out[1] = x[1] * x[1] + p;
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = D::from(0.0);
        x[1] = u[0];
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
}

/// The bounce family in `p`.
pub(crate) fn bounce(p: f64) -> Result<QuadraticBounce, ParamError> {
    Ok(QuadraticBounce { p })
}

/// A family in an integer parameter `n` (as a number of spokes): fractional values are
/// rejected as `set_param` does.
pub(crate) fn integer_family(n: f64) -> Result<QuadraticBounce, ParamError> {
    if n.fract() != 0.0 {
        return Err(ParamError::NotNumeric { name: "n".into() });
    }
    Ok(QuadraticBounce { p: 0.1 })
}

/// A family whose model cannot be built anywhere (another parameter is invalid).
pub(crate) fn broken_family(_p: f64) -> Result<QuadraticBounce, ParamError> {
    Err(ParamError::NonFinite {
        name: "other".into(),
        value: f64::NAN,
    })
}
