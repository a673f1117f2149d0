//! Lead Finder: searches, create validation (source-plan Limits), paging,
//! the results query (Limits, predicates, cursor), enrichment, runs.

use std::collections::HashSet;

use outpost::testkit::api::model::*;
use outpost::testkit::demo::DemoConfig;
use serde_json::{Value, json};

use crate::common::*;

fn plan() -> Value {
    json!({"sourceId": "network_people", "query": ["vp sales"], "reason": "they buy"})
}

fn search_body(plan: &Value) -> Value {
    json!({"title": "T", "kind": "static", "intent": "find people", "sourcePlans": [plan]})
}

async fn big_search(svc: &Svc) -> Search {
    let searches = svc.api.list_searches().await.unwrap().unwrap();
    searches
        .into_iter()
        .find(|s| s.result_count == 2000)
        .expect("the 2,000-result search")
}

#[tokio::test]
async fn seeded_searches_list_newest_first_with_counts() {
    let svc = start().await;
    let searches = svc.api.list_searches().await.unwrap().unwrap();
    assert!(searches.len() >= 5);
    let created: Vec<&str> = searches.iter().map(|s| s.created_at.as_str()).collect();
    let mut sorted = created.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(created, sorted, "newest first");
    let big = big_search(&svc).await;
    assert_eq!(big.lead_count, 2000);
    assert!(big.contacted_count > 0 && big.contacted_count < 2000);
    assert_eq!(big.definition_hash.as_deref().map(str::len), Some(64));
    assert!(
        searches
            .iter()
            .any(|s| s.last_run_id.is_none() && s.result_count == 0),
        "one never run"
    );
}

#[tokio::test]
async fn create_search_answers_201_with_zero_counts() {
    let svc = start().await;
    let req = CreateSearch {
        title: "Heads of Data in Lisbon".into(),
        kind: SearchKind::Recurring,
        intent: "data leaders".into(),
        source_plans: vec![SourcePlan {
            source_id: SourceId::NetworkPeople,
            query: vec!["head of data".into()],
            reason: "they own the warehouse".into(),
            result_target: Some(ResultTarget::Count { count: 10 }),
            ranked_company_cohort: Some(RankedCompanyCohort::Metric {
                metric: CohortMetric::Revenue,
                limit: Some(5),
            }),
            ..Default::default()
        }],
        ..Default::default()
    };
    let s = svc.api.create_search(&req).await.unwrap();
    assert_eq!((s.lead_count, s.result_count, s.contacted_count), (0, 0, 0));
    assert_eq!(s.last_run_id, None);
    assert_eq!(s.surface, "lead-finder");
    assert_eq!(s.source_plans, req.source_plans, "stored as given");
    let r = svc
        .raw("POST", "/api/lead-finder", Some(search_body(&plan())))
        .await;
    assert_eq!(r.status, 201);
    let listed = svc.api.list_searches().await.unwrap().unwrap();
    assert_eq!(
        listed[0].search_id,
        r.body["search"]["searchId"].as_str().unwrap(),
        "newest first"
    );
}

/// Posts a search whose single plan is `plan` and returns the answer.
async fn post_plan(svc: &Svc, plan: &Value) -> Raw {
    svc.raw("POST", "/api/lead-finder", Some(search_body(plan)))
        .await
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base[key] = value;
    base
}

/// `n` characters.
fn xs(n: usize) -> String {
    "x".repeat(n)
}

/// A current-title person criterion with one value.
fn crit(v: &str) -> Value {
    json!({"id": "c", "kind": "current_title", "values": [v]})
}

/// Company criterion `i`: industry is `v`.
fn cc(i: usize, v: &str) -> Value {
    json!({"id": format!("c{i}"), "kind": "industry", "operator": "is", "value": v})
}

/// Plans at and past the query, reason and preference bounds, with the expected error.
fn query_and_reason_cases() -> Vec<(Value, Option<&'static str>)> {
    vec![
        (with(plan(), "query", json!([xs(240)])), None),
        (
            with(plan(), "query", json!(["ok", xs(241)])),
            Some("sourcePlans[0].query[1]: 1 to 240 chars"),
        ),
        (
            with(plan(), "query", json!([""])),
            Some("sourcePlans[0].query[0]: 1 to 240 chars"),
        ),
        (
            with(plan(), "query", json!([])),
            Some("sourcePlans[0].query: at least 1 item"),
        ),
        (with(plan(), "reason", json!(xs(240))), None),
        (
            with(plan(), "reason", json!(xs(241))),
            Some("sourcePlans[0].reason: 1 to 240 chars"),
        ),
        (
            with(plan(), "unresolvedPreferences", json!(["a", "b", "c"])),
            None,
        ),
        (
            with(plan(), "unresolvedPreferences", json!(["a", "b", "c", "d"])),
            Some("sourcePlans[0].unresolvedPreferences: at most 3 items"),
        ),
        (
            with(plan(), "unresolvedPreferences", json!([xs(241)])),
            Some("sourcePlans[0].unresolvedPreferences[0]: 1 to 240 chars"),
        ),
    ]
}

