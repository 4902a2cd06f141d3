//! A nonsingular mass matrix: M y' = M g(t, y) has the smooth problem's solution.

use super::*;

#[test]
fn a_nonsingular_mass_matrix_gives_the_same_solution() {
    for method in METHODS {
        assert_mass_matrix_matches_plain(method);
    }
}
