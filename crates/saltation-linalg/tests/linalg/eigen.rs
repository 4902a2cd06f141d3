//! Eigenvalue test set, run against every compiled backend (native always, LAPACK with the
//! feature `lapack`). Reference values are closed forms: roots of xⁿ = r, rotation–scaling
//! blocks, diagonals of triangular matrices; random matrices are checked by backward error.

use crate::common::*;
use nalgebra::{Complex, DMatrix, DVector};
use saltation_linalg::{
    eigenvalues_with, real_eigenvector, spectral_radius, EigenBackend, EigenError,
};

const EPS: f64 = f64::EPSILON;

fn eig(m: &DMatrix<f64>, backend: EigenBackend) -> Vec<Complex<f64>> {
    eigenvalues_with(m, backend).unwrap_or_else(|e| panic!("{backend:?}: {e}"))
}

fn backends() -> Vec<EigenBackend> {
    let b = EigenBackend::available();
    assert_eq!(b.len(), if cfg!(feature = "lapack") { 2 } else { 1 });
    b
}

#[test]
fn cyclic_companion_matrices() {
    for backend in backends() {
        let mut worst: f64 = 0.0;
        for n in [6, 8, 10] {
            for r in [1.0, 2.0, 0.5, 1e-3, 1e3] {
                for (form, a) in [
                    ("column", companion_column(n, r)),
                    ("transposed", companion_transposed(n, r)),
                ] {
                    let got = eig(&a, backend);
                    let want = roots_of(n, r);
                    // Eigenvalue condition numbers of these matrices are ~1 after balancing;
                    // compare relative to the eigenvalue modulus r^{1/n} and to ‖A‖.
                    let scale = r.powf(1.0 / n as f64);
                    let err = match_error(&got, &want) / scale;
                    worst = worst.max(err);
                    assert!(
                        err < 1e-14,
                        "{backend:?} {form} n={n} r={r}: relative error {err:e}"
                    );
                }
            }
        }
        eprintln!("{backend:?}: worst relative error on companion matrices {worst:.2e}");
    }
}

#[test]
fn defective_zero_eigenvalue() {
    let mut rng = Rng::new(7);
    for backend in backends() {
        for k in [2usize, 3, 4, 6] {
            // A nilpotent Jordan block alone is triangular: exact zeros.
            let mut jb = DMatrix::<f64>::zeros(k, k);
            for i in 0..k - 1 {
                jb[(i, i + 1)] = 1.0;
            }
            assert!(eig(&jb, backend).iter().all(|l| l.norm() == 0.0));
            // Under a random orthogonal similarity the zeros split into a ring of radius
            // ~(c·ε·‖A‖)^{1/k}: the best any backward-stable method can do (a perturbation of
            // size δ in the corner moves them to δ^{1/k}). Check that bound, and that their sum
            // (the trace, which is well conditioned) stays at the ε level.
            let q = rng.orthogonal(k);
            let a = &q * &jb * q.transpose();
            let got = eig(&a, backend);
            let bound = 10.0 * (k as f64 * EPS * a.norm()).powf(1.0 / k as f64);
            let radius = spectral_radius(&got);
            assert!(
                radius < bound,
                "{backend:?} k={k}: |λ| = {radius:e} > bound {bound:e}"
            );
            let sum: Complex<f64> = got.iter().sum();
            assert!(sum.norm() < 100.0 * EPS, "{backend:?} k={k}: sum {sum}");
        }
    }
}

#[test]
fn complex_pairs_under_similarity() {
    let mut rng = Rng::new(11);
    // Known spectrum: rotation–scaling blocks ρ[cos θ, −sin θ; sin θ, cos θ] and real entries.
    let pairs = [(0.9, 0.3), (1.1, 2.0), (0.4, 1.0), (0.999, 0.01)];
    let reals = [0.5, -0.7, 1e-3];
    let n = 2 * pairs.len() + reals.len();
    let mut d = DMatrix::<f64>::zeros(n, n);
    let mut want = Vec::new();
    for (b, &(rho, th)) in pairs.iter().enumerate() {
        let (c, s) = (rho * f64::cos(th), rho * f64::sin(th));
        let i = 2 * b;
        d[(i, i)] = c;
        d[(i, i + 1)] = -s;
        d[(i + 1, i)] = s;
        d[(i + 1, i + 1)] = c;
        want.push(Complex::new(c, s));
        want.push(Complex::new(c, -s));
    }
    for (t, &r) in reals.iter().enumerate() {
        let i = 2 * pairs.len() + t;
        d[(i, i)] = r;
        want.push(Complex::new(r, 0.0));
    }
    for backend in backends() {
        // Orthogonal similarity: normal matrix, every eigenvalue perfectly conditioned.
        let q = rng.orthogonal(n);
        let a = &q * &d * q.transpose();
        let err = match_error(&eig(&a, backend), &want) / a.norm();
        assert!(err < 1e-15 * n as f64, "{backend:?} orthogonal: {err:e}");
        // General similarity V D V⁻¹ with V = Q·diag(1..4)·Q': errors grow with κ(V) ≤ 4.
        let q2 = rng.orthogonal(n);
        let s =
            DMatrix::from_diagonal(&DVector::from_fn(n, |i, _| 1.0 + 3.0 * i as f64 / n as f64));
        let v = &q * s * q2;
        let vinv = v.clone().try_inverse().unwrap();
        let a = &v * &d * vinv;
        let got = eig(&a, backend);
        let err = match_error(&got, &want) / a.norm();
        assert!(err < 1e-14, "{backend:?} similarity: {err:e}");
        // Conjugate pairs are exact conjugates.
        for l in got.iter().filter(|l| l.im != 0.0) {
            assert!(
                got.iter().any(|m| *m == l.conj()),
                "{backend:?}: {l} unpaired"
            );
        }
    }
}

