//! `outpost search run <search>` and `outpost search run --all`: start a
//! run (or every eligible search's), through the one write path
//! ([`super::call`]); the service's disposition and summary are printed.
//! `--wait` follows the run(s) to the end, reading the search every few
//! seconds (a rate limit or a lost connection is waited out), and exits by
//! how it ended: 0 completed, 10 failed, 11 cancelled, 2 when `--timeout`
//! passes first. A run already queued or running is a conflict (409, exit
//! 9); a run-all in which some searches failed exits 12.
//!
//! `search run --json`:
//!
//! ```json
//! {"search_id", "title", "outcome": "done" | "may_have_reached",
//!  "disposition", "dispatch",
//!  "run": {"id", "trigger_run_id", "status", "counts": {}} | null,
//!  "waited": false, "errors": [{"source_id", "code", "error"}],
//!  "check": null | {"lost", "verdict", "text"}}
//! ```
//!
//! `search run --all --json`:
//!
//! ```json
//! {"outcome", "summary",
//!  "counts": {"matched", "queued", "existing", "blocked", "failed",
//!             "skipped"},
//!  "searches": [{"search_id", "title", "status", "run_id", "code",
//!                "message"}],
//!  "waited": false, "check": null}
//! ```
//!
//! With `--wait`, `run.status` (each `searches[].status`) is where the run
//! ended and `errors` its sources' errors.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use serde_json::{Map, Value};

use super::Ctx;
use super::call::{self, CheckJson, Proof, Record, Sent, Write};
use super::confirm::{self, Question};
use super::exit::{Exit, Failure, describe};
use super::output::{self, Col, Table, stdout_failure, write_json};
use crate::api::model::{
    LatestRun, RunAllResponse, RunResponse, RunStatus, Search, SearchPage, SearchPageQuery,
};
use crate::api::{ApiError, ApiRequest};
use crate::logic::proof::RunSeen;
use crate::logic::resolve::Use;
use crate::text::{format, sanitize};

/// Flags of `outpost search run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The search: its id, a unique id prefix (4 characters or more) or
    /// its exact title.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub search: Option<String>,
    /// Run every eligible search (`POST /api/lead-finder/run`).
    #[arg(long)]
    pub all: bool,
    /// Continue the search's last run where it stopped
    /// (`continuation=true`).
    #[arg(long = "continue", conflicts_with = "all")]
    pub continuation: bool,
    /// Follow the run(s) to the end; the exit code says how it ended.
    #[arg(long)]
    pub wait: bool,
    /// With --wait: give up after SECS seconds (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = 3600.0, requires = "wait")]
    pub timeout: f64,
    /// Answer yes to the question asked before running again after a run
    /// request whose answer was lost (needed off a terminal).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `run` of `search run --json`.
#[derive(Debug, Serialize)]
struct RunJson {
    id: String,
    trigger_run_id: String,
    status: String,
    counts: Map<String, Value>,
}

/// A source's error of the run.
#[derive(Debug, Serialize)]
struct ErrorJson {
    source_id: String,
    code: String,
    error: String,
}

/// `search run --json`.
#[derive(Debug, Serialize)]
struct OneJson<'a> {
    search_id: &'a str,
    title: &'a str,
    outcome: &'a str,
    disposition: Option<&'a str>,
    dispatch: Option<&'a str>,
    run: Option<RunJson>,
    waited: bool,
    errors: Vec<ErrorJson>,
    check: Option<CheckJson>,
}

/// `counts` of `search run --all --json`.
#[derive(Debug, Serialize)]
struct CountsJson {
    matched: u64,
    queued: u64,
    existing: u64,
    blocked: u64,
    failed: u64,
    skipped: u64,
}

/// One search of `search run --all --json`.
#[derive(Debug, Serialize)]
struct ItemJson {
    search_id: String,
    title: String,
    status: String,
    run_id: Option<String>,
    code: Option<String>,
    message: Option<String>,
}

/// `search run --all --json`.
#[derive(Debug, Serialize)]
struct AllJson<'a> {
    outcome: &'a str,
    summary: &'a str,
    counts: Option<CountsJson>,
    searches: Vec<ItemJson>,
    waited: bool,
    check: Option<CheckJson>,
}

/// `--timeout`, checked.
fn timeout(a: &RunArgs) -> Result<Duration, Failure> {
    if a.timeout.is_finite() && a.timeout > 0.0 && a.timeout <= 86_400.0 {
        Ok(Duration::from_secs_f64(a.timeout))
    } else {
        Err(Failure::usage(format!(
            "--timeout {}: allowed more than 0 and at most 86400 seconds",
            a.timeout
        )))
    }
}

