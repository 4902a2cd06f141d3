//! A [`MechanicalSystem`] as a [`HybridModel`]: one mode per set of closed contacts, a
//! touchdown guard on each open contact's gap (inelastic impact), a lift-off guard on each
//! closed contact's multiplier (identity reset). The parameter values `p` are passed through
//! to the system's formulas; what the system declares constant is computed once per parameter
//! vector ([`crate::cache`]). A [`saltation_hybrid::Bound`] of it is what the stride map,
//! orbits and continuation evaluate.

use crate::cache::{Cache, CacheSlot};
use crate::constraints::multiplier_index;
use crate::error::MechanicsError;
use crate::kernel::{Mode, Rhs};
use crate::saddle::{impact_velocity, kinetic_energy};
use crate::section::Section;
use crate::system::{ContactSet, MechanicalSystem, MAX_CONTACTS};
use crate::work::with_buffer;
use saltation_hybrid::{
    AffineModes, FlowJacobian, FlowParamDerivative, GuardSpec, HybridModel, Param, ParamError,
    Scalar, SectionJacobians, ViolationKind,
};
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

/// A guard of a constrained model: one per contact and mode, in contact order, its kind set by
/// whether the mode has the contact open or closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContactGuard {
    /// Contact `i` is open: its gap falls through zero, and a perfectly inelastic impact
    /// closes it.
    Touchdown(usize),
    /// Contact `i` is closed: its multiplier rises through zero (the ground would have to
    /// pull), and it opens with the state unchanged.
    LiftOff(usize),
}

impl ContactGuard {
    /// The contact the guard belongs to.
    pub fn contact(self) -> usize {
        match self {
            ContactGuard::Touchdown(i) | ContactGuard::LiftOff(i) => i,
        }
    }
}

/// A constrained mechanical system with unilateral contacts as a hybrid model (its equations:
/// the parameter values live beside it, in a [`saltation_hybrid::Bound`]). State
/// `x = [q, q̇]`; mode = the [`ContactSet`] of closed contacts; the parameters are the
/// system's ([`MechanicalSystem::params`]).
#[derive(Debug, Clone)]
pub struct Constrained<S> {
    system: S,
    options: ConstraintOptions,
    section: Option<Section>,
    /// The guards of every mode: one per contact, in contact order.
    guards: Vec<Vec<ContactGuard>>,
    /// What the system declares constant, at the parameter values last evaluated at.
    cache: CacheSlot,
}

