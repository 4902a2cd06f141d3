//! The model registry: named constructors beyond the built-in models, so that a user's own Rust
//! model is written in model files (`model: SlipRunner(alpha: 0.3)`) and runs through every
//! subcommand of the command line (`saltation_cli::main_with(registry)`).
//!
//! A registry maps a name to a prototype: the model at its default parameter values. A file
//! naming a registered model gets a copy of the prototype with the parameters it writes set by
//! name (each checked against its declaration). Loading a file consults the registry installed
//! on the current thread ([`Registry::install`]); the built-in models are always known.

use crate::any::Model;
use saltation_hybrid::{EvalModel, ParamError, SharedModel};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Named constructors of models beyond the built-in ones.
#[derive(Clone, Default)]
pub struct Registry {
    entries: Vec<(String, Box<dyn SharedModel>)>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|(n, _)| n))
            .finish()
    }
}

thread_local! {
    static CURRENT: RefCell<Registry> = RefCell::new(Registry::default());
}

/// A registry entry under a built-in model's name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("`{0}` is the name of a built-in model; register the model under another name")]
pub struct NameTaken(pub String);

/// Puts the previous registry back when dropped ([`Registry::install`]).
#[must_use = "the registry is uninstalled when the guard is dropped"]
pub struct Installed {
    previous: Option<Registry>,
}

impl Drop for Installed {
    fn drop(&mut self) {
        if let Some(p) = self.previous.take() {
            CURRENT.with(|c| *c.borrow_mut() = p);
        }
    }
}

impl Registry {
    /// The built-in models only (they need no entry).
    pub fn builtin() -> Self {
        Self::default()
    }

    /// This registry with `model` (at its default parameter values) under `name`, the name a
    /// model file writes (`name(param: value, …)`). A later entry of the same name replaces an
    /// earlier one; a built-in model's name ([`Model::NAMES`], `Equations`) cannot be taken.
    pub fn with(
        mut self,
        name: &str,
        model: impl SharedModel + 'static,
    ) -> Result<Self, NameTaken> {
        if is_builtin(name) {
            return Err(NameTaken(name.to_string()));
        }
        self.entries.retain(|(n, _)| n != name);
        self.entries.push((name.to_string(), Box::new(model)));
        Ok(self)
    }

    /// The registered names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// Makes this registry the one model files on this thread are read with, until the guard
    /// is dropped.
    pub fn install(&self) -> Installed {
        let previous = CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), self.clone()));
        Installed {
            previous: Some(previous),
        }
    }

    /// The installed registry's model `name` with the given parameter values; `None` if no
    /// model of that name is registered.
    pub(crate) fn build_current(
        name: &str,
        values: &[(String, f64)],
    ) -> Option<Result<Custom, ParamError>> {
        CURRENT.with(|c| {
            let c = c.borrow();
            let (_, proto) = c.entries.iter().find(|(n, _)| n == name)?;
            let mut m = proto.clone();
            Some(set_all(&mut *m, values).map(|()| Custom {
                name: name.to_string(),
                model: m,
            }))
        })
    }

    /// The names registered on this thread.
    pub(crate) fn current_names() -> Vec<String> {
        CURRENT.with(|c| c.borrow().entries.iter().map(|(n, _)| n.clone()).collect())
    }
}

/// Sets each named value (an unknown name is [`ParamError::Unknown`]).
fn set_all(m: &mut (impl EvalModel + ?Sized), values: &[(String, f64)]) -> Result<(), ParamError> {
    let names = m.param_names();
    for (name, v) in values {
        let k = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| ParamError::Unknown {
                name: name.clone(),
                known: names.clone(),
            })?;
        m.set_param_value(k, *v)?;
    }
    Ok(())
}

/// A registered model read from a file: its registered name and the model.
#[derive(Clone)]
pub struct Custom {
    /// The name it is registered (and written in files) under.
    pub name: String,
    /// The model at the file's parameter values.
    pub model: Box<dyn SharedModel>,
}

impl std::fmt::Debug for Custom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let values: Vec<(String, Option<f64>)> = (0..self.model.param_names().len())
            .map(|k| {
                (
                    self.model.param_names()[k].clone(),
                    self.model.param_value(k),
                )
            })
            .collect();
        f.debug_struct("Custom")
            .field("name", &self.name)
            .field("params", &values)
            .finish()
    }
}

impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        let values = |m: &Custom| -> Vec<Option<f64>> {
            (0..m.model.param_names().len())
                .map(|k| m.model.param_value(k))
                .collect()
        };
        self.name == other.name && values(self) == values(other)
    }
}

/// The parameters by name.
impl serde::Serialize for Custom {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let names = self.model.param_names();
        let map: BTreeMap<&str, f64> = names
            .iter()
            .enumerate()
            .filter_map(|(k, n)| Some((n.as_str(), self.model.param_value(k)?)))
            .collect();
        map.serialize(s)
    }
}

/// `(name: value, …)` of a registered model, in the file's order.
pub(crate) struct NamedValues(pub Vec<(String, f64)>);

impl<'de> serde::Deserialize<'de> for NamedValues {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = NamedValues;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the model's parameters by name")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<NamedValues, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    out.push((k, map.next_value::<saltation_equations::Number>()?.0));
                }
                Ok(NamedValues(out))
            }
        }
        de.deserialize_struct("Params", &[], V)
    }
}

/// Runs `$body` with `$m` bound to the registered model.
macro_rules! boxed {
    ($self:expr, |$m:ident| $body:expr) => {{
        let Custom { model: $m, .. } = $self;
        $body
    }};
}

/// Every method forwards to the registered model.
impl EvalModel for Custom {
    forward_eval!(boxed);
}

/// Whether `name` is a built-in model's.
pub(crate) fn is_builtin(name: &str) -> bool {
    Model::NAMES.contains(&name) || name == "Equations"
}
