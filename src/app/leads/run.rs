//! Running searches: one (`R`: a fresh run, or a continuation of one that
//! stopped), or all (`Ctrl-R`, asked first). A run request whose answer may
//! have reached the service (a timeout, a dropped connection, a 5xx) may
//! have started a run: the search's run status is read on the one schedule
//! of [`write::Check`] (a failed read proves nothing) — a new run id, or a
//! stopped run now live, proves it. While it reads, running again is
//! refused; once it is settled without finding a run, it asks first.

use super::LeadsModel;
use crate::app::ctx::Ctx;
use crate::app::requests::Requests;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::searches::{add_known_row, fetch_meta, load, upsert};
use super::{
    Confirmed, Dialog, LeadsSub, Purpose, Report, View, error_text, in_flight, search, send,
    starting,
};
use crate::api::ApiError;
use crate::api::model::{
    LatestRun, RunAllItem, RunAllResponse, RunResponse, RunStatus, Search, SearchKind, SearchPage,
};
use crate::app::keymap::Action;
use crate::logic::write::{self, Seen, Verdict};
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Whether the latest run can be continued (`continuation=true`): it
/// stopped before finishing. A queued or running run is not: continuing it
/// would skip the service's guard against a second run (the 409), so a
/// double press would dispatch twice.
pub(crate) fn resumable(run: Option<&RunStatus>) -> bool {
    matches!(run, Some(RunStatus::Failed | RunStatus::Cancelled))
}

/// The run status known for a search, and whether it is current (watched,
/// its last read succeeded).
fn known_status(l: &LeadsModel, id: &str) -> (Option<RunStatus>, bool) {
    if l.open_id() == Some(id) {
        let o = l.open.as_ref();
        (
            o.and_then(|o| o.latest_run.as_ref())
                .map(|r| r.status.clone()),
            o.is_some_and(|o| o.watch_lost.is_none() && !o.fresh.is_stale()),
        )
    } else {
        let row = l.list.rows.iter().find(|r| r.search.search_id == id);
        (
            row.and_then(|r| r.run.clone()),
            row.is_some_and(|r| !r.gone && !r.fresh.is_stale()),
        )
    }
}

/// Starts a run of one search: a fresh one, or a continuation of a run
/// that stopped (or of a live run once the service's
/// `continuationRetryAfter` has passed). A live run that is being watched
/// is not started again: the user is told it runs. After a run request
/// that may have been accepted, asks first.
pub(crate) fn run(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if starting(cx.requests, id) {
        return Vec::new();
    }
    let Some(continuation) = continuation(leads, cx, id) else {
        return Vec::new();
    };
    if let Some(u) = leads.uncertain_runs.get(id).cloned() {
        if u.check.settled() {
            ask_run_again(leads, cx, id, &u);
        } else {
            refuse_while_checked(cx, &u.check.text(RUN_PLACE), Action::RunSearch);
        }
        return Vec::new();
    }
    send_run(leads, cx, id, continuation)
}

/// Where the check of a lost run request looks.
const RUN_PLACE: &str = "in the search's run status";

/// Where the check of a lost run-all looks.
const RUN_ALL_PLACE: &str = "in the searches' runs";

/// What a search showed of its runs: the CLI's one rule
/// ([`crate::logic::proof::RunSeen`]), so both front ends settle a lost
/// run the same way.
pub(crate) use crate::logic::proof::RunSeen;

/// A run request whose answer may have reached the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncertainRun {
    /// Why it is in question (the error's code: `bad_gateway`).
    pub why: String,
    /// What the search showed of its runs when the request was sent.
    pub(crate) before: RunSeen,
    /// The reads of the search's run status so far.
    pub check: write::Check,
}

/// A run-all whose answer may have reached the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncertainRunAll {
    /// Why it is in question (the error's code).
    pub why: String,
    /// Each listed search's last run id when it was sent.
    pub before: BTreeMap<String, Option<String>>,
    /// The reads of the searches so far.
    pub check: write::Check,
}

/// What the search shows of its runs now, as far as the pane knows.
fn seen_now(l: &LeadsModel, id: &str) -> RunSeen {
    if let Some(o) = l.open.as_ref().filter(|o| o.search.search_id == id) {
        return RunSeen::of(o.latest_run.as_ref(), &o.search);
    }
    let row = l.list.rows.iter().find(|r| r.search.search_id == id);
    RunSeen {
        run_id: row
            .and_then(|r| r.search.last_run_id.clone())
            .filter(|r| !r.is_empty()),
        status: row.and_then(|r| r.run.clone()),
    }
}

