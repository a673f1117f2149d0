//! How current the values on screen are. A failed refresh never erases
//! what was read before: the values stay, marked stale with their age, and
//! the next poll tries again (more slowly after each failure in a row).
//!
//! # For pane owners
//!
//! [`Freshness`] is the one holder of a shown value's freshness: when it
//! was read ([`Freshness::ok`]), whether the last read failed and why
//! ([`Freshness::fail_at`]), whether a poll reads it again
//! ([`Freshness::schedule`]) and when ([`Freshness::next_poll`], the one
//! backoff rule). [`shown`] turns it into the only things a value may
//! say of itself — `live`, `retrying in 8 s` (`retrying…` once the read is
//! in flight), `stale · as of 2m ago · r retries` — and
//! `ui::widgets::stale::freshness` draws that. Ages are worded by [`ago`]
//! (and [`age_text`], its one-unit form) everywhere.

use std::time::Duration;

use crate::api::ApiError;
use crate::api::gate::human_wait;
use crate::app::Model;
use crate::app::keymap::{Action, Keymap};

/// Failed reads in a row after which a watch stops slowing down (its
/// period is then 2³ = 8 times the normal one).
const MAX_DOUBLINGS: u32 = 3;

/// When values were last read, and whether the last read failed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Freshness {
    /// Wall clock (unix seconds) of the last successful read.
    pub read_at: Option<i64>,
    /// Why the last read failed; `None` after a success.
    pub failed: Option<String>,
    /// The error of the last failed read (whether a retry can help, the
    /// refused-key advice); `None` after a success.
    pub error: Option<ApiError>,
    /// Failed reads in a row.
    pub failures: u32,
    /// Wall clock (unix seconds) of the last failed read, when it was
    /// given ([`Freshness::fail_at`]): the retry countdown starts there.
    pub failed_at: Option<i64>,
    /// The base period of the poll that reads these values again, while
    /// one is scheduled ([`Freshness::schedule`]); `None`: nothing reads
    /// them again until the user refreshes.
    pub poll: Option<Duration>,
}

/// What a shown value may truthfully say of its freshness: one of three.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// A poll reads it again and the last read succeeded.
    Live,
    /// The last read failed and a poll really reads again, in `in_secs`.
    Retrying {
        /// Seconds until the next read (at least 1).
        in_secs: u64,
    },
    /// The last read failed and its countdown ran out: the retry is in
    /// flight, for as long as the read takes (a countdown held at "1 s"
    /// for 16 s offline read as a stuck clock).
    Rereading,
    /// A poll would read it, but the service cannot be reached: it is as
    /// it was `age` seconds ago, whatever the last read said.
    Offline {
        /// Seconds since the last good read (`None`: never read).
        age: Option<u64>,
    },
    /// Nothing reads it again by itself, and its last read succeeded: it
    /// is as it was `age` seconds ago (not stale: nothing failed, and
    /// nothing promised to read it again).
    AsOf {
        /// Seconds since the last good read.
        age: u64,
    },
    /// Nothing reads it again by itself: its age (`None`: never read), and
    /// the last error when the last read failed.
    Stale {
        /// Seconds since the last good read.
        age: Option<u64>,
        /// Whether the key was refused (the Refresh key cannot help).
        refused: bool,
    },
}

impl Freshness {
    /// A read succeeded at `clock`.
    pub fn ok(&mut self, clock: i64) {
        self.read_at = Some(clock);
        self.failed = None;
        self.error = None;
        self.failures = 0;
    }

    /// A read failed with `error` (said as `why`): the values stay, marked
    /// stale.
    pub fn fail(&mut self, why: String, error: &ApiError) {
        self.failed = Some(why);
        self.error = Some(error.clone());
        self.failures = self.failures.saturating_add(1);
    }

    /// Why the last read failed, short: the error's code (the text up to
    /// its first `: `).
    pub fn failed_code(&self) -> Option<&str> {
        self.failed
            .as_deref()
            .map(|w| w.split_once(": ").map_or(w, |(code, _)| code))
    }

    /// Whether the values shown may be out of date (the last read failed).
    pub fn is_stale(&self) -> bool {
        self.failed.is_some()
    }

    /// Seconds since the last successful read (`None`: never read).
    pub fn age(&self, clock: i64) -> Option<u64> {
        self.read_at
            .map(|t| u64::try_from(clock.saturating_sub(t)).unwrap_or(0))
    }

