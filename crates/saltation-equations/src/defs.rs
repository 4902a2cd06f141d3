//! Named intermediate definitions (`let`s): parsed, checked and ordered.

use crate::error::{ExprError, ExprErrorKind, RawError, Site};
use crate::func::Func;
use crate::limits::MAX_DEFINITIONS;
use crate::parser::{parse, Expr, Scope};
use crate::Names;
use std::collections::{HashMap, HashSet};

/// Parsed definitions (`let name = expression`), in an order where each comes after the ones
/// it uses.
///
/// Definitions may be given in any order and refer to each other (not in a circle). A
/// [`crate::Program`] computes only the definitions its outputs use, each once.
#[derive(Debug, Clone, Default)]
pub struct Definitions {
    pub(crate) names: Vec<String>,
    pub(crate) sources: Vec<String>,
    pub(crate) exprs: Vec<Expr>,
    /// Topological order: every definition after those it reads.
    pub(crate) order: Vec<u32>,
    /// The definitions each definition reads (each once, in source order).
    pub(crate) deps: Vec<Vec<u32>>,
    states: Vec<String>,
    params: Vec<String>,
}

/// Whether `s` is a name of the language: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_valid_name(s: &str) -> bool {
    let mut c = s.bytes();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == b'_')
        && c.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether `s` is taken by the language itself: `t`, `pi` or a function name (`if` included).
pub fn is_reserved(s: &str) -> bool {
    s == "t" || s == "pi" || Func::from_name(s).is_some()
}

impl Definitions {
    /// Parses `defs` (`(name, expression)` pairs) against `names` and orders them.
    ///
    /// Errors: a name that is not a name ([`ExprErrorKind::Syntax`]), a name that would hide
    /// a state, a parameter, `t`, `pi` or a function ([`ExprErrorKind::Shadowing`]), a name
    /// given twice ([`ExprErrorKind::Duplicate`]), more than
    /// [`MAX_DEFINITIONS`](crate::limits::MAX_DEFINITIONS) definitions
    /// ([`ExprErrorKind::TooLarge`]), any error in an expression, and definitions that refer
    /// to each other in a circle ([`ExprErrorKind::Cycle`], at the reference that closes it).
    /// Errors of definition names have offset 0 and length 0.
    pub fn new(defs: &[(String, String)], names: &Names) -> Result<Definitions, ExprError> {
        let named = |name: &str, kind, message: String| ExprError {
            kind,
            site: Site::Definition(name.to_string()),
            offset: 0,
            len: 0,
            message,
        };
        if defs.len() > MAX_DEFINITIONS {
            return Err(named(
                &defs[MAX_DEFINITIONS].0,
                ExprErrorKind::TooLarge,
                format!("{} definitions: at most {MAX_DEFINITIONS}", defs.len()),
            ));
        }
        let states: HashSet<&str> = names.states.iter().map(String::as_str).collect();
        let params: HashSet<&str> = names.params.iter().map(String::as_str).collect();
        let mut seen: HashSet<&str> = HashSet::new();
        for (name, _) in defs {
            if !is_valid_name(name) {
                let shown: String = name.chars().take(40).collect();
                return Err(named(
                    name,
                    ExprErrorKind::Syntax,
                    format!(
                        "`{}` is not a valid definition name (ASCII letters, digits and `_`, not starting with a digit)",
                        shown.escape_debug()
                    ),
                ));
            }
            let hidden = if name == "t" {
                Some("the time")
            } else if name == "pi" {
                Some("the constant")
            } else if Func::from_name(name).is_some() {
                Some("the function")
            } else if states.contains(name.as_str()) {
                Some("the state")
            } else if params.contains(name.as_str()) {
                Some("the parameter")
            } else {
                None
            };
            if let Some(what) = hidden {
                return Err(named(
                    name,
                    ExprErrorKind::Shadowing { name: name.clone() },
                    format!("definition `{name}` would hide {what} `{name}`; rename it"),
                ));
            }
            if !seen.insert(name) {
                return Err(named(
                    name,
                    ExprErrorKind::Duplicate { name: name.clone() },
                    format!("definition `{name}` is given twice"),
                ));
            }
        }
        let def_names: Vec<String> = defs.iter().map(|(n, _)| n.clone()).collect();
        let scope = Scope::new(names, &def_names);
        let mut exprs = Vec::with_capacity(defs.len());
        let mut deps = Vec::with_capacity(defs.len());
        let mut refs: Vec<HashMap<u32, u32>> = Vec::with_capacity(defs.len());
        for (name, src) in defs {
            let e = parse(src, &scope).map_err(|e| e.at(src, Site::Definition(name.clone())))?;
            let mut d = Vec::new();
            let mut at = HashMap::new();
            e.visit_defs(&mut |k, offset| {
                if let std::collections::hash_map::Entry::Vacant(v) = at.entry(k) {
                    v.insert(offset);
                    d.push(k);
                }
            });
            exprs.push(e);
            deps.push(d);
            refs.push(at);
        }
        let order = topological_order(&deps).map_err(|cycle| {
            let first = cycle[0] as usize;
            let next = cycle[1];
            let start = refs[first].get(&next).copied().unwrap_or(0) as usize;
            let end = start + def_names[next as usize].len();
            let path: Vec<String> = cycle
                .iter()
                .map(|&k| def_names[k as usize].clone())
                .collect();
            let message = if path.len() == 2 {
                format!("definition `{}` refers to itself", path[0])
            } else {
                format!("definitions form a cycle: {}", path.join(" -> "))
            };
            RawError {
                kind: ExprErrorKind::Cycle { path },
                start,
                end,
                message,
            }
            .at(&defs[first].1, Site::Definition(def_names[first].clone()))
        })?;
        Ok(Definitions {
            names: def_names,
            sources: defs.iter().map(|(_, s)| s.clone()).collect(),
            exprs,
            order,
            deps,
            states: names.states.to_vec(),
            params: names.params.to_vec(),
        })
    }