fn refuse_read_only(ctx: &Ctx) -> Result<(), Failure> {
    if ctx.client.read_only() {
        return Err(Failure::new(
            Exit::ReadOnly,
            "running: read-only mode lets nothing through that could change the service; nothing was sent",
        ));
    }
    Ok(())
}

/// A refusal of the service: a 409 (a run already queued or running) is a
/// conflict (9).
fn refusal(doing: &str, e: &ApiError) -> Failure {
    let mut f = Failure::api(doing, e);
    if e.status() == Some(409) {
        f.exit = Exit::Conflict;
    }
    f
}

/// `outpost search run`.
pub(crate) async fn run(
    ctx: &Ctx,
    a: &RunArgs,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let limit = if a.wait { Some(timeout(a)?) } else { None };
    match &a.search {
        Some(typed) if !a.all => one(ctx, a, typed, limit, out).await,
        _ => all(ctx, a, limit, out).await,
    }
}

/// Sends the run request of one search; the search as read before, what
/// the request came to, and the run a check found when its answer was
/// lost.
async fn start_one(
    ctx: &Ctx,
    a: &RunArgs,
    typed: &str,
) -> Result<(SearchPage, Sent<RunResponse>, Option<String>), Failure> {
    let page = super::resolve::search(ctx, typed, Use::Write).await?;
    let s = &page.search;
    refuse_read_only(ctx)?;
    let record = Record::cli("run", &s.search_id);
    let q = Question {
        ask: format!("Run search \"{}\" again?", s.title),
        lines: Vec::new(),
        always: false,
    };
    confirm::ask(ctx, &q, &record.key, a.yes).await?;
    let doing = format!("running search \"{}\" ({})", s.title, s.search_id);
    let w = Write {
        req: ApiRequest::RunSearch {
            id: s.search_id.clone(),
            continuation: a.continuation.then_some(true),
        },
        doing: doing.clone(),
        record,
    };
    let mut proof = Proof::Run {
        id: s.search_id.clone(),
        before: RunSeen::of(page.latest_run.as_ref(), s),
        found: None,
    };
    let sent = call::send::<RunResponse>(ctx, &w, &mut proof)
        .await
        .map_err(|e| refusal(&doing, &e))?;
    let found = match proof {
        Proof::Run { found, .. } => found,
        _ => None,
    };
    Ok((page, sent, found))
}

/// The run of one search.
async fn one(
    ctx: &Ctx,
    a: &RunArgs,
    typed: &str,
    limit: Option<Duration>,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let (page, sent, found) = start_one(ctx, a, typed).await?;
    let s = &page.search;
    let mut doc = OneJson {
        search_id: &s.search_id,
        title: &s.title,
        outcome: "done",
        disposition: None,
        dispatch: None,
        run: None,
        waited: false,
        errors: Vec::new(),
        check: None,
    };
    let run_id = match &sent {
        Sent::Done(r) => {
            doc.disposition = Some(&r.disposition);
            doc.dispatch = Some(&r.dispatch);
            doc.run = Some(RunJson {
                id: r.run.run_id.clone(),
                trigger_run_id: r.run.trigger_run_id.clone(),
                status: r.run.status.to_string(),
                counts: r.run.counts.clone(),
            });
            if !a.json {
                say_started(out, s, r)?;
            }
            Some(r.run.run_id.clone())
        }
        Sent::Lost(l) => {
            doc.check = Some(l.json());
            if !l.found() {
                doc.outcome = "may_have_reached";
                return finish_one(out, a.json, &doc, Exit::MayHaveReached);
            }
            found
        }
    };
    let Some(limit) = limit else {
        return finish_one(out, a.json, &doc, Exit::Ok);
    };
    doc.waited = true;
    let started = doc.run.as_ref().map(|r| r.status.clone());
    let end = follow_one(
        ctx,
        &s.search_id,
        run_id.as_deref(),
        started,
        limit,
        a.json,
        out,
    )
    .await?;
    let exit = end
        .as_ref()
        .map_or(Exit::TimedOut, |run| ended(&mut doc, run));
    finish_one(out, a.json, &doc, exit)?;
    match (&end, exit) {
        (None, _) => Err(Failure::new(
            Exit::TimedOut,
            format!(
                "timed out after {}: the run is still going",
                format::duration(limit)
            ),
        )),
        (Some(run), Exit::RunFailed | Exit::RunCancelled) => {
            let why: Vec<String> = run
                .errors
                .iter()
                .map(|e| format!("{}: {}", e.code, e.error))
                .collect();
            let mut text = format!("the run {}", run.status);
            if !why.is_empty() {
                text.push_str(&format!(" ({})", why.join("; ")));
            }
            Err(Failure::new(exit, text))
        }
        _ => Ok(exit),
    }
}

