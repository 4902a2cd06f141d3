//! What the modules share: the shipped model files.

use saltation::scenario::{load_model_file, ModelFile};
use std::path::PathBuf;

/// The directory of the shipped model files (`models/`).
pub fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// The shipped model file `name`, loaded (and checked).
pub fn model_file(name: &str) -> ModelFile {
    load_model_file(&models_dir().join(name)).unwrap_or_else(|e| panic!("{e}"))
}
