//! (Zana et al. 2018, §4.2): the gait at `μ = 0.8`, `d_G = −80` N s/m in both forms next to the
//! closed-form reference of §4.1.

use crate::Res;
use nalgebra::{Complex, DMatrix};

use saltation::hybrid::saltation::{saltation_matrix, Jump};
use saltation::hybrid::{Bound, EvalModel, EventRecord, JacobianKind, StrideMap};
use saltation::mechanics::ContactReports;
use saltation::models::hopper::{
    closed_form, stride_options, Hopper, HopperParams, HopperParticles, HopperUnconstrained,
    FLIGHT, GROUND,
};
use saltation::orbit::{
    eigenvalues, find_periodic_orbit, section_jacobian, OrbitOptions, PeriodicOrbit,
};
use std::time::Instant;

/// Newton guess `(z_U, ż_U)` at lift-off for the §4.2 gait.
const GUESS: [f64; 2] = [1.02, 1.7];
/// Flight-time guess (s) that picks the same gait in the closed form.
const T_FLIGHT_GUESS: f64 = 0.3;
/// Integration tolerance of the §4.2 comparison.
const TOL: f64 = 1e-13;
/// Orbit solves per form for the timing (the median is printed).
const REPEATS: usize = 7;

/// Orbit settings: DOP853 at `rtol = atol = tol`, a stride from lift-off through touchdown and
/// lift-off, at most 20 s.
fn orbit_options(tol: f64) -> OrbitOptions {
    let mut o = OrbitOptions {
        stride: stride_options(tol, 20.0),
        ..OrbitOptions::default()
    };
    o.newton.ftol = 1e-13;
    o.newton.xtol = 1e-15;
    o
}

/// The paper's constrained four-particle model (mass splits 0.5, 0.5: results do not depend
/// on them).
fn constrained(p: HopperParams) -> Res<Bound<Hopper>> {
    Ok(HopperParticles::bound(&p, 0.5, 0.5)?)
}

/// Everything compared for one form.
struct Form {
    orbit: PeriodicOrbit,
    micros: f64,
    /// `M` on the lift-off section (2×2).
    m: DMatrix<f64>,
    /// `Φ̃` of the model (n×n).
    mono: DMatrix<f64>,
    /// `Φ̃` in block coordinates `[z_U, z_L, ż_U, ż_L]` (4×4).
    mono4: DMatrix<f64>,
    /// `T_a / T`, `T_c / T` at touchdown.
    split: [f64; 2],
}

fn solve<M: EvalModel>(model: &M, label: &str, opts: &OrbitOptions) -> Res<(PeriodicOrbit, f64)> {
    let mut times = Vec::with_capacity(REPEATS);
    let mut orbit = None;
    for _ in 0..REPEATS {
        let t = Instant::now();
        let o = find_periodic_orbit(model, &GUESS, opts)
            .map_err(|e| format!("{label}: no orbit from {GUESS:?}: {e}"))?;
        times.push(t.elapsed().as_secs_f64() * 1e6);
        orbit = Some(o);
    }
    times.sort_by(f64::total_cmp);
    let orbit = orbit.ok_or("no orbit solve was run")?;
    if orbit.events.len() != 2 {
        return Err(format!("{label}: a stride with {} events", orbit.events.len()).into());
    }
    Ok((orbit, times[REPEATS / 2]))
}

/// Fixed-time Jacobian over `events` events from `x` in `mode`.
fn monodromy<M: EvalModel>(
    model: &M,
    x: &[f64],
    mode: usize,
    events: usize,
    opts: &OrbitOptions,
) -> Res<DMatrix<f64>> {
    let mut stride = opts.stride.clone();
    stride.start_mode = mode;
    stride.events_per_stride = events;
    let r = StrideMap::new(model, stride)?.eval(x, JacobianKind::Monodromy)?;
    Ok(r.jacobian.ok_or("the stride map returned no Jacobian")?)
}

