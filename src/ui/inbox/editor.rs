//! The draft editor: one row per field (To/Name and Cc/Bcc side by side on
//! wide screens), a note line, the attachments, the body, the find line.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

use crate::app::Model;
use crate::app::form::FieldKind;
use crate::app::inbox::editor::lines::{self, Lines, NoteKind};
use crate::app::inbox::editor::{Editor, saving};
use crate::app::inbox::layout::EditorAreas;
use crate::app::inbox::text_box_key;
use crate::app::keymap::Action;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::form::text_input;

/// Draws the editor.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let Some(e) = m.panes.inbox.editor.as_ref() else {
        return;
    };
    let Some((a, text)) = lines::areas_in(&m.panes.inbox, &m.keymap, body) else {
        return;
    };
    f.render_widget(Clear, a.frame);
    frame(m, f, &a, e, theme);
    for (i, rect) in a.fields.iter().enumerate() {
        field(m, f, *rect, a.labels[i], e, i, theme);
    }
    note(f, a.note, &text, theme);
    attachments(f, a.attachments, &text, theme);
    rule(m, f, a.rule, e, theme);
    body_text(f, a.body, e, theme);
    find_line(m, f, a.search, e, theme);
}

fn frame(m: &Model, f: &mut Frame, a: &EditorAreas, e: &Editor, theme: &Theme) {
    let title = match (&e.thread, e.base.to.is_empty()) {
        _ if e.reply.is_some() => format!(" Reply · to {} ", DisplayText::inline(&e.base.to)),
        (None, _) => " New email ".to_owned(),
        (Some(_), true) => " Edit draft ".to_owned(),
        (Some(_), false) => format!(" Edit draft · to {} ", DisplayText::inline(&e.base.to)),
    };
    let mut bottom = vec![];
    if let Some(c) = &e.created_check {
        // The note below says what the check saw; this says where it is.
        let (text, style) = match &c.check.verdict {
            None => (" checking whether it was created… ", theme.warn),
            Some(crate::logic::write::Verdict::NotFound) => {
                (" most likely not created (saving asks first) ", theme.err)
            }
            Some(_) => (" created? could not check (saving asks first) ", theme.err),
        };
        bottom.push(Span::styled(text, style));
    } else if saving(&m.requests) {
        bottom.push(Span::styled(" saving… ", theme.info));
    } else if e.unsaved() {
        // "Kept" only once the text was written to a state file that can be
        // written.
        let reply = e.reply.is_some();
        let text = if m.store_error.is_some() {
            " unsaved changes — not saved locally (the state file cannot be written) "
        } else if m.drafts_saved() && e.kept == e.edits {
            if reply {
                " not sent (kept locally) "
            } else {
                " unsaved changes (kept locally) "
            }
        } else if reply {
            " not sent "
        } else {
            " unsaved changes "
        };
        bottom.push(Span::styled(text, theme.warn));
    } else if e.thread.is_some() {
        bottom.push(Span::styled(" saved ", theme.ok));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::from(bottom));
    f.render_widget(block, a.frame);
}

fn field(m: &Model, f: &mut Frame, rect: Rect, label_w: u16, e: &Editor, i: usize, theme: &Theme) {
    let Some(fd) = e.form.fields.get(i) else {
        return;
    };
    if rect.width == 0 || rect.height == 0 {
        return;
    }
    let focused = !e.in_body && e.form.focus == i;
    let (mark, style) = match (&fd.error, focused) {
        (Some(_), _) => ("✗", theme.err),
        (None, true) => ("▸", theme.key),
        (None, false) => (" ", theme.header),
    };
    let label = format!(
        "{mark}{:<w$}",
        fd.label,
        w = usize::from(label_w.saturating_sub(2))
    );
    f.render_widget(
        Paragraph::new(Span::styled(label, style)),
        Rect {
            width: label_w.min(rect.width),
            ..rect
        },
    );
    let input = Rect {
        x: rect.x.saturating_add(label_w),
        width: rect.width.saturating_sub(label_w + 1),
        ..rect
    };
    match &fd.kind {
        FieldKind::Select(opts) => {
            let chosen = opts.get(fd.choice).map_or("", String::as_str);
            let mut spans = vec![
                Span::styled("◀ ", theme.dim),
                Span::styled(
                    DisplayText::inline(chosen).into_string(),
                    if focused { theme.selected } else { theme.text },
                ),
                Span::styled(" ▶", theme.dim),
            ];
            let senders = &m.panes.inbox.senders;
            if !senders.loaded {
                spans.push(Span::styled(
                    if senders.error.is_some() {
                        "  senders could not be loaded"
                    } else {
                        "  loading senders…"
                    },
                    theme.dim,
                ));
            } else if !e.unavailable.is_empty() {
                spans.push(Span::styled(
                    format!("  {} unavailable", e.unavailable.len()),
                    theme.dim,
                ));
            }
            f.render_widget(Paragraph::new(Line::from(spans)), input);
        }
        _ => text_input(f, input, &fd.text, focused, "", theme),
    }
}

