//! Published reference values, with where they come from.

/// Table 1 of P. A. Bhounsule, "Numerical accuracy of two benchmark models of walking: the
/// rimless spoked wheel and the simplest walker", Dyn. Contin. Discrete Impuls. Syst. Ser. B 21
/// (2014) 137–148 (simplest walker of Garcia et al. 1998 at `γ = 0.009`): fixed points
/// `[θ, θ̇, φ, φ̇]` and the nontrivial multipliers from variational equations and from central
/// differences (step 1e-5), as printed.
pub mod walker_table1 {
    /// Slope of the table.
    pub const GAMMA: f64 = 0.009;
    /// Stable (long-period) gait, fixed point.
    pub const STABLE_X0: [f64; 4] = [
        0.200_310_900_544_287,
        -0.199_832_473_004_977,
        0.400_621_801_088_574,
        -0.015_822_999_948_318,
    ];
    /// Unstable (short-period) gait, fixed point.
    pub const UNSTABLE_X0: [f64; 4] = [
        0.193_937_369_810_184,
        -0.203_866_927_442_010,
        0.387_874_739_620_369,
        -0.015_144_260_853_192,
    ];
    /// Stable gait, complex pair `re ± i im` (variational equations).
    pub const STABLE_PAIR: (f64, f64) = (-0.190_099_841_069_399, 0.557_598_776_679_489);
    /// Stable gait, complex pair by central differences (step 1e-5), as printed.
    pub const STABLE_PAIR_FD: (f64, f64) = (-0.190_099_639_402_167, 0.557_599_274_284_362);
    /// Unstable gait, real multipliers (variational) as printed in the paper.
    pub const UNSTABLE_PRINTED: [f64; 2] = [4.003_864_358_929_642, 0.459_589_580_797_698];
    /// Unstable gait, real multipliers (variational) with the paper's slip corrected: an
    /// independent 40-digit computation gives 0.459589589797672 for the second one (the printed
    /// value differs in the 9th decimal).
    pub const UNSTABLE: [f64; 2] = [4.003_864_358_929_642, 0.459_589_589_797_672];
    /// Unstable gait, real multipliers by central differences (step 1e-5), as printed.
    pub const UNSTABLE_FD: [f64; 2] = [4.003_865_226_079_296, 0.459_589_047_035_257];
}

/// The rimless-wheel benchmark of Bhounsule 2014 (§3): `λ² = 2/3`, `α = 0.2`,
/// `n = 6`, so `μ = 2/3`, fixed point `[−π/6, 0.460341126609458…]`, multipliers `{0, 4/9}`.
pub mod rimless_benchmark {
    /// `λ²`.
    pub const LAMBDA2: f64 = 2.0 / 3.0;
    /// Slope `α`.
    pub const ALPHA: f64 = 0.2;
    /// Spokes.
    pub const SPOKES: u32 = 6;
    /// Fixed point `[−π/6, θ̇₀]` from the closed form as given in Bhounsule 2014, §3.2 (15
    /// digits; the paper's numerical solution in §3.3 prints `θ̇₀ = 0.460341126609455`).
    pub const X0: [f64; 2] = [-std::f64::consts::FRAC_PI_6, 0.460_341_126_609_458];
}

/// Van der Pol (1926) oscillator with `ε = 1`: period of the limit cycle.
pub mod van_der_pol {
    /// `ε`.
    pub const EPSILON: f64 = 1.0;
    /// Period of the limit cycle at `ε = 1`.
    pub const PERIOD: f64 = 6.663_286_859_323_13;
}

// The stiff test problems. The reference solutions are those of the Test Set for IVP Solvers
// (F. Mazzia and C. Magherini, Department of Mathematics, University of Bari; problem files
// ROBER, VDPOL, HIRES, OREGO of 2006), computed there with RADAU5 (HIRES) or RADAU (the others)
// at unit roundoff 1.01e-19 and tolerances 1.1e-18, printed to 16 significant digits. The
// problems are those of Hairer & Wanner, *Solving Ordinary Differential Equations II*, 2nd ed.,
// Springer 1996, §IV.1 and §IV.10.

