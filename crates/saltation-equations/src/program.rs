//! The compiled program: flat register code, its evaluator and the non-finite diagnosis.

use crate::error::{char_span, Site};
use crate::func::{int_exponent, powd, powf, powi, Bin, Func, Un};
use crate::parser::{ArithOp, CmpOp, Expr, Kind, Var};
use num_dual::DualNum;
use std::collections::HashMap;
use std::fmt;

macro_rules! ops {
    (unary: [$($u:ident),*], binary: [$($b:ident),*]) => {
        /// One instruction. Register fields index the register file; `k` indexes the
        /// constant table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) enum Op {
            /// `r[dst] = t`.
            Time { dst: u32 },
            /// `r[dst] = x[i]`.
            State { dst: u32, i: u32 },
            /// `r[dst] = p[i]`.
            Param { dst: u32, i: u32 },
            /// `r[dst] = consts[k]`.
            Const { dst: u32, k: u32 },
            /// `r[dst] = r[a]`.
            Copy { dst: u32, a: u32 },
            /// `r[dst] = r[a]^n`.
            Powi { dst: u32, a: u32, n: i32 },
            /// `r[dst] = r[a]^consts[k]`.
            Powf { dst: u32, a: u32, k: u32 },
            /// `r[s] = sin r[a]`, `r[c] = cos r[a]` (one call where the platform has `sincos`).
            SinCos { s: u32, c: u32, a: u32 },
            $(
                #[allow(missing_docs)]
                $u { dst: u32, a: u32 },
            )*
            $(
                #[allow(missing_docs)]
                $b { dst: u32, a: u32, b: u32 },
            )*
            /// If `re(r[cond])` is NaN: `r[dst] = r[cond]` and go to the end of the `if`
            /// (the target of the `Jump` just before `else_pc`); if it is 0 go to `else_pc`;
            /// otherwise go on (the then-branch, which ends with that `Jump`).
            Branch { cond: u32, dst: u32, else_pc: u32 },
            /// Go to `to`.
            Jump { to: u32 },
            /// `out[out] = r[a]`.
            Store { out: u32, a: u32 },
        }

        impl Op {
            pub(crate) fn un(f: Un, dst: u32, a: u32) -> Op {
                match f {
                    $( Un::$u => Op::$u { dst, a }, )*
                }
            }

            pub(crate) fn bin(f: Bin, dst: u32, a: u32, b: u32) -> Op {
                match f {
                    $( Bin::$b => Op::$b { dst, a, b }, )*
                }
            }

            pub(crate) fn as_un(&self) -> Option<(Un, u32, u32)> {
                match *self {
                    $( Op::$u { dst, a } => Some((Un::$u, dst, a)), )*
                    _ => None,
                }
            }

            pub(crate) fn as_bin(&self) -> Option<(Bin, u32, u32, u32)> {
                match *self {
                    $( Op::$b { dst, a, b } => Some((Bin::$b, dst, a, b)), )*
                    _ => None,
                }
            }

            /// The registers written and the registers read.
            pub(crate) fn regs_mut(&mut self) -> ([Option<&mut u32>; 2], [Option<&mut u32>; 2]) {
                match self {
                    Op::Time { dst }
                    | Op::State { dst, .. }
                    | Op::Param { dst, .. }
                    | Op::Const { dst, .. } => ([Some(dst), None], [None, None]),
                    Op::Copy { dst, a }
                    | Op::Powi { dst, a, .. }
                    | Op::Powf { dst, a, .. } => ([Some(dst), None], [Some(a), None]),
                    Op::SinCos { s, c, a } => ([Some(s), Some(c)], [Some(a), None]),
                    $( Op::$u { dst, a } => ([Some(dst), None], [Some(a), None]), )*
                    $( Op::$b { dst, a, b } => ([Some(dst), None], [Some(a), Some(b)]), )*
                    Op::Branch { cond, dst, .. } => ([Some(dst), None], [Some(cond), None]),
                    Op::Jump { .. } => ([None, None], [None, None]),
                    Op::Store { a, .. } => ([None, None], [Some(a), None]),
                }
            }
        }

        impl Program {
            /// The interpreter loop over a register file `r` with at least `slots` entries.
            #[inline(always)]
            fn run<D: DualNum<f64> + Copy, R: Registers<D> + ?Sized>(
                &self,
                r: &mut R,
                t: D,
                x: &[D],
                p: &[D],
                out: &mut [D],
            ) {
                if let Some(s) = self.time {
                    r.set(s, t);
                }
                for &(s, i) in &self.state_loads {
                    r.set(s, x[i as usize]);
                }
                for &(s, i) in &self.param_loads {
                    r.set(s, p[i as usize]);
                }
                for &(s, c) in &self.const_loads {
                    r.set(s, D::from(c));
                }
                let ops = &self.code[..];
                let consts = &self.consts[..];
                let mut pc = 0usize;
                while let Some(op) = ops.get(pc) {
                    pc += 1;
                    match *op {
                        Op::Time { dst } => r.set(dst, t),
                        Op::State { dst, i } => r.set(dst, x[i as usize]),
                        Op::Param { dst, i } => r.set(dst, p[i as usize]),
                        Op::Const { dst, k } => r.set(dst, D::from(consts[k as usize])),
                        Op::Copy { dst, a } => r.set(dst, r.get(a)),
                        Op::Powi { dst, a, n } => r.set(dst, powi(r.get(a), n)),
                        Op::Powf { dst, a, k } => r.set(dst, powf(r.get(a), consts[k as usize])),
                        Op::SinCos { s, c, a } => {
                            let (sv, cv) = r.get(a).sin_cos();
                            r.set(s, sv);
                            r.set(c, cv);
                        }
                        $( Op::$u { dst, a } => r.set(dst, Un::$u.apply(r.get(a))), )*
                        $( Op::$b { dst, a, b } => r.set(dst, Bin::$b.apply(r.get(a), r.get(b))), )*
                        Op::Branch { cond, dst, else_pc } => {
                            let c = r.get(cond).re();
                            if c.is_nan() {
                                r.set(dst, r.get(cond));
                                pc = self.end_of_if(else_pc);
                            } else if c == 0.0 {
                                pc = else_pc as usize;
                            }
                        }
                        Op::Jump { to } => pc = to as usize,
                        Op::Store { out: o, a } => out[o as usize] = r.get(a),
                    }
                }
                for (o, &s) in out.iter_mut().zip(&self.outs) {
                    *o = r.get(s);
                }
            }
        }
    };
}

