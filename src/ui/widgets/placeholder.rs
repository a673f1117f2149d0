//! Draws an [`app::Placeholder`](crate::app::Placeholder): the shared text
//! for data that is not there yet (loading, offline, rate limited, failed),
//! coloured by how loud it is. Pane views call it where a list or view has
//! nothing to show:
//!
//! ```ignore
//! let p = m.placeholder("sending domains", RouteFamily::EmailDomains, load);
//! f.render_widget(Paragraph::new(placeholder::lines(&p, inner.width, theme)), inner);
//! ```

use ratatui::style::Style;
use ratatui::text::Line;

use crate::app::Placeholder;
use crate::app::toast::Level;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;

/// The style of a level.
pub(crate) fn style(level: Level, theme: &Theme) -> Style {
    match level {
        Level::Info => theme.info,
        Level::Success => theme.ok,
        Level::Warning => theme.warn,
        Level::Error => theme.err,
    }
}

/// The placeholder wrapped to `width` columns, styled by its level.
pub(crate) fn lines(p: &Placeholder, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    super::wrapped::lines(
        DisplayText::block(&p.text).as_str(),
        width,
        style(p.level, theme),
    )
}
