//! Variational equations against the closed-form `Φ`.

use super::*;

#[test]
fn variational_matrix_follows_the_closed_form() {
    for method in METHODS {
        assert_variational_closed_form(method);
    }
}
