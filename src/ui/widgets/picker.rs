//! A picker (`app::picker`) drawn: a frame with its keys, the text typed
//! on its first line, then the matching rows, the selected one marked.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::fixed_keys::{CLOSE, CONFIRM, LIST_DOWN, LIST_UP};
use crate::app::picker::{Picker, ROWS};
use crate::text::wrap::fit;
use crate::ui::theme::Theme;

/// Rows a picker takes on screen: its frame, the text typed and its list.
pub(crate) fn height() -> u16 {
    u16::try_from(ROWS).unwrap_or(u16::MAX).saturating_add(3)
}

/// Draws picker `p` in `area` titled `title`, over the text of each
/// matching row (a picker's list is short: its fields, its variables);
/// `none` is said when nothing matches.
pub(crate) fn render<T>(
    f: &mut Frame,
    area: Rect,
    title: &str,
    p: &Picker<T>,
    rows: &[String],
    none: &str,
    theme: &Theme,
) {
    let matches = rows.len();
    f.render_widget(Clear, area);
    let key = |k: String, what: &str| {
        [
            Span::styled(format!(" {k} "), theme.key),
            Span::styled(format!("{what} "), theme.dim),
        ]
    };
    let mut hint = Vec::new();
    hint.extend(key("type".into(), "narrows"));
    hint.extend(key(format!("{}{}", LIST_UP.label, LIST_DOWN.label), "move"));
    hint.extend(key(CONFIRM.label.into(), "pick"));
    hint.extend(key(CLOSE.label.into(), "close"));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(format!(" {title} "), theme.title))
        .title_bottom(Line::from(hint));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height == 0 || inner.width < 3 {
        return;
    }
    let first = Rect { height: 1, ..inner };
    f.render_widget(Paragraph::new(Span::styled("›", theme.key)), first);
    super::form::text_input(
        f,
        Rect {
            x: inner.x + 2,
            width: inner.width - 2,
            ..first
        },
        &p.query,
        true,
        "type here",
        theme,
    );
    let list = Rect {
        y: inner.y + 1,
        height: inner.height - 1,
        ..inner
    };
    let width = usize::from(list.width);
    let mut table = p.table.clone();
    table.set_len(matches, ROWS);
    let mut lines: Vec<Line> = table
        .visible(usize::from(list.height).min(ROWS))
        .map(|i| {
            let style = if i == table.selected {
                theme.selected
            } else {
                theme.text
            };
            Line::from(Span::styled(
                fit(rows.get(i).map_or("", String::as_str), width),
                style,
            ))
        })
        .collect();
    if matches == 0 {
        lines.push(Line::from(Span::styled(none.to_owned(), theme.dim)));
    }
    f.render_widget(Paragraph::new(lines), list);
}
