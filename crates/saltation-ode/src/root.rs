//! Bracketing root finder for event location: Brent's method (Brent, *Algorithms for
//! Minimization without Derivatives*, 1973, ch. 4) on a scalar function of time.
//!
//! Given `g(a)` and `g(b)` of opposite signs it returns a bracket `[lo, hi]` with
//! `hi − lo ≤ tol` whose end `hi` lies on the far side of the sign change (so the event is
//! "just crossed" there), combining inverse quadratic interpolation, secant and bisection steps.

/// Finds a sign change of `g` in `[a, b]` given `ga = g(a)`, `gb = g(b)` of opposite signs
/// (or one of them zero). Returns `(t, g(t))` with `t` the end of the final bracket that lies on
/// `gb`'s side (the first point past the crossing), within `tol` of the root; `g` is called at most
/// `max_evals` times.
pub fn brent(
    mut g: impl FnMut(f64) -> f64,
    a: f64,
    b: f64,
    ga: f64,
    gb: f64,
    tol: f64,
    max_evals: usize,
) -> (f64, f64) {
    // Brent's zero (after the ALGOL procedure `zero`), keeping `b` as the best estimate and
    // `c` on the other side of the root.
    let (mut a, mut b, mut fa, mut fb) = (a, b, ga, gb);
    if fb == 0.0 {
        return (b, fb);
    }
    if fa == 0.0 {
        return (a, fa);
    }
    let side_b = fb.is_sign_negative();
    let (mut c, mut fc) = (a, fa);
    let mut d = b - a;
    let mut e = d;
    for _ in 0..max_evals {
        if fb.signum() == fc.signum() {
            c = a;
            fc = fa;
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let tol1 = 2.0 * f64::EPSILON * b.abs() + 0.5 * tol + f64::MIN_POSITIVE;
        let m = 0.5 * (c - b);
        if m.abs() <= tol1 || fb == 0.0 {
            break;
        }
        if e.abs() >= tol1 && fa.abs() > fb.abs() {
            let s = fb / fa;
            let (mut p, mut q);
            if a == c {
                p = 2.0 * m * s;
                q = 1.0 - s;
            } else {
                let qa = fa / fc;
                let r = fb / fc;
                p = s * (2.0 * m * qa * (qa - r) - (b - a) * (r - 1.0));
                q = (qa - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if 2.0 * p < (3.0 * m * q - (tol1 * q).abs()).min((e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                d = m;
                e = m;
            }
        } else {
            d = m;
            e = m;
        }
        a = b;
        fa = fb;
        b += if d.abs() > tol1 { d } else { tol1.copysign(m) };
        fb = g(b);
    }
    // Return the bracket end on the far side of the crossing (same sign as the original `gb`).
    if fb == 0.0 || fb.is_sign_negative() == side_b {
        (b, fb)
    } else {
        (c, fc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_roots_to_ulps() {
        let mut n = 0;
        let (t, _) = brent(
            |x| {
                n += 1;
                x * x - 2.0
            },
            1.0,
            2.0,
            -1.0,
            2.0,
            0.0,
            100,
        );
        assert!(
            (t - 2f64.sqrt()).abs() <= 4.0 * f64::EPSILON * 2f64.sqrt(),
            "{t}"
        );
        assert!(n < 15, "{n} evaluations");
        // Returned point is on the far side of the crossing.
        assert!(t * t - 2.0 >= 0.0);
        let (t, gt) = brent(|x| (x - 0.3).powi(3), 0.0, 1.0, -0.027, 0.343, 1e-16, 200);
        assert!((t - 0.3).abs() < 1e-5 && gt >= 0.0);
        let (t, gt) = brent(|x| 0.5 - x, 0.0, 1.0, 0.5, -0.5, 1e-16, 200);
        assert!((t - 0.5).abs() <= f64::EPSILON && gt <= 0.0);
    }
}
