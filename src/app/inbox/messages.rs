//! A thread's messages over the one page window ([`crate::app::window`]):
//! pages of 200 (the contract's largest `limit`), at most three held, so a
//! thread of 10,000 messages costs the same memory as one of 600.

use crate::api::model::ThreadMessage;
use crate::app::window::{PageWindow, Paged, Shape};

/// Messages per page (the contract's largest `limit`).
pub const PAGE: usize = 200;

/// The read of page `page` (1-based, as the service counts) of a thread's
/// messages, [`PAGE`] at a time: the one request the thread view, a
/// reply's read and a send's check share.
pub(crate) fn page_request(thread: &str, page: u64) -> crate::app::ApiRequest {
    crate::app::ApiRequest::ListMessages {
        id: thread.to_owned(),
        page: Some(page),
        limit: Some(u64::try_from(PAGE).unwrap_or(200)),
    }
}
/// Pages held at most.
pub const MAX_PAGES: usize = 3;

impl Paged for ThreadMessage {
    const SHAPE: Shape = Shape {
        page: PAGE,
        max_pages: MAX_PAGES,
        ahead: 20,
        max_inflight: 2,
        max_total: 10_000_000,
    };
}

/// The loaded part of a thread's messages.
pub(crate) type MessageWindow = PageWindow<ThreadMessage>;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

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
    fn a_long_thread_is_read_from_its_newest_page_and_stays_bounded() {
        let mut w = MessageWindow::default();
        assert_eq!(w.wanted(10), vec![0]);
        w.take_counted(0, page(0, PAGE), 10_000, 10);
        w.table.bottom(10);
        assert_eq!(w.wanted(10), vec![49], "the newest page is wanted next");
        w.take_counted(49, page(49, PAGE), 10_000, 10);
        assert_eq!(w.selected().map(|m| m.id.as_str()), Some("m-9999"));
        // Walk to the top a page at a time: never more than MAX_PAGES held.
        while w.table.selected > 0 {
            w.table.page_up(10);
            for p in w.missing(10, &BTreeSet::new()) {
                w.take_counted(p, page(p, PAGE), 10_000, 10);
            }
            w.evict(10);
            assert!(w.pages.len() <= MAX_PAGES);
            assert!(w.loaded_rows() <= MAX_PAGES * PAGE);
        }
        assert_eq!(w.selected().map(|m| m.id.as_str()), Some("m-0"));
    }
}
