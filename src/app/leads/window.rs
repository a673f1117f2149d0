//! A bounded window of result pages over a list that may hold 100,000 rows.
//!
//! The table's length is the service's `total`; only pages near the
//! selection are kept (at most [`MAX_PAGES`]), the far ones are evicted and
//! fetched again when the selection comes back. Unfiltered lists are read by
//! offset (random access); filtered lists only by the opaque cursor each page
//! returns, so the cursor that starts every page seen is remembered (a few
//! bytes per 100 rows) and far pages are reached by walking forward.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::super::table::TableState;
use crate::api::model::{LeadResult, Pagination};

/// Rows per page.
pub const PAGE: usize = 100;
/// Pages kept in memory at most.
pub const MAX_PAGES: usize = 10;
/// Rows around the visible ones that should be loaded ahead.
const AHEAD: usize = PAGE / 2;
/// Page requests in flight at most.
const MAX_INFLIGHT: usize = 3;
/// How far a reported total is believed (the export's walk's rule too).
pub use crate::logic::results::{MAX_TOTAL, capped_total};

/// The pages of `page` rows a table over `total` rows needs: those of the
/// `viewport` rows from its scroll offset and `ahead` rows either side,
/// nearest to the selection first. The one rule of every bounded page
/// window (the results here; the Inbox's messages and the Campaigns
/// roster still keep their own copies).
pub fn pages_near(
    table: &TableState,
    total: usize,
    viewport: usize,
    page: usize,
    ahead: usize,
) -> Vec<usize> {
    if total == 0 || page == 0 {
        return Vec::new();
    }
    let first = table.offset.saturating_sub(ahead);
    let last = table
        .offset
        .saturating_add(viewport.max(1))
        .saturating_add(ahead)
        .min(total - 1);
    let here = table.selected / page;
    let mut pages: Vec<usize> = (first / page..=last / page).collect();
    pages.sort_by_key(|p| p.abs_diff(here));
    pages
}

/// How a page is read from the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageAccess {
    /// By offset (`GET /api/lead-finder/{id}?limit&offset`).
    Offset(u64),
    /// By the cursor that starts it (`None`: the first page).
    Cursor(Option<String>),
}

/// The loaded part of a result list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Window {
    /// Filtered lists can only be walked by cursor.
    pub sequential: bool,
    /// Rows the service says the list has (`None` until the first page).
    pub total: Option<usize>,
    /// Loaded pages by index.
    pub pages: BTreeMap<usize, Vec<LeadResult>>,
    /// Cursor that starts page `i` (sequential lists, `i >= 1`).
    pub cursors: BTreeMap<usize, String>,
    /// The page each cursor was first given for (to notice a cursor that
    /// leads back to an earlier page).
    cursor_pages: HashMap<String, usize>,
    /// Where the rows were found to end although `total` said more: a page
    /// answered empty. The total is held to it, so the pages past it are
    /// not asked for again until the pages are read afresh.
    pub end: Option<usize>,
    /// The furthest row any page answered with (how far rows surely go).
    rows_high: usize,
    /// Loaded pages to read again (a live run moved the rows); they stay
    /// on screen until the fresh copy arrives.
    pub stale: BTreeSet<usize>,
    /// Selection and scroll over `0..total`.
    pub table: TableState,
    /// The last failure, shown while nothing is loaded.
    pub error: Option<crate::api::ApiError>,
}

impl Window {
    /// An empty window.
    pub fn new(sequential: bool) -> Window {
        Window {
            sequential,
            ..Window::default()
        }
    }

    /// The row at `i`, when its page is loaded.
    pub fn row(&self, i: usize) -> Option<&LeadResult> {
        self.pages.get(&(i / PAGE))?.get(i % PAGE)
    }

    /// The selected row, when loaded.
    pub fn selected(&self) -> Option<&LeadResult> {
        self.row(self.table.selected)
    }

    /// Rows held in memory.
    pub fn loaded_rows(&self) -> usize {
        self.pages.values().map(Vec::len).sum()
    }

    /// Whether the first answer arrived.
    pub fn loaded(&self) -> bool {
        self.total.is_some()
    }

    /// Every loaded row, in order.
    pub fn loaded_iter(&self) -> impl Iterator<Item = &LeadResult> {
        self.pages.values().flatten()
    }

