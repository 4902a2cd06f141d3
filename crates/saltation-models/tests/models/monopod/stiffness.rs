//! The monopod: stiffness.

use super::*;

/// `p(z)` and `p'(z)` of `z⁴ + a3 z³ + a2 z² + a1 z + a0` (coefficients `[1, a3, a2, a1, a0]`)
/// by Horner's scheme.
pub(crate) fn horner(a: &[f64; 5], z: Complex<f64>) -> (Complex<f64>, Complex<f64>) {
    let mut p = Complex::new(a[0], 0.0);
    let mut dp = Complex::new(0.0, 0.0);
    for &ak in &a[1..] {
        dp = dp * z + p;
        p = p * z + Complex::new(ak, 0.0);
    }
    (p, dp)
}

/// The four roots of a monic quartic by the Aberth–Ehrlich iteration (simultaneous Newton
/// with repulsion), started on a circle of the Fujiwara radius: independent of the companion
/// matrix and of the eigenvalue code the crate uses.
pub(crate) fn quartic_roots(a: &[f64; 5]) -> Vec<Complex<f64>> {
    assert_eq!(a[0], 1.0);
    let radius = (1..5)
        .map(|k| a[k].abs().powf(1.0 / k as f64))
        .fold(0.0, f64::max)
        * 2.0;
    let mut z: Vec<Complex<f64>> = (0..4)
        .map(|k| Complex::from_polar(radius, 0.4 + k as f64 * std::f64::consts::FRAC_PI_2))
        .collect();
    for _ in 0..1000 {
        let mut moved = 0.0f64;
        for k in 0..4 {
            let (p, dp) = horner(a, z[k]);
            if p.norm() == 0.0 {
                continue;
            }
            let ratio = p / dp;
            let repulsion: Complex<f64> = (0..4)
                .filter(|&j| j != k)
                .map(|j| Complex::new(1.0, 0.0) / (z[k] - z[j]))
                .sum();
            let w = ratio / (Complex::new(1.0, 0.0) - ratio * repulsion);
            z[k] -= w;
            moved = moved.max(w.norm() / z[k].norm().max(1e-300));
        }
        if moved < 1e-16 {
            break;
        }
    }
    // Polish each root by plain Newton steps.
    for zk in &mut z {
        for _ in 0..5 {
            let (p, dp) = horner(a, *zk);
            if dp.norm() > 0.0 {
                *zk -= p / dp;
            }
        }
    }
    z
}

/// Sorts by real part, then imaginary part.
pub(crate) fn sorted(mut v: Vec<Complex<f64>>) -> Vec<Complex<f64>> {
    v.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
    v
}

/// Largest `|λ − μ| / |μ|` between two sorted lists of roots, pairing each with its nearest
/// unused partner (conjugate pairs sort by the sign of an imaginary part that may be at
/// round-off level for a real double root).
pub(crate) fn max_relative_gap(a: &[Complex<f64>], b: &[Complex<f64>]) -> f64 {
    assert_eq!(a.len(), b.len());
    let mut used = vec![false; b.len()];
    let mut worst = 0.0f64;
    for x in a {
        let (j, d) = b
            .iter()
            .enumerate()
            .filter(|(j, _)| !used[*j])
            .map(|(j, y)| (j, (x - y).norm()))
            .min_by(|p, q| p.1.total_cmp(&q.1))
            .unwrap();
        used[j] = true;
        worst = worst.max(d / x.norm());
    }
    worst
}

/// The stance Jacobian at `q` by automatic differentiation of the events strategy's stance
/// mode.
pub(crate) fn stance_jacobian_ad(m: &Bound<Monopod>, q: &[f64; 4]) -> DMatrix<f64> {
    let mut jac = [0.0; 16];
    flow_jacobian_ad(m, STANCE, 0.0, q, &mut jac);
    DMatrix::from_row_slice(4, 4, &jac)
}

