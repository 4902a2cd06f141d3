//! The `saltation` binary: the command over the built-in models ([`saltation_cli::main_with`]).
//! Errors are one line on stderr (`error: …`) with exit code 2 (bad input) or 1 (failed
//! computation); see the library documentation.

use saltation_cli::{main_with, Registry};
use std::process::ExitCode;

fn main() -> ExitCode {
    main_with(&Registry::builtin())
}
