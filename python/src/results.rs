//! The arrays of each result, built from the computation's own values (not from its JSON
//! text): what the Python result classes expose as numpy attributes. Each function returns a
//! dict `{attribute: array, …}` whose keys are the attribute names of the class in
//! `saltation/_results.py` (or `_analyses.py`).

use crate::arrays::{complex, dict, list, matrix, rows, vector};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltation_continuation::basin::BasinResult;
use saltation_continuation::{Curve, CurvePoint, DiagramColumn, ScriptResult};
use saltation_orbit::LyapunovSpectrum;
use saltation_report::SimulationJson;

/// `Simulation`: `t` (n), `y` (states × n), `modes` (int64, n), `t_events`, `outputs` (name →
/// n values, NaN where the sample has none: not finite there).
pub fn simulation_arrays<'py>(py: Python<'py>, j: &SimulationJson) -> PyResult<Bound<'py, PyDict>> {
    let n = j.samples.len();
    let dim = j.x_end.len();
    let mut y = Vec::with_capacity(dim * n);
    for i in 0..dim {
        y.extend(
            j.samples
                .iter()
                .map(|s| s.x.get(i).copied().unwrap_or(f64::NAN)),
        );
    }
    let names: std::collections::BTreeSet<&String> =
        j.samples.iter().flat_map(|s| s.outputs.keys()).collect();
    let outputs = PyDict::new(py);
    for name in names {
        let v: Vec<f64> = j
            .samples
            .iter()
            .map(|s| s.outputs.get(name).copied().unwrap_or(f64::NAN))
            .collect();
        outputs.set_item(name, vector(py, v))?;
    }
    dict(
        py,
        vec![
            ("t", vector(py, j.samples.iter().map(|s| s.t).collect())),
            ("y", matrix(py, dim, n, y)?),
            (
                "modes",
                vector(py, j.samples.iter().map(|s| s.mode as i64).collect()),
            ),
            (
                "t_events",
                vector(py, j.events.iter().map(|e| e.t).collect()),
            ),
            ("outputs", outputs.into_any()),
        ],
    )
}

/// `Continuation`: `branches` (one dict per branch: `params`, `x0` n × states, `period`,
/// `multipliers` n × k, `stable`, `admissible` or None) and `bifurcations` (one dict each:
/// `x0`, `multipliers`).
pub fn continuation_arrays<'py>(py: Python<'py>, r: &ScriptResult) -> PyResult<Bound<'py, PyDict>> {
    let mut branches = Vec::new();
    for b in &r.branches {
        let pts = &b.points;
        let admissible = match pts.first().and_then(|p| p.admissible) {
            Some(_) => vector(
                py,
                pts.iter().map(|p| p.admissible.unwrap_or(false)).collect(),
            ),
            None => py.None().into_bound(py),
        };
        let x0: Vec<&[f64]> = pts.iter().map(|p| p.x0.as_slice()).collect();
        let mus: Vec<Vec<numpy::Complex64>> = pts.iter().map(|p| complex(&p.multipliers)).collect();
        branches.push(
            dict(
                py,
                vec![
                    ("params", vector(py, pts.iter().map(|p| p.param).collect())),
                    ("x0", rows(py, &x0)?),
                    ("period", vector(py, pts.iter().map(|p| p.period).collect())),
                    ("multipliers", rows(py, &mus)?),
                    ("stable", vector(py, pts.iter().map(|p| p.stable).collect())),
                    ("admissible", admissible),
                ],
            )?
            .into_any(),
        );
    }
    let mut bifs = Vec::new();
    for x in &r.bifurcations {
        bifs.push(
            dict(
                py,
                vec![
                    ("x0", vector(py, x.x0.clone())),
                    ("multipliers", vector(py, complex(&x.multipliers))),
                ],
            )?
            .into_any(),
        );
    }
    dict(
        py,
        vec![
            ("branches", list(py, branches)?),
            ("bifurcations", list(py, bifs)?),
        ],
    )
}

/// `OrbitDiagram`: `params`, `values` (a list of arrays), `failed` (bool).
pub fn diagram_arrays<'py>(
    py: Python<'py>,
    columns: &[DiagramColumn],
) -> PyResult<Bound<'py, PyDict>> {
    let values = columns
        .iter()
        .map(|c| vector(py, c.values.clone()))
        .collect();
    dict(
        py,
        vec![
            (
                "params",
                vector(py, columns.iter().map(|c| c.param).collect()),
            ),
            ("values", list(py, values)?),
            (
                "failed",
                vector(py, columns.iter().map(|c| c.failure.is_some()).collect()),
            ),
        ],
    )
}

/// The arrays of curve points: `params` (n × 2), `x0` (n × states), `period` (n),
/// `multipliers` (n × k).
fn points_arrays<'py>(
    py: Python<'py>,
    pts: &[&CurvePoint],
) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
    let params: Vec<[f64; 2]> = pts.iter().map(|p| p.params).collect();
    let x0: Vec<&[f64]> = pts.iter().map(|p| p.x0.as_slice()).collect();
    let mus: Vec<Vec<numpy::Complex64>> = pts.iter().map(|p| complex(&p.multipliers)).collect();
    Ok(vec![
        ("params", rows(py, &params)?),
        ("x0", rows(py, &x0)?),
        ("period", vector(py, pts.iter().map(|p| p.period).collect())),
        ("multipliers", rows(py, &mus)?),
    ])
}

