//! The open search: its results over a bounded window of pages, the run
//! watch, the filter chips and the selection of leads.

use crate::app::ctx::Ctx;
use crate::app::requests::Requests;
use std::collections::BTreeSet;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd};
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

fn viewport(leads: &LeadsModel, cx: &Ctx<'_>) -> usize {
    layout::results_viewport(cx.layout().body, leads)
}

/// Opens a search on its results (the first page is asked for at once).
pub fn open(leads: &mut LeadsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    leads.view = View::Search;
    leads.detail = None;
    if leads.open_id() == Some(id) {
        // Open already (the last one looked at): what it shows may be old,
        // the run may have moved on. Read it again.
        return refresh(leads, cx);
    }
    let search = leads
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
    leads.open = Some(Opened {
        search,
        window: Window::for_results(false),
        ..Opened::default()
    });
    // The pages and the watch of the search shown before are not wanted.
    cx.requests
        .forget::<LeadsModel>(|p| matches!(p, Purpose::Page { .. } | Purpose::Watch { .. }));
    fetch_pages(leads, cx, false)
}

/// The pages of the open search (at its filter generation) asked for and
/// not answered yet: page reads, and the page a run watch reads again.
pub(crate) fn pending_pages(leads: &LeadsModel, requests: &Requests) -> BTreeSet<usize> {
    let Some(o) = leads.open.as_ref() else {
        return BTreeSet::new();
    };
    let (open, current) = (&o.search.search_id, o.generation);
    requests
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
pub(crate) fn pages_loading(leads: &LeadsModel, requests: &Requests) -> bool {
    !pending_pages(leads, requests).is_empty()
}

/// Whether the run watch of the open search is on its way.
fn watch_pending(leads: &LeadsModel, requests: &Requests) -> bool {
    let Some(open) = leads.open_id() else {
        return false;
    };
    in_flight(
        requests,
        |p| matches!(p, Purpose::Watch { search, .. } if search == open),
    )
}

/// Asks for the pages the view needs (`refresh`: read the loaded ones
/// again too).
pub fn fetch_pages(leads: &mut LeadsModel, cx: &mut Ctx<'_>, refresh: bool) -> Vec<Cmd> {
    let vp = viewport(leads, cx);
    let Some(o) = leads.open.as_mut() else {
        return Vec::new();
    };
    if refresh {
        o.window.mark_stale(None);
    }
    let pending = pending_pages(leads, cx.requests);
    let Some(o) = leads.open.as_ref() else {
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
            cx,
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
pub(crate) fn refresh(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if let Some(o) = leads.open.as_mut() {
        // A watch that ended (the search was gone) tries again.
        o.watch_lost = None;
    }
    let mut cmds = fetch_pages(leads, cx, true);
    let filtered = leads.open.as_ref().is_some_and(|o| !o.filter.is_empty());
    let meta_on_its_way = watch_pending(leads, cx.requests) || pages_loading(leads, cx.requests);
    // Unfiltered pages carry the run status; the results query does not,
    // and no page may be needed at all: then a one-row read brings it.
    if filtered || (api_count(&cmds) == 0 && !meta_on_its_way) {
        cmds.extend(poll(leads, cx));
    }
    cmds
}

fn api_count(cmds: &[Cmd]) -> usize {
    cmds.iter().filter(|c| matches!(c, Cmd::Api { .. })).count()
}

/// Takes in the search and latest run of an answer, announcing a run that
/// ended.
fn take_meta(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    search: crate::api::model::Search,
    run: Option<LatestRun>,
) {
    let clock = cx.clock;
    let Some(o) = leads.open.as_mut() else {
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
    // An id typed from outside the lists is kept only now that the
    // service has answered 200 for it.
    let confirmed = leads
        .unconfirmed
        .take_if(|(u, _)| u.as_str() == s.search_id);
    if let Some((_, source)) = confirmed {
        cx.state.remember_search(&s.search_id, &s.title, &source);
        cx.save_state();
        searches::add_known_row(leads, cx, &s.search_id, &source);
    }
    if !s.title.is_empty() {
        searches::upsert(leads, cx, &s, r.as_ref());
    }
    searches::announce_run_end(cx, &s, before.as_ref(), r.as_ref());
}

/// Stores a page, keeping the selected result selected when a live run
/// moved it.
fn store_page(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    page: usize,
    rows: Vec<crate::api::model::LeadResult>,
    p: &Pagination,
) {
    let vp = viewport(leads, cx);
    let Some(o) = leads.open.as_mut() else {
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
pub(crate) fn on_page(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    search: &str,
    generation: u64,
    page: usize,
    rows: Result<ResultRows, ApiError>,
) -> Vec<Cmd> {
    let current = leads
        .open
        .as_ref()
        .is_some_and(|o| o.search.search_id == search && o.generation == generation);
    if !current {
        return Vec::new();
    }
    let result = rows.map(|rows| match rows {
        ResultRows::Search(p) => {
            take_meta(leads, cx, p.search, p.latest_run);
            (p.results, p.pagination)
        }
        ResultRows::Query(p) => {
            if leads.open.as_ref().is_some_and(|o| !o.loaded) {
                take_meta(leads, cx, p.search, None);
            }
            (p.results, p.pagination)
        }
    });
    match result {
        Ok((rows, pagination)) => {
            store_page(leads, cx, page, rows, &pagination);
            let ready = leads.open.as_mut().and_then(|o| {
                o.window.selected()?;
                o.open_when_loaded.take()
            });
            if let Some(tab) = ready
                && leads.view == View::Search
            {
                return super::detail::open(leads, cx, tab);
            }
        }
        Err(e) => {
            // Refused (404, 403): never to be kept; a failure that may pass
            // leaves it for the retry's answer.
            if e.status().is_some_and(|s| (400..500).contains(&s))
                && leads
                    .unconfirmed
                    .as_ref()
                    .is_some_and(|(u, _)| u.as_str() == search)
            {
                leads.unconfirmed = None;
            }
            let gone = e.status() == Some(404);
            let text = if gone {
                format!("search {NOT_FOUND}")
            } else {
                error_text(&e)
            };
            if let Some(o) = leads.open.as_mut() {
                if gone {
                    // Nothing left to watch.
                    o.watch_lost = Some("search not found".into());
                }
                // What is shown stays, marked stale.
                o.fresh.fail_at(cx.clock, text, &e);
                o.window.failed(&e);
            }
            toast_error(cx, "loading results", &e);
            return Vec::new();
        }
    }
    fetch_pages(leads, cx, false)
}

/// The run watch fired: read the run status and the page of the selection
/// again; the other loaded pages are read again as the view needs them.
pub(crate) fn poll(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if watch_pending(leads, cx.requests) {
        return Vec::new();
    }
    let Some(o) = leads.open.as_mut() else {
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
    send(cx, purpose, req);
    let mut cmds = Vec::new();
    if filtered {
        if let Some(o) = leads.open.as_mut() {
            o.window.mark_stale(None);
        }
        cmds.extend(fetch_pages(leads, cx, false));
    }
    cmds
}

/// The run watch's answer: the run status, and the page it read again
/// when the filter it was read for is still the one shown.
pub(crate) fn on_watch(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    search: &str,
    generation: u64,
    page: Option<usize>,
    result: Result<SearchPage, ApiError>,
) -> Vec<Cmd> {
    let Some(o) = leads.open.as_ref() else {
        return Vec::new();
    };
    if o.search.search_id != search {
        return Vec::new();
    }
    let page = page.filter(|_| o.generation == generation);
    match result {
        Ok(p) => {
            if let Some(o) = leads.open.as_mut() {
                o.watch_lost = None;
            }
            take_meta(leads, cx, p.search, p.latest_run);
            if let Some(page) = page {
                if let Some(o) = leads.open.as_mut() {
                    o.window.mark_stale(Some(page));
                }
                store_page(leads, cx, page, p.results, &p.pagination);
            }
            fetch_pages(leads, cx, false)
        }
        Err(e) => {
            // What is shown stays, marked stale, and the watch goes on
            // (more slowly): one failed read must not end it. Only a search
            // that is gone ends it.
            let gone = e.status() == Some(404);
            let clock = cx.clock;
            let first = leads.open.as_mut().is_some_and(|o| {
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
                toast_error(cx, "checking the run", &e);
            }
            Vec::new()
        }
    }
}

/// A run of `id` started: watch it when it is the open search.
pub(crate) fn run_started(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    run: LatestRun,
) -> Vec<Cmd> {
    let Some(o) = leads.open.as_mut() else {
        return Vec::new();
    };
    if o.search.search_id != id {
        return Vec::new();
    }
    o.latest_run = Some(run);
    o.watch_lost = None;
    poll(leads, cx)
}

/// Chips of the active filter: `q` first, then each predicate.
pub(crate) fn chips(o: &Opened, descriptors: &[crate::api::model::FieldDescriptor]) -> Vec<String> {
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
pub(crate) fn remove_chip(leads: &mut LeadsModel, cx: &mut Ctx<'_>, i: usize) -> Vec<Cmd> {
    let Some(o) = leads.open.as_ref() else {
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
    apply_filter(leads, cx, filter)
}

/// Shows the results of another filter (read again from the first page).
pub fn apply_filter(leads: &mut LeadsModel, cx: &mut Ctx<'_>, filter: Filter) -> Vec<Cmd> {
    let Some(o) = leads.open.as_mut() else {
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
    cx.requests
        .forget::<LeadsModel>(|p| matches!(p, Purpose::Page { .. }));
    if dropped_all {
        cx.notify(
            Level::Info,
            "Selection cleared",
            &format!(
                "\"all matching\" was for the previous filter; {} selects all matching this one",
                cx.keymap.key_label(Action::MarkMatching)
            ),
        );
    }
    fetch_pages(leads, cx, false)
}

fn nav(leads: &mut LeadsModel, cx: &mut Ctx<'_>, action: Action) -> bool {
    let vp = viewport(leads, cx);
    let Some(o) = leads.open.as_mut() else {
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
pub(crate) fn on_action(leads: &mut LeadsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    if nav(leads, cx, action) {
        if let Some(o) = leads.open.as_mut() {
            o.open_when_loaded = None;
        }
        return fetch_pages(leads, cx, false);
    }
    let Some(o) = leads.open.as_ref() else {
        leads.view = View::Searches;
        return Vec::new();
    };
    let id = o.search.search_id.clone();
    match action {
        Action::Back => {
            leads.view = View::Searches;
            let mut cmds = searches::ensure_loaded(leads, cx);
            cmds.extend(searches::fetch_visible_meta(leads, cx));
            cmds
        }
        Action::Open => super::detail::open(leads, cx, super::detail::Tab::Person),
        Action::Enrichment => super::detail::open(leads, cx, super::detail::Tab::Fields),
        Action::Filter => super::filter::open(leads, cx),
        Action::RemoveChip => {
            let n = chips(o, &[]).len();
            if n == 0 {
                let text = format!("{} builds one", cx.keymap.key_label(Action::Filter));
                cx.notify(Level::Info, "No filter", &text);
                return Vec::new();
            }
            remove_chip(leads, cx, n - 1)
        }
        Action::ToggleMark => toggle_mark(leads, cx),
        Action::MarkLoaded => mark_loaded(leads),
        Action::MarkMatching => mark_matching(leads, cx),
        Action::ClearMarks => {
            if let Some(o) = leads.open.as_mut() {
                o.marks = Default::default();
            }
            Vec::new()
        }
        Action::AddToCampaign => super::campaign::open(leads, cx),
        Action::Export => super::export::start(leads, cx, None),
        Action::RunSearch => super::run::run(leads, cx, &id),
        Action::Refresh => refresh(leads, cx),
        _ => Vec::new(),
    }
}

fn toggle_mark(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let vp = viewport(leads, cx);
    let Some(o) = leads.open.as_mut() else {
        return Vec::new();
    };
    let Some(r) = o.window.selected().cloned() else {
        return Vec::new();
    };
    o.marks.toggle(&r);
    // Move on, so consecutive leads are picked with repeated presses.
    o.window.table.move_by(1, vp);
    fetch_pages(leads, cx, false)
}

fn mark_loaded(leads: &mut LeadsModel) -> Vec<Cmd> {
    let Some(o) = leads.open.as_mut() else {
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

fn mark_matching(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = leads.open.as_mut() else {
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
    cx.notify(
        Level::Info,
        "Selected all matching",
        &format!(
            "{}: {what}; {} unselects one, {} again clears",
            crate::text::format::plural(total as u64, "lead", "leads"),
            cx.keymap.key_label(Action::ToggleMark),
            cx.keymap.key_label(Action::MarkMatching)
        ),
    );
    Vec::new()
}
