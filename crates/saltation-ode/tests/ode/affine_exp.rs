//! The exact affine stepper (`AffineExp`) against closed forms: a forced damped oscillator at
//! grid points and between them, a non-normal system whose series dense output must be
//! checked, free fall with its ground event (and a bounce too short for a sampled step to
//! see without the starting step), and the systems it must refuse.

use saltation_ode::{
    AffineExp, AnyStepper, Direction, Event, OdeError, OdeSystem, Sampling, Solver, SolverOptions,
    Stop, Trajectory,
};

/// `y' = A y + b` (row-major `A`), with its claim of being autonomous and affine, and an
/// optional cubic term `c y₀³` in the last component that makes the claim false.
struct Affine {
    a: Vec<f64>,
    b: Vec<f64>,
    claims: bool,
    cubic: f64,
    mass: bool,
    /// The Jacobian it gives has a NaN entry (`f` itself stays finite).
    nan_jacobian: bool,
}

impl Affine {
    fn new(a: &[f64], b: &[f64]) -> Self {
        Self {
            a: a.to_vec(),
            b: b.to_vec(),
            claims: true,
            cubic: 0.0,
            mass: false,
            nan_jacobian: false,
        }
    }
}

impl OdeSystem for Affine {
    fn dim(&self) -> usize {
        self.b.len()
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.b.len();
        for (i, d) in dy[..n].iter_mut().enumerate() {
            let row = &self.a[i * n..(i + 1) * n];
            *d = self.b[i] + row.iter().zip(y).map(|(a, y)| a * y).sum::<f64>();
        }
        dy[n - 1] += self.cubic * y[0].powi(3);
    }
    fn jacobian(&self, _t: f64, _y: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&self.a);
        if self.nan_jacobian {
            jac[0] = f64::NAN;
        }
        true
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        let n = self.b.len();
        self.mass
            .then(|| (0..n * n).map(|k| f64::from(k % (n + 1) == 0)).collect())
    }
    fn is_autonomous_affine(&self) -> bool {
        self.claims
    }
}

fn solver() -> Solver<AnyStepper> {
    Solver::new(
        AnyStepper::AffineExp(AffineExp::new()),
        SolverOptions::with_tol(1e-12),
    )
    .unwrap()
}

/// `x'' + 2ζω x' + ω² x = F` from `(x₀, v₀)`: `x = F/ω² + e^{−ζωt}(C₁ cos ω_d t + C₂ sin ω_d t)`.
fn oscillator_exact(t: f64, (w, zeta, force): (f64, f64, f64), (x0, v0): (f64, f64)) -> [f64; 2] {
    let wd = w * (1.0 - zeta * zeta).sqrt();
    let s = zeta * w;
    let c1 = x0 - force / (w * w);
    let c2 = (v0 + s * c1) / wd;
    let (c, si, e) = ((wd * t).cos(), (wd * t).sin(), (-s * t).exp());
    let x = force / (w * w) + e * (c1 * c + c2 * si);
    let v = e * (-s * (c1 * c + c2 * si) + wd * (-c1 * si + c2 * c));
    [x, v]
}

/// Exact at every grid point (dense output between steps) and at the end time, which is not
/// a multiple of the step.
#[test]
fn forced_damped_oscillator_is_exact_everywhere() {
    let (w, zeta, force) = (35.0, 0.05, -9.81);
    let sys = Affine::new(&[0.0, 1.0, -w * w, -2.0 * zeta * w], &[0.0, force]);
    let y0 = [0.2, 1.7];
    let mut s = solver();
    s.start(&sys, &[] as &[Event], 0.0, &y0).unwrap();
    let mut out = Trajectory::new(Sampling::Grid {
        start: 0.0,
        dt: 0.0137,
        end: 3.0,
    });
    let t_end = 2.987_654_321;
    assert_eq!(
        s.integrate(&sys, &[] as &[Event], t_end, Some(&mut out))
            .unwrap(),
        Stop::TimeReached
    );
    assert_eq!(s.t(), t_end);
    let mut worst = 0.0f64;
    for (k, &t) in out.t.iter().enumerate() {
        let want = oscillator_exact(t, (w, zeta, force), (y0[0], y0[1]));
        worst = worst.max((out.y[2 * k] - want[0]).abs());
        worst = worst.max((out.y[2 * k + 1] - want[1]).abs() / w);
    }
    let want = oscillator_exact(t_end, (w, zeta, force), (y0[0], y0[1]));
    worst = worst.max((s.y()[0] - want[0]).abs());
    assert!(
        out.t.len() > 200 && worst < 1e-13,
        "{} points, {worst:e}",
        out.t.len()
    );
    // About one step per radian of the fastest mode, with no rejections.
    let stats = s.stats();
    assert!(
        (100..=200).contains(&stats.steps) && stats.rejected_steps == 0,
        "{stats:?}"
    );
}