/// The form's comparison data; `to_blocks` maps its state Jacobians to block coordinates.
fn form<M: EvalModel>(
    model: &M,
    label: &str,
    opts: &OrbitOptions,
    to_blocks: impl Fn(&DMatrix<f64>) -> DMatrix<f64>,
    split: impl Fn(&EventRecord) -> Res<[f64; 2]>,
) -> Res<Form> {
    let (orbit, micros) = solve(model, label, opts)?;
    let m = section_jacobian(model, &orbit.u0, &orbit.x0, &orbit.jacobian);
    let mono = monodromy(model, &orbit.x0, FLIGHT, 2, opts)?;
    let split = split(&orbit.events[0])?;
    Ok(Form {
        mono4: to_blocks(&mono),
        orbit,
        micros,
        m,
        mono,
        split,
    })
}

/// Saltation matrix `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)` of event `e`.
fn saltation<M: EvalModel>(model: &M, e: &EventRecord) -> DMatrix<f64> {
    let n = model.dim();
    let (mut gx, mut hx, mut fm, mut fp) =
        (vec![0.0; n * n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    model.reset_jacobian(e.mode, e.guard, &e.x_minus, &mut gx);
    model.guard_gradient(e.mode, e.guard, &e.x_minus, &mut hx);
    model.flow(e.mode, e.t, &e.x_minus, &mut fm);
    model.flow(e.target, e.t, &e.x_plus, &mut fp);
    let hxf: f64 = hx.iter().zip(&fm).map(|(a, b)| a * b).sum();
    let mut s = vec![0.0; n * n];
    let jump = Jump {
        gx: &gx,
        hx: &hx,
        f_minus: &fm,
        f_plus: &fp,
    };
    saltation_matrix(&jump, hxf, &mut s);
    DMatrix::from_row_slice(n, n, &s)
}

/// Digits of agreement `−log10(|a − b| / max(1, |b|))`.
pub fn digits(a: f64, b: f64) -> String {
    let d = (a - b).abs() / b.abs().max(1.0);
    if d == 0.0 {
        "exact".into()
    } else if d.is_finite() {
        format!("{:.1}", -d.log10())
    } else {
        "-".into()
    }
}

/// Digits of agreement of two matrices: `−log10(max |A − B| / max(1, max |B|))`.
fn matrix_digits(a: &DMatrix<f64>, b: &DMatrix<f64>) -> String {
    let d = (a - b).amax() / b.amax().max(1.0);
    if d == 0.0 {
        "exact".into()
    } else {
        format!("{:.1}", -d.log10())
    }
}

fn row(label: &str, un: f64, con: f64, reference: f64) {
    println!(
        "  {label:<30}{un:>20.15}{con:>20.15}{reference:>20.15}{:>7}{:>7}",
        digits(un, reference),
        digits(con, reference)
    );
}

fn eig_text(m: &DMatrix<f64>) -> Res<String> {
    let mut ev: Vec<Complex<f64>> = eigenvalues(m)?;
    ev.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    Ok(ev.iter().map(complex_text).collect::<Vec<_>>().join(", "))
}

fn complex_text(z: &Complex<f64>) -> String {
    if z.im == 0.0 {
        format!("{:.12}", z.re)
    } else {
        format!("{:.12}{:+.3e}i", z.re, z.im)
    }
}

fn print_matrix(name: &str, m: &DMatrix<f64>) {
    for i in 0..m.nrows() {
        let lead = if i == 0 { name } else { "" };
        let cells: Vec<String> = m.row(i).iter().map(|v| format!("{v:>13.6}")).collect();
        println!("    {lead:<10}[{} ]", cells.join(""));
    }
}

pub fn run() -> Res<()> {
    let p = HopperParams::default();
    let opts = orbit_options(TOL);
    let un = HopperUnconstrained::bound(&p)?;
    let con = constrained(p)?;
    let cf = closed_form::periodic_orbit(&p, T_FLIGHT_GUESS)?;

    // Block coordinates of the constrained state [z1..z4, ż1..ż4]: z_U = z1 = z2, z_L = z3 = z4.
    let pick = DMatrix::from_fn(4, 8, |i, j| f64::from(u8::from(j == [0, 2, 4, 6][i])));
    let spread = DMatrix::from_fn(8, 4, |i, j| {
        f64::from(u8::from(j == [0, 0, 1, 1, 2, 2, 3, 3][i]))
    });
    let (m_u, m_l) = (p.m_upper(), p.m_lower());
    let a = form(
        &un,
        "two-block form",
        &opts,
        |j| j.clone(),
        |e| {
            let (kept, lost) = (
                0.5 * m_u * e.x_minus[2].powi(2),
                0.5 * m_l * e.x_minus[3].powi(2),
            );
            Ok([kept / (kept + lost), lost / (kept + lost)])
        },
    )?;
    let b = form(
        &con,
        "constrained form",
        &opts,
        |j| &pick * j * &spread,
        |e| {
            let s = con
                .impact_energy(e.mode, 0, &e.x_minus)
                .ok_or("singular impact matrix at touchdown")?;
            Ok([s.admissible / s.total, s.lost / s.total])
        },
    )?;

    println!("Vertical hopper (Zana, Bodor, Bencsik & Zelei 2018), the gait of §4.2");
    println!(
        "parameters   g = {}, m = {} kg, μ = {}, k = {} N/m, d_F = {} N s/m, L0 = {} m, \
         d_G = {} N s/m (D_G = {:.6})",
        p.g,
        p.m,
        p.mu,
        p.k,
        p.d_f,
        p.l0,
        p.d_g,
        p.ground_damping_ratio()
    );
    println!(
        "integration  exact: both phases are autonomous affine flows, stepped by e^(Ãh) \
         (rtol = atol = {TOL:e} checks the dense output);\n             Newton shooting on \
         the lift-off section from (z_U, ż_U) = {GUESS:?}"
    );
    println!(
        "reference    closed form (Zana et al. 2018, §4.1), flight-time guess {T_FLIGHT_GUESS} s"
    );
    println!("digits       −log10(|Δ| / max(1, |reference|))\n");
    println!(
        "  {:<30}{:>20}{:>20}{:>20}{:>7}{:>7}",
        "quantity", "two-block (4 st.)", "constrained (8 st.)", "closed form", "dig 4", "dig 8"
    );
    let (oa, ob) = (&a.orbit, &b.orbit);
    row("z_U at lift-off (m)", oa.u0[0], ob.u0[0], cf.liftoff[0]);
    row("ż_U at lift-off (m/s)", oa.u0[1], ob.u0[1], cf.liftoff[2]);
    let (ta, tb) = (oa.events[0].t, ob.events[0].t);
    row("flight time t_F (s)", ta, tb, cf.t_flight);
    row(
        "ground time t_G (s)",
        oa.period - ta,
        ob.period - tb,
        cf.t_ground,
    );
    row("period T (s)", oa.period, ob.period, cf.period);
    row(
        "nontrivial multiplier μ₁",
        oa.multipliers[0].re,
        ob.multipliers[0].re,
        cf.multiplier,
    );
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let name = format!("M[{}{}] (eq. 67)", i + 1, j + 1);
        row(&name, a.m[(i, j)], b.m[(i, j)], cf.jacobian[i][j]);
    }
    for (k, ev) in cf.jacobian_eigenvalues.iter().enumerate() {
        let eig = |m: &DMatrix<f64>| -> Res<f64> {
            let mut e = eigenvalues(m)?;
            e.sort_by(|x, y| y.norm().total_cmp(&x.norm()));
            Ok(e.get(k).map_or(f64::NAN, |z| z.re))
        };
        row(
            &format!("eigenvalue {} of M", k + 1),
            eig(&a.m)?,
            eig(&b.m)?,
            ev[0],
        );
    }
    let e = &cf.energy;
    row(
        "T_a/T at touchdown (kept)",
        a.split[0],
        b.split[0],
        e.kept / e.total,
    );
    row(
        "T_c/T at touchdown (lost)",
        a.split[1],
        b.split[1],
        e.lost / e.total,
    );

    let cf_mono = DMatrix::from_fn(4, 4, |i, j| cf.monodromy[i][j]);
    println!("\n  saltation matrices of the two-block form (state [z_U, z_L, ż_U, ż_L]):");
    print_matrix("S_F2G", &saltation(&un, &oa.events[0]));
    print_matrix("S_G2F", &saltation(&un, &oa.events[1]));
    let flight = monodromy(&un, &oa.x0, FLIGHT, 1, &opts)?;
    let ground = monodromy(&un, &oa.events[0].x_plus, GROUND, 1, &opts)?;
    println!("  monodromy Φ̃ = S_G2F Φ_G S_F2G Φ_F of the two-block form (fixed time T):");
    print_matrix("Φ̃", &a.mono);
    println!(
        "    (S_G2F Φ_G)(S_F2G Φ_F) from two one-phase maps vs the stride's Φ̃: {} digits",
        matrix_digits(&(&ground * &flight), &a.mono)
    );
    println!(
        "    Φ̃ vs closed form: two-block {} digits; constrained, in block coordinates, {} digits",
        matrix_digits(&a.mono, &cf_mono),
        matrix_digits(&b.mono4, &cf_mono)
    );
    println!("  eigenvalues of Φ̃");
    println!("    closed form     {}", eig_text(&cf_mono)?);
    println!("    two-block       {}", eig_text(&a.mono)?);
    println!("    constrained     {}", eig_text(&b.mono)?);
    // A deviation γ from a bilateral constraint follows the critically damped drift control
    // γ̈ + 2ωγ̇ + ω²γ = 0, whose propagator over t is e^{−ωt} [[1 + ωt, t], [−ω²t, 1 − ωt]];
    // the impact projects the velocities onto the constraints (γ̇ ← 0), so over one stride the
    // map is rank one with eigenvalue (P(t_G) diag(1, 0) P(t_F))'s trace = P(T)₁₁.
    let omega = con.model().options().baumgarte;
    let decay = (1.0 + omega * ob.period) * (-omega * ob.period).exp();
    let mut extra: Vec<Complex<f64>> = eigenvalues(&b.mono)?;
    extra.sort_by(|x, y| (x.re - decay).abs().total_cmp(&(y.re - decay).abs()));
    let nearest = extra.first().map_or(f64::NAN, |z| z.re);
    println!(
        "    (the trivial 1 is the flow direction. The constrained Φ̃ is 8×8: its extra \
         eigenvalues belong to\n     directions that break the constraints z1 = z2, z3 = z4 \
         (and z4 = 0 on the ground), which the drift\n     control γ̈ + 2ωγ̇ + ω²γ = 0 \
         damps at the Baumgarte rate ω = {omega} 1/s: the nonzero pair is\n     \
         (1 + ωT) e^(−ωT) = {decay:.12} ({} digits), not a property of the hopper)",
        digits(nearest, decay)
    );

    let adm = match con.admissibility(&ob.x0, &opts.stride) {
        Some(Ok(r)) if r.admissible => "yes: the ground pushes through the whole ground phase and \
                                        the foot stays above ground in flight"
            .to_string(),
        Some(Ok(r)) => format!("no: {:?}", r.violation),
        Some(Err(e)) => format!("check failed: {e}"),
        None => "no check available".into(),
    };
    let lam_a = un
        .model()
        .contact_multiplier(un.values(), &oa.events[0].x_plus);
    let lam_b = con
        .contact_multiplier(GROUND, 0, &ob.events[0].x_plus)
        .unwrap_or(f64::NAN);
    println!("  admissible (constrained form's check): {adm}");
    let pushes = if lam_a < 0.0 && lam_b < 0.0 {
        "< 0: the ground pushes"
    } else {
        "≥ 0 in a form: the ground would pull"
    };
    println!(
        "    contact multiplier right after touchdown λ⁺ = {lam_a:.6} N (two-block), \
         {lam_b:.6} N (constrained): {pushes}"
    );
    println!(
        "  one orbit solve (Newton from the guess, median of {REPEATS}): two-block {:.0} µs, \
         constrained {:.0} µs",
        a.micros, b.micros
    );
    Ok(())
}
