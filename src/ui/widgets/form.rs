//! Draws a [`Form`]: a label, the input and a help or error line per field,
//! scrolled so the focused field is always in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use ratatui_textarea::TextArea;

use crate::app::form::{Field, FieldKind, Form};
use crate::text::sanitize::DisplayText;
use crate::text::wrap::{fit, wrap};
use crate::ui::theme::Theme;

/// Draws a text box: underlined with a cursor when focused, and a dim
/// `placeholder` when empty so an empty box is still visible.
pub(crate) fn text_input(
    f: &mut Frame,
    area: Rect,
    ta: &TextArea<'static>,
    focused: bool,
    placeholder: &str,
    theme: &Theme,
) {
    let mut ta = ta.clone();
    let base = if focused {
        Style::new().add_modifier(Modifier::UNDERLINED)
    } else {
        theme.text
    };
    ta.set_style(base);
    // The line under the cursor is not underlined: the box is one line.
    ta.set_cursor_line_style(Style::default());
    ta.set_cursor_style(if focused { theme.selected } else { base });
    if ta.is_empty() {
        ta.set_placeholder_text(placeholder);
        ta.set_placeholder_style(theme.dim);
    }
    f.render_widget(&ta, area);
}

/// A checklist: one `[x] item` per row, scrolled so the cursor shows.
fn checklist(
    f: &mut Frame,
    area: Rect,
    field: &Field,
    items: &[String],
    focused: bool,
    theme: &Theme,
) {
    let rows = usize::from(area.height.max(1));
    let first = field.choice.saturating_add(1).saturating_sub(rows);
    let lines: Vec<Line> = items
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, item)| {
            let on = field.checks.get(i).copied().unwrap_or(false);
            let text = format!(
                "{} {}",
                if on { "[x]" } else { "[ ]" },
                DisplayText::inline(item).into_string()
            );
            let style = if focused && i == field.choice {
                theme.selected
            } else if on {
                theme.text
            } else {
                theme.dim
            };
            Line::from(Span::styled(text, style))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

/// Most rows an error under a field takes; a longer one ends with `…`
/// (`:messages` has service errors whole).
const ERROR_ROWS: usize = 3;

/// The row(s) under a field, `width` columns wide: its help on one line, or
/// its error wrapped onto up to [`ERROR_ROWS`] rows.
fn note_lines(field: &Field, width: u16) -> Vec<String> {
    let width = usize::from(width).max(1);
    match &field.error {
        Some(e) => {
            let text = DisplayText::inline(&format!("✗ {e}")).into_string();
            let mut lines = wrap(&text, width.saturating_sub(2));
            if lines.len() > ERROR_ROWS {
                let rest = lines.split_off(ERROR_ROWS - 1).join(" ");
                lines.push(fit(&rest, width.saturating_sub(2)));
            }
            lines.into_iter().map(|l| format!("  {l}")).collect()
        }
        None => {
            let help = DisplayText::inline(&format!("  {}", field.help)).into_string();
            vec![fit(&help, width)]
        }
    }
}

/// Rows a field takes at `width` columns: label, input, note.
fn field_height(f: &Field, width: u16) -> u16 {
    match f.kind {
        FieldKind::Section => 2,
        _ => {
            let note = u16::try_from(note_lines(f, width).len()).unwrap_or(1);
            1 + f.input_height() + note
        }
    }
}

/// Height the whole form wants in a box `width` columns wide (for sizing
/// a dialog).
pub(crate) fn wanted_height(form: &Form, width: u16) -> u16 {
    let inner = width.saturating_sub(2);
    form.fields
        .iter()
        .map(|f| field_height(f, inner))
        .sum::<u16>()
        + 3
        + u16::from(form.note.is_some()) * 2
}

/// Draws one field: its label row, its input, and its help (or error)
/// rows.
fn draw_field(
    f: &mut Frame,
    field: &Field,
    focused: bool,
    label_row: Rect,
    input: Rect,
    note_row: Rect,
    theme: &Theme,
) {
    let label_style = if focused { theme.key } else { theme.header };
    let mut label = vec![Span::styled(
        format!("{}{}", if focused { "▶ " } else { "  " }, field.label),
        label_style,
    )];
    if field.required {
        label.push(Span::styled(" *", theme.err));
    }
    f.render_widget(Paragraph::new(Line::from(label)), label_row);
    match &field.kind {
        FieldKind::Toggle => {
            let text = if field.on { "[x] yes" } else { "[ ] no" };
            let style = if focused { theme.selected } else { theme.text };
            f.render_widget(Paragraph::new(Span::styled(text, style)), input);
        }
        FieldKind::Select(opts) => {
            let mut spans = vec![Span::styled("◀ ", theme.dim)];
            for (j, o) in opts.iter().enumerate() {
                let style = if j == field.choice {
                    if focused { theme.selected } else { theme.key }
                } else {
                    theme.dim
                };
                spans.push(Span::styled(format!(" {o} "), style));
            }
            spans.push(Span::styled(" ▶", theme.dim));
            f.render_widget(Paragraph::new(Line::from(spans)), input);
        }
        FieldKind::Checklist(items) => checklist(f, input, field, items, focused, theme),
        // The help line below says what goes here.
        _ => text_input(f, input, &field.text, focused, "…", theme),
    }
    let style = if field.error.is_some() {
        theme.err
    } else {
        theme.dim
    };
    let lines: Vec<Line> = note_lines(field, note_row.width)
        .into_iter()
        .map(|l| Line::from(Span::styled(l, style)))
        .collect();
    f.render_widget(Paragraph::new(lines), note_row);
}

/// The first field to draw, so the focused one fits in `rows`.
fn first_shown(heights: &[u16], focus: usize, rows: u16) -> usize {
    let focus_end: u16 = heights[..=focus.min(heights.len().saturating_sub(1))]
        .iter()
        .sum();
    let (mut start, mut skipped) = (0, 0);
    while focus_end.saturating_sub(skipped) > rows && start < focus {
        skipped += heights[start];
        start += 1;
    }
    start
}

/// Draws the form's box (title, the keys its handler takes, its note) at
/// `area`, cleared first; returns the rows left for the fields.
fn frame(f: &mut Frame, area: Rect, form: &Form, theme: &Theme) -> Rect {
    f.render_widget(Clear, area);
    // The keys the form's handler takes, named from its own list.
    let hint = Line::from(
        form.keys()
            .into_iter()
            .filter_map(|(k, _, does)| does.map(|does| (k.label, does)))
            .flat_map(|(key, does)| {
                [
                    Span::styled(format!(" {key} "), theme.key),
                    Span::styled(format!("{does} "), theme.dim),
                ]
            })
            .collect::<Vec<_>>(),
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(format!(" {} ", form.title), theme.title))
        .title_bottom(hint);
    let mut inner = block.inner(area);
    f.render_widget(block, area);
    if let Some(note) = &form.note {
        // Two rows, or up to four when the form is tall enough: a refusal
        // with the service's advice says more than two rows hold; what is
        // cut ends with `…`.
        let mut lines =
            super::wrapped::lines(DisplayText::block(note).as_str(), inner.width, theme.err);
        let rows = if inner.height >= 16 { 4 } else { 2 };
        let rows = lines.len().clamp(2, rows);
        if lines.len() > rows {
            lines.truncate(rows);
            if let Some(last) = lines.last_mut() {
                let text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
                *last = Line::from(Span::styled(
                    crate::text::wrap::fit(&format!("{text} …"), usize::from(inner.width)),
                    theme.err,
                ));
            }
        }
        let note_area = Rect {
            height: u16::try_from(rows).unwrap_or(2).min(inner.height),
            ..inner
        };
        f.render_widget(Paragraph::new(lines), note_area);
        inner.y += note_area.height;
        inner.height -= note_area.height;
    }
    inner
}

/// Draws the form in a bordered box at `area` (cleared first).
pub(crate) fn render(f: &mut Frame, area: Rect, form: &Form, theme: &Theme) {
    let inner = frame(f, area, form, theme);
    let heights: Vec<u16> = form
        .fields
        .iter()
        .map(|f| field_height(f, inner.width))
        .collect();
    let start = first_shown(&heights, form.focus, inner.height);
    let mut y = inner.y;
    let bottom = inner.y + inner.height;
    for (i, field) in form.fields.iter().enumerate().skip(start) {
        let h = heights[i];
        if y >= bottom {
            break;
        }
        let focused = i == form.focus;
        let rect = |dy: u16, height: u16| Rect {
            x: inner.x,
            y: (y + dy).min(bottom),
            width: inner.width,
            height: height.min(bottom.saturating_sub(y + dy)),
        };
        if field.kind == FieldKind::Section {
            f.render_widget(
                Paragraph::new(vec![
                    Line::from(Span::styled(field.label.clone(), theme.title)),
                    Line::from(Span::styled(field.help.clone(), theme.dim)),
                ]),
                rect(0, 2),
            );
            y += h;
            continue;
        }
        let input = Rect {
            x: inner.x + 2,
            width: inner.width.saturating_sub(2),
            ..rect(1, field.input_height())
        };
        draw_field(
            f,
            field,
            focused,
            rect(0, 1),
            input,
            rect(1 + field.input_height(), h - 1 - field.input_height()),
            theme,
        );
        y += h;
    }
}
