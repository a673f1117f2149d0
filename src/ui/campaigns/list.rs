//! The campaign list: on a narrow screen the name is cut first (down to
//! 12 columns), then the creation time, bounced, replied and reply-rate
//! columns go in that order, so type, status, leads and sent always stay;
//! a wide one shows more counters and the last change; a failed refresh
//! keeps the rows, marked stale with their age.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::theme::Theme;
use super::super::widgets::stale;
use super::super::widgets::vtable::{self, Column, TableSpec};
use super::{empty_rows, filter_input, footer_line, needle_chip, said};
use crate::api::RouteFamily;
use crate::api::model::Campaign;
use crate::app::campaigns::{Purpose, in_flight, layout, list};
use crate::app::keymap::Action;
use crate::app::net::Load;
use crate::app::{Model, Placeholder};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::time_column::TimeColumn;

/// From this width on, the list shows further columns.
pub(super) const WIDE: u16 = 160;

/// The columns: the headline stats outlast the creation time and the
/// full name; a wide screen adds counters and the last change.
fn columns(wide: bool) -> Vec<Column> {
    let mut cols = vec![
        Column::new("Name", 12, if wide { 48 } else { u16::MAX }).squeezed(),
        Column::new("Type", 7, 7),
        Column::new("Status", 9, 11),
        Column::num("Leads", 5, 8),
        // The service's own word for the figure (`stats.contacted`):
        // "Sent" beside a `sent` of 0 read as a contradiction.
        Column::num("Contacted", 9, 9),
        Column::num("Replied", 7, 8).optional(2),
        Column::num("Bounced", 7, 8).optional(3),
        Column::num("Reply rate", 10, 10).optional(1),
    ];
    if wide {
        cols.extend([
            Column::num("Pending", 7, 9),
            Column::num("Completed", 9, 9),
            Column::num("Timed out", 9, 9),
            Column::num("Daily limit", 11, 11),
            Column::new("Updated", 7, 16),
        ]);
    }
    cols.push(Column::new("Created", 7, 16).optional(4));
    cols
}

/// How the time columns of the rows on screen are shown.
struct Times {
    created: TimeColumn,
    updated: TimeColumn,
    clock: i64,
}

fn cells(c: &Campaign, times: &Times, wide: bool, theme: &Theme) -> Vec<Span<'static>> {
    let s = &c.stats;
    let mut out = vec![
        Span::raw(DisplayText::inline(&c.name).into_string()),
        Span::styled(
            DisplayText::inline(c.kind.as_str()).into_string(),
            theme.dim,
        ),
        Span::styled(
            format!("● {}", DisplayText::inline(c.status.as_str())),
            theme.campaign_status(&c.status),
        ),
        Span::raw(format::count(s.total)),
        Span::raw(format::count(list::reached(c))),
        Span::styled(format::count(s.replied), theme.ok),
        Span::styled(format::count(s.bounced), theme.err),
        Span::raw(list::reply_rate(c).map_or("—".into(), |r| format!("{r:.1}%"))),
    ];
    if wide {
        let limit = c.daily_limit.map_or("—".into(), format::count);
        out.extend([
            Span::styled(
                format::count(s.total.saturating_sub(list::reached(c))),
                theme.info,
            ),
            Span::styled(format::count(s.completed), theme.dim),
            Span::styled(format::count(s.timed_out), theme.warn),
            Span::styled(limit, theme.dim),
            Span::styled(times.updated.show(&c.updated_at, times.clock), theme.dim),
        ]);
    }
    out.push(Span::styled(
        times.created.show(&c.created_at, times.clock),
        theme.dim,
    ));
    out
}

/// Draws the list.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.panes.campaigns.list;
    let wide = body.width >= WIDE;
    let visible = l.visible();
    let on_screen: Vec<&Campaign> = l
        .table
        .visible(layout::list_viewport(body))
        .filter_map(|i| visible.get(i).and_then(|r| l.rows.get(*r)))
        .collect();
    let times = Times {
        created: TimeColumn::of(on_screen.iter().map(|c| c.created_at.as_str()), m.clock),
        updated: TimeColumn::of(on_screen.iter().map(|c| c.updated_at.as_str()), m.clock),
        clock: m.clock,
    };
    let row = |i: usize| -> Vec<Span<'static>> {
        visible
            .get(i)
            .and_then(|r| l.rows.get(*r))
            .map(|c| cells(c, &times, wide, theme))
            .unwrap_or_default()
    };
    let cols = columns(wide);
    let area = layout::list_area(body);
    let foot = footer(m, theme);
    vtable::render(
        f,
        area,
        TableSpec {
            title: title(m, visible.len(), theme),
            columns: &cols,
            state: &l.table,
            row: &row,
            marked: None,
            footer: (foot.width() > 0).then(|| foot.clone()),
            empty: "",
            focused: true,
        },
        theme,
    );
    if visible.is_empty() {
        empty_rows(f, area, &empty_text(m), theme);
    }
    filter_input(f, area, &l.needle, &foot, "a name, type or status", theme);
}

/// ` Campaigns (5) ` (` (2 of 5) ` while filtered), then where the rows
/// come from or how old they are.
fn title(m: &Model, shown: usize, theme: &Theme) -> Line<'static> {
    let l = &m.panes.campaigns.list;
    let all = format::count(l.rows.len() as u64);
    let count = if l.needle.active() {
        format!("{} of {all}", format::count(shown as u64))
    } else {
        all
    };
    let loading = in_flight(m, |p| *p == Purpose::List);
    let mut spans = vec![Span::styled(format!(" Campaigns ({count}) "), theme.title)];
    if l.registry {
        spans.push(Span::styled(
            " local registry: ids created, opened or pasted here ",
            theme.warn,
        ));
    }
    if let Some(as_of) = l.cached {
        spans.push(stale::span(as_of, m.clock, loading, theme));
    } else if l.loaded {
        // "live" while the poll reads it, "retrying in N s" after a failed
        // read, else its age: the one holder, the one widget.
        spans.push(stale::freshness(m, &l.fresh, theme));
    } else if loading {
        spans.push(Span::styled(" loading… ", theme.info));
    }
    Line::from(spans)
}

/// The bottom border: the filter as it applies, the known ids that could
/// not be read.
fn footer(m: &Model, theme: &Theme) -> Line<'static> {
    let l = &m.panes.campaigns.list;
    let mut spans = needle_chip(m, &l.needle, theme);
    if !l.missing.is_empty() {
        spans.push(Span::styled(
            format!(
                " {} could not be read ",
                format::plural(l.missing.len() as u64, "known id", "known ids")
            ),
            theme.warn,
        ));
    }
    footer_line(spans, &l.needle)
}

fn empty_text(m: &Model) -> Placeholder {
    let l = &m.panes.campaigns.list;
    if l.needle.active() && !l.rows.is_empty() {
        return said(format!(
            "no campaign matches the filter — {} clears it",
            m.keymap.key_label(Action::Back)
        ));
    }
    if !l.loaded {
        let load = l.error.as_ref().map_or(Load::Pending, Load::Failed);
        return m.placeholder("campaigns", RouteFamily::Campaigns, load);
    }
    if l.registry {
        return said(format!(
            "This service does not list campaigns, and none is known here yet — {} creates one, :open campaign <id> adds one",
            m.keymap.key_label(Action::NewCampaign)
        ));
    }
    said(format!(
        "No campaigns yet — {} creates one",
        m.keymap.key_label(Action::NewCampaign)
    ))
}