/// Plans at and past the person-criteria bounds, with the expected error.
fn person_criteria_cases() -> Vec<(Value, Option<&'static str>)> {
    vec![
        (
            with(
                plan(),
                "personCriteria",
                json!((0..12).map(|_| crit("a")).collect::<Vec<_>>()),
            ),
            None,
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!((0..13).map(|_| crit("a")).collect::<Vec<_>>()),
            ),
            Some("sourcePlans[0].personCriteria: 1 to 12 items"),
        ),
        (
            with(plan(), "personCriteria", json!([])),
            Some("sourcePlans[0].personCriteria: 1 to 12 items"),
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!([{"id": "c", "kind": "current_title", "values": vec!["v"; 12]}]),
            ),
            None,
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!([{"id": "c", "kind": "current_title", "values": vec!["v"; 13]}]),
            ),
            Some("sourcePlans[0].personCriteria[0].values: 1 to 12 items"),
        ),
        (
            with(plan(), "personCriteria", json!([crit(&xs(120))])),
            None,
        ),
        (
            with(plan(), "personCriteria", json!([crit(&xs(121))])),
            Some("sourcePlans[0].personCriteria[0].values[0]: 1 to 120 chars"),
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!([{"id": xs(60), "kind": "current_title", "values": ["a"]}]),
            ),
            None,
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!([{"id": xs(61), "kind": "current_title", "values": ["a"]}]),
            ),
            Some("sourcePlans[0].personCriteria[0].id: at most 60 chars"),
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!([{"id": "", "kind": "current_title", "values": ["a"]}]),
            ),
            None,
        ),
    ]
}

/// Plans at and past the criteria id, kind and company-criteria bounds, with the expected error.
fn company_criteria_cases() -> Vec<(Value, Option<&'static str>)> {
    vec![
        (
            with(
                plan(),
                "companyCriteria",
                json!([{"id": "", "kind": "industry", "operator": "is", "value": "SaaS"}]),
            ),
            None,
        ),
        (
            with(
                plan(),
                "companyCriteria",
                json!([{"id": xs(61), "kind": "industry", "operator": "is", "value": "SaaS"}]),
            ),
            Some("sourcePlans[0].companyCriteria[0].id: at most 60 chars"),
        ),
        (
            with(
                plan(),
                "personCriteria",
                json!([{"id": "c", "values": ["a"]}]),
            ),
            Some("sourcePlans[0].personCriteria[0].kind: required"),
        ),
        (
            with(
                plan(),
                "companyCriteria",
                json!((0..12).map(|i| cc(i, &format!("v{i}"))).collect::<Vec<_>>()),
            ),
            None,
        ),
        (
            with(
                plan(),
                "companyCriteria",
                json!((0..13).map(|i| cc(i, &format!("v{i}"))).collect::<Vec<_>>()),
            ),
            Some("sourcePlans[0].companyCriteria: at most 12 items"),
        ),
        (
            with(plan(), "companyCriteria", json!([cc(0, &xs(120))])),
            None,
        ),
        (
            with(plan(), "companyCriteria", json!([cc(0, &xs(121))])),
            Some("sourcePlans[0].companyCriteria[0].value: 1 to 120 chars"),
        ),
        (
            with(
                plan(),
                "companyCriteria",
                json!([{"id": "c", "kind": "industry", "operator": "maybe", "value": "x"}]),
            ),
            Some("sourcePlans[0].companyCriteria[0].operator: one of is, is_not"),
        ),
    ]
}

