//! `outpost leads import <campaign> <file.csv> [--map COLUMN=FIELD]...`:
//! the Campaigns pane's import without the screen.
//!
//! The file is read with the pane's streaming reader
//! ([`crate::runtime::csv_import::read_chunk`]: one chunk of at most 1,000
//! rows in memory whatever the file size, line numbers as an editor shows
//! them) and mapped with the pane's rules ([`crate::logic::import`]:
//! columns guessed from their names, `--map` over the guesses, rows lacking
//! the channel's identity left out, repeats of an identity within the file
//! counted as duplicates). Each
//! chunk goes up in one call; a 400 naming rows leaves those rows out and
//! sends the rest again (nothing went in); any other failure stops the
//! import and says which lines went in. A chunk is never sent twice after
//! a lost answer: running the same import again is safe, as rows already
//! in the roster come back as duplicates.
//!
//! On a terminal, a progress bar runs on stderr. The report goes to stdout:
//! readable on a terminal, JSON otherwise (or with `--json`):
//!
//! ```json
//! {"campaign_id": "…", "file": "leads.csv",
//!  "mapping": [{"column": "Email", "field": "email"}],
//!  "rows": 0, "imported": 0,
//!  "duplicates": {"in_file": 0, "in_roster": 0},
//!  "left_out": {"count": 0, "rows": [{"line": 7, "reason": "no email"}]},
//!  "chunks": 0, "went_in": {"first_line": 2, "last_line": 7},
//!  "complete": true, "stopped": null}
//! ```
//!
//! `rows` counts the data rows read (blank lines skipped); `line` is the
//! file's line number (the header is line 1); `left_out.rows` lists the
//! first 1,000. `went_in` spans the lines of the chunks the service took
//! (their duplicates and left-out rows counted above), `null` when none
//! was. `stopped`, when the import stopped early, is `{"line",
//! "code", "message", "may_have_gone_in"}`: the first line of the chunk
//! that failed, the error's code and message, and whether that chunk may
//! have been taken although its answer was lost.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::exit::{Exit, Failure};
use super::output::{stdout_failure, write_json};
use crate::api::model::{AddLeadsResponse, CampaignStatus, Channel};
use crate::api::{ApiError, ApiRequest};
use crate::logic::import::{
    Batch, CHUNK, CHUNK_BYTES, Counts, CsvChunk, CsvPos, CsvRead, Target, check_mapping,
    custom_key, guess_all,
};
use crate::logic::write;
use crate::text::{format, sanitize};

/// Flags of `outpost leads import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// The draft campaign: its id, a unique id prefix (4 characters or
    /// more) or its exact name.
    pub campaign: String,
    /// The CSV file; its first line names the columns.
    pub file: PathBuf,
    /// Where a column goes, overriding the guess from its name: FIELD is
    /// email, network_url, first_name, last_name, name, company, position,
    /// headline, custom.KEY or skip.
    #[arg(long = "map", value_name = "COLUMN=FIELD")]
    pub map: Vec<String>,
    /// Print the JSON report even on a terminal.
    #[arg(long)]
    pub json: bool,
}

/// The mapping of a header: guessed, then `--map` over the guesses (a
/// guess that collides with an explicit choice goes to custom fields).
pub(crate) fn mapping(header: &[String], maps: &[String]) -> Result<Vec<Target>, String> {
    let mut mapping = guess_all(header);
    let mut explicit = vec![false; header.len()];
    for m in maps {
        let Some((column, field)) = m.split_once('=') else {
            return Err(format!("--map {m}: write COLUMN=FIELD"));
        };
        let column = column.trim();
        let Some(i) = header.iter().position(|h| h.eq_ignore_ascii_case(column)) else {
            return Err(format!(
                "--map {m}: the file has no column {column:?}; its columns: {}",
                header.join(", ")
            ));
        };
        let Some(t) = Target::parse_field(field) else {
            return Err(format!(
                "--map {m}: FIELD is one of email, network_url, first_name, last_name, name, company, position, headline, custom.KEY, skip"
            ));
        };
        mapping[i] = t;
        explicit[i] = true;
    }
    for i in 0..mapping.len() {
        let t = mapping[i].clone();
        if !explicit[i] || matches!(t, Target::Skip | Target::Custom(_)) {
            continue;
        }
        for j in 0..mapping.len() {
            if j != i && !explicit[j] && mapping[j] == t {
                mapping[j] = Target::Custom(custom_key(&header[j]));
            }
        }
    }
    Ok(mapping)
}

/// A mapped column in the report.
#[derive(Debug, Serialize)]
struct MapJson<'a> {
    column: &'a str,
    field: String,
}

/// A left-out row in the report.
#[derive(Debug, Serialize)]
struct LeftJson<'a> {
    line: u64,
    reason: &'a str,
}

