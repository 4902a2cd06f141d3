//! Every built-in model behind one enum: what a RON model file names, and what the CLI runs.
//!
//! In a RON file the model is written as its variant with the parameters inside, e.g.
//! `model: SimplestWalker(gamma: 0.009)`; an unknown model or parameter name is a parse error
//! with line and column.

use crate::equations::EquationModel;
use crate::hopper::{Hopper, HopperUnconstrained};
use crate::{
    BouncingBall, Hires, Monopod, Orego, RimlessWheel, Robertson, RobertsonDae, SimplestWalker,
    VanDerPol, VanDerPolStiff,
};
use saltation_hybrid::{get_param, with_param, Bound, EvalModel, ParamError};

use crate::registry::{Custom, NamedValues, Registry};
use serde::Serialize;

/// One of the built-in models, with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub enum Model {
    /// [`RimlessWheel`].
    RimlessWheel(Bound<RimlessWheel>),
    /// [`SimplestWalker`].
    SimplestWalker(Bound<SimplestWalker>),
    /// [`BouncingBall`].
    BouncingBall(Bound<BouncingBall>),
    /// [`VanDerPol`].
    VanDerPol(Bound<VanDerPol>),
    /// [`Robertson`].
    Robertson(Bound<Robertson>),
    /// [`RobertsonDae`].
    RobertsonDae(Bound<RobertsonDae>),
    /// [`VanDerPolStiff`].
    VanDerPolStiff(Bound<VanDerPolStiff>),
    /// [`Hires`].
    Hires(Bound<Hires>),
    /// [`Orego`].
    Orego(Bound<Orego>),
    /// [`Hopper`]: the constrained four-particle hopper.
    Hopper(Bound<Hopper>),
    /// [`HopperUnconstrained`]: the two-block hopper in minimal coordinates.
    HopperUnconstrained(Bound<HopperUnconstrained>),
    /// [`Monopod`]: the dimensionless monopod on Hunt–Crossley ground (its strategy written
    /// beside the parameters: [`crate::monopod::file_form`]).
    #[serde(with = "crate::monopod::file_form")]
    Monopod(Bound<Monopod>),
    /// A model written as equations in the file ([`EquationModel`]), at the file's values.
    #[serde(with = "crate::equations::in_file")]
    Equations(Bound<EquationModel>),
    /// A model registered by name ([`crate::Registry`]): a user's own Rust model.
    Custom(Custom),
}

/// Runs `$body` with `$m` bound to the variant's model.
macro_rules! each {
    ($self:expr, |$m:ident| $body:expr) => {
        match $self {
            Model::RimlessWheel($m) => $body,
            Model::SimplestWalker($m) => $body,
            Model::BouncingBall($m) => $body,
            Model::VanDerPol($m) => $body,
            Model::Robertson($m) => $body,
            Model::RobertsonDae($m) => $body,
            Model::VanDerPolStiff($m) => $body,
            Model::Hires($m) => $body,
            Model::Orego($m) => $body,
            Model::Hopper($m) => $body,
            Model::HopperUnconstrained($m) => $body,
            Model::Monopod($m) => $body,
            Model::Equations($m) => $body,
            Model::Custom($m) => $body,
        }
    };
}

impl Model {
    /// Names of the built-in models (the RON variant names).
    pub const NAMES: [&'static str; 12] = [
        "RimlessWheel",
        "SimplestWalker",
        "BouncingBall",
        "VanDerPol",
        "Robertson",
        "RobertsonDae",
        "VanDerPolStiff",
        "Hires",
        "Orego",
        "Hopper",
        "HopperUnconstrained",
        "Monopod",
    ];

    /// The model called `name` (one of [`Model::NAMES`]) with its default parameters.
    pub fn with_defaults(name: &str) -> Option<Model> {
        Some(match name {
            "RimlessWheel" => Model::RimlessWheel(Bound::default()),
            "SimplestWalker" => Model::SimplestWalker(Bound::default()),
            "BouncingBall" => Model::BouncingBall(Bound::default()),
            "VanDerPol" => Model::VanDerPol(Bound::default()),
            "Robertson" => Model::Robertson(Bound::default()),
            "RobertsonDae" => Model::RobertsonDae(Bound::default()),
            "VanDerPolStiff" => Model::VanDerPolStiff(Bound::default()),
            "Hires" => Model::Hires(Bound::default()),
            "Orego" => Model::Orego(Bound::default()),
            "Hopper" => Model::Hopper(Bound::default()),
            "HopperUnconstrained" => Model::HopperUnconstrained(Bound::default()),
            "Monopod" => Model::Monopod(Bound::default()),
            _ => return None,
        })
    }

