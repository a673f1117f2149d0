//! Toasts stacked in the bottom-right corner, above the status bar (at the
//! top right when that corner holds the selection). A toast
//! shows at most [`MAX_ROWS`] rows of its message; one that had to be cut
//! ends in a line that says where to read it whole (`:messages`).

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::toast::{Level, Toast};
use crate::text::wrap::wrap;
use crate::ui::theme::Theme;

/// Most rows of message text a toast shows.
pub(crate) const MAX_ROWS: usize = 4;

/// The rows a toast shows at `width` columns of text: the message wrapped,
/// and when it does not fit, its first rows and a pointer to `:messages`.
pub(crate) fn rows(t: &Toast, width: usize) -> (Vec<String>, bool) {
    let mut lines = wrap(t.text.as_str(), width);
    if lines.len() <= MAX_ROWS {
        return (lines, false);
    }
    lines.truncate(MAX_ROWS - 1);
    (lines, true)
}

/// The screen rows (first, last) holding the selection in `area`: cells
/// drawn in the theme's `selected` style (`None` when the theme gives the
/// selection no look of its own, or nothing is selected).
pub(crate) fn focused_rows(buf: &Buffer, area: Rect, selected: Style) -> Option<(u16, u16)> {
    if selected == Style::new() {
        return None;
    }
    let area = area.intersection(buf.area);
    let is_selected = |c: &ratatui::buffer::Cell| {
        c.modifier.contains(selected.add_modifier)
            && selected.fg.is_none_or(|fg| c.fg == fg)
            && selected.bg.is_none_or(|bg| c.bg == bg)
    };
    let rows: Vec<u16> = (area.y..area.y + area.height)
        .filter(|y| (area.x..area.x + area.width).any(|x| is_selected(&buf[(x, *y)])))
        .collect();
    Some((*rows.first()?, *rows.last()?))
}

/// Where the toasts go: stacked up from just above the status bar, or, when
/// that stack would cover the `focus` rows, down from the top of `area`.
fn places(area: Rect, heights: &[u16], width: u16, focus: Option<(u16, u16)>) -> Vec<Rect> {
    let x = area.x + area.width - width - 2;
    // Inside the pane's border, so the border stays whole.
    let mut bottom = (area.y + area.height).saturating_sub(1);
    let mut up = Vec::new();
    for h in heights {
        if bottom < area.y + 1 + h {
            break;
        }
        bottom -= h;
        up.push(Rect::new(x, bottom, width, *h));
    }
    let covers = |r: &Rect| focus.is_some_and(|(a, b)| r.y <= b && a < r.y + r.height);
    if !up.iter().any(covers) {
        return up;
    }
    let mut top = area.y + 1;
    let mut down = Vec::new();
    for h in heights {
        let r = Rect::new(x, top, width, *h);
        if top + h >= area.y + area.height || covers(&r) {
            break;
        }
        top += h;
        down.push(r);
    }
    down
}

/// Draws the toasts (newest at the bottom) inside `area`, clear of the
/// `focus` rows (the selection).
pub(crate) fn render(
    f: &mut Frame,
    area: Rect,
    toasts: &[Toast],
    theme: &Theme,
    focus: Option<(u16, u16)>,
) {
    let width = 52.min(area.width.saturating_sub(4));
    if width < 20 {
        return;
    }
    let text_width = usize::from(width.saturating_sub(2).max(1));
    let shown: Vec<(&Toast, Vec<String>, bool)> = toasts
        .iter()
        .rev()
        .map(|t| {
            let (text, cut) = rows(t, text_width);
            (t, text, cut)
        })
        .collect();
    let heights: Vec<u16> = shown
        .iter()
        .map(|(_, text, cut)| {
            u16::try_from((text.len() + usize::from(*cut)).max(1)).unwrap_or(u16::MAX) + 2
        })
        .collect();
    for ((t, text, cut), rect) in shown.into_iter().zip(places(area, &heights, width, focus)) {
        let style = match t.level {
            Level::Info => theme.info,
            Level::Success => theme.ok,
            Level::Warning => theme.warn,
            Level::Error => theme.err,
        };
        f.render_widget(Clear, rect);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(style)
            .title(Span::styled(format!(" {} ", t.heading()), style));
        let mut lines: Vec<Line> = text.into_iter().map(Line::from).collect();
        if cut {
            lines.push(Line::from(Span::styled(
                "… :messages shows it all",
                theme.dim,
            )));
        }
        f.render_widget(Paragraph::new(lines).block(block), rect);
    }
}
