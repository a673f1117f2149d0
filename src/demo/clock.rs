//! Simulated time: `sim_now = epoch + real_elapsed * time_scale`, read on
//! every request. The simulation is lazy: a resource is brought up to
//! `sim_now` when it is read, so there is no background task to race with.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use time::OffsetDateTime;
use time::macros::format_description;

/// Simulated milliseconds since the Unix epoch.
pub(crate) type SimMs = i64;

/// One simulated minute.
pub(crate) const MINUTE: SimMs = 60_000;
/// One simulated hour.
pub(crate) const HOUR: SimMs = 60 * MINUTE;
/// One simulated day.
pub(crate) const DAY: SimMs = 24 * HOUR;

/// The simulated clock of one service.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    started: Instant,
    epoch: SimMs,
    scale: f64,
}

impl Clock {
    /// A clock that reads `epoch` now and runs `scale` times faster than real
    /// time. A non-finite or negative scale is treated as 1.
    pub(crate) fn new(epoch: SimMs, scale: f64) -> Clock {
        let scale = if scale.is_finite() && scale >= 0.0 {
            scale
        } else {
            1.0
        };
        Clock {
            started: Instant::now(),
            epoch,
            scale,
        }
    }

    /// Simulated now.
    pub(crate) fn now(&self) -> SimMs {
        let real_ms = self.started.elapsed().as_secs_f64() * 1000.0;
        self.epoch
            .saturating_add(crate::num::f64_to_i64(real_ms * self.scale))
    }
}

/// Wall-clock now in Unix milliseconds.
pub(crate) fn wall_epoch_ms() -> SimMs {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Wall-clock now, rounded down to the minute: the default epoch, so seeded
/// timestamps read naturally ("3 hours ago") while their spacing stays fixed.
pub(crate) fn wall_epoch() -> SimMs {
    let ms = wall_epoch_ms();
    ms - ms.rem_euclid(MINUTE)
}

fn datetime(ms: SimMs) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// ISO 8601 date-time with milliseconds, UTC: `2025-06-02T09:00:00.000Z`.
pub(crate) fn iso(ms: SimMs) -> String {
    let f =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    datetime(ms).format(&f).unwrap_or_default()
}

/// The UTC calendar date: `2025-06-02`.
pub(crate) fn date(ms: SimMs) -> String {
    let f = format_description!("[year]-[month]-[day]");
    datetime(ms).format(&f).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_iso() {
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(DAY + 1_234), "1970-01-02T00:00:01.234Z");
        assert_eq!(date(DAY), "1970-01-02");
    }

    #[test]
    fn the_clock_runs_scaled() {
        let c = Clock::new(1_000, 0.0);
        assert_eq!(c.now(), 1_000);
        let c = Clock::new(0, f64::NAN);
        assert!(c.now() >= 0);
    }
}
