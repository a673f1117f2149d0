//! A centred yes/no dialog.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::Confirm;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

pub use crate::geometry::centered;

/// Draws a confirm dialog over `area`.
pub fn render_confirm(f: &mut Frame, area: Rect, c: &Confirm, theme: &Theme) {
    let width = 64.min(area.width.saturating_sub(4)).max(30);
    // Wrapped here (not by ratatui) so the box is exactly as tall as its
    // text and no wide character is drawn past its border.
    let text_width = width.saturating_sub(2);
    let mut lines: Vec<Line> = c
        .lines
        .iter()
        .flat_map(|l| super::wrapped::lines(DisplayText::block(l).as_str(), text_width, theme.text))
        .collect();
    let text_rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let rect = centered(area, width, text_rows.saturating_add(4));
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
    f.render_widget(Paragraph::new(lines).block(block), rect);
}
