//! The searches list: from the optional list route, else from the local
//! registry (ids created here, pasted with `:open search`, or seen in a
//! run-all answer), each fetched once for its metadata. Also running one
//! search and running all.

use crate::app::ctx::Ctx;
use crate::app::requests::Requests;
use std::collections::BTreeSet;

use super::super::toast::Level;
use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use super::super::{ApiRequest, Cmd};
use super::layout;
use super::{
    LeadsModel, NOT_FOUND, Purpose, error_text, fixed_keys, in_flight, search, send, toast_error,
};
use crate::api::ApiError;
use crate::api::model::{LatestRun, RunStatus, Search, SearchPage, SearchPageQuery};
use crate::app::cache::{Cached, CachedSearch, MAX_ITEMS};
use crate::app::fresh::Freshness;
use crate::app::keymap::Action;
use crate::app::table::TableState;
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
    /// Where the id came from (registry mode).
    pub source: String,
    /// When its metadata was last read, and whether the last read failed
    /// (what was read before stays shown, marked stale).
    pub fresh: Freshness,
    /// The service answered 404: the search is gone (no longer watched).
    pub gone: bool,
    /// Read it again at the next chance (a refresh after a failed read).
    pub recheck: bool,
}

impl SearchRow {
    /// Whether its run is watched: live as last read, and not gone (a
    /// failed read does not end the watch: the next poll tries again).
    pub fn watched(&self) -> bool {
        !self.gone && self.run.as_ref().is_some_and(RunStatus::is_live)
    }
}

/// The list of searches as last read, with its selection and filter.
#[derive(Debug, Clone, Default)]
pub struct SearchList {
    /// Rows, newest first.
    pub rows: Vec<SearchRow>,
    /// An answer arrived.
    pub loaded: bool,
    /// The list route is not offered: rows come from the local registry.
    pub registry: bool,
    /// Why the last read of the list failed (cleared by an answer).
    pub error: Option<crate::api::ApiError>,
    /// Selection over the rows shown (those the query matches).
    pub table: TableState,
    /// The `/` query narrowing the rows as it is typed.
    pub query: Option<ListQuery>,
    /// The rows are the last-known list from the cache, read at this
    /// time (unix seconds): stale until the list answers.
    pub cached: Option<i64>,
}

/// The text typed after `/` over the searches.
#[derive(Debug, Clone)]
pub struct ListQuery {
    /// What is typed.
    pub text: TextArea<'static>,
    /// The box has the focus (every key is typed into it).
    pub editing: bool,
}

impl ListQuery {
    /// The text, trimmed and lowercased, as it is matched.
    pub fn needle(&self) -> String {
        self.text.lines().join(" ").trim().to_lowercase()
    }
}

impl SearchRow {
    /// Whether the row matches a (lowercased) query: what the row shows —
    /// its title, kind, id, or where its id came from.
    pub fn matches(&self, needle: &str) -> bool {
        let s = &self.search;
        needle.is_empty()
            || [
                s.title.as_str(),
                s.kind.as_str(),
                &s.search_id,
                &self.source,
            ]
            .iter()
            .any(|f| f.to_lowercase().contains(needle))
    }
}

impl SearchList {
    /// The row of a search.
    pub fn row_mut(&mut self, id: &str) -> Option<&mut SearchRow> {
        self.rows.iter_mut().find(|r| r.search.search_id == id)
    }

