//! How current the values on screen are. A failed refresh never erases
//! what was read before: the values stay, marked stale with their age, and
//! the next poll tries again (more slowly after each failure in a row).

use std::time::Duration;

use crate::api::ApiError;
use crate::app::Model;
use crate::app::keymap::Action;

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
    /// row, up to eight times, so a failing service is not hammered.
    pub fn backoff(&self, base: Duration) -> Duration {
        base.saturating_mul(1 << self.failures.min(MAX_DOUBLINGS))
    }
}

/// What values kept after a failed read say of themselves, the same in
/// every pane: `⚠ as of 3m ago (timeout) · retrying` — their age, why the
/// last read failed, and what happens next: the poller reads again
/// (`polled`), the Refresh key retries, or (a refused key) how to fix it.
pub fn stale_note(m: &Model, read_at: Option<i64>, error: &ApiError, polled: bool) -> String {
    let age = read_at.map_or_else(
        || "?".to_owned(),
        |t| age_text(u64::try_from(m.clock.saturating_sub(t)).unwrap_or(0)),
    );
    let next = next_step(m, error, polled)
        .map(|n| format!(" · {n}"))
        .unwrap_or_default();
    format!("⚠ as of {age} ago ({}){next}", error.code())
}

/// What comes after a failed read, said the same way everywhere: how to fix
/// a refused key, `retrying` while a poller reads again (`polled`), the
/// Refresh key when a retry can help, else nothing.
pub fn next_step(m: &Model, error: &ApiError, polled: bool) -> Option<String> {
    if error.is_unauthorized() {
        Some("key refused: see `outpost check`".to_owned())
    } else if polled {
        Some("retrying".to_owned())
    } else if error.retryable() {
        Some(format!("{} retries", m.keymap.key_label(Action::Refresh)))
    } else {
        None
    }
}

/// An age in one unit: `12s`, `3m`, `2h`, `4d`.
pub fn age_text(secs: u64) -> String {
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

    #[test]
    fn a_stale_note_says_its_age_why_and_what_comes_next() {
        let mut m = crate::app::fixtures::model(100, 30);
        m.clock = 1180;
        let slow = ApiError::Timeout {
            method: "GET".into(),
            after: Duration::from_secs(3),
            may_have_reached: false,
        };
        assert_eq!(
            stale_note(&m, Some(1000), &slow, true),
            "⚠ as of 3m ago (timeout) · retrying"
        );
        assert_eq!(
            stale_note(&m, Some(1000), &slow, false),
            "⚠ as of 3m ago (timeout) · r retries"
        );
        let refused = ApiError::Service(Box::new(crate::api::ServiceError::from_body(
            401, b"", None,
        )));
        let note = stale_note(&m, Some(1000), &refused, true);
        assert!(
            note.ends_with("(unauthorized) · key refused: see `outpost check`"),
            "{note}"
        );
    }
}
