//! Axis ranges, tick positions and tick labels (internal).
//!
//! Everything is drawn on linear plotters coordinates; a logarithmic axis plots `log10(v)` and
//! labels its ticks with `v`. This keeps one concrete chart type for every figure.

use crate::PlotError;

/// Maps a data value to plot coordinates: `v` itself, or `log10(v)` on a log axis (NaN for
/// `v <= 0`, so that such points are skipped like any non-finite value).
pub(crate) fn to_plot(log: bool, v: f64) -> f64 {
    if !log {
        v
    } else if v > 0.0 {
        v.log10()
    } else {
        f64::NAN
    }
}

/// One axis, in plot coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Axis {
    /// Lower end (plot coordinates).
    pub lo: f64,
    /// Upper end (plot coordinates).
    pub hi: f64,
    /// Whether plot coordinates are `log10` of the data.
    pub log: bool,
}

impl Axis {
    /// Plot coordinate → data value.
    pub fn inv(&self, t: f64) -> f64 {
        if self.log {
            10f64.powf(t)
        } else {
            t
        }
    }

    /// Length of the axis in plot coordinates.
    pub fn span(&self) -> f64 {
        self.hi - self.lo
    }

    /// Position of plot coordinate `t` as a fraction of the axis (0 at `lo`, 1 at `hi`).
    pub fn frac(&self, t: f64) -> f64 {
        (t - self.lo) / self.span()
    }
}

/// Running minimum and maximum of the finite plot coordinates seen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Extent {
    lo: f64,
    hi: f64,
}

impl Default for Extent {
    fn default() -> Self {
        Self {
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
        }
    }
}

impl Extent {
    /// Includes `t` if it is finite.
    pub fn add(&mut self, t: f64) {
        if t.is_finite() {
            self.lo = self.lo.min(t);
            self.hi = self.hi.max(t);
        }
    }

    /// Whether no finite value was added.
    pub fn is_empty(&self) -> bool {
        self.lo > self.hi
    }
}

/// How [`make_axes`] scales one axis: logarithmic or not, a user range in data units (used as
/// given), and the fraction of the data span added on each side.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scale {
    pub log: bool,
    pub fixed: Option<(f64, f64)>,
    pub margin: f64,
}

/// The x and y axes of `figure` for the data extents `ex` and `ey` ([`make_axis`], x first), or
/// [`PlotError::EmptyData`] where either has no data and no fixed range.
pub(crate) fn make_axes(
    figure: &'static str,
    (ex, ey): (Extent, Extent),
    x: Scale,
    y: Scale,
) -> Result<(Axis, Axis), PlotError> {
    let spec = |name, s: Scale| AxisSpec {
        figure,
        name,
        log: s.log,
        fixed: s.fixed,
        margin: s.margin,
    };
    let x = make_axis(ex, &spec("x", x))?;
    let y = make_axis(ey, &spec("y", y))?;
    match (x, y) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(PlotError::EmptyData { figure }),
    }
}

/// Settings for [`make_axis`].
struct AxisSpec {
    figure: &'static str,
    name: &'static str,
    log: bool,
    /// User range in data units, used as given.
    fixed: Option<(f64, f64)>,
    /// Fraction of the data span added on each side.
    margin: f64,
}

/// The axis for data extent `ext` (plot coordinates), or `None` if `ext` is empty and no fixed
/// range is given.
fn make_axis(ext: Extent, spec: &AxisSpec) -> Result<Option<Axis>, PlotError> {
    if let Some((lo, hi)) = spec.fixed {
        let (a, b) = (to_plot(spec.log, lo), to_plot(spec.log, hi));
        if !(a.is_finite() && b.is_finite() && a < b) {
            return Err(PlotError::InvalidRange {
                figure: spec.figure,
                axis: spec.name,
                lo,
                hi,
            });
        }
        return Ok(Some(Axis {
            lo: a,
            hi: b,
            log: spec.log,
        }));
    }
    if ext.is_empty() {
        return Ok(None);
    }
    let (mut lo, mut hi) = (ext.lo, ext.hi);
    if hi - lo <= 1e-12 * lo.abs().max(hi.abs()).max(1e-300) {
        let half = if spec.log {
            0.5
        } else if lo == 0.0 {
            1.0
        } else {
            0.1 * lo.abs()
        };
        lo -= half;
        hi += half;
    }
    let pad = spec.margin * (hi - lo);
    let (lo, hi) = (lo - pad, hi + pad);
    if !(lo.is_finite() && hi.is_finite() && (hi - lo).is_finite()) {
        // E.g. data spanning ±1e308: no finite axis holds it.
        return Err(PlotError::InvalidRange {
            figure: spec.figure,
            axis: spec.name,
            lo,
            hi,
        });
    }
    Ok(Some(Axis {
        lo,
        hi,
        log: spec.log,
    }))
}

