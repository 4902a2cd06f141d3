//! The parameter values a result was computed with, repeated in every JSON output so that a
//! saved result says what it is of (`--set` and the file's values applied).

use saltation_hybrid::EvalModel;
use std::collections::BTreeMap;

/// `{name: value}` of every parameter of `model`, as set for the computation.
pub fn params_json<M: EvalModel + ?Sized>(model: &M) -> BTreeMap<String, f64> {
    model
        .param_names()
        .into_iter()
        .enumerate()
        .filter_map(|(k, name)| Some((name, model.param_value(k)?)))
        .collect()
}
