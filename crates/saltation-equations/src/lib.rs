//! # saltation-equations
//!
//! The expression language of equation-file models: vector fields, guards, resets and
//! intermediate definitions written as strings of math, parsed, checked, compiled into one flat
//! register program per set of expressions, and evaluated without allocation for any scalar —
//! `f64` in the integrator's inner loop, num-dual numbers for exact Jacobians and parameter
//! derivatives by forward-mode automatic differentiation through the evaluator.
//!
//! ```
//! use num_dual::{Dual64, DualNum};
//! use saltation_equations::{compile, Definitions, Names};
//!
//! let states = ["th", "dth", "ph", "dph"].map(String::from);
//! let params = ["gamma".to_string()];
//! let names = Names { states: &states, params: &params };
//! let defs = Definitions::new(&[("s".into(), "sin(th - gamma)".into())], &names)?;
//! let field = compile(&["dth", "s", "dph", "sin(ph)*(dth^2 - cos(th - gamma)) + s"], &defs, &names)?;
//!
//! let mut dx = [0.0; 4];
//! field.eval(0.0, &[0.2, -0.2, 0.4, 0.0], &[0.01], &mut dx);
//! assert_eq!(dx[1], (0.2f64 - 0.01).sin());
//!
//! // ∂f/∂γ: seed the parameter's dual part.
//! let x = [0.2, -0.2, 0.4, 0.0].map(Dual64::from);
//! let mut d = [Dual64::from(0.0); 4];
//! field.eval(Dual64::from(0.0), &x, &[Dual64::new(0.01, 1.0)], &mut d);
//! assert_eq!(d[1].eps, -(0.2f64 - 0.01).cos());
//! # Ok::<(), saltation_equations::ExprError>(())
//! ```
//!
//! ## Language
//!
//! ```text
//! expression := sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ]
//! sum        := term { ("+" | "-") term }
//! term       := unary { ("*" | "/") unary }
//! unary      := ("-" | "+") unary | power
//! power      := primary [ "^" unary ]
//! primary    := number | name | name "(" [ expression { "," expression } ] ")"
//!             | "(" expression ")"
//! number     := digits [ "." [digits] ] [ ("e" | "E") ["+" | "-"] digits ]
//!             | "." digits [ ("e" | "E") ["+" | "-"] digits ]
//! name       := [A-Za-z_][A-Za-z0-9_]*
//! ```
//!
//! Precedence, loosest first:
//!
//! | operators | associativity | note |
//! |---|---|---|
//! | `< <= > >= == !=` | none (`a < b < c` is an error) | 1.0 if true, 0.0 if false, compared on the real part |
//! | `+ -` | left | |
//! | `* /` | left | |
//! | unary `-` `+` | prefix | `-x^2 = -(x^2)` |
//! | `^` | right | `2^3^2 = 2^9`, `2^-1 = 0.5` |
//!
//! Names are the model's states and parameters, the time `t`, the constant `pi` and the
//! definitions ([`Definitions`]). Numbers are decimal (`1`, `2.5`, `.5`, `1e-3`, `3E+2`) and
//! must be finite (`1e999` is an error). Spaces, tabs and line breaks are ignored.
//!
//! Functions (their derivatives are those of the formula; where a function has a kink or a
//! jump, the derivative is that of the piece the real part selects):
//!
//! | function | meaning | derivative |
//! |---|---|---|
//! | `sin cos tan asin acos atan` | trigonometric, radians | usual |
//! | `sinh cosh tanh` | hyperbolic | usual |
//! | `exp`, `log`, `sqrt` | `e^x`, natural logarithm, square root | usual (not finite at `sqrt(0)`) |
//! | `atan2(y, x)` | angle of the point `(x, y)` in `(-π, π]` | `(x dy - y dx)/(x² + y²)`; 0 at the origin |
//! | `abs(x)` | `\|x\|` | `sign(x)` (0 at 0) |
//! | `sign(x)` | -1, 0 or 1 (NaN for NaN) | 0 |
//! | `min(a, b)`, `max(a, b)` | the smaller / larger argument, NaN if either is NaN | that of the argument chosen (`a` on a tie) |
//! | `pow(x, y)` | same as `x^y` | see below |
//! | `floor(x)` | the largest integer `≤ x` | 0 |
//! | `mod(a, b)` | floored remainder `a − b⌊a/b⌋`: in `[0, b)` for `b > 0`, in `(b, 0]` for `b < 0`; NaN for `b = 0` | `da − ⌊a/b⌋ db` (1 in `a`) |
//! | `wrap(x)` | the angle `x` wrapped into `(-π, π]` | 1 |
//! | `if(c, a, b)` | `a` if `c ≠ 0`, else `b`; NaN if `c` is NaN | that of the branch taken; only that branch is evaluated |
//!
//! Powers: with a constant integer exponent (`x^2`, `x^-3`, `x^(1+1)`; |n| ≤ 1024) `powi`,
//! exact also at `x = 0` (the derivative of `x^2` there is 0, of `x^1` is 1); with another
//! constant exponent `powf` (`x^0.5`); with a variable exponent `exp(y log x)` for `x > 0`, and
//! for `x ≤ 0` with an integer `y` the integer power (derivative with respect to `y` taken as
//! 0 there, where it does not exist).
//!
//! Comparisons and `sign` are piecewise constant: their derivatives are 0. A guard written as
//! `if(...)` or with `abs`/`min`/`max` is only differentiable away from the switch; the
//! evaluator gives the one-sided derivative of the piece the value is on.
//!
//! Evaluated values match the `f64` library functions (the real part of a dual-number
//! evaluation is bit-for-bit the `f64` evaluation), except that `min`/`max` propagate NaN.
//!
//! ## Definitions
//!
//! `let`-style definitions are `(name, expression)` pairs given to [`Definitions::new`]. They
//! may come in any order and use each other; they are ordered so that each is computed after
//! the ones it uses, and definitions that refer to each other in a circle are an error naming
//! the cycle (`a -> b -> a`). A definition may not be named like a state, a parameter, `t`,
//! `pi` or a function. A compiled program computes only the definitions its outputs use,
//! each once.
//!
//! ## Errors
//!
//! An [`ExprError`] says what ([`ExprErrorKind`]), in which expression ([`Site`]) and at which
//! character ([`ExprError::offset`], counted in characters, not bytes); its message is one
//! line, e.g. ``unknown name `gama` (did you mean `gamma`?)``. Hostile input is refused, not
//! crashed on: see [`limits`].
//!
//! ## Why a parser of our own
//!
//! The language is small (a lexer and an operator-precedence parser of a few hundred lines),
//! and owning it buys what the model files need: evaluation generic over the scalar type, so
//! that forward-mode AD through the evaluator gives exact Jacobians; exact character
//! positions and kinds for every error, with suggestions; firm limits on length, nesting and
//! program size, with a parser that does not recurse; a flat register program with constant
//! folding, shared sub-expressions and no allocation per evaluation; and no dependency beyond
//! num-dual. As documented on docs.rs, `meval` and `fasteval` evaluate to `f64` only and
//! `evalexpr` to its own dynamically typed `Value`, so none can run a compiled expression
//! over dual numbers; `meval` reports a position only for unexpected tokens, and
//! `fasteval`'s parse errors carry text rather than positions (it does have length and depth
//! limits).
#![warn(missing_docs)]
// Range checks are written `!(x > 0.0)` on purpose: they reject NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod affine;
mod compile;
mod constant;
mod defs;
mod error;
mod func;
mod lexer;
mod parser;
mod program;
#[cfg(test)]
mod tests;

