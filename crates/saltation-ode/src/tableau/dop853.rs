//! Dormand–Prince 8(5,3): the explicit Runge–Kutta method `DOP853`.
//!
//! A 12-stage method of order 8 due to J. R. Dormand and P. J. Prince, as implemented in
//! E. Hairer and G. Wanner's code `dop853` and described in E. Hairer, S. P. Nørsett and
//! G. Wanner, *Solving Ordinary Differential Equations I: Nonstiff Problems*, 2nd ed.,
//! Springer Series in Computational Mathematics 8, Springer, 1993 (§II.5, §II.6, §II.10).
//!
//! * Local error: two embedded estimators (of orders 5 and 3) combined as described on
//!   [`ErrorEstimate::Dop853`]; the step-size exponent is `1/8`, which is why
//!   `error_order` is 7.
//! * Dense output: a continuous extension of order 7 that needs the stage
//!   `k₁₃ = f(t + h, y₁)` (reused as the first stage of the next step) and three extra
//!   stages `k₁₄, k₁₅, k₁₆`; see [`Dop853Dense`].
//!
//! All coefficients are transcribed digit for digit from the `PARAMETER` statements of the
//! public Fortran code `dop853.f` (version of 11 October 2009; identical values in the
//! version of 25 April 1996 / 8 August 2005). Only the first 16–17 significant digits matter
//! in `f64`; the rest are kept so the literals can be compared against the source directly.
//!
//! # Stage numbering
//!
//! Stages are numbered `k₁ … k₁₆` by the subscripts of the coefficient names in the source
//! (`a_ij`, `b_i`, `er_i`, `d_qj`), never by the work arrays the code stores them in. The
//! Fortran code reuses arrays: stage 11 is held in `K2` and stage 12 in `K3`; `K4` first holds
//! the increment `Σ b_i k_i` and, once the step is accepted, `k₁₃ = f(x + h, y₁)`; `K5` holds
//! `y₁`; the extra stages go to `K10` (`k₁₄`), `K2` (`k₁₅`) and `K3` (`k₁₆`). Reading the code
//! with that mapping, every coefficient multiplies the stage its subscripts name (for instance
//! `er11`/`b11` multiply stage 11, `d413` multiplies `k₁₃`, `d416` multiplies `k₁₆`), and the
//! third-order estimator's weights `bhh1, bhh2, bhh3` apply to `k₁, k₉, k₁₂`.
//! Coefficients absent from the source are zero and are written out explicitly here.

use super::{DenseOutput, Dop853Dense, ErrorEstimate, Tableau};

/// Nodes `c₁ … c₁₂` (`c₁ = 0`, `c₁₂ = 1`).
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const C: [f64; 12] = [
    0.0,                                 // c1
    0.526001519587677318785587544488e-1, // c2
    0.789002279381515978178381316732e-1, // c3
    0.118350341907227396726757197510,    // c4
    0.281649658092772603273242802490,    // c5
    0.333333333333333333333333333333,    // c6
    0.25,                                // c7
    0.307692307692307692307692307692,    // c8
    0.651282051282051282051282051282,    // c9
    0.6,                                 // c10
    0.857142857142857142857142857142,    // c11
    1.0,                                 // c12
];

