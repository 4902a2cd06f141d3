//! The built-in methods by name, with the MATLAB names as aliases.

use crate::any_stepper::AnyStepper;
use crate::tableau::{Tableau, BS23, DOP853, DP5, EULER, HEUN, RK4, RKF45};
use serde::{Deserialize, Serialize};

/// The integration methods of the suite. Every name is accepted in lower case, and the MATLAB
/// names as aliases: `ode45` → [`Method::Dp5`], `ode23` → [`Method::Bs23`], `ode113` →
/// [`Method::Abm`], `ode15s` → [`Method::Ndf`], `ode23s` → [`Method::Rosenbrock23`], `ode23t` →
/// [`Method::Trapezoid`], `ode23tb` → [`Method::Trbdf2`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Method {
    /// Forward Euler, fixed step, order 1.
    #[serde(alias = "euler")]
    Euler,
    /// Heun (explicit trapezoid), fixed step, order 2.
    #[serde(alias = "heun")]
    Heun,
    /// Classical Runge–Kutta, fixed step, order 4.
    #[serde(alias = "rk4")]
    Rk4,
    /// Bogacki–Shampine 3(2), FSAL (MATLAB `ode23`).
    #[serde(alias = "bs23", alias = "ode23")]
    Bs23,
    /// Runge–Kutta–Fehlberg 4(5).
    #[serde(alias = "rkf45")]
    Rkf45,
    /// Dormand–Prince 5(4), FSAL, 4th-order dense output (MATLAB `ode45`).
    #[serde(alias = "dp5", alias = "ode45")]
    Dp5,
    /// Dormand–Prince 8(5,3), 7th-order dense output.
    #[serde(alias = "dop853")]
    Dop853,
    /// Radau IIA of order 5 (3 stages), L-stable, with index-1 DAEs through a singular mass
    /// matrix (Hairer & Wanner's `radau5`).
    #[serde(alias = "radau5")]
    Radau5,
    /// Variable-order (1–5) numerical differentiation formulas, quasi-constant step (MATLAB
    /// `ode15s`; Shampine & Reichelt 1997).
    #[serde(alias = "ndf", alias = "ode15s")]
    Ndf,
    /// Variable-order (1–5) backward differentiation formulas: the NDF code with the NDF
    /// correction off.
    #[serde(alias = "bdf")]
    Bdf,
    /// Modified Rosenbrock 2(3) W-method with its free interpolant (MATLAB `ode23s`).
    #[serde(alias = "rosenbrock23", alias = "ode23s")]
    Rosenbrock23,
    /// Trapezoidal rule with its free interpolant; a singular mass matrix is allowed (MATLAB
    /// `ode23t`).
    #[serde(alias = "trapezoid", alias = "ode23t")]
    Trapezoid,
    /// TR-BDF2 (`γ = 2 − √2`), L-stable (MATLAB `ode23tb`).
    #[serde(alias = "trbdf2", alias = "ode23tb")]
    Trbdf2,
    /// Variable-order (1–12) Adams–Bashforth–Moulton PECE in divided differences (MATLAB
    /// `ode113`).
    #[serde(alias = "abm", alias = "ode113")]
    Abm,
}

/// The method families, each with its own stepper type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Explicit Runge–Kutta from a Butcher tableau.
    ExplicitRk,
    /// Fully implicit Runge–Kutta (Radau IIA).
    Radau,
    /// Variable-order backward differentiation (NDF/BDF).
    Bdf,
    /// Linearly implicit one-step (Rosenbrock W-method).
    Rosenbrock,
    /// Singly diagonally implicit one-step (trapezoid, TR-BDF2).
    Sdirk,
    /// Variable-order Adams multistep (ABM PECE).
    Adams,
}

impl Method {
    /// Every built-in method.
    pub const ALL: [Method; 14] = [
        Method::Euler,
        Method::Heun,
        Method::Rk4,
        Method::Bs23,
        Method::Rkf45,
        Method::Dp5,
        Method::Dop853,
        Method::Radau5,
        Method::Ndf,
        Method::Bdf,
        Method::Rosenbrock23,
        Method::Trapezoid,
        Method::Trbdf2,
        Method::Abm,
    ];

