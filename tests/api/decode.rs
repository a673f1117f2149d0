//! One decoding test per resource table of the contract, and per response
//! envelope. Each sample uses the contract's field names and types and
//! carries an unknown enum value, an unknown field and a missing optional
//! field; most also carry a float where an int is expected and a `null`
//! string.

use outpost::testkit::api::model::*;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Decodes the way the client does: from the bytes of the answer.
#[track_caller]
pub fn de<T: DeserializeOwned>(v: &Value) -> T {
    let bytes = serde_json::to_vec(v).expect("encodes");
    match serde_json::from_slice(&bytes) {
        Ok(t) => t,
        Err(e) => panic!("did not decode: {e}\n{v:#}"),
    }
}

pub const UUID_A: &str = "3f0c7f8e-6a59-4d55-9a3e-5b2f6c1d9e01";
pub const UUID_B: &str = "8d2a1c44-0b7e-4f1a-8c3d-2e9f7a6b5c02";
pub const UUID_C: &str = "c6e9b3a1-7d2f-4e8a-b1c5-9f0e3d2a4b03";
pub const HASH: &str = "9b74c9897bac770ffc029102a200c5de9b74c9897bac770ffc029102a200c5de";

pub fn source_plan_full() -> Value {
    json!({
        "sourceId": "network_people",
        "query": ["VP Sales", "Head of Revenue"],
        "reason": "They own the number",
        "resultTarget": {"mode": "count", "count": 50.0},
        "recurrence": "weekly",
        "geography": {"mode": "explicit", "countryCodes": ["SE", "NO"], "cityNames": ["Stockholm"]},
        "companySize": {"min": 10, "max": 200.0},
        "personCriteria": [{"id": "p1", "kind": "current_title", "values": ["VP Sales"]}],
        "unresolvedPreferences": ["prefers founders"],
        "companyCriteria": [
            {"id": "c1", "kind": "industry", "operator": "is", "value": "SaaS"},
            {"id": "c2", "kind": "funding_stage", "operator": "is_not", "value": "Seed"}
        ],
        "rankedCompanyCohort": {"kind": "metric", "metric": "employees", "limit": 100.0},
        "plannerNotes": "unknown field"
    })
}

pub fn search_sample() -> Value {
    json!({
        "searchId": UUID_A,
        "title": "Nordic revenue leaders",
        "description": "VPs of sales at Nordic SaaS companies",
        "kind": "evergreen",
        "surface": "lead-finder",
        "definitionHash": null,
        "intent": "Book demos",
        "sellerContext": null,
        "sourcePlans": [source_plan_full(), {"sourceId": "network_people", "query": ["CRO"], "reason": "r"}],
        "details": {"channel": "email", "plannerAssumedPreferences": ["B2B"]},
        "lastRunId": null,
        "leadCount": 12.0,
        "resultCount": 40,
        "contactedCount": 3,
        "createdAt": "2025-03-01T10:00:00Z",
        "updatedAt": "2025-03-02T10:00:00Z",
        "archived": false
    })
}

#[test]
fn search() {
    let s: Search = de(&search_sample());
    assert_eq!(s.search_id, UUID_A);
    assert_eq!(s.title, "Nordic revenue leaders");
    assert_eq!(s.kind, SearchKind::Other("evergreen".into()));
    assert_eq!(
        s.kind.to_string(),
        "evergreen",
        "unknown kind shown verbatim"
    );
    assert_eq!(s.surface, "lead-finder");
    assert_eq!(s.definition_hash, None);
    assert_eq!(s.seller_context, "", "null string tolerated");
    assert_eq!(s.source_plans.len(), 2);
    let d = s.details.expect("details");
    assert_eq!(d.channel.as_deref(), Some("email"));
    assert_eq!(d.signal, None, "missing optional detail");
    assert_eq!(d.planner_assumed_preferences, Some(vec!["B2B".to_owned()]));
    assert_eq!(s.last_run_id, None);
    assert_eq!(
        (s.lead_count, s.result_count, s.contacted_count),
        (12, 40, 3)
    );
    assert_eq!(s.created_at, "2025-03-01T10:00:00Z");

    let mut known = search_sample();
    known["kind"] = json!("recurring");
    known["definitionHash"] = json!(HASH);
    known["lastRunId"] = json!(UUID_B);
    let s: Search = de(&known);
    assert_eq!(s.kind, SearchKind::Recurring);
    assert_eq!(s.definition_hash.as_deref(), Some(HASH));
    assert_eq!(s.last_run_id.as_deref(), Some(UUID_B));
}

#[test]
fn source_plan() {
    let p: SourcePlan = de(&source_plan_full());
    assert_eq!(p.source_id, SourceId::NetworkPeople);
    assert_eq!(p.query, ["VP Sales", "Head of Revenue"]);
    assert_eq!(p.reason, "They own the number");
    assert_eq!(
        p.result_target,
        Some(ResultTarget::Count { count: 50 }),
        "a float count is tolerated"
    );
    let rec = p.recurrence.clone().expect("recurrence");
    assert_eq!((rec.is_known(), rec.to_string()), (false, "weekly".into()));
    let g = p.geography.expect("geography");
    assert_eq!(g.mode, "explicit");
    assert_eq!(g.country_codes, ["SE", "NO"]);
    assert_eq!(g.city_names, Some(vec!["Stockholm".to_owned()]));
    let size = p.company_size.expect("companySize");
    assert_eq!((size.min, size.max), (Some(10), Some(200)));
    let people = p.person_criteria.expect("personCriteria");
    assert_eq!(people[0].id, "p1");
    assert_eq!(people[0].kind, PersonCriterionKind::CurrentTitle);
    assert_eq!(people[0].values, ["VP Sales"]);
    assert_eq!(
        p.unresolved_preferences,
        Some(vec!["prefers founders".to_owned()])
    );
    let companies = p.company_criteria.expect("companyCriteria");
    assert_eq!(companies[0].kind, CompanyCriterionKind::Industry);
    assert_eq!(companies[0].operator, CriterionOperator::Is);
    assert_eq!(
        companies[1].kind,
        CompanyCriterionKind::Other("funding_stage".into())
    );
    assert_eq!(companies[1].kind.to_string(), "funding_stage");
    assert_eq!(companies[1].operator, CriterionOperator::IsNot);
    assert_eq!(companies[1].value, "Seed");
    assert_eq!(
        p.ranked_company_cohort,
        Some(RankedCompanyCohort::Metric {
            metric: CohortMetric::Other("employees".into()),
            limit: Some(100),
        }),
        "unknown metric kept, float limit tolerated"
    );
}

// The minimal plan: every optional part missing.
#[test]
fn minimal_source_plan() {
    let p: SourcePlan = de(&json!({"sourceId": "google_people", "query": ["CRO"], "reason": "r"}));
    assert_eq!(p.source_id.to_string(), "google_people");
    assert!(!p.source_id.is_known());
    assert_eq!(p.result_target, None);
    assert_eq!(p.recurrence, None);
    assert_eq!(p.geography, None);
    assert_eq!(p.company_size, None);
    assert_eq!(p.person_criteria, None);
    assert_eq!(p.unresolved_preferences, None);
    assert_eq!(p.company_criteria, None);
    assert_eq!(p.ranked_company_cohort, None);
}

