//! `_Model`: a parsed model file with its parameter overrides, and the computations on it.
//!
//! Each computation releases the GIL (`py.detach`) for all of its work, so Python threads run
//! beside it, and returns the JSON object of the `saltation` command's `--json` output for the
//! same computation (its keys are a public interface), built by the same functions. The class is
//! immutable (`with_params` returns a new one), so one model is shared by threads safely.

use crate::arrays;
use crate::errors::{Failure, Op, Outcome};
use crate::options::{method, orbit_options};
use crate::progress::Reporter;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltation_cli::continuation::{self as cont, Overrides};
use saltation_cli::diagram::{self, DiagramArgs};
use saltation_cli::input::{GuessArgs, LoadedModel, ModelArgs};
use saltation_cli::orbit::{self, OrbitJson};
use saltation_cli::simulate::{self, SimulateArgs};
use saltation_cli::{explain, report, CliError};
use saltation_hybrid::EvalModel;
use saltation_scenario::parse_model_file;
use std::path::PathBuf;

/// A model file, parsed and checked, with its parameter values (internal: use
/// `saltation.Model`).
#[pyclass(name = "_Model", module = "saltation._saltation", frozen)]
pub struct PyModel {
    pub(crate) loaded: LoadedModel,
    /// The model file's text (for basin shard files, which carry it).
    pub(crate) text: String,
    /// The file's own parameter values, `(name, value)` in the model's order.
    pub(crate) base: Vec<(String, f64)>,
}

/// The numeric parameters of a model, `(name, value)` in the model's order.
pub(crate) fn param_items(m: &saltation_models::Model) -> Vec<(String, f64)> {
    m.param_names()
        .into_iter()
        .enumerate()
        .filter_map(|(k, name)| Some((name, m.param_value(k)?)))
        .collect()
}

impl PyModel {
    /// The parameter overrides as the command's `--set NAME=VALUE` arguments: each parameter
    /// whose value differs from the file's, in the model's order (shortest round-trip text,
    /// read back exactly). The same for any history of `with_params` that ends at the same
    /// values.
    pub(crate) fn sets(&self) -> Vec<String> {
        param_items(&self.loaded.file.model)
            .into_iter()
            .zip(&self.base)
            .filter(|((_, v), (_, b))| v.to_bits() != b.to_bits())
            .map(|((n, v), _)| format!("{n}={v}"))
            .collect()
    }
}

/// What `simulate_json` returns: the JSON text, the arrays, and the failure (class name,
/// message) of a run that ended early.
type Simulated<'py> = (String, Bound<'py, PyDict>, Option<(String, String)>);

/// Runs `work` with the GIL released and turns its failure into the Python exception.
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> Outcome<T> + Send,
) -> PyResult<T> {
    py.detach(work).map_err(|f| f.into_pyerr(py))
}

/// Serialises a JSON object (cannot fail for the command's objects; an error is reported, not
/// unwrapped).
pub(crate) fn to_json<T: serde::Serialize>(value: &T, op: Op) -> Outcome<String> {
    serde_json::to_string(value).map_err(|e| Failure::from_cli(&CliError::Json(e), op))
}

/// `ModelArgs` for the argument structs of the command, which the library functions used here
/// do not read (the model is already loaded).
pub(crate) fn no_file() -> ModelArgs {
    ModelArgs {
        file: PathBuf::new(),
        set: Vec::new(),
    }
}

