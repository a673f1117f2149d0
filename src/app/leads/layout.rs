//! The Leads pane's geometry, shared by drawing and by `update` (page
//! sizes, scroll bounds, mouse hit-testing): computed from sizes and the
//! pane's state alone, never from styles.

use crate::api::model::LeadResult;
use crate::geometry::{Rect, split_left, split_top, table};
use crate::text::format;
use crate::text::sanitize::DisplayText;
use crate::text::wrap::wrap;

use super::LeadsModel;

/// Width from which the result detail puts the lead and the enrichment side
/// by side.
pub(crate) const WIDE: u16 = 140;

/// Width of the body from which the tables show further columns (results:
/// location, seniority, email; searches: created, intent).
pub const WIDE_TABLE: u16 = 160;

/// The list of searches fills the body.
pub(crate) fn searches_area(body: Rect) -> Rect {
    body
}

/// Rows of the searches list on screen.
pub fn searches_viewport(body: Rect) -> usize {
    table::viewport(searches_area(body))
}

/// Where the parts of the search view go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SearchAreas {
    /// Run status, sources and the diagnostics funnel.
    pub run: Rect,
    /// The filter chips and the selection.
    pub chips: Rect,
    /// The results table.
    pub table: Rect,
}

impl SearchAreas {
    /// Result rows on screen.
    pub(crate) fn viewport(&self) -> usize {
        table::viewport(self.table)
    }
}

/// Diagnostics rows shown at most for a body height.
pub(crate) fn diagnostics_cap(body: Rect) -> usize {
    match body.height {
        0..=17 => 1,
        18..=29 => 3,
        30..=39 => 6,
        _ => 12,
    }
}

/// Short screens show the run as two lines: status, and the funnel summed
/// over the queries.
pub(crate) fn compact_run(body: Rect) -> bool {
    body.height < 18
}

/// Lines inside the run panel.
fn run_lines(body: Rect, leads: &LeadsModel) -> u16 {
    let Some(o) = &leads.open else {
        return 1;
    };
    let Some(run) = &o.latest_run else {
        return 1;
    };
    let diag: usize = run
        .source_status
        .iter()
        .map(|s| s.query_diagnostics.len())
        .sum();
    if compact_run(body) {
        return 1 + u16::from(diag > 0);
    }
    let mut lines = 1;
    if !run.source_status.is_empty() {
        lines += 1;
    }
    if diag > 0 {
        lines += 1 + diag.min(diagnostics_cap(body));
    }
    if !run.errors.is_empty() {
        lines += 1;
    }
    u16::try_from(lines).unwrap_or(u16::MAX)
}

/// The areas of the search view.
pub(crate) fn search_areas(body: Rect, leads: &LeadsModel) -> SearchAreas {
    let run_h = (run_lines(body, leads) + 2).min(body.height / 2);
    let chips_h = 1.min(body.height.saturating_sub(run_h));
    SearchAreas {
        run: Rect {
            height: run_h,
            ..body
        },
        chips: Rect {
            y: body.y + run_h,
            height: chips_h,
            ..body
        },
        table: Rect {
            y: body.y + run_h + chips_h,
            height: body.height.saturating_sub(run_h + chips_h),
            ..body
        },
    }
}

/// Result rows on screen.
pub fn results_viewport(body: Rect, leads: &LeadsModel) -> usize {
    search_areas(body, leads).viewport()
}

/// Where the parts of the result detail go: the lead, and the enrichment
/// panel.
pub(crate) fn detail_areas(body: Rect) -> (Rect, Rect) {
    if body.width >= WIDE {
        split_left(body, body.width * 9 / 20)
    } else {
        split_top(body, 11.min(body.height / 2))
    }
}

/// Rows of the enrichment panel's list on screen.
pub(crate) fn detail_viewport(body: Rect) -> usize {
    table::viewport(detail_areas(body).1)
}

/// Where the Lead part goes: the panel beside the summary on a wide
/// screen; below [`WIDE`] the whole body (the summary would only repeat
/// the lead's first lines).
pub(crate) fn lead_panel(body: Rect) -> Rect {
    if body.width >= WIDE {
        detail_areas(body).1
    } else {
        body
    }
}

/// Where the Lead part's text goes (inside its border).
pub(crate) fn lead_text_area(body: Rect) -> Rect {
    let panel = lead_panel(body);
    Rect {
        x: panel.x.saturating_add(1),
        y: panel.y.saturating_add(1),
        width: panel.width.saturating_sub(2),
        height: panel.height.saturating_sub(2),
    }
}

/// Width of " Filter: ", before the chips.
const CHIPS_LABEL_W: u16 = 9;

