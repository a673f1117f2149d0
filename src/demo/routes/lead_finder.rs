//! Lead Finder: searches, runs, results, the results query and enrichment.

use std::sync::Arc;

use axum::Extension;
use axum::body::Bytes;
use axum::extract::{RawQuery, State};

use super::{Body, Ids, to_usize, with};
use crate::api::model::*;
use crate::api::validate;
use crate::demo::App;
use crate::demo::auth::Ws;
use crate::demo::clock::iso;
use crate::demo::errors::{
    DemoResult, internal, invalid_field, invalid_fields, not_found, run_in_progress,
};
use crate::demo::http::{Query, body, created, ok};
use crate::demo::ids::{hash_str, hex64, index, mix2};
use crate::demo::people::{self, FIELDS, FVal, Pred};
use crate::demo::schema::{S, arr, closed, int, null_or, positive};
use crate::demo::sim;
use crate::demo::store::{SearchRec, Workspace};

fn str_list() -> S {
    arr(S::Str)
}

fn limit_only() -> Vec<(&'static str, S, bool)> {
    vec![("limit", positive(), false)]
}

/// The closed shape of a source plan.
pub(super) fn source_plan_shape() -> S {
    closed(vec![
        ("sourceId", S::Str, true),
        ("query", str_list(), true),
        ("reason", S::Str, true),
        (
            "resultTarget",
            S::Tagged {
                tag: "mode",
                variants: vec![
                    ("count", vec![("count", positive(), true)]),
                    ("all", vec![]),
                ],
            },
            false,
        ),
        ("recurrence", S::Str, false),
        (
            "geography",
            closed(vec![
                ("mode", S::Str, true),
                ("countryCodes", str_list(), true),
                ("cityNames", str_list(), false),
            ]),
            false,
        ),
        (
            "companySize",
            closed(vec![("min", int(), false), ("max", int(), false)]),
            false,
        ),
        (
            "personCriteria",
            arr(closed(vec![
                ("id", S::Str, true),
                ("kind", S::Str, true),
                ("values", str_list(), true),
            ])),
            false,
        ),
        ("unresolvedPreferences", str_list(), false),
        (
            "companyCriteria",
            arr(closed(vec![
                ("id", S::Str, true),
                ("kind", S::Str, true),
                ("operator", S::Str, true),
                ("value", S::Str, true),
            ])),
            false,
        ),
        (
            "rankedCompanyCohort",
            S::Tagged {
                tag: "kind",
                variants: vec![
                    ("default", limit_only()),
                    (
                        "named",
                        vec![("sourceId", S::Str, true), ("limit", positive(), false)],
                    ),
                    (
                        "attached",
                        vec![("sourceId", S::Str, true), ("limit", positive(), false)],
                    ),
                    (
                        "metric",
                        vec![("metric", S::Str, true), ("limit", positive(), false)],
                    ),
                ],
            },
            false,
        ),
    ])
}

fn create_shape() -> S {
    closed(vec![
        ("title", S::Str, true),
        ("description", S::Str, false),
        ("kind", S::Str, true),
        ("intent", S::Str, true),
        ("sellerContext", S::Str, false),
        ("sourcePlans", arr(source_plan_shape()), true),
        (
            "details",
            closed(vec![
                ("channel", S::Str, false),
                ("signal", S::Str, false),
                ("expectedLead", S::Str, false),
                ("whyThisShouldWork", S::Str, false),
                ("plannerAssumedPreferences", str_list(), false),
            ]),
            false,
        ),
    ])
}

fn query_shape() -> S {
    closed(vec![
        ("q", null_or(S::Str), false),
        (
            "predicates",
            arr(closed(vec![
                ("path", S::Str, true),
                ("operator", S::Str, true),
                (
                    "value",
                    S::OneOf(vec![S::Str, S::Num, S::Bool], "a string, number or boolean"),
                    true,
                ),
            ])),
            false,
        ),
        ("sort", S::Str, false),
        ("cursor", S::Str, false),
        ("limit", S::Int(0, validate::MAX_INT), false),
    ])
}

fn find(ws: &Workspace, id: &str) -> DemoResult<usize> {
    ws.search(id).ok_or_else(|| not_found("Search not found"))
}

/// `GET /api/lead-finder` (optional route): newest first.
pub(super) async fn list(State(app): State<Arc<App>>, Extension(w): Extension<Ws>) -> DemoResult {
    with(&app, w, |cx| {
        let searches: Vec<Search> = cx.ws.searches.iter().rev().map(SearchRec::render).collect();
        Ok(ok(SearchList { searches }))
    })
}

