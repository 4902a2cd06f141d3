//! Lowering syntax trees to register code: constant folding, common sub-expressions,
//! branches for `if`, then register allocation.

use crate::defs::Definitions;
use crate::error::{ExprError, RawError, Site};
use crate::func::{int_exponent, powf, powi, Bin, Func, Un};
use crate::limits::MAX_OPS;
use crate::parser::{parse, ArithOp, CmpOp, Expr, Kind, Scope, Var};
use crate::program::{comparison, Op, Program, Source};
use crate::Names;
use std::collections::HashMap;

/// Compiles `exprs` (the outputs, in order) into one [`Program`], with the definitions
/// `defs` (made with the same `names`) available to them.
///
/// Only the definitions the outputs use, directly or through other definitions, are
/// computed. Errors are those of the expressions ([`Site::Output`] with the index in
/// `exprs`), [`crate::ExprErrorKind::NotFinite`] for a sub-expression of numbers alone whose
/// value is NaN or infinite (`log(-1)`, `1/0`, `pow(10, 400)`: constant folding finds it at
/// compile time, where it is a mistake whatever the state; not inside the branches of an `if`
/// on the state, where it marks a region the field is undefined in), and
/// [`crate::ExprErrorKind::TooLarge`] for a program of more than
/// [`MAX_OPS`](crate::limits::MAX_OPS) instructions.
///
/// # Panics
/// If `defs` is not empty and was made with other names than `names`.
pub fn compile(exprs: &[&str], defs: &Definitions, names: &Names) -> Result<Program, ExprError> {
    assert!(
        defs.made_with(names),
        "compile: the definitions were made with other state or parameter names"
    );
    let scope = Scope::new(names, &defs.names);
    let mut parsed = Vec::with_capacity(exprs.len());
    for (i, src) in exprs.iter().enumerate() {
        parsed.push(parse(src, &scope).map_err(|e| e.at(src, Site::Output(i)))?);
    }

    // The definitions the outputs need.
    let mut used = vec![false; defs.len()];
    for e in &parsed {
        e.visit_defs(&mut |d, _| used[d as usize] = true);
    }
    for &d in defs.order.iter().rev() {
        if used[d as usize] {
            for &w in &defs.deps[d as usize] {
                used[w as usize] = true;
            }
        }
    }

    let stopped = |stop: Stop, src: &str, site: Site| match stop {
        Stop::Full => RawError::too_large(
            0,
            0,
            format!("the compiled program would exceed {MAX_OPS} instructions"),
        )
        .at(src, site),
        Stop::NotFinite { start, end, value } => {
            let (start, end) = (start as usize, end as usize);
            let part = src.get(start..end).unwrap_or(src);
            RawError::not_finite(start, end, part, value).at(src, site)
        }
    };
    let mut lw = Lowerer::new(defs.len());
    let mut kept_defs = Vec::new();
    let mut def_pos = HashMap::new();
    for &d in &defs.order {
        let d = d as usize;
        if !used[d] {
            continue;
        }
        let site = || Site::Definition(defs.names[d].clone());
        let v = lw
            .lower(&defs.exprs[d])
            .map_err(|stop| stopped(stop, &defs.sources[d], site()))?;
        lw.def_vals[d] = Some(v);
        def_pos.insert(d as u32, kept_defs.len());
        kept_defs.push((
            defs.names[d].clone(),
            Source {
                text: defs.sources[d].clone(),
                expr: defs.exprs[d].clone(),
            },
        ));
    }
    for (i, e) in parsed.iter().enumerate() {
        let store = |lw: &mut Lowerer| -> Result<(), Stop> {
            let v = lw.lower(e)?;
            let a = lw.reg(v)?;
            Ok(lw.push(Op::Store { out: i as u32, a })?)
        };
        store(&mut lw).map_err(|stop| stopped(stop, exprs[i], Site::Output(i)))?;
    }

    let (mut ops, loads, stores) = split(lw.body);
    let slots = allocate(&mut ops, lw.next);
    let mut program = Program {
        time: None,
        state_loads: Vec::new(),
        param_loads: Vec::new(),
        const_loads: Vec::new(),
        code: Vec::new(),
        consts: lw.consts,
        outs: Vec::new(),
        slots,
        states: names.states.len(),
        params: names.params.len(),
        sources: parsed
            .into_iter()
            .zip(exprs)
            .map(|(expr, text)| Source {
                text: text.to_string(),
                expr,
            })
            .collect(),
        defs: kept_defs,
        def_pos,
    };
    for op in &ops[..loads] {
        match *op {
            Op::Time { dst } => program.time = Some(dst),
            Op::State { dst, i } => program.state_loads.push((dst, i)),
            Op::Param { dst, i } => program.param_loads.push((dst, i)),
            Op::Const { dst, k } => program.const_loads.push((dst, program.consts[k as usize])),
            _ => {}
        }
    }
    let code_end = ops.len() - stores;
    program.code = ops[loads..code_end]
        .iter()
        .map(|op| match *op {
            Op::Branch { cond, dst, else_pc } => Op::Branch {
                cond,
                dst,
                else_pc: else_pc - loads as u32,
            },
            Op::Jump { to } => Op::Jump {
                to: to - loads as u32,
            },
            op => op,
        })
        .collect();
    let mut outs = vec![0; stores];
    for op in &ops[code_end..] {
        if let Op::Store { out, a } = *op {
            outs[out as usize] = a;
        }
    }
    program.outs = outs;
    Ok(program)
}