#[test]
fn random_matrices_backward_error() {
    let mut rng = Rng::new(2024);
    for backend in backends() {
        let mut worst: f64 = 0.0;
        for n in (1..=12).chain([20, 35, 50]) {
            for _ in 0..5 {
                let a = rng.matrix(n);
                let got = eig(&a, backend);
                assert_eq!(got.len(), n);
                for l in &got {
                    let be = relative_backward_error(&a, *l);
                    worst = worst.max(be);
                    assert!(
                        be < 1e-14,
                        "{backend:?} n={n}: backward error {be:e} at {l}"
                    );
                }
                let trace: f64 = got.iter().map(|l| l.re).sum();
                assert!((trace - a.trace()).abs() < 1e-13 * a.norm() * n as f64);
            }
        }
        eprintln!("{backend:?}: worst backward error on random matrices {worst:.2e}");
    }
}

#[test]
fn triangular_matrices_give_their_diagonal() {
    let mut rng = Rng::new(5);
    for backend in backends() {
        for n in [1, 2, 5, 12] {
            let mut a = rng.matrix(n);
            for i in 0..n {
                for j in 0..i {
                    a[(i, j)] = 0.0;
                }
            }
            let want: Vec<Complex<f64>> = (0..n).map(|i| Complex::new(a[(i, i)], 0.0)).collect();
            let err = match_error(&eig(&a, backend), &want);
            assert!(err <= 1e-15, "{backend:?} upper n={n}: {err:e}");
            let err = match_error(&eig(&a.transpose(), backend), &want);
            assert!(err <= 1e-15, "{backend:?} lower n={n}: {err:e}");
        }
    }
}

#[test]
fn rimless_wheel_like_stride_jacobian() {
    // A 4×4 stride-map Jacobian with eigenvalues {0, 0, 0, 4/9}: the reset keeps one
    // direction (multiplier cos²(2α) = 4/9 for cos 2α = 2/3) and loses three. It is the
    // rank-one matrix u vᵀ with vᵀu = 4/9, as J = g_x (I − f hₓ/(hₓ f)) Φ is rank-deficient.
    let u: DVector<f64> = DVector::from_vec(vec![1.0, -0.5, 2.0 / 3.0, 0.25]);
    let v = DVector::from_vec(vec![2.0 / 9.0, 0.0, 1.0 / 3.0, 0.0]);
    let a = &u * v.transpose();
    assert!((v.dot(&u) - 4.0 / 9.0).abs() < 1e-16);
    let want = [4.0 / 9.0, 0.0, 0.0, 0.0].map(|x| Complex::new(x, 0.0));
    // A full-rank variant: similarity of diag(0, 0, 4/9, 4/9) with a shear.
    let s = DMatrix::from_row_slice(
        4,
        4,
        &[
            1.0, 0.5, 0.0, 0.0, 0.0, 1.0, 0.25, 0.0, 0.0, 0.0, 1.0, -0.5, 0.0, 0.0, 0.0, 1.0,
        ],
    );
    let d = DMatrix::from_diagonal(&DVector::from_vec(vec![0.0, 0.0, 4.0 / 9.0, 4.0 / 9.0]));
    let b = &s * d * s.clone().try_inverse().unwrap();
    let want_b = [4.0 / 9.0, 4.0 / 9.0, 0.0, 0.0].map(|x| Complex::new(x, 0.0));
    for backend in backends() {
        let got = eig(&a, backend);
        let err = match_error(&got, &want);
        assert!(err < 1e-14, "{backend:?} rank one: {err:e}");
        assert!((spectral_radius(&got) - 4.0 / 9.0).abs() < 1e-15);
        let err = match_error(&eig(&b, backend), &want_b);
        assert!(err < 1e-14, "{backend:?} semisimple: {err:e}");
    }
}

