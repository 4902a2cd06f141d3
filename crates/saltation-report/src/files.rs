//! Writing the report's files: the destination is checked before anything is computed
//! ([`check_destination`]), every file is written whole or not at all ([`write_atomic`]: a
//! temporary name in the same directory, then `rename`), and the files of one report are
//! renamed into place together at the end, so that a failure leaves none of them
//! ([`ReportError::Partial`]).

use super::{DestinationProblem, ReportError, WriteFailure};
use saltation_plot::{Figure, RenderOptions};
use std::ffi::OsString;
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Where the files go: `<dir>/<stem>_<what>.<ext>`.
#[derive(Debug, Clone)]
pub struct Outputs {
    /// Output directory (created if missing).
    pub dir: PathBuf,
    /// File-name stem, usually the model file's; empty: the files are named `<what>` alone.
    pub stem: String,
    /// Figure size and formats.
    pub render: RenderOptions,
}

impl Outputs {
    /// `<dir>/<stem>_<what>`, or `<dir>/<what>` for an empty stem (no extension).
    pub fn path(&self, what: &str) -> PathBuf {
        if self.stem.is_empty() {
            self.dir.join(what)
        } else {
            self.dir.join(format!("{}_{what}", self.stem))
        }
    }

    /// [`check_destination`] of the output directory: call it before computing.
    pub fn check(&self) -> Result<(), ReportError> {
        check_destination(&self.dir)
    }
}

/// Makes temporary names unique within the process (the process id makes them unique across
/// processes).
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// A hidden name next to `target`: `<dir>/.<name>.tmp-<pid>-<n>`. A figure's extension is
/// appended after it, so the format stays recognisable.
fn temp_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// `path` with `.ext` appended (as `saltation-plot` names its files).
fn with_extension(path: &Path, ext: &str) -> PathBuf {
    let mut s = OsString::from(path.as_os_str());
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Checks the output directory before anything is computed: creates it (and its parents) if
/// missing, and verifies that it is a directory in which a file can be created (a probe file is
/// created and removed). An empty path means the current directory.
///
/// The error, [`ReportError::Destination`], names the path and the reason; it is a usage error
/// ([`ReportError::is_destination`]).
pub fn check_destination(dir: &Path) -> Result<(), ReportError> {
    let fail = |problem| ReportError::Destination {
        path: dir.to_path_buf(),
        problem,
    };
    let at = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    match fs::metadata(at) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(fail(DestinationProblem::NotADirectory)),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            if let Err(e) = fs::create_dir_all(at) {
                return Err(fail(
                    blocked_by(at).unwrap_or(DestinationProblem::Create(e)),
                ));
            }
        }
        Err(e) => {
            return Err(fail(
                blocked_by(at).unwrap_or(DestinationProblem::Inaccessible(e)),
            ))
        }
    }
    let probe = at.join(format!(
        ".saltation-probe-{}-{}",
        std::process::id(),
        SEQUENCE.fetch_add(1, Ordering::Relaxed)
    ));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| fail(DestinationProblem::NotWritable(e)))?;
    fs::remove_file(&probe).map_err(|e| fail(DestinationProblem::NotWritable(e)))
}

/// The nearest existing ancestor of `dir` that is not a directory, as the problem.
fn blocked_by(dir: &Path) -> Option<DestinationProblem> {
    dir.ancestors()
        .skip(1)
        .filter(|a| !a.as_os_str().is_empty())
        .find_map(|a| fs::metadata(a).ok().map(|m| (a, m.is_dir())))
        .and_then(|(a, is_dir)| {
            (!is_dir).then(|| DestinationProblem::AncestorNotADirectory {
                ancestor: a.to_path_buf(),
            })
        })
}

/// Writes `bytes` to `path` atomically: to a temporary file in the same directory, flushed to
/// disk, then renamed over `path`. A reader sees the old file or the new one, never a part; on
/// failure the temporary file is removed and an old `path` is left as it was. The directory
/// must exist.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Flushes a file written by someone else (the figure backends) to disk.
fn sync_file(path: &Path) -> std::io::Result<()> {
    OpenOptions::new().write(true).open(path)?.sync_all()
}

/// The files of one report, written as one transaction: each file goes to a temporary name
/// next to its target (flushed to disk) as it is made, and [`Batch::finish`] renames them all
/// into place at the end. The first failure before that removes the temporary files and
/// becomes a [`ReportError::Partial`] with nothing written: a failed report leaves the
/// directory as it was (old files untouched). Only a rename failing during `finish` (after
/// every file was made, and a target that is a directory was refused early) can leave part of
/// the set, and its error lists what was renamed.
#[derive(Debug)]
pub(crate) struct Batch<'a> {
    out: &'a Outputs,
    /// Temporary files made so far, with their targets, in order.
    staged: Vec<(PathBuf, PathBuf)>,
}

