//! Freshness: a failed read keeps what is shown, marked stale with its
//! age, and a poller reads it again (backing off by the one rule while it
//! keeps failing); each value's [`Freshness`] says whether a poll really
//! reads it again, from the same function the subscriptions use; what is
//! drawn of it is redrawn when it changes.

use std::time::Duration;

use super::load::{live_refresh, load_schedule, load_senders, reload_domains};
use super::{DomainsModel, DomainsSub, Loaded, Purpose, View, in_flight};
use crate::api::ApiError;
use crate::app::ctx::Ctx;
use crate::app::fresh::{Freshness, ago_since};
use crate::app::toast::error_text;
use crate::app::{Cmd, Model, Pane};

/// What a retry reads again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reload {
    /// The domain list.
    Domains,
    /// The sender accounts (`GET /api/senders`).
    Senders,
    /// The open sender's schedule.
    Schedule,
}

impl<T> Loaded<T> {
    /// Values are shown, but the last read of them failed, or they are
    /// the last-known ones from the cache.
    pub fn stale(&self) -> bool {
        self.loaded && self.fresh.is_stale() || self.cached
    }

    /// The last failure since the last answer.
    pub fn error(&self) -> Option<&ApiError> {
        self.fresh.error.as_ref()
    }

    /// Wall clock (unix seconds) of the last answer (or of the cached
    /// list).
    pub fn as_of(&self) -> Option<i64> {
        self.fresh.read_at
    }

    /// An answer arrived at `clock`.
    pub fn took(&mut self, items: Vec<T>, clock: i64) {
        self.items = items;
        self.loaded = true;
        self.fresh.ok(clock);
        self.cached = false;
    }

    /// A read failed at `clock`: the items stay, and the retry countdown
    /// starts now.
    pub fn failed(&mut self, e: &ApiError, clock: i64) {
        self.fresh.fail_at(clock, error_text(e), e);
    }

    /// Whether the poller reads it again: after a failure, unless the key
    /// was refused or forbidden (it fails the same way every time).
    pub fn wants_retry(&self) -> bool {
        self.error()
            .is_some_and(|e| !matches!(e.status(), Some(401 | 403)))
    }
}

/// What the view shown reads, with its state.
fn shown_reload(d: &DomainsModel) -> (Reload, &Freshness, bool) {
    match d.view {
        View::Domains | View::DomainDetail => {
            (Reload::Domains, &d.domains.fresh, d.domains.wants_retry())
        }
        View::Senders => (Reload::Senders, &d.senders.fresh, d.senders.wants_retry()),
        View::SenderDetail => (
            Reload::Schedule,
            &d.schedule.fresh,
            d.schedule.wants_retry(),
        ),
    }
}

/// The base period of the retry poller reading `what` again, `None` while
/// none does: only the shown view's values are retried (`shown`: the pane
/// is shown; `every`: the configured period), after a failed read a retry
/// can help. The subscriptions and the freshness drawn both come from here.
fn retry_base(d: &DomainsModel, shown: bool, every: Duration, what: Reload) -> Option<Duration> {
    let (on_screen, _, wanted) = shown_reload(d);
    (shown && on_screen == what && wanted).then_some(every)
}

/// Says of each value the pane holds whether a poll really reads it again
/// (the pane's `sync_fresh`, run after every message): the lists by their
/// retry poller, the watched domains by their watch (while the pane is
/// shown).
pub(super) fn reschedule(d: &mut DomainsModel, cx: &Ctx<'_>) {
    let (shown, every) = (cx.is_shown(Pane::Domains), cx.poll.domain);
    for what in [Reload::Domains, Reload::Senders, Reload::Schedule] {
        let base = retry_base(d, shown, every, what);
        match what {
            Reload::Domains => d.domains.fresh.schedule(base),
            Reload::Senders => d.senders.fresh.schedule(base),
            Reload::Schedule => d.schedule.fresh.schedule(base),
        }
    }
    let watched = shown.then_some(every);
    for w in d.watches.values_mut() {
        w.fresh.schedule(watched);
    }
}

