//! Formatting of times, durations and counts for display. Pure: "now" is
//! passed in.

use std::time::Duration;

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Parses an RFC 3339 timestamp to unix seconds.
pub(crate) fn unix(ts: &str) -> Option<i64> {
    OffsetDateTime::parse(ts.trim(), &Rfc3339)
        .ok()
        .map(OffsetDateTime::unix_timestamp)
}

/// "just now", "5m ago", "3h ago", "2d ago", or the date when older; the raw
/// text (trimmed) when it does not parse; "—" when empty.
pub(crate) fn ago(ts: &str, now_unix: i64) -> String {
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
pub(crate) fn date(ts: &str) -> String {
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
pub(crate) fn duration(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_millis() >= 500 && d.as_secs() < 60);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// Milliseconds, for latency.
pub(crate) fn millis(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// `2,000`.
pub(crate) fn count(n: u64) -> String {
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

/// A size in bytes as people read it: `812 B`, `33 KB`, `7.6 MB`, `1.2 GB`
/// (powers of 1,024).
pub(crate) fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if v < 10.0 {
        format!("{v:.1} {}", UNITS[unit])
    } else {
        format!("{v:.0} {}", UNITS[unit])
    }
}

/// A count with its noun, singular or plural: `1 lead`, `2,000 leads`,
/// `0 leads`. The one plural helper: say `plural(n, "key", "keys")`, never
/// `"{n} key(s)"` or an `if n == 1` of your own.
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// A JSON number as people write it: whole numbers without a fraction
/// (`2009`, not `2009.0`, even when the service sent a float), others as
/// the shortest decimal that reads back the same.
pub(crate) fn number(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() => float(f),
        _ => n.to_string(),
    }
}

/// `v` with every whole number written as an integer (see
/// [`number`]), for showing it as JSON.
fn whole_numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) => {
            let text = number(n);
            text.parse::<i64>()
                .map(Value::from)
                .or_else(|_| text.parse::<u64>().map(Value::from))
                .unwrap_or_else(|_| v.clone())
        }
        Value::Array(items) => Value::Array(items.iter().map(whole_numbers).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, x)| (k.clone(), whole_numbers(x)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A value of service JSON as compact JSON on one line (strings quoted),
/// whole numbers as integers (`{"founded":2009}`, where the wire said
/// `2009.0`).
pub(crate) fn json_text(v: &Value) -> String {
    whole_numbers(v).to_string()
}

/// A value of service JSON as people read it on one line: a string as it
/// is, a number as [`number`] writes it, anything else as
/// [`json_text`].
pub(crate) fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => number(n),
        other => json_text(other),
    }
}

/// A float as [`number`] shows it: `2009` for 2009.0, `0.25` for 0.25.
pub(crate) fn float(f: f64) -> String {
    // Below 1e15 every whole float is exact, and `{:.0}` prints its digits
    // without an exponent; `-0` reads as `0`.
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 {
        if f == 0.0 {
            "0".into()
        } else {
            format!("{f:.0}")
        }
    } else {
        // serde_json's shortest form: `0.25`, `1e300` (not 301 digits).
        serde_json::Number::from_f64(f).map_or_else(|| f.to_string(), |n| n.to_string())
    }
}

/// `HH:MM` of a unix time in the zone `offset_secs` east of UTC (the local
/// offset the runtime measured at start), for "offline since 14:02".
pub(crate) fn clock_time(unix: i64, offset_secs: i32) -> String {
    let local = unix.saturating_add(i64::from(offset_secs));
    let of_day = local.rem_euclid(86_400);
    format!("{:02}:{:02}", of_day / 3600, of_day % 3600 / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1024), "1.0 KB");
        assert_eq!(bytes(33_369), "33 KB");
        assert_eq!(bytes(7_969_177), "7.6 MB");
        assert_eq!(bytes(3 * 1024 * 1024 * 1024), "3.0 GB");
    }

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

    #[test]
    fn plurals_and_whole_numbers() {
        assert_eq!(plural(1, "lead", "leads"), "1 lead");
        assert_eq!(plural(0, "lead", "leads"), "0 leads");
        assert_eq!(plural(2000, "lead", "leads"), "2,000 leads");
        let n = |v: serde_json::Value| match v {
            serde_json::Value::Number(n) => number(&n),
            _ => String::new(),
        };
        assert_eq!(n(serde_json::json!(2009.0)), "2009");
        assert_eq!(n(serde_json::json!(2009)), "2009");
        assert_eq!(n(serde_json::json!(-3.0)), "-3");
        assert_eq!(n(serde_json::json!(-0.0)), "0");
        assert_eq!(n(serde_json::json!(0.25)), "0.25");
        assert_eq!(n(serde_json::json!(1e300)), "1e+300", "not 301 digits");
        assert_eq!(n(serde_json::json!(u64::MAX)), u64::MAX.to_string());
    }

    #[test]
    fn clock_times_in_a_zone() {
        let t = unix("2026-11-22T14:02:59Z").unwrap();
        assert_eq!(clock_time(t, 0), "14:02");
        assert_eq!(clock_time(t, 3600), "15:02");
        assert_eq!(clock_time(t, -15 * 3600), "23:02", "the day before");
    }
}
