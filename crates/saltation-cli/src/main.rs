//! The `saltation` binary: parses the command line and hands it to [`saltation_cli::run`].
//! Errors are one line on stderr (`error: …`) with exit code 2 (bad input) or 1 (failed
//! computation); see the library documentation.

use clap::Parser;
use saltation_cli::{run, Cli};
use std::io::{ErrorKind, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A panic is a bug in saltation, but still gets one line rather than a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        let msg: Vec<&str> = msg.lines().map(str::trim).collect();
        eprintln!(
            "error: internal error (a bug in saltation): {}",
            msg.join(" ")
        );
    }));
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    match run(&cli, &mut stdout) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`saltation orbit … | head -1`) is not worth a message.
        Err(saltation_cli::CliError::Output(e)) if e.kind() == ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = stdout.flush();
            eprintln!("error: {}", e.message());
            ExitCode::from(e.exit_code())
        }
    }
}
