//! The service's clock, as the `Date` header of its answers tells it: how
//! far it is from this machine's. Ages ("3m ago") are measured against the
//! clock that stamped the times shown, so a machine whose clock is off (or
//! a demo service whose simulated clock runs fast) never shows an event as
//! in the future.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Offsets this small are the same clock: `Date` has whole seconds, and an
/// answer takes time to arrive.
const SAME_CLOCK_SECS: i64 = 2;

/// The offset of the service's clock from this machine's, in seconds
/// (positive: the service is ahead), from the last answer that carried a
/// readable `Date`; 0 until one did.
#[derive(Debug, Default)]
pub(crate) struct ServiceClock {
    offset: AtomicI64,
}

impl ServiceClock {
    /// Takes the `Date` header of an answer received at `local_now`; a
    /// header that does not parse changes nothing.
    pub(crate) fn observe(&self, date: &str, local_now: SystemTime) {
        let Some(offset) = offset_of(date, local_now) else {
            return;
        };
        self.offset.store(offset, Ordering::Relaxed);
    }

    /// The offset in seconds to add to this machine's clock.
    pub(crate) fn offset(&self) -> i64 {
        self.offset.load(Ordering::Relaxed)
    }
}

/// The service's clock minus this machine's, in whole seconds; 0 when they
/// agree within [`SAME_CLOCK_SECS`].
fn offset_of(date: &str, local_now: SystemTime) -> Option<i64> {
    let theirs = secs(httpdate::parse_http_date(date.trim()).ok()?)?;
    let ours = secs(local_now)?;
    let offset = theirs.checked_sub(ours)?;
    Some(if offset.abs() <= SAME_CLOCK_SECS {
        0
    } else {
        offset
    })
}

fn secs(t: SystemTime) -> Option<i64> {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_secs()).ok(),
        Err(e) => i64::try_from(e.duration().as_secs()).ok().map(|s| -s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn a_service_ahead_or_behind_is_measured_in_seconds() {
        let now = at(1_795_348_800); // 2026-11-22T12:00:00Z
        assert_eq!(
            offset_of("Sun, 22 Nov 2026 12:06:00 GMT", now),
            Some(360),
            "six minutes ahead"
        );
        assert_eq!(offset_of("Sun, 22 Nov 2026 11:00:00 GMT", now), Some(-3600));
    }

    #[test]
    fn a_second_or_two_apart_is_the_same_clock() {
        let now = at(1_795_348_800);
        assert_eq!(offset_of("Sun, 22 Nov 2026 12:00:02 GMT", now), Some(0));
        assert_eq!(offset_of("Sun, 22 Nov 2026 11:59:58 GMT", now), Some(0));
        assert_eq!(offset_of("Sun, 22 Nov 2026 12:00:03 GMT", now), Some(3));
    }

    #[test]
    fn an_unreadable_date_keeps_what_was_known() {
        let clock = ServiceClock::default();
        clock.observe("Sun, 22 Nov 2026 12:10:00 GMT", at(1_795_348_800));
        assert_eq!(clock.offset(), 600);
        clock.observe("yesterday-ish", at(1_795_348_800));
        assert_eq!(clock.offset(), 600);
    }
}
