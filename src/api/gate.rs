//! Rate-limit gates, one per route family, and the connection state: what
//! the client learns about the service that outlives a single call, published
//! through `watch` channels for the status bar and countdowns.
//!
//! # Route families
//!
//! The contract says rate limits are "endpoint-specific" without naming the
//! numbers or the buckets. A 429 therefore closes the gate of the family the
//! limited call belongs to — the first path segment under `/api`
//! (`/api/email/domains` counts `email/domains` as one name) — and every
//! other family keeps working. Finer (per exact route, ids included) would
//! let a poller walk around the limit by varying an id, hammering the very
//! bucket that refused it; coarser (one gate for everything, the old design)
//! let one `Retry-After: 100000` on Lead Finder stop the domains pane for a
//! day.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use tokio::sync::watch;

/// A group of routes that share a rate-limit gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RouteFamily {
    /// `/api/lead-finder/**`.
    LeadFinder,
    /// `/api/campaigns/**`.
    Campaigns,
    /// `/api/threads/**`.
    Threads,
    /// `/api/email/**` (sending domains).
    EmailDomains,
    /// `/api/senders/**`.
    Senders,
    /// `/api/context`.
    Context,
    /// `/api/test-access/**`.
    TestAccess,
    /// Any other path (none in the contract; kept apart from the rest).
    Other,
}

impl RouteFamily {
    /// Every family, in display order.
    pub const ALL: [RouteFamily; 8] = [
        RouteFamily::LeadFinder,
        RouteFamily::Campaigns,
        RouteFamily::Threads,
        RouteFamily::EmailDomains,
        RouteFamily::Senders,
        RouteFamily::Context,
        RouteFamily::TestAccess,
        RouteFamily::Other,
    ];

    /// The family of a request path such as `/api/lead-finder/s1/run`
    /// (a base URL's own path prefix must already be stripped).
    pub fn of(path: &str) -> RouteFamily {
        let mut segments = path.trim_start_matches('/').split('/');
        if segments.next() != Some("api") {
            return RouteFamily::Other;
        }
        match segments.next().unwrap_or("") {
            "lead-finder" => RouteFamily::LeadFinder,
            "campaigns" => RouteFamily::Campaigns,
            "threads" => RouteFamily::Threads,
            "email" => RouteFamily::EmailDomains,
            "senders" => RouteFamily::Senders,
            "context" => RouteFamily::Context,
            "test-access" => RouteFamily::TestAccess,
            _ => RouteFamily::Other,
        }
    }

    /// The name shown to users: the path it stands for.
    pub fn name(self) -> &'static str {
        match self {
            RouteFamily::LeadFinder => "lead-finder",
            RouteFamily::Campaigns => "campaigns",
            RouteFamily::Threads => "threads",
            RouteFamily::EmailDomains => "email/domains",
            RouteFamily::Senders => "senders",
            RouteFamily::Context => "context",
            RouteFamily::TestAccess => "test-access",
            RouteFamily::Other => "other",
        }
    }
}

impl fmt::Display for RouteFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which families are rate limited and until when. Entries whose instant
/// has passed are dropped by the gate shortly after; readers should still
/// compare with their own `now`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateLimits {
    until: BTreeMap<RouteFamily, Instant>,
}

impl RateLimits {
    /// When `family` opens again, if it is closed at `now`.
    pub fn until(&self, family: RouteFamily, now: Instant) -> Option<Instant> {
        self.until.get(&family).copied().filter(|t| *t > now)
    }

