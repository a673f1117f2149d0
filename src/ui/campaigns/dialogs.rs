//! The dialogs: CSV import (path, mapping, preview, progress, report), a
//! lead's detail, a lead's messages with the merged replies, and the edit
//! forms.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::super::theme::Theme;
use super::super::widgets::{form as form_widget, progress, vtable};
use super::{fixed, fixed_keys, keys_line, lead_status};
use crate::api::model::{CampaignLead, Channel, GeneratedMessage, SequenceNode};
use crate::app::Model;
use crate::app::campaigns::custom;
use crate::app::campaigns::fixed_keys::{CLOSE, COMPLETE, CONFIRM, NEXT_FIELD, SUBMIT};
use crate::app::campaigns::import::{Import, Stage};
use crate::app::campaigns::lead::{LeadView, lead_name};
use crate::app::campaigns::messages::{Thread, editable, step_of};
use crate::app::campaigns::sequence::step_name;
use crate::app::form::Form;
use crate::app::keymap::Action;
use crate::geometry::{centered, split_top};
use crate::logic::import::{Target, Verdict};
use crate::text::format;
use crate::text::sanitize::DisplayText;

fn frame<'a>(f: &mut Frame, area: Rect, title: String, hint: Line<'a>, theme: &Theme) -> Rect {
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(title, theme.title))
        .title_bottom(hint);
    let inner = block.inner(area);
    f.render_widget(block, area);
    inner
}

/// An edit form in a centred box.
pub(super) fn form(f: &mut Frame, body: Rect, form: &Form, theme: &Theme) {
    let w = 76.min(body.width.saturating_sub(2));
    let rect = centered(body, w, form_widget::wanted_height(form, w));
    form_widget::render(f, rect, form, theme);
}

/// The import dialog, by stage.
pub(super) fn import(m: &Model, f: &mut Frame, area: Rect, d: &Import, theme: &Theme) {
    let title = format!(" Import leads into “{}” ", DisplayText::inline(&d.name));
    let inner = frame(f, area, title, import_hint(m, d, theme), theme);
    match d.stage {
        Stage::Path => path(f, inner, d, theme),
        Stage::Reading => {
            let text = format!(
                "Reading {}…",
                DisplayText::inline(&d.path.display().to_string())
            );
            f.render_widget(Paragraph::new(Span::styled(text, theme.info)), inner);
        }
        Stage::Mapping => mapping(f, inner, d, theme),
        Stage::Preview => preview(f, inner, d, theme),
        Stage::Uploading | Stage::Failed => upload(f, inner, d, theme),
        Stage::Done => report(f, inner, d, theme),
    }
}

/// The keys of the import's stage, for its bottom border: the dialog's own
/// (named by their one definition) and the keymap's moves.
fn import_hint(m: &Model, d: &Import, theme: &Theme) -> Line<'static> {
    let k = |a| m.keymap.key_label(a);
    let pairs: Vec<(String, &'static str)> = match d.stage {
        Stage::Path => vec![
            (fixed(CONFIRM), "read the file"),
            (fixed(COMPLETE), "complete"),
            (fixed(CLOSE), "cancel"),
        ],
        Stage::Mapping => vec![
            (
                format!(
                    "{}/{}/{}",
                    k(Action::PrevTab),
                    k(Action::NextTab),
                    NEXT_FIELD.label
                ),
                "change field",
            ),
            (fixed(SUBMIT), "preview"),
            (fixed(CLOSE), "cancel"),
        ],
        Stage::Preview => vec![
            (fixed(SUBMIT), "import"),
            (fixed(CLOSE), "back to the mapping"),
        ],
        Stage::Reading | Stage::Uploading => vec![(fixed(CLOSE), "stop after this chunk")],
        Stage::Failed => vec![
            (fixed(CONFIRM), "resume from the failed chunk"),
            (fixed(CLOSE), "close"),
        ],
        Stage::Done => vec![
            (fixed(CONFIRM), "close"),
            (format!("{}/{}", k(Action::Down), k(Action::Up)), "scroll"),
        ],
    };
    fixed_keys(&pairs, theme)
}

