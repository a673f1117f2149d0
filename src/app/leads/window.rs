//! The results of the open search over the one page window
//! ([`crate::app::window`]): pages of 100, at most ten held, so a search of
//! 100,000 rows costs the memory of a thousand.
//!
//! Unfiltered lists are read by offset (random access); filtered lists only
//! by the opaque cursor each page returns, so the cursor that starts every
//! page seen is remembered (a few bytes per 100 rows) and far pages are
//! reached by walking forward ([`Cursors`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::api::model::{LeadResult, Pagination};
use crate::app::window::{PageWindow, Paged, Shape, Walk};

/// Rows per page.
pub(crate) const PAGE: usize = 100;
/// Pages kept in memory at most.
pub(crate) const MAX_PAGES: usize = 10;
/// How far a reported total is believed (the export's walk's rule too).
pub(crate) use crate::logic::results::MAX_TOTAL;

impl Paged for LeadResult {
    const SHAPE: Shape = Shape {
        page: PAGE,
        max_pages: MAX_PAGES,
        ahead: PAGE / 2,
        max_inflight: 3,
        max_total: MAX_TOTAL,
    };
}

/// How a page is read from the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageAccess {
    /// By offset (`GET /api/lead-finder/{id}?limit&offset`).
    Offset(u64),
    /// By the cursor that starts it (`None`: the first page).
    Cursor(Option<String>),
}

/// How the results' pages are reached: by offset, or (a filtered list) by
/// the cursors seen so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cursors {
    /// Filtered lists can only be walked by cursor.
    pub sequential: bool,
    /// Cursor that starts page `i` (sequential lists, `i >= 1`).
    pub starts: BTreeMap<usize, String>,
    /// The page each cursor was first given for (to notice a cursor that
    /// leads back to an earlier page).
    first_for: HashMap<String, usize>,
}

impl Walk for Cursors {
    fn step_towards(&self, p: usize) -> Option<usize> {
        if !self.sequential {
            return Some(p);
        }
        (0..=p)
            .rev()
            .find(|q| *q == 0 || self.starts.contains_key(q))
    }
}

/// The loaded part of a result list.
pub(crate) type Window = PageWindow<LeadResult, Cursors>;

impl PageWindow<LeadResult, Cursors> {
    /// An empty window (`sequential`: a filtered list, walked by cursor).
    pub fn for_results(sequential: bool) -> Window {
        PageWindow::new(Cursors {
            sequential,
            ..Cursors::default()
        })
    }

    /// The index of a loaded row by result id.
    pub fn find(&self, result_id: &str) -> Option<usize> {
        self.pages.iter().find_map(|(p, rows)| {
            rows.iter()
                .position(|r| r.result_id == result_id)
                .map(|i| p * PAGE + i)
        })
    }

    /// How page `p` can be requested now, if it can.
    fn access(&self, p: usize) -> Option<PageAccess> {
        if !self.walk.sequential {
            return Some(PageAccess::Offset((p * PAGE) as u64));
        }
        if p == 0 {
            return Some(PageAccess::Cursor(None));
        }
        self.walk
            .starts
            .get(&p)
            .map(|c| PageAccess::Cursor(Some(c.clone())))
    }

    /// Pages to request now, and how ([`PageWindow::missing`]).
    /// `pending`: the pages already asked for (read from the request
    /// table).
    pub fn to_fetch(&self, viewport: usize, pending: &BTreeSet<usize>) -> Vec<(usize, PageAccess)> {
        self.missing(viewport, pending)
            .into_iter()
            .filter_map(|p| self.access(p).map(|a| (p, a)))
            .collect()
    }

    /// Stores page `p` from an answer; returns whether the total changed.
    pub fn store(
        &mut self,
        p: usize,
        rows: Vec<LeadResult>,
        pagination: &Pagination,
        viewport: usize,
    ) -> bool {
        let next = pagination
            .next_cursor
            .as_ref()
            .map(crate::api::model::Cursor::to_text)
            .filter(|_| pagination.has_more && !rows.is_empty());
        // A cursor leading back to a page already walked would walk in a
        // circle: the list ends here instead.
        let cursors = &self.walk;
        let circular = cursors.sequential
            && next.as_ref().is_some_and(|c| {
                cursors
                    .first_for
                    .get(c)
                    .is_some_and(|q| *q != p + 1 && cursors.starts.get(q) == Some(c))
            });
        let has_more = pagination.has_more && !circular;
        let changed = self.take(p, rows, pagination.total, has_more, viewport);
        let total = self.total.unwrap_or(0);
        let cursors = &mut self.walk;
        if cursors.sequential {
            match next {
                Some(c) if has_more => {
                    cursors.first_for.entry(c.clone()).or_insert(p + 1);
                    cursors.starts.insert(p + 1, c);
                }
                _ => {
                    cursors.starts.retain(|q, _| *q <= p);
                }
            }
            let last_page = total.div_ceil(PAGE);
            cursors.starts.retain(|q, _| *q < last_page.max(1));
        }
        self.evict(viewport);
        changed
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
        let mut w = Window::for_results(false);
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
        let mut w = Window::for_results(true);
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
        let mut w = Window::for_results(false);
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
        let mut w = Window::for_results(false);
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
        let mut w = Window::for_results(true);
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
        let mut w = Window::for_results(true);
        w.store(0, rows(0, PAGE), &pag(u64::MAX, true, c("c1")), 20);
        w.store(1, rows(1, PAGE), &pag(u64::MAX, true, c("c2")), 20);
        w.store(2, rows(2, PAGE), &pag(u64::MAX, true, c("c1")), 20);
        assert_eq!(w.total, Some(3 * PAGE));
        // Reading a page again gives its cursor again: not a circle.
        w.mark_stale(None);
        w.store(0, rows(0, PAGE), &pag(1000, true, c("c1")), 20);
        assert_eq!(w.walk.starts.get(&1).map(String::as_str), Some("c1"));
    }

    #[test]
    fn a_huge_total_is_capped() {
        let mut w = Window::for_results(false);
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
