//! Pure geometry below both `app` and `ui`: the screen layout, splits and
//! the hit tests that input handling and drawing must agree on. Computed
//! from sizes alone, so `view` (drawing) and `update` (mouse hit-testing,
//! page sizes) always agree. Imports neither `app` nor `ui`.

pub(crate) mod table;

pub(crate) use ratatui::layout::Rect;

/// Smallest usable terminal.
pub(crate) const MIN_WIDTH: u16 = 60;
/// Smallest usable terminal.
pub(crate) const MIN_HEIGHT: u16 = 15;

/// Splits `area` into its top `h` rows (at most all of it) and the rest.
pub(crate) fn split_top(area: Rect, h: u16) -> (Rect, Rect) {
    let h = h.min(area.height);
    (
        Rect { height: h, ..area },
        Rect {
            y: area.y + h,
            height: area.height - h,
            ..area
        },
    )
}

/// A rectangle of at most `w`×`h` centred in `area`.
pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// Where a full-height overlay (help, messages) goes over the pane body:
/// narrow screens cover the body exactly, so borders do not double up;
/// wider ones get a 90-column box. Always as tall as the body, so a scroll
/// bound computed from it is exact.
pub(crate) fn overlay_rect(body: Rect) -> Rect {
    if body.width <= 92 {
        body
    } else {
        centered(body, 90, body.height)
    }
}

/// Splits `area` into its left `w` columns (at most all of it) and the rest.
pub(crate) fn split_left(area: Rect, w: u16) -> (Rect, Rect) {
    let w = w.min(area.width);
    (
        Rect { width: w, ..area },
        Rect {
            x: area.x + w,
            width: area.width - w,
            ..area
        },
    )
}

/// Where the chrome and the pane go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppLayout {
    /// The whole screen.
    pub area: Rect,
    /// The tab row.
    pub tabs: Rect,
    /// The pane.
    pub body: Rect,
    /// The status bar.
    pub status: Rect,
    /// Below the minimum size: only the "too small" notice is drawn.
    pub too_small: bool,
    /// Each tab's columns `[start, end)`, in tab order.
    pub tab_spans: Vec<(u16, u16)>,
}

/// Text before the first tab.
pub(crate) const BRAND: &str = " Outpost ";

impl AppLayout {
    /// The layout of a `(columns, rows)` terminal with these tab labels.
    pub fn new((w, h): (u16, u16), labels: &[String]) -> AppLayout {
        let area = Rect::new(0, 0, w, h);
        let too_small = w < MIN_WIDTH || h < MIN_HEIGHT;
        let tabs = Rect::new(0, 0, w, 1.min(h));
        let status = Rect::new(0, h.saturating_sub(1), w, 1.min(h));
        let body = Rect::new(0, 1.min(h), w, h.saturating_sub(2));
        let mut tab_spans = Vec::new();
        let mut x = u16::try_from(BRAND.chars().count()).unwrap_or(u16::MAX) + 1;
        for label in labels {
            let width = u16::try_from(label.chars().count()).unwrap_or(u16::MAX);
            tab_spans.push((x, x.saturating_add(width)));
            x = x.saturating_add(width).saturating_add(1);
        }
        AppLayout {
            area,
            tabs,
            body,
            status,
            too_small,
            tab_spans,
        }
    }

    /// The index of the tab under column `x`.
    pub fn tab_at(&self, x: u16) -> Option<usize> {
        self.tab_spans
            .iter()
            .position(|(a, b)| (*a..*b).contains(&x))
    }
}