/// Reorders `ops` into loads, then the rest, then the stores, with jump targets remapped (a
/// target that was a moved instruction becomes the next one kept). Returns the ops and the
/// numbers of loads and stores. Loads are pure and stores read final values, so the order
/// does not change results; it lets the evaluator run loads and stores in tight loops
/// outside the dispatch loop.
fn split(ops: Vec<Op>) -> (Vec<Op>, usize, usize) {
    let is_load = |op: &Op| {
        matches!(
            op,
            Op::Time { .. } | Op::State { .. } | Op::Param { .. } | Op::Const { .. }
        )
    };
    let is_store = |op: &Op| matches!(op, Op::Store { .. });
    let loads: Vec<Op> = ops.iter().copied().filter(is_load).collect();
    let stores: Vec<Op> = ops.iter().copied().filter(is_store).collect();
    // New position (counted from the first non-load) of each old position.
    let mut index = Vec::with_capacity(ops.len() + 1);
    let mut k = 0u32;
    for op in &ops {
        index.push(k);
        if !is_load(op) && !is_store(op) {
            k += 1;
        }
    }
    index.push(k);
    let base = loads.len() as u32;
    let mut out = loads;
    let (nl, ns) = (out.len(), stores.len());
    out.extend(
        ops.iter()
            .filter(|op| !is_load(op) && !is_store(op))
            .map(|op| match *op {
                Op::Branch { cond, dst, else_pc } => Op::Branch {
                    cond,
                    dst,
                    else_pc: base + index[else_pc as usize],
                },
                Op::Jump { to } => Op::Jump {
                    to: base + index[to as usize],
                },
                op => op,
            }),
    );
    out.extend(stores);
    (out, nl, ns)
}

/// Why lowering stopped: the instruction limit was reached, or a sub-expression of numbers
/// alone (`start..end`, bytes) folded to a value that is not finite.
enum Stop {
    Full,
    NotFinite { start: u32, end: u32, value: f64 },
}

/// The instruction limit was reached.
struct Full;

impl From<Full> for Stop {
    fn from(_: Full) -> Self {
        Stop::Full
    }
}

/// A lowered value: a compile-time constant or a virtual register.
#[derive(Debug, Clone, Copy)]
enum Val {
    K(f64),
    R(u32),
}

struct Lowerer {
    /// The code, in order: loads of inputs and constants (moved to the front by `split`),
    /// operations, branches and stores.
    body: Vec<Op>,
    consts: Vec<f64>,
    const_index: HashMap<u64, u32>,
    /// Loads by their instruction with `dst = 0`.
    loads: HashMap<Op, u32>,
    /// Computed values by their instruction with `dst = 0`, one table per open branch.
    scopes: Vec<HashMap<Op, u32>>,
    next: u32,
    def_vals: Vec<Option<Val>>,
    /// Top-level `sin a` or `cos a` not yet paired: argument register → (body index, result).
    trig: HashMap<u32, (usize, u32)>,
}

