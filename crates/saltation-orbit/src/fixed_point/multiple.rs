//! Multiple shooting: the stride cut into segments whose start states are unknowns, joined by
//! matching conditions, solved by the one damped Newton method ([`crate::solve`]).
//!
//! # Segments
//! The stride from `x_0 = χ(u)` is a sequence of phases `(m_i, T_i)` (the mode and duration
//! between consecutive events). [`Segments::Phases`] makes every phase one segment: from its
//! start state to its event, through the reset ([`StrideMap::eval_phase`]).
//! [`Segments::PerMode`]`(N)` cuts every phase into `N` pieces: `N − 1` pieces of the fixed time
//! `T_i/N` ([`StrideMap::eval_flow`]) and the rest of the phase to its event. The phases and
//! their durations `T_i` are those of the stride from the initial guess and stay fixed during
//! the solve, so each unknown is a well-defined point: the state a fixed time after a reset, or
//! just after a reset. An iterate whose phase is shorter than its fixed pieces fails with
//! [`HybridError::EventInPiece`]; one whose phases change their sequence with
//! [`HybridError::SequenceChanged`] (Newton treats both as a failed trial point, or reports them).
//!
//! # Equations
//! With `S` segments maps `Φ_j` (`Φ_j(s)`: the state at the segment's end from `s`), the
//! unknowns are `z = (u, s_1, …, s_{S−1})` (`r + (S − 1) n` numbers, `s_0 = χ(u)`) and the
//! matching conditions
//!
//! ```text
//! Φ_j(s_j) − s_{j+1} = 0     (j = 0, …, S − 2; n equations each)
//! π(Φ_{S−1}(s_{S−1})) − u = 0     (r equations, the return to the section)
//! ```
//!
//! Their Jacobian is cyclic block bidiagonal, with the exact segment Jacobians `A_j = ∂Φ_j/∂s`
//! (variational equations, and `E = g_x(I − f⁻h_x/(h_x f⁻))` at a segment's event):
//!
//! ```text
//! ⎡ A_0 Dχ   −I                       ⎤
//! ⎢          A_1   −I                 ⎥
//! ⎢                 ⋱     ⋱           ⎥
//! ⎢                    A_{S−2}   −I   ⎥
//! ⎣ −I_r                  Dπ A_{S−1}  ⎦
//! ```
//!
//! (dense here; eliminating `s_1 … s_{S−1}` gives single shooting's `Dπ A_{S−1} ⋯ A_0 Dχ − I`, so
//! it is singular exactly where single shooting's matrix is, but it is never formed). Each row
//! block's residual is at the integration error of one segment, where single shooting's is that
//! error amplified by the whole stride: an orbit with a multiplier of `1e10` converges.
//!
//! # Multipliers
//! The composition of the segment maps is the stride map, so `P_x = A_{S−1} ⋯ A_0`; its
//! eigenvalues come from the factors by the product QR iteration
//! ([`saltation_linalg::product_eigenvalues`]), never from the formed product (the eigenvalue
//! backend option is not used). The orbit's reported `jacobian` is the formed product.

use super::options::{OrbitOptionsError, Segments, MAX_SHOOTING_UNKNOWNS};
use crate::newton::SquareSystem;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{
    EvalModel, EventRecord, HybridError, JacobianKind, StrideMap, StrideOptions, StrideResult,
    MAX_EVENTS_PER_STRIDE,
};
use std::cell::RefCell;

/// What one segment integrates.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cut {
    /// The rest of a phase in the mode, to its event and through the reset.
    ToEvent(usize),
    /// A fixed time in the mode, without event.
    Piece(usize, f64),
}

impl Cut {
    fn mode(self) -> usize {
        match self {
            Cut::ToEvent(m) | Cut::Piece(m, _) => m,
        }
    }
}

/// The segments of a multiple shooting (module documentation): what each integrates, fixed
/// from the stride of the initial guess. The orbit solver and the continuation's correctors
/// (which integrate the same segments on the model augmented with its parameter) share it.
#[derive(Debug, Clone, PartialEq)]
pub struct SegmentPlan {
    cuts: Vec<Cut>,
    start_mode: usize,
}

/// Why the multiple shooting could not be set up.
#[derive(Debug, Clone, PartialEq)]
pub enum SetupError {
    /// Too many unknowns (bad input).
    Options(OrbitOptionsError),
    /// A phase of the stride from the guess failed.
    Hybrid(HybridError),
}

impl From<HybridError> for SetupError {
    fn from(e: HybridError) -> Self {
        SetupError::Hybrid(e)
    }
}

