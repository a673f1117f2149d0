//! The sending-domain list.

use ratatui::Frame;
use ratatui::text::{Line, Span};

use super::{filter, loading_or_error, no_match, stale_span, status_span, when};
use crate::api::RouteFamily;
use crate::api::model::{DomainStatus, SendingDomain};
use crate::app::Model;
use crate::app::domains::dns::resolving;
use crate::app::domains::layout::Areas;
use crate::app::domains::{self, DomainsModel, RecordSummary};
use crate::app::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::vtable::{self, Column, TableSpec};

/// The list's columns.
const COLS: [Column; 5] = [
    Column::new("Domain", 12, u16::MAX),
    Column::new("Status", 10, 46),
    Column::num("Records", 7, 7).optional(3),
    Column::new("Verified", 8, 16).optional(1),
    Column::new("Added", 8, 16).optional(2),
];

/// The columns on a wide screen: the records by type, what DNS holds of
/// them (as far as Outpost asked), and every date.
const WIDE_COLS: [Column; 8] = [
    Column::new("Domain", 12, 48),
    Column::new("Status", 10, 46),
    Column::num("Records", 7, 7),
    Column::new("Types", 5, 24),
    Column::new("DNS", 11, 48),
    Column::new("Verified", 8, 16),
    Column::new("Added", 8, 16),
    Column::new("Updated", 8, u16::MAX),
];

/// Draws the domain list.
pub(super) fn render(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let items = d.shown_domains();
    let total = d.domains.items.len();
    filter::render(m, f, a.filter, &d.domain_query, (items.len(), total), theme);
    let wide = a.wide();
    let row = |i: usize| {
        items
            .get(i)
            .map(|dom| row(m, dom, wide, theme))
            .unwrap_or_default()
    };
    let empty = if d.domains.loaded && total > 0 {
        no_match(m, "domain")
    } else if d.domains.loaded {
        format!(
            "No sending domains yet — press {} (or {}domain add <name>) to add one",
            m.keymap.key_label(Action::AddDomain),
            m.keymap.key_label(Action::CommandLine)
        )
    } else {
        loading_or_error(m, &d.domains, "sending domains", RouteFamily::EmailDomains)
    };
    vtable::render(
        f,
        a.list,
        TableSpec {
            title: title(m, wide, theme),
            columns: if wide { &WIDE_COLS } else { &COLS },
            state: &d.table,
            row: &row,
            marked: None,
            footer: footer(m, d, theme),
            empty: &empty,
            focused: d.add.is_none(),
        },
        theme,
    );
}

/// One domain's cells (the wide set on a wide screen).
fn row(m: &Model, dom: &SendingDomain, wide: bool, theme: &Theme) -> Vec<Span<'static>> {
    let d = &m.panes.domains;
    let verified = Span::styled(
        dom.verified_at
            .as_deref()
            .map_or("—".into(), |t| when(t, m.clock)),
        theme.dim,
    );
    let added = Span::styled(when(&dom.created_at, m.clock), theme.dim);
    let mut cells = vec![
        Span::raw(DisplayText::inline(&dom.domain).into_string()),
        status_span(dom, d, m, theme),
        Span::raw(dom.dns_records.len().to_string()),
    ];
    if !wide {
        cells.extend([verified, added]);
        return cells;
    }
    let s = RecordSummary::of(&dom.dns_records);
    cells.extend([
        Span::styled(
            DisplayText::inline(&s.types_text()).into_string(),
            theme.dim,
        ),
        dns_cell(m, dom, theme),
        verified,
        added,
        Span::styled(when(&dom.updated_at, m.clock), theme.dim),
    ]);
    cells
}

/// What DNS holds of the domain's records, as far as Outpost asked
/// (`2/4 found · DKIM missing · SPF different`); `not checked` until its
/// records were opened — never a claim about DNS that was not asked.
fn dns_cell(m: &Model, dom: &SendingDomain, theme: &Theme) -> Span<'static> {
    let s = m.panes.domains.dns_summary(&m.requests, dom);
    if s.total == 0 {
        return Span::styled("—", theme.dim);
    }
    if s.unknown == s.total {
        return if resolving(m, &dom.id) {
            Span::styled("checking…", theme.info)
        } else {
            Span::styled("not checked", theme.dim)
        };
    }
    let mut parts = vec![format!("{}/{} found", s.found, s.total)];
    for (names, what) in [
        (&s.missing, "missing"),
        (&s.different, "different"),
        (&s.failed, "not asked"),
    ] {
        if !names.is_empty() {
            parts.push(format!("{} {what}", names.join(", ")));
        }
    }
    if s.unknown > 0 {
        parts.push(format!("{} unchecked", s.unknown));
    }
    let style = if !s.missing.is_empty() {
        theme.err
    } else if s.found == s.total {
        theme.ok
    } else {
        theme.warn
    };
    Span::styled(DisplayText::inline(&parts.join(" · ")).into_string(), style)
}

/// The count, and whether the statuses are live; on a wide screen, the
/// count by status too.
fn title(m: &Model, wide: bool, theme: &Theme) -> Line<'static> {
    let d = &m.panes.domains;
    let sync = if let Some(stale) = stale_span(m, &d.domains, domains::syncing(m), theme) {
        stale
    } else if domains::syncing(m) {
        Span::styled(" syncing live status… ", theme.info)
    } else if d.synced {
        Span::styled(" live ", theme.ok)
    } else if d.domains.loaded || !d.domains.items.is_empty() {
        Span::styled(" cached ", theme.dim)
    } else {
        // Nothing read yet: no statuses to call cached.
        Span::raw("")
    };
    let mut spans = vec![
        Span::styled(
            format!(" Sending domains ({}) ", d.domains.items.len()),
            theme.title,
        ),
        sync,
    ];
    if wide && !d.by_status.is_empty() {
        let counts: Vec<String> = d
            .by_status
            .iter()
            .map(|(s, n)| format!("{n} {}", DisplayText::inline(s)))
            .collect();
        spans.push(Span::styled(format!(" {} ", counts.join(" · ")), theme.dim));
    }
    Line::from(spans)
}

/// What the watch is doing: the domains really polled now (a watch whose
/// poll cannot help, a refused key, is not counted), the verifying ones
/// and those watched after a lost verify trigger said apart.
fn footer(m: &Model, d: &DomainsModel, theme: &Theme) -> Option<Line<'static>> {
    let polled: Vec<&str> = d
        .watches
        .iter()
        .filter(|(_, w)| w.fresh.next_poll().is_some())
        .map(|(id, _)| id.as_str())
        .collect();
    if polled.is_empty() {
        return None;
    }
    let verifying = polled
        .iter()
        .filter(|id| {
            d.domain(id)
                .is_some_and(|dom| dom.status == DomainStatus::Verifying)
        })
        .count();
    let lost = polled.len() - verifying;
    let count = |n: usize, one: &str, many: &str| {
        format::plural(u64::try_from(n).unwrap_or(u64::MAX), one, many)
    };
    let what = match (verifying, lost) {
        (_, 0) => count(verifying, "verifying domain", "verifying domains"),
        (0, _) => count(
            lost,
            "domain after a lost verify",
            "domains after a lost verify",
        ),
        _ => format!(
            "{} + {} after a lost verify",
            count(verifying, "verifying domain", "verifying domains"),
            lost
        ),
    };
    Some(Line::from(Span::styled(
        format!(
            " watching {what} · poll every {} ",
            format::duration(m.poll.domain)
        ),
        theme.info,
    )))
}
