//! A Lead Finder search's results as both front ends read them: the filter
//! over them, a result's name and company, and how far a reported total is
//! believed.

use crate::api::model::{LeadResult, Predicate, ResultsQuery, Sort};

/// The most rows a reported `pagination.total` is believed to stand for:
/// 50,000,000 (a hundred times the biggest search the service is known to
/// hold). A larger total (a broken or hostile service can send `1e19`) is
/// taken as this many; `hasMore` and the rows themselves still decide where
/// the list really ends.
pub(crate) const MAX_TOTAL: usize = 50_000_000;

/// A total the service reported, capped at [`MAX_TOTAL`].
pub(crate) fn capped_total(total: u64) -> usize {
    usize::try_from(total).unwrap_or(usize::MAX).min(MAX_TOTAL)
}

/// The filter over a search's results: free text and predicates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Free text (`q`).
    pub q: String,
    /// Up to five predicates over enrichment paths.
    pub predicates: Vec<Predicate>,
}

impl Filter {
    /// Whether nothing filters.
    pub fn is_empty(&self) -> bool {
        self.q.trim().is_empty() && self.predicates.is_empty()
    }

    /// The results-query body for a page.
    pub fn query(&self, cursor: Option<String>, limit: u64) -> ResultsQuery {
        ResultsQuery {
            q: (!self.q.trim().is_empty()).then(|| self.q.trim().to_owned()),
            predicates: self.predicates.clone(),
            sort: Some(Sort::ScoreDesc),
            cursor,
            limit: Some(limit),
        }
    }
}

/// A result's name: its lead's, else the person the search matched.
pub(crate) fn result_name(r: &LeadResult) -> String {
    r.canonical_lead
        .as_ref()
        .map(|c| c.name.trim())
        .filter(|n| !n.is_empty())
        .unwrap_or(r.entity_person.trim())
        .to_owned()
}

/// A result's company: its lead's, else the company the search matched.
pub(crate) fn result_company(r: &LeadResult) -> &str {
    match r.canonical_lead.as_ref().map(|c| c.company.as_str()) {
        Some(c) if !c.trim().is_empty() => c,
        _ => &r.entity_company,
    }
}
