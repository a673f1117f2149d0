//! A centred yes/no dialog.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::Confirm;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

pub use crate::geometry::centered;

/// Draws a confirm dialog over `area`.
pub fn render_confirm(f: &mut Frame, area: Rect, c: &Confirm, theme: &Theme) {
    let width = 64.min(area.width.saturating_sub(4)).max(30);
    let text_rows: u16 = c
        .lines
        .iter()
        .map(|l| (l.chars().count() as u16 / width.saturating_sub(4).max(1)) + 1)
        .sum();
    let rect = centered(area, width, text_rows + 5);
    f.render_widget(Clear, rect);
    let border = if c.destructive {
        theme.err
    } else {
        theme.title
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(border)
        .title(Span::styled(format!(" {} ", c.title), border));
    let mut lines: Vec<Line> = c
        .lines
        .iter()
        .map(|l| Line::from(DisplayText::block(l).into_string()))
        .collect();
    lines.push(Line::default());
    let yes_style = if c.destructive { theme.err } else { theme.key };
    let mut choices = vec![
        Span::styled(" y ", theme.selected),
        Span::styled(format!(" {}   ", c.yes), yes_style),
    ];
    match &c.no {
        // No does something of its own: it gets its label, and Esc is the
        // way out that chooses nothing.
        Some(no) => choices.extend([
            Span::styled(" n ", theme.selected),
            Span::styled(format!(" {no}   "), theme.warn),
            Span::styled(" Esc ", theme.selected),
            Span::styled(" cancel", theme.dim),
        ]),
        None => choices.extend([
            Span::styled(" n ", theme.selected),
            Span::styled(" cancel", theme.dim),
        ]),
    }
    lines.push(Line::from(choices));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        rect,
    );
}
