//! Progress of long computations reported to a Python callable.
//!
//! The computation runs with the GIL released; each report takes the GIL for the call
//! (`Python::attach`), from whichever thread reports (the orbit diagram's workers too). The
//! callable gets one dict per event:
//!
//! | `"event"` | other keys |
//! |---|---|
//! | `"branch_started"` | `"branch"` (0-based), `"branches"`, `"label"`, `"period_k"`, `"from"`, `"to"`, `"max_points"` |
//! | `"point"` | `"branch"`, `"branches"`, `"points"`, `"max_points"`, `"param"`, `"step"` |
//! | `"branch_done"` | `"branch"`, `"branches"`, `"label"`, `"points"` |
//! | `"diagram_started"` | `"total"` |
//! | `"diagram"` | `"done"`, `"total"` |
//!
//! An exception raised by the callable is kept (the first one) and raised when the computation
//! returns; the computation itself is not interrupted.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltation_continuation::ScriptEvent;
use std::sync::Mutex;

/// A Python callable receiving progress events, and the first exception it raised.
pub struct Reporter {
    callback: Option<Py<PyAny>>,
    raised: Mutex<Option<PyErr>>,
}

/// A progress event: its name and its other keys.
type Event<'a> = (&'static str, Vec<(&'static str, Item<'a>)>);

/// A value in an event's dict.
pub enum Item<'a> {
    /// An integer.
    Int(usize),
    /// A float.
    Float(f64),
    /// A string.
    Text(&'a str),
}

impl Reporter {
    /// Reports to `callback` (nothing when `None`).
    pub fn new(callback: Option<Py<PyAny>>) -> Self {
        Self {
            callback,
            raised: Mutex::new(None),
        }
    }

    /// Calls the callback with the event as a dict (takes the GIL).
    pub fn report(&self, (name, items): Event<'_>) {
        let Some(cb) = &self.callback else { return };
        Python::attach(|py| {
            let call = || -> PyResult<()> {
                let d = PyDict::new(py);
                d.set_item("event", name)?;
                for (k, v) in items {
                    match v {
                        Item::Int(i) => d.set_item(k, i)?,
                        Item::Float(x) => d.set_item(k, x)?,
                        Item::Text(s) => d.set_item(k, s)?,
                    }
                }
                cb.call1(py, (d,))?;
                Ok(())
            };
            if let Err(e) = call() {
                let mut slot = self.raised.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert(e);
            }
        });
    }

    /// A continuation script's event.
    pub fn script_event(&self, e: ScriptEvent<'_>) {
        use Item::{Float, Int, Text};
        let event: Event<'_> = match e {
            ScriptEvent::BranchStarted {
                label,
                index,
                count,
                period_k,
                from,
                to,
                max_points,
                ..
            } => (
                "branch_started",
                vec![
                    ("branch", Int(index)),
                    ("branches", Int(count)),
                    ("label", Text(label)),
                    ("period_k", Int(period_k)),
                    ("from", Float(from)),
                    ("to", Float(to)),
                    ("max_points", Int(max_points)),
                ],
            ),
            ScriptEvent::Point {
                index,
                count,
                progress,
            } => (
                "point",
                vec![
                    ("branch", Int(index)),
                    ("branches", Int(count)),
                    ("points", Int(progress.points)),
                    ("max_points", Int(progress.max_points)),
                    ("param", Float(progress.param)),
                    ("step", Float(progress.step)),
                ],
            ),
            ScriptEvent::BranchDone {
                index,
                count,
                label,
                points,
                ..
            } => (
                "branch_done",
                vec![
                    ("branch", Int(index)),
                    ("branches", Int(count)),
                    ("label", Text(label)),
                    ("points", Int(points)),
                ],
            ),
            ScriptEvent::DiagramStarted { total } => {
                ("diagram_started", vec![("total", Int(total))])
            }
            ScriptEvent::DiagramProgress { done, total } => {
                ("diagram", vec![("done", Int(done)), ("total", Int(total))])
            }
            _ => return,
        };
        self.report(event);
    }

    /// The first exception the callback raised, if any.
    pub fn take_raised(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}
