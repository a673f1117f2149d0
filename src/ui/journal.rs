//! `:journal`: the write journal over the pane: one row per write (when,
//! operation, target, outcome with its verdict beside it, and on a wide
//! screen what was sent), the selected write whole below, and the keys in
//! the border. Every text read from the file is made inert first.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::app::Model;
use crate::app::journal_view::{DETAIL_ROWS, JournalView, Reading, footer, list_rows};
use crate::geometry::centered;
use crate::journal::{Outcome, Record};
use crate::text::sanitize::inline;
use crate::text::{format, wrap};

/// Widest the overlay grows on a large screen.
const MAX_WIDTH: u16 = 180;

/// Where the overlay goes: the whole body on a narrow screen, else
/// centred with a margin.
fn area(body: Rect) -> Rect {
    if body.width <= 92 {
        body
    } else {
        centered(
            body,
            body.width.saturating_sub(4).min(MAX_WIDTH),
            body.height,
        )
    }
}

/// A journal time (RFC 3339, UTC) in local time: `05-01 14:02` when
/// `short`, else `2026-05-01 14:02:03`.
fn when(at: &str, offset: i32, short: bool) -> String {
    let Some(t) = format::unix(at)
        .and_then(|u| time::OffsetDateTime::from_unix_timestamp(u + i64::from(offset)).ok())
    else {
        return inline(at);
    };
    let (mo, d) = (u8::from(t.month()), t.day());
    if short {
        format!("{mo:02}-{d:02} {:02}:{:02}", t.hour(), t.minute())
    } else {
        format!(
            "{:04}-{mo:02}-{d:02} {:02}:{:02}:{:02}",
            t.year(),
            t.hour(),
            t.minute(),
            t.second()
        )
    }
}

/// How loud a write's outcome is drawn: done green, refused red, may
/// have reached yellow until its verdict says it was found.
fn outcome_style(r: &Record, theme: &Theme) -> Style {
    match r.write.outcome {
        Outcome::Done => theme.ok,
        Outcome::Refused => theme.err,
        Outcome::MayHaveReached => match r.verdict.as_ref().map(|v| v.verdict.as_str()) {
            Some("found") => theme.ok,
            _ => theme.warn,
        },
    }
}

/// Columns of a row: `(width, text)` pairs, the last taking the rest.
fn cells(r: &Record, width: u16, offset: i32) -> Vec<(usize, String)> {
    let w = &r.write;
    let wide = width >= 120;
    let when = when(&w.at, offset, !wide);
    let mut out = vec![(when.chars().count(), when)];
    if wide {
        out.push((9, w.source.as_str().to_owned()));
    }
    out.push((if wide { 20 } else { 15 }, inline(&w.operation)));
    out.push((if wide { 32 } else { 18 }, inline(&w.target.text())));
    let used: usize = out.iter().map(|(n, _)| n + 1).sum();
    let rest = usize::from(width).saturating_sub(used);
    if wide {
        let outcome = rest.saturating_sub(1) * 2 / 3;
        out.push((outcome, inline(&r.outcome_text())));
        out.push((rest.saturating_sub(outcome + 1), inline(&w.summary)));
    } else {
        out.push((rest, inline(&short_outcome(r))));
    }
    out
}

/// The outcome in the few columns of a narrow row, the verdict's word
/// kept: "refused: conflict (409)", "may have reached → found".
fn short_outcome(r: &Record) -> String {
    match (r.write.outcome, &r.verdict) {
        (Outcome::MayHaveReached, Some(v)) => {
            format!("may have reached → {}", v.verdict.replace('_', " "))
        }
        (Outcome::MayHaveReached, None) => "may have reached · no verdict".into(),
        _ => r.outcome_text(),
    }
}

/// One row of the list, each cell cut to its column with `…`.
fn row(r: &Record, width: u16, offset: i32, selected: bool, theme: &Theme) -> Line<'static> {
    let cells = cells(r, width, offset);
    let outcome_at = if width >= 120 {
        cells.len() - 2
    } else {
        cells.len() - 1
    };
    let mut spans = Vec::new();
    for (i, (w, text)) in cells.into_iter().enumerate() {
        let style = match i {
            0 => theme.dim,
            _ if i == outcome_at => outcome_style(r, theme),
            _ => theme.text,
        };
        let fitted = wrap::fit(&text, w);
        let pad = w.saturating_sub(wrap::width(&fitted));
        spans.push(Span::styled(format!("{fitted}{} ", " ".repeat(pad)), style));
    }
    let line = Line::from(spans);
    if selected {
        line.style(theme.selected)
    } else {
        line
    }
}

/// The selected write whole: what, where, how it came out, its verdict,
/// what was sent; wrapped to `width`.
fn detail(r: &Record, width: u16, offset: i32, theme: &Theme) -> Vec<Line<'static>> {
    let w = &r.write;
    let cols = usize::from(width).max(10);
    let mut said: Vec<(Style, String)> = vec![(
        theme.title,
        format!(
            "{} · {} · from the {} · {} (local)",
            w.operation,
            w.target.text(),
            w.source.as_str(),
            when(&w.at, offset, false)
        ),
    )];
    let mut outcome = format!("outcome: {}", w.outcome.text());
    if let Some(code) = &w.code {
        outcome.push_str(&format!(" — {code}"));
        if let Some(status) = w.status {
            outcome.push_str(&format!(" ({status})"));
        }
    }
    if let Some(m) = &w.message {
        outcome.push_str(&format!(": {m}"));
    }
    said.push((outcome_style(r, theme), outcome));
    if let Some(v) = &r.verdict {
        said.push((
            outcome_style(r, theme),
            format!(
                "verdict: {} — {} ({})",
                v.verdict.replace('_', " "),
                v.text,
                when(&v.at, offset, false)
            ),
        ));
    } else if w.outcome == Outcome::MayHaveReached {
        said.push((theme.warn, "verdict: none recorded".into()));
    }
    if !w.summary.is_empty() {
        said.push((theme.text, format!("sent: {}", w.summary)));
    }
    said.into_iter()
        .flat_map(|(style, text)| {
            wrap::wrap(&inline(&text), cols)
                .into_iter()
                .map(move |l| Line::from(Span::styled(l, style)))
        })
        .collect()
}

