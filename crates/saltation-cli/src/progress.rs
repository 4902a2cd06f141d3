//! The progress line of long-running subcommands: a spinner on stderr with the current branch,
//! its number of points and the parameter, drawn only when stderr is a terminal (hidden
//! otherwise, so pipes and logs stay clean; never on stdout).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use saltation_continuation::ScriptProgress;
use std::io::IsTerminal;
use std::time::Duration;

/// A spinner that follows a continuation script.
#[derive(Debug)]
pub struct ScriptBar {
    bar: ProgressBar,
    symbol: String,
    /// Label of the branch in progress.
    current: Option<String>,
}

impl ScriptBar {
    /// A spinner for a script in the parameter shown as `symbol`; hidden unless stderr is a
    /// terminal.
    pub fn new(symbol: &str) -> Self {
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let style =
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {prefix}: {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        } else {
            ProgressBar::hidden()
        };
        Self {
            bar,
            symbol: symbol.to_string(),
            current: None,
        }
    }

    /// Takes one report of [`saltation_continuation::run_script`].
    pub fn report(&mut self, event: ScriptProgress<'_>) {
        match event {
            ScriptProgress::Branch(label) => {
                self.close_branch();
                self.current = Some(label.to_string());
                self.bar.set_prefix(format!("branch \"{label}\""));
                self.bar.set_message("starting");
            }
            ScriptProgress::Point(p) => {
                self.bar.set_message(format!(
                    "{} point(s), {} = {:.8} (step {:.1e})",
                    p.points, self.symbol, p.param, p.step
                ));
            }
            ScriptProgress::Diagram(n) => {
                self.close_branch();
                self.bar.set_prefix("orbit diagram");
                self.bar
                    .set_message(format!("{n} parameter values, in parallel"));
            }
        }
    }

    /// Starts a plain task (no branches), e.g. an orbit diagram alone.
    pub fn task(&self, prefix: &str, message: String) {
        self.bar.set_prefix(prefix.to_string());
        self.bar.set_message(message);
    }

    fn close_branch(&mut self) {
        // The count is not printed: the library does not report a branch's last point (the
        // one landing on the parameter bound) to the progress callback.
        if let Some(label) = self.current.take() {
            if !self.bar.is_hidden() {
                self.bar.println(format!("  branch \"{label}\" done"));
            }
        }
    }

    /// Removes the spinner.
    pub fn finish(mut self) {
        self.close_branch();
        self.bar.finish_and_clear();
    }
}
