//! A centred yes/no dialog.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::Confirm;
use crate::app::pane::Answer;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

pub(crate) use crate::geometry::centered;

/// Draws a confirm dialog over `area`.
pub(crate) fn render_confirm(f: &mut Frame, area: Rect, c: &Confirm, theme: &Theme) {
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
    // The keys the handler takes, named as its table names them: with a
    // labelled no, Esc is the way out that chooses nothing.
    let shown: Vec<(&str, String, Style)> = crate::app::fixed_keys::question(c)
        .into_iter()
        .filter_map(|k| {
            let style = match k.answer {
                Answer::Yes => yes_style,
                Answer::No => theme.warn,
                Answer::Dismissed => theme.dim,
            };
            k.shown.map(|does| (k.key.label, does, style))
        })
        .collect();
    let mut choices = Vec::new();
    for (i, (key, does, style)) in shown.iter().enumerate() {
        let gap = if i + 1 < shown.len() { "   " } else { "" };
        choices.push(Span::styled(format!(" {key} "), theme.selected));
        choices.push(Span::styled(format!(" {does}{gap}"), *style));
    }
    lines.push(Line::from(choices));
    f.render_widget(Paragraph::new(lines).block(block), rect);
}
