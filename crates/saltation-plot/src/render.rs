//! Output files: sizes, formats, and the [`Figure`] trait every figure implements.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::frame::{draw_figure, Body, DrawFail};
use crate::{font, PlotError};
use plotters::coord::Shift;

/// An output file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ImageFormat {
    /// A raster image (`.png`), `width × height` pixels, 8-bit RGB.
    Png,
    /// A vector image (`.svg`); text stays text (family `sans-serif`), so viewers may substitute
    /// their own sans-serif font.
    Svg,
}

impl ImageFormat {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Svg => "svg",
        }
    }
}

/// How to render a figure: size and formats.
///
/// All lengths inside a figure (fonts, line widths, markers) scale with
/// `min(width / 1000, height / 700)`, so a larger canvas gives a sharper copy of the same layout.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Width in pixels (SVG: user units), in `64..=8192`. Default 1000.
    pub width: u32,
    /// Height in pixels (SVG: user units), in `64..=8192`. Default 700.
    pub height: u32,
    /// The files to write, each as `<stem>.<extension>`; not empty, no duplicates. Default PNG
    /// and SVG.
    pub formats: Vec<ImageFormat>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            width: 1000,
            height: 700,
            formats: vec![ImageFormat::Png, ImageFormat::Svg],
        }
    }
}

impl RenderOptions {
    /// Both formats at `width × height`.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            ..Self::default()
        }
    }

    /// Replaces the list of formats.
    pub fn with_formats(mut self, formats: &[ImageFormat]) -> Self {
        self.formats = formats.to_vec();
        self
    }

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), PlotError> {
        let size_ok = |v: u32| (64..=8192).contains(&v);
        if !size_ok(self.width) {
            return Err(PlotError::InvalidOptions {
                field: "width",
                reason: "must be in 64..=8192 pixels",
            });
        }
        if !size_ok(self.height) {
            return Err(PlotError::InvalidOptions {
                field: "height",
                reason: "must be in 64..=8192 pixels",
            });
        }
        if self.formats.is_empty() {
            return Err(PlotError::InvalidOptions {
                field: "formats",
                reason: "at least one format is needed",
            });
        }
        if self
            .formats
            .iter()
            .enumerate()
            .any(|(i, f)| self.formats[..i].contains(f))
        {
            return Err(PlotError::InvalidOptions {
                field: "formats",
                reason: "a format is listed twice",
            });
        }
        Ok(())
    }
}

/// A figure that can be rendered to files.
///
/// Implemented by every figure type of this crate; each also has the same methods as inherent
/// methods, so importing the trait is only needed for `dyn Figure`.
pub trait Figure {
    /// Writes `<path_stem>.png` and/or `<path_stem>.svg` (as `opts.formats` says; the extension
    /// is appended, so `figures/floquet` gives `figures/floquet.png`), creating missing parent
    /// directories. Returns the paths written, in the order of `opts.formats`.
    ///
    /// Data are checked before any file is touched: empty data or mismatched lengths give an
    /// error and write nothing.
    fn render(&self, path_stem: &Path, opts: &RenderOptions) -> Result<Vec<PathBuf>, PlotError>;

    /// The figure as an SVG document in memory (`opts.formats` is ignored).
    fn to_svg_string(&self, opts: &RenderOptions) -> Result<String, PlotError>;
}

/// Implements [`Figure`] and the same inherent methods for a type with a
/// `fn prepare(&self) -> Result<impl Body, PlotError>`.
macro_rules! impl_figure {
    ($t:ty) => {
        impl $crate::Figure for $t {
            fn render(
                &self,
                path_stem: &std::path::Path,
                opts: &$crate::RenderOptions,
            ) -> Result<Vec<std::path::PathBuf>, $crate::PlotError> {
                opts.validate()?;
                $crate::render::render_body(&self.prepare()?, path_stem, opts)
            }

            fn to_svg_string(
                &self,
                opts: &$crate::RenderOptions,
            ) -> Result<String, $crate::PlotError> {
                opts.validate()?;
                $crate::render::svg_string(&self.prepare()?, opts)
            }
        }

        impl $t {
            /// Writes the figure to `<path_stem>.png` / `.svg`; see [`Figure::render`](crate::Figure::render).
            pub fn render(
                &self,
                path_stem: &std::path::Path,
                opts: &$crate::RenderOptions,
            ) -> Result<Vec<std::path::PathBuf>, $crate::PlotError> {
                <Self as $crate::Figure>::render(self, path_stem, opts)
            }

            /// The figure as an SVG string; see [`Figure::to_svg_string`](crate::Figure::to_svg_string).
            pub fn to_svg_string(
                &self,
                opts: &$crate::RenderOptions,
            ) -> Result<String, $crate::PlotError> {
                <Self as $crate::Figure>::to_svg_string(self, opts)
            }
        }
    };
}
pub(crate) use impl_figure;