fn path(f: &mut Frame, inner: Rect, d: &Import, theme: &Theme) {
    let identity = if d.channel == Channel::Network {
        "a network URL"
    } else {
        "an email"
    };
    let kind = crate::logic::import::a_campaign(&d.channel);
    let (top, rest) = split_top(inner, 2);
    f.render_widget(
        Paragraph::new(vec![
            Line::from(format!(
                "CSV file with a header row; every lead needs {identity} ({kind})."
            )),
            Line::from(Span::styled(
                "Path (relative to where Outpost started; ~ is your home):",
                theme.header,
            )),
        ]),
        top,
    );
    let (input, rest) = split_top(rest, 1);
    form_widget::text_input(f, input, &d.path_input, true, "leads.csv", theme);
    // The error, else what the last Tab found (the candidates, or why none).
    let help = match (&d.error, &d.complete.note) {
        (Some(e), _) => Some((format!("✗ {}", DisplayText::inline(e)), theme.err)),
        (None, Some(n)) => Some((DisplayText::inline(n).into_string(), theme.dim)),
        (None, None) => None,
    };
    if let Some((text, style)) = help {
        f.render_widget(
            Paragraph::new(Span::styled(text, style)).wrap(Wrap { trim: true }),
            Rect {
                y: rest.y.saturating_add(1).min(rest.y + rest.height),
                height: rest.height.saturating_sub(1),
                ..rest
            },
        );
    }
}

const MAPPING_COLS: [vtable::Column; 3] = [
    vtable::Column::new("Column", 8, 30),
    vtable::Column::new("First value", 8, 40),
    vtable::Column::new("→ Lead field", 12, u16::MAX),
];

fn mapping(f: &mut Frame, inner: Rect, d: &Import, theme: &Theme) {
    let (top, rest) = split_top(inner, 3);
    let (table, bottom) = split_top(rest, rest.height.saturating_sub(1));
    f.render_widget(
        Paragraph::new(vec![
            Line::from(format!(
                "{} columns in {}. Map each to a lead field; the others go into custom_fields. Pre-filled from the header names.",
                d.header.len(),
                DisplayText::inline(&d.path.display().to_string())
            )),
        ])
        .wrap(Wrap { trim: true }),
        top,
    );
    let first_row = d
        .first
        .as_ref()
        .and_then(|c| c.rows.iter().find_map(|r| r.fields.as_ref().ok()));
    let row = |i: usize| -> Vec<Span<'static>> {
        let value = first_row
            .and_then(|r| r.get(i))
            .map_or(String::new(), |v| DisplayText::inline(v).into_string());
        let target = d.mapping.get(i).map(Target::label).unwrap_or_default();
        vec![
            Span::styled(
                DisplayText::inline(d.header.get(i).map_or("", String::as_str)).into_string(),
                theme.header,
            ),
            Span::styled(value, theme.dim),
            Span::styled(format!("◀ {target} ▶"), theme.key),
        ]
    };
    vtable::render(
        f,
        table,
        vtable::TableSpec {
            title: Line::from(Span::styled(" Column mapping ", theme.title)),
            columns: &MAPPING_COLS,
            state: &d.map_table,
            row: &row,
            marked: None,
            footer: None,
            empty: "the header has no columns",
            focused: true,
        },
        theme,
    );
    if let Some(e) = &d.error {
        f.render_widget(
            Paragraph::new(Span::styled(
                format!("✗ {}", DisplayText::inline(e)),
                theme.err,
            )),
            bottom,
        );
    }
}

