//! Operator-precedence parser with explicit stacks (no recursion) and bounded nesting;
//! names are resolved while parsing.

use crate::error::{did_you_mean, suggest, ExprErrorKind, RawError};
use crate::func::{Func, FUNCTIONS};
use crate::lexer::{lex, Tok, Token};
use crate::limits::{MAX_DEPTH, MAX_SOURCE_CHARS};
use crate::Names;
use std::collections::HashMap;

/// A value an expression can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Var {
    State(u32),
    Param(u32),
    Time,
    /// A definition, by its index in the list given to `Definitions::new`.
    Def(u32),
}

/// `+ - * /`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// `< <= > >= == !=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A node with its byte range in the source (parentheses around it included).
#[derive(Debug, Clone)]
pub(crate) struct Expr {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, Clone)]
pub(crate) enum Kind {
    Num(f64),
    Var(Var),
    Neg(Box<Expr>),
    /// `first op1 e1 op2 e2 …`, evaluated left to right (one level of `+ -` or of `* /`).
    Chain(Box<Expr>, Vec<(ArithOp, Expr)>),
    Pow(Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// A function other than `pow` (which becomes [`Kind::Pow`]).
    Call(Func, Vec<Expr>),
}

impl Expr {
    /// Calls `f` on every definition this expression reads, with the byte offset of the
    /// reference, in source order.
    pub(crate) fn visit_defs(&self, f: &mut impl FnMut(u32, u32)) {
        match &self.kind {
            Kind::Num(_) => {}
            Kind::Var(Var::Def(d)) => f(*d, self.start),
            Kind::Var(_) => {}
            Kind::Neg(a) => a.visit_defs(f),
            Kind::Chain(first, rest) => {
                first.visit_defs(f);
                for (_, e) in rest {
                    e.visit_defs(f);
                }
            }
            Kind::Pow(a, b) | Kind::Cmp(_, a, b) => {
                a.visit_defs(f);
                b.visit_defs(f);
            }
            Kind::Call(_, args) => {
                for a in args {
                    a.visit_defs(f);
                }
            }
        }
    }
}

/// What a name means.
#[derive(Debug, Clone, Copy)]
enum Sym {
    Var(Var),
    Pi,
}

/// The names visible in expressions.
pub(crate) struct Scope<'a> {
    map: HashMap<&'a str, Sym>,
}

impl<'a> Scope<'a> {
    /// States, parameters, `t`, `pi` and the definitions `defs` (by index). On a clash the
    /// later kind wins: definitions over states over parameters over `t` and `pi` (clashes
    /// with definitions are refused before this, the others are the caller's business).
    pub(crate) fn new(names: &Names<'a>, defs: &'a [String]) -> Self {
        let mut map = HashMap::new();
        map.insert("pi", Sym::Pi);
        map.insert("t", Sym::Var(Var::Time));
        for (i, p) in names.params.iter().enumerate() {
            map.insert(p.as_str(), Sym::Var(Var::Param(i as u32)));
        }
        for (i, s) in names.states.iter().enumerate() {
            map.insert(s.as_str(), Sym::Var(Var::State(i as u32)));
        }
        for (i, d) in defs.iter().enumerate() {
            map.insert(d.as_str(), Sym::Var(Var::Def(i as u32)));
        }
        Scope { map }
    }

    fn suggestions(&self, name: &str) -> Vec<String> {
        suggest(name, self.map.keys().copied())
    }
}

/// Errors are boxed: they are rare, and the parser's state stays small.
type R<T> = Result<T, Box<RawError>>;

/// Parses one expression.
pub(crate) fn parse(src: &str, scope: &Scope) -> Result<Expr, RawError> {
    if src.len() > MAX_SOURCE_CHARS {
        let n = src.chars().count();
        if n > MAX_SOURCE_CHARS {
            return Err(RawError::too_large(
                0,
                0,
                format!("expression of {n} characters: at most {MAX_SOURCE_CHARS}"),
            ));
        }
    }
    let toks = lex(src)?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: 0,
        scope,
    };
    if p.peek().tok == Tok::End {
        return Err(RawError::syntax(0, src.len(), "empty expression"));
    }
    p.run().map_err(|e| *e)
}

