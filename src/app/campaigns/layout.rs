//! The Campaigns pane's geometry, shared by drawing and by `update` (page
//! sizes, mouse hit-testing): computed from sizes alone.

use super::Tab;
use crate::geometry::{Rect, centered, split_left, split_top};

/// Rows of the detail header: the campaign line, the keys line, the tabs.
pub(crate) const HEADER_ROWS: u16 = 3;

/// The campaign list's table (its filter is typed in its bottom border).
pub(crate) fn list_area(body: Rect) -> Rect {
    body
}

/// Rows of the campaign list on screen.
pub(crate) fn list_viewport(body: Rect) -> usize {
    crate::geometry::table::viewport(list_area(body))
}

/// Where a campaign's detail goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Detail {
    /// The campaign line.
    pub title: Rect,
    /// The keys that apply, and those that do not with their reasons.
    pub keys: Rect,
    /// The tab row.
    pub tabs: Rect,
    /// The tab's content.
    pub content: Rect,
}

/// The detail's areas inside the pane body.
pub(crate) fn detail(body: Rect) -> Detail {
    let (head, content) = split_top(body, HEADER_ROWS);
    let (title, rest) = split_top(head, 1);
    let (keys, tabs) = split_top(rest, 1);
    Detail {
        title,
        keys,
        tabs,
        content,
    }
}

/// Rows of the roster and message tables on screen.
pub(crate) fn tab_viewport(body: Rect) -> usize {
    crate::geometry::table::viewport(detail(body).content)
}

/// The overview's two columns: settings, senders and sequence on the left;
/// the stats chart on the right.
pub(crate) fn overview(content: Rect) -> (Rect, Rect) {
    let left_w = if content.width >= 120 {
        content.width * 3 / 5
    } else {
        content.width / 2
    };
    split_left(content, left_w)
}

/// The label of each tab on the tab row, with its columns `[start, end)`.
pub(crate) fn tab_spans(tabs: Rect) -> Vec<(Tab, u16, u16)> {
    let mut x = tabs.x + 1;
    Tab::ALL
        .iter()
        .map(|t| {
            let w = u16::try_from(t.title().chars().count()).unwrap_or(u16::MAX) + 2;
            let span = (*t, x, x.saturating_add(w));
            x = x.saturating_add(w).saturating_add(1);
            span
        })
        .collect()
}

/// The tab under a click on the tab row.
pub(crate) fn tab_at(tabs: Rect, x: u16, y: u16) -> Option<Tab> {
    if y != tabs.y || tabs.height == 0 {
        return None;
    }
    tab_spans(tabs)
        .into_iter()
        .find(|(_, a, b)| (*a..*b).contains(&x))
        .map(|(t, _, _)| t)
}

/// A dialog over the body: as wide as `want` allows, two rows short of it.
pub(crate) fn dialog(body: Rect, want: u16) -> Rect {
    centered(
        body,
        want.min(body.width.saturating_sub(2)),
        body.height.saturating_sub(2).max(1),
    )
}

/// Where the sequence editor's parts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Editor {
    /// The steps.
    pub steps: Rect,
    /// The subject line (empty height for network steps).
    pub subject: Rect,
    /// The message body's text area.
    pub body: Rect,
    /// The variables line.
    pub variables: Rect,
    /// The preview for the chosen lead.
    pub preview: Rect,
}

/// Rows of the variables line under the body.
const VARIABLE_ROWS: u16 = 2;

/// The editor's areas; `subject` is false for steps without a subject.
pub(crate) fn editor(body: Rect, subject: bool) -> Editor {
    let wide = body.width >= 120;
    let h = body.height;
    let steps_h = if wide { 7.min(h / 3) } else { 5.min(h / 4) };
    let (main, preview) = if wide {
        split_left(body, body.width / 2)
    } else {
        // The body is what is written: it keeps at least 5 rows of text
        // (4 on a short screen) and the preview takes what is left, up to
        // two fifths. Below 18 rows there is no room for both: the old
        // split stands.
        let body_min = if h >= 22 { 7 } else { 6 };
        let fixed = steps_h + if subject { 3 } else { 0 } + VARIABLE_ROWS + body_min;
        let preview_h = if h >= 18 {
            (h * 2 / 5).min(h.saturating_sub(fixed))
        } else {
            h * 2 / 5
        };
        split_top(body, h.saturating_sub(preview_h))
    };
    let steps_h = if wide {
        steps_h
    } else {
        steps_h.min(main.height / 3)
    };
    let (steps, rest) = split_top(main, steps_h);
    let (subject, rest) = split_top(rest, if subject { 3 } else { 0 });
    let (body_area, variables) = split_top(rest, rest.height.saturating_sub(VARIABLE_ROWS));
    Editor {
        steps,
        subject,
        body: body_area,
        variables,
        preview,
    }
}

/// Where the launch preflight's dialog goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Preflight {
    /// The dialog with its border.
    pub frame: Rect,
    /// What it found or how far it is, and why `y` does what it does.
    pub summary: Rect,
    /// The findings list (or the progress while the roster is read).
    pub list: Rect,
}

impl Preflight {
    /// Rows of the findings list on screen.
    pub(crate) fn list_rows(&self) -> usize {
        usize::from(self.list.height).max(1)
    }
}

/// Rows above the preflight's list: its summary and its note.
const PREFLIGHT_SUMMARY_ROWS: u16 = 2;

/// The preflight dialog's areas inside the pane body.
pub(crate) fn preflight(body: Rect) -> Preflight {
    let frame = dialog(body, 100);
    let inner = Rect {
        x: frame.x.saturating_add(1),
        y: frame.y.saturating_add(1),
        width: frame.width.saturating_sub(2),
        height: frame.height.saturating_sub(2),
    };
    let (summary, list) = split_top(inner, PREFLIGHT_SUMMARY_ROWS);
    Preflight {
        frame,
        summary,
        list,
    }
}
