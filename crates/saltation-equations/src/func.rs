//! Built-in functions and the scalar kernels shared by the evaluator, constant folding and
//! `diagnose`, so that all three compute the same bits.
//!
//! Every kernel gives, for a dual number, exactly the `f64` result of the same kernel as its
//! real part (num-dual's own `tan`, `tanh`, `atan2` and `powi`/`powf` round differently or
//! overflow early, so those are built here from pieces whose real parts are exact), and
//! derivatives that are those of the function computed, to every order num-dual carries.

use num_dual::DualNum;

/// A built-in function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Func {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log,
    Sqrt,
    Abs,
    Sign,
    Min,
    Max,
    Pow,
    If,
    Floor,
    Mod,
    Wrap,
}

/// Every function: name, function, number of arguments.
pub(crate) const FUNCTIONS: [(&str, Func, usize); 22] = [
    ("sin", Func::Sin, 1),
    ("cos", Func::Cos, 1),
    ("tan", Func::Tan, 1),
    ("asin", Func::Asin, 1),
    ("acos", Func::Acos, 1),
    ("atan", Func::Atan, 1),
    ("atan2", Func::Atan2, 2),
    ("sinh", Func::Sinh, 1),
    ("cosh", Func::Cosh, 1),
    ("tanh", Func::Tanh, 1),
    ("exp", Func::Exp, 1),
    ("log", Func::Log, 1),
    ("sqrt", Func::Sqrt, 1),
    ("abs", Func::Abs, 1),
    ("sign", Func::Sign, 1),
    ("min", Func::Min, 2),
    ("max", Func::Max, 2),
    ("pow", Func::Pow, 2),
    ("if", Func::If, 3),
    ("floor", Func::Floor, 1),
    ("mod", Func::Mod, 2),
    ("wrap", Func::Wrap, 1),
];

impl Func {
    pub(crate) fn from_name(name: &str) -> Option<(Func, usize)> {
        FUNCTIONS
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|&(_, f, a)| (f, a))
    }

    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        FUNCTIONS
            .iter()
            .find(|(_, f, _)| *f == self)
            .map_or("?", |(n, _, _)| n)
    }
}

/// Largest `|n|` of an integer power computed with `powi` (num-dual's higher-derivative
/// coefficients `n (n-1) (n-2)` must fit an `i32`); larger constant exponents use `powf`.
pub(crate) const MAX_POWI: f64 = 1024.0;

/// `Some(n)` if `v` is an integer exponent for `powi`.
#[inline]
pub(crate) fn int_exponent(v: f64) -> Option<i32> {
    (v.fract() == 0.0 && v.abs() <= MAX_POWI).then_some(v as i32)
}

/// Unary kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Un {
    Neg,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log,
    Sqrt,
    Abs,
    Sign,
    Floor,
    Wrap,
}

impl Un {
    #[inline(always)]
    pub(crate) fn apply<D: DualNum<f64> + Copy>(self, x: D) -> D {
        match self {
            Un::Neg => -x,
            Un::Sin => x.sin(),
            Un::Cos => x.cos(),
            Un::Tan => tan(x),
            Un::Asin => x.asin(),
            Un::Acos => x.acos(),
            Un::Atan => x.atan(),
            Un::Sinh => x.sinh(),
            Un::Cosh => x.cosh(),
            Un::Tanh => tanh(x),
            Un::Exp => x.exp(),
            Un::Log => x.ln(),
            Un::Sqrt => x.sqrt(),
            Un::Abs => abs(x),
            Un::Sign => sign(x),
            Un::Floor => floor(x),
            Un::Wrap => wrap(x),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Un::Neg => "neg",
            Un::Sin => "sin",
            Un::Cos => "cos",
            Un::Tan => "tan",
            Un::Asin => "asin",
            Un::Acos => "acos",
            Un::Atan => "atan",
            Un::Sinh => "sinh",
            Un::Cosh => "cosh",
            Un::Tanh => "tanh",
            Un::Exp => "exp",
            Un::Log => "log",
            Un::Sqrt => "sqrt",
            Un::Abs => "abs",
            Un::Sign => "sign",
            Un::Floor => "floor",
            Un::Wrap => "wrap",
        }
    }

