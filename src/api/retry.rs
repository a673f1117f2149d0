//! The retry policy, as pure functions: what to do after a 429, a 502/503/504
//! or a failed connection, and how long to wait.
//!
//! The rules of the contract: on 429 wait `Retry-After` seconds when present,
//! otherwise the seconds the message names, otherwise back off exponentially
//! from 1 s. Jitter is added upward only, so a wait never drops below what the
//! service asked for.

use std::time::{Duration, SystemTime};

/// The longest wait taken from a server; anything longer is clamped, so an
/// absurd `Retry-After` cannot overflow an `Instant` or a `Duration`.
pub const MAX_WAIT: Duration = Duration::from_secs(24 * 60 * 60);

/// Bounds of retrying.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// First backoff step.
    pub base: Duration,
    /// Largest backoff step.
    pub cap: Duration,
    /// Longest wait slept inside one call; a longer one closes the shared
    /// gate and fails the call at once, so the UI can count down instead.
    pub max_sleep: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            base: Duration::from_secs(1),
            cap: Duration::from_secs(30),
            max_sleep: Duration::from_secs(120),
        }
    }
}

/// What happened on one attempt that may deserve another.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome<'a> {
    /// 429 with the wait the service named, if any.
    RateLimited {
        /// Parsed `Retry-After`.
        retry_after: Option<Duration>,
        /// The error message, which may name the seconds.
        message: &'a str,
    },
    /// 502, 503 or 504.
    Unavailable {
        /// Parsed `Retry-After`.
        retry_after: Option<Duration>,
    },
    /// The connection could not be made (nothing was sent).
    ConnectFailed,
}

/// What to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Wait this long, then try again.
    Retry(Duration),
    /// Stop; `wait` is how long the service asked for (for the gate).
    GiveUp {
        /// The wait that would have been needed.
        wait: Duration,
    },
}

/// `min(cap, base * 2^attempt) * (1 + jitter/4)`, with `jitter` in `0..=1`.
pub(crate) fn backoff(policy: &RetryPolicy, attempt: u32, jitter: f64) -> Duration {
    let step = policy
        .base
        .saturating_mul(2u32.saturating_pow(attempt.min(20)))
        .min(policy.cap);
    step.mul_f64(1.0 + jitter.clamp(0.0, 1.0) / 4.0)
}

/// Decides after attempt number `attempt` (0 for the first) had `outcome`.
/// Writes (`idempotent == false`) are retried only after a 429, which the
/// contract defines as "not processed".
pub(crate) fn decide(
    policy: &RetryPolicy,
    attempt: u32,
    idempotent: bool,
    outcome: &Outcome<'_>,
    jitter: f64,
) -> Decision {
    let last = attempt + 1 >= policy.max_attempts;
    match outcome {
        Outcome::RateLimited {
            retry_after,
            message,
        } => {
            let wait = retry_after
                .or_else(|| seconds_in_message(message))
                .unwrap_or_else(|| backoff(policy, attempt, jitter));
            if last || wait > policy.max_sleep {
                Decision::GiveUp { wait }
            } else {
                Decision::Retry(wait)
            }
        }
        Outcome::Unavailable { retry_after } => {
            let wait = retry_after.unwrap_or_else(|| backoff(policy, attempt, jitter));
            if last || !idempotent || wait > policy.max_sleep {
                Decision::GiveUp { wait }
            } else {
                Decision::Retry(wait)
            }
        }
        Outcome::ConnectFailed => {
            let wait = backoff(policy, attempt, jitter);
            if last || !idempotent {
                Decision::GiveUp { wait }
            } else {
                Decision::Retry(wait)
            }
        }
    }
}

/// Parses `Retry-After`: delta-seconds or an HTTP-date.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs).min(MAX_WAIT));
    }
    if let Ok(secs) = value.parse::<f64>()
        && secs >= 0.0
    {
        return Duration::try_from_secs_f64(secs.min(MAX_WAIT.as_secs_f64())).ok();
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(now)
            .unwrap_or(Duration::ZERO)
            .min(MAX_WAIT),
    )
}