impl<'a> Batch<'a> {
    /// An empty batch writing to `out`.
    pub(crate) fn new(out: &'a Outputs) -> Self {
        Self {
            out,
            staged: Vec::new(),
        }
    }

    /// Renames every staged file into place, in order; the paths written.
    pub(crate) fn finish(mut self) -> Result<Vec<PathBuf>, ReportError> {
        let staged = std::mem::take(&mut self.staged);
        let mut written = Vec::with_capacity(staged.len());
        let mut rest = staged.into_iter();
        while let Some((tmp, target)) = rest.next() {
            if let Err(e) = fs::rename(&tmp, &target) {
                let _ = fs::remove_file(&tmp);
                for (t, _) in rest {
                    let _ = fs::remove_file(t);
                }
                return Err(ReportError::Partial {
                    written,
                    failed: target,
                    source: Box::new(WriteFailure::Io(e)),
                });
            }
            written.push(target);
        }
        Ok(written)
    }

    /// Removes the staged files; nothing of the batch is written.
    fn fail(&mut self, failed: PathBuf, source: WriteFailure) -> ReportError {
        for (tmp, _) in self.staged.drain(..) {
            let _ = fs::remove_file(tmp);
        }
        ReportError::Partial {
            written: Vec::new(),
            failed,
            source: Box::new(source),
        }
    }

    /// Creates the directory of `target` if it went missing since the check, and refuses a
    /// target that is a directory (its rename would fail at the end).
    fn prepare(&mut self, target: &Path) -> Result<(), ReportError> {
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Err(e) = fs::create_dir_all(dir) {
                return Err(self.fail(target.to_path_buf(), WriteFailure::Io(e)));
            }
        }
        if target.is_dir() {
            let e = std::io::Error::new(ErrorKind::IsADirectory, "a directory has this name");
            return Err(self.fail(target.to_path_buf(), WriteFailure::Io(e)));
        }
        Ok(())
    }

    /// Stages `<stem>_<what>` (with its extension in `what`).
    pub(crate) fn text(&mut self, what: &str, text: &str) -> Result<(), ReportError> {
        let path = self.out.path(what);
        self.prepare(&path)?;
        let tmp = temp_path(&path);
        let result = (|| {
            let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })();
        match result {
            Ok(()) => {
                self.staged.push((tmp, path));
                Ok(())
            }
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(self.fail(path, WriteFailure::Io(e)))
            }
        }
    }

    /// Stages `value` as pretty JSON (with a final newline) as `<stem>_<what>`.
    pub(crate) fn json(
        &mut self,
        what: &str,
        value: &serde_json::Value,
    ) -> Result<(), ReportError> {
        match serde_json::to_string_pretty(value) {
            Ok(s) => self.text(what, &(s + "\n")),
            Err(e) => Err(self.fail(self.out.path(what), WriteFailure::Json(e))),
        }
    }

    /// Renders `fig` to `<stem>_<what>.<ext>` for every format of the render options, each
    /// file drawn under a temporary name (extension last, as the backends need) and staged.
    pub(crate) fn figure(&mut self, what: &str, fig: &dyn Figure) -> Result<(), ReportError> {
        let render = self.out.render.clone();
        self.figure_with(what, fig, &render)
    }

    /// [`Batch::figure`] at another size or in other formats than the outputs' own.
    pub(crate) fn figure_with(
        &mut self,
        what: &str,
        fig: &dyn Figure,
        render: &RenderOptions,
    ) -> Result<(), ReportError> {
        let stem = self.out.path(what);
        if let Err(e) = render.validate() {
            let ext = render.formats.first().map_or("png", |f| f.extension());
            return Err(self.fail(with_extension(&stem, ext), WriteFailure::Plot(e)));
        }
        for &format in &render.formats {
            let target = with_extension(&stem, format.extension());
            self.prepare(&target)?;
            let tmp_stem = temp_path(&stem);
            let tmp = with_extension(&tmp_stem, format.extension());
            let one = render.clone().with_formats(&[format]);
            let result = fig
                .render(&tmp_stem, &one)
                .map_err(WriteFailure::Plot)
                .and_then(|_| sync_file(&tmp).map_err(WriteFailure::Io));
            if let Err(e) = result {
                let _ = fs::remove_file(&tmp);
                return Err(self.fail(target, e));
            }
            self.staged.push((tmp, target));
        }
        Ok(())
    }
}

