//! The open search: the run panel (status, sources, the diagnostics
//! funnel, errors), the filter chips and the results table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::theme::Theme;
use super::super::widgets::vtable::{self, Column, TableSpec};
use super::{cells, placeholder, retry_note, t};
use crate::api::model::{LatestRun, LeadResult, QueryDiagnostics, RunStatus};
use crate::app::Model;
use crate::app::leads::layout::{
    WIDE_TABLE, chip_spans, compact_run, diagnostics_cap, search_areas,
};
use crate::ui::widgets::stale;

use crate::app::keymap::Action;
use crate::app::leads::{Opened, View, result_name};
use crate::text::format;
use crate::text::time_column::TimeColumn;

/// The open search.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let a = search_areas(body, &m.panes.leads);
    run_panel(m, f, a.run, theme);
    chips_line(m, f, a.chips, theme);
    results(m, f, a.table, body.width >= WIDE_TABLE, theme);
}

/// The status of the run: "never run" only when the search has no run;
/// unknown when it could not be read; then how fresh what is shown is
/// (`live`, `retrying in 8 s`, `stale · as of 2m ago · r retries`).
fn run_status_line(m: &Model, o: &Opened, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = status_spans(m, o, theme);
    if o.loaded {
        // How fresh all of it is, from the one holder: `live` while the
        // run watch reads it again, else when it was read (before the
        // counts: a narrow screen cuts the line on the right).
        spans.push(Span::raw(" ·"));
        spans.push(stale::freshness(m, &o.fresh, theme));
        let s = &o.search;
        spans.push(Span::styled(
            format!(
                "· {} · {} · {} contacted",
                format::plural(s.result_count, "result", "results"),
                format::plural(s.lead_count, "lead", "leads"),
                format::count(s.contacted_count)
            ),
            theme.text,
        ));
    }
    spans
}

/// The status itself, first on the line (it may be cut on the right).
fn status_spans(m: &Model, o: &Opened, theme: &Theme) -> Vec<Span<'static>> {
    let k = |a| m.keymap.key_label(a);
    match (&o.latest_run, &o.watch_lost) {
        // Not watched any more: the last status known, marked as such, and
        // why.
        (Some(r), Some(why)) => vec![
            Span::styled(format!("? {}", t(r.status.as_str())), theme.dim),
            Span::styled(
                format!(" · status unknown — {}{}", t(why), unknown_note(m, o)),
                theme.err,
            ),
        ],
        (Some(r), None) => live_status(m, r, theme),
        (None, _) if o.loaded && o.search.last_run_id.is_none() => vec![Span::styled(
            format!("never run — {} runs it", k(Action::RunSearch)),
            theme.dim,
        )],
        (None, _) if o.loaded => vec![Span::styled("run status unknown", theme.warn)],
        (None, why) => match why.as_ref().or(o.fresh.failed.as_ref()) {
            Some(why) => vec![Span::styled(
                format!("status unknown — {}{}", t(why), unknown_note(m, o)),
                theme.err,
            )],
            // Nothing read yet: the shared placeholder (offline at once).
            None => {
                let p = m.placeholder(
                    "the search",
                    crate::api::RouteFamily::LeadFinder,
                    crate::app::Load::Pending,
                );
                let style = crate::ui::widgets::placeholder::style(p.level, theme);
                vec![Span::styled(t(&p.text), style)]
            }
        },
    }
}

/// What can be done about an unknown status: a search not found may be
/// read again (it may have been another workspace's); a refused key is
/// fixed elsewhere.
fn unknown_note(m: &Model, o: &Opened) -> String {
    retry_note(m, o.fresh.error.as_ref().filter(|e| !e.is_not_found()))
        .map(|n| format!(" · {n}"))
        .unwrap_or_default()
}

fn live_status(m: &Model, r: &LatestRun, theme: &Theme) -> Vec<Span<'static>> {
    let live = r.status.is_live();
    let when = if r.updated_at.is_empty() {
        &r.created_at
    } else {
        &r.updated_at
    };
    vec![
        Span::styled(
            format!("{} {}", if live { "◐" } else { "●" }, t(r.status.as_str())),
            theme.run_status(&r.status),
        ),
        Span::styled(format!(" · run {}", short_ago(when, m.clock)), theme.dim),
    ]
}