    /// The index of a loaded row by result id.
    pub fn find(&self, result_id: &str) -> Option<usize> {
        self.pages.iter().find_map(|(p, rows)| {
            rows.iter()
                .position(|r| r.result_id == result_id)
                .map(|i| p * PAGE + i)
        })
    }

    /// Pages that should be loaded for the view: those of the visible rows
    /// and of the rows just around them (load ahead), nearest first.
    pub fn wanted(&self, viewport: usize) -> Vec<usize> {
        match self.total {
            None => vec![0],
            Some(total) => pages_near(&self.table, total, viewport, PAGE, AHEAD),
        }
    }

    /// How page `p` can be requested now, if it can.
    fn access(&self, p: usize) -> Option<PageAccess> {
        if !self.sequential {
            return Some(PageAccess::Offset((p * PAGE) as u64));
        }
        if p == 0 {
            return Some(PageAccess::Cursor(None));
        }
        self.cursors
            .get(&p)
            .map(|c| PageAccess::Cursor(Some(c.clone())))
    }

    /// The page to request on the way to `p`: `p` itself when reachable,
    /// else the furthest reachable page before it (cursor lists are walked).
    fn step_towards(&self, p: usize) -> Option<usize> {
        if !self.sequential {
            return Some(p);
        }
        (0..=p).rev().find(|q| self.access(*q).is_some())
    }

    /// Pages to request now (and how), respecting the in-flight limit:
    /// wanted pages that are missing or stale, nearest the selection first.
    /// `pending`: the pages already asked for (read from the request
    /// table).
    pub fn to_fetch(&self, viewport: usize, pending: &BTreeSet<usize>) -> Vec<(usize, PageAccess)> {
        let mut out: Vec<(usize, PageAccess)> = Vec::new();
        let room = MAX_INFLIGHT.saturating_sub(pending.len());
        for p in self.wanted(viewport) {
            if out.len() >= room {
                break;
            }
            let Some(step) = self.step_towards(p) else {
                continue;
            };
            if pending.contains(&step) || out.iter().any(|(q, _)| *q == step) {
                continue;
            }
            let loaded = self.pages.contains_key(&step);
            if step != p {
                // Walking a cursor list: a loaded step means the list ended
                // there; otherwise one step at a time.
                if loaded || !pending.is_empty() || !out.is_empty() {
                    continue;
                }
            } else if loaded && !self.stale.contains(&step) {
                continue;
            }
            if let Some(access) = self.access(step) {
                out.push((step, access));
            }
        }
        out
    }

    /// Marks every loaded page but `fresh` to be read again; where the
    /// rows ended is asked again too (once: see [`Window::store`]).
    pub fn mark_stale(&mut self, fresh: Option<usize>) {
        self.end = None;
        self.stale = self
            .pages
            .keys()
            .copied()
            .filter(|p| Some(*p) != fresh)
            .collect();
    }

    /// Stores page `p` from an answer; returns whether the total changed.
    pub fn store(
        &mut self,
        p: usize,
        rows: Vec<LeadResult>,
        pagination: &Pagination,
        viewport: usize,
    ) -> bool {
        self.stale.remove(&p);
        self.error = None;
        let start = p.saturating_mul(PAGE);
        let seen = start.saturating_add(rows.len());
        if rows.is_empty() {
            // No rows here, whatever `total` and `hasMore` claim: the rows
            // end before this page. Where exactly is only known up to the
            // furthest row seen; jumping there (rather than one page back)
            // means a service that answers every page empty is asked once,
            // not page after page.
            let end = if self.rows_high <= start {
                self.rows_high
            } else {
                start
            };
            self.end = Some(self.end.map_or(end, |e| e.min(end)));
        } else {
            self.rows_high = self.rows_high.max(seen);
            if let Some(e) = self.end
                && seen > e
            {
                self.end = Some(seen);
            }
        }
        let next = pagination
            .next_cursor
            .as_ref()
            .map(crate::api::model::Cursor::to_text)
            .filter(|_| pagination.has_more && !rows.is_empty());
        // A cursor leading back to a page already walked would walk in a
        // circle: the list ends here instead.
        let circular = self.sequential
            && next.as_ref().is_some_and(|c| {
                self.cursor_pages
                    .get(c)
                    .is_some_and(|q| *q != p + 1 && self.cursors.get(q) == Some(c))
            });
        let has_more = pagination.has_more && !circular;
        // `hasMore` is what the walk relies on; `total` only widens it, and
        // is capped (see [`MAX_TOTAL`]).
        let mut total = if has_more {
            capped_total(pagination.total).max(seen.saturating_add(1))
        } else {
            seen
        };
        if let Some(e) = self.end {
            total = total.min(e);
        }
        if self.sequential {
            match next {
                Some(c) if has_more => {
                    self.cursor_pages.entry(c.clone()).or_insert(p + 1);
                    self.cursors.insert(p + 1, c);
                }
                _ => {
                    self.cursors.retain(|q, _| *q <= p);
                }
            }
            let last_page = total.div_ceil(PAGE);
            self.cursors.retain(|q, _| *q < last_page.max(1));
        }
        let changed = self.total != Some(total);
        self.total = Some(total);
        if rows.is_empty() {
            self.pages.remove(&p);
        } else {
            self.pages.insert(p, rows);
        }
        let last_page = total.div_ceil(PAGE);
        self.pages.retain(|q, _| *q < last_page.max(1));
        self.table.set_len(total, viewport);
        self.evict(viewport);
        changed
    }