/// ROBER, Robertson's chemical kinetics (Robertson 1966; [`crate::Robertson`]) with
/// `k1 = 0.04`, `k2 = 3e7`, `k3 = 1e4`, `y(0) = (1, 0, 0)`.
pub mod rober {
    /// Initial state.
    pub const Y0: [f64; 3] = [1.0, 0.0, 0.0];
    /// End time of the test set.
    pub const T_END: f64 = 1.0e11;
    /// `y(10¹¹)`, Test Set for IVP Solvers (Mazzia & Magherini), problem ROBER. The three
    /// printed values sum to `1 − 1.0·10⁻¹⁴`, while the exact solution conserves
    /// `y1 + y2 + y3 = 1`: the published `y3` is off by about `10⁻¹⁴` (far below the tolerances
    /// tested); the independent computation described at [`Y_SHORT`] gives
    /// `y3 = 0.99999997916651517` and agrees with the published `y1`, `y2` to `1.4·10⁻¹³`
    /// (relative), the accuracy of that run.
    pub const Y_END: [f64; 3] = [
        0.208_334_014_970_125_5e-7,
        0.833_336_077_033_471_3e-13,
        0.999_999_979_166_505,
    ];
    /// Short end time for quick tests.
    pub const T_SHORT: f64 = 40.0;
    /// `y(40)`. No reference with more than a few digits is published at `t = 40`; these
    /// values come from an independent computation for this crate: the 3-stage Radau IIA
    /// method (order 5) in 40-digit arithmetic with step-doubling error control and local
    /// extrapolation (the repository's `scripts/rober_mpmath.py`, Python with mpmath). Runs at
    /// local tolerances 1e-16 and 1e-18 agree to `10⁻²¹` in every component (`7·10⁻¹⁷`
    /// relative in `y2`), so all printed digits are correct; the same program run to
    /// `t = 10¹¹` at 1e-13 reproduces the test set's [`Y_END`] as described there. They agree
    /// with the commonly quoted `y(40) ≈ (0.7158271, 9.185535e-6, 0.2841637)`.
    pub const Y_SHORT: [f64; 3] = [
        0.715_827_068_719_405,
        9.185_534_764_557_764e-6,
        0.284_163_745_745_830_35,
    ];
}

/// VDPOL, the van der Pol oscillator in Hairer & Wanner's scaled form
/// ([`crate::VanDerPolStiff`]) with `ε = 10⁻⁶`, `y(0) = (2, 0)`.
pub mod vdpol {
    /// `ε`.
    pub const EPS: f64 = 1.0e-6;
    /// Initial state.
    pub const Y0: [f64; 2] = [2.0, 0.0];
    /// End time of the test set.
    pub const T_END: f64 = 2.0;
    /// `y(2)`, Test Set for IVP Solvers (Mazzia & Magherini), problem VDPOL.
    pub const Y_END: [f64; 2] = [0.170_616_773_217_048_3e1, -0.892_809_701_024_797_5];
}

/// HIRES, Schäfer's (1975) high-irradiance-response kinetics ([`crate::Hires`]) with the
/// published constants, `y(0) = (1, 0, 0, 0, 0, 0, 0, 0.0057)`.
pub mod hires {
    /// Initial state.
    pub const Y0: [f64; 8] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057];
    /// End time of the test set.
    pub const T_END: f64 = 321.8122;
    /// `y(321.8122)`, Test Set for IVP Solvers (Mazzia & Magherini), problem HIRES.
    pub const Y_END: [f64; 8] = [
        0.737_131_257_332_566_8e-3,
        0.144_248_572_631_618_5e-3,
        0.588_872_974_096_757_5e-4,
        0.117_565_134_328_314_9e-2,
        0.238_635_619_883_133_1e-2,
        0.623_896_825_274_279_6e-2,
        0.284_999_839_518_576_9e-2,
        0.285_000_160_481_423_1e-2,
    ];
}

/// OREGO, the Oregonator of Field & Noyes (1974) ([`crate::Orego`]) with `s = 77.27`,
/// `q = 8.375e-6`, `w = 0.161`, `f = 1`, `y(0) = (1, 2, 3)`.
pub mod orego {
    /// Initial state.
    pub const Y0: [f64; 3] = [1.0, 2.0, 3.0];
    /// End time of the test set.
    pub const T_END: f64 = 360.0;
    /// `y(360)`, Test Set for IVP Solvers (Mazzia & Magherini), problem OREGO.
    pub const Y_END: [f64; 3] = [
        0.100_081_487_031_852_3e1,
        0.122_817_852_154_991_7e4,
        0.132_055_494_284_670_6e3,
    ];
}