impl SegmentPlan {
    /// The segments of the stride of `events_per_stride` events from the state `x0` in
    /// `start_mode`, cut as `segments` asks, and the state at the start of every segment (the
    /// first is `x0`), along that stride (integrated without Jacobian on `map`, whose model may
    /// be the state augmented with a parameter: only the modes and durations matter). `n` and
    /// `r` are the state and section dimensions of the model: at most
    /// [`MAX_SHOOTING_UNKNOWNS`] unknowns `r + (S − 1) n` ([`SetupError::Options`]).
    pub fn from_stride<M: EvalModel + ?Sized>(
        map: &mut StrideMap<'_, M>,
        events_per_stride: usize,
        start_mode: usize,
        segments: Segments,
        x0: &[f64],
        (n, r): (usize, usize),
    ) -> Result<(Self, Vec<Vec<f64>>), SetupError> {
        let model = map.model();
        let mut x = x0.to_vec();
        // The phases of the stride from the guess: (mode, start, duration).
        let mut phases: Vec<(usize, Vec<f64>, f64)> = Vec::new();
        let (mut mode, mut counted, mut t) = (start_mode, 0, 0.0);
        while counted < events_per_stride {
            if phases.len() >= MAX_EVENTS_PER_STRIDE {
                return Err(HybridError::TooManyEvents {
                    limit: MAX_EVENTS_PER_STRIDE,
                    t,
                }
                .into());
            }
            let res = map.eval_phase(&x, mode, JacobianKind::None)?;
            let ev = &res.events[0];
            counted += usize::from(model.stride_event(ev.mode, ev.guard));
            t += res.period;
            phases.push((mode, std::mem::take(&mut x), res.period));
            (x, mode) = (res.x, res.mode);
        }
        let pieces = match segments {
            Segments::Phases => 1,
            Segments::PerMode(k) => k,
        };
        let count = phases.len().saturating_mul(pieces);
        let unknowns = count.saturating_sub(1).saturating_mul(n).saturating_add(r);
        if unknowns > MAX_SHOOTING_UNKNOWNS {
            return Err(SetupError::Options(OrbitOptionsError::Shooting {
                reason: format!(
                    "{count} segments ({} phase(s) × {pieces}) make {unknowns} unknowns, more than \
                     {MAX_SHOOTING_UNKNOWNS} (a dense Newton matrix of that size): use fewer \
                     pieces per phase",
                    phases.len()
                ),
            }));
        }
        let mut cuts = Vec::with_capacity(count);
        let mut starts = Vec::with_capacity(count);
        for (mode, start, duration) in phases {
            let h = duration / pieces as f64;
            let mut s = start;
            for k in 0..pieces {
                starts.push(s.clone());
                if k + 1 < pieces {
                    cuts.push(Cut::Piece(mode, h));
                    s = map.eval_flow(&s, mode, h, JacobianKind::None)?.x;
                } else {
                    cuts.push(Cut::ToEvent(mode));
                }
            }
        }
        Ok((Self { cuts, start_mode }, starts))
    }

    /// The number of segments `S`.
    pub fn len(&self) -> usize {
        self.cuts.len()
    }

    /// The first segment of phase `k` of the stride (the `k`-th smooth piece: phases end at the
    /// segments that run to their event) and its mode; `None` past the last phase.
    pub fn phase_start(&self, k: usize) -> Option<(usize, usize)> {
        let mut phase = 0;
        for (j, cut) in self.cuts.iter().enumerate() {
            if phase == k {
                return Some((j, cut.mode()));
            }
            if matches!(cut, Cut::ToEvent(_)) {
                phase += 1;
            }
        }
        None
    }

    /// Whether there is no segment (never, for a plan from [`SegmentPlan::from_stride`]).
    pub fn is_empty(&self) -> bool {
        self.cuts.is_empty()
    }

    /// Segment `j` from `start`, with the Jacobian `kind` of its map; an error
    /// ([`HybridError::SequenceChanged`]) if it ends in another mode than the next segment
    /// starts in (the stride's start mode after the last).
    pub fn segment<M: EvalModel + ?Sized>(
        &self,
        map: &mut StrideMap<'_, M>,
        j: usize,
        start: &[f64],
        kind: JacobianKind,
    ) -> Result<StrideResult, HybridError> {
        let cut = *self.cuts.get(j).ok_or(HybridError::DimensionMismatch {
            what: "multiple-shooting segment index",
            expected: self.cuts.len(),
            got: j,
        })?;
        let res = match cut {
            Cut::ToEvent(m) => map.eval_phase(start, m, kind)?,
            Cut::Piece(m, h) => map.eval_flow(start, m, h, kind)?,
        };
        let next = self.cuts.get(j + 1).map_or(self.start_mode, |c| c.mode());
        if res.mode != next {
            return Err(HybridError::SequenceChanged {
                segment: j,
                expected: next,
                got: res.mode,
            });
        }
        Ok(res)
    }
}

