//! `outpost journal [--since DURATION] [--json]`: the write journal of the
//! profile in use, newest first — what the dashboard and the CLI sent, to
//! what, and how it came out (the file's format: README, "The write
//! journal"). It reads local files only: no key, no service.
//!
//! `--json`:
//!
//! ```json
//! {"journal": "PATH", "skipped": 0,
//!  "entries": [{"id", "at", "profile", "source", "operation",
//!               "target": {"kind", "id", "name"}, "summary", "outcome",
//!               "status"?, "code"?, "message"?, "settle"?,
//!               "verdict": null | {"entry", "at", "profile", "source",
//!                                  "verdict", "text"}}]}
//! ```

use std::io::Write;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::exit::{Exit, Failure};
use super::output::{Col, Table, stdout_failure, write_json};
use crate::config::{Config, Paths};
use crate::journal::{self, Record};
use crate::text::format;

/// Flags of `outpost journal`.
#[derive(Debug, Clone, Args)]
pub struct JournalArgs {
    /// Only the writes of the last DURATION: a number and a unit, s, m, h,
    /// d or w, or several (`90s`, `15m`, `1h30m`, `7d`).
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `journal --json`.
#[derive(Debug, Serialize)]
struct JournalJson<'a> {
    journal: String,
    skipped: usize,
    entries: Vec<&'a Record>,
}

/// Reads `--since`: `90s`, `15m`, `2h`, `7d`, `1w`, or several in a row
/// (`1h30m`).
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || {
        format!("--since {text}: expected a number and a unit (s, m, h, d or w), e.g. 15m, 2h, 7d")
    };
    let mut secs: u64 = 0;
    let mut digits = String::new();
    let t = text.trim();
    if t.is_empty() {
        return Err(bad());
    }
    for c in t.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit: u64 = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 7 * 86_400,
            _ => return Err(bad()),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        digits.clear();
        secs = n
            .checked_mul(unit)
            .and_then(|s| secs.checked_add(s))
            .ok_or_else(bad)?;
    }
    if !digits.is_empty() {
        return Err(bad());
    }
    Ok(Duration::from_secs(secs))
}

/// `2026-05-01 10:00:03` of a journal time (UTC).
fn when(at: &str) -> String {
    at.get(..19)
        .map_or_else(|| at.to_owned(), |s| s.replace('T', " "))
}

/// `outpost journal`.
pub(crate) fn journal(
    paths: &Paths,
    cfg: &Config,
    a: &JournalArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let since = a
        .since
        .as_deref()
        .map(parse_duration)
        .transpose()
        .map_err(Failure::usage)?;
    let path = journal::path(paths, cfg.profile_name()).ok_or_else(|| {
        Failure::usage("no data directory: set OUTPOST_DATA_DIR (the journal is kept there)")
    })?;
    let read = journal::read(&path).map_err(|e| {
        Failure::new(
            Exit::Failed,
            format!("cannot read the journal {}: {e}", path.display()),
        )
    })?;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let from = since.map(|d| now.saturating_sub(i64::try_from(d.as_secs()).unwrap_or(i64::MAX)));
    let shown: Vec<&Record> = read
        .records
        .iter()
        .filter(|r| from.is_none_or(|from| format::unix(&r.write.at).is_some_and(|t| t >= from)))
        .collect();
    if read.skipped > 0 {
        crate::errln!(
            "outpost: note: {} of the journal could not be read (cut or of a newer format)",
            format::plural(read.skipped as u64, "line", "lines")
        );
    }
    let written = if a.json {
        write_json(
            out,
            &JournalJson {
                journal: path.display().to_string(),
                skipped: read.skipped,
                entries: shown,
            },
        )
    } else {
        let mut t = Table::new(&[
            Col::left("WHEN (UTC)", 19),
            Col::left("FROM", 9),
            Col::left("OPERATION", 22),
            Col::left("TARGET", 32),
            Col::left("OUTCOME", 60),
            Col::left("SUMMARY", 80),
        ]);
        for r in &shown {
            let w = &r.write;
            t.row(&[
                when(&w.at),
                w.source.as_str().to_owned(),
                w.operation.clone(),
                w.target.text(),
                r.outcome_text(),
                w.summary.clone(),
            ]);
        }
        if t.is_empty() {
            writeln!(out, "no writes recorded")
        } else {
            t.write(out)
        }
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("15m"), Ok(Duration::from_secs(900)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(604_800)));
        assert_eq!(parse_duration("1w"), Ok(Duration::from_secs(604_800)));
        for bad in ["", "15", "m", "1y", "-1h", "1.5h", "99999999999999999999w"] {
            let e = parse_duration(bad).unwrap_err();
            assert!(e.contains("expected a number and a unit"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_time_reads_to_the_second() {
        assert_eq!(when("2026-05-01T10:00:03.120Z"), "2026-05-01 10:00:03");
        assert_eq!(when("?"), "?");
    }
}
