//! The open search: its results over a bounded window of pages, the run
//! watch, the filter chips and the selection of leads.

use std::collections::BTreeSet;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Model};
use super::layout;
use super::window::{PAGE, PageAccess, Window};
use super::{
    AllMatching, Filter, LeadsModel, NOT_FOUND, Opened, Picked, Purpose, View, error_text,
    in_flight, lead_input, result_name, searches, send, toast_error,
};
use crate::api::model::{LatestRun, Pagination, SearchPage, SearchPageQuery};
use crate::api::{ApiError, ResultRows};
use crate::app::keymap::Action;
use crate::text::sanitize::DisplayText;

fn viewport(m: &Model) -> usize {
    layout::results_viewport(m.layout().body, &m.panes.leads)
}

/// Opens a search on its results (the first page is asked for at once).
pub fn open(m: &mut Model, id: &str) -> Vec<Cmd> {
    m.panes.leads.view = View::Search;
    m.panes.leads.detail = None;
    if m.panes.leads.open_id() == Some(id) {
        // Open already (the last one looked at): what it shows may be old,
        // the run may have moved on. Read it again.
        return refresh(m);
    }
    let search = m
        .panes
        .leads
        .list
        .rows
        .iter()
        .find(|r| r.search.search_id == id)
        .map_or_else(
            || crate::api::model::Search {
                search_id: id.to_owned(),
                ..Default::default()
            },
            |r| r.search.clone(),
        );
    m.panes.leads.open = Some(Opened {
        search,
        window: Window::for_results(false),
        ..Opened::default()
    });
    // The pages and the watch of the search shown before are not wanted.
    m.requests
        .forget::<LeadsModel>(|p| matches!(p, Purpose::Page { .. } | Purpose::Watch { .. }));
    fetch_pages(m, false)
}

/// The pages of the open search (at its filter generation) asked for and
/// not answered yet: page reads, and the page a run watch reads again.
pub fn pending_pages(m: &Model) -> BTreeSet<usize> {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return BTreeSet::new();
    };
    let (open, current) = (&o.search.search_id, o.generation);
    m.requests
        .purposes::<LeadsModel>()
        .filter_map(|p| match p {
            Purpose::Page {
                search,
                generation,
                page,
            }
            | Purpose::Watch {
                search,
                generation,
                page: Some(page),
            } if search == open && *generation == current => Some(*page),
            _ => None,
        })
        .collect()
}

/// Whether rows of the open search are on their way (said under the
/// table).
pub fn pages_loading(m: &Model) -> bool {
    !pending_pages(m).is_empty()
}

/// Whether the run watch of the open search is on its way.
fn watch_pending(m: &Model) -> bool {
    let Some(open) = m.panes.leads.open_id() else {
        return false;
    };
    in_flight(
        m,
        |p| matches!(p, Purpose::Watch { search, .. } if search == open),
    )
}

/// Asks for the pages the view needs (`refresh`: read the loaded ones
/// again too).
pub fn fetch_pages(m: &mut Model, refresh: bool) -> Vec<Cmd> {
    let vp = viewport(m);
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    if refresh {
        o.window.mark_stale(None);
    }
    let pending = pending_pages(m);
    let Some(o) = m.panes.leads.open.as_ref() else {
        return Vec::new();
    };
    let wanted = o.window.to_fetch(vp, &pending);
    let (search, generation) = (o.search.search_id.clone(), o.generation);
    let filter = o.filter.clone();
    for (page, access) in wanted {
        let req = match access {
            PageAccess::Offset(offset) => ApiRequest::GetSearch {
                id: search.clone(),
                page: SearchPageQuery {
                    limit: Some(PAGE as u64),
                    offset: Some(offset),
                    cursor: None,
                },
            },
            PageAccess::Cursor(cursor) => ApiRequest::QueryResults {
                id: search.clone(),
                query: filter.query(cursor, PAGE as u64),
            },
        };
        send(
            m,
            Purpose::Page {
                search: search.clone(),
                generation,
                page,
            },
            req,
        );
    }
    Vec::new()
}