/// `Curve`: the points' arrays (see [`points_arrays`]) and `codim2`: one dict per
/// codimension-two point with `params` (2 values), `x0`, `multipliers`.
pub fn curve_arrays<'py>(py: Python<'py>, c: &Curve) -> PyResult<Bound<'py, PyDict>> {
    let pts: Vec<&CurvePoint> = c.points.iter().collect();
    let mut items = points_arrays(py, &pts)?;
    let mut codim2 = Vec::new();
    for x in &c.codim2 {
        codim2.push(
            dict(
                py,
                vec![
                    ("params", vector(py, x.point.params.to_vec())),
                    ("x0", vector(py, x.point.x0.clone())),
                    ("multipliers", vector(py, complex(&x.point.multipliers))),
                ],
            )?
            .into_any(),
        );
    }
    items.push(("codim2", list(py, codim2)?));
    dict(py, items)
}

/// `Basin`: `cells` (int64, shaped by the grid: `(N,)` or `(N, M)`, row-major as the JSON's
/// flat list) and `attractors`: one dict each with `x0`, `u0`, `multipliers`.
pub fn basin_arrays<'py>(py: Python<'py>, r: &BasinResult) -> PyResult<Bound<'py, PyDict>> {
    let cells = match r.grid.axes.as_slice() {
        [a, b] => matrix(py, a.count, b.count, r.cells.clone())?,
        _ => vector(py, r.cells.clone()),
    };
    let mut attractors = Vec::new();
    for a in &r.attractors {
        attractors.push(
            dict(
                py,
                vec![
                    ("x0", vector(py, a.x0.clone())),
                    ("u0", vector(py, a.u0.clone())),
                    ("multipliers", vector(py, complex(&a.multipliers))),
                ],
            )?
            .into_any(),
        );
    }
    dict(
        py,
        vec![("cells", cells), ("attractors", list(py, attractors)?)],
    )
}

/// `Lyapunov`: `exponents` and `per_stride` (float64).
pub fn lyapunov_arrays<'py>(py: Python<'py>, s: &LyapunovSpectrum) -> PyResult<Bound<'py, PyDict>> {
    dict(
        py,
        vec![
            ("exponents", vector(py, s.exponents.clone())),
            ("per_stride", vector(py, s.per_stride.clone())),
        ],
    )
}

/// `Sensitivity`: `impulse_response` (strides × indicators), `u0`, `x0`, and the
/// linearisation `a` (r × r), `b` (r), `c` (indicators × r), `d` (indicators).
pub fn sensitivity_arrays<'py>(
    py: Python<'py>,
    j: &saltation_cli::sensitivity::SensitivityJson,
) -> PyResult<Bound<'py, PyDict>> {
    let l = &j.linearisation;
    dict(
        py,
        vec![
            ("impulse_response", rows(py, &j.impulse_response)?),
            ("u0", vector(py, j.orbit.u0.clone())),
            ("x0", vector(py, j.orbit.x0.clone())),
            ("a", rows(py, &l.a)?),
            ("b", vector(py, l.b.clone())),
            ("c", rows(py, &l.c)?),
            ("d", vector(py, l.d.clone())),
        ],
    )
}

/// `Mfpt`: per level, `roughness` (the standard deviations), `chain_mfpt` (the chain's
/// `1/(1 − λ₂)`), `chain_lambda2`, `chain_expected_steps` (from the nominal orbit),
/// `mc_mean`, `mc_ci` (levels × 2) — float64, NaN where the JSON has no number (an infinite
/// time, no Monte Carlo estimate) or no block (a method that did not run).
pub fn mfpt_arrays<'py>(
    py: Python<'py>,
    j: &saltation_cli::mfpt::MfptJson,
) -> PyResult<Bound<'py, PyDict>> {
    let nan = |v: Option<f64>| v.unwrap_or(f64::NAN);
    let l = &j.levels;
    let chain = |f: &dyn Fn(&saltation_continuation::mfpt::ChainSolution) -> Option<f64>| {
        l.iter()
            .map(|l| nan(l.chain.as_ref().and_then(f)))
            .collect::<Vec<f64>>()
    };
    let ci: Vec<f64> = l
        .iter()
        .flat_map(|l| {
            l.monte_carlo
                .as_ref()
                .and_then(|m| m.ci)
                .unwrap_or([f64::NAN; 2])
        })
        .collect();
    dict(
        py,
        vec![
            ("roughness", vector(py, l.iter().map(|l| l.sd).collect())),
            ("chain_mfpt", vector(py, chain(&|c| c.mfpt))),
            ("chain_lambda2", vector(py, chain(&|c| Some(c.lambda2)))),
            (
                "chain_expected_steps",
                vector(py, chain(&|c| c.expected_steps)),
            ),
            (
                "mc_mean",
                vector(
                    py,
                    l.iter()
                        .map(|l| nan(l.monte_carlo.as_ref().and_then(|m| m.mean)))
                        .collect(),
                ),
            ),
            ("mc_ci", matrix(py, l.len(), 2, ci)?),
        ],
    )
}