fn preview(f: &mut Frame, inner: Rect, d: &Import, theme: &Theme) {
    let (top, table) = split_top(inner, 2);
    let (ok, left, dup) = d.preview_counts();
    f.render_widget(
        Paragraph::new(vec![
            Line::from(vec![
                Span::raw(if d.preview.len() == 1 {
                    "The first row: ".to_owned()
                } else {
                    format!("The first {} rows: ", format::count(d.preview.len() as u64))
                }),
                Span::styled(format!("{} to import", format::count(ok as u64)), theme.ok),
                Span::raw(" · "),
                Span::styled(
                    format!("{} left out", format::count(left as u64)),
                    theme.err,
                ),
                Span::raw(" · "),
                Span::styled(
                    format!(
                        "{} in the file",
                        format::plural(dup as u64, "duplicate", "duplicates")
                    ),
                    theme.warn,
                ),
            ]),
            Line::from(Span::styled(
                "The rest of the file is checked the same way as it is sent, 1,000 rows at a time.",
                theme.dim,
            )),
        ]),
        top,
    );
    let identity = if d.channel == Channel::Network {
        "Network URL"
    } else {
        "Email"
    };
    let cols = [
        vtable::Column::num("Row", 3, 7),
        vtable::Column::new(identity, 8, 40),
        vtable::Column::new("Name", 6, 28),
        vtable::Column::new("Company", 7, 24).optional(1),
        vtable::Column::new("Result", 8, u16::MAX),
    ];
    let row = |i: usize| preview_row(d, i, theme);
    vtable::render(
        f,
        table,
        vtable::TableSpec {
            title: Line::from(Span::styled(" Preview ", theme.title)),
            columns: &cols,
            state: &d.preview_table,
            row: &row,
            marked: None,
            footer: None,
            empty: "the file has no rows below its header",
            focused: true,
        },
        theme,
    );
}

/// One row of the preview: line, identity, name, company, what happens.
fn preview_row(d: &Import, i: usize, theme: &Theme) -> Vec<Span<'static>> {
    let Some(r) = d.preview.get(i) else {
        return Vec::new();
    };
    let l = &r.lead;
    let id = if d.channel == Channel::Network {
        &l.network_url
    } else {
        &l.email
    };
    let name = l.name.clone().unwrap_or_else(|| {
        format!(
            "{} {}",
            l.first_name.as_deref().unwrap_or_default(),
            l.last_name.as_deref().unwrap_or_default()
        )
        .trim()
        .to_owned()
    });
    let verdict = match &r.verdict {
        Verdict::Import => Span::styled("import", theme.ok),
        Verdict::LeftOut(why) => {
            Span::styled(format!("left out: {}", DisplayText::inline(why)), theme.err)
        }
        Verdict::Duplicate => Span::styled("duplicate in the file", theme.warn),
    };
    vec![
        Span::styled(r.line.to_string(), theme.dim),
        Span::raw(DisplayText::inline(id.as_deref().unwrap_or_default()).into_string()),
        Span::raw(DisplayText::inline(&name).into_string()),
        Span::raw(DisplayText::inline(l.company.as_deref().unwrap_or_default()).into_string()),
        verdict,
    ]
}

fn upload(f: &mut Frame, inner: Rect, d: &Import, theme: &Theme) {
    let p = &d.progress;
    let (bar, rest) = split_top(inner, 1);
    let total = p.counts.file_len.max(1);
    progress::labelled(
        f,
        bar,
        p.counts.bytes_done,
        total,
        format!(
            " {} of {} sent · {}% ",
            format::bytes(p.counts.bytes_done),
            format::bytes(total),
            p.counts.percent()
        ),
        theme,
    );
    let mut lines = vec![
        Line::default(),
        Line::from(format!(
            "rows read {} · chunks sent {} · {}",
            format::count(p.counts.rows_done),
            format::count(p.counts.chunks),
            p.counts.summary()
        )),
    ];
    if d.stage == Stage::Uploading {
        let text = if p.stop && p.inflight.is_some() {
            "stopping after the chunk being sent…".to_owned()
        } else if p.stop {
            "stopping: no more rows are sent…".to_owned()
        } else {
            let (a, b) = p.inflight.as_ref().map_or((0, 0), |x| x.span);
            if a > 0 {
                format!("sending rows {a}–{b}…")
            } else {
                "reading the next rows…".into()
            }
        };
        lines.push(Line::from(Span::styled(text, theme.info)));
    }
    if let Some(fail) = &p.failure {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            format!(
                "Stopped at the chunk from row {}: {}",
                fail.line,
                DisplayText::inline(&fail.message)
            ),
            theme.err,
        )));
        lines.push(Line::from(match p.counts.went_in {
            Some((a, b)) => {
                format!("Rows {a}–{b} went in (duplicates and left-out rows counted above).")
            }
            None => "No row went in yet.".into(),
        }));
        if fail.uncertain {
            lines.push(Line::from(Span::styled(
                "The failed chunk may have gone in: its answer was lost. Resuming sends it again; rows already in the roster come back as duplicates.",
                theme.warn,
            )));
        }
        lines.push(Line::from(Span::styled(
            format!("{} resumes from row {}.", CONFIRM.label, fail.line),
            theme.key,
        )));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), rest);
}

