//! The mark of a list drawn from what was last known (the cache of the
//! last session): ` stale · as of 3h ago `, and ` · refreshing… ` while
//! the fresh list is on its way.

use ratatui::text::Span;

use crate::app::cache::stale_text;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

/// The mark, for a list title.
pub fn span(as_of: i64, clock: i64, reading: bool, theme: &Theme) -> Span<'static> {
    let text = stale_text(as_of, clock);
    let text = if reading {
        format!(" {text} · refreshing… ")
    } else {
        format!(" {text} ")
    };
    Span::styled(text, theme.warn)
}

/// The mark of values kept after a failed read (see
/// [`stale_note`](crate::app::fresh::stale_note)), for a title.
pub fn failed(
    m: &crate::app::Model,
    read_at: Option<i64>,
    error: &crate::api::ApiError,
    polled: bool,
    theme: &Theme,
) -> Span<'static> {
    let note = crate::app::fresh::stale_note(m, read_at, error, polled);
    Span::styled(format!(" {} ", DisplayText::inline(&note)), theme.warn)
}
