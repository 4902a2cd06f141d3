//! The printed summary of the branches: settings, folds and grazing points, admissible
//! stretches, the closed-form check and the table of branch points.

use crate::branches::{options, stages, Kind, Row, Run, START, T_MAX};
use saltation::models::hopper::HopperParams;

pub fn print_settings(mus: &[f64]) {
    let o = options();
    println!("\n(Zana et al. 2018, §4.3) branches of periodic orbits in the ground damping");
    println!(
        "settings     pseudo-arclength in D_G = d_G / (2√(k m)), arclength in (z_U, ż_U, D_G), \
         downwards from D_G = {START:e}\n             (guess: the closed-form orbit there)"
    );
    for &mu in mus {
        let parts: Vec<String> = stages(mu)
            .iter()
            .map(|(p_min, step)| format!("≤ {step} down to D_G = {p_min}"))
            .collect();
        println!("             steps for μ = {mu}: {}", parts.join(", "));
    }
    println!(
        "             corrector ‖G‖ ≤ {:e}; folds and grazing points located to {:e} in D_G \
         ({:.1e} N s/m)\n             phases stepped exactly by e^(Ãh); a branch ends where a \
         stride takes longer than t_max = {T_MAX} s",
        o.corrector_tol,
        o.locate_tol,
        HopperParams::default().d_g_for(o.locate_tol)
    );
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Point => "",
        Kind::Fold => "fold",
        Kind::Grazing => "grazing",
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

pub fn print(run: &Run, all: bool) {
    let b = &run.branch;
    let (first, last) = (b.points.first(), b.points.last());
    println!(
        "\nμ = {}: {} points from D_G = {:.6} to {:.6} (d_G {:.2} … {:.2} N s/m); branch end: {}",
        run.mu,
        b.points.len(),
        first.map_or(f64::NAN, |p| p.param),
        last.map_or(f64::NAN, |p| p.param),
        first.map_or(f64::NAN, |p| run.base.d_g_for(p.param)),
        last.map_or(f64::NAN, |p| run.base.d_g_for(p.param)),
        b.end
    );
    println!("  folds and grazing points (admissibility boundaries), in order along the branch:");
    for r in run.rows.iter().filter(|r| r.kind != Kind::Point) {
        println!(
            "    {:<8} D_G = {:>10.7}  d_G = {:>9.3} N s/m   t_F = {:.4} s  μ₁ = {:.4}",
            kind_name(r.kind),
            r.dg_ratio,
            r.d_g,
            r.t_f,
            r.mult.re
        );
    }
    println!(
        "  admissible stretches along the branch (the ground pushes throughout; elsewhere the \
         foot is pulled at touchdown):"
    );
    let mut i = 0;
    while i < run.rows.len() {
        if !run.rows[i].admissible {
            i += 1;
            continue;
        }
        let j = (i..run.rows.len())
            .take_while(|&j| run.rows[j].admissible)
            .last()
            .unwrap_or(i);
        let stretch = &run.rows[i..=j];
        let lo = stretch
            .iter()
            .map(|r| r.dg_ratio)
            .fold(f64::INFINITY, f64::min);
        let hi = stretch
            .iter()
            .map(|r| r.dg_ratio)
            .fold(f64::NEG_INFINITY, f64::max);
        let stable: Vec<&Row> = stretch.iter().filter(|r| r.stable).collect();
        // t_F grows monotonically along the branch: it names the sub-stretches unambiguously.
        let range = |stable: bool| {
            let t: Vec<f64> = stretch
                .iter()
                .filter(|r| r.stable == stable)
                .map(|r| r.t_f)
                .collect();
            let lo = t.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = t.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            format!("t_F {lo:.4} … {hi:.4} s")
        };
        let stability = if stable.len() == stretch.len() {
            ", all stable".to_string()
        } else if stable.is_empty() {
            ", all unstable".to_string()
        } else {
            format!(
                ";\n      stable for {}, unstable (|μ₁| > 1) for {}",
                range(true),
                range(false)
            )
        };
        println!(
            "    t_F {:.4} … {:.4} s: D_G from {:.7} to {:.7}, spanning [{lo:.7}, {hi:.7}] \
             (d_G [{:.3}, {:.3}] N s/m){stability}",
            stretch[0].t_f,
            stretch[stretch.len() - 1].t_f,
            stretch[0].dg_ratio,
            stretch[stretch.len() - 1].dg_ratio,
            run.base.d_g_for(lo),
            run.base.d_g_for(hi),
        );
        i = j + 1;
    }
    let c = &run.check;
    println!(
        "  closed-form check at {} admissible points ({} not matched): max |Δ| t_F {:.1e} s, \
         T {:.1e} s, μ₁ {:.1e},\n    apex z_U {:.1e} m, apex z_L {:.1e} m, T_c/T {:.1e}",
        c.points, c.missed, c.max[0], c.max[1], c.max[2], c.max[3], c.max[4], c.max[5]
    );
    let every = if all { 1 } else { 6 };
    println!(
        "  {} ({}):",
        if all { "every point" } else { "table" },
        if all {
            "all rows".to_string()
        } else {
            format!("every {every}th point, the last and the special points")
        }
    );
    println!(
        "    {:<8}{:>10}{:>9}{:>8}{:>7}{:>7}{:>8}{:>9}{:>9}{:>7}{:>7}{:>5}{:>5}",
        "",
        "D_G",
        "d_G",
        "t_F/s",
        "t_G/s",
        "T/s",
        "μ₁",
        "apx zU/m",
        "apx zL/m",
        "Ta/T",
        "Tc/T",
        "adm",
        "st."
    );
    let n = run.rows.len();
    let mut idx = 0;
    for (k, r) in run.rows.iter().enumerate() {
        let shown = r.kind != Kind::Point || idx % every == 0 || k + 1 == n;
        if r.kind == Kind::Point {
            idx += 1;
        }
        if !shown {
            continue;
        }
        println!(
            "    {:<8}{:>10.6}{:>9.3}{:>8.4}{:>7.4}{:>7.4}{:>8.4}{:>9.5}{:>9.5}{:>7.3}{:>7.3}{:>5}{:>5}",
            kind_name(r.kind),
            r.dg_ratio,
            r.d_g,
            r.t_f,
            r.t_g,
            r.period,
            r.mult.re,
            r.apex_u,
            r.apex_l,
            r.kept,
            r.lost,
            yes(r.admissible),
            yes(r.stable)
        );
    }
}
