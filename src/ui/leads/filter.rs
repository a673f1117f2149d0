//! The filter builder dialog: the text box, the predicate rows (scrolled
//! so the focused one shows), a summary line, a status line and the path
//! picker over them.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::dialogs::{frame, keys_line, line_at, text_input};
use super::{cells, t};
use crate::api::model::ValueType;
use crate::app::leads::filter::{Builder, Focus, MAX_PREDICATES, Part, Picker, Row};
use crate::app::leads::fixed_keys;

use crate::geometry::centered;
use crate::text::format;
use crate::ui::theme::Theme;

/// Width of the labels on the left ("Text", "and 1").
const LABEL_W: u16 = 8;

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
pub(super) fn first_row_shown(b: &Builder, room: u16) -> usize {
    let focused = match (&b.picker, b.focus) {
        (Some(p), _) => p.of,
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

/// Whether the builder shows a status line (loading, an error, a note).
fn has_status(b: &Builder, loading: Option<&String>) -> bool {
    b.error.is_some() || loading.is_some() || b.note.is_some()
}

/// The filter builder; `matching`: how many results the text typed (and
/// applied live) matches; `loading`: what to say while the fields are on
/// their way (the shared placeholder).
pub(super) fn render(
    f: &mut Frame,
    body: Rect,
    b: &Builder,
    matching: Option<usize>,
    loading: Option<String>,
    theme: &Theme,
) {
    let rows = cells(b.rows.len());
    let errors = cells(b.rows.iter().filter(|r| r.error.is_some()).count());
    let status_lines = u16::from(has_status(b, loading.as_ref()));
    let want = 2 + 2 + 1 + rows + errors + 2 + status_lines;
    let area = centered(body, body.width.saturating_sub(4).min(96), want.max(9));
    let hint = keys_line(
        &[
            (fixed_keys::CONFIRM.label.into(), "apply"),
            (fixed_keys::NEXT.label.into(), "next"),
            (fixed_keys::ADD_ROW.label.into(), "add"),
            (fixed_keys::REMOVE_ROW.label.into(), "remove"),
            (fixed_keys::CLOSE.label.into(), "close, edits kept"),
        ],
        theme,
    );
    let inner = frame(f, area, "Filter results", hint, theme);
    if inner.height == 0 {
        return;
    }
    text_section(f, inner, b, matching, theme);
    // The rows scroll: lines left once the footer and the status line
    // have theirs, and the focused row always among them.
    let top = 3;
    let room = inner.height.saturating_sub(top + 1 + status_lines).max(1);
    let first = first_row_shown(b, room);
    let drawn = predicate_rows(f, inner, b, first, top, room, theme);
    let mut y = drawn.y;
    if y < inner.height {
        summary(f, line_at(inner, y), b, first, drawn.last, theme);
        y += 1;
    }
    status(f, inner, y, b, loading, theme);
    if let (Some(p), Some(at)) = (&b.picker, drawn.picker_at) {
        picker(f, body, at, p, b, theme);
    }
}

/// The text box and its help line (with how many results match it, once
/// applied).
fn text_section(f: &mut Frame, inner: Rect, b: &Builder, matching: Option<usize>, theme: &Theme) {
    let q_focus = b.focus == Focus::Q && b.picker.is_none();
    f.render_widget(
        Paragraph::new(Span::styled(
            "Text",
            if q_focus { theme.key } else { theme.header },
        )),
        line_at(inner, 0),
    );
    let right_of_label = |y| Rect {
        x: inner.x + LABEL_W,
        width: inner.width.saturating_sub(LABEL_W),
        ..line_at(inner, y)
    };
    text_input(f, right_of_label(0), &b.q, q_focus, theme);
    if inner.height > 1 {
        let help = match matching {
            Some(n) => Line::from(vec![
                Span::styled(
                    format::plural(n as u64, "result matches", "results match"),
                    theme.info,
                ),
                Span::styled(
                    " as you type · name, title, company and the reasons",
                    theme.dim,
                ),
            ]),
            None => Line::from(Span::styled(
                "matches name, title, company and the reasons (at most 128 chars)",
                theme.dim,
            )),
        };
        f.render_widget(Paragraph::new(help), right_of_label(1));
    }
}

/// What [`predicate_rows`] drew.
struct Drawn {
    /// The next free line.
    y: u16,
    /// The last row shown.
    last: usize,
    /// Where the picker opens (below the row it is for).
    picker_at: Option<Rect>,
}

/// The predicate rows from `first`, starting at line `top`, in `room`
/// lines.
fn predicate_rows(
    f: &mut Frame,
    inner: Rect,
    b: &Builder,
    first: usize,
    top: u16,
    room: u16,
    theme: &Theme,
) -> Drawn {
    let rows_end = top.saturating_add(room).min(inner.height);
    let mut out = Drawn {
        y: top,
        last: first,
        picker_at: None,
    };
    for (i, r) in b.rows.iter().enumerate().skip(first) {
        let needs = 1 + u16::from(r.error.is_some());
        if (out.y + needs > rows_end && i != first) || out.y >= inner.height {
            break;
        }
        out.last = i;
        let row_area = line_at(inner, out.y);
        predicate_row(f, row_area, b, i, r, theme);
        if b.picker.as_ref().is_some_and(|p| p.of == i) {
            out.picker_at = Some(Rect {
                x: row_area.x + LABEL_W,
                y: row_area.y + 1,
                width: row_area.width.saturating_sub(LABEL_W),
                height: 0,
            });
        }
        out.y += 1;
        if let Some(e) = &r.error
            && out.y < inner.height
        {
            f.render_widget(
                Paragraph::new(Span::styled(
                    format!("{:w$}✗ {}", "", t(e), w = LABEL_W.into()),
                    theme.err,
                )),
                line_at(inner, out.y),
            );
            out.y += 1;
        }
    }
    out
}

/// One predicate row: `and N`, the field, the operator and the value.
fn predicate_row(f: &mut Frame, area: Rect, b: &Builder, i: usize, r: &Row, theme: &Theme) {
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
    let field_w = usize::from((area.width / 3).clamp(10, 34)) - 1;
    let spans = vec![
        Span::styled(
            format!("{:<w$}", format!("and {}", i + 1), w = LABEL_W.into()),
            theme.header,
        ),
        Span::styled(
            format!(
                "{:<field_w$}",
                field.chars().take(field_w).collect::<String>()
            ),
            style(Part::Path),
        ),
        Span::raw(" "),
        Span::styled(format!("{op:^10}"), style(Part::Op)),
        Span::raw(" "),
    ];
    let used: u16 = spans.iter().map(|s| cells(s.width())).sum();
    f.render_widget(Paragraph::new(Line::from(spans)), area);
    let value_area = Rect {
        x: area.x + used,
        width: area.width.saturating_sub(used),
        ..area
    };
    if r.value_type == ValueType::Boolean {
        let value = if r.on { "[x] true" } else { "[ ] false" };
        f.render_widget(
            Paragraph::new(Span::styled(value, style(Part::Value))),
            value_area,
        );
    } else {
        text_input(f, value_area, &r.value, focus(Part::Value), theme);
    }
}

/// How many predicates there are, which are shown, and how to add one.
fn summary(f: &mut Frame, area: Rect, b: &Builder, first: usize, last: usize, theme: &Theme) {
    let n = b.rows.len();
    let hidden = first > 0 || last + 1 < n;
    let text = if hidden {
        format!(
            "predicates {}–{} of {n} shown ({}{}) · all must match",
            first + 1,
            last + 1,
            if first > 0 { "↑" } else { "" },
            if last + 1 < n { "↓" } else { "" },
        )
    } else if n < MAX_PREDICATES {
        format!(
            "{n}/{MAX_PREDICATES} predicates, all must match · {} adds · on a field {} picks",
            fixed_keys::ADD_ROW.label,
            fixed_keys::CONFIRM.label
        )
    } else {
        format!("{MAX_PREDICATES}/{MAX_PREDICATES} predicates, all must match")
    };
    f.render_widget(Paragraph::new(Span::styled(text, theme.dim)), area);
}

/// Loading, the error, or the note, from line `y` down.
fn status(f: &mut Frame, inner: Rect, y: u16, b: &Builder, loading: Option<String>, theme: &Theme) {
    let status = if let Some(text) = loading {
        Some(Span::styled(t(&text), theme.info))
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
}

/// The path picker, opened below the row at `at` (the shared picker
/// widget): label, type, coverage and path of each matching field.
fn picker(f: &mut Frame, body: Rect, at: Rect, p: &Picker, b: &Builder, theme: &Theme) {
    let h = crate::ui::widgets::picker::height().min(body.height);
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
    let rows: Vec<String> = crate::app::leads::filter::matches(p, &b.descriptors)
        .into_iter()
        .filter_map(|j| b.descriptors.get(j))
        .map(|d| {
            format!(
                "{:<28} {:<8} {:>7} · {}",
                t(&d.label).chars().take(28).collect::<String>(),
                t(d.value_type.as_str()),
                format::count(d.coverage_count),
                t(&d.path)
            )
        })
        .collect();
    crate::ui::widgets::picker::render(
        f,
        area,
        "Pick a field",
        p,
        &rows,
        "no field matches",
        theme,
    );
}
