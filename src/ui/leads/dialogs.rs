//! The pane's dialogs: filter builder, add to campaign, export, report.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui_textarea::TextArea;

use super::super::theme::Theme;
use super::super::widgets::dialog::centered;
use super::super::widgets::progress;
use crate::api::model::{CampaignStatus, ValueType};
use crate::app::leads::Report;
use crate::app::leads::campaign::{CampaignDialog, LIST_ROWS, Selection, Stage, identity};
use crate::app::leads::export::{Export, Phase};
use crate::app::leads::filter::{Builder, Focus, PICKER_ROWS, Part};
use crate::app::toast::Level;
use crate::text::format;
use crate::text::sanitize::DisplayText;

fn t(s: &str) -> String {
    DisplayText::inline(s).into_string()
}

fn frame<'a>(f: &mut Frame, area: Rect, title: &str, hint: Line<'a>, theme: &Theme) -> Rect {
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(format!(" {title} "), theme.title))
        .title_bottom(hint);
    let inner = block.inner(area);
    f.render_widget(block, area);
    inner
}

fn keys<'a>(pairs: &[(&'a str, &'a str)], theme: &Theme) -> Line<'a> {
    let mut spans = Vec::new();
    for (k, what) in pairs {
        spans.push(Span::styled(format!(" {k} "), theme.key));
        spans.push(Span::styled(format!("{what} "), theme.dim));
    }
    Line::from(spans)
}

/// A text box whose empty state says where to type.
fn text_input(f: &mut Frame, area: Rect, ta: &TextArea<'static>, focused: bool, theme: &Theme) {
    let hint = if focused { "type here" } else { "value…" };
    crate::ui::widgets::form::text_input(f, area, ta, focused, hint, theme);
}

fn line_at(inner: Rect, y: u16) -> Rect {
    Rect {
        y: inner.y + y,
        height: 1,
        ..inner
    }
}

/// Lines each predicate row takes (its error below it).
fn row_heights(b: &Builder) -> Vec<u16> {
    b.rows
        .iter()
        .map(|r| 1 + u16::from(r.error.is_some()))
        .collect()
}

/// The first predicate row shown when `room` lines are free: the focused
/// row (or the row the picker is for) and its error line always fit, with
/// as many rows above it as fit.
pub fn first_row_shown(b: &Builder, room: u16) -> usize {
    let focused = match (&b.picker, b.focus) {
        (Some(p), _) => p.row,
        (None, Focus::Row(i, _)) => i,
        (None, Focus::Q) => 0,
    };
    let h = row_heights(b);
    let focused = focused.min(h.len().saturating_sub(1));
    let mut first = 0;
    while first < focused && h[first..=focused].iter().sum::<u16>() > room {
        first += 1;
    }
    first
}