/// The matching conditions and their cyclic block Jacobian (module documentation) at the
/// unknowns `z = (u, s_1, …, s_{S−1})`, from every segment's end state `ends[j]` (its first `n`
/// entries) and Jacobian `a[j]` (`n × n`, `∂Φ_j/∂s`): `Φ_j − s_{j+1}` for `j < S − 1` and
/// `π(Φ_{S−1}) − u`; the first segment's block is `A_0 Dχ(u)`, the last one's `Dπ A_{S−1}`.
pub fn matching_conditions<M: EvalModel + ?Sized>(
    model: &M,
    z: &[f64],
    ends: &[&[f64]],
    a: &[DMatrix<f64>],
) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
    let (n, r, segs) = (model.dim(), model.reduced_dim(), a.len());
    let dim = segs.saturating_sub(1) * n + r;
    if z.len() != dim || ends.len() != segs || segs == 0 {
        return Err(HybridError::DimensionMismatch {
            what: "multiple-shooting unknowns",
            expected: dim,
            got: z.len(),
        });
    }
    let u = &z[..r];
    let block = |j: usize| r + (j - 1) * n..r + j * n;
    let mut f = DVector::zeros(dim);
    let mut jac = DMatrix::zeros(dim, dim);
    for (j, (a_j, end)) in a.iter().zip(ends).enumerate() {
        if a_j.shape() != (n, n) || end.len() < n {
            return Err(HybridError::DimensionMismatch {
                what: "segment Jacobian (entries)",
                expected: n * n,
                got: a_j.len(),
            });
        }
        let end = &end[..n];
        // A_j, times Dχ for the first segment (whose start is χ(u)).
        let (blk, col) = if j == 0 {
            let mut dchi = vec![0.0; n * r];
            model.chart_jacobian(u, &mut dchi);
            (a_j * DMatrix::from_row_slice(n, r, &dchi), 0)
        } else {
            (a_j.clone(), block(j).start)
        };
        let row = j * n;
        if j + 1 < segs {
            let next = &z[block(j + 1)];
            for i in 0..n {
                f[row + i] = end[i] - next[i];
                jac[(row + i, block(j + 1).start + i)] = -1.0;
            }
            jac.view_mut((row, col), blk.shape()).copy_from(&blk);
        } else {
            let mut pu = vec![0.0; r];
            model.project(end, &mut pu);
            let mut dpi = vec![0.0; r * n];
            model.project_jacobian(end, &mut dpi);
            let dpa = DMatrix::from_row_slice(r, n, &dpi) * &blk;
            let mut v = jac.view_mut((row, col), dpa.shape());
            v += &dpa;
            for i in 0..r {
                f[row + i] = pu[i] - u[i];
                jac[(row + i, i)] -= 1.0;
            }
        }
    }
    Ok((f, jac))
}

/// The stride's duration and events from its segments, with times from the stride's start.
pub fn joined_events(segments: &[StrideResult]) -> (f64, Vec<EventRecord>) {
    let mut t = 0.0;
    let mut events = Vec::new();
    for s in segments {
        events.extend(s.events.iter().cloned().map(|mut e| {
            e.t += t;
            e
        }));
        t += s.period;
    }
    (t, events)
}

/// The matching conditions of a multiple shooting as Newton's square system (module
/// documentation).
pub(crate) struct MultipleShooting<'a, M: EvalModel + ?Sized> {
    map: RefCell<StrideMap<'a, M>>,
    plan: SegmentPlan,
    /// State and section dimensions.
    n: usize,
    r: usize,
    /// The last evaluation: its unknowns and segments.
    last: RefCell<Option<(DVector<f64>, Vec<StrideResult>)>>,
}

