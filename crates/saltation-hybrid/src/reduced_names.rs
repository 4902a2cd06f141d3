//! Names of the section's reduced coordinates `u`, for printed guesses, tables and axes.

use crate::EvalModel;

/// The name of each reduced coordinate `u_i`: where the projection reads one state component,
/// `u_i = x_j` (row `i` of `Dπ` is the unit vector `e_j`, found by differentiating `π` at the
/// chart's image of `u = 0`), that state's name; otherwise `u0`, `u1`, ….
pub fn reduced_names<M: EvalModel + ?Sized>(model: &M) -> Vec<String> {
    let (n, m) = (model.dim(), model.reduced_dim());
    let states = model.state_names();
    let mut x = vec![0.0; n];
    model.chart(&vec![0.0; m], &mut x);
    if x.iter().any(|v| !v.is_finite()) {
        x.iter_mut().for_each(|v| *v = 0.0);
    }
    let mut dpi = vec![0.0; m * n];
    model.project_jacobian(&x, &mut dpi);
    dpi.chunks_exact(n.max(1))
        .take(m)
        .enumerate()
        .map(|(i, row)| {
            let mut ones = row.iter().enumerate().filter(|(_, v)| **v != 0.0);
            match (ones.next(), ones.next()) {
                (Some((j, &v)), None) if v == 1.0 && j < states.len() => states[j].clone(),
                _ => format!("u{i}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, GuardSpec, HybridModel, Scalar};

    /// A two-state model whose section reads `x1` (a selection) or `x0 + x1` (not one).
    #[derive(Clone)]
    struct Sum(bool);
    impl HybridModel for Sum {
        type Guard = usize;
        fn name(&self) -> &str {
            "sum"
        }
        fn dim(&self) -> usize {
            2
        }
        fn state_names(&self) -> Vec<String> {
            vec!["height".into(), "speed".into()]
        }
        fn flow<D: Scalar>(&self, _: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
            dx[0] = x[1];
            dx[1] = D::from(-1.0);
        }
        fn guards(&self, _: usize) -> &[usize] {
            &[0]
        }
        fn describe(&self, _: usize, _: usize) -> GuardSpec {
            GuardSpec::to(0).falling()
        }
        fn guard<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D], out: &mut [D]) {
            out.copy_from_slice(x);
        }
        fn reduced_dim(&self) -> usize {
            1
        }
        fn chart<D: Scalar>(&self, _: &[D], u: &[D], x: &mut [D]) {
            x[0] = D::from(0.0);
            x[1] = u[0];
        }
        fn project<D: Scalar>(&self, _: &[D], x: &[D], u: &mut [D]) {
            u[0] = if self.0 { x[1] } else { x[0] + x[1] };
        }
    }

    #[test]
    fn a_selected_state_keeps_its_name_and_anything_else_is_numbered() {
        assert_eq!(reduced_names(&Bound::new(Sum(true))), ["speed"]);
        assert_eq!(reduced_names(&Bound::new(Sum(false))), ["u0"]);
    }
}