/// "5m ago", or `MM-DD HH:MM` when older than a month or ahead of the
/// local clock (the demo's simulated time runs ahead).
pub(super) fn short_ago(ts: &str, clock: i64) -> String {
    let text = format::ago(ts, clock);
    match text.get(5..) {
        Some(short) if text.len() == 16 && text.as_bytes().get(4) == Some(&b'-') => {
            short.to_owned()
        }
        _ => text,
    }
}

/// The run panel: status, sources, the diagnostics funnel, errors.
fn run_panel(m: &Model, f: &mut Frame, area: Rect, theme: &Theme) {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return;
    };
    let s = &o.search;
    let name = if s.title.is_empty() {
        t(&s.search_id)
    } else {
        t(&s.title)
    };
    let mut title = vec![Span::styled(format!(" {name} "), theme.title)];
    if !s.kind.as_str().is_empty() && o.loaded {
        title.push(Span::styled(format!("{} ", t(s.kind.as_str())), theme.dim));
    }
    if crate::app::leads::starting(&m.requests, &s.search_id) {
        title.push(Span::styled(" starting run… ", theme.info));
    }
    let mut lines = vec![Line::from(run_status_line(m, o, theme))];
    if let Some(r) = &o.latest_run {
        if compact_run(m.layout().body) {
            lines.extend(funnel_sum(r, theme));
        } else {
            let inner_w = usize::from(area.width.saturating_sub(2));
            lines.extend(sources(r, theme));
            lines.extend(funnel(r, inner_w, diagnostics_cap(m.layout().body), theme));
            lines.extend(run_errors(r, theme));
        }
    }
    let title = Line::from(title);
    let block = crate::ui::widgets::id_tag::on_block(
        super::frame(theme),
        area,
        &title,
        &s.search_id,
        theme,
    )
    .title(title);
    f.render_widget(Paragraph::new(lines).block(block), area);
}

fn diagnostics(r: &LatestRun) -> Vec<&QueryDiagnostics> {
    r.source_status
        .iter()
        .flat_map(|s| s.query_diagnostics.iter())
        .collect()
}

/// Short screens: the funnel summed over the queries, on one line.
fn funnel_sum(r: &LatestRun, theme: &Theme) -> Option<Line<'static>> {
    let diags = diagnostics(r);
    if diags.is_empty() {
        return None;
    }
    // Numbers from the service: summed saturating (any u64 arrives).
    let sum = |f: fn(&QueryDiagnostics) -> u64| {
        format::count(diags.iter().fold(0u64, |a, d| a.saturating_add(f(d))))
    };
    Some(Line::from(vec![
        Span::styled(
            format!(
                "{}: ",
                format::plural(diags.len() as u64, "query", "queries")
            ),
            theme.dim,
        ),
        Span::raw(format!(
            "{} → {} → {} → {} → {} → ",
            sum(|d| d.fetched),
            sum(|d| d.normalized),
            sum(|d| d.ranked),
            sum(|d| d.lead_extracted),
            sum(|d| d.quality_kept)
        )),
        Span::styled(format!("{} stored", sum(|d| d.stored)), theme.ok),
    ]))
}

fn sources(r: &LatestRun, theme: &Theme) -> Option<Line<'static>> {
    if r.source_status.is_empty() {
        return None;
    }
    let mut spans = vec![Span::styled("sources: ", theme.dim)];
    for (i, src) in r.source_status.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim));
        }
        let st = RunStatus::parse(&src.status);
        spans.push(Span::raw(format!("{} ", t(&src.source_id))));
        spans.push(Span::styled(t(&src.status), theme.run_status(&st)));
        if !src.error.is_empty() {
            spans.push(Span::styled(format!(" ({})", t(&src.error)), theme.err));
        }
    }
    Some(Line::from(spans))
}

/// The stages of the funnel, long and short.
const STAGES: [&str; 6] = [
    "fetched",
    "normalized",
    "ranked",
    "lead extracted",
    "quality kept",
    "stored",
];
const STAGES_SHORT: [&str; 6] = ["fetch", "norm", "rank", "lead", "kept", "stored"];

