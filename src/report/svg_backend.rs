//! The SVG backend the charts draw on: plotters' own `SVGBackend`, with one thing changed —
//! how wide and tall a text is taken to be. plotters measures text with its "naive" estimate
//! (0.7 em a character) natively, but in a browser it measures through the page's fonts, so
//! the same report would lay out differently in the WebAssembly page than on the command
//! line. Here every build uses the naive estimate, so a chart is the same bytes everywhere.

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// `SVGBackend`, its text measured the same on every target.
pub(crate) struct Svg<'a>(pub SVGBackend<'a>);

type Failure<'a> = DrawingErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>;

impl<'a> Svg<'a> {
    /// Draws into `buf`, `size` pixels wide and tall.
    pub(crate) fn with_string(buf: &'a mut String, size: (u32, u32)) -> Self {
        Svg(SVGBackend::with_string(buf, size))
    }
}

/// plotters' naive text box of `text` at `size` (points): an em of `size / 1.24²` pixels,
/// 0.7 em a byte wide, from an ascent of one em to a descent of 0.24 em.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::cast_sign_loss,
    clippy::arithmetic_side_effects
)]
fn naive_size(size: f64, text: &str) -> (u32, u32) {
    // Chart geometry, not money: floats as plotters computes them.
    let em = size / 1.24 / 1.24;
    let width = (em * 0.7 * text.len() as f64).round() as i32;
    let height = (em * 0.24).round() as i32 + em.round() as i32;
    (width.max(0) as u32, height.max(0) as u32)
}

impl<'a> DrawingBackend for Svg<'a> {
    type ErrorType = <SVGBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Failure<'a>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Failure<'a>> {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Failure<'a>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Failure<'a>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure<'a>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failure<'a>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure<'a>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Failure<'a>> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Failure<'a>> {
        self.0.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Failure<'a>> {
        Ok(naive_size(style.size(), text))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), Failure<'a>> {
        self.0.blit_bitmap(pos, size, src)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_measured_as_plotters_measures_it_natively() {
        // The native estimate, through plotters' own font: the same box on every target
        // where plotters is not in a browser (this test runs natively).
        for (size, text) in [
            (17.36, "Cost by component (EUR)"),
            (22.32, "x"),
            (17.36, ""),
        ] {
            let font: plotters::style::FontDesc<'_> = ("sans-serif", size).into();
            let (w, h) = font.box_size(text).unwrap();
            assert_eq!(naive_size(size, text), (w, h), "{text:?} at {size}");
        }
    }
}
