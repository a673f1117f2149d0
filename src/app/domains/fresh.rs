//! Freshness: a failed read keeps what is shown, marked stale with its
//! age, and a poller reads it again (backing off while it keeps failing);
//! the age on screen is redrawn when it changes.

use std::time::Duration;

use super::load::{live_refresh, load_schedule, load_senders, reload_domains};
use super::{DomainsModel, DomainsSub, Loaded, MAX_BACKOFF, Purpose, View, in_flight};
use crate::api::ApiError;
use crate::app::{Cmd, Model};

/// What a retry reads again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reload {
    /// The domain list.
    Domains,
    /// The senders.
    Senders,
    /// The open sender's schedule.
    Schedule,
}

impl<T> Loaded<T> {
    /// Values are shown, but the last read of them failed, or they are
    /// the last-known ones from the cache.
    pub fn stale(&self) -> bool {
        self.loaded && self.error.is_some() || self.cached
    }

    /// An answer arrived at `clock`.
    pub fn took(&mut self, items: Vec<T>, clock: i64) {
        self.items = items;
        self.loaded = true;
        self.error = None;
        self.as_of = Some(clock);
        self.failures = 0;
        self.retry = false;
        self.cached = false;
    }

    /// A read failed: the items stay.
    pub fn failed(&mut self, e: &ApiError) {
        self.error = Some(e.clone());
        self.failures = self.failures.saturating_add(1);
        // A refused or forbidden key fails the same way every time.
        self.retry = !matches!(e.status(), Some(401 | 403));
    }

    /// Whether the poller should read it again.
    fn wants_retry(&self) -> bool {
        self.error.is_some() && self.retry
    }
}

/// "just now", "3m ago", "2h ago", "4d ago": the age of values read at
/// `as_of`, one format whatever the age.
pub fn age_label(as_of: i64, clock: i64) -> String {
    let d = clock.saturating_sub(as_of).max(0);
    match d {
        0..=44 => "just now".into(),
        45..=3599 => format!("{}m ago", (d + 30) / 60),
        3600..=86_399 => format!("{}h ago", d / 3600),
        _ => format!("{}d ago", d / 86_400),
    }
}

/// `base` doubled for each failure after the first, within the cap.
pub(super) fn backoff(base: Duration, failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(10);
    base.saturating_mul(2u32.saturating_pow(doublings))
        .min(MAX_BACKOFF.max(base))
}

/// What the view shown reads, with its state.
fn shown_reload(d: &DomainsModel) -> (Reload, u32, bool) {
    match d.view {
        View::Domains | View::DomainDetail => {
            (Reload::Domains, d.domains.failures, d.domains.wants_retry())
        }
        View::Senders => (Reload::Senders, d.senders.failures, d.senders.wants_retry()),
        View::SenderDetail => (
            Reload::Schedule,
            d.schedule.failures,
            d.schedule.wants_retry(),
        ),
    }
}

/// The retry and age pollers of what is on screen.
pub(super) fn subscriptions(m: &Model, subs: &mut Vec<(DomainsSub, Duration)>) {
    let d = &m.panes.domains;
    let (what, failures, wanted) = shown_reload(d);
    if wanted {
        subs.push((
            DomainsSub::Retry(what, failures),
            backoff(m.poll.domain, failures),
        ));
    }
    if !ages(m).is_empty() {
        subs.push((DomainsSub::Age, Duration::from_secs(10)));
    }
}

/// A retry fell due: read again, unless a read is already on its way.
pub(super) fn retry(m: &mut Model, what: Reload) -> Vec<Cmd> {
    match what {
        Reload::Domains if m.panes.domains.domains.loaded => live_refresh(m),
        Reload::Domains => reload_domains(m),
        Reload::Senders => load_senders(m, true),
        Reload::Schedule => {
            let busy = in_flight(m, |p| matches!(p, Purpose::Schedule(_)));
            match m.panes.domains.open_sender.clone() {
                Some(sender) if !busy => load_schedule(m, sender),
                _ => Vec::new(),
            }
        }
    }
}

/// The ages of the stale values on screen, as drawn.
pub(super) fn ages(m: &Model) -> String {
    let d = &m.panes.domains;
    let clock = m.clock;
    let mut out: Vec<String> = Vec::new();
    match d.view {
        View::Domains | View::DomainDetail => {
            out.extend(age_of(&d.domains, clock));
            out.extend(
                d.watches
                    .values()
                    .filter(|w| w.failed)
                    .map(|w| age_label(w.as_of, clock)),
            );
        }
        View::Senders => out.extend(age_of(&d.senders, clock)),
        View::SenderDetail => out.extend(age_of(&d.schedule, clock)),
    }
    out.join(" ")
}

/// The age of stale values, `None` while they are fresh.
pub fn age_of<T>(l: &Loaded<T>, clock: i64) -> Option<String> {
    l.stale()
        .then_some(l.as_of)
        .flatten()
        .map(|t| age_label(t, clock))
}

/// The age tick: redraw only when an age on screen changed.
pub(super) fn age_tick(m: &mut Model) {
    let now = ages(m);
    if now != m.panes.domains.ages_drawn {
        m.panes.domains.ages_drawn = now;
        m.redraw = true;
    }
}
