//! The mark of a list drawn from what was last known (the cache of the
//! last session): ` stale · as of 3h ago `, and ` · refreshing… ` while
//! the fresh list is on its way; and the one freshness mark of a
//! [`Freshness`](crate::app::fresh::Freshness) (`live`, `retrying in 8 s`,
//! `stale · as of 2m ago · r retries`, `offline · as of …`).

use ratatui::text::Span;

use crate::app::cache::stale_text;
use crate::ui::theme::Theme;

/// The mark, for a list title.
pub(crate) fn span(as_of: i64, clock: i64, reading: bool, theme: &Theme) -> Span<'static> {
    let text = stale_text(as_of, clock);
    let text = if reading {
        format!(" {text} · refreshing… ")
    } else {
        format!(" {text} ")
    };
    Span::styled(text, theme.warn)
}

/// A shown value's freshness in its one wording
/// ([`shown`](crate::app::fresh::shown)): `live` dim, `retrying in 8 s` and
/// `stale · as of 2m ago · r retries` as warnings, for a title.
pub(crate) fn freshness(
    m: &crate::app::Model,
    f: &crate::app::fresh::Freshness,
    theme: &Theme,
) -> Span<'static> {
    let text = format!(" {} ", crate::app::fresh::shown(m, f));
    let style = match crate::app::fresh::state(m, f) {
        crate::app::fresh::Shown::Live | crate::app::fresh::Shown::AsOf { .. } => theme.dim,
        _ => theme.warn,
    };
    Span::styled(text, style)
}
