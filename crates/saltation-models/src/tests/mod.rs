//! Crate-level checks of the built-in models: hand-written Jacobians against automatic
//! differentiation ([`jacobians`]), stride Jacobians against finite differences at the periodic
//! orbits ([`stride`]), the bouncing ball against its closed form ([`bouncing`]), and the stiff
//! test problems' model files against the published problem data ([`stiff`]).

mod bad_input;
mod bouncing;
mod jacobians;
mod radau5_counts;
mod stiff;
mod stride;

use crate::{load_model_file, ModelFile};
use std::path::Path;

/// xorshift64* (Vigna 2016): a deterministic, dependency-free pseudo-random source.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from a nonzero seed.
    pub(crate) fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    /// Uniform in `[0, 1)` (53 random bits).
    pub(crate) fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let r = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (r >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `[a, b)`.
    pub(crate) fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
}

/// A shipped model file, `models/<name>.ron`.
pub(crate) fn shipped(name: &str) -> ModelFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../models/{name}.ron"));
    load_model_file(&path).unwrap_or_else(|e| panic!("{e}"))
}
