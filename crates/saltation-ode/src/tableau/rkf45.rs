//! Runge–Kutta–Fehlberg 4(5) (E. Fehlberg, "Low-order classical Runge–Kutta formulas with
//! stepsize control and their application to some heat transfer problems", NASA TR R-315,
//! 1969): six stages, the fourth-order solution is propagated and the fifth-order one estimates
//! its error. Cubic Hermite dense output.

use super::{DenseOutput, ErrorEstimate, Tableau};

const B4: [f64; 6] = [
    25.0 / 216.0,
    0.0,
    1408.0 / 2565.0,
    2197.0 / 4104.0,
    -1.0 / 5.0,
    0.0,
];
const B5: [f64; 6] = [
    16.0 / 135.0,
    0.0,
    6656.0 / 12825.0,
    28561.0 / 56430.0,
    -9.0 / 50.0,
    2.0 / 55.0,
];

/// Runge–Kutta–Fehlberg 4(5): `b` = 4th-order weights, `e = b₄ − b₅`.
pub static RKF45: Tableau = Tableau {
    name: "rkf45",
    c: &[0.0, 0.25, 3.0 / 8.0, 12.0 / 13.0, 1.0, 0.5],
    a: &[
        &[],
        &[0.25],
        &[3.0 / 32.0, 9.0 / 32.0],
        &[1932.0 / 2197.0, -7200.0 / 2197.0, 7296.0 / 2197.0],
        &[439.0 / 216.0, -8.0, 3680.0 / 513.0, -845.0 / 4104.0],
        &[
            -8.0 / 27.0,
            2.0,
            -3544.0 / 2565.0,
            1859.0 / 4104.0,
            -11.0 / 40.0,
        ],
    ],
    b: &B4,
    order: 4,
    error_order: 4,
    fsal: false,
    error: ErrorEstimate::Embedded(&[
        B4[0] - B5[0],
        B4[1] - B5[1],
        B4[2] - B5[2],
        B4[3] - B5[3],
        B4[4] - B5[4],
        B4[5] - B5[5],
    ]),
    dense: DenseOutput::Hermite,
};
