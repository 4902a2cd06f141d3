//! Number and table formatting for the human-readable output.

use std::time::Duration;

/// A number for a table column: 15 decimals for moderate magnitudes, scientific notation for
/// very large or very small ones, right-aligned in `width` characters.
pub fn number(x: f64, width: usize) -> String {
    let a = x.abs();
    if x == 0.0 || (1e-6..1e6).contains(&a) {
        format!("{x:>width$.15}")
    } else {
        format!("{x:>width$.12e}")
    }
}

/// A short number (residuals, tolerances): three significant digits in scientific notation.
pub fn short(x: f64) -> String {
    format!("{x:.2e}")
}

/// A number in its shortest round-trip form, in exponent notation outside `[1e-4, 1e6)` (so
/// that `1e-300` is not printed with 300 digits).
pub fn value(x: f64) -> String {
    saltation_ode::Num(x).to_string()
}

/// Reduced coordinates with their names, `[θ = 0.2, dθ/dt = −0.2]` (at most 8 shown, as
/// [`vector`]); unnamed past the end of `names`.
pub fn named(names: &[String], v: &[f64]) -> String {
    const SHOWN: usize = 8;
    let item = |i: usize| match names.get(i) {
        Some(n) => format!("{n} = {}", value(v[i])),
        None => value(v[i]),
    };
    let items: Vec<String> = if v.len() <= SHOWN {
        (0..v.len()).map(item).collect()
    } else {
        let mut items: Vec<String> = (0..SHOWN - 2).map(item).collect();
        items.push(format!("… ({} more)", v.len() - SHOWN + 1));
        items.push(item(v.len() - 1));
        items
    };
    format!("[{}]", items.join(", "))
}

/// A vector as `[a, b, …]` with each entry as [`value`] prints it; a long vector shows its first
/// and last entries around `…`.
pub fn vector(v: &[f64]) -> String {
    named(&[], v)
}

/// A wall-clock duration in ms below ten seconds, else in s.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 10.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// Rows of `label  value` with the labels padded to a common width.
#[derive(Debug, Default)]
pub struct KeyValue {
    rows: Vec<(String, String)>,
}

impl KeyValue {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a row.
    pub fn row(&mut self, label: impl Into<String>, value: impl Into<String>) -> &mut Self {
        self.rows.push((label.into(), value.into()));
        self
    }

    /// The table as lines, each ending in a newline.
    pub fn render(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        self.rows
            .iter()
            .map(|(l, v)| {
                let pad = w - l.chars().count();
                let line = format!("{l}{}  {v}", " ".repeat(pad));
                format!("{}\n", line.trim_end())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(number(0.200310900544287, 0), "0.200310900544287");
        assert_eq!(number(-1.5, 20), "  -1.500000000000000");
        assert_eq!(number(0.0, 0), "0.000000000000000");
        assert_eq!(number(3.2e-17, 0), "3.200000000000e-17");
        assert_eq!(vector(&[0.2, -0.2]), "[0.2, -0.2]");
        assert_eq!(vector(&[1e-300, -1e300, 0.0]), "[1e-300, -1e300, 0]");
        assert_eq!(vector(&[1.0; 20]), "[1, 1, 1, 1, 1, 1, … (13 more), 1]");
        let mut t = KeyValue::new();
        t.row("a", "1").row("long", "2");
        assert_eq!(t.render(), "a     1\nlong  2\n");
    }
}
