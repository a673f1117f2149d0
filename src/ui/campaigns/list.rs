//! The campaign list.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::theme::Theme;
use super::super::widgets::stale;
use super::super::widgets::vtable::{self, Column, TableSpec};
use crate::app::Model;
use crate::app::campaigns::{Purpose, in_flight, layout, list};
use crate::app::keymap::Action;
use crate::text::format;
use crate::text::sanitize::DisplayText;

const COLS: [Column; 9] = [
    Column::new("Name", 10, u16::MAX),
    Column::new("Type", 7, 7),
    Column::new("Status", 9, 11),
    Column::num("Leads", 5, 8),
    Column::num("Sent", 4, 8),
    Column::num("Replied", 7, 8).optional(3),
    Column::num("Bounced", 7, 8).optional(4),
    Column::num("Reply rate", 10, 10).optional(2),
    Column::new("Created", 8, 16).optional(1),
];

/// Draws the list.
pub fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.panes.campaigns.list;
    let visible = l.visible();
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(c) = visible.get(i).and_then(|r| l.rows.get(*r)) else {
            return Vec::new();
        };
        let s = &c.stats;
        vec![
            Span::raw(DisplayText::inline(&c.name).into_string()),
            Span::styled(
                DisplayText::inline(c.kind.as_str()).into_string(),
                theme.dim,
            ),
            Span::styled(
                format!("● {}", DisplayText::inline(c.status.as_str())),
                theme.campaign_status(&c.status),
            ),
            Span::raw(format::count(s.total)),
            Span::raw(format::count(list::reached(c))),
            Span::styled(format::count(s.replied), theme.ok),
            Span::styled(format::count(s.bounced), theme.err),
            Span::raw(list::reply_rate(c).map_or("—".into(), |r| format!("{r:.1}%"))),
            Span::styled(format::ago(&c.created_at, m.clock), theme.dim),
        ]
    };
    let loading = in_flight(m, |p| *p == Purpose::List);
    let source = if l.registry {
        Span::styled(
            " local registry: ids created, opened or pasted here ",
            theme.warn,
        )
    } else if let Some(as_of) = l.cached {
        stale::span(as_of, m.clock, loading, theme)
    } else if loading {
        Span::styled(" loading… ", theme.info)
    } else {
        Span::default()
    };
    let title = Line::from(vec![
        Span::styled(
            format!(" Campaigns ({}) ", format::count(l.rows.len() as u64)),
            theme.title,
        ),
        source,
    ]);
    let footer = footer(m, theme);
    let empty = empty_text(m);
    vtable::render(
        f,
        layout::list_area(body),
        TableSpec {
            title,
            columns: &COLS,
            state: &l.table,
            row: &row,
            marked: None,
            footer,
            empty: &empty,
            focused: true,
        },
        theme,
    );
}

fn footer(m: &Model, theme: &Theme) -> Option<Line<'static>> {
    let l = &m.panes.campaigns.list;
    let mut spans = Vec::new();
    if l.filter_input.is_some() {
        spans.push(Span::styled(" / ", theme.key));
        spans.push(Span::styled(
            format!("{}█ ", DisplayText::inline(&l.filter)),
            theme.text,
        ));
        spans.push(Span::styled(" Enter keeps · Esc clears ", theme.dim));
    } else if !l.filter.is_empty() {
        spans.push(Span::styled(
            format!(
                " filter: {} · {} of {} · {} clears ",
                DisplayText::inline(&l.filter),
                l.visible().len(),
                l.rows.len(),
                m.keymap.key_label(Action::Back)
            ),
            theme.info,
        ));
    }
    if !l.missing.is_empty() {
        spans.push(Span::styled(
            format!(" {} known id(s) could not be read ", l.missing.len()),
            theme.warn,
        ));
    }
    (!spans.is_empty()).then(|| Line::from(spans))
}

fn empty_text(m: &Model) -> String {
    let l = &m.panes.campaigns.list;
    if !l.filter.is_empty() && !l.rows.is_empty() {
        return "no campaign matches the filter".into();
    }
    if let Some(e) = &l.error
        && !l.loaded
    {
        return format!(
            "could not list campaigns: {} — {} retries",
            DisplayText::inline(e),
            m.keymap.key_label(Action::Refresh)
        );
    }
    if !l.loaded {
        return "loading campaigns…".into();
    }
    if l.registry {
        return format!(
            "This service does not list campaigns, and none is known here yet — {} creates one, :open campaign <id> adds one",
            m.keymap.key_label(Action::NewCampaign)
        );
    }
    format!(
        "No campaigns yet — {} creates one",
        m.keymap.key_label(Action::NewCampaign)
    )
}
