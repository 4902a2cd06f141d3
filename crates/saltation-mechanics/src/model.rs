//! A [`MechanicalSystem`] as a [`EvalModel`]: one mode per set of closed contacts, a
//! touchdown guard on each open contact's gap (inelastic impact), a lift-off guard on each
//! closed contact's multiplier (identity reset).

use crate::cache::Cache;
use crate::constraints::multiplier_index;
use crate::error::MechanicsError;
use crate::kernel::{Mode, Rhs};
use crate::saddle::{impact_velocity, kinetic_energy};
use crate::section::Section;
use crate::system::{self, ContactSet, MechanicalSystem, ParamArg, MAX_CONTACTS};
use crate::work::with_buffer;
use saltation_hybrid::{EvalModel, Guard, ParamError, Scalar};
use serde::{Deserialize, Serialize};

/// How the constrained model is integrated.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConstraintOptions {
    /// Baumgarte rate `ω` (1/time) of the drift control `γ̈ + 2ω γ̇ + ω² γ = 0`; 0 integrates
    /// the plain index-1 form. Default 10: position and velocity drift decay on a time scale
    /// 0.1 while the constraint-consistent motion is unchanged (on `γ = γ̇ = 0` the term
    /// vanishes).
    pub baumgarte: f64,
}

impl Default for ConstraintOptions {
    fn default() -> Self {
        Self { baumgarte: 10.0 }
    }
}

/// The kinetic-energy split of an inelastic impact (Zana et al. 2018, eqs. 28–29): `T` before
/// the impact = `T_a` (admissible, kept: `½ q̇ᵀP_aᵀHP_a q̇`) + `T_c` (constrained, lost:
/// `½ q̇ᵀP_cᵀHP_c q̇`, `P_c = I − P_a`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ImpactEnergy {
    /// Kinetic energy before the impact.
    pub total: f64,
    /// Admissible part `T_a` (after the impact).
    pub admissible: f64,
    /// Lost part `T_c`.
    pub lost: f64,
}

/// A constrained mechanical system with unilateral contacts as a hybrid model. State
/// `x = [q, q̇]`; mode = the [`ContactSet`] of closed contacts. It serialises as its system
/// alone and deserialises through [`Constrained::from_system`] (so a model file names the
/// system's parameters only, and a bad one is a deserialisation error).
#[derive(Debug, Clone, PartialEq)]
pub struct Constrained<S> {
    system: S,
    options: ConstraintOptions,
    section: Option<Section>,
    /// What the system declares constant, computed once.
    cache: Cache,
}

