//! The profile form: sections of fields (a label, the input, a help or
//! error line each), scrolled so the focused field is in view, with the
//! changes so far beside it on a wide screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::app::Model;
use crate::app::fixed_keys;
use crate::app::keymap::Action;
use crate::app::profile::editor::{EditField, Editor, Input};
use crate::app::profile::fields::Section;
use crate::app::profile::json_edit::Check;
use crate::app::profile::layout::{self, Block as FormBlock, NOTE_H};
use crate::app::profile::list_edit;
use crate::app::profile::list_edit::ListEditor;
use crate::app::profile::{review, saving};
use crate::text::format::plural;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::form::text_input;

/// A count as [`plural`] takes it.
fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// Draws the form.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, e: &Editor, theme: &Theme) {
    let areas = layout::form_areas(body);
    let n = count(e.changes.len());
    let state = if saving(m) {
        " saving… ".to_owned()
    } else if n == 0 {
        " no changes yet ".to_owned()
    } else {
        format!(" {} changed ", plural(n, "field", "fields"))
    };
    // The form's keys as the keymap binds them (Tab is every form's).
    let k = |a| m.keymap.text_box_label(a);
    let keys: Vec<(String, &str)> = if areas.form.width >= 80 {
        vec![
            (k(Action::SaveProfile), "review & save"),
            (fixed_keys::NEXT.label.into(), "next"),
            (k(Action::PageDown), "section"),
            (k(Action::Back), "close (keeps a draft)"),
        ]
    } else {
        vec![
            (k(Action::SaveProfile), "review & save"),
            (fixed_keys::NEXT.label.into(), "next"),
            (k(Action::Back), "close"),
        ]
    };
    let hint = Line::from(
        keys.iter()
            .flat_map(|(k, what)| {
                [
                    Span::styled(format!(" {k} "), theme.key),
                    Span::styled(format!("{what} "), theme.dim),
                ]
            })
            .collect::<Vec<_>>(),
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Line::from(vec![
            Span::styled(" Edit company profile ", theme.title),
            Span::styled(state, if saving(m) { theme.info } else { theme.dim }),
        ]))
        .title_bottom(hint);
    f.render_widget(block, areas.form);
    if let Some(note) = &e.note {
        let inner = layout::form_inner(body, false);
        let rect = Rect {
            height: NOTE_H.min(inner.height),
            ..inner
        };
        f.render_widget(
            Paragraph::new(Span::styled(
                DisplayText::block(note).into_string(),
                theme.err,
            ))
            .wrap(Wrap { trim: true }),
            rect,
        );
    }
    let inner = layout::form_inner(body, e.note.is_some());
    let tall = layout::tall(body);
    for (b, rect) in layout::form_blocks(e, inner, tall) {
        match b {
            FormBlock::Heading(s) => heading(f, rect, s, e, theme),
            FormBlock::Field(i) => {
                if let Some(field) = e.fields.get(i) {
                    field_block(f, rect, field, i == e.focus, tall, theme);
                }
            }
        }
    }
    if areas.changes.width > 0 {
        changes(m, f, areas.changes, e, theme);
    }
}

fn heading(f: &mut Frame, rect: Rect, s: Section, e: &Editor, theme: &Theme) {
    let help = if s == Section::Profile && e.profile_missing {
        "the service did not send these: what you type here is stored"
    } else {
        s.help()
    };
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(s.title().to_uppercase(), theme.title),
            Span::styled(format!("  {help}"), theme.dim),
        ])),
        rect,
    );
}

fn field_block(
    f: &mut Frame,
    rect: Rect,
    field: &EditField,
    focused: bool,
    tall: bool,
    theme: &Theme,
) {
    let label_style = if focused { theme.key } else { theme.header };
    let mut label = vec![Span::styled(
        format!("{}{}", if focused { "▶ " } else { "  " }, field.id.label()),
        label_style,
    )];
    if field.is_dirty() {
        label.push(Span::styled(" (changed)", theme.warn));
    }
    label.push(Span::styled(format!("  {}", field.id.path()), theme.dim));
    let row = |dy: u16, h: u16| Rect {
        x: rect.x,
        y: rect.y.saturating_add(dy),
        width: rect.width,
        height: h.min(rect.height.saturating_sub(dy)),
    };
    f.render_widget(Paragraph::new(Line::from(label)), row(0, 1));
    let h = layout::input_height(&field.input, tall, layout::input_width(rect));
    let input = Rect {
        x: rect.x.saturating_add(2),
        width: rect.width.saturating_sub(2),
        ..row(1, h)
    };
    if input.height > 0 {
        match &field.input {
            Input::Line(t) | Input::Long(t) => text_input(f, input, t, focused, "—", theme),
            Input::Json(j) => text_input(f, input, &j.text, focused, "{}", theme),
            Input::List(l) => list(f, input, l, focused, theme),
        }
    }
    let (note, style) = help_line(field, focused, theme);
    let help = row(1 + h, layout::help_rows(field));
    if help.height > 0 {
        f.render_widget(
            Paragraph::new(Span::styled(format!("  {note}"), style)),
            help,
        );
    }
}

