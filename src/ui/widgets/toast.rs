//! Toasts stacked in the bottom-right corner, above the status bar. A toast
//! shows at most [`MAX_ROWS`] rows of its message; one that had to be cut
//! ends in a line that says where to read it whole (`:messages`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::toast::{Level, Toast};
use crate::text::wrap::wrap;
use crate::ui::theme::Theme;

/// Most rows of message text a toast shows.
pub const MAX_ROWS: usize = 4;

/// The rows a toast shows at `width` columns of text: the message wrapped,
/// and when it does not fit, its first rows and a pointer to `:messages`.
pub fn rows(t: &Toast, width: usize) -> (Vec<String>, bool) {
    let mut lines = wrap(t.text.as_str(), width);
    if lines.len() <= MAX_ROWS {
        return (lines, false);
    }
    lines.truncate(MAX_ROWS - 1);
    (lines, true)
}

/// Draws the toasts (newest at the bottom) inside `area`.
pub fn render(f: &mut Frame, area: Rect, toasts: &[Toast], theme: &Theme) {
    let width = 52.min(area.width.saturating_sub(4));
    if width < 20 {
        return;
    }
    // Inside the pane's border, so the border stays whole.
    let mut bottom = (area.y + area.height).saturating_sub(1);
    let text_width = usize::from(width.saturating_sub(2).max(1));
    for t in toasts.iter().rev() {
        let (text, cut) = rows(t, text_width);
        let n = text.len() + usize::from(cut);
        let h = u16::try_from(n.max(1)).unwrap_or(u16::MAX) + 2;
        if bottom < area.y + h {
            break;
        }
        let rect = Rect {
            x: area.x + area.width - width - 2,
            y: bottom - h,
            width,
            height: h,
        };
        bottom -= h;
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
