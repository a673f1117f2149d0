//! One time format per column: every time in a column is shown relative
//! ("5m ago") when all of those on screen can be, else every one as a date
//! (with the year only when they are not all this year's).

use super::format;

/// How a column shows its times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeColumn {
    /// "just now", "5m ago", "3h ago", "2d ago".
    Ago,
    /// `MM-DD HH:MM`, or `YYYY-MM-DD HH:MM` with `year`.
    Date {
        /// Show the year.
        year: bool,
    },
}

/// Seconds within which a time is shown relative (as `format::ago` does).
const AGO_SPAN: std::ops::Range<i64> = -59..2_592_000;

fn year_of(unix: i64) -> Option<i32> {
    time::OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .map(time::OffsetDateTime::year)
}

impl TimeColumn {
    /// The format for a column showing `values` (the times on screen).
    pub(crate) fn of<'a>(values: impl IntoIterator<Item = &'a str>, clock: i64) -> TimeColumn {
        let mut ago = true;
        let mut other_year = false;
        for t in values.into_iter().filter_map(format::unix) {
            ago &= AGO_SPAN.contains(&clock.saturating_sub(t));
            other_year |= year_of(t) != year_of(clock);
        }
        if ago {
            TimeColumn::Ago
        } else {
            TimeColumn::Date { year: other_year }
        }
    }

    /// One time as the column shows it (text that is not a time is shown
    /// as sent, made inert; an empty one as "—").
    pub(crate) fn show(self, ts: &str, clock: i64) -> String {
        match self {
            TimeColumn::Ago => format::ago(ts, clock),
            TimeColumn::Date { year } => {
                let full = format::date(ts);
                let parsed = format::unix(ts).is_some();
                match full.get(5..) {
                    Some(short) if parsed && !year => short.to_owned(),
                    _ => full,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_is_all_relative_or_all_dates() {
        let now = format::unix("2026-11-22T12:00:00Z").unwrap_or_default();
        let recent = ["2026-11-22T11:55:00Z", "2026-11-21T12:00:00Z"];
        let c = TimeColumn::of(recent, now);
        assert_eq!(c, TimeColumn::Ago);
        assert_eq!(c.show(recent[0], now), "5m ago");
        let mixed = ["2026-11-22T11:55:00Z", "2026-09-01T08:00:00Z"];
        let c = TimeColumn::of(mixed, now);
        assert_eq!(c, TimeColumn::Date { year: false });
        assert_eq!(c.show(mixed[0], now), "11-22 11:55");
        assert_eq!(c.show(mixed[1], now), "09-01 08:00");
        let old = ["2025-12-31T23:00:00Z", "2026-11-22T11:00:00Z"];
        let c = TimeColumn::of(old, now);
        assert_eq!(c.show(old[0], now), "2025-12-31 23:00");
        // Ahead of the local clock (a demo's simulated time): dates too.
        let ahead = ["2026-11-23T12:00:00Z"];
        assert_eq!(TimeColumn::of(ahead, now), TimeColumn::Date { year: false });
        assert_eq!(TimeColumn::Ago.show("", now), "—");
    }
}
