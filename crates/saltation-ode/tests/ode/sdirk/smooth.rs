//! Smooth problem with a closed form: y₁' = y₁ cos t, and a harmonic pair.

use super::*;

#[test]
fn constant_steps_converge_at_order_two_with_dense_output() {
    for method in METHODS {
        assert_fixed_step_order_two(&format!("{method:?}"), method, &smooth());
    }
}