/// The bordered frame: the count in the title, the keys in the bottom
/// border; returns the inside.
fn frame(m: &Model, f: &mut Frame, rect: Rect, j: &JournalView, theme: &Theme) -> Rect {
    let shown = j.visible().len();
    let title = match &j.reading {
        Some(Reading::Read { read, .. }) if j.needle.active() => format!(
            " Journal · {shown} of {} · newest first ",
            format::plural(read.records.len() as u64, "write", "writes")
        ),
        Some(Reading::Read { read, .. }) => format!(
            " Journal · {} · newest first ",
            format::plural(read.records.len() as u64, "write", "writes")
        ),
        _ => " Journal ".to_owned(),
    };
    let mut keys = Vec::new();
    for (k, does) in footer(m, j) {
        keys.push(Span::styled(format!(" {k} "), theme.key));
        keys.push(Span::styled(format!("{does} "), theme.dim));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.title)
        .title(Span::styled(title, theme.title))
        .title_bottom(Line::from(keys));
    let inner = block.inner(rect);
    f.render_widget(block, rect);
    inner
}

/// The filter line, typed or applied, on the first row of `area`; returns
/// what is left below it.
fn filter(m: &Model, f: &mut Frame, area: Rect, j: &JournalView, theme: &Theme) -> Rect {
    let line = Rect { height: 1, ..area };
    if let Some(input) = &j.needle.input {
        super::widgets::filter_line::render(f, line, input, "operation, target, outcome…", theme);
    } else if j.needle.active() {
        let text = format!(
            " / {}  ({} edits the filter)",
            inline(&j.needle.text),
            m.keymap.key_label(crate::app::keymap::Action::Filter)
        );
        f.render_widget(
            Paragraph::new(Span::styled(
                wrap::fit(&text, usize::from(line.width)),
                theme.dim,
            )),
            line,
        );
    } else {
        return area;
    }
    Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(1),
        ..area
    }
}

/// What stands in place of the rows when there are none to show.
fn empty_text(j: &JournalView, theme: &Theme) -> Option<(String, Style)> {
    Some(match &j.reading {
        None => ("reading the journal…".to_owned(), theme.dim),
        Some(Reading::NotKept(why)) => (format!("No journal: {why}."), theme.dim),
        Some(Reading::Failed(why)) => (why.clone(), theme.err),
        Some(Reading::Read { path, .. }) if j.visible().is_empty() && j.needle.active() => (
            format!(
                "no write in {} matches “{}”",
                path.display(),
                j.needle.text.trim()
            ),
            theme.dim,
        ),
        Some(Reading::Read { path, .. }) if j.visible().is_empty() => (
            format!("no writes recorded yet in {}", path.display()),
            theme.dim,
        ),
        Some(Reading::Read { .. }) => return None,
    })
}

/// The selected write whole in `area`, under a rule on the row above it;
/// what does not fit ends with `…`.
fn detail_area(m: &Model, f: &mut Frame, area: Rect, r: &Record, theme: &Theme) {
    let rule = Rect {
        y: area.y.saturating_sub(1),
        height: 1,
        ..area
    };
    f.render_widget(
        Paragraph::new(Span::styled(
            "─".repeat(usize::from(rule.width)),
            theme.border,
        )),
        rule,
    );
    let mut lines = detail(r, area.width, m.utc_offset, theme);
    if lines.len() > usize::from(area.height) {
        lines.truncate(usize::from(area.height));
        if let Some(last) = lines.last_mut() {
            let text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
            let style = last.spans.first().map_or(theme.text, |s| s.style);
            *last = Line::from(Span::styled(
                wrap::fit(&format!("{text} …"), usize::from(area.width)),
                style,
            ));
        }
    }
    f.render_widget(Paragraph::new(lines), area);
}

/// Draws the overlay over `body`.
pub(crate) fn render(m: &Model, f: &mut Frame, body: Rect, j: &JournalView, theme: &Theme) {
    let rect = area(body);
    f.render_widget(Clear, rect);
    let inner = frame(m, f, rect, j, theme);
    let list = filter(m, f, inner, j, theme);
    if let Some((text, style)) = empty_text(j, theme) {
        let lines: Vec<Line> = wrap::wrap(&inline(&text), usize::from(list.width.max(1)))
            .into_iter()
            .map(|l| Line::from(Span::styled(l, style)))
            .collect();
        f.render_widget(Paragraph::new(lines), list);
        return;
    }
    // The selected write whole at the bottom, when there is room for the
    // list above it too (as `update` counts the list's rows).
    let list_area = Rect {
        height: list_rows(rect.height, j.filter_shown()).min(list.height),
        ..list
    };
    let rows = j.visible();
    let first = j.first_row(usize::from(list_area.height));
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(first)
        .take(usize::from(list_area.height))
        .map(|(i, r)| row(r, list_area.width, m.utc_offset, i == j.selected, theme))
        .collect();
    f.render_widget(Paragraph::new(lines), list_area);
    if list.height - list_area.height > DETAIL_ROWS
        && let Some(r) = rows.get(j.selected)
    {
        let area = Rect {
            y: list_area.y + list_area.height + 1,
            height: DETAIL_ROWS,
            ..list
        };
        detail_area(m, f, area, r, theme);
    }
}
