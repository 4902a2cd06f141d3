//! The command as a library entry point: parse the process's arguments, run, print errors as
//! one line, and say how it ended, with the models of a registry known to model files. The
//! `saltation` binary is `main_with(&Registry::builtin())`; a user's program registers its own
//! models first.

use crate::{run_with, Cli, EXIT_INPUT};
use clap::error::ErrorKind as ClapKind;
use clap::Parser;
use saltation_models::Registry;
use std::io::Write;
use std::process::ExitCode;

/// The `saltation` command over the process's arguments, with `registry`'s models known to
/// model files. Errors are one line on stderr (`error: …`) with exit code 2 (bad input) or 1
/// (failed computation).
pub fn main_with(registry: &Registry) -> ExitCode {
    // A panic is a bug in saltation, but still gets one line rather than a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        let msg: Vec<&str> = msg.lines().map(str::trim).collect();
        say(&format!(
            "error: internal error (a bug in saltation): {}",
            msg.join(" ")
        ));
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // With standard output closed (`>&-`) the result would be lost without a word.
    if crate::stdout_check::closed() {
        say(
            "error: standard output is closed (`>&-`), so the result would be lost; redirect it \
             to a file, or to /dev/null to discard it on purpose",
        );
        return ExitCode::from(EXIT_INPUT);
    }
    let mut stdout = std::io::stdout().lock();
    // The result is flushed here and a failure reported: a write that fails (`EPIPE` from a
    // reader that went away, `ENOSPC` on a full disk) means the output is incomplete.
    let result = run_with(&cli, registry, &mut stdout).and_then(|()| Ok(stdout.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = stdout.flush();
            say(&format!("error: {}", e.message()));
            ExitCode::from(e.exit_code())
        }
    }
}

/// A command line clap refused: help and version as clap prints them; any other error as one
/// `error: ` line (clap's first line, without its usage block and tips) with exit code 2.
fn usage_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ClapKind::DisplayHelp
        | ClapKind::DisplayVersion
        | ClapKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            let text = e.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("invalid command line");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // "the following required arguments were not provided:" names them on the next
            // line: keep it.
            let first = match (first.ends_with(':'), lines.next()) {
                (true, Some(next)) => format!("{first} {next}"),
                _ => first.to_string(),
            };
            say(&format!("error: {first} (see `saltation --help`)"));
            ExitCode::from(EXIT_INPUT)
        }
    }
}

/// Writes one line to stderr, ignoring a failure: with stderr unwritable (`2>/dev/full`) there
/// is nowhere to say anything, and the exit code still tells how the run ended (`eprintln!`
/// would panic, and the panic hook's own `eprintln!` abort the process).
fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}
