//! The review of a save, the redeem dialog and the discovery-pass panel.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::Model;
use crate::app::keymap::Action;
use crate::app::profile::layout;
use crate::app::profile::pass::{self, CODE_MAX, Item, RedeemDialog, Tone};
use crate::app::profile::redeeming;
use crate::app::profile::review::{self, Mark, Review};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::wrap::wrap;
use crate::ui::theme::Theme;
use crate::ui::widgets::form::text_input;
use crate::ui::widgets::progress;

/// A review line, styled.
pub(super) fn review_line(l: &review::Line, theme: &Theme) -> Line<'static> {
    let style = match l.mark {
        Mark::Field => theme.header,
        Mark::Old => theme.err,
        Mark::New => theme.ok,
        Mark::Note => theme.info,
    };
    Line::from(Span::styled(l.text.clone(), style))
}

/// The review of a save: what changes, field by field, before `y` sends;
/// under it what is sent and the keys, wrapped.
pub(super) fn review(m: &Model, f: &mut Frame, body: Rect, r: &Review, theme: &Theme) {
    let shown = review::on_screen(m, r, body);
    let (rect, vp, all) = (shown.rect, shown.viewport, &shown.lines);
    let scroll = r.scroll.min(all.len().saturating_sub(vp));
    f.render_widget(Clear, rect);
    let n = r.changes.len();
    let n = u64::try_from(n).unwrap_or(u64::MAX);
    let mut title = vec![Span::styled(
        format!(
            " Review: {} ",
            format::plural(n, "field changes", "fields change")
        ),
        theme.title,
    )];
    if all.len() > vp {
        title.push(Span::styled(
            format!(
                " lines {}–{} of {} ",
                scroll + 1,
                (scroll + vp).min(all.len()),
                all.len()
            ),
            theme.dim,
        ));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Line::from(title));
    let inner = block.inner(rect);
    f.render_widget(block, rect);
    let lines: Vec<Line> = all
        .iter()
        .skip(scroll)
        .take(vp)
        .map(|l| review_line(l, theme))
        .collect();
    let rows = u16::try_from(shown.footer.len()).unwrap_or(u16::MAX);
    let (changes, footer) = crate::geometry::split_top(inner, inner.height.saturating_sub(rows));
    f.render_widget(Paragraph::new(lines), changes);
    // The note (dim) first, then the keys.
    let footer_lines: Vec<Line> = shown
        .footer
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let style = if i < shown.note_rows {
                theme.dim
            } else {
                theme.key
            };
            Line::from(Span::styled(l.clone(), style))
        })
        .collect();
    f.render_widget(Paragraph::new(footer_lines), footer);
}

/// Draws the redeem dialog over `body`.
pub(super) fn redeem(m: &Model, f: &mut Frame, body: Rect, d: &RedeemDialog, theme: &Theme) {
    let rect = layout::redeem_rect(body);
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(" Redeem a discovery pass ", theme.title))
        .title_bottom(Line::from(vec![
            Span::styled(
                format!(" {} ", m.keymap.text_box_label(Action::Open)),
                theme.key,
            ),
            Span::styled("redeem ", theme.dim),
            Span::styled(
                format!(" {} ", m.keymap.text_box_label(Action::Back)),
                theme.key,
            ),
            Span::styled("cancel ", theme.dim),
        ]));
    let inner = block.inner(rect);
    f.render_widget(block, rect);
    let row = |dy: u16, h: u16| Rect {
        y: inner.y.saturating_add(dy),
        height: h.min(inner.height.saturating_sub(dy)),
        ..inner
    };
    f.render_widget(Paragraph::new(Span::styled("Code", theme.key)), row(0, 1));
    let busy = redeeming(m);
    text_input(f, row(1, 1), &d.input, !busy, "e.g. DEMO-PASS-1", theme);
    let count = d.code().trim().chars().count();
    let (status, style) = match (&d.error, busy) {
        (_, true) => ("redeeming…".to_owned(), theme.info),
        // The service's words made inert.
        (Some(e), false) => (format!("✗ {}", DisplayText::inline(e)), theme.err),
        (None, false) => (
            format!("{count}/{CODE_MAX} characters"),
            if count > CODE_MAX {
                theme.err
            } else {
                theme.dim
            },
        ),
    };
    f.render_widget(
        Paragraph::new(Span::styled(status, style)).wrap(Wrap { trim: true }),
        row(2, 2),
    );
    f.render_widget(
        Paragraph::new(Span::styled(
            "A pass grants a number of discoveries for a time; the answer shows what it grants.",
            theme.dim,
        ))
        .wrap(Wrap { trim: true }),
        row(4, 2),
    );
}

fn tone(t: Tone, theme: &Theme) -> Style {
    match t {
        Tone::Plain => theme.text,
        Tone::Dim => theme.dim,
        Tone::Good => theme.ok,
        Tone::Warn => theme.warn,
    }
}

/// Line `j` of a pass item's text wrapped to `width`, in its tone (the
/// selected style when the cursor is on it).
pub(super) fn pass_text_line(
    text: &str,
    t: Tone,
    j: usize,
    width: u16,
    selected: bool,
    theme: &Theme,
) -> Line<'static> {
    let line = wrap(text, usize::from(width.max(1)))
        .into_iter()
        .nth(j)
        .unwrap_or_default();
    let style = if selected {
        theme.selected
    } else {
        tone(t, theme)
    };
    Line::from(Span::styled(line, style))
}

/// The discovery pass beside the profile on a wide screen: the last answer
/// with its gauge and countdown, or how to redeem one.
pub(super) fn pass_panel(m: &Model, f: &mut Frame, area: Rect, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(" Discovery pass ", theme.title));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let items = pass::items(m);
    let width = inner.width.max(1);
    let bottom = inner.y.saturating_add(inner.height);
    let mut y = inner.y;
    for item in items {
        if y >= bottom {
            break;
        }
        let row = Rect {
            y,
            height: 1,
            ..inner
        };
        match item {
            Item::Gauge { remaining, limit } => {
                progress::render(f, row, remaining, limit, "remaining", theme);
                y = y.saturating_add(1);
            }
            Item::Text(t, text) => {
                let lines = wrap(&text, usize::from(width));
                for l in lines {
                    if y >= bottom {
                        break;
                    }
                    f.render_widget(
                        Paragraph::new(Span::styled(l, tone(t, theme))),
                        Rect { y, ..row },
                    );
                    y = y.saturating_add(1);
                }
            }
        }
    }
}
