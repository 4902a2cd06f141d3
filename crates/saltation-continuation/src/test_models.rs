//! Small models with closed-form orbits for the unit tests.

use saltation_hybrid::{Bound, GuardSpec, HybridModel, Param, ParamError, Scalar};

/// Index of the bounce offset `p` in the parameter vector.
pub(crate) const P: usize = 0;

/// The parameters: the bounce offset `p` (default 0).
const PARAMS: &[Param] = &[Param::new("p", 0.0)];

/// The ball's one guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ground {
    /// Landing: `x = 0` falling.
    Landing,
}

/// Implements [`HybridModel`] for a ball of [`QuadraticBounce`]'s kind: free flight `ẍ = −1`,
/// one guard (landing, `x = 0` falling, back into mode 0), the section `x = 0` charted by the
/// speed, `χ(u) = (0, u)`; the reset `x⁺ = 0`, `v⁺ = T::bounce(p, v⁻)` with the type's own
/// `fn bounce<D: Scalar>(p: &[D], v: D) -> D`. The arguments: the type, its name, its
/// parameters, then any further trait items (admissibility conditions).
macro_rules! ball_model {
    ($ty:ty, $name:literal, $params:expr $(, $($extra:tt)*)?) => {
        impl HybridModel for $ty {
            type Guard = Ground;
            fn name(&self) -> &str {
                $name
            }
            fn dim(&self) -> usize {
                2
            }
            fn params(&self) -> &[Param] {
                $params
            }
            fn flow<D: Scalar>(&self, _p: &[D], _m: usize, _t: f64, x: &[D], dx: &mut [D]) {
                dx[0] = x[1];
                dx[1] = D::from(-1.0);
            }
            fn guards(&self, _m: usize) -> &[Ground] {
                &[Ground::Landing]
            }
            fn describe(&self, _m: usize, g: Ground) -> GuardSpec {
                match g {
                    Ground::Landing => GuardSpec::to(0).falling(),
                }
            }
            fn guard<D: Scalar>(&self, _p: &[D], _m: usize, g: Ground, x: &[D]) -> D {
                match g {
                    Ground::Landing => x[0],
                }
            }
            fn reset<D: Scalar>(&self, p: &[D], _m: usize, g: Ground, x: &[D], out: &mut [D]) {
                match g {
                    Ground::Landing => {
                        out[0] = D::from(0.0);
                        out[1] = <$ty>::bounce(p, x[1]);
                    }
                }
            }
            fn reduced_dim(&self) -> usize {
                1
            }
            fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
                x[0] = D::from(0.0);
                x[1] = u[0];
            }
            fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
                u[0] = x[1];
            }
            $($($extra)*)?
        }
    };
}

/// A ball thrown up from the ground with speed `u`, landing after `2u` with speed `−u`, and
/// bouncing back with speed `u² + p`: on the section `x = 0` the stride map is the quadratic map
/// `u ↦ u² + p`. For `0 < p < 1/4` its stable fixed point is `u* = (1 − sqrt(1 − 4p)) / 2` with
/// multiplier `2u*` (the full-state stride Jacobian has the multipliers `{2u*, 0}`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct QuadraticBounce;

impl QuadraticBounce {
    /// The stable fixed point `u*`.
    pub fn fixed_point(p: f64) -> f64 {
        (1.0 - (1.0 - 4.0 * p).sqrt()) / 2.0
    }

    /// `v⁺ = (v⁻)² + p`.
    fn bounce<D: Scalar>(p: &[D], v: D) -> D {
        v * v + p[P]
    }
}

ball_model!(QuadraticBounce, "quadratic_bounce", PARAMS);

/// The bounce family in `p`.
pub(crate) fn bounce(p: f64) -> Result<Bound<QuadraticBounce>, ParamError> {
    Bound::with_values(QuadraticBounce, vec![p])
}

/// A family in an integer parameter `n` (as a number of spokes): fractional values are
/// rejected as `set_param` does.
pub(crate) fn integer_family(n: f64) -> Result<Bound<QuadraticBounce>, ParamError> {
    if n.fract() != 0.0 {
        return Err(ParamError::NotNumeric { name: "n".into() });
    }
    bounce(0.1)
}