impl<'a, M: EvalModel + ?Sized> MultipleShooting<'a, M> {
    /// The segments of the stride from `χ(u)` and the initial unknowns (`u` and the segment
    /// starts along that stride).
    pub(crate) fn new(
        model: &'a M,
        opts: &StrideOptions,
        segments: Segments,
        u: &[f64],
    ) -> Result<(Self, DVector<f64>), SetupError> {
        let mut map =
            StrideMap::new(model, opts.clone()).map_err(|e| SetupError::Options(stride(e)))?;
        let (n, r) = (model.dim(), model.reduced_dim());
        let mut x = vec![0.0; n];
        model.chart(u, &mut x);
        let (plan, starts) = SegmentPlan::from_stride(
            &mut map,
            opts.events_per_stride,
            opts.start_mode,
            segments,
            &x,
            (n, r),
        )?;
        let mut z = Vec::with_capacity(r + starts.len().saturating_sub(1) * n);
        z.extend_from_slice(u);
        for s in starts.iter().skip(1) {
            z.extend_from_slice(s);
        }
        let sys = Self {
            map: RefCell::new(map),
            plan,
            n,
            r,
            last: RefCell::new(None),
        };
        Ok((sys, DVector::from_vec(z)))
    }

    /// The segments from `z` (each with its `n × n` Jacobian): Newton's last evaluation if it was
    /// at `z`, else a fresh one.
    pub(crate) fn segments_at(&self, z: &DVector<f64>) -> Result<Vec<StrideResult>, HybridError> {
        if let Some((lz, segs)) = self.last.borrow_mut().take() {
            if lz == *z {
                return Ok(segs);
            }
        }
        Ok(self.evaluate(z)?.2)
    }
}

/// A stride option's error at setup as the option error.
fn stride(e: HybridError) -> OrbitOptionsError {
    OrbitOptionsError::Stride(e)
}

impl<M: EvalModel + ?Sized> SquareSystem for MultipleShooting<'_, M> {
    type Error = HybridError;

    fn dim(&self) -> usize {
        (self.plan.len() - 1) * self.n + self.r
    }

    fn eval(&self, z: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
        let (f, jac, results) = self.evaluate(z)?;
        *self.last.borrow_mut() = Some((z.clone(), results));
        Ok((f, jac))
    }
}

impl<M: EvalModel + ?Sized> MultipleShooting<'_, M> {
    /// The matching conditions at `z`, their Jacobian and the segments.
    #[allow(clippy::type_complexity)]
    fn evaluate(
        &self,
        z: &DVector<f64>,
    ) -> Result<(DVector<f64>, DMatrix<f64>, Vec<StrideResult>), HybridError> {
        let mut map = self.map.borrow_mut();
        let model = map.model();
        let (n, r) = (self.n, self.r);
        let dim = self.dim();
        if z.len() != dim {
            return Err(HybridError::DimensionMismatch {
                what: "multiple-shooting unknowns",
                expected: dim,
                got: z.len(),
            });
        }
        let mut results = Vec::with_capacity(self.plan.len());
        let mut a = Vec::with_capacity(self.plan.len());
        for j in 0..self.plan.len() {
            let start = if j == 0 {
                let mut x = vec![0.0; n];
                model.chart(&z.as_slice()[..r], &mut x);
                x
            } else {
                z.as_slice()[r + (j - 1) * n..r + j * n].to_vec()
            };
            let res = self
                .plan
                .segment(&mut map, j, &start, JacobianKind::StrideMap)?;
            a.push(segment_jacobian(&res, n)?);
            results.push(res);
        }
        let ends: Vec<&[f64]> = results.iter().map(|s| s.x.as_slice()).collect();
        let (f, jac) = matching_conditions(model, z.as_slice(), &ends, &a)?;
        Ok((f, jac, results))
    }
}

/// The `n × n` Jacobian of a segment's result (an error if it has none of that shape).
fn segment_jacobian(res: &StrideResult, n: usize) -> Result<DMatrix<f64>, HybridError> {
    match res.jacobian.as_ref() {
        Some(a) if a.shape() == (n, n) => Ok(a.clone()),
        other => Err(HybridError::DimensionMismatch {
            what: "segment Jacobian (entries)",
            expected: n * n,
            got: other.map_or(0, |a| a.len()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{Cut, SegmentPlan};

    /// Two phases in three pieces each (modes 1 then 0): phase 0 starts at segment 0 in mode 1,
    /// phase 1 at segment 3 in mode 0, and there is no phase 2.
    #[test]
    fn phase_starts_follow_the_cuts_to_events() {
        let plan = SegmentPlan {
            cuts: vec![
                Cut::Piece(1, 0.1),
                Cut::Piece(1, 0.1),
                Cut::ToEvent(1),
                Cut::Piece(0, 0.2),
                Cut::Piece(0, 0.2),
                Cut::ToEvent(0),
            ],
            start_mode: 1,
        };
        assert_eq!(plan.phase_start(0), Some((0, 1)));
        assert_eq!(plan.phase_start(1), Some((3, 0)));
        assert_eq!(plan.phase_start(2), None);
    }
}