    /// The definitions' names, in the order given.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The definitions' names in evaluation order (each after the ones it uses).
    pub fn evaluation_order(&self) -> impl Iterator<Item = &str> + '_ {
        self.order.iter().map(|&k| self.names[k as usize].as_str())
    }

    /// Number of definitions.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Whether these definitions were made with these names (compile checks it).
    pub(crate) fn made_with(&self, names: &Names) -> bool {
        self.is_empty() || (self.states == names.states && self.params == names.params)
    }
}

/// Depth-first topological order (dependencies first), without recursion; `Err` holds a
/// cycle `[a, b, …, a]`.
fn topological_order(deps: &[Vec<u32>]) -> Result<Vec<u32>, Vec<u32>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let n = deps.len();
    let mut mark = vec![Mark::New; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        mark[root] = Mark::Open;
        stack.push((root as u32, 0));
        while let Some(top) = stack.last_mut() {
            let (v, k) = *top;
            if let Some(&w) = deps[v as usize].get(k) {
                top.1 += 1;
                match mark[w as usize] {
                    Mark::New => {
                        mark[w as usize] = Mark::Open;
                        stack.push((w, 0));
                    }
                    Mark::Open => {
                        let from = stack.iter().position(|&(u, _)| u == w).unwrap_or(0);
                        let mut cycle: Vec<u32> = stack[from..].iter().map(|&(u, _)| u).collect();
                        cycle.push(w);
                        return Err(cycle);
                    }
                    Mark::Done => {}
                }
            } else {
                mark[v as usize] = Mark::Done;
                order.push(v);
                stack.pop();
            }
        }
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_cycles() {
        assert_eq!(
            topological_order(&[vec![1], vec![2], vec![]]),
            Ok(vec![2, 1, 0])
        );
        assert_eq!(topological_order(&[vec![1], vec![0]]), Err(vec![0, 1, 0]));
        assert_eq!(topological_order(&[vec![0]]), Err(vec![0, 0]));
        assert_eq!(
            topological_order(&[vec![], vec![2], vec![3], vec![1]]),
            Err(vec![1, 2, 3, 1])
        );
        // A long chain needs no recursion.
        let n = 100_000u32;
        let chain: Vec<Vec<u32>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let order = topological_order(&chain).unwrap();
        assert_eq!(order[0], n - 1);
        assert_eq!(order[n as usize - 1], 0);
    }

    #[test]
    fn names() {
        assert!(is_valid_name("a_1"));
        assert!(is_valid_name("_"));
        assert!(!is_valid_name("1a"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("a-b"));
        assert!(!is_valid_name("θ"));
        assert!(is_reserved("t") && is_reserved("pi") && is_reserved("if") && is_reserved("pow"));
        assert!(!is_reserved("x"));
    }
}
