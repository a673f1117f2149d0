//! A result's detail: the lead (a summary, or the whole of it scrolled in
//! the Lead part) and the enrichment panel (person and company trees, the
//! field descriptors with their coverage).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::super::theme::Theme;
use super::super::widgets::json_tree;
use super::super::widgets::placeholder;
use super::super::widgets::vtable::{self, Column, TableSpec};
use super::search::short_ago;
use super::{bordered, cells, t};
use crate::api::model::{EnrichmentProfile, EnrichmentResponse, LeadResult, Operator};
use crate::app::keymap::Action;
use crate::app::leads::detail::{Detail, Tab};
use crate::app::leads::layout::{WIDE, detail_areas, lead_panel, lead_text_area};
use crate::app::leads::result_name;
use crate::app::{Load, Model};
use crate::text::format;
use crate::text::sanitize::DisplayText;

fn or_dash(s: &str) -> String {
    if s.is_empty() { "—".to_owned() } else { t(s) }
}

fn labelled(label: &str, value: String, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{label}: "), theme.header),
        Span::raw(value),
    ])
}

/// The part tabs, the one shown highlighted.
fn tab_spans(d: &Detail, theme: &Theme) -> Vec<Span<'static>> {
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
    tabs
}

/// A result's detail.
pub(super) fn render(m: &Model, f: &mut Frame, body: Rect, theme: &Theme) {
    let Some(d) = m.panes.leads.detail.as_ref() else {
        return;
    };
    let (lead_area, panel) = detail_areas(body);
    let tabs = tab_spans(d, theme);
    if d.tab == Tab::Lead {
        lead_part(m, f, body, &d.result, tabs, theme);
        if body.width >= WIDE {
            summary(m, f, lead_area, d, theme);
        }
        return;
    }
    summary(m, f, lead_area, d, theme);
    enrichment_panel(m, f, panel, d, tabs, theme);
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
    let tabs = Line::from(tabs);
    let mut block = crate::ui::widgets::id_tag::on_block(
        super::frame(theme),
        panel,
        &tabs,
        &r.result_id,
        theme,
    )
    .title(tabs);
    if n > vp {
        block = block.title_bottom(Line::from(Span::styled(
            format!(
                " lines {}–{} of {n} · {}/{} scroll ",
                first + 1,
                (first + vp).min(n),
                m.keymap.key_label(Action::Down),
                m.keymap.key_label(Action::Up),
            ),
            theme.dim,
        )));
    }
    f.render_widget(Clear, panel);
    f.render_widget(Paragraph::new(shown).block(block), panel);
}

/// Name, title, company and domain.
fn head_line(r: &LeadResult, theme: &Theme) -> Line<'static> {
    let c = r.canonical_lead.clone().unwrap_or_default();
    let mut head = vec![Span::styled(t(&result_name(r)), theme.title)];
    if !c.title.is_empty() {
        head.push(Span::raw(format!(" · {}", t(&c.title))));
    }
    let company = if c.company.is_empty() {
        &r.entity_company
    } else {
        &c.company
    };
    if !company.is_empty() {
        head.push(Span::raw(format!(" @ {}", t(company))));
    }
    if !c.company_domain.is_empty() {
        head.push(Span::styled(
            format!(" ({})", t(&c.company_domain)),
            theme.dim,
        ));
    }
    Line::from(head)
}

/// Score, tier, status, when found, the query, and whether it is selected.
fn score_line(m: &Model, r: &LeadResult, theme: &Theme) -> Line<'static> {
    let marked = m
        .panes
        .leads
        .open
        .as_ref()
        .is_some_and(|o| o.marks.is_marked(&r.result_id));
    let mut spans = vec![
        Span::styled(format!("score {:.2} ", r.score), theme.text),
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
        spans.push(Span::styled(
            format!(" · query \"{}\"", t(&r.query)),
            theme.dim,
        ));
    }
    if marked {
        spans.push(Span::styled("  ● selected", theme.marked));
    }
    Line::from(spans)
}

