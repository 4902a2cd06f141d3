//! The embedded font (internal).
//!
//! plotters is built with its `ab_glyph` text backend, which knows no system fonts: every family
//! must be registered from bytes. We register DejaVu Sans (from the `dejavu` crate, which embeds
//! the DejaVu 2.37 TTF files; licence: Bitstream Vera terms with public-domain DejaVu changes,
//! see that crate's `assets/dejavu-fonts-ttf-2.37/LICENSE`) under the family name `sans-serif`,
//! which is what every figure asks for. DejaVu covers Greek and the symbols used in labels
//! (μ, θ, ×, −, superscript digits).

use std::sync::OnceLock;

use plotters::style::{register_font, FontStyle};

use crate::PlotError;

/// The family name figures use.
pub(crate) const FAMILY: &str = "sans-serif";

/// Outcome of the one registration (a `std::sync::Once` underneath).
static REGISTERED: OnceLock<bool> = OnceLock::new();

/// Registers the font once per process; later calls only report the first call's outcome.
pub(crate) fn ensure_registered() -> Result<(), PlotError> {
    let ok = *REGISTERED.get_or_init(|| {
        [
            (FontStyle::Normal, dejavu::sans::regular()),
            (FontStyle::Bold, dejavu::sans::bold()),
            (FontStyle::Oblique, dejavu::sans::oblique()),
            (FontStyle::Italic, dejavu::sans::oblique()),
        ]
        .into_iter()
        .all(|(style, bytes)| register_font(FAMILY, style, bytes).is_ok())
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}