    /// The period of a watch at `base`: doubled for each failed read in a
    /// row, up to eight times, so a failing service is not hammered. The
    /// one backoff rule of every shown value.
    pub fn backoff(&self, base: Duration) -> Duration {
        base.saturating_mul(1 << self.failures.min(MAX_DOUBLINGS))
    }

    /// A read failed at `clock` (unix seconds), said as `why`: like
    /// [`Freshness::fail`], and the retry countdown starts now.
    pub fn fail_at(&mut self, clock: i64, why: String, error: &ApiError) {
        self.fail(why, error);
        self.failed_at = Some(clock);
    }

    /// Whether a poll at `base` reads these values again (`None`: none
    /// does). The pane says so where it decides its subscriptions, and
    /// schedules [`Freshness::next_poll`].
    pub fn schedule(&mut self, base: Option<Duration>) {
        self.poll = base;
    }

    /// The period of the poll to schedule now: the base period backed off
    /// after failures; `None` when no poll is wanted, or when reading again
    /// cannot help (a refused key fails the same way every time).
    pub fn next_poll(&self) -> Option<Duration> {
        let refused = self.error.as_ref().is_some_and(ApiError::is_unauthorized);
        self.poll.filter(|_| !refused).map(|b| self.backoff(b))
    }

    /// What the values may say of themselves at `clock` (see [`Shown`]).
    pub fn shown(&self, clock: i64) -> Shown {
        match (self.next_poll(), self.is_stale()) {
            (Some(_), false) => Shown::Live,
            (Some(every), true) => {
                let every = every.as_secs().max(1);
                let since = self
                    .failed_at
                    .map_or(0, |t| u64::try_from(clock.saturating_sub(t)).unwrap_or(0));
                if since >= every {
                    Shown::Rereading
                } else {
                    Shown::Retrying {
                        in_secs: every - since,
                    }
                }
            }
            (None, false) if self.read_at.is_some() => Shown::AsOf {
                age: self.age(clock).unwrap_or(0),
            },
            (None, _) => Shown::Stale {
                age: self.age(clock),
                refused: self.error.as_ref().is_some_and(ApiError::is_unauthorized),
            },
        }
    }
}

/// The one wording of a shown value's freshness (see [`Shown`]): `live`,
/// `retrying in 8 s`, `as of 2m ago` (read, not polled), or `stale · as of
/// 2m ago · r retries` (the Refresh key as the keymap binds it; how to fix
/// a refused key instead).
pub(crate) fn shown(m: &Model, f: &Freshness) -> String {
    match state(m, f) {
        Shown::Offline { age } => format!(
            "offline · {}",
            age.map_or_else(|| "never read".to_owned(), |a| format!("as of {}", ago(a)))
        ),
        Shown::Live => "live".to_owned(),
        Shown::Retrying { in_secs } => {
            format!("retrying in {}", human_wait(Duration::from_secs(in_secs)))
        }
        Shown::Rereading => "retrying…".to_owned(),
        Shown::AsOf { age } => format!("as of {}", ago(age)),
        Shown::Stale { age, refused } => {
            let age = age.map_or_else(|| "never read".to_owned(), |a| format!("as of {}", ago(a)));
            let next = if refused {
                "key refused: see `outpost check`".to_owned()
            } else {
                format!("{} retries", m.keymap.key_label(Action::Refresh))
            };
            format!("stale · {age} · {next}")
        }
    }
}

/// What a shown value may say of itself in this model: as
/// [`Freshness::shown`], except that nothing is live while the service
/// cannot be reached (the poll's last read may have succeeded before the
/// connection went).
pub(crate) fn state(m: &Model, f: &Freshness) -> Shown {
    match f.shown(m.clock) {
        Shown::Live if m.net.offline_since().is_some() => Shown::Offline {
            age: f.age(m.clock),
        },
        other => other,
    }
}

/// What comes after a failed read, said the same way in every notice: how to fix
/// a refused key, `retrying` while a poller reads again (`polled`), the
/// Refresh key when a retry can help, else nothing.
pub(crate) fn next_step(keymap: &Keymap, error: &ApiError, polled: bool) -> Option<String> {
    if error.is_unauthorized() {
        Some("key refused: see `outpost check`".to_owned())
    } else if polled {
        Some("retrying".to_owned())
    } else if error.retryable() {
        Some(format!("{} retries", keymap.key_label(Action::Refresh)))
    } else {
        None
    }
}

