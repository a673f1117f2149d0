//! Views: pure functions of the model into a ratatui frame. Service text
//! reaches a cell only as [`crate::text::sanitize::DisplayText`].

pub mod campaigns;
pub mod domains;
pub mod inbox;
pub mod leads;
pub mod profile;
pub mod theme;
pub mod widgets;

use ratatui::Frame;

use crate::text::{format, sanitize};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::help::Row;
use crate::app::pane::PaneUnit;
use crate::app::registry::with_panes;
use crate::app::{Model, Overlay, Pane};
use crate::geometry::{AppLayout, BRAND, MIN_HEIGHT, MIN_WIDTH};
use theme::Theme;

/// The drawing half of a pane, implemented in `ui/<pane>` for the pane's
/// model (the logic half is [`PaneUnit`]).
pub trait PaneView: PaneUnit {
    /// Draws the pane into `body`.
    fn view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme);
}

/// Generates the drawing dispatch from the pane registry.
macro_rules! define_views {
    ($($variant:ident($field:ident): $ty:ty,)+) => {
        /// Draws the pane shown.
        fn pane_view(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
            match m.pane {
                $(Pane::$variant => <$ty as PaneView>::view(m, f, body, theme),)+
            }
        }
    };
}
with_panes!(define_views);

/// Draws the whole screen.
pub fn view(m: &Model, f: &mut Frame) {
    let theme = Theme::from_config(&m.theme, m.colour);
    let labels = crate::app::tab_labels(f.area().width, m.pane);
    let layout = AppLayout::new((f.area().width, f.area().height), &labels);
    if layout.too_small {
        too_small(f, &layout, &theme);
        return;
    }
    tabs(m, f, &layout, &labels, &theme);
    pane_view(m, f, layout.body, &theme);
    status_bar(m, f, &layout, &theme);
    let toast_area = Rect {
        height: layout.body.height,
        ..layout.body
    };
    widgets::toast::render(f, toast_area, m.toasts.items(), &theme);
    match &m.overlay {
        Some(Overlay::Help { scroll }) => help(m, f, layout.body, *scroll, &theme),
        Some(Overlay::Confirm(c)) => widgets::dialog::render_confirm(f, layout.body, c, &theme),
        Some(Overlay::Command(c)) => command_line(f, &layout, c, &theme),
        None => {}
    }
}

fn too_small(f: &mut Frame, layout: &AppLayout, theme: &Theme) {
    let a = layout.area;
    let lines = vec![
        Line::from(Span::styled("Terminal too small", theme.title)),
        Line::from(format!(
            "need {MIN_WIDTH}×{MIN_HEIGHT}, have {}×{}",
            a.width, a.height
        )),
        Line::from(Span::styled("enlarge the window · q quits", theme.dim)),
    ];
    let h = 3.min(a.height);
    let rect = Rect {
        y: a.y + a.height.saturating_sub(h) / 2,
        height: h,
        ..a
    };
    f.render_widget(
        Paragraph::new(lines).alignment(ratatui::layout::HorizontalAlignment::Center),
        rect,
    );
}

fn tabs(m: &Model, f: &mut Frame, layout: &AppLayout, labels: &[String], theme: &Theme) {
    let mut spans = vec![Span::styled(BRAND, theme.title), Span::raw(" ")];
    for (pane, label) in Pane::ALL.iter().zip(labels) {
        let style = if *pane == m.pane {
            theme.tab_active
        } else {
            theme.tab
        };
        spans.push(Span::styled(label.clone(), style));
        spans.push(Span::raw(" "));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), layout.tabs);
}

