//! A result's detail: the canonical lead, the reasons, content and links,
//! and its enrichment profile (person and company as trees, truncation, the
//! field descriptors with their coverage).

use super::super::json_tree::JsonTree;
use super::super::table::TableState;
use super::super::{ApiRequest, Cmd};
use super::layout;
use super::{LeadsModel, Purpose, View, in_flight, send, toast_error};
use crate::api::ApiError;
use crate::api::model::{EnrichmentResponse, LeadResult};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::requests::Requests;

/// The part shown in the detail's lower (or right) panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// The whole lead as a scrollable text: the canonical lead, the
    /// reasons, the post with all of its content, the links (the summary
    /// panel above cannot show it all on a small screen).
    Lead,
    /// The person profile.
    #[default]
    Person,
    /// The company profile.
    Company,
    /// The field descriptors with coverage.
    Fields,
}

impl Tab {
    /// Every tab in order.
    pub const ALL: [Tab; 4] = [Tab::Lead, Tab::Person, Tab::Company, Tab::Fields];

    /// Tab label.
    pub fn label(self) -> &'static str {
        match self {
            Tab::Lead => "Lead",
            Tab::Person => "Person",
            Tab::Company => "Company",
            Tab::Fields => "Fields",
        }
    }

    fn step(self, forward: bool) -> Tab {
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0);
        let n = Tab::ALL.len();
        Tab::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// The open result.
#[derive(Debug, Clone, Default)]
pub struct Detail {
    /// The result (a copy: its page may be evicted meanwhile).
    pub result: LeadResult,
    /// The search it belongs to.
    pub search_id: String,
    /// The part shown.
    pub tab: Tab,
    /// The enrichment answer (person and company live in the trees).
    pub enrichment: Option<EnrichmentResponse>,
    /// The person profile.
    pub person: JsonTree,
    /// The company profile.
    pub company: JsonTree,
    /// Selection over the field descriptors.
    pub fields: TableState,
    /// First line of the Lead part shown.
    pub lead_scroll: usize,
    /// Why the enrichment could not be read.
    pub error: Option<crate::api::ApiError>,
}

impl Detail {
    /// The selection of the tab shown (`None`: the Lead part, a text).
    fn table_mut(&mut self) -> Option<&mut TableState> {
        match self.tab {
            Tab::Lead => None,
            Tab::Person => Some(&mut self.person.table),
            Tab::Company => Some(&mut self.company.table),
            Tab::Fields => Some(&mut self.fields),
        }
    }

    /// Keeps every selection on screen.
    pub fn clamp(&mut self, viewport: usize) {
        self.person.table.clamp(viewport);
        self.company.table.clamp(viewport);
        self.fields.clamp(viewport);
    }
}

fn viewport(cx: &Ctx<'_>) -> usize {
    layout::detail_viewport(cx.layout().body)
}

/// Lines of the Lead part, and how many are on screen.
fn lead_extent(cx: &Ctx<'_>, r: &LeadResult) -> (usize, usize) {
    let area = layout::lead_text_area(cx.layout().body);
    let n = layout::lead_line_count(r, cx.clock, area.width);
    (n, usize::from(area.height).max(1))
}

/// Keeps the Lead part's scroll within its text (after a resize).
pub(crate) fn clamp_lead(d: &mut Detail, cx: &Ctx<'_>) {
    let (n, vp) = lead_extent(cx, &d.result);
    d.lead_scroll = d.lead_scroll.min(n.saturating_sub(vp));
}

/// Scrolls the Lead part.
fn scroll_lead(d: &mut Detail, cx: &Ctx<'_>, action: Action) {
    let (n, vp) = lead_extent(cx, &d.result);
    let max = n.saturating_sub(vp);
    let page = vp.saturating_sub(1).max(1);
    d.lead_scroll = match action {
        Action::Up => d.lead_scroll.saturating_sub(1),
        Action::Down => d.lead_scroll.saturating_add(1),
        Action::PageUp => d.lead_scroll.saturating_sub(page),
        Action::PageDown => d.lead_scroll.saturating_add(page),
        Action::Top => 0,
        Action::Bottom => max,
        _ => d.lead_scroll,
    }
    .min(max);
}