/// A register file: a power-of-two array indexed with a mask (the compiler then drops the
/// bounds checks; the mask never changes an index, all are below `slots`), or a slice.
trait Registers<D: Copy> {
    fn get(&self, i: u32) -> D;
    fn set(&mut self, i: u32, v: D);
}

impl<D: Copy, const N: usize> Registers<D> for [D; N] {
    #[inline(always)]
    fn get(&self, i: u32) -> D {
        self[i as usize & (N - 1)]
    }
    #[inline(always)]
    fn set(&mut self, i: u32, v: D) {
        self[i as usize & (N - 1)] = v;
    }
}

impl<D: Copy> Registers<D> for [D] {
    #[inline(always)]
    fn get(&self, i: u32) -> D {
        self[i as usize]
    }
    #[inline(always)]
    fn set(&mut self, i: u32, v: D) {
        self[i as usize] = v;
    }
}

ops!(
    unary: [Neg, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Exp, Log, Sqrt, Abs, Sign, Floor, Wrap],
    binary: [Add, Sub, Mul, Div, Pow, Atan2, Min, Max, Mod, Lt, Le, Gt, Ge, Eq, Ne]
);

/// An expression's source and syntax tree, kept for [`Program::diagnose`].
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub text: String,
    pub expr: Expr,
}

