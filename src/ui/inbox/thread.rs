//! An open thread: its facts, its messages (oldest first), and the
//! selected message's body.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::status_span;
use crate::api::model::{Thread, ThreadMessage, ThreadStatus};
use crate::api::{ApiError, RouteFamily};
use crate::app::inbox::editor::lines::size;
use crate::app::inbox::messages::{MAX_PAGES, PAGE};
use crate::app::inbox::msg_filter;
use crate::app::inbox::send::Stage;
use crate::app::inbox::thread::{OpenThread, body_lines};
use crate::app::inbox::{html, layout, participant};
use crate::app::keymap::Action;
use crate::app::{Load, Model};
use crate::logic::write::{GOOD_READS, Verdict};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::time_column::TimeColumn;
use crate::ui::theme::Theme;
use crate::ui::widgets::id_tag;
use crate::ui::widgets::vtable::{self, Column, TableSpec};

/// The columns; "Sent" as wide as its time format needs.
fn columns(sent: TimeColumn) -> [Column; 4] {
    let w = super::list::time_width(sent);
    [
        Column::new("", 5, 5),
        Column::new("Sent", w, w),
        Column::new("Subject", 10, 48),
        Column::new("Preview", 10, u16::MAX),
    ]
}

/// Draws the open thread.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let Some(o) = m.panes.inbox.open.as_ref() else {
        return;
    };
    let a = layout::thread(body, o.filter.needle.typing());
    info(m, f, a.info, o, theme);
    messages(m, f, a.table, o, theme);
    if let Some(input) = &o.filter.needle.input {
        crate::ui::widgets::filter_line::render(f, a.filter, input, "subject or text", theme);
    }
    reading(m, f, a.reading, o, theme);
}

fn info(m: &Model, f: &mut Frame, area: Rect, o: &OpenThread, theme: &Theme) {
    let mut lines = Vec::new();
    match &o.thread {
        Some(t) => {
            let mut first = vec![
                Span::styled(
                    format!(" {} ", DisplayText::inline(&participant(t))),
                    theme.title,
                ),
                Span::raw(" "),
                status_span(m, &t.id, &t.status, theme),
            ];
            if t.unread_count > 0 {
                first.push(Span::styled(
                    format!(" · {} unread", format::count(t.unread_count)),
                    theme.header,
                ));
            }
            let from = t.account_id.as_deref().map_or_else(
                || "no sender yet".to_owned(),
                |a| format!("from {}", m.panes.inbox.senders.label(a)),
            );
            first.push(Span::styled(
                format!(" · {}", DisplayText::inline(&from)),
                theme.dim,
            ));
            lines.push(Line::from(first));
            lines.push(second_line(m, t, theme));
            if let Some(l) = third_line(m, t, theme) {
                lines.push(l);
            }
        }
        None => lines.push(Line::from(Span::styled(
            format!(" {}", placeholder(m, "the thread", o.error.as_ref())),
            theme.dim,
        ))),
    }
    let mut title = vec![Span::styled(" Thread ", theme.title)];
    if o.thread.is_some() && o.messages.loaded() {
        // The thread and its messages as fresh as the staler of the two
        // reads: the one holder's words, the one widget.
        title.push(crate::ui::widgets::stale::freshness(
            m,
            o.shown_fresh(),
            theme,
        ));
    }
    let title = Line::from(title);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border);
    let block = id_tag::on_block(block, area, &title, &o.id, theme).title(title);
    f.render_widget(Paragraph::new(lines).block(block), area);
}

fn second_line(m: &Model, t: &Thread, theme: &Theme) -> Line<'static> {
    if t.status == ThreadStatus::Draft {
        let subject = t
            .draft_subject
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or("(no subject)");
        let mut text = format!(" Draft: \"{}\"", DisplayText::inline(subject));
        for (label, v) in [("cc", &t.draft_cc), ("bcc", &t.draft_bcc)] {
            if let Some(v) = v.as_deref().filter(|v| !v.trim().is_empty()) {
                text.push_str(&format!(" · {label} {}", DisplayText::inline(v)));
            }
        }
        text.push_str(&format!(
            " · {} edits · {} sends",
            m.keymap.key_label(Action::EditDraft),
            m.keymap.key_label(Action::SendDraft)
        ));
        Line::from(Span::styled(text, theme.text))
    } else {
        Line::from(Span::styled(
            format!(
                " started {} · last activity {} · {} id {}",
                t.created_at
                    .as_deref()
                    .map_or_else(|| "—".into(), format::date),
                format::ago(t.updated_at.as_deref().unwrap_or(""), m.clock),
                DisplayText::inline(&t.channel),
                DisplayText::inline(&t.id)
            ),
            theme.dim,
        ))
    }
}