fn arith(op: ArithOp) -> Bin {
    match op {
        ArithOp::Add => Bin::Add,
        ArithOp::Sub => Bin::Sub,
        ArithOp::Mul => Bin::Mul,
        ArithOp::Div => Bin::Div,
    }
}

/// `op` with its destination set to `dst`.
fn with_dst(mut op: Op, dst: u32) -> Op {
    if let ([Some(d), _], _) = op.regs_mut() {
        *d = dst;
    }
    op
}

impl Lowerer {
    fn new(defs: usize) -> Self {
        Self {
            body: Vec::new(),
            consts: Vec::new(),
            const_index: HashMap::new(),
            loads: HashMap::new(),
            scopes: vec![HashMap::new()],
            next: 0,
            def_vals: vec![None; defs],
            trig: HashMap::new(),
        }
    }

    fn vreg(&mut self) -> u32 {
        self.next += 1;
        self.next - 1
    }

    fn push(&mut self, op: Op) -> Result<(), Full> {
        if self.body.len() >= MAX_OPS {
            return Err(Full);
        }
        self.body.push(op);
        Ok(())
    }

    fn constant(&mut self, v: f64) -> u32 {
        *self.const_index.entry(v.to_bits()).or_insert_with(|| {
            self.consts.push(v);
            self.consts.len() as u32 - 1
        })
    }

    /// A load of an input or constant, once per program (`split` moves all loads to the
    /// front, so a load first met inside a branch is valid after it too).
    fn load(&mut self, key: Op) -> Result<u32, Full> {
        if let Some(&v) = self.loads.get(&key) {
            return Ok(v);
        }
        let v = self.vreg();
        self.push(with_dst(key, v))?;
        self.loads.insert(key, v);
        Ok(v)
    }

    fn reg(&mut self, v: Val) -> Result<u32, Full> {
        match v {
            Val::R(r) => Ok(r),
            Val::K(c) => {
                let k = self.constant(c);
                self.load(Op::Const { dst: 0, k })
            }
        }
    }

    /// The register holding `key`'s result: an earlier identical computation visible here,
    /// or a new instruction.
    fn emit(&mut self, key: Op) -> Result<Val, Full> {
        for s in self.scopes.iter().rev() {
            if let Some(&v) = s.get(&key) {
                return Ok(Val::R(v));
            }
        }
        let v = self.vreg();
        self.push(with_dst(key, v))?;
        if let Some(s) = self.scopes.last_mut() {
            s.insert(key, v);
        }
        Ok(Val::R(v))
    }

    fn un(&mut self, f: Un, a: Val) -> Result<Val, Full> {
        let r = match a {
            Val::K(x) => return Ok(Val::K(f.apply(x))),
            Val::R(r) => r,
        };
        let key = Op::un(f, 0, r);
        let partner = match f {
            Un::Sin => Un::Cos,
            Un::Cos => Un::Sin,
            _ => return self.emit(key),
        };
        // Outside branches, `sin a` and `cos a` become one `sincos a`.
        let top = self.scopes.len() == 1;
        if top && !self.scopes[0].contains_key(&key) {
            if let Some(&(at, other)) = self.trig.get(&r) {
                if let Some(&v_other) = self.scopes[0].get(&Op::un(partner, 0, r)) {
                    debug_assert_eq!(v_other, other);
                    let v = self.vreg();
                    let (s, c) = if f == Un::Sin {
                        (v, v_other)
                    } else {
                        (v_other, v)
                    };
                    self.body[at] = Op::SinCos { s, c, a: r };
                    self.scopes[0].insert(key, v);
                    self.trig.remove(&r);
                    return Ok(Val::R(v));
                }
            }
        }
        let v = self.emit(key)?;
        if let (true, Val::R(reg)) = (top, v) {
            if self.body.last() == Some(&with_dst(key, reg)) {
                self.trig.insert(r, (self.body.len() - 1, reg));
            }
        }
        Ok(v)
    }

