//! The Leads pane (built in the Leads issue).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::theme::Theme;
use crate::app::Model;
use crate::config::keymap::Action;

/// Status-bar hints of the current view.
pub fn hints(_m: &Model) -> Vec<(Action, &'static str)> {
    vec![(Action::PaneDomains, "domains")]
}

/// Draws the pane.
pub fn render(_m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(" Lead Finder searches ", theme.title));
    f.render_widget(Paragraph::new("").block(block), body);
}
