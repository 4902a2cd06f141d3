//! The two-parameter family a curve lives in: a model with two named parameters `(P, P2)`,
//! and its evaluation `F(u, p, p2)` with the exact first derivatives `[F_u, F_p, F_p2]`.
//!
//! `F_p` and `F_p2` come from the one-parameter [`Evaluator`] (exact by the augmented state
//! where the model gives parameter derivatives, central differences otherwise): one evaluator
//! walks `P` with `P2` held, the other walks `P2` with `P` held ([`Line`]); each keeps its own
//! stride workspace for the whole curve.
//!
//! With multiple shooting ([`Plane::set_shooting`]) the unknowns `u` of an evaluation are the
//! lifted `w = (u, s_1, …, s_{S−1})` and `F`, `F_w`, `F_p`, `F_p2` are the matching conditions
//! of module `segments` with their cyclic block Jacobian and exact parameter columns, on one
//! [`SegmentPlan`] kept along the whole curve.

use crate::corrector::{Eval, Evaluator};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::ContinuationOptions;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{param_index, EvalModel, GuardOff, ParamError};
use saltation_orbit::{OrbitOptions, SegmentPlan, Shooting};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A model with two of its parameters, `P` (index 0) and `P2` (index 1), free.
#[derive(Debug, Clone)]
pub struct PlaneFamily<M> {
    model: M,
    k: [usize; 2],
    names: [String; 2],
}

impl<M: EvalModel + Clone + Sync> PlaneFamily<M> {
    /// The family of parameters `p` and `p2` of `model`: an error naming the field (`param`,
    /// `param2`) for an unknown name ([`ParamError::Unknown`] lists the known ones) or for the
    /// same parameter twice.
    pub fn new(model: M, p: &str, p2: &str) -> Result<Self, ContinuationError> {
        let index = |field: &str, name: &str| {
            // An unknown name has no value to show: the model's answer is the reason.
            param_index(&model, name)
                .map_err(|source| ContinuationError::invalid(field, source.to_string()))
        };
        let k = [index("param", p)?, index("param2", p2)?];
        if k[0] == k[1] {
            return Err(ContinuationError::invalid(
                "param2",
                format!("`{p2}` is also the first parameter: a curve needs two parameters"),
            ));
        }
        Ok(Self {
            model,
            k,
            names: [p.to_string(), p2.to_string()],
        })
    }

    /// The model the family was made from.
    pub(crate) fn base_model(&self) -> &M {
        &self.model
    }

    /// The names `[P, P2]`.
    pub fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// The values of `(P, P2)` in the model the family was made from.
    pub fn base_values(&self) -> [f64; 2] {
        [
            self.model.param_value(self.k[0]).unwrap_or(f64::NAN),
            self.model.param_value(self.k[1]).unwrap_or(f64::NAN),
        ]
    }

    /// The model at `(P, P2) = (p, p2)` (checked against both declarations).
    pub fn model_at(&self, p: f64, p2: f64) -> Result<M, ParamError> {
        let mut m = self.model.clone();
        m.set_param_value(self.k[1], p2)?;
        m.set_param_value(self.k[0], p)?;
        Ok(m)
    }

    /// The one-parameter family of `P` (`which = 0`) or `P2` (`which = 1`) with the other held
    /// at `other`.
    pub(crate) fn line(&self, which: usize, other: f64) -> Line<M> {
        Line {
            model: self.model.clone(),
            k: self.k[which],
            other_k: self.k[1 - which],
            other: AtomicU64::new(other.to_bits()),
            off: OnceLock::new(),
        }
    }
}

/// One parameter of a [`PlaneFamily`] varying, the other held at a value that can be moved
/// between evaluations ([`Line::hold`]).
#[derive(Debug)]
pub(crate) struct Line<M> {
    model: M,
    k: usize,
    other_k: usize,
    other: AtomicU64,
    /// The guard `(mode, index)` switched off in its models once a grazing curve of it is
    /// identified ([`saltation_hybrid::GuardOff`]).
    off: OnceLock<(usize, usize)>,
}

impl<M: EvalModel> Line<M> {
    /// The model's reduced dimension `r`.
    pub fn reduced_dim(&self) -> usize {
        self.model.reduced_dim()
    }
}

