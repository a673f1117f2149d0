//! The sequence editor: steps, subject, body (soft-wrapped), the variables
//! and the preview for a chosen lead.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui_textarea::TextArea;

use super::super::theme::Theme;
use super::{fixed, fixed_keys};
use crate::app::Model;
use crate::app::campaigns::keys::{
    ADD_STEP, CLOSE, CONFIRM, INSERT_VARIABLE, NEXT, NEXT_LEAD, REMOVE_STEP, SUBMIT,
};
use crate::app::campaigns::lead::lead_name;
use crate::app::campaigns::sequence::{Editor, Focus, step_name};
use crate::app::campaigns::{Purpose, in_flight, layout};
use crate::geometry::centered;
use crate::logic::template::merge;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Draws the editor.
pub fn render(m: &Model, f: &mut Frame, body: Rect, e: &Editor, theme: &Theme) {
    let subject = e
        .step()
        .is_some_and(crate::app::campaigns::sequence::Step::has_subject);
    let a = layout::editor(body, subject);
    steps(m, f, a.steps, e, theme);
    if let Some(step) = e.step() {
        if subject {
            text_box(
                f,
                a.subject,
                " Subject ",
                &step.subject,
                e.focus == Focus::Subject,
                theme,
            );
        }
        text_box(
            f,
            a.body,
            " Body (soft wrap) ",
            &step.body,
            e.focus == Focus::Body,
            theme,
        );
    } else {
        f.render_widget(
            Paragraph::new(Span::styled(
                format!(
                    "No step yet: {} (in the step list) adds one.",
                    ADD_STEP.label
                ),
                theme.dim,
            ))
            .block(plain_block(" Body ", theme)),
            a.body,
        );
    }
    variables(f, a.variables, e, theme);
    preview(f, a.preview, e, theme);
    if let Some(row) = e.picker {
        picker(f, body, e, row, theme);
    }
}

fn plain_block<'a>(title: &'a str, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title))
}

fn steps(m: &Model, f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    let focused = e.focus == Focus::Steps;
    let saving = in_flight(m, |p| matches!(p, Purpose::SaveSequence(_)));
    let title = format!(
        " Sequence · {} · {} step{} ",
        DisplayText::inline(&e.name),
        e.steps.len(),
        if e.steps.len() == 1 { "" } else { "s" }
    );
    let hint = if saving {
        Line::from(Span::styled(" saving… ", theme.info))
    } else {
        fixed_keys(
            &[
                (fixed(SUBMIT), "save"),
                (fixed(NEXT), "next box"),
                (fixed(ADD_STEP), "add step"),
                (fixed(REMOVE_STEP), "remove"),
                (fixed(CLOSE), "close (kept)"),
            ],
            theme,
        )
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { theme.title } else { theme.border })
        .title(Span::styled(title, theme.title))
        .title_bottom(hint);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let rows = usize::from(inner.height.max(1));
    let first = e
        .selected
        .saturating_add(1)
        .saturating_sub(rows.saturating_sub(1));
    let mut lines: Vec<Line> = e
        .steps
        .iter()
        .enumerate()
        .skip(first)
        .map(|(i, s)| {
            let text = if s.has_subject() {
                s.subject.lines().join(" ")
            } else {
                s.body.lines().first().cloned().unwrap_or_default()
            };
            let style = if i == e.selected {
                if focused { theme.selected } else { theme.key }
            } else {
                theme.text
            };
            Line::from(vec![
                Span::styled(format!(" {:>2} {:<19}", i + 1, step_name(&s.kind)), style),
                Span::styled(DisplayText::inline(&text).into_string(), theme.dim),
            ])
        })
        .collect();
    lines.push(Line::from(Span::styled(
        format!(" {:>2} end", e.steps.len() + 1),
        theme.dim,
    )));
    f.render_widget(Paragraph::new(lines), inner);
}

fn text_box(
    f: &mut Frame,
    area: Rect,
    title: &str,
    ta: &TextArea<'static>,
    focused: bool,
    theme: &Theme,
) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { theme.title } else { theme.border })
        .title(Span::styled(title.to_owned(), theme.title));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mut ta = ta.clone();
    ta.set_style(theme.text);
    ta.set_cursor_line_style(Style::default());
    ta.set_cursor_style(if focused { theme.selected } else { theme.text });
    if ta.is_empty() {
        ta.set_placeholder_text("…");
        ta.set_placeholder_style(theme.dim);
    }
    f.render_widget(&ta, inner);
}

fn variables(f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    let line = match &e.note {
        Some(n) => Line::from(Span::styled(
            format!(" {}", DisplayText::inline(n)),
            theme.err,
        )),
        None => {
            let mut spans = vec![
                Span::styled(format!(" {} ", INSERT_VARIABLE.label), theme.key),
                Span::styled("insert ", theme.dim),
            ];
            for v in &e.variables {
                spans.push(Span::styled(
                    format!("%{}% ", DisplayText::inline(v)),
                    theme.dim,
                ));
            }
            Line::from(spans)
        }
    };
    f.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), area);
}

fn preview(f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
    let who = e.lead().map_or("no lead yet".to_owned(), |l| {
        DisplayText::inline(&lead_name(l)).into_string()
    });
    let of = match (e.lead(), e.lead_total) {
        (Some(_), Some(total)) => format!(
            " · lead {} of {}",
            format::count(e.lead_row().saturating_add(1)),
            format::count(total)
        ),
        _ => String::new(),
    };
    let title = format!(" Preview · {who}{of} ");
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title))
        .title_bottom(fixed_keys(&[(fixed(NEXT_LEAD), "next lead")], theme));
    let (Some(step), Some(lead)) = (e.step(), e.lead()) else {
        let text = if e.leads.is_empty() {
            "Import leads to preview a message for one of them."
        } else {
            "Add a step to preview it."
        };
        f.render_widget(
            Paragraph::new(Span::styled(text, theme.dim)).block(block),
            area,
        );
        return;
    };
    let mut lines = Vec::new();
    let mut empty = Vec::new();
    if step.has_subject() {
        let subject = merge(&step.subject.lines().join(" "), lead);
        empty.extend(subject.empty);
        lines.push(Line::from(vec![
            Span::styled("Subject: ", theme.header),
            Span::styled(
                DisplayText::inline(&subject.text).into_string(),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ]));
        lines.push(Line::default());
    }
    let body = merge(&step.body.lines().join("\n"), lead);
    empty.extend(body.empty);
    for l in DisplayText::block(&body.text).as_str().lines() {
        lines.push(Line::from(l.to_owned()));
    }
    if !empty.is_empty() {
        empty.sort();
        empty.dedup();
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            format!("empty for this lead: {}", empty.join(", ")),
            theme.warn,
        )));
    }
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn picker(f: &mut Frame, body: Rect, e: &Editor, row: usize, theme: &Theme) {
    let h = u16::try_from(e.variables.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    let rect = centered(body, 44, h.min(body.height));
    f.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(" Insert a variable ", theme.title))
        .title_bottom(fixed_keys(
            &[(fixed(CONFIRM), "insert"), (fixed(CLOSE), "close")],
            theme,
        ));
    let inner = block.inner(rect);
    f.render_widget(block, rect);
    let rows = usize::from(inner.height.max(1));
    let first = row.saturating_add(1).saturating_sub(rows);
    let lines: Vec<Line> = e
        .variables
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(i, v)| {
            let style = if i == row { theme.selected } else { theme.text };
            Line::from(Span::styled(
                format!(" %{}% ", DisplayText::inline(v)),
                style,
            ))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