/// The one age text of the code base: `just now` under 45 s, else
/// `3m ago`, `2h ago`, `4d ago` (whole units, rounded down).
pub(crate) fn ago(secs: u64) -> String {
    if secs < 45 {
        "just now".to_owned()
    } else {
        format!("{} ago", age_text(secs))
    }
}

/// [`ago`] of a value read at `as_of` (unix seconds), at `clock`.
pub(crate) fn ago_since(as_of: i64, clock: i64) -> String {
    ago(u64::try_from(clock.saturating_sub(as_of)).unwrap_or(0))
}

/// An age in one unit, for a narrow column: `12s`, `3m`, `2h`, `4d` (the
/// units of [`ago`]).
pub(crate) fn age_text(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs}s"),
        60..=3599 => format!("{}m", secs / 60),
        3600..=86_399 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_keeps_the_read_time_and_slows_the_watch() {
        let mut f = Freshness::default();
        f.ok(1000);
        let boom = ApiError::Config("boom".into());
        f.fail("internal_error: boom".into(), &boom);
        assert!(f.is_stale());
        assert_eq!(f.failed_code(), Some("internal_error"));
        assert_eq!(f.age(1180), Some(180));
        let base = Duration::from_secs(2);
        assert_eq!(f.backoff(base), Duration::from_secs(4));
        for _ in 0..10 {
            f.fail("again".into(), &boom);
        }
        assert_eq!(f.backoff(base), Duration::from_secs(16));
        f.ok(1200);
        assert!(!f.is_stale());
        assert_eq!(f.backoff(base), base);
        assert_eq!(age_text(180), "3m");
        assert_eq!(age_text(7300), "2h");
    }

    fn timeout() -> ApiError {
        ApiError::Timeout {
            method: "GET".into(),
            after: Duration::from_secs(3),
            may_have_reached: false,
        }
    }

    /// The three truthful forms, from one holder.
    #[test]
    fn a_value_says_live_retrying_or_stale_and_nothing_else() {
        let mut m = crate::app::fixtures::model(100, 30);
        m.clock = 1000;
        let mut f = Freshness::default();
        f.ok(1000);
        f.schedule(Some(Duration::from_secs(4)));
        assert_eq!(shown(&m, &f), "live");
        assert_eq!(f.next_poll(), Some(Duration::from_secs(4)));
        // A failure: the poll really reads again, later (the one backoff rule).
        f.fail_at(1000, "timeout: slow".into(), &timeout());
        assert_eq!(f.next_poll(), Some(Duration::from_secs(8)));
        assert_eq!(shown(&m, &f), "retrying in 8 s");
        m.clock = 1005;
        assert_eq!(shown(&m, &f), "retrying in 3 s", "it counts down");
        // At zero the retry is in flight: said so for as long as it takes,
        // never a countdown stuck at 1 s.
        for clock in [1008, 1009, 1024] {
            m.clock = clock;
            assert_eq!(shown(&m, &f), "retrying…", "at {clock}");
        }
        // Its answer, a failure again, starts the next countdown.
        f.fail_at(1024, "timeout: slow".into(), &timeout());
        assert_eq!(shown(&m, &f), "retrying in 16 s");
        // Nothing scheduled: stale with its age and the Refresh key.
        f.schedule(None);
        m.clock = 1000 + 150;
        assert_eq!(f.next_poll(), None);
        assert_eq!(shown(&m, &f), "stale · as of 2m ago · r retries");
        // Read once, nothing polls it: it says its age, never "live" — and
        // not "stale" either: nothing failed, nothing promised a re-read.
        let mut once = Freshness::default();
        once.ok(1000);
        assert_eq!(shown(&m, &once), "as of 2m ago");
        once.ok(1150);
        assert_eq!(
            shown(&m, &once),
            "as of just now",
            "not stale after a good read"
        );
        // A refused key fails the same way every time: no poll, the fix.
        let refused = ApiError::Service(Box::new(crate::api::ServiceError::from_body(
            401, b"", None,
        )));
        let mut k = Freshness::default();
        k.schedule(Some(Duration::from_secs(4)));
        k.fail_at(1000, "unauthorized".into(), &refused);
        assert_eq!(k.next_poll(), None, "no poll can help");
        assert_eq!(
            shown(&m, &k),
            "stale · never read · key refused: see `outpost check`"
        );
        // Offline, a polled value is not live, whatever its last read said.
        f.schedule(Some(Duration::from_secs(4)));
        f.ok(1150);
        m.net.conn = crate::api::ConnState::Offline {
            since: std::time::SystemTime::UNIX_EPOCH,
        };
        assert_eq!(shown(&m, &f), "offline · as of just now");
        m.net.conn = crate::api::ConnState::Online;
        // A success starts over: live again, the period back to its base.
        f.schedule(Some(Duration::from_secs(4)));
        f.ok(1150);
        assert_eq!(shown(&m, &f), "live");
        assert_eq!(f.next_poll(), Some(Duration::from_secs(4)));
    }

    /// A value kept after a failed read and a list from the cache say the
    /// same age the same way (once two rules: `1m` and `2m` for 90 s).
    #[test]
    fn every_age_is_worded_by_one_rule() {
        let mut f = Freshness::default();
        f.ok(1000);
        f.fail_at(1000, "timeout: slow".into(), &timeout());
        let mut m = crate::app::fixtures::model(100, 30);
        for (secs, said) in [
            (10, "just now"),
            (90, "1m ago"),
            (150, "2m ago"),
            (7300, "2h ago"),
            (200_000, "2d ago"),
        ] {
            m.clock = 1000 + secs;
            assert_eq!(ago(u64::try_from(secs).unwrap_or(0)), said);
            assert_eq!(
                crate::app::cache::stale_text(1000, m.clock),
                format!("stale · as of {said}")
            );
            assert_eq!(shown(&m, &f), format!("stale · as of {said} · r retries"));
        }
    }

    /// Every freshness holder of every pane, named.
    fn holders(m: &mut Model) -> Vec<(&'static str, &mut Freshness)> {
        let p = &mut m.panes;
        let mut all: Vec<(&'static str, &mut Freshness)> = Vec::new();
        if let Some(o) = p.leads.open.as_mut() {
            all.push(("leads: the open search", &mut o.fresh));
        }
        for row in &mut p.leads.list.rows {
            all.push(("leads: a searches row", &mut row.fresh));
        }
        all.push(("campaigns: the list", &mut p.campaigns.list.fresh));
        if let Some(o) = p.campaigns.open.as_mut() {
            all.push(("campaigns: the open campaign", &mut o.fresh));
        }
        all.push(("inbox: the list", &mut p.inbox.list.fresh));
        if let Some(o) = p.inbox.open.as_mut() {
            all.push(("inbox: the open thread", &mut o.fresh));
            all.push(("inbox: its messages", &mut o.messages_fresh));
        }
        all.push(("domains: the domains", &mut p.domains.domains.fresh));
        all.push(("domains: the senders", &mut p.domains.senders.fresh));
        all.push(("domains: a schedule", &mut p.domains.schedule.fresh));
        for w in p.domains.watches.values_mut() {
            all.push(("domains: a watched domain", &mut w.fresh));
        }
        all.push(("profile: the stored profile", &mut p.profile.fresh));
        all
    }

    /// Whatever a message changed, every pane's holders are told afterwards
    /// whether a poll reads them again: a holder left saying a poll is
    /// scheduled that nothing scheduled (here a period no rule gives) would
    /// draw "live" or "retrying" falsely. Checked for every pane shown,
    /// after a message no pane handles.
    #[test]
    fn every_holder_is_re_synced_after_every_message() {
        use crate::app::{Msg, Pane, update};
        let bogus = Duration::from_secs(999);
        for shown in Pane::ALL {
            let mut m = crate::app::fixtures::model(100, 30);
            m.pane = *shown;
            m.panes.leads.open = Some(crate::app::leads::Opened::default());
            m.panes.leads.list.rows.push(Default::default());
            m.panes.campaigns.open = Some(crate::app::campaigns::Opened::default());
            m.panes.inbox.open = Some(crate::app::inbox::OpenThread::new("t-1", None));
            m.panes.inbox.view = crate::app::inbox::View::Thread;
            m.panes.domains.watches.insert(
                "d-1".into(),
                crate::app::domains::Watch {
                    last_poll: m.now,
                    generation: 0,
                    fresh: Freshness::default(),
                },
            );
            for (_, f) in holders(&mut m) {
                f.schedule(Some(bogus));
            }
            update(&mut m, Msg::Resumed);
            for (name, f) in holders(&mut m) {
                assert_ne!(f.poll, Some(bogus), "{name} (shown: {shown:?})");
            }
        }
    }
}
