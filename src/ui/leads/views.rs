//! The searches list, the open search (run panel, chips, results) and a
//! result's detail.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::super::theme::Theme;
use super::super::widgets::{json_tree, vtable};
use crate::api::model::{LatestRun, LeadResult, RunStatus, SearchKind};
use crate::app::Model;
use crate::app::leads::detail::Tab;
use crate::app::leads::layout::{
    WIDE, chip_spans, compact_run, detail_areas, diagnostics_cap, lead_panel, lead_text_area,
    search_areas, searches_area,
};
use crate::app::leads::{View, result_name};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use vtable::{Column, TableSpec};

fn t(s: &str) -> String {
    DisplayText::inline(s).into_string()
}

fn bordered<'a>(title: Line<'a>, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(title)
}

/// The searches.
pub fn searches(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let l = &m.panes.leads.list;
    let registry = l.registry;
    let mut cols = vec![
        Column::new("Title", 20, u16::MAX),
        Column::new("Kind", 6, 9).optional(2),
        Column::num("Leads", 5, 8),
        Column::num("Results", 7, 9).optional(4),
        Column::num("Contacted", 9, 9).optional(3),
        Column::new("Last run", 8, 10),
        Column::new("Updated", 7, 16).optional(1),
    ];
    if registry {
        cols.push(Column::new("From", 6, 8));
    }
    let rows = &l.rows;
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(r) = rows.get(i) else {
            return Vec::new();
        };
        let s = &r.search;
        let title = if s.title.is_empty() {
            Span::styled(t(&s.search_id), theme.dim)
        } else {
            Span::raw(t(&s.title))
        };
        let known = r.loaded && r.error.is_none();
        let num = |n: u64| {
            if known {
                Span::raw(format::count(n))
            } else {
                Span::styled("…", theme.dim)
            }
        };
        let run = match (&r.error, &r.run) {
            (Some(_), _) if r.gone => Span::styled("not found", theme.err),
            (Some(_), _) => Span::styled("unknown", theme.warn),
            (None, Some(st)) => Span::styled(t(st.as_str()), theme.run_status(st)),
            (None, None) if r.loaded && s.last_run_id.is_none() => Span::styled("never", theme.dim),
            _ => Span::styled("…", theme.dim),
        };
        let kind = match &s.kind {
            SearchKind::Other(k) if k.is_empty() || !known => Span::styled("…", theme.dim),
            k => Span::styled(t(k.as_str()), theme.dim),
        };
        let mut cells = vec![
            title,
            kind,
            num(s.lead_count),
            num(s.result_count),
            num(s.contacted_count),
            run,
            Span::styled(
                if known {
                    format::ago(&s.updated_at, m.clock)
                } else {
                    "…".into()
                },
                theme.dim,
            ),
        ];
        if registry {
            cells.push(Span::styled(t(&r.source), theme.dim));
        }
        cells
    };
    let mut title = vec![Span::styled(
        format!(" Lead Finder searches ({}) ", rows.len()),
        theme.title,
    )];
    if registry {
        title.push(Span::styled(
            " local registry: ids created here, pasted with :open search, or seen in run-all ",
            theme.info,
        ));
    }
    let empty = match (l.loaded, &l.error) {
        (false, Some(e)) => format!("could not load searches: {} — r retries", t(e)),
        (false, None) => "loading searches…".into(),
        (true, _) if registry => {
            "No searches known yet — n creates one, :open search <id> opens one by id".into()
        }
        (true, _) => "No searches yet — n creates one".into(),
    };
    let running = rows
        .iter()
        .filter(|r| r.error.is_none() && r.run.as_ref().is_some_and(RunStatus::is_live))
        .count();
    let footer = (running > 0).then(|| {
        Line::from(Span::styled(
            format!(
                " {running} running · status refreshed every {} ",
                format::duration(m.poll.run)
            ),
            theme.info,
        ))
    });
    vtable::render(
        f,
        searches_area(body),
        TableSpec {
            title: Line::from(title),
            columns: &cols,
            state: &l.table,
            row: &row,
            marked: None,
            footer,
            empty: &empty,
            focused: m.panes.leads.dialog.is_none(),
        },
        theme,
    );
}

