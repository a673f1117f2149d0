//! Toasts stacked in the bottom-right corner, above the status bar.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::toast::{Level, Toast};
use crate::ui::theme::Theme;

/// Draws the toasts (newest at the bottom) inside `area`.
pub fn render(f: &mut Frame, area: Rect, toasts: &[Toast], theme: &Theme) {
    let width = 52.min(area.width.saturating_sub(4));
    if width < 20 {
        return;
    }
    // Inside the pane's border, so the border stays whole.
    let mut bottom = (area.y + area.height).saturating_sub(1);
    for t in toasts.iter().rev() {
        let text_width = width.saturating_sub(2).max(1) as usize;
        // Summed as usize: a hostile message may hold any number of lines.
        let rows = t
            .text
            .as_str()
            .lines()
            .map(|l| l.chars().count().max(1).div_ceil(text_width))
            .sum::<usize>()
            .clamp(1, 4) as u16;
        let h = rows + 2;
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
            .title(Span::styled(format!(" {} ", t.title), style));
        f.render_widget(
            Paragraph::new(Line::from(t.text.as_str().to_owned()))
                .block(block)
                .wrap(Wrap { trim: true }),
            rect,
        );
    }
}
