//! Bogacki–Shampine 3(2) pair (P. Bogacki, L. F. Shampine, "A 3(2) pair of Runge–Kutta
//! formulas", Appl. Math. Lett. 2 (1989) 321–325): third-order propagation, FSAL, cubic Hermite
//! dense output (3rd order). MATLAB's `ode23`.

use super::{DenseOutput, ErrorEstimate, Tableau};

/// Bogacki–Shampine 3(2), FSAL. `e = b − b̂` with `b̂ = (7/24, 1/4, 1/3, 1/8)`.
pub static BS23: Tableau = Tableau {
    name: "bs23",
    c: &[0.0, 0.5, 0.75, 1.0],
    a: &[
        &[],
        &[0.5],
        &[0.0, 0.75],
        &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0],
    ],
    b: &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0],
    order: 3,
    error_order: 2,
    fsal: true,
    error: ErrorEstimate::Embedded(&[
        2.0 / 9.0 - 7.0 / 24.0,
        1.0 / 3.0 - 1.0 / 4.0,
        4.0 / 9.0 - 1.0 / 3.0,
        -1.0 / 8.0,
    ]),
    dense: DenseOutput::Hermite,
};
