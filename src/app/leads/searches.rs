//! The searches list: from the optional list route, else from the local
//! registry (ids created here, pasted with `:open search`, or seen in a
//! run-all answer), each fetched once for its metadata. Also running one
//! search and running all.

use std::collections::BTreeSet;

use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model, Overlay};
use super::layout;
use super::{
    Confirmed, Dialog, NOT_FOUND, Purpose, Report, View, WATCH_TRIES, error_text, search, send,
    toast_error,
};
use crate::api::model::{LatestRun, RunStatus, Search, SearchKind, SearchPageQuery};
use crate::app::table::TableState;
use crate::config::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Metadata requests in flight at most (the registry asks one per id).
const META_INFLIGHT: usize = 4;

/// One search in the list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchRow {
    /// The search (a placeholder with the id until its metadata arrives).
    pub search: Search,
    /// Status of its latest run, when known.
    pub run: Option<RunStatus>,
    /// Its metadata arrived.
    pub loaded: bool,
    /// A metadata request is in flight.
    pub pending: bool,
    /// Where the id came from (registry mode).
    pub source: String,
    /// Why its metadata could not be read; a row with an error is no
    /// longer watched (its run status is unknown).
    pub error: Option<String>,
    /// The service answered 404: the search is gone.
    pub gone: bool,
    /// Metadata reads that failed in a row.
    pub failures: u32,
}

/// The searches.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchList {
    /// Rows, newest first.
    pub rows: Vec<SearchRow>,
    /// An answer arrived.
    pub loaded: bool,
    /// The list request in flight.
    pub pending: bool,
    /// The list route is not offered: rows come from the local registry.
    pub registry: bool,
    /// The last failure.
    pub error: Option<String>,
    /// Selection.
    pub table: TableState,
}

impl SearchList {
    fn row_mut(&mut self, id: &str) -> Option<&mut SearchRow> {
        self.rows.iter_mut().find(|r| r.search.search_id == id)
    }

    /// The selected search's id.
    pub fn selected_id(&self) -> Option<String> {
        self.rows
            .get(self.table.selected)
            .map(|r| r.search.search_id.clone())
    }
}

fn viewport(m: &Model) -> usize {
    layout::searches_viewport(m.layout().body)
}

/// Loads the list unless it is loaded or on its way.
pub fn ensure_loaded(m: &mut Model) -> Vec<Cmd> {
    if m.panes.leads.list.loaded || m.panes.leads.list.pending {
        return Vec::new();
    }
    load(m)
}

fn load(m: &mut Model) -> Vec<Cmd> {
    m.panes.leads.list.pending = true;
    let (_, cmd) = send(m, Purpose::Searches, ApiRequest::ListSearches);
    vec![cmd]
}

/// The list answer (or `None`: the route is not offered).
pub fn on_list(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Searches(result) = reply else {
        return Vec::new();
    };
    let l = &mut m.panes.leads.list;
    l.pending = false;
    match result {
        Ok(Some(list)) => {
            let selected = l.selected_id();
            let old = std::mem::take(&mut l.rows);
            l.rows = list
                .into_iter()
                .map(|s| {
                    let prev = old.iter().find(|r| r.search.search_id == s.search_id);
                    SearchRow {
                        run: prev.and_then(|r| r.run.clone()),
                        loaded: true,
                        source: String::new(),
                        search: s,
                        pending: false,
                        error: None,
                        gone: false,
                        failures: 0,
                    }
                })
                .collect();
            l.loaded = true;
            l.registry = false;
            l.error = None;
            reselect(m, selected);
        }
        Ok(None) => {
            let selected = l.selected_id();
            l.registry = true;
            l.loaded = true;
            l.error = None;
            let old = std::mem::take(&mut l.rows);
            // Newest remembered first.
            let known: Vec<_> = m.state.known_searches.iter().rev().cloned().collect();
            m.panes.leads.list.rows = known
                .into_iter()
                .map(|k| {
                    let prev = old.iter().find(|r| r.search.search_id == k.id).cloned();
                    prev.unwrap_or_else(|| SearchRow {
                        search: Search {
                            search_id: k.id.clone(),
                            title: k.label.clone(),
                            ..Search::default()
                        },
                        source: k.source.clone(),
                        ..SearchRow::default()
                    })
                })
                .collect();
            for r in &mut m.panes.leads.list.rows {
                // Fetch every row again on a refresh.
                r.loaded = false;
            }
            reselect(m, selected);
        }
        Err(e) => {
            if !l.loaded {
                l.error = Some(error_text(&e));
            }
            toast_error(m, "loading searches", &e);
        }
    }
    fetch_visible_meta(m)
}

