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

use crate::Model;
use saltation_orbit::OrbitOptions;
use serde::Deserialize;
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

/// What these tests read of a shipped model file: the model, its guesses, its orbit settings
/// and its initial state. (Model files are the `saltation-scenario` crate's, which depends on this one; its
/// tests check that every shipped file loads.)
#[derive(Deserialize)]
pub(crate) struct Shipped {
    /// The model.
    pub(crate) model: Model,
    /// The guesses.
    #[serde(default)]
    pub(crate) guesses: Vec<ShippedGuess>,
    /// The orbit settings.
    #[serde(default)]
    pub(crate) orbit: OrbitOptions,
    /// Where a simulation starts.
    #[serde(default)]
    pub(crate) initial: Option<ShippedInitial>,
}

/// The initial state of a [`Shipped`] file.
#[derive(Deserialize)]
pub(crate) struct ShippedInitial {
    /// Start time.
    #[serde(default)]
    pub(crate) t: f64,
    /// Full state.
    pub(crate) x: Vec<f64>,
    /// Mode.
    #[serde(default)]
    pub(crate) mode: usize,
}

/// A guess of a [`Shipped`] file.
#[derive(Deserialize)]
pub(crate) struct ShippedGuess {
    /// What it is for.
    pub(crate) label: String,
    /// Reduced coordinates.
    pub(crate) u: Vec<f64>,
}

/// A shipped model file, `models/<name>.ron` (the parts in [`Shipped`]).
pub(crate) fn shipped(name: &str) -> Shipped {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../models/{name}.ron"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    ron::Options::default()
        .with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        )
        .from_str(&text)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}