fn third_line(m: &Model, t: &Thread, theme: &Theme) -> Option<Line<'static>> {
    if let Some(c) = m.panes.inbox.checks.get(&t.id) {
        // Short enough for 80 columns; the notices and the question carry
        // the whole text (the last failed read's error too).
        let key = m.keymap.key_label(Action::SendDraft);
        let reads = |check: &crate::logic::write::Check| {
            let mut said = format!("{} of {GOOD_READS} good reads", check.absent);
            if check.failed > 0 {
                said.push_str(&format!(", {} failed", check.failed));
            }
            said
        };
        let (text, style) = match (c.stage(), c.check.as_ref()) {
            (Stage::Checking, Some(check)) => (
                format!(
                    " Send may have gone: checking the thread · {}",
                    reads(check)
                ),
                theme.warn,
            ),
            (Stage::Settled(Verdict::NotFound), _) => (
                format!(" Not sent? {} · {key} asks first", c.text()),
                theme.err,
            ),
            (Stage::Settled(Verdict::CouldNotCheck(_)), Some(check)) => (
                format!(
                    " Sent? Could not check: {} reads failed · {key} asks first",
                    check.failed
                ),
                theme.err,
            ),
            (Stage::Settled(_), _) => {
                (format!(" Sent? {} · {key} asks first", c.text()), theme.err)
            }
            _ => (
                " Sending… (one request; it is never repeated)".to_owned(),
                theme.info,
            ),
        };
        return Some(Line::from(Span::styled(text, style)));
    }
    if t.draft_attachments.is_empty() {
        return None;
    }
    let names: Vec<String> = t
        .draft_attachments
        .iter()
        .map(|a| format!("{} ({})", DisplayText::inline(&a.name), size(a.size)))
        .collect();
    Some(Line::from(Span::styled(
        format!(
            " Attached: {} · attachments are added in the web dashboard",
            names.join(", ")
        ),
        theme.dim,
    )))
}

fn messages(m: &Model, f: &mut Frame, area: Rect, o: &OpenThread, theme: &Theme) {
    let w = &o.messages;
    let filtered = o.filter.active();
    // Filtered, row `i` is the `i`th match.
    let index = |i: usize| {
        if filtered {
            o.filter.matches.get(i).copied()
        } else {
            Some(i)
        }
    };
    let state = if filtered { &o.filter.table } else { &w.table };
    let vp = crate::geometry::table::viewport(area);
    let on_screen = (state.offset..state.offset.saturating_add(vp))
        .filter_map(|i| index(i).and_then(|i| w.row(i)));
    let sent = TimeColumn::of(on_screen.map(|msg| msg.sent_at.as_str()), m.clock);
    let cols = columns(sent);
    let row = |i: usize| -> Vec<Span<'static>> {
        index(i).and_then(|i| w.row(i)).map_or_else(
            || {
                vec![
                    Span::styled("", theme.dim),
                    Span::styled("loading…", theme.dim),
                ]
            },
            |msg| message_cells(m, msg, sent, theme),
        )
    };
    let total = u64::try_from(w.total.unwrap_or(0)).unwrap_or(u64::MAX);
    let mut title = vec![Span::styled(
        format!(" Messages ({}) · oldest first ", format::count(total)),
        theme.title,
    )];
    if filtered {
        title.push(Span::styled(
            format!(
                " /{} · {} of the loaded ",
                DisplayText::inline(o.filter.needle.text.trim()),
                format::plural(
                    u64::try_from(o.filter.matches.len()).unwrap_or(u64::MAX),
                    "match",
                    "matches"
                )
            ),
            theme.key,
        ));
    }
    let footer = (!filtered && w.total.unwrap_or(0) > PAGE * MAX_PAGES).then(|| {
        Line::from(Span::styled(
            format!(
                " {} of {} · read {PAGE} at a time ",
                format::count(u64::try_from(w.table.selected + 1).unwrap_or(u64::MAX)),
                format::count(total)
            ),
            theme.dim,
        ))
    });
    let empty = if filtered {
        "no loaded message matches the filter".to_owned()
    } else {
        empty_text(m, o)
    };
    vtable::render(
        f,
        area,
        TableSpec {
            title: Line::from(title),
            columns: &cols,
            state,
            row: &row,
            marked: None,
            footer,
            empty: &empty,
            focused: true,
        },
        theme,
    );
}

