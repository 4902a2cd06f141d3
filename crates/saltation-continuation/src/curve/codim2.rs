//! Codimension-two points on a curve: test functions of the multipliers other than the
//! critical one(s), and their location.
//!
//! With the multipliers `μ_i` of `J` and the critical one(s) removed (the one nearest +1 on a
//! fold curve, nearest −1 on a period-doubling curve, the pair nearest `e^{±iθ}` on a
//! Neimark–Sacker curve), the others `O`:
//! - fold curve: cusp `wᵀF_uu(v, v)` (the normal form's quadratic coefficient; it is
//!   `−g_u·v`, read off the gradient of the defining function), fold–flip `Π_O(μ + 1)`,
//!   1:1 `Π_O(μ − 1)`, fold–NS `Π_{i<j∈O}(μ_iμ_j − 1)`;
//! - period-doubling curve: fold–flip `Π_O(μ − 1)`, 1:2 `Π_O(μ + 1)`, flip–NS
//!   `Π_{i<j∈O}(μ_iμ_j − 1)`;
//! - Neimark–Sacker curve: 1:1 `κ − 1`, 1:2 `κ + 1`, fold–NS `Π_O(μ − 1)`, flip–NS
//!   `Π_O(μ + 1)`;
//! - grazing curve (no critical multiplier, `O` all of them): grazing–fold `Π_O(μ − 1)`,
//!   grazing–flip `Π_O(μ + 1)`, grazing–NS `Π_{i<j∈O}(μ_iμ_j − 1)`.
//!
//! A sign change between consecutive points is located by the Illinois variant of regula
//! falsi on the arclength `s` from the last point, each trial corrected onto the curve on the
//! hyperplane `τᵀ(z − z_a − τ s) = 0`, as a branch locates its bifurcations. A sign change of
//! `Π(μ_iμ_j − 1)` where no complex pair is on the unit circle (two real multipliers with
//! `μ_iμ_j = 1`) is not reported.

use super::family2::Plane;
use super::kind::CurveKind;
use super::point::Codim2Kind;
use super::system::{correct, split, Borders, Closure, Defining};
use crate::error::ContinuationError;
use crate::tests_fn::is_neimark_sacker;
use nalgebra::{Complex, DVector};
use saltation_hybrid::EvalModel;
use saltation_orbit::EigenBackend;

/// The codimension-two kinds tested on a curve of `kind`, in the order of [`tests`].
pub(crate) fn kinds(kind: CurveKind) -> &'static [Codim2Kind] {
    use Codim2Kind::*;
    match kind {
        CurveKind::Fold => &[Cusp, FoldFlip, Resonance11, FoldNeimarkSacker],
        CurveKind::PeriodDoubling => &[FoldFlip, Resonance12, FlipNeimarkSacker],
        CurveKind::NeimarkSacker => &[
            Resonance11,
            Resonance12,
            FoldNeimarkSacker,
            FlipNeimarkSacker,
        ],
        CurveKind::Grazing => &[GrazingFold, GrazingFlip, GrazingNeimarkSacker],
    }
}

/// The multipliers of `J` (reduced) with the critical one(s) of `kind` removed.
pub(crate) fn others(kind: CurveKind, mu: &[Complex<f64>], kappa: f64) -> Vec<Complex<f64>> {
    let mut rest = mu.to_vec();
    let nearest = |rest: &Vec<Complex<f64>>, target: Complex<f64>| {
        (0..rest.len()).min_by(|&i, &j| {
            (rest[i] - target)
                .norm()
                .total_cmp(&(rest[j] - target).norm())
        })
    };
    let targets: Vec<Complex<f64>> = match kind {
        CurveKind::Fold => vec![Complex::new(1.0, 0.0)],
        CurveKind::PeriodDoubling => vec![Complex::new(-1.0, 0.0)],
        CurveKind::NeimarkSacker => {
            let s = (1.0 - kappa * kappa).max(0.0).sqrt();
            vec![Complex::new(kappa, s), Complex::new(kappa, -s)]
        }
        CurveKind::Grazing => vec![],
    };
    for t in targets {
        if let Some(i) = nearest(&rest, t) {
            rest.remove(i);
        }
    }
    rest
}

