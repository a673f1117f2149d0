//! The sequence editor: steps, subject, body (soft-wrapped), the variables
//! and the preview for a chosen lead.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui_textarea::TextArea;

use super::super::theme::Theme;
use super::{fixed, fixed_keys};
use crate::app::Model;
use crate::app::campaigns::fixed_keys::{
    ADD_STEP, CLOSE, INSERT_VARIABLE, NEXT, REMOVE_STEP, SUBMIT,
};
use crate::app::campaigns::lead::lead_name;
use crate::app::campaigns::sequence::{Editor, Focus, picked_from, step_name};
use crate::app::campaigns::{Purpose, in_flight, layout};
use crate::app::keymap::Action;
use crate::app::picker::Picker;
use crate::geometry::centered;
use crate::logic::template::merge;
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::ui::widgets::picker;

/// Draws the editor.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, e: &Editor, theme: &Theme) {
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
    preview(m, f, a.preview, e, theme);
    if let Some(p) = &e.picker {
        picker(f, body, e, p, theme);
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

fn preview(m: &Model, f: &mut Frame, area: Rect, e: &Editor, theme: &Theme) {
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
        .title_bottom(fixed_keys(
            &[
                (m.keymap.key_label(Action::PreviewNextLead), "next lead"),
                (m.keymap.key_label(Action::PreviewPrevLead), "previous"),
                (
                    m.keymap.key_label(Action::PreviewNextGap),
                    "next with an empty variable",
                ),
            ],
            theme,
        ));
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
    let lines = preview_lines(e, step, lead, theme);
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

/// The step merged for `lead`, then the variables that came out empty:
/// in this step, and in the sequence's other steps.
fn preview_lines(
    e: &Editor,
    step: &crate::app::campaigns::sequence::Step,
    lead: &crate::api::model::CampaignLead,
    theme: &Theme,
) -> Vec<Line<'static>> {
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
    // What other steps would send this lead with a gap.
    let here: Vec<String> = empty.iter().map(|n| format!("%{n}%")).collect();
    let elsewhere: Vec<String> = e
        .empty_for(lead)
        .into_iter()
        .filter(|t| !here.contains(t))
        .collect();
    if !elsewhere.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(
                "empty in other steps: {}",
                DisplayText::inline(&elsewhere.join(", "))
            ),
            theme.warn,
        )));
    }
    lines
}

/// The variable picker (the shared picker widget), centred on the body.
fn picker(f: &mut Frame, body: Rect, e: &Editor, p: &Picker, theme: &Theme) {
    let rect = centered(body, 44, picker::height().min(body.height));
    let rows: Vec<String> = picked_from(p, &e.variables)
        .into_iter()
        .filter_map(|j| e.variables.get(j))
        .map(|v| format!(" %{}% ", DisplayText::inline(v)))
        .collect();
    picker::render(
        f,
        rect,
        "Insert a variable",
        p,
        &rows,
        "no variable matches",
        theme,
    );
}
