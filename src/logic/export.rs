//! The export of a search's results, shared by the Leads pane's export (and
//! its "add every matching result to a campaign") and `outpost results`: a
//! walk over every page, filtered or not ([`Walk`], a state machine over
//! typed pages — each front end reads the pages its own way and feeds them
//! in), and the CSV's columns and records, cells a spreadsheet would run as
//! a formula neutralised.

use std::collections::HashSet;

use super::lead_field::LeadField;
use super::results::{Filter, capped_total, result_company, result_name};
use crate::api::model::{LeadResult, Pagination, ResultsQuery, SearchPageQuery};
use crate::text::sanitize::DisplayText;

/// Rows per page when reading an unfiltered list (the GET allows 500).
pub(crate) const GET_PAGE: u64 = 500;
/// Rows per page of the results query (at most 100).
pub(crate) const QUERY_PAGE: u64 = 100;

/// The columns of the CSV, in order. A result's lead fields are named as
/// a campaign lead's, so the file imports into a campaign as it is (the
/// import's guess takes `title` for the position).
pub const COLUMNS: [&str; 18] = [
    "result_id",
    "score",
    "quality_tier",
    LeadField::Name.name(),
    "title",
    LeadField::Company.name(),
    "company_domain",
    LeadField::Email.name(),
    LeadField::NetworkUrl.name(),
    "status",
    "created_at",
    "occurred_at",
    "query",
    "search_reason",
    "signal_reason",
    "search_url",
    "lead_id",
    "run_id",
];

/// The read a walk asks for next.
#[derive(Debug, Clone, PartialEq)]
pub enum PageRequest {
    /// A page of the search by offset (`GET /api/lead-finder/{id}`), when
    /// nothing filters.
    Search {
        /// The id of the search read.
        id: String,
        /// Its limit and offset.
        page: SearchPageQuery,
    },
    /// A page of the results query by cursor, when a filter applies.
    Query {
        /// The id of the search the results query runs on.
        id: String,
        /// The filter, cursor and limit.
        query: ResultsQuery,
    },
}

/// A page read: its rows and where the list goes on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The rows.
    pub results: Vec<LeadResult>,
    /// The total, whether there is more, and the next cursor.
    pub pagination: Pagination,
}

/// Reads every page of a search's results, filtered or not, in order.
///
/// A walk ends when the service says so (`hasMore: false`, or an empty
/// page), and also when the service goes round in circles: a page that
/// brings no row not read before, a cursor already followed, or more rows
/// read than the first reported total plus a margin ([`Walk::limit`]).
/// Why it stopped early is kept in [`Walk::stopped`] for the user.
#[derive(Debug, Clone, PartialEq)]
pub struct Walk {
    /// The id of the search whose results are walked.
    pub search: String,
    /// The filter (empty: every result, by offset).
    pub filter: Filter,
    /// Next offset (unfiltered).
    pub offset: u64,
    /// Next cursor (filtered).
    pub cursor: Option<String>,
    /// Every page was read.
    pub done: bool,
    /// Distinct rows taken so far.
    pub fetched: u64,
    /// Rows the service says there are.
    pub total: u64,
    /// Rows read, repeats included.
    pub read: u64,
    /// The total the first page reported (capped).
    pub first_total: Option<u64>,
    /// Result ids taken: a row read twice is taken once.
    pub seen: HashSet<String>,
    /// Cursors followed.
    pub cursors: HashSet<String>,
    /// Why the walk ended before the service said it was done.
    pub stopped: Option<String>,
}

impl Walk {
    /// A walk from the first page (`total`: the rows believed there, until
    /// a page says).
    pub fn new(search: &str, filter: &Filter, total: u64) -> Walk {
        Walk {
            search: search.to_owned(),
            filter: filter.clone(),
            offset: 0,
            cursor: None,
            done: false,
            fetched: 0,
            total,
            read: 0,
            first_total: None,
            seen: HashSet::new(),
            cursors: HashSet::new(),
            stopped: None,
        }
    }

    /// Rows the walk reads at most: the first reported total and a margin
    /// for a run still storing results (a tenth, at least 1,000).
    pub fn limit(&self) -> u64 {
        let first = self.first_total.unwrap_or(self.total);
        first.saturating_add((first / 10).max(1000))
    }