/// Puts where the run ended into the document; the exit code of it.
fn ended(doc: &mut OneJson<'_>, run: &LatestRun) -> Exit {
    doc.errors = run
        .errors
        .iter()
        .map(|e| ErrorJson {
            source_id: e.source_id.clone(),
            code: e.code.clone(),
            error: e.error.clone(),
        })
        .collect();
    let status = run.status.to_string();
    match doc.run.as_mut() {
        Some(r) => {
            r.status = status;
            r.counts = run.counts.clone();
        }
        None => {
            doc.run = Some(RunJson {
                id: run.run_id.clone(),
                trigger_run_id: run.trigger_run_id.clone(),
                status,
                counts: run.counts.clone(),
            });
        }
    }
    end_exit(&run.status)
}

fn finish_one(
    out: &mut impl std::io::Write,
    json: bool,
    doc: &OneJson<'_>,
    exit: Exit,
) -> Result<Exit, Failure> {
    if json {
        write_json(out, doc).map_err(|e| stdout_failure(&e))?;
    }
    Ok(exit)
}

/// `queued: "Title" — run r-1 (disposition queued, dispatch recorded);
/// queries 3 · fetched 0 · stored 0`.
fn say_started(out: &mut impl std::io::Write, s: &Search, r: &RunResponse) -> Result<(), Failure> {
    let counts = counts_text(&r.run.counts);
    let mut line = format!(
        "{}: \"{}\" — run {} (disposition {}, dispatch {})",
        sanitize::inline(r.run.status.as_str()),
        sanitize::inline(&s.title),
        sanitize::inline(&r.run.run_id),
        sanitize::inline(&r.disposition),
        sanitize::inline(&r.dispatch)
    );
    if !counts.is_empty() {
        line.push_str(&format!("; {counts}"));
    }
    writeln!(out, "{line}").map_err(|e| stdout_failure(&e))
}