// The other variants of the two tagged unions.
#[test]
fn the_other_variants_of_the_tagged_unions() {
    let p: SourcePlan = de(&json!({
        "sourceId": "network_people", "query": ["x"], "reason": "r",
        "resultTarget": {"mode": "all"},
        "recurrence": "monitoring",
        "rankedCompanyCohort": {"kind": "named", "sourceId": "fortune-500"}
    }));
    assert_eq!(p.result_target, Some(ResultTarget::All));
    assert_eq!(p.recurrence, Some(Recurrence::Monitoring));
    assert_eq!(
        p.ranked_company_cohort,
        Some(RankedCompanyCohort::Named {
            source_id: "fortune-500".into(),
            limit: None
        })
    );
    for (cohort, want) in [
        (
            json!({"kind": "default"}),
            RankedCompanyCohort::Default { limit: None },
        ),
        (
            json!({"kind": "attached", "sourceId": "list-1", "limit": 5}),
            RankedCompanyCohort::Attached {
                source_id: "list-1".into(),
                limit: Some(5),
            },
        ),
        (
            json!({"kind": "metric", "metric": "market_cap"}),
            RankedCompanyCohort::Metric {
                metric: CohortMetric::MarketCap,
                limit: None,
            },
        ),
    ] {
        let p: SourcePlan = de(
            &json!({"sourceId": "network_people", "query": ["x"], "reason": "r", "rankedCompanyCohort": cohort}),
        );
        assert_eq!(p.ranked_company_cohort, Some(want));
    }
}

// A tagged union with a kind this client does not know is dropped, not
// fatal: the plan still decodes.
#[test]
fn unknown_tagged_union_kinds_are_dropped_not_fatal() {
    let p: SourcePlan = de(&json!({
        "sourceId": "network_people", "query": ["x"], "reason": "r",
        "resultTarget": {"mode": "percent", "percent": 5},
        "rankedCompanyCohort": {"kind": "lookalike", "seed": "acme.com"}
    }));
    assert_eq!((p.result_target, p.ranked_company_cohort), (None, None));
    assert_eq!(p.query, ["x"]);
}

pub fn result_sample() -> Value {
    json!({
        "resultId": UUID_A, "searchId": UUID_B, "runId": UUID_C, "leadId": UUID_A,
        "sourceId": "network_people",
        "searchUrl": "https://network.example/search?q=vp",
        "query": "VP Sales",
        "searchReason": "matches title",
        "signalReason": null,
        "title": "VP Sales at Acme",
        "content": "Ten years in SaaS sales",
        "occurredAt": "2025-03-01T09:00:00Z",
        "createdAt": "2025-03-01T10:00:00Z",
        "author": null,
        "lead": null,
        "metadata": {"rank": 1},
        "canonicalLead": {
            "id": UUID_A, "type": "person", "name": "Ada Berg", "title": "VP Sales",
            "company": "Acme", "companyDomain": "acme.se", "email": null,
            "networkUrl": "https://network.example/in/ada", "pronouns": "she/her"
        },
        "entityCompany": "Acme",
        "entityPerson": "Ada Berg",
        "score": 87.5,
        "qualityTier": "legendary",
        "status": "shortlisted",
        "enrichmentSummary": {"status": "available", "schemaVersion": 1.0, "observedAt": "2025-03-01T10:00:00Z", "fieldCount": 14},
        "sparkle": true
    })
}

