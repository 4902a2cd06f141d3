//! Orbit settings from Python keyword arguments: the file's [`OrbitOptions`] with overrides.
//!
//! The overrides are a JSON object in the layout of the file's `orbit` section (`stride`,
//! `newton`, `eigen`, nested as in the file, in serde's JSON form), merged into the file's
//! settings field by field ([`merge`]), then read back with the file's own checks (unknown
//! fields refused by serde, ranges by [`OrbitOptions::validate_for`]). The method is given by
//! name (`"dop853"`, `"ode45"`, …; [`Method::from_name`]). The Python layer turns its shortcuts
//! (`rtol=`, `atol=`, `ftol=`, `xtol=`, `max_iters=`) into this layout.

use crate::errors::{Failure, Outcome};
use saltation_hybrid::EvalModel;
use saltation_ode::Method;
use saltation_orbit::OrbitOptions;
use serde_json::Value;

/// Deep merge: every leaf of `over` replaces the one at its path in `base`; objects merge.
pub fn merge(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

/// Removes the `null` leaves of `v`: serde_json writes a non-finite number as `null`, and the
/// only one the orbit settings can hold is a solver's `h_max = +∞`, its default, which serde's
/// field default restores when the field is absent.
pub fn drop_nulls(v: &mut Value) {
    if let Value::Object(m) = v {
        m.retain(|_, x| !x.is_null());
        m.values_mut().for_each(drop_nulls);
    }
}

/// A method by name, or an `ArgumentError` listing the known names.
pub fn method(name: &str) -> Outcome<Method> {
    Method::from_name(name).ok_or_else(|| {
        Failure::new(
            "ArgumentError",
            format!(
                "method=\"{name}\": unknown method; known: {}",
                Method::names_list()
            ),
        )
    })
}

/// `base` with the overrides `over_json` (a JSON object, may be empty) and the method
/// `method_name`, checked for `model`.
pub fn orbit_options(
    base: &OrbitOptions,
    over_json: Option<&str>,
    method_name: Option<&str>,
    model: &dyn EvalModel,
) -> Outcome<OrbitOptions> {
    let bad = |m: String| Failure::new("ArgumentError", m);
    let mut opts = base.clone();
    if let Some(text) = over_json {
        let over: Value =
            serde_json::from_str(text).map_err(|e| bad(format!("orbit options: {e}")))?;
        if !over.is_object() {
            return Err(bad("orbit options must be a mapping".into()));
        }
        let mut value =
            serde_json::to_value(&opts).map_err(|e| bad(format!("orbit options: {e}")))?;
        drop_nulls(&mut value);
        merge(&mut value, &over);
        opts =
            serde_json::from_value(value).map_err(|e| bad(format!("invalid orbit option: {e}")))?;
    }
    if let Some(name) = method_name {
        opts.stride.method = method(name)?;
    }
    opts.validate_for(model).map_err(|e| bad(e.to_string()))?;
    Ok(opts)
}