/// The summary of the lead (cut on a small screen: its footer says where
/// all of it is).
fn summary(m: &Model, f: &mut Frame, area: Rect, d: &Detail, theme: &Theme) {
    let r = &d.result;
    let c = r.canonical_lead.clone().unwrap_or_default();
    let mut lines = vec![
        head_line(r, theme),
        score_line(m, r, theme),
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
        // The Lead part, when shown, carries the id itself.
        let title = Line::from(" Lead ");
        block = crate::ui::widgets::id_tag::on_block(block, area, &title, &r.result_id, theme);
        block = block.title_bottom(Line::from(Span::styled(
            format!(
                " all of it: the Lead part ({}) ",
                m.keymap.key_label(Action::PrevSection)
            ),
            theme.dim,
        )));
    }
    f.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

/// Whether the profile is complete, or why it was cut.
fn truncation(p: &EnrichmentProfile, theme: &Theme) -> Span<'static> {
    if !p.truncation.truncated {
        return Span::styled(" complete profile ", theme.dim);
    }
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
}

/// The enrichment panel: tabs in the title, truncation in the footer.
fn enrichment_panel(
    m: &Model,
    f: &mut Frame,
    panel: Rect,
    d: &Detail,
    tabs: Vec<Span<'static>>,
    theme: &Theme,
) {
    let Some(e) = &d.enrichment else {
        let p = m.placeholder(
            "the enrichment profile",
            crate::api::RouteFamily::LeadFinder,
            d.error.as_ref().map_or(Load::Pending, Load::Failed),
        );
        // Wrapped: its end says what to do.
        let lines = placeholder::lines(&p, panel.width.saturating_sub(2), theme);
        f.render_widget(
            Paragraph::new(lines).block(bordered(Line::from(tabs), theme)),
            panel,
        );
        return;
    };
    let mut title = tabs;
    title.push(truncation(&e.enrichment_profile, theme));
    match d.tab {
        Tab::Person | Tab::Company => profile(m, f, panel, d, e, Line::from(title), theme),
        Tab::Fields => fields(m, f, panel, d, e, Line::from(title), theme),
        Tab::Lead => {}
    }
}

/// The person or company profile as a tree, with where it came from.
fn profile(
    m: &Model,
    f: &mut Frame,
    panel: Rect,
    d: &Detail,
    e: &EnrichmentResponse,
    title: Line<'static>,
    theme: &Theme,
) {
    let p = &e.enrichment_profile;
    let tree = if d.tab == Tab::Person {
        &d.person
    } else {
        &d.company
    };
    json_tree::render(f, panel, tree, title, true, theme);
    let meta = Span::styled(
        format!(
            " {} · schema {} · observed {} ",
            or_dash(&p.provider),
            p.schema_version,
            format::ago(&p.observed_at, m.clock)
        ),
        theme.dim,
    );
    let footer = Rect {
        y: panel.y + panel.height.saturating_sub(1),
        x: panel.x + 2,
        width: panel.width.saturating_sub(4).min(cells(meta.width())),
        height: 1.min(panel.height),
    };
    f.render_widget(Paragraph::new(Line::from(meta)), footer);
}

/// The field descriptors with their coverage.
fn fields(
    m: &Model,
    f: &mut Frame,
    panel: Rect,
    d: &Detail,
    e: &EnrichmentResponse,
    title: Line<'static>,
    theme: &Theme,
) {
    const COLS: [Column; 5] = [
        Column::new("Field", 8, 28),
        Column::new("Path", 8, u16::MAX),
        Column::new("Type", 6, 8),
        Column::new("Operators", 9, 26),
        Column::num("Coverage", 8, 16),
    ];
    let results = m
        .panes
        .leads
        .open
        .as_ref()
        .map_or(0, |o| o.search.result_count);
    let fields = &e.fields;
    let row = |i: usize| -> Vec<Span<'static>> {
        let Some(fd) = fields.get(i) else {
            return Vec::new();
        };
        let ops: Vec<&str> = fd.operators.iter().map(Operator::as_str).collect();
        let cov = match fd.coverage_count.saturating_mul(100).checked_div(results) {
            Some(pct) => format!("{} ({}%)", format::count(fd.coverage_count), pct.min(100)),
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
    let footer = format!(
        " fields the filter ({}) can use; coverage = results that have a value ",
        m.keymap.key_label(Action::Filter)
    );
    vtable::render(
        f,
        panel,
        TableSpec {
            title,
            columns: &COLS,
            state: &d.fields,
            row: &row,
            marked: None,
            footer: Some(Line::from(Span::styled(footer, theme.dim))),
            empty: "the service listed no fields",
            focused: true,
        },
        theme,
    );
}