    /// Indices of the rows shown: those the query matches, in order.
    pub fn shown(&self) -> Vec<usize> {
        let needle = self
            .query
            .as_ref()
            .map(ListQuery::needle)
            .unwrap_or_default();
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.matches(&needle))
            .map(|(i, _)| i)
            .collect()
    }

    /// The row at line `i` of the table (over the rows shown).
    pub fn row(&self, i: usize) -> Option<&SearchRow> {
        self.shown().get(i).and_then(|j| self.rows.get(*j))
    }

    /// The rows on screen.
    pub fn visible_rows(&self, viewport: usize) -> Vec<&SearchRow> {
        let shown = self.shown();
        self.table
            .visible(viewport)
            .filter_map(|i| shown.get(i).and_then(|j| self.rows.get(*j)))
            .collect()
    }

    /// The selected search's id.
    pub fn selected_id(&self) -> Option<String> {
        self.row(self.table.selected)
            .map(|r| r.search.search_id.clone())
    }

    /// Sets the table's length to the rows shown, keeping `keep` selected
    /// when it is among them.
    pub fn set_len(&mut self, viewport: usize, keep: Option<&str>) {
        let shown = self.shown();
        self.table.set_len(shown.len(), viewport);
        if let Some(id) = keep
            && let Some(i) = shown
                .iter()
                .position(|j| self.rows.get(*j).is_some_and(|r| r.search.search_id == id))
        {
            self.table.select(i, viewport);
        }
    }
}

fn viewport(cx: &Ctx<'_>) -> usize {
    layout::searches_viewport(cx.layout().body)
}

/// Whether the list request is on its way.
pub(crate) fn list_pending(requests: &Requests) -> bool {
    in_flight(requests, |p| *p == Purpose::Searches)
}

/// Whether the metadata of search `id` is on its way.
pub(crate) fn meta_pending(requests: &Requests, id: &str) -> bool {
    in_flight(requests, |p| matches!(p, Purpose::SearchMeta(s) if s == id))
}

/// Loads the list unless it is loaded or on its way.
pub(crate) fn ensure_loaded(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if leads.list.loaded || list_pending(cx.requests) {
        return Vec::new();
    }
    load(leads, cx)
}

/// The last-known searches, shown marked stale until the list answers
/// (when nothing of this session is shown yet). Each is read again once
/// the list is in (its run status is as old as the cache).
pub(crate) fn from_cache(leads: &mut LeadsModel, cx: &mut Ctx<'_>) {
    let l = &leads.list;
    if l.loaded || !l.rows.is_empty() {
        return;
    }
    let Some(cached) = cx.cache().searches.clone() else {
        return;
    };
    let l = &mut leads.list;
    l.rows = cached
        .items
        .into_iter()
        .map(|c| SearchRow {
            search: c.search,
            run: c.run,
            loaded: true,
            source: c.source,
            fresh: Freshness {
                read_at: Some(cached.as_of),
                ..Freshness::default()
            },
            gone: false,
            recheck: true,
        })
        .collect();
    l.cached = Some(cached.as_of);
    reselect(leads, cx, None);
}

/// Hands the rows read so far to the cache of last-known lists.
fn cache_rows(leads: &mut LeadsModel, cx: &mut Ctx<'_>) {
    let rows: Vec<CachedSearch> = leads
        .list
        .rows
        .iter()
        .filter(|r| r.loaded && !r.gone)
        .take(MAX_ITEMS)
        .map(cached_row)
        .collect();
    let fresh = Cached::of(&rows, cx.clock);
    cx.cache_list(|c| &mut c.searches, fresh);
}

fn cached_row(r: &SearchRow) -> CachedSearch {
    CachedSearch {
        search: r.search.clone(),
        run: r.run.clone(),
        source: r.source.clone(),
    }
}

/// Asks for the list (a refresh reads rows that failed again too).
pub(crate) fn load(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    for r in &mut leads.list.rows {
        // A refresh reads again what could not be read.
        r.recheck |= r.fresh.is_stale() && !r.gone;
    }
    send(cx, Purpose::Searches, ApiRequest::ListSearches);
    Vec::new()
}

