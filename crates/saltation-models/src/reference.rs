//! Published reference values, with where they come from.

/// Table 1 of the walker-Jacobian benchmark paper (simplest walker at `γ = 0.009`,
/// MODELS.md §2): fixed points `[θ, θ̇, φ, φ̇]` and the nontrivial multipliers from variational
/// equations and from central differences (step 1e-5), as printed.
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
    /// value differs in the 9th decimal; MODELS.md §2).
    pub const UNSTABLE: [f64; 2] = [4.003_864_358_929_642, 0.459_589_589_797_672];
    /// Unstable gait, real multipliers by central differences (step 1e-5), as printed.
    pub const UNSTABLE_FD: [f64; 2] = [4.003_865_226_079_296, 0.459_589_047_035_257];
}

/// The rimless-wheel benchmark of the walker-Jacobian paper (§3): `λ² = 2/3`, `α = 0.2`,
/// `n = 6`, so `μ = 2/3`, fixed point `[−π/6, 0.460341126609458…]`, multipliers `{0, 4/9}`.
pub mod rimless_benchmark {
    /// `λ²`.
    pub const LAMBDA2: f64 = 2.0 / 3.0;
    /// Slope `α`.
    pub const ALPHA: f64 = 0.2;
    /// Spokes.
    pub const SPOKES: u32 = 6;
    /// Fixed point `[−π/6, θ̇₀]` as given in MODELS.md §1 (15 digits; the paper's own table
    /// prints `θ̇₀ = 0.460341126609455`).
    pub const X0: [f64; 2] = [-std::f64::consts::FRAC_PI_6, 0.460_341_126_609_458];
}

/// Van der Pol with `ε = 1` (MODELS.md §6): period of the limit cycle.
pub mod van_der_pol {
    /// `ε`.
    pub const EPSILON: f64 = 1.0;
    /// Period of the limit cycle at `ε = 1`.
    pub const PERIOD: f64 = 6.663_286_859_323_13;
}
