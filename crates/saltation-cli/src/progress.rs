//! The progress line of long-running subcommands, on stderr and drawn only when stderr is a
//! terminal (hidden otherwise, so pipes and logs stay clean; never on stdout).
//!
//! - A continuation script ([`ScriptBar::event`], fed by
//!   [`saltation_continuation::run_script_with_events`]) shows `branch i/m "label"` (`i` counts
//!   the section's branches; a branch switched onto at a period doubling keeps the number of the
//!   branch it came from), its points so far out of its `max_points`, the parameter, the step
//!   and the elapsed time; each finished branch leaves a line with its points and why it ended.
//! - A task with a known number of items, such as the orbit diagram's parameter values
//!   ([`ScriptBar::start_counted`], then [`ScriptBar::set_done`]), shows
//!   `done/total`, the percentage and an estimate of the time left (linear in the items done so
//!   far) once the first item is done.
//! - Until then it is a spinner with the elapsed time ([`ScriptBar::new`]).
//!
//! `&ScriptBar` can be shared with worker threads: [`ScriptBar::set_done`] takes `&self`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use saltation_continuation::{Progress, ScriptEvent};
use saltation_report::fixed;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A spinner: elapsed time, what is running, details.
const SPINNER: &str = "{spinner} [{elapsed_precise}] {prefix}: {msg}";
/// A branch with a bound on its points.
const POINTS: &str =
    "{spinner} [{elapsed_precise}] {prefix}: {pos} of at most {len} point(s), {msg}";
/// Counted items, at least one done.
const COUNTED: &str =
    "{spinner} [{elapsed_precise}] {prefix}: [{bar:25}] {pos}/{len} {msg} ({percent}%), {left}";

/// Which template the line uses, as set by `&mut self` methods (the counted template, set from
/// worker threads, is flagged by `ScriptBar::counted` instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Spinner,
    Points,
}

/// A progress line that follows a continuation script or a counted task.
#[derive(Debug)]
pub struct ScriptBar {
    bar: ProgressBar,
    symbol: String,
    mode: Mode,
    /// Whether the counted template is in use.
    counted: AtomicBool,
    /// When the counted task started (`None`: the bar's own start).
    counted_since: Option<Instant>,
    /// What the counted task's items are.
    what: String,
}

impl ScriptBar {
    /// A spinner for a script in the parameter shown as `symbol`; hidden unless stderr is a
    /// terminal.
    pub fn new(symbol: &str) -> Self {
        Self::with_visibility(symbol, std::io::stderr().is_terminal())
    }

