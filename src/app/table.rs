//! Selection and scrolling of a list that may be far longer than the screen:
//! only `offset..offset + viewport` is ever rendered.

/// Selection, scroll offset and length of a virtual list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableState {
    /// Selected row (0 when empty).
    pub selected: usize,
    /// First visible row.
    pub offset: usize,
    /// Rows known (loaded) so far.
    pub len: usize,
}

impl TableState {
    /// Sets the length, keeping the selection in bounds.
    pub fn set_len(&mut self, len: usize, viewport: usize) {
        self.len = len;
        self.clamp(viewport);
    }

    /// Moves the selection by `delta` rows.
    pub fn move_by(&mut self, delta: isize, viewport: usize) {
        if self.len == 0 {
            return;
        }
        // Unsigned and saturating: a length taken from the service can be
        // anything up to u64::MAX.
        let moved = if delta < 0 {
            self.selected.saturating_sub(delta.unsigned_abs())
        } else {
            self.selected.saturating_add(delta.unsigned_abs())
        };
        self.selected = moved.min(self.len - 1);
        self.clamp(viewport);
    }

    /// Selects a row (clamped).
    pub fn select(&mut self, row: usize, viewport: usize) {
        self.selected = row.min(self.len.saturating_sub(1));
        self.clamp(viewport);
    }

    /// First row.
    pub fn top(&mut self, viewport: usize) {
        self.select(0, viewport);
    }

    /// Last row.
    pub fn bottom(&mut self, viewport: usize) {
        self.select(self.len.saturating_sub(1), viewport);
    }

    /// One screen down.
    pub fn page_down(&mut self, viewport: usize) {
        self.move_by(viewport.max(1) as isize, viewport);
    }

    /// One screen up.
    pub fn page_up(&mut self, viewport: usize) {
        self.move_by(-(viewport.max(1) as isize), viewport);
    }

    /// Scrolls the view (mouse wheel) without losing the selection from view.
    pub fn scroll(&mut self, delta: isize, viewport: usize) {
        self.move_by(delta, viewport);
    }

    /// Keeps `offset <= selected < offset + viewport` and both in bounds.
    pub fn clamp(&mut self, viewport: usize) {
        let viewport = viewport.max(1);
        if self.len == 0 {
            self.selected = 0;
            self.offset = 0;
            return;
        }
        self.selected = self.selected.min(self.len - 1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset.saturating_add(viewport) {
            self.offset = self.selected + 1 - viewport;
        }
        // Never leave empty space below the last row when scrolled.
        let max_offset = self.len.saturating_sub(viewport);
        self.offset = self.offset.min(max_offset);
    }

    /// The rows on screen.
    pub fn visible(&self, viewport: usize) -> std::ops::Range<usize> {
        let end = self.offset.saturating_add(viewport).min(self.len);
        self.offset.min(end)..end
    }

    /// The row at screen line `line` of the body, if any.
    pub fn row_at(&self, line: usize) -> Option<usize> {
        let row = self.offset.saturating_add(line);
        (row < self.len).then_some(row)
    }

    /// Whether the selection is within `margin` rows of the end of what is
    /// loaded: time to fetch the next page.
    pub fn near_end(&self, margin: usize) -> bool {
        self.len == 0 || self.selected.saturating_add(margin) >= self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn paging_keeps_the_selection_visible() {
        let mut t = TableState::default();
        t.set_len(100, 10);
        t.page_down(10);
        assert_eq!((t.selected, t.offset), (10, 1));
        t.bottom(10);
        assert_eq!((t.selected, t.offset), (99, 90));
        t.set_len(5, 10);
        assert_eq!((t.selected, t.offset), (4, 0));
        assert_eq!(t.visible(10), 0..5);
    }

    #[test]
    fn any_length_from_a_service_is_safe() {
        let mut t = TableState::default();
        t.set_len(usize::MAX, 10);
        t.move_by(1, 10);
        t.page_down(10);
        t.bottom(10);
        assert_eq!(t.selected, usize::MAX - 1);
        t.move_by(isize::MIN, 10);
        t.move_by(isize::MIN, 10);
        assert_eq!(t.selected, 0);
        assert_eq!(t.visible(10), 0..10);
    }

    proptest! {
        #[test]
        fn invariants_hold(ops in proptest::collection::vec((0u8..7, -50isize..50, 0usize..300, 1usize..40), 1..60)) {
            let mut t = TableState::default();
            for (op, d, n, vp) in ops {
                match op {
                    0 => t.set_len(n, vp),
                    1 => t.move_by(d, vp),
                    2 => t.page_down(vp),
                    3 => t.page_up(vp),
                    4 => t.bottom(vp),
                    5 => t.select(n, vp),
                    _ => t.top(vp),
                }
                if t.len > 0 {
                    prop_assert!(t.selected < t.len);
                    prop_assert!(t.offset <= t.selected && t.selected < t.offset + vp);
                } else {
                    prop_assert_eq!((t.selected, t.offset), (0, 0));
                }
            }
        }
    }
}