    /// The read of the next page.
    pub fn request(&self) -> PageRequest {
        if self.filter.is_empty() {
            PageRequest::Search {
                id: self.search.clone(),
                page: SearchPageQuery {
                    limit: Some(GET_PAGE),
                    offset: Some(self.offset),
                    cursor: None,
                },
            }
        } else {
            PageRequest::Query {
                id: self.search.clone(),
                query: self.filter.query(self.cursor.clone(), QUERY_PAGE),
            }
        }
    }

    /// Takes in a page and moves on; returns the rows not taken before.
    pub fn take(&mut self, page: Page) -> Vec<LeadResult> {
        let n = page.results.len();
        // Rows without an id cannot be told apart: each counts as new (the
        // limit still ends a walk of them).
        let fresh: Vec<LeadResult> = page
            .results
            .into_iter()
            .filter(|r| r.result_id.is_empty() || self.seen.insert(r.result_id.clone()))
            .collect();
        self.advance(n, fresh.len(), &page.pagination);
        fresh
    }

    fn stop(&mut self, why: String) {
        self.done = true;
        self.total = self.fetched;
        self.stopped = Some(why);
    }

    fn advance(&mut self, n: usize, fresh: usize, p: &Pagination) {
        let reported = capped_total(p.total) as u64;
        self.first_total.get_or_insert(reported);
        self.read = self.read.saturating_add(n as u64);
        self.fetched = self.fetched.saturating_add(fresh as u64);
        self.total = reported.max(self.fetched);
        if !p.has_more || n == 0 {
            self.done = true;
            self.total = self.fetched;
        } else if fresh == 0 {
            self.stop("the service sent rows already read again".into());
        } else if self.read > self.limit() {
            let first = crate::text::format::count(self.first_total.unwrap_or(0));
            self.stop(format!(
                "read {} where the service first reported {first}",
                crate::text::format::plural(self.read, "row", "rows")
            ));
        } else if self.filter.is_empty() {
            self.offset = self.offset.saturating_add(n as u64);
        } else {
            match &p.next_cursor {
                Some(c) => {
                    let c = c.to_text();
                    if self.cursors.insert(c.clone()) {
                        self.cursor = Some(c);
                    } else {
                        self.stop("the service's cursor led back to a page already read".into());
                    }
                }
                // Nothing to continue from: stop rather than loop.
                None => self.stop("the service said there is more but gave no cursor".into()),
            }
        }
    }
}

/// A cell as written: inert text (no escape sequences or bidi controls),
/// and a leading `'` when a spreadsheet would run it as a formula.
pub(crate) fn cell(raw: &str) -> String {
    let text = DisplayText::block(raw).into_string();
    neutralise(&text)
}

