//! Dormand–Prince 5(4) (J. R. Dormand, P. J. Prince, "A family of embedded Runge–Kutta
//! formulae", J. Comput. Appl. Math. 6 (1980) 19–26): seven stages, FSAL, fifth-order
//! propagation, with the 4th-order continuous extension of Shampine (Math. Comp. 46 (1986)
//! 135–150) in the form of Hairer, Nørsett & Wanner (*Solving ODEs I*, §II.6). MATLAB's `ode45`.

use super::{DenseOutput, ErrorEstimate, Tableau};

const B: [f64; 7] = [
    35.0 / 384.0,
    0.0,
    500.0 / 1113.0,
    125.0 / 192.0,
    -2187.0 / 6784.0,
    11.0 / 84.0,
    0.0,
];
const BHAT: [f64; 7] = [
    5179.0 / 57600.0,
    0.0,
    7571.0 / 16695.0,
    393.0 / 640.0,
    -92097.0 / 339200.0,
    187.0 / 2100.0,
    1.0 / 40.0,
];

/// Dormand–Prince 5(4), FSAL; `e = b − b̂`.
pub static DP5: Tableau = Tableau {
    name: "dp5",
    c: &[0.0, 0.2, 0.3, 0.8, 8.0 / 9.0, 1.0, 1.0],
    a: &[
        &[],
        &[0.2],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &[
            35.0 / 384.0,
            0.0,
            500.0 / 1113.0,
            125.0 / 192.0,
            -2187.0 / 6784.0,
            11.0 / 84.0,
        ],
    ],
    b: &B,
    order: 5,
    error_order: 4,
    fsal: true,
    error: ErrorEstimate::Embedded(&[
        B[0] - BHAT[0],
        B[1] - BHAT[1],
        B[2] - BHAT[2],
        B[3] - BHAT[3],
        B[4] - BHAT[4],
        B[5] - BHAT[5],
        B[6] - BHAT[6],
    ]),
    dense: DenseOutput::Dp5 {
        d: &[
            -12715105075.0 / 11282082432.0,
            0.0,
            87487479700.0 / 32700410799.0,
            -10690763975.0 / 1880347072.0,
            701980252875.0 / 199316789632.0,
            -1453857185.0 / 822651844.0,
            69997945.0 / 29380423.0,
        ],
    },
};