/// `y₁' = −y₁ + K y₂`, `y₂' = −2 y₂` with `K = 10⁶`: `‖A‖ = 10⁶` while `ρ(A) = 2`, so the
/// step is long and the Taylor terms of the dense output grow before they fall. Against
/// `y₁ = (y₁⁰ + K y₂⁰) e^{−t} − K y₂⁰ e^{−2t}`.
#[test]
fn non_normal_system_keeps_its_dense_output_exact() {
    let k = 1e6;
    let sys = Affine::new(&[-1.0, k, 0.0, -2.0], &[0.0, 0.0]);
    let y0 = [1.0, 1.0];
    let mut s = solver();
    s.start(&sys, &[] as &[Event], 0.0, &y0).unwrap();
    let mut out = Trajectory::new(Sampling::Grid {
        start: 0.0,
        dt: 0.05,
        end: 4.0,
    });
    s.integrate(&sys, &[] as &[Event], 4.0, Some(&mut out))
        .unwrap();
    for (i, &t) in out.t.iter().enumerate() {
        let y1 = (y0[0] + k * y0[1]) * (-t).exp() - k * y0[1] * (-2.0 * t).exp();
        let y2 = y0[1] * (-2.0 * t).exp();
        assert!((out.y[2 * i] - y1).abs() <= 1e-14 * k, "t = {t}");
        assert!((out.y[2 * i + 1] - y2).abs() <= 1e-15, "t = {t}");
    }
    assert!(s.stats().steps < 40, "{:?}", s.stats());
}

fn ground() -> Vec<Event> {
    vec![Event::new(|_t, y: &[f64]| y[0]).direction(Direction::Falling)]
}

/// Free fall (`A` nilpotent, no spectral step) hits the ground at `√(2/g)` to rounding.
#[test]
fn falling_ball_lands_on_time() {
    let g = 9.81;
    let sys = Affine::new(&[0.0, 1.0, 0.0, 0.0], &[0.0, -g]);
    let mut s = solver();
    s.start(&sys, &ground(), 0.0, &[1.0, 0.0]).unwrap();
    let Stop::Event(hit) = s.integrate(&sys, &ground(), 100.0, None).unwrap() else {
        panic!("no landing");
    };
    let t = (2.0f64 / g).sqrt();
    assert!((hit.t - t).abs() <= 4.0 * f64::EPSILON * t, "{}", hit.t - t);
    assert!((hit.y[1] + g * t).abs() < 1e-14, "{:?}", hit.y);
}

/// A bounce of `2v/g ≈ 2·10⁻⁵` from the ground (the guard starts at zero): seen and located,
/// because the first step is the starting-step estimate, not the stepper's long regular step.
#[test]
fn a_short_bounce_from_the_ground_is_seen() {
    let g = 9.81;
    let sys = Affine::new(&[0.0, 1.0, 0.0, 0.0], &[0.0, -g]);
    for v in [1e-4, 0.3, 5.0] {
        let mut s = solver();
        s.start(&sys, &ground(), 0.0, &[0.0, v]).unwrap();
        let Stop::Event(hit) = s.integrate(&sys, &ground(), 100.0, None).unwrap() else {
            panic!("the bounce at v = {v} was missed");
        };
        let t = 2.0 * v / g;
        assert!((hit.t - t).abs() <= 1e-12 * t, "v = {v}: {} vs {t}", hit.t);
    }
}