fn is_comparison(t: Tok) -> bool {
    matches!(
        t,
        Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge | Tok::EqEq | Tok::Ne
    )
}

struct Parser<'s, 'a> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    scope: &'s Scope<'a>,
}

/// What an expression being parsed is part of.
enum Context {
    /// The whole input.
    Top,
    /// `( … )`.
    Paren { open: Token },
    /// An argument of a call `name( …, … )`.
    Arg {
        name: Token,
        func: Func,
        arity: usize,
        open: Token,
        args: Vec<Expr>,
    },
}

/// Something applied to the operand being parsed once it is complete.
enum Prefix {
    /// A sign `-` or `+`.
    Sign(Token),
    /// `base ^` (the operand is the exponent).
    PowBase(Expr),
}

/// One expression under construction (the input, a parenthesis or an argument):
/// `[sum cmp] sum`, a sum of products, with the current factor's pending signs and bases.
struct Level {
    context: Context,
    cmp: Option<(Expr, CmpOp)>,
    sum: Option<(Expr, Vec<(ArithOp, Expr)>)>,
    sum_op: ArithOp,
    product: Option<(Expr, Vec<(ArithOp, Expr)>)>,
    product_op: ArithOp,
    prefixes: Vec<Prefix>,
}

impl Level {
    fn new(context: Context) -> Self {
        Level {
            context,
            cmp: None,
            sum: None,
            sum_op: ArithOp::Add,
            product: None,
            product_op: ArithOp::Mul,
            prefixes: Vec::new(),
        }
    }

    /// Adds a complete factor to the product.
    fn push_factor(&mut self, e: Expr) {
        match &mut self.product {
            None => self.product = Some((e, Vec::new())),
            Some((_, rest)) => rest.push((self.product_op, e)),
        }
    }

    /// Closes the product into the sum.
    fn close_product(&mut self) {
        if let Some((first, rest)) = self.product.take() {
            let term = chain(first, rest);
            match &mut self.sum {
                None => self.sum = Some((term, Vec::new())),
                Some((_, terms)) => terms.push((self.sum_op, term)),
            }
        }
    }

    /// The finished expression of this level.
    fn finish(&mut self) -> Expr {
        self.close_product();
        let (first, rest) = self.sum.take().unwrap_or((
            Expr {
                kind: Kind::Num(f64::NAN),
                start: 0,
                end: 0,
            },
            Vec::new(),
        ));
        let e = chain(first, rest);
        match self.cmp.take() {
            None => e,
            Some((a, op)) => Expr {
                start: a.start,
                end: e.end,
                kind: Kind::Cmp(op, Box::new(a), Box::new(e)),
            },
        }
    }
}