/// The line under a field: its error, its check, or what goes there.
fn help_line(field: &EditField, focused: bool, theme: &Theme) -> (String, ratatui::style::Style) {
    if let Some(e) = &field.error {
        return (format!("✗ {}", DisplayText::inline(e)), theme.err);
    }
    match &field.input {
        Input::Json(j) => match &j.check {
            Some(Check::Valid(n)) => (
                format!("✓ a JSON object with {}", plural(count(*n), "key", "keys")),
                theme.ok,
            ),
            Some(Check::Invalid(why)) => (format!("✗ {}", DisplayText::inline(why)), theme.err),
            Some(Check::Unchecked) | None => ("checked when you save".into(), theme.dim),
        },
        Input::List(l) if focused => (
            format!(
                "{} · {} adds · {} removes · {} moves",
                plural(count(l.items.len()), "item", "items"),
                list_edit::ADD.label,
                list_edit::REMOVE.label,
                list_edit::MOVE_LABEL
            ),
            theme.dim,
        ),
        Input::List(l) => (plural(count(l.items.len()), "item", "items"), theme.dim),
        _ => (field.id.help().to_owned(), theme.dim),
    }
}

/// An editable list: one item per row, the selected one a text box while
/// the list has focus.
fn list(f: &mut Frame, area: Rect, l: &ListEditor, focused: bool, theme: &Theme) {
    let rows = usize::from(area.height);
    if l.items.is_empty() {
        let text = if focused {
            "(none) — type to add an item"
        } else {
            "(none)"
        };
        f.render_widget(Paragraph::new(Span::styled(text, theme.dim)), area);
        return;
    }
    let offset = if focused {
        (l.selected + 1).saturating_sub(rows)
    } else {
        0
    };
    for (n, i) in (offset..l.items.len()).take(rows).enumerate() {
        let y = area.y.saturating_add(u16::try_from(n).unwrap_or(u16::MAX));
        let bullet = Rect {
            y,
            height: 1,
            width: 2.min(area.width),
            ..area
        };
        let text = Rect {
            x: area.x.saturating_add(2),
            y,
            height: 1,
            width: area.width.saturating_sub(2),
        };
        let here = focused && i == l.selected;
        f.render_widget(
            Paragraph::new(Span::styled("• ", if here { theme.key } else { theme.dim })),
            bullet,
        );
        match l.items.get(i) {
            Some(t) if here => text_input(f, text, t, true, "new item", theme),
            Some(t) => f.render_widget(Paragraph::new(t.lines().join(" ")), text),
            None => {}
        }
    }
}

/// The changes so far, beside the form.
fn changes(m: &Model, f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            format!(" Changes so far ({}) ", e.changes.len()),
            theme.title,
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if e.changes.is_empty() {
        f.render_widget(
            Paragraph::new(Span::styled(
                format!(
                    "Nothing changed yet. {} shows this review before anything is sent.",
                    m.keymap.text_box_label(Action::SaveProfile)
                ),
                theme.dim,
            ))
            .wrap(Wrap { trim: true }),
            inner,
        );
        return;
    }
    let all = review::lines(&e.changes, inner.width);
    let room = usize::from(inner.height);
    let mut lines: Vec<Line> = all
        .iter()
        .take(room)
        .map(|l| super::dialogs::review_line(l, theme))
        .collect();
    if all.len() > room
        && let Some(last) = lines.last_mut()
    {
        *last = Line::from(Span::styled(
            format!("… {} more lines", all.len() - room + 1),
            theme.dim,
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
