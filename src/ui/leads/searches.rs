//! The searches list: counts and run status per search (marked stale with
//! their age when a refresh failed), the `/` query narrowing it, and more
//! columns on a wide screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::theme::Theme;
use super::super::widgets::stale;
use super::super::widgets::vtable::{self, Column, TableSpec};
use super::{cursor_spans, placeholder, t};
use crate::api::model::SearchKind;
use crate::app::Model;
use crate::app::fresh::age_text;
use crate::app::leads::fixed_keys;
use crate::app::leads::layout::{WIDE_TABLE, searches_area, searches_viewport};
use crate::app::leads::searches::{SearchList, SearchRow};

use crate::app::keymap::Action;
use crate::text::format;
use crate::text::time_column::TimeColumn;

/// The columns: more on a wide screen, and where ids came from in
/// registry mode.
fn columns(registry: bool, wide: bool) -> Vec<Column> {
    let mut cols = vec![
        Column::new("Title", 20, if wide { 48 } else { u16::MAX }),
        Column::new("Kind", 6, 9).optional(2),
        Column::num("Leads", 5, 8),
        Column::num("Results", 7, 9).optional(4),
        Column::num("Contacted", 9, 9).optional(3),
        Column::new("Last run", 8, 16),
        Column::new("Updated", 7, 16).optional(1),
    ];
    if wide {
        cols.push(Column::new("Created", 7, 16).optional(5));
        cols.push(Column::new("Intent", 12, u16::MAX).optional(6));
    }
    if registry {
        cols.push(Column::new("From", 6, 8));
    }
    cols
}

/// How the times of the rows on screen are shown.
struct Times {
    updated: TimeColumn,
    created: TimeColumn,
    clock: i64,
}

/// A count: known once the search was read (a failed refresh keeps it);
/// unknown when never read and the read failed; loading otherwise.
fn count_cell(r: &SearchRow, n: u64, theme: &Theme) -> Span<'static> {
    if r.loaded {
        Span::raw(format::count(n))
    } else if r.fresh.is_stale() {
        Span::styled("?", theme.warn)
    } else {
        Span::styled("…", theme.dim)
    }
}

/// The last run's status: "never" only when the search has no run, an
/// unknown one says so, and one that could not be refreshed carries ⚠ and
/// the age of what is shown.
fn run_cell(r: &SearchRow, clock: i64, theme: &Theme) -> Span<'static> {
    if r.gone {
        return Span::styled("not found", theme.err);
    }
    match &r.run {
        Some(st) if r.fresh.is_stale() => {
            let age = r.fresh.age(clock).map(age_text).unwrap_or_default();
            Span::styled(format!("{} ⚠{age}", t(st.as_str())), theme.warn)
        }
        Some(st) => Span::styled(t(st.as_str()), theme.run_status(st)),
        None if r.loaded && r.search.last_run_id.is_none() => Span::styled("never", theme.dim),
        None if r.fresh.is_stale() => Span::styled("unknown", theme.warn),
        None => Span::styled("…", theme.dim),
    }
}

fn row_cells(
    r: &SearchRow,
    times: &Times,
    registry: bool,
    wide: bool,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let s = &r.search;
    let title = if s.title.is_empty() {
        Span::styled(t(&s.search_id), theme.dim)
    } else {
        Span::raw(t(&s.title))
    };
    let kind = match &s.kind {
        SearchKind::Other(k) if k.is_empty() || !r.loaded => Span::styled("…", theme.dim),
        k => Span::styled(t(k.as_str()), theme.dim),
    };
    let when = |ts: &str, col: TimeColumn| {
        let text = if r.loaded {
            col.show(ts, times.clock)
        } else {
            "…".into()
        };
        Span::styled(text, theme.dim)
    };
    let mut cells = vec![
        title,
        kind,
        count_cell(r, s.lead_count, theme),
        count_cell(r, s.result_count, theme),
        count_cell(r, s.contacted_count, theme),
        run_cell(r, times.clock, theme),
        when(&s.updated_at, times.updated),
    ];
    if wide {
        cells.push(when(&s.created_at, times.created));
        cells.push(Span::styled(t(&s.intent), theme.dim));
    }
    if registry {
        cells.push(Span::styled(t(&r.source), theme.dim));
    }
    cells
}