/// The run's counters (free-form in the contract), as `key n · key n`.
fn counts_text(counts: &Map<String, Value>) -> String {
    counts
        .iter()
        .filter_map(|(k, v)| {
            let n = v
                .as_u64()
                .map(format::count)
                .or_else(|| v.as_f64().map(format::float))?;
            Some(format!("{} {n}", sanitize::inline(k)))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The exit of a run that ended in `status`.
fn end_exit(status: &RunStatus) -> Exit {
    match status {
        RunStatus::Completed => Exit::Ok,
        RunStatus::Cancelled => Exit::RunCancelled,
        _ => Exit::RunFailed,
    }
}

/// Reads a search's latest run while it is followed: `Ok(None)` for a
/// failure worth waiting out (said on stderr).
async fn latest(ctx: &Ctx, id: &str) -> Result<Option<Option<LatestRun>>, Failure> {
    let req = ApiRequest::GetSearch {
        id: id.to_owned(),
        page: SearchPageQuery {
            limit: Some(1),
            ..SearchPageQuery::default()
        },
    };
    match ctx.read::<SearchPage>(req).await {
        Ok(p) => Ok(Some(p.latest_run)),
        Err(e) if e.retryable() && !e.is_unauthorized() => {
            crate::errln!(
                "outpost: note: {}; reading again",
                sanitize::inline(&describe(&e))
            );
            Ok(None)
        }
        Err(e) => Err(Failure::api(&format!("reading search {id}"), &e)),
    }
}

/// Prints a status change on stdout: `TIME  [TITLE  ]STATUS  counts`
/// (none with `--json`: stdout holds the one document).
fn say_change(
    out: &mut impl std::io::Write,
    title: Option<&str>,
    run: &LatestRun,
    json: bool,
) -> Result<(), Failure> {
    if json {
        return Ok(());
    }
    let mut line = output::now_text();
    if let Some(t) = title {
        line.push_str(&format!("  {}", sanitize::inline(t)));
    }
    line.push_str(&format!("  {}", sanitize::inline(run.status.as_str())));
    let counts = counts_text(&run.counts);
    if !counts.is_empty() {
        line.push_str(&format!("  {counts}"));
    }
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failure(&e))
}

/// Follows the search's run `run_id` (its latest run, when the id is not
/// known; `started`: the status said when it started) until it ends: the run as it ended, or `None` when `limit`
/// passed first.
async fn follow_one(
    ctx: &Ctx,
    id: &str,
    run_id: Option<&str>,
    started: Option<String>,
    limit: Duration,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<Option<LatestRun>, Failure> {
    let deadline = Instant::now() + limit;
    let interval = call::follow_interval(ctx);
    // The status the start already printed is not printed again.
    let mut last: Option<RunStatus> = started.map(|s| RunStatus::parse(&s));
    loop {
        if let Some(run) = latest(ctx, id).await? {
            match run {
                Some(r) if run_id.is_none_or(|want| want == r.run_id) => {
                    if last.as_ref() != Some(&r.status) {
                        say_change(out, None, &r, json)?;
                        last = Some(r.status.clone());
                    }
                    if !r.status.is_live() {
                        return Ok(Some(r));
                    }
                }
                Some(r) => {
                    return Err(Failure::new(
                        Exit::Failed,
                        format!(
                            "another run ({}) of the search started; the one started here can no longer be followed",
                            r.run_id
                        ),
                    ));
                }
                None => {}
            }
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        tokio::time::sleep(interval.min(deadline - now)).await;
    }
}

/// Sends the run-all once; what it came to.
async fn start_all(ctx: &Ctx, a: &RunArgs) -> Result<Sent<RunAllResponse>, Failure> {
    refuse_read_only(ctx)?;
    // What each listed search showed of its runs: the proof of a lost
    // answer.
    let before = match ctx
        .read::<Option<Vec<Search>>>(ApiRequest::ListSearches)
        .await
    {
        Ok(Some(list)) => Some(
            list.into_iter()
                .map(|s| (s.search_id, s.last_run_id))
                .collect::<BTreeMap<_, _>>(),
        ),
        Ok(None) => None,
        Err(e) => return Err(Failure::api("listing the searches", &e)),
    };
    let record = Record::cli("run", "all");
    let q = Question {
        ask: "Run every eligible search again?".into(),
        lines: Vec::new(),
        always: false,
    };
    confirm::ask(ctx, &q, &record.key, a.yes).await?;
    let doing = "running every eligible search".to_owned();
    let w = Write {
        req: ApiRequest::RunAll,
        doing: doing.clone(),
        record,
    };
    let mut proof = Proof::RunAll { before };
    call::send::<RunAllResponse>(ctx, &w, &mut proof)
        .await
        .map_err(|e| refusal(&doing, &e))
}

/// Every eligible search's run.
async fn all(
    ctx: &Ctx,
    a: &RunArgs,
    limit: Option<Duration>,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let r = match start_all(ctx, a).await? {
        Sent::Done(r) => r,
        Sent::Lost(l) => {
            let (outcome, exit) = if l.found() {
                ("done", Exit::Ok)
            } else {
                ("may_have_reached", Exit::MayHaveReached)
            };
            if a.json {
                let doc = AllJson {
                    outcome,
                    summary: "",
                    counts: None,
                    searches: Vec::new(),
                    waited: false,
                    check: Some(l.json()),
                };
                write_json(out, &doc).map_err(|e| stdout_failure(&e))?;
            }
            return Ok(exit);
        }
    };
    let mut items: Vec<ItemJson> = r
        .results
        .iter()
        .map(|i| ItemJson {
            search_id: i.search_id.clone(),
            title: i.title.clone(),
            status: i.status.to_string(),
            run_id: i.run_id.clone(),
            code: i.code.clone(),
            message: i.message.clone(),
        })
        .collect();
    if !a.json {
        say_all(out, &r)?;
    }
    let followed = match limit {
        Some(limit) => Some(follow_all(ctx, &mut items, limit, a.json, out).await?),
        None => None,
    };
    if a.json {
        let doc = AllJson {
            outcome: "done",
            summary: &r.agent_summary,
            counts: Some(CountsJson {
                matched: r.matched_count,
                queued: r.queued_count,
                existing: r.existing_count,
                blocked: r.blocked_count,
                failed: r.failed_count,
                skipped: r.skipped_count,
            }),
            searches: items,
            waited: limit.is_some(),
            check: None,
        };
        write_json(out, &doc).map_err(|e| stdout_failure(&e))?;
    }
    all_end(&r, followed.as_ref(), limit)
}

/// The exit of a run-all: timed out (2), some searches failed to start or
/// some followed runs did not complete (12), else 0.
fn all_end(
    r: &RunAllResponse,
    followed: Option<&Followed>,
    limit: Option<Duration>,
) -> Result<Exit, Failure> {
    if followed.is_some_and(|f| !f.done) {
        return Err(Failure::new(
            Exit::TimedOut,
            format!(
                "timed out after {}: some runs are still going",
                format::duration(limit.unwrap_or_default())
            ),
        ));
    }
    let mut why = Vec::new();
    if r.failed_count > 0 {
        why.push(format!(
            "{} of {} searches failed to start",
            format::count(r.failed_count),
            format::count(r.matched_count)
        ));
    }
    if let Some(f) = followed.filter(|f| f.not_completed > 0) {
        let n = u64::try_from(f.not_completed).unwrap_or(u64::MAX);
        why.push(format!(
            "{} did not complete",
            format::plural(n, "run", "runs")
        ));
    }
    if why.is_empty() {
        Ok(Exit::Ok)
    } else {
        Err(Failure::new(Exit::SomeFailed, why.join("; ")))
    }
}

/// The run-all's summary and one row per search.
fn say_all(out: &mut impl std::io::Write, r: &RunAllResponse) -> Result<(), Failure> {
    let mut t = Table::new(&[
        Col::left("SEARCH ID", 0),
        Col::left("TITLE", 40),
        Col::left("STATUS", 10),
        Col::left("RUN ID", 0),
        Col::left("NOTE", 60),
    ]);
    for i in &r.results {
        let note = match (&i.code, &i.message) {
            (Some(c), Some(m)) => format!("{c}: {m}"),
            (Some(c), None) => c.clone(),
            (None, Some(m)) => m.clone(),
            (None, None) => String::new(),
        };
        t.row(&[
            i.search_id.clone(),
            i.title.clone(),
            i.status.to_string(),
            i.run_id.clone().unwrap_or_default(),
            note,
        ]);
    }
    let summary = format!(
        "matched {} · queued {} · already running {} · blocked {} · failed {} · skipped {}",
        format::count(r.matched_count),
        format::count(r.queued_count),
        format::count(r.existing_count),
        format::count(r.blocked_count),
        format::count(r.failed_count),
        format::count(r.skipped_count)
    );
    let written = (|| {
        if !r.agent_summary.trim().is_empty() {
            writeln!(out, "{}", sanitize::inline(&r.agent_summary))?;
        }
        writeln!(out, "{summary}")?;
        if t.is_empty() { Ok(()) } else { t.write(out) }
    })();
    written.map_err(|e| stdout_failure(&e))
}

/// Where following every started run ended.
struct Followed {
    /// Every run ended before the time-out.
    done: bool,
    /// Runs that ended other than completed.
    not_completed: usize,
}

/// Follows every queued or running run of `items` to its end, updating
/// their statuses.
async fn follow_all(
    ctx: &Ctx,
    items: &mut [ItemJson],
    limit: Duration,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<Followed, Failure> {
    let deadline = Instant::now() + limit;
    let interval = call::follow_interval(ctx);
    let live = |s: &str| matches!(s, "queued" | "running");
    loop {
        let mut going = 0;
        for item in items
            .iter_mut()
            .filter(|i| live(&i.status) && i.run_id.is_some())
        {
            let Some(run) = latest(ctx, &item.search_id).await? else {
                going += 1;
                continue;
            };
            match run {
                Some(r) if item.run_id.as_deref() == Some(r.run_id.as_str()) => {
                    if r.status.as_str() != item.status {
                        say_change(out, Some(&item.title), &r, json)?;
                        item.status = r.status.to_string();
                    }
                    if r.status.is_live() {
                        going += 1;
                    }
                }
                // Another run replaced it: its end cannot be seen.
                _ => item.status = "unknown".into(),
            }
        }
        if going == 0 {
            let not_completed = items
                .iter()
                .filter(|i| {
                    i.run_id.is_some() && !matches!(i.status.as_str(), "completed" | "skipped")
                })
                .filter(|i| !live(&i.status))
                .count();
            return Ok(Followed {
                done: true,
                not_completed,
            });
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(Followed {
                done: false,
                not_completed: 0,
            });
        }
        tokio::time::sleep(interval.min(deadline - now)).await;
    }
}
