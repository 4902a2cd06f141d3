//! Where in a model file's text a field is written: the byte offset of a field path
//! (`continuation.branches[1].from`), of a character inside an equation model's expression, and
//! the line and column of an offset. The loader uses them to point its errors at the text.

use saltation_models::equations::Place;

/// The byte mask of `text` that is code (not a `//` comment, not inside a string, escapes
/// included), as the loader reads it; the property tests edit only where it is `true`.
pub fn code_mask(text: &str) -> Vec<bool> {
    let b = text.as_bytes();
    let mut mask = vec![true; b.len()];
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                mask[i] = false;
                i += 1;
            }
        } else if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let end = (i + 1).min(b.len());
            mask[start..end].fill(false);
            i = end;
        } else {
            i += 1;
        }
    }
    mask
}

/// Where the field with path `field` (`a.b[2].c`) is written in `text`, as a byte offset: the
/// first `a:` in code, then `b:` after it, its item 2, then `c:` after that. A segment that is
/// not written (a default) leaves the position at the last one found.
pub fn field_offset(text: &str, field: &str) -> usize {
    let b = text.as_bytes();
    let mask = code_mask(text);
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut pos = 0;
    for seg in field.split('.').filter(|s| !s.is_empty()) {
        let (name, index) = match seg.split_once('[') {
            Some((n, rest)) => (n, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (seg, None),
        };
        // `name:` at or after `pos`, in code, as a whole identifier.
        let found = text[pos..]
            .match_indices(name)
            .map(|(i, _)| pos + i)
            .find(|&at| {
                let end = at + name.len();
                mask.get(at).copied().unwrap_or(false)
                    && (at == 0 || !ident(b[at - 1]))
                    && text[end..].trim_start_matches([' ', '\t']).starts_with(':')
            });
        let Some(at) = found else { break };
        pos = at;
        if let Some(k) = index {
            pos = item_offset(b, &mask, at, k).unwrap_or(at);
        }
    }
    pos
}

/// Where an expression of an equation model is written in `text`, as a byte offset: the
/// field `place.path` under `model` (its item `place.item` if a list, that item's
/// `place.nth` string), then `offset` characters into the string (just after its opening
/// quote). Falls back to the field when the string cannot be found.
pub(crate) fn expression_offset(text: &str, place: &Place, offset: Option<usize>) -> usize {
    let field = field_offset(text, &format!("model.{}", place.path));
    let b = text.as_bytes();
    let mask = code_mask(text);
    let start = match place.item {
        Some(k) => match item_offset(b, &mask, field, k) {
            Some(at) => at,
            None => return field,
        },
        None => field,
    };
    // The `nth` string literal from `start` (a string starts where the mask turns false at a
    // quote).
    let Some(quote) = (start..b.len())
        .filter(|&i| b[i] == b'"' && !mask[i] && (i == 0 || mask[i - 1] || b[i - 1] == b'"'))
        .nth(place.nth)
    else {
        return field;
    };
    let inside = quote + 1;
    match offset {
        None => quote,
        Some(chars) => text[inside..]
            .char_indices()
            .nth(chars)
            .map_or(inside, |(i, _)| inside + i),
    }
}

/// Offset of item `k` of the first list (`[...]`) after `from`: its first code character, or
/// the opening quote of a string item. Items are counted by the commas at the list's own depth.
fn item_offset(b: &[u8], mask: &[bool], from: usize, k: usize) -> Option<usize> {
    let open = (from..b.len()).find(|&i| mask[i] && b[i] == b'[')?;
    let mut depth = 0usize;
    let mut item = 0usize;
    let mut at_start = true;
    for i in open + 1..b.len() {
        let c = b[i];
        if at_start && !c.is_ascii_whitespace() && (mask[i] || c == b'"') {
            if item == k {
                return Some(i);
            }
            at_start = false;
        }
        if !mask[i] {
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return None,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                item += 1;
                at_start = true;
            }
            _ => {}
        }
    }
    None
}

/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_in_the_text() {
        let t = "// stride: (t_max: 1)\n(\n  model: W(gamma: 0.1),\n  stride: (ode: (rtol: 1e-9), t_max: 5.0),\n  c: (branches: [(from: 1), (label: \"a, b\", from: 2)]),\n)";
        let at = |f| line_column(t, field_offset(t, f));
        assert_eq!(at("model.gamma"), (3, 12));
        assert_eq!(at("stride.t_max"), (4, 31));
        assert_eq!(at("stride.ode.rtol"), (4, 18));
        assert_eq!(at("c.branches[1].from"), (5, 45));
        assert_eq!(at("c.branches[0].from"), (5, 19));
        // Not written: the last segment found.
        assert_eq!(at("stride.h_max"), (4, 3));
    }
}
