//! Draws a [`JsonTree`]: indentation, fold markers, values coloured by kind.
//! Only the visible lines are turned into spans.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::json_tree::{JsonTree, NodeKind};
use crate::ui::theme::Theme;

/// Draws the tree in a bordered block titled `title`.
pub(crate) fn render(
    f: &mut Frame,
    area: Rect,
    tree: &JsonTree,
    title: Line<'_>,
    focused: bool,
    theme: &Theme,
) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let viewport = inner.height as usize;
    let mut state = tree.table.clone();
    state.clamp(viewport);
    if tree.lines().is_empty() {
        f.render_widget(Paragraph::new(Span::styled("(empty)", theme.dim)), inner);
        return;
    }
    let lines: Vec<Line> = state
        .visible(viewport)
        .map(|i| {
            let l = &tree.lines()[i];
            let marker = match (l.kind, l.folded) {
                (NodeKind::Container, true) => "▸ ",
                (NodeKind::Container, false) => "▾ ",
                _ => "  ",
            };
            let value_style = match l.kind {
                NodeKind::Text => theme.ok,
                NodeKind::Number => theme.info,
                NodeKind::Bool => theme.warn,
                NodeKind::Null | NodeKind::Container => theme.dim,
            };
            let mut line = Line::from(vec![
                Span::raw("  ".repeat(l.depth)),
                Span::styled(marker, theme.dim),
                Span::styled(l.key.as_str().to_owned(), theme.header),
                Span::styled(if l.value.is_empty() { "" } else { ": " }, theme.dim),
                Span::styled(l.value.as_str().to_owned(), value_style),
            ]);
            if focused && i == state.selected {
                line = line.style(theme.selected);
            }
            line
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
