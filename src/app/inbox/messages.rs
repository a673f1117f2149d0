//! A bounded window over a thread's messages: the table's length is the
//! service's `total`, only pages near the selection are held (at most
//! [`MAX_PAGES`] of [`PAGE`]), far ones are dropped and read again when the
//! selection comes back. A thread of 10,000 messages costs the same memory
//! as one of 600.

use std::collections::BTreeMap;

use crate::api::model::ThreadMessage;
use crate::app::table::TableState;

/// Messages per page (the contract's largest `limit`).
pub const PAGE: usize = 200;
/// Pages held at most.
pub const MAX_PAGES: usize = 3;
/// Rows beyond the visible ones that should be loaded ahead.
const AHEAD: usize = 20;
/// The most messages a reported total is believed to stand for; a larger
/// total (a broken service can send anything) is taken as this.
pub const MAX_TOTAL: usize = 10_000_000;

/// The loaded part of a thread's messages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MessageWindow {
    /// Messages the service says the thread has (`None` until the first
    /// page).
    pub total: Option<usize>,
    /// Loaded pages by 0-based index.
    pub pages: BTreeMap<usize, Vec<ThreadMessage>>,
    /// Selection and scroll over `0..total`.
    pub table: TableState,
    /// The selection sits on the newest message: new messages are followed.
    pub follow: bool,
    /// The last failure, shown while nothing is loaded.
    pub error: Option<crate::api::ApiError>,
}

impl MessageWindow {
    /// A window that will select the newest message once the total is
    /// known.
    pub fn new() -> MessageWindow {
        MessageWindow {
            follow: true,
            ..MessageWindow::default()
        }
    }

    /// The message at row `i`, when its page is loaded.
    pub fn row(&self, i: usize) -> Option<&ThreadMessage> {
        self.pages.get(&(i / PAGE))?.get(i % PAGE)
    }

    /// The selected message, when loaded.
    pub fn selected(&self) -> Option<&ThreadMessage> {
        self.row(self.table.selected)
    }

    /// Messages held in memory.
    pub fn loaded_rows(&self) -> usize {
        self.pages.values().map(Vec::len).sum()
    }

    /// Pages the view needs: those of the visible rows and a few around
    /// them, nearest to the selection first. Before the first answer: the
    /// first page (it tells the total).
    pub fn wanted(&self, viewport: usize) -> Vec<usize> {
        let Some(total) = self.total else {
            return vec![0];
        };
        if total == 0 {
            return Vec::new();
        }
        let first = self.table.offset.saturating_sub(AHEAD);
        let last = self
            .table
            .offset
            .saturating_add(viewport.max(1))
            .saturating_add(AHEAD)
            .min(total - 1);
        let here = self.table.selected / PAGE;
        let mut pages: Vec<usize> = (first / PAGE..=last / PAGE).collect();
        pages.sort_by_key(|p| p.abs_diff(here));
        pages
    }

    /// The index of the last page.
    pub fn last_page(&self) -> usize {
        self.total.map_or(0, |t| t.saturating_sub(1) / PAGE)
    }

    /// Takes a page answer: the rows of page `page` and the total the
    /// service reported. Keeps the newest message selected while following,
    /// and drops the pages furthest from the selection past the bound.
    pub fn take_page(
        &mut self,
        page: usize,
        rows: Vec<ThreadMessage>,
        total: u64,
        viewport: usize,
    ) {
        let reported = usize::try_from(total).unwrap_or(usize::MAX).min(MAX_TOTAL);
        // The rows themselves prove at least this many.
        let seen = page.saturating_mul(PAGE).saturating_add(rows.len());
        let total = reported.max(seen);
        if rows.is_empty() {
            self.pages.remove(&page);
        } else {
            self.pages.insert(page, rows);
        }
        let grew = self.total.is_none_or(|t| t != total);
        self.total = Some(total);
        self.error = None;
        self.table.set_len(total, viewport);
        if self.follow && grew {
            self.table.bottom(viewport);
        }
        // A shorter total leaves pages past the end.
        let last = self.last_page();
        self.pages.retain(|p, _| *p <= last);
        self.evict();
    }

    /// Drops the pages furthest from the selection beyond [`MAX_PAGES`].
    pub fn evict(&mut self) {
        let here = self.table.selected / PAGE;
        while self.pages.len() > MAX_PAGES {
            let Some(far) = self.pages.keys().copied().max_by_key(|p| p.abs_diff(here)) else {
                break;
            };
            self.pages.remove(&far);
        }
    }

    /// Whether the selection is on the newest message.
    pub fn at_end(&self) -> bool {
        self.total
            .is_none_or(|t| self.table.selected.saturating_add(1) >= t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(p: usize, n: usize) -> Vec<ThreadMessage> {
        (0..n)
            .map(|i| ThreadMessage {
                id: format!("m-{}", p * PAGE + i),
                ..ThreadMessage::default()
            })
            .collect()
    }

    #[test]
    fn the_window_follows_the_newest_and_stays_bounded() {
        let mut w = MessageWindow::new();
        assert_eq!(w.wanted(10), vec![0]);
        w.take_page(0, page(0, PAGE), 10_000, 10);
        assert_eq!(w.table.selected, 9_999, "the newest is selected");
        assert_eq!(w.wanted(10), vec![49], "its page is wanted next");
        w.take_page(49, page(49, PAGE), 10_000, 10);
        assert_eq!(w.selected().map(|m| m.id.as_str()), Some("m-9999"));
        // Walk to the top a page at a time: never more than MAX_PAGES held.
        w.follow = false;
        while w.table.selected > 0 {
            w.table.page_up(10);
            for p in w.wanted(10) {
                if !w.pages.contains_key(&p) {
                    w.take_page(p, page(p, PAGE), 10_000, 10);
                }
            }
            assert!(w.pages.len() <= MAX_PAGES);
            assert!(w.loaded_rows() <= MAX_PAGES * PAGE);
        }
        assert_eq!(w.selected().map(|m| m.id.as_str()), Some("m-0"));
    }

    #[test]
    fn a_new_message_is_followed_only_at_the_end() {
        let mut w = MessageWindow::new();
        w.take_page(0, page(0, 3), 3, 10);
        assert!(w.at_end());
        w.take_page(0, page(0, 4), 4, 10);
        assert_eq!(w.table.selected, 3, "followed");
        w.follow = false;
        w.table.top(10);
        w.take_page(0, page(0, 5), 5, 10);
        assert_eq!(w.table.selected, 0, "not followed away from the end");
        // A total smaller than the rows seen is corrected by the rows.
        w.take_page(0, page(0, 6), 2, 10);
        assert_eq!(w.total, Some(6));
    }
}