/// A set of expressions compiled into one flat register program.
///
/// Built by [`crate::compile`]. An evaluation
/// 1. loads the states, parameters, time and constants the program reads into registers
///    (tight loops, once each),
/// 2. runs the code: the definitions the outputs use (each once, in dependency order), then
///    the outputs' operations, dispatching on one instruction per operation,
/// 3. copies each output's register into `out`.
///
/// The compiler folds constant sub-expressions, computes identical sub-expressions once (also
/// across outputs and definitions), turns `sin a` and `cos a` of one argument into one
/// `sincos`, compiles `if` to a branch (only the taken side runs) and reuses a register as
/// soon as its value is dead, so [`Program::slots`] stays small. Evaluation is generic over
/// the scalar: `f64`, or any num-dual number for exact derivatives. `Display` prints a
/// listing of the instructions.
#[derive(Debug, Clone)]
pub struct Program {
    /// `(register, time)`: the time, if read.
    pub(crate) time: Option<u32>,
    /// `(register, state index)` loads, done before the code.
    pub(crate) state_loads: Vec<(u32, u32)>,
    /// `(register, parameter index)` loads.
    pub(crate) param_loads: Vec<(u32, u32)>,
    /// `(register, value)` constant loads.
    pub(crate) const_loads: Vec<(u32, f64)>,
    /// The operations (and branches), run after the loads.
    pub(crate) code: Vec<Op>,
    /// Exponents of `Powf`.
    pub(crate) consts: Vec<f64>,
    /// The register of each output, copied to `out` at the end.
    pub(crate) outs: Vec<u32>,
    pub(crate) slots: usize,
    pub(crate) states: usize,
    pub(crate) params: usize,
    /// The outputs' sources.
    pub(crate) sources: Vec<Source>,
    /// The definitions computed, in evaluation order, with their names.
    pub(crate) defs: Vec<(String, Source)>,
    /// Definition index (as given to `Definitions::new`) → position in `defs`.
    pub(crate) def_pos: HashMap<u32, usize>,
}

/// Where a non-finite output came from; see [`Program::diagnose`].
#[derive(Debug, Clone, PartialEq)]
pub struct NonFinite {
    /// Index of the first output that is not finite.
    pub output: usize,
    /// Its value (NaN or ±∞).
    pub value: f64,
    /// The expression holding the culprit: the output itself or a definition it uses.
    pub site: Site,
    /// Source text of the innermost sub-expression that became non-finite although all its
    /// operands were finite (or of the state/parameter/time that was already non-finite).
    pub expression: String,
    /// Character offset of `expression` in the source of `site`.
    pub offset: usize,
    /// The culprit's value.
    pub expression_value: f64,
}

impl fmt::Display for NonFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "output {} is {}: `{}` in {} is {}",
            self.output, self.value, self.expression, self.site, self.expression_value
        )
    }
}

impl Program {
    /// Number of outputs (expressions compiled).
    pub fn outputs(&self) -> usize {
        self.sources.len()
    }

    /// Number of registers the evaluation uses.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Number of instructions: loads, operations and branches, output copies.
    pub fn len(&self) -> usize {
        usize::from(self.time.is_some())
            + self.state_loads.len()
            + self.param_loads.len()
            + self.const_loads.len()
            + self.code.len()
            + self.outs.len()
    }

    /// Whether the program does nothing (no outputs).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether any output reads the time `t` (after constant folding).
    pub fn uses_time(&self) -> bool {
        self.time.is_some()
    }

    /// Whether any output reads state `i`.
    pub fn uses_state(&self, i: usize) -> bool {
        self.state_loads.iter().any(|&(_, k)| k as usize == i)
    }

    /// Whether any output reads parameter `j`.
    pub fn uses_param(&self, j: usize) -> bool {
        self.param_loads.iter().any(|&(_, k)| k as usize == j)
    }

