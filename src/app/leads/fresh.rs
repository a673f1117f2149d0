//! How current the values on screen are. A failed refresh never erases
//! what was read before: the values stay, marked stale with their age, and
//! the next poll tries again (more slowly after each failure in a row).

use std::time::Duration;

use crate::api::ApiError;

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
}