/// `left_out` of the report.
#[derive(Debug, Serialize)]
struct LeftOutJson<'a> {
    count: u64,
    rows: Vec<LeftJson<'a>>,
}

/// `duplicates` of the report.
#[derive(Debug, Serialize)]
struct DupJson {
    in_file: u64,
    in_roster: u64,
}

/// Why the import stopped.
#[derive(Debug, Clone, Serialize)]
struct Stopped {
    line: u64,
    code: String,
    message: String,
    may_have_gone_in: bool,
    resume: &'static str,
    #[serde(skip)]
    exit: Exit,
    /// Stopped by its first read, before any row: `message` says it all.
    #[serde(skip)]
    at_start: bool,
}

/// `went_in` of the report: the first and last line of the chunks the
/// service took.
#[derive(Debug, Serialize)]
struct WentInJson {
    first_line: u64,
    last_line: u64,
}

/// The report.
#[derive(Debug, Serialize)]
struct ReportJson<'a> {
    campaign_id: &'a str,
    file: String,
    mapping: Vec<MapJson<'a>>,
    rows: u64,
    imported: u64,
    duplicates: DupJson,
    left_out: LeftOutJson<'a>,
    chunks: u64,
    went_in: Option<WentInJson>,
    complete: bool,
    stopped: Option<&'a Stopped>,
}

/// The import's counts as it goes (the pane's [`Counts`], plus the rows
/// read).
struct Run {
    p: Counts,
    rows: u64,
    stopped: Option<Stopped>,
    bar: bool,
}

/// Reads one chunk off the async threads.
async fn read(path: &std::path::Path, start: CsvPos) -> Result<CsvChunk, String> {
    let read = CsvRead {
        path: path.to_owned(),
        start,
        header: start == CsvPos::START,
        max_rows: CHUNK,
        max_bytes: CHUNK_BYTES,
    };
    tokio::task::spawn_blocking(move || crate::runtime::csv_import::read_chunk(&read))
        .await
        .map_err(|e| format!("the file reader failed: {e}"))?
}

/// `outpost leads import`.
pub(crate) async fn import(
    ctx: &Ctx,
    a: &ImportArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    if ctx.client.read_only() {
        return Err(Failure::new(
            Exit::ReadOnly,
            "read_only: an import adds leads to the campaign, and read-only mode lets nothing through that could change the service; nothing was sent",
        ));
    }
    // A read that fails (the campaign's, the file's first) stops the import
    // before any row: its report says so, and how to resume.
    let c =
        match super::resolve::campaign(ctx, &a.campaign, crate::logic::resolve::Use::Write).await {
            Ok(c) => c,
            Err(f) if f.code.is_some() && f.exit != Exit::Usage => {
                return stopped_at_start(a, &a.campaign, FIRST_DATA_LINE, &f, out);
            }
            Err(f) => return Err(f),
        };
    if c.status != CampaignStatus::Draft {
        return Err(Failure::new(
            Exit::Failed,
            format!(
                "campaign {} is {}: leads can be added only while it is a draft",
                sanitize::inline(&c.name),
                c.status
            ),
        ));
    }
    let first = match read(&a.file, CsvPos::START).await {
        Ok(ch) => ch,
        Err(why) => {
            let mut f = Failure::usage(why);
            f.code = Some("file".into());
            return stopped_at_start(a, &c.id, 1, &f, out);
        }
    };
    let header = first.header.clone().unwrap_or_default();
    let map = header_mapping(a, &header, &c.kind)?;
    let mut run = Run {
        p: Counts {
            file_len: first.file_len,
            ..Counts::default()
        },
        rows: 0,
        stopped: None,
        bar: std::io::stderr().is_terminal(),
    };
    let mut chunk = first;
    loop {
        // Where the next chunk starts: where this one's leads filled a
        // request, when they did before its last row.
        let Some((next, eof)) = upload(ctx, &c.id, &c.kind, &map, chunk, &mut run).await else {
            break;
        };
        if eof {
            break;
        }
        match read(&a.file, next).await {
            Ok(ch) => chunk = ch,
            Err(why) => {
                run.stopped = Some(Stopped {
                    line: next.line,
                    code: "file".into(),
                    message: why,
                    may_have_gone_in: false,
                    resume: RESUME,
                    exit: Exit::Usage,
                    at_start: false,
                });
                break;
            }
        }
    }
    if run.bar {
        crate::stdio::err_text(format_args!("\r\x1b[2K"));
    }
    report(a, &c.id, &header, &map, &run, out)
}