fn persona_of(req: &CreateSearch) -> usize {
    let text = format!(
        "{} {} {}",
        req.title,
        req.intent,
        req.source_plans
            .iter()
            .flat_map(|p| p.query.iter())
            .cloned()
            .collect::<Vec<_>>()
            .join(" ")
    )
    .to_lowercase();
    let has = |ws: &[&str]| ws.iter().any(|w| text.contains(w));
    if has(&["revops", "revenue", "sales op"]) {
        0
    } else if has(&["growth", "marketing", "demand"]) {
        1
    } else if has(&["engineer", "platform", "infra", "devops", "sre"]) {
        2
    } else if has(&["cfo", "finance", "controller"]) {
        3
    } else if has(&["founder", "ceo", "owner"]) {
        4
    } else {
        index(hash_str(&text), people::PERSONAS.len())
    }
}

/// `POST /api/lead-finder`: creates a search.
pub(super) async fn create(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    Body(bytes): Body,
) -> DemoResult {
    let (req, raw): (CreateSearch, _) = body(&bytes, &create_shape())?;
    validate::create_search(&req).map_err(|e| invalid_fields(&e))?;
    with(&app, w, |cx| {
        let id = cx.ids.uuid();
        let plans_json = raw
            .get("sourcePlans")
            .map(ToString::to_string)
            .unwrap_or_default();
        let search = Search {
            search_id: id.clone(),
            title: req.title.trim().to_owned(),
            description: req.description.clone().unwrap_or_default(),
            kind: req.kind.clone(),
            surface: "lead-finder".into(),
            definition_hash: Some(hex64(hash_str(&format!(
                "{}|{}|{plans_json}",
                req.kind, req.intent
            )))),
            intent: req.intent.clone(),
            seller_context: req.seller_context.clone().unwrap_or_default(),
            source_plans: req.source_plans.clone(),
            details: Some(req.details.clone().unwrap_or_default()),
            last_run_id: None,
            lead_count: 0,
            result_count: 0,
            contacted_count: 0,
            created_at: iso(cx.now),
            updated_at: iso(cx.now),
        };
        let rec = SearchRec::new(search, persona_of(&req), mix2(hash_str(&id), cx.ids.seed()));
        let rendered = rec.render();
        cx.ws.searches.push(rec);
        Ok(created(SearchEnvelope { search: rendered }))
    })
}

/// `GET /api/lead-finder/{id}`: the search, a page of results, the latest run.
pub(super) async fn get(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let q = Query::parse(q.as_deref());
    let page = (|| {
        let page = SearchPageQuery {
            limit: q.int("limit")?,
            offset: q.int("offset")?,
            cursor: q.int("cursor")?,
        };
        validate::search_page(&page).map_err(|e| invalid_fields(&e))?;
        Ok(page)
    })();
    with(&app, w, |cx| {
        let si = find(cx.ws, ids.get(0))?;
        let page = page?;
        let s = &cx.ws.searches[si];
        let limit = to_usize(page.limit.unwrap_or(50));
        let offset = to_usize(page.cursor.or(page.offset).unwrap_or(0));
        let total = s.rows.len();
        let results: Vec<LeadResult> = s
            .order
            .iter()
            .skip(offset)
            .take(limit)
            .map(|i| s.result(*i as usize))
            .collect();
        let has_more = offset.saturating_add(limit) < total;
        Ok(ok(SearchPage {
            search: s.render(),
            results,
            pagination: Pagination {
                total: total as u64,
                limit: limit as u64,
                offset: offset as u64,
                has_more,
                next_cursor: has_more.then(|| Cursor::Int((offset + limit) as u64)),
            },
            latest_run: sim::latest_run(s, cx.now),
        }))
    })
}

/// `POST /api/lead-finder/{id}/run`.
pub(super) async fn run(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    RawQuery(q): RawQuery,
) -> DemoResult {
    let continuation = Query::parse(q.as_deref()).boolean("continuation");
    with(&app, w, |cx| {
        let si = find(cx.ws, ids.get(0))?;
        let continuation = continuation?.unwrap_or(false);
        let s = &mut cx.ws.searches[si];
        let (ri, disposition) = match sim::live_run(s, cx.now) {
            Some(ri) if continuation => (ri, "existing"),
            Some(_) => return Err(run_in_progress(&s.search.search_id)),
            None => (sim::start_run(s, cx.now, cx.ids), "queued"),
        };
        Ok(ok(RunResponse {
            search: s.render(),
            run: sim::run_handle(s, ri, cx.now),
            disposition: disposition.into(),
            dispatch: "recorded".into(),
        }))
    })
}