/// The chip labels as drawn (`[label ×]`), with their columns.
pub(crate) fn chip_spans(leads: &LeadsModel, area: Rect) -> Vec<(usize, u16, u16, String)> {
    let Some(o) = &leads.open else {
        return Vec::new();
    };
    let mut x = area.x.saturating_add(CHIPS_LABEL_W);
    super::search::chips(o, leads.open_descriptors())
        .into_iter()
        .enumerate()
        .map(|(i, label)| {
            let text = format!("[{label} ×]");
            // Labels can come from the service: any length, so saturating.
            let w = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
            let span = (i, x, x.saturating_add(w), text);
            x = x.saturating_add(w).saturating_add(1);
            span
        })
        .collect()
}

/// The chip under a click, if any.
pub(crate) fn chip_at(leads: &LeadsModel, area: Rect, x: u16, y: u16) -> Option<usize> {
    if y != area.y || area.height == 0 {
        return None;
    }
    chip_spans(leads, area)
        .into_iter()
        .find(|(_, a, b, _)| (*a..*b).contains(&x) && *b <= area.x + area.width)
        .map(|(i, ..)| i)
}

/// How a part of the lead text looks (the view picks the style).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The lead's name line.
    Title,
    /// Secondary facts.
    Dim,
    /// Plain text.
    Text,
}

/// One labelled part of the lead text; an empty label starts no prefix, an
/// empty part is a blank line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LeadPart {
    /// `email`, `post`, … (`""` for none).
    pub label: &'static str,
    /// The text, already inert.
    pub text: String,
    /// Its look.
    pub role: Role,
}

/// The whole lead of a result: who (the canonical lead), why (search and
/// signal reasons), the post with all of its content, and the links. The
/// Lead part of the detail scrolls over these parts wrapped to its width.
pub(crate) fn lead_parts(r: &LeadResult, clock: i64) -> Vec<LeadPart> {
    let t = |s: &str| DisplayText::inline(s).into_string();
    let or_dash = |s: &str| {
        if s.trim().is_empty() {
            "—".to_owned()
        } else {
            t(s)
        }
    };
    let c = r.canonical_lead.clone().unwrap_or_default();
    let company = if c.company.trim().is_empty() {
        &r.entity_company
    } else {
        &c.company
    };
    let mut head = t(&super::result_name(r));
    if !c.title.is_empty() {
        head.push_str(&format!(" · {}", t(&c.title)));
    }
    if !company.is_empty() {
        head.push_str(&format!(" @ {}", t(company)));
    }
    if !c.company_domain.is_empty() {
        head.push_str(&format!(" ({})", t(&c.company_domain)));
    }
    let score = format!(
        "score {:.2} {} · {} · found {}",
        r.score,
        t(&r.quality_tier),
        or_dash(&r.status),
        format::ago(&r.created_at, clock)
    );
    let part = |label: &'static str, text: String, role: Role| LeadPart { label, text, role };
    let blank = || part("", String::new(), Role::Text);
    let mut parts = vec![
        part("", head, Role::Title),
        part("", score, Role::Dim),
        blank(),
        part("email", or_dash(&c.email), Role::Text),
        part("network", or_dash(&c.network_url), Role::Text),
        part("company", or_dash(company), Role::Text),
        part("query", or_dash(&r.query), Role::Text),
        part("occurred", format::date(&r.occurred_at), Role::Text),
        blank(),
        part("search reason", or_dash(&r.search_reason), Role::Text),
        part("signal reason", or_dash(&r.signal_reason), Role::Text),
        blank(),
        part("post", or_dash(&r.title), Role::Text),
    ];
    if !r.content.trim().is_empty() {
        parts.push(part("content", String::new(), Role::Text));
        for l in DisplayText::block(&r.content).as_str().lines() {
            parts.push(part("", l.to_owned(), Role::Text));
        }
    }
    parts.push(blank());
    parts.push(part("link", or_dash(&r.search_url), Role::Text));
    parts
}

/// One part wrapped to `width`: each line, and whether it starts with the
/// part's `label: ` prefix.
pub(crate) fn wrap_part(p: &LeadPart, width: u16) -> Vec<(bool, String)> {
    if p.label.is_empty() {
        return wrap(&p.text, width.into())
            .into_iter()
            .map(|l| (false, l))
            .collect();
    }
    let prefix = format!("{}: ", p.label);
    wrap(&format!("{prefix}{}", p.text), width.into())
        .into_iter()
        .enumerate()
        .map(|(i, l)| (i == 0 && l.starts_with(&prefix), l))
        .collect()
}

/// How many lines the lead text takes at `width`.
pub(crate) fn lead_line_count(r: &LeadResult, clock: i64, width: u16) -> usize {
    lead_parts(r, clock)
        .iter()
        .map(|p| wrap_part(p, width).len())
        .sum()
}