impl<M> Line<M> {
    /// Holds the other parameter at `value` from now on.
    pub fn hold(&self, value: f64) {
        self.other.store(value.to_bits(), Ordering::Relaxed);
    }
}

impl<M: EvalModel + Clone + Sync> ModelFamily for Line<M> {
    type Model = GuardOff<M>;
    fn model_at(&self, p: f64) -> Result<GuardOff<M>, ParamError> {
        let mut m = self.model.clone();
        m.set_param_value(
            self.other_k,
            f64::from_bits(self.other.load(Ordering::Relaxed)),
        )?;
        m.set_param_value(self.k, p)?;
        Ok(GuardOff {
            model: m,
            off: self.off.get().copied(),
        })
    }
    fn param_index(&self) -> Option<usize> {
        Some(self.k)
    }
}

/// `F`, `[F_u, F_p, F_p2]` and the stride at one `(u, p, p2)` (with multiple shooting: the
/// matching conditions `G`, `[G_w, G_p, G_p2]` and the joined stride at `(w, p, p2)`).
#[derive(Clone)]
pub(crate) struct PlaneEval {
    /// The evaluation in `P` (`f`, `fu`, `fp`, the stride; `segments` with multiple shooting).
    pub e: Eval,
    /// `∂F/∂p2`.
    pub fp2: DVector<f64>,
    /// The reduced dimension `r` (the first `r` unknowns are `u`; all `m` of them with single
    /// shooting).
    pub r: usize,
}

impl PlaneEval {
    /// `F_z = [F_u, F_p, F_p2]` (`m × (m + 2)`, `m` the number of unknowns besides `p`, `p2`).
    pub fn fz(&self) -> DMatrix<f64> {
        let m = self.e.fu.nrows();
        let mut k = DMatrix::zeros(m, m + 2);
        k.view_mut((0, 0), (m, m)).copy_from(&self.e.fu);
        if let Some(fp) = &self.e.fp {
            k.set_column(m, fp);
        }
        k.set_column(m + 1, &self.fp2);
        k
    }
}