fn report(f: &mut Frame, inner: Rect, d: &Import, theme: &Theme) {
    let p = &d.progress;
    let mut lines = vec![
        Line::from(Span::styled(
            if p.stop && p.next.is_some() {
                "Import stopped (you asked)"
            } else {
                "Import finished"
            },
            theme.title,
        )),
        Line::default(),
        Line::from(vec![
            Span::styled("Imported    ", theme.header),
            Span::styled(format::count(p.counts.imported), theme.ok),
        ]),
        Line::from(vec![
            Span::styled("Duplicates  ", theme.header),
            Span::raw(format!(
                "{} ({} in the file · {} already in the roster)",
                format::count(p.counts.dup_file.saturating_add(p.counts.dup_roster)),
                format::count(p.counts.dup_file),
                format::count(p.counts.dup_roster)
            )),
        ]),
        Line::from(vec![
            Span::styled("Left out    ", theme.header),
            Span::styled(format::count(p.counts.left_out_count), theme.err),
        ]),
    ];
    if let (Some(next), true) = (p.next, p.stop) {
        lines.push(Line::from(Span::styled(
            format!("Rows from {} on were not sent.", next.line),
            theme.warn,
        )));
    }
    if !p.counts.left_out.is_empty() {
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            "Rows left out (line numbers of the file):",
            theme.header,
        )));
        let width = usize::from(inner.width.saturating_sub(4));
        for (why, rows) in left_out_by_reason(&p.counts.left_out) {
            lines.push(Line::from(Span::styled(
                format!("  {} ({})", DisplayText::inline(&why), rows.len()),
                theme.err,
            )));
            let list = rows
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            for l in crate::text::wrap::wrap(&list, width) {
                lines.push(Line::from(format!("    {l}")));
            }
        }
        let unlisted = p
            .counts
            .left_out_count
            .saturating_sub(p.counts.left_out.len() as u64);
        if unlisted > 0 {
            lines.push(Line::from(Span::styled(
                format!("  … and {} more", format::count(unlisted)),
                theme.dim,
            )));
        }
    }
    f.render_widget(Paragraph::new(lines).scroll((d.scroll, 0)), inner);
}

/// Left-out rows grouped by why, in order of first appearance.
fn left_out_by_reason(rows: &[(u64, String)]) -> Vec<(String, Vec<u64>)> {
    let mut out: Vec<(String, Vec<u64>)> = Vec::new();
    for (line, why) in rows {
        match out.iter_mut().find(|(w, _)| w == why) {
            Some((_, lines)) => lines.push(*line),
            None => out.push((why.clone(), vec![*line])),
        }
    }
    out
}

fn lead_lines(l: &CampaignLead, theme: &Theme) -> Vec<Line<'static>> {
    let row = |label: &str, value: &str| {
        Line::from(vec![
            Span::styled(format!("{label:<13}"), theme.header),
            Span::raw(if value.trim().is_empty() {
                "—".to_owned()
            } else {
                DisplayText::inline(value).into_string()
            }),
        ])
    };
    let mut out = vec![
        Line::from(vec![
            Span::styled("Status       ", theme.header),
            Span::styled(
                DisplayText::inline(l.status.as_str()).into_string(),
                lead_status(theme, &l.status),
            ),
        ]),
        row("Email", &l.email),
        row("Network URL", &l.network_url),
        row("First name", &l.first_name),
        row("Last name", &l.last_name),
        row("Name", &l.name),
        row("Company", &l.company),
        row("Position", &l.position),
        row("Headline", &l.headline),
        row("Source", &l.source),
        row("Added", &format::date(&l.created_at)),
        row("Updated", &format::date(&l.updated_at)),
    ];
    if let Some(t) = &l.replied_at {
        out.push(row("Replied", &format::date(t)));
    }
    if let Some(t) = &l.bounced_at {
        out.push(row("Bounced", &format::date(t)));
    }
    out.push(Line::default());
    out.push(Line::from(Span::styled("Custom fields", theme.title)));
    if l.custom_fields.is_empty() {
        out.push(Line::from(Span::styled("  none", theme.dim)));
    }
    for line in custom::lines(&l.custom_fields) {
        out.push(Line::from(format!("  {}", DisplayText::inline(&line))));
    }
    out
}