/// Matrices that break naive QR iterations (zero shifts on orthogonal matrices, graded and
/// badly scaled entries): every backend must return, with n finite eigenvalues.
fn nasty_matrices() -> Vec<(String, DMatrix<f64>)> {
    let mut rng = Rng::new(99);
    let mut out = Vec::new();
    for n in 1..=12 {
        out.push((format!("companion n={n}"), companion_column(n, 1.0)));
        out.push((format!("companion^T n={n}"), companion_transposed(n, 1.0)));
        out.push((format!("zero n={n}"), DMatrix::zeros(n, n)));
        out.push((format!("identity n={n}"), DMatrix::identity(n, n)));
        let p = rng.permutation(n);
        out.push((
            format!("permutation n={n}"),
            DMatrix::from_fn(n, n, |i, j| if p[i] == j { 1.0 } else { 0.0 }),
        ));
        out.push((
            format!("anti-identity n={n}"),
            DMatrix::from_fn(n, n, |i, j| if i + j == n - 1 { 1.0 } else { 0.0 }),
        ));
    }
    for (name, s) in [
        ("huge", 1e150),
        ("tiny", 1e-150),
        ("big", 1e300),
        ("small", 1e-300),
    ] {
        out.push((format!("{name} companion"), companion_column(8, 1.0) * s));
        out.push((format!("{name} random"), rng.matrix(6) * s));
    }
    out.push((
        "graded".into(),
        DMatrix::from_fn(8, 8, |i, j| {
            rng.uniform() * 10f64.powi(3 * (i as i32 - j as i32))
        }),
    ));
    out.push((
        "single huge entry".into(),
        DMatrix::from_fn(6, 6, |i, j| if (i, j) == (0, 5) { 1e200 } else { 1e-3 }),
    ));
    out.push((
        "Hilbert 12".into(),
        DMatrix::from_fn(12, 12, |i, j| 1.0 / (i + j + 1) as f64),
    ));
    // Block of two 2-cycles, and a classic QR stress test with entries 90, 300, 4e9.
    out.push((
        "double swap".into(),
        DMatrix::from_row_slice(
            4,
            4,
            &[
                0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0,
            ],
        ),
    ));
    out.push((
        "wide range Hessenberg".into(),
        DMatrix::from_row_slice(
            4,
            4,
            &[
                0.0, 90.0, 0.0, 300.0, -4e9, 0.0, -300.0, 0.0, 0.0, -300.0, 0.0, 4e9, 0.0, 0.0,
                -90.0, 0.0,
            ],
        ),
    ));
    out.push((
        "Jordan 1 block 10".into(),
        DMatrix::from_fn(10, 10, |i, j| if i == j || j == i + 1 { 1.0 } else { 0.0 }),
    ));
    out
}

#[test]
fn nasty_matrices_return() {
    for backend in backends() {
        for (name, a) in nasty_matrices() {
            let got = eig(&a, backend);
            assert_eq!(got.len(), a.nrows(), "{backend:?} {name}");
            assert!(
                got.iter().all(|l| l.re.is_finite() && l.im.is_finite()),
                "{backend:?} {name}"
            );
            let trace: f64 = got.iter().map(|l| l.re).sum();
            let tol = 1e-12 * (a.norm() + 1e-300) * a.nrows() as f64;
            assert!(
                (trace - a.trace()).abs() <= tol,
                "{backend:?} {name}: trace {trace} vs {}",
                a.trace()
            );
        }
        // Permutation matrices have roots of unity as eigenvalues: modulus exactly ~1.
        for n in [5, 9, 12] {
            let got = eig(&companion_column(n, 1.0), backend);
            assert!(
                got.iter().all(|l| (l.norm() - 1.0).abs() < 1e-14),
                "{backend:?} n={n}"
            );
        }
    }
}

#[test]
fn non_finite_input_is_rejected_by_every_backend() {
    for backend in backends() {
        let mut a = DMatrix::<f64>::identity(3, 3);
        a[(1, 2)] = f64::INFINITY;
        assert!(matches!(
            eigenvalues_with(&a, backend),
            Err(EigenError::NonFinite { row: 1, col: 2, .. })
        ));
    }
}

#[test]
fn eigenvector_of_multiplier_minus_one() {
    let mut rng = Rng::new(3);
    let n = 5;
    let v = rng.matrix(n) + DMatrix::identity(n, n) * 2.0;
    let d = DMatrix::from_diagonal(&DVector::from_vec(vec![-1.0, 0.5, 0.2, -0.3, 0.9]));
    let a = &v * d * v.clone().try_inverse().unwrap();
    let nv = real_eigenvector(&a, -1.0).unwrap();
    let want = v.column(0).normalize();
    let cos = nv.vector.dot(&want).abs();
    assert!((cos - 1.0).abs() < 1e-13, "|cos| = {cos}");
    assert!(nv.sigma_min < 1e-14 * nv.sigma_max);
    assert!(nv.sigma_next > 1e-2 * nv.sigma_max);
    assert!((nv.vector.norm() - 1.0).abs() < 1e-15);
    assert!((&a * &nv.vector + &nv.vector).norm() < 1e-14 * a.norm());
    // Sign convention: largest entry positive.
    assert!(nv.vector[nv.vector.iamax()] > 0.0);
}