/// Opens the selected result of the open search on `tab`.
pub(crate) fn open(leads: &mut LeadsModel, cx: &mut Ctx<'_>, tab: Tab) -> Vec<Cmd> {
    let Some(o) = leads.open.as_ref() else {
        return Vec::new();
    };
    let Some(r) = o.window.selected().cloned() else {
        // Typed ahead of the page: open it when the row arrives.
        if let Some(o) = leads.open.as_mut()
            && o.window.total.is_some_and(|t| o.window.table.selected < t)
        {
            o.open_when_loaded = Some(tab);
        }
        return Vec::new();
    };
    let search_id = o.search.search_id.clone();
    if leads
        .detail
        .as_ref()
        .is_some_and(|d| d.result.result_id == r.result_id && d.error.is_none())
    {
        if let Some(d) = leads.detail.as_mut() {
            d.tab = tab;
        }
        leads.view = View::Detail;
        return Vec::new();
    }
    // The enrichment of the result shown before is not wanted.
    cx.requests
        .forget::<LeadsModel>(|p| matches!(p, Purpose::Enrichment(_)));
    leads.detail = Some(Detail {
        result: r,
        search_id,
        tab,
        ..Detail::default()
    });
    leads.view = View::Detail;
    fetch(leads, cx)
}

/// Whether the enrichment of `result` is on its way.
pub(crate) fn enrichment_pending(requests: &Requests, result: &str) -> bool {
    in_flight(
        requests,
        |p| matches!(p, Purpose::Enrichment(r) if r == result),
    )
}

fn fetch(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = leads.detail.as_ref() else {
        return Vec::new();
    };
    if enrichment_pending(cx.requests, &d.result.result_id) {
        return Vec::new();
    }
    let (search, result) = (d.search_id.clone(), d.result.result_id.clone());
    send(
        cx,
        Purpose::Enrichment(result.clone()),
        ApiRequest::Enrichment {
            id: search,
            result_id: result,
        },
    );
    if let Some(d) = leads.detail.as_mut() {
        d.error = None;
    }
    Vec::new()
}

/// The enrichment answer.
pub(crate) fn on_enrichment(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: &str,
    answer: Result<EnrichmentResponse, ApiError>,
) -> Vec<Cmd> {
    let vp = viewport(cx);
    let Some(d) = leads.detail.as_mut() else {
        return Vec::new();
    };
    if d.result.result_id != result {
        return Vec::new();
    }
    match answer {
        Ok(mut e) => {
            let facts = super::facts::Facts::from_person(&e.enrichment_profile.person);
            let person = std::mem::take(&mut e.enrichment_profile.person);
            let company = std::mem::take(&mut e.enrichment_profile.company);
            d.person = JsonTree::new(person);
            d.company = JsonTree::new(company);
            d.fields = TableState::default();
            d.fields.set_len(e.fields.len(), vp);
            d.clamp(vp);
            let search = d.search_id.clone();
            leads.facts.put(&search, result, facts);
            if !e.fields.is_empty() {
                leads.descriptors.insert(search, e.fields.clone());
            }
            if let Some(d) = leads.detail.as_mut() {
                d.enrichment = Some(e);
            }
        }
        Err(e) => {
            d.error = Some(e.clone());
            toast_error(cx, "loading the enrichment", &e);
        }
    }
    Vec::new()
}

/// A key action on the detail.
pub(crate) fn on_action(leads: &mut LeadsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = viewport(cx);
    let Some(d) = leads.detail.as_mut() else {
        leads.view = View::Search;
        return Vec::new();
    };
    let moves = matches!(
        action,
        Action::Up
            | Action::Down
            | Action::Top
            | Action::Bottom
            | Action::PageUp
            | Action::PageDown
    );
    if moves {
        match d.table_mut() {
            Some(t) => match action {
                Action::Up => t.move_by(-1, vp),
                Action::Down => t.move_by(1, vp),
                Action::Top => t.top(vp),
                Action::Bottom => t.bottom(vp),
                Action::PageUp => t.page_up(vp),
                _ => t.page_down(vp),
            },
            None => scroll_lead(d, cx, action),
        }
        return Vec::new();
    }
    match action {
        Action::Open => match d.tab {
            Tab::Person => d.person.toggle(vp),
            Tab::Company => d.company.toggle(vp),
            Tab::Lead | Tab::Fields => {}
        },
        Action::NextSection => d.tab = d.tab.step(true),
        Action::PrevSection => d.tab = d.tab.step(false),
        Action::Enrichment => d.tab = Tab::Fields,
        Action::Back => {
            leads.view = View::Search;
            return super::search::fetch_pages(leads, cx, false);
        }
        Action::Refresh => {
            // Read again: an answer still on its way is older than this.
            let result = d.result.result_id.clone();
            cx.requests
                .forget::<LeadsModel>(|p| *p == Purpose::Enrichment(result.clone()));
            return fetch(leads, cx);
        }
        Action::RunSearch => {
            let id = d.search_id.clone();
            return super::run::run(leads, cx, &id);
        }
        Action::ToggleMark => {
            let r = d.result.clone();
            if let Some(o) = leads.open.as_mut() {
                o.marks.toggle(&r);
            }
        }
        Action::AddToCampaign => return super::campaign::open(leads, cx),
        Action::Filter => return super::filter::open(leads, cx),
        _ => {}
    }
    Vec::new()
}