/// The cells of one message's row.
fn message_cells(
    m: &Model,
    msg: &ThreadMessage,
    sent: TimeColumn,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let dir = if msg.direction.eq_ignore_ascii_case("inbound") {
        Span::styled("← in", theme.ok)
    } else if msg.direction.eq_ignore_ascii_case("outbound") {
        Span::styled("→ out", theme.info)
    } else {
        Span::styled(DisplayText::inline(&msg.direction).into_string(), theme.dim)
    };
    let preview: String = html::readable(&msg.body_text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(200)
        .collect();
    vec![
        dir,
        Span::styled(sent.show(&msg.sent_at, m.clock), theme.dim),
        Span::raw(DisplayText::inline(&msg.subject).into_string()),
        Span::styled(DisplayText::inline(&preview).into_string(), theme.dim),
    ]
}

/// The shared text for data not there yet: loading, offline, rate
/// limited, or why it failed (the service's words made inert).
fn placeholder(m: &Model, what: &str, failed: Option<&ApiError>) -> String {
    let load = failed.map_or(Load::Pending, Load::Failed);
    DisplayText::inline(&m.placeholder(what, RouteFamily::Threads, load).text).into_string()
}

/// What the messages table says while it has no rows.
fn empty_text(m: &Model, o: &OpenThread) -> String {
    let w = &o.messages;
    match (&w.error, w.total) {
        (e, None) => placeholder(m, "the messages", e.as_ref()),
        _ if o
            .thread
            .as_ref()
            .is_some_and(|t| t.status == ThreadStatus::Draft) =>
        {
            format!(
                "No messages yet — this is a draft: {} edits it, {} sends it",
                m.keymap.key_label(Action::EditDraft),
                m.keymap.key_label(Action::SendDraft)
            )
        }
        _ => "No messages".into(),
    }
}

fn reading(m: &Model, f: &mut Frame, area: Rect, o: &OpenThread, theme: &Theme) {
    let title = match msg_filter::selected_message(o) {
        Some(msg) => {
            let who = if msg.direction.eq_ignore_ascii_case("inbound") {
                "← from the recipient"
            } else {
                "→ sent"
            };
            format!(
                " {} · {who} · {} ",
                DisplayText::inline(if msg.subject.is_empty() {
                    "(no subject)"
                } else {
                    &msg.subject
                }),
                format::date(&msg.sent_at)
            )
        }
        None if o.messages.total == Some(0) => " Draft body ".to_owned(),
        None => " Message ".to_owned(),
    };
    let lines = body_lines(&m.panes.inbox, m.layout().body);
    let (_, h) = layout::reading_size(m.layout().body);
    let shown: Vec<Line> = lines
        .iter()
        .skip(usize::from(o.scroll))
        .take(usize::from(h))
        .map(|l| Line::from(l.clone()))
        .collect();
    let more = lines.len() > usize::from(o.scroll) + usize::from(h);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title));
    if more || o.scroll > 0 {
        block = block.title_bottom(Line::from(Span::styled(
            format!(
                " {}/{} scroll · line {} of {} ",
                m.keymap.key_label(Action::ScrollBodyDown),
                m.keymap.key_label(Action::ScrollBodyUp),
                usize::from(o.scroll) + 1,
                lines.len()
            ),
            theme.dim,
        )));
    }
    let blank = shown.iter().all(|l| l.width() == 0);
    let text = if blank && o.messages.total.is_some() {
        vec![Line::from(Span::styled("(no text)", theme.dim))]
    } else {
        shown
    };
    // The lines are wrapped already, to the pane's width.
    f.render_widget(Paragraph::new(text).block(block), area);
}