/// The reduced multipliers at a point.
pub(crate) fn multipliers(
    d: &Defining,
    eigen: EigenBackend,
) -> Result<Vec<Complex<f64>>, ContinuationError> {
    // Multiple shooting: those of the segments' cyclic product, never the formed product.
    crate::run::eval_multipliers(&d.pe.e, d.pe.r, eigen)
}

/// The test functions of [`kinds`] at a point with unknowns `z`.
pub(crate) fn tests(
    kind: CurveKind,
    d: &Defining,
    z: &DVector<f64>,
    eigen: EigenBackend,
) -> Result<Vec<f64>, ContinuationError> {
    let (_, _, _, kappa) = split(z, kind);
    let mu = multipliers(d, eigen)?;
    let o = others(kind, &mu, kappa);
    let one = Complex::new(1.0, 0.0);
    let plus = o.iter().fold(one, |acc, m| acc * (m + one)).re;
    let minus = o.iter().fold(one, |acc, m| acc * (m - one)).re;
    let mut ns = one;
    for i in 0..o.len() {
        for j in i + 1..o.len() {
            ns *= o[i] * o[j] - one;
        }
    }
    Ok(match kind {
        CurveKind::Fold => {
            let r = d.v.nrows();
            let v = d.v.column(0);
            let cusp = -(d.grad.view((0, 0), (1, r)) * v)[(0, 0)];
            vec![cusp, plus, minus, ns.re]
        }
        CurveKind::PeriodDoubling => vec![minus, plus, ns.re],
        CurveKind::NeimarkSacker => vec![kappa - 1.0, kappa + 1.0, minus, plus],
        CurveKind::Grazing => vec![minus, plus, ns.re],
    })
}

/// Whether a located zero of the test `which` is a genuine point of its kind (a complex pair on
/// the unit circle for the Neimark–Sacker ones).
pub(crate) fn genuine(
    kind: CurveKind,
    which: Codim2Kind,
    d: &Defining,
    z: &DVector<f64>,
    eigen: EigenBackend,
) -> bool {
    let (_, _, _, kappa) = split(z, kind);
    match which {
        Codim2Kind::FoldNeimarkSacker
        | Codim2Kind::FlipNeimarkSacker
        | Codim2Kind::GrazingNeimarkSacker
            if kind != CurveKind::NeimarkSacker =>
        {
            multipliers(d, eigen)
                .map(|mu| is_neimark_sacker(&others(kind, &mu, kappa), 1e-4))
                .unwrap_or(false)
        }
        _ => true,
    }
}

/// Where the curve leaves a point: its unknowns, tangent, borders and test values.
pub(crate) struct Anchor<'s> {
    pub z: &'s DVector<f64>,
    pub tau: &'s DVector<f64>,
    pub borders: &'s Borders,
    pub tests: &'s [f64],
}

impl Anchor<'_> {
    /// The point of the curve at arclength `s` along the anchor's tangent: the prediction
    /// `z + s τ` corrected on the plane `τᵀ(z − z_pred) = 0`.
    fn trial<M: EvalModel + Clone + Sync>(
        &self,
        plane: &Plane<'_, M>,
        kind: CurveKind,
        s: f64,
        corrector_tol: f64,
        max_iters: usize,
    ) -> Result<(DVector<f64>, Defining), ContinuationError> {
        let z_pred = self.z + self.tau * s;
        let closure = Closure::Plane {
            z_pred: z_pred.clone(),
            tau: self.tau.clone(),
        };
        let (z, d, _) = correct(
            plane,
            kind,
            self.borders,
            &z_pred,
            closure,
            corrector_tol,
            max_iters,
        )?;
        Ok((z, d))
    }
}

