//! Whether a compiled program is affine in the states with constant coefficients.
//!
//! A forward pass over the register code gives each register a class: independent of the
//! states and of `t` ([`Class::Const`]), of the states but not of `t` (`Time`), affine in the
//! states with coefficients that depend on neither (`Affine`), or anything else (`Other`).
//! Sums keep the larger class, a product or quotient stays affine only with a constant factor
//! or divisor, and every other function of a state-dependent argument is `Other`. The test is
//! sufficient, not necessary (`x·x − x·x` counts as not affine), and a program with an `if`
//! counts as not affine: a sound `false` only costs the speed-up it enables.

use crate::func::{Bin, Un};
use crate::program::{Op, Program};

/// What a register's value depends on (ordered: a sum takes the larger).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Neither the states nor `t` (numbers and parameters).
    Const,
    /// `t`, not the states.
    Time,
    /// Affine in the states, with `Const` coefficients.
    Affine,
    /// Anything else.
    Other,
}

impl Class {
    fn state_free(self) -> bool {
        self <= Class::Time
    }
}

fn unary(f: Un, a: Class) -> Class {
    match f {
        Un::Neg => a,
        _ if a.state_free() => a,
        _ => Class::Other,
    }
}

fn binary(f: Bin, a: Class, b: Class) -> Class {
    use Class::{Affine, Const, Other};
    match f {
        Bin::Add | Bin::Sub => a.max(b),
        Bin::Mul => match (a, b) {
            (Affine, Const) | (Const, Affine) => Affine,
            _ if a.state_free() && b.state_free() => a.max(b),
            _ => Other,
        },
        Bin::Div => match (a, b) {
            (Affine, Const) => Affine,
            _ if a.state_free() && b.state_free() => a.max(b),
            _ => Other,
        },
        _ if a.state_free() && b.state_free() => a.max(b),
        _ => Other,
    }
}

impl Program {
    /// Whether every output is affine in the states, `A x + b(t)`, with `A` independent of
    /// the states and of `t`: then its Jacobian with respect to the states is constant. A
    /// sufficient test (see the module documentation): `false` may mean "not recognised".
    pub fn is_affine_in_state(&self) -> bool {
        let mut class = vec![Class::Const; self.slots];
        let mut set = |r: u32, c: Class| {
            if let Some(slot) = class.get_mut(r as usize) {
                *slot = c;
            }
        };
        if let Some(r) = self.time {
            set(r, Class::Time);
        }
        for &(r, _) in &self.state_loads {
            set(r, Class::Affine);
        }
        // Parameters and constants load as `Const`, the initial class.
        let get = |class: &[Class], r: u32| class.get(r as usize).copied().unwrap_or(Class::Other);
        for op in &self.code {
            let (dst, c) = match *op {
                Op::Time { dst } => (dst, Class::Time),
                Op::State { dst, .. } => (dst, Class::Affine),
                Op::Param { dst, .. } | Op::Const { dst, .. } => (dst, Class::Const),
                Op::Copy { dst, a } => (dst, get(&class, a)),
                Op::Powi { dst, a, n } => {
                    let a = get(&class, a);
                    let c = match n {
                        0 => Class::Const,
                        1 => a,
                        _ if a.state_free() => a,
                        _ => Class::Other,
                    };
                    (dst, c)
                }
                Op::Powf { dst, a, .. } => (dst, unary(Un::Sqrt, get(&class, a))),
                Op::SinCos { s, c, a } => {
                    let k = unary(Un::Sin, get(&class, a));
                    match class.get_mut(s as usize) {
                        Some(slot) => *slot = k,
                        None => return false,
                    }
                    (c, k)
                }
                Op::Branch { .. } | Op::Jump { .. } => return false,
                Op::Store { .. } => continue,
                other => match (other.as_un(), other.as_bin()) {
                    (Some((f, dst, a)), _) => (dst, unary(f, get(&class, a))),
                    (None, Some((f, dst, a, b))) => {
                        (dst, binary(f, get(&class, a), get(&class, b)))
                    }
                    (None, None) => return false,
                },
            };
            match class.get_mut(dst as usize) {
                Some(slot) => *slot = c,
                None => return false,
            }
        }
        self.outs.iter().all(|&r| get(&class, r) <= Class::Affine)
    }
}

#[cfg(test)]
mod tests {
    use crate::{compile, Definitions, Names};

    fn affine(exprs: &[&str]) -> bool {
        let (states, params) = (["x", "v"].map(String::from), ["k", "c"].map(String::from));
        let names = Names {
            states: &states,
            params: &params,
        };
        let defs = Definitions::new(&[("s".into(), "k*x + c".into())], &names).unwrap();
        compile(exprs, &defs, &names).unwrap().is_affine_in_state()
    }

    #[test]
    fn recognises_affine_fields_and_rejects_the_rest() {
        // Affine, with parameters, definitions, constant folding and a forcing in t.
        assert!(affine(&["v", "-k*x - c*v/2 + 9.81", "sin(t) - s*3"]));
        assert!(affine(&[
            "(x - v)/k",
            "-(x + 2*v)",
            "x^1 + k^2*v + exp(k)*x"
        ]));
        assert!(affine(&["k", "t^2"]));
        // Not affine: products of states, functions of states, state-dependent divisors,
        // coefficients in t, branches.
        assert!(!affine(&["x*v"]));
        assert!(!affine(&["sin(x)"]));
        assert!(!affine(&["x^2"]));
        assert!(!affine(&["k/x"]));
        assert!(!affine(&["t*x"]));
        assert!(!affine(&["abs(v)"]));
        assert!(!affine(&["if(x < 0, x, 2*x)"]));
        assert!(!affine(&["min(x, k)"]));
    }
}
