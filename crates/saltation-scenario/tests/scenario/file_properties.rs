//! Property tests of the model-file loader: random edits of every file in `models/` — numbers
//! replaced by extremes, NaN, infinities, negative values; fields dropped or duplicated — never
//! panic, and either load (then every check of the file passed) or fail with an error that
//! names the file, a line and a column inside the text.

use proptest::prelude::*;
use saltation_scenario::{code_mask, parse_model_file, FileError};
use std::path::Path;

/// The shipped model files, name and text.
fn shipped() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("models/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        // Study files (`*_study.ron`) are read by `saltation study`, not as model files.
        .filter(|p| {
            !p.file_stem()
                .is_some_and(|s| s.to_string_lossy().ends_with("_study"))
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    files.sort();
    files
}

/// Numeric literals (with a leading minus) in code: their byte ranges.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mask = code_mask(text);
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start_digit = b[i].is_ascii_digit()
            || (b[i] == b'-' && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()));
        if mask[i] && start_digit && (i == 0 || !ident(b[i - 1])) {
            let s = i;
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || matches!(b[i], b'.' | b'e' | b'E')
                    || (matches!(b[i], b'-' | b'+') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Fields `name: value` in code: the byte range of the whole entry including its trailing
/// comma, if any.
fn fields(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mask = code_mask(text);
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if mask[i] && b[i].is_ascii_alphabetic() && (i == 0 || !ident(b[i - 1])) {
            let s = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            let mut j = i;
            while j < b.len() && b[j] == b' ' {
                j += 1;
            }
            if j < b.len() && b[j] == b':' {
                // The value ends at a comma or closing bracket at depth 0.
                let mut depth = 0i32;
                let mut k = j + 1;
                while k < b.len() {
                    if mask[k] {
                        match b[k] {
                            b'(' | b'[' | b'{' => depth += 1,
                            b')' | b']' | b'}' if depth == 0 => break,
                            b')' | b']' | b'}' => depth -= 1,
                            b',' if depth == 0 => {
                                k += 1;
                                break;
                            }
                            _ => {}
                        }
                    }
                    k += 1;
                }
                out.push((s, k));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// One random edit of a file.
#[derive(Debug, Clone)]
enum Edit {
    /// Replace the `k`-th number (modulo their count) by `value`.
    Number(usize, &'static str),
    /// Remove the `k`-th field.
    Drop(usize),
    /// Write the `k`-th field twice.
    Duplicate(usize),
}

const EXTREMES: [&str; 16] = [
    "NaN",
    "inf",
    "-inf",
    "1e309",
    "-1e309",
    "0",
    "-1",
    "-0.5",
    "1e300",
    "-1e300",
    "5e-324",
    "1e-300",
    "18446744073709551615",
    "18446744073709551616",
    "1e20",
    "2.5",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => (any::<usize>(), prop::sample::select(&EXTREMES[..]))
            .prop_map(|(k, v)| Edit::Number(k, v)),
        1 => any::<usize>().prop_map(Edit::Drop),
        1 => any::<usize>().prop_map(Edit::Duplicate),
    ]
}

fn apply(text: &str, e: &Edit) -> String {
    let mut t = text.to_string();
    match *e {
        Edit::Number(k, v) => {
            let n = numbers(text);
            if let Some(&(s, end)) = n.get(k % n.len().max(1)) {
                t.replace_range(s..end, v);
            }
        }
        Edit::Drop(k) => {
            let f = fields(text);
            if let Some(&(s, end)) = f.get(k % f.len().max(1)) {
                t.replace_range(s..end, "");
            }
        }
        Edit::Duplicate(k) => {
            let f = fields(text);
            if let Some(&(s, end)) = f.get(k % f.len().max(1)) {
                let entry = text[s..end].trim_end_matches(',').to_string();
                t.insert_str(s, &format!("{entry}, "));
            }
        }
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_load_or_fail_located(
        file in any::<usize>(),
        edits in prop::collection::vec(edit(), 1..4),
    ) {
        let files = shipped();
        let (name, text) = &files[file % files.len()];
        let mut edited = text.clone();
        for e in &edits {
            edited = apply(&edited, e);
        }
        match parse_model_file(&edited, name) {
            Ok(_) => {}
            Err(FileError::Parse { origin, line, column, message }) => {
                prop_assert_eq!(&origin, name);
                let lines = edited.lines().count().max(1);
                prop_assert!(line >= 1 && line <= lines + 1, "line {} of {}: {}", line, lines, message);
                prop_assert!(column >= 1, "{}", message);
                prop_assert!(!message.is_empty());
            }
            Err(other) => prop_assert!(false, "not a located error: {}", other),
        }
    }
}

/// The edit helpers find what they should (so the property above edits something).
#[test]
fn edit_helpers_find_numbers_and_fields() {
    let t = "// 1.5 in a comment\n(model: W(gamma: -0.009), s: \"x 2\", u: [0.2, 1e-14])";
    let n: Vec<&str> = numbers(t).iter().map(|&(s, e)| &t[s..e]).collect();
    assert_eq!(n, ["-0.009", "0.2", "1e-14"]);
    let f: Vec<&str> = fields(t).iter().map(|&(s, e)| &t[s..e]).collect();
    assert_eq!(
        f,
        [
            "model: W(gamma: -0.009),",
            "gamma: -0.009",
            "s: \"x 2\",",
            "u: [0.2, 1e-14]"
        ]
    );
    for (_, text) in shipped() {
        assert!(!numbers(&text).is_empty() && !fields(&text).is_empty());
    }
}