// An operator-precedence parser with explicit stacks instead of recursion: the nesting
// limit bounds memory, not the call stack, so no input can overflow the stack here.
impl<'s> Parser<'s, '_> {
    fn peek(&self) -> Token {
        self.toks[self.pos]
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos];
        if t.tok != Tok::End {
            self.pos += 1;
        }
        t
    }

    fn text(&self, t: Token) -> &'s str {
        &self.src[t.start..t.end]
    }

    /// One more level of nesting (parenthesis, call, sign, exponent).
    fn enter(&mut self, at: Token) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(too_deep(at));
        }
        Ok(())
    }

    fn run(&mut self) -> R<Expr> {
        let mut levels = vec![Level::new(Context::Top)];
        'operand: loop {
            // Expecting an operand: signs, then a number, name, call or parenthesis.
            let t = self.bump();
            let (start, end) = (t.start as u32, t.end as u32);
            let mut e = match t.tok {
                Tok::Minus | Tok::Plus => {
                    self.enter(t)?;
                    top(&mut levels).prefixes.push(Prefix::Sign(t));
                    continue 'operand;
                }
                Tok::LParen => {
                    self.enter(t)?;
                    levels.push(Level::new(Context::Paren { open: t }));
                    continue 'operand;
                }
                Tok::Ident if self.peek().tok == Tok::LParen => {
                    let Some((func, arity)) = Func::from_name(self.text(t)) else {
                        return Err(self.unknown_function(t));
                    };
                    let open = self.bump();
                    self.enter(open)?;
                    if self.peek().tok == Tok::RParen {
                        let close = self.bump();
                        self.depth -= 1;
                        self.call(t, func, arity, Vec::new(), close)?
                    } else {
                        levels.push(Level::new(Context::Arg {
                            name: t,
                            func,
                            arity,
                            open,
                            args: Vec::new(),
                        }));
                        continue 'operand;
                    }
                }
                Tok::Num(v) => Expr {
                    kind: Kind::Num(v),
                    start,
                    end,
                },
                Tok::Ident => match self.scope.map.get(self.text(t)) {
                    Some(Sym::Var(v)) => Expr {
                        kind: Kind::Var(*v),
                        start,
                        end,
                    },
                    Some(Sym::Pi) => Expr {
                        kind: Kind::Num(std::f64::consts::PI),
                        start,
                        end,
                    },
                    None => return Err(self.unknown_name(t)),
                },
                _ => return Err(self.no_operand(t)),
            };
            // An operand is complete: an exponent may follow, else its prefixes apply, and an
            // operator or the end of its level follows.
            loop {
                let t = self.peek();
                if t.tok == Tok::Caret {
                    self.bump();
                    self.enter(t)?;
                    top(&mut levels).prefixes.push(Prefix::PowBase(e));
                    continue 'operand;
                }
                let level = top(&mut levels);
                while let Some(p) = level.prefixes.pop() {
                    self.depth -= 1;
                    e = match p {
                        Prefix::PowBase(base) => Expr {
                            start: base.start,
                            end: e.end,
                            kind: Kind::Pow(Box::new(base), Box::new(e)),
                        },
                        Prefix::Sign(s) if s.tok == Tok::Plus => Expr {
                            start: s.start as u32,
                            ..e
                        },
                        Prefix::Sign(s) => Expr {
                            start: s.start as u32,
                            end: e.end,
                            kind: Kind::Neg(Box::new(e)),
                        },
                    };
                }
                level.push_factor(e);
                match t.tok {
                    Tok::Star | Tok::Slash => {
                        self.bump();
                        level.product_op = if t.tok == Tok::Star {
                            ArithOp::Mul
                        } else {
                            ArithOp::Div
                        };
                        continue 'operand;
                    }
                    Tok::Plus | Tok::Minus => {
                        self.bump();
                        level.close_product();
                        level.sum_op = if t.tok == Tok::Plus {
                            ArithOp::Add
                        } else {
                            ArithOp::Sub
                        };
                        continue 'operand;
                    }
                    _ if is_comparison(t.tok) => {
                        if level.cmp.is_some() {
                            return Err(chained(t));
                        }
                        self.bump();
                        let op = match t.tok {
                            Tok::Lt => CmpOp::Lt,
                            Tok::Le => CmpOp::Le,
                            Tok::Gt => CmpOp::Gt,
                            Tok::Ge => CmpOp::Ge,
                            Tok::EqEq => CmpOp::Eq,
                            _ => CmpOp::Ne,
                        };
                        let lhs = level.finish();
                        level.cmp = Some((lhs, op));
                        continue 'operand;
                    }
                    _ => {}
                }
                // The level ends here: close it according to its context.
                let value = level.finish();
                let Some(mut done) = levels.pop() else {
                    return Err(self.trailing(t));
                };
                match std::mem::replace(&mut done.context, Context::Top) {
                    Context::Top => {
                        if t.tok != Tok::End {
                            return Err(self.trailing(t));
                        }
                        return Ok(value);
                    }
                    Context::Paren { open } => {
                        if t.tok != Tok::RParen {
                            return Err(self.unclosed(open, t, None));
                        }
                        self.bump();
                        self.depth -= 1;
                        e = Expr {
                            start: open.start as u32,
                            end: t.end as u32,
                            ..value
                        };
                    }
                    Context::Arg {
                        name,
                        func,
                        arity,
                        open,
                        mut args,
                    } => {
                        args.push(value);
                        match t.tok {
                            Tok::Comma => {
                                self.bump();
                                levels.push(Level::new(Context::Arg {
                                    name,
                                    func,
                                    arity,
                                    open,
                                    args,
                                }));
                                continue 'operand;
                            }
                            Tok::RParen => {
                                self.bump();
                                self.depth -= 1;
                                e = self.call(name, func, arity, args, t)?;
                            }
                            _ => return Err(self.unclosed(open, t, Some(name))),
                        }
                    }
                }
                // The parenthesis or call is an operand of the enclosing level.
            }
        }
    }

    /// The call `name(args)` ending at `close`.
    fn call(
        &self,
        name: Token,
        func: Func,
        arity: usize,
        args: Vec<Expr>,
        close: Token,
    ) -> R<Expr> {
        let (start, end) = (name.start as u32, close.end as u32);
        if args.len() != arity {
            return Err(self.arity(name, close.end, arity, args.len()));
        }
        if func == Func::Pow {
            return match <[Expr; 2]>::try_from(args) {
                Ok([a, b]) => Ok(Expr {
                    kind: Kind::Pow(Box::new(a), Box::new(b)),
                    start,
                    end,
                }),
                Err(args) => Err(self.arity(name, close.end, 2, args.len())),
            };
        }
        Ok(Expr {
            kind: Kind::Call(func, args),
            start,
            end,
        })
    }

    // Errors, out of line.

    /// What follows a complete expression.
    #[cold]
    #[inline(never)]
    fn trailing(&self, t: Token) -> Box<RawError> {
        match t.tok {
            Tok::RParen => Box::new(RawError::syntax(
                t.start,
                t.end,
                "unmatched `)` (no `(` to close)",
            )),
            Tok::Comma => Box::new(RawError::syntax(
                t.start,
                t.end,
                "unexpected `,` outside a function's arguments",
            )),
            _ if is_comparison(t.tok) => chained(t),
            _ => self.missing_operator(t),
        }
    }

    /// An operand was complete but `t` follows without an operator.
    #[cold]
    #[inline(never)]
    fn missing_operator(&self, t: Token) -> Box<RawError> {
        let prev = self.toks[..self.pos]
            .iter()
            .rev()
            .find(|p| p.end <= t.start);
        let what = match t.tok {
            Tok::Num(_) => format!("number `{}`", self.text(t)),
            Tok::Ident => format!("name `{}`", self.text(t)),
            _ => format!("`{}`", self.text(t)),
        };
        let hint = match prev {
            Some(p) if p.end == t.start && matches!(p.tok, Tok::Num(_)) => format!(
                " (write `{}*{}` for a product)",
                self.text(*p),
                self.text(t)
            ),
            _ => String::new(),
        };
        Box::new(RawError::syntax(
            t.start,
            t.end,
            format!("expected an operator before {what}{hint}"),
        ))
    }

    /// `close` where the `)` of `open` should be (of the call `name(` if given).
    #[cold]
    #[inline(never)]
    fn unclosed(&self, open: Token, close: Token, name: Option<Token>) -> Box<RawError> {
        match close.tok {
            Tok::End => {
                let of = name.map_or(String::new(), |n| format!(" of `{}(`", self.text(n)));
                Box::new(RawError::syntax(
                    open.start,
                    open.end,
                    format!("unclosed `(`{of} (no matching `)`)"),
                ))
            }
            Tok::Comma => Box::new(RawError::syntax(
                close.start,
                close.end,
                "unexpected `,` (only function arguments are separated by commas)",
            )),
            _ => self.missing_operator(close),
        }
    }

    /// `t` where an operand should start.
    #[cold]
    #[inline(never)]
    fn no_operand(&self, t: Token) -> Box<RawError> {
        if t.tok == Tok::End {
            let after = self.toks[..self.pos]
                .iter()
                .rev()
                .find(|k| k.tok != Tok::End)
                .map(|k| format!(" after `{}`", self.text(*k)))
                .unwrap_or_default();
            return Box::new(RawError::syntax(
                t.start,
                t.end,
                format!("expression ends too early: an operand is missing{after}"),
            ));
        }
        Box::new(RawError::syntax(
            t.start,
            t.end,
            format!("expected an operand, found `{}`", self.text(t)),
        ))
    }

    #[cold]
    #[inline(never)]
    fn unknown_name(&self, t: Token) -> Box<RawError> {
        let name = self.text(t);
        if Func::from_name(name).is_some() {
            return Box::new(RawError::syntax(
                t.start,
                t.end,
                format!("`{name}` is a function: call it as `{name}(…)`"),
            ));
        }
        let suggestions = self.scope.suggestions(name);
        let message = format!("unknown name `{name}`{}", did_you_mean(&suggestions));
        Box::new(RawError {
            kind: ExprErrorKind::UnknownName {
                name: name.to_string(),
                suggestions,
            },
            start: t.start,
            end: t.end,
            message,
        })
    }

    #[cold]
    #[inline(never)]
    fn unknown_function(&self, t: Token) -> Box<RawError> {
        let name = self.text(t);
        let suggestions = suggest(name, FUNCTIONS.iter().map(|(n, _, _)| *n));
        let what = if self.scope.map.contains_key(name) {
            format!("`{name}` is not a function")
        } else {
            format!("unknown function `{name}`")
        };
        let message = format!("{what}{}", did_you_mean(&suggestions));
        Box::new(RawError {
            kind: ExprErrorKind::UnknownFunction {
                name: name.to_string(),
                suggestions,
            },
            start: t.start,
            end: t.end,
            message,
        })
    }

    #[cold]
    #[inline(never)]
    fn arity(&self, name: Token, end: usize, expected: usize, got: usize) -> Box<RawError> {
        let function = self.text(name);
        let plural = if expected == 1 { "" } else { "s" };
        Box::new(RawError {
            kind: ExprErrorKind::Arity {
                function: function.to_string(),
                expected,
                got,
            },
            start: name.start,
            end,
            message: format!("`{function}` takes {expected} argument{plural}, got {got}"),
        })
    }
}

/// The innermost level.
fn top(levels: &mut [Level]) -> &mut Level {
    let n = levels.len();
    &mut levels[n - 1]
}

/// `first` alone, or the chain `first rest…`.
fn chain(first: Expr, rest: Vec<(ArithOp, Expr)>) -> Expr {
    match rest.last() {
        None => first,
        Some((_, last)) => Expr {
            start: first.start,
            end: last.end,
            kind: Kind::Chain(Box::new(first), rest),
        },
    }
}

#[cold]
#[inline(never)]
fn chained(t: Token) -> Box<RawError> {
    Box::new(RawError::syntax(
        t.start,
        t.end,
        "comparisons cannot be chained (write `(a < b) * (b < c)` or use parentheses)",
    ))
}

#[cold]
#[inline(never)]
fn too_deep(at: Token) -> Box<RawError> {
    Box::new(RawError::too_large(
        at.start,
        at.end,
        format!("expression nested more than {MAX_DEPTH} levels deep"),
    ))
}