    /// The families closed at `now`, with their reopening instants, in
    /// display order.
    pub fn closed(&self, now: Instant) -> impl Iterator<Item = (RouteFamily, Instant)> + '_ {
        self.until
            .iter()
            .filter(move |(_, t)| **t > now)
            .map(|(f, t)| (*f, *t))
    }

    /// The family that stays closed longest at `now`, for a one-line status
    /// ("lead-finder rate limited for 42 s").
    pub fn longest(&self, now: Instant) -> Option<(RouteFamily, Instant)> {
        self.closed(now).max_by_key(|(_, t)| *t)
    }

    /// The latest reopening instant of any family (closed or not at the
    /// time of reading).
    pub fn latest(&self) -> Option<Instant> {
        self.until.values().max().copied()
    }

    /// Whether no family is closed at `now`.
    pub fn all_open(&self, now: Instant) -> bool {
        self.closed(now).next().is_none()
    }
}

impl FromIterator<(RouteFamily, Instant)> for RateLimits {
    fn from_iter<I: IntoIterator<Item = (RouteFamily, Instant)>>(iter: I) -> Self {
        RateLimits {
            until: iter.into_iter().collect(),
        }
    }
}

/// The rate-limit gates: a 429 closes the gate of its route family, and
/// calls of that family wait (or fail fast when the wait is long) until it
/// opens. Clones share the gates.
#[derive(Debug, Clone)]
pub struct RateGate {
    tx: Arc<watch::Sender<RateLimits>>,
}

impl Default for RateGate {
    fn default() -> Self {
        RateGate {
            tx: Arc::new(watch::Sender::new(RateLimits::default())),
        }
    }
}

impl RateGate {
    /// A receiver of every family's reopening instant.
    pub fn subscribe(&self) -> watch::Receiver<RateLimits> {
        self.tx.subscribe()
    }

    /// The limits now.
    pub fn limits(&self) -> RateLimits {
        self.tx.borrow().clone()
    }

    /// When `family` opens again, if it is closed now.
    pub fn closed_until(&self, family: RouteFamily) -> Option<Instant> {
        self.tx.borrow().until(family, Instant::now())
    }

    /// Closes `family` until `until` (never shortens a longer closure). The
    /// entry is dropped when it expires, so subscribers also see the
    /// reopening.
    pub fn close_until(&self, family: RouteFamily, until: Instant) {
        let changed = self.tx.send_if_modified(|l| match l.until.get(&family) {
            Some(t) if *t >= until => false,
            _ => {
                l.until.insert(family, until);
                true
            }
        });
        if changed && let Ok(rt) = tokio::runtime::Handle::try_current() {
            let gate = self.clone();
            rt.spawn(async move {
                tokio::time::sleep_until(tokio::time::Instant::from_std(until)).await;
                gate.prune(family);
            });
        }
    }

    /// Opens `family` at once: an answer other than 429 on it shows the
    /// limit has lifted.
    pub fn open(&self, family: RouteFamily) {
        self.tx
            .send_if_modified(|l| l.until.remove(&family).is_some());
    }

    /// Drops the entry of `family` when it has expired.
    fn prune(&self, family: RouteFamily) {
        let now = Instant::now();
        self.tx.send_if_modified(|l| match l.until.get(&family) {
            Some(t) if *t <= now => {
                l.until.remove(&family);
                true
            }
            _ => false,
        });
    }

    /// Waits until `family` is open.
    pub async fn wait_open(&self, family: RouteFamily) {
        while let Some(t) = self.closed_until(family) {
            tokio::time::sleep_until(tokio::time::Instant::from_std(t)).await;
        }
        self.prune(family);
    }
}

/// A wait as people say it: `42 s`, `3 min 5 s`, `27 h 46 min`.
pub(crate) fn human_wait(wait: std::time::Duration) -> String {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min {} s", secs / 60, secs % 60),
        _ => format!("{} h {} min", secs / 3600, secs % 3600 / 60),
    }
}

/// Whether the service can be reached, as last seen by any call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnState {
    /// The last answers were ordinary HTTP answers (any status but 429), or
    /// no call was made yet.
    Online,
    /// The service answers, but with 429: `family` (the last one refused)
    /// and possibly others get "rate limited" and nothing better since
    /// `since`. Lasts until an answer other than 429 from every family that
    /// was refused, however short each `Retry-After` was (a 1 s gate that
    /// reopens between refusals is still a rate limit).
    RateLimited {
        /// The family refused last.
        family: RouteFamily,
        /// The first 429 of this spell.
        since: SystemTime,
    },
    /// Connections fail; `since` is the first failure of this outage.
    /// Reads keep retrying in the background meanwhile.
    Offline {
        /// When the first connection of this outage failed.
        since: SystemTime,
    },
}

