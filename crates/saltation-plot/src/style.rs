//! Colours, line styles, markers and legend placement shared by all figures.

use plotters::style::RGBColor;

/// An opaque sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

impl Color {
    /// A colour from its red, green and blue components.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b }
    }

    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    /// A mid grey, used for event markers and reference lines.
    pub const GREY: Color = Color::rgb(120, 120, 120);

    /// The `i`-th colour of the default cycle (the ten "tab10" colours of matplotlib, which stay
    /// distinguishable for most colour-vision deficiencies); wraps around after ten.
    pub fn palette(i: usize) -> Color {
        const TAB10: [Color; 10] = [
            Color::rgb(31, 119, 180),
            Color::rgb(255, 127, 14),
            Color::rgb(44, 160, 44),
            Color::rgb(214, 39, 40),
            Color::rgb(148, 103, 189),
            Color::rgb(140, 86, 75),
            Color::rgb(227, 119, 194),
            Color::rgb(127, 127, 127),
            Color::rgb(188, 189, 34),
            Color::rgb(23, 190, 207),
        ];
        TAB10[i % TAB10.len()]
    }

    /// The viridis colour map at `t` ∈ [0, 1] (clamped; NaN maps to 0): dark violet → blue →
    /// green → yellow, perceptually uniform and readable in greyscale.
    pub fn viridis(t: f64) -> Color {
        const STOPS: [(u8, u8, u8); 9] = [
            (68, 1, 84),
            (71, 44, 122),
            (59, 81, 139),
            (44, 113, 142),
            (33, 144, 141),
            (39, 173, 129),
            (92, 200, 99),
            (170, 220, 50),
            (253, 231, 37),
        ];
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        let pos = t * (STOPS.len() - 1) as f64;
        let i = (pos.floor() as usize).min(STOPS.len() - 2);
        let f = pos - i as f64;
        let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
        let (a, b) = (STOPS[i], STOPS[i + 1]);
        Color::rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    pub(crate) fn rgb_color(self) -> RGBColor {
        RGBColor(self.r, self.g, self.b)
    }
}

/// How a line is stroked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum LineStyle {
    /// A continuous line (default; used for stable solutions).
    #[default]
    Solid,
    /// Long dashes (used for unstable solutions).
    Dashed,
    /// Short dashes with wide gaps, for reference curves.
    Dotted,
    /// Long dash, gap, short dash, gap (e.g. Neimark–Sacker curves of a two-parameter diagram).
    DashDot,
}

/// The shape drawn at a data point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Marker {
    /// A disc or ring (default).
    #[default]
    Circle,
    /// An axis-aligned square.
    Square,
    /// A triangle pointing up.
    Triangle,
    /// A square standing on a corner.
    Diamond,
    /// An "×" (always drawn as lines; `filled` has no effect).
    Cross,
    /// A "+" (always drawn as lines; `filled` has no effect).
    Plus,
}

/// Where the legend box goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum LegendPosition {
    /// The inside corner of the plot that covers the fewest data points (default).
    #[default]
    Auto,
    /// Inside, top right.
    UpperRight,
    /// Inside, top left.
    UpperLeft,
    /// Inside, bottom right.
    LowerRight,
    /// Inside, bottom left.
    LowerLeft,
    /// No legend.
    Hidden,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viridis_ends_and_clamps() {
        assert_eq!(Color::viridis(0.0), Color::rgb(68, 1, 84));
        assert_eq!(Color::viridis(1.0), Color::rgb(253, 231, 37));
        assert_eq!(Color::viridis(-3.0), Color::viridis(0.0));
        assert_eq!(Color::viridis(f64::NAN), Color::viridis(0.0));
        assert_eq!(Color::palette(10), Color::palette(0));
    }
}