impl Drop for Batch<'_> {
    /// A batch dropped unfinished (an error elsewhere) leaves no temporary files.
    fn drop(&mut self) {
        for (tmp, _) in self.staged.drain(..) {
            let _ = fs::remove_file(tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saltation_plot::{ImageFormat, OrbitDiagram};

    /// A fresh directory under the system's temporary directory, unique to this test.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "saltation-report-files-{}-{name}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn destination_created_and_checked() {
        let dir = temp_dir("dest");
        let new = dir.join("a").join("b");
        check_destination(&new).unwrap();
        assert!(new.is_dir());
        assert!(names(&new).is_empty(), "the probe is removed");
        check_destination(&new).unwrap();

        // A regular file where the directory should be.
        let file = dir.join("file");
        fs::write(&file, "x").unwrap();
        let e = check_destination(&file).unwrap_err();
        assert!(e.is_destination());
        assert!(
            matches!(&e, ReportError::Destination { path, problem: DestinationProblem::NotADirectory } if *path == file),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(msg.contains(&file.display().to_string()), "{msg}");
        assert!(msg.contains("not a directory"), "{msg}");

        // A directory under a regular file: the file is named.
        let under = file.join("sub").join("deeper");
        let e = check_destination(&under).unwrap_err();
        assert!(
            matches!(&e, ReportError::Destination {
                problem: DestinationProblem::AncestorNotADirectory { ancestor }, ..
            } if *ancestor == file),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(msg.contains(&under.display().to_string()), "{msg}");
        assert!(
            msg.contains(&format!("{} is not a directory", file.display())),
            "{msg}"
        );
        assert_eq!(names(&dir), ["a", "file"]);
    }

    #[test]
    fn atomic_write_replaces_whole_and_leaves_no_temp() {
        let dir = temp_dir("atomic");
        let path = dir.join("data.csv");
        fs::write(&path, "old contents, longer than the new ones\n").unwrap();
        write_atomic(&path, b"new\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(names(&dir), ["data.csv"]);

        // The target is a directory: the rename fails, the temporary file goes.
        let blocked = dir.join("blocked.csv");
        fs::create_dir(&blocked).unwrap();
        assert!(write_atomic(&blocked, b"x").is_err());
        assert!(blocked.is_dir());
        assert_eq!(names(&dir), ["blocked.csv", "data.csv"]);
    }

    #[test]
    fn temp_names_keep_the_extension_last() {
        let t = temp_path(Path::new("out/w_floquet"));
        let png = with_extension(&t, "png");
        assert_eq!(png.parent(), Some(Path::new("out")));
        let name = png.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(".w_floquet.tmp-"), "{name}");
        assert!(name.ends_with(".png"), "{name}");
        assert_ne!(temp_path(Path::new("x")), temp_path(Path::new("x")));
    }

    #[test]
    fn batch_failure_writes_nothing() {
        let dir = temp_dir("batch");
        let out = Outputs {
            dir: dir.clone(),
            stem: "w".into(),
            render: RenderOptions::new(64, 64),
        };
        // An old figure stays as it was; the SVG's name is taken by a directory.
        fs::write(dir.join("w_fig.png"), "old").unwrap();
        fs::create_dir(dir.join("w_fig.svg")).unwrap();
        let fig = OrbitDiagram::new("t", "p", "x", vec![0.0, 1.0], vec![0.5, 0.25]);
        let mut batch = Batch::new(&out);
        batch.text("a.csv", "a\n").unwrap();
        let e = batch.figure("fig", &fig).unwrap_err();
        let ReportError::Partial {
            written,
            failed,
            source,
        } = &e
        else {
            panic!("{e:?}")
        };
        assert!(written.is_empty(), "{written:?}");
        assert_eq!(failed, &dir.join("w_fig.svg"));
        assert!(matches!(**source, WriteFailure::Io(_)), "{source:?}");
        assert_eq!(fs::read(dir.join("w_fig.png")).unwrap(), b"old");
        // No CSV, no temporary file: the directory is as it was.
        assert_eq!(names(&dir), ["w_fig.png", "w_fig.svg"]);
        let msg = e.to_string();
        assert!(msg.contains(&failed.display().to_string()), "{msg}");
        assert!(msg.contains("no file was written"), "{msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
        drop(batch);

        // A complete batch renames everything at the end.
        fs::remove_dir(dir.join("w_fig.svg")).unwrap();
        let mut batch = Batch::new(&out);
        batch.text("a.csv", "a\n").unwrap();
        batch.figure("fig", &fig).unwrap();
        assert_eq!(
            fs::read(dir.join("w_fig.png")).unwrap(),
            b"old",
            "not before finish"
        );
        let written = batch.finish().unwrap();
        assert_eq!(written[0], dir.join("w_a.csv"));
        assert_ne!(fs::read(dir.join("w_fig.png")).unwrap(), b"old");
        assert!(
            names(&dir).iter().all(|n| !n.contains(".tmp")),
            "{:?}",
            names(&dir)
        );

        // Invalid render options name the first file and write nothing.
        let bad = Outputs {
            render: RenderOptions::new(1, 64).with_formats(&[ImageFormat::Svg]),
            ..out
        };
        let e = Batch::new(&bad).figure("g", &fig).unwrap_err();
        assert!(
            matches!(&e, ReportError::Partial { written, failed, source }
                if written.is_empty() && *failed == dir.join("w_g.svg")
                    && matches!(**source, WriteFailure::Plot(_))),
            "{e:?}"
        );
        assert!(e.to_string().contains("no file was written"), "{e}");
    }
}