/// Coupling coefficients, row `i` holding `a_{i+1, 1} … a_{i+1, i}`.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const A: [&[f64]; 12] = [
    &[],
    &[
        5.26001519587677318785587544488e-2, // a21
    ],
    &[
        1.97250569845378994544595329183e-2, // a31
        5.91751709536136983633785987549e-2, // a32
    ],
    &[
        2.95875854768068491816892993775e-2, // a41
        0.0,                                // a42
        8.87627564304205475450678981324e-2, // a43
    ],
    &[
        2.41365134159266685502369798665e-1,  // a51
        0.0,                                 // a52
        -8.84549479328286085344864962717e-1, // a53
        9.24834003261792003115737966543e-1,  // a54
    ],
    &[
        3.7037037037037037037037037037e-2,  // a61
        0.0,                                // a62
        0.0,                                // a63
        1.70828608729473871279604482173e-1, // a64
        1.25467687566822425016691814123e-1, // a65
    ],
    &[
        3.7109375e-2,                       // a71
        0.0,                                // a72
        0.0,                                // a73
        1.70252211019544039314978060272e-1, // a74
        6.02165389804559606850219397283e-2, // a75
        -1.7578125e-2,                      // a76
    ],
    &[
        3.70920001185047927108779319836e-2,  // a81
        0.0,                                 // a82
        0.0,                                 // a83
        1.70383925712239993810214054705e-1,  // a84
        1.07262030446373284651809199168e-1,  // a85
        -1.53194377486244017527936158236e-2, // a86
        8.27378916381402288758473766002e-3,  // a87
    ],
    &[
        6.24110958716075717114429577812e-1,  // a91
        0.0,                                 // a92
        0.0,                                 // a93
        -3.36089262944694129406857109825,    // a94
        -8.68219346841726006818189891453e-1, // a95
        2.75920996994467083049415600797e1,   // a96
        2.01540675504778934086186788979e1,   // a97
        -4.34898841810699588477366255144e1,  // a98
    ],
    &[
        4.77662536438264365890433908527e-1,  // a101
        0.0,                                 // a102
        0.0,                                 // a103
        -2.48811461997166764192642586468,    // a104
        -5.90290826836842996371446475743e-1, // a105
        2.12300514481811942347288949897e1,   // a106
        1.52792336328824235832596922938e1,   // a107
        -3.32882109689848629194453265587e1,  // a108
        -2.03312017085086261358222928593e-2, // a109
    ],
    &[
        -9.3714243008598732571704021658e-1, // a111
        0.0,                                // a112
        0.0,                                // a113
        5.18637242884406370830023853209,    // a114
        1.09143734899672957818500254654,    // a115
        -8.14978701074692612513997267357,   // a116
        -1.85200656599969598641566180701e1, // a117
        2.27394870993505042818970056734e1,  // a118
        2.49360555267965238987089396762,    // a119
        -3.0467644718982195003823669022,    // a1110
    ],
    &[
        2.27331014751653820792359768449,    // a121
        0.0,                                // a122
        0.0,                                // a123
        -1.05344954667372501984066689879e1, // a124
        -2.00087205822486249909675718444,   // a125
        -1.79589318631187989172765950534e1, // a126
        2.79488845294199600508499808837e1,  // a127
        -2.85899827713502369474065508674,   // a128
        -8.87285693353062954433549289258,   // a129
        1.23605671757943030647266201528e1,  // a1210
        6.43392746015763530355970484046e-1, // a1211
    ],
];

/// Propagating weights `b₁ … b₁₂` of the 8th-order solution.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const B: [f64; 12] = [
    5.42937341165687622380535766363e-2,  // b1
    0.0,                                 // b2
    0.0,                                 // b3
    0.0,                                 // b4
    0.0,                                 // b5
    4.45031289275240888144113950566,     // b6
    1.89151789931450038304281599044,     // b7
    -5.8012039600105847814672114227,     // b8
    3.1116436695781989440891606237e-1,   // b9
    -1.52160949662516078556178806805e-1, // b10
    2.01365400804030348374776537501e-1,  // b11
    4.47106157277725905176885569043e-2,  // b12
];

/// Weights `e5_i = er_i` of the 5th-order error estimator.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const E5: [f64; 12] = [
    0.1312004499419488073250102996e-1,  // er1
    0.0,                                // er2
    0.0,                                // er3
    0.0,                                // er4
    0.0,                                // er5
    -0.1225156446376204440720569753e1,  // er6
    -0.4957589496572501915214079952,    // er7
    0.1664377182454986536961530415e1,   // er8
    -0.3503288487499736816886487290,    // er9
    0.3341791187130174790297318841,     // er10
    0.8192320648511571246570742613e-1,  // er11
    -0.2235530786388629525884427845e-1, // er12
];

/// Weight `bhh1` of the 3rd-order embedded formula, on `k₁`.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const BHH1: f64 = 0.244094488188976377952755905512;
/// Weight `bhh2` of the 3rd-order embedded formula, on `k₉`.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const BHH2: f64 = 0.733846688281611857341361741547;
/// Weight `bhh3` of the 3rd-order embedded formula, on `k₁₂`.
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const BHH3: f64 = 0.220588235294117647058823529412e-1;