    /// Evaluates every output at `(t, x, p)` into `out[..outputs()]`.
    ///
    /// `x` holds the states and `p` the parameters in the order of the [`crate::Names`] the
    /// program was compiled with. Works for `f64` and for every num-dual number type: seed
    /// the dual parts of `x`, `p` or `t` to get exact derivatives. Allocates nothing when
    /// [`Program::slots`] ≤ 256 (the registers live on the stack, in arrays of 16, 64 or 256
    /// entries chosen by the size); larger programs use one heap vector per call.
    ///
    /// # Panics
    /// If `x`, `p` or `out` is shorter than the number of states, parameters or outputs.
    #[inline]
    pub fn eval<D: DualNum<f64> + Copy>(&self, t: D, x: &[D], p: &[D], out: &mut [D]) {
        assert!(
            x.len() >= self.states && p.len() >= self.params && out.len() >= self.outputs(),
            "Program::eval: {} states, {} parameters and room for {} outputs needed, got {}, {} and {}",
            self.states,
            self.params,
            self.outputs(),
            x.len(),
            p.len(),
            out.len()
        );
        let z = D::from(0.0);
        match self.slots {
            0..=16 => self.run(&mut [z; 16], t, x, p, out),
            17..=64 => self.run(&mut [z; 64], t, x, p, out),
            65..=256 => self.run(&mut [z; 256], t, x, p, out),
            n => self.run(vec![z; n].as_mut_slice(), t, x, p, out),
        }
    }

    /// The instruction after the `if` whose else-branch starts at `else_pc`.
    #[cold]
    fn end_of_if(&self, else_pc: u32) -> usize {
        match (else_pc as usize)
            .checked_sub(1)
            .and_then(|k| self.code.get(k))
        {
            Some(Op::Jump { to }) => *to as usize,
            _ => self.code.len(),
        }
    }

    /// If an output is not finite at `(t, x, p)`: the first such output and the innermost
    /// sub-expression (in the output or in a definition it uses) that became non-finite
    /// although its operands were finite, e.g. `log(x)` at `x = -1` or `1/(x - y)` at
    /// `x = y`. `None` if every output is finite. Slow (it allocates and walks the syntax
    /// trees); meant for error messages.
    ///
    /// # Panics
    /// As [`Program::eval`].
    pub fn diagnose(&self, t: f64, x: &[f64], p: &[f64]) -> Option<NonFinite> {
        let mut out = vec![0.0; self.outputs()];
        self.eval(t, x, p, &mut out);
        let output = out.iter().position(|v| !v.is_finite())?;
        let mut walk = Walk {
            t,
            x,
            p,
            defs: Vec::with_capacity(self.defs.len()),
            def_const: Vec::with_capacity(self.defs.len()),
            def_pos: &self.def_pos,
        };
        for (_, s) in &self.defs {
            let v = walk.value(&s.expr);
            let c = walk.is_const(&s.expr);
            walk.defs.push(v);
            walk.def_const.push(c);
        }
        let mut site = Site::Output(output);
        let mut source = &self.sources[output];
        loop {
            // The culprit's byte span in `source` and its value.
            let (s, t, value) = match walk.locate(&source.expr) {
                Found::Here(e) => (e.start as usize, e.end as usize, walk.value(e)),
                Found::Partial(first, upto, value) => (first as usize, upto as usize, value),
                Found::Def(d) => {
                    let &k = self.def_pos.get(&d)?;
                    let (name, s) = &self.defs[k];
                    site = Site::Definition(name.clone());
                    source = s;
                    continue;
                }
            };
            let (offset, _) = char_span(&source.text, s, t);
            return Some(NonFinite {
                output,
                value: out[output],
                site,
                expression: source.text.get(s..t).unwrap_or("").to_string(),
                offset,
                expression_value: value,
            });
        }
    }
}

/// Where `locate` ended.
enum Found<'e> {
    /// This node became non-finite with finite operands (or is a non-finite input).
    Here(&'e Expr),
    /// A prefix `start..end` of a `+ -` or `* /` chain became non-finite (with this value).
    Partial(u32, u32, f64),
    /// A definition's value is non-finite: look inside it.
    Def(u32),
}

