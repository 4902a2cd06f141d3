//! Checking and compiling an [`EquationSpec`]: every count, name and expression is checked at
//! load time, and a mistake is a [`LoadError`] that names its place (the field, the item, and
//! the character inside the expression).

pub use super::load_error::{LoadError, Place};
use super::spec::{EquationSpec, ParameterSpec};
use saltation_equations::{
    compile, did_you_mean, is_reserved, is_valid_name, suggest, Definitions, ExprError, Names,
    Program, Site,
};
use saltation_hybrid::{Limit, Param};

/// Largest number of states, parameters, modes, guards or outputs of an equation model.
pub const MAX_ITEMS: usize = 10_000;

/// The compiled programs of a model.
#[derive(Debug)]
pub(crate) struct Compiled {
    /// The parameters declared ([`declare`]).
    pub params: Vec<Param>,
    pub flows: Vec<Program>,
    pub guards_by_mode: Vec<Vec<usize>>,
    pub conditions: Vec<Program>,
    /// Per mode, the indices of its admissibility conditions in the file's `admissible` list.
    pub admissible_by_mode: Vec<Vec<usize>>,
    /// The admissibility conditions' programs, in the file's order.
    pub admissible: Vec<Program>,
    pub enabled: Vec<Option<Program>>,
    pub resets: Vec<Option<Program>>,
    pub targets: Vec<usize>,
    /// Per guard, the index within its mode of the guard its `on_accumulation` names.
    pub on_accumulation: Vec<Option<usize>>,
    pub chart: Option<ChartProgram>,
    pub outputs: Option<Program>,
    pub autonomous: bool,
    /// The forcing period `T(p)` of a time-forced model (`t` is then the state after the
    /// declared ones).
    pub forcing: Option<Program>,
    /// The phase `t₀(p)` of a stroboscopic section: its strobe is the guard numbered after the
    /// file's, in every mode.
    pub strobe: Option<Program>,
    /// Per mode: whether the vector field is affine in the states with constant coefficients
    /// ([`saltation_equations::Program::is_affine_in_state`]), so its `f_x` is constant.
    pub affine: Vec<bool>,
    /// The mode a stride starts in: the target of the section's `after` guard.
    pub section_start: Option<usize>,
    /// The first evaluation of a vector field that gave a non-finite value (for
    /// [`super::EquationModel::non_finite_report`]).
    pub non_finite: std::sync::Mutex<Option<NonFiniteAt>>,
}

/// Where a vector field was evaluated to a non-finite value.
#[derive(Debug, Clone)]
pub(crate) struct NonFiniteAt {
    /// The mode.
    pub mode: usize,
    /// The time.
    pub t: f64,
    /// The state.
    pub x: Vec<f64>,
    /// The parameter values.
    pub p: Vec<f64>,
}

/// The section's chart: the free states' indices (the forcing phase of a time-forced model is
/// index `n`, after the declared states) and `χ(u)` as one program of the free declared states
/// with `t` the phase.
#[derive(Debug)]
pub(crate) struct ChartProgram {
    pub free: Vec<usize>,
    pub program: Program,
}

/// Compiles `expr`, an expression of the parameters only (no state, no time), at `place`.
fn param_program(expr: &str, params: &[String], place: Place) -> Result<Program, LoadError> {
    let names = Names {
        states: &[],
        params,
    };
    let defs = Definitions::new(&[], &names).map_err(|e| LoadError::expr(place.clone(), &e))?;
    let prog = compile(&[expr], &defs, &names).map_err(|e| LoadError::expr(place.clone(), &e))?;
    if prog.uses_time() {
        return Err(LoadError::at(
            place,
            "an expression of the parameters only: it cannot read the time `t`",
        ));
    }
    Ok(prog)
}

/// Refuses a guard, reset, enabling condition or chart that reads `t` in a model without
/// `forcing`: there the time would be unknown (a stride restarts it), so it is refused rather
/// than read as 0.
fn refuse_time(prog: &Program, forced: bool, place: impl Fn() -> Place) -> Result<(), LoadError> {
    if prog.uses_time() && !forced {
        return Err(LoadError::at(
            place(),
            "reads the time `t`, which guards, resets, enabling conditions and charts only know in \
             a time-forced model: declare its period, `forcing: (period: \"2*pi/omega\")` (then \
             `t` is the forcing phase, a state after the declared ones), or write the phase as a \
             state of its own",
        ));
    }
    Ok(())
}

