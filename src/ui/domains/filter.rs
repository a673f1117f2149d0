//! The `/` filter bar above a list: what is typed (with the cursor while
//! it has the focus), how many rows match, and the keys that keep or clear
//! it.

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::Model;
use crate::app::domains::ListFilter;
use crate::app::keymap::{Action, ComboCode};
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

/// Draws the bar of `q`, which lets `shown` of `total` rows through.
pub(super) fn render(
    m: &Model,
    f: &mut Frame,
    area: Rect,
    q: &ListFilter,
    (shown, total): (usize, usize),
    theme: &Theme,
) {
    if area.height == 0 {
        return;
    }
    let right = right_side(m, q, shown, total, theme);
    let right_w = u16::try_from(right.width()).unwrap_or(u16::MAX);
    // The keys go first when the line is short; the count stays.
    let right = if right_w + 12 > area.width {
        Line::from(Span::styled(format!("{shown} of {total} "), theme.dim))
    } else {
        right
    };
    let right_w = u16::try_from(right.width()).unwrap_or(u16::MAX);
    let left = Rect {
        width: area.width.saturating_sub(right_w + 1),
        ..area
    };
    f.render_widget(Paragraph::new(query_line(q, theme)), left);
    f.render_widget(Paragraph::new(right).alignment(Alignment::Right), area);
}

/// ` / text`, with the cursor drawn while the box has the focus.
fn query_line(q: &ListFilter, theme: &Theme) -> Line<'static> {
    let text = q.text();
    let at = q.cursor().min(text.chars().count());
    let before: String = text.chars().take(at).collect();
    let mut rest = text.chars().skip(at);
    let mut spans = vec![
        Span::styled(" / ", theme.key),
        Span::styled(DisplayText::inline(&before).into_string(), theme.text),
    ];
    if q.focused {
        let under = rest.next().map_or_else(|| " ".to_owned(), String::from);
        spans.push(Span::styled(
            DisplayText::inline(&under).into_string(),
            theme.text.add_modifier(Modifier::REVERSED),
        ));
    }
    let after: String = rest.collect();
    spans.push(Span::styled(
        DisplayText::inline(&after).into_string(),
        theme.text,
    ));
    Line::from(spans)
}

/// `1 of 4 · Enter keep · Esc cancel` (or, once kept, the keys that edit
/// and clear it).
fn right_side(
    m: &Model,
    q: &ListFilter,
    shown: usize,
    total: usize,
    theme: &Theme,
) -> Line<'static> {
    let keys = if q.focused {
        [
            (untypable_key(m, Action::Open, "Enter"), "keep"),
            (untypable_key(m, Action::Back, "Esc"), "cancel"),
        ]
    } else {
        [
            (m.keymap.key_label(Action::Filter), "edit"),
            (m.keymap.key_label(Action::Back), "clear"),
        ]
    };
    let mut spans = vec![Span::styled(format!("{shown} of {total}"), theme.dim)];
    for (key, what) in keys {
        spans.push(Span::styled(" · ", theme.dim));
        spans.push(Span::styled(key, theme.key));
        spans.push(Span::styled(format!(" {what}"), theme.dim));
    }
    spans.push(Span::raw(" "));
    Line::from(spans)
}

/// The first key bound to `action` that a text box does not take as text
/// (the filter honours those), or the fixed key `fallback` it always takes.
fn untypable_key(m: &Model, action: Action, fallback: &str) -> String {
    m.keymap
        .keys_for(action)
        .into_iter()
        .find(|k| {
            k.ctrl || k.alt || !matches!(k.code, ComboCode::Char(_) | ComboCode::Named("space"))
        })
        .map_or_else(|| fallback.to_owned(), |k| k.to_string())
}
