//! The figure of `saltation simulate --out`: what is plotted ([`Plotted`], chosen by name with
//! [`choose_plot`], as `--plot` does) and the stacked panels, one per variable against time
//! with the events marked ([`simulation_figure`]).

use super::simulation::SimulationJson;
use super::state_name;
use saltation_hybrid::EvalModel;
use saltation_models::Model;
use saltation_plot::{Panels, Series, TimeSeries};

/// Most panels of one simulation figure (more would leave each a few pixels high).
pub const MAX_PANELS: usize = 16;

/// A variable of a simulation figure: one panel each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plotted {
    /// State component `i` (its name from the model).
    State(usize),
    /// A named output of an equation model (left out of a sample, a gap in the curve, where
    /// it is not finite).
    Output(String),
    /// The mode index, a step function jumping at the events.
    Mode,
}

/// Why a `--plot` list was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlotChoiceError {
    /// A name that is no state, output or `mode` of the model.
    #[error("`{name}` is not a state, an output or `mode` of this model{hint}; known: {known}")]
    Unknown {
        /// The name as given.
        name: String,
        /// ` (did you mean …?)` with the nearest names, or empty.
        hint: String,
        /// The names that can be plotted (the list cut short after 20).
        known: String,
    },
    /// The same variable twice.
    #[error("`{name}` is listed twice")]
    Duplicate {
        /// The name.
        name: String,
    },
    /// An empty list, or an empty name in it.
    #[error("an empty name: give state names, output names or `mode`, separated by commas")]
    Empty,
    /// More than [`MAX_PANELS`] names.
    #[error("{count} variables: a figure takes at most {MAX_PANELS} panels")]
    TooMany {
        /// Names given.
        count: usize,
    },
}