/// "unknown mode `x` (did you mean `y`?)" with the nearest names (the expression language's
/// rule), or "… (known: a, b, c)" when none is near.
fn unknown(what: &str, name: &str, known: &[&str]) -> String {
    let near = suggest(name, known.iter().copied());
    if near.is_empty() {
        format!("unknown {what} `{name}` (known: {})", known.join(", "))
    } else {
        format!("unknown {what} `{name}`{}", did_you_mean(&near))
    }
}

/// Checks a list of names: identifiers, unique, not reserved, not taken by `taken`.
fn check_names(path: &str, names: &[&str], taken: &[&str], nth: usize) -> Result<(), LoadError> {
    if names.len() > MAX_ITEMS {
        return Err(LoadError::at(
            Place::field(path),
            format!("{} entries: at most {MAX_ITEMS}", names.len()),
        ));
    }
    for (i, n) in names.iter().enumerate() {
        let place = || Place::item(path, i, nth);
        if !is_valid_name(n) {
            return Err(LoadError::at(
                place(),
                format!("`{n}` is not a name (letters, digits and _, not starting with a digit)"),
            ));
        }
        if is_reserved(n) {
            return Err(LoadError::at(
                place(),
                format!("`{n}` is reserved (the time, pi or a function)"),
            ));
        }
        if names[..i].contains(n) || taken.contains(n) {
            return Err(LoadError::at(place(), format!("`{n}` is declared twice")));
        }
    }
    Ok(())
}

/// Maps an expression error of the program compiled from the expressions at `place(k)`.
fn expr_error(
    e: &ExprError,
    defs: &[(String, String)],
    place: impl Fn(usize) -> Place,
) -> LoadError {
    match &e.site {
        Site::Output(k) => LoadError::expr(place(*k), e),
        Site::Definition(name) => {
            let k = defs.iter().position(|(n, _)| n == name).unwrap_or(0);
            LoadError::expr(Place::item("let", k, 1), e)
        }
    }
}

/// The declaration of a parameter of the file: its value is the default, `min` and `max` the
/// closed bounds (no words: a value outside is [`saltation_hybrid::ParamError::OutOfBounds`],
/// naming the bounds).
fn declare(p: &ParameterSpec) -> Param {
    let closed = |v: Option<f64>| v.map_or(Limit::None, Limit::Closed);
    Param::named(p.name.clone(), p.value)
        .above(closed(p.min))
        .below(closed(p.max))
}

