//! Guard crossings that were seen and not taken: a sign change in the direction the guard does
//! not count, or one where its enabling condition was false. A stride that ends without its
//! event (the time limit, a failure guard) lists them in its error, so that a guard written
//! with the wrong direction or a wrong enabling condition shows in the message.

use saltation_ode::{Direction, Num};
use std::fmt;

/// Why a crossing was not taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rejection {
    /// The sign changed the other way: `rising` says which way it went; the guard counts only
    /// `counts`.
    Direction {
        /// Whether `h` went from negative to positive.
        rising: bool,
        /// The direction the guard counts.
        counts: Direction,
    },
    /// The enabling condition was false there.
    NotEnabled,
}

/// One crossing that was not taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rejected {
    /// Guard index within its mode.
    pub guard: usize,
    /// About when (the end of the step or sample interval in which the sign changed).
    pub t: f64,
    /// Why.
    pub why: Rejection,
}

/// The rejected crossings of a segment (at most [`Crossings::MAX`], the first ones).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Crossings(pub Vec<Rejected>);

impl Crossings {
    /// Most crossings kept.
    pub const MAX: usize = 8;

    /// Adds one unless full, or unless the same guard was just recorded for the same reason at
    /// about the same time.
    pub(crate) fn push(&mut self, r: Rejected) {
        let repeat = self.0.last().is_some_and(|l| {
            l.guard == r.guard && l.why == r.why && (l.t - r.t).abs() <= 1e-9 * r.t.abs().max(1.0)
        });
        if !repeat && self.0.len() < Self::MAX {
            self.0.push(r);
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Crossings {
    /// Nothing when empty; else `; crossings seen and not taken: guard 0 at t ≈ 0.51 (it went
    /// from + to −, but the guard counts rising crossings), …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        f.write_str("; crossings seen and not taken:")?;
        for (k, r) in self.0.iter().enumerate() {
            let sep = if k == 0 { " " } else { ", " };
            write!(f, "{sep}guard {} at t ≈ {} (", r.guard, Num(r.t))?;
            match r.why {
                Rejection::Direction { rising, counts } => {
                    let went = if rising { "− to +" } else { "+ to −" };
                    let counts = match counts {
                        Direction::Rising => "rising (− to +)",
                        Direction::Falling => "falling (+ to −)",
                        Direction::Either => "either",
                    };
                    write!(
                        f,
                        "it went from {went}, but the guard counts {counts} crossings)"
                    )?;
                }
                Rejection::NotEnabled => f.write_str("its enabling condition was false)")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_guard_time_and_reason() {
        let mut c = Crossings::default();
        assert_eq!(c.to_string(), "");
        c.push(Rejected {
            guard: 0,
            t: 0.5,
            why: Rejection::Direction {
                rising: false,
                counts: Direction::Rising,
            },
        });
        // The same crossing seen again (a root-finding evaluation) is not repeated.
        c.push(c.0[0]);
        c.push(Rejected {
            guard: 1,
            t: 0.75,
            why: Rejection::NotEnabled,
        });
        assert_eq!(
            c.to_string(),
            "; crossings seen and not taken: guard 0 at t ≈ 0.5 (it went from + to −, but the \
             guard counts rising (− to +) crossings), guard 1 at t ≈ 0.75 (its enabling \
             condition was false)"
        );
        for k in 0..20 {
            c.push(Rejected {
                guard: 2,
                t: k as f64,
                why: Rejection::NotEnabled,
            });
        }
        assert_eq!(c.0.len(), Crossings::MAX);
    }
}