/// Draws the list of searches in `body`.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.panes.leads.list;
    let wide = body.width >= WIDE_TABLE;
    let cols = columns(l.registry, wide);
    let shown = l.shown();
    let on_screen = l.visible_rows(searches_viewport(body));
    let times = Times {
        updated: TimeColumn::of(
            on_screen.iter().map(|r| r.search.updated_at.as_str()),
            m.clock,
        ),
        created: TimeColumn::of(
            on_screen.iter().map(|r| r.search.created_at.as_str()),
            m.clock,
        ),
        clock: m.clock,
    };
    let row = |i: usize| -> Vec<Span<'static>> {
        shown
            .get(i)
            .and_then(|j| l.rows.get(*j))
            .map(|r| row_cells(r, &times, l.registry, wide, theme))
            .unwrap_or_default()
    };
    let empty = empty_text(m, l);
    vtable::render(
        f,
        searches_area(body),
        TableSpec {
            title: title(m, shown.len(), theme),
            columns: &cols,
            state: &l.table,
            row: &row,
            marked: None,
            footer: footer(m, &on_screen, theme),
            empty: &empty,
            focused: m.panes.leads.dialog.is_none(),
        },
        theme,
    );
}

fn title(m: &Model, shown: usize, theme: &Theme) -> Line<'static> {
    let l = &m.panes.leads.list;
    let count = if l.query.is_some() {
        format!("{shown} of {}", l.rows.len())
    } else {
        l.rows.len().to_string()
    };
    let mut title = vec![Span::styled(
        format!(" Lead Finder searches ({count}) "),
        theme.title,
    )];
    if l.registry {
        title.push(Span::styled(
            " local registry: ids created here, pasted with :open search, or seen in run-all ",
            theme.info,
        ));
    }
    if let Some(as_of) = l.cached {
        let reading = crate::app::leads::searches::list_pending(&m.requests);
        title.push(stale::span(as_of, m.clock, reading, theme));
    }
    Line::from(title)
}

fn empty_text(m: &Model, l: &SearchList) -> String {
    let k = |a| m.keymap.key_label(a);
    match (l.loaded, &l.error) {
        (true, _) if l.query.is_some() && !l.rows.is_empty() => format!(
            "No search matches what is typed — {} clears it",
            fixed_keys::CLOSE.label
        ),
        (false, e) => placeholder(m, "searches", e.as_ref()),
        (true, _) if l.registry => format!(
            "No searches known yet — {} creates one, :open search <id> opens one by id",
            k(Action::NewSearch)
        ),
        (true, _) => format!("No searches yet — {} creates one", k(Action::NewSearch)),
    }
}

/// The bottom border: the query as typed, rows not refreshed, runs watched.
fn footer(m: &Model, on_screen: &[&SearchRow], theme: &Theme) -> Option<Line<'static>> {
    let l = &m.panes.leads.list;
    let mut spans = Vec::new();
    if let Some(q) = &l.query {
        spans.push(Span::styled(" / ", theme.key));
        if q.editing {
            spans.extend(cursor_spans(&q.text, theme));
            spans.push(Span::styled(
                format!(
                    " {} keeps · {} clears ",
                    fixed_keys::CONFIRM.label,
                    fixed_keys::CLOSE.label
                ),
                theme.dim,
            ));
        } else {
            spans.push(Span::styled(t(&q.needle()), theme.text));
            spans.push(Span::styled(
                format!(" · {} clears ", m.keymap.key_label(Action::Back)),
                theme.dim,
            ));
        }
    }
    let stale: Vec<&&SearchRow> = on_screen
        .iter()
        .filter(|r| r.fresh.is_stale() && !r.gone)
        .collect();
    if let Some(first) = stale.first() {
        let why = first.fresh.failed_code().unwrap_or_default();
        spans.push(Span::styled(
            format!(
                " ⚠ {} not refreshed ({}):",
                format::plural(stale.len() as u64, "row", "rows"),
                t(why),
            ),
            theme.warn,
        ));
        // What happens next, from the first one's holder: its watch
        // retries, or nothing does and it says its age.
        spans.push(stale::freshness(m, &first.fresh, theme));
    }
    let running = l
        .shown()
        .iter()
        .filter(|i| l.rows.get(**i).is_some_and(SearchRow::watched))
        .count();
    if running > 0 {
        spans.push(Span::styled(
            format!(
                " {running} running · status refreshed every {} ",
                format::duration(m.poll.run)
            ),
            theme.info,
        ));
    }
    (!spans.is_empty()).then(|| Line::from(spans))
}