/// A system that does not claim affinity, a false claim (a cubic term), a mass matrix and a
/// NaN start are refused at the start with typed errors.
#[test]
fn systems_it_cannot_step_are_refused() {
    let a = [0.0, 1.0, -4.0, 0.0];
    let start = |sys: &Affine, y0: &[f64]| solver().start(sys, &[] as &[Event], 0.0, y0);
    let mut silent = Affine::new(&a, &[0.0, 0.0]);
    silent.claims = false;
    let e = start(&silent, &[1.0, 0.0]).unwrap_err();
    assert!(matches!(e, OdeError::NotAffine { .. }), "{e}");
    let mut cubic = Affine::new(&a, &[0.0, 0.0]);
    cubic.cubic = 1.0;
    let e = start(&cubic, &[1.0, 0.0]).unwrap_err();
    assert!(e.to_string().contains("component 1"), "{e}");
    // At y₀ = 0 the cubic term vanishes, so the start's check cannot see it; the check at the
    // end of the first step does.
    let mut cubic = Affine::new(&a, &[0.0, 1.0]);
    cubic.cubic = 1e3;
    let mut s = solver();
    s.start(&cubic, &[] as &[Event], 0.0, &[0.0, 0.0]).unwrap();
    let e = s.integrate(&cubic, &[] as &[Event], 1.0, None).unwrap_err();
    assert!(matches!(e, OdeError::NotAffine { t, .. } if t > 0.0), "{e}");
    let mut mass = Affine::new(&a, &[0.0, 0.0]);
    mass.mass = true;
    let e = start(&mass, &[1.0, 0.0]).unwrap_err();
    assert!(matches!(e, OdeError::MassMatrixUnsupported { .. }), "{e}");
    let e = start(&Affine::new(&a, &[0.0, 0.0]), &[f64::NAN, 0.0]).unwrap_err();
    assert_eq!(e, OdeError::NonFiniteInitial { t: 0.0 });
    let mut nan = Affine::new(&a, &[0.0, 0.0]);
    nan.nan_jacobian = true;
    let e = start(&nan, &[1.0, 0.0]).unwrap_err();
    assert!(e.to_string().contains("Jacobian is not finite"), "{e}");
    // A nilpotent A (free fall: no regular step, h = ∞) with a cubic term that vanishes at the
    // start: the step ends are checked until a full step, so the doubling steps catch it.
    let mut cubic = Affine::new(&[0.0, 1.0, 0.0, 0.0], &[0.0, 1.0]);
    cubic.cubic = 1e3;
    let mut s = solver();
    s.start(&cubic, &ground(), 0.0, &[0.0, 0.0]).unwrap();
    let e = s.integrate(&cubic, &ground(), 100.0, None).unwrap_err();
    assert!(matches!(e, OdeError::NotAffine { t, .. } if t > 0.0), "{e}");
}

/// `propagate_columns` gives `e^{Aτ} Ψ` for the system last started: against the closed form
/// of the undamped oscillator, `e^{Aτ} = [[cos ωτ, sin ωτ / ω], [−ω sin ωτ, cos ωτ]]`, for
/// durations shorter and far longer than a step, on two columns and on one.
#[test]
fn columns_are_propagated_by_the_exponential() {
    let w: f64 = 35.0;
    let sys = Affine::new(&[0.0, 1.0, -w * w, 0.0], &[0.0, 3.0]);
    let mut s = solver();
    s.start(&sys, &[] as &[Event], 0.0, &[0.1, 0.0]).unwrap();
    let AnyStepper::AffineExp(stepper) = s.stepper() else {
        unreachable!()
    };
    // A seed that is not symmetric, so that reading ψ transposed would show.
    let seed = [1.0, -2.0, 30.0, 0.5];
    for tau in [0.0, 0.004, 0.3, 7.25] {
        let (c, si) = ((w * tau).cos(), (w * tau).sin());
        let e = [c, si / w, -w * si, c];
        let want: Vec<f64> = (0..4)
            .map(|k| {
                let (i, j) = (k / 2, k % 2);
                e[2 * i] * seed[j] + e[2 * i + 1] * seed[2 + j]
            })
            .collect();
        let mut psi = seed;
        assert!(stepper.propagate_columns(tau, &mut psi, 2));
        for k in 0..4 {
            let scale = if k >= 2 { w * 30.0 } else { 30.0 };
            assert!(
                (psi[k] - want[k]).abs() < 1e-13 * scale,
                "τ = {tau}: {psi:?} vs {want:?}"
            );
        }
        // The second column of e^{Aτ} alone.
        let mut col = [0.0, 1.0];
        assert!(stepper.propagate_columns(tau, &mut col, 1));
        assert!((col[0] - e[1]).abs() < 1e-14 && (col[1] - e[3]).abs() < 1e-13);
    }
    let mut psi = [1.0, 2.0];
    assert!(!stepper.propagate_columns(-1.0, &mut psi, 1));
    assert!(!stepper.propagate_columns(f64::NAN, &mut psi, 1));
    assert_eq!(psi, [1.0, 2.0]);
    assert!(!AffineExp::new().propagate_columns(1.0, &mut psi, 1));
}