/// Comma-separated values as the command's `--guess`/`--at` take them (shortest round-trip
/// text: the values are read back exactly; NaN and infinities are refused there by name).
pub(crate) fn list(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[pymethods]
impl PyModel {
    /// Parses model-file text; `origin` names it in error messages (`origin:line:column`).
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str, origin: &str) -> PyResult<Self> {
        let text = text.to_string();
        let origin = origin.to_string();
        detached(py, move || {
            let file = parse_model_file(&text, &origin)
                .map_err(|e| Failure::from_cli(&CliError::File(e), Op::Orbit))?;
            let base = param_items(&file.model);
            Ok(PyModel {
                loaded: LoadedModel { path: origin, file },
                text,
                base,
            })
        })
    }

    /// The model's numeric parameters, `[(name, value), …]` in the model's order.
    fn param_items(&self) -> Vec<(String, f64)> {
        param_items(&self.loaded.file.model)
    }

    /// A new model with the parameters set in order (the model's own checks: known name, finite,
    /// in range).
    fn with_params(&self, py: Python<'_>, values: Vec<(String, f64)>) -> PyResult<Self> {
        let mut loaded = self.loaded.clone();
        for (name, value) in values {
            loaded.file.model = loaded
                .file
                .model
                .with_param(&name, value)
                .map_err(|source| {
                    Failure::new("ParamError", format!("{name}={value}: {source}")).into_pyerr(py)
                })?;
        }
        Ok(Self {
            loaded,
            text: self.text.clone(),
            base: self.base.clone(),
        })
    }

    /// The model's name.
    #[getter]
    fn name(&self) -> String {
        self.loaded.file.model.name().to_string()
    }

    /// Where the model came from (a path, or the origin given to `from_str`).
    #[getter]
    fn origin(&self) -> String {
        self.loaded.path.clone()
    }

    /// Names of the state components.
    #[getter]
    fn state_names(&self) -> Vec<String> {
        self.loaded.file.model.state_names()
    }

    /// Names of the modes.
    #[getter]
    fn mode_names(&self) -> Vec<String> {
        let m = &self.loaded.file.model;
        (0..m.modes()).map(|k| m.mode_name(k)).collect()
    }

    /// Number of reduced coordinates of the section (the length of a guess).
    #[getter]
    fn reduced_dim(&self) -> usize {
        self.loaded.file.model.reduced_dim()
    }

    /// The file's guesses, `[(label, u), …]`.
    #[getter]
    fn guesses(&self) -> Vec<(String, Vec<f64>)> {
        let g = &self.loaded.file.guesses;
        g.iter().map(|g| (g.label.clone(), g.u.clone())).collect()
    }

    /// Whether the file has a continuation script.
    #[getter]
    fn has_script(&self) -> bool {
        self.loaded.file.continuation.is_some()
    }

    /// Solves for a periodic orbit: JSON of `saltation orbit --json` and the arrays `x0`
    /// (float64), `multipliers` (complex128). `guess` is reduced coordinates, `label` a guess
    /// of the file by label; neither: the file's first guess. `options` overrides the file's
    /// orbit settings (see `options.rs`).
    #[pyo3(signature = (guess=None, label=None, options=None, method_name=None))]
    fn orbit_json<'py>(
        &self,
        py: Python<'py>,
        guess: Option<Vec<f64>>,
        label: Option<String>,
        options: Option<String>,
        method_name: Option<String>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let loaded = &self.loaded;
        let (json, text) = detached(py, move || {
            let fail = |e: CliError| Failure::from_cli(&explain(e, &loaded.file.model), Op::Orbit);
            loaded.require_forcing().map_err(fail)?;
            let model = &loaded.file.model;
            let opts = orbit_options(
                &loaded.file.orbit,
                options.as_deref(),
                method_name.as_deref(),
                model,
            )?;
            let args = GuessArgs {
                guess: guess.as_deref().map(list),
                guess_label: label,
                all: false,
            };
            let mut guesses = args.select(loaded).map_err(fail)?;
            let g = guesses
                .first_mut()
                .ok_or_else(|| Failure::new("ArgumentError", "no guess"))?;
            if args.guess.is_some() {
                // Named as the Python argument in messages, not as the command's flag.
                g.what = "guess".into();
            }
            let g = &*g;
            let solved = orbit::solve(model, g, &opts).map_err(fail)?;
            let json = OrbitJson::new(model, &solved);
            let text = to_json(&json, Op::Orbit)?;
            Ok((json, text))
        })?;
        let mus: Vec<numpy::Complex64> = (json.multipliers.iter())
            .map(|m| numpy::Complex64::new(m.re, m.im))
            .collect();
        let a = arrays::dict(
            py,
            vec![
                ("x0", arrays::vector(py, json.x0)),
                ("multipliers", arrays::vector(py, mus)),
            ],
        )?;
        Ok((text, a))
    }

    /// Runs the model forward from the file's `initial` section: JSON of `saltation simulate
    /// --json`, the arrays (`t`, `y` states × times, `modes`, `t_events`, `outputs` by name
    /// with NaN where a sample has no value), and the failure (class, message) if the run
    /// ended early.
    #[pyo3(signature = (t_end=None, at=None, method_name=None, rtol=None, atol=None, allow_inadmissible=false))]
    #[allow(clippy::too_many_arguments)]
    fn simulate_json<'py>(
        &self,
        py: Python<'py>,
        t_end: Option<f64>,
        at: Option<Vec<f64>>,
        method_name: Option<String>,
        rtol: Option<f64>,
        atol: Option<f64>,
        allow_inadmissible: bool,
    ) -> PyResult<Simulated<'py>> {
        let loaded = &self.loaded;
        let (json, text, failure) = detached(py, move || {
            if let Some(m) = &method_name {
                method(m)?;
            }
            let args = SimulateArgs {
                model: no_file(),
                method: method_name,
                rtol,
                atol,
                t_end,
                at: at.as_deref().map(list),
                allow_inadmissible,
                json: true,
                out: None,
                plot: None,
            };
            let done = simulate::compute(&args, loaded)
                .map_err(|e| Failure::from_cli(&e, Op::Simulate))?;
            let failure = done.failure.map(|e| {
                let f = Failure::from_cli(&e, Op::Simulate);
                (f.class.to_string(), f.message)
            });
            let text = to_json(&done.json, Op::Simulate)?;
            Ok((done.json, text, failure))
        })?;
        let a = crate::results::simulation_arrays(py, &json)?;
        Ok((text, a, failure))
    }

    /// Runs the file's continuation script (with `param`, `to` replacing the file's): JSON of
    /// `saltation continue --json`. `progress` is called with each event (see `progress.rs`).
    #[pyo3(signature = (param=None, to=None, progress=None))]
    fn continuation_json<'py>(
        &self,
        py: Python<'py>,
        param: Option<String>,
        to: Option<f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let loaded = &self.loaded;
        let reporter = Reporter::new(progress);
        let rep = &reporter;
        let out = detached(py, move || {
            let fail =
                |e: CliError| Failure::from_cli(&explain(e, &loaded.file.model), Op::Continuation);
            loaded.require_forcing().map_err(fail)?;
            let mut spec = cont::continuation_spec(loaded, param.as_deref()).map_err(fail)?;
            cont::apply_to(&mut spec, to);
            let overrides = Overrides {
                param,
                to,
                ..Overrides::default()
            };
            cont::validate(loaded, &spec, &overrides).map_err(fail)?;
            let result =
                cont::compute_with_events(loaded, &spec, &overrides, &mut |e| rep.script_event(e))
                    .map_err(fail)?;
            let text = to_json(
                &report::continuation_json(&loaded.file.model, &result),
                Op::Continuation,
            )?;
            Ok((result, text))
        });
        if let Some(e) = reporter.take_raised() {
            return Err(e);
        }
        let (result, text) = out?;
        Ok((text, crate::results::continuation_arrays(py, &result)?))
    }

    /// The brute-force orbit diagram (the file's `orbit_diagram`, with `param`, `from`, `to`,
    /// `count` replacing its values): JSON of `saltation orbit-diagram --json`.
    #[pyo3(signature = (param=None, from=None, to=None, count=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn orbit_diagram_json<'py>(
        &self,
        py: Python<'py>,
        param: Option<String>,
        from: Option<f64>,
        to: Option<f64>,
        count: Option<usize>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let loaded = &self.loaded;
        let reporter = Reporter::new(progress);
        let rep = &reporter;
        let out = detached(py, move || {
            let fail =
                |e: CliError| Failure::from_cli(&explain(e, &loaded.file.model), Op::Continuation);
            let args = DiagramArgs {
                model: no_file(),
                param,
                from,
                to,
                count,
                out: PathBuf::new(),
                json: true,
                lyapunov: false,
                lyapunov_strides: None,
            };
            let planned = diagram::plan(&args, loaded).map_err(fail)?;
            rep.report((
                "diagram_started",
                vec![(
                    "total",
                    crate::progress::Item::Int(planned.diagram.params().len()),
                )],
            ));
            let columns = diagram::compute(&planned, loaded, &|done, total| {
                rep.report((
                    "diagram",
                    vec![
                        ("done", crate::progress::Item::Int(done)),
                        ("total", crate::progress::Item::Int(total)),
                    ],
                ))
            })
            .map_err(fail)?;
            let text = to_json(
                &report::diagram_json(&loaded.file.model, &planned.param, &columns),
                Op::Continuation,
            )?;
            Ok((columns, text))
        });
        if let Some(e) = reporter.take_raised() {
            return Err(e);
        }
        let (columns, text) = out?;
        Ok((text, crate::results::diagram_arrays(py, &columns)?))
    }
}