fn reselect(m: &mut Model, selected: Option<String>) {
    let vp = viewport(m);
    let l = &mut m.panes.leads.list;
    l.table.set_len(l.rows.len(), vp);
    if let Some(id) = selected
        && let Some(i) = l.rows.iter().position(|r| r.search.search_id == id)
    {
        l.table.select(i, vp);
    }
}

/// Adds a registry row for an id (pasted or created) when the list is in
/// registry mode or not loaded yet.
pub fn add_known_row(m: &mut Model, id: &str, source: &str) {
    let l = &mut m.panes.leads.list;
    if l.rows.iter().any(|r| r.search.search_id == id) {
        return;
    }
    if l.loaded && !l.registry {
        // The list route will show it on the next refresh.
        return;
    }
    l.rows.insert(
        0,
        SearchRow {
            search: Search {
                search_id: id.to_owned(),
                ..Search::default()
            },
            source: source.to_owned(),
            ..SearchRow::default()
        },
    );
    let vp = viewport(m);
    let n = m.panes.leads.list.rows.len();
    m.panes.leads.list.table.set_len(n, vp);
}

/// Inserts or refreshes a row from a full search (created, run, opened).
pub fn upsert(m: &mut Model, search: &Search, run: Option<&LatestRun>) {
    let status = run.map(|r| r.status.clone());
    let l = &mut m.panes.leads.list;
    match l.row_mut(&search.search_id) {
        Some(row) => {
            row.search = search.clone();
            row.loaded = true;
            row.error = None;
            row.gone = false;
            row.failures = 0;
            if status.is_some() {
                row.run = status;
            }
        }
        None => {
            l.rows.insert(
                0,
                SearchRow {
                    search: search.clone(),
                    run: status,
                    loaded: true,
                    ..SearchRow::default()
                },
            );
            let vp = viewport(m);
            let n = m.panes.leads.list.rows.len();
            m.panes.leads.list.table.set_len(n, vp);
        }
    }
}

/// Fetches metadata (and run status) for the visible rows that lack it.
pub fn fetch_visible_meta(m: &mut Model) -> Vec<Cmd> {
    let vp = viewport(m);
    let l = &m.panes.leads.list;
    let in_flight = l.rows.iter().filter(|r| r.pending).count();
    let wanted: Vec<String> = l
        .table
        .visible(vp)
        .filter_map(|i| l.rows.get(i))
        // A row that failed is read again only by its watch, at its pace.
        .filter(|r| !r.pending && r.error.is_none() && r.failures == 0)
        .filter(|r| {
            // Registry rows need everything; listed rows only their run
            // status, and only when they have a run.
            !r.loaded || (r.run.is_none() && r.search.last_run_id.is_some())
        })
        .map(|r| r.search.search_id.clone())
        .take(META_INFLIGHT.saturating_sub(in_flight))
        .collect();
    wanted
        .into_iter()
        .flat_map(|id| fetch_meta(m, &id))
        .collect()
}

/// Asks for one search's metadata and latest run (one result row).
pub fn fetch_meta(m: &mut Model, id: &str) -> Vec<Cmd> {
    if let Some(row) = m.panes.leads.list.row_mut(id) {
        if row.pending {
            return Vec::new();
        }
        row.pending = true;
    }
    let (_, cmd) = send(
        m,
        Purpose::SearchMeta(id.to_owned()),
        ApiRequest::GetSearch {
            id: id.to_owned(),
            page: SearchPageQuery {
                limit: Some(1),
                offset: None,
                cursor: None,
            },
        },
    );
    vec![cmd]
}

/// The metadata answer of one search.
pub fn on_meta(m: &mut Model, id: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::SearchPage(result) = reply else {
        return Vec::new();
    };
    if let Some(row) = m.panes.leads.list.row_mut(id) {
        row.pending = false;
    }
    match *result {
        Ok(page) => {
            let mut search = page.search;
            if search.search_id.is_empty() {
                search.search_id = id.to_owned();
            }
            let status = page.latest_run.as_ref().map(|r| r.status.clone());
            if let Some(row) = m.panes.leads.list.row_mut(id) {
                let before = row.run.clone();
                row.search = search.clone();
                row.loaded = true;
                row.run = status.clone();
                row.error = None;
                row.gone = false;
                row.failures = 0;
                announce_run_end(m, &search, before.as_ref(), status.as_ref());
            }
            // Keep the registry's label current (not a new entry).
            if !search.title.is_empty() && m.state.known_searches.iter().any(|k| k.id == id) {
                m.state.remember_search(id, &search.title, "");
            }
        }
        Err(e) => {
            let gone = e.status() == Some(404);
            let text = if gone {
                NOT_FOUND.to_owned()
            } else {
                error_text(&e)
            };
            if let Some(row) = m.panes.leads.list.row_mut(id) {
                row.failures = row.failures.saturating_add(1);
                let watched = row.run.as_ref().is_some_and(RunStatus::is_live);
                // A watched row gets a few tries (the watch's own pace);
                // then, or at once when it is gone, its watch ends and the
                // row says so.
                if gone || !watched || row.failures >= WATCH_TRIES {
                    row.error = Some(text);
                    row.gone = gone;
                    row.loaded = true;
                }
            }
        }
    }
    fetch_visible_meta(m)
}