    pub(crate) fn of(f: Func) -> Option<Un> {
        Some(match f {
            Func::Sin => Un::Sin,
            Func::Cos => Un::Cos,
            Func::Tan => Un::Tan,
            Func::Asin => Un::Asin,
            Func::Acos => Un::Acos,
            Func::Atan => Un::Atan,
            Func::Sinh => Un::Sinh,
            Func::Cosh => Un::Cosh,
            Func::Tanh => Un::Tanh,
            Func::Exp => Un::Exp,
            Func::Log => Un::Log,
            Func::Sqrt => Un::Sqrt,
            Func::Abs => Un::Abs,
            Func::Sign => Un::Sign,
            Func::Floor => Un::Floor,
            Func::Wrap => Un::Wrap,
            _ => return None,
        })
    }
}

/// Binary kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Atan2,
    Min,
    Max,
    Mod,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Bin {
    #[inline(always)]
    pub(crate) fn apply<D: DualNum<f64> + Copy>(self, a: D, b: D) -> D {
        match self {
            Bin::Add => a + b,
            Bin::Sub => a - b,
            Bin::Mul => a * b,
            Bin::Div => a / b,
            Bin::Pow => powd(a, b),
            Bin::Atan2 => atan2(a, b),
            Bin::Min => min(a, b),
            Bin::Max => max(a, b),
            Bin::Mod => modulo(a, b),
            Bin::Lt => truth(a.re() < b.re()),
            Bin::Le => truth(a.re() <= b.re()),
            Bin::Gt => truth(a.re() > b.re()),
            Bin::Ge => truth(a.re() >= b.re()),
            Bin::Eq => truth(a.re() == b.re()),
            Bin::Ne => truth(a.re() != b.re()),
        }
    }

    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Bin::Add => "+",
            Bin::Sub => "-",
            Bin::Mul => "*",
            Bin::Div => "/",
            Bin::Pow => "^",
            Bin::Atan2 => "atan2",
            Bin::Min => "min",
            Bin::Max => "max",
            Bin::Mod => "mod",
            Bin::Lt => "<",
            Bin::Le => "<=",
            Bin::Gt => ">",
            Bin::Ge => ">=",
            Bin::Eq => "==",
            Bin::Ne => "!=",
        }
    }
}

#[inline(always)]
fn truth<D: DualNum<f64> + Copy>(b: bool) -> D {
    D::from(if b { 1.0 } else { 0.0 })
}

/// `v` as the real part, the derivatives of `d` (whose real part is dropped exactly: `r - r`
/// is exactly zero for a finite `r`).
#[inline(always)]
fn with_re<D: DualNum<f64> + Copy>(v: f64, d: D) -> D {
    D::from(v) + (d - d.re())
}

/// `tan x` by the addition theorem around the real part: with `h = x - x0` (real part 0)
/// `tan x = (t0 + tan h) / (1 - t0 tan h)`, real part exactly `t0 = tan x0`.
#[inline(always)]
pub(crate) fn tan<D: DualNum<f64> + Copy>(x: D) -> D {
    let x0 = x.re();
    let t0 = x0.tan();
    if D::NDERIV == 0 {
        return D::from(t0);
    }
    let th = (x - x0).tan();
    (th + t0) / (-(th * t0) + 1.0)
}

/// `tanh x` likewise, `(T0 + tanh h) / (1 + T0 tanh h)` (num-dual's `sinh/cosh` overflows to
/// NaN beyond |x| ≈ 710).
#[inline(always)]
pub(crate) fn tanh<D: DualNum<f64> + Copy>(x: D) -> D {
    let x0 = x.re();
    let t0 = x0.tanh();
    if D::NDERIV == 0 {
        return D::from(t0);
    }
    let th = (x - x0).tanh();
    (th + t0) / (th * t0 + 1.0)
}

/// `|x|`; derivative `sign(x)`, so 0 at 0.
#[inline(always)]
pub(crate) fn abs<D: DualNum<f64> + Copy>(x: D) -> D {
    let r = x.re();
    if D::NDERIV == 0 {
        return D::from(r.abs());
    }
    if r > 0.0 {
        x
    } else if r < 0.0 {
        -x
    } else if r == 0.0 {
        D::from(0.0)
    } else {
        x
    }
}

/// -1, 0 or 1 (NaN for NaN); derivative 0.
#[inline(always)]
pub(crate) fn sign<D: DualNum<f64> + Copy>(x: D) -> D {
    let r = x.re();
    D::from(if r > 0.0 {
        1.0
    } else if r < 0.0 {
        -1.0
    } else if r == 0.0 {
        0.0
    } else {
        f64::NAN
    })
}