/// Tick positions (plot coordinates) with their labels.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ticks {
    pub pos: Vec<f64>,
    pub labels: Vec<String>,
}

impl Ticks {
    /// The label of the tick nearest to `t`.
    pub fn label_at(&self, t: f64) -> String {
        self.pos
            .iter()
            .zip(&self.labels)
            .min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs()))
            .map(|(_, l)| l.clone())
            .unwrap_or_default()
    }
}

/// At most about `max_n` ticks on `axis`, at 1/2/2.5/5 × 10^k (linear) or at decades, falling
/// back to 1/2/5 and 1…9 multiples when the axis spans too few decades (log).
pub(crate) fn ticks(axis: &Axis, max_n: usize) -> Ticks {
    let max_n = max_n.max(2);
    if axis.log {
        let inside = |t: &f64| *t >= axis.lo - 1e-9 && *t <= axis.hi + 1e-9;
        let (d0, d1) = (axis.lo.floor() as i64, axis.hi.ceil() as i64);
        let decades: Vec<i64> = (d0..=d1).filter(|k| inside(&(*k as f64))).collect();
        if decades.len() >= 4 {
            let stride = decades.len().div_ceil(max_n) as i64;
            let pos = decades
                .iter()
                .filter(|k| k.rem_euclid(stride) == 0)
                .map(|&k| k as f64)
                .collect();
            return log_ticks(pos);
        }
        // Fewer than four decades: the 1-2-5 (or 1-3) multiples of each decade if they fit,
        // else the decades alone when at least two are inside, so that 1 (and the values
        // below it) keep their labels; 1…9 multiples only when the range is too short for
        // three 1-2-5 ticks.
        let at = |mantissas: &[f64]| -> Vec<f64> {
            (d0..=d1)
                .flat_map(|k| mantissas.iter().map(move |m| k as f64 + f64::log10(*m)))
                .filter(inside)
                .collect()
        };
        let one_two_five = at(&[1.0, 2.0, 5.0]);
        if one_two_five.len() >= 3 {
            for pos in [one_two_five, at(&[1.0, 3.0])] {
                if pos.len() <= max_n {
                    return log_ticks(pos);
                }
            }
            if decades.len() >= 2 {
                return log_ticks(decades.iter().map(|&k| k as f64).collect());
            }
        } else {
            let pos = at(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
            if pos.len() >= 3 && pos.len() <= max_n {
                return log_ticks(pos);
            }
        }
        // Less than a decade: linear ticks in data space.
        let lin = Axis {
            lo: axis.inv(axis.lo),
            hi: axis.inv(axis.hi),
            log: false,
        };
        let t = linear_ticks(&lin, max_n);
        let pos = t.pos.iter().map(|v| v.log10()).collect();
        return Ticks {
            pos,
            labels: t.labels,
        };
    }
    linear_ticks(axis, max_n)
}

fn log_ticks(pos: Vec<f64>) -> Ticks {
    // Decimal labels only if every tick is between 0.01 and 1000; else powers of ten throughout.
    let decimal = pos.iter().all(|t| (-2.0 - 1e-9..=3.0 + 1e-9).contains(t));
    let labels = pos.iter().map(|&t| fmt_log_tick(t, decimal)).collect();
    Ticks { pos, labels }
}

/// A "nice" step (1, 2, 2.5 or 5 × 10^k) giving at most `max_n` intervals over `span`.
pub(crate) fn nice_step(span: f64, max_n: usize) -> f64 {
    let raw = span / max_n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag)
}

pub(crate) fn linear_ticks(axis: &Axis, max_n: usize) -> Ticks {
    let step = nice_step(axis.span(), max_n.max(2) - 1);
    let first = (axis.lo / step - 1e-9).ceil();
    let last = (axis.hi / step + 1e-9).floor();
    if !(step > 0.0 && first.is_finite() && last.is_finite() && last - first < 1000.0) {
        return Ticks::default();
    }
    let (first, last) = (first as i64, last as i64);
    let pos: Vec<f64> = (first..=last).map(|k| k as f64 * step).collect();
    let big = axis.lo.abs().max(axis.hi.abs());
    let labels = pos.iter().map(|&v| fmt_linear_tick(v, step, big)).collect();
    Ticks { pos, labels }
}