pub use compile::compile;
pub use constant::{constant, number, ConstantError, Number};
pub use defs::{is_reserved, is_valid_name, Definitions};
pub use error::{did_you_mean, suggest, ExprError, ExprErrorKind, Site};
pub use program::{NonFinite, Program};

/// The names of the function-call syntax: every built-in function, with its number of
/// arguments (`if` and `pow` included).
pub fn functions() -> impl Iterator<Item = (&'static str, usize)> {
    func::FUNCTIONS.iter().map(|&(n, _, a)| (n, a))
}

/// Limits that keep hostile input from exhausting time, memory or the stack.
pub mod limits {
    /// Longest expression source, in characters.
    pub const MAX_SOURCE_CHARS: usize = 100_000;
    /// Deepest nesting of parentheses, function calls, signs and exponents (`((x))` is 2).
    pub const MAX_DEPTH: usize = 200;
    /// Most instructions in one program.
    pub const MAX_OPS: usize = 100_000;
    /// Most definitions in one [`crate::Definitions`].
    pub const MAX_DEFINITIONS: usize = 10_000;
}

/// The names an expression can use besides definitions: the model's states and parameters,
/// in the order of the `x` and `p` slices given to [`Program::eval`]. `t` (time) and `pi` are
/// implicit. Names that clash with each other or with `t`, `pi` or a function name are the
/// caller's to refuse (see [`is_valid_name`], [`is_reserved`]); if they clash anyway, a state
/// hides a parameter, and both hide `t` and `pi`.
#[derive(Debug, Clone, Copy)]
pub struct Names<'a> {
    /// State names, index `i` is `x[i]`.
    pub states: &'a [String],
    /// Parameter names, index `j` is `p[j]`.
    pub params: &'a [String],
}
