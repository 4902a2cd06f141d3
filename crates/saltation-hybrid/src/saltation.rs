//! Saltation matrices: how a perturbation crosses an event.
//!
//! At an event of guard `h` with reset `g`, from the vector field `f⁻ = f_old(x⁻)` to
//! `f⁺ = f_new(g(x⁻))` (Aizerman & Gantmacher 1958; Leine & Nijmeijer 2004):
//!
//! - fixed-time flow Jacobian (monodromy): `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)`;
//! - Jacobian of a map that stops at the event (time free; Bhounsule 2014, eqs. (15)–(16)):
//!   `E = g_x (I − f⁻ h_x / (h_x f⁻)) = S − f⁺ h_x / (h_x f⁻)`.
//!
//! `h_x f⁻ = 0` (grazing) makes both undefined: it is reported, never divided by.

use crate::error::HybridError;

/// The ingredients of a jump, all at the event: `g_x` (n×n row-major), `h_x`, `f⁻`, `f⁺`.
#[derive(Debug, Clone)]
pub struct Jump<'a> {
    /// Reset Jacobian `g_x(x⁻)`.
    pub gx: &'a [f64],
    /// Guard gradient `h_x(x⁻)`.
    pub hx: &'a [f64],
    /// Vector field before the jump, `f_old(x⁻)`.
    pub f_minus: &'a [f64],
    /// Vector field after the jump, `f_new(x⁺)`.
    pub f_plus: &'a [f64],
}

/// Where the error says the event happened.
#[derive(Debug, Clone, Copy)]
pub struct EventSite {
    /// Mode before the event.
    pub mode: usize,
    /// Guard index.
    pub guard: usize,
    /// Event time.
    pub t: f64,
}

/// Smallest accepted `|h_x f⁻| / (|h_x| |f⁻|)` before an event counts as grazing (default).
pub const GRAZING_TOL: f64 = 1e-10;

/// `h_x f⁻`, checked against grazing with relative tolerance `tol`.
pub fn transversality(j: &Jump<'_>, site: EventSite, tol: f64) -> Result<f64, HybridError> {
    let hxf: f64 = j.hx.iter().zip(j.f_minus).map(|(a, b)| a * b).sum();
    if !hxf.is_finite() {
        // A solution that blew up (f ~ 1e230 after an unstable fixed step) is not grazing.
        return Err(HybridError::NonFinite {
            what: "h_x·f at the event (the solution blew up)",
        });
    }
    // The cosine from vectors scaled by their largest entries: the plain norms overflow for a
    // huge f (relative 0, a false grazing) or underflow for a tiny one.
    let cosine = |a: &[f64], b: &[f64]| {
        let big = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let (sa, sb) = (big(a), big(b));
        let dot: f64 = a.iter().zip(b).map(|(x, y)| (x / sa) * (y / sb)).sum();
        let na = a.iter().map(|x| (x / sa).powi(2)).sum::<f64>().sqrt();
        let nb = b.iter().map(|y| (y / sb).powi(2)).sum::<f64>().sqrt();
        dot.abs() / (na * nb)
    };
    let relative = cosine(j.hx, j.f_minus);
    if !(relative > tol) {
        return Err(HybridError::Grazing {
            mode: site.mode,
            guard: site.guard,
            t: site.t,
            hxf,
            relative,
        });
    }
    Ok(hxf)
}

/// Saltation matrix `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)` into `s` (row-major n×n).
pub fn saltation_matrix(j: &Jump<'_>, hxf: f64, s: &mut [f64]) {
    rank_one_update(j, hxf, Some(j.f_plus), s);
}

/// Event-terminated factor `E = g_x (I − f⁻ h_x / (h_x f⁻))` into `e` (row-major n×n): the
/// saltation matrix without its `f⁺` term.
pub fn terminal_factor(j: &Jump<'_>, hxf: f64, e: &mut [f64]) {
    rank_one_update(j, hxf, None, e);
}

/// `out = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)`, with `f⁺ = 0` when absent.
fn rank_one_update(j: &Jump<'_>, hxf: f64, f_plus: Option<&[f64]>, out: &mut [f64]) {
    let n = j.hx.len();
    for i in 0..n {
        let gxf: f64 = (0..n).map(|k| j.gx[i * n + k] * j.f_minus[k]).sum();
        let c = (f_plus.map_or(0.0, |f| f[i]) - gxf) / hxf;
        for k in 0..n {
            out[i * n + k] = j.gx[i * n + k] + c * j.hx[k];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_reset_and_same_field_give_identity() {
        let gx = [1.0, 0.0, 0.0, 1.0];
        let f = [1.0, 2.0];
        let hx = [1.0, 0.0];
        let j = Jump {
            gx: &gx,
            hx: &hx,
            f_minus: &f,
            f_plus: &f,
        };
        let site = EventSite {
            mode: 0,
            guard: 0,
            t: 0.0,
        };
        let hxf = transversality(&j, site, GRAZING_TOL).unwrap();
        let mut s = [0.0; 4];
        saltation_matrix(&j, hxf, &mut s);
        assert_eq!(s, [1.0, 0.0, 0.0, 1.0]);
        // The terminal factor kills the flow direction: E f⁻ = 0.
        let mut e = [0.0; 4];
        terminal_factor(&j, hxf, &mut e);
        let ef = [e[0] * f[0] + e[1] * f[1], e[2] * f[0] + e[3] * f[1]];
        assert!(ef[0].abs() < 1e-15 && ef[1].abs() < 1e-15);
    }

    /// A huge but transversal field (an unstable fixed step's blow-up) is not grazing; an
    /// overflowing `h_x·f` is a non-finite value.
    #[test]
    fn huge_fields_are_not_grazing() {
        let gx = [1.0, 0.0, 0.0, 1.0];
        let hx = [0.0, 1.0];
        let site = EventSite {
            mode: 0,
            guard: 0,
            t: 7.5,
        };
        let f = [1e230, -3.4e230];
        let j = Jump {
            gx: &gx,
            hx: &hx,
            f_minus: &f,
            f_plus: &f,
        };
        // cos = 3.4 / √(1 + 3.4²) ≈ 0.959.
        let hxf = transversality(&j, site, GRAZING_TOL).unwrap();
        assert_eq!(hxf, -3.4e230);
        let f = [1e300, 1e300];
        let hx = [1e10, 1e10];
        let j = Jump {
            gx: &gx,
            hx: &hx,
            f_minus: &f,
            f_plus: &f,
        };
        assert!(matches!(
            transversality(&j, site, GRAZING_TOL),
            Err(HybridError::NonFinite { .. })
        ));
    }

    #[test]
    fn grazing_is_reported() {
        let gx = [1.0, 0.0, 0.0, 1.0];
        let f = [0.0, 1.0];
        let hx = [1.0, 0.0];
        let j = Jump {
            gx: &gx,
            hx: &hx,
            f_minus: &f,
            f_plus: &f,
        };
        let site = EventSite {
            mode: 2,
            guard: 1,
            t: 3.0,
        };
        assert!(matches!(
            transversality(&j, site, GRAZING_TOL),
            Err(HybridError::Grazing {
                mode: 2,
                guard: 1,
                ..
            })
        ));
    }
}