/// The list answer (or `None`: the route is not offered).
pub(crate) fn on_list(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<Option<Vec<Search>>, ApiError>,
) -> Vec<Cmd> {
    let clock = cx.clock;
    let l = &mut leads.list;
    match result {
        Ok(Some(list)) => {
            let selected = l.selected_id();
            let old = std::mem::take(&mut l.rows);
            l.rows = list
                .into_iter()
                .map(|s| {
                    let prev = old.iter().find(|r| r.search.search_id == s.search_id);
                    // The run status is the row's own read: it keeps its
                    // age and its stale mark until read again.
                    let mut fresh = prev.map(|r| r.fresh.clone()).unwrap_or_default();
                    if fresh.read_at.is_none() {
                        fresh.read_at = Some(clock);
                    }
                    SearchRow {
                        run: prev.and_then(|r| r.run.clone()),
                        loaded: true,
                        source: String::new(),
                        search: s,
                        recheck: prev.is_some_and(|r| r.recheck),
                        fresh,
                        gone: false,
                    }
                })
                .collect();
            l.loaded = true;
            l.registry = false;
            l.error = None;
            l.cached = None;
            reselect(leads, cx, selected.as_deref());
            cache_rows(leads, cx);
        }
        Ok(None) => {
            let selected = l.selected_id();
            l.registry = true;
            l.loaded = true;
            l.error = None;
            l.cached = None;
            let old = std::mem::take(&mut l.rows);
            // Newest remembered first.
            let known: Vec<_> = cx.state.known_searches.iter().rev().cloned().collect();
            leads.list.rows = known
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
            for r in &mut leads.list.rows {
                // Fetch every row again on a refresh.
                r.loaded = false;
            }
            reselect(leads, cx, selected.as_deref());
        }
        Err(e) => {
            if !l.loaded {
                l.error = Some(e.clone());
            }
            toast_error(cx, "loading searches", &e);
        }
    }
    fetch_visible_meta(leads, cx)
}

fn reselect(leads: &mut LeadsModel, cx: &mut Ctx<'_>, selected: Option<&str>) {
    let vp = viewport(cx);
    leads.list.set_len(vp, selected);
}

/// Adds a registry row for an id (pasted or created) when the list is in
/// registry mode or not loaded yet.
pub(crate) fn add_known_row(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str, source: &str) {
    let l = &mut leads.list;
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
    let vp = viewport(cx);
    let keep = leads.list.selected_id();
    leads.list.set_len(vp, keep.as_deref());
}

/// Inserts or refreshes a row from a full search (created, run, opened).
pub(crate) fn upsert(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    search: &Search,
    run: Option<&LatestRun>,
) {
    let status = run.map(|r| r.status.clone());
    let clock = cx.clock;
    let l = &mut leads.list;
    match l.row_mut(&search.search_id) {
        Some(row) => {
            row.search = search.clone();
            row.loaded = true;
            row.fresh.ok(clock);
            row.gone = false;
            if status.is_some() {
                row.run = status;
            }
        }
        None => {
            let keep = l.selected_id();
            l.rows.insert(
                0,
                SearchRow {
                    search: search.clone(),
                    run: status,
                    loaded: true,
                    fresh: Freshness {
                        read_at: Some(clock),
                        ..Freshness::default()
                    },
                    ..SearchRow::default()
                },
            );
            let vp = viewport(cx);
            leads.list.set_len(vp, keep.as_deref());
        }
    }
}

