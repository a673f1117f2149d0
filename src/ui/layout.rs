//! The screen layout, computed from the terminal size alone so that `view`
//! (drawing) and `update` (mouse hit-testing, page sizes) always agree.

use ratatui::layout::Rect;

use crate::app::Pane;

/// Smallest usable terminal.
pub const MIN_WIDTH: u16 = 60;
/// Smallest usable terminal.
pub const MIN_HEIGHT: u16 = 15;

/// Splits `area` into its top `h` rows (at most all of it) and the rest.
pub fn split_top(area: Rect, h: u16) -> (Rect, Rect) {
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

/// Splits `area` into its left `w` columns (at most all of it) and the rest.
pub fn split_left(area: Rect, w: u16) -> (Rect, Rect) {
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
    /// Each tab's columns `[start, end)`.
    pub tab_spans: Vec<(Pane, u16, u16)>,
}

/// The label of a tab.
pub fn tab_label(pane: Pane) -> String {
    format!(" {} {} ", pane.number(), pane.title())
}

/// Text before the first tab.
pub const BRAND: &str = " Outpost ";

impl AppLayout {
    /// The layout of a `(columns, rows)` terminal.
    pub fn new((w, h): (u16, u16)) -> AppLayout {
        let area = Rect::new(0, 0, w, h);
        let too_small = w < MIN_WIDTH || h < MIN_HEIGHT;
        let tabs = Rect::new(0, 0, w, 1.min(h));
        let status = Rect::new(0, h.saturating_sub(1), w, 1.min(h));
        let body = Rect::new(0, 1.min(h), w, h.saturating_sub(2));
        let mut tab_spans = Vec::new();
        let mut x = BRAND.chars().count() as u16 + 1;
        for pane in Pane::BUILT {
            let width = tab_label(pane).chars().count() as u16;
            tab_spans.push((pane, x, x + width));
            x += width + 1;
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

    /// The tab under column `x`.
    pub fn tab_at(&self, x: u16) -> Option<Pane> {
        self.tab_spans
            .iter()
            .find(|(_, a, b)| (*a..*b).contains(&x))
            .map(|(p, _, _)| *p)
    }
}