/// The filter builder.
pub fn filter(f: &mut Frame, body: Rect, b: &Builder, theme: &Theme) {
    let rows = b.rows.len() as u16;
    let errors = b.rows.iter().filter(|r| r.error.is_some()).count() as u16;
    let status_lines = u16::from(b.error.is_some() || b.loading || b.note.is_some());
    let want = 2 + 2 + 1 + rows + errors + 2 + status_lines;
    let area = centered(body, body.width.saturating_sub(4).min(96), want.max(9));
    let hint = keys(
        &[
            ("Enter", "apply"),
            ("Tab", "next"),
            ("Ctrl-N", "add"),
            ("Ctrl-D", "remove"),
            ("Esc", "close, edits kept"),
        ],
        theme,
    );
    let inner = frame(f, area, "Filter results", hint, theme);
    if inner.height == 0 {
        return;
    }
    let mut y = 0u16;
    let label_w = 8u16;
    let q_focus = b.focus == Focus::Q && b.picker.is_none();
    f.render_widget(
        Paragraph::new(Span::styled(
            "Text",
            if q_focus { theme.key } else { theme.header },
        )),
        line_at(inner, y),
    );
    text_input(
        f,
        Rect {
            x: inner.x + label_w,
            width: inner.width.saturating_sub(label_w),
            ..line_at(inner, y)
        },
        &b.q,
        q_focus,
        theme,
    );
    y += 1;
    f.render_widget(
        Paragraph::new(Span::styled(
            "matches name, title, company and the reasons (at most 128 chars)",
            theme.dim,
        )),
        Rect {
            x: inner.x + label_w,
            width: inner.width.saturating_sub(label_w),
            ..line_at(inner, y)
        },
    );
    y += 2;
    // The rows scroll: lines left once the footer and the status line
    // have theirs, and the focused row always among them.
    let room = inner.height.saturating_sub(y + 1 + status_lines).max(1);
    let first = first_row_shown(b, room);
    let rows_end = y.saturating_add(room).min(inner.height);
    let mut last_shown = first;
    let mut picker_at = None;
    for (i, r) in b.rows.iter().enumerate().skip(first) {
        let needs = 1 + u16::from(r.error.is_some());
        if y + needs > rows_end && i != first {
            break;
        }
        if y >= inner.height {
            break;
        }
        last_shown = i;
        let focus = |p: Part| b.picker.is_none() && b.focus == Focus::Row(i, p);
        let style = |p: Part| {
            if focus(p) { theme.selected } else { theme.text }
        };
        let field = match &r.path {
            Some(_) => format!("{} ▾", t(&r.label)),
            None => "pick a field ▾".into(),
        };
        let op = r
            .operator()
            .map_or("—".to_owned(), |o| o.as_str().to_owned());
        let value = match r.value_type {
            ValueType::Boolean => {
                if r.on {
                    "[x] true".to_owned()
                } else {
                    "[ ] false".to_owned()
                }
            }
            _ => String::new(),
        };
        let row_area = line_at(inner, y);
        let field_w = (inner.width / 3).clamp(10, 34);
        let spans = vec![
            Span::styled(
                format!("{:<w$}", format!("and {}", i + 1), w = label_w as usize),
                theme.header,
            ),
            Span::styled(
                format!(
                    "{:<w$}",
                    field.chars().take(field_w as usize - 1).collect::<String>(),
                    w = field_w as usize - 1
                ),
                style(Part::Path),
            ),
            Span::raw(" "),
            Span::styled(format!("{op:^10}"), style(Part::Op)),
            Span::raw(" "),
        ];
        let used: u16 = spans.iter().map(|s| s.width() as u16).sum();
        f.render_widget(Paragraph::new(Line::from(spans)), row_area);
        let value_area = Rect {
            x: row_area.x + used,
            width: row_area.width.saturating_sub(used),
            ..row_area
        };
        if r.value_type == ValueType::Boolean {
            f.render_widget(
                Paragraph::new(Span::styled(value, style(Part::Value))),
                value_area,
            );
        } else {
            text_input(f, value_area, &r.value, focus(Part::Value), theme);
        }
        if b.picker.as_ref().is_some_and(|p| p.row == i) {
            picker_at = Some(Rect {
                x: row_area.x + label_w,
                y: row_area.y + 1,
                width: row_area.width.saturating_sub(label_w),
                height: 0,
            });
        }
        y += 1;
        if let Some(e) = &r.error
            && y < inner.height
        {
            f.render_widget(
                Paragraph::new(Span::styled(
                    format!("{:w$}✗ {}", "", t(e), w = label_w as usize),
                    theme.err,
                )),
                line_at(inner, y),
            );
            y += 1;
        }
    }
    if y < inner.height {
        let n = b.rows.len();
        let hidden = first > 0 || last_shown + 1 < n;
        let text = if hidden {
            format!(
                "predicates {}–{} of {n} shown ({}{}) · all must match",
                first + 1,
                last_shown + 1,
                if first > 0 { "↑" } else { "" },
                if last_shown + 1 < n { "↓" } else { "" },
            )
        } else if n < crate::app::leads::filter::MAX_PREDICATES {
            format!("{n}/5 predicates, all must match · Ctrl-N adds · on a field Enter picks")
        } else {
            "5/5 predicates, all must match".into()
        };
        f.render_widget(
            Paragraph::new(Span::styled(text, theme.dim)),
            line_at(inner, y),
        );
        y += 1;
    }
    let status = if b.loading {
        Some(Span::styled("loading the fields…", theme.info))
    } else if let Some(e) = &b.error {
        Some(Span::styled(format!("✗ {}", t(e)), theme.err))
    } else {
        b.note.as_ref().map(|n| Span::styled(t(n), theme.info))
    };
    if let Some(s) = status
        && y < inner.height
    {
        f.render_widget(
            Paragraph::new(Line::from(s)).wrap(Wrap { trim: true }),
            Rect {
                y: inner.y + y,
                height: inner.height - y,
                ..inner
            },
        );
    }
    if let (Some(p), Some(at)) = (&b.picker, picker_at) {
        picker(f, body, at, p, b, theme);
    }
}