/// Fetches metadata (and run status) for the visible rows that lack it.
pub(crate) fn fetch_visible_meta(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let vp = viewport(cx);
    let l = &leads.list;
    let reading: BTreeSet<&str> = cx
        .requests
        .purposes::<LeadsModel>()
        .filter_map(|p| match p {
            Purpose::SearchMeta(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let wanted: Vec<String> = l
        .visible_rows(vp)
        .into_iter()
        // A row whose read failed is read again by its watch, at its
        // pace, or after a refresh.
        .filter(|r| {
            !reading.contains(r.search.search_id.as_str())
                && !r.gone
                && (!r.fresh.is_stale() || r.recheck)
        })
        .filter(|r| {
            // Registry rows need everything; listed rows only their run
            // status, and only when they have a run.
            r.recheck || !r.loaded || (r.run.is_none() && r.search.last_run_id.is_some())
        })
        .map(|r| r.search.search_id.clone())
        .take(META_INFLIGHT.saturating_sub(reading.len()))
        .collect();
    wanted
        .into_iter()
        .flat_map(|id| fetch_meta(leads, cx, &id))
        .collect()
}

/// Asks for one search's metadata and latest run (one result row).
pub(crate) fn fetch_meta(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if meta_pending(cx.requests, id) {
        return Vec::new();
    }
    if let Some(row) = leads.list.row_mut(id) {
        row.recheck = false;
    }
    send(cx, Purpose::SearchMeta(id.to_owned()), status_read(id));
    Vec::new()
}

/// A read of a search's status and run with a one-row page (the rows
/// come from elsewhere, or are not needed).
pub(crate) fn status_read(id: &str) -> ApiRequest {
    ApiRequest::GetSearch {
        id: id.to_owned(),
        page: SearchPageQuery {
            limit: Some(1),
            offset: None,
            cursor: None,
        },
    }
}

/// The metadata answer of one search. A failure keeps what the row
/// showed, marked stale; only a 404 ends its watch.
pub(crate) fn on_meta(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<SearchPage, ApiError>,
) -> Vec<Cmd> {
    let clock = cx.clock;
    let Some(row) = leads.list.row_mut(id) else {
        return fetch_visible_meta(leads, cx);
    };
    match result {
        Ok(page) => {
            let mut search = page.search;
            if search.search_id.is_empty() {
                search.search_id = id.to_owned();
            }
            let status = page.latest_run.as_ref().map(|r| r.status.clone());
            let before = row.run.clone();
            let run = page.latest_run;
            row.search = search.clone();
            row.loaded = true;
            row.run = status.clone();
            row.fresh.ok(clock);
            row.gone = false;
            let read = leads.list.rows.iter().find(|r| r.search.search_id == id);
            if let Some(row) = read.map(cached_row) {
                cx.cache_item(|c| &mut c.searches, &row);
            }
            announce_run_end(cx, &search, before.as_ref(), run.as_ref());
            // Keep the registry's label current (not a new entry).
            if !search.title.is_empty() && cx.state.known_searches.iter().any(|k| k.id == id) {
                cx.state.remember_search(id, &search.title, "");
            }
        }
        Err(e) => {
            row.gone = e.status() == Some(404);
            row.fresh.fail_at(
                clock,
                if row.gone {
                    NOT_FOUND.to_owned()
                } else {
                    error_text(&e)
                },
                &e,
            );
        }
    }
    fetch_visible_meta(leads, cx)
}

/// Tells the user a watched run ended — with the bell and a desktop
/// notification (`[notify]`), as they wait for it — and why it failed
/// when its sources said.
pub(crate) fn announce_run_end(
    cx: &mut Ctx<'_>,
    search: &Search,
    before: Option<&RunStatus>,
    after: Option<&LatestRun>,
) {
    let (Some(before), Some(run)) = (before, after) else {
        return;
    };
    if !before.is_live() || run.status.is_live() {
        return;
    }
    let title = DisplayText::inline(&search.title);
    let (level, what) = match run.status {
        RunStatus::Completed => (Level::Success, "Run completed"),
        RunStatus::Failed => (Level::Error, "Run failed"),
        _ => (Level::Warning, "Run ended"),
    };
    let counts = format!(
        "{}, {}",
        format::plural(search.result_count, "result", "results"),
        format::plural(search.lead_count, "lead", "leads")
    );
    let why = run_errors(run);
    let text = match (&run.status, why.is_empty()) {
        (RunStatus::Failed, true) => format!("{title}: the service gave no reason · {counts}"),
        (_, true) => format!("{title}: {counts}"),
        (_, false) => format!("{title}: {why} · {counts}"),
    };
    cx.alert(level, what, &text);
}

/// What went wrong in a run, as its sources said it: `network_people
/// provider_timeout: upstream timed out`, each source once, `; `
/// between them; empty when none said anything.
pub(crate) fn run_errors(run: &LatestRun) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for e in &run.errors {
        let head = [e.source_id.as_str(), e.code.as_str()]
            .into_iter()
            .filter(|s| !s.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let said = match (head.is_empty(), e.error.trim().is_empty()) {
            (true, true) => continue,
            (false, true) => head,
            (true, false) => e.error.clone(),
            (false, false) => format!("{head}: {}", e.error),
        };
        seen.push(&e.source_id);
        out.push(said);
    }
    for s in &run.source_status {
        if !s.error.trim().is_empty() && !seen.contains(&s.source_id.as_str()) {
            out.push(format!("{}: {}", s.source_id, s.error));
        }
    }
    DisplayText::inline(&out.join("; ")).into_string()
}

/// Moves the selection; whether `action` was a move.
fn nav(leads: &mut LeadsModel, cx: &mut Ctx<'_>, action: Action) -> bool {
    let vp = viewport(cx);
    let t = &mut leads.list.table;
    match action {
        Action::Up => t.move_by(-1, vp),
        Action::Down => t.move_by(1, vp),
        Action::Top => t.top(vp),
        Action::Bottom => t.bottom(vp),
        Action::PageUp => t.page_up(vp),
        Action::PageDown => t.page_down(vp),
        _ => return false,
    }
    true
}

/// A key action on the list.
pub(crate) fn on_action(leads: &mut LeadsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    if nav(leads, cx, action) {
        return fetch_visible_meta(leads, cx);
    }
    let selected = leads.list.selected_id();
    match action {
        Action::Open | Action::Enrichment => match selected {
            Some(id) => search::open(leads, cx, &id),
            None => Vec::new(),
        },
        Action::RunSearch => match selected {
            Some(id) => super::run::run(leads, cx, &id),
            None => Vec::new(),
        },
        Action::Refresh => {
            if list_pending(cx.requests) {
                Vec::new()
            } else {
                load(leads, cx)
            }
        }
        Action::Filter => {
            let l = &mut leads.list;
            let q = l.query.get_or_insert_with(|| ListQuery {
                text: TextArea::default(),
                editing: true,
            });
            q.editing = true;
            Vec::new()
        }
        Action::Back if leads.list.query.is_some() => set_query(leads, cx, None),
        Action::Export | Action::AddToCampaign => {
            let text = format!(
                "{} opens the selected search; export and add-to-campaign work on its results",
                cx.keymap.key_label(Action::Open)
            );
            cx.notify(Level::Info, "Open a search first", &text);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Replaces the query (`None`: every row shown), keeping the selection on
/// screen, and reads what the newly shown rows lack.
fn set_query(leads: &mut LeadsModel, cx: &mut Ctx<'_>, query: Option<ListQuery>) -> Vec<Cmd> {
    let vp = viewport(cx);
    let l = &mut leads.list;
    let keep = l.selected_id();
    l.query = query;
    l.set_len(vp, keep.as_deref());
    fetch_visible_meta(leads, cx)
}

/// A key while the query box has the focus: typed into it, the rows
/// narrowing as it changes; Enter keeps it, Esc clears it. `None` when the
/// box does not have the focus.
pub(crate) fn query_key(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    key: KeyEvent,
) -> Option<Vec<Cmd>> {
    let q = leads.list.query.as_mut().filter(|q| q.editing)?;
    if fixed_keys::CLOSE.matches(&key) {
        return Some(set_query(leads, cx, None));
    }
    if fixed_keys::CONFIRM.matches(&key) {
        q.editing = false;
        let empty = q.needle().is_empty();
        return Some(if empty {
            set_query(leads, cx, None)
        } else {
            Vec::new()
        });
    }
    if !crate::app::form::edit_key(&mut q.text, key) {
        return Some(Vec::new());
    }
    let q = q.clone();
    Some(set_query(leads, cx, Some(q)))
}
