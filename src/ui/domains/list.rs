//! The sending-domain list.

use ratatui::Frame;
use ratatui::text::{Line, Span};

use super::{filter, loading_or_error, no_match, stale_span, status_span};
use crate::app::Model;
use crate::app::domains::layout::Areas;
use crate::app::domains::{self, DomainsModel};
use crate::config::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::vtable::{self, Column, TableSpec};

/// The list's columns.
const COLS: [Column; 5] = [
    Column::new("Domain", 12, u16::MAX),
    Column::new("Status", 10, 42),
    Column::num("Records", 7, 7).optional(3),
    Column::new("Verified", 8, 16).optional(1),
    Column::new("Added", 8, 16).optional(2),
];

/// Draws the domain list.
pub(super) fn render(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let d = &m.panes.domains;
    let items = d.shown_domains();
    let total = d.domains.items.len();
    filter::render(m, f, a.filter, &d.domain_query, (items.len(), total), theme);
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(dom) = items.get(i) else {
            return Vec::new();
        };
        vec![
            Span::raw(DisplayText::inline(&dom.domain).into_string()),
            status_span(dom, d, m, theme),
            Span::raw(dom.dns_records.len().to_string()),
            Span::styled(
                dom.verified_at
                    .as_deref()
                    .map_or("—".into(), |t| format::ago(t, m.clock)),
                theme.dim,
            ),
            Span::styled(format::ago(&dom.created_at, m.clock), theme.dim),
        ]
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
        loading_or_error(m, &d.domains, "sending domains")
    };
    vtable::render(
        f,
        a.list,
        TableSpec {
            title: title(m, theme),
            columns: &COLS,
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

/// The count, and whether the statuses are live.
fn title(m: &Model, theme: &Theme) -> Line<'static> {
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
    Line::from(vec![
        Span::styled(
            format!(" Sending domains ({}) ", d.domains.items.len()),
            theme.title,
        ),
        sync,
    ])
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