impl<S: MechanicalSystem> Constrained<S> {
    /// Checks the description (contact count, dimensions, options, section) and builds the
    /// model. Without a section the shooting coordinates are the full state.
    pub fn new(
        system: S,
        options: ConstraintOptions,
        section: Option<Section>,
    ) -> Result<Self, MechanicsError> {
        let c = system.contact_count();
        if c > MAX_CONTACTS {
            return Err(MechanicsError::TooManyContacts {
                count: c,
                max: MAX_CONTACTS,
            });
        }
        let n = system.dofs();
        if n == 0 || system.bilateral_count() >= n {
            return Err(MechanicsError::Dimensions {
                dofs: n,
                constraints: system.bilateral_count(),
            });
        }
        if !(options.baumgarte >= 0.0 && options.baumgarte.is_finite()) {
            return Err(MechanicsError::Baumgarte(options.baumgarte));
        }
        if let Some(s) = &section {
            s.validate(&system)?;
        }
        let cache = Cache::new(&system, options.baumgarte);
        Ok(Self {
            system,
            options,
            section,
            cache,
        })
    }
    /// [`Constrained::new`] with the system's own section and options
    /// ([`MechanicalSystem::section`], [`MechanicalSystem::constraint_options`]).
    pub fn from_system(system: S) -> Result<Self, MechanicsError> {
        let (options, section) = (system.constraint_options(), system.section());
        Self::new(system, options, section)
    }
    /// The mechanical system.
    pub fn system(&self) -> &S {
        &self.system
    }
    /// The integration options.
    pub fn options(&self) -> &ConstraintOptions {
        &self.options
    }
    /// The shooting section, if any.
    pub fn section(&self) -> Option<&Section> {
        self.section.as_ref()
    }
    /// Number of coordinates `n` (the state has `2n` components).
    pub fn dofs(&self) -> usize {
        self.system.dofs()
    }
    /// The contact mode `mode` with its cached constant pieces.
    fn mode(&self, mode: usize) -> Mode<'_, S> {
        let closed = ContactSet::from_mode(mode);
        Mode {
            sys: &self.system,
            closed,
            omega: self.options.baumgarte,
            mass: self.cache.mass.as_deref(),
            fixed: self.cache.mode(&self.system, closed),
        }
    }
    /// The contact mode that evaluates at `param`: the cached one for the system's own
    /// parameter values, an uncached one for a parameter given as a scalar.
    fn mode_at<D>(&self, mode: usize, param: &ParamArg<D>) -> Mode<'_, S> {
        match param {
            None => self.mode(mode),
            Some(_) => Mode::uncached(
                &self.system,
                ContactSet::from_mode(mode),
                self.options.baumgarte,
            ),
        }
    }
    /// `z = [q̈; λ]` of `mode` at the real state `x` handed to `f` (`None`: singular
    /// saddle-point matrix); with `jac`, also `f_x` (NaN when singular).
    fn with_solution<R>(
        &self,
        mode: usize,
        x: &[f64],
        mut jac: Option<&mut [f64]>,
        f: impl FnOnce(Option<&[f64]>) -> R,
    ) -> R {
        let n = self.dofs();
        let md = self.mode(mode);
        let (q, v) = x[..2 * n].split_at(n);
        with_buffer(0.0, n + md.active(), |z| {
            match md.solve_real(q, v, z, jac.as_deref_mut()) {
                Ok(()) => f(Some(z)),
                Err(_) => {
                    if let Some(j) = jac {
                        j.fill(f64::NAN);
                    }
                    f(None)
                }
            }
        })
    }
    /// The flow `[q̇, q̈]` of `mode` at the real state `x` (NaN accelerations when singular),
    /// with `f_x` if asked for (NaN when singular).
    fn real_flow(&self, mode: usize, x: &[f64], dx: &mut [f64], mut jac: Option<&mut [f64]>) {
        let n = self.dofs();
        let (q, v) = x[..2 * n].split_at(n);
        let (dq, dv) = dx[..2 * n].split_at_mut(n);
        dq.copy_from_slice(v);
        if self
            .mode(mode)
            .accelerations_real(q, v, dv, jac.as_deref_mut())
            .is_err()
        {
            dv.fill(f64::NAN);
            if let Some(j) = jac {
                j.fill(f64::NAN);
            }
        }
    }
    /// Runs `f` on the real parts of `x` (for a scalar without derivative parts, `f64`).
    fn with_real<D: Scalar, R>(x: &[D], f: impl FnOnce(&[f64]) -> R) -> R {
        with_buffer(0.0, x.len(), |xr| {
            xr.iter_mut().zip(x).for_each(|(a, b)| *a = b.re());
            f(xr)
        })
    }
    /// Multipliers `λ` in `mode` at the state `x` (bilateral first, then the closed contacts);
    /// `None` if the saddle-point matrix is singular.
    pub fn multipliers(&self, mode: usize, x: &[f64]) -> Option<Vec<f64>> {
        let n = self.dofs();
        self.with_solution(mode, x, None, |z| z.map(|z| z[n..].to_vec()))
    }
    /// Multiplier of contact `i` in `mode` (which must have it closed).
    pub fn contact_multiplier(&self, mode: usize, i: usize, x: &[f64]) -> Option<f64> {
        let closed = ContactSet::from_mode(mode);
        let k = multiplier_index(&self.system, closed, i);
        self.multipliers(mode, x).map(|l| l[k])
    }
    /// Residuals of the active constraints of `mode` at `x`: `(max |γ|, max |G q̇|)`.
    pub fn constraint_residual(&self, mode: usize, x: &[f64]) -> (f64, f64) {
        let n = self.dofs();
        let t = crate::constraints::constraint_terms(
            &self.system,
            ContactSet::from_mode(mode),
            &x[..n],
            &x[n..],
        );
        let max = |v: &[f64]| v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        (max(&t.gamma), max(&t.rate))
    }
    /// Energy split of the impact that closes contact `i` from `mode` at the pre-impact state
    /// `x`; `None` if the impact's saddle-point matrix is singular.
    pub fn impact_energy(&self, mode: usize, i: usize, x: &[f64]) -> Option<ImpactEnergy> {
        let n = self.dofs();
        let closed = ContactSet::from_mode(mode).with(i);
        let (q, qd) = x.split_at(n);
        let plus = impact_velocity(&self.system, closed, q, qd).ok()?;
        let lost: Vec<f64> = qd.iter().zip(&plus).map(|(a, b)| a - b).collect();
        Some(ImpactEnergy {
            total: kinetic_energy(&self.system, q, qd),
            admissible: kinetic_energy(&self.system, q, &plus),
            lost: kinetic_energy(&self.system, q, &lost),
        })
    }
}