/// The mapping of the file's header: `--map` over the guesses, checked
/// against the campaign's channel.
fn header_mapping(
    a: &ImportArgs,
    header: &[String],
    kind: &Channel,
) -> Result<Vec<Target>, Failure> {
    if header.iter().all(String::is_empty) {
        return Err(Failure::usage(format!(
            "{} has no header row: its first line must name the columns",
            a.file.display()
        )));
    }
    let map = mapping(header, &a.map).map_err(Failure::usage)?;
    check_mapping(&map, kind).map_err(|e| {
        Failure::usage(format!(
            "{e} (--map COLUMN={})",
            if *kind == Channel::Network {
                "network_url"
            } else {
                "email"
            }
        ))
    })?;
    Ok(map)
}

/// The file's first data line (the header is line 1).
const FIRST_DATA_LINE: u64 = 2;

/// How a stopped import is resumed: the same import again, which is safe.
const RESUME: &str = "running the same import again is safe and resumes it: rows already in the roster come back as duplicates";

/// The report of an import stopped before any row was sent (its first
/// read failed at `line`), and its failure.
fn stopped_at_start(
    a: &ImportArgs,
    campaign: &str,
    line: u64,
    f: &Failure,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let run = Run {
        p: Counts::default(),
        rows: 0,
        stopped: Some(Stopped {
            line,
            code: f.code.clone().unwrap_or_default(),
            message: f.message.clone(),
            may_have_gone_in: false,
            resume: RESUME,
            exit: f.exit,
            at_start: true,
        }),
        bar: false,
    };
    report(a, campaign, &[], &[], &run, out)
}

/// Sends one chunk (leaving out what cannot go, and the rows a 400
/// names); returns where the next chunk starts and whether the file ended,
/// or `None` when the import stops.
async fn upload(
    ctx: &Ctx,
    campaign: &str,
    channel: &Channel,
    map: &[Target],
    chunk: CsvChunk,
    run: &mut Run,
) -> Option<(CsvPos, bool)> {
    let seen = &run.p.seen;
    let mut b = Batch::of(chunk, map, channel, |key| seen.contains(&key));
    run.rows = run.rows.saturating_add(b.rows);
    let (next, eof) = (b.next, b.eof);
    let answer = loop {
        if b.leads.is_empty() {
            break AddLeadsResponse::default();
        }
        let req = ApiRequest::AddLeads {
            id: campaign.to_owned(),
            channel: channel.clone(),
            leads: b.leads.clone(),
        };
        match ctx.write::<AddLeadsResponse>(req).await.answer {
            Ok(r) => break r,
            // The whole batch was refused: the rows it names are left
            // out, the rest sent again.
            Err(e) if b.leave_out_refused(&e) => {}
            Err(e) => {
                run.stopped = Some(stopped(b.span.0, &e));
                return None;
            }
        }
    };
    run.p.went_in(b, &answer);
    if run.bar {
        progress_bar(run);
    }
    Some((next, eof))
}

fn stopped(line: u64, e: &ApiError) -> Stopped {
    Stopped {
        line,
        code: e.code().to_owned(),
        message: e.message(),
        may_have_gone_in: write::of_error(e) == write::Outcome::MayHaveReached,
        resume: RESUME,
        exit: Exit::of(e),
        at_start: false,
    }
}

/// `[#########-----------]  45%  4,500 rows · 4,300 imported · …` on
/// stderr, redrawn in place and cut to the terminal's width (a wrapped
/// line could not be redrawn).
fn progress_bar(run: &Run) {
    let p = &run.p;
    let percent = p.percent();
    let filled = usize::try_from(percent / 5).unwrap_or(20).min(20);
    let line = format!(
        "[{}{}] {:>3}%  {} rows · {} imported · {} duplicates · {} left out",
        "#".repeat(filled),
        "-".repeat(20 - filled),
        percent,
        format::count(run.rows),
        format::count(p.imported),
        format::count(p.dup_file.saturating_add(p.dup_roster)),
        format::count(p.left_out_count)
    );
    let width = crossterm::terminal::size().map_or(80, |(w, _)| usize::from(w));
    crate::stdio::err_text(format_args!(
        "\r\x1b[2K{}",
        super::output::cut(&line, width.saturating_sub(1).max(10))
    ));
}

/// Which lines went in, for the stopped import's message.
fn went_in_text(went_in: Option<(u64, u64)>) -> String {
    match went_in {
        Some((a, b)) if a == b => format!("line {a} went in"),
        Some((a, b)) => format!("lines {a}–{b} went in"),
        None => "no line went in".into(),
    }
}