/// `POST /api/lead-finder/run`: runs every eligible search.
pub(super) async fn run_all(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
) -> DemoResult {
    with(&app, w, |cx| {
        let mut out = RunAllResponse {
            surface: "lead-finder".into(),
            ..Default::default()
        };
        for s in &mut cx.ws.searches {
            out.matched_count += 1;
            let mut item = RunAllItem {
                search_id: s.search.search_id.clone(),
                title: s.search.title.clone(),
                ..Default::default()
            };
            if let Some(ri) = sim::live_run(s, cx.now) {
                out.existing_count += 1;
                let run = &s.runs[ri];
                item.status = run.status(cx.now);
                item.run_id = Some(run.id.clone());
                item.trigger_run_id = Some(run.trigger_id.clone());
                item.code = Some("already_running".into());
                item.message = Some("A run of this search is already queued or running.".into());
            } else if s.search.kind == SearchKind::Static && !s.runs.is_empty() {
                out.skipped_count += 1;
                item.status = RunStatus::Other("skipped".into());
                item.code = Some("static_already_run".into());
                item.message = Some("Static searches run once.".into());
            } else {
                out.queued_count += 1;
                let ri = sim::start_run(s, cx.now, cx.ids);
                let run = &s.runs[ri];
                item.status = RunStatus::Queued;
                item.run_id = Some(run.id.clone());
                item.trigger_run_id = Some(run.trigger_id.clone());
            }
            out.results.push(item);
        }
        out.agent_summary = format!(
            "Queued {} of {} searches; {} already running; {} skipped (static searches run once).",
            out.queued_count, out.matched_count, out.existing_count, out.skipped_count
        );
        Ok(ok(out))
    })
}

/// Turns the query's predicates into typed filters, or a 400 naming the
/// predicate.
fn predicates(q: &ResultsQuery) -> DemoResult<Vec<Pred>> {
    q.predicates
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let Some(field) = people::field_index(&p.path) else {
                // A path no result has: the predicate matches nothing.
                let value = match &p.value {
                    PredicateValue::Text(s) => FVal::Str(s.clone()),
                    PredicateValue::Number(n) => FVal::Num(*n),
                    PredicateValue::Bool(b) => FVal::Bool(*b),
                };
                return Ok(Pred {
                    field: usize::MAX,
                    op: p.operator.clone(),
                    value,
                });
            };
            let kind = FIELDS[field].kind;
            if !kind.operators().contains(&p.operator) {
                let ops: Vec<&str> = kind.operators().iter().map(Operator::as_str).collect();
                return Err(invalid_field(
                    &format!("predicates[{i}].operator"),
                    &format!(
                        "`{}` does not apply to {}; one of {}",
                        p.operator,
                        p.path,
                        ops.join(", ")
                    ),
                ));
            }
            let value = match (kind, &p.value) {
                (people::Kind::Str, PredicateValue::Text(s)) => FVal::Str(s.clone()),
                (people::Kind::Num, PredicateValue::Number(n)) => FVal::Num(*n),
                (people::Kind::Bool, PredicateValue::Bool(b)) => FVal::Bool(*b),
                (k, _) => {
                    let want = match k {
                        people::Kind::Str => "a string",
                        people::Kind::Num => "a number",
                        people::Kind::Bool => "a boolean",
                    };
                    return Err(invalid_field(
                        &format!("predicates[{i}].value"),
                        &format!("expected {want} for {}", p.path),
                    ));
                }
            };
            Ok(Pred {
                field,
                op: p.operator.clone(),
                value,
            })
        })
        .collect()
}

fn fingerprint(q: &ResultsQuery) -> u64 {
    hash_str(&format!(
        "{}|{}",
        q.q.as_deref().unwrap_or(""),
        serde_json::to_string(&q.predicates).unwrap_or_default()
    ))
}

fn parse_cursor(text: &str, fp: u64) -> DemoResult<usize> {
    let bad = || {
        invalid_field(
            "cursor",
            "not a cursor of this query; start again without one",
        )
    };
    let rest = text.strip_prefix("c1.").ok_or_else(bad)?;
    let (offset, tag) = rest.split_once('.').ok_or_else(bad)?;
    if tag != format!("{:x}", fp & 0xffff_ffff) {
        return Err(bad());
    }
    offset.parse().map_err(|_| bad())
}

