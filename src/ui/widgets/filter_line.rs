//! The `/` input line of a list or view filtered live: what is typed,
//! and the keys that keep or clear it (as the keymap binds them).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::Model;
use crate::app::keymap::Action;
use crate::ui::theme::Theme;

/// Draws the input line in `area`.
pub fn render(
    m: &Model,
    f: &mut Frame,
    area: Rect,
    input: &ratatui_textarea::TextArea<'static>,
    placeholder: &str,
    theme: &Theme,
) {
    let prefix = Span::styled(" / ", theme.key);
    let help = Span::styled(
        format!(
            "  {} keeps · {} clears",
            m.keymap.text_box_label(Action::Open),
            m.keymap.text_box_label(Action::Back)
        ),
        theme.dim,
    );
    let help_w = u16::try_from(help.width()).unwrap_or(u16::MAX);
    f.render_widget(Paragraph::new(Line::from(prefix)), area);
    let input_area = Rect {
        x: area.x.saturating_add(3),
        width: area.width.saturating_sub(3 + help_w),
        ..area
    };
    super::form::text_input(f, input_area, input, true, placeholder, theme);
    let help_area = Rect {
        x: input_area.x.saturating_add(input_area.width),
        width: help_w.min(area.width),
        ..area
    };
    f.render_widget(Paragraph::new(Line::from(help)), help_area);
}