/// `⌊x⌋`, the largest integer not above `x`; derivative 0 (it is piecewise constant).
#[inline(always)]
pub(crate) fn floor<D: DualNum<f64> + Copy>(x: D) -> D {
    D::from(x.re().floor())
}

/// The floored remainder `a − b ⌊a/b⌋`: in `[0, b)` for `b > 0` (in `(b, 0]` for `b < 0`),
/// NaN for `b = 0` or a non-finite argument; derivative `da − ⌊a/b⌋ db` (that of the piece the
/// real parts select: 1 in `a` almost everywhere).
#[inline(always)]
pub(crate) fn modulo<D: DualNum<f64> + Copy>(a: D, b: D) -> D {
    let (ra, rb) = (a.re(), b.re());
    if rb == 0.0 || !ra.is_finite() || !rb.is_finite() {
        return D::from(f64::NAN);
    }
    let k = (ra / rb).floor();
    let mut v = ra - rb * k;
    // Rounding can put the remainder on the open end (`mod(-1e-20, 1)` is `1 − 1e-20` = 1):
    // fold it back into the half-open range.
    if (rb > 0.0 && v >= rb) || (rb < 0.0 && v <= rb) {
        v -= rb;
    }
    if (rb > 0.0 && v < 0.0) || (rb < 0.0 && v > 0.0) {
        v = 0.0;
    }
    if D::NDERIV == 0 {
        return D::from(v);
    }
    with_re(v, a - b * k)
}

/// The angle `x` wrapped into `(−π, π]`: `x − 2π k` with the integer `k` that puts it there;
/// derivative 1 (almost everywhere). NaN for a non-finite `x`.
#[inline(always)]
pub(crate) fn wrap<D: DualNum<f64> + Copy>(x: D) -> D {
    use std::f64::consts::{PI, TAU};
    let r = x.re();
    if !r.is_finite() {
        return D::from(f64::NAN);
    }
    let mut v = r - TAU * ((r - PI) / TAU).ceil();
    if v > PI {
        v -= TAU;
    } else if v <= -PI {
        v += TAU;
    }
    if D::NDERIV == 0 {
        return D::from(v);
    }
    with_re(v, x)
}

/// The smaller argument (the first on a tie); NaN if either is NaN.
#[inline(always)]
pub(crate) fn min<D: DualNum<f64> + Copy>(a: D, b: D) -> D {
    let (ra, rb) = (a.re(), b.re());
    if rb < ra || rb.is_nan() {
        b
    } else {
        a
    }
}

/// The larger argument (the first on a tie); NaN if either is NaN.
#[inline(always)]
pub(crate) fn max<D: DualNum<f64> + Copy>(a: D, b: D) -> D {
    let (ra, rb) = (a.re(), b.re());
    if rb > ra || rb.is_nan() {
        b
    } else {
        a
    }
}

/// `atan2(y, x)`, the angle of the point `(x, y)`; derivative `(x dy - y dx) / (x² + y²)`
/// (none at the origin: there the derivatives are 0).
#[inline(always)]
pub(crate) fn atan2<D: DualNum<f64> + Copy>(y: D, x: D) -> D {
    let (ry, rx) = (y.re(), x.re());
    let v = ry.atan2(rx);
    if D::NDERIV == 0 {
        return D::from(v);
    }
    // Locally atan2 differs from these by a constant, so all derivatives agree; the quotient
    // with the larger denominator avoids dividing by zero off the origin.
    let local = if rx.abs() >= ry.abs() {
        if rx == 0.0 {
            return D::from(v);
        }
        (y / x).atan()
    } else {
        -(x / y).atan()
    };
    with_re(v, local)
}

/// `x^n` for an integer `n`: `f64::powi` for the value; for dual numbers
/// `x0^n · (x/x0)^n`, whose real part is exactly that value and which does not overflow in
/// the intermediate powers num-dual forms (at `x0 = 0` num-dual's `powi`, exact there for
/// `n ≥ 0`).
#[inline(always)]
pub(crate) fn powi<D: DualNum<f64> + Copy>(x: D, n: i32) -> D {
    let x0 = x.re();
    if D::NDERIV == 0 {
        // `x*x` is what `powi(x, 2)` computes, without the call.
        return D::from(if n == 2 { x0 * x0 } else { x0.powi(n) });
    }
    match n {
        0 => D::from(1.0),
        1 => x,
        2 => x * x,
        -1 => x.recip(),
        _ if x0 == 0.0 => x.powi(n),
        _ => (x / x0).powi(n) * x0.powi(n),
    }
}

