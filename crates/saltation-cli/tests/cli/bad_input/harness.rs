//! Harness of the bad-input suite: a [`Case`] is a model file (a shipped one with text
//! replaced, or none) and arguments, with what the run must give ([`Expect`]). [`run_all`] runs
//! the cases on a few threads, each process in its own empty directory and under a time limit,
//! and fails listing every case that went wrong.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use crate::support::models_dir;

/// Wall-clock limit of one run (a debug build on a loaded 2-core machine; the slowest case
/// takes well under a second when nothing hangs).
pub const TIME_LIMIT: Duration = Duration::from_secs(60);

/// What a run must give.
#[derive(Debug, Clone)]
pub enum Expect {
    /// Exit with this code, nothing on stdout, one `error: ` line on stderr containing every
    /// fragment.
    Fails(i32, &'static [&'static str]),
    /// Exit 0 with every fragment on stdout.
    Succeeds(&'static [&'static str]),
    /// Exit with this code, the fragments on stdout (the results that were computed), and the
    /// error fragments on stderr.
    Partial(i32, &'static [&'static str], &'static [&'static str]),
}

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Case {
    /// What it probes (printed when it fails).
    pub name: String,
    /// The model file to write into the case's directory: name and text.
    pub file: Option<(String, String)>,
    /// Arguments; for a file case the file's path is inserted after the subcommand.
    pub args: Vec<String>,
    /// What the run must give.
    pub expect: Expect,
    /// The message must start with `error: FILE:LINE:COLUMN: ` (a located file error).
    pub located: bool,
}