impl<S: MechanicalSystem> Constrained<S> {
    /// The flow `[q̇, q̈]` of `mode` in any scalar, at the system's own parameter values or at
    /// `param`; a real scalar at the own values takes the allocation-free `f64` path.
    fn flow_at<D: Scalar>(&self, param: ParamArg<D>, mode: usize, x: &[D], dx: &mut [D]) {
        let n = self.system.dofs();
        if D::NDERIV == 0 && param.is_none() {
            return Self::with_real(&x[..2 * n], |xr| {
                with_buffer(0.0, 2 * n, |dxr| {
                    self.real_flow(mode, xr, dxr, None);
                    dx.iter_mut()
                        .zip(dxr.iter())
                        .for_each(|(o, &v)| *o = D::from(v));
                })
            });
        }
        let (q, qd) = x[..2 * n].split_at(n);
        dx[..n].copy_from_slice(qd);
        let md = self.mode_at(mode, &param);
        match md.solve_dual(param, q, qd, Rhs::Accelerations) {
            Ok(z) => dx[n..2 * n].copy_from_slice(&z[..n]),
            Err(_) => dx[n..2 * n].fill(D::from(f64::NAN)),
        }
    }
    /// Guard `j` of `mode` (the gap while open, the multiplier while closed) in any scalar.
    fn guard_at<D: Scalar>(&self, param: ParamArg<D>, mode: usize, j: usize, x: &[D]) -> D {
        let n = self.system.dofs();
        let closed = ContactSet::from_mode(mode);
        if !closed.contains(j) {
            return system::gap(&self.system, param, j, &x[..n]);
        }
        let k = n + multiplier_index(&self.system, closed, j);
        if D::NDERIV == 0 && param.is_none() {
            return Self::with_real(&x[..2 * n], |xr| {
                self.with_solution(mode, xr, None, |z| D::from(z.map_or(f64::NAN, |z| z[k])))
            });
        }
        let (q, qd) = x[..2 * n].split_at(n);
        match self
            .mode_at(mode, &param)
            .solve_dual(param, q, qd, Rhs::Accelerations)
        {
            Ok(z) => z[k],
            Err(_) => D::from(f64::NAN),
        }
    }
    /// Reset of guard `j` of `mode` in any scalar: the impact projection at touchdown, the
    /// identity at lift-off.
    fn reset_at<D: Scalar>(
        &self,
        param: ParamArg<D>,
        mode: usize,
        j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        let n = self.system.dofs();
        out.copy_from_slice(x);
        let closed = ContactSet::from_mode(mode);
        if closed.contains(j) {
            return;
        }
        let (q, qd) = x[..2 * n].split_at(n);
        match self
            .mode_at(closed.with(j).mode(), &param)
            .solve_dual(param, q, qd, Rhs::Impact)
        {
            Ok(v) => out[n..2 * n].copy_from_slice(&v[..n]),
            Err(_) => out[n..2 * n].fill(D::from(f64::NAN)),
        }
    }
}