/// `x^n` for a constant non-integer `n`: `f64::powf` for the value; for dual numbers
/// `x0^n · (x/x0)^n` (exact real part, no intermediate overflow); at `x0 = 0` the value is
/// `0^n` and the first derivative 0 for `n > 1`, not finite for `n < 1`.
#[inline(always)]
pub(crate) fn powf<D: DualNum<f64> + Copy>(x: D, n: f64) -> D {
    let x0 = x.re();
    if D::NDERIV == 0 {
        return D::from(x0.powf(n));
    }
    if x0 == 0.0 {
        if n > 1.0 {
            x * 0.0
        } else {
            (x.ln() * n).exp()
        }
    } else {
        (x / x0).powf(n) * x0.powf(n)
    }
}

/// `x^y` with a variable exponent: for `x > 0`, `x^y = exp(y ln x)` with the value of
/// `f64::powf`; for `x ≤ 0` and an integer `y` (`|y| ≤ 1024`) it is `powi` (the derivative
/// with respect to `y` is taken as 0 there: `x^y` has no real derivative in `y` for `x < 0`);
/// otherwise NaN where `powf` gives NaN.
#[inline(always)]
pub(crate) fn powd<D: DualNum<f64> + Copy>(x: D, y: D) -> D {
    let (x0, y0) = (x.re(), y.re());
    if !(x0 > 0.0) {
        if let Some(n) = int_exponent(y0) {
            return powi(x, n);
        }
    }
    if D::NDERIV == 0 {
        return D::from(x0.powf(y0));
    }
    if x0 > 0.0 {
        // Real part of the exponent: y0 ln x0 − y0 ln x0 = 0 exactly.
        ((y * x.ln()) - y0 * x0.ln()).exp() * x0.powf(y0)
    } else {
        (x.ln() * y).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (n, f, a) in FUNCTIONS {
            assert_eq!(Func::from_name(n), Some((f, a)));
            assert_eq!(f.name(), n);
        }
        assert_eq!(Func::from_name("ln"), None);
    }

    #[test]
    fn floor_mod_and_wrap() {
        use num_dual::Dual64;
        use std::f64::consts::PI;
        assert_eq!(floor(2.7), 2.0);
        assert_eq!(floor(-0.5), -1.0);
        assert_eq!(modulo(7.5, 2.0), 1.5);
        assert_eq!(modulo(-0.5, 2.0), 1.5);
        assert_eq!(modulo(0.5, -2.0), -1.5);
        assert!(modulo(1.0, 0.0).is_nan() && modulo(f64::INFINITY, 1.0).is_nan());
        // A remainder that rounds onto the open end is folded back.
        let v = modulo(-1e-20, 1.0);
        assert!((0.0..1.0).contains(&v));
        assert!((wrap(3.0 * PI) - PI).abs() < 1e-15);
        assert_eq!(wrap(PI), PI);
        assert!((wrap(-PI) - PI).abs() < 1e-15);
        assert!((wrap(7.0) - (7.0 - 2.0 * PI)).abs() < 1e-15);
        assert!(wrap(f64::NAN).is_nan());
        // Derivatives: floor 0; mod 1 in a and -floor(a/b) in b; wrap 1.
        let x = Dual64::new(2.7, 1.0);
        assert_eq!(floor(x).eps, 0.0);
        assert_eq!(wrap(x).eps, 1.0);
        let m = modulo(Dual64::new(7.5, 1.0), Dual64::new(2.0, 0.0));
        assert_eq!((m.re, m.eps), (1.5, 1.0));
        let m = modulo(Dual64::new(7.5, 0.0), Dual64::new(2.0, 1.0));
        assert_eq!((m.re, m.eps), (1.5, -3.0));
    }

    #[test]
    fn integer_exponents() {
        assert_eq!(int_exponent(2.0), Some(2));
        assert_eq!(int_exponent(-3.0), Some(-3));
        assert_eq!(int_exponent(2.5), None);
        assert_eq!(int_exponent(1025.0), None);
        assert_eq!(int_exponent(f64::NAN), None);
        assert_eq!(int_exponent(f64::INFINITY), None);
    }
}
