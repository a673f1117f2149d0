//! Running searches: one (`R`: a fresh run, or a continuation of one that
//! stopped), or all (`Ctrl-R`, asked first). A run request whose answer was
//! lost after sending may have started a run: the search is read again to
//! learn whether it did, and the next request for it asks first.

use std::collections::BTreeSet;

use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::searches::{add_known_row, fetch_meta, load, upsert};
use super::{
    Confirmed, Dialog, Purpose, Report, View, in_flight, maybe_accepted, search, send, starting,
    toast_error,
};
use crate::api::ApiError;
use crate::api::model::{
    LatestRun, RunAllItem, RunAllResponse, RunResponse, RunStatus, SearchKind,
};
use crate::app::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Whether the latest run can be continued (`continuation=true`): it
/// stopped before finishing. A queued or running run is not: continuing it
/// would skip the service's guard against a second run (the 409), so a
/// double press would dispatch twice.
pub fn resumable(run: Option<&RunStatus>) -> bool {
    matches!(run, Some(RunStatus::Failed | RunStatus::Cancelled))
}

/// The run status known for a search, and whether it is current (watched,
/// its last read succeeded).
fn known_status(m: &Model, id: &str) -> (Option<RunStatus>, bool) {
    let l = &m.panes.leads;
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
pub fn run(m: &mut Model, id: &str) -> Vec<Cmd> {
    if starting(m, id) {
        return Vec::new();
    }
    let Some(continuation) = continuation(m, id) else {
        return Vec::new();
    };
    if let Some(why) = m.panes.leads.uncertain_runs.get(id).cloned() {
        ask_run_again(m, id, &why);
        return Vec::new();
    }
    send_run(m, id, continuation)
}

/// Whether to continue the last run (`Some(None)`: a fresh run); `None`
/// when nothing is to be sent (a live run is watched: the user is told).
fn continuation(m: &mut Model, id: &str) -> Option<Option<bool>> {
    let (status, known) = known_status(m, id);
    let Some(s) = status.as_ref().filter(|s| s.is_live()) else {
        return Some(resumable(status.as_ref()).then_some(true));
    };
    let after = m.panes.leads.retry_after.get(id).cloned();
    let may_continue = after
        .as_deref()
        .and_then(format::unix)
        .is_some_and(|t| m.clock >= t);
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
    m.panes.leads.uncertain_runs.remove(id);
    let mut text = format!(
        "its run is {}; watching it",
        DisplayText::inline(s.as_str())
    );
    if let Some(after) = after {
        text.push_str(&format!(
            " ({} may continue it after {})",
            m.keymap.key_label(Action::RunSearch),
            format::date(&after)
        ));
    }
    m.notify(Level::Info, "Already running", &text);
    None
}

fn send_run(m: &mut Model, id: &str, continuation: Option<bool>) -> Vec<Cmd> {
    let (_, cmd) = send(
        m,
        Purpose::Run(id.to_owned()),
        ApiRequest::RunSearch {
            id: id.to_owned(),
            continuation,
        },
    );
    vec![cmd]
}

/// "Run again?" after a run request that may have been accepted.
fn ask_run_again(m: &mut Model, id: &str, why: &str) {
    let (status, _) = known_status(m, id);
    let now = match status {
        Some(s) => format!(
            "The search shows its last run as {} now.",
            DisplayText::inline(s.as_str())
        ),
        None => "The search shows no run now.".to_owned(),
    };
    m.confirm(Confirm {
        title: "Run again?".into(),
        lines: vec![
            format!("The last run request for this search may have been accepted ({why})."),
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
pub fn run_again(m: &mut Model, id: &str) -> Vec<Cmd> {
    m.panes.leads.uncertain_runs.remove(id);
    run(m, id)
}

/// The answer to a run.
pub fn on_run(m: &mut Model, id: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::RunStarted(result) = reply else {
        return Vec::new();
    };
    match *result {
        Ok(r) => run_started(m, id, &r),
        Err(e) => run_failed(m, id, &e),
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
                DisplayText::inline(&crate::app::json_tree::value_text(v))
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

fn run_started(m: &mut Model, id: &str, r: &RunResponse) -> Vec<Cmd> {
    m.panes.leads.uncertain_runs.remove(id);
    let mut s = r.search.clone();
    if s.search_id.is_empty() {
        s.search_id = id.to_owned();
    }
    let text = started_text(&DisplayText::inline(&s.title).into_string(), r);
    match &r.run.continuation_retry_after {
        Some(after) => {
            m.panes
                .leads
                .retry_after
                .insert(id.to_owned(), after.clone());
        }
        None => {
            m.panes.leads.retry_after.remove(id);
        }
    }
    m.notify(Level::Success, "Run started", &text);
    let live = LatestRun {
        run_id: r.run.run_id.clone(),
        status: r.run.status.clone(),
        counts: r.run.counts.clone(),
        trigger_run_id: r.run.trigger_run_id.clone(),
        ..Default::default()
    };
    if !s.title.is_empty() {
        upsert(m, &s, Some(&live));
    } else if let Some(row) = m.panes.leads.list.row_mut(id) {
        row.run = Some(live.status.clone());
    }
    search::run_started(m, id, live)
}

/// A run that failed: a 409 is a run already going (watched from now);
/// an answer lost after sending may have started one (read again, and the
/// next `R` asks first).
fn run_failed(m: &mut Model, id: &str, e: &ApiError) -> Vec<Cmd> {
    if e.status() == Some(409) {
        m.notify(
            Level::Warning,
            "Already running",
            &format!("{} — watching the run in progress", e.message()),
        );
    } else if e.maybe_accepted() {
        m.panes
            .leads
            .uncertain_runs
            .insert(id.to_owned(), e.code().to_owned());
        let again = m.keymap.key_label(Action::RunSearch);
        m.notify(
            Level::Warning,
            "Run may have started",
            &format!(
                "{}; reading the search again to see. {again} asks before sending it again.",
                maybe_accepted(e)
            ),
        );
    } else {
        toast_error(m, "starting the run", e);
        return Vec::new();
    }
    // Read the run again: the watch starts when a live status arrives.
    if m.panes.leads.open_id() == Some(id) {
        return search::poll(m);
    }
    fetch_meta(m, id)
}

/// Asks before running every search, saying how many it will start (and,
/// after a run-all whose answer was lost, that it may have started them).
pub fn ask_run_all(m: &mut Model) -> Vec<Cmd> {
    if running_all(m) {
        return Vec::new();
    }
    let rows = &m.panes.leads.list.rows;
    let known = rows.len() as u64;
    let running = rows.iter().filter(|r| r.watched()).count() as u64;
    let static_done = rows
        .iter()
        .filter(|r| r.search.kind == SearchKind::Static && r.search.last_run_id.is_some())
        .count() as u64;
    let start = known.saturating_sub(running + static_done);
    let mut lines = Vec::new();
    if let Some(why) = &m.panes.leads.run_all_uncertain {
        lines.push(format!(
            "The last run-all may have been accepted ({why}): the searches it started show as running. Running all again may start runs twice."
        ));
    }
    lines.push(if m.panes.leads.list.loaded {
        format!(
            "This starts a run of up to {start} of the {} {}.",
            crate::text::format::plural(known, "search", "searches"),
            if m.panes.leads.list.registry {
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
    if m.panes.leads.list.registry {
        lines.push(
            "The service decides what is eligible; it may hold searches this list does not show."
                .into(),
        );
    }
    m.confirm(Confirm {
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
fn running_all(m: &Model) -> bool {
    in_flight(m, |p| *p == Purpose::RunAll)
}

/// Runs every eligible search (confirmed).
pub fn run_all(m: &mut Model) -> Vec<Cmd> {
    if running_all(m) {
        return Vec::new();
    }
    let (_, cmd) = send(m, Purpose::RunAll, ApiRequest::RunAll);
    vec![cmd]
}

/// The run-all answer: counts, the agent summary and each search's outcome.
pub fn on_run_all(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::RunAll(result) = reply else {
        return Vec::new();
    };
    let r = match *result {
        Ok(r) => r,
        Err(e) => return run_all_failed(m, &e),
    };
    m.panes.leads.run_all_uncertain = None;
    let mut lines = run_all_report(&r);
    let mut seen = BTreeSet::new();
    for item in &r.results {
        lines.push(run_all_line(item));
        if !item.search_id.is_empty() && seen.insert(item.search_id.clone()) {
            take_run_all_item(m, item);
        }
    }
    if m.panes.leads.dialog.is_some() {
        // A dialog is open (maybe a job, maybe typed text): the report
        // does not replace it; the counts go to a notice.
        let summary = lines.first().map(|(_, l)| l.clone()).unwrap_or_default();
        m.notify(Level::Success, "Run all", &summary);
    } else {
        m.panes.leads.dialog = Some(Dialog::Report(Report {
            title: "Run all".into(),
            lines,
            scroll: 0,
        }));
    }
    let mut cmds = vec![m.save_state()];
    if matches!(m.panes.leads.view, View::Search | View::Detail) {
        cmds.extend(search::poll(m));
    }
    cmds
}

/// A run-all that failed. When it may have been accepted (the answer was
/// lost after sending), the searches are read again to show what it
/// started, and the next run-all says so before it is sent.
fn run_all_failed(m: &mut Model, e: &ApiError) -> Vec<Cmd> {
    if !e.maybe_accepted() {
        toast_error(m, "running all searches", e);
        return Vec::new();
    }
    m.panes.leads.run_all_uncertain = Some(e.code().to_owned());
    let again = m.keymap.key_label(Action::RunAll);
    m.notify(
        Level::Warning,
        "Run all may have started",
        &format!(
            "{}; reading the searches again to see what runs. {again} asks before sending it again.",
            maybe_accepted(e)
        ),
    );
    for r in &mut m.panes.leads.list.rows {
        r.recheck = r.loaded && !r.gone;
    }
    // The statuses are read again when the list arrives (`recheck`).
    let mut cmds = if super::searches::list_pending(m) {
        Vec::new()
    } else {
        load(m)
    };
    if matches!(m.panes.leads.view, View::Search | View::Detail) {
        cmds.extend(search::poll(m));
    }
    cmds
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
fn take_run_all_item(m: &mut Model, item: &RunAllItem) {
    m.state
        .remember_search(&item.search_id, &item.title, "run-all");
    add_known_row(m, &item.search_id, "run-all");
    let live = item.status.is_live();
    if let Some(row) = m.panes.leads.list.row_mut(&item.search_id) {
        if row.search.title.is_empty() {
            row.search.title = item.title.clone();
        }
        if live {
            row.run = Some(item.status.clone());
        }
    }
    // The open search's run too, so its watch starts now.
    if live
        && let Some(o) = m.panes.leads.open.as_mut()
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