/// Tells the user a watched run ended.
pub fn announce_run_end(
    m: &mut Model,
    search: &Search,
    before: Option<&RunStatus>,
    after: Option<&RunStatus>,
) {
    let (Some(before), Some(after)) = (before, after) else {
        return;
    };
    if !before.is_live() || after.is_live() {
        return;
    }
    let title = DisplayText::inline(&search.title);
    let (level, what) = match after {
        RunStatus::Completed => (Level::Success, "Run completed"),
        RunStatus::Failed => (Level::Error, "Run failed"),
        _ => (Level::Warning, "Run ended"),
    };
    m.notify(
        level,
        what,
        &format!(
            "{title}: {} results, {} leads",
            format::count(search.result_count),
            format::count(search.lead_count)
        ),
    );
}

/// A key action on the list.
pub fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = viewport(m);
    let t = &mut m.panes.leads.list.table;
    let moved = match action {
        Action::Up => {
            t.move_by(-1, vp);
            true
        }
        Action::Down => {
            t.move_by(1, vp);
            true
        }
        Action::Top => {
            t.top(vp);
            true
        }
        Action::Bottom => {
            t.bottom(vp);
            true
        }
        Action::PageUp => {
            t.page_up(vp);
            true
        }
        Action::PageDown => {
            t.page_down(vp);
            true
        }
        _ => false,
    };
    if moved {
        return fetch_visible_meta(m);
    }
    let selected = m.panes.leads.list.selected_id();
    match action {
        Action::Open | Action::Enrichment => match selected {
            Some(id) => search::open(m, &id),
            None => Vec::new(),
        },
        Action::RunSearch => match selected {
            Some(id) => run(m, &id),
            None => Vec::new(),
        },
        Action::Refresh => {
            if m.panes.leads.list.pending {
                Vec::new()
            } else {
                load(m)
            }
        }
        Action::Filter | Action::Export | Action::AddToCampaign => {
            m.notify(
                Level::Info,
                "Open a search first",
                "Enter opens the selected search; filter, export and add-to-campaign work on its results",
            );
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Whether the latest run can be continued (`continuation=true`): it
/// stopped before finishing. A queued or running run is not: continuing it
/// would skip the service's guard against a second run (the 409), so a
/// double press would dispatch twice.
pub fn resumable(run: Option<&RunStatus>) -> bool {
    matches!(run, Some(RunStatus::Failed | RunStatus::Cancelled))
}

/// Starts a run of one search: a fresh one, or a continuation of a run
/// that stopped (or of a live run once the service's
/// `continuationRetryAfter` has passed). A live run that is being watched
/// is not started again: the user is told it runs.
pub fn run(m: &mut Model, id: &str) -> Vec<Cmd> {
    if m.panes.leads.starting.contains(id) {
        return Vec::new();
    }
    // The status known, and whether it is current (watched, not given up).
    let (status, known) = if m.panes.leads.open_id() == Some(id) {
        let o = m.panes.leads.open.as_ref();
        (
            o.and_then(|o| o.latest_run.as_ref())
                .map(|r| r.status.clone()),
            o.is_some_and(|o| o.watch_lost.is_none()),
        )
    } else {
        let row = m
            .panes
            .leads
            .list
            .rows
            .iter()
            .find(|r| r.search.search_id == id);
        (
            row.and_then(|r| r.run.clone()),
            row.is_some_and(|r| r.error.is_none()),
        )
    };
    let continuation = match status.as_ref() {
        Some(s) if s.is_live() => {
            let after = m.panes.leads.retry_after.get(id).cloned();
            let may_continue = after
                .as_deref()
                .and_then(format::unix)
                .is_some_and(|t| m.clock >= t);
            if may_continue {
                // The service said a continuation may be tried from then.
                Some(true)
            } else if known {
                let mut text = format!(
                    "its run is {}; watching it",
                    DisplayText::inline(s.as_str())
                );
                if let Some(after) = after {
                    text.push_str(&format!(
                        " (R may continue it after {})",
                        format::date(&after)
                    ));
                }
                m.notify(Level::Info, "Already running", &text);
                return Vec::new();
            } else {
                // Status unknown: a plain run, which the service refuses
                // (409) if one is still going.
                None
            }
        }
        other => resumable(other).then_some(true),
    };
    m.panes.leads.starting.insert(id.to_owned());
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

/// The answer to a run.
pub fn on_run(m: &mut Model, id: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::RunStarted(result) = reply else {
        return Vec::new();
    };
    m.panes.leads.starting.remove(id);
    match *result {
        Ok(r) => {
            let mut s = r.search.clone();
            if s.search_id.is_empty() {
                s.search_id = id.to_owned();
            }
            let title = DisplayText::inline(&s.title).into_string();
            let counts: Vec<String> = r
                .run
                .counts
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{} {}",
                        DisplayText::inline(k),
                        DisplayText::inline(&v.to_string())
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
            match &r.run.continuation_retry_after {
                Some(after) => {
                    text.push_str(&format!(" · continue after {}", format::date(after)));
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
            let live = crate::api::model::LatestRun {
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
        Err(e) => {
            if e.status() == Some(409) {
                m.notify(
                    Level::Warning,
                    "Already running",
                    &format!("{} — watching the run in progress", e.message()),
                );
                // Pick the run up: the watch starts when its status arrives.
                if m.panes.leads.open_id() == Some(id) {
                    return search::poll(m);
                }
                return fetch_meta(m, id);
            }
            toast_error(m, "starting the run", &e);
            Vec::new()
        }
    }
}

/// Asks before running every search, saying how many it will start.
pub fn ask_run_all(m: &mut Model) -> Vec<Cmd> {
    if m.panes.leads.run_all_pending {
        return Vec::new();
    }
    let rows = &m.panes.leads.list.rows;
    let known = rows.len();
    let running = rows
        .iter()
        .filter(|r| r.run.as_ref().is_some_and(RunStatus::is_live))
        .count();
    let static_done = rows
        .iter()
        .filter(|r| r.search.kind == SearchKind::Static && r.search.last_run_id.is_some())
        .count();
    let start = known.saturating_sub(running + static_done);
    let mut lines = if m.panes.leads.list.loaded {
        vec![format!(
            "This starts a run of up to {start} of the {known} searches {}.",
            if m.panes.leads.list.registry {
                "known locally"
            } else {
                "listed"
            }
        )]
    } else {
        vec!["This starts a run of every eligible search of the workspace.".to_owned()]
    };
    if running > 0 || static_done > 0 {
        lines.push(format!(
            "Not started: {running} already running, {static_done} static searches that already ran."
        ));
    }
    if m.panes.leads.list.registry {
        lines.push(
            "The service decides what is eligible; it may hold searches this list does not show."
                .into(),
        );
    }
    m.overlay = Some(Overlay::Confirm(Confirm {
        title: "Run all searches?".into(),
        lines,
        yes: format!("Run {start}"),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::RunAll.into()),
    }));
    Vec::new()
}

/// Runs every eligible search (confirmed).
pub fn run_all(m: &mut Model) -> Vec<Cmd> {
    if m.panes.leads.run_all_pending {
        return Vec::new();
    }
    m.panes.leads.run_all_pending = true;
    let (_, cmd) = send(m, Purpose::RunAll, ApiRequest::RunAll);
    vec![cmd]
}

/// The run-all answer: counts, the agent summary and each search's outcome.
pub fn on_run_all(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::RunAll(result) = reply else {
        return Vec::new();
    };
    m.panes.leads.run_all_pending = false;
    let r = match *result {
        Ok(r) => r,
        Err(e) => {
            toast_error(m, "running all searches", &e);
            return Vec::new();
        }
    };
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
    let mut seen = BTreeSet::new();
    for item in &r.results {
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
        lines.push((level, line));
        if !item.search_id.is_empty() && seen.insert(item.search_id.clone()) {
            m.state
                .remember_search(&item.search_id, &item.title, "run-all");
            add_known_row(m, &item.search_id, "run-all");
            if let Some(row) = m.panes.leads.list.row_mut(&item.search_id) {
                if row.search.title.is_empty() {
                    row.search.title = item.title.clone();
                }
                row.run = Some(item.status.clone());
            }
            // The open search's run too, so its watch starts now.
            if item.status.is_live()
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
