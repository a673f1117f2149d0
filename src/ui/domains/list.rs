//! The sending-domain list.

use ratatui::Frame;
use ratatui::text::{Line, Span};

use super::{filter, loading_or_error, no_match, stale_span, status_span, when};
use crate::api::RouteFamily;
use crate::api::model::SendingDomain;
use crate::app::Model;
use crate::app::domains::layout::Areas;
use crate::app::domains::{self, DomainsModel, RecordSummary};
use crate::config::keymap::Action;
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

/// The columns on a wide screen: what the records hold, and every date.
const WIDE_COLS: [Column; 11] = [
    Column::new("Domain", 12, 48),
    Column::new("Status", 10, 46),
    Column::num("Records", 7, 7),
    Column::new("Types", 5, 24),
    Column::new("DKIM", 4, 4),
    Column::new("SPF", 3, 3),
    Column::new("DMARC", 5, 5),
    Column::new("MX", 2, 2),
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
    let has = |present: bool| {
        if present {
            Span::styled("✓", theme.ok)
        } else {
            Span::styled("✗", theme.err)
        }
    };
    cells.extend([
        Span::styled(
            DisplayText::inline(&s.types_text()).into_string(),
            theme.dim,
        ),
        has(s.dkim),
        has(s.spf),
        has(s.dmarc),
        has(s.mx),
        verified,
        added,
        Span::styled(when(&dom.updated_at, m.clock), theme.dim),
    ]);
    cells
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
    } else {
        Span::styled(" cached ", theme.dim)
    };
    let mut spans = vec![
        Span::styled(
            format!(" Sending domains ({}) ", d.domains.items.len()),
            theme.title,
        ),
        sync,
    ];
    if wide && !d.domains.items.is_empty() {
        spans.push(Span::styled(
            format!(" {} ", by_status(&d.domains.items)),
            theme.dim,
        ));
    }
    Line::from(spans)
}

/// `1 verified · 1 verifying · 1 pending · 1 failed` (statuses the
/// contract does not name follow, as sent).
fn by_status(items: &[SendingDomain]) -> String {
    let mut counts: Vec<(String, usize)> = ["verified", "verifying", "pending", "failed"]
        .iter()
        .map(|s| ((*s).to_owned(), 0))
        .collect();
    for dom in items {
        let status = dom.status.as_str();
        match counts.iter_mut().find(|(s, _)| s == status) {
            Some((_, n)) => *n += 1,
            None => counts.push((status.to_owned(), 1)),
        }
    }
    counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| format!("{n} {}", DisplayText::inline(s)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// What the watch is doing.
fn footer(m: &Model, d: &DomainsModel, theme: &Theme) -> Option<Line<'static>> {
    let watching = d.watches.len();
    (watching > 0).then(|| {
        Line::from(Span::styled(
            format!(
                " watching {watching} verifying domain{} · poll every {} ",
                if watching == 1 { "" } else { "s" },
                format::duration(m.poll.domain)
            ),
            theme.info,
        ))
    })
}
