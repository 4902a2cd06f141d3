//! Strides carried from mode to mode: each stride starts in the mode the last one ended in.
//!
//! Iterating the stride map of a model with several modes (a sticking phase, a flight and a
//! stance) means `x_{j+1} = P_{m_j}(x_j)`, `m_{j+1}` = the mode stride `j` ended in, with
//! `P_m` the stride map started in mode `m` and `m_0` the stride options' `start_mode`.
//! [`ModeStrides`] keeps one [`StrideMap`] per start mode, made when a stride first starts
//! there, and the current mode: the one loop behind the orbit diagram, the basins of
//! attraction and the Lyapunov exponents.

use crate::error::HybridError;
use crate::model::EvalModel;
use crate::stride::{JacobianKind, StrideMap, StrideOptions, StrideResult};

/// One stride map per start mode, made when first needed, and the mode the next stride
/// starts in (module documentation).
pub struct ModeStrides<'m, M: ?Sized> {
    model: &'m M,
    stride: StrideOptions,
    maps: Vec<Option<StrideMap<'m, M>>>,
    mode: usize,
}

impl<'m, M: EvalModel + ?Sized> ModeStrides<'m, M> {
    /// No map made yet; the first stride starts in `stride.start_mode` (checked when the
    /// first stride is taken: an out-of-range mode is [`HybridError::BadMode`] then).
    pub fn new(model: &'m M, stride: &StrideOptions) -> Self {
        Self {
            model,
            stride: stride.clone(),
            maps: (0..model.modes()).map(|_| None).collect(),
            mode: stride.start_mode,
        }
    }

    /// The mode the next stride starts in.
    pub fn mode(&self) -> usize {
        self.mode
    }

    /// Sets the mode the next stride starts in (a new start: the maps made so far are kept).
    pub fn set_mode(&mut self, mode: usize) {
        self.mode = mode;
    }

    /// Back to the stride options' `start_mode`, keeping the maps (a new start).
    pub fn restart(&mut self) {
        self.mode = self.stride.start_mode;
    }

    /// The stride map started in the current mode, made on first use
    /// ([`HybridError::BadMode`] for a mode out of range, or [`StrideMap::new`]'s error).
    /// A caller that evaluates it itself then calls [`ModeStrides::set_mode`] with the mode
    /// its stride ended in.
    pub fn map(&mut self) -> Result<&mut StrideMap<'m, M>, HybridError> {
        let (mode, modes) = (self.mode, self.model.modes());
        let slot = self
            .maps
            .get_mut(mode)
            .ok_or(HybridError::BadMode { mode, modes })?;
        let map = match slot {
            Some(map) => map,
            None => {
                let mut o = self.stride.clone();
                o.start_mode = mode;
                slot.insert(StrideMap::new(self.model, o)?)
            }
        };
        Ok(map)
    }

    /// One stride from `x` in the current mode, `kind` of Jacobian; on success the next
    /// stride starts in the mode this one ended in.
    pub fn step(&mut self, x: &[f64], kind: JacobianKind) -> Result<StrideResult, HybridError> {
        let res = self.map()?.eval(x, kind)?;
        self.mode = res.mode;
        Ok(res)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, GuardSpec, HybridModel, Param, Scalar};

    /// A ball in free flight `ẍ = −1` landing on `x = 0`: from mode 0 it bounces back with
    /// speed `v²` into mode 1, from mode 1 with speed 1/2 into mode 0.
    #[derive(Debug, Clone, PartialEq)]
    struct Alternating;

    impl HybridModel for Alternating {
        type Guard = usize;
        fn name(&self) -> &str {
            "alternating"
        }
        fn dim(&self) -> usize {
            2
        }
        fn params(&self) -> &[Param] {
            &[]
        }
        fn modes(&self) -> usize {
            2
        }
        fn flow<D: Scalar>(&self, _: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
            dx[0] = x[1];
            dx[1] = D::from(-1.0);
        }
        fn guards(&self, _: usize) -> &[usize] {
            &[0]
        }
        fn describe(&self, m: usize, _: usize) -> GuardSpec {
            GuardSpec::to(1 - m).falling()
        }
        fn guard<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, _: &[D], m: usize, _: usize, x: &[D], out: &mut [D]) {
            out[0] = D::from(0.0);
            out[1] = if m == 0 { x[1] * x[1] } else { D::from(0.5) };
        }
    }

    #[test]
    fn each_stride_starts_where_the_last_ended_and_bad_modes_are_errors() {
        let model = Bound::new(Alternating);
        let mut stride = StrideOptions::default();
        stride.ode.rtol = 1e-10;
        stride.ode.atol = saltation_ode::Atol::Scalar(1e-10);
        let mut s = ModeStrides::new(&model, &stride);
        assert_eq!(s.mode(), 0);
        // Mode 0 from speed 0.6 lands at −0.6 and leaves with 0.36 in mode 1, which lands and
        // leaves with 0.5 in mode 0, which leaves with 0.25 in mode 1.
        let mut x = vec![0.0, 0.6];
        for (speed, mode) in [(0.36, 1), (0.5, 0), (0.25, 1)] {
            let r = s.step(&x, JacobianKind::None).unwrap();
            assert!((r.x[1] - speed).abs() < 1e-8, "{:?}", r.x);
            assert_eq!((r.mode, s.mode()), (mode, mode));
            x = r.x;
        }
        s.restart();
        assert_eq!(s.mode(), 0);
        s.set_mode(2);
        assert!(matches!(
            s.step(&x, JacobianKind::None),
            Err(HybridError::BadMode { mode: 2, modes: 2 })
        ));
    }
}
