//! The built-in methods by name.

use crate::explicit_rk::ExplicitRk;
use crate::tableau::{Tableau, BS23, DOP853, DP5, EULER, HEUN, RK4, RKF45};
use serde::{Deserialize, Serialize};

/// The integration methods of the suite (see METHODS.md for their MATLAB analogues).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Method {
    /// Forward Euler, fixed step, order 1.
    Euler,
    /// Heun (explicit trapezoid), fixed step, order 2.
    Heun,
    /// Classical Runge–Kutta, fixed step, order 4.
    Rk4,
    /// Bogacki–Shampine 3(2), FSAL (MATLAB `ode23`).
    Bs23,
    /// Runge–Kutta–Fehlberg 4(5).
    Rkf45,
    /// Dormand–Prince 5(4), FSAL, 4th-order dense output (MATLAB `ode45`).
    Dp5,
    /// Dormand–Prince 8(5,3), 7th-order dense output.
    Dop853,
}

impl Method {
    /// Every built-in method.
    pub const ALL: [Method; 7] = [
        Method::Euler,
        Method::Heun,
        Method::Rk4,
        Method::Bs23,
        Method::Rkf45,
        Method::Dp5,
        Method::Dop853,
    ];

    /// The Butcher tableau of an explicit Runge–Kutta method.
    pub fn tableau(self) -> &'static Tableau {
        match self {
            Method::Euler => &EULER,
            Method::Heun => &HEUN,
            Method::Rk4 => &RK4,
            Method::Bs23 => &BS23,
            Method::Rkf45 => &RKF45,
            Method::Dp5 => &DP5,
            Method::Dop853 => &DOP853,
        }
    }

    /// A fresh stepper for this method.
    pub fn stepper(self) -> ExplicitRk {
        ExplicitRk::new(self.tableau())
    }

    /// Short lowercase name (`"dop853"`).
    pub fn name(self) -> &'static str {
        self.tableau().name
    }

    /// Looks a method up by its short name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }
}