/// Prefixes `'` to text starting with `=`, `+`, `-`, `@`, tab or CR.
pub(crate) fn neutralise(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// The CSV record of a result, in [`COLUMNS`]' order.
pub(crate) fn record(r: &LeadResult) -> Vec<String> {
    let c = r.canonical_lead.clone().unwrap_or_default();
    let name = result_name(r);
    let mut out = vec![cell(&r.result_id), r.score.to_string()];
    out.extend(
        [
            &r.quality_tier,
            &name,
            &c.title,
            result_company(r),
            &c.company_domain,
            &c.email,
            &c.network_url,
            &r.status,
            &r.created_at,
            &r.occurred_at,
            &r.query,
            &r.search_reason,
            &r.signal_reason,
            &r.search_url,
            &r.lead_id,
            &r.run_id,
        ]
        .into_iter()
        .map(cell),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::model::{CanonicalLead, Cursor};

    #[test]
    fn formulas_are_neutralised_and_text_made_inert() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-2"), "'-2");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(neutralise("\tx"), "'\tx");
        assert_eq!(neutralise("\r=x"), "'\r=x");
        assert_eq!(cell("Ana\u{1b}[31m López"), "Ana López");
        assert_eq!(cell("plain, \"quoted\""), "plain, \"quoted\"");
    }

    fn result(id: &str) -> LeadResult {
        LeadResult {
            result_id: id.into(),
            entity_person: format!("Person {id}"),
            entity_company: "Matched Co".into(),
            canonical_lead: Some(CanonicalLead {
                title: "CTO".into(),
                company: "  ".into(),
                email: "=cmd@x.io".into(),
                ..CanonicalLead::default()
            }),
            ..LeadResult::default()
        }
    }

    fn page(ids: &[&str], total: u64, more: bool, cursor: Option<&str>) -> Page {
        Page {
            results: ids.iter().map(|id| result(id)).collect(),
            pagination: Pagination {
                total,
                has_more: more,
                next_cursor: cursor.map(|c| Cursor::Text(c.into())),
                ..Pagination::default()
            },
        }
    }

    #[test]
    fn a_record_holds_every_column_in_order() {
        let r = record(&result("r1"));
        assert_eq!(r.len(), COLUMNS.len());
        assert_eq!(
            r[3], "Person r1",
            "the person matched, the lead having no name"
        );
        assert_eq!(r[4], "CTO");
        assert_eq!(r[5], "Matched Co", "a blank company is the matched one");
        assert_eq!(r[7], "'=cmd@x.io");
    }

    /// An exported file imports into a campaign with no `--map`: its lead
    /// columns are guessed as the lead's fields, the rest kept as custom
    /// fields.
    #[test]
    fn an_export_imports_into_a_campaign_as_it_is() {
        use crate::logic::import::{Target, guess_all};
        let header: Vec<String> = COLUMNS.iter().map(|c| (*c).to_owned()).collect();
        let mapping = guess_all(&header);
        let field = |col: &str| mapping[COLUMNS.iter().position(|c| *c == col).unwrap()].clone();
        assert_eq!(field("name"), Target::Field(LeadField::Name));
        assert_eq!(field("title"), Target::Field(LeadField::Position));
        assert_eq!(field("company"), Target::Field(LeadField::Company));
        assert_eq!(field("email"), Target::Field(LeadField::Email));
        assert_eq!(field("network_url"), Target::Field(LeadField::NetworkUrl));
        assert_eq!(field("score"), Target::Custom("score".into()));
    }

    #[test]
    fn an_unfiltered_walk_goes_by_offset_and_takes_a_row_once() {
        let mut w = Walk::new("s1", &Filter::default(), 0);
        let PageRequest::Search { id, page: q } = w.request() else {
            panic!("a search page");
        };
        assert_eq!(
            (id.as_str(), q.offset, q.limit),
            ("s1", Some(0), Some(GET_PAGE))
        );
        let rows = w.take(page(&["a", "b"], 3, true, None));
        assert_eq!(rows.len(), 2);
        assert_eq!((w.offset, w.total, w.done), (2, 3, false));
        // A live run shifted the pages: "b" comes again, once.
        let rows = w.take(page(&["b", "c"], 3, false, None));
        assert_eq!(
            rows.iter()
                .map(|r| r.result_id.as_str())
                .collect::<Vec<_>>(),
            ["c"]
        );
        assert_eq!(
            (w.fetched, w.total, w.done, w.stopped.clone()),
            (3, 3, true, None)
        );
    }

    #[test]
    fn a_filtered_walk_follows_cursors_and_stops_going_round() {
        let filter = Filter {
            q: "cto".into(),
            predicates: Vec::new(),
        };
        let mut w = Walk::new("s1", &filter, 0);
        let PageRequest::Query { query, .. } = w.request() else {
            panic!("a query page");
        };
        assert_eq!(
            (query.q.as_deref(), query.limit),
            (Some("cto"), Some(QUERY_PAGE))
        );
        w.take(page(&["a"], 9, true, Some("c1")));
        let PageRequest::Query { query, .. } = w.request() else {
            panic!("a query page");
        };
        assert_eq!(query.cursor.as_deref(), Some("c1"));
        w.take(page(&["b"], 9, true, Some("c1")));
        assert!(w.done);
        assert_eq!(
            w.stopped.as_deref(),
            Some("the service's cursor led back to a page already read")
        );
        assert_eq!(w.total, 2, "the total is what was read");
        let mut w = Walk::new("s1", &filter, 0);
        w.take(page(&["a"], 9, true, None));
        assert_eq!(
            w.stopped.as_deref(),
            Some("the service said there is more but gave no cursor")
        );
    }
}
