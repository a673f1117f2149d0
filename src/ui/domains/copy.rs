//! The copy chooser over a domain's records: each choice with its key and
//! what it would copy.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::api::model::DnsRecord;
use crate::app::Model;
use crate::app::domains::{CopyChoice, CopyMenu};
use crate::app::keymap::Action;
use crate::text::sanitize::DisplayText;
use crate::ui::theme::Theme;
use crate::ui::widgets::dialog::centered;

/// Draws the chooser for record `r` under its row of the record table
/// `list` (over it when there is no room below), so the row stays seen.
pub(super) fn render(
    m: &Model,
    f: &mut Frame,
    (body, list): (Rect, Rect),
    menu: &CopyMenu,
    r: &DnsRecord,
    theme: &Theme,
) {
    let rows = u16::try_from(CopyChoice::ALL.len()).unwrap_or(u16::MAX);
    let area = place(m, body, list, rows + 2);
    let lines: Vec<Line> = CopyChoice::ALL
        .iter()
        .enumerate()
        .map(|(i, choice)| line(*choice, r, i == menu.selected, theme))
        .collect();
    let kind = DisplayText::inline(r.kind.trim()).into_string();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            format!(" Copy from this {kind} record "),
            theme.title,
        ))
        .title_bottom(Line::from(vec![
            Span::styled(format!(" {} ", m.keymap.key_label(Action::Open)), theme.key),
            Span::styled("copy · ", theme.dim),
            Span::styled(format!("{} ", m.keymap.key_label(Action::Back)), theme.key),
            Span::styled("close ", theme.dim),
        ]));
    f.render_widget(Clear, area);
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// Where the chooser goes: below the selected row, else above it, else in
/// the middle of the body.
fn place(m: &Model, body: Rect, list: Rect, height: u16) -> Rect {
    let t = &m.panes.domains.records;
    let line = u16::try_from(t.selected.saturating_sub(t.offset)).unwrap_or(u16::MAX);
    // Border and header above the first row.
    let row_y = list.y.saturating_add(2).saturating_add(line);
    let width = 120.min(list.width.saturating_sub(4));
    let x = list.x + 2;
    let bottom = body.y + body.height;
    if row_y + 1 + height <= bottom {
        Rect::new(x, row_y + 1, width, height)
    } else if row_y >= body.y + height {
        Rect::new(x, row_y - height, width, height)
    } else {
        centered(body, width, height)
    }
}

/// ` n  name            resend._domainkey.…`
fn line(choice: CopyChoice, r: &DnsRecord, selected: bool, theme: &Theme) -> Line<'static> {
    let preview = DisplayText::inline(&choice.text(r)).into_string();
    let row_style = if selected { theme.selected } else { theme.text };
    Line::from(vec![
        Span::styled(format!(" {}  ", choice.key()), theme.key),
        Span::styled(format!("{:<15}", choice.label()), row_style),
        Span::styled(preview, theme.dim),
    ])
}
