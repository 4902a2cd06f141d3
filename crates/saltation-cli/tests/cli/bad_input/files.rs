//! The model file itself: what is not a readable regular file, the encoding, and a file's
//! structure (missing, duplicated or unknown models, parameters, fields and sections).

use super::harness::{run_case, Case, Expect};

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let walker = "simplest_walker.ron";
    vec![
        Case::args("a device as the model", &["orbit", "/dev/zero"])
            .expect(Fails(2, &["not a regular file"])),
        Case::edit(
            "byte-order mark",
            walker,
            &[("// The simplest", "\u{feff}// The simplest")],
            &["orbit", "--json"],
        )
        .expect(Succeeds(&["\"period\":"])),
        Case::edit(
            "missing model",
            walker,
            &[("model: SimplestWalker(gamma: 0.009),", "")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "model"])),
        Case::edit(
            "duplicated section",
            walker,
            &[("newton: (ftol", "newton: (ftol: 1e-13), newton: (ftol")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "newton"])),
        Case::edit(
            "unknown model",
            walker,
            &[("SimplestWalker(", "SimplestWalk(")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "SimplestWalk"])),
        Case::edit(
            "unknown parameter",
            walker,
            &[("gamma: 0.009", "gama: 0.009")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "gama"])),
        Case::edit(
            "unknown field",
            walker,
            &[("t_max: 20.0", "t_maxx: 20.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "t_maxx"])),
        Case::args(
            "no continuation section",
            &["continue", "{models}/simplest_walker.ron", "--out", "{out}"],
        )
        .expect(Fails(2, &["no `continuation` section"])),
        Case::args("unreadable file", &["orbit", "{out}/nowhere.ron"])
            .expect(Fails(2, &["cannot read"])),
        Case::args("a directory as the model", &["orbit", "{models}"])
            .expect(Fails(2, &["cannot read"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}

/// A FIFO (which would block a plain read forever) is refused as not a regular file.
#[test]
fn a_fifo_is_not_read() {
    let dir = std::env::temp_dir().join(format!("saltation-fifo-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let fifo = dir.join("model.ron");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo unavailable: skipped");
        return;
    }
    let case = Case::args(
        "a FIFO as the model",
        &["orbit", &fifo.display().to_string()],
    )
    .expect(Expect::Fails(2, &["not a regular file"]));
    let out = run_case(&case);
    let _ = std::fs::remove_dir_all(out);
    let _ = std::fs::remove_dir_all(dir);
}