fn run_status_line(m: &Model, run: Option<&LatestRun>, theme: &Theme) -> Vec<Span<'static>> {
    let o = m.panes.leads.open.as_ref();
    let mut spans = Vec::new();
    match run {
        Some(r) if let Some(why) = o.and_then(|o| o.watch_lost.as_deref()) => {
            // Not watched any more: the last status known, marked as such,
            // and why, first (the line may be cut on the right).
            spans.push(Span::styled(
                format!("? {}", t(r.status.as_str())),
                theme.dim,
            ));
            spans.push(Span::styled(
                format!(" · status unknown — {} · r retries", t(why)),
                theme.err,
            ));
        }
        Some(r) => {
            let live = r.status.is_live();
            spans.push(Span::styled(
                format!("{} {}", if live { "◐" } else { "●" }, t(r.status.as_str())),
                theme.run_status(&r.status),
            ));
            let when = if r.updated_at.is_empty() {
                &r.created_at
            } else {
                &r.updated_at
            };
            spans.push(Span::styled(
                format!(" · run {}", short_ago(when, m.clock)),
                theme.dim,
            ));
        }
        None => spans.push(Span::styled("never run — R runs it", theme.dim)),
    }
    if let Some(o) = o {
        let s = &o.search;
        spans.push(Span::styled(
            format!(
                " · {} results · {} leads · {} contacted",
                format::count(s.result_count),
                format::count(s.lead_count),
                format::count(s.contacted_count)
            ),
            theme.text,
        ));
    }
    let lost = o.is_some_and(|o| o.watch_lost.is_some());
    if let Some(r) = run
        && r.status.is_live()
        && !lost
    {
        spans.push(Span::styled(
            format!(" · watching every {}", format::duration(m.poll.run)),
            theme.info,
        ));
    }
    spans
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
    if m.panes.leads.starting.contains(&s.search_id) {
        title.push(Span::styled(" starting run… ", theme.info));
    }
    let run = o.latest_run.as_ref();
    let mut lines = vec![Line::from(run_status_line(m, run, theme))];
    let inner_w = area.width.saturating_sub(2) as usize;
    if let Some(r) = run
        && compact_run(m.layout().body)
    {
        let diags: Vec<_> = r
            .source_status
            .iter()
            .flat_map(|s| s.query_diagnostics.iter())
            .collect();
        if !diags.is_empty() {
            // Numbers from the service: summed saturating (any u64 arrives).
            let sum = |f: fn(&crate::api::model::QueryDiagnostics) -> u64| {
                format::count(diags.iter().fold(0u64, |a, d| a.saturating_add(f(d))))
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{} queries: ", diags.len()), theme.dim),
                Span::raw(format!(
                    "{} → {} → {} → {} → {} → ",
                    sum(|d| d.fetched),
                    sum(|d| d.normalized),
                    sum(|d| d.ranked),
                    sum(|d| d.lead_extracted),
                    sum(|d| d.quality_kept)
                )),
                Span::styled(format!("{} stored", sum(|d| d.stored)), theme.ok),
            ]));
        }
    } else if let Some(r) = run {
        if !r.source_status.is_empty() {
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
            lines.push(Line::from(spans));
        }
        let diags: Vec<_> = r
            .source_status
            .iter()
            .flat_map(|s| s.query_diagnostics.iter())
            .collect();
        if !diags.is_empty() {
            // Funnel columns: the widest number per stage decides.
            const STAGES: [&str; 6] = [
                "fetched",
                "normalized",
                "ranked",
                "lead extracted",
                "quality kept",
                "stored",
            ];
            let short: [&str; 6] = ["fetch", "norm", "rank", "lead", "kept", "stored"];
            let nums = |d: &crate::api::model::QueryDiagnostics| {
                [
                    d.fetched,
                    d.normalized,
                    d.ranked,
                    d.lead_extracted,
                    d.quality_kept,
                    d.stored,
                ]
            };
            let funnel_w = |labels: &[&str; 6]| -> Vec<usize> {
                (0..6)
                    .map(|i| {
                        diags
                            .iter()
                            .map(|d| format::count(nums(d)[i]).len())
                            .max()
                            .unwrap_or(1)
                            .max(labels[i].chars().count())
                    })
                    .collect()
            };
            let mut labels = STAGES;
            let mut widths = funnel_w(&labels);
            let total = |w: &[usize]| w.iter().sum::<usize>() + 3 * 5;
            if total(&widths) + 16 > inner_w {
                labels = short;
                widths = funnel_w(&labels);
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
            lines.push(Line::from(header));
            let cap = diagnostics_cap(m.layout().body);
            for (n, d) in diags.iter().enumerate() {
                if n + 1 == cap && diags.len() > cap && cap > 1 {
                    lines.push(Line::from(Span::styled(
                        format!("… and {} more queries", diags.len() - n),
                        theme.dim,
                    )));
                    break;
                }
                if n >= cap {
                    break;
                }
                let q: String = t(&d.query).chars().take(query_w).collect();
                let mut row = vec![Span::raw(format!("{q:<query_w$}  "))];
                for (i, v) in nums(d).iter().enumerate() {
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
                    row.push(Span::styled(
                        format!("  of max {}", format::count(d.max_results)),
                        theme.dim,
                    ));
                }
                lines.push(Line::from(row));
            }
        }
        if !r.errors.is_empty() {
            let text: Vec<String> = r
                .errors
                .iter()
                .map(|e| format!("{} {}: {}", t(&e.source_id), t(&e.code), t(&e.error)))
                .collect();
            lines.push(Line::from(Span::styled(
                format!("errors: {}", text.join(" · ")),
                theme.err,
            )));
        }
    }
    f.render_widget(
        Paragraph::new(lines).block(bordered(Line::from(title), theme)),
        area,
    );
}