fn stage_numbers(d: &QueryDiagnostics) -> [u64; 6] {
    [
        d.fetched,
        d.normalized,
        d.ranked,
        d.lead_extracted,
        d.quality_kept,
        d.stored,
    ]
}

/// Per query, the funnel from fetched to stored, in columns as wide as the
/// widest number of each stage (short labels when the long ones do not
/// fit), at most `cap` rows.
fn funnel(r: &LatestRun, inner_w: usize, cap: usize, theme: &Theme) -> Vec<Line<'static>> {
    let diags = diagnostics(r);
    if diags.is_empty() {
        return Vec::new();
    }
    let widths_for = |labels: &[&str; 6]| -> Vec<usize> {
        (0..6)
            .map(|i| {
                diags
                    .iter()
                    .map(|d| format::count(stage_numbers(d)[i]).len())
                    .max()
                    .unwrap_or(1)
                    .max(labels[i].chars().count())
            })
            .collect()
    };
    let total = |w: &[usize]| w.iter().sum::<usize>() + 3 * 5;
    let mut labels = STAGES;
    let mut widths = widths_for(&labels);
    if total(&widths) + 16 > inner_w {
        labels = STAGES_SHORT;
        widths = widths_for(&labels);
    }
    let query_w = inner_w.saturating_sub(total(&widths) + 2).clamp(6, 60);
    let mut header = vec![Span::styled(
        format!("{:<query_w$}  ", "query"),
        theme.header,
    )];
    for (i, l) in labels.iter().enumerate() {
        if i > 0 {
            header.push(Span::styled(" → ", theme.dim));
        }
        header.push(Span::styled(
            format!("{:>w$}", l, w = widths[i]),
            theme.header,
        ));
    }
    let mut lines = vec![Line::from(header)];
    for (n, d) in diags.iter().enumerate() {
        if n + 1 == cap && diags.len() > cap && cap > 1 {
            let more = (diags.len() - n) as u64;
            lines.push(Line::from(Span::styled(
                format!("… and {} more", format::plural(more, "query", "queries")),
                theme.dim,
            )));
            break;
        }
        if n >= cap {
            break;
        }
        lines.push(funnel_row(d, query_w, &widths, theme));
    }
    lines
}

fn funnel_row(
    d: &QueryDiagnostics,
    query_w: usize,
    widths: &[usize],
    theme: &Theme,
) -> Line<'static> {
    let q: String = t(&d.query).chars().take(query_w).collect();
    let mut row = vec![Span::raw(format!("{q:<query_w$}  "))];
    for (i, v) in stage_numbers(d).iter().enumerate() {
        if i > 0 {
            row.push(Span::styled(" → ", theme.dim));
        }
        let style = if i == 5 { theme.ok } else { theme.text };
        row.push(Span::styled(
            format!("{:>w$}", format::count(*v), w = widths[i]),
            style,
        ));
    }
    if !d.error.is_empty() {
        row.push(Span::styled(format!("  {}", t(&d.error)), theme.err));
    } else if d.max_results > 0 {
        // Named by the service's field, not "of max": `stored` may pass it
        // (a run adds to what earlier runs stored), and "250 of max 50"
        // read as a broken count.
        row.push(Span::styled(
            format!("  max results {}", format::count(d.max_results)),
            theme.dim,
        ));
    }
    Line::from(row)
}

fn run_errors(r: &LatestRun, theme: &Theme) -> Option<Line<'static>> {
    if r.errors.is_empty() {
        return None;
    }
    let text: Vec<String> = r
        .errors
        .iter()
        .map(|e| format!("{} {}: {}", t(&e.source_id), t(&e.code), t(&e.error)))
        .collect();
    Some(Line::from(Span::styled(
        format!("errors: {}", text.join(" · ")),
        theme.err,
    )))
}

