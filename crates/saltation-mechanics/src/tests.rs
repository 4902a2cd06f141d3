//! Unit tests of the layer on small systems with known answers.

use crate::*;
use saltation_hybrid::{EvalModel, Scalar};

/// A point mass on a rigid rod in Cartesian coordinates `q = (x, y)`:
/// `γ = x² + y² − L²` (nonlinear), gravity along −y. Reduced form: `θ̈ = −(g/L) sin θ` with
/// `x = L sin θ`, `y = −L cos θ`; rod tension `N = m(L θ̇² + g cos θ)`.
struct Pendulum {
    m: f64,
    l: f64,
    g: f64,
}

impl MechanicalSystem for Pendulum {
    fn name(&self) -> &str {
        "pendulum"
    }
    fn dofs(&self) -> usize {
        2
    }
    fn mass_matrix<D: Scalar>(&self, q: &[D], h: &mut [D]) {
        let z = q[0] * 0.0;
        h.copy_from_slice(&[z + self.m, z, z, z + self.m]);
    }
    fn forces<D: Scalar>(&self, _closed: ContactSet, q: &[D], _qd: &[D], c: &mut [D]) {
        c[0] = q[0] * 0.0;
        c[1] = q[0] * 0.0 + self.m * self.g;
    }
    fn bilateral_count(&self) -> usize {
        1
    }
    fn bilateral<D: Scalar>(&self, q: &[D], gamma: &mut [D]) {
        gamma[0] = q[0] * q[0] + q[1] * q[1] - self.l * self.l;
    }
    fn contact_count(&self) -> usize {
        0
    }
    fn gap<D: Scalar>(&self, _i: usize, q: &[D]) -> D {
        q[0] * 0.0
    }
}

fn pendulum() -> Constrained<Pendulum> {
    let p = Pendulum {
        m: 2.0,
        l: 1.5,
        g: 9.81,
    };
    Constrained::new(p, ConstraintOptions::default(), None).unwrap()
}

#[test]
fn pendulum_accelerations_match_the_reduced_equation() {
    let model = pendulum();
    let (m, l, g) = (2.0, 1.5, 9.81);
    for &(th, thd) in &[(0.3, 0.0), (-1.1, 2.0), (2.5, -0.7)] {
        let (s, c) = f64::sin_cos(th);
        let x = [l * s, -l * c, l * c * thd, l * s * thd];
        let mut dx = [0.0; 4];
        model.flow(0, 0.0, &x, &mut dx);
        let thdd = -(g / l) * s;
        // ẍ = L(cos θ θ̈ − sin θ θ̇²), ÿ = L(sin θ θ̈ + cos θ θ̇²).
        assert!((dx[2] - l * (c * thdd - s * thd * thd)).abs() < 1e-12);
        assert!((dx[3] - l * (s * thdd + c * thd * thd)).abs() < 1e-12);
        // Force on the mass −γ_qᵀλ = −2λ(x, y) is the tension N toward the pivot: λ = N/(2L).
        let lam = model.multipliers(0, &x).unwrap()[0];
        let tension = m * (l * thd * thd + g * c);
        assert!((lam - tension / (2.0 * l)).abs() < 1e-12, "{lam}");
    }
}

#[test]
fn section_chart_lies_on_the_manifold_and_differentiates() {
    let p = Pendulum {
        m: 1.0,
        l: 2.0,
        g: 9.81,
    };
    // Independent y; x solved from x² + y² = L² on the branch x < 0 picked by the guess.
    let section = Section {
        closed: ContactSet::NONE,
        independent: vec![1],
        guess: vec![-1.0, 0.0],
    };
    let model = Constrained::new(p, ConstraintOptions::default(), Some(section)).unwrap();
    assert_eq!(model.reduced_dim(), 2);
    let u = [-1.2, 0.4];
    let mut x = [0.0; 4];
    model.chart(&u, &mut x);
    assert!(x[0] < 0.0 && (x[0] * x[0] + x[1] * x[1] - 4.0).abs() < 1e-13);
    assert!((x[0] * x[2] + x[1] * x[3]).abs() < 1e-13);
    let mut jac = [0.0; 8];
    model.chart_jacobian(&u, &mut jac);
    let h = 1e-6;
    for j in 0..2 {
        let (mut up, mut um) = (u, u);
        up[j] += h;
        um[j] -= h;
        let (mut xp, mut xm) = ([0.0; 4], [0.0; 4]);
        model.chart(&up, &mut xp);
        model.chart(&um, &mut xm);
        for i in 0..4 {
            let fd = (xp[i] - xm[i]) / (2.0 * h);
            assert!(
                (jac[i * 2 + j] - fd).abs() < 1e-7,
                "{i} {j} {} {fd}",
                jac[i * 2 + j]
            );
        }
    }
}

#[test]
fn bad_descriptions_are_errors() {
    let p = || Pendulum {
        m: 1.0,
        l: 1.0,
        g: 1.0,
    };
    assert!(matches!(
        Constrained::new(p(), ConstraintOptions { baumgarte: -1.0 }, None),
        Err(MechanicsError::Baumgarte(_))
    ));
    for (independent, guess) in [
        (vec![2], vec![]),
        (vec![0, 0], vec![]),
        (vec![0, 1], vec![]),
        (vec![0], vec![1.0]),
        (vec![0], vec![f64::NAN, 0.0]),
    ] {
        let s = Section {
            closed: ContactSet::NONE,
            independent,
            guess,
        };
        assert!(matches!(
            Constrained::new(p(), ConstraintOptions::default(), Some(s)),
            Err(MechanicsError::Section(_))
        ));
    }
}