    fn with_visibility(symbol: &str, visible: bool) -> Self {
        let bar = if visible {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(style(SPINNER));
        Self {
            bar,
            symbol: symbol.to_string(),
            mode: Mode::Spinner,
            counted: AtomicBool::new(false),
            counted_since: None,
            what: String::new(),
        }
    }

    fn set_mode(&mut self, mode: Mode) {
        let was_counted = self.counted.swap(false, Ordering::Relaxed);
        if self.mode != mode || was_counted {
            self.mode = mode;
            self.bar.set_style(style(match mode {
                Mode::Spinner => SPINNER,
                Mode::Points => POINTS,
            }));
        }
    }

    /// Takes one event of [`saltation_continuation::run_script_with_events`].
    pub fn event(&mut self, event: ScriptEvent<'_>) {
        match event {
            ScriptEvent::BranchStarted {
                label,
                index,
                count,
                max_points,
                ..
            } => {
                self.set_mode(Mode::Points);
                self.bar.set_prefix(format!(
                    "branch {}/{count} \"{label}\"",
                    index.saturating_add(1)
                ));
                self.bar.set_length(to_u64(max_points));
                self.bar.set_position(0);
                self.bar.set_message("starting");
            }
            ScriptEvent::Point { progress, .. } => self.point(progress),
            ScriptEvent::BranchDone {
                label, points, end, ..
            } if !self.bar.is_hidden() => {
                self.bar
                    .println(format!("  branch \"{label}\": {points} point(s), {end}"));
            }
            ScriptEvent::DiagramStarted { total } => {
                self.start_counted("orbit diagram", total, "parameter values");
            }
            ScriptEvent::DiagramProgress { done, total } => self.set_done(done, total),
            // Events added to the library later are not shown.
            _ => {}
        }
    }

    /// A new point of the branch in progress: its count out of the branch's limit, the
    /// parameter and the step.
    fn point(&mut self, p: Progress) {
        let at = format!(
            "{} = {} (step {:.1e})",
            self.symbol,
            fixed(p.param, 8),
            p.step
        );
        if p.max_points > 0 {
            self.set_mode(Mode::Points);
            self.bar.set_length(to_u64(p.max_points));
            self.bar.set_position(to_u64(p.points));
            self.bar.set_message(at);
        } else {
            self.set_mode(Mode::Spinner);
            self.bar.set_message(format!("{} point(s), {at}", p.points));
        }
    }

    /// A new point of a two-parameter curve ([`saltation_continuation::CurveProgress`]): its
    /// count out of the limit and both parameters (`symbol2` the second's symbol).
    pub fn curve_point(&mut self, p: saltation_continuation::CurveProgress, symbol2: &str) {
        self.set_mode(Mode::Points);
        self.bar.set_prefix("curve");
        self.bar.set_length(to_u64(p.max_points));
        self.bar.set_position(to_u64(p.points));
        self.bar.set_message(format!(
            "{} = {}, {symbol2} = {} (step {:.1e})",
            self.symbol,
            fixed(p.params[0], 8),
            fixed(p.params[1], 8),
            p.step
        ));
    }

    /// Starts a task of `total` items called `what` (e.g. `"parameter values"`) under `prefix`.
    /// Until the first item is done it reads `<total> <what>`; then `done/total <what>`, the
    /// percentage and the time left.
    pub fn start_counted(&mut self, prefix: &str, total: usize, what: &str) {
        self.mode = Mode::Points;
        self.set_mode(Mode::Spinner);
        self.bar.set_prefix(prefix.to_string());
        self.bar.set_length(to_u64(total));
        self.bar.set_position(0);
        self.bar.set_message(format!("{total} {what}"));
        self.counted_since = Some(Instant::now());
        self.what = what.to_string();
    }

    /// `done` of `total` items of the counted task are done. Calls may come from several
    /// threads and out of order: the count never goes back. Fits
    /// [`saltation_continuation::orbit_diagram_with_progress`]:
    /// `&|done, total| bar.set_done(done, total)`.
    pub fn set_done(&self, done: usize, total: usize) {
        let (done, total) = (to_u64(done), to_u64(total));
        if self.bar.length() != Some(total) {
            self.bar.set_length(total);
        }
        let before = self.bar.position();
        if done <= before {
            return;
        }
        if before == 0 {
            self.counting();
        }
        self.bar.update(|s| {
            if done > s.pos() {
                s.set_pos(done);
            }
        });
    }

    /// Switches to the counted template (on the first item done).
    fn counting(&self) {
        self.counted.store(true, Ordering::Relaxed);
        self.bar.set_style(counted_style(self.counted_since));
        self.bar.set_message(self.what.clone());
    }

    /// Removes the progress line.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for ScriptBar {
    /// Clears the line if [`ScriptBar::finish`] was not called (e.g. on an early return).
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .progress_chars("=> ")
}

/// The counted template, with `{left}` the time left estimated from `start` (the bar's own
/// elapsed time if `None`).
fn counted_style(start: Option<Instant>) -> ProgressStyle {
    style(COUNTED).with_key(
        "left",
        move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let elapsed = start.map_or_else(|| s.elapsed(), |t| t.elapsed());
            let left = s.len().and_then(|total| remaining(elapsed, s.pos(), total));
            let _ = match left {
                Some(d) => write!(w, "about {} left", duration_text(d)),
                None => write!(w, "time left unknown"),
            };
        },
    )
}