/// With a tolerance the series cannot meet (rtol 0, atol 1e-300: its end point must equal the
/// exponential's to the last bit), the dense output is taken from `e^{Ãs}` at each request:
/// still the closed form of the forced damped oscillator at every grid point.
#[test]
fn dense_output_falls_back_to_the_exponential() {
    let (w, zeta, force) = (35.0, 0.05, -9.81);
    let sys = Affine::new(&[0.0, 1.0, -w * w, -2.0 * zeta * w], &[0.0, force]);
    let y0 = [0.2, 1.7];
    for (opts, by_series) in [
        (
            SolverOptions {
                rtol: 0.0,
                atol: saltation_ode::Atol::Scalar(1e-300),
                ..SolverOptions::default()
            },
            false,
        ),
        (SolverOptions::with_tol(1e-12), true),
    ] {
        let mut s = Solver::new(AnyStepper::AffineExp(AffineExp::new()), opts).unwrap();
        s.start(&sys, &[] as &[Event], 0.0, &y0).unwrap();
        let mut out = Trajectory::new(Sampling::Grid {
            start: 0.0,
            dt: 0.0137,
            end: 1.0,
        });
        s.integrate(&sys, &[] as &[Event], 1.0, Some(&mut out))
            .unwrap();
        let AnyStepper::AffineExp(stepper) = s.stepper() else {
            unreachable!()
        };
        assert_eq!(stepper.dense_output_by_series(), by_series);
        for (k, &t) in out.t.iter().enumerate() {
            let want = oscillator_exact(t, (w, zeta, force), (y0[0], y0[1]));
            assert!((out.y[2 * k] - want[0]).abs() < 1e-13, "t = {t}");
            assert!((out.y[2 * k + 1] - want[1]).abs() < 1e-13 * w, "t = {t}");
        }
    }
}

/// Step-size options bound the exact stepper too: a tiny `h_max` ends at `max_steps` with a
/// typed error (it never hangs), and `h_max` shortens the regular step without changing the
/// (exact) result.
#[test]
fn step_options_bound_the_steps() {
    let w: f64 = 35.0;
    let sys = Affine::new(&[0.0, 1.0, -w * w, 0.0], &[0.0, 0.0]);
    let opts = SolverOptions {
        h_max: 1e-9,
        max_steps: 1000,
        ..SolverOptions::with_tol(1e-12)
    };
    let mut s = Solver::new(AnyStepper::AffineExp(AffineExp::new()), opts).unwrap();
    s.start(&sys, &[] as &[Event], 0.0, &[1.0, 0.0]).unwrap();
    let e = s.integrate(&sys, &[] as &[Event], 1.0, None).unwrap_err();
    assert!(matches!(e, OdeError::MaxSteps { steps: 1000, .. }), "{e}");
    for h_max in [f64::INFINITY, 0.003] {
        let opts = SolverOptions {
            h_max,
            ..SolverOptions::with_tol(1e-12)
        };
        let mut s = Solver::new(AnyStepper::AffineExp(AffineExp::new()), opts).unwrap();
        s.start(&sys, &[] as &[Event], 0.0, &[1.0, 0.0]).unwrap();
        s.integrate(&sys, &[] as &[Event], 1.0, None).unwrap();
        assert!(
            (s.y()[0] - w.cos()).abs() < 1e-13,
            "h_max {h_max}: {:?}",
            s.y()
        );
        let steps = s.stats().steps;
        assert!(
            if h_max < 1.0 { steps > 300 } else { steps < 60 },
            "{steps}"
        );
    }
}
