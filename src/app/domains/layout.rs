//! The Senders & Domains pane's geometry, shared by drawing and by `update`
//! (page sizes, mouse hit-testing): computed from sizes alone.

use super::View;
use crate::geometry::{Rect, split_top};

/// Where the pane's parts go, shared by drawing and mouse hit-testing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    /// The `/` filter bar above a list (height 0 when it is not shown).
    pub filter: Rect,
    /// Facts above the list (detail views).
    pub info: Rect,
    /// The scrolling list (a table, or the schedule tree).
    pub list: Rect,
    /// Lines of header inside the list's border (1 for tables, 0 for trees).
    pub header: u16,
    /// Below the list: the selected DNS value in full (detail view only).
    pub value: Rect,
}

/// From this many columns on, the lists show their further columns.
pub(crate) const WIDE: u16 = 160;

impl Areas {
    /// Whether the list has the room for its further columns.
    pub fn wide(&self) -> bool {
        self.list.width >= WIDE
    }

    /// Rows of the list on screen.
    pub fn viewport(&self) -> usize {
        self.list.height.saturating_sub(2 + self.header) as usize
    }

    /// The list line under a click.
    pub fn row_at(&self, x: u16, y: u16) -> Option<usize> {
        let a = self.list;
        let first = a.y + 1 + self.header;
        let end = a.y + a.height.saturating_sub(1);
        (x > a.x && x + 1 < a.x + a.width && y >= first && y < end).then(|| (y - first) as usize)
    }
}

/// The areas of a view inside the pane body; `filter_bar`: the list's
/// filter is shown (it takes the body's first line); `warned`: the detail's
/// facts hold a warning that may wrap (a line more for them).
pub fn areas(body: Rect, view: View, filter_bar: bool, warned: bool) -> Areas {
    let split = |info_h: u16| split_top(body, info_h.min(body.height / 2));
    let none = Rect { height: 0, ..body };
    match view {
        View::Domains | View::Senders => {
            let (filter, list) = split_top(body, u16::from(filter_bar).min(body.height));
            Areas {
                filter,
                info: none,
                list,
                header: 1,
                value: none,
            }
        }
        View::DomainDetail => {
            let (info, rest) = split(6 + u16::from(warned));
            // The records' `/` filter, above them.
            let (filter, rest) = split_top(rest, u16::from(filter_bar).min(rest.height));
            // The full selected value under the records (and what DNS holds
            // instead), when there is room.
            let value_h = match rest.height {
                16.. => 6,
                12..16 => 4,
                _ => 0,
            };
            let list = Rect {
                height: rest.height - value_h,
                ..rest
            };
            let value = Rect {
                y: list.y + list.height,
                height: value_h,
                ..rest
            };
            Areas {
                filter,
                info,
                list,
                header: 1,
                value,
            }
        }
        View::SenderDetail => {
            let (info, rest) = split(7);
            // The schedule's `/` filter, above it.
            let (filter, list) = split_top(rest, u16::from(filter_bar).min(rest.height));
            Areas {
                filter,
                info,
                list,
                header: 0,
                value: none,
            }
        }
    }
}
