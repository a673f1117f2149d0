//! Views: pure functions of the model into a ratatui frame. Service text
//! reaches a cell only as [`crate::text::sanitize::DisplayText`].

// The panes' views, one folder each (see `app/mod.rs`).
pub(crate) mod campaigns;
pub(crate) mod domains;
pub(crate) mod inbox;
pub(crate) mod leads;
pub(crate) mod profile;

pub(crate) mod journal;
pub(crate) mod theme;
pub(crate) mod widgets;

use ratatui::Frame;

use crate::text::{format, sanitize};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::command_line;
use crate::app::help::Row;
use crate::app::pane::PaneUnit;
use crate::app::registry::with_panes;
use crate::app::toast::Level;
use crate::app::{Model, Overlay, Pane};
use crate::geometry::{AppLayout, BRAND, MIN_HEIGHT, MIN_WIDTH, overlay_rect};
use crate::text::sanitize::DisplayText;
use theme::Theme;

/// The drawing half of a pane, implemented in `ui/<pane>` for the pane's
/// model (the logic half is [`PaneUnit`]).
pub(crate) trait PaneView: PaneUnit {
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
        too_small(m, f, &layout, &theme);
        return;
    }
    tabs(m, f, &layout, &labels, &theme);
    pane_view(m, f, layout.body, &theme);
    status_bar(m, f, &layout, &theme);
    // Never over a dialog (its question is what matters; `:messages`
    // keeps the notice), and never over the selection.
    if !m.dialog_open() {
        let focus = widgets::toast::focused_rows(f.buffer_mut(), layout.body, theme.selected);
        widgets::toast::render(f, layout.body, m.toasts.items(), &theme, focus);
    }
    match &m.overlay {
        Some(Overlay::Help { scroll }) => help(m, f, layout.body, *scroll, &theme),
        Some(Overlay::Confirm(c)) => widgets::dialog::render_confirm(f, layout.body, c, &theme),
        Some(Overlay::Command(c)) => command_line(f, &layout, c, &theme),
        Some(Overlay::Messages { scroll }) => messages(m, f, layout.body, *scroll, &theme),
        Some(Overlay::Journal(j)) => journal::render(m, f, layout.body, j, &theme),
        None => {}
    }
}

