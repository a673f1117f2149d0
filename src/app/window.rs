//! The one bounded window of pages over a list that may hold millions of
//! rows: a search's results, a thread's messages, a campaign's roster (the
//! generated messages use its page arithmetic to name their leads).
//!
//! The table's length is the service's total; only the pages near the
//! selection are held (at most the list's [`Shape::max_pages`]), the far
//! ones are dropped and read again when the selection comes back, so a
//! list of 100,000 rows costs the memory of a few pages. What a list may
//! differ in is its [`Shape`] (declared once per row type by [`Paged`])
//! and how a far page is reached ([`Walk`]: by offset, or walking cursors
//! forward); the rules are here once:
//!
//! - which pages the view wants: those of the visible rows and `ahead`
//!   rows either side, nearest to the selection first ([`pages_near`]);
//! - which to ask for now: wanted ones missing or marked stale, not on
//!   their way, at most `max_inflight` at a time ([`PageWindow::missing`]);
//! - what a page answer proves: the rows end where an empty page is found
//!   whatever the total claims, a total is believed up to `max_total`, and
//!   the rows seen prove at least that many ([`PageWindow::take`]);
//! - which pages go: the furthest from the selection past the bound, never
//!   one the view wants ([`PageWindow::evict`]).

use std::collections::{BTreeMap, BTreeSet};

use super::table::TableState;
use crate::api::ApiError;

/// The geometry of one kind of paged list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Rows per page (the `limit` asked for).
    pub page: usize,
    /// Pages held at most (beyond those the view wants).
    pub max_pages: usize,
    /// Rows beyond the visible ones loaded ahead, either side.
    pub ahead: usize,
    /// Page requests in flight at most.
    pub max_inflight: usize,
    /// The most rows a reported total is believed to stand for (a broken
    /// or hostile service can send `1e19`); a larger total is taken as
    /// this, and the rows themselves still decide where the list ends.
    pub max_total: usize,
}

/// A row type read in pages, with the shape of its list.
pub trait Paged {
    /// The list's geometry.
    const SHAPE: Shape;
}

/// How a far page of a list is reached.
pub trait Walk {
    /// The page to ask for on the way to page `p`: `p` itself when it can
    /// be asked for directly, else the furthest reachable page before it
    /// (`None`: none is).
    fn step_towards(&self, p: usize) -> Option<usize> {
        Some(p)
    }
}

/// A list read by offset: every page can be asked for directly.
impl Walk for () {}

/// A total the service reported, capped at `max`.
pub(crate) fn capped(total: u64, max: usize) -> usize {
    usize::try_from(total).unwrap_or(usize::MAX).min(max)
}

/// The pages of `page` rows holding rows `first..=last`.
pub(crate) fn pages_covering(
    first: usize,
    last: usize,
    page: usize,
) -> std::ops::RangeInclusive<usize> {
    let page = page.max(1);
    first / page..=last / page
}

/// The pages of `page` rows a table over `total` rows needs: those of the
/// `viewport` rows from its scroll offset and `ahead` rows either side,
/// nearest to the selection first.
pub(crate) fn pages_near(
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
    let mut pages: Vec<usize> = pages_covering(first, last, page).collect();
    pages.sort_by_key(|p| p.abs_diff(here));
    pages
}

/// The loaded part of a paged list of `T`, reached by `W`.
#[derive(Debug, Clone, PartialEq)]
pub struct PageWindow<T, W = ()> {
    /// Rows the list has, as far as known (`None` until the first page).
    pub total: Option<usize>,
    /// Loaded pages by 0-based index.
    pub pages: BTreeMap<usize, Vec<T>>,
    /// Loaded pages to read again (the rows moved); they stay on screen
    /// until the fresh copy arrives.
    pub stale: BTreeSet<usize>,
    /// Selection and scroll over `0..total`.
    pub table: TableState,
    /// The last failure, shown while nothing is loaded.
    pub error: Option<ApiError>,
    /// Where the rows were found to end although the total said more (a
    /// page answered empty): the total is held to it, so the pages past
    /// it are not asked for again until the pages are read afresh.
    pub end: Option<usize>,
    /// The furthest row any page answered with (how far rows surely go).
    rows_high: usize,
    /// How far pages are reached.
    pub walk: W,
}

impl<T, W: Default> Default for PageWindow<T, W> {
    fn default() -> Self {
        PageWindow::new(W::default())
    }
}

impl<T, W> PageWindow<T, W> {
    /// An empty window reaching its pages by `walk`.
    pub fn new(walk: W) -> Self {
        PageWindow {
            total: None,
            pages: BTreeMap::new(),
            stale: BTreeSet::new(),
            table: TableState::default(),
            error: None,
            end: None,
            rows_high: 0,
            walk,
        }
    }
}

impl<T: Paged, W> PageWindow<T, W> {
    /// Rows per page.
    pub const PAGE: usize = T::SHAPE.page;