/// The note under the fields, wrapped (as many rows as it was given).
fn note(f: &mut Frame, area: Rect, text: &Lines, theme: &Theme) {
    let style = match text.kind {
        NoteKind::Invalid | NoteKind::Problem => theme.err,
        NoteKind::Status => theme.info,
        NoteKind::Help => theme.dim,
    };
    let lines: Vec<Line> = text
        .note
        .iter()
        .map(|l| Line::from(Span::styled(l.clone(), style)))
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

/// The attachments' names, then where attachments are managed, wrapped.
fn attachments(f: &mut Frame, area: Rect, text: &Lines, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let lines: Vec<Line> = text
        .attached
        .iter()
        .map(|l| Line::from(Span::styled(l.clone(), theme.text)))
        .chain(
            text.attachments_note
                .iter()
                .map(|l| Line::from(Span::styled(l.clone(), theme.dim))),
        )
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

/// The body, styled from the theme: the cursor shows only while the body
/// has the focus, matches of the find line stand out.
fn body_text(f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    // ratatui-textarea keeps its scroll position in the text area it draws:
    // the model's is drawn off screen first so it scrolls as the cursor
    // moves, then a copy carrying that position is drawn with the theme.
    let mut scratch = Buffer::empty(area);
    (&e.body).render(area, &mut scratch);
    let mut ta = e.body.clone();
    ta.set_style(theme.text);
    ta.set_cursor_line_style(Style::default());
    ta.set_cursor_style(if e.in_body {
        theme.selected
    } else {
        theme.text
    });
    ta.set_selection_style(theme.selected.add_modifier(Modifier::UNDERLINED));
    ta.set_placeholder_text("Write the email here…");
    ta.set_placeholder_style(theme.dim);
    f.render_widget(&ta, area);
}

fn rule(m: &Model, f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    let label = if e.in_body { "▸ Body " } else { "  Body " };
    let right = format!(
        " {} undo · {} redo ",
        m.keymap.key_label(Action::Undo),
        m.keymap.key_label(Action::Redo)
    );
    let used = label.chars().count() + right.chars().count();
    let fill = "─".repeat(usize::from(area.width).saturating_sub(used));
    let style = if e.in_body { theme.key } else { theme.header };
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(label, style),
            Span::styled(fill, theme.border),
            Span::styled(right, theme.dim),
        ])),
        area,
    );
}

fn find_line(m: &Model, f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    let Some(find) = &e.find else {
        return;
    };
    if area.height == 0 {
        return;
    }
    let label = Span::styled("Find: ", theme.key);
    let status = match find.found {
        Some(true) => Span::styled("  found", theme.ok),
        Some(false) => Span::styled("  no match", theme.err),
        None => Span::styled("", theme.dim),
    };
    let keys = Span::styled(
        format!(
            "  {} next · {} previous · {} closes",
            text_box_key(&m.keymap, Action::Open),
            text_box_key(&m.keymap, Action::Up),
            text_box_key(&m.keymap, Action::Back)
        ),
        theme.dim,
    );
    let right_w = u16::try_from(status.width() + keys.width()).unwrap_or(u16::MAX);
    f.render_widget(Paragraph::new(label), area);
    let input = Rect {
        x: area.x.saturating_add(6),
        width: area.width.saturating_sub(6 + right_w),
        ..area
    };
    text_input(f, input, &find.input, true, "text in the body", theme);
    f.render_widget(
        Paragraph::new(Line::from(vec![status, keys])),
        Rect {
            x: input.x.saturating_add(input.width),
            width: right_w.min(area.width),
            ..area
        },
    );
}
