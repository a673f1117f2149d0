//! The thread list.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::status_span;
use crate::api::RouteFamily;
use crate::api::model::{Thread, ThreadStatus};
use crate::app::inbox::list::{MAX_THREADS, Mode, StatusFilter};
use crate::app::inbox::{Purpose, in_flight, layout, participant};
use crate::app::keymap::Action;
use crate::app::{Load, Model};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::time_column::TimeColumn;
use crate::ui::theme::Theme;
use crate::ui::widgets::vtable::{self, Column, TableSpec};
use crate::ui::widgets::{filter_line, stale};

/// The columns; the Activity column as wide as its format needs ("5m
/// ago", "11-22 11:40", or with the year). The subject goes last: it takes
/// the room a wide screen has to spare.
fn columns(activity: TimeColumn) -> [Column; 7] {
    let w = time_width(activity);
    [
        Column::new("Participant", 12, 28),
        Column::new("Address", 14, 36).optional(2),
        Column::new("Status", 8, 16),
        Column::num("Unread", 6, 6),
        Column::new("Activity", w, w).optional(1),
        Column::new("Sender", 12, 34).optional(3),
        Column::new("Subject", 10, u16::MAX).squeezed(),
    ]
}

/// Columns a time takes in a column of this format.
pub(super) fn time_width(col: TimeColumn) -> u16 {
    match col {
        TimeColumn::Ago => 8,
        TimeColumn::Date { year: false } => 11,
        TimeColumn::Date { year: true } => 16,
    }
}

/// Draws the list.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.panes.inbox.list;
    let areas = layout::list(body, l.needle.typing());
    let vp = layout::list_viewport(body, l.needle.typing());
    let on_screen = (l.table.offset..l.table.offset.saturating_add(vp)).filter_map(|i| l.row(i));
    let activity = TimeColumn::of(
        on_screen.map(|t| t.updated_at.as_deref().unwrap_or("")),
        m.clock,
    );
    let cols = columns(activity);
    let row = |i: usize| -> Vec<Span<'static>> {
        l.row(i)
            .map(|t| cells(m, t, activity, theme))
            .unwrap_or_default()
    };
    let empty = empty_text(m);
    let footer = footer(m, theme);
    vtable::render(
        f,
        areas.table,
        TableSpec {
            title: title(m, theme),
            columns: &cols,
            state: &l.table,
            row: &row,
            marked: None,
            footer,
            empty: &empty,
            focused: true,
        },
        theme,
    );
    if let Some(input) = &l.needle.input {
        filter_line::render(f, areas.filter, input, "participant or subject", theme);
    }
}

/// The cells of one thread's row.
fn cells(m: &Model, t: &Thread, activity: TimeColumn, theme: &Theme) -> Vec<Span<'static>> {
    let unread = t.unread_count > 0;
    let name = t.participant_name.as_deref().unwrap_or("").trim();
    let who = if name.is_empty() {
        DisplayText::inline(&participant(t)).into_string()
    } else {
        DisplayText::inline(name).into_string()
    };
    let address = if t.participant_email.trim().is_empty() {
        "—".to_owned()
    } else {
        DisplayText::inline(&t.participant_email).into_string()
    };
    // A draft's subject; else the newest message's, once read.
    let (subject, subject_style) = match t.draft_subject.as_deref().filter(|s| !s.trim().is_empty())
    {
        Some(s) => (DisplayText::inline(s).into_string(), theme.text),
        None => m
            .panes
            .inbox
            .lasts
            .newest(&t.id)
            .filter(|n| !n.subject.trim().is_empty())
            .map_or_else(
                || ("—".to_owned(), theme.dim),
                |n| (DisplayText::inline(&n.subject).into_string(), theme.dim),
            ),
    };
    let sender = t.account_id.as_deref().map_or_else(
        || "—".to_owned(),
        |a| DisplayText::inline(&m.panes.inbox.senders.label(a)).into_string(),
    );
    vec![
        Span::styled(who, if unread { theme.title } else { theme.text }),
        Span::styled(address, theme.dim),
        status_span(m, &t.id, &t.status, theme),
        if unread {
            Span::styled(format::count(t.unread_count), theme.header)
        } else {
            Span::styled("·", theme.dim)
        },
        Span::styled(
            activity.show(t.updated_at.as_deref().unwrap_or(""), m.clock),
            theme.dim,
        ),
        Span::styled(sender, theme.dim),
        Span::styled(
            subject,
            if t.status == ThreadStatus::Archived {
                theme.dim
            } else {
                subject_style
            },
        ),
    ]
}

/// The list's title: status filter, count, text filter, refresh.
fn title(m: &Model, theme: &Theme) -> Line<'static> {
    let l = &m.panes.inbox.list;
    let total = l
        .total
        .map_or_else(String::new, |t| format!(" ({})", format::count(t)));
    let mut title = vec![Span::styled(
        format!(" Inbox · {}{total} ", l.status.label()),
        theme.title,
    )];
    if l.needle.active() {
        title.push(Span::styled(
            format!(
                " /{} · {} shown ",
                DisplayText::inline(l.needle.text.trim()),
                l.shown.len()
            ),
            theme.key,
        ));
    }
    let reading = in_flight(&m.requests, |p| {
        matches!(
            p,
            Purpose::List {
                mode: Mode::Reset,
                ..
            }
        )
    });
    if let Some(as_of) = l.cached {
        title.push(stale::span(as_of, m.clock, reading, theme));
    } else if l.loaded() {
        // "live" while the poll reads it, "retrying in N s" after a failed
        // read (the rows stay), else its age: the one holder, the one
        // widget.
        title.push(stale::freshness(m, &l.fresh, theme));
        if reading {
            title.push(Span::styled(" refreshing… ", theme.info));
        }
    }
    Line::from(title)
}

fn empty_text(m: &Model) -> String {
    let l = &m.panes.inbox.list;
    let compose = m.keymap.key_label(Action::Compose);
    match (&l.error, l.loaded()) {
        // The service's words made inert.
        (e, false) => {
            let load = e.as_ref().map_or(Load::Pending, Load::Failed);
            let p = m.placeholder("the threads", RouteFamily::Threads, load);
            DisplayText::inline(&p.text).into_string()
        }
        _ if l.needle.active() => "no loaded thread matches the filter".into(),
        _ => match l.status {
            StatusFilter::All => format!("No threads yet — {compose} writes an email"),
            StatusFilter::Draft => format!("No drafts — {compose} writes an email"),
            StatusFilter::Active => "No active threads".into(),
            StatusFilter::Archived => "No archived threads".into(),
        },
    }
}

fn footer(m: &Model, theme: &Theme) -> Option<Line<'static>> {
    let l = &m.panes.inbox.list;
    let total = l.total?;
    let held = l.threads.len();
    let text = if l.more() {
        format!(
            " {} of {} loaded · more as you scroll ",
            format::count(u64::try_from(held).unwrap_or(u64::MAX)),
            format::count(total)
        )
    } else if held >= MAX_THREADS && u64::try_from(held).unwrap_or(u64::MAX) < total {
        format!(
            " the first {} of {} are held; the filter covers those ",
            format::count(u64::try_from(MAX_THREADS).unwrap_or(u64::MAX)),
            format::count(total)
        )
    } else {
        return Some(Line::from(Span::styled(
            format!(
                " {} · {} filters by status ",
                if l.status == StatusFilter::All {
                    "every status"
                } else {
                    l.status.label()
                },
                m.keymap.key_label(Action::StatusFilter)
            ),
            theme.dim,
        )));
    };
    Some(Line::from(Span::styled(text, theme.dim)))
}