impl<S: MechanicalSystem> EvalModel for Constrained<S> {
    fn name(&self) -> &str {
        self.system.name()
    }
    fn dim(&self) -> usize {
        2 * self.system.dofs()
    }
    fn modes(&self) -> usize {
        1 << self.system.contact_count()
    }
    fn mode_name(&self, mode: usize) -> String {
        self.system.mode_name(ContactSet::from_mode(mode))
    }
    /// `x' = [q̇, q̈]` with `q̈` from the saddle-point system ([`crate::accelerations`]); a
    /// singular saddle-point matrix (redundant constraints) writes NaN, which the integrator
    /// reports. A real scalar takes the allocation-free `f64` path.
    fn flow<D: Scalar>(&self, mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        self.flow_at(None, mode, x, dx)
    }
    /// `f_x` by implicit differentiation of the saddle-point system (one dual pass over the
    /// varying terms, then a solve on the real factors).
    fn flow_jacobian(&self, mode: usize, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        let n = self.system.dofs();
        with_buffer(0.0, 2 * n, |dx| self.real_flow(mode, x, dx, Some(jac)));
        true
    }
    /// The flow and `f_x` from one factorisation (the flow bit for bit that of
    /// [`EvalModel::flow`]).
    fn flow_and_jacobian(
        &self,
        mode: usize,
        _t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        self.real_flow(mode, x, dx, Some(jac));
        true
    }
    fn flow_time_derivative(&self, _mode: usize, _t: f64, _x: &[f64], dfdt: &mut [f64]) -> bool {
        dfdt.fill(0.0);
        true
    }
    /// One guard per contact: its gap while open, its multiplier while closed.
    fn guards(&self, _mode: usize) -> usize {
        self.system.contact_count()
    }
    fn guard<D: Scalar>(&self, mode: usize, j: usize, x: &[D]) -> D {
        self.guard_at(None, mode, j, x)
    }
    /// Touchdown: the gap falls through zero; lift-off: the multiplier rises through zero.
    fn describe_guard(&self, mode: usize, j: usize) -> Guard<Self> {
        let closed = ContactSet::from_mode(mode);
        if closed.contains(j) {
            Guard::to(closed.without(j).mode()).rising()
        } else {
            Guard::to(closed.with(j).mode()).falling()
        }
    }
    /// Touchdown: positions kept, velocities projected by `P_a` of the new active set
    /// ([`impact_velocity`]); lift-off: identity.
    fn reset<D: Scalar>(&self, mode: usize, j: usize, x: &[D], out: &mut [D]) {
        self.reset_at(None, mode, j, x, out)
    }
    fn state_names(&self) -> Vec<String> {
        let q = self.system.coordinate_names();
        let v: Vec<String> = q.iter().map(|s| format!("d{s}")).collect();
        q.into_iter().chain(v).collect()
    }
    fn check_params(&self) -> Result<(), ParamError> {
        self.system.check_params()
    }
    fn param_names(&self) -> Vec<String> {
        self.system.param_names()
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        self.system.param_value(k)
    }
    /// Sets the system's parameter and recomputes what was derived from it (the constant
    /// structure; the section too when it came from the system).
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        let own_section = self.section == self.system.section();
        let old = self.system.param_value(k);
        self.system.set_param_value(k, value)?;
        let section = if own_section {
            self.system.section()
        } else {
            self.section.clone()
        };
        if let Some(Err(e)) = section.as_ref().map(|s| s.validate(&self.system)) {
            if let Some(old) = old {
                // Back to the value that was valid (checked when it was set).
                let _ = self.system.set_param_value(k, old);
            }
            return Err(ParamError::Rejected {
                name: self
                    .system
                    .param_names()
                    .get(k)
                    .cloned()
                    .unwrap_or_default(),
                value,
                reason: e.to_string(),
            });
        }
        self.section = section;
        self.cache = Cache::new(&self.system, self.options.baumgarte);
        Ok(())
    }
    /// Exact in parameter `k` when the system gives its `*_with_param` functions
    /// ([`MechanicalSystem::param_derivatives`]): the flow, the multipliers (lift-off guards),
    /// the gaps, the impact and the section chart are then differentiated in `p` through the
    /// saddle-point system, without the cached constant pieces (they hold the current value).
    fn param_derivatives(&self, k: usize) -> bool {
        self.system.param_derivatives(k)
    }
    fn flow_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        mode: usize,
        _t: f64,
        x: &[D],
        dx: &mut [D],
    ) {
        self.flow_at(Some((k, p)), mode, x, dx)
    }
    /// `∂f/∂p = [0; ∂q̈/∂p]` by implicit differentiation of the saddle-point system at the
    /// parameter's own value (one dual pass over the system's functions in `p`, one solve on
    /// the real factors); NaN when the saddle-point matrix is singular. In an affine mode
    /// `∂q̈/∂p` is affine in the state as well, and is then evaluated from its cached
    /// coefficients.
    fn flow_param_derivative(
        &self,
        k: usize,
        mode: usize,
        _t: f64,
        x: &[f64],
        dfdp: &mut [f64],
    ) -> bool {
        let Some(p) = self
            .system
            .param_value(k)
            .filter(|_| self.system.param_derivatives(k))
        else {
            return false;
        };
        let n = self.dofs();
        dfdp[..n].fill(0.0);
        let closed = ContactSet::from_mode(mode);
        if let Some(pf) = self.cache.param_flow(&self.system, closed, (k, p)) {
            pf.eval(&x[..2 * n], &mut dfdp[n..2 * n]);
            return true;
        }
        let md = self.mode(mode);
        let (q, v) = x[..2 * n].split_at(n);
        with_buffer(0.0, n + md.active(), |dz| {
            match md.param_derivative((k, p), q, v, dz) {
                Ok(()) => dfdp[n..2 * n].copy_from_slice(&dz[..n]),
                Err(_) => dfdp[n..2 * n].fill(f64::NAN),
            }
        });
        true
    }
    fn guard_with_param<D: Scalar>(&self, k: usize, p: D, mode: usize, j: usize, x: &[D]) -> D {
        self.guard_at(Some((k, p)), mode, j, x)
    }
    fn reset_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        mode: usize,
        j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        self.reset_at(Some((k, p)), mode, j, x, out)
    }
    fn chart_with_param<D: Scalar>(&self, k: usize, p: D, u: &[D], x: &mut [D]) {
        match &self.section {
            Some(s) => s.chart_with_param(&self.system, (k, p), u, x),
            None => x.copy_from_slice(u),
        }
    }
    /// [`crate::check_admissibility`] with its default options.
    fn admissibility(
        &self,
        x0: &[f64],
        opts: &saltation_hybrid::StrideOptions,
    ) -> Option<Result<saltation_hybrid::Admissibility, saltation_hybrid::HybridError>> {
        Some(crate::check_admissibility(
            self,
            x0,
            opts,
            &crate::AdmissibilityOptions::default(),
        ))
    }
    /// Constant when the system declares its mass matrix constant and its constraints and
    /// forces affine (and the mode's saddle-point matrix is regular): the cached `f_x`.
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool {
        self.cache
            .mode(&self.system, ContactSet::from_mode(mode))
            .is_some_and(|c| c.affine.is_some())
    }
    /// A mechanical system's mass matrix, forces and constraints do not depend on time.
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        true
    }
    /// With a section, the multipliers are those of the map on the constraint manifold.
    fn multipliers_on_section(&self) -> bool {
        self.section.is_some()
    }
    fn reduced_dim(&self) -> usize {
        match &self.section {
            Some(s) => 2 * s.independent.len(),
            None => self.dim(),
        }
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        match &self.section {
            Some(s) => s.chart(&self.system, u, x),
            None => x.copy_from_slice(u),
        }
    }
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        match &self.section {
            Some(s) => s.chart_jacobian(&self.system, u, jac),
            None => saltation_hybrid::identity(jac, self.dim()),
        }
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        match &self.section {
            Some(s) => s.project(self.system.dofs(), x, u),
            None => u.copy_from_slice(x),
        }
    }
    fn project_jacobian(&self, _x: &[f64], jac: &mut [f64]) {
        match &self.section {
            Some(s) => s.project_jacobian(self.system.dofs(), jac),
            None => saltation_hybrid::identity(jac, self.dim()),
        }
    }
}

impl<S: Serialize> Serialize for Constrained<S> {
    fn serialize<Ser: serde::Serializer>(&self, s: Ser) -> Result<Ser::Ok, Ser::Error> {
        self.system.serialize(s)
    }
}

impl<'de, S: Deserialize<'de> + MechanicalSystem> Deserialize<'de> for Constrained<S> {
    fn deserialize<De: serde::Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let system = S::deserialize(d)?;
        Constrained::from_system(system).map_err(serde::de::Error::custom)
    }
}