/// The filter chips (click one to remove it) and, on the right, how many
/// leads are selected.
fn chips_line(m: &Model, f: &mut Frame, area: Rect, theme: &Theme) {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return;
    };
    let mut spans = vec![Span::styled(" Filter: ", theme.header)];
    let chips = chip_spans(&m.panes.leads, area);
    if chips.is_empty() {
        spans.push(Span::styled(
            format!("none — {} builds one", m.keymap.key_label(Action::Filter)),
            theme.dim,
        ));
    }
    for (_, _, _, text) in chips {
        spans.push(Span::styled(text, theme.key));
        spans.push(Span::raw(" "));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
    let n = o.marks.count() as u64;
    if n == 0 {
        return;
    }
    let what = if o.marks.all.is_some() {
        format!("● {} selected (all matching) ", format::count(n))
    } else {
        format!("● {} selected ", format::count(n))
    };
    let right = Span::styled(what, theme.marked);
    let w = cells(right.width());
    if area.width > w + 20 {
        f.render_widget(
            Paragraph::new(Line::from(right)),
            Rect {
                x: area.x + area.width - w,
                width: w,
                ..area
            },
        );
    }
}

/// The results' columns. From [`WIDE_TABLE`] on, where each lead is,
/// their seniority and email are always shown (the wider columns are cut
/// to make room); the query, then the tier (the score says it too), give
/// way first.
fn result_columns(wide: bool, emails: bool) -> Vec<Column> {
    let mut cols = vec![
        Column::num("Score", 5, 5),
        Column::new("Tier", 4, 10).optional(if wide { 6 } else { 3 }),
        Column::new("Name", 8, 26),
        Column::new("Title", 8, if wide { 40 } else { u16::MAX }),
        Column::new("Company", 8, 26),
    ];
    if wide {
        cols.push(Column::new("Location", 8, 22));
        cols.push(Column::new("Seniority", 9, 14));
        if emails {
            cols.push(Column::new("Email", 8, 30));
        }
        cols.push(Column::new("Query", 8, 32).optional(7));
    }
    cols.push(Column::new("Status", 6, 12).optional(2));
    cols.push(Column::new("When", 6, 11).optional(1));
    cols
}

fn when(r: &LeadResult) -> &str {
    if r.created_at.is_empty() {
        &r.occurred_at
    } else {
        &r.created_at
    }
}

/// What a result row shows.
struct RowLook<'a> {
    m: &'a Model,
    wide: bool,
    emails: bool,
    times: TimeColumn,
    theme: &'a Theme,
}

impl RowLook<'_> {
    fn cells(&self, r: &LeadResult) -> Vec<Span<'static>> {
        let theme = self.theme;
        let c = r.canonical_lead.clone().unwrap_or_default();
        let company = if c.company.is_empty() {
            &r.entity_company
        } else {
            &c.company
        };
        let tier_style = match r.quality_tier.as_str() {
            "excellent" => theme.ok,
            "good" => theme.info,
            _ => theme.dim,
        };
        let mut cells = vec![
            Span::raw(format!("{:.2}", r.score)),
            Span::styled(t(&r.quality_tier), tier_style),
            Span::raw(t(&result_name(r))),
            Span::raw(t(&c.title)),
            Span::raw(t(company)),
        ];
        if self.wide {
            cells.extend(self.facts(r));
            if self.emails {
                cells.push(Span::styled(t(&c.email), theme.dim));
            }
            cells.push(Span::styled(t(&r.query), theme.dim));
        }
        cells.push(Span::styled(t(&r.status), theme.dim));
        cells.push(Span::styled(
            self.times.show(when(r), self.m.clock),
            theme.dim,
        ));
        cells
    }

    /// Location and seniority: "…" until the lead's profile is read, "?"
    /// when it could not be, "—" when it gives none.
    fn facts(&self, r: &LeadResult) -> [Span<'static>; 2] {
        let theme = self.theme;
        let leads = &self.m.panes.leads;
        let known = (leads.open_id() == Some(leads.facts.search.as_str()))
            .then(|| leads.facts.get(&r.result_id))
            .flatten();
        let cell = |v: &str| {
            if v.is_empty() {
                Span::styled("—", theme.dim)
            } else {
                Span::raw(t(v))
            }
        };
        match known {
            Some(f) if f.failed => [Span::styled("?", theme.dim), Span::styled("?", theme.dim)],
            Some(f) => [cell(&f.location), cell(&f.seniority)],
            None => [Span::styled("…", theme.dim), Span::styled("…", theme.dim)],
        }
    }
}

