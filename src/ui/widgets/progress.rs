//! A one-line progress bar with a label.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Gauge;

use crate::ui::theme::Theme;

/// Draws `done` of `total` with a label (`{label} {done}/{total}`).
pub(crate) fn render(f: &mut Frame, area: Rect, done: u64, total: u64, label: &str, theme: &Theme) {
    labelled(
        f,
        area,
        done,
        total,
        format!("{label} {done}/{total}"),
        theme,
    );
}

/// Draws `done` of `total` with `text` as the whole label.
pub(crate) fn labelled(
    f: &mut Frame,
    area: Rect,
    done: u64,
    total: u64,
    text: String,
    theme: &Theme,
) {
    let ratio = if total == 0 {
        0.0
    } else {
        (done as f64 / total as f64).clamp(0.0, 1.0)
    };
    let gauge = Gauge::default()
        .gauge_style(theme.ok)
        .ratio(ratio)
        .label(text)
        .use_unicode(true);
    f.render_widget(gauge, area);
}