fn picker(
    f: &mut Frame,
    body: Rect,
    at: Rect,
    p: &crate::app::leads::filter::Picker,
    b: &Builder,
    theme: &Theme,
) {
    let matches = p.matches(&b.descriptors);
    let h = (PICKER_ROWS as u16 + 3).min(body.height);
    let y = if at.y + h <= body.y + body.height {
        at.y
    } else {
        (body.y + body.height).saturating_sub(h)
    };
    let area = Rect {
        x: at.x,
        y,
        width: at
            .width
            .max(30)
            .min(body.width.saturating_sub(at.x - body.x)),
        height: h,
    };
    let inner = frame(
        f,
        area,
        "Pick a field",
        keys(
            &[
                ("type", "narrows"),
                ("↑↓", "move"),
                ("Enter", "pick"),
                ("Esc", "close"),
            ],
            theme,
        ),
        theme,
    );
    if inner.height == 0 {
        return;
    }
    f.render_widget(
        Paragraph::new(Span::styled("›", theme.key)),
        line_at(inner, 0),
    );
    text_input(
        f,
        Rect {
            x: inner.x + 2,
            width: inner.width.saturating_sub(2),
            ..line_at(inner, 0)
        },
        &p.query,
        true,
        theme,
    );
    let mut table = p.table.clone();
    table.set_len(matches.len(), PICKER_ROWS);
    let list_h = inner.height.saturating_sub(1) as usize;
    let mut lines = Vec::new();
    for i in table.visible(list_h.min(PICKER_ROWS)) {
        let Some(d) = matches.get(i).and_then(|j| b.descriptors.get(*j)) else {
            continue;
        };
        let text = format!(
            "{:<28} {:<8} {:>7} · {}",
            t(&d.label).chars().take(28).collect::<String>(),
            t(d.value_type.as_str()),
            format::count(d.coverage_count),
            t(&d.path)
        );
        let style = if i == table.selected {
            theme.selected
        } else {
            theme.text
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    if matches.is_empty() {
        lines.push(Line::from(Span::styled("no field matches", theme.dim)));
    }
    f.render_widget(
        Paragraph::new(lines),
        Rect {
            y: inner.y + 1,
            height: inner.height.saturating_sub(1),
            ..inner
        },
    );
}

/// Add to campaign.
pub fn campaign(f: &mut Frame, body: Rect, d: &CampaignDialog, theme: &Theme) {
    let area = centered(
        body,
        body.width.saturating_sub(4).min(90),
        (LIST_ROWS as u16) + 9,
    );
    let hint = match d.stage {
        Stage::Pick => keys(
            &[
                ("↑↓", "choose"),
                ("Enter", "add"),
                ("r", "reload"),
                ("Esc", "cancel"),
            ],
            theme,
        ),
        Stage::Sending => keys(&[("Esc", "stop after this chunk")], theme),
        Stage::Done => keys(&[("Enter", "close")], theme),
    };
    let inner = frame(f, area, "Add to campaign", hint, theme);
    if inner.height == 0 {
        return;
    }
    let n = d.selection.count();
    let what = match &d.selection {
        Selection::Picked(_) => format!(
            "{} selected lead{}",
            format::count(n as u64),
            if n == 1 { "" } else { "s" }
        ),
        Selection::All { filter, .. } => format!(
            "all {} leads {}",
            format::count(n as u64),
            if filter.is_empty() {
                "of the search"
            } else {
                "matching the filter"
            }
        ),
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("Adding ", theme.text),
        Span::styled(what, theme.marked),
        Span::styled(" to a draft campaign.", theme.text),
    ])];
    match d.stage {
        Stage::Pick => {
            lines.push(Line::from(Span::styled(
                "Email campaigns need an email, network campaigns a network URL; leads without it are reported, not sent.",
                theme.dim,
            )));
            // The intro wraps; the list below never does (names are cut).
            let intro_h = 3.min(inner.height);
            f.render_widget(
                Paragraph::new(std::mem::take(&mut lines)).wrap(Wrap { trim: true }),
                Rect {
                    height: intro_h,
                    ..inner
                },
            );
            let list = Rect {
                y: inner.y + intro_h + 1,
                height: inner.height.saturating_sub(intro_h + 1),
                ..inner
            };
            let drafts = d.drafts();
            if d.loading || !d.reading.is_empty() {
                lines.push(Line::from(Span::styled("loading campaigns…", theme.info)));
            } else if drafts.is_empty() {
                lines.push(Line::from(Span::styled(
                    "No draft campaign: leads can only be added to drafts.",
                    theme.warn,
                )));
            }
            let lack_w = 26usize;
            let name_w = (list.width as usize)
                .saturating_sub(8 + 14 + lack_w + 2)
                .max(8);
            for i in d.table.visible(LIST_ROWS) {
                let Some(c) = drafts.get(i) else {
                    continue;
                };
                let lacking = match d.selection.lacking(&c.kind) {
                    Some(0) => Span::styled("all have ".to_owned() + identity(&c.kind), theme.ok),
                    Some(k) => Span::styled(
                        format!("{k} lack {} (not sent)", identity(&c.kind)),
                        theme.warn,
                    ),
                    None => {
                        Span::styled(format!("{} checked as sent", identity(&c.kind)), theme.dim)
                    }
                };
                let style = if i == d.table.selected {
                    theme.selected
                } else {
                    theme.text
                };
                let name: String = t(&c.name).chars().take(name_w).collect();
                lines.push(Line::from(vec![
                    Span::styled(
                        format!(
                            "{name:<name_w$} {:<7} roster {:>6} ",
                            t(c.kind.as_str()),
                            format::count(c.stats.total)
                        ),
                        style,
                    ),
                    lacking,
                ]));
            }
            let hidden = d
                .campaigns
                .iter()
                .filter(|c| c.status != CampaignStatus::Draft)
                .count();
            if hidden > 0 {
                lines.push(Line::default());
                lines.push(Line::from(Span::styled(
                    format!("{hidden} launched or paused campaigns are not shown: their roster is frozen"),
                    theme.dim,
                )));
            }
            if d.registry {
                lines.push(Line::from(Span::styled(
                    "campaigns known locally (the service does not list them)",
                    theme.dim,
                )));
            }
            if let Some(e) = &d.error {
                lines.push(Line::from(Span::styled(format!("✗ {}", t(e)), theme.err)));
            }
            f.render_widget(Paragraph::new(lines), list);
            return;
        }
        Stage::Sending | Stage::Done => {
            if let Some(job) = &d.job {
                lines.push(Line::from(vec![
                    Span::styled("Campaign: ", theme.header),
                    Span::raw(t(&job.campaign.name)),
                    Span::styled(format!(" ({})", t(job.campaign.kind.as_str())), theme.dim),
                ]));
                lines.push(Line::default());
                let bar_row = lines.len() as u16;
                lines.push(Line::default());
                lines.push(Line::from(format!(
                    "sent {} in {} chunk{} of at most 1,000",
                    format::count(job.sent),
                    job.chunks,
                    if job.chunks == 1 { "" } else { "s" }
                )));
                if d.stage == Stage::Done {
                    lines.push(Line::from(vec![
                        Span::styled(
                            format!("imported {}", format::count(job.imported)),
                            theme.ok,
                        ),
                        Span::raw(" · "),
                        Span::styled(
                            format!("duplicates {}", format::count(job.duplicates)),
                            theme.warn,
                        ),
                        Span::raw(" · "),
                        Span::styled(
                            format!(
                                "skipped without {} {}",
                                identity(&job.campaign.kind),
                                format::count(job.skipped)
                            ),
                            if job.skipped > 0 {
                                theme.warn
                            } else {
                                theme.dim
                            },
                        ),
                    ]));
                    if !job.skipped_names.is_empty() {
                        lines.push(Line::from(Span::styled(
                            format!(
                                "skipped: {}{}",
                                job.skipped_names
                                    .iter()
                                    .map(|n| t(n))
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                if job.skipped as usize > job.skipped_names.len() {
                                    ", …"
                                } else {
                                    ""
                                }
                            ),
                            theme.dim,
                        )));
                    }
                    let before = job.campaign.stats.total;
                    lines.push(Line::from(match job.roster_after {
                        Some(after) => Span::styled(
                            format!(
                                "roster {} → {}",
                                format::count(before),
                                format::count(after)
                            ),
                            theme.title,
                        ),
                        None => Span::styled("reading the roster…", theme.info),
                    }));
                } else if job.stop {
                    lines.push(Line::from(Span::styled(
                        "stopping after the chunk in flight…",
                        theme.warn,
                    )));
                }
                if let Some(why) = &job.walk_note {
                    lines.push(Line::from(Span::styled(
                        format!("reading the results stopped early: {}", t(why)),
                        theme.warn,
                    )));
                }
                if let Some(e) = &job.error {
                    lines.push(Line::from(Span::styled(
                        format!("stopped: {}", t(e)),
                        theme.err,
                    )));
                } else if job.stop && d.stage == Stage::Done {
                    lines.push(Line::from(Span::styled("stopped by you", theme.warn)));
                }
                f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
                if bar_row < inner.height {
                    let total = job.total.max(1);
                    progress::render(
                        f,
                        line_at(inner, bar_row),
                        job.considered.min(total),
                        total,
                        "leads",
                        theme,
                    );
                }
                return;
            }
        }
    }
    if let Some(e) = &d.error {
        lines.push(Line::from(Span::styled(format!("✗ {}", t(e)), theme.err)));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

/// Export: path prompt and progress.
pub fn export(f: &mut Frame, body: Rect, e: &Export, theme: &Theme) {
    let area = centered(body, body.width.saturating_sub(4).min(80), 9);
    let hint = match e.phase {
        Phase::Prompt => keys(&[("Enter", "export"), ("Esc", "cancel")], theme),
        Phase::Fetching | Phase::Checking => keys(&[("Esc", "cancel")], theme),
        _ => Line::default(),
    };
    let inner = frame(f, area, "Export to CSV", hint, theme);
    if inner.height == 0 {
        return;
    }
    let what = if e.walk.filter.is_empty() {
        "every result"
    } else {
        "the results matching the filter"
    };
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::raw(format!("Writes {what} of ")),
            Span::styled(t(&e.title), theme.title),
            Span::raw(format!(
                " ({} rows), best score first.",
                format::count(e.walk.total)
            )),
        ]))
        .wrap(Wrap { trim: true }),
        Rect {
            height: 2.min(inner.height),
            ..inner
        },
    );
    if inner.height < 4 {
        return;
    }
    let path_row = line_at(inner, 2);
    f.render_widget(
        Paragraph::new(Span::styled("Path ", theme.header)),
        path_row,
    );
    let input = Rect {
        x: path_row.x + 5,
        width: path_row.width.saturating_sub(5),
        ..path_row
    };
    if e.phase == Phase::Prompt {
        text_input(f, input, &e.path, true, theme);
    } else {
        f.render_widget(Paragraph::new(t(&e.path_text())), input);
    }
    let status_row = line_at(inner, 4.min(inner.height - 1));
    match e.phase {
        Phase::Prompt => {
            let (text, style) = match &e.error {
                Some(err) => (format!("✗ {}", t(err)), theme.err),
                None => (
                    "relative paths are in the directory Outpost was started from; an existing file is never replaced without asking".into(),
                    theme.dim,
                ),
            };
            f.render_widget(
                Paragraph::new(Span::styled(text, style)).wrap(Wrap { trim: true }),
                Rect {
                    height: inner.height.saturating_sub(4),
                    ..status_row
                },
            );
        }
        Phase::Checking | Phase::Confirming => f.render_widget(
            Paragraph::new(Span::styled("checking the path…", theme.info)),
            status_row,
        ),
        Phase::Fetching => progress::render(
            f,
            status_row,
            e.rows,
            e.walk.total.max(e.rows),
            "reading rows",
            theme,
        ),
        Phase::Writing => f.render_widget(
            Paragraph::new(Span::styled(
                format!("writing {} rows…", format::count(e.rows)),
                theme.info,
            )),
            status_row,
        ),
    }
}

/// A report to read.
pub fn report(f: &mut Frame, body: Rect, r: &Report, theme: &Theme) {
    let h = (r.lines.len() as u16 + 4).min(body.height);
    let area = centered(body, body.width.saturating_sub(4).min(100), h);
    let inner = frame(
        f,
        area,
        &r.title,
        keys(&[("j/k", "scroll"), ("any other key", "closes")], theme),
        theme,
    );
    let lines: Vec<Line> = r
        .lines
        .iter()
        .map(|(level, text)| {
            let style = match level {
                Level::Success => theme.ok,
                Level::Warning => theme.warn,
                Level::Error => theme.err,
                Level::Info => theme.text,
            };
            Line::from(Span::styled(DisplayText::block(text).into_string(), style))
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((r.scroll, 0)),
        inner,
    );
}
