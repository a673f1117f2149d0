//! What the pane's dialogs share (the frame, the key footer, text boxes),
//! and the export and report dialogs. The filter builder and "add to
//! campaign" have their own modules.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui_textarea::TextArea;

use super::super::theme::Theme;
use super::super::widgets::dialog::centered;
use super::super::widgets::progress;
use super::{cells, t};
use crate::app::Model;
use crate::app::leads::export::{Export, Phase};

use crate::app::keymap::Action;
use crate::app::leads::{Report, fixed_keys};
use crate::app::toast::Level;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Clears `area` and draws a dialog frame with `title` and the key
/// footer `hint`; returns the inside.
pub(super) fn frame(f: &mut Frame, area: Rect, title: &str, hint: Line<'_>, theme: &Theme) -> Rect {
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(format!(" {title} "), theme.title))
        .title_bottom(hint);
    let inner = block.inner(area);
    f.render_widget(block, area);
    inner
}

/// A key footer: each key (as the keymap or [`keys`] names it) and what it
/// does.
pub(super) fn keys_line(pairs: &[(String, &str)], theme: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    for (k, what) in pairs {
        spans.push(Span::styled(format!(" {k} "), theme.key));
        spans.push(Span::styled(format!("{what} "), theme.dim));
    }
    Line::from(spans)
}

/// A text box whose empty state says where to type.
pub(super) fn text_input(
    f: &mut Frame,
    area: Rect,
    ta: &TextArea<'static>,
    focused: bool,
    theme: &Theme,
) {
    let hint = if focused { "type here" } else { "value…" };
    crate::ui::widgets::form::text_input(f, area, ta, focused, hint, theme);
}

/// Line `y` of `inner`.
pub(super) fn line_at(inner: Rect, y: u16) -> Rect {
    Rect {
        y: inner.y + y,
        height: 1,
        ..inner
    }
}

/// Export: path prompt and progress.
pub(super) fn export(f: &mut Frame, body: Rect, e: &Export, theme: &Theme) {
    let area = centered(body, body.width.saturating_sub(4).min(80), 9);
    let hint = match e.phase {
        Phase::Prompt => keys_line(
            &[
                (fixed_keys::CONFIRM.label.into(), "export"),
                (fixed_keys::COMPLETE.label.into(), "complete"),
                (fixed_keys::CLOSE.label.into(), "cancel"),
            ],
            theme,
        ),
        Phase::Fetching | Phase::Checking => {
            keys_line(&[(fixed_keys::CLOSE.label.into(), "cancel")], theme)
        }
        _ => Line::default(),
    };
    let inner = frame(f, area, "Export to CSV", hint, theme);
    if inner.height == 0 {
        return;
    }
    let what = if e.walk.filter.is_empty() {
        "every result"
    } else {
        "the results matching the filter"
    };
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::raw(format!("Writes {what} of ")),
            Span::styled(t(&e.title), theme.title),
            Span::raw(format!(
                " ({}), best score first.",
                format::plural(e.walk.total, "row", "rows")
            )),
        ]))
        .wrap(Wrap { trim: true }),
        Rect {
            height: 2.min(inner.height),
            ..inner
        },
    );
    if inner.height < 4 {
        return;
    }
    let path_row = line_at(inner, 2);
    f.render_widget(
        Paragraph::new(Span::styled("Path ", theme.header)),
        path_row,
    );
    let input = Rect {
        x: path_row.x + 5,
        width: path_row.width.saturating_sub(5),
        ..path_row
    };
    if e.phase == Phase::Prompt {
        text_input(f, input, &e.path, true, theme);
    } else {
        f.render_widget(Paragraph::new(t(&e.path_text())), input);
    }
    export_status(f, inner, e, theme);
}

/// Below the path: the error or a note, the check, the progress.
fn export_status(f: &mut Frame, inner: Rect, e: &Export, theme: &Theme) {
    let status_row = line_at(inner, 4.min(inner.height - 1));
    match e.phase {
        Phase::Prompt => {
            let (text, style) = match (&e.error, &e.complete.note) {
                (Some(err), _) => (format!("✗ {}", t(err)), theme.err),
                (None, Some(note)) => (t(note), theme.dim),
                (None, None) => (
                    "relative paths are in the directory Outpost was started from; an existing file is never replaced, nor a directory created, without asking".into(),
                    theme.dim,
                ),
            };
            f.render_widget(
                Paragraph::new(Span::styled(text, style)).wrap(Wrap { trim: true }),
                Rect {
                    height: inner.height.saturating_sub(4),
                    ..status_row
                },
            );
        }
        Phase::Checking | Phase::Confirming => f.render_widget(
            Paragraph::new(Span::styled("checking the path…", theme.info)),
            status_row,
        ),
        Phase::Fetching => progress::render(
            f,
            status_row,
            e.rows,
            e.walk.total.max(e.rows),
            "reading rows",
            theme,
        ),
        Phase::Writing => f.render_widget(
            Paragraph::new(Span::styled(
                format!("writing {}…", format::plural(e.rows, "row", "rows")),
                theme.info,
            )),
            status_row,
        ),
    }
}

/// A report to read.
pub(super) fn report(m: &Model, f: &mut Frame, body: Rect, r: &Report, theme: &Theme) {
    let h = cells(r.lines.len()).saturating_add(4).min(body.height);
    let area = centered(body, body.width.saturating_sub(4).min(100), h);
    let k = |a| m.keymap.key_label(a);
    let hint = keys_line(
        &[
            (format!("{}/{}", k(Action::Down), k(Action::Up)), "scroll"),
            ("any other key".into(), "closes"),
        ],
        theme,
    );
    let inner = frame(f, area, &r.title, hint, theme);
    let lines: Vec<Line> = r
        .lines
        .iter()
        .map(|(level, text)| {
            let style = match level {
                Level::Success => theme.ok,
                Level::Warning => theme.warn,
                Level::Error => theme.err,
                Level::Info => theme.text,
            };
            Line::from(Span::styled(DisplayText::block(text).into_string(), style))
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((r.scroll, 0)),
        inner,
    );
}