/// Running again is refused while the check of the last lost request
/// reads: its answer may yet show the run.
fn refuse_while_checked(cx: &mut Ctx<'_>, seen: &str, again: Action) {
    let key = cx.keymap.key_label(again);
    cx.notify(
        Level::Warning,
        "Not sent: still checking",
        &format!(
            "the last request may have reached the service; {seen}. {key} asks before sending again once that is settled."
        ),
    );
}

/// The checks' next reads: the subscriptions that fire them.
pub(crate) fn recheck(leads: &LeadsModel, subs: &mut Vec<(LeadsSub, Duration)>) {
    for (id, u) in &leads.uncertain_runs {
        if let Some(after) = u.check.next_in() {
            let reads = u.check.absent.saturating_add(u.check.failed);
            subs.push((LeadsSub::RunCheck(id.clone(), reads), after));
        }
    }
    if let Some(u) = &leads.run_all_uncertain
        && let Some(after) = u.check.next_in()
    {
        let reads = u.check.absent.saturating_add(u.check.failed);
        subs.push((LeadsSub::RunAllCheck(reads), after));
    }
}

/// Reads the search's run status for the check of a lost run request.
pub(crate) fn read_run_check(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if in_flight(
        cx.requests,
        |p| matches!(p, Purpose::RunCheck(s) if s == id),
    ) {
        return Vec::new();
    }
    let Some(u) = leads.uncertain_runs.get_mut(id) else {
        return Vec::new();
    };
    u.check.reading();
    send_run_check(cx, id)
}

fn send_run_check(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    send(
        cx,
        Purpose::RunCheck(id.to_owned()),
        super::searches::status_read(id),
    );
    Vec::new()
}

/// A read of the search after a lost run request: a run it did not show
/// before proves the request went through; a failed read counts for
/// nothing.
pub(crate) fn on_run_check(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<SearchPage, ApiError>,
) -> Vec<Cmd> {
    let Some(u) = leads.uncertain_runs.get_mut(id) else {
        return Vec::new();
    };
    let (seen, live) = match &result {
        Ok(page) => {
            let now = RunSeen::of(page.latest_run.as_ref(), &page.search);
            if u.before.started_in(&now) {
                let status = now
                    .status
                    .as_ref()
                    .map_or_else(|| "recorded".to_owned(), |s| s.as_str().to_owned());
                (
                    Seen::Found(format!(
                        "the search shows a new run ({})",
                        DisplayText::inline(&status)
                    )),
                    page.latest_run.clone().filter(|r| r.status.is_live()),
                )
            } else {
                (Seen::Absent, None)
            }
        }
        Err(e) => (Seen::Failed(error_text(e)), None),
    };
    let verdict = cx.saw(&mut u.check, seen);
    let said = u.check.text(RUN_PLACE);
    let mut cmds = Vec::new();
    // The row shows what was read, as any read of it does.
    if leads.list.row_mut(id).is_some() {
        cmds.extend(super::searches::on_meta(leads, cx, id, result));
    }
    let run = cx.keymap.key_label(Action::RunSearch);
    match verdict {
        Some(Verdict::Found(_)) => {
            leads.uncertain_runs.remove(id);
            cx.notify(
                Level::Success,
                "Run started",
                &format!("the run request whose answer was lost went through: {said}"),
            );
            if let Some(live) = live {
                cmds.extend(search::run_started(leads, cx, id, live));
            }
        }
        Some(_) => cx.notify(
            Level::Warning,
            "Run may not have started",
            &format!("{said}; {run} asks before sending it again"),
        ),
        None => {}
    }
    cmds
}