    /// The MATLAB names and the methods they stand for.
    pub const ALIASES: [(&'static str, Method); 7] = [
        ("ode45", Method::Dp5),
        ("ode23", Method::Bs23),
        ("ode113", Method::Abm),
        ("ode15s", Method::Ndf),
        ("ode23s", Method::Rosenbrock23),
        ("ode23t", Method::Trapezoid),
        ("ode23tb", Method::Trbdf2),
    ];

    /// The Butcher tableau of an explicit Runge–Kutta method (`None` for the other families).
    pub fn tableau(self) -> Option<&'static Tableau> {
        Some(match self {
            Method::Euler => &EULER,
            Method::Heun => &HEUN,
            Method::Rk4 => &RK4,
            Method::Bs23 => &BS23,
            Method::Rkf45 => &RKF45,
            Method::Dp5 => &DP5,
            Method::Dop853 => &DOP853,
            _ => return None,
        })
    }

    /// The family, which decides the stepper type.
    pub fn family(self) -> Family {
        match self {
            Method::Radau5 => Family::Radau,
            Method::Ndf | Method::Bdf => Family::Bdf,
            Method::Rosenbrock23 => Family::Rosenbrock,
            Method::Trapezoid | Method::Trbdf2 => Family::Sdirk,
            Method::Abm => Family::Adams,
            _ => Family::ExplicitRk,
        }
    }

    /// A fresh stepper for this method.
    pub fn stepper(self) -> AnyStepper {
        AnyStepper::new(self)
    }

    /// Short lowercase name (`"dop853"`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Radau5 => "radau5",
            Method::Ndf => "ndf",
            Method::Bdf => "bdf",
            Method::Rosenbrock23 => "rosenbrock23",
            Method::Trapezoid => "trapezoid",
            Method::Trbdf2 => "trbdf2",
            Method::Abm => "abm",
            m => m.tableau().map_or("?", |t| t.name),
        }
    }

    /// The MATLAB name this method stands in for, if any.
    pub fn matlab_name(self) -> Option<&'static str> {
        Method::ALIASES
            .iter()
            .find(|(_, m)| *m == self)
            .map(|(a, _)| *a)
    }

    /// Order of the propagated solution (the highest order for the variable-order methods).
    pub fn order(self) -> u32 {
        match self {
            Method::Radau5 => 5,
            Method::Ndf | Method::Bdf => 5,
            Method::Rosenbrock23 | Method::Trapezoid | Method::Trbdf2 => 2,
            Method::Abm => 12,
            m => m.tableau().map_or(0, |t| t.order),
        }
    }

    /// Whether the step size is chosen by error control (false for Euler, Heun, RK4).
    pub fn is_adaptive(self) -> bool {
        self.tableau().is_none_or(|t| t.is_adaptive())
    }

    /// Whether the method solves nonlinear (or linear) systems with the Jacobian: these accept
    /// stiff problems.
    pub fn is_implicit(self) -> bool {
        matches!(
            self.family(),
            Family::Radau | Family::Bdf | Family::Rosenbrock | Family::Sdirk
        )
    }

    /// Whether the method integrates `M y' = f` with a singular `M` (index-1 DAEs).
    pub fn accepts_singular_mass(self) -> bool {
        matches!(
            self,
            Method::Radau5 | Method::Ndf | Method::Bdf | Method::Trapezoid
        )
    }

    /// Looks a method up by its short name or MATLAB alias (case-insensitive).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
            .or_else(|| {
                Method::ALIASES
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(name))
                    .map(|(_, m)| *m)
            })
    }

    /// Every accepted name, for messages: `"euler, heun, …, ode45 (dp5), …"`.
    pub fn names_list() -> String {
        let mut v: Vec<String> = Method::ALL.iter().map(|m| m.name().to_string()).collect();
        v.extend(
            Method::ALIASES
                .iter()
                .map(|(a, m)| format!("{a} ({})", m.name())),
        );
        v.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_round_trip() {
        for m in Method::ALL {
            assert_eq!(Method::from_name(m.name()), Some(m));
            assert_eq!(Method::from_name(&m.name().to_uppercase()), Some(m));
        }
        assert_eq!(Method::from_name("ode45"), Some(Method::Dp5));
        assert_eq!(Method::from_name("ODE15S"), Some(Method::Ndf));
        assert_eq!(Method::from_name("ode23tb"), Some(Method::Trbdf2));
        assert_eq!(Method::from_name("rk45"), None);
    }
}