/// Reads the open search again: its metadata and run status, and the
/// pages on screen (the loaded ones stay shown until the fresh copy
/// arrives).
pub fn refresh(m: &mut Model) -> Vec<Cmd> {
    if let Some(o) = m.panes.leads.open.as_mut() {
        // A watch that ended (the search was gone) tries again.
        o.watch_lost = None;
    }
    let mut cmds = fetch_pages(m, true);
    let filtered = m
        .panes
        .leads
        .open
        .as_ref()
        .is_some_and(|o| !o.filter.is_empty());
    let meta_on_its_way = watch_pending(m) || pages_loading(m);
    // Unfiltered pages carry the run status; the results query does not,
    // and no page may be needed at all: then a one-row read brings it.
    if filtered || (api_count(&cmds) == 0 && !meta_on_its_way) {
        cmds.extend(poll(m));
    }
    cmds
}

fn api_count(cmds: &[Cmd]) -> usize {
    cmds.iter().filter(|c| matches!(c, Cmd::Api { .. })).count()
}

/// Takes in the search and latest run of an answer, announcing a run that
/// ended.
fn take_meta(m: &mut Model, search: crate::api::model::Search, run: Option<LatestRun>) {
    let clock = m.clock;
    let Some(o) = m.panes.leads.open.as_mut() else {
        return;
    };
    let before = o.latest_run.as_ref().map(|r| r.status.clone());
    if !search.search_id.is_empty() {
        o.search = search;
    }
    o.loaded = true;
    o.fresh.ok(clock);
    if run.is_some() {
        o.latest_run = run;
    }
    let (s, r) = (o.search.clone(), o.latest_run.clone());
    if !s.title.is_empty() {
        searches::upsert(m, &s, r.as_ref());
    }
    searches::announce_run_end(m, &s, before.as_ref(), r.as_ref());
}

/// Stores a page, keeping the selected result selected when a live run
/// moved it.
fn store_page(
    m: &mut Model,
    page: usize,
    rows: Vec<crate::api::model::LeadResult>,
    p: &Pagination,
) {
    let vp = viewport(m);
    let Some(o) = m.panes.leads.open.as_mut() else {
        return;
    };
    let selected = o.window.selected().map(|r| r.result_id.clone());
    o.window.store(page, rows, p, vp);
    if let Some(id) = selected
        && o.window.selected().map(|r| r.result_id.as_str()) != Some(id.as_str())
        && let Some(i) = o.window.find(&id)
    {
        o.window.table.select(i, vp);
    }
    if o.first_total.is_none() {
        o.first_total = o.window.total;
    }
    if let Some(all) = o.marks.all.as_mut()
        && all.filter == o.filter
        && let Some(t) = o.window.total
    {
        all.total = t;
    }
}

/// A page answer.
pub fn on_page(
    m: &mut Model,
    search: &str,
    generation: u64,
    page: usize,
    rows: Result<ResultRows, ApiError>,
) -> Vec<Cmd> {
    let current = m
        .panes
        .leads
        .open
        .as_ref()
        .is_some_and(|o| o.search.search_id == search && o.generation == generation);
    if !current {
        return Vec::new();
    }
    let result = rows.map(|rows| match rows {
        ResultRows::Search(p) => {
            take_meta(m, p.search, p.latest_run);
            (p.results, p.pagination)
        }
        ResultRows::Query(p) => {
            if m.panes.leads.open.as_ref().is_some_and(|o| !o.loaded) {
                take_meta(m, p.search, None);
            }
            (p.results, p.pagination)
        }
    });
    match result {
        Ok((rows, pagination)) => {
            store_page(m, page, rows, &pagination);
            let ready = m.panes.leads.open.as_mut().and_then(|o| {
                o.window.selected()?;
                o.open_when_loaded.take()
            });
            if let Some(tab) = ready
                && m.panes.leads.view == View::Search
            {
                return super::detail::open(m, tab);
            }
        }
        Err(e) => {
            let gone = e.status() == Some(404);
            let text = if gone {
                format!("search {NOT_FOUND}")
            } else {
                error_text(&e)
            };
            if let Some(o) = m.panes.leads.open.as_mut() {
                if gone {
                    // Nothing left to watch.
                    o.watch_lost = Some("search not found".into());
                }
                // What is shown stays, marked stale.
                o.fresh.fail_at(m.clock, text, &e);
                o.window.failed(&e);
            }
            toast_error(m, "loading results", &e);
            return Vec::new();
        }
    }
    fetch_pages(m, false)
}

