//! The Senders & Domains pane: the domain list, a domain's DNS records,
//! the senders and a sender's schedule.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;

use super::theme::Theme;
use super::widgets::dialog::centered;
use super::widgets::stale;
use crate::api::RouteFamily;
use crate::api::model::SendingDomain;
use crate::app::domains::layout::areas;
use crate::app::domains::{self, DomainsModel, Loaded, View};
use crate::app::keymap::Action;
use crate::app::{Model, fresh};
use crate::text::format;
use crate::text::sanitize::DisplayText;

mod copy;
mod detail;
mod dns;
mod filter;
mod list;
mod senders;

impl super::PaneView for DomainsModel {
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
        render(m, f, body, theme);
    }
}

/// Draws the pane.
fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let d = &m.panes.domains;
    let warned = d.view == View::DomainDetail && d.disagreement(&m.requests, "").is_some();
    let a = areas(body, d.view, d.filter_bar(d.view), warned);
    match d.view {
        View::Domains => list::render(m, f, a, theme),
        View::DomainDetail => detail::render(m, f, a, theme),
        View::Senders => senders::list(m, f, a, theme),
        View::SenderDetail => senders::detail(m, f, a, theme),
    }
    if let Some(menu) = &d.copy_menu
        && d.view == View::DomainDetail
        && let Some(r) = d.selected_record()
    {
        copy::render(m, f, (body, a.list), menu, r, theme);
    }
    if let Some(form) = &d.add {
        let w = 70.min(body.width.saturating_sub(4));
        let rect = centered(body, w, super::widgets::form::wanted_height(form, w));
        super::widgets::form::render(f, rect, form, theme);
    }
}

/// A domain's status, with its watch's countdown; while its polls fail,
/// the age of the status shown (the one age rule).
fn status_span(d: &SendingDomain, dm: &DomainsModel, m: &Model, theme: &Theme) -> Span<'static> {
    let mut text = format!("● {}", DisplayText::inline(d.status.as_str()));
    let failing = dm.watches.get(&d.id).filter(|w| w.fresh.is_stale());
    if let Some(w) = failing {
        text.push_str(&format!(" · {}", domains::watch_age(&w.fresh, m.clock)));
    }
    if let Some(left) = dm.next_check_in(m, &d.id) {
        if left.is_zero() {
            text.push_str(" · checking…");
        } else if failing.is_some() {
            text.push_str(&format!(" · retry in {}", format::duration(left)));
        } else {
            text.push_str(&format!(" · next check {}", format::duration(left)));
        }
    } else if domains::verify_pending(m, &d.id) {
        text.push_str(" · starting…");
    }
    Span::styled(text, theme.domain_status(&d.status))
}

/// The mark of values whose last read failed, in the one freshness
/// wording of every pane (`retrying in 8 s`, `stale · as of 2m ago · r
/// retries`), or that are the last-known ones from the cache
/// (`stale · as of 3h ago · refreshing…` while `reading`); `None` while
/// they are fresh.
fn stale_span<T>(m: &Model, l: &Loaded<T>, reading: bool, theme: &Theme) -> Option<Span<'static>> {
    if !l.stale() {
        return None;
    }
    if l.loaded && l.fresh.is_stale() {
        return Some(stale::freshness(m, &l.fresh, theme));
    }
    l.as_of()
        .map(|as_of| stale::span(as_of, m.clock, reading, theme))
}

/// What an empty list says: the shared placeholder while nothing loaded
/// (loading, offline since at once, rate limited, why it failed — the
/// Refresh key only when a retry can help, the refused-key advice on a
/// 401), else that it is empty.
fn loading_or_error<T>(m: &Model, l: &Loaded<T>, what: &str, family: RouteFamily) -> String {
    if l.loaded {
        return format!("no {what} yet");
    }
    m.placeholder_text(what, family, l.error())
}

/// What a list says when its filters hide every row.
fn no_match(m: &Model, what: &str) -> String {
    let esc = m.keymap.key_label(Action::Back);
    match m.panes.domains.query() {
        // While a kept filter is refined, Esc goes back to it.
        Some(q) if q.focused && !q.before().trim().is_empty() => format!(
            "no {what} matches the filter — {esc} goes back to “{}”",
            DisplayText::inline(q.before().trim())
        ),
        _ => format!("no {what} matches the filter — {esc} clears it"),
    }
}

/// How long ago `ts` was, by the one age rule ("2d ago", "40d ago";
/// never a date beside them), so a time column reads alike top to bottom.
/// `clock` is the service's own (the runtime measures it from the `Date`
/// of its answers), so a time ahead of it is a stamp a moment old, never an
/// event in the future: it reads "just now". Text that is not a time is
/// shown as sent.
fn when(ts: &str, clock: i64) -> String {
    match format::unix(ts) {
        Some(t) => fresh::ago_since(t.min(clock), clock),
        // Not a time: `format::ago` shows it as sent (`—` when empty).
        None => format::ago(ts, clock),
    }
}

#[cfg(test)]
mod tests {
    use super::when;

    /// 2026-11-22T12:00:00Z.
    const NOW: i64 = 1_795_348_800;

    #[test]
    fn an_event_is_never_shown_in_the_future() {
        // Stamped by a clock six minutes ahead (seen: "Added in 6m").
        assert_eq!(when("2026-11-22T12:06:00Z", NOW), "just now");
        assert_eq!(when("2026-11-22T11:55:00Z", NOW), "5m ago");
        assert!(!when("2026-11-23T12:00:00Z", NOW).starts_with("in "));
    }
}