/// Plans at and past the result target, geography, cohort and key rules, with the expected error.
fn target_geography_and_cohort_cases() -> Vec<(Value, Option<&'static str>)> {
    vec![
        (
            with(plan(), "resultTarget", json!({"mode": "count", "count": 1})),
            None,
        ),
        (
            with(plan(), "resultTarget", json!({"mode": "count", "count": 0})),
            Some("sourcePlans[0].resultTarget.count: must be greater than 0"),
        ),
        (
            with(plan(), "resultTarget", json!({"mode": "some"})),
            Some("sourcePlans[0].resultTarget.mode: one of count, all"),
        ),
        (
            with(
                plan(),
                "geography",
                json!({"mode": "explicit", "countryCodes": []}),
            ),
            Some("sourcePlans[0].geography.countryCodes: at least 1 item"),
        ),
        (
            with(
                plan(),
                "geography",
                json!({"mode": "explicit", "countryCodes": ["DE"], "cityNames": [""]}),
            ),
            Some("sourcePlans[0].geography.cityNames[0]: at least 1 char"),
        ),
        (
            with(
                plan(),
                "rankedCompanyCohort",
                json!({"kind": "named", "sourceId": xs(120)}),
            ),
            None,
        ),
        (
            with(
                plan(),
                "rankedCompanyCohort",
                json!({"kind": "named", "sourceId": xs(121)}),
            ),
            Some("sourcePlans[0].rankedCompanyCohort.sourceId: 1 to 120 chars"),
        ),
        (
            with(plan(), "rankedCompanyCohort", json!({"kind": "metric"})),
            Some("sourcePlans[0].rankedCompanyCohort.metric: required"),
        ),
        (
            with(
                plan(),
                "rankedCompanyCohort",
                json!({"kind": "default", "limit": 0}),
            ),
            Some("sourcePlans[0].rankedCompanyCohort.limit: must be greater than 0"),
        ),
        (
            with(plan(), "sourceId", json!("web")),
            Some("sourcePlans[0].sourceId: must be network_people"),
        ),
        (
            with(plan(), "surprise", json!(1)),
            Some("sourcePlans[0].surprise: unknown key (no other keys allowed)"),
        ),
    ]
}

#[tokio::test]
async fn source_plan_limits_just_inside_and_just_outside() {
    let svc = start().await;
    // (plan, expected error or None)
    let cases = [
        query_and_reason_cases(),
        person_criteria_cases(),
        company_criteria_cases(),
        target_geography_and_cohort_cases(),
    ]
    .concat();
    for (p, want) in cases {
        let r = post_plan(&svc, &p).await;
        match want {
            None => assert_eq!(r.status, 201, "{p} -> {}", r.text),
            Some(msg) => {
                assert_eq!((r.status, r.code()), (400, "invalid_request"), "{p}");
                assert_eq!(r.message(), msg, "{p}");
            }
        }
    }
}