/// Whether to continue the last run (`Some(None)`: a fresh run); `None`
/// when nothing is to be sent (a live run is watched: the user is told).
fn continuation(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str) -> Option<Option<bool>> {
    let (status, known) = known_status(leads, id);
    let Some(s) = status.as_ref().filter(|s| s.is_live()) else {
        return Some(resumable(status.as_ref()).then_some(true));
    };
    let after = leads.retry_after.get(id).cloned();
    let may_continue = after
        .as_deref()
        .and_then(format::unix)
        .is_some_and(|t| cx.clock >= t);
    if may_continue {
        // The service said a continuation may be tried from then.
        return Some(Some(true));
    }
    if !known {
        // Status not current: a plain run, which the service refuses (409)
        // if one is still going.
        return Some(None);
    }
    // It runs: whatever an earlier lost answer did is settled.
    leads.uncertain_runs.remove(id);
    let mut text = format!(
        "its run is {}; watching it",
        DisplayText::inline(s.as_str())
    );
    if let Some(after) = after {
        text.push_str(&format!(
            " ({} may continue it after {})",
            cx.keymap.key_label(Action::RunSearch),
            format::date(&after)
        ));
    }
    cx.notify(Level::Info, "Already running", &text);
    None
}

fn send_run(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    continuation: Option<bool>,
) -> Vec<Cmd> {
    let before = seen_now(leads, id);
    leads.runs_before.insert(id.to_owned(), before);
    send(
        cx,
        Purpose::Run(id.to_owned()),
        ApiRequest::RunSearch {
            id: id.to_owned(),
            continuation,
        },
    );
    Vec::new()
}

/// "Run again?" after a run request that may have reached the service,
/// once its check is settled.
fn ask_run_again(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str, u: &UncertainRun) {
    let (status, _) = known_status(leads, id);
    let now = match status {
        Some(s) => format!(
            "The search shows its last run as {} now.",
            DisplayText::inline(s.as_str())
        ),
        None => "The search shows no run now.".to_owned(),
    };
    cx.confirm(Confirm {
        title: "Run again?".into(),
        lines: vec![
            format!("The last run request ({}): ", u.why) + &u.check.again_warning(RUN_PLACE),
            now,
            "Sending it again may start a second run.".into(),
        ],
        yes: "Run again".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::RunAgain(id.to_owned()).into()),
    });
}

/// "Run again?" was answered yes.
pub(crate) fn run_again(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    leads.uncertain_runs.remove(id);
    run(leads, cx, id)
}

/// The answer to a run.
pub(crate) fn on_run(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<RunResponse, ApiError>,
) -> Vec<Cmd> {
    let before = leads.runs_before.remove(id).unwrap_or_default();
    match result {
        Ok(r) => run_started(leads, cx, id, &r),
        Err(e) => run_failed(leads, cx, id, &e, before),
    }
}

/// What a started run says: status, disposition, counts, when it may be
/// continued.
fn started_text(title: &str, r: &RunResponse) -> String {
    let counts: Vec<String> = r
        .run
        .counts
        .iter()
        .map(|(k, v)| {
            format!(
                "{} {}",
                DisplayText::inline(k),
                DisplayText::inline(&crate::text::format::value_text(v))
            )
        })
        .collect();
    let mut text = format!(
        "{title}: run {} ({}, {})",
        DisplayText::inline(r.run.status.as_str()),
        DisplayText::inline(&r.disposition),
        DisplayText::inline(&r.dispatch),
    );
    if !counts.is_empty() {
        text.push_str(&format!(" · {}", counts.join(", ")));
    }
    if let Some(after) = &r.run.continuation_retry_after {
        text.push_str(&format!(" · continue after {}", format::date(after)));
    }
    text
}

fn run_started(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str, r: &RunResponse) -> Vec<Cmd> {
    leads.uncertain_runs.remove(id);
    let mut s = r.search.clone();
    if s.search_id.is_empty() {
        s.search_id = id.to_owned();
    }
    let text = started_text(&DisplayText::inline(&s.title).into_string(), r);
    match &r.run.continuation_retry_after {
        Some(after) => {
            leads.retry_after.insert(id.to_owned(), after.clone());
        }
        None => {
            leads.retry_after.remove(id);
        }
    }
    cx.notify(Level::Success, "Run started", &text);
    let live = LatestRun {
        run_id: r.run.run_id.clone(),
        status: r.run.status.clone(),
        counts: r.run.counts.clone(),
        trigger_run_id: r.run.trigger_run_id.clone(),
        ..Default::default()
    };
    if !s.title.is_empty() {
        upsert(leads, cx, &s, Some(&live));
    } else if let Some(row) = leads.list.row_mut(id) {
        row.run = Some(live.status.clone());
    }
    search::run_started(leads, cx, id, live)
}