/// The run watch fired: read the run status and the page of the selection
/// again; the other loaded pages are read again as the view needs them.
pub fn poll(m: &mut Model) -> Vec<Cmd> {
    if watch_pending(m) {
        return Vec::new();
    }
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    let search = o.search.search_id.clone();
    let generation = o.generation;
    let filtered = !o.filter.is_empty();
    let page = o.window.table.selected / PAGE;
    let req = if filtered {
        // The filtered rows come from the results query; the status from a
        // one-row read.
        super::searches::status_read(&search)
    } else {
        ApiRequest::GetSearch {
            id: search.clone(),
            page: SearchPageQuery {
                limit: Some(PAGE as u64),
                offset: Some((page * PAGE) as u64),
                cursor: None,
            },
        }
    };
    let purpose = Purpose::Watch {
        search,
        generation,
        page: (!filtered).then_some(page),
    };
    send(m, purpose, req);
    let mut cmds = Vec::new();
    if filtered {
        if let Some(o) = m.panes.leads.open.as_mut() {
            o.window.mark_stale(None);
        }
        cmds.extend(fetch_pages(m, false));
    }
    cmds
}

/// The run watch's answer: the run status, and the page it read again
/// when the filter it was read for is still the one shown.
pub fn on_watch(
    m: &mut Model,
    search: &str,
    generation: u64,
    page: Option<usize>,
    result: Result<SearchPage, ApiError>,
) -> Vec<Cmd> {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return Vec::new();
    };
    if o.search.search_id != search {
        return Vec::new();
    }
    let page = page.filter(|_| o.generation == generation);
    match result {
        Ok(p) => {
            if let Some(o) = m.panes.leads.open.as_mut() {
                o.watch_lost = None;
            }
            take_meta(m, p.search, p.latest_run);
            if let Some(page) = page {
                if let Some(o) = m.panes.leads.open.as_mut() {
                    o.window.mark_stale(Some(page));
                }
                store_page(m, page, p.results, &p.pagination);
            }
            fetch_pages(m, false)
        }
        Err(e) => {
            // What is shown stays, marked stale, and the watch goes on
            // (more slowly): one failed read must not end it. Only a search
            // that is gone ends it.
            let gone = e.status() == Some(404);
            let clock = m.clock;
            let first = m.panes.leads.open.as_mut().is_some_and(|o| {
                o.fresh.fail_at(
                    clock,
                    if gone {
                        format!("search {NOT_FOUND}")
                    } else {
                        error_text(&e)
                    },
                    &e,
                );
                if gone {
                    o.watch_lost = Some("search not found".into());
                }
                o.fresh.failures == 1
            });
            // The stale mark says the rest; one notice per spell of failures.
            if first || gone {
                toast_error(m, "checking the run", &e);
            }
            Vec::new()
        }
    }
}

/// A run of `id` started: watch it when it is the open search.
pub fn run_started(m: &mut Model, id: &str, run: LatestRun) -> Vec<Cmd> {
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    if o.search.search_id != id {
        return Vec::new();
    }
    o.latest_run = Some(run);
    o.watch_lost = None;
    poll(m)
}

/// Chips of the active filter: `q` first, then each predicate.
pub fn chips(o: &Opened, descriptors: &[crate::api::model::FieldDescriptor]) -> Vec<String> {
    let mut out = Vec::new();
    if !o.filter.q.trim().is_empty() {
        out.push(format!("text: {}", DisplayText::inline(o.filter.q.trim())));
    }
    for p in &o.filter.predicates {
        let label = descriptors
            .iter()
            .find(|d| d.path == p.path)
            .map(|d| d.label.as_str())
            .filter(|l| !l.is_empty())
            .unwrap_or(p.path.as_str());
        out.push(format!(
            "{} {} {}",
            DisplayText::inline(label),
            DisplayText::inline(p.operator.as_str()),
            DisplayText::inline(&p.value.to_string())
        ));
    }
    out
}

/// Removes chip `i` (see [`chips`]).
pub fn remove_chip(m: &mut Model, i: usize) -> Vec<Cmd> {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return Vec::new();
    };
    let mut filter = o.filter.clone();
    let has_q = !filter.q.trim().is_empty();
    if has_q && i == 0 {
        filter.q.clear();
    } else {
        let j = i - usize::from(has_q);
        if j >= filter.predicates.len() {
            return Vec::new();
        }
        filter.predicates.remove(j);
    }
    apply_filter(m, filter)
}