/// Finds the retry delay a rate-limit message names ("Retry in 12 seconds",
/// "retry after 3s", "wait 2 sec").
pub(crate) fn seconds_in_message(message: &str) -> Option<Duration> {
    let lower = message.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            let number = &lower[start..i];
            let unit = lower[i..].trim_start();
            let scale = if unit.starts_with("ms") || unit.starts_with("milli") {
                0.001
            } else if unit.starts_with('s') {
                1.0
            } else {
                continue;
            };
            if let Ok(n) = number.parse::<f64>()
                && let Ok(wait) =
                    Duration::try_from_secs_f64((n * scale).min(MAX_WAIT.as_secs_f64()))
            {
                return Some(wait);
            }
        } else {
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn retry_after_wins_then_the_message_then_backoff() {
        let p = RetryPolicy::default();
        let rl = |ra, msg| Outcome::RateLimited {
            retry_after: ra,
            message: msg,
        };
        assert_eq!(
            decide(
                &p,
                0,
                false,
                &rl(Some(Duration::from_secs(3)), "Retry in 9 seconds."),
                0.0
            ),
            Decision::Retry(Duration::from_secs(3))
        );
        assert_eq!(
            decide(
                &p,
                0,
                false,
                &rl(None, "Rate limit exceeded. Retry in 9 seconds."),
                0.0
            ),
            Decision::Retry(Duration::from_secs(9))
        );
        assert_eq!(
            decide(&p, 2, false, &rl(None, "slow down"), 0.0),
            Decision::Retry(Duration::from_secs(4))
        );
        assert_eq!(
            decide(&p, 4, false, &rl(None, "slow down"), 0.0),
            Decision::GiveUp {
                wait: Duration::from_secs(16)
            }
        );
    }

    #[test]
    fn writes_are_not_retried_after_a_5xx_or_connect_failure() {
        let p = RetryPolicy::default();
        let un = Outcome::Unavailable { retry_after: None };
        assert!(matches!(
            decide(&p, 0, false, &un, 0.0),
            Decision::GiveUp { .. }
        ));
        assert!(matches!(decide(&p, 0, true, &un, 0.0), Decision::Retry(_)));
        assert!(matches!(
            decide(&p, 0, false, &Outcome::ConnectFailed, 0.0),
            Decision::GiveUp { .. }
        ));
    }

    #[test]
    fn long_waits_are_not_slept() {
        let p = RetryPolicy::default();
        let out = Outcome::RateLimited {
            retry_after: Some(Duration::from_secs(600)),
            message: "",
        };
        assert_eq!(
            decide(&p, 0, true, &out, 0.0),
            Decision::GiveUp {
                wait: Duration::from_secs(600)
            }
        );
    }

    #[test]
    fn retry_after_parses_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        assert_eq!(parse_retry_after("7", now), Some(Duration::from_secs(7)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(30));
        assert_eq!(
            parse_retry_after(&later, now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn absurd_waits_are_clamped_not_panicking() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        for v in [
            "18446744073709551615",
            "1e300",
            "inf",
            "NaN",
            "Fri, 31 Dec 9999 23:59:59 GMT",
        ] {
            let d = parse_retry_after(v, now);
            assert!(d.is_none_or(|d| d <= MAX_WAIT), "{v}: {d:?}");
        }
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(
            seconds_in_message("Retry in 99999999999999999999999 seconds."),
            Some(MAX_WAIT)
        );
    }

    #[test]
    fn seconds_are_found_in_messages() {
        assert_eq!(
            seconds_in_message("Retry in 12 seconds."),
            Some(Duration::from_secs(12))
        );
        assert_eq!(
            seconds_in_message("retry after 1.5s"),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            seconds_in_message("wait 250ms"),
            Some(Duration::from_millis(250))
        );
        assert_eq!(seconds_in_message("try 3 times"), None);
    }

    proptest! {
        #[test]
        fn backoff_never_below_one_second_nor_above_cap_plus_jitter(attempt in 0u32..64, jitter in 0.0f64..=1.0) {
            let p = RetryPolicy::default();
            let d = backoff(&p, attempt, jitter);
            prop_assert!(d >= Duration::from_secs(1));
            prop_assert!(d <= p.cap.mul_f64(1.25));
        }

        /// A whole call, attempt after attempt, as the client makes it:
        /// never more than 5 attempts (the policy's documented bound,
        /// written here, not read from the code), a write answered 502/503/504
        /// (it may have reached the service) or unreachable never sent twice,
        /// and a wait longer than 2 minutes never slept.
        #[test]
        fn a_call_makes_at_most_five_attempts_and_never_repeats_a_write(
            kind in 0u8..3,
            idempotent: bool,
            secs in proptest::option::of(0u64..200),
            jitter in 0.0f64..1.0,
        ) {
            let p = RetryPolicy::default();
            let retry_after = secs.map(Duration::from_secs);
            let out = match kind {
                0 => Outcome::RateLimited { retry_after, message: "" },
                1 => Outcome::Unavailable { retry_after },
                _ => Outcome::ConnectFailed,
            };
            let mut attempts = 1;
            while let Decision::Retry(wait) = decide(&p, attempts - 1, idempotent, &out, jitter) {
                prop_assert!(wait <= Duration::from_secs(120), "slept {wait:?}");
                attempts += 1;
                prop_assert!(attempts <= 5, "attempt {attempts}");
            }
            if !idempotent && kind != 0 {
                prop_assert_eq!(attempts, 1, "a write is sent once");
            }
            let short = secs.is_none_or(|s| s <= 30);
            if (idempotent || kind == 0) && short {
                prop_assert_eq!(attempts, 5, "a short wait is retried to the bound");
            }
        }
    }
}