/// `max |Re λ| / min |Re λ|`, written out here.
pub(crate) fn sr(roots: &[Complex<f64>]) -> f64 {
    let re: Vec<f64> = roots.iter().map(|l| l.re.abs()).collect();
    re.iter().cloned().fold(0.0, f64::max) / re.iter().cloned().fold(f64::INFINITY, f64::min)
}

#[test]
fn eq31_roots_are_the_stance_eigenvalues_at_eq29() {
    for (set, m) in table2().enumerate() {
        let p = m.values();
        let [_, m1, k, f] = values(&m);
        let q = Monopod::equilibrium_eq29(p);
        // The toe depth of eq. (29), written out: |y1|^1.5 = 4π² f*/(k* m1*).
        let r29 = W2 * f / (k * m1);
        assert!(
            (q[0].abs().powf(1.5) - r29).abs() <= 1e-14 * r29,
            "set {}",
            set + 1
        );
        assert!((q[2] - (q[0] + 1.0 - f / m1)).abs() <= 1e-15);
        assert_eq!((q[1], q[3]), (0.0, 0.0));
        let eq31 = CharacteristicPolynomial::eq31(p);
        // at_depth at the eq. (29) depth is the printed eq. (31).
        let at = CharacteristicPolynomial::at_depth(p, r29);
        for (a, b) in at.0.iter().zip(&eq31.0) {
            assert!(
                (a - b).abs() <= 1e-13 * b.abs(),
                "set {}: {at:?} vs {eq31:?}",
                set + 1
            );
        }
        // Its roots (Aberth, here) against the eigenvalues of the AD stance Jacobian.
        let roots = sorted(quartic_roots(&eq31.0));
        let eig = sorted(eigenvalues(&stance_jacobian_ad(&m, &q)).unwrap());
        let gap = max_relative_gap(&eig, &roots);
        assert!(
            gap <= 1e-9,
            "set {}: {eig:?} vs {roots:?} ({gap:e})",
            set + 1
        );
        // The crate's own roots (companion matrix) and stance eigenvalues agree too.
        let crate_roots = sorted(eq31.roots().unwrap());
        let gap = max_relative_gap(&crate_roots, &roots);
        assert!(
            gap <= 1e-9,
            "set {}: crate roots {crate_roots:?} ({gap:e})",
            set + 1
        );
        let crate_eig = sorted(Monopod::stance_eigenvalues(p, &q).unwrap());
        let gap = max_relative_gap(&crate_eig, &eig);
        assert!(
            gap <= 1e-9,
            "set {}: crate eigenvalues {crate_eig:?} ({gap:e})",
            set + 1
        );
    }
}

/// The characteristic polynomial of the stance Jacobian `J` (rows `[0 1 0 0]`, `[A B c 0]`,
/// `[0 0 0 1]`, `[m1 0 −m1 0]`) derived by hand: `(λ² − Bλ − A)(λ² + m1) = c m1`, i.e.
/// `λ⁴ − Bλ³ + (m1 − A)λ² − m1 B λ − m1 (A + c)`. Checks the structure of `J` first.
pub(crate) fn char_poly_of_stance_jacobian(m: &Bound<Monopod>, j: &DMatrix<f64>) -> [f64; 5] {
    let m1 = m.values()[M1];
    let c = W2 - m1;
    let structure = [
        ((0, 0), 0.0),
        ((0, 1), 1.0),
        ((0, 2), 0.0),
        ((0, 3), 0.0),
        ((1, 2), c),
        ((1, 3), 0.0),
        ((2, 0), 0.0),
        ((2, 1), 0.0),
        ((2, 2), 0.0),
        ((2, 3), 1.0),
        ((3, 0), m1),
        ((3, 1), 0.0),
        ((3, 2), -m1),
        ((3, 3), 0.0),
    ];
    for (ij, v) in structure {
        assert!(
            (j[ij] - v).abs() <= 1e-14 * v.abs(),
            "J{ij:?} = {} vs {v}",
            j[ij]
        );
    }
    let (a, b) = (j[(1, 0)], j[(1, 1)]);
    [1.0, -b, m1 - a, -m1 * b, -m1 * (a + c)]
}

