//! Events: the falling balls (with and without drag) and a bouncing one, per method.

use super::*;

#[test]
fn falling_ball_hits_the_ground_at_the_closed_form_time() {
    for method in METHODS {
        assert_falling_balls_land_on_time(method);
    }
}

#[test]
fn bouncing_ball_restarts_after_every_impact() {
    for method in METHODS {
        assert_bouncing_ball_restarts(method);
    }
}
