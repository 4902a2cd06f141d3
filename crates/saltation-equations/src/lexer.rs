//! Tokens with byte positions.

use crate::error::RawError;

/// A token's kind (and value for numbers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Tok {
    Num(f64),
    Ident,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    LParen,
    RParen,
    Comma,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    Ne,
    End,
}

/// A token and its byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

/// Splits `src` into tokens, ending with [`Tok::End`] at `src.len()`.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, RawError> {
    let b = src.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let single = |tok| Token {
            tok,
            start,
            end: start + 1,
        };
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' | b'.' => {
                let (tok, end) = number(src, i)?;
                toks.push(tok);
                i = end;
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                toks.push(Token {
                    tok: Tok::Ident,
                    start,
                    end: i,
                });
                continue;
            }
            b'+' => toks.push(single(Tok::Plus)),
            b'-' => toks.push(single(Tok::Minus)),
            b'*' => {
                if b.get(i + 1) == Some(&b'*') {
                    return Err(RawError::syntax(
                        i,
                        i + 2,
                        "`**` is not an operator; write powers as `x^2`",
                    ));
                }
                toks.push(single(Tok::Star))
            }
            b'/' => toks.push(single(Tok::Slash)),
            b'^' => toks.push(single(Tok::Caret)),
            b'(' => toks.push(single(Tok::LParen)),
            b')' => toks.push(single(Tok::RParen)),
            b',' => toks.push(single(Tok::Comma)),
            b'<' | b'>' | b'=' | b'!' => {
                let eq = b.get(i + 1) == Some(&b'=');
                let tok = match (c, eq) {
                    (b'<', false) => Tok::Lt,
                    (b'<', true) => Tok::Le,
                    (b'>', false) => Tok::Gt,
                    (b'>', true) => Tok::Ge,
                    (b'=', true) => Tok::EqEq,
                    (b'!', true) => Tok::Ne,
                    (b'=', false) => return Err(RawError::syntax(
                        i,
                        i + 1,
                        "unexpected `=` (write `==` to compare; definitions go in the `let` list)",
                    )),
                    _ => {
                        return Err(RawError::syntax(
                            i,
                            i + 1,
                            "unexpected `!` (write `!=` to compare)",
                        ))
                    }
                };
                let end = i + 1 + usize::from(eq);
                toks.push(Token { tok, start, end });
                i = end;
                continue;
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('\u{fffd}');
                let end = i + ch.len_utf8();
                let hint = match ch {
                    '\u{2212}' | '\u{2013}' | '\u{2014}' => " (write the ASCII minus `-`)",
                    '\u{d7}' | '\u{b7}' | '\u{22c5}' | '\u{2217}' => " (write `*` for a product)",
                    '\u{f7}' | '\u{2215}' => " (write `/` for a quotient)",
                    '\u{b2}' | '\u{b3}' => " (write powers as `x^2`)",
                    '[' | ']' | '{' | '}' => " (group with parentheses `(` `)`)",
                    '\u{3c0}' => " (write `pi`)",
                    c if c.is_alphabetic() => " (names are ASCII letters, digits and `_`)",
                    c if c.is_whitespace() => " (unusual space character)",
                    _ => "",
                };
                return Err(RawError::syntax(
                    i,
                    end,
                    format!("unexpected character `{}`{hint}", ch.escape_debug()),
                ));
            }
        }
        i += 1;
    }
    toks.push(Token {
        tok: Tok::End,
        start: src.len(),
        end: src.len(),
    });
    Ok(toks)
}

/// A number starting at byte `start`: `digits [. digits] [e [+-] digits]` or `. digits …`.
fn number(src: &str, start: usize) -> Result<(Token, usize), RawError> {
    let b = src.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = digits(start);
    let mut mantissa = i - start;
    if i < b.len() && b[i] == b'.' {
        let j = digits(i + 1);
        mantissa += j - i - 1;
        i = j;
    }
    if mantissa == 0 {
        return Err(RawError::syntax(
            start,
            start + 1,
            "unexpected `.` (a number needs a digit, as in `0.5` or `.5`)",
        ));
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let k = digits(j);
        if k == j {
            let end = k.max(i + 1);
            return Err(RawError::syntax(
                start,
                end,
                format!(
                    "malformed number `{}` (an exponent needs digits, as in `1e-3`)",
                    &src[start..end]
                ),
            ));
        }
        i = k;
    }
    let text = &src[start..i];
    let value: f64 = text
        .parse()
        .map_err(|_| RawError::syntax(start, i, format!("malformed number `{text}`")))?;
    if !value.is_finite() {
        return Err(RawError::syntax(
            start,
            i,
            format!("`{text}` is not a finite number"),
        ));
    }
    Ok((
        Token {
            tok: Tok::Num(value),
            start,
            end: i,
        },
        i,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(s: &str) -> Vec<f64> {
        lex(s)
            .unwrap()
            .into_iter()
            .filter_map(|t| match t.tok {
                Tok::Num(v) => Some(v),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn numbers() {
        assert_eq!(
            nums("1 2.5 .5 1e-3 3E+2 1. 1.e2 0007 1e-999"),
            vec![1.0, 2.5, 0.5, 1e-3, 300.0, 1.0, 100.0, 7.0, 0.0]
        );
    }

    #[test]
    fn bad_numbers() {
        let e = lex("x + 1e999").unwrap_err();
        assert_eq!((e.start, e.end), (4, 9));
        assert!(e.message.contains("not a finite number"), "{}", e.message);
        let e = lex("2e+x").unwrap_err();
        assert!(
            e.message.contains("malformed number `2e+`"),
            "{}",
            e.message
        );
        let e = lex("1 + .").unwrap_err();
        assert_eq!(e.start, 4);
    }

    #[test]
    fn operators_and_positions() {
        let t = lex("a<=b!=c==d>e<f>=g").unwrap();
        let kinds: Vec<Tok> = t.iter().map(|t| t.tok).collect();
        use Tok::*;
        assert_eq!(
            kinds,
            vec![Ident, Le, Ident, Ne, Ident, EqEq, Ident, Gt, Ident, Lt, Ident, Ge, Ident, End]
        );
        assert_eq!((t[1].start, t[1].end), (1, 3));
        assert_eq!(t.last().unwrap().start, 17);
    }

    #[test]
    fn bad_characters_with_hints() {
        let e = lex("x \u{2212} 1").unwrap_err();
        assert_eq!((e.start, e.end), (2, 5));
        assert!(e.message.contains("ASCII minus"), "{}", e.message);
        assert!(lex("x = 1").unwrap_err().message.contains("`==`"));
        assert!(lex("x ** 2").unwrap_err().message.contains("x^2"));
        assert!(lex("θ").unwrap_err().message.contains("ASCII"));
        assert!(lex("a ! b").is_err());
        assert!(lex("a # b").is_err());
    }
}