/// A count as `u64` (saturating; `usize` is at most 64 bits on supported targets).
fn to_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// The time left if the remaining `total − done` items take as long each as the `done` ones
/// did in `elapsed`; `None` before the first item. Saturates instead of overflowing.
pub fn remaining(elapsed: Duration, done: u64, total: u64) -> Option<Duration> {
    if done == 0 {
        return None;
    }
    let left = u128::from(total.saturating_sub(done));
    let nanos = elapsed.as_nanos().saturating_mul(left) / u128::from(done);
    Some(Duration::from_nanos(
        u64::try_from(nanos).unwrap_or(u64::MAX),
    ))
}

/// A duration for the progress line: `12s`, `3m 05s`, `2h 07m`.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saltation_continuation::EndReason;

    fn progress(points: usize, max_points: usize, param: f64) -> Progress {
        Progress {
            points,
            max_points,
            param,
            step: 1e-4,
        }
    }

    fn started(label: &str, index: usize, switches: usize) -> ScriptEvent<'_> {
        ScriptEvent::BranchStarted {
            label,
            index,
            count: 2,
            switches,
            period_k: 1 << switches,
            from: 0.01,
            to: 0.02,
            max_points: 50,
        }
    }

    #[test]
    fn script_events_number_branches_and_count_points() {
        let mut bar = ScriptBar::with_visibility("γ", false);
        assert!(bar.bar.is_hidden());
        bar.event(started("up", 0, 0));
        assert_eq!(bar.bar.prefix(), "branch 1/2 \"up\"");
        assert_eq!(bar.bar.length(), Some(50));
        bar.event(ScriptEvent::Point {
            index: 0,
            count: 2,
            progress: progress(3, 50, 0.0125),
        });
        assert_eq!(bar.bar.position(), 3);
        assert_eq!(bar.bar.message(), "γ = 0.01250000 (step 1.0e-4)");
        let end = EndReason::ParameterBound;
        bar.event(ScriptEvent::BranchDone {
            index: 0,
            count: 2,
            label: "up",
            points: 4,
            end: &end,
        });
        // A switched branch keeps the number of the branch it came from.
        bar.event(started("period-2 from PD", 0, 1));
        assert_eq!(bar.bar.prefix(), "branch 1/2 \"period-2 from PD\"");
        assert_eq!(bar.bar.position(), 0);
        bar.event(started("down", 1, 0));
        assert_eq!(bar.bar.prefix(), "branch 2/2 \"down\"");
        // A parameter of huge magnitude does not print hundreds of digits.
        bar.event(ScriptEvent::Point {
            index: 1,
            count: 2,
            progress: progress(1, 50, 1e300),
        });
        assert!(bar.bar.message().len() < 40, "{}", bar.bar.message());
        bar.finish();
    }

    #[test]
    fn counted_task_counts_from_any_thread_and_never_goes_back() {
        let mut bar = ScriptBar::with_visibility("γ", false);
        bar.event(ScriptEvent::DiagramStarted { total: 40 });
        assert_eq!(bar.bar.prefix(), "orbit diagram");
        assert_eq!(bar.bar.message(), "40 parameter values");
        let bar = &bar;
        std::thread::scope(|s| {
            for t in 0..4 {
                s.spawn(move || (1..=10).for_each(|i| bar.set_done(4 * i - t, 40)));
            }
        });
        assert_eq!((bar.bar.position(), bar.bar.length()), (40, Some(40)));
        assert_eq!(bar.bar.message(), "parameter values");
        bar.set_done(12, 40);
        assert_eq!(
            bar.bar.position(),
            40,
            "out-of-order reports do not go back"
        );
        // Dropped without finish: cleared, no panic.
    }

    #[test]
    fn time_left_is_linear_and_saturates() {
        let s = Duration::from_secs;
        assert_eq!(remaining(s(10), 0, 100), None);
        assert_eq!(remaining(s(10), 25, 100), Some(s(30)));
        assert_eq!(remaining(s(10), 120, 100), Some(s(0)));
        assert_eq!(
            remaining(Duration::MAX, 1, u64::MAX),
            Some(Duration::from_nanos(u64::MAX))
        );
        assert_eq!(duration_text(s(5)), "5s");
        assert_eq!(duration_text(s(185)), "3m 05s");
        assert_eq!(duration_text(s(7620)), "2h 07m");
    }
}