/// `said`, then the service's advice when the error is a Lead Finder
/// body (see [`super::advice`]).
fn with_advice(said: String, e: &ApiError) -> String {
    let advice = super::advice::text(e);
    if advice.is_empty() {
        said
    } else {
        format!("{said} {advice}")
    }
}

/// A run that failed: a 409 is a run already going (watched from now);
/// an answer that may have reached the service may have started one (its
/// run status is checked, and `R` waits for the verdict); any other
/// refusal started nothing, and says which key runs it again.
fn run_failed(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    e: &ApiError,
    before: RunSeen,
) -> Vec<Cmd> {
    let run = cx.keymap.key_label(Action::RunSearch);
    if e.status() == Some(409) {
        // The refusal in full: its code and status, its details and the
        // service's advice.
        cx.notify(
            Level::Warning,
            "Already running",
            &with_advice(
                format!("{} — watching the run in progress.", super::advice::head(e)),
                e,
            ),
        );
        // Read the run again: the watch starts when a live status arrives.
        if leads.open_id() == Some(id) {
            return search::poll(leads, cx);
        }
        return fetch_meta(leads, cx, id);
    }
    if !e.maybe_accepted() {
        // Nothing started: the service's code and words, and the run key
        // (never "r retries": r refreshes, it does not run).
        cx.notify(
            Level::Error,
            &format!("{} · starting the run", e.code()),
            &with_advice(
                format!(
                    "{}. No run was started; {run} runs it again.",
                    e.message().trim_end_matches('.')
                ),
                e,
            ),
        );
        return Vec::new();
    }
    leads.uncertain_runs.insert(
        id.to_owned(),
        UncertainRun {
            why: e.code().to_owned(),
            before,
            check: cx.lost_check(),
        },
    );
    cx.notify(
        Level::Warning,
        "Run may have reached the service",
        &format!(
            "{}. Reading the search's run status to learn whether it started; {run} waits for that, then asks before sending again.",
            error_text(e)
        ),
    );
    // `Check::start()` counts its first read as on its way: sent now.
    send_run_check(cx, id)
}

/// Asks before running every search, saying how many it will start (and,
/// after a run-all whose answer was lost, that it may have started them).
pub(crate) fn ask_run_all(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if running_all(cx.requests) {
        return Vec::new();
    }
    if let Some(u) = leads
        .run_all_uncertain
        .as_ref()
        .filter(|u| !u.check.settled())
    {
        let seen = u.check.text(RUN_ALL_PLACE);
        refuse_while_checked(cx, &seen, Action::RunAll);
        return Vec::new();
    }
    let rows = &leads.list.rows;
    let known = rows.len() as u64;
    let running = rows.iter().filter(|r| r.watched()).count() as u64;
    let static_done = rows
        .iter()
        .filter(|r| r.search.kind == SearchKind::Static && r.search.last_run_id.is_some())
        .count() as u64;
    let start = known.saturating_sub(running + static_done);
    let mut lines = Vec::new();
    if let Some(u) = &leads.run_all_uncertain {
        lines.push(format!(
            "The last run-all ({}): {} Running all again may start runs twice.",
            u.why,
            u.check.again_warning(RUN_ALL_PLACE)
        ));
    }
    lines.push(if leads.list.loaded {
        format!(
            "This starts a run of up to {start} of the {} {}.",
            crate::text::format::plural(known, "search", "searches"),
            if leads.list.registry {
                "known locally"
            } else {
                "listed"
            }
        )
    } else {
        "This starts a run of every eligible search of the workspace.".to_owned()
    });
    if running > 0 || static_done > 0 {
        lines.push(format!(
            "Not started: {running} already running, {} that already ran.",
            crate::text::format::plural(static_done, "static search", "static searches")
        ));
    }
    if leads.list.registry {
        lines.push(
            "The service decides what is eligible; it may hold searches this list does not show."
                .into(),
        );
    }
    cx.confirm(Confirm {
        title: "Run all searches?".into(),
        lines,
        yes: format!("Run {start}"),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::RunAll.into()),
    });
    Vec::new()
}

/// Whether a run-all is on its way.
fn running_all(requests: &Requests) -> bool {
    in_flight(requests, |p| *p == Purpose::RunAll)
}

/// Runs every eligible search (confirmed).
pub(crate) fn run_all(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if running_all(cx.requests) {
        return Vec::new();
    }
    leads.run_all_uncertain = None;
    send(cx, Purpose::RunAll, ApiRequest::RunAll);
    Vec::new()
}