/// A results query, checked and ready to run.
struct QueryPlan {
    req: ResultsQuery,
    preds: Vec<Pred>,
    fp: u64,
    offset: usize,
    limit: usize,
    /// `q`, trimmed and lowercased, when not empty.
    needle: Option<String>,
}

impl QueryPlan {
    fn parse(bytes: &Bytes) -> DemoResult<QueryPlan> {
        let (req, _): (ResultsQuery, _) = body(bytes, &query_shape())?;
        validate::results_query(&req).map_err(|e| invalid_fields(&e))?;
        let preds = predicates(&req)?;
        let fp = fingerprint(&req);
        let offset = match &req.cursor {
            Some(c) => parse_cursor(c, fp)?,
            None => 0,
        };
        let limit = to_usize(req.limit.unwrap_or(25));
        let needle = req
            .q
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_lowercase);
        Ok(QueryPlan {
            req,
            preds,
            fp,
            offset,
            limit,
            needle,
        })
    }
}

/// `POST /api/lead-finder/{id}/results/query`.
pub(super) async fn query(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
    Body(bytes): Body,
) -> DemoResult {
    let parsed = QueryPlan::parse(&bytes);
    // A filter scans every row: it runs on a copy of what it reads, off the
    // world lock and off the async workers, so a `q` over a million rows
    // holds up no other request.
    let (plan, view) = with(&app, w, |cx| {
        let si = find(cx.ws, ids.get(0))?;
        let plan = parsed?;
        let filtered = !plan.preds.is_empty() || plan.needle.is_some();
        Ok((plan, filtered.then(|| cx.ws.searches[si].scan_view())))
    })?;
    let QueryPlan {
        req,
        preds,
        fp,
        offset,
        limit,
        needle,
    } = plan;
    let matching = match view {
        None => None,
        Some(view) => Some(
            tokio::task::spawn_blocking(move || view.matching(&preds, needle.as_deref()))
                .await
                .map_err(|_| internal("The results scan failed; try again"))?,
        ),
    };
    with(&app, w, |cx| {
        let si = find(cx.ws, ids.get(0))?;
        let s = &cx.ws.searches[si];
        // Rows are only ever appended, so the scan's row indices stay valid.
        let matching = matching.as_deref().unwrap_or(&s.order);
        let total = matching.len();
        let results = matching
            .iter()
            .skip(offset)
            .take(limit)
            .map(|i| *i as usize)
            .filter(|i| *i < s.rows.len())
            .map(|i| s.result(i))
            .collect();
        let has_more = offset.saturating_add(limit) < total;
        Ok(ok(ResultsPage {
            search: s.render(),
            query: QueryEcho {
                q: req.q.clone(),
                predicates: req.predicates.clone(),
            },
            results,
            pagination: Pagination {
                total: total as u64,
                limit: limit as u64,
                offset: offset as u64,
                has_more,
                next_cursor: has_more
                    .then(|| Cursor::Text(format!("c1.{}.{:x}", offset + limit, fp & 0xffff_ffff))),
            },
        }))
    })
}

/// `GET /api/lead-finder/{id}/results/{resultId}/enrichment`.
pub(super) async fn enrichment(
    State(app): State<Arc<App>>,
    Extension(w): Extension<Ws>,
    ids: Ids,
) -> DemoResult {
    with(&app, w, |cx| {
        let si = find(cx.ws, ids.get(0))?;
        let s = &mut cx.ws.searches[si];
        let ri = s
            .row_of(ids.get(1))
            .ok_or_else(|| not_found("Result not found"))?;
        let coverage = s.coverage();
        let row = s.rows[ri];
        let p = s.person(ri);
        let (person, company) = p.profile();
        let truncated = row.seed % 11 == 0;
        let body = EnrichmentResponse {
            result: EnrichmentResultRef {
                result_id: ids.get(1).to_owned(),
                search_id: s.search.search_id.clone(),
                lead_id: p.lead_id(),
                source_id: "network_people".into(),
            },
            status: "available".into(),
            enrichment_profile: EnrichmentProfile {
                schema_version: 1,
                provider: "demo-enrich".into(),
                person,
                company,
                observed_at: iso(row.created),
                provider_observed_at: iso(row.created - 86_400_000),
                truncation: Truncation {
                    truncated,
                    reasons: if truncated {
                        vec!["work history beyond 10 positions omitted".into()]
                    } else {
                        Vec::new()
                    },
                },
            },
            fields: people::descriptors(&coverage),
        };
        Ok(ok(body))
    })
}