/// Formats `v` (a multiple of `step`) with just enough digits; scientific notation when the
/// axis magnitude `big` is ≥ 1e5 or < 1e-3.
fn fmt_linear_tick(v: f64, step: f64, big: f64) -> String {
    if v.abs() < 1e-9 * step {
        return "0".into();
    }
    let step_exp = step.log10().floor();
    let extra = usize::from((step / 10f64.powf(step_exp) - 2.5).abs() < 1e-6);
    if !(1e-3..1e5).contains(&big) {
        let exp = v.abs().log10().floor();
        let digits = ((exp - step_exp).max(0.0) as usize) + extra;
        let mant = v / 10f64.powf(exp);
        return format!(
            "{}×10{}",
            minus(&trim(format!("{mant:.digits$}"))),
            sup(exp as i64)
        );
    }
    let dec = ((-step_exp).max(0.0) as usize) + extra;
    minus(&trim(format!("{v:.dec$}")))
}

/// Label of a log-axis tick at plot coordinate `t` (the value is `10^t`): a decimal number, or
/// `10ⁿ` / `m×10ⁿ`.
fn fmt_log_tick(t: f64, decimal: bool) -> String {
    let v = 10f64.powf(t);
    if decimal {
        return fmt_sig(v, 3);
    }
    let k = t.floor();
    let mant = 10f64.powf(t - k);
    let (mant, k) = if mant > 9.9999 {
        (1.0, k + 1.0)
    } else {
        (mant, k)
    };
    let k = k as i64;
    if (mant - 1.0).abs() < 1e-6 {
        format!("10{}", sup(k))
    } else {
        format!("{}×10{}", fmt_sig(mant, 2), sup(k))
    }
}

/// `v` with `sig` significant digits, trailing zeros removed.
pub(crate) fn fmt_sig(v: f64, sig: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { format!("{v}") };
    }
    let exp = v.abs().log10().floor() as i64;
    let dec = (sig as i64 - 1 - exp).max(0) as usize;
    minus(&trim(format!("{v:.dec$}")))
}

fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Typographic minus sign; "-0" becomes "0".
fn minus(s: &str) -> String {
    match s.strip_prefix('-') {
        Some("0") => "0".into(),
        Some(rest) => format!("\u{2212}{rest}"),
        None => s.into(),
    }
}

fn sup(k: i64) -> String {
    k.to_string()
        .chars()
        .map(|c| match c {
            '-' => '\u{207B}',
            '0' => '\u{2070}',
            '1' => '\u{00B9}',
            '2' => '\u{00B2}',
            '3' => '\u{00B3}',
            d => char::from_u32(0x2070 + d.to_digit(10).unwrap_or(0)).unwrap_or(d),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_nice() {
        let t = linear_ticks(
            &Axis {
                lo: -0.13,
                hi: 1.07,
                log: false,
            },
            8,
        );
        assert_eq!(t.labels, ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
        let t = linear_ticks(
            &Axis {
                lo: -2.0,
                hi: 2.0,
                log: false,
            },
            6,
        );
        assert_eq!(t.labels.first().map(String::as_str), Some("\u{2212}2"));
    }

    #[test]
    fn log_ticks_label_decades_and_fill_short_ranges() {
        let t = ticks(
            &Axis {
                lo: -6.2,
                hi: 1.3,
                log: true,
            },
            10,
        );
        assert!(
            t.labels.contains(&"10\u{207B}\u{2076}".to_string()),
            "{:?}",
            t.labels
        );
        assert!(
            t.labels.contains(&"10\u{00B9}".to_string()),
            "{:?}",
            t.labels
        );
        let t = ticks(
            &Axis {
                lo: -0.7,
                hi: 0.5,
                log: true,
            },
            10,
        );
        assert_eq!(t.labels, ["0.2", "0.5", "1", "2"]);
        let t = ticks(
            &Axis {
                lo: -5.4,
                hi: -3.0,
                log: true,
            },
            10,
        );
        assert_eq!(t.labels[0], "5×10\u{207B}\u{2076}");
    }

    /// |μ| from 0.3 to 50 on a short axis: too many 1-2-5 ticks for the room, so 1-3 or the
    /// decades, never linear ticks that leave 1 and everything below 10 unlabelled.
    #[test]
    fn log_ticks_below_ten_keep_their_labels_on_a_short_axis() {
        let axis = Axis {
            lo: 0.3f64.log10(),
            hi: 50f64.log10(),
            log: true,
        };
        for max_n in 2..12 {
            let t = ticks(&axis, max_n);
            assert!(
                t.labels.contains(&"1".to_string()),
                "{max_n}: {:?}",
                t.labels
            );
            assert!(t
                .pos
                .iter()
                .all(|p| *p >= axis.lo - 1e-9 && *p <= axis.hi + 1e-9));
        }
        assert_eq!(ticks(&axis, 4).labels, ["1", "10"]);
        assert_eq!(ticks(&axis, 6).labels, ["0.3", "1", "3", "10", "30"]);
    }
}