impl ConnState {
    /// Whether connections currently fail.
    pub fn is_offline(&self) -> bool {
        matches!(self, ConnState::Offline { .. })
    }

    /// Whether requests are being answered 429.
    pub fn is_rate_limited(&self) -> bool {
        matches!(self, ConnState::RateLimited { .. })
    }
}

/// The published connection state; clones share it.
#[derive(Debug, Clone)]
pub(crate) struct Connection {
    tx: Arc<watch::Sender<ConnState>>,
    /// The families whose last answer was a 429, with their first 429 of
    /// this spell and the order they were refused in (the state names the
    /// last one).
    limited: Arc<Mutex<BTreeMap<RouteFamily, (SystemTime, u64)>>>,
}

impl Default for Connection {
    fn default() -> Self {
        Connection {
            tx: Arc::new(watch::Sender::new(ConnState::Online)),
            limited: Arc::default(),
        }
    }
}

impl Connection {
    /// A receiver of every change.
    pub(crate) fn subscribe(&self) -> watch::Receiver<ConnState> {
        self.tx.subscribe()
    }

    /// The state now.
    #[cfg(test)]
    pub(crate) fn state(&self) -> ConnState {
        *self.tx.borrow()
    }

    /// A connection failed: offline from now, unless already offline (the
    /// outage keeps its first instant). What was known of rate limits is
    /// forgotten: the first answers after the outage say anew.
    pub(crate) fn failed(&self) {
        let mut limited = self.lock();
        limited.clear();
        self.tx.send_if_modified(|s| match s {
            ConnState::Offline { .. } => false,
            _ => {
                *s = ConnState::Offline {
                    since: SystemTime::now(),
                };
                true
            }
        });
    }

    /// The service answered: online, whatever was rate limited before.
    #[cfg(test)]
    pub(crate) fn answered(&self) {
        let mut limited = self.lock();
        limited.clear();
        self.publish(&limited);
    }