/// Two models are equal when their systems, options and sections are (whatever their caches).
impl<S: PartialEq> PartialEq for Constrained<S> {
    fn eq(&self, other: &Self) -> bool {
        self.system == other.system
            && self.options == other.options
            && self.section == other.section
    }
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
        let guards = (0..1usize << c)
            .map(|mode| {
                let closed = ContactSet::from_mode(mode);
                (0..c)
                    .map(|i| {
                        if closed.contains(i) {
                            ContactGuard::LiftOff(i)
                        } else {
                            ContactGuard::Touchdown(i)
                        }
                    })
                    .collect()
            })
            .collect();
        let defaults = saltation_hybrid::param::defaults(system.params());
        let cache = CacheSlot::new(&system, options.baumgarte, &defaults);
        Ok(Self {
            system,
            options,
            section,
            guards,
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
    /// Runs `f` with the constant pieces at the parameter values `p` (their real parts).
    fn with_cache<D: Scalar, R>(&self, p: &[D], f: impl FnOnce(&Cache) -> R) -> R {
        self.cache.with(&self.system, p, f)
    }
    /// The contact mode `mode` with the constant pieces of `cache` (at its parameter values).
    fn mode<'c>(&'c self, cache: &'c Cache, mode: usize) -> Mode<'c, S> {
        let closed = ContactSet::from_mode(mode);
        Mode {
            sys: &self.system,
            p: cache.values(),
            closed,
            omega: self.options.baumgarte,
            mass: cache.mass.as_deref(),
            fixed: cache.mode(&self.system, closed),
        }
    }
    /// `z = [q̈; λ]` of `mode` at the parameter values of `cache` and the real state `x`
    /// handed to `f` (`None`: singular saddle-point matrix); with `jac`, also `f_x` (NaN when
    /// singular).
    fn with_solution<R>(
        &self,
        cache: &Cache,
        mode: usize,
        x: &[f64],
        mut jac: Option<&mut [f64]>,
        f: impl FnOnce(Option<&[f64]>) -> R,
    ) -> R {
        let n = self.dofs();
        let md = self.mode(cache, mode);
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
    /// The flow `[q̇, q̈]` of `mode` at the parameter values of `cache` and the real state `x`
    /// (NaN accelerations when singular), with `f_x` if asked for (NaN when singular).
    fn real_flow(
        &self,
        cache: &Cache,
        mode: usize,
        x: &[f64],
        dx: &mut [f64],
        mut jac: Option<&mut [f64]>,
    ) {
        let n = self.dofs();
        let (q, v) = x[..2 * n].split_at(n);
        let (dq, dv) = dx[..2 * n].split_at_mut(n);
        dq.copy_from_slice(v);
        if self
            .mode(cache, mode)
            .accelerations_real(q, v, dv, jac.as_deref_mut())
            .is_err()
        {
            dv.fill(f64::NAN);
            if let Some(j) = jac {
                j.fill(f64::NAN);
            }
        }
    }
    /// `z = [q̈; λ]` (or the impact's `[q̇⁺; Λ]`) of `mode` in any scalar, at the parameter
    /// values `p` in that scalar: the saddle-point pieces afresh, the factors of `K` cached.
    fn solve_dual<D: Scalar>(
        &self,
        p: &[D],
        mode: usize,
        x: &[D],
        rhs: Rhs,
    ) -> Result<Vec<D>, saltation_hybrid::SingularMatrix> {
        let n = self.dofs();
        let (q, qd) = x[..2 * n].split_at(n);
        self.with_cache(p, |cache| self.mode(cache, mode).solve_dual(p, q, qd, rhs))
    }
    /// Multipliers `λ` in `mode` at the parameter values `p` and the state `x` (bilateral
    /// first, then the closed contacts); `None` if the saddle-point matrix is singular.
    pub fn multipliers(&self, p: &[f64], mode: usize, x: &[f64]) -> Option<Vec<f64>> {
        let n = self.dofs();
        self.with_cache(p, |cache| {
            self.with_solution(cache, mode, x, None, |z| z.map(|z| z[n..].to_vec()))
        })
    }
    /// Multiplier of contact `i` in `mode` (which must have it closed) at `p` and `x`.
    pub fn contact_multiplier(&self, p: &[f64], mode: usize, i: usize, x: &[f64]) -> Option<f64> {
        let closed = ContactSet::from_mode(mode);
        let k = multiplier_index(&self.system, closed, i);
        self.multipliers(p, mode, x).map(|l| l[k])
    }
    /// Residuals of the active constraints of `mode` at `p` and `x`: `(max |γ|, max |G q̇|)`.
    pub fn constraint_residual(&self, p: &[f64], mode: usize, x: &[f64]) -> (f64, f64) {
        let n = self.dofs();
        let t = crate::constraints::constraint_terms(
            &self.system,
            p,
            ContactSet::from_mode(mode),
            &x[..n],
            &x[n..],
        );
        let max = |v: &[f64]| v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        (max(&t.gamma), max(&t.rate))
    }
    /// Energy split of the impact that closes contact `i` from `mode` at the parameter values
    /// `p` and the pre-impact state `x`; `None` if the impact's saddle-point matrix is
    /// singular.
    pub fn impact_energy(
        &self,
        p: &[f64],
        mode: usize,
        i: usize,
        x: &[f64],
    ) -> Option<ImpactEnergy> {
        let n = self.dofs();
        let closed = ContactSet::from_mode(mode).with(i);
        let (q, qd) = x.split_at(n);
        let plus = impact_velocity(&self.system, p, closed, q, qd).ok()?;
        let lost: Vec<f64> = qd.iter().zip(&plus).map(|(a, b)| a - b).collect();
        Some(ImpactEnergy {
            total: kinetic_energy(&self.system, p, q, qd),
            admissible: kinetic_energy(&self.system, p, q, &plus),
            lost: kinetic_energy(&self.system, p, q, &lost),
        })
    }
    /// Whether every mode's flow is affine in the state: the system declares its mass matrix
    /// constant and its constraints and forces affine.
    fn affine(&self) -> bool {
        let s = &self.system;
        s.mass_matrix_is_constant() && s.constraints_are_linear() && s.forces_are_linear()
    }
}

/// The real parts of the state `x` and `extra` scratch reals handed to `f`, in one buffer on
/// the stack for small systems (the `f64` paths run at every integration stage and
/// event-location step).
#[inline]
fn with_real_state<D: Scalar, R>(
    x: &[D],
    extra: usize,
    f: impl FnOnce(&[f64], &mut [f64]) -> R,
) -> R {
    with_buffer(0.0, x.len() + extra, |w| {
        let (xr, scratch) = w.split_at_mut(x.len());
        xr.iter_mut().zip(x).for_each(|(a, b)| *a = b.re());
        f(xr, scratch)
    })
}

impl<S: MechanicalSystem + Clone> HybridModel for Constrained<S> {
    type Guard = ContactGuard;
    fn name(&self) -> &str {
        self.system.name()
    }
    fn dim(&self) -> usize {
        2 * self.system.dofs()
    }
    fn params(&self) -> &[Param] {
        self.system.params()
    }
    fn check_params(&self, p: &[f64]) -> Result<(), ParamError> {
        self.system.check_params(p)
    }
    fn modes(&self) -> usize {
        1 << self.system.contact_count()
    }
    fn mode_name(&self, mode: usize) -> String {
        self.system.mode_name(ContactSet::from_mode(mode))
    }
    fn state_names(&self) -> Vec<String> {
        let q = self.system.coordinate_names();
        let v: Vec<String> = q.iter().map(|s| format!("d{s}")).collect();
        q.into_iter().chain(v).collect()
    }
    /// A mechanical system's mass matrix, forces and constraints do not depend on time.
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    /// `x' = [q̇, q̈]` with `q̈` from the saddle-point system ([`crate::accelerations`]); a
    /// singular saddle-point matrix (redundant constraints) writes NaN, which the integrator
    /// reports. A real scalar takes the allocation-free `f64` path with the cached constant
    /// pieces; a dual one evaluates the pieces afresh (so a parameter may carry a derivative)
    /// on the cached factors.
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let n = self.system.dofs();
        if D::NDERIV == 0 {
            return self.with_cache(p, |cache| {
                with_real_state(&x[..2 * n], 2 * n, |xr, dxr| {
                    self.real_flow(cache, mode, xr, dxr, None);
                    dx.iter_mut()
                        .zip(dxr.iter())
                        .for_each(|(o, &v)| *o = D::from(v));
                })
            });
        }
        dx[..n].copy_from_slice(&x[n..2 * n]);
        match self.solve_dual(p, mode, x, Rhs::Accelerations) {
            Ok(z) => dx[n..2 * n].copy_from_slice(&z[..n]),
            Err(_) => dx[n..2 * n].fill(D::from(f64::NAN)),
        }
    }
    /// One guard per contact: touchdown while open, lift-off while closed.
    fn guards(&self, mode: usize) -> &[ContactGuard] {
        self.guards.get(mode).map_or(&[], |g| g)
    }
    /// Touchdown: the gap falls through zero; lift-off: the multiplier rises through zero.
    fn describe(&self, mode: usize, guard: ContactGuard) -> GuardSpec {
        let closed = ContactSet::from_mode(mode);
        match guard {
            ContactGuard::Touchdown(i) => GuardSpec::to(closed.with(i).mode()).falling(),
            ContactGuard::LiftOff(i) => GuardSpec::to(closed.without(i).mode()).rising(),
        }
    }
    /// Touchdown: the gap; lift-off: the contact's multiplier.
    fn guard<D: Scalar>(&self, p: &[D], mode: usize, guard: ContactGuard, x: &[D]) -> D {
        let n = self.system.dofs();
        let i = match guard {
            ContactGuard::Touchdown(i) => return self.system.gap(p, i, &x[..n]),
            ContactGuard::LiftOff(i) => i,
        };
        let k = n + multiplier_index(&self.system, ContactSet::from_mode(mode), i);
        if D::NDERIV == 0 {
            return self.with_cache(p, |cache| {
                with_real_state(&x[..2 * n], 0, |xr, _| {
                    self.with_solution(cache, mode, xr, None, |z| {
                        D::from(z.map_or(f64::NAN, |z| z[k]))
                    })
                })
            });
        }
        match self.solve_dual(p, mode, x, Rhs::Accelerations) {
            Ok(z) => z[k],
            Err(_) => D::from(f64::NAN),
        }
    }
    /// One condition per contact: an open contact's gap `≥ 0`, a closed contact's force
    /// `−λ_i ≥ 0` (it pushes).
    fn conditions(&self, _mode: usize) -> usize {
        self.system.contact_count()
    }
    fn condition_name(&self, mode: usize, i: usize) -> String {
        let what = if ContactSet::from_mode(mode).contains(i) {
            "force"
        } else {
            "gap"
        };
        format!("{} {what}", self.system.contact_name(i))
    }
    fn condition<D: Scalar>(&self, p: &[D], mode: usize, i: usize, x: &[D]) -> D {
        if ContactSet::from_mode(mode).contains(i) {
            -self.guard(p, mode, ContactGuard::LiftOff(i), x)
        } else {
            self.system.gap(p, i, &x[..self.system.dofs()])
        }
    }
    /// Reported under the contact's name: a closed contact that pulls (`λ_i > 0`), an open one
    /// that penetrates (gap `< 0`).
    fn condition_kind(&self, mode: usize, i: usize) -> (String, ViolationKind) {
        let kind = if ContactSet::from_mode(mode).contains(i) {
            ViolationKind::Pulls
        } else {
            ViolationKind::Penetrates
        };
        (self.system.contact_name(i), kind)
    }
    /// The larger of the position residual `max |γ|` and the velocity residual `max |G q̇|` of
    /// the active constraints (rigid links and closed contacts).
    fn state_residual(&self, p: &[f64], mode: usize, x: &[f64]) -> Option<(String, f64)> {
        let (pos, vel) = self.constraint_residual(p, mode, x);
        Some(if pos >= vel {
            ("position constraint residual max |γ(q)|".into(), pos)
        } else {
            ("velocity constraint residual max |G(q) q̇|".into(), vel)
        })
    }
    /// Touchdown: positions kept, velocities projected by `P_a` of the new active set
    /// ([`impact_velocity`]); lift-off: identity.
    fn reset<D: Scalar>(&self, p: &[D], mode: usize, guard: ContactGuard, x: &[D], out: &mut [D]) {
        let n = self.system.dofs();
        out.copy_from_slice(x);
        let i = match guard {
            ContactGuard::Touchdown(i) => i,
            ContactGuard::LiftOff(_) => return,
        };
        let impact = ContactSet::from_mode(mode).with(i).mode();
        match self.solve_dual(p, impact, x, Rhs::Impact) {
            Ok(v) => out[n..2 * n].copy_from_slice(&v[..n]),
            Err(_) => out[n..2 * n].fill(D::from(f64::NAN)),
        }
    }
    fn reduced_dim(&self) -> usize {
        match &self.section {
            Some(s) => 2 * s.independent.len(),
            None => self.dim(),
        }
    }
    fn chart<D: Scalar>(&self, p: &[D], u: &[D], x: &mut [D]) {
        match &self.section {
            Some(s) => s.chart(&self.system, p, u, x),
            None => x.copy_from_slice(u),
        }
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        match &self.section {
            Some(s) => s.project(self.system.dofs(), x, u),
            None => u.copy_from_slice(x),
        }
    }
    /// With a section, the multipliers are those of the map on the constraint manifold.
    fn multipliers_on_section(&self) -> bool {
        self.section.is_some()
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_flow_param_derivative(&self) -> Option<&dyn FlowParamDerivative> {
        Some(self)
    }
    fn hand_section_jacobians(&self) -> Option<&dyn SectionJacobians> {
        Some(self)
    }
    fn affine_modes(&self) -> Option<&dyn AffineModes> {
        Some(self)
    }
}

/// `f_x` by implicit differentiation of the saddle-point system (one dual pass over the
/// varying terms, then a solve on the real factors), with the flow from the same
/// factorisation (bit for bit that of [`HybridModel::flow`]).
impl<S: MechanicalSystem> FlowJacobian for Constrained<S> {
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        _t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        self.with_cache(p, |cache| self.real_flow(cache, mode, x, dx, Some(jac)));
    }
}

/// `∂f/∂p_k = [0; ∂q̈/∂p_k]` by implicit differentiation of the saddle-point system (one dual
/// pass over the system's functions with `p_k` seeded, one solve on the real factors); NaN
/// when the saddle-point matrix is singular. In an affine mode `∂q̈/∂p_k` is affine in the
/// state as well, and is evaluated from its cached coefficients. The same derivative as
/// automatic differentiation of the flow in `p_k`, by a cheaper route; `false` for a
/// parameter the system does not have.
impl<S: MechanicalSystem> FlowParamDerivative for Constrained<S> {
    fn flow_param_derivative(
        &self,
        p: &[f64],
        k: usize,
        mode: usize,
        _t: f64,
        x: &[f64],
        dfdp: &mut [f64],
    ) -> bool {
        if k >= p.len() {
            return false;
        }
        let n = self.dofs();
        dfdp[..n].fill(0.0);
        let closed = ContactSet::from_mode(mode);
        self.with_cache(p, |cache| {
            if let Some(pf) = cache.param_flow(&self.system, closed, k) {
                pf.eval(&x[..2 * n], &mut dfdp[n..2 * n]);
                return;
            }
            let md = self.mode(cache, mode);
            let (q, v) = x[..2 * n].split_at(n);
            with_buffer(0.0, n + md.active(), |dz| {
                match md.param_derivative(k, q, v, dz) {
                    Ok(()) => dfdp[n..2 * n].copy_from_slice(&dz[..n]),
                    Err(_) => dfdp[n..2 * n].fill(f64::NAN),
                }
            });
        });
        true
    }
}

/// The chart's Jacobian by one dual pass per column; the projection's, a selection.
impl<S: MechanicalSystem> SectionJacobians for Constrained<S> {
    fn chart_jacobian(&self, p: &[f64], u: &[f64], jac: &mut [f64]) {
        match &self.section {
            Some(s) => s.chart_jacobian(&self.system, p, u, jac),
            None => saltation_hybrid::identity(jac, 2 * self.dofs()),
        }
    }
    fn project_jacobian(&self, _p: &[f64], _x: &[f64], jac: &mut [f64]) {
        match &self.section {
            Some(s) => s.project_jacobian(self.system.dofs(), jac),
            None => saltation_hybrid::identity(jac, 2 * self.dofs()),
        }
    }
}

/// Every mode's flow is affine when the system declares its mass matrix constant and its
/// constraints and forces affine ([`MechanicalSystem::mass_matrix_is_constant`],
/// [`MechanicalSystem::constraints_are_linear`], [`MechanicalSystem::forces_are_linear`]):
/// its `f_x` is then the cached one.
impl<S: MechanicalSystem> AffineModes for Constrained<S> {
    fn jacobian_is_constant(&self, mode: usize) -> bool {
        mode < self.guards.len() && self.affine()
    }
}

/// The system's own description ([`Constrained::from_system`]), so that a model file can name
/// the system and its parameters alone ([`saltation_hybrid::Bound`]'s deserialisation).
///
/// # Panics
/// If the system's own description is invalid (its dimensions, contacts or section): a defect
/// of the system's code, not of any input.
impl<S: MechanicalSystem + Default> Default for Constrained<S> {
    fn default() -> Self {
        Self::from_system(S::default())
            .unwrap_or_else(|e| panic!("{}: invalid description: {e}", S::default().name()))
    }
}