    fn bin(&mut self, f: Bin, a: Val, b: Val) -> Result<Val, Full> {
        if let (Val::K(x), Val::K(y)) = (a, b) {
            return Ok(Val::K(f.apply(x, y)));
        }
        let (ra, rb) = (self.reg(a)?, self.reg(b)?);
        self.emit(Op::bin(f, 0, ra, rb))
    }

    fn pow(&mut self, a: Val, b: Val) -> Result<Val, Full> {
        let Val::K(n) = b else {
            return self.bin(Bin::Pow, a, b);
        };
        if let Some(i) = int_exponent(n) {
            return match a {
                Val::K(x) => Ok(Val::K(powi(x, i))),
                Val::R(r) => self.emit(Op::Powi { dst: 0, a: r, n: i }),
            };
        }
        if n.is_finite() {
            return match a {
                Val::K(x) => Ok(Val::K(powf(x, n))),
                Val::R(r) => {
                    let k = self.constant(n);
                    self.emit(Op::Powf { dst: 0, a: r, k })
                }
            };
        }
        self.bin(Bin::Pow, a, b)
    }

    /// Lowers `e`. The recursion goes through small per-kind functions (never inlined), so
    /// each level of the tree costs little stack even in unoptimised builds.
    ///
    /// A constant that folds to NaN or ±∞ stops it at the innermost such sub-expression
    /// (its operands, lowered first, were finite), except inside a branch of an `if` whose
    /// condition depends on the state: `if(abs(x) < 10, f, 0/0)` marks a region where the
    /// field is deliberately undefined, and evaluation names it when it is reached.
    fn lower(&mut self, e: &Expr) -> Result<Val, Stop> {
        let v = match &e.kind {
            Kind::Num(v) => Ok(Val::K(*v)),
            Kind::Var(v) => self.lower_var(*v),
            Kind::Neg(a) => self.lower_neg(a),
            Kind::Chain(first, rest) => self.lower_chain(first, rest),
            Kind::Pow(a, b) => self.lower_pow(a, b),
            Kind::Cmp(op, a, b) => self.lower_cmp(*op, a, b),
            Kind::Call(f, args) => self.lower_call(*f, args),
        }?;
        match v {
            Val::K(value) if !value.is_finite() && self.scopes.len() == 1 => Err(Stop::NotFinite {
                start: e.start,
                end: e.end,
                value,
            }),
            v => Ok(v),
        }
    }

    fn lower_var(&mut self, v: Var) -> Result<Val, Stop> {
        match v {
            Var::Def(d) => {
                let v = self.def_vals.get(d as usize).copied().flatten();
                debug_assert!(v.is_some(), "definition lowered before use");
                Ok(v.unwrap_or(Val::K(f64::NAN)))
            }
            Var::State(i) => Ok(self.load(Op::State { dst: 0, i }).map(Val::R)?),
            Var::Param(i) => Ok(self.load(Op::Param { dst: 0, i }).map(Val::R)?),
            Var::Time => Ok(self.load(Op::Time { dst: 0 }).map(Val::R)?),
        }
    }

    #[inline(never)]
    fn lower_neg(&mut self, a: &Expr) -> Result<Val, Stop> {
        let a = self.lower(a)?;
        Ok(self.un(Un::Neg, a)?)
    }

    #[inline(never)]
    fn lower_chain(&mut self, first: &Expr, rest: &[(ArithOp, Expr)]) -> Result<Val, Stop> {
        let mut acc = self.lower(first)?;
        for (op, e) in rest {
            let v = self.lower(e)?;
            acc = self.bin(arith(*op), acc, v)?;
        }
        Ok(acc)
    }

    #[inline(never)]
    fn lower_pow(&mut self, a: &Expr, b: &Expr) -> Result<Val, Stop> {
        let a = self.lower(a)?;
        let b = self.lower(b)?;
        Ok(self.pow(a, b)?)
    }

    #[inline(never)]
    fn lower_cmp(&mut self, op: CmpOp, a: &Expr, b: &Expr) -> Result<Val, Stop> {
        let a = self.lower(a)?;
        let b = self.lower(b)?;
        Ok(self.bin(comparison(op), a, b)?)
    }