/// Weights `e3_i = b_i − bhh_i` of the 3rd-order error estimator.
const E3: [f64; 12] = [
    B[0] - BHH1,
    B[1],
    B[2],
    B[3],
    B[4],
    B[5],
    B[6],
    B[7],
    B[8] - BHH2,
    B[9],
    B[10],
    B[11] - BHH3,
];

/// The Dormand–Prince 8(5,3) method of Hairer & Wanner's code `dop853`: 12 stages, order 8,
/// 5th- and 3rd-order error estimators, 7th-order dense output ([`DOP853_DENSE`]).
pub static DOP853: Tableau = Tableau {
    name: "dop853",
    c: &C,
    a: &A,
    b: &B,
    order: 8,
    error_order: 7,
    fsal: false,
    error: ErrorEstimate::Dop853 { e5: &E5, e3: &E3 },
    dense: DenseOutput::Dop853(&DOP853_DENSE),
};

/// The three extra stages and the weights of [`DOP853`]'s 7th-order dense output
/// (`c14, c15, c16`, `a14j, a15j, a16j` and `d4j … d7j` of the code `dop853`).
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
pub static DOP853_DENSE: Dop853Dense = Dop853Dense {
    c_extra: [
        0.1,                              // c14
        0.2,                              // c15
        0.777777777777777777777777777778, // c16
    ],
    a_extra: [
        // Stage 14, over k1..k13.
        &[
            5.61675022830479523392909219681e-2,  // a141
            0.0,                                 // a142
            0.0,                                 // a143
            0.0,                                 // a144
            0.0,                                 // a145
            0.0,                                 // a146
            2.53500210216624811088794765333e-1,  // a147
            -2.46239037470802489917441475441e-1, // a148
            -1.24191423263816360469010140626e-1, // a149
            1.5329179827876569731206322685e-1,   // a1410
            8.20105229563468988491666602057e-3,  // a1411
            7.56789766054569976138603589584e-3,  // a1412
            -8.298e-3,                           // a1413
        ],
        // Stage 15, over k1..k14.
        &[
            3.18346481635021405060768473261e-2,  // a151
            0.0,                                 // a152
            0.0,                                 // a153
            0.0,                                 // a154
            0.0,                                 // a155
            2.83009096723667755288322961402e-2,  // a156
            5.35419883074385676223797384372e-2,  // a157
            -5.49237485713909884646569340306e-2, // a158
            0.0,                                 // a159
            0.0,                                 // a1510
            -1.08347328697249322858509316994e-4, // a1511
            3.82571090835658412954920192323e-4,  // a1512
            -3.40465008687404560802977114492e-4, // a1513
            1.41312443674632500278074618366e-1,  // a1514
        ],
        // Stage 16, over k1..k15.
        &[
            -4.28896301583791923408573538692e-1, // a161
            0.0,                                 // a162
            0.0,                                 // a163
            0.0,                                 // a164
            0.0,                                 // a165
            -4.69762141536116384314449447206,    // a166
            7.68342119606259904184240953878,     // a167
            4.06898981839711007970213554331,     // a168
            3.56727187455281109270669543021e-1,  // a169
            0.0,                                 // a1610
            0.0,                                 // a1611
            0.0,                                 // a1612
            -1.39902416515901462129418009734e-3, // a1613
            2.9475147891527723389556272149,      // a1614
            -9.15095847217987001081870187138,    // a1615
        ],
    ],
    d: [
        // d4j: r5 = h Σ d4j k_j.
        [
            -0.84289382761090128651353491142e1,  // d41
            0.0,                                 // d42
            0.0,                                 // d43
            0.0,                                 // d44
            0.0,                                 // d45
            0.56671495351937776962531783590,     // d46
            -0.30689499459498916912797304727e1,  // d47
            0.23846676565120698287728149680e1,   // d48
            0.21170345824450282767155149946e1,   // d49
            -0.87139158377797299206789907490,    // d410
            0.22404374302607882758541771650e1,   // d411
            0.63157877876946881815570249290,     // d412
            -0.88990336451333310820698117400e-1, // d413
            0.18148505520854727256656404962e2,   // d414
            -0.91946323924783554000451984436e1,  // d415
            -0.44360363875948939664310572000e1,  // d416
        ],
        // d5j: r6.
        [
            0.10427508642579134603413151009e2,  // d51
            0.0,                                // d52
            0.0,                                // d53
            0.0,                                // d54
            0.0,                                // d55
            0.24228349177525818288430175319e3,  // d56
            0.16520045171727028198505394887e3,  // d57
            -0.37454675472269020279518312152e3, // d58
            -0.22113666853125306036270938578e2, // d59
            0.77334326684722638389603898808e1,  // d510
            -0.30674084731089398182061213626e2, // d511
            -0.93321305264302278729567221706e1, // d512
            0.15697238121770843886131091075e2,  // d513
            -0.31139403219565177677282850411e2, // d514
            -0.93529243588444783865713862664e1, // d515
            0.35816841486394083752465898540e2,  // d516
        ],
        // d6j: r7.
        [
            0.19985053242002433820987653617e2,  // d61
            0.0,                                // d62
            0.0,                                // d63
            0.0,                                // d64
            0.0,                                // d65
            -0.38703730874935176555105901742e3, // d66
            -0.18917813819516756882830838328e3, // d67
            0.52780815920542364900561016686e3,  // d68
            -0.11573902539959630126141871134e2, // d69
            0.68812326946963000169666922661e1,  // d610
            -0.10006050966910838403183860980e1, // d611
            0.77771377980534432092869265740,    // d612
            -0.27782057523535084065932004339e1, // d613
            -0.60196695231264120758267380846e2, // d614
            0.84320405506677161018159903784e2,  // d615
            0.11992291136182789328035130030e2,  // d616
        ],
        // d7j: r8.
        [
            -0.25693933462703749003312586129e2, // d71
            0.0,                                // d72
            0.0,                                // d73
            0.0,                                // d74
            0.0,                                // d75
            -0.15418974869023643374053993627e3, // d76
            -0.23152937917604549567536039109e3, // d77
            0.35763911791061412378285349910e3,  // d78
            0.93405324183624310003907691704e2,  // d79
            -0.37458323136451633156875139351e2, // d710
            0.10409964950896230045147246184e3,  // d711
            0.29840293426660503123344363579e2,  // d712
            -0.43533456590011143754432175058e2, // d713
            0.96324553959188282948394950600e2,  // d714
            -0.39177261675615439165231486172e2, // d715
            -0.14972683625798562581422125276e3, // d716
        ],
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    fn row_sum(row: &[f64]) -> f64 {
        row.iter().sum()
    }

    #[test]
    fn shape() {
        let t = &DOP853;
        assert_eq!(t.c.len(), 12);
        assert_eq!(t.a.len(), 12);
        for (i, row) in t.a.iter().enumerate() {
            assert_eq!(row.len(), i);
        }
        assert_eq!(t.b.len(), 12);
        match t.error {
            ErrorEstimate::Dop853 { e5, e3 } => {
                assert_eq!(e5.len(), 12);
                assert_eq!(e3.len(), 12);
            }
            _ => panic!("expected the DOP853 error estimator"),
        }
        for (m, row) in DOP853_DENSE.a_extra.iter().enumerate() {
            assert_eq!(row.len(), 13 + m);
        }
    }

    #[test]
    fn rows_sum_to_nodes() {
        for (i, row) in DOP853.a.iter().enumerate() {
            let err = (row_sum(row) - DOP853.c[i]).abs();
            assert!(err < 1e-14, "row {i}: Σa − c = {err:e}");
        }
        for (m, row) in DOP853_DENSE.a_extra.iter().enumerate() {
            let err = (row_sum(row) - DOP853_DENSE.c_extra[m]).abs();
            assert!(err < 1e-14, "extra stage {}: Σa − c = {err:e}", 14 + m);
        }
    }

    #[test]
    fn quadrature_conditions() {
        assert!((row_sum(DOP853.b) - 1.0).abs() < 1e-14);
        for k in 1..=8 {
            let s: f64 = DOP853
                .b
                .iter()
                .zip(DOP853.c)
                .map(|(b, c)| b * c.powi(k - 1))
                .sum();
            let err = (s - 1.0 / f64::from(k)).abs();
            assert!(err < 1e-13, "Σ b c^{} − 1/{k} = {err:e}", k - 1);
        }
    }

    #[test]
    fn error_weights_sum_to_zero() {
        let ErrorEstimate::Dop853 { e5, e3 } = DOP853.error else {
            panic!("expected the DOP853 error estimator");
        };
        assert!(row_sum(e5).abs() < 1e-14, "Σ e5 = {:e}", row_sum(e5));
        assert!(row_sum(e3).abs() < 1e-14, "Σ e3 = {:e}", row_sum(e3));
    }

    /// Each dense weight row sums to zero: for `f ≡ const` every `k_j` is equal, and the
    /// interpolant must then be the straight line, i.e. `r5 … r8 = 0`.
    #[test]
    fn dense_rows_sum_to_zero() {
        for (q, row) in DOP853_DENSE.d.iter().enumerate() {
            let s = row_sum(row);
            assert!(s.is_finite());
            assert!(s.abs() < 1e-12, "Σ d{}j = {s:e}", q + 4);
        }
    }

    /// One step of the method with its dense output, for a scalar `y' = f(t, y)`, built
    /// exactly as documented on `Dop853Dense`. Returns `y₁` and the interpolant `y(θ)`.
    fn step(f: impl Fn(f64, f64) -> f64, t0: f64, y0: f64, h: f64) -> (f64, impl Fn(f64) -> f64) {
        let mut k = [0.0_f64; 16];
        for i in 0..12 {
            let yi = y0 + h * DOP853.a[i].iter().zip(&k).map(|(a, k)| a * k).sum::<f64>();
            k[i] = f(t0 + DOP853.c[i] * h, yi);
        }
        let y1 = y0 + h * DOP853.b.iter().zip(&k).map(|(b, k)| b * k).sum::<f64>();
        k[12] = f(t0 + h, y1);
        for (m, row) in DOP853_DENSE.a_extra.iter().enumerate() {
            let yi = y0 + h * row.iter().zip(&k).map(|(a, k)| a * k).sum::<f64>();
            k[13 + m] = f(t0 + DOP853_DENSE.c_extra[m] * h, yi);
        }
        let delta = y1 - y0;
        let r3 = h * k[0] - delta;
        let r4 = delta - h * k[12] - r3;
        let r: [f64; 4] = core::array::from_fn(|q| {
            h * DOP853_DENSE.d[q]
                .iter()
                .zip(&k)
                .map(|(d, k)| d * k)
                .sum::<f64>()
        });
        let dense = move |th: f64| {
            let th1 = 1.0 - th;
            y0 + th
                * (delta
                    + th1
                        * (r3 + th * (r4 + th1 * (r[0] + th * (r[1] + th1 * (r[2] + th * r[3]))))))
        };
        (y1, dense)
    }

    #[test]
    fn dense_output_exponential() {
        let h = 0.1;
        let (y1, dense) = step(|_, y| y, 0.0, 1.0, h);
        assert!((y1 - h.exp()).abs() < 1e-15, "y1 error {:e}", y1 - h.exp());
        assert!((dense(1.0) - y1).abs() < 1e-15);
        assert!((dense(0.0) - 1.0).abs() < 1e-15);
        for th in [0.3, 0.5, 0.77] {
            let err = (dense(th) - (h * th).exp()).abs();
            assert!(err < 1e-12, "θ = {th}: error {err:e}");
        }
    }

    /// The dense output has order 7, so it reproduces `y = t^(m+1)/(m+1)` exactly for
    /// `y' = t^m`, `m ≤ 6` (checks `Σ_j b_j(θ) c_j^m = θ^(m+1)/(m+1)` of the interpolant).
    #[test]
    fn dense_output_polynomials() {
        let (t0, h) = (0.5, 0.25);
        for m in 0..=6 {
            let exact = |t: f64| t.powi(m + 1) / f64::from(m + 1);
            let (y1, dense) = step(|t, _| t.powi(m), t0, exact(t0), h);
            assert!((y1 - exact(t0 + h)).abs() < 1e-15);
            for th in [0.1, 0.3, 0.5, 0.77, 0.9] {
                let err = (dense(th) - exact(t0 + th * h)).abs();
                assert!(err < 1e-14, "m = {m}, θ = {th}: error {err:e}");
            }
        }
    }
}
