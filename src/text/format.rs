//! Formatting of times, durations and counts for display. Pure: "now" is
//! passed in.

use std::time::Duration;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Parses an RFC 3339 timestamp to unix seconds.
pub fn unix(ts: &str) -> Option<i64> {
    OffsetDateTime::parse(ts.trim(), &Rfc3339)
        .ok()
        .map(OffsetDateTime::unix_timestamp)
}

/// "just now", "5m ago", "3h ago", "2d ago", or the date when older; the raw
/// text (trimmed) when it does not parse; "—" when empty.
pub fn ago(ts: &str, now_unix: i64) -> String {
    if ts.trim().is_empty() {
        return "—".into();
    }
    let Some(t) = unix(ts) else {
        return shown_raw(ts);
    };
    let d = now_unix - t;
    match d {
        i64::MIN..=-60 => date(ts),
        -59..=44 => "just now".into(),
        45..=3599 => format!("{}m ago", (d + 30) / 60),
        3600..=86_399 => format!("{}h ago", d / 3600),
        86_400..=2_591_999 => format!("{}d ago", d / 86_400),
        _ => date(ts),
    }
}

/// `YYYY-MM-DD HH:MM` (UTC) of a timestamp, or the raw text.
pub fn date(ts: &str) -> String {
    match OffsetDateTime::parse(ts.trim(), &Rfc3339) {
        Ok(t) => {
            let t = t.to_offset(time::UtcOffset::UTC);
            format!(
                "{:04}-{:02}-{:02} {:02}:{:02}",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute()
            )
        }
        Err(_) if ts.trim().is_empty() => "—".into(),
        Err(_) => shown_raw(ts),
    }
}

/// A timestamp that does not parse, shown as the service sent it: made inert
/// and cut to 20 characters.
fn shown_raw(ts: &str) -> String {
    super::sanitize::inline(ts.trim())
        .chars()
        .take(20)
        .collect()
}

/// "12s", "2m 05s", "1h 02m".
pub fn duration(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_millis() >= 500 && d.as_secs() < 60);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// Milliseconds, for latency.
pub fn millis(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// `2,000`.
pub fn count(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let now = unix("2026-11-22T12:00:00Z").unwrap();
        assert_eq!(ago("2026-11-22T11:59:50Z", now), "just now");
        assert_eq!(ago("2026-11-22T11:55:00Z", now), "5m ago");
        assert_eq!(ago("2026-11-22T09:00:00+00:00", now), "3h ago");
        assert_eq!(ago("2026-11-20T12:00:00Z", now), "2d ago");
        assert_eq!(ago("2025-01-01T00:00:00Z", now), "2025-01-01 00:00");
        assert_eq!(ago("", now), "—");
        assert_eq!(ago("yesterday", now), "yesterday");
        assert_eq!(ago("\x1b[2Jsoon", now), "soon");
        assert_eq!(date("\x1b]0;x\x07later"), "later");
        assert_eq!(duration(Duration::from_secs(125)), "2m 05s");
        assert_eq!(duration(Duration::from_millis(11_600)), "12s");
        assert_eq!(count(2000), "2,000");
        assert_eq!(count(100_000), "100,000");
        assert_eq!(count(7), "7");
    }
}
