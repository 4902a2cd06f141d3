//! What the modules share: running the built binary, the checks every run's output must pass
//! (one JSON value on success; exit code, empty stdout and one `error: ` line on failure), the
//! shipped model files and temporary directories.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The directory of the shipped model files.
pub fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

/// Path of a shipped model file.
pub fn model(name: &str) -> String {
    models_dir().join(name).display().to_string()
}

/// A fresh directory `saltation-{kind}-{pid}-{name}` under the system's temporary directory:
/// unique to this test process, `kind` (the module) and `name` (the test).
pub fn temp_dir(kind: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("saltation-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs `saltation <args>`.
pub fn saltation(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saltation"))
        .args(args)
        .output()
        .expect("the saltation binary runs")
}

/// Runs `saltation <args>`, expects success, nothing on stderr (no progress bar off a
/// terminal) and one line of JSON on stdout.
pub fn json(args: &[&str]) -> Value {
    let out = saltation(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().count(),
        1,
        "one line of JSON expected:\n{stdout}"
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// Expects failure with `code`, nothing on stdout and one `error: ` line containing `needles`
/// (and no panic).
pub fn fails(args: &[&str], code: i32, needles: &[&str]) {
    let out = saltation(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line expected:\n{stderr}"
    );
    assert!(stderr.starts_with("error: "), "{stderr}");
    for n in needles {
        assert!(stderr.contains(n), "{args:?}: `{n}` not in: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The sorted keys of a JSON object.
pub fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

/// A JSON array of numbers.
pub fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// `(re, im)` of a list of multipliers, checking each has exactly the keys `re`, `im`.
pub fn multipliers(v: &Value) -> Vec<(f64, f64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(keys(m), ["im", "re"]);
            (m["re"].as_f64().unwrap(), m["im"].as_f64().unwrap())
        })
        .collect()
}
