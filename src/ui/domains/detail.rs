//! One sending domain: its facts, its DNS records, the selected value.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{filter, no_match, stale_span, status_span};
use crate::api::model::{DnsRecord, DomainStatus, SendingDomain};
use crate::app::Model;
use crate::app::domains;
use crate::app::domains::layout::{self, Areas};
use crate::app::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::vtable::{self, Column, TableSpec};

/// The record table's columns: what DNS holds of each, after its type.
const COLS: [Column; 5] = [
    Column::new("Type", 4, 6),
    Column::new("DNS", 9, 10),
    Column::new("Name", 8, 36),
    Column::new("Value", 12, u16::MAX),
    Column::num("Prio", 4, 8),
];

/// The columns on a wide screen: what each record is for, first; what DNS
/// holds instead, last.
const WIDE_COLS: [Column; 7] = [
    Column::new("For", 5, 5),
    Column::new("Type", 4, 6),
    Column::new("DNS", 9, 10),
    Column::new("Name", 8, 48),
    Column::new("Value", 12, u16::MAX),
    Column::num("Prio", 4, 8),
    Column::new("At DNS instead", 14, u16::MAX),
];

/// Draws the open domain.
pub(super) fn render(m: &Model, f: &mut Frame, a: Areas, theme: &Theme) {
    let Some(dom) = m.panes.domains.open_domain() else {
        return;
    };
    info(m, f, a.info, dom, theme);
    let d = &m.panes.domains;
    let shown = d.shown_records(dom).len();
    filter::render(
        m,
        f,
        a.filter,
        &d.record_query,
        (shown, dom.dns_records.len()),
        theme,
    );
    records(m, f, a.list, dom, theme);
    if a.value.height > 0 {
        selected_value(m, f, a.value, dom, theme);
    }
}

/// Name, status, dates and what to do next.
fn info(m: &Model, f: &mut Frame, area: Rect, dom: &SendingDomain, theme: &Theme) {
    let d = &m.panes.domains;
    let name = DisplayText::inline(&dom.domain).into_string();
    let lines = vec![
        Line::from(vec![
            Span::styled(format!(" {name} "), theme.title),
            Span::raw(" "),
            status_span(dom, d, m, theme),
        ]),
        super::dns::summary_line(m, dom, theme),
        match d.disagreement(&m.requests, &m.keymap.key_label(Action::Verify)) {
            Some(warning) => Line::from(Span::styled(format!(" {warning}"), theme.warn)),
            None => Line::from(format!(" {}", guidance(m, dom))),
        },
        Line::from(Span::styled(
            format!(
                " added {} · verified {} · updated {}",
                format::date(&dom.created_at),
                dom.verified_at.as_deref().map_or("—".into(), format::date),
                super::when(&dom.updated_at, m.clock),
            ),
            theme.dim,
        )),
    ];
    let mut title = Line::from(Span::styled(" Sending domain ", theme.title));
    title
        .spans
        .extend(stale_span(m, &d.domains, domains::syncing(m), theme));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border);
    let block =
        crate::ui::widgets::id_tag::on_block(block, area, &title, &dom.id, theme).title(title);
    f.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

/// What the status asks of the operator.
fn guidance(m: &Model, dom: &SendingDomain) -> String {
    let verify = m.keymap.key_label(Action::Verify);
    match dom.status {
        DomainStatus::Verified => "Verified: mail from this domain can be sent.".to_owned(),
        DomainStatus::Verifying => format!(
            "Checking DNS: polled every {} while open (poll=true).",
            format::duration(
                m.panes
                    .domains
                    .watch_every(&dom.id)
                    .unwrap_or(m.poll.domain)
            )
        ),
        DomainStatus::Failed => format!(
            "The records did not verify: check them at your DNS host, then press {verify} to verify again."
        ),
        _ => format!("Publish these records at your DNS host, then press {verify} to verify."),
    }
}

/// The DNS records table.
fn records(m: &Model, f: &mut Frame, area: Rect, dom: &SendingDomain, theme: &Theme) {
    let d = &m.panes.domains;
    let records = d.shown_records(dom);
    let wide = area.width >= layout::WIDE;
    let row = |i: usize| {
        records
            .get(i)
            .map(|r| {
                let mut cells = row(r, theme);
                cells.insert(1, super::dns::cell(d, m, dom, r, theme));
                if wide {
                    let what = domains::purpose(r).unwrap_or("—");
                    cells.insert(0, Span::styled(what, theme.info));
                    cells.push(super::dns::found_cell(d, dom, r, theme));
                }
                cells
            })
            .unwrap_or_default()
    };
    let empty = if dom.dns_records.is_empty() {
        format!(
            "no records yet: press {} to verify and fetch the expected records",
            m.keymap.key_label(Action::Verify)
        )
    } else {
        no_match(m, "record")
    };
    let count = if records.len() == dom.dns_records.len() {
        records.len().to_string()
    } else {
        format!("{} of {}", records.len(), dom.dns_records.len())
    };
    vtable::render(
        f,
        area,
        TableSpec {
            title: Line::from_iter(
                std::iter::once(Span::styled(
                    format!(" DNS records ({count}) "),
                    theme.title,
                ))
                .chain(super::dns::checked_span(m, dom, theme)),
            ),
            columns: if wide { &WIDE_COLS } else { &COLS },
            state: &d.records,
            row: &row,
            marked: None,
            footer: None,
            empty: &empty,
            focused: d.add.is_none(),
        },
        theme,
    );
}

/// One record's cells.
fn row(r: &DnsRecord, theme: &Theme) -> Vec<Span<'static>> {
    vec![
        Span::styled(DisplayText::inline(&r.kind).into_string(), theme.header),
        Span::raw(DisplayText::inline(&r.name).into_string()),
        Span::raw(DisplayText::inline(&r.value).into_string()),
        Span::styled(
            if r.priority == 0 && !r.kind.eq_ignore_ascii_case("MX") {
                "—".into()
            } else {
                r.priority.to_string()
            },
            theme.dim,
        ),
    ]
}

/// The selected value in full, with the key that copies it; below it,
/// what DNS holds instead when it is not found.
fn selected_value(m: &Model, f: &mut Frame, area: Rect, dom: &SendingDomain, theme: &Theme) {
    let d = &m.panes.domains;
    let mut value = Vec::new();
    if let Some(r) = d.shown_records(dom).get(d.records.selected) {
        let text = DisplayText::inline(&r.value).into_string();
        match d.at_dns(dom, r) {
            Some(found) => {
                value.push(Line::from(vec![
                    Span::styled("expected ", theme.dim),
                    Span::raw(text),
                ]));
                value.push(Line::from(vec![
                    Span::styled("at DNS   ", theme.warn),
                    Span::raw(DisplayText::inline(&found).into_string()),
                ]));
            }
            None => value.push(Line::from(text)),
        }
    }
    let key = m.keymap.key_label(Action::CopyValue);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(" Selected value ", theme.title))
        .title_bottom(Line::from(vec![
            Span::styled(format!(" {key} "), theme.key),
            Span::styled("copies it (OSC 52, works over SSH) ", theme.dim),
        ]));
    f.render_widget(
        Paragraph::new(value)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}