    #[inline(never)]
    fn lower_call(&mut self, f: Func, args: &[Expr]) -> Result<Val, Stop> {
        match (f, args) {
            (Func::If, [c, a, b]) => self.branch(c, a, b),
            (Func::Atan2 | Func::Min | Func::Max | Func::Mod, [a, b]) => {
                let f = match f {
                    Func::Atan2 => Bin::Atan2,
                    Func::Min => Bin::Min,
                    Func::Mod => Bin::Mod,
                    _ => Bin::Max,
                };
                let a = self.lower(a)?;
                let b = self.lower(b)?;
                Ok(self.bin(f, a, b)?)
            }
            (f, [a]) => {
                let a = self.lower(a)?;
                match Un::of(f) {
                    Some(u) => Ok(self.un(u, a)?),
                    None => Ok(Val::K(f64::NAN)),
                }
            }
            _ => Ok(Val::K(f64::NAN)),
        }
    }

    /// `if(c, a, b)`: folded for a constant `c`, else a branch over two scopes.
    #[inline(never)]
    fn branch(&mut self, c: &Expr, a: &Expr, b: &Expr) -> Result<Val, Stop> {
        let c = self.lower(c)?;
        let cond = match c {
            Val::K(k) if k.is_nan() => return Ok(c),
            Val::K(k) if k != 0.0 => return self.lower(a),
            Val::K(_) => return self.lower(b),
            Val::R(r) => r,
        };
        let dst = self.vreg();
        let at_branch = self.body.len();
        self.push(Op::Branch {
            cond,
            dst,
            else_pc: 0,
        })?;
        for (side, e) in [a, b].into_iter().enumerate() {
            self.scopes.push(HashMap::new());
            let v = self.lower(e)?;
            let r = self.reg(v)?;
            self.push(Op::Copy { dst, a: r })?;
            self.scopes.pop();
            if side == 0 {
                // Patched below to jump past the else-branch.
                self.push(Op::Jump { to: 0 })?;
                self.body[at_branch] = Op::Branch {
                    cond,
                    dst,
                    else_pc: self.body.len() as u32,
                };
            }
        }
        let end = self.body.len() as u32;
        // The jump that ends the then-branch is the instruction before the else-branch.
        if let Op::Branch { else_pc, .. } = self.body[at_branch] {
            self.body[else_pc as usize - 1] = Op::Jump { to: end };
        }
        Ok(Val::R(dst))
    }
}

/// Linear-scan register allocation over straight code with forward jumps: a virtual register
/// lives from its first to its last mention, and its slot is reused after that. Returns the
/// number of slots.
fn allocate(ops: &mut [Op], nregs: u32) -> usize {
    const NONE: u32 = u32::MAX;
    let mut last = vec![0usize; nregs as usize];
    for (i, op) in ops.iter_mut().enumerate() {
        let (d, s) = op.regs_mut();
        for v in d.into_iter().chain(s).flatten() {
            last[*v as usize] = i;
        }
    }
    let mut slot = vec![NONE; nregs as usize];
    let mut free: Vec<u32> = Vec::new();
    let mut slots = 0u32;
    for (i, op) in ops.iter_mut().enumerate() {
        let (d, s) = op.regs_mut();
        let mut dying = [NONE; 2];
        for (k, r) in s.into_iter().flatten().enumerate() {
            let v = *r as usize;
            *r = slot[v];
            if last[v] == i && !dying.contains(&slot[v]) {
                dying[k] = slot[v];
            }
        }
        free.extend(dying.into_iter().filter(|&s| s != NONE));
        let mut written = [NONE; 2];
        for (k, r) in d.into_iter().flatten().enumerate() {
            let v = *r as usize;
            if slot[v] == NONE {
                slot[v] = free.pop().unwrap_or_else(|| {
                    slots += 1;
                    slots - 1
                });
            }
            *r = slot[v];
            if last[v] == i {
                written[k] = slot[v];
            }
        }
        free.extend(written.into_iter().filter(|&s| s != NONE));
    }
    slots as usize
}
