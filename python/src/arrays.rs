//! numpy arrays built from the computations' results (the `numpy` crate), handed to the
//! Python result classes beside the command's JSON object: `float64` vectors and matrices,
//! `complex128` multipliers, `int64` cells and modes, `bool` flags. Matrices are row-major
//! (C order): row `i` of an `n × m` matrix is `flat[i·m .. (i+1)·m]`.

use numpy::ndarray::Array2;
use numpy::{Complex64, Element, IntoPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use saltation_orbit::Multiplier;

/// A 1-D array owning `v`.
pub fn vector<'py, T: Element>(py: Python<'py>, v: Vec<T>) -> Bound<'py, PyAny> {
    v.into_pyarray(py).into_any()
}

/// An `rows × cols` array of the row-major `flat` (`ValueError` if the sizes disagree: rows
/// of unequal length).
pub fn matrix<'py, T: Element>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    flat: Vec<T>,
) -> PyResult<Bound<'py, PyAny>> {
    let a = Array2::from_shape_vec((rows, cols), flat)
        .map_err(|e| PyValueError::new_err(format!("array of {rows} × {cols}: {e}")))?;
    Ok(a.into_pyarray(py).into_any())
}

/// Rows of equal length as an `n × m` matrix (`m` the first row's length, 0 without rows).
pub fn rows<'py, T: Element + Copy, R: AsRef<[T]>>(
    py: Python<'py>,
    rows: &[R],
) -> PyResult<Bound<'py, PyAny>> {
    let cols = rows.first().map_or(0, |r| r.as_ref().len());
    let flat: Vec<T> = rows
        .iter()
        .flat_map(|r| r.as_ref().iter().copied())
        .collect();
    matrix(py, rows.len(), cols, flat)
}

/// Multipliers as `complex128` values.
pub fn complex(ms: &[Multiplier]) -> Vec<Complex64> {
    ms.iter().map(|m| Complex64::new(m.re, m.im)).collect()
}

/// A dict of the given items.
pub fn dict<'py>(
    py: Python<'py>,
    items: Vec<(&str, Bound<'py, PyAny>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in items {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// A list of the given items.
pub fn list<'py>(py: Python<'py>, items: Vec<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
    Ok(PyList::new(py, items)?.into_any())
}
