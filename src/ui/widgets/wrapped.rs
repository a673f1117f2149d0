//! Text wrapped by `text::wrap` into lines for a `Paragraph` drawn without
//! ratatui's own wrapping (which can draw a wide character past the edge of
//! its area in ratatui 0.30). Use these instead of `Paragraph::wrap`.

use ratatui::style::Style;
use ratatui::text::Line;

use crate::text::wrap::wrap;

/// `text` (already sanitized) wrapped to `width` columns, each line in
/// `style`; newlines in the text start new lines.
pub fn lines(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    wrap(text, usize::from(width.max(1)))
        .into_iter()
        .map(|l| Line::styled(l, style))
        .collect()
}