#[tokio::test]
async fn contradicting_company_criteria_and_unknown_keys_are_rejected() {
    let svc = start().await;
    let cc = |op: &str| json!({"id": "c", "kind": "industry", "operator": op, "value": "SaaS"});
    let r = post_plan(
        &svc,
        &with(plan(), "companyCriteria", json!([cc("is"), cc("is_not")])),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(
        r.message()
            .starts_with("sourcePlans[0].companyCriteria[1]: contradicts"),
        "{}",
        r.message()
    );
    let r = post_plan(&svc, &with(plan(), "companyCriteria", json!([cc("is"), {"id": "d", "kind": "exclusion", "operator": "is_not", "value": "Agencies"}]))).await;
    assert_eq!(r.status, 201, "independent entries AND-combine fine");
    let mut body = search_body(&plan());
    body["details"] = json!({"channel": "email", "budget": 5});
    let r = svc.raw("POST", "/api/lead-finder", Some(body)).await;
    assert_eq!(
        r.message(),
        "details.budget: unknown key (no other keys allowed)"
    );
    let mut body = search_body(&plan());
    body["owner"] = json!("me");
    let r = svc.raw("POST", "/api/lead-finder", Some(body)).await;
    assert_eq!(r.message(), "owner: unknown key (no other keys allowed)");
    let r = svc
        .raw(
            "POST",
            "/api/lead-finder",
            Some(json!({"kind": "weekly", "sourcePlans": []})),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(r.message().contains("title: required"), "{}", r.message());
    // The typed client refuses the same bodies before sending, with the
    // same message.
    let e = svc
        .api
        .create_search(&CreateSearch {
            title: "x".into(),
            kind: SearchKind::Static,
            intent: "y".into(),
            source_plans: vec![SourcePlan {
                source_id: SourceId::NetworkPeople,
                query: vec!["q".repeat(241)],
                reason: "r".into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid request: sourcePlans[0].query[0]: 1 to 240 chars"
    );
}

#[tokio::test]
async fn thousands_of_criteria_answer_400_quickly_with_a_bounded_message() {
    let svc = start().await;
    let cc = |i: usize, op: &str, v: &str| json!({"id": format!("c{i}"), "kind": "industry", "operator": op, "value": v});
    // Alternating `is` / `is_not` of one value: every pair contradicts, but
    // past 12 entries only the length is reported.
    let alternating: Vec<Value> = (0..10_000)
        .map(|i| cc(i, if i % 2 == 0 { "is" } else { "is_not" }, "SaaS"))
        .collect();
    let started = std::time::Instant::now();
    let r = post_plan(&svc, &with(plan(), "companyCriteria", json!(alternating))).await;
    assert_eq!((r.status, r.code()), (400, "invalid_request"));
    assert_eq!(
        r.message(),
        "sourcePlans[0].companyCriteria: at most 12 items"
    );
    // Thousands of separate failures: 50 listed, the rest counted.
    let bad: Vec<Value> = (0..4_000).map(|i| cc(i, "maybe", "")).collect();
    let r = post_plan(&svc, &with(plan(), "companyCriteria", json!(bad))).await;
    assert_eq!((r.status, r.code()), (400, "invalid_request"));
    assert!(r.message().len() < 4_000, "{}", r.message().len());
    assert_eq!(r.message().split("; ").count(), 51, "{}", r.message());
    assert!(r.message().ends_with("; …and 7951 more"), "{}", r.message());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn search_paging_by_offset_and_cursor() {
    let svc = start().await;
    let big = big_search(&svc).await;
    let id = &big.search_id;
    let page = |limit, offset, cursor| SearchPageQuery {
        limit,
        offset,
        cursor,
    };
    let first = svc
        .api
        .get_search(id, &page(Some(500), None, None))
        .await
        .unwrap();
    assert_eq!(first.results.len(), 500, "limit 500 is inside the bound");
    assert_eq!(first.pagination.total, 2000);
    assert!(first.pagination.has_more);
    assert_eq!(first.pagination.next_cursor, Some(Cursor::Int(500)));
    let scores: Vec<f64> = first.results.iter().map(|r| r.score).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first");
    let mut seen: HashSet<String> = first.results.iter().map(|r| r.result_id.clone()).collect();
    let mut cursor = first.pagination.next_cursor.clone();
    while let Some(Cursor::Int(c)) = cursor {
        let p = svc
            .api
            .get_search(id, &page(Some(500), None, Some(c)))
            .await
            .unwrap();
        assert_eq!(p.pagination.offset, c);
        seen.extend(p.results.iter().map(|r| r.result_id.clone()));
        cursor = p.pagination.next_cursor;
    }
    assert_eq!(seen.len(), 2000, "every result once");
    let by_offset = svc
        .api
        .get_search(id, &page(Some(3), Some(1998), None))
        .await
        .unwrap();
    assert_eq!(by_offset.results.len(), 2);
    assert!(!by_offset.pagination.has_more);
    assert_eq!(by_offset.pagination.next_cursor, None);
    let default = svc
        .api
        .get_search(id, &SearchPageQuery::default())
        .await
        .unwrap();
    assert_eq!(default.pagination.limit, 50);
    let lr = default.latest_run.expect("latest run");
    assert_eq!(lr.status, RunStatus::Completed);
    // Just outside: 501 and 0 (raw: the client refuses them).
    for bad in ["limit=501", "limit=0", "limit=abc"] {
        let r = svc
            .raw("GET", &format!("/api/lead-finder/{id}?{bad}"), None)
            .await;
        assert_eq!((r.status, r.code()), (400, "invalid_request"), "{bad}");
        assert!(r.message().starts_with("limit: "), "{}", r.message());
    }
    assert!(
        svc.api
            .get_search(id, &page(Some(501), None, None))
            .await
            .is_err()
    );
    let r = svc
        .raw(
            "GET",
            "/api/lead-finder/00000000-0000-4000-8000-000000000000",
            None,
        )
        .await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
}

#[tokio::test]
async fn result_rows_have_the_documented_shape() {
    let svc = start().await;
    let big = big_search(&svc).await;
    let r = svc
        .raw(
            "GET",
            &format!("/api/lead-finder/{}?limit=1", big.search_id),
            None,
        )
        .await;
    let row = &r.body["results"][0];
    for key in [
        "resultId",
        "searchId",
        "runId",
        "leadId",
        "sourceId",
        "searchUrl",
        "query",
        "searchReason",
        "signalReason",
        "title",
        "content",
        "occurredAt",
        "createdAt",
        "entityCompany",
        "entityPerson",
        "qualityTier",
        "status",
    ] {
        assert!(row[key].is_string(), "{key}: {row}");
    }
    assert!(row["author"].is_null() && row["lead"].is_null());
    assert!(row["metadata"].is_object());
    assert!(row["score"].is_number());
    assert_eq!(row["canonicalLead"]["type"], "person");
    assert!(
        row["canonicalLead"]["networkUrl"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    assert_eq!(row["enrichmentSummary"]["status"], "available");
    assert_eq!(row["enrichmentSummary"]["schemaVersion"], 1);
    assert_eq!(row["qualityTier"], "excellent", "the best row");
}

async fn query(svc: &Svc, id: &str, body: Value) -> Raw {
    svc.raw(
        "POST",
        &format!("/api/lead-finder/{id}/results/query"),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn results_query_limits_just_inside_and_just_outside() {
    let svc = start().await;
    let id = big_search(&svc).await.search_id;
    let p = |path: &str, value: Value| json!({"path": path, "operator": "eq", "value": value});
    let ok_cases = vec![
        json!({"q": "x".repeat(128)}),
        json!({"predicates": vec![p("person.career.seniority", json!("vp")); 5]}),
        json!({"predicates": [p(&"a".repeat(128), json!("v"))]}),
        json!({"predicates": [p("person.career.title", json!("v".repeat(512)))]}),
        json!({"limit": 1}),
        json!({"limit": 100}),
        json!({"sort": "score_desc"}),
        json!({"q": null}),
    ];
    for body in ok_cases {
        let r = query(&svc, &id, body.clone()).await;
        assert_eq!(r.status, 200, "{body}: {}", r.text);
    }
    let bad_cases = vec![
        (json!({"q": "x".repeat(129)}), "q: at most 128 chars"),
        (
            json!({"predicates": vec![p("person.career.seniority", json!("vp")); 6]}),
            "predicates: at most 5 items",
        ),
        (
            json!({"predicates": [p(&"a".repeat(129), json!("v"))]}),
            "predicates[0].path: 1 to 128 chars",
        ),
        (
            json!({"predicates": [p("", json!("v"))]}),
            "predicates[0].path: 1 to 128 chars",
        ),
        (
            json!({"predicates": [p("person.career.title", json!("v".repeat(513)))]}),
            "predicates[0].value: at most 512 chars",
        ),
        (json!({"cursor": ""}), "cursor: 1 to 1024 chars"),
        (
            json!({"cursor": "c".repeat(1025)}),
            "cursor: 1 to 1024 chars",
        ),
        (json!({"limit": 0}), "limit: 1 to 100"),
        (json!({"limit": 101}), "limit: 1 to 100"),
        (json!({"sort": "newest"}), "sort: must be score_desc"),
        (
            json!({"page": 2}),
            "page: unknown key (no other keys allowed)",
        ),
        (
            json!({"predicates": [{"path": "x", "operator": "like", "value": "v"}]}),
            "predicates[0].operator: one of contains, eq, gt, gte, lt, lte",
        ),
        (
            json!({"predicates": [{"path": "x", "operator": "eq", "value": [1]}]}),
            "predicates[0].value: expected a string, number or boolean, got an array",
        ),
        (
            json!({"predicates": [{"path": "x", "operator": "eq"}]}),
            "predicates[0].value: required",
        ),
    ];
    for (body, msg) in bad_cases {
        let r = query(&svc, &id, body.clone()).await;
        assert_eq!((r.status, r.code()), (400, "invalid_request"), "{body}");
        assert_eq!(r.message(), msg, "{body}");
    }
    // A cursor of the right length that is not one of ours: a different
    // error than the length bound.
    let r = query(&svc, &id, json!({"cursor": "c".repeat(1024)})).await;
    assert_eq!(r.status, 400);
    assert!(
        r.message().starts_with("cursor: not a cursor"),
        "{}",
        r.message()
    );
    let r = query(&svc, &id, json!({})).await;
    assert_eq!(r.body["pagination"]["limit"], 25, "default limit");
    assert_eq!(r.body["query"], json!({"q": null, "predicates": []}));
}

/// One predicate on the headcount.
fn head(op: &str, v: f64) -> Value {
    json!([{"path": "company.firmographics.headcount", "operator": op, "value": v}])
}

#[tokio::test]
async fn results_query_filters_with_all_six_operators_and_typed_values() {
    let svc = start().await;
    let id = big_search(&svc).await.search_id;
    let count = |preds: Value| {
        let svc = &svc;
        let id = id.clone();
        async move {
            let r = query(svc, &id, json!({"predicates": preds, "limit": 100})).await;
            assert_eq!(r.status, 200, "{}", r.text);
            r.body["pagination"]["total"].as_u64().unwrap()
        }
    };
    let all = count(json!([])).await;
    assert_eq!(all, 2000);
    let (gt, gte, lt, lte, eq) = (
        count(head("gt", 500.0)).await,
        count(head("gte", 500.0)).await,
        count(head("lt", 500.0)).await,
        count(head("lte", 500.0)).await,
        count(head("eq", 500.0)).await,
    );
    assert!(gt > 0 && lt > 0);
    assert_eq!(gte, gt + eq);
    assert_eq!(lte, lt + eq);
    assert_eq!(gt + lt + eq, all, "headcount is on every row");
    let hiring =
        count(json!([{"path": "company.signals.hiring", "operator": "eq", "value": true}])).await;
    let not_hiring =
        count(json!([{"path": "company.signals.hiring", "operator": "eq", "value": false}])).await;
    assert_eq!(hiring + not_hiring, all);
    let ceos =
        count(json!([{"path": "person.career.seniority", "operator": "eq", "value": "VP"}])).await;
    assert!(ceos > 0, "strings compare case-insensitively");
    let contains =
        count(json!([{"path": "person.career.title", "operator": "contains", "value": "revops"}]))
            .await;
    assert!(contains > 0 && contains < all);
    let both = count(json!([
        {"path": "person.career.title", "operator": "contains", "value": "revops"},
        {"path": "company.signals.hiring", "operator": "eq", "value": true}
    ]))
    .await;
    assert!(both <= contains && both <= hiring, "predicates AND-combine");
    // Optional fields: rows without the field never match.
    let phones =
        count(json!([{"path": "person.contact.phone", "operator": "contains", "value": "+"}]))
            .await;
    assert!(phones > 0 && phones < all);
    assert_eq!(
        count(json!([{"path": "person.no.such", "operator": "eq", "value": 1}])).await,
        0
    );
}

// Each returned row satisfies the predicate (checked on its profile).
#[tokio::test]
async fn each_filtered_row_satisfies_its_predicate() {
    let svc = start().await;
    let id = big_search(&svc).await.search_id;
    let r = query(
        &svc,
        &id,
        json!({"predicates": head("gte", 2000.0), "limit": 5}),
    )
    .await;
    for row in r.body["results"].as_array().unwrap() {
        let e = svc
            .api
            .enrichment(&id, row["resultId"].as_str().unwrap())
            .await
            .unwrap();
        assert!(
            e.enrichment_profile.company["firmographics"]["headcount"]
                .as_f64()
                .unwrap()
                >= 2000.0
        );
    }
}

// Operators that do not apply, and values of the wrong type.
#[tokio::test]
async fn operators_that_do_not_apply_and_mistyped_values_are_refused() {
    let svc = start().await;
    let id = big_search(&svc).await.search_id;
    let r = query(&svc, &id, json!({"predicates": [{"path": "company.signals.hiring", "operator": "gt", "value": true}]})).await;
    assert_eq!(r.status, 400);
    assert!(
        r.message()
            .starts_with("predicates[0].operator: `gt` does not apply"),
        "{}",
        r.message()
    );
    let r = query(&svc, &id, json!({"predicates": head("gt", 1.0).as_array().unwrap().iter().map(|p| { let mut p = p.clone(); p["value"] = json!("500"); p }).collect::<Vec<_>>()})).await;
    assert_eq!(
        r.message(),
        "predicates[0].value: expected a number for company.firmographics.headcount"
    );
    let r = query(
        &svc,
        &id,
        json!({"predicates": [{"path": "person.career.title", "operator": "lt", "value": "a"}]}),
    )
    .await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn results_query_text_search_sorting_and_cursor_paging() {
    let svc = start().await;
    let id = big_search(&svc).await.search_id;
    let q = ResultsQuery {
        q: Some("Kestrel".into()),
        limit: Some(7),
        ..Default::default()
    };
    let first = svc.api.query_results(&id, &q).await.unwrap();
    let total = first.pagination.total;
    assert!(total > 7 && total < 2000, "{total}");
    assert_eq!(first.query.q.as_deref(), Some("Kestrel"));
    let mut rows = first.results.clone();
    let mut cursor = first.pagination.next_cursor.clone();
    while let Some(Cursor::Text(c)) = cursor {
        let next = svc
            .api
            .query_results(
                &id,
                &ResultsQuery {
                    cursor: Some(c),
                    ..q.clone()
                },
            )
            .await
            .unwrap();
        rows.extend(next.results);
        cursor = next.pagination.next_cursor;
    }
    assert_eq!(rows.len() as u64, total);
    let ids: HashSet<&str> = rows.iter().map(|r| r.result_id.as_str()).collect();
    assert_eq!(ids.len(), rows.len(), "no row twice");
    assert!(
        rows.windows(2).all(|w| w[0].score >= w[1].score),
        "score_desc"
    );
    for r in &rows {
        let text = format!(
            "{} {} {} {}",
            r.title,
            r.content,
            r.entity_company,
            r.canonical_lead.as_ref().unwrap().email
        )
        .to_lowercase();
        assert!(text.contains("kestrel"), "{text}");
    }
    // A cursor belongs to its query.
    let c = first.pagination.next_cursor.unwrap().to_text();
    let r = query(&svc, &id, json!({"q": "other", "cursor": c})).await;
    assert_eq!(r.status, 400);
}

#[tokio::test]
async fn text_search_ignores_case_beyond_ascii() {
    let svc = start().await;
    let mut body = search_body(&json!({
        "sourceId": "network_people",
        "query": ["ÄRZTE Leitung"],
        "reason": "Große Kliniken kaufen",
        "resultTarget": {"mode": "count", "count": 5}
    }));
    body["kind"] = json!("recurring");
    let r = svc.raw("POST", "/api/lead-finder", Some(body)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.body["search"]["searchId"].as_str().unwrap().to_owned();
    svc.api.run_search(&id, None).await.unwrap();
    let dl = Deadline::new(30, "run completed");
    while svc
        .api
        .get_search(&id, &SearchPageQuery::default())
        .await
        .unwrap()
        .latest_run
        .is_none_or(|r| r.status != RunStatus::Completed)
    {
        dl.tick().await;
    }
    for q in ["ärzte", "ÄRZTE", "Ärzte leitung", "große kliniken"] {
        let r = query(&svc, &id, json!({"q": q})).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.body["pagination"]["total"], json!(5), "{q}");
    }
    let r = query(&svc, &id, json!({"q": "ärzteblatt"})).await;
    assert_eq!(r.body["pagination"]["total"], json!(0));
}

#[tokio::test]
async fn enrichment_lists_the_fields_the_filter_can_use() {
    let svc = start().await;
    let id = big_search(&svc).await.search_id;
    let page = svc
        .api
        .get_search(
            &id,
            &SearchPageQuery {
                limit: Some(1),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let row = &page.results[0];
    let e = svc.api.enrichment(&id, &row.result_id).await.unwrap();
    assert_eq!(e.result.result_id, row.result_id);
    assert_eq!(e.result.lead_id, row.lead_id);
    assert_eq!(e.result.source_id, "network_people");
    assert_eq!(e.enrichment_profile.schema_version, 1);
    let groups: HashSet<&str> = e.fields.iter().map(|f| f.group.as_str()).collect();
    assert!(groups.len() >= 6, "{groups:?}");
    let namespaces: HashSet<&str> = e.fields.iter().map(|f| f.namespace.as_str()).collect();
    assert_eq!(namespaces, HashSet::from(["person", "company"]));
    for t in [ValueType::String, ValueType::Number, ValueType::Boolean] {
        assert!(e.fields.iter().any(|f| f.value_type == t), "{t}");
    }
    for f in &e.fields {
        assert!(!f.operators.is_empty());
        assert!(
            f.coverage_count <= 2000 && f.coverage_count > 0,
            "{}",
            f.path
        );
        // The path addresses a value in the profile when the row has it.
        let mut parts = f.path.split('.');
        let ns = parts.next().unwrap();
        let root = if ns == "person" {
            &e.enrichment_profile.person
        } else {
            &e.enrichment_profile.company
        };
        let v = parts.fold(root, |v, k| &v[k]);
        if f.coverage_count == 2000 {
            assert!(!v.is_null(), "{} present on every row", f.path);
        }
        // Every described (path, operator) is accepted by the filter.
        let value = match f.value_type {
            ValueType::Number => json!(1),
            ValueType::Boolean => json!(true),
            _ => json!("a"),
        };
        for op in &f.operators {
            let r = query(&svc, &id, json!({"predicates": [{"path": f.path, "operator": op, "value": value}], "limit": 1})).await;
            assert_eq!(r.status, 200, "{} {op}", f.path);
        }
    }
    let ops: HashSet<&str> = e
        .fields
        .iter()
        .flat_map(|f| f.operators.iter().map(Operator::as_str))
        .collect();
    assert_eq!(ops.len(), 6, "all six operators appear");
    assert!(
        e.fields.iter().any(|f| f.coverage_count < 2000),
        "some fields are optional"
    );
    let e = svc
        .api
        .enrichment(&id, "00000000-0000-4000-8000-000000000000")
        .await
        .unwrap_err();
    assert!(e.is_not_found());
}

/// Polls search `id` until its latest run (which must be `run_id`) has
/// completed: the statuses seen in order, the result count first seen while
/// running, and the final page.
async fn poll_until_completed(
    svc: &Svc,
    id: &str,
    run_id: &str,
) -> (Vec<RunStatus>, Option<u64>, SearchPage) {
    let mut seen = vec![RunStatus::Queued];
    let mut mid_results = None;
    let dl = Deadline::new(30, "run completed");
    loop {
        let p = svc
            .api
            .get_search(id, &SearchPageQuery::default())
            .await
            .unwrap();
        let lr = p.latest_run.clone().unwrap();
        assert_eq!(lr.run_id, run_id);
        if seen.last() != Some(&lr.status) {
            seen.push(lr.status.clone());
        }
        if lr.status == RunStatus::Running && p.search.result_count > 0 {
            mid_results.get_or_insert(p.search.result_count);
        }
        if lr.status == RunStatus::Completed {
            return (seen, mid_results, p);
        }
        dl.tick().await;
    }
}

#[tokio::test]
async fn a_run_goes_queued_running_completed_adding_results() {
    let svc = start().await;
    let s = svc
        .api
        .list_searches()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|s| s.title.starts_with("CFOs"))
        .expect("the never-run search");
    assert_eq!(s.result_count, 0);
    let run = svc.api.run_search(&s.search_id, None).await.unwrap();
    assert_eq!(run.run.status, RunStatus::Queued);
    assert_eq!(
        (run.disposition.as_str(), run.dispatch.as_str()),
        ("queued", "recorded")
    );
    assert_eq!(
        run.search.last_run_id.as_deref(),
        Some(run.run.run_id.as_str())
    );
    assert!(run.run.continuation_retry_after.is_some());
    // A second run while this one is live is a 409 with the Lead Finder body.
    let e = svc.api.run_search(&s.search_id, None).await.unwrap_err();
    assert_eq!((status(&e), e.code()), (409, "conflict"));
    let lf = e.lead_finder().expect("Lead Finder body");
    assert!(lf.retryable && !lf.alternatives.is_empty());
    assert_eq!(lf.action.as_ref().unwrap().kind, "navigate");
    let again = svc.api.run_search(&s.search_id, Some(true)).await.unwrap();
    assert_eq!(again.disposition, "existing");
    assert_eq!(again.run.run_id, run.run.run_id);
    let (seen, mid_results, done) = poll_until_completed(&svc, &s.search_id, &run.run.run_id).await;
    assert_eq!(
        seen,
        [RunStatus::Queued, RunStatus::Running, RunStatus::Completed]
    );
    assert!(done.search.result_count > 0);
    assert_eq!(done.pagination.total, done.search.result_count);
    let lr = done.latest_run.unwrap();
    let diag = &lr.source_status[0].query_diagnostics;
    assert_eq!(diag.len(), 2, "one per query string");
    let stored: u64 = diag.iter().map(|d| d.stored).sum();
    assert_eq!(stored, done.search.result_count);
    for d in diag {
        assert!(
            d.fetched >= d.normalized && d.normalized >= d.ranked && d.ranked >= d.lead_extracted
        );
        assert!(d.lead_extracted >= d.quality_kept && d.quality_kept >= d.stored);
        assert_eq!(d.search_attempts[0].stage, "exact");
    }
    if let Some(mid) = mid_results {
        assert!(
            mid <= done.search.result_count,
            "results appear while running"
        );
    }
    // Once done, a new run may start.
    assert_eq!(
        svc.api
            .run_search(&s.search_id, None)
            .await
            .unwrap()
            .disposition,
        "queued"
    );
}

#[tokio::test]
async fn the_seeded_failed_run_reports_its_error() {
    let svc = start().await;
    let s = svc
        .api
        .list_searches()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|s| s.title.starts_with("Founders"))
        .unwrap();
    let p = svc
        .api
        .get_search(&s.search_id, &SearchPageQuery::default())
        .await
        .unwrap();
    let lr = p.latest_run.unwrap();
    assert_eq!(lr.status, RunStatus::Failed);
    assert_eq!(lr.errors[0].code, "provider_timeout");
    assert!(!lr.source_status[0].error.is_empty());
}

#[tokio::test]
async fn run_all_queues_eligible_searches() {
    let svc = start().await;
    let r = svc.api.run_all().await.unwrap();
    assert_eq!(r.surface, "lead-finder");
    assert_eq!(r.matched_count, r.results.len() as u64);
    assert_eq!(
        r.matched_count,
        r.queued_count + r.existing_count + r.skipped_count + r.blocked_count + r.failed_count
    );
    assert!(r.queued_count >= 2 && r.skipped_count >= 1, "{r:?}");
    assert!(!r.agent_summary.is_empty());
    for item in r.results.iter().filter(|i| i.status == RunStatus::Queued) {
        assert!(item.run_id.is_some() && item.trigger_run_id.is_some());
    }
    // Running it again right away: what was just queued is now existing.
    let again = svc.api.run_all().await.unwrap();
    assert!(again.existing_count >= r.queued_count, "{again:?}");
    assert!(again.queued_count <= r.existing_count, "{again:?}");
}

#[tokio::test]
async fn scale_puts_many_results_in_one_search() {
    let svc = start_with(DemoConfig {
        scale: Some(100_000),
        ..config()
    })
    .await;
    let searches = svc.api.list_searches().await.unwrap().unwrap();
    let big = searches
        .iter()
        .find(|s| s.result_count == 100_000)
        .expect("scaled search");
    let r = svc
        .api
        .query_results(
            &big.search_id,
            &ResultsQuery {
                predicates: vec![Predicate {
                    path: "company.firmographics.headcount".into(),
                    operator: Operator::Gte,
                    value: PredicateValue::Number(1000.0),
                }],
                limit: Some(100),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(r.pagination.total > 1000 && r.pagination.total < 100_000);
    assert_eq!(r.results.len(), 100);
    let last = svc
        .api
        .get_search(
            &big.search_id,
            &SearchPageQuery {
                limit: Some(10),
                offset: Some(99_995),
                cursor: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(last.results.len(), 5);
}