#[test]
fn lead_finder_result() {
    let r: LeadResult = de(&result_sample());
    assert_eq!(
        (
            r.result_id.as_str(),
            r.search_id.as_str(),
            r.run_id.as_str(),
            r.lead_id.as_str()
        ),
        (UUID_A, UUID_B, UUID_C, UUID_A)
    );
    assert_eq!(r.source_id, "network_people");
    assert_eq!(r.search_url, "https://network.example/search?q=vp");
    assert_eq!(r.query, "VP Sales");
    assert_eq!(r.search_reason, "matches title");
    assert_eq!(r.signal_reason, "", "null string tolerated");
    assert_eq!(r.title, "VP Sales at Acme");
    assert_eq!(r.content, "Ten years in SaaS sales");
    assert_eq!(r.occurred_at, "2025-03-01T09:00:00Z");
    assert_eq!(
        (r.author.clone(), r.lead.clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(r.metadata, json!({"rank": 1}));
    let c = r.canonical_lead.expect("canonicalLead");
    assert_eq!(
        (c.kind.as_str(), c.name.as_str(), c.title.as_str()),
        ("person", "Ada Berg", "VP Sales")
    );
    assert_eq!(
        (c.company.as_str(), c.company_domain.as_str()),
        ("Acme", "acme.se")
    );
    assert_eq!(c.email, "");
    assert_eq!(c.network_url, "https://network.example/in/ada");
    assert_eq!(
        (r.entity_company.as_str(), r.entity_person.as_str()),
        ("Acme", "Ada Berg")
    );
    assert_eq!(r.score, 87.5);
    assert_eq!(r.quality_tier, "legendary", "unknown tier kept verbatim");
    assert_eq!(r.status, "shortlisted");
    let e = r.enrichment_summary.expect("enrichmentSummary");
    assert_eq!(
        (e.status.as_str(), e.schema_version, e.field_count),
        ("available", 1, 14)
    );
    assert_eq!(e.observed_at, "2025-03-01T10:00:00Z");

    let mut sparse = result_sample();
    let obj = sparse.as_object_mut().expect("object");
    obj.remove("enrichmentSummary");
    obj.remove("canonicalLead");
    obj.remove("metadata");
    obj.insert("score".into(), json!(90));
    let r: LeadResult = de(&sparse);
    assert_eq!((r.enrichment_summary, r.canonical_lead), (None, None));
    assert_eq!(r.metadata, Value::Null);
    assert_eq!(r.score, 90.0, "an int score is fine too");
}

#[test]
fn pagination() {
    let p: Pagination = de(
        &json!({"total": 120, "limit": 25.0, "offset": 0, "hasMore": true, "nextCursor": 25, "pageToken": "x"}),
    );
    assert_eq!((p.total, p.limit, p.offset, p.has_more), (120, 25, 0, true));
    assert_eq!(p.next_cursor, Some(Cursor::Int(25)));
    assert_eq!(
        p.next_cursor.as_ref().map(Cursor::to_text).as_deref(),
        Some("25")
    );

    let p: Pagination = de(&json!({"total": 3, "limit": 25, "offset": 0, "hasMore": false}));
    assert_eq!(p.next_cursor, None, "missing cursor");
    let p: Pagination = de(
        &json!({"total": 3, "limit": 25, "offset": 0, "hasMore": true, "nextCursor": "b64:abc"}),
    );
    assert_eq!(
        p.next_cursor,
        Some(Cursor::Text("b64:abc".into())),
        "opaque text cursor"
    );
    let p: Pagination =
        de(&json!({"total": 3, "limit": 25, "offset": 0, "hasMore": true, "nextCursor": 50.0}));
    assert_eq!(
        p.next_cursor,
        Some(Cursor::Int(50)),
        "a float cursor is tolerated"
    );
    let p: Pagination = de(&json!({"total": 3, "hasMore": null, "nextCursor": null}));
    assert_eq!((p.has_more, p.next_cursor), (false, None));
}

pub fn latest_run_sample() -> Value {
    json!({
        "runId": UUID_C,
        "status": "throttled",
        "counts": {"fetched": 40, "stored": 12},
        "errors": [{"sourceId": "network_people", "error": "provider timeout", "code": "provider_timeout", "hint": "x"}],
        "sourceStatus": [{
            "sourceId": "network_people",
            "status": "partial",
            "error": null,
            "queryDiagnostics": [{
                "query": "VP Sales",
                "fetched": 40, "normalized": 38, "ranked": 30, "leadExtracted": 25.0,
                "qualityKept": 14, "stored": 12, "maxResults": 50,
                "currentRunDepthExpanded": true,
                "searchAttempts": [
                    {"attempt": 1, "stage": "exact", "reason": "first try", "fetched": 10, "providerQuery": "\"VP Sales\"", "filters": {"country": "SE"}},
                    {"attempt": 2.0, "stage": "broadened", "reason": "too few", "fetched": 30, "providerQuery": "VP Sales", "filters": {}, "latencyMs": 120}
                ],
                "error": ""
            }]
        }],
        "triggerRunId": "trg_123",
        "cancelledAt": null,
        "createdAt": "2025-03-01T10:00:00Z",
        "updatedAt": "2025-03-01T10:05:00Z",
        "workerId": "w-1"
    })
}

#[test]
fn latest_run_with_query_diagnostics_and_search_attempts() {
    let r: LatestRun = de(&latest_run_sample());
    assert_eq!(r.run_id, UUID_C);
    assert_eq!(r.status, RunStatus::Other("throttled".into()));
    assert_eq!(r.status.to_string(), "throttled");
    assert!(
        !r.status.is_live(),
        "an unknown status is not polled forever"
    );
    assert_eq!(r.counts.get("stored"), Some(&json!(12)));
    assert_eq!(r.errors.len(), 1);
    assert_eq!(
        (
            r.errors[0].source_id.as_str(),
            r.errors[0].error.as_str(),
            r.errors[0].code.as_str()
        ),
        ("network_people", "provider timeout", "provider_timeout")
    );
    let s = &r.source_status[0];
    assert_eq!(
        (s.source_id.as_str(), s.status.as_str(), s.error.as_str()),
        ("network_people", "partial", "")
    );
    let q = &s.query_diagnostics[0];
    assert_eq!(q.query, "VP Sales");
    assert_eq!(
        (
            q.fetched,
            q.normalized,
            q.ranked,
            q.lead_extracted,
            q.quality_kept,
            q.stored,
            q.max_results
        ),
        (40, 38, 30, 25, 14, 12, 50)
    );
    assert!(q.current_run_depth_expanded);
    assert_eq!(q.error, "");
    let a = &q.search_attempts;
    assert_eq!(a.len(), 2);
    assert_eq!(
        (a[0].attempt, a[0].stage.as_str(), a[0].fetched),
        (1, "exact", 10)
    );
    assert_eq!(a[0].reason, "first try");
    assert_eq!(a[0].provider_query, "\"VP Sales\"");
    assert_eq!(a[0].filters, json!({"country": "SE"}));
    assert_eq!((a[1].attempt, a[1].stage.as_str()), (2, "broadened"));
    assert_eq!(r.trigger_run_id, "trg_123");
    assert_eq!(r.cancelled_at, None);
    assert_eq!(r.updated_at, "2025-03-01T10:05:00Z");

    let r: LatestRun =
        de(&json!({"runId": UUID_C, "status": "running", "cancelledAt": "2025-03-01T11:00:00Z"}));
    assert_eq!(r.status, RunStatus::Running);
    assert!(r.status.is_live());
    assert!(r.errors.is_empty() && r.source_status.is_empty() && r.counts.is_empty());
    assert_eq!(r.cancelled_at.as_deref(), Some("2025-03-01T11:00:00Z"));
}

pub fn run_handle_sample() -> Value {
    json!({
        "runId": UUID_C, "triggerRunId": "trg_9", "status": "queued",
        "continuationRetryAfter": "2025-03-01T10:10:00Z", "counts": {"queued": 1}, "priority": 3
    })
}

#[test]
fn run_handle() {
    let h: RunHandle = de(&run_handle_sample());
    assert_eq!(
        (h.run_id.as_str(), h.trigger_run_id.as_str()),
        (UUID_C, "trg_9")
    );
    assert_eq!(h.status, RunStatus::Queued);
    assert_eq!(
        h.continuation_retry_after.as_deref(),
        Some("2025-03-01T10:10:00Z")
    );
    assert_eq!(h.counts.get("queued"), Some(&json!(1)));
    let h: RunHandle = de(&json!({"runId": "r", "triggerRunId": "t", "status": "deferred"}));
    assert_eq!(h.status, RunStatus::Other("deferred".into()));
    assert_eq!(h.continuation_retry_after, None);
    assert!(h.counts.is_empty());
}

pub fn enrichment_sample() -> Value {
    json!({
        "result": {"resultId": UUID_A, "searchId": UUID_B, "leadId": UUID_C, "sourceId": "network_people"},
        "status": "available",
        "enrichmentProfile": {
            "schemaVersion": 1,
            "provider": "acme-data",
            "person": {"email": "ada@acme.se", "history": [{"company": "Old Co"}]},
            "company": {"employees": 120},
            "observedAt": "2025-03-01T10:00:00Z",
            "providerObservedAt": "2025-02-28T10:00:00Z",
            "truncation": {"truncated": true, "reasons": ["person.history"]},
            "confidence": 0.9
        },
        "fields": [
            {"path": "person.email", "label": "Email", "namespace": "person", "group": "contact",
             "valueType": "string", "operators": ["contains", "regex"], "coverageCount": 10.0},
            {"path": "company.founded", "label": "Founded", "namespace": "company", "group": "firmographics",
             "valueType": "date", "operators": ["eq", "gt", "gte", "lt", "lte"], "coverageCount": 3, "unit": "year"}
        ]
    })
}

#[test]
fn enrichment_profile_response_and_field_descriptor() {
    let r: EnrichmentResponse = de(&enrichment_sample());
    assert_eq!(
        (
            r.result.result_id.as_str(),
            r.result.search_id.as_str(),
            r.result.lead_id.as_str()
        ),
        (UUID_A, UUID_B, UUID_C)
    );
    assert_eq!(r.result.source_id, "network_people");
    assert_eq!(r.status, "available");
    let p = &r.enrichment_profile;
    assert_eq!((p.schema_version, p.provider.as_str()), (1, "acme-data"));
    assert_eq!(p.person["email"], "ada@acme.se");
    assert_eq!(p.company["employees"], 120);
    assert_eq!(p.provider_observed_at, "2025-02-28T10:00:00Z");
    assert!(p.truncation.truncated);
    assert_eq!(p.truncation.reasons, ["person.history"]);
    let f = &r.fields[0];
    assert_eq!(
        (f.path.as_str(), f.label.as_str()),
        ("person.email", "Email")
    );
    assert_eq!(
        (f.namespace.as_str(), f.group.as_str()),
        ("person", "contact")
    );
    assert_eq!(f.value_type, ValueType::String);
    assert_eq!(
        f.operators,
        [Operator::Contains, Operator::Other("regex".into())]
    );
    assert_eq!(f.coverage_count, 10);
    let g = &r.fields[1];
    assert_eq!(g.value_type, ValueType::Other("date".into()));
    assert_eq!(g.value_type.to_string(), "date");
    assert_eq!(
        g.operators,
        [
            Operator::Eq,
            Operator::Gt,
            Operator::Gte,
            Operator::Lt,
            Operator::Lte
        ]
    );

    let r: EnrichmentResponse = de(
        &json!({"result": {"resultId": UUID_A}, "status": "pending", "enrichmentProfile": null}),
    );
    assert_eq!(r.status, "pending");
    assert!(r.fields.is_empty());
    assert!(!r.enrichment_profile.truncation.truncated);
}

pub fn sender_sample() -> Value {
    json!({
        "id": "acc_1", "type": "email", "email_address": "me@acme.se", "provider_account_id": "prov_1",
        "display_name": "Me", "status": "connected", "first_name": "Ada", "last_name": null,
        "daily_limit": 40.0, "is_default_sender": true, "weekly_connection_limit": 0,
        "weekly_message_limit": 0, "is_premium": false, "warmup": true
    })
}

pub fn email_campaign_sample() -> Value {
    json!({
        "id": UUID_A, "user_id": UUID_B, "type": "email", "name": "Q2 outreach", "status": "draft",
        "daily_limit": 50, "stop_on_reply": true, "open_tracking": false, "signature": "-- Ada",
        "stats": {"total": 0, "sent": 0, "replied": 0, "bounced": 0, "completed": 0, "timed_out": 0,
                  "connection_sent": 0, "connected": 0, "connections_accepted": 0, "message_sent": 0, "contacted": 0},
        "created_at": "2025-03-01T10:00:00Z", "updated_at": "2025-03-01T10:00:00Z",
        "sequence_nodes": [
            {"id": UUID_C, "campaign_id": UUID_A, "position": 0, "type": "email", "subject": "", "body": ""},
            {"id": UUID_B, "campaign_id": UUID_A, "position": 1.0, "type": "end", "subject": null, "body": null}
        ],
        "archived_at": null
    })
}

pub fn paused_network_campaign_sample() -> Value {
    json!({
        "id": UUID_A, "user_id": UUID_B, "type": "network", "name": "Founders", "status": "paused",
        "skip_other_campaigns": true, "operating_hours": {"mon": ["09:00", "17:00"]},
        "stats": {"total": 10, "sent": 4, "replied": 1, "bounced": 0, "completed": 1, "timed_out": 0,
                  "connection_sent": 4, "connected": 2.0, "message_sent": 2},
        "created_at": "2025-03-01T10:00:00Z", "updated_at": "2025-03-03T10:00:00Z",
        "sender_accounts": [{
            "id": "acc_9", "type": "network", "email_address": "", "provider_account_id": "li_9",
            "display_name": "Ada B", "status": "connected", "first_name": "Ada", "last_name": "Berg",
            "daily_limit": 20, "is_default_sender": false, "weekly_connection_limit": 100,
            "weekly_message_limit": 150, "is_premium": true
        }]
    })
}

#[test]
fn campaign_with_sequence_nodes_senders_and_stats() {
    let c: Campaign = de(&email_campaign_sample());
    assert_eq!((c.id.as_str(), c.user_id.as_str()), (UUID_A, UUID_B));
    assert_eq!(c.kind, Channel::Email);
    assert_eq!(c.name, "Q2 outreach");
    assert_eq!(c.status, CampaignStatus::Draft);
    assert_eq!(c.daily_limit, Some(50));
    assert_eq!(
        (c.stop_on_reply, c.open_tracking),
        (Some(true), Some(false))
    );
    assert_eq!(c.signature.as_deref(), Some("-- Ada"));
    assert_eq!(
        (c.skip_other_campaigns, c.operating_hours.clone()),
        (None, None),
        "network-only fields missing"
    );
    assert_eq!(c.stats.connections_accepted, Some(0));
    assert_eq!(c.stats.contacted, Some(0));
    let nodes = c.sequence_nodes.expect("sequence_nodes");
    assert_eq!(nodes.len(), 2);
    assert_eq!(
        (nodes[0].kind.clone(), nodes[0].position),
        (NodeType::Email, 0)
    );
    assert_eq!(
        (nodes[0].subject.as_str(), nodes[0].body.as_str()),
        ("", "")
    );
    assert_eq!(nodes[0].campaign_id, UUID_A);
    assert_eq!(
        (nodes[1].kind.clone(), nodes[1].position),
        (NodeType::End, 1)
    );
    assert_eq!(nodes[1].subject, "", "null subject tolerated");
    assert_eq!(c.sender_accounts, None, "missing optional list");
}

// The pause answer: network settings, sender accounts, and stats without
// connections_accepted and contacted.
#[test]
fn paused_network_campaign_with_sender_accounts() {
    let c: Campaign = de(&paused_network_campaign_sample());
    assert_eq!(
        (c.kind.clone(), c.status.clone()),
        (Channel::Network, CampaignStatus::Paused)
    );
    assert_eq!(c.skip_other_campaigns, Some(true));
    assert_eq!(c.operating_hours, Some(json!({"mon": ["09:00", "17:00"]})));
    assert_eq!(
        (c.daily_limit, c.stop_on_reply, c.signature.clone()),
        (None, None, None)
    );
    let s = &c.stats;
    assert_eq!(
        (
            s.total,
            s.sent,
            s.replied,
            s.bounced,
            s.completed,
            s.timed_out
        ),
        (10, 4, 1, 0, 1, 0)
    );
    assert_eq!((s.connection_sent, s.connected, s.message_sent), (4, 2, 2));
    assert_eq!((s.connections_accepted, s.contacted), (None, None));
    assert_eq!(c.sequence_nodes, None);
    let a = &c.sender_accounts.expect("sender_accounts")[0];
    assert_eq!((a.id.as_str(), a.kind.clone()), ("acc_9", Channel::Network));
    assert_eq!(
        (a.provider_account_id.as_str(), a.display_name.as_str()),
        ("li_9", "Ada B")
    );
    assert_eq!(
        (a.first_name.as_str(), a.last_name.as_str()),
        ("Ada", "Berg")
    );
    assert_eq!(
        (
            a.daily_limit,
            a.weekly_connection_limit,
            a.weekly_message_limit
        ),
        (20, 100, 150)
    );
    assert!(a.is_premium && !a.is_default_sender);
    assert_eq!(a.status, "connected");
}

// Unknown status, type and node type are kept verbatim.
#[test]
fn unknown_campaign_status_type_and_node_type_are_kept() {
    let mut odd = email_campaign_sample();
    odd["status"] = json!("archived");
    odd["type"] = json!("sms");
    odd["sequence_nodes"][0]["type"] = json!("voice_note");
    let c: Campaign = de(&odd);
    assert_eq!(c.status, CampaignStatus::Other("archived".into()));
    assert_eq!(c.status.to_string(), "archived");
    assert_eq!(c.kind.to_string(), "sms");
    assert_eq!(
        c.sequence_nodes.expect("nodes")[0].kind,
        NodeType::Other("voice_note".into())
    );

    // The network seed: connection_request then end.
    let n: SequenceNode = de(
        &json!({"id": "n", "campaign_id": "c", "position": 0, "type": "connection_request", "subject": "", "body": "Hi %first_name%"}),
    );
    assert_eq!(n.kind, NodeType::ConnectionRequest);
}

#[test]
fn embedded_sender_account() {
    let a: SenderAccount = de(&sender_sample());
    assert_eq!(a.id, "acc_1");
    assert_eq!(a.kind, Channel::Email);
    assert_eq!(a.email_address, "me@acme.se");
    assert_eq!(a.last_name, "", "null string tolerated");
    assert_eq!(a.daily_limit, 40, "float tolerated");
    assert!(a.is_default_sender && !a.is_premium);
    let a: SenderAccount = de(&json!({"id": "acc_2", "type": "whatsapp"}));
    assert_eq!(a.kind, Channel::Other("whatsapp".into()));
    assert_eq!(a.kind.to_string(), "whatsapp");
    assert_eq!(
        (a.daily_limit, a.is_premium),
        (0, false),
        "missing fields default"
    );
}

pub fn lead_sample() -> Value {
    json!({
        "id": UUID_C, "campaign_id": UUID_A, "user_id": UUID_B, "status": "snoozed",
        "email": "ada@acme.se", "network_url": "https://network.example/in/ada",
        "first_name": "Ada", "last_name": "Berg", "name": "Ada Berg", "company": "Acme",
        "position": "VP Sales", "headline": null, "custom_fields": {"plan": "pro", "seats": 12},
        "source": "csv", "source_ref": "import-1",
        "created_at": "2025-03-01T10:00:00Z", "updated_at": "2025-03-01T10:00:00Z",
        "bounced_at": null, "replied_at": "2025-03-02T10:00:00Z",
        "score": 4
    })
}

#[test]
fn campaign_lead() {
    let l: CampaignLead = de(&lead_sample());
    assert_eq!(
        (l.id.as_str(), l.campaign_id.as_str(), l.user_id.as_str()),
        (UUID_C, UUID_A, UUID_B)
    );
    assert_eq!(l.status, LeadStatus::Other("snoozed".into()));
    assert_eq!(l.status.to_string(), "snoozed");
    assert!(!l.status.is_terminal());
    assert_eq!(l.email, "ada@acme.se");
    assert_eq!(l.network_url, "https://network.example/in/ada");
    assert_eq!(
        (l.first_name.as_str(), l.last_name.as_str(), l.name.as_str()),
        ("Ada", "Berg", "Ada Berg")
    );
    assert_eq!(
        (l.company.as_str(), l.position.as_str(), l.headline.as_str()),
        ("Acme", "VP Sales", "")
    );
    assert_eq!(l.custom_fields.get("plan"), Some(&json!("pro")));
    assert_eq!(
        (l.source.as_str(), l.source_ref.as_str()),
        ("csv", "import-1")
    );
    assert_eq!(l.bounced_at, None);
    assert_eq!(l.replied_at.as_deref(), Some("2025-03-02T10:00:00Z"));
    assert_eq!(l.current_node_id, None, "missing optional");
    for (text, status) in [
        ("pending", LeadStatus::Pending),
        ("connection_sent", LeadStatus::ConnectionSent),
        ("timed_out", LeadStatus::TimedOut),
        ("cancelled", LeadStatus::Cancelled),
    ] {
        let l: CampaignLead = de(&json!({"status": text}));
        assert_eq!(l.status, status);
    }
}

pub fn generated_message_sample() -> Value {
    json!({
        "id": "msg_1", "campaign_id": UUID_A, "prospect_id": UUID_C, "node_id": UUID_B,
        "subject": "Hi Ada", "body_text": "Hello", "body_html": null,
        "status": "scheduled", "manually_edited": true, "created_at": "2025-03-01T10:00:00Z",
        "model": "x"
    })
}

#[test]
fn generated_message() {
    let m: GeneratedMessage = de(&generated_message_sample());
    assert_eq!(
        (
            m.id.as_str(),
            m.campaign_id.as_str(),
            m.prospect_id.as_str(),
            m.node_id.as_str()
        ),
        ("msg_1", UUID_A, UUID_C, UUID_B)
    );
    assert_eq!(
        (
            m.subject.as_str(),
            m.body_text.as_str(),
            m.body_html.as_str()
        ),
        ("Hi Ada", "Hello", "")
    );
    assert_eq!(m.status, MessageStatus::Other("scheduled".into()));
    assert_eq!(m.status.to_string(), "scheduled");
    assert!(m.manually_edited);
    let m: GeneratedMessage = de(&json!({"id": "m", "status": "sent"}));
    assert_eq!(m.status, MessageStatus::Sent);
    assert!(!m.manually_edited, "missing boolean defaults to false");
}

pub fn thread_sample() -> Value {
    json!({
        "id": UUID_A, "channel": "email", "status": "snoozed", "account_id": null,
        "participant_email": "ada@acme.se", "participant_name": null,
        "draft_subject": "Intro", "draft_body_text": "Hi", "draft_body_html": "<p>Hi</p>",
        "draft_cc": "a@x.io,b@x.io", "draft_bcc": "",
        "unread_count": 2.0,
        "draft_attachments": [{
            "name": "deck.pdf", "bucket": "attachments", "path": "u/1/deck.pdf",
            "url": "https://files.example/deck.pdf", "mime_type": "application/pdf",
            "size": 1024, "content_id": null, "scanned": true
        }],
        "pinned": true
    })
}

#[test]
fn thread_with_attachment() {
    let t: Thread = de(&thread_sample());
    assert_eq!(t.id, UUID_A);
    assert_eq!(t.channel, "email");
    assert_eq!(t.status, ThreadStatus::Other("snoozed".into()));
    assert_eq!(t.status.to_string(), "snoozed");
    assert_eq!(t.account_id, None);
    assert_eq!(t.participant_email, "ada@acme.se");
    assert_eq!(t.participant_name, None);
    assert_eq!(t.draft_subject.as_deref(), Some("Intro"));
    assert_eq!(t.draft_body_html.as_deref(), Some("<p>Hi</p>"));
    assert_eq!(t.draft_cc.as_deref(), Some("a@x.io,b@x.io"));
    assert_eq!(t.unread_count, 2);
    let a = &t.draft_attachments[0];
    assert_eq!(
        (a.name.as_str(), a.bucket.as_str(), a.path.as_str()),
        ("deck.pdf", "attachments", "u/1/deck.pdf")
    );
    assert_eq!(
        (a.url.as_str(), a.mime_type.as_str(), a.size),
        ("https://files.example/deck.pdf", "application/pdf", 1024)
    );
    assert_eq!(a.content_id, "");
    assert_eq!(
        (t.created_at, t.updated_at),
        (None, None),
        "fields beyond the table are optional"
    );

    let t: Thread = de(&json!({"id": "t", "status": "archived", "account_id": "acc_1"}));
    assert_eq!(t.status, ThreadStatus::Archived);
    assert_eq!(t.account_id.as_deref(), Some("acc_1"));
    assert!(t.draft_attachments.is_empty());
}

pub fn thread_message_sample() -> Value {
    json!({
        "id": UUID_B, "conversation_id": UUID_A, "direction": "outbound",
        "subject": "Intro", "body_text": null, "sent_at": "2025-03-01T10:00:00Z",
        "attachments": [{"name": "x"}]
    })
}

#[test]
fn thread_message() {
    let m: ThreadMessage = de(&thread_message_sample());
    assert_eq!(
        (m.id.as_str(), m.conversation_id.as_str()),
        (UUID_B, UUID_A)
    );
    assert_eq!(
        (
            m.direction.as_str(),
            m.subject.as_str(),
            m.body_text.as_str()
        ),
        ("outbound", "Intro", "")
    );
    assert_eq!(m.sent_at, "2025-03-01T10:00:00Z");
    let m: ThreadMessage = de(&json!({"id": "m", "direction": "inbound"}));
    assert_eq!((m.direction.as_str(), m.sent_at.as_str()), ("inbound", ""));
}

pub fn domain_sample() -> Value {
    json!({
        "id": UUID_A, "user_id": UUID_B, "domain": "mail.acme.se", "provider_domain_id": "pd_1",
        "status": "expired",
        "dns_records": [
            {"type": "TXT", "name": "resend._domainkey.mail.acme.se", "value": "p=MIGf", "priority": 0, "ttl": 300},
            {"type": "MX", "name": "send.mail.acme.se", "value": "feedback-smtp.example.com", "priority": 10.0},
            {"type": "TXT", "name": "_dmarc.mail.acme.se", "value": "v=DMARC1; p=none;", "priority": null}
        ],
        "verified_at": null, "created_at": "2025-03-01T10:00:00Z", "updated_at": "2025-03-01T10:00:00Z",
        "region": "eu-west-1"
    })
}

#[test]
fn sending_domain_with_dns_records() {
    let d: SendingDomain = de(&domain_sample());
    assert_eq!((d.id.as_str(), d.user_id.as_str()), (UUID_A, UUID_B));
    assert_eq!(
        (d.domain.as_str(), d.provider_domain_id.as_str()),
        ("mail.acme.se", "pd_1")
    );
    assert_eq!(d.status, DomainStatus::Other("expired".into()));
    assert_eq!(d.status.to_string(), "expired");
    assert_eq!(d.dns_records.len(), 3);
    let r = &d.dns_records[0];
    assert_eq!(
        (
            r.kind.as_str(),
            r.name.as_str(),
            r.value.as_str(),
            r.priority
        ),
        ("TXT", "resend._domainkey.mail.acme.se", "p=MIGf", 0)
    );
    assert_eq!(
        (d.dns_records[1].kind.as_str(), d.dns_records[1].priority),
        ("MX", 10)
    );
    assert_eq!(d.dns_records[2].priority, 0, "null priority tolerated");
    assert_eq!(d.verified_at, None);
    let d: SendingDomain =
        de(&json!({"id": "d", "status": "verified", "verified_at": "2025-03-02T00:00:00Z"}));
    assert_eq!(d.status, DomainStatus::Verified);
    assert_eq!(d.verified_at.as_deref(), Some("2025-03-02T00:00:00Z"));
    assert!(d.dns_records.is_empty());
}

pub fn context_sample() -> Value {
    json!({
        "user": {"professionalBackground": "Ten years in sales", "age": 40},
        "company": {"overview": "Acme sells widgets", "product": "Widgets", "problemSolved": "Slow ops",
                    "differentiators": "Speed", "networkPresence": null},
        "content": {"networkVoice": "Plain", "preferredTone": "Warm", "postingCadence": "weekly",
                    "recommendedTopics": ["ops"], "contentFormats": ["posts"], "topicsToAvoid": []},
        "market": {"targetAudience": "COOs", "industryContext": "SaaS",
                   "icpJobTitles": ["COO"], "icpIndustries": ["SaaS"], "icpCompanySizes": ["11-50"],
                   "icpPainPoints": ["manual work"], "icpKeywords": ["automation"]},
        "extra": {"notes": "x"},
        "version": 7
    })
}

#[test]
fn company_profile_context_and_profile() {
    let c: CompanyContext = de(&context_sample());
    assert_eq!(c.user.professional_background, "Ten years in sales");
    assert_eq!(c.company.overview, "Acme sells widgets");
    assert_eq!(
        (
            c.company.product.as_str(),
            c.company.problem_solved.as_str()
        ),
        ("Widgets", "Slow ops")
    );
    assert_eq!(
        (
            c.company.differentiators.as_str(),
            c.company.network_presence.as_str()
        ),
        ("Speed", "")
    );
    assert_eq!(
        (
            c.content.network_voice.as_str(),
            c.content.preferred_tone.as_str()
        ),
        ("Plain", "Warm")
    );
    assert_eq!(c.content.posting_cadence, "weekly");
    assert_eq!(
        (
            c.content.recommended_topics.clone(),
            c.content.content_formats.clone()
        ),
        (vec!["ops".to_owned()], vec!["posts".to_owned()])
    );
    assert!(c.content.topics_to_avoid.is_empty());
    assert_eq!(
        (
            c.market.target_audience.as_str(),
            c.market.industry_context.as_str()
        ),
        ("COOs", "SaaS")
    );
    assert_eq!(c.market.icp_job_titles, ["COO"]);
    assert_eq!(c.market.icp_industries, ["SaaS"]);
    assert_eq!(c.market.icp_company_sizes, ["11-50"]);
    assert_eq!(c.market.icp_pain_points, ["manual work"]);
    assert_eq!(c.market.icp_keywords, ["automation"]);
    assert_eq!(c.extra.get("notes"), Some(&json!("x")));

    let r: ContextResponse = de(&json!({"context": {"company": {"overview": "o"}}}));
    assert_eq!(r.context.company.overview, "o");
    assert_eq!(
        r.context.user.professional_background, "",
        "missing section defaults"
    );
    assert!(r.context.extra.is_empty());
    assert_eq!(r.profile, None);

    let p: Profile = de(
        &json!({"firstName": "Ada", "lastName": "Berg", "companyName": "Acme", "website": null, "title": "x"}),
    );
    assert_eq!(
        (
            p.first_name.as_str(),
            p.last_name.as_str(),
            p.company_name.as_str(),
            p.website.as_str()
        ),
        ("Ada", "Berg", "Acme", "")
    );
}

pub fn discovery_pass_sample() -> Value {
    json!({
        "access": {"kind": "paid_plan", "canCreateLeads": true, "verifiedAt": "2025-03-01T10:00:00Z"},
        "eligibility": {"canRedeem": false, "reason": "already redeemed"},
        "testAccess": {
            "id": "ta_1", "source": "service_domain", "status": "active",
            "activatedAt": "2025-03-01T10:00:00Z", "expiresAt": "2025-03-15T10:00:00Z",
            "discoveryLimit": 100, "discoveryUsed": 12.0, "remaining": 88, "terminalReason": "expired"
        },
        "redeemed": true,
        "campaignCode": "x"
    })
}

#[test]
fn discovery_pass() {
    let d: DiscoveryPass = de(&discovery_pass_sample());
    let a = d.access.expect("access");
    assert_eq!((a.kind.as_str(), a.can_create_leads), ("paid_plan", true));
    assert_eq!(a.verified_at.as_deref(), Some("2025-03-01T10:00:00Z"));
    let e = d.eligibility.expect("eligibility");
    assert_eq!(
        (e.can_redeem, e.reason.as_str()),
        (false, "already redeemed")
    );
    let t = d.test_access.expect("testAccess");
    assert_eq!(
        (t.id.as_str(), t.source.as_str(), t.status.as_str()),
        ("ta_1", "service_domain", "active")
    );
    assert_eq!(
        (t.activated_at.as_str(), t.expires_at.as_str()),
        ("2025-03-01T10:00:00Z", "2025-03-15T10:00:00Z")
    );
    assert_eq!(
        (t.discovery_limit, t.discovery_used, t.remaining),
        (100, 12, 88)
    );
    assert_eq!(t.terminal_reason.as_deref(), Some("expired"));
    assert!(d.redeemed);

    let d: DiscoveryPass = de(
        &json!({"eligibility": {"canRedeem": false, "reason": "unknown code"}, "redeemed": false}),
    );
    assert_eq!((d.access, d.test_access, d.redeemed), (None, None, false));
}

#[test]
fn lead_finder_envelopes() {
    let page: SearchPage = de(&json!({
        "search": search_sample(), "results": [result_sample(), result_sample()],
        "pagination": {"total": 2, "limit": 25, "offset": 0, "hasMore": false, "nextCursor": null},
        "latestRun": latest_run_sample(), "facets": []
    }));
    assert_eq!(page.search.search_id, UUID_A);
    assert_eq!(page.results.len(), 2);
    assert_eq!(page.pagination.total, 2);
    assert_eq!(page.latest_run.expect("latestRun").run_id, UUID_C);
    let page: SearchPage =
        de(&json!({"search": search_sample(), "results": [], "pagination": {}, "latestRun": null}));
    assert_eq!(page.latest_run, None, "a search never run");

    let run: RunResponse = de(
        &json!({"search": search_sample(), "run": run_handle_sample(), "disposition": "queued", "dispatch": "recorded", "eta": 3}),
    );
    assert_eq!(
        (run.disposition.as_str(), run.dispatch.as_str()),
        ("queued", "recorded")
    );
    assert_eq!(run.run.status, RunStatus::Queued);
}

#[test]
fn run_all_envelope() {
    let all: RunAllResponse = de(&json!({
        "surface": "lead-finder", "matchedCount": 3, "queuedCount": 1.0, "existingCount": 1,
        "blockedCount": 0, "failedCount": 1, "skippedCount": 0,
        "results": [
            {"searchId": UUID_A, "title": "A", "status": "queued", "runId": UUID_C, "triggerRunId": "trg", "code": null, "message": null},
            {"searchId": UUID_B, "title": "B", "status": "blocked_by_quota", "code": "quota", "message": "Out of discoveries"}
        ],
        "agentSummary": "1 queued, 1 existing, 1 failed",
        "traceId": "x"
    }));
    assert_eq!(all.surface, "lead-finder");
    assert_eq!(
        (
            all.matched_count,
            all.queued_count,
            all.existing_count,
            all.blocked_count,
            all.failed_count,
            all.skipped_count
        ),
        (3, 1, 1, 0, 1, 0)
    );
    assert_eq!(all.results[0].run_id.as_deref(), Some(UUID_C));
    assert_eq!(all.results[0].code, None);
    assert_eq!(
        all.results[1].status,
        RunStatus::Other("blocked_by_quota".into())
    );
    assert_eq!(all.results[1].run_id, None);
    assert_eq!(
        all.results[1].message.as_deref(),
        Some("Out of discoveries")
    );
    assert_eq!(all.agent_summary, "1 queued, 1 existing, 1 failed");
}

#[test]
fn results_query_envelope() {
    let rq: ResultsPage = de(&json!({
        "search": search_sample(),
        "query": {"q": null, "predicates": [
            {"path": "person.email", "operator": "contains", "value": "@acme"},
            {"path": "company.employees", "operator": "gte", "value": 50},
            {"path": "person.verified", "operator": "eq", "value": true},
            {"path": "person.age", "operator": "between", "value": 3}
        ]},
        "results": [result_sample()],
        "pagination": {"total": 1, "limit": 25, "offset": 0, "hasMore": true, "nextCursor": "opaque=="}
    }));
    assert_eq!(rq.query.q, None);
    assert_eq!(rq.query.predicates.len(), 4);
    assert_eq!(
        rq.query.predicates[0].value,
        PredicateValue::Text("@acme".into())
    );
    assert_eq!(rq.query.predicates[1].value, PredicateValue::Number(50.0));
    assert_eq!(rq.query.predicates[2].value, PredicateValue::Bool(true));
    assert_eq!(
        rq.query.predicates[3].operator,
        Operator::Other("between".into())
    );
    assert_eq!(
        rq.pagination.next_cursor,
        Some(Cursor::Text("opaque==".into()))
    );
    // The contract shows only `search` and `query`; rows and pagination may
    // be absent.
    let rq: ResultsPage =
        de(&json!({"search": search_sample(), "query": {"q": "acme", "predicates": []}}));
    assert_eq!(rq.query.q.as_deref(), Some("acme"));
    assert!(rq.results.is_empty());
}

#[test]
fn search_list_and_search_envelopes() {
    let list: SearchList = de(&json!({"searches": [search_sample(), 7]}));
    assert_eq!(
        list.searches.len(),
        1,
        "a broken element is skipped, not fatal"
    );
    let env: SearchEnvelope = de(&json!({"search": search_sample()}));
    assert_eq!(env.search.title, "Nordic revenue leaders");
}

#[test]
fn campaign_envelopes() {
    let env: CampaignEnvelope = de(&json!({"campaign": paused_network_campaign_sample()}));
    assert_eq!(env.campaign.status, CampaignStatus::Paused);
    let list: CampaignList =
        de(&json!({"campaigns": [email_campaign_sample(), paused_network_campaign_sample()]}));
    assert_eq!(list.campaigns.len(), 2);

    let roster: RosterPage = de(
        &json!({"prospects": [lead_sample()], "total": 41, "page": 2, "limit": 20.0, "next": null}),
    );
    assert_eq!(roster.prospects[0].email, "ada@acme.se");
    assert_eq!((roster.total, roster.page, roster.limit), (41, 2, 20));

    let added: AddLeadsResponse = de(&json!({
        "imported": 1, "duplicates": 2, "prospects": [lead_sample()],
        "duplicate_rows": [{"index": 1, "reason": "batch"}, {"index": 2.0, "reason": "roster"}],
        "warnings": []
    }));
    assert_eq!((added.imported, added.duplicates), (1, 2));
    assert_eq!(added.prospects.len(), 1);
    assert_eq!(
        added.duplicate_rows,
        [
            DuplicateRow {
                index: 1,
                reason: "batch".into()
            },
            DuplicateRow {
                index: 2,
                reason: "roster".into()
            }
        ]
    );
    let added: AddLeadsResponse = de(&json!({"imported": 0}));
    assert!(added.duplicate_rows.is_empty() && added.prospects.is_empty());

    let p: ProspectEnvelope = de(&json!({"prospect": lead_sample()}));
    assert_eq!(p.prospect.id, UUID_C);
    let d: DeleteLeadsResponse = de(&json!({"deleted": 3.0}));
    assert_eq!(d.deleted, 3);
    let m: GeneratedMessages =
        de(&json!({"messages": [generated_message_sample()], "inbound": []}));
    assert_eq!(m.messages[0].subject, "Hi Ada");
    let m: GeneratedMessageEnvelope = de(&json!({"message": generated_message_sample()}));
    assert!(m.message.manually_edited);
}

#[test]
fn inbox_envelopes() {
    let created: CreateThreadResponse = de(&json!({
        "thread": thread_sample(),
        "existing_threads": {"exists": true, "total": 1, "threads": [thread_sample()], "scope": "sender"}
    }));
    assert_eq!(created.thread.id, UUID_A);
    assert!(created.existing_threads.exists);
    assert_eq!(created.existing_threads.total, 1);
    assert_eq!(
        created.existing_threads.threads[0].participant_email,
        "ada@acme.se"
    );
    let created: CreateThreadResponse = de(&json!({"thread": thread_sample()}));
    assert!(
        !created.existing_threads.exists,
        "missing existing_threads defaults"
    );

    let page: MessagesPage =
        de(&json!({"messages": [thread_message_sample()], "total": 1, "page": 1, "limit": 50.0}));
    assert_eq!(page.messages[0].direction, "outbound");
    assert_eq!((page.total, page.page, page.limit), (1, 1, 50));
    let page: ThreadPage =
        de(&json!({"threads": [thread_sample()], "total": 9, "page": 1, "limit": 50}));
    assert_eq!((page.threads.len(), page.total), (1, 9));
    let env: ThreadEnvelope = de(&json!({"thread": thread_sample()}));
    assert_eq!(env.thread.unread_count, 2);
    let sent: SendMessageResponse =
        de(&json!({"message": thread_message_sample(), "thread": thread_sample()}));
    assert_eq!(sent.message.subject, "Intro");
    let del: Deleted = de(&json!({"deleted": true}));
    assert!(del.deleted);
}

#[test]
fn sender_domain_and_context_envelopes() {
    let list: SenderList = de(&json!({"senders": [sender_sample()]}));
    assert_eq!(list.senders[0].id, "acc_1");
    let env: SenderEnvelope = de(&json!({"sender": sender_sample()}));
    assert_eq!(env.sender.kind, Channel::Email);
    let domains: DomainList = de(&json!({"domains": []}));
    assert!(domains.domains.is_empty(), "an empty list is valid");
    let domains: DomainList = de(&json!({"domains": [domain_sample()]}));
    assert_eq!(domains.domains[0].domain, "mail.acme.se");
    let env: DomainEnvelope = de(&json!({"domain": domain_sample()}));
    assert_eq!(env.domain.dns_records.len(), 3);
    let ctx: ContextResponse =
        de(&json!({"context": context_sample(), "profile": {"firstName": "Ada"}}));
    assert_eq!(ctx.profile.expect("profile").first_name, "Ada");
    let ctx: ContextEnvelope = de(&json!({"context": context_sample()}));
    assert_eq!(ctx.context.market.icp_keywords, ["automation"]);
}

#[test]
fn the_three_error_bodies() {
    let structured = ErrorEnvelope::decode(
        json!({"error": {"code": "conflict", "message": "Thread exists", "details": {}},
               "existing_thread": thread_sample(),
               "existing_threads": {"exists": true, "total": 1, "threads": [thread_sample()]}})
        .to_string()
        .as_bytes(),
    )
    .expect("structured");
    assert_eq!(
        (structured.code(), structured.message()),
        (Some("conflict"), "Thread exists")
    );
    let ErrorEnvelope::Structured(s) = &structured else {
        panic!("not structured: {structured:?}")
    };
    assert_eq!(
        s.existing_thread.as_ref().expect("existing_thread").id,
        UUID_A
    );
    assert_eq!(
        s.existing_threads.as_ref().expect("existing_threads").total,
        1
    );

    let flat = ErrorEnvelope::decode(br#"{"error":"No leads in campaign"}"#).expect("flat");
    assert_eq!(
        (flat.code(), flat.message()),
        (None, "No leads in campaign")
    );
    assert!(matches!(flat, ErrorEnvelope::Flat(_)));

    let lf = ErrorEnvelope::decode(
        json!({
            "error": "quota_exhausted", "message": "Discovery quota used up", "sourceId": "network_people",
            "code": "quota_exhausted", "alternatives": ["Redeem a discovery pass", "Narrow the search"],
            "retryable": false, "alert": true,
            "action": {"type": "navigate", "label": "Upgrade", "href": "/settings/billing", "target": "_blank"},
            "severity": "high"
        })
        .to_string()
        .as_bytes(),
    )
    .expect("lead finder");
    let ErrorEnvelope::LeadFinder(l) = &lf else {
        panic!("not lead finder: {lf:?}")
    };
    assert_eq!(
        (lf.code(), lf.message()),
        (Some("quota_exhausted"), "Discovery quota used up")
    );
    assert_eq!(l.source_id, "network_people");
    assert_eq!(
        l.alternatives,
        ["Redeem a discovery pass", "Narrow the search"]
    );
    assert!(!l.retryable && l.alert);
    let a = l.action.as_ref().expect("action");
    assert_eq!(
        (a.kind.as_str(), a.label.as_str(), a.href.as_str()),
        ("navigate", "Upgrade", "/settings/billing")
    );

    // Missing optional parts of the Lead Finder body.
    let lf = ErrorEnvelope::decode(br#"{"error":"Search is running","code":"already_running"}"#)
        .expect("lf");
    let ErrorEnvelope::LeadFinder(l) = &lf else {
        panic!("not lead finder: {lf:?}")
    };
    assert_eq!(lf.message(), "Search is running", "falls back to `error`");
    assert!(l.alternatives.is_empty() && l.action.is_none());

    assert_eq!(ErrorEnvelope::decode(b"<html>502</html>"), None);
    assert_eq!(
        ErrorEnvelope::decode(br#"{"message":"no error key"}"#),
        None
    );
}

#[test]
fn null_nested_objects_default_instead_of_failing_the_parent() {
    let mut c = paused_network_campaign_sample();
    c["stats"] = Value::Null;
    let env: CampaignEnvelope = de(&json!({"campaign": c}));
    assert_eq!(env.campaign.name, "Founders");
    assert_eq!(env.campaign.stats, CampaignStats::default());

    let mut ctx = context_sample();
    ctx["user"] = Value::Null;
    ctx["market"] = json!("n/a");
    let r: ContextResponse = de(&json!({"context": ctx}));
    assert_eq!(r.context.company.overview, "Acme sells widgets");
    assert_eq!(r.context.user, UserSection::default());
    assert_eq!(r.context.market, MarketSection::default());

    let mut e = enrichment_sample();
    e["enrichmentProfile"]["truncation"] = Value::Null;
    e["result"] = Value::Null;
    let r: EnrichmentResponse = de(&e);
    assert_eq!(r.enrichment_profile.provider, "acme-data");
    assert!(!r.enrichment_profile.truncation.truncated);
    assert_eq!(r.result.result_id, "");

    let page: SearchPage =
        de(&json!({"search": null, "results": null, "pagination": null, "latestRun": null}));
    assert_eq!(page, SearchPage::default());
    let created: CreateThreadResponse =
        de(&json!({"thread": thread_sample(), "existing_threads": null}));
    assert_eq!(created.existing_threads, ExistingThreads::default());
}
