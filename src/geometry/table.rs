//! Geometry of a bordered table with a header row: how many body rows fit,
//! and which body line a click lands on.

use ratatui::layout::Rect;

/// Rows inside a table area: borders and the header take three lines.
pub(crate) fn viewport(area: Rect) -> usize {
    area.height.saturating_sub(3) as usize
}

/// The body row at screen position, as a line index into the window.
pub(crate) fn line_at(area: Rect, x: u16, y: u16) -> Option<usize> {
    let inside_x = x > area.x && x + 1 < area.x + area.width;
    let first = area.y + 2;
    let last = area.y + area.height.saturating_sub(1);
    (inside_x && y >= first && y < last).then(|| (y - first) as usize)
}