/// The JSON report.
fn report_json<'a>(
    a: &ImportArgs,
    campaign: &'a str,
    header: &'a [String],
    map: &[Target],
    run: &'a Run,
) -> ReportJson<'a> {
    let p = &run.p;
    ReportJson {
        campaign_id: campaign,
        file: a.file.display().to_string(),
        mapping: header
            .iter()
            .zip(map)
            .map(|(h, t)| MapJson {
                column: h,
                field: t.field_name(),
            })
            .collect(),
        rows: run.rows,
        imported: p.imported,
        duplicates: DupJson {
            in_file: p.dup_file,
            in_roster: p.dup_roster,
        },
        left_out: LeftOutJson {
            count: p.left_out_count,
            rows: p
                .left_out
                .iter()
                .map(|(line, reason)| LeftJson {
                    line: *line,
                    reason,
                })
                .collect(),
        },
        chunks: p.chunks,
        went_in: p.went_in.map(|(first_line, last_line)| WentInJson {
            first_line,
            last_line,
        }),
        complete: run.stopped.is_none(),
        stopped: run.stopped.as_ref(),
    }
}

/// The readable report, for a terminal.
fn write_readable(run: &Run, out: &mut impl Write) -> std::io::Result<()> {
    let p = &run.p;
    writeln!(
        out,
        "{} rows read · {}",
        format::count(run.rows),
        p.summary()
    )?;
    if !p.left_out.is_empty() {
        writeln!(out, "left out:")?;
        for (line, why) in &p.left_out {
            writeln!(out, "  line {line}: {}", sanitize::inline(why))?;
        }
        if p.left_out_count > p.left_out.len() as u64 {
            writeln!(
                out,
                "  … and {} more",
                format::count(p.left_out_count - p.left_out.len() as u64)
            )?;
        }
    }
    Ok(())
}

fn report(
    a: &ImportArgs,
    campaign: &str,
    header: &[String],
    map: &[Target],
    run: &Run,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let p = &run.p;
    let written = if a.json || !std::io::stdout().is_terminal() {
        write_json(out, &report_json(a, campaign, header, map, run))
    } else {
        write_readable(run, out)
    };
    written.map_err(|e| stdout_failure(&e))?;
    match &run.stopped {
        None => Ok(Exit::Ok),
        Some(s) if s.at_start => Err(Failure::new(
            s.exit,
            format!(
                "import stopped before its first row: {}; no line went in; {}",
                s.message.trim_end_matches('.'),
                s.resume
            ),
        )),
        Some(s) => {
            let mut message = format!(
                "import stopped at the chunk from line {}: {}: {}; {}",
                s.line,
                s.code,
                // Its own full stop would stand before the semicolon.
                s.message.trim_end_matches('.'),
                went_in_text(p.went_in)
            );
            if s.may_have_gone_in {
                message.push_str("; that chunk may have gone in (its answer was lost)");
            }
            message.push_str("; ");
            message.push_str(s.resume);
            Err(Failure::new(s.exit, message))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::lead_field::LeadField;

    fn header(cols: &[&str]) -> Vec<String> {
        cols.iter().map(|c| (*c).to_owned()).collect()
    }

    #[test]
    fn map_overrides_the_guess_and_moves_a_colliding_guess_aside() {
        let h = header(&["Email", "Work mail", "Company", "Notes"]);
        let m = mapping(&h, &["work mail=email".into(), "Notes=skip".into()]).unwrap();
        assert_eq!(
            m,
            [
                Target::Custom("email".into()),
                Target::Field(LeadField::Email),
                Target::Field(LeadField::Company),
                Target::Skip
            ]
        );
        let m = mapping(&h, &["Notes=custom.Sales Notes".into()]).unwrap();
        assert_eq!(m[3], Target::Custom("sales_notes".into()));
    }

    #[test]
    fn bad_maps_say_what_is_allowed() {
        let h = header(&["Email"]);
        let e = mapping(&h, &["Mail=email".into()]).unwrap_err();
        assert!(
            e.contains("no column \"Mail\"") && e.contains("Email"),
            "{e}"
        );
        let e = mapping(&h, &["Email=phone".into()]).unwrap_err();
        assert!(e.contains("custom.KEY"), "{e}");
        let e = mapping(&h, &["Email".into()]).unwrap_err();
        assert!(e.contains("COLUMN=FIELD"), "{e}");
    }

    #[test]
    fn field_names_round_trip() {
        let fields = LeadField::ALL.map(Target::Field);
        for t in fields
            .into_iter()
            .chain([Target::Custom("team".into()), Target::Skip])
        {
            assert_eq!(Target::parse_field(&t.field_name()), Some(t));
        }
    }

    #[test]
    fn the_failure_keeps_the_code_and_whether_it_may_have_gone_in() {
        let e = ApiError::Timeout {
            method: "POST".into(),
            after: std::time::Duration::from_secs(30),
            may_have_reached: true,
        };
        let s = stopped(1002, &e);
        assert_eq!((s.line, s.code.as_str()), (1002, "timeout"));
        assert!(s.may_have_gone_in);
        assert_eq!(s.exit, Exit::Unreachable);
        assert!(super::super::exit::describe(&e).starts_with("timeout: "));
    }
}