/// Locates the zero of test `i` between `a` (arclength 0) and the point `z_b` with test
/// values `tests_b`; returns the located unknowns and defining functions.
#[allow(clippy::too_many_arguments)]
pub(crate) fn locate<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    kind: CurveKind,
    a: &Anchor<'_>,
    z_b: &DVector<f64>,
    tests_b: &[f64],
    i: usize,
    tol: f64,
    corrector_tol: f64,
    max_iters: usize,
) -> Result<(DVector<f64>, Defining), ContinuationError> {
    let r = z_b.len() - 2 - usize::from(kind == CurveKind::NeimarkSacker);
    let params = |z: &DVector<f64>| (z[r], z[r + 1]);
    let (mut s_lo, mut s_hi) = (0.0, a.tau.dot(&(z_b - a.z)));
    let (mut f_lo, mut f_hi) = (a.tests[i], tests_b[i]);
    let (mut q_lo, mut q_hi) = (params(a.z), params(z_b));
    let mut best: Option<(DVector<f64>, Defining)> = None;
    let mut side = 0i32;
    for _ in 0..60 {
        let dist = (q_hi.0 - q_lo.0).hypot(q_hi.1 - q_lo.1);
        if dist <= tol && best.is_some() {
            break;
        }
        let s = (s_lo * f_hi - s_hi * f_lo) / (f_hi - f_lo);
        let s = if s.is_finite() && s > s_lo.min(s_hi) && s < s_lo.max(s_hi) {
            s
        } else {
            0.5 * (s_lo + s_hi)
        };
        let (z, d) = a.trial(plane, kind, s, corrector_tol, max_iters)?;
        let f = tests(kind, &d, &z, plane.orbit.eigen)?[i];
        let q = params(&z);
        if f * f_lo > 0.0 {
            (s_lo, f_lo, q_lo) = (s, f, q);
            if side == -1 {
                f_hi *= 0.5;
            }
            side = -1;
        } else {
            (s_hi, f_hi, q_hi) = (s, f, q);
            if side == 1 {
                f_lo *= 0.5;
            }
            side = 1;
        }
        let done = f == 0.0;
        best = Some((z, d));
        if done {
            break;
        }
    }
    best.ok_or(ContinuationError::Corrector {
        p: a.z[r],
        iterations: 0,
        residual: f64::NAN,
    })
}

/// Whether the orbit at a corrected point (its unknowns and defining functions) is admissible.
pub(crate) type AdmissibleCheck<'c> =
    dyn Fn(&DVector<f64>, &Defining) -> Result<bool, ContinuationError> + 'c;

/// Locates where admissibility changes between `a` (arclength 0, admissible `adm_a`) and the
/// point `z_b` by bisection on the arclength, each trial corrected onto the curve and its
/// orbit checked, until the parameter bracket is below `tol` (at most 60 trials); returns the
/// last admissible trial (or the admissible end).
#[allow(clippy::too_many_arguments)]
pub(crate) fn locate_admissibility<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    kind: CurveKind,
    a: &Anchor<'_>,
    adm_a: bool,
    z_b: &DVector<f64>,
    tol: f64,
    corrector_tol: f64,
    max_iters: usize,
    admissible: &AdmissibleCheck<'_>,
) -> Result<Option<(DVector<f64>, Defining)>, ContinuationError> {
    let r = z_b.len() - 2 - usize::from(kind == CurveKind::NeimarkSacker);
    let params = |z: &DVector<f64>| (z[r], z[r + 1]);
    let (mut s_lo, mut s_hi) = (0.0, a.tau.dot(&(z_b - a.z)));
    let (mut q_lo, mut q_hi) = (params(a.z), params(z_b));
    let mut best = None;
    for _ in 0..60 {
        if (q_hi.0 - q_lo.0).hypot(q_hi.1 - q_lo.1) <= tol {
            break;
        }
        let s = 0.5 * (s_lo + s_hi);
        let (z, d) = a.trial(plane, kind, s, corrector_tol, max_iters)?;
        let ok = admissible(&z, &d)?;
        if ok == adm_a {
            (s_lo, q_lo) = (s, params(&z));
        } else {
            (s_hi, q_hi) = (s, params(&z));
        }
        if ok {
            best = Some((z, d));
        }
    }
    Ok(best)
}