/// The two evaluators of a curve's run.
pub(crate) struct Plane<'a, M: EvalModel + Clone + Sync> {
    lines: [&'a Line<M>; 2],
    evs: [Evaluator<'a, Line<M>>; 2],
    /// Each evaluator's orbit options.
    pub orbit: &'a OrbitOptions,
    /// The condition a grazing curve keeps at zero (set once identified).
    pub grazing: Option<super::grazing::GrazingCondition>,
    /// Multiple shooting: the segments of every evaluation ([`Plane::set_shooting`]).
    plan: Option<SegmentPlan>,
}

impl<'a, M: EvalModel + Clone + Sync> Plane<'a, M> {
    /// The evaluators of `lines` (`P` then `P2`) for the `period_k`-fold stride.
    pub fn new(
        lines: [&'a Line<M>; 2],
        orbit: &'a OrbitOptions,
        opts: &'a ContinuationOptions,
        period_k: usize,
    ) -> Result<Self, ContinuationError> {
        Ok(Self {
            lines,
            evs: [
                Evaluator::new(lines[0], orbit, opts, period_k)?,
                Evaluator::new(lines[1], orbit, opts, period_k)?,
            ],
            orbit,
            grazing: None,
            plan: None,
        })
    }

    /// The model's reduced dimension `r`.
    pub fn reduced_dim(&self) -> usize {
        self.lines[0].reduced_dim()
    }

    /// The segments of every evaluation, with multiple shooting.
    pub fn plan(&self) -> Option<&SegmentPlan> {
        self.plan.as_ref()
    }

    /// Sets the shooting of every later evaluation from the orbit `u` at `(p, p2)` and returns
    /// the unknowns there: `u` itself for single shooting; for multiple shooting the stride
    /// from `χ(u)` is cut into segments as `segments` says (the plan kept for the whole curve)
    /// and the unknowns are `w = (u, s_1, …, s_{S−1})` along it.
    pub fn set_shooting(
        &mut self,
        shooting: Shooting,
        u: &[f64],
        p: f64,
        p2: f64,
    ) -> Result<DVector<f64>, ContinuationError> {
        match shooting {
            Shooting::Single => {
                self.plan = None;
                Ok(DVector::from_column_slice(u))
            }
            Shooting::Multiple { segments } => {
                self.lines[0].hold(p2);
                let (plan, w) = self.evs[0].plan(segments, u, p)?;
                self.plan = Some(plan);
                Ok(w)
            }
        }
    }

    /// The model at `(P, P2) = (p, p2)` (with the grazed guard switched off once a guard's
    /// grazing curve is identified, [`Plane::set_grazing`]).
    pub fn model_at(&self, p: f64, p2: f64) -> Result<GuardOff<M>, ParamError> {
        self.lines[0].hold(p2);
        self.lines[0].model_at(p)
    }

    /// Sets the condition the grazing curve keeps at zero; for a guard touched tangentially,
    /// switches that guard off in every model the curve evaluates, so that the orbit and its
    /// clearance `γ` go smoothly through the tangency ([`super::guard_graze`]).
    pub fn set_grazing(&mut self, which: super::grazing::GrazingCondition) {
        if which.guard {
            for line in self.lines {
                let _ = line.off.set((which.mode_index, which.condition_index));
            }
        }
        self.grazing = Some(which);
    }

    /// The evaluator in `P` (with `P2` held where the last evaluation put it).
    pub fn ev(&self) -> &Evaluator<'a, Line<M>> {
        &self.evs[0]
    }

    /// The family of `P` (with `P2` held where the last evaluation put it).
    pub fn line(&self) -> &'a Line<M> {
        self.lines[0]
    }

    /// `F`, `[F_u, F_p, F_p2]` and the stride at `(u, p, p2)` (with multiple shooting `u` is
    /// `w` and the evaluation the matching conditions', see the module documentation).
    pub fn eval(&self, u: &[f64], p: f64, p2: f64) -> Result<PlaneEval, ContinuationError> {
        self.lines[0].hold(p2);
        self.lines[1].hold(p);
        let (e, e2) = match &self.plan {
            None => (
                self.evs[0].eval(u, p, true)?,
                self.evs[1].eval(u, p2, true)?,
            ),
            Some(plan) => (
                self.evs[0].eval_segments(plan, u, p, true)?,
                self.evs[1].eval_segments(plan, u, p2, true)?,
            ),
        };
        let fp2 = e2.fp.ok_or(ContinuationError::Singular { p })?;
        Ok(PlaneEval {
            e,
            fp2,
            r: self.reduced_dim(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::CuspBounce;
    use saltation_hybrid::Bound;

    /// The plane family of the cusp map `F = a + b x − x³` (`x = u − 1`): exact
    /// `F_u = b − 3x²`, `F_a = 1`, `F_b = x`; an unknown or repeated name is an input error
    /// naming its field.
    #[test]
    fn exact_first_derivatives_in_both_parameters() {
        let fam = PlaneFamily::new(Bound::new(CuspBounce), "a", "b").unwrap();
        let [l1, l2] = [fam.line(0, 0.0), fam.line(1, 0.0)];
        let orbit = OrbitOptions::default();
        let opts = ContinuationOptions::default();
        let plane = Plane::new([&l1, &l2], &orbit, &opts, 1).unwrap();
        let (u, a, b) = (1.4, 0.1, 0.3);
        let x: f64 = u - 1.0;
        let pe = plane.eval(&[u], a, b).unwrap();
        assert!((pe.e.f[0] - (a + b * x - x.powi(3))).abs() < 1e-12);
        let fz = pe.fz();
        assert!((fz[(0, 0)] - (b - 3.0 * x * x)).abs() < 1e-11);
        assert!((fz[(0, 1)] - 1.0).abs() < 1e-12);
        assert!((fz[(0, 2)] - x).abs() < 1e-12);
        let field = |e: ContinuationError| e.field().map(str::to_string);
        let e = PlaneFamily::new(Bound::new(CuspBounce), "a", "a").unwrap_err();
        assert_eq!(field(e).as_deref(), Some("param2"));
        let e = PlaneFamily::new(Bound::new(CuspBounce), "zz", "a").unwrap_err();
        assert_eq!(field(e).as_deref(), Some("param"));
    }
}
