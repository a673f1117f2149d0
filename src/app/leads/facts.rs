//! What the wide results table shows beyond the result itself: each lead's
//! location and seniority, from its enrichment profile. They are read only
//! while the wide table is on screen, for the rows in view, one at a time
//! on a slow timer (the service limits requests per second), and kept for
//! the open search; any enrichment read for another reason (the detail,
//! the filter's fields) fills them too.

use crate::app::ctx::Ctx;
use crate::app::requests::Requests;
use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;

use super::super::{ApiRequest, Cmd, Pane};
use super::{LeadsModel, Purpose, View, layout, send};
use crate::api::ApiError;
use crate::api::model::EnrichmentResponse;
use crate::geometry::Rect;

/// How often one more lead's profile is read while some in view lack one.
pub(crate) const EVERY: Duration = Duration::from_millis(150);
/// Leads whose facts are kept at most (a search may hold 100,000).
pub(crate) const MAX_KEPT: usize = 5_000;

/// A lead's location and seniority, as its profile gives them (empty when
/// it gives none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// "Berlin, DE".
    pub location: String,
    /// "head", "vp", "senior" …
    pub seniority: String,
    /// The profile could not be read.
    pub failed: bool,
}

/// The facts kept, by result id, for one search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FactsCache {
    /// The search they belong to.
    pub search: String,
    /// Facts by result id.
    pub by_result: BTreeMap<String, Facts>,
}

impl FactsCache {
    /// The facts of a result, when read.
    pub fn get(&self, result_id: &str) -> Option<&Facts> {
        self.by_result.get(result_id)
    }

    /// Keeps the facts of one result of `search` (a new search starts a
    /// new cache; the oldest ids go beyond [`MAX_KEPT`]).
    pub fn put(&mut self, search: &str, result_id: &str, facts: Facts) {
        if self.search != search {
            self.search = search.to_owned();
            self.by_result.clear();
        }
        self.by_result.insert(result_id.to_owned(), facts);
        while self.by_result.len() > MAX_KEPT {
            self.by_result.pop_first();
        }
    }
}

/// The first string found under `key` in `v`, searching objects down to a
/// few levels (profiles nest: `career.seniority`, `location.city`).
fn find<'a>(v: &'a Value, key: &str, depth: u8) -> Option<&'a Value> {
    let obj = v.as_object()?;
    if let Some(x) = obj.get(key) {
        return Some(x);
    }
    if depth == 0 {
        return None;
    }
    obj.values().find_map(|x| find(x, key, depth - 1))
}

/// Text of a scalar value.
fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Number(n) => Some(crate::text::format::number(n)),
        _ => None,
    }
}

impl Facts {
    /// The facts a person profile gives: `location` (a text, or an object
    /// whose city, region and country are joined) and `seniority`.
    pub fn from_person(person: &Value) -> Facts {
        let location = match find(person, "location", 2) {
            Some(Value::Object(o)) => ["city", "region", "state", "country"]
                .iter()
                .filter_map(|k| o.get(*k).and_then(scalar))
                .collect::<Vec<_>>()
                .join(", "),
            Some(v) => scalar(v).unwrap_or_default(),
            None => ["city", "country"]
                .iter()
                .filter_map(|k| find(person, k, 2).and_then(scalar))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let seniority = find(person, "seniority", 2)
            .and_then(scalar)
            .unwrap_or_default();
        Facts {
            location,
            seniority,
            failed: false,
        }
    }
}

/// Whether the wide results table is on screen (it shows the facts):
/// `shown`, the pane is shown; `body`, the pane's area.
pub(crate) fn wide_table_shown(leads: &LeadsModel, shown: bool, body: Rect) -> bool {
    shown
        && leads.view == View::Search
        && leads.dialog.is_none()
        && body.width >= layout::WIDE_TABLE
}

/// The first result in view whose facts are not read yet, with its search
/// (`None` when the wide table is not shown, or one is on its way); the
/// shell values as for [`wide_table_shown`].
pub fn wanted(
    l: &LeadsModel,
    shown: bool,
    body: Rect,
    requests: &Requests,
) -> Option<(String, String)> {
    if !wide_table_shown(l, shown, body)
        || requests.pending::<LeadsModel>(|p| matches!(p, Purpose::Facts(_)))
    {
        return None;
    }
    let o = l.open.as_ref()?;
    let vp = layout::results_viewport(body, l);
    let search = &o.search.search_id;
    let fresh = l.facts.search == *search;
    o.window
        .table
        .visible(vp)
        .filter_map(|i| o.window.row(i))
        .find(|r| !fresh || l.facts.get(&r.result_id).is_none())
        .map(|r| (search.clone(), r.result_id.clone()))
}

/// The timer fired: reads one more lead's profile.
pub fn fetch_next(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let shown = cx.is_shown(Pane::Leads);
    let Some((search, result)) = wanted(leads, shown, cx.layout().body, cx.requests) else {
        return Vec::new();
    };
    send(
        cx,
        Purpose::Facts(result.clone()),
        ApiRequest::Enrichment {
            id: search,
            result_id: result,
        },
    );
    Vec::new()
}

/// A profile read for its facts arrived.
pub(crate) fn on_facts(
    leads: &mut LeadsModel,
    result: &str,
    answer: Result<EnrichmentResponse, ApiError>,
) -> Vec<Cmd> {
    let Some(search) = leads.open_id().map(str::to_owned) else {
        return Vec::new();
    };
    let facts = match answer {
        Ok(e) => Facts::from_person(&e.enrichment_profile.person),
        // Not read again by the timer (it would hammer a failing service);
        // the cell says it is unknown.
        Err(_) => Facts {
            failed: true,
            ..Facts::default()
        },
    };
    leads.facts.put(&search, result, facts);
    Vec::new()
}

/// Keeps the facts of a profile read for another reason.
pub(crate) fn remember(leads: &mut LeadsModel, search: &str, result: &str, person: &Value) {
    leads.facts.put(search, result, Facts::from_person(person));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn location_and_seniority_come_from_nested_or_flat_profiles() {
        let nested = json!({
            "name": "Ana",
            "location": {"city": "Berlin", "country": "DE"},
            "career": {"seniority": "head"}
        });
        let f = Facts::from_person(&nested);
        assert_eq!(
            (f.location.as_str(), f.seniority.as_str()),
            ("Berlin, DE", "head")
        );
        let flat = json!({"location": "Lisbon", "seniority": "vp"});
        let f = Facts::from_person(&flat);
        assert_eq!(
            (f.location.as_str(), f.seniority.as_str()),
            ("Lisbon", "vp")
        );
        let zip = Facts::from_person(&json!({"location": {"city": 10115.0, "country": "DE"}}));
        assert_eq!(zip.location, "10115, DE", "a whole number as an integer");
        let none = Facts::from_person(&json!({"name": "Ben"}));
        assert_eq!(none, Facts::default());
    }

    #[test]
    fn the_cache_is_per_search_and_bounded() {
        let mut c = FactsCache::default();
        for i in 0..MAX_KEPT + 10 {
            c.put("s", &format!("r{i:06}"), Facts::default());
        }
        assert_eq!(c.by_result.len(), MAX_KEPT);
        c.put("t", "r1", Facts::default());
        assert_eq!(c.by_result.len(), 1);
    }
}