/// A family whose model cannot be built anywhere (another parameter is invalid).
pub(crate) fn broken_family(_p: f64) -> Result<Bound<QuadraticBounce>, ParamError> {
    Err(ParamError::NonFinite {
        name: "other".into(),
        value: f64::NAN,
    })
}

/// The ball of [`QuadraticBounce`] bouncing back with speed `p − u²` instead: on the section the
/// stride map is `u ↦ p − u²` (conjugate to `x ↦ x² − p` by `x = −u`). Its fixed point
/// `u* = (sqrt(1 + 4p) − 1) / 2` has the multiplier `−2u*`, which is −1 at the flip
/// `(p*, u*) = (3/4, 1/2)`; for `3/4 < p < 1` the period-2 orbit is
/// `u = (1 ± sqrt(4p − 3)) / 2` (both speeds positive).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct FlipBounce;

impl FlipBounce {
    /// The flip `(p*, u*)`.
    pub fn flip() -> (f64, f64) {
        (0.75, 0.5)
    }

    /// The period-2 orbit's two points at `p`, if it exists (`p > 3/4`).
    pub fn period_two(p: f64) -> Option<(f64, f64)> {
        let w = (4.0 * p - 3.0).sqrt();
        (p > 0.75).then(|| ((1.0 - w) / 2.0, (1.0 + w) / 2.0))
    }

    /// The side of the flip where the period-2 orbit exists.
    pub fn period_two_side() -> f64 {
        1.0
    }

    /// `v⁺ = p − (v⁻)²`.
    fn bounce<D: Scalar>(p: &[D], v: D) -> D {
        p[P] - v * v
    }
}

ball_model!(FlipBounce, "flip_bounce", PARAMS);

/// The ball of [`QuadraticBounce`] with two modes that alternate at every landing: landing in
/// mode 0 bounces back with speed `u² + p` into mode 1, landing in mode 1 with speed `p` into
/// mode 0. Strides that carry the mode over give `u, u² + p, p, p² + p, p, …`; strides that
/// always start in mode 0 would iterate `u ↦ u² + p` instead.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct AlternatingBounce;