/// The run-all answer: counts, the agent summary and each search's outcome.
pub(crate) fn on_run_all(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<RunAllResponse, ApiError>,
) -> Vec<Cmd> {
    let r = match result {
        Ok(r) => r,
        Err(e) => return run_all_failed(leads, cx, &e),
    };
    leads.run_all_uncertain = None;
    let mut lines = run_all_report(&r);
    let mut seen = BTreeSet::new();
    for item in &r.results {
        lines.push(run_all_line(item));
        if !item.search_id.is_empty() && seen.insert(item.search_id.clone()) {
            take_run_all_item(leads, cx, item);
        }
    }
    if leads.dialog.is_some() {
        // A dialog is open (maybe a job, maybe typed text): the report
        // does not replace it; the counts go to a notice.
        let summary = lines.first().map(|(_, l)| l.clone()).unwrap_or_default();
        cx.notify(Level::Success, "Run all", &summary);
    } else {
        leads.dialog = Some(Dialog::Report(Report {
            title: "Run all".into(),
            lines,
            scroll: 0,
        }));
    }
    cx.save_state();
    let mut cmds = Vec::new();
    if matches!(leads.view, View::Search | View::Detail) {
        cmds.extend(search::poll(leads, cx));
    }
    cmds
}

/// A run-all that failed. When it may have reached the service, the
/// searches' runs are read on the check's schedule (a run id a search did
/// not show when it was sent proves it), the rows' statuses are read
/// again, and the next run-all waits for the verdict, then asks.
fn run_all_failed(leads: &mut LeadsModel, cx: &mut Ctx<'_>, e: &ApiError) -> Vec<Cmd> {
    let again = cx.keymap.key_label(Action::RunAll);
    if !e.maybe_accepted() {
        cx.notify(
            Level::Error,
            &format!("{} · running all searches", e.code()),
            &with_advice(
                format!(
                    "{}. No run was started; {again} asks to run them again.",
                    e.message().trim_end_matches('.')
                ),
                e,
            ),
        );
        return Vec::new();
    }
    let l = &leads.list;
    let before: BTreeMap<String, Option<String>> = l
        .rows
        .iter()
        .filter(|r| r.loaded && !r.gone)
        .map(|r| (r.search.search_id.clone(), r.search.last_run_id.clone()))
        .collect();
    let mut check = if l.loaded && l.registry {
        write::Check::unchecked("the service does not list searches").for_entry(cx.lost_entry())
    } else if before.is_empty() {
        write::Check::unchecked("no search's runs were known when it was sent")
            .for_entry(cx.lost_entry())
    } else {
        cx.lost_check()
    };
    cx.journal_verdict(&mut check);
    let reads = !check.settled();
    leads.run_all_uncertain = Some(UncertainRunAll {
        why: e.code().to_owned(),
        before,
        check,
    });
    cx.notify(
        Level::Warning,
        "Run all may have reached the service",
        &format!(
            "{}. {} {again} waits for that, then asks before sending it again.",
            error_text(e),
            if reads {
                "Reading the searches' runs to learn whether it started them;"
            } else {
                "Outpost cannot check it (the service does not list the searches' runs);"
            }
        ),
    );
    for r in &mut leads.list.rows {
        r.recheck = r.loaded && !r.gone;
    }
    // The statuses are read again when the list arrives (`recheck`).
    let mut cmds = if super::searches::list_pending(cx.requests) {
        Vec::new()
    } else {
        load(leads, cx)
    };
    if matches!(leads.view, View::Search | View::Detail) {
        cmds.extend(search::poll(leads, cx));
    }
    if reads {
        cmds.extend(send_run_all_check(cx));
    }
    cmds
}

/// Reads the searches for the check of a lost run-all.
pub(crate) fn read_run_all_check(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| *p == Purpose::RunAllCheck) {
        return Vec::new();
    }
    let Some(u) = leads.run_all_uncertain.as_mut() else {
        return Vec::new();
    };
    u.check.reading();
    send_run_all_check(cx)
}

fn send_run_all_check(cx: &mut Ctx<'_>) -> Vec<Cmd> {
    send(cx, Purpose::RunAllCheck, ApiRequest::ListSearches);
    Vec::new()
}

