//! Regression: a long run of the simplest walker near its period doubling must not lose a
//! heel-strike. An interpolated guard sample with the wrong sign right at a crossing used to
//! be carried forward, so the crossing was skipped and the stride ended in a (false) fall.

use saltation::continuation::{orbit_diagram, OrbitDiagramOptions};
use saltation::hybrid::{Bound, ParamError, StrideOptions};
use saltation::models::SimplestWalker;
use saltation::ode::SolverOptions;

#[test]
fn no_heel_strike_is_missed_over_hundreds_of_strides() {
    let family = |gamma: f64| -> Result<Bound<SimplestWalker>, ParamError> {
        Bound::with_named(SimplestWalker, [("gamma", gamma)])
    };
    let opts = OrbitDiagramOptions {
        transient: 300,
        keep: 64,
        component: 0,
    };
    // Two slopes of the 400-slope diagram on [0.014, 0.0195] where the old screen lost a
    // heel-strike (after 350 and 118 strides): just below the first period doubling, and in
    // the period-4 window. The walker walks at both.
    let slopes = [
        0.014 + 0.0055 * 77.0 / 399.0,
        0.014 + 0.0055 * 268.0 / 399.0,
    ];
    let start = [0.2469, -0.2400, 0.4938, -0.0287];
    // DOP853 at rtol = atol = 1e-10, as the shipped diagram of this walker
    // (models/simplest_walker_continuation.ron).
    let stride = StrideOptions {
        ode: SolverOptions::with_tol(1e-10),
        ..StrideOptions::default()
    };
    let cols = orbit_diagram(&family, &slopes, &start, &stride, &opts).expect("a valid diagram");
    assert_eq!(cols.len(), 2);
    for c in &cols {
        assert_eq!(c.failed_at, None, "γ = {}: {:?}", c.param, c.failure);
        assert_eq!(c.values.len(), 64);
    }
}