/// Checks every part of `spec` and compiles it.
pub(crate) fn compile_spec(spec: &EquationSpec) -> Result<Compiled, LoadError> {
    if spec.name.trim().is_empty() {
        return Err(LoadError::at(
            Place::field("name"),
            "the model needs a name",
        ));
    }
    let states: Vec<&str> = spec.states.iter().map(String::as_str).collect();
    if states.is_empty() {
        return Err(LoadError::at(
            Place::field("states"),
            "declare at least one state",
        ));
    }
    check_names("states", &states, &[], 0)?;
    let params: Vec<&str> = spec.parameters.iter().map(|p| p.name.as_str()).collect();
    check_names("parameters", &params, &states, 0)?;
    for (i, p) in spec.parameters.iter().enumerate() {
        let place = || Place::field(format!("parameters[{i}]"));
        for (what, v) in [("value", Some(p.value)), ("min", p.min), ("max", p.max)] {
            if v.is_some_and(|v| !v.is_finite()) {
                return Err(LoadError::at(
                    place(),
                    format!("{what} of `{}` is not finite", p.name),
                ));
            }
        }
        if let (Some(a), Some(b)) = (p.min, p.max) {
            if a > b {
                return Err(LoadError::at(
                    place(),
                    format!("min > max for `{}`", p.name),
                ));
            }
        }
        if p.min.is_some_and(|m| p.value < m) || p.max.is_some_and(|m| p.value > m) {
            return Err(LoadError::at(
                place(),
                format!("value of `{}` is outside its min/max", p.name),
            ));
        }
    }
    let defs = &spec.definitions;
    let def_names: Vec<&str> = defs.iter().map(|(n, _)| n.as_str()).collect();
    let taken: Vec<&str> = states.iter().chain(&params).copied().collect();
    check_names("let", &def_names, &taken, 0)?;
    let names = Names {
        states: &spec.states,
        params: &spec
            .parameters
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>(),
    };
    let definitions = Definitions::new(defs, &names)
        .map_err(|e| expr_error(&e, defs, |k| Place::item("let", k, 1)))?;
    let program = |exprs: &[&str], place: &dyn Fn(usize) -> Place| {
        compile(exprs, &definitions, &names).map_err(|e| expr_error(&e, defs, place))
    };
    let n = states.len();

    // Modes.
    if spec.modes.is_empty() {
        return Err(LoadError::at(
            Place::field("modes"),
            "declare at least one mode",
        ));
    }
    let mode_names: Vec<&str> = spec.modes.iter().map(|m| m.name.as_str()).collect();
    if spec.modes.len() > MAX_ITEMS {
        return Err(LoadError::at(
            Place::field("modes"),
            format!("at most {MAX_ITEMS} modes"),
        ));
    }
    for (i, m) in mode_names.iter().enumerate() {
        if mode_names[..i].contains(m) {
            return Err(LoadError::at(
                Place::field(format!("modes[{i}]")),
                format!("mode `{m}` is declared twice"),
            ));
        }
    }
    let mut flows = Vec::with_capacity(spec.modes.len());
    for (i, m) in spec.modes.iter().enumerate() {
        let path = format!("modes[{i}].flow");
        if m.flow.len() != n {
            return Err(LoadError::at(
                Place::field(&path),
                format!(
                    "mode `{}` has {} expression(s) for {n} state(s) ({})",
                    m.name,
                    m.flow.len(),
                    states.join(", ")
                ),
            ));
        }
        let exprs: Vec<&str> = m.flow.iter().map(String::as_str).collect();
        flows.push(program(&exprs, &|k| Place::item(&path, k, 0))?);
    }
    // A forced model reads its phase, a state, as `t`: it is autonomous in its state, and a
    // mode whose field reads `t` is not affine in it.
    let forced = spec.forcing.is_some();
    let autonomous = forced || flows.iter().all(|p| !p.uses_time());
    let affine = flows
        .iter()
        .map(|p| p.is_affine_in_state() && !(forced && p.uses_time()))
        .collect();
    let forcing = match &spec.forcing {
        None => None,
        Some(f) => {
            let place = || Place::field("forcing.period");
            let prog = param_program(&f.period, names.params, place())?;
            let p: Vec<f64> = spec.parameters.iter().map(|p| p.value).collect();
            let mut out = [0.0];
            prog.eval(0.0, &[], &p, &mut out);
            if !(out[0] > 0.0 && out[0].is_finite()) {
                return Err(LoadError::at(
                    place(),
                    format!(
                        "the period `{}` is {} at the file's parameter values (must be finite \
                         and > 0)",
                        f.period, out[0]
                    ),
                ));
            }
            Some(prog)
        }
    };
    let mode_index = |name: &str, place: Place| {
        mode_names
            .iter()
            .position(|m| *m == name)
            .ok_or_else(|| LoadError::at(place, unknown("mode", name, &mode_names)))
    };

    // Guards.
    if spec.guards.len() > MAX_ITEMS {
        return Err(LoadError::at(
            Place::field("guards"),
            format!("at most {MAX_ITEMS} guards"),
        ));
    }
    let mut guards_by_mode = vec![Vec::new(); spec.modes.len()];
    let (mut conditions, mut enabled, mut resets, mut targets) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (g, gs) in spec.guards.iter().enumerate() {
        let path = |f: &str| format!("guards[{g}].{f}");
        if spec.guards[..g].iter().any(|o| o.name == gs.name) {
            return Err(LoadError::at(
                Place::field(path("name")),
                format!("guard `{}` is declared twice", gs.name),
            ));
        }
        let from = mode_index(&gs.from, Place::field(path("from")))?;
        if gs.failure.is_some() && (gs.to.is_some() || !gs.reset.is_empty()) {
            return Err(LoadError::at(
                Place::field(path("failure")),
                format!(
                    "guard `{}` is a failure (the stride ends there): it has no `to` or `reset`",
                    gs.name
                ),
            ));
        }
        let to = match &gs.to {
            Some(t) => mode_index(t, Place::field(path("to")))?,
            None => from,
        };
        guards_by_mode[from].push(g);
        targets.push(to);
        let when = program(&[gs.when.as_str()], &|_| Place::field(path("when")))?;
        refuse_time(&when, forced, || Place::field(path("when")))?;
        conditions.push(when);
        enabled.push(match &gs.enabled {
            Some(e) => {
                let prog = program(&[e.as_str()], &|_| Place::field(path("enabled")))?;
                refuse_time(&prog, forced, || Place::field(path("enabled")))?;
                Some(prog)
            }
            None => None,
        });
        if gs.reset.is_empty() {
            resets.push(None);
            continue;
        }
        // One expression per state: the listed ones, the others kept.
        let mut exprs: Vec<&str> = states.clone();
        let mut from_pair = vec![usize::MAX; n];
        for (k, (state, e)) in gs.reset.iter().enumerate() {
            let place = Place::item(path("reset"), k, 0);
            let Some(i) = states.iter().position(|s| s == state) else {
                return Err(LoadError::at(place, unknown("state", state, &states)));
            };
            if from_pair[i] != usize::MAX {
                return Err(LoadError::at(
                    place,
                    format!("state `{state}` is reset twice"),
                ));
            }
            from_pair[i] = k;
            exprs[i] = e;
        }
        let reset_path = path("reset");
        let prog = program(&exprs, &|i| {
            Place::item(&reset_path, from_pair.get(i).copied().unwrap_or(0), 1)
        })?;
        refuse_time(&prog, forced, || Place::field(&reset_path))?;
        resets.push(Some(prog));
    }

    // Admissibility conditions.
    if spec.admissible.len() > MAX_ITEMS {
        return Err(LoadError::at(
            Place::field("admissible"),
            format!("at most {MAX_ITEMS} admissibility conditions"),
        ));
    }
    let mut admissible_by_mode = vec![Vec::new(); spec.modes.len()];
    let mut admissible = Vec::with_capacity(spec.admissible.len());
    for (c, cs) in spec.admissible.iter().enumerate() {
        let path = |f: &str| format!("admissible[{c}].{f}");
        let mode = mode_index(&cs.mode, Place::field(path("mode")))?;
        if spec.admissible[..c]
            .iter()
            .any(|o| o.name == cs.name && o.mode == cs.mode)
        {
            return Err(LoadError::at(
                Place::field(path("name")),
                format!(
                    "condition `{}` of mode `{}` is declared twice",
                    cs.name, cs.mode
                ),
            ));
        }
        if cs.name.trim().is_empty() {
            return Err(LoadError::at(
                Place::field(path("name")),
                "a condition needs a name (for messages)",
            ));
        }
        admissible_by_mode[mode].push(c);
        admissible.push(program(&[cs.when.as_str()], &|_| {
            Place::field(path("when"))
        })?);
    }

    // Accumulation continuations: another non-failure guard of the same mode.
    let mut on_accumulation = Vec::with_capacity(spec.guards.len());
    for (g, gs) in spec.guards.iter().enumerate() {
        let Some(name) = &gs.on_accumulation else {
            on_accumulation.push(None);
            continue;
        };
        let place = Place::field(format!("guards[{g}].on_accumulation"));
        let from = mode_index(&gs.from, place.clone())?;
        let same_mode: Vec<&str> = guards_by_mode[from]
            .iter()
            .map(|&k| spec.guards[k].name.as_str())
            .collect();
        let Some(local) = same_mode.iter().position(|n| n == name) else {
            return Err(LoadError::at(
                place,
                unknown(&format!("guard of mode `{}`", gs.from), name, &same_mode),
            ));
        };
        let k = guards_by_mode[from][local];
        if k == g || spec.guards[k].failure.is_some() {
            return Err(LoadError::at(
                place,
                format!(
                    "guard `{name}` cannot take over from `{}`: it must be another guard, not a \
                     failure",
                    gs.name
                ),
            ));
        }
        on_accumulation.push(Some(local));
    }

    // Section.
    let mut section_start = None;
    let mut strobe = None;
    let chart = match &spec.section {
        None => None,
        Some(sec) => {
            match (&sec.after, &sec.stroboscopic) {
                (Some(after), None) => {
                    let Some(g) = spec.guards.iter().position(|gs| &gs.name == after) else {
                        let known: Vec<&str> =
                            spec.guards.iter().map(|g| g.name.as_str()).collect();
                        return Err(LoadError::at(
                            Place::field("section.after"),
                            unknown("guard", after, &known),
                        ));
                    };
                    if spec.guards[g].failure.is_some() {
                        return Err(LoadError::at(
                            Place::field("section.after"),
                            format!("guard `{after}` is a failure: a stride cannot start after it"),
                        ));
                    }
                    section_start = Some(targets[g]);
                }
                (None, Some(st)) => {
                    if !forced {
                        return Err(LoadError::at(
                            Place::field("section.stroboscopic"),
                            "a stroboscopic section is a phase of the forcing: declare the \
                             model's `forcing: (period: …)`, or start strides `after` a guard",
                        ));
                    }
                    let place = Place::field("section.stroboscopic.phase");
                    let prog = param_program(&st.phase, names.params, place.clone())?;
                    let p: Vec<f64> = spec.parameters.iter().map(|p| p.value).collect();
                    let mut out = [0.0];
                    prog.eval(0.0, &[], &p, &mut out);
                    if !out[0].is_finite() {
                        return Err(LoadError::at(
                            place,
                            format!("the phase `{}` is not finite", st.phase),
                        ));
                    }
                    strobe = Some(prog);
                }
                (Some(_), Some(_)) => {
                    return Err(LoadError::at(
                        Place::field("section.stroboscopic"),
                        "give one of `after` (a guard) and `stroboscopic` (a forcing phase), \
                         not both",
                    ))
                }
                (None, None) => {
                    return Err(LoadError::at(
                        Place::field("section"),
                        "say where strides start: `after: \"guard\"`, or for a time-forced \
                         model `stroboscopic: (phase: \"0\")`",
                    ))
                }
            }
            // The forcing phase, a state after the declared ones, is named `t`.
            let phase_name = "t";
            let mut free = Vec::with_capacity(sec.free.len());
            for (k, name) in sec.free.iter().enumerate() {
                let place = Place::item("section.free", k, 0);
                let i = match states.iter().position(|s| s == name) {
                    Some(i) => i,
                    None if forced && name == phase_name => {
                        if strobe.is_some() {
                            return Err(LoadError::at(
                                place,
                                "the forcing phase `t` is fixed on a stroboscopic section: it \
                                 is not a free coordinate",
                            ));
                        }
                        n
                    }
                    None => {
                        let mut known = states.clone();
                        if forced {
                            known.push(phase_name);
                        }
                        return Err(LoadError::at(place, unknown("state", name, &known)));
                    }
                };
                if free.contains(&i) {
                    return Err(LoadError::at(
                        place,
                        format!("state `{name}` is listed twice"),
                    ));
                }
                free.push(i);
            }
            if free.is_empty() {
                return Err(LoadError::at(
                    Place::field("section.free"),
                    "name at least one free state (the reduced coordinates)",
                ));
            }
            if forced && strobe.is_none() && !free.contains(&n) {
                return Err(LoadError::at(
                    Place::field("section.free"),
                    "in a time-forced model the forcing phase `t` at the event is a coordinate \
                     of the section: list it in `free` (or use `stroboscopic: (phase: …)`)",
                ));
            }
            // One expression per state (and the phase, which is `t`: the free coordinate or
            // the stroboscopic phase).
            let outs = if forced { n + 1 } else { n };
            let mut exprs: Vec<&str> = vec![""; outs];
            let mut from_pair = vec![usize::MAX; outs];
            for &i in &free {
                exprs[i] = if i == n { phase_name } else { states[i] };
            }
            if forced {
                exprs[n] = phase_name;
            }
            for (k, (state, e)) in sec.chart.iter().enumerate() {
                let place = Place::item("section.chart", k, 0);
                let Some(i) = states.iter().position(|s| s == state) else {
                    return Err(LoadError::at(place, unknown("state", state, &states)));
                };
                if free.contains(&i) {
                    return Err(LoadError::at(
                        place,
                        format!(
                            "state `{state}` is free on the section: it has no chart expression"
                        ),
                    ));
                }
                if from_pair[i] != usize::MAX {
                    return Err(LoadError::at(
                        place,
                        format!("state `{state}` is given twice"),
                    ));
                }
                from_pair[i] = k;
                exprs[i] = e;
            }
            if let Some(i) = (0..n).find(|&i| exprs[i].is_empty()) {
                return Err(LoadError::at(
                    Place::field("section.chart"),
                    format!(
                        "state `{}` is neither free nor given by the chart (every state is one or the other)",
                        states[i]
                    ),
                ));
            }
            let free_names: Vec<String> = free
                .iter()
                .filter(|&&i| i < n)
                .map(|&i| spec.states[i].clone())
                .collect();
            let chart_names = Names {
                states: &free_names,
                params: names.params,
            };
            let chart_defs = Definitions::new(&[], &chart_names)
                .map_err(|e| LoadError::expr(Place::field("section.chart"), &e))?;
            let program = compile(&exprs, &chart_defs, &chart_names).map_err(|e| {
                let k = match e.site {
                    Site::Output(i) => from_pair.get(i).copied().unwrap_or(0),
                    Site::Definition(_) => 0,
                };
                LoadError::expr(Place::item("section.chart", k, 1), &e)
            })?;
            refuse_time(&program, forced, || Place::field("section.chart"))?;
            Some(ChartProgram { free, program })
        }
    };
    // The strobe: a guard of every mode, after the file's.
    if strobe.is_some() {
        for g in &mut guards_by_mode {
            g.push(spec.guards.len());
        }
    }

    // Outputs.
    let outputs = if spec.outputs.is_empty() {
        None
    } else {
        let out_names: Vec<&str> = spec.outputs.iter().map(|(n, _)| n.as_str()).collect();
        check_names("outputs", &out_names, &[], 0)?;
        // The samples' CSV has the columns t, mode, the states, then the outputs.
        if let Some(k) = out_names
            .iter()
            .position(|n| states.contains(n) || *n == "mode")
        {
            return Err(LoadError::at(
                Place::item("outputs", k, 0),
                format!(
                    "`{}` is already a column of the samples (a state, or `mode`): give the \
                     output a name of its own",
                    out_names[k]
                ),
            ));
        }
        let exprs: Vec<&str> = spec.outputs.iter().map(|(_, e)| e.as_str()).collect();
        Some(program(&exprs, &|k| Place::item("outputs", k, 1))?)
    };

    Ok(Compiled {
        params: spec.parameters.iter().map(declare).collect(),
        flows,
        guards_by_mode,
        conditions,
        admissible_by_mode,
        admissible,
        enabled,
        resets,
        targets,
        on_accumulation,
        chart,
        outputs,
        autonomous,
        forcing,
        strobe,
        affine,
        section_start,
        non_finite: std::sync::Mutex::new(None),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_message_round_trip() {
        let e = LoadError {
            place: Place::item("modes[0].flow", 2, 0),
            offset: Some(7),
            message: "unknown name `gama` (did you mean `gamma`?)".into(),
        };
        assert_eq!(
            LoadError::from_serde_message(&e.to_serde_message()),
            Some(e)
        );
        assert_eq!(LoadError::from_serde_message("plain message"), None);
    }

    #[test]
    fn nearest_names() {
        assert!(unknown("mode", "stanse", &["stance", "flight"]).contains("did you mean `stance`"));
        assert!(unknown("mode", "zzz", &["stance", "flight"]).contains("known: stance, flight"));
    }
}