fn chips_line(m: &Model, f: &mut Frame, area: Rect, theme: &Theme) {
    let Some(o) = m.panes.leads.open.as_ref() else {
        return;
    };
    let mut spans = vec![Span::styled(" Filter: ", theme.header)];
    let chips = chip_spans(&m.panes.leads, area);
    if chips.is_empty() {
        spans.push(Span::styled("none — / builds one", theme.dim));
    }
    for (_, _, _, text) in chips {
        spans.push(Span::styled(text, theme.key));
        spans.push(Span::raw(" "));
    }
    let n = o.marks.count();
    let right = if n > 0 {
        let what = if o.marks.all.is_some() {
            format!("● {} selected (all matching) ", format::count(n as u64))
        } else {
            format!("● {} selected ", format::count(n as u64))
        };
        Some(Span::styled(what, theme.marked))
    } else {
        None
    };
    f.render_widget(Paragraph::new(Line::from(spans)), area);
    if let Some(r) = right {
        let w = r.width() as u16;
        if area.width > w + 20 {
            f.render_widget(
                Paragraph::new(Line::from(r)),
                Rect {
                    x: area.x + area.width - w,
                    width: w,
                    ..area
                },
            );
        }
    }
}

/// "5m ago", or `MM-DD HH:MM` when older than a month or ahead of the
/// local clock (the demo's simulated time runs ahead).
fn short_ago(ts: &str, clock: i64) -> String {
    let text = format::ago(ts, clock);
    if text.len() == 16 && text.as_bytes().get(4) == Some(&b'-') {
        text[5..].to_owned()
    } else {
        text
    }
}

fn score(r: &LeadResult) -> String {
    format!("{:.2}", r.score)
}

/// The open search.
pub fn search(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let a = search_areas(body, &m.panes.leads);
    run_panel(m, f, a.run, theme);
    chips_line(m, f, a.chips, theme);
    let Some(o) = m.panes.leads.open.as_ref() else {
        return;
    };
    let w = &o.window;
    const COLS: [Column; 7] = [
        Column::num("Score", 5, 5),
        Column::new("Tier", 4, 10).optional(3),
        Column::new("Name", 8, 26),
        Column::new("Title", 8, u16::MAX),
        Column::new("Company", 8, 26),
        Column::new("Status", 6, 12).optional(2),
        Column::new("When", 6, 11).optional(1),
    ];
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(r) = w.row(i) else {
            return vec![Span::styled("…", theme.dim)];
        };
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
        let when = if r.created_at.is_empty() {
            &r.occurred_at
        } else {
            &r.created_at
        };
        vec![
            Span::raw(score(r)),
            Span::styled(t(&r.quality_tier), tier_style),
            Span::raw(t(&result_name(r))),
            Span::raw(t(&c.title)),
            Span::raw(t(company)),
            Span::styled(t(&r.status), theme.dim),
            Span::styled(short_ago(when, m.clock), theme.dim),
        ]
    };
    let marked = |i: usize| w.row(i).is_some_and(|r| o.marks.is_marked(&r.result_id));
    let total = w.total.unwrap_or(0);
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
    let loading = !w.pending.is_empty();
    let footer = if total > 0 {
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
    } else {
        None
    };
    let empty = match (w.loaded(), &w.error) {
        (false, Some(e)) => format!("could not load results: {} — r retries", t(e)),
        (false, None) => "loading results…".into(),
        (true, _) if !o.filter.is_empty() => {
            "Nothing matches this filter — x removes the last chip, / edits it".into()
        }
        (true, _) if o.latest_run.as_ref().is_some_and(|r| r.status.is_live()) => {
            "No results yet — they appear here as the run stores them".into()
        }
        (true, _) => "No results yet — R runs the search".into(),
    };
    vtable::render(
        f,
        a.table,
        TableSpec {
            title: Line::from(title),
            columns: &COLS,
            state: &w.table,
            row: &row,
            marked: Some(&marked),
            footer,
            empty: &empty,
            focused: m.panes.leads.dialog.is_none() && m.panes.leads.view == View::Search,
        },
        theme,
    );
}

