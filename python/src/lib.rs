//! # saltation-python
//!
//! The extension module `saltation._saltation` of the Python package `saltation` (built by
//! maturin, `pip install ./python`). It is thin: one class, [`model::PyModel`] (`_Model` in
//! Python), holding a parsed model file ([`saltation_scenario::ModelFile`]) and running the
//! library's computations on it with the GIL released (`py.detach`), the same functions the
//! `saltation` command runs ([`saltation_cli::orbit::solve`], [`saltation_cli::simulate::compute`],
//! [`saltation_cli::continuation::compute`]'s parts, the orbit diagram, and in [`analyses`] the
//! curve, basin, merge, Lyapunov, sensitivity and mfpt commands' parts). Results cross into
//! Python as the JSON objects of the command's `--json` output (a public interface; a result's
//! `to_dict()`) together with its numpy arrays built here from the computed values
//! ([`results`], the `numpy` crate), which the pure-Python layer (`python/saltation/`) wraps
//! into result classes; errors
//! cross as the command's one-line messages with the name of the `saltation.Error` subclass to
//! raise ([`errors`]).
#![warn(missing_docs)]

mod analyses;
mod arrays;
mod errors;
mod model;
mod options;
mod progress;
mod results;

use pyo3::prelude::*;

/// Reads a model file's text (`saltation_scenario::read_text_file`: size limit, UTF-8, a
/// byte-order mark skipped), with the GIL released; `LoadError` if it cannot be read.
#[pyfunction]
fn read_text(py: Python<'_>, path: std::path::PathBuf) -> PyResult<String> {
    py.detach(|| saltation_scenario::read_text_file(&path))
        .map_err(|e| {
            errors::Failure::from_cli(&saltation_cli::CliError::File(e), errors::Op::Orbit)
                .into_pyerr(py)
        })
}

/// The extension module: the `_Model` class, `read_text`, and the analyses' functions.
#[pymodule]
fn _saltation(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<model::PyModel>()?;
    m.add_function(wrap_pyfunction!(read_text, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::curve_json, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::basin_json, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::merge_basins_json, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::mfpt_json, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::merge_mfpt_json, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::lyapunov_json, m)?)?;
    m.add_function(wrap_pyfunction!(analyses::sensitivity_json, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
