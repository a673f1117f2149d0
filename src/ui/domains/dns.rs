//! What DNS holds of the open domain's records: the summary line, the
//! status cell of each record, and what was found instead.

use ratatui::text::{Line, Span};

use crate::api::model::{DnsRecord, SendingDomain};
use crate::app::Model;
use crate::app::domains::DomainsModel;
use crate::app::domains::dns::{RecordState, Summary, resolving};
use crate::app::fresh::ago_since;
use crate::dns::Verdict;
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

/// A record's status cell: `✓ found`, `✗ missing`, `≠ differs`…
pub(super) fn cell(
    d: &DomainsModel,
    m: &Model,
    dom: &SendingDomain,
    r: &DnsRecord,
    theme: &Theme,
) -> Span<'static> {
    match d.record_state(&m.requests, dom, r) {
        RecordState::Unknown => Span::styled("—", theme.dim),
        RecordState::Checking => Span::styled("… checking", theme.dim),
        RecordState::Known(v) => {
            let (mark, style) = match v {
                Verdict::Found => ("✓", theme.ok),
                Verdict::Missing => ("✗", theme.err),
                Verdict::Different(_) => ("≠", theme.warn),
                Verdict::Failed(_) => ("!", theme.warn),
            };
            Span::styled(format!("{mark} {}", v.word()), style)
        }
    }
}

/// What DNS holds instead, for the wide table's last column.
pub(super) fn found_cell(
    d: &DomainsModel,
    dom: &SendingDomain,
    r: &DnsRecord,
    theme: &Theme,
) -> Span<'static> {
    match d.at_dns(dom, r) {
        Some(text) => Span::styled(DisplayText::inline(&text).into_string(), theme.warn),
        None => Span::raw(""),
    }
}

/// `DNS 2 of 4 records found; missing: DKIM; different: SPF`.
pub(super) fn summary_line(m: &Model, dom: &SendingDomain, theme: &Theme) -> Line<'static> {
    let d = &m.panes.domains;
    let s = d.dns_summary(&m.requests, dom);
    let mut spans = vec![Span::styled(" DNS ", theme.header)];
    if s.total == 0 {
        spans.push(Span::styled("no records to check yet", theme.dim));
        return Line::from(spans);
    }
    if s.unknown == s.total {
        let records = format::plural(
            u64::try_from(s.total).unwrap_or(u64::MAX),
            "record",
            "records",
        );
        let what = if resolving(m, &dom.id) {
            format!("checking {records}…")
        } else {
            format!("{records} not checked yet")
        };
        spans.push(Span::styled(what, theme.dim));
    } else {
        spans.extend(counts(&s, theme));
    }
    Line::from(spans)
}

/// ` checked just now via 1.1.1.1:53 `, for the records' title: when DNS
/// last answered about them, and which resolver did.
pub(super) fn checked_span(m: &Model, dom: &SendingDomain, theme: &Theme) -> Option<Span<'static>> {
    let d = &m.panes.domains;
    let oldest = d.dns_summary(&m.requests, dom).oldest?;
    let mut text = format!("· checked {}", ago_since(oldest, m.clock));
    if let Some(via) = &d.dns.resolver {
        text.push_str(&format!(" via {}", DisplayText::inline(via)));
    }
    text.push(' ');
    Some(Span::styled(text, theme.dim))
}

/// `2 of 4 records found; missing: DKIM; different: SPF`.
fn counts(s: &Summary, theme: &Theme) -> Vec<Span<'static>> {
    if s.found + s.missing.len() + s.different.len() == 0
        && let Some(why) = &s.why
    {
        // Nothing is known: no count would be true.
        let why = DisplayText::inline(why).into_string();
        return vec![Span::styled(
            format!("could not be asked: {why}"),
            theme.warn,
        )];
    }
    let all = s.found == s.total;
    let records = format::plural(
        u64::try_from(s.total).unwrap_or(u64::MAX),
        "record",
        "records",
    );
    let head = match (all, s.total) {
        (true, 1) => "the record found".to_owned(),
        (true, _) => format!("all {records} found"),
        (false, _) => format!("{} of {records} found", s.found),
    };
    let mut spans = vec![Span::styled(head, if all { theme.ok } else { theme.text })];
    for (what, names, style) in [
        ("missing", &s.missing, theme.err),
        ("different", &s.different, theme.warn),
        ("not checked", &s.failed, theme.warn),
    ] {
        if !names.is_empty() {
            let names = DisplayText::inline(&names.join(", ")).into_string();
            spans.push(Span::styled(format!("; {what}: {names}"), style));
        }
    }
    spans
}