/// The searches, read after a lost run-all: a search showing a run it did
/// not show when it was sent proves the run-all went through.
pub(crate) fn on_run_all_check(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<Option<Vec<Search>>, ApiError>,
) -> Vec<Cmd> {
    let Some(u) = leads.run_all_uncertain.as_mut() else {
        return Vec::new();
    };
    let seen = match result {
        Ok(Some(list)) => {
            let started = list
                .iter()
                .filter(|s| {
                    u.before.get(&s.search_id).is_some_and(|was| {
                        s.last_run_id.as_ref().is_some_and(|r| !r.is_empty())
                            && s.last_run_id != *was
                    })
                })
                .count() as u64;
            if started > 0 {
                Seen::Found(format!(
                    "{} a new run",
                    crate::text::format::plural(started, "search shows", "searches show")
                ))
            } else {
                Seen::Absent
            }
        }
        Ok(None) => {
            cx.settle(
                &mut u.check,
                Verdict::NoCheck("the service does not list searches".into()),
            );
            return Vec::new();
        }
        Err(e) => Seen::Failed(error_text(&e)),
    };
    let verdict = cx.saw(&mut u.check, seen);
    let said = u.check.text(RUN_ALL_PLACE);
    let again = cx.keymap.key_label(Action::RunAll);
    match verdict {
        Some(Verdict::Found(_)) => cx.notify(
            Level::Success,
            "Run all went through",
            &format!("{said}; {again} asks before running all again"),
        ),
        Some(_) => cx.notify(
            Level::Warning,
            "Run all may not have started",
            &format!("{said}; {again} asks before sending it again"),
        ),
        None => {}
    }
    Vec::new()
}

/// The counts and the agent's summary, first in the report.
fn run_all_report(r: &RunAllResponse) -> Vec<(Level, String)> {
    let mut lines = vec![
        (
            Level::Info,
            format!(
                "matched {} · queued {} · already running {} · blocked {} · failed {} · skipped {}",
                r.matched_count,
                r.queued_count,
                r.existing_count,
                r.blocked_count,
                r.failed_count,
                r.skipped_count
            ),
        ),
        (Level::Info, String::new()),
    ];
    if !r.agent_summary.trim().is_empty() {
        lines.push((Level::Success, r.agent_summary.clone()));
        lines.push((Level::Info, String::new()));
    }
    lines
}

/// One search's outcome as the service said it ("skipped", "queued" …).
fn run_all_line(item: &RunAllItem) -> (Level, String) {
    let level = match &item.status {
        RunStatus::Queued | RunStatus::Running => Level::Success,
        RunStatus::Failed => Level::Error,
        _ => Level::Warning,
    };
    let mut line = format!("{} — {}", item.title, item.status);
    if let Some(code) = item.code.as_deref().filter(|c| !c.is_empty()) {
        line.push_str(&format!(" ({code})"));
    }
    if let Some(msg) = item.message.as_deref().filter(|c| !c.is_empty()) {
        line.push_str(&format!(": {msg}"));
    }
    (level, line)
}

/// Remembers a search run-all named. Only a run it queued (or found
/// running) is a run status: "skipped", "blocked" or a failure to queue
/// says nothing of the last run, whose real status stays shown.
fn take_run_all_item(leads: &mut LeadsModel, cx: &mut Ctx<'_>, item: &RunAllItem) {
    cx.state
        .remember_search(&item.search_id, &item.title, "run-all");
    add_known_row(leads, cx, &item.search_id, "run-all");
    let live = item.status.is_live();
    if let Some(row) = leads.list.row_mut(&item.search_id) {
        if row.search.title.is_empty() {
            row.search.title = item.title.clone();
        }
        if live {
            row.run = Some(item.status.clone());
        }
    }
    // The open search's run too, so its watch starts now.
    if live
        && let Some(o) = leads.open.as_mut()
        && o.search.search_id == item.search_id
    {
        let run_id = item.run_id.clone().unwrap_or_default();
        match o.latest_run.as_mut() {
            Some(r) if !run_id.is_empty() && r.run_id == run_id => {
                r.status = item.status.clone();
            }
            _ => {
                o.latest_run = Some(LatestRun {
                    run_id,
                    status: item.status.clone(),
                    trigger_run_id: item.trigger_run_id.clone().unwrap_or_default(),
                    ..LatestRun::default()
                });
            }
        }
    }
}