fn status_bar(m: &Model, f: &mut Frame, layout: &AppLayout, theme: &Theme) {
    // Right side first: it has priority over the hints.
    let mut right: Vec<Span> = Vec::new();
    if let Some(until) = m.net.rate_limited_until
        && until > m.now
    {
        right.push(Span::styled(
            format!(
                " rate limited · retry in {} ",
                format::duration(until - m.now)
            ),
            theme.err,
        ));
        right.push(Span::raw(" "));
    }
    if m.net.in_flight > 0 {
        right.push(Span::styled(format!("⇅{} ", m.net.in_flight), theme.info));
    }
    // Narrow screens keep the hints: latency and the key give way first.
    let narrow = layout.status.width < 72;
    if let Some(l) = m.net.last_latency
        && !narrow
    {
        right.push(Span::styled(format!("{} ", format::millis(l)), theme.dim));
    }
    if m.session.demo {
        right.push(Span::styled(" DEMO ", theme.badge));
        right.push(Span::raw(" "));
    }
    right.push(Span::styled(
        middle_cut(
            &sanitize::inline(&m.session.host),
            if narrow { 16 } else { 28 },
        ),
        theme.text,
    ));
    right.push(Span::raw(" "));
    if !narrow {
        right.push(Span::styled(m.session.masked_key.clone(), theme.dim));
        right.push(Span::raw(" "));
    }
    let right_width: u16 = right.iter().map(|s| s.width() as u16).sum();

    let mut left: Vec<Span> = vec![Span::raw(" ")];
    let mut used = 1u16;
    let room = layout.status.width.saturating_sub(right_width + 1);
    for (action, label) in crate::app::hints(m) {
        let key = m.keymap.key_label(action);
        let w = (key.chars().count() + label.chars().count() + 3) as u16;
        if used + w > room {
            break;
        }
        left.push(Span::styled(key, theme.key));
        left.push(Span::styled(format!(" {label}  "), theme.dim));
        used += w;
    }
    f.render_widget(
        Paragraph::new(Line::from(left)).style(theme.status),
        layout.status,
    );
    let rect = Rect {
        x: layout.status.x + layout.status.width.saturating_sub(right_width),
        width: right_width.min(layout.status.width),
        ..layout.status
    };
    f.render_widget(Paragraph::new(Line::from(right)), rect);
}

/// Shortens text to `max` chars by cutting the middle (`api.exa…le.com:443`).
fn middle_cut(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max || max < 5 {
        return text.to_owned();
    }
    let head = (max - 1) / 2;
    let tail = max - 1 - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{start}…{end}")
}

/// The help rows, styled.
pub fn help_lines(m: &Model, theme: &Theme) -> Vec<Line<'static>> {
    crate::app::help::rows(m)
        .into_iter()
        .map(|row| match row {
            Row::Title(t) => Line::from(Span::styled(t, theme.title)),
            Row::Entry {
                keys,
                help,
                command: false,
            } => Line::from(vec![
                Span::styled(format!("  {keys:<18}"), theme.key),
                Span::raw(help),
            ]),
            Row::Entry {
                keys,
                help,
                command: true,
            } => Line::from(vec![
                Span::styled(format!("  {keys}"), theme.key),
                Span::styled(format!(" {help}"), theme.dim),
            ]),
            Row::Note(n) => Line::from(Span::styled(n, theme.dim)),
            Row::Blank => Line::default(),
        })
        .collect()
}

/// Where the help overlay goes: narrow screens cover the pane exactly, so
/// borders do not double up. Always as tall as the body (the scroll bound
/// in `app::help` counts on it).
fn help_rect(body: Rect) -> Rect {
    if body.width <= 92 {
        body
    } else {
        widgets::dialog::centered(body, 90, body.height)
    }
}

fn help(m: &Model, f: &mut Frame, body: Rect, scroll: u16, theme: &Theme) {
    let rect = help_rect(body);
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(
            format!(" Help · {} ", m.pane.title()),
            theme.title,
        ))
        .title_bottom(Line::from(vec![
            Span::styled(" j/k ", theme.key),
            Span::styled("scroll ", theme.dim),
            Span::styled(" any other key ", theme.key),
            Span::styled("closes ", theme.dim),
        ]));
    // No wrapping: one help row is one screen row, so the scroll bound is
    // exact.
    f.render_widget(
        Paragraph::new(help_lines(m, theme))
            .block(block)
            .scroll((scroll, 0)),
        rect,
    );
}

fn command_line(
    f: &mut Frame,
    layout: &AppLayout,
    c: &crate::app::command_line::CommandLine,
    theme: &Theme,
) {
    let text = c.text();
    let candidates = crate::app::command_line::complete(&text);
    let area = Rect {
        y: layout.status.y.saturating_sub(2),
        height: 2,
        ..layout.status
    };
    f.render_widget(Clear, area);
    let info = match &c.error {
        Some(e) => Line::from(Span::styled(sanitize::inline(e), theme.err)),
        None if !candidates.is_empty() => Line::from(vec![
            Span::styled(" Tab ", theme.key),
            Span::styled(candidates.join("  ·  "), theme.dim),
        ]),
        None => Line::from(Span::styled(
            " Enter runs · Esc closes · ↑/↓ history",
            theme.dim,
        )),
    };
    f.render_widget(Paragraph::new(info), Rect { height: 1, ..area });
    let input_row = Rect {
        y: area.y + 1,
        height: 1,
        ..area
    };
    f.render_widget(Paragraph::new(Span::styled(":", theme.key)), input_row);
    let mut ta = c.input.clone();
    ta.set_cursor_style(theme.selected);
    ta.set_cursor_line_style(ratatui::style::Style::default());
    f.render_widget(
        &ta,
        Rect {
            x: input_row.x + 1,
            width: input_row.width.saturating_sub(1),
            ..input_row
        },
    );
}