/// Shows the results of another filter (read again from the first page).
pub fn apply_filter(m: &mut Model, filter: Filter) -> Vec<Cmd> {
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    if o.filter == filter && o.window.loaded() {
        return Vec::new();
    }
    let dropped_all = o.marks.all.take().is_some();
    o.generation += 1;
    o.window = Window::for_results(!filter.is_empty());
    o.filter = filter;
    // Pages of the previous filter are not wanted (the watch stays: its
    // run status still is).
    m.requests
        .forget::<LeadsModel>(|p| matches!(p, Purpose::Page { .. }));
    if dropped_all {
        m.notify(
            Level::Info,
            "Selection cleared",
            &format!(
                "\"all matching\" was for the previous filter; {} selects all matching this one",
                m.keymap.key_label(Action::MarkMatching)
            ),
        );
    }
    fetch_pages(m, false)
}

fn nav(m: &mut Model, action: Action) -> bool {
    let vp = viewport(m);
    let Some(o) = m.panes.leads.open.as_mut() else {
        return false;
    };
    let t = &mut o.window.table;
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

/// A key action on the open search.
pub fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    if nav(m, action) {
        if let Some(o) = m.panes.leads.open.as_mut() {
            o.open_when_loaded = None;
        }
        return fetch_pages(m, false);
    }
    let Some(o) = m.panes.leads.open.as_ref() else {
        m.panes.leads.view = View::Searches;
        return Vec::new();
    };
    let id = o.search.search_id.clone();
    match action {
        Action::Back => {
            m.panes.leads.view = View::Searches;
            let mut cmds = searches::ensure_loaded(m);
            cmds.extend(searches::fetch_visible_meta(m));
            cmds
        }
        Action::Open => super::detail::open(m, super::detail::Tab::Person),
        Action::Enrichment => super::detail::open(m, super::detail::Tab::Fields),
        Action::Filter => super::filter::open(m),
        Action::RemoveChip => {
            let n = chips(o, &[]).len();
            if n == 0 {
                let text = format!("{} builds one", m.keymap.key_label(Action::Filter));
                m.notify(Level::Info, "No filter", &text);
                return Vec::new();
            }
            remove_chip(m, n - 1)
        }
        Action::ToggleMark => toggle_mark(m),
        Action::MarkLoaded => mark_loaded(m),
        Action::MarkMatching => mark_matching(m),
        Action::ClearMarks => {
            if let Some(o) = m.panes.leads.open.as_mut() {
                o.marks = Default::default();
            }
            Vec::new()
        }
        Action::AddToCampaign => super::campaign::open(m),
        Action::Export => super::export::start(m, None),
        Action::RunSearch => super::run::run(m, &id),
        Action::Refresh => refresh(m),
        _ => Vec::new(),
    }
}

fn toggle_mark(m: &mut Model) -> Vec<Cmd> {
    let vp = viewport(m);
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    let Some(r) = o.window.selected().cloned() else {
        return Vec::new();
    };
    o.marks.toggle(&r);
    // Move on, so consecutive leads are picked with repeated presses.
    o.window.table.move_by(1, vp);
    fetch_pages(m, false)
}

fn mark_loaded(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    if o.marks.all.is_some() {
        o.marks.all = None;
    }
    let rows: Vec<_> = o.window.loaded_iter().cloned().collect();
    let all_marked = !rows.is_empty()
        && rows
            .iter()
            .all(|r| o.marks.picked.contains_key(&r.result_id));
    for r in rows {
        if all_marked {
            o.marks.picked.remove(&r.result_id);
        } else {
            o.marks.picked.entry(r.result_id.clone()).or_insert(Picked {
                name: result_name(&r),
                lead: lead_input(&r),
            });
        }
    }
    Vec::new()
}

fn mark_matching(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.leads.open.as_mut() else {
        return Vec::new();
    };
    if o.marks.all.take().is_some() {
        return Vec::new();
    }
    let Some(total) = o.window.total else {
        return Vec::new();
    };
    o.marks.picked.clear();
    o.marks.all = Some(AllMatching {
        filter: o.filter.clone(),
        total,
        except: Default::default(),
    });
    let what = if o.filter.is_empty() {
        "every result of the search".to_owned()
    } else {
        "every result matching the filter".to_owned()
    };
    m.notify(
        Level::Info,
        "Selected all matching",
        &format!(
            "{}: {what}; {} unselects one, {} again clears",
            crate::text::format::plural(total as u64, "lead", "leads"),
            m.keymap.key_label(Action::ToggleMark),
            m.keymap.key_label(Action::MarkMatching)
        ),
    );
    Vec::new()
}