    /// The row at `i`, when its page is loaded.
    pub fn row(&self, i: usize) -> Option<&T> {
        self.pages.get(&(i / Self::PAGE))?.get(i % Self::PAGE)
    }

    /// The selected row, when loaded.
    pub fn selected(&self) -> Option<&T> {
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
    pub fn loaded_iter(&self) -> impl Iterator<Item = &T> {
        self.pages.values().flatten()
    }

    /// The index of the last page.
    pub fn last_page(&self) -> usize {
        self.total.map_or(0, |t| t.saturating_sub(1) / Self::PAGE)
    }

    /// Whether the selection is on the last row (or nothing is known yet).
    pub fn at_end(&self) -> bool {
        self.total
            .is_none_or(|t| self.table.selected.saturating_add(1) >= t)
    }

    /// Pages the view wants: those of the visible rows and of the rows
    /// just around them, nearest to the selection first. Before the first
    /// answer: the first page (it tells the total).
    pub fn wanted(&self, viewport: usize) -> Vec<usize> {
        let shape = T::SHAPE;
        match self.total {
            None => vec![0],
            Some(total) => pages_near(&self.table, total, viewport, shape.page, shape.ahead),
        }
    }

    /// Marks every loaded page but `fresh` to be read again; where the
    /// rows ended is asked again too (once: see [`PageWindow::take`]).
    pub fn mark_stale(&mut self, fresh: Option<usize>) {
        self.end = None;
        self.stale = self
            .pages
            .keys()
            .copied()
            .filter(|p| Some(*p) != fresh)
            .collect();
    }

    /// Marks the loaded pages the view wants to be read again (the rows on
    /// screen move); the others keep what they are.
    pub fn mark_wanted_stale(&mut self, viewport: usize) {
        for p in self.wanted(viewport) {
            if self.pages.contains_key(&p) {
                self.stale.insert(p);
            }
        }
    }

    /// Takes page `p` of an answer: its rows, the total the service
    /// reported and whether it said more rows follow. Returns whether the
    /// total changed. Pages past the new end are dropped; the caller
    /// evicts ([`PageWindow::evict`]) once its selection is where it wants.
    pub fn take(
        &mut self,
        p: usize,
        rows: Vec<T>,
        reported: u64,
        has_more: bool,
        viewport: usize,
    ) -> bool {
        self.stale.remove(&p);
        self.error = None;
        let start = p.saturating_mul(Self::PAGE);
        let seen = start.saturating_add(rows.len());
        if rows.is_empty() {
            // No rows here, whatever the total and `hasMore` claim: the
            // rows end before this page. Where exactly is only known up to
            // the furthest row seen; jumping there (rather than one page
            // back) means a service that answers every page empty is asked
            // once, not page after page.
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
        // "More" is what a walk relies on; the total only widens it, and
        // is capped.
        let mut total = if has_more {
            capped(reported, T::SHAPE.max_total).max(seen.saturating_add(1))
        } else {
            seen
        };
        if let Some(e) = self.end {
            total = total.min(e);
        }
        let changed = self.total != Some(total);
        self.total = Some(total);
        if rows.is_empty() {
            self.pages.remove(&p);
        } else {
            self.pages.insert(p, rows);
        }
        let pages = total.div_ceil(Self::PAGE).max(1);
        self.pages.retain(|q, _| *q < pages);
        self.stale.retain(|q| *q < pages);
        self.table.set_len(total, viewport);
        changed
    }

    /// Takes page `p` of a list that reports only its total (no "more"
    /// flag): more rows follow when the total says so.
    pub fn take_counted(&mut self, p: usize, rows: Vec<T>, reported: u64, viewport: usize) -> bool {
        let seen = p.saturating_mul(Self::PAGE).saturating_add(rows.len());
        let has_more = capped(reported, T::SHAPE.max_total) > seen;
        self.take(p, rows, reported, has_more, viewport)
    }

    /// Drops the pages furthest from the selection beyond the bound,
    /// never one the view wants.
    pub fn evict(&mut self, viewport: usize) {
        let keep = self.wanted(viewport);
        self.evict_around(self.table.selected, &keep);
    }

    /// Drops the pages furthest from row `here` beyond the bound, never
    /// one of `keep` (for a table whose selection is not a row of the
    /// list: a text filter's matches).
    pub fn evict_around(&mut self, here: usize, keep: &[usize]) {
        let max = T::SHAPE.max_pages;
        if self.pages.len() <= max {
            return;
        }
        let here = here / Self::PAGE;
        let mut far: Vec<usize> = self
            .pages
            .keys()
            .copied()
            .filter(|p| !keep.contains(p))
            .collect();
        far.sort_by_key(|p| std::cmp::Reverse(p.abs_diff(here)));
        for p in far {
            if self.pages.len() <= max {
                break;
            }
            self.pages.remove(&p);
            self.stale.remove(&p);
        }
    }

    /// A page read failed: said in place of the rows while none is loaded.
    pub fn failed(&mut self, error: &ApiError) {
        if self.pages.is_empty() {
            self.error = Some(error.clone());
        }
    }
}

impl<T: Paged, W: Walk> PageWindow<T, W> {
    /// Pages to ask for now, nearest the selection first: wanted pages
    /// that are missing or stale and not among `pending` (the pages already
    /// asked for, from the request table), within the in-flight bound. A
    /// list walked by cursor asks for one step at a time towards a far
    /// page.
    pub fn missing(&self, viewport: usize, pending: &BTreeSet<usize>) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        let room = T::SHAPE.max_inflight.saturating_sub(pending.len());
        for p in self.wanted(viewport) {
            if out.len() >= room {
                break;
            }
            let Some(step) = self.walk.step_towards(p) else {
                continue;
            };
            if pending.contains(&step) || out.contains(&step) {
                continue;
            }
            let loaded = self.pages.contains_key(&step);
            if step != p {
                // Walking: a loaded step means the list ended there;
                // otherwise one step at a time.
                if loaded || !pending.is_empty() || !out.is_empty() {
                    continue;
                }
            } else if loaded && !self.stale.contains(&step) {
                continue;
            }
            out.push(step);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Row(usize);

    impl Paged for Row {
        const SHAPE: Shape = Shape {
            page: 10,
            max_pages: 3,
            ahead: 2,
            max_inflight: 2,
            max_total: 1_000,
        };
    }

    fn rows(p: usize, n: usize) -> Vec<Row> {
        (0..n).map(|i| Row(p * 10 + i)).collect()
    }

    /// Walking a list of 1,000 rows from the end to the top, a screen at a
    /// time: the selection is always loaded once its pages are taken, and
    /// never more than the bound is held.
    #[test]
    fn a_walk_over_the_list_stays_bounded() {
        let mut w: PageWindow<Row> = PageWindow::default();
        assert_eq!(w.missing(4, &BTreeSet::new()), vec![0]);
        w.take_counted(0, rows(0, 10), 1_000, 4);
        w.table.bottom(4);
        assert_eq!(w.wanted(4), vec![99], "the last page, nothing past it");
        while w.table.selected > 0 {
            w.table.page_up(4);
            for p in w.missing(4, &BTreeSet::new()) {
                w.take_counted(p, rows(p, 10), 1_000, 4);
            }
            w.evict(4);
            assert!(w.pages.len() <= 3, "{:?}", w.pages.keys());
            assert_eq!(w.selected(), Some(&Row(w.table.selected)));
        }
    }

    #[test]
    fn pages_on_their_way_are_not_asked_twice_and_the_bound_holds() {
        let mut w: PageWindow<Row> = PageWindow::default();
        w.take_counted(0, rows(0, 10), 1_000, 4);
        w.table.select(500, 4);
        assert_eq!(w.missing(4, &BTreeSet::new()), vec![50, 49]);
        assert_eq!(w.missing(4, &BTreeSet::from([50])), vec![49]);
        assert!(w.missing(4, &BTreeSet::from([50, 49])).is_empty());
    }

    #[test]
    fn stale_pages_stay_shown_until_read_again() {
        let mut w: PageWindow<Row> = PageWindow::default();
        w.take_counted(0, rows(0, 10), 30, 4);
        assert!(w.missing(4, &BTreeSet::new()).is_empty());
        w.mark_stale(None);
        assert_eq!(w.selected(), Some(&Row(0)), "still shown");
        assert_eq!(w.missing(4, &BTreeSet::new()), vec![0]);
        w.take_counted(0, rows(0, 10), 30, 4);
        assert!(w.missing(4, &BTreeSet::new()).is_empty());
    }

    #[test]
    fn the_rows_decide_where_the_list_ends() {
        let mut w: PageWindow<Row> = PageWindow::default();
        // A total below the rows seen is corrected by the rows.
        w.take_counted(0, rows(0, 6), 2, 4);
        assert_eq!(w.total, Some(6));
        // A huge total is capped.
        w.take_counted(0, rows(0, 10), u64::MAX, 4);
        assert_eq!(w.total, Some(1_000));
        // A far page answers empty: the rows end where they were seen.
        w.table.bottom(4);
        assert_eq!(w.missing(4, &BTreeSet::new()), vec![99]);
        w.take_counted(99, Vec::new(), u64::MAX, 4);
        assert_eq!(w.total, Some(10));
        assert_eq!(w.table.selected, 9);
        assert!(w.missing(4, &BTreeSet::new()).is_empty());
    }

    #[test]
    fn a_filtered_selection_keeps_its_own_page() {
        let mut w: PageWindow<Row> = PageWindow::default();
        for p in 0..4 {
            w.take_counted(p, rows(p, 10), 40, 4);
        }
        // The table selects match 0, which is row 35 of the list.
        w.evict_around(35, &[]);
        assert!(w.pages.contains_key(&3));
        assert!(!w.pages.contains_key(&0), "the furthest went");
    }
}