    /// Drops the pages furthest from the selection beyond [`MAX_PAGES`],
    /// never one the view wants.
    pub fn evict(&mut self, viewport: usize) {
        if self.pages.len() <= MAX_PAGES {
            return;
        }
        let wanted = self.wanted(viewport);
        let here = self.table.selected / PAGE;
        let mut far: Vec<usize> = self
            .pages
            .keys()
            .copied()
            .filter(|p| !wanted.contains(p))
            .collect();
        far.sort_by_key(|p| std::cmp::Reverse(p.abs_diff(here)));
        for p in far {
            if self.pages.len() <= MAX_PAGES {
                break;
            }
            self.pages.remove(&p);
            self.stale.remove(&p);
        }
    }

    /// A request for page `p` failed.
    pub fn failed(&mut self, error: &crate::api::ApiError) {
        if self.pages.is_empty() {
            self.error = Some(error.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::Cursor;

    fn rows(p: usize, n: usize) -> Vec<LeadResult> {
        (0..n)
            .map(|i| LeadResult {
                result_id: format!("r{}", p * PAGE + i),
                ..LeadResult::default()
            })
            .collect()
    }

    fn pag(total: u64, has_more: bool, next: Option<Cursor>) -> Pagination {
        Pagination {
            total,
            limit: PAGE as u64,
            offset: 0,
            has_more,
            next_cursor: next,
        }
    }

    #[test]
    fn random_access_keeps_a_bounded_window() {
        let mut w = Window::new(false);
        assert_eq!(
            w.to_fetch(20, &BTreeSet::new()),
            vec![(0, PageAccess::Offset(0))]
        );
        w.store(0, rows(0, PAGE), &pag(100_000, true, None), 20);
        assert_eq!(w.table.len, 100_000);
        for step in 0..200 {
            w.table.select(step * 500, 20);
            for (p, _) in w.to_fetch(20, &BTreeSet::new()) {
                w.store(p, rows(p, PAGE), &pag(100_000, true, None), 20);
            }
            assert!(w.pages.len() <= MAX_PAGES, "window stays bounded");
            assert!(w.selected().is_some(), "the selection is loaded");
        }
        assert!(w.loaded_rows() <= MAX_PAGES * PAGE);
    }

    #[test]
    fn cursor_lists_are_walked_one_page_at_a_time() {
        let mut w = Window::new(true);
        w.store(
            0,
            rows(0, PAGE),
            &pag(1000, true, Some(Cursor::Text("c1".into()))),
            20,
        );
        w.table.select(450, 20);
        let fetch = w.to_fetch(20, &BTreeSet::new());
        assert_eq!(fetch, vec![(1, PageAccess::Cursor(Some("c1".into())))]);
        assert!(
            w.to_fetch(20, &BTreeSet::from([1])).is_empty(),
            "one step at a time"
        );
        w.store(
            1,
            rows(1, PAGE),
            &pag(1000, true, Some(Cursor::Text("c2".into()))),
            20,
        );
        assert_eq!(w.to_fetch(20, &BTreeSet::new())[0].0, 2);
    }

    #[test]
    fn a_short_last_page_fixes_the_total() {
        let mut w = Window::new(false);
        w.store(0, rows(0, 42), &pag(0, false, None), 10);
        assert_eq!(w.total, Some(42));
        assert!(w.to_fetch(10, &BTreeSet::new()).is_empty());
        w.mark_stale(None);
        assert_eq!(
            w.to_fetch(10, &BTreeSet::new()),
            vec![(0, PageAccess::Offset(0))]
        );
    }

    #[test]
    fn an_empty_page_ends_the_list_where_rows_were_seen() {
        let mut w = Window::new(false);
        w.store(0, rows(0, PAGE), &pag(u64::MAX, true, None), 20);
        w.table.bottom(20);
        let (p, _) = w.to_fetch(20, &BTreeSet::new())[0].clone();
        assert_eq!(p, MAX_TOTAL / PAGE - 1);
        // The far page is empty, and the service still says "more".
        w.store(p, Vec::new(), &pag(u64::MAX, true, None), 20);
        assert_eq!(w.total, Some(PAGE), "the rows end where they were seen");
        assert_eq!(w.table.selected, PAGE - 1);
        assert!(
            w.to_fetch(20, &BTreeSet::new()).is_empty(),
            "nothing left to ask: {w:?}"
        );
        // A page that keeps saying "more" does not lift the end.
        w.mark_stale(None);
        w.store(0, rows(0, PAGE), &pag(u64::MAX, true, None), 20);
        let again = w.to_fetch(20, &BTreeSet::new());
        assert_eq!(
            again,
            vec![(1, PageAccess::Offset(PAGE as u64))],
            "asked once"
        );
        w.store(1, Vec::new(), &pag(u64::MAX, true, None), 20);
        assert_eq!(w.total, Some(PAGE));
        assert!(w.to_fetch(20, &BTreeSet::new()).is_empty());
    }

    #[test]
    fn a_cursor_leading_back_ends_a_cursor_list() {
        let mut w = Window::new(true);
        let c = |s: &str| Some(Cursor::Text(s.into()));
        w.store(0, rows(0, PAGE), &pag(u64::MAX, true, c("c1")), 20);
        w.table.bottom(20);
        assert_eq!(
            w.to_fetch(20, &BTreeSet::new()),
            vec![(1, PageAccess::Cursor(Some("c1".into())))]
        );
        // The same cursor again: page 2 would be page 1 again.
        w.store(1, rows(1, PAGE), &pag(u64::MAX, true, c("c1")), 20);
        assert_eq!(w.total, Some(2 * PAGE));
        assert!(w.to_fetch(20, &BTreeSet::new()).is_empty());
        // A longer circle: c1 -> c2 -> c1.
        let mut w = Window::new(true);
        w.store(0, rows(0, PAGE), &pag(u64::MAX, true, c("c1")), 20);
        w.store(1, rows(1, PAGE), &pag(u64::MAX, true, c("c2")), 20);
        w.store(2, rows(2, PAGE), &pag(u64::MAX, true, c("c1")), 20);
        assert_eq!(w.total, Some(3 * PAGE));
        // Reading a page again gives its cursor again: not a circle.
        w.mark_stale(None);
        w.store(0, rows(0, PAGE), &pag(1000, true, c("c1")), 20);
        assert_eq!(w.cursors.get(&1).map(String::as_str), Some("c1"));
    }

    #[test]
    fn a_huge_total_is_capped() {
        let mut w = Window::new(false);
        w.store(
            0,
            rows(0, PAGE),
            &pag(10_000_000_000_000_000_000, true, None),
            20,
        );
        assert_eq!(w.total, Some(MAX_TOTAL));
        assert_eq!(w.table.len, MAX_TOTAL);
        w.table.bottom(20);
        assert_eq!(
            w.to_fetch(20, &BTreeSet::new())[0],
            (
                MAX_TOTAL / PAGE - 1,
                PageAccess::Offset((MAX_TOTAL - PAGE) as u64)
            )
        );
        w.store(1, rows(1, PAGE), &pag(u64::MAX, true, None), 20);
        assert_eq!(w.total, Some(MAX_TOTAL));
    }
}