    /// The variant's name (its entry of [`Model::NAMES`], as written in RON files).
    pub fn variant_name(&self) -> &'static str {
        match self {
            Model::RimlessWheel(_) => "RimlessWheel",
            Model::SimplestWalker(_) => "SimplestWalker",
            Model::BouncingBall(_) => "BouncingBall",
            Model::VanDerPol(_) => "VanDerPol",
            Model::Robertson(_) => "Robertson",
            Model::RobertsonDae(_) => "RobertsonDae",
            Model::VanDerPolStiff(_) => "VanDerPolStiff",
            Model::Hires(_) => "Hires",
            Model::Orego(_) => "Orego",
            Model::Hopper(_) => "Hopper",
            Model::HopperUnconstrained(_) => "HopperUnconstrained",
            Model::Monopod(_) => "Monopod",
            Model::Equations(_) => "Equations",
            Model::Custom(_) => "Custom",
        }
    }

    /// A copy with parameter `name` set to `value`, checked against the model's physical
    /// ranges ([`EvalModel::check_params`]).
    pub fn with_param(&self, name: &str, value: f64) -> Result<Model, ParamError> {
        with_param(self, name, value)
    }

    /// Value of parameter `name`.
    pub fn param(&self, name: &str) -> Result<f64, ParamError> {
        get_param(self, name)
    }
}

/// Every method forwards to the variant's model.
impl EvalModel for Model {
    forward_eval!(each);
}

/// An equation model's file form ([`crate::equations::in_file`]) as a type of its own.
struct EquationsForm(Bound<EquationModel>);

impl<'de> serde::Deserialize<'de> for EquationsForm {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        crate::equations::in_file::deserialize(de).map(EquationsForm)
    }
}

/// The monopod's file form ([`crate::monopod::file_form`]) as a type of its own.
struct MonopodForm(Bound<Monopod>);

impl<'de> serde::Deserialize<'de> for MonopodForm {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        crate::monopod::file_form::deserialize(de).map(MonopodForm)
    }
}

/// `Name(parameters…)`: a built-in model, `Equations(…)`, or a model of the registry installed
/// on this thread ([`Registry::install`]). An unknown name is serde's error listing the known
/// ones, at the name.
impl<'de> serde::Deserialize<'de> for Model {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Model;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a model: Name(parameters…)")
            }
            fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Model, A::Error> {
                use serde::de::{Error, VariantAccess};
                let (VariantName(name), v) = data.variant::<VariantName>()?;
                Ok(match name.as_str() {
                    "RimlessWheel" => Model::RimlessWheel(v.newtype_variant()?),
                    "SimplestWalker" => Model::SimplestWalker(v.newtype_variant()?),
                    "BouncingBall" => Model::BouncingBall(v.newtype_variant()?),
                    "VanDerPol" => Model::VanDerPol(v.newtype_variant()?),
                    "Robertson" => Model::Robertson(v.newtype_variant()?),
                    "RobertsonDae" => Model::RobertsonDae(v.newtype_variant()?),
                    "VanDerPolStiff" => Model::VanDerPolStiff(v.newtype_variant()?),
                    "Hires" => Model::Hires(v.newtype_variant()?),
                    "Orego" => Model::Orego(v.newtype_variant()?),
                    "Hopper" => Model::Hopper(v.newtype_variant()?),
                    "HopperUnconstrained" => Model::HopperUnconstrained(v.newtype_variant()?),
                    "Monopod" => Model::Monopod(v.newtype_variant::<MonopodForm>()?.0),
                    "Equations" => Model::Equations(v.newtype_variant::<EquationsForm>()?.0),
                    other => {
                        let registered = Registry::current_names();
                        if !registered.iter().any(|n| n == other) {
                            return Err(A::Error::custom(unknown_variant(other, &registered)));
                        }
                        let values = v.newtype_variant::<NamedValues>()?.0;
                        match Registry::build_current(other, &values) {
                            Some(Ok(m)) => Model::Custom(m),
                            Some(Err(e)) => return Err(A::Error::custom(e)),
                            None => {
                                return Err(A::Error::custom(unknown_variant(other, &registered)))
                            }
                        }
                    }
                })
            }
        }
        /// The built-in names and `Equations`.
        const VARIANTS: [&str; Model::NAMES.len() + 1] = {
            let mut all = [""; Model::NAMES.len() + 1];
            let mut i = 0;
            while i < Model::NAMES.len() {
                all[i] = Model::NAMES[i];
                i += 1;
            }
            all[Model::NAMES.len()] = "Equations";
            all
        };
        de.deserialize_enum("Model", &VARIANTS, V)
    }
}

/// A variant's name, read as an identifier.
struct VariantName(String);

impl<'de> serde::Deserialize<'de> for VariantName {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = VariantName;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a model's name")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<VariantName, E> {
                Ok(VariantName(v.to_string()))
            }
        }
        de.deserialize_identifier(V)
    }
}

/// serde's wording for an unknown variant, listing the built-in and registered names.
fn unknown_variant(name: &str, registered: &[String]) -> String {
    let mut names: Vec<String> = Model::NAMES.iter().map(|n| format!("`{n}`")).collect();
    names.push("`Equations`".into());
    names.extend(registered.iter().map(|n| format!("`{n}`")));
    format!(
        "unknown variant `{name}`, expected one of {}",
        names.join(", ")
    )
}