    /// The service answered a call of `family`: with 429 (`rate_limited`),
    /// the family is rate limited until an answer of it that is not a 429;
    /// any other answer ends that, and the state is online once no family
    /// is left limited.
    pub(crate) fn answered_by(&self, family: RouteFamily, rate_limited: bool) {
        let mut limited = self.lock();
        if rate_limited {
            let order = limited.values().map(|(_, o)| *o + 1).max().unwrap_or(0);
            let since = limited
                .get(&family)
                .map_or_else(SystemTime::now, |(t, _)| *t);
            limited.insert(family, (since, order));
        } else {
            limited.remove(&family);
        }
        self.publish(&limited);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<RouteFamily, (SystemTime, u64)>> {
        // The map is never left half-changed; a panic elsewhere leaves it usable.
        self.limited
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Publishes the state `limited` implies (called with the lock held, so
    /// two answers cannot publish out of order).
    fn publish(&self, limited: &BTreeMap<RouteFamily, (SystemTime, u64)>) {
        let next = limited.iter().max_by_key(|(_, (_, order))| *order).map_or(
            ConnState::Online,
            |(family, _)| ConnState::RateLimited {
                family: *family,
                since: limited
                    .values()
                    .map(|(t, _)| *t)
                    .min()
                    .unwrap_or_else(SystemTime::now),
            },
        );
        self.tx.send_if_modified(|s| {
            let changed = *s != next;
            *s = next;
            changed
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn families_follow_the_first_segment() {
        let cases = [
            ("/api/lead-finder", RouteFamily::LeadFinder),
            (
                "/api/lead-finder/s1/results/r1/enrichment",
                RouteFamily::LeadFinder,
            ),
            ("/api/lead-finder/run", RouteFamily::LeadFinder),
            ("/api/campaigns/c1/leads", RouteFamily::Campaigns),
            ("/api/threads/t1/messages", RouteFamily::Threads),
            ("/api/email/domains/d1/verify", RouteFamily::EmailDomains),
            ("/api/senders/s1/schedule", RouteFamily::Senders),
            ("/api/context", RouteFamily::Context),
            ("/api/test-access/redeem", RouteFamily::TestAccess),
            ("/api/unknown", RouteFamily::Other),
            ("/lead-finder", RouteFamily::Other),
            ("", RouteFamily::Other),
        ];
        for (path, family) in cases {
            assert_eq!(RouteFamily::of(path), family, "{path}");
        }
        assert_eq!(RouteFamily::EmailDomains.to_string(), "email/domains");
    }

    #[tokio::test]
    async fn a_gate_only_lengthens_and_other_families_stay_open() {
        let gate = RateGate::default();
        let now = Instant::now();
        gate.close_until(RouteFamily::Threads, now + Duration::from_secs(5));
        gate.close_until(RouteFamily::Threads, now + Duration::from_secs(1));
        let limits = gate.limits();
        assert_eq!(
            limits.until(RouteFamily::Threads, now),
            Some(now + Duration::from_secs(5))
        );
        assert_eq!(gate.closed_until(RouteFamily::Senders), None);
        assert_eq!(
            limits.longest(now),
            Some((RouteFamily::Threads, now + Duration::from_secs(5)))
        );
        gate.open(RouteFamily::Threads);
        assert!(gate.limits().all_open(now));
    }

    #[tokio::test]
    async fn an_expired_closure_is_dropped_and_subscribers_see_it() {
        let gate = RateGate::default();
        let mut rx = gate.subscribe();
        gate.close_until(
            RouteFamily::Campaigns,
            Instant::now() + Duration::from_millis(50),
        );
        assert!(rx.borrow_and_update().latest().is_some());
        tokio::time::timeout(Duration::from_secs(5), rx.changed())
            .await
            .expect("the reopening is published")
            .expect("gate alive");
        assert_eq!(*rx.borrow(), RateLimits::default());
    }

    #[test]
    fn the_first_failure_of_an_outage_is_kept() {
        let c = Connection::default();
        assert_eq!(c.state(), ConnState::Online);
        c.failed();
        let first = c.state();
        assert!(first.is_offline());
        std::thread::sleep(Duration::from_millis(5));
        c.failed();
        assert_eq!(c.state(), first);
        c.answered();
        assert_eq!(c.state(), ConnState::Online);
    }

    #[test]
    fn a_family_answered_429_is_rate_limited_until_its_first_other_answer() {
        let c = Connection::default();
        c.answered_by(RouteFamily::LeadFinder, true);
        let ConnState::RateLimited { family, since } = c.state() else {
            panic!("{:?}", c.state())
        };
        assert_eq!(family, RouteFamily::LeadFinder);
        c.answered_by(RouteFamily::Threads, true);
        c.answered_by(RouteFamily::LeadFinder, true);
        assert_eq!(
            c.state(),
            ConnState::RateLimited {
                family: RouteFamily::LeadFinder,
                since
            },
            "the spell keeps its first 429 and names the family refused last"
        );
        // Another family answering says nothing of lead-finder's limit.
        c.answered_by(RouteFamily::Campaigns, false);
        c.answered_by(RouteFamily::LeadFinder, false);
        assert!(c.state().is_rate_limited(), "threads still refused");
        c.answered_by(RouteFamily::Threads, false);
        assert_eq!(c.state(), ConnState::Online);
        // An outage forgets the limits.
        c.answered_by(RouteFamily::Threads, true);
        c.failed();
        assert!(c.state().is_offline());
        c.answered_by(RouteFamily::Campaigns, false);
        assert_eq!(c.state(), ConnState::Online);
    }
}
