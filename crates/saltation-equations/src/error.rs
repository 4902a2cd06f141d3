//! Errors: what went wrong, in which expression, at which character.

use std::fmt;

/// Which expression an error or a diagnosis is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Site {
    /// The expression at this index of the list given to [`crate::compile`].
    Output(usize),
    /// The definition (`let`) of this name.
    Definition(String),
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Output(i) => write!(f, "expression {i}"),
            Site::Definition(name) => write!(f, "definition `{name}`"),
        }
    }
}

/// The kind of an [`ExprError`], with the facts a caller may want to act on.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprErrorKind {
    /// Malformed text: an unexpected token or character, an unbalanced parenthesis, input left
    /// after a complete expression, an empty expression, a malformed or non-finite number, a
    /// definition name that is not a name.
    Syntax,
    /// A name that is neither a state, a parameter, a definition, `t` nor `pi`.
    UnknownName {
        /// The name as written.
        name: String,
        /// Up to three known names nearest by edit distance, nearest first.
        suggestions: Vec<String>,
    },
    /// A call of something that is not a built-in function.
    UnknownFunction {
        /// The name as written.
        name: String,
        /// Up to three function names nearest by edit distance, nearest first.
        suggestions: Vec<String>,
    },
    /// A function called with the wrong number of arguments.
    Arity {
        /// The function.
        function: String,
        /// Arguments it takes.
        expected: usize,
        /// Arguments it was given.
        got: usize,
    },
    /// Definitions that refer to each other in a circle; `path` starts and ends with the same
    /// name (`[a, b, a]`).
    Cycle {
        /// The names around the cycle.
        path: Vec<String>,
    },
    /// A definition named like a state, a parameter, `t`, `pi` or a function.
    Shadowing {
        /// The definition's name.
        name: String,
    },
    /// Two definitions of the same name.
    Duplicate {
        /// The name defined twice.
        name: String,
    },
    /// A limit exceeded: expression length, nesting depth, program size or number of
    /// definitions (see [`crate::limits`]).
    TooLarge,
    /// A sub-expression of numbers alone (no state, parameter or `t`) whose value is NaN or
    /// infinite: `log(-1)`, `1/0`, `0/0`, `sqrt(-1)`, `asin(2)`, `pow(10, 400)` (outside the
    /// branches of an `if` whose condition depends on the state).
    NotFinite {
        /// The folded value.
        value: f64,
    },
}

/// A mistake in an expression or a set of definitions.
///
/// `offset` and `len` count characters (not bytes) in the source of the expression named by
/// `site`; `message` is one human line such as ``unknown name `gama` (did you mean `gamma`?)``
/// and is what `Display` prints (the caller adds the place: file, field, line).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ExprError {
    /// What kind of mistake.
    pub kind: ExprErrorKind,
    /// In which expression.
    pub site: Site,
    /// Character offset of the problem inside that expression's source (its length in
    /// characters when something is missing at the end).
    pub offset: usize,
    /// Length in characters of the offending text (0 when something is missing).
    pub len: usize,
    /// One line for a human.
    pub message: String,
}

impl ExprError {
    /// The expression with a caret line under the problem, two lines, for terminals:
    ///
    /// ```text
    /// sin(th - gama)
    ///          ^^^^
    /// ```
    ///
    /// Long expressions are cut to about 60 characters around the problem; line breaks and
    /// tabs print as spaces so that the caret stays aligned.
    pub fn snippet(&self, source: &str) -> String {
        let chars: Vec<char> = source
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect();
        let from = self.offset.saturating_sub(30).min(chars.len());
        let to = (self.offset + self.len.max(1) + 30).min(chars.len());
        let mut line = String::new();
        let mut col = self.offset - from;
        if from > 0 {
            line.push('…');
            col += 1;
        }
        line.extend(&chars[from..to]);
        if to < chars.len() {
            line.push('…');
        }
        let carets = "^".repeat(self.len.max(1));
        format!("{line}\n{}{carets}", " ".repeat(col))
    }
}

/// An error before it knows its site, with byte offsets into the source.
#[derive(Debug, Clone)]
pub(crate) struct RawError {
    pub kind: ExprErrorKind,
    pub start: usize,
    pub end: usize,
    pub message: String,
}

impl RawError {
    pub(crate) fn syntax(start: usize, end: usize, message: impl Into<String>) -> Self {
        Self {
            kind: ExprErrorKind::Syntax,
            start,
            end,
            message: message.into(),
        }
    }