/// Tree-walking `f64` evaluation with the same kernels and the same compile-time choices
/// (integer and constant powers) as the compiled program.
struct Walk<'a> {
    t: f64,
    x: &'a [f64],
    p: &'a [f64],
    /// Values of the program's definitions, by position.
    defs: Vec<f64>,
    /// Whether each definition is a constant (folded at compile time).
    def_const: Vec<bool>,
    def_pos: &'a HashMap<u32, usize>,
}

fn arith(op: ArithOp) -> Bin {
    match op {
        ArithOp::Add => Bin::Add,
        ArithOp::Sub => Bin::Sub,
        ArithOp::Mul => Bin::Mul,
        ArithOp::Div => Bin::Div,
    }
}

pub(crate) fn comparison(op: CmpOp) -> Bin {
    match op {
        CmpOp::Lt => Bin::Lt,
        CmpOp::Le => Bin::Le,
        CmpOp::Gt => Bin::Gt,
        CmpOp::Ge => Bin::Ge,
        CmpOp::Eq => Bin::Eq,
        CmpOp::Ne => Bin::Ne,
    }
}

impl Walk<'_> {
    fn def(&self, d: u32) -> Option<usize> {
        self.def_pos.get(&d).copied()
    }

    /// Whether `e` reads nothing at run time.
    fn is_const(&self, e: &Expr) -> bool {
        match &e.kind {
            Kind::Num(_) => true,
            Kind::Var(Var::Def(d)) => self.def(*d).is_some_and(|k| self.def_const[k]),
            Kind::Var(_) => false,
            Kind::Neg(a) => self.is_const(a),
            Kind::Chain(first, rest) => {
                self.is_const(first) && rest.iter().all(|(_, e)| self.is_const(e))
            }
            Kind::Pow(a, b) | Kind::Cmp(_, a, b) => self.is_const(a) && self.is_const(b),
            Kind::Call(Func::If, args) => match args.as_slice() {
                [c, a, b] if self.is_const(c) => {
                    let v = self.value(c);
                    v.is_nan() || (v != 0.0 && self.is_const(a)) || (v == 0.0 && self.is_const(b))
                }
                _ => false,
            },
            Kind::Call(_, args) => args.iter().all(|a| self.is_const(a)),
        }
    }

    fn value(&self, e: &Expr) -> f64 {
        match &e.kind {
            Kind::Num(v) => *v,
            Kind::Var(Var::State(i)) => self.x[*i as usize],
            Kind::Var(Var::Param(i)) => self.p[*i as usize],
            Kind::Var(Var::Time) => self.t,
            Kind::Var(Var::Def(d)) => self.def(*d).map_or(f64::NAN, |k| self.defs[k]),
            Kind::Neg(a) => -self.value(a),
            Kind::Chain(first, rest) => rest.iter().fold(self.value(first), |acc, (op, e)| {
                arith(*op).apply(acc, self.value(e))
            }),
            Kind::Pow(a, b) => self.pow(a, b),
            Kind::Cmp(op, a, b) => comparison(*op).apply(self.value(a), self.value(b)),
            Kind::Call(f, args) => match (f, args.as_slice()) {
                (Func::If, [c, a, b]) => {
                    let v = self.value(c);
                    if v.is_nan() {
                        v
                    } else if v != 0.0 {
                        self.value(a)
                    } else {
                        self.value(b)
                    }
                }
                (Func::Atan2, [a, b]) => Bin::Atan2.apply(self.value(a), self.value(b)),
                (Func::Min, [a, b]) => Bin::Min.apply(self.value(a), self.value(b)),
                (Func::Max, [a, b]) => Bin::Max.apply(self.value(a), self.value(b)),
                (Func::Mod, [a, b]) => Bin::Mod.apply(self.value(a), self.value(b)),
                (f, [a]) => Un::of(*f).map_or(f64::NAN, |u| u.apply(self.value(a))),
                _ => f64::NAN,
            },
        }
    }

    /// `a^b` as compiled: `powi`/`powf` for a constant exponent, `powd` otherwise.
    fn pow(&self, a: &Expr, b: &Expr) -> f64 {
        let (va, vb) = (self.value(a), self.value(b));
        if self.is_const(b) {
            if let Some(n) = int_exponent(vb) {
                return powi(va, n);
            }
            if vb.is_finite() {
                return powf(va, vb);
            }
        }
        powd(va, vb)
    }

    /// Follows non-finite values down from `e` (whose value is not finite).
    fn locate<'e>(&self, e: &'e Expr) -> Found<'e> {
        let bad = |v: f64| !v.is_finite();
        match &e.kind {
            Kind::Var(Var::Def(d)) => Found::Def(*d),
            Kind::Num(_) | Kind::Var(_) | Kind::Cmp(..) => Found::Here(e),
            Kind::Neg(a) => self.locate(a),
            Kind::Chain(first, rest) => {
                let mut acc = self.value(first);
                if bad(acc) {
                    return self.locate(first);
                }
                for (k, (op, r)) in rest.iter().enumerate() {
                    let v = self.value(r);
                    if bad(v) {
                        return self.locate(r);
                    }
                    acc = arith(*op).apply(acc, v);
                    if bad(acc) {
                        return if k + 1 == rest.len() {
                            Found::Here(e)
                        } else {
                            Found::Partial(first.start, r.end, acc)
                        };
                    }
                }
                Found::Here(e)
            }
            Kind::Pow(a, b) => {
                if bad(self.value(a)) {
                    self.locate(a)
                } else if bad(self.value(b)) {
                    self.locate(b)
                } else {
                    Found::Here(e)
                }
            }
            Kind::Call(Func::If, args) => match args.as_slice() {
                [c, a, b] => {
                    let v = self.value(c);
                    if v.is_nan() {
                        self.locate(c)
                    } else if v != 0.0 {
                        self.locate(a)
                    } else {
                        self.locate(b)
                    }
                }
                _ => Found::Here(e),
            },
            Kind::Call(_, args) => match args.iter().find(|a| bad(self.value(a))) {
                Some(a) => self.locate(a),
                None => Found::Here(e),
            },
        }
    }
}