/// The retry poller of what is on screen, the pane being shown (`every`:
/// the configured period).
pub(super) fn subscriptions(
    d: &DomainsModel,
    every: Duration,
    subs: &mut Vec<(DomainsSub, Duration)>,
) {
    let (what, fresh, _) = shown_reload(d);
    if let Some(base) = retry_base(d, true, every, what) {
        // The one backoff rule of every pane; the key changes with each
        // failure, so the (longer) timer restarts from it.
        subs.push((DomainsSub::Retry(what, fresh.failures), fresh.backoff(base)));
    }
}

/// A retry fell due: read again, unless a read is already on its way.
pub(super) fn retry(d: &mut DomainsModel, cx: &mut Ctx<'_>, what: Reload) -> Vec<Cmd> {
    match what {
        Reload::Domains if d.domains.loaded => live_refresh(cx),
        Reload::Domains => reload_domains(cx),
        Reload::Senders => load_senders(d, cx, true),
        Reload::Schedule => {
            let busy = in_flight(cx.requests, |p| matches!(p, Purpose::Schedule(_)));
            match d.open_sender.clone() {
                Some(sender) if !busy => load_schedule(cx, sender),
                _ => Vec::new(),
            }
        }
    }
}

/// The stale values on screen, as drawn: a list after a failed read (its
/// one freshness text), the cache's list (its age), a watched domain whose
/// polls fail (its status's age); with when each was read. It reads the
/// whole model: the one freshness text ([`crate::app::fresh::shown`])
/// takes it.
pub(super) fn stale_shown(m: &Model) -> Vec<(Option<i64>, String)> {
    let d = &m.panes.domains;
    let mut out = Vec::new();
    match d.view {
        View::Domains | View::DomainDetail => {
            out.extend(stale_of(m, &d.domains));
            out.extend(
                d.watches
                    .values()
                    .filter(|w| w.fresh.is_stale())
                    .map(|w| (w.fresh.read_at, watch_age(&w.fresh, m.clock))),
            );
        }
        View::Senders => out.extend(stale_of(m, &d.senders)),
        View::SenderDetail => out.extend(stale_of(m, &d.schedule)),
    }
    out
}

fn stale_of<T>(m: &Model, l: &Loaded<T>) -> Option<(Option<i64>, String)> {
    if !l.stale() {
        return None;
    }
    let text = if l.loaded && l.fresh.is_stale() {
        crate::app::fresh::shown(m, &l.fresh)
    } else {
        let as_of = l.as_of()?;
        crate::app::cache::stale_text(as_of, m.clock)
    };
    Some((l.as_of(), text))
}

/// `as of 3m ago`: the age of a watched domain's status while its polls
/// fail, by the one age rule.
pub(crate) fn watch_age(f: &Freshness, clock: i64) -> String {
    f.read_at.map_or_else(
        || "never read".to_owned(),
        |t| format!("as of {}", ago_since(t, clock)),
    )
}

/// The freshness texts on screen, as drawn (`shown`: [`stale_shown`]).
pub(super) fn ages(shown: &[(Option<i64>, String)]) -> String {
    shown
        .iter()
        .map(|(_, text)| text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How often the texts on screen (`shown`: [`stale_shown`]) are looked at,
/// at `clock`: every second while a retry counts down or an age is counted
/// in seconds, else every 10 s.
pub(super) fn age_every(shown: &[(Option<i64>, String)], clock: i64) -> Option<Duration> {
    if shown.is_empty() {
        return None;
    }
    let counting = shown
        .iter()
        .any(|(_, text)| text.starts_with("retrying in"));
    let youngest = shown
        .iter()
        .filter_map(|(t, _)| *t)
        .map(|t| clock.saturating_sub(t))
        .min();
    let fast = counting || youngest.is_some_and(|y| y < 60);
    Some(Duration::from_secs(if fast { 1 } else { 10 }))
}
