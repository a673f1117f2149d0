//! The `/` input line of a list or view filtered live
//! ([`LiveFilter`](crate::app::live_filter::LiveFilter)): what is typed, and the keys
//! that keep or clear it, named from the same fixed keys its handler takes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::fixed_keys;
use crate::ui::theme::Theme;

/// Draws the input line in `area`.
pub(crate) fn render(
    f: &mut Frame,
    area: Rect,
    input: &ratatui_textarea::TextArea<'static>,
    placeholder: &str,
    theme: &Theme,
) {
    let prefix = Span::styled(" / ", theme.key);
    let help = Span::styled(
        format!(
            "  {} keeps · {} cancels",
            fixed_keys::CONFIRM.label,
            fixed_keys::CLOSE.label
        ),
        theme.dim,
    );
    let help_w = u16::try_from(help.width()).unwrap_or(u16::MAX);
    f.render_widget(Paragraph::new(Line::from(prefix)), area);
    let input_area = Rect {
        x: area.x.saturating_add(3),
        width: area.width.saturating_sub(help_w.saturating_add(3)),
        ..area
    };
    super::form::text_input(f, input_area, input, true, placeholder, theme);
    // Never past the line's end, however narrow it is.
    let x = input_area
        .x
        .saturating_add(input_area.width)
        .min(area.right());
    let help_area = Rect {
        x,
        width: help_w.min(area.right().saturating_sub(x)),
        ..area
    };
    f.render_widget(Paragraph::new(Line::from(help)), help_area);
}