/// The screen below the minimum size: what is needed, that `q` quits, and
/// an open question (the quit question included) so its keys are known.
fn too_small(m: &Model, f: &mut Frame, layout: &AppLayout, theme: &Theme) {
    let a = layout.area;
    let quit = m.keymap.key_label(crate::app::keymap::Action::Quit);
    let mut lines = widgets::wrapped::lines("Terminal too small", a.width, theme.title);
    lines.extend(widgets::wrapped::lines(
        &format!(
            "need {MIN_WIDTH}×{MIN_HEIGHT}, have {}×{}",
            a.width, a.height
        ),
        a.width,
        theme.text,
    ));
    let width = a.width;
    let wrapped = |text: &str, style| widgets::wrapped::lines(text, width, style);
    match &m.overlay {
        Some(Overlay::Confirm(c)) => {
            let style = if c.destructive {
                theme.err
            } else {
                theme.title
            };
            lines.extend(wrapped(&c.title, style));
            for l in &c.lines {
                lines.extend(wrapped(DisplayText::inline(l).as_str(), theme.text));
            }
            let keys: Vec<String> = crate::app::fixed_keys::question(c)
                .into_iter()
                .filter_map(|k| k.shown.map(|does| format!("{} {does}", k.key.label)))
                .collect();
            lines.extend(wrapped(&keys.join(" · "), theme.key));
        }
        _ => lines.extend(wrapped(
            &format!("enlarge the window · {quit} quits"),
            theme.dim,
        )),
    }
    // Centred as a block; what does not fit the height is cut at the end.
    let h = u16::try_from(lines.len()).unwrap_or(u16::MAX).min(a.height);
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

/// One part of the right side of the status bar; parts with a lower
/// `keep` give way first on a narrow screen.
struct Part {
    spans: Vec<Span<'static>>,
    keep: u8,
}

impl Part {
    fn width(&self) -> usize {
        self.spans.iter().map(Span::width).sum()
    }
}

use widgets::placeholder::style as level_style;

/// The right side of the status bar, most important first: the lasting
/// connection state (online / offline since / rate limited), whether the
/// local state is not being saved, requests in flight, then latency, the
/// demo badge, the host and the masked key.
fn status_parts(m: &Model, theme: &Theme, short: bool, narrow: bool) -> Vec<Part> {
    let net = m.net_line();
    let mut parts = vec![Part {
        spans: vec![
            Span::styled("● ", level_style(net.level, theme)),
            Span::styled(
                if short { net.short } else { net.text },
                if net.level == Level::Success {
                    theme.dim
                } else {
                    level_style(net.level, theme)
                },
            ),
            Span::raw(" "),
        ],
        keep: 9,
    }];
    if m.state_writable == Some(false) {
        parts.push(Part {
            spans: vec![Span::styled("drafts not saved ", theme.err)],
            keep: 8,
        });
    }
    let in_flight = m.requests.in_flight();
    if in_flight > 0 {
        parts.push(Part {
            spans: vec![Span::styled(format!("⇅{in_flight} "), theme.info)],
            keep: 7,
        });
    }
    if let Some(l) = m.net.last_latency {
        parts.push(Part {
            spans: vec![Span::styled(format!("{} ", format::millis(l)), theme.dim)],
            keep: 2,
        });
    }
    if m.session.read_only {
        // The flag holds for every profile of the session: said, so a
        // switch that stays read-only is not taken for the profile's own.
        let badge = if m.session.read_only_flag {
            " READ-ONLY (--read-only) "
        } else {
            " READ-ONLY "
        };
        parts.push(Part {
            spans: vec![Span::styled(badge, theme.badge), Span::raw(" ")],
            keep: 8,
        });
    }
    if let Some(profile) = &m.session.profile {
        parts.push(Part {
            spans: vec![
                Span::styled(middle_cut(&sanitize::inline(profile), 16), theme.title),
                Span::raw(" "),
            ],
            keep: 6,
        });
    }
    if m.session.demo {
        parts.push(Part {
            spans: vec![Span::styled(" DEMO ", theme.badge), Span::raw(" ")],
            keep: 6,
        });
    }
    parts.push(Part {
        spans: vec![
            Span::styled(
                middle_cut(&sanitize::inline(&m.session.host), 28),
                theme.text,
            ),
            Span::raw(" "),
        ],
        // On a narrow screen the host gives way to the pane's keys.
        keep: if narrow { 3 } else { 5 },
    });
    parts.push(Part {
        spans: vec![
            Span::styled(m.session.masked_key.clone(), theme.dim),
            Span::raw(" "),
        ],
        keep: 1,
    });
    parts
}

fn status_bar(m: &Model, f: &mut Frame, layout: &AppLayout, theme: &Theme) {
    let width = usize::from(layout.status.width);
    let hints = crate::app::hints(m);
    let hints_width: usize = hints
        .iter()
        .map(|(a, l)| m.keymap.key_label(*a).chars().count() + l.chars().count() + 3)
        .sum::<usize>()
        + 1;
    // Room kept for the first hint ("? help"), which must always show.
    let hint_room = 8;
    let total = |parts: &[Part]| parts.iter().map(Part::width).sum::<usize>();
    let narrow = width < 72;
    let mut parts = status_parts(m, theme, false, narrow);
    // The connection state in full, unless it alone crowds out the help
    // hint; then its short form.
    if parts.first().map_or(0, Part::width) + hint_room > width {
        parts = status_parts(m, theme, true, narrow);
    }
    // Latency and the key give way to the hints; the rest only to the
    // first hint.
    let drop_below = |parts: &mut Vec<Part>, keep: u8, need: usize| {
        while total(parts) + need > width {
            let Some(i) = parts
                .iter()
                .enumerate()
                .filter(|(_, p)| p.keep < keep)
                .min_by_key(|(_, p)| p.keep)
                .map(|(i, _)| i)
            else {
                break;
            };
            parts.remove(i);
        }
    };
    drop_below(&mut parts, 4, hints_width);
    drop_below(&mut parts, 9, hint_room);
    let mut right: Vec<Span> = parts.into_iter().flat_map(|p| p.spans).collect();
    // The connection state alone may still be too long: cut its words.
    let total: usize = right.iter().map(Span::width).sum();
    if total + hint_room > width
        && let Some(words) = right.get_mut(1)
    {
        let keep = words.width().saturating_sub(total + hint_room - width);
        let cut = crate::text::wrap::wrap(&words.content, keep.max(1))
            .into_iter()
            .next()
            .unwrap_or_default();
        words.content = format!("{cut}…").into();
    }
    let right_width =
        u16::try_from(right.iter().map(Span::width).sum::<usize>()).unwrap_or(u16::MAX);

    let mut left: Vec<Span> = vec![Span::raw(" ")];
    let mut used = 1u16;
    let room = layout.status.width.saturating_sub(right_width + 1);
    for (action, label) in hints {
        let key = m.keymap.key_label(action);
        // Read-only mode shows a write's key disabled, in the one form every
        // disabled hint has (`n new ✗ read-only`), in place of any reason of
        // the pane's own: one mark, not two.
        let (label, disabled) = if m.session.read_only && action.writes() {
            let name = label.split(" ✗").next().unwrap_or(label);
            (format!("{name} ✗ read-only"), true)
        } else {
            (label.to_owned(), label.contains(" ✗ "))
        };
        let w = u16::try_from(key.chars().count() + label.chars().count() + 3).unwrap_or(u16::MAX);
        if used + w > room {
            break;
        }
        let key_style = if disabled { theme.dim } else { theme.key };
        left.push(Span::styled(key, key_style));
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
pub(crate) fn help_lines(m: &Model, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    crate::app::help::lines(m, width)
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

fn help(m: &Model, f: &mut Frame, body: Rect, scroll: u16, theme: &Theme) {
    let rect = overlay_rect(body);
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(
            format!(" Help · {} ", m.pane.title()),
            theme.title,
        ))
        .title_bottom(scroll_footer(m, theme));
    // Wrapped by app::help, not by the Paragraph: one help row is one
    // screen row, so the scroll bound is exact.
    f.render_widget(
        Paragraph::new(help_lines(m, rect.width.saturating_sub(2), theme))
            .block(block)
            .scroll((scroll, 0)),
        rect,
    );
}

/// The footer of the scrolling overlays: their scroll keys as the keymap
/// binds them (any other key closes them).
fn scroll_footer(m: &Model, theme: &Theme) -> Line<'static> {
    use crate::app::keymap::Action;
    Line::from(vec![
        Span::styled(
            format!(
                " {}/{} ",
                m.keymap.key_label(Action::Down),
                m.keymap.key_label(Action::Up)
            ),
            theme.key,
        ),
        Span::styled("scroll ", theme.dim),
        Span::styled(" any other key ", theme.key),
        Span::styled("closes ", theme.dim),
    ])
}

/// `:messages`: every recent notice whole, newest first.
fn messages(m: &Model, f: &mut Frame, body: Rect, scroll: u16, theme: &Theme) {
    use crate::app::notice_log::Row as M;
    let rect = overlay_rect(body);
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(" Messages · newest first ", theme.title))
        .title_bottom(scroll_footer(m, theme));
    let lines: Vec<Line> = crate::app::notice_log::rows(m)
        .into_iter()
        .map(|row| match row {
            M::Head { level, title, age } => Line::from(vec![
                Span::styled(format!("{:<8}", level.name()), level_style(level, theme)),
                Span::styled(title, theme.title),
                Span::styled(format!("  {age}"), theme.dim),
            ]),
            M::Text(t) => Line::from(format!("  {t}")),
            M::Blank => Line::default(),
            M::Empty => Line::from(Span::styled("no messages yet", theme.dim)),
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), rect);
}

fn command_line(
    f: &mut Frame,
    layout: &AppLayout,
    c: &crate::app::command_line::CommandLine,
    theme: &Theme,
) {
    let text = c.text();
    let candidates = c.shown_candidates();
    let area = Rect {
        y: layout.status.y.saturating_sub(2),
        height: 2,
        ..layout.status
    };
    f.render_widget(Clear, area);
    let info = match &c.error {
        Some(e) => Line::from(Span::styled(sanitize::inline(e), theme.err)),
        None if !candidates.is_empty() => Line::from(vec![
            Span::styled(
                format!(
                    " {} ",
                    command_line::key_for(command_line::LineKey::Complete).label
                ),
                theme.key,
            ),
            Span::styled(candidates.join("  ·  "), theme.dim),
        ]),
        None => match command_line::usage_hint(&text) {
            Some(usage) => Line::from(Span::styled(
                format!(" {}", sanitize::inline(&usage)),
                theme.dim,
            )),
            None => Line::from(Span::styled(
                format!(" {}", command_line::footer()),
                theme.dim,
            )),
        },
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