/// The results table.
fn results(m: &Model, f: &mut Frame, area: Rect, wide: bool, theme: &Theme) {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return;
    };
    let w = &o.window;
    let vp = usize::from(area.height.saturating_sub(3));
    let on_screen: Vec<&LeadResult> = w
        .table
        .visible(vp.max(1))
        .filter_map(|i| w.row(i))
        .collect();
    let look = RowLook {
        m,
        wide,
        emails: on_screen.iter().any(|r| {
            r.canonical_lead
                .as_ref()
                .is_some_and(|c| !c.email.trim().is_empty())
        }),
        times: TimeColumn::of(on_screen.iter().map(|r| when(r)), m.clock),
        theme,
    };
    let cols = result_columns(wide, look.emails);
    let row = |i: usize| -> Vec<Span<'static>> {
        match w.row(i) {
            Some(r) => look.cells(r),
            None => vec![Span::styled("…", theme.dim)],
        }
    };
    let marked = |i: usize| w.row(i).is_some_and(|r| o.marks.is_marked(&r.result_id));
    let empty = results_empty(m, o);
    vtable::render(
        f,
        area,
        TableSpec {
            title: results_title(o, theme),
            columns: &cols,
            state: &w.table,
            row: &row,
            marked: Some(&marked),
            footer: results_footer(
                o,
                crate::app::leads::search::pages_loading(&m.panes.leads, &m.requests),
                theme,
            ),
            empty: &empty,
            focused: m.panes.leads.dialog.is_none() && m.panes.leads.view == View::Search,
        },
        theme,
    );
}

fn results_title(o: &Opened, theme: &Theme) -> Line<'static> {
    let total = o.window.total.unwrap_or(0);
    let mut title = vec![Span::styled(
        format!(
            " {} {} ",
            if o.filter.is_empty() {
                "Results"
            } else {
                "Matching"
            },
            format::count(total as u64)
        ),
        theme.title,
    )];
    if let Some(first) = o.first_total
        && o.filter.is_empty()
        && total > first
    {
        title.push(Span::styled(
            format!("+{} new ", format::count((total - first) as u64)),
            theme.ok,
        ));
    }
    title.push(Span::styled("· score ↓ ", theme.dim));
    Line::from(title)
}

fn results_footer(o: &Opened, loading: bool, theme: &Theme) -> Option<Line<'static>> {
    let w = &o.window;
    let total = w.total.unwrap_or(0);
    if total == 0 {
        return None;
    }
    let mut spans = vec![Span::styled(
        format!(
            " {} of {} ",
            format::count((w.table.selected + 1) as u64),
            format::count(total as u64)
        ),
        theme.dim,
    )];
    if loading {
        spans.push(Span::styled("loading… ", theme.info));
    }
    Some(Line::from(spans))
}

fn results_empty(m: &Model, o: &Opened) -> String {
    let k = |a| m.keymap.key_label(a);
    let w = &o.window;
    match (w.loaded(), &w.error) {
        (false, e) => placeholder(m, "results", e.as_ref()),
        (true, _) if !o.filter.is_empty() => format!(
            "Nothing matches this filter — {} removes the last chip, {} edits it",
            k(Action::RemoveChip),
            k(Action::Filter)
        ),
        (true, _) if o.latest_run.as_ref().is_some_and(|r| r.status.is_live()) => {
            "No results yet — they appear here as the run stores them".into()
        }
        (true, _) => format!("No results yet — {} runs the search", k(Action::RunSearch)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cap is said as the service's `maxResults`, never as a bound
    /// of the stored count beside it.
    #[test]
    fn the_funnel_names_max_results_as_its_own_figure() {
        let d = QueryDiagnostics {
            query: "vp sales".into(),
            stored: 250,
            max_results: 50,
            ..QueryDiagnostics::default()
        };
        let theme = Theme::new(crate::config::ThemeName::Default);
        let line = funnel_row(&d, 8, &[3, 3, 3, 3, 3, 3], &theme);
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(text.contains("250  max results 50"), "{text}");
        assert!(!text.contains("of max"), "{text}");
    }
}