fn with_extension(stem: &Path, ext: &str) -> PathBuf {
    let mut s = OsString::from(stem.as_os_str());
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

fn draw_err(path: &Path) -> impl Fn(DrawFail) -> PlotError + '_ {
    move |e| PlotError::Draw {
        path: path.to_path_buf(),
        message: e.0,
    }
}

/// Something that draws a whole figure onto a drawing area: a [`Body`] in its frame, or a
/// stack of them ([`crate::Panels`]).
pub(crate) trait Paint {
    /// Draws onto `root`, which is `supersample` times the output size.
    fn paint<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        supersample: u32,
    ) -> Result<(), DrawFail>;
}

impl<B: Body> Paint for B {
    fn paint<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        supersample: u32,
    ) -> Result<(), DrawFail> {
        draw_figure(root, self, supersample).map(|_| ())
    }
}

pub(crate) fn render_body<B: Paint>(
    body: &B,
    stem: &Path,
    opts: &RenderOptions,
) -> Result<Vec<PathBuf>, PlotError> {
    font::ensure_registered()?;
    if let Some(dir) = stem.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| PlotError::CreateDir {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let size = (opts.width, opts.height);
    let mut written = Vec::with_capacity(opts.formats.len());
    for format in &opts.formats {
        let path = with_extension(stem, format.extension());
        let result = match format {
            ImageFormat::Png => write_png(body, &path, size),
            ImageFormat::Svg => {
                let root = SVGBackend::new(&path, size).into_drawing_area();
                body.paint(&root, 1).and_then(|()| Ok(root.present()?))
            }
        };
        result.map_err(draw_err(&path))?;
        written.push(path);
    }
    Ok(written)
}

/// Supersampling factor of PNG output: the figure is drawn at this multiple of the size and
/// box-filtered down, which anti-aliases lines and markers (plotters' bitmap backend does not).
const SUPERSAMPLE: u32 = 2;

/// Above this many output pixels PNGs are drawn without supersampling (memory).
const SUPERSAMPLE_MAX_PIXELS: u64 = 25_000_000;

/// Draws `body` at `SUPERSAMPLE`× size into memory, averages down and writes a PNG.
fn write_png<B: Paint>(body: &B, path: &Path, (w, h): (u32, u32)) -> Result<(), DrawFail> {
    let k = if u64::from(w) * u64::from(h) <= SUPERSAMPLE_MAX_PIXELS {
        SUPERSAMPLE
    } else {
        1
    };
    let (bw, bh) = (w * k, h * k);
    let mut big = vec![255u8; bw as usize * bh as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut big, (bw, bh)).into_drawing_area();
        body.paint(&root, k)?;
        root.present()?;
    }
    let (w_, k_, bw_) = (w as usize, k as usize, bw as usize);
    let mut small = vec![0u8; w_ * h as usize * 3];
    let n = (k * k) as usize;
    for (y, out_row) in small.chunks_exact_mut(w_ * 3).enumerate() {
        for (i, out) in out_row.iter_mut().enumerate() {
            let (x, c) = (i / 3, i % 3);
            let mut sum = 0usize;
            for dy in 0..k_ {
                let row = (y * k_ + dy) * bw_ * 3;
                for dx in 0..k_ {
                    sum += usize::from(big[row + (x * k_ + dx) * 3 + c]);
                }
            }
            *out = ((sum + n / 2) / n) as u8;
        }
    }
    image::save_buffer_with_format(
        path,
        &small,
        w,
        h,
        image::ColorType::Rgb8,
        image::ImageFormat::Png,
    )
    .map_err(|e| DrawFail(e.to_string()))
}

pub(crate) fn svg_string<B: Paint>(body: &B, opts: &RenderOptions) -> Result<String, PlotError> {
    font::ensure_registered()?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (opts.width, opts.height)).into_drawing_area();
        body.paint(&root, 1)
            .and_then(|()| Ok(root.present()?))
            .map_err(draw_err(Path::new("")))?;
    }
    Ok(out)
}