    pub(crate) fn too_large(start: usize, end: usize, message: impl Into<String>) -> Self {
        Self {
            kind: ExprErrorKind::TooLarge,
            start,
            end,
            message: message.into(),
        }
    }

    /// `part` (bytes `start..end` of the source) is made of numbers alone and folds to the
    /// non-finite `value`.
    pub(crate) fn not_finite(start: usize, end: usize, part: &str, value: f64) -> Self {
        let part = if part.chars().count() > 40 {
            let head: String = part.chars().take(37).collect();
            format!("{head}…")
        } else {
            part.to_string()
        };
        Self {
            kind: ExprErrorKind::NotFinite { value },
            start,
            end,
            message: format!(
                "`{part}` is made of numbers alone and its value is {value}: not finite, \
                 whatever the state"
            ),
        }
    }

    /// Attaches the site and turns byte offsets into character offsets.
    pub(crate) fn at(self, source: &str, site: Site) -> ExprError {
        let (offset, len) = char_span(source, self.start, self.end);
        ExprError {
            kind: self.kind,
            site,
            offset,
            len,
            message: self.message,
        }
    }
}

/// Character offset and length of the byte range `start..end` of `source`.
pub(crate) fn char_span(source: &str, start: usize, end: usize) -> (usize, usize) {
    let start = floor_boundary(source, start);
    let end = floor_boundary(source, end.max(start));
    let offset = source[..start].chars().count();
    let len = source[start..end].chars().count();
    (offset, len)
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Names longer than this get no suggestions (the edit distance is quadratic).
const MAX_SUGGEST_LEN: usize = 64;

/// Up to three candidates nearest to `name` by edit distance (optimal string alignment:
/// insertions, deletions, substitutions and swaps of neighbours), nearest first; a candidate
/// qualifies within a distance of a third of the name's length (at least 1), or when it differs
/// only in letter case.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let n = name.chars().count();
    if n > MAX_SUGGEST_LEN {
        return Vec::new();
    }
    let limit = (n / 3).max(1);
    let mut near: Vec<(usize, &str)> = Vec::new();
    for c in candidates {
        if c == name {
            continue;
        }
        let m = c.chars().count();
        let d = if c.eq_ignore_ascii_case(name) {
            0
        } else if m.abs_diff(n) > limit || m > MAX_SUGGEST_LEN {
            continue;
        } else {
            osa_distance(name, c)
        };
        if d <= limit {
            near.push((d, c));
        }
    }
    near.sort_unstable();
    near.dedup();
    near.into_iter()
        .take(3)
        .map(|(_, c)| c.to_string())
        .collect()
}

/// " (did you mean `a`, `b` or `c`?)", or nothing.
pub fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [a] => format!(" (did you mean `{a}`?)"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|s| format!("`{s}`")).collect();
            format!(" (did you mean {} or `{last}`?)", rest.join(", "))
        }
    }
}

/// Optimal-string-alignment distance between two short strings.
fn osa_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, v) in d.iter_mut().enumerate().take(w) {
        *v = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(osa_distance("gama", "gamma"), 1);
        assert_eq!(osa_distance("thta", "theta"), 1);
        assert_eq!(osa_distance("ab", "ba"), 1);
        assert_eq!(osa_distance("", "abc"), 3);
        assert_eq!(osa_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggestions_nearest_first_and_bounded() {
        let names = ["gamma", "game", "alpha", "g", "Gama"];
        let s = suggest("gama", names.iter().copied());
        assert_eq!(s, vec!["Gama", "game", "gamma"]);
        assert!(suggest("zzzzzz", names.iter().copied()).is_empty());
        let long = "x".repeat(1000);
        assert!(suggest(&long, [long.as_str()].into_iter().chain(names)).is_empty());
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(did_you_mean(&["a".into()]), " (did you mean `a`?)");
        assert_eq!(
            did_you_mean(&["a".into(), "b".into(), "c".into()]),
            " (did you mean `a`, `b` or `c`?)"
        );
    }

    #[test]
    fn char_spans_count_characters() {
        let s = "θ + λ";
        // `λ` starts at byte 5 (θ is two bytes), character 4.
        assert_eq!(char_span(s, 5, 7), (4, 1));
        // Byte offsets inside a character are moved to its start.
        assert_eq!(char_span(s, 1, 1), (0, 0));
    }

    #[test]
    fn snippet_points_at_the_problem() {
        let e = ExprError {
            kind: ExprErrorKind::Syntax,
            site: Site::Output(0),
            offset: 9,
            len: 4,
            message: String::new(),
        };
        assert_eq!(e.snippet("sin(th - gama)"), "sin(th - gama)\n         ^^^^");
    }
}