impl fmt::Display for Program {
    /// A listing: loads, then the code (`r3 = sin r2`, numbered for the jumps), then the
    /// output copies.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "; {} outputs, {} registers, {} instructions",
            self.outputs(),
            self.slots,
            self.len()
        )?;
        if let Some(s) = self.time {
            writeln!(f, "      r{s} = t")?;
        }
        for &(s, i) in &self.state_loads {
            writeln!(f, "      r{s} = x[{i}]")?;
        }
        for &(s, i) in &self.param_loads {
            writeln!(f, "      r{s} = p[{i}]")?;
        }
        for &(s, c) in &self.const_loads {
            writeln!(f, "      r{s} = {c:?}")?;
        }
        for (pc, op) in self.code.iter().enumerate() {
            write!(f, "{pc:4}  ")?;
            if let Some((u, d, a)) = op.as_un() {
                writeln!(f, "r{d} = {} r{a}", u.name())?;
                continue;
            }
            if let Some((b, d, x, y)) = op.as_bin() {
                writeln!(f, "r{d} = r{x} {} r{y}", b.symbol())?;
                continue;
            }
            match *op {
                Op::Copy { dst, a } => writeln!(f, "r{dst} = r{a}")?,
                Op::SinCos { s, c, a } => writeln!(f, "r{s}, r{c} = sincos r{a}")?,
                Op::Powi { dst, a, n } => writeln!(f, "r{dst} = r{a} powi {n}")?,
                Op::Powf { dst, a, k } => {
                    writeln!(f, "r{dst} = r{a} powf {:?}", self.consts[k as usize])?
                }
                Op::Branch { cond, dst, else_pc } => writeln!(
                    f,
                    "if r{cond} == 0 goto {else_pc}  (if NaN: r{dst} = r{cond}, goto end)"
                )?,
                Op::Jump { to } => writeln!(f, "goto {to}")?,
                _ => writeln!(f, "{op:?}")?,
            }
        }
        for (o, s) in self.outs.iter().enumerate() {
            writeln!(f, "      out[{o}] = r{s}")?;
        }
        Ok(())
    }
}
