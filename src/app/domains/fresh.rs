//! Freshness: a failed read keeps what is shown, marked stale with its
//! age, and a poller reads it again (backing off while it keeps failing);
//! the age on screen is redrawn when it changes.

use std::time::Duration;

use super::load::{live_refresh, load_schedule, load_senders, reload_domains};
use super::{DomainsModel, DomainsSub, Loaded, Purpose, View, in_flight};
use crate::api::ApiError;
use crate::app::fresh::{Freshness, age_text};
use crate::app::toast::error_text;
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

    /// A read failed: the items stay.
    pub fn failed(&mut self, e: &ApiError) {
        self.fresh.fail(error_text(e), e);
    }

    /// Whether the poller reads it again: after a failure, unless the key
    /// was refused or forbidden (it fails the same way every time).
    pub fn wants_retry(&self) -> bool {
        self.error()
            .is_some_and(|e| !matches!(e.status(), Some(401 | 403)))
    }
}

/// "just now", "3m ago", "2h ago", "4d ago": the age of values read at
/// `as_of`, one format whatever the age (the domains' own times: when a
/// domain was created or verified, and the cache's age).
pub fn age_label(as_of: i64, clock: i64) -> String {
    let d = clock.saturating_sub(as_of).max(0);
    match d {
        0..=44 => "just now".into(),
        45..=3599 => format!("{}m ago", (d + 30) / 60),
        3600..=86_399 => format!("{}h ago", d / 3600),
        _ => format!("{}d ago", d / 86_400),
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

/// The retry and age pollers of what is on screen.
pub(super) fn subscriptions(m: &Model, subs: &mut Vec<(DomainsSub, Duration)>) {
    let d = &m.panes.domains;
    let (what, fresh, wanted) = shown_reload(d);
    if wanted {
        // The one backoff rule of every pane; the key changes with each
        // failure, so the (longer) timer restarts from it.
        subs.push((
            DomainsSub::Retry(what, fresh.failures),
            fresh.backoff(m.poll.domain),
        ));
    }
    if let Some(every) = age_every(m) {
        subs.push((DomainsSub::Age, every));
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

/// The stale values on screen: (when each was read, whether it is drawn
/// as a failed read's age, the one text of every pane, else as the
/// cache's).
fn stale_reads(m: &Model) -> Vec<(i64, bool)> {
    let d = &m.panes.domains;
    let mut out = Vec::new();
    match d.view {
        View::Domains | View::DomainDetail => {
            out.extend(stale_read(&d.domains));
            out.extend(
                d.watches
                    .values()
                    .filter(|w| w.failed)
                    .map(|w| (w.as_of, true)),
            );
        }
        View::Senders => out.extend(stale_read(&d.senders)),
        View::SenderDetail => out.extend(stale_read(&d.schedule)),
    }
    out
}

fn stale_read<T>(l: &Loaded<T>) -> Option<(i64, bool)> {
    let failed = l.loaded && l.fresh.is_stale();
    l.stale()
        .then_some(l.as_of())
        .flatten()
        .map(|t| (t, failed))
}

/// The ages of the stale values on screen, as drawn.
pub(super) fn ages(m: &Model) -> String {
    let clock = m.clock;
    stale_reads(m)
        .into_iter()
        .map(|(t, failed)| drawn_age(t, failed, clock))
        .collect::<Vec<_>>()
        .join(" ")
}

fn drawn_age(read_at: i64, failed: bool, clock: i64) -> String {
    if failed {
        ago(read_at, clock)
    } else {
        age_label(read_at, clock)
    }
}

/// `3m ago`: the age of values kept after a failed read, in the words of
/// [`crate::app::fresh::stale_note`] (every pane's).
pub fn ago(read_at: i64, clock: i64) -> String {
    let secs = u64::try_from(clock.saturating_sub(read_at)).unwrap_or(0);
    format!("{} ago", age_text(secs))
}

/// The age of stale values as drawn, `None` while they are fresh.
pub fn age_of<T>(l: &Loaded<T>, clock: i64) -> Option<String> {
    stale_read(l).map(|(t, failed)| drawn_age(t, failed, clock))
}

/// How often the ages on screen are looked at: every second while one is
/// counted in seconds, else every 10 s.
fn age_every(m: &Model) -> Option<Duration> {
    let reads = stale_reads(m);
    let youngest = reads
        .iter()
        .map(|(t, _)| m.clock.saturating_sub(*t))
        .min()?;
    Some(Duration::from_secs(if youngest < 60 { 1 } else { 10 }))
}

/// The age tick: redraw only when an age on screen changed.
pub(super) fn age_tick(m: &mut Model) {
    let now = ages(m);
    if now != m.panes.domains.ages_drawn {
        m.panes.domains.ages_drawn = now;
        m.redraw = true;
    }
}