#[test]
fn equilibria_and_stiffness_ratios() {
    println!(
        "monopod stiffness (SR = max|Re λ|/min|Re λ| of the stance Jacobian):\n\
         set      b*     m1*     k*     f*   |y1| eq29    SR eq29     |y1| true   SR true   \
         eq29 residual"
    );
    for (set, m) in table2().enumerate() {
        let p = m.values();
        let [b, m1, k, f] = values(&m);
        let c = W2 - m1;
        let s = Monopod::stiffness(p).unwrap();
        let q = Monopod::equilibrium(p);
        assert_eq!(s.eq_true, q);
        assert_eq!(s.eq29, Monopod::equilibrium_eq29(p));
        assert!(q[0] < 0.0, "set {}: the toe is in the ground", set + 1);
        // The true equilibrium is a rest point of the stance field (both strategies, and the
        // transcription of eqs. 18–19).
        let if_else = Monopod::new(Strategy::IfElse).at(values(&m));
        for dq in [
            flow(&m, STANCE, &q),
            flow(&if_else, 0, &q),
            reference_flow(&m, true, &q),
        ] {
            for v in dq {
                assert!(v.abs() <= 1e-12, "set {}: flow {dq:?} at {q:?}", set + 1);
            }
        }
        // Eq. (29) is not: its residual in ÿ1 is 4π² f*/m1* (c − 1) (the missing 1/c).
        let q29 = Monopod::equilibrium_eq29(p);
        let f29 = reference_flow(&m, true, &q29);
        let residual29 = W2 * f / m1 * (c - 1.0);
        assert!(f29[0] == 0.0 && f29[2] == 0.0 && f29[3].abs() <= 1e-13);
        assert!(
            (f29[1] - residual29).abs() <= 1e-12 * residual29.abs(),
            "set {}: {} vs {residual29}",
            set + 1,
            f29[1]
        );
        assert!(
            f29[1].abs() > 1.0,
            "set {}: eq. (29) residual {}",
            set + 1,
            f29[1]
        );
        // The SR at the true equilibrium from the hand-derived polynomial of the AD Jacobian,
        // rooted here.
        let poly = char_poly_of_stance_jacobian(&m, &stance_jacobian_ad(&m, &q));
        let r_true = q[0].abs().powf(1.5);
        let at = CharacteristicPolynomial::at_depth(p, r_true);
        for (a, b) in at.0.iter().zip(&poly) {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs(),
                "set {}: {at:?} vs {poly:?}",
                set + 1
            );
        }
        let roots = quartic_roots(&poly);
        assert!(
            roots.iter().all(|l| l.re < 0.0),
            "set {}: {roots:?}",
            set + 1
        );
        let sr_true = sr(&roots);
        assert!(
            sr_true.is_finite() && sr_true > 1.0,
            "set {}: SR {sr_true}",
            set + 1
        );
        assert!(
            (s.sr_true - sr_true).abs() <= 1e-8 * sr_true,
            "set {}: SR {} vs {sr_true}",
            set + 1,
            s.sr_true
        );
        let sr29 = sr(&quartic_roots(&CharacteristicPolynomial::eq31(p).0));
        assert!(
            (s.sr_eq29 - sr29).abs() <= 1e-8 * sr29,
            "set {}: SR(29) {} vs {sr29}",
            set + 1,
            s.sr_eq29
        );
        println!(
            "{:>3} {:>7} {:>7} {:>6} {:>6}   {:.4e}  {:>10.4}    {:.4e}  {:>8.4}   {:.4}",
            set + 1,
            b,
            m1,
            k,
            f,
            q29[0].abs(),
            s.sr_eq29,
            q[0].abs(),
            s.sr_true,
            f29[1]
        );
    }
}