/// The names an equation model's outputs go by (none for the other models).
pub fn output_names(model: &Model) -> Vec<String> {
    match model {
        Model::Equations(m) => {
            let x = vec![0.0; model.dim()];
            m.model()
                .outputs(m.values(), 0.0, &x)
                .into_iter()
                .map(|(name, _)| name)
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Every name [`choose_plot`] accepts: the states, the outputs, then `mode`.
pub fn plot_names(model: &Model) -> Vec<String> {
    let mut names: Vec<String> = (0..model.dim()).map(|i| state_name(model, i)).collect();
    names.extend(output_names(model));
    names.push("mode".to_string());
    names
}

/// The variables named in `list` (comma-separated: state names, output names of an equation
/// model, `mode`; a state wins over an output of the same name), in the order given.
pub fn choose_plot(model: &Model, list: &str) -> Result<Vec<Plotted>, PlotChoiceError> {
    let states: Vec<String> = (0..model.dim()).map(|i| state_name(model, i)).collect();
    let outputs = output_names(model);
    let wanted: Vec<&str> = list.split(',').map(str::trim).collect();
    if wanted.len() > MAX_PANELS {
        return Err(PlotChoiceError::TooMany {
            count: wanted.len(),
        });
    }
    let mut chosen = Vec::with_capacity(wanted.len());
    for name in wanted {
        if name.is_empty() {
            return Err(PlotChoiceError::Empty);
        }
        let v = if let Some(i) = states.iter().position(|s| s == name) {
            Plotted::State(i)
        } else if outputs.iter().any(|o| o == name) {
            Plotted::Output(name.to_string())
        } else if name == "mode" {
            Plotted::Mode
        } else {
            let all = plot_names(model);
            let near = saltation_equations::suggest(name, all.iter().map(String::as_str));
            let mut known: Vec<&str> = all.iter().map(String::as_str).take(20).collect();
            if all.len() > 20 {
                known.push("…");
            }
            return Err(PlotChoiceError::Unknown {
                name: short(name),
                hint: saltation_equations::did_you_mean(&near),
                known: known.join(", "),
            });
        };
        if chosen.contains(&v) {
            return Err(PlotChoiceError::Duplicate {
                name: name.to_string(),
            });
        }
        chosen.push(v);
    }
    Ok(chosen)
}

/// At most 40 characters of a name, for a message.
fn short(name: &str) -> String {
    if name.chars().count() > 40 {
        let head: String = name.chars().take(39).collect();
        format!("{head}…")
    } else {
        name.to_string()
    }
}

/// The default choice: every state, or the first [`MAX_PANELS`] of a larger state.
pub fn default_plot(model: &Model) -> Vec<Plotted> {
    (0..model.dim().min(MAX_PANELS))
        .map(Plotted::State)
        .collect()
}

/// One panel per variable of `plot` (`None`: [`default_plot`], the title then saying when
/// states were left out), each against time, the events as vertical lines in every panel; a
/// logarithmic time axis when the samples span more than four decades of positive times
/// (e.g. Robertson's problem).
pub fn simulation_figure(j: &SimulationJson, model: &Model, plot: Option<&[Plotted]>) -> Panels {
    let name = model.name().replace('_', " ");
    let default;
    let (plot, left_out) = match plot {
        Some(p) => (p, 0),
        None => {
            default = default_plot(model);
            (&default[..], model.dim() - default.len())
        }
    };
    let mut title = format!("{name}: simulation ({}", j.method);
    if !j.exact_affine_modes.is_empty() {
        // The method did not integrate these modes: say so where the figure is read.
        title.push_str(&format!(
            "; {} stepped exactly",
            j.exact_affine_modes.join(", ")
        ));
    }
    title.push(')');
    if left_out > 0 {
        title.push_str(&format!(
            ", first {} of {} states (--plot chooses)",
            plot.len(),
            model.dim()
        ));
    }
    let mut fig = Panels::new(title, "t");
    let positive = j.samples.iter().filter(|p| p.t > 0.0).count();
    let (lo, hi) = j
        .samples
        .iter()
        .map(|p| p.t)
        .filter(|&t| t > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(a, b), t| (a.min(t), b.max(t)));
    fig.log_x = hi / lo > 1e4 && positive == j.samples.len();
    // An event records the state before and after the reset at the same time: the curve
    // breaks there (a NaN between the two) instead of drawing the jump as a vertical line.
    let breaks: Vec<bool> = (0..j.samples.len())
        .map(|k| k > 0 && j.samples[k].t == j.samples[k - 1].t)
        .collect();
    let with_breaks = |v: Vec<f64>| -> Vec<f64> {
        let mut out = Vec::with_capacity(v.len() + j.events.len());
        for (k, y) in v.into_iter().enumerate() {
            if breaks[k] {
                out.push(f64::NAN);
            }
            out.push(y);
        }
        out
    };
    let t = with_breaks(j.samples.iter().map(|p| p.t).collect());
    let events: Vec<f64> = j.events.iter().map(|e| e.t).collect();
    for v in plot {
        let (label, y): (String, Vec<f64>) = match v {
            Plotted::State(i) => (
                state_name(model, *i),
                j.samples
                    .iter()
                    .map(|p| p.x.get(*i).copied().unwrap_or(f64::NAN))
                    .collect(),
            ),
            Plotted::Output(name) => (
                name.clone(),
                j.samples
                    .iter()
                    .map(|p| p.outputs.get(name).copied().unwrap_or(f64::NAN))
                    .collect(),
            ),
            Plotted::Mode => (
                "mode".to_string(),
                j.samples.iter().map(|p| p.mode as f64).collect(),
            ),
        };
        let mut panel =
            TimeSeries::new("", "", label).with_series(Series::new("", t.clone(), with_breaks(y)));
        if !events.is_empty() {
            panel = panel.with_events("events", events.iter().copied());
        }
        fig = fig.with_panel(panel);
    }
    fig
}

/// Height of the figure for `panels` panels: at least `base`, and about 250 pixels a panel
/// (capped at the largest size a figure may have).
pub fn figure_height(base: u32, panels: usize) -> u32 {
    let wanted = 120 + 250 * panels.min(MAX_PANELS) as u32;
    base.max(wanted).min(8192)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::{EventJson, SampleJson, StatsJson};
    use std::collections::BTreeMap;

    /// A ball as equations with one output, `2*x`.
    fn ball() -> Model {
        let text = r#"(model: Equations(name: "b", states: ["x", "v"],
            parameters: [(name: "g", value: 9.81)],
            outputs: [("twice", "2*x")],
            modes: [(name: "fly", flow: ["v", "-g"])],
            guards: [(name: "hit", from: "fly", when: "x", direction: Falling, reset: [("v", "-v")])]))"#;
        saltation_scenario::parse_model_file(text, "ball.ron")
            .unwrap()
            .model
    }

    fn sample(t: f64, x: f64, mode: usize) -> SampleJson {
        SampleJson {
            t,
            x: vec![x, -x],
            mode,
            outputs: BTreeMap::from([("twice".to_string(), 2.0 * x)]),
        }
    }

    /// Four samples, the middle two both at the event at t = 1.
    fn run() -> SimulationJson {
        SimulationJson {
            method: "dop853".into(),
            params: BTreeMap::new(),
            exact_affine_modes: Vec::new(),
            t_end: 2.0,
            x_end: vec![0.5, -0.5],
            mode_end: 0,
            samples: vec![
                sample(0.0, 1.0, 0),
                sample(1.0, 0.0, 0),
                sample(1.0, 0.0, 0),
                sample(2.0, 0.5, 0),
            ],
            events: vec![EventJson {
                t: 1.0,
                guard: 0,
                from: 0,
                to: 0,
            }],
            stats: StatsJson {
                rhs_evals: 0,
                jacobian_evals: 0,
                lu_decompositions: 0,
                steps: 0,
                rejected_steps: 0,
            },
            wall_s: 0.0,
            error: None,
        }
    }

    #[test]
    fn names_resolve_to_states_outputs_and_the_mode_in_order() {
        let m = ball();
        assert_eq!(plot_names(&m), ["x", "v", "twice", "mode"]);
        assert_eq!(
            choose_plot(&m, "mode, twice,x"),
            Ok(vec![
                Plotted::Mode,
                Plotted::Output("twice".into()),
                Plotted::State(0)
            ])
        );
        match choose_plot(&m, "twcie") {
            Err(PlotChoiceError::Unknown { name, hint, known }) => {
                assert_eq!(name, "twcie");
                assert!(hint.contains("`twice`"), "{hint}");
                assert_eq!(known, "x, v, twice, mode");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            choose_plot(&m, "v,v"),
            Err(PlotChoiceError::Duplicate { name: "v".into() })
        );
        assert_eq!(choose_plot(&m, "x,,v"), Err(PlotChoiceError::Empty));
        let many = vec!["x"; MAX_PANELS + 1].join(",");
        assert_eq!(
            choose_plot(&m, &many),
            Err(PlotChoiceError::TooMany {
                count: MAX_PANELS + 1
            })
        );
        assert_eq!(default_plot(&m), [Plotted::State(0), Plotted::State(1)]);
    }

    #[test]
    fn one_panel_per_variable_with_the_events_and_a_break_at_the_reset() {
        let m = ball();
        let j = run();
        let plot = [
            Plotted::Output("twice".into()),
            Plotted::Mode,
            Plotted::State(1),
        ];
        let fig = simulation_figure(&j, &m, Some(&plot));
        let labels: Vec<&str> = fig.panels.iter().map(|p| p.y_label.as_str()).collect();
        assert_eq!(labels, ["twice", "mode", "v"]);
        assert_eq!(fig.title, "b: simulation (dop853)");
        let mut exact = run();
        exact.exact_affine_modes = vec!["fly".into()];
        let fig2 = simulation_figure(&exact, &m, Some(&plot));
        assert_eq!(fig2.title, "b: simulation (dop853; fly stepped exactly)");
        assert_eq!(fig.shared_x_range(), Some((0.0, 2.0)));
        for p in &fig.panels {
            assert_eq!(p.events, [1.0]);
            assert_eq!(p.series.len(), 1);
            // The two samples at the event are split by a gap (NaN) in both coordinates.
            let s = &p.series[0];
            assert_eq!(s.x.len(), 5);
            assert!(s.x[2].is_nan() && s.y[2].is_nan());
        }
        let twice: Vec<f64> = fig.panels[0].series[0].y.clone();
        assert_eq!(
            [twice[0], twice[1], twice[3], twice[4]],
            [2.0, 0.0, 0.0, 1.0]
        );
        // The default: every state.
        let fig = simulation_figure(&j, &m, None);
        let labels: Vec<&str> = fig.panels.iter().map(|p| p.y_label.as_str()).collect();
        assert_eq!(labels, ["x", "v"]);
        assert_eq!(figure_height(700, 2), 700);
        assert_eq!(figure_height(700, 5), 1370);
        assert_eq!(figure_height(700, 100), 120 + 250 * MAX_PANELS as u32);
    }
}