fn labelled(label: &str, value: String, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{label}: "), theme.header),
        Span::raw(value),
    ])
}

/// The Lead part: the whole lead, scrolled (`lead_scroll`).
fn lead_part(
    m: &Model,
    f: &mut Frame,
    body: Rect,
    r: &LeadResult,
    tabs: Vec<Span<'static>>,
    theme: &Theme,
) {
    let scroll = m.panes.leads.detail.as_ref().map_or(0, |d| d.lead_scroll);
    let panel = lead_panel(body);
    let inner = lead_text_area(body);
    let all = super::lead_lines(r, m.clock, inner.width, theme);
    let n = all.len();
    let vp = usize::from(inner.height).max(1);
    let first = scroll.min(n.saturating_sub(vp));
    let shown: Vec<Line> = all.into_iter().skip(first).take(vp).collect();
    let mut block = bordered(Line::from(tabs), theme);
    if n > vp {
        block = block.title_bottom(Line::from(Span::styled(
            format!(
                " lines {}–{} of {n} · {}/{} scroll ",
                first + 1,
                (first + vp).min(n),
                m.keymap.key_label(crate::config::keymap::Action::Down),
                m.keymap.key_label(crate::config::keymap::Action::Up),
            ),
            theme.dim,
        )));
    }
    f.render_widget(Clear, panel);
    f.render_widget(Paragraph::new(shown).block(block), panel);
}