/// Text of a shipped model file.
pub fn read_model(name: &str) -> String {
    std::fs::read_to_string(models_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Names of the shipped model files (`*.ron` in `models/` and `models/equations/`, the latter
/// as `equations/<name>`), sorted.
pub fn shipped_files() -> Vec<String> {
    let list = |sub: &str| -> Vec<String> {
        std::fs::read_dir(models_dir().join(sub))
            .expect("models/ exists")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".ron"))
            .map(|n| {
                if sub.is_empty() {
                    n
                } else {
                    format!("{sub}/{n}")
                }
            })
            .collect()
    };
    let mut names = list("");
    names.extend(list("equations"));
    names.sort();
    names
}

impl Case {
    /// A shipped file with each `(from, to)` replaced once (each `from` must occur), run with
    /// `args` (the file's path goes after the subcommand).
    pub fn edit(name: &str, file: &str, edits: &[(&str, &str)], args: &[&str]) -> Case {
        let mut text = read_model(file);
        for (from, to) in edits {
            assert!(text.contains(from), "case {name}: `{from}` not in {file}");
            text = text.replacen(from, to, 1);
        }
        Case::text(name.to_string(), file, text, args)
    }

    /// A file with the given text, named like the shipped `file`.
    pub fn text(name: String, file: &str, text: String, args: &[&str]) -> Case {
        Case {
            name,
            file: Some((file.to_string(), text)),
            args: args.iter().map(|s| s.to_string()).collect(),
            expect: Expect::Fails(2, &[]),
            located: false,
        }
    }

    /// Arguments only; `{models}` is the shipped models' directory, `{out}` a directory inside
    /// the case's own (not created).
    pub fn args(name: &str, args: &[&str]) -> Case {
        Case {
            name: name.to_string(),
            file: None,
            args: args.iter().map(|s| s.to_string()).collect(),
            expect: Expect::Fails(2, &[]),
            located: false,
        }
    }

    /// Sets what the run must give.
    pub fn expect(mut self, expect: Expect) -> Case {
        self.expect = expect;
        self
    }

    /// Requires a located file error (`FILE:LINE:COLUMN: `).
    pub fn located(mut self) -> Case {
        self.located = true;
        self
    }
}

/// A fresh, empty directory for one case.
fn case_dir() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "saltation-bad-input-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Output of a finished (or killed) run.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

fn wait_with_limit(mut child: Child) -> Run {
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > TIME_LIMIT => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    Run {
        code: status.and_then(|s| s.code()),
        stdout: text(t_out.join().unwrap_or_default()),
        stderr: text(t_err.join().unwrap_or_default()),
        timed_out,
    }
}

/// The longest run of digits in `s` (a number printed with hundreds of digits is a defect).
fn longest_digit_run(s: &str) -> usize {
    s.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// Files and directories under `dir` (relative paths), recursively.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap_or(&p).display().to_string());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs one case and checks it; returns its directory, or the reasons it failed.
fn check(case: &Case) -> Result<PathBuf, String> {
    let dir = case_dir();
    let models = models_dir().display().to_string();
    let out_dir = dir.join("out").display().to_string();
    let mut args: Vec<String> = case
        .args
        .iter()
        .map(|a| a.replace("{models}", &models).replace("{out}", &out_dir))
        .collect();
    let mut file_name = None;
    if let Some((name, text)) = &case.file {
        // Flat in the case's directory, also for `equations/<name>`.
        let path = dir.join(Path::new(name).file_name().unwrap_or(name.as_ref()));
        std::fs::write(&path, text).map_err(|e| format!("cannot write the case file: {e}"))?;
        args.insert(1.min(args.len()), path.display().to_string());
        file_name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let child = Command::new(env!("CARGO_BIN_EXE_saltation"))
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the binary: {e}"))?;
    let run = wait_with_limit(child);
    let mut problems = Vec::new();
    if run.timed_out {
        problems.push(format!("no result within {TIME_LIMIT:?}: a hang"));
    }
    if run.stderr.contains("internal error") || run.stderr.contains("panicked") {
        problems.push("panicked".to_string());
    }
    if run.code.is_none() && !run.timed_out {
        problems.push("killed by a signal (abort?)".to_string());
    }
    let all = format!("{}{}", run.stdout, run.stderr);
    if longest_digit_run(&all) > 40 {
        problems.push("a number printed with more than 40 digits".to_string());
    }
    let want_code = match case.expect {
        Expect::Fails(c, _) | Expect::Partial(c, _, _) => c,
        Expect::Succeeds(_) => 0,
    };
    if run.code != Some(want_code) {
        problems.push(format!("exit code {:?}, expected {want_code}", run.code));
    }
    let (out_frags, err_frags): (&[&str], &[&str]) = match case.expect {
        Expect::Fails(_, f) => (&[], f),
        Expect::Succeeds(f) => (f, &[]),
        Expect::Partial(_, o, e) => (o, e),
    };
    for f in out_frags {
        if !run.stdout.contains(f) {
            problems.push(format!("stdout lacks `{f}`"));
        }
    }
    for f in err_frags {
        if !run.stderr.contains(f) {
            problems.push(format!("stderr lacks `{f}`"));
        }
    }
    match case.expect {
        Expect::Fails(..) => {
            if !run.stdout.is_empty() {
                problems.push("wrote to stdout although it failed".to_string());
            }
            if !run.stderr.starts_with("error: ") || run.stderr.trim_end().lines().count() != 1 {
                problems.push("stderr is not one `error: ` line".to_string());
            }
            // A failed run leaves nothing behind but the case's own file.
            let left: Vec<String> = tree(&dir)
                .into_iter()
                .filter(|p| Some(p) != file_name.as_ref())
                .collect();
            if !left.is_empty() {
                problems.push(format!("left files behind: {left:?}"));
            }
        }
        Expect::Succeeds(_) | Expect::Partial(..) => {
            // (The integrator's message "returned NaN or Inf" names the failure; a NaN number
            // in the output is what must not appear.)
            let numbers = run.stdout.replace("NaN or Inf", "");
            if numbers.contains("null") || numbers.contains("NaN") {
                problems.push("null or NaN in the output".to_string());
            }
        }
    }
    if case.located {
        let ok = file_name.as_ref().is_some_and(|f| {
            run.stderr
                .split_once(&format!("{f}:"))
                .is_some_and(|(_, rest)| {
                    let mut parts = rest.splitn(3, ':');
                    let line = parts.next().unwrap_or("");
                    let col = parts.next().unwrap_or("");
                    line.parse::<usize>().is_ok() && col.parse::<usize>().is_ok()
                })
        });
        if !ok {
            problems.push("the error does not give FILE:LINE:COLUMN".to_string());
        }
    }
    if problems.is_empty() {
        Ok(dir)
    } else {
        Err(format!(
            "{}\n    args: {:?}\n    exit: {:?}\n    stdout: {}\n    stderr: {}",
            problems.join("; "),
            case.args,
            run.code,
            run.stdout.chars().take(400).collect::<String>(),
            run.stderr.chars().take(600).collect::<String>()
        ))
    }
}

/// Runs one case, panicking with the reasons if it fails; returns its directory.
pub fn run_case(case: &Case) -> PathBuf {
    check(case).unwrap_or_else(|e| panic!("case `{}`: {e}", case.name))
}

/// Runs every case on a few threads and fails listing all the cases that went wrong.
pub fn run_all(cases: Vec<Case>) {
    let queue = Mutex::new(cases.into_iter().collect::<Vec<_>>());
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(2, 4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                while let Some(case) = queue.lock().map(|mut q| q.pop()).unwrap_or(None) {
                    match check(&case) {
                        Ok(dir) => {
                            let _ = std::fs::remove_dir_all(dir);
                        }
                        Err(e) => {
                            if let Ok(mut f) = failures.lock() {
                                f.push(format!("case `{}`: {e}", case.name));
                            }
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The numeric literals of a model file, outside comments and strings: byte offset and text
/// (with a leading minus sign).
pub fn literal_numbers(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        let starts_number = b.is_ascii_digit()
            || (b == b'-' && bytes.get(i + 1).is_some_and(|c| c.is_ascii_digit()));
        if starts_number && (i == 0 || !ident(bytes[i - 1])) {
            let start = i;
            i += 1;
            while i < bytes.len() {
                let c = bytes[i];
                let exp_sign = (c == b'-' || c == b'+') && matches!(bytes[i - 1], b'e' | b'E');
                if c.is_ascii_digit() || c == b'.' || c == b'e' || c == b'E' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push((start, text[start..i].to_string()));
            continue;
        }
        i += 1;
    }
    out
}

/// Runs the binary through `sh -c` (for redirections the harness cannot make): `$0` is the
/// binary and `$@` are `args`, in a scratch directory named after `tag`.
pub fn shell(tag: &str, script: &str, args: &[&str]) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("saltation-{tag}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_saltation"))
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("sh runs")
}