/// A lead's detail.
pub(super) fn lead(m: &Model, f: &mut Frame, area: Rect, d: &LeadView, theme: &Theme) {
    let title = format!(" Lead · {} ", DisplayText::inline(&lead_name(&d.lead)));
    let hint = keys_line(
        m,
        &[(Action::EditItem, "edit"), (Action::Back, "close")],
        theme,
    );
    let inner = frame(f, area, title, hint, theme);
    f.render_widget(
        Paragraph::new(lead_lines(&d.lead, theme))
            .wrap(Wrap { trim: false })
            .scroll((d.scroll, 0)),
        inner,
    );
}

/// A lead's messages with the merged replies: one line each, the selected
/// one's text below.
pub(super) fn thread(m: &Model, f: &mut Frame, area: Rect, t: &Thread, theme: &Theme) {
    let title = format!(" Messages · {} ", DisplayText::inline(&t.name));
    let hint = keys_line(
        m,
        &[
            (Action::Down, "next"),
            (Action::EditItem, "edit"),
            (Action::PageDown, "scroll text"),
            (Action::Back, "close"),
        ],
        theme,
    );
    let inner = frame(f, area, title, hint, theme);
    if !t.loaded || t.items.is_empty() {
        let text = match (&t.error, t.loaded) {
            (Some(e), _) => format!("could not read the messages: {}", DisplayText::inline(e)),
            (None, false) => "loading…".into(),
            _ => "no message for this lead yet".into(),
        };
        f.render_widget(Paragraph::new(Span::styled(text, theme.dim)), inner);
        return;
    }
    let nodes = m
        .panes
        .campaigns
        .open
        .as_ref()
        .and_then(|o| o.campaign.sequence_nodes.clone())
        .unwrap_or_default();
    let list_h = u16::try_from(t.items.len())
        .unwrap_or(u16::MAX)
        .min(inner.height / 2)
        .max(1);
    let (list, text) = split_top(inner, list_h.saturating_add(1));
    f.render_widget(Paragraph::new(thread_list(t, &nodes, list_h, theme)), list);
    if let Some(msg) = t.items.get(t.selected) {
        let block = Block::default()
            .borders(Borders::TOP)
            .border_style(theme.border);
        f.render_widget(
            Paragraph::new(message_text(msg, &nodes, theme))
                .block(block)
                .wrap(Wrap { trim: false })
                .scroll((t.scroll, 0)),
            text,
        );
    }
}

/// One line per message, the selected one highlighted, replies marked.
fn thread_list(t: &Thread, nodes: &[SequenceNode], rows: u16, theme: &Theme) -> Vec<Line<'static>> {
    let first = t
        .selected
        .saturating_add(1)
        .saturating_sub(usize::from(rows));
    t.items
        .iter()
        .enumerate()
        .skip(first)
        .take(usize::from(rows))
        .map(|(i, msg)| {
            let step = step_of(nodes, msg);
            let what = match step {
                Some(n) => format!("{} {}", n.position + 1, step_name(&n.kind)),
                None => "↩ reply from the lead".into(),
            };
            let style = if i == t.selected {
                theme.selected
            } else if step.is_none() {
                theme.ok
            } else {
                theme.text
            };
            Line::from(Span::styled(
                format!(
                    " {what:<22} {:<8} {:<17} {}",
                    DisplayText::inline(msg.status.as_str()),
                    format::date(&msg.created_at),
                    DisplayText::inline(&msg.subject)
                ),
                style,
            ))
        })
        .collect()
}

/// A message's subject and text (and why it cannot be edited).
fn message_text(
    msg: &GeneratedMessage,
    nodes: &[SequenceNode],
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut body = Vec::new();
    if let Err(why) = editable(msg, nodes) {
        body.push(Line::from(Span::styled(format!("({why})"), theme.dim)));
    }
    if !msg.subject.trim().is_empty() {
        body.push(Line::from(vec![
            Span::styled("Subject: ", theme.header),
            Span::raw(DisplayText::inline(&msg.subject).into_string()),
        ]));
    }
    for l in DisplayText::block(&msg.body_text).as_str().lines() {
        body.push(Line::from(l.to_owned()));
    }
    body
}