impl HybridModel for AlternatingBounce {
    type Guard = Ground;
    fn name(&self) -> &str {
        "alternating_bounce"
    }
    fn dim(&self) -> usize {
        2
    }
    fn modes(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn flow<D: Scalar>(&self, p: &[D], m: usize, t: f64, x: &[D], dx: &mut [D]) {
        QuadraticBounce.flow(p, m, t, x, dx)
    }
    fn guards(&self, _m: usize) -> &[Ground] {
        &[Ground::Landing]
    }
    fn describe(&self, m: usize, _g: Ground) -> GuardSpec {
        GuardSpec::to(1 - m.min(1)).falling()
    }
    fn guard<D: Scalar>(&self, p: &[D], m: usize, g: Ground, x: &[D]) -> D {
        QuadraticBounce.guard(p, m, g, x)
    }
    fn reset<D: Scalar>(&self, p: &[D], m: usize, g: Ground, x: &[D], out: &mut [D]) {
        match g {
            Ground::Landing => {
                out[0] = D::from(0.0);
                out[1] = if m == 0 { x[1] * x[1] + p[P] } else { p[P] };
            }
        }
    }
}

/// The alternating bounce family in `p`.
pub(crate) fn alternating(p: f64) -> Result<Bound<AlternatingBounce>, ParamError> {
    Bound::with_values(AlternatingBounce, vec![p])
}

/// The parameters of [`CuspBounce`]: `a` and `b` (default 0).
const CUSP_PARAMS: &[Param] = &[Param::new("a", 0.0), Param::new("b", 0.0)];

/// The ball of [`QuadraticBounce`] bouncing back with speed `u + a + b x − x³`, `x = u − 1`
/// (`u = −v⁻` the landing speed): on the section the stride map is
/// `u ↦ u + a + b(u − 1) − (u − 1)³`, whose fixed points solve `a + b x − x³ = 0` with the
/// multiplier `1 + b − 3x²`. The folds (multiplier +1) lie on `(a, b) = (−2x³, 3x²)`, i.e.
/// `b = 3 (a/2)^{2/3}`, and meet in the cusp `a = b = 0` (`x = 0`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct CuspBounce;

impl CuspBounce {
    /// `v⁺ = u + a + b s − s³` with `u = −v⁻`, `s = u − 1`.
    fn bounce<D: Scalar>(p: &[D], v: D) -> D {
        let u = -v;
        let s = u - D::from(1.0);
        u + p[0] + p[1] * s - s * s * s
    }
}

ball_model! {
    CuspBounce,
    "cusp_bounce",
    CUSP_PARAMS,
    /// One admissibility condition in flight, `v + 1.1 ≥ 0` (the ball lands slower than
    /// 1.1): it fails from `u = 1.1`, `x = 0.1` on, which the fold curve reaches at
    /// `(a, b) = (−0.002, 0.03)`.
    fn conditions(&self, _mode: usize) -> usize {
        1
    }
    fn condition_name(&self, _mode: usize, _i: usize) -> String {
        "slow landing".into()
    }
    fn condition<D: Scalar>(&self, _p: &[D], _mode: usize, _i: usize, x: &[D]) -> D {
        x[1] + D::from(1.1)
    }
}

/// The parameters of [`RotationMap`]: `a` and `b` (default 0.5).
const ROTATION_PARAMS: &[Param] = &[Param::new("a", 0.5), Param::new("b", 0.5)];

/// A clock `s` (`s' = 1`) reset at `s = 1` while `(x, y)` jump by the map
/// `(x, y) ↦ (a x − b y + x², b x + a y)`: on the section `s = 0` the stride map has the fixed
/// point `(0, 0)` with `J = [[a, −b], [b, a]]`, multipliers `a ± ib`, so its Neimark–Sacker
/// curve is the circle `a² + b² = 1` with `κ = cos θ = a`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct RotationMap;

impl HybridModel for RotationMap {
    type Guard = Ground;
    fn name(&self) -> &str {
        "rotation_map"
    }
    fn dim(&self) -> usize {
        3
    }
    fn params(&self) -> &[Param] {
        ROTATION_PARAMS
    }
    fn flow<D: Scalar>(&self, _p: &[D], _m: usize, _t: f64, _x: &[D], dx: &mut [D]) {
        dx[0] = D::from(1.0);
        dx[1] = D::from(0.0);
        dx[2] = D::from(0.0);
    }
    fn guards(&self, _m: usize) -> &[Ground] {
        &[Ground::Landing]
    }
    fn describe(&self, _m: usize, _g: Ground) -> GuardSpec {
        GuardSpec::to(0).rising()
    }
    fn guard<D: Scalar>(&self, _p: &[D], _m: usize, _g: Ground, x: &[D]) -> D {
        x[0] - D::from(1.0)
    }
    fn reset<D: Scalar>(&self, p: &[D], _m: usize, _g: Ground, x: &[D], out: &mut [D]) {
        let (a, b) = (p[0], p[1]);
        out[0] = D::from(0.0);
        out[1] = a * x[1] - b * x[2] + x[1] * x[1];
        out[2] = b * x[1] + a * x[2];
    }
    fn reduced_dim(&self) -> usize {
        2
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = D::from(0.0);
        x[1] = u[0];
        x[2] = u[1];
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[1];
        u[1] = x[2];
    }
}

/// The ball of [`QuadraticBounce`] bouncing back with speed `u + x² + a² + b² − 1`,
/// `x = u − 1` (`u` the landing speed): fixed points `x² = 1 − a² − b²`, multiplier `1 + 2x`,
/// so the folds (`x = 0`) lie on the unit circle `a² + b² = 1`, a closed curve.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct CircleBounce;

impl CircleBounce {
    /// `v⁺ = u + s² + a² + b² − 1` with `u = −v⁻`, `s = u − 1`.
    fn bounce<D: Scalar>(p: &[D], v: D) -> D {
        let u = -v;
        let s = u - D::from(1.0);
        u + s * s + p[0] * p[0] + p[1] * p[1] - D::from(1.0)
    }
}

ball_model!(CircleBounce, "circle_bounce", CUSP_PARAMS);

/// The flip family in `p`.
pub(crate) fn flip(p: f64) -> Result<Bound<FlipBounce>, ParamError> {
    Bound::with_values(FlipBounce, vec![p])
}