/// A result's detail.
pub fn detail(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let Some(d) = m.panes.leads.detail.as_ref() else {
        return;
    };
    let (lead_area, panel) = detail_areas(body);
    let r = &d.result;
    let mut tabs = vec![Span::raw(" ")];
    for tab in Tab::ALL {
        let style = if tab == d.tab {
            theme.tab_active
        } else {
            theme.dim
        };
        tabs.push(Span::styled(format!(" {} ", tab.label()), style));
        tabs.push(Span::raw(" "));
    }
    if d.tab == Tab::Lead {
        lead_part(m, f, body, r, tabs.clone(), theme);
        if body.width < WIDE {
            return;
        }
    }
    let c = r.canonical_lead.clone().unwrap_or_default();
    let name = result_name(r);
    let marked = m
        .panes
        .leads
        .open
        .as_ref()
        .is_some_and(|o| o.marks.is_marked(&r.result_id));
    let mut head = vec![Span::styled(t(&name), theme.title)];
    if !c.title.is_empty() {
        head.push(Span::raw(format!(" · {}", t(&c.title))));
    }
    let company = if c.company.is_empty() {
        r.entity_company.clone()
    } else {
        c.company.clone()
    };
    if !company.is_empty() {
        head.push(Span::raw(format!(" @ {}", t(&company))));
    }
    if !c.company_domain.is_empty() {
        head.push(Span::styled(
            format!(" ({})", t(&c.company_domain)),
            theme.dim,
        ));
    }
    let or_dash = |s: &str| if s.is_empty() { "—".to_owned() } else { t(s) };
    let mut score_line = vec![
        Span::styled(format!("score {} ", score(r)), theme.text),
        Span::styled(t(&r.quality_tier), theme.ok),
        Span::styled(
            format!(
                " · {} · found {}",
                or_dash(&r.status),
                short_ago(&r.created_at, m.clock)
            ),
            theme.dim,
        ),
    ];
    if !r.query.is_empty() {
        score_line.push(Span::styled(
            format!(" · query \"{}\"", t(&r.query)),
            theme.dim,
        ));
    }
    if marked {
        score_line.push(Span::styled("  ● selected", theme.marked));
    }
    let mut lines = vec![
        Line::from(head),
        Line::from(score_line),
        labelled("email", or_dash(&c.email), theme),
        labelled("network", or_dash(&c.network_url), theme),
        labelled("link", or_dash(&r.search_url), theme),
        labelled("search reason", or_dash(&r.search_reason), theme),
        labelled("signal reason", or_dash(&r.signal_reason), theme),
    ];
    if !r.title.is_empty() {
        lines.push(labelled("post", t(&r.title), theme));
    }
    if !r.content.is_empty() {
        let body_text = DisplayText::block(&r.content);
        let mut content = body_text.as_str().lines();
        lines.push(labelled(
            "content",
            content.next().unwrap_or("").to_owned(),
            theme,
        ));
        for l in content.take(12) {
            lines.push(Line::from(l.to_owned()));
        }
    }
    let mut block = bordered(Line::from(Span::styled(" Lead ", theme.title)), theme);
    if d.tab != Tab::Lead {
        // The summary can be cut (a small screen, a long post): say where
        // all of it is.
        block = block.title_bottom(Line::from(Span::styled(
            format!(
                " all of it: the Lead part ({}) ",
                m.keymap
                    .key_label(crate::config::keymap::Action::PrevSection)
            ),
            theme.dim,
        )));
    }
    f.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        lead_area,
    );

    // The enrichment panel: tabs in the title, truncation in the footer.
    if d.tab == Tab::Lead {
        return;
    }
    let Some(e) = &d.enrichment else {
        let text = match (&d.error, d.pending) {
            (Some(err), _) => format!("could not load the enrichment: {} — r retries", t(err)),
            _ => "loading the enrichment profile…".into(),
        };
        f.render_widget(
            Paragraph::new(Span::styled(text, theme.dim)).block(bordered(Line::from(tabs), theme)),
            panel,
        );
        return;
    };
    let p = &e.enrichment_profile;
    let trunc = if p.truncation.truncated {
        let why: Vec<String> = p.truncation.reasons.iter().map(|r| t(r)).collect();
        Span::styled(
            format!(
                " truncated: {} ",
                if why.is_empty() {
                    "no reason given".to_owned()
                } else {
                    why.join("; ")
                }
            ),
            theme.warn,
        )
    } else {
        Span::styled(" complete profile ", theme.dim)
    };
    let meta = Span::styled(
        format!(
            " {} · schema {} · observed {} ",
            or_dash(&p.provider),
            p.schema_version,
            format::ago(&p.observed_at, m.clock)
        ),
        theme.dim,
    );
    match d.tab {
        Tab::Person | Tab::Company => {
            let tree = if d.tab == Tab::Person {
                &d.person
            } else {
                &d.company
            };
            let mut title = tabs;
            title.push(trunc);
            json_tree::render(f, panel, tree, Line::from(title), true, theme);
            let footer = Rect {
                y: panel.y + panel.height.saturating_sub(1),
                x: panel.x + 2,
                width: panel.width.saturating_sub(4).min(meta.width() as u16),
                height: 1.min(panel.height),
            };
            f.render_widget(Paragraph::new(Line::from(meta)), footer);
        }
        Tab::Lead => {}
        Tab::Fields => {
            let results = m
                .panes
                .leads
                .open
                .as_ref()
                .map_or(0, |o| o.search.result_count);
            const COLS: [Column; 5] = [
                Column::new("Field", 8, 28),
                Column::new("Path", 8, u16::MAX),
                Column::new("Type", 6, 8),
                Column::new("Operators", 9, 26),
                Column::num("Coverage", 8, 16),
            ];
            let fields = &e.fields;
            let row = |i: usize| -> Vec<Span<'static>> {
                let Some(fd) = fields.get(i) else {
                    return Vec::new();
                };
                let ops: Vec<&str> = fd.operators.iter().map(|o| o.as_str()).collect();
                let cov = match fd.coverage_count.saturating_mul(100).checked_div(results) {
                    Some(pct) => {
                        format!("{} ({}%)", format::count(fd.coverage_count), pct.min(100))
                    }
                    None => format::count(fd.coverage_count),
                };
                vec![
                    Span::raw(t(&fd.label)),
                    Span::styled(t(&fd.path), theme.dim),
                    Span::styled(t(fd.value_type.as_str()), theme.info),
                    Span::raw(t(&ops.join(" "))),
                    Span::raw(cov),
                ]
            };
            let mut title = tabs;
            title.push(trunc);
            vtable::render(
                f,
                panel,
                TableSpec {
                    title: Line::from(title),
                    columns: &COLS,
                    state: &d.fields,
                    row: &row,
                    marked: None,
                    footer: Some(Line::from(Span::styled(
                        " fields the filter (/) can use; coverage = results that have a value ",
                        theme.dim,
                    ))),
                    empty: "the service listed no fields",
                    focused: true,
                },
                theme,
            );
        }
    }
}
