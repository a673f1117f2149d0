//! The demo service serializes these same types, so serializing must give
//! the contract's field names: camelCase for Lead Finder, context and
//! discovery; snake_case for campaigns, threads and domains; `type`, never
//! `kind`; nullable-required fields present as `null`; optional fields
//! omitted. Decoding what was serialized gives the value back.

use std::collections::BTreeSet;
use std::fmt::Debug;

use outpost::testkit::api::model::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::decode::*;

fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("serializes")
}

/// The keys of a JSON object.
fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .cloned()
        .collect()
}

#[track_caller]
fn assert_keys(v: &Value, want: &[&str]) {
    let want: BTreeSet<String> = want.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(keys(v), want, "in {v:#}");
}

/// Serializing then decoding gives the same value.
#[track_caller]
fn round_trips<T: Serialize + DeserializeOwned + PartialEq + Debug>(v: &T) {
    let back: T = de(&to_json(v));
    assert_eq!(&back, v);
}

const SEARCH_KEYS: &[&str] = &[
    "searchId",
    "title",
    "description",
    "kind",
    "surface",
    "definitionHash",
    "intent",
    "sellerContext",
    "sourcePlans",
    "details",
    "lastRunId",
    "leadCount",
    "resultCount",
    "contactedCount",
    "createdAt",
    "updatedAt",
];

#[test]
fn search() {
    let s: Search = de(&search_sample());
    let v = to_json(&s);
    assert_keys(&v, SEARCH_KEYS);
    assert_eq!(
        v["definitionHash"],
        Value::Null,
        "nullable-required present as null"
    );
    assert_eq!(v["lastRunId"], Value::Null);
    assert_eq!(
        v["kind"], "evergreen",
        "unknown value written back verbatim"
    );
    assert_eq!(v["leadCount"], 12);
    assert_keys(&v["details"], &["channel", "plannerAssumedPreferences"]);
    round_trips(&s);

    // A search without details still carries the required `details` object.
    let bare = Search {
        search_id: UUID_A.into(),
        kind: SearchKind::Static,
        ..Default::default()
    };
    let v = to_json(&bare);
    assert_keys(&v, SEARCH_KEYS);
    assert_eq!(v["details"], json!({}), "details is a required object");
    assert_eq!(v["kind"], "static");
}

#[test]
fn source_plans_write_every_part_they_have() {
    let s: Search = de(&search_sample());
    let full = &v_of(&s)["sourcePlans"][0];
    assert_keys(
        full,
        &[
            "sourceId",
            "query",
            "reason",
            "resultTarget",
            "recurrence",
            "geography",
            "companySize",
            "personCriteria",
            "unresolvedPreferences",
            "companyCriteria",
            "rankedCompanyCohort",
        ],
    );
    assert_eq!(full["resultTarget"], json!({"mode": "count", "count": 50}));
    assert_eq!(
        full["geography"],
        json!({"mode": "explicit", "countryCodes": ["SE", "NO"], "cityNames": ["Stockholm"]})
    );
    assert_eq!(full["companySize"], json!({"min": 10, "max": 200}));
    assert_eq!(
        full["personCriteria"],
        json!([{"id": "p1", "kind": "current_title", "values": ["VP Sales"]}])
    );
    assert_eq!(
        full["companyCriteria"][1],
        json!({"id": "c2", "kind": "funding_stage", "operator": "is_not", "value": "Seed"})
    );
    assert_eq!(
        full["rankedCompanyCohort"],
        json!({"kind": "metric", "metric": "employees", "limit": 100})
    );

    let minimal = &v_of(&s)["sourcePlans"][1];
    assert_keys(minimal, &["sourceId", "query", "reason"]);
}

#[test]
fn tagged_unions_and_geography_write_the_contract_shapes() {
    for (cohort, want) in [
        (
            RankedCompanyCohort::Default { limit: None },
            json!({"kind": "default"}),
        ),
        (
            RankedCompanyCohort::Named {
                source_id: "f500".into(),
                limit: Some(3),
            },
            json!({"kind": "named", "sourceId": "f500", "limit": 3}),
        ),
        (
            RankedCompanyCohort::Attached {
                source_id: "l1".into(),
                limit: None,
            },
            json!({"kind": "attached", "sourceId": "l1"}),
        ),
    ] {
        assert_eq!(to_json(&cohort), want);
    }
    assert_eq!(to_json(&ResultTarget::All), json!({"mode": "all"}));
    assert_eq!(
        to_json(&Geography {
            mode: "explicit".into(),
            country_codes: vec!["SE".into()],
            city_names: None
        }),
        json!({"mode": "explicit", "countryCodes": ["SE"]})
    );
}

fn v_of<T: Serialize>(v: &T) -> Value {
    to_json(v)
}

#[test]
fn lead_result() {
    let r: LeadResult = de(&result_sample());
    let v = to_json(&r);
    assert_keys(
        &v,
        &[
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
            "author",
            "lead",
            "metadata",
            "canonicalLead",
            "entityCompany",
            "entityPerson",
            "score",
            "qualityTier",
            "status",
            "enrichmentSummary",
        ],
    );
    assert_eq!(
        (v["author"].clone(), v["lead"].clone()),
        (Value::Null, Value::Null)
    );
    assert_keys(
        &v["canonicalLead"],
        &[
            "id",
            "type",
            "name",
            "title",
            "company",
            "companyDomain",
            "email",
            "networkUrl",
        ],
    );
    assert_eq!(v["canonicalLead"]["type"], "person");
    assert_keys(
        &v["enrichmentSummary"],
        &["status", "schemaVersion", "observedAt", "fieldCount"],
    );
    round_trips(&r);
}

#[test]
fn pagination() {
    let p: Pagination =
        de(&json!({"total": 120, "limit": 25, "offset": 0, "hasMore": true, "nextCursor": 25}));
    let v = to_json(&p);
    assert_keys(&v, &["total", "limit", "offset", "hasMore", "nextCursor"]);
    assert_eq!(v["nextCursor"], 25, "an int cursor stays an int");
    round_trips(&p);
    let p = Pagination {
        next_cursor: Some(Cursor::Text("abc".into())),
        ..Default::default()
    };
    assert_eq!(to_json(&p)["nextCursor"], "abc");
}

#[test]
fn latest_run_and_run_handle() {
    let run: LatestRun = de(&latest_run_sample());
    let v = to_json(&run);
    assert_keys(
        &v,
        &[
            "runId",
            "status",
            "counts",
            "errors",
            "sourceStatus",
            "triggerRunId",
            "cancelledAt",
            "createdAt",
            "updatedAt",
        ],
    );
    assert_keys(&v["errors"][0], &["sourceId", "error", "code"]);
    assert_keys(
        &v["sourceStatus"][0],
        &["sourceId", "status", "error", "queryDiagnostics"],
    );
    let q = &v["sourceStatus"][0]["queryDiagnostics"][0];
    assert_keys(
        q,
        &[
            "query",
            "fetched",
            "normalized",
            "ranked",
            "leadExtracted",
            "qualityKept",
            "stored",
            "maxResults",
            "currentRunDepthExpanded",
            "searchAttempts",
            "error",
        ],
    );
    assert_keys(
        &q["searchAttempts"][0],
        &[
            "attempt",
            "stage",
            "reason",
            "fetched",
            "providerQuery",
            "filters",
        ],
    );
    round_trips(&run);

    let h: RunHandle = de(&run_handle_sample());
    assert_keys(
        &to_json(&h),
        &[
            "runId",
            "triggerRunId",
            "status",
            "continuationRetryAfter",
            "counts",
        ],
    );
    round_trips(&h);
}

#[test]
fn enrichment_response() {
    let e: EnrichmentResponse = de(&enrichment_sample());
    let v = to_json(&e);
    assert_keys(&v, &["result", "status", "enrichmentProfile", "fields"]);
    assert_keys(
        &v["result"],
        &["resultId", "searchId", "leadId", "sourceId"],
    );
    assert_keys(
        &v["enrichmentProfile"],
        &[
            "schemaVersion",
            "provider",
            "person",
            "company",
            "observedAt",
            "providerObservedAt",
            "truncation",
        ],
    );
    assert_keys(
        &v["enrichmentProfile"]["truncation"],
        &["truncated", "reasons"],
    );
    assert_keys(
        &v["fields"][0],
        &[
            "path",
            "label",
            "namespace",
            "group",
            "valueType",
            "operators",
            "coverageCount",
        ],
    );
    assert_eq!(v["fields"][0]["operators"], json!(["contains", "regex"]));
    round_trips(&e);
}

#[test]
fn lead_finder_envelopes() {
    let all: RunAllResponse = de(&json!({
        "surface": "lead-finder", "matchedCount": 1, "queuedCount": 1, "existingCount": 0,
        "blockedCount": 0, "failedCount": 0, "skippedCount": 0,
        "results": [{"searchId": UUID_A, "title": "A", "status": "queued", "runId": UUID_C, "triggerRunId": "t", "code": null, "message": null}],
        "agentSummary": "1 queued"
    }));
    let v = to_json(&all);
    assert_keys(
        &v,
        &[
            "surface",
            "matchedCount",
            "queuedCount",
            "existingCount",
            "blockedCount",
            "failedCount",
            "skippedCount",
            "results",
            "agentSummary",
        ],
    );
    assert_keys(
        &v["results"][0],
        &[
            "searchId",
            "title",
            "status",
            "runId",
            "triggerRunId",
            "code",
            "message",
        ],
    );
    round_trips(&all);

    let page = SearchPage::default();
    assert_keys(
        &to_json(&page),
        &["search", "results", "pagination", "latestRun"],
    );
    let run = RunResponse::default();
    assert_keys(
        &to_json(&run),
        &["search", "run", "disposition", "dispatch"],
    );
    let rq = ResultsPage::default();
    assert_keys(&to_json(&rq), &["search", "query", "results", "pagination"]);
    assert_keys(&to_json(&rq)["query"], &["q", "predicates"]);
}

#[test]
fn campaigns_use_snake_case_and_type() {
    let c: Campaign = de(&email_campaign_sample());
    let v = to_json(&c);
    assert_keys(
        &v,
        &[
            "id",
            "user_id",
            "type",
            "name",
            "status",
            "daily_limit",
            "stop_on_reply",
            "open_tracking",
            "signature",
            "stats",
            "created_at",
            "updated_at",
            "sequence_nodes",
        ],
    );
    assert_eq!(v["type"], "email");
    assert_keys(
        &v["stats"],
        &[
            "total",
            "sent",
            "replied",
            "bounced",
            "completed",
            "timed_out",
            "connection_sent",
            "connected",
            "connections_accepted",
            "message_sent",
            "contacted",
        ],
    );
    assert_keys(
        &v["sequence_nodes"][0],
        &["id", "campaign_id", "position", "type", "subject", "body"],
    );
    assert_eq!(v["sequence_nodes"][1]["type"], "end");
    round_trips(&c);
}

#[test]
fn paused_campaigns_and_sender_accounts_use_snake_case() {
    let c: Campaign = de(&paused_network_campaign_sample());
    let v = to_json(&c);
    assert_keys(
        &v,
        &[
            "id",
            "user_id",
            "type",
            "name",
            "status",
            "skip_other_campaigns",
            "operating_hours",
            "stats",
            "created_at",
            "updated_at",
            "sender_accounts",
        ],
    );
    assert_keys(
        &v["stats"],
        &[
            "total",
            "sent",
            "replied",
            "bounced",
            "completed",
            "timed_out",
            "connection_sent",
            "connected",
            "message_sent",
        ],
    );
    assert_keys(
        &v["sender_accounts"][0],
        &[
            "id",
            "type",
            "email_address",
            "provider_account_id",
            "display_name",
            "status",
            "first_name",
            "last_name",
            "daily_limit",
            "is_default_sender",
            "weekly_connection_limit",
            "weekly_message_limit",
            "is_premium",
        ],
    );
    round_trips(&c);
}

#[test]
fn leads_and_generated_messages_use_snake_case() {
    let l: CampaignLead = de(&lead_sample());
    let v = to_json(&l);
    assert_keys(
        &v,
        &[
            "id",
            "campaign_id",
            "user_id",
            "status",
            "email",
            "network_url",
            "first_name",
            "last_name",
            "name",
            "company",
            "position",
            "headline",
            "custom_fields",
            "source",
            "source_ref",
            "created_at",
            "updated_at",
            "bounced_at",
            "replied_at",
            "current_node_id",
        ],
    );
    assert_eq!(v["status"], "snoozed");
    round_trips(&l);

    let m: GeneratedMessage = de(&generated_message_sample());
    assert_keys(
        &to_json(&m),
        &[
            "id",
            "campaign_id",
            "prospect_id",
            "node_id",
            "subject",
            "body_text",
            "body_html",
            "status",
            "manually_edited",
            "created_at",
        ],
    );
    round_trips(&m);
}

#[test]
fn roster_bodies_use_snake_case_and_type() {
    let roster = RosterPage::default();
    assert_keys(&to_json(&roster), &["prospects", "total", "page", "limit"]);
    let added = AddLeadsResponse::default();
    assert_keys(
        &to_json(&added),
        &["imported", "duplicates", "prospects", "duplicate_rows"],
    );
    assert_eq!(
        to_json(&DeleteLeads::All { all: true }),
        json!({"all": true})
    );
    assert_eq!(
        to_json(&DeleteLeads::Ids {
            ids: vec!["a".into()]
        }),
        json!({"ids": ["a"]})
    );
    let create = CreateCampaign {
        kind: Channel::Network,
        name: "n".into(),
        ..Default::default()
    };
    assert_eq!(
        to_json(&create),
        json!({"type": "network", "name": "n", "sender_account_ids": []})
    );
}

#[test]
fn threads_use_snake_case() {
    let t: Thread = de(&thread_sample());
    let v = to_json(&t);
    assert_keys(
        &v,
        &[
            "id",
            "channel",
            "status",
            "account_id",
            "participant_email",
            "participant_name",
            "draft_subject",
            "draft_body_text",
            "draft_body_html",
            "draft_cc",
            "draft_bcc",
            "unread_count",
            "draft_attachments",
        ],
    );
    assert_eq!(v["account_id"], Value::Null, "sender id or null");
    assert_keys(
        &v["draft_attachments"][0],
        &[
            "name",
            "bucket",
            "path",
            "url",
            "mime_type",
            "size",
            "content_id",
        ],
    );
    round_trips(&t);
    let with_times = Thread {
        created_at: Some("c".into()),
        updated_at: Some("u".into()),
        ..t
    };
    assert_eq!(to_json(&with_times)["updated_at"], "u");

    let m: ThreadMessage = de(&thread_message_sample());
    assert_keys(
        &to_json(&m),
        &[
            "id",
            "conversation_id",
            "direction",
            "subject",
            "body_text",
            "sent_at",
        ],
    );
    round_trips(&m);

    let created: CreateThreadResponse = de(
        &json!({"thread": thread_sample(), "existing_threads": {"exists": false, "total": 0, "threads": []}}),
    );
    let v = to_json(&created);
    assert_keys(&v, &["thread", "existing_threads"]);
    assert_keys(&v["existing_threads"], &["exists", "total", "threads"]);
    assert_keys(
        &to_json(&MessagesPage::default()),
        &["messages", "total", "page", "limit"],
    );
}

#[test]
fn domains_use_snake_case() {
    let d: SendingDomain = de(&domain_sample());
    let v = to_json(&d);
    assert_keys(
        &v,
        &[
            "id",
            "user_id",
            "domain",
            "provider_domain_id",
            "status",
            "dns_records",
            "verified_at",
            "created_at",
            "updated_at",
        ],
    );
    assert_keys(&v["dns_records"][0], &["type", "name", "value", "priority"]);
    assert_eq!(v["verified_at"], Value::Null);
    round_trips(&d);

    // Requests: absent fields omitted, `Some(None)` sent as null.
    let patch = PatchThread {
        status: Some(ThreadStatus::Archived),
        account_id: Some(None),
        ..Default::default()
    };
    assert_eq!(
        to_json(&patch),
        json!({"status": "archived", "account_id": null})
    );
}

#[test]
fn context_and_discovery_use_camel_case() {
    let c: CompanyContext = de(&context_sample());
    let v = to_json(&c);
    assert_keys(&v, &["user", "company", "content", "market", "extra"]);
    assert_keys(&v["user"], &["professionalBackground"]);
    assert_keys(
        &v["company"],
        &[
            "overview",
            "product",
            "problemSolved",
            "differentiators",
            "networkPresence",
        ],
    );
    assert_keys(
        &v["content"],
        &[
            "networkVoice",
            "preferredTone",
            "postingCadence",
            "recommendedTopics",
            "contentFormats",
            "topicsToAvoid",
        ],
    );
    assert_keys(
        &v["market"],
        &[
            "targetAudience",
            "industryContext",
            "icpJobTitles",
            "icpIndustries",
            "icpCompanySizes",
            "icpPainPoints",
            "icpKeywords",
        ],
    );
    round_trips(&c);
    let put = PutContext {
        context: c,
        profile: Profile::default(),
    };
    let v = to_json(&put);
    assert_keys(&v, &["context", "profile"]);
    assert_keys(
        &v["profile"],
        &["firstName", "lastName", "companyName", "website"],
    );

    let d: DiscoveryPass = de(&discovery_pass_sample());
    let v = to_json(&d);
    assert_keys(&v, &["access", "eligibility", "testAccess", "redeemed"]);
    assert_keys(&v["access"], &["kind", "canCreateLeads", "verifiedAt"]);
    assert_keys(&v["eligibility"], &["canRedeem", "reason"]);
    assert_keys(
        &v["testAccess"],
        &[
            "id",
            "source",
            "status",
            "activatedAt",
            "expiresAt",
            "discoveryLimit",
            "discoveryUsed",
            "remaining",
            "terminalReason",
        ],
    );
    round_trips(&d);
}

#[test]
fn error_bodies_serialize_as_the_contract_shows() {
    let s = StructuredError {
        error: ErrorDetail {
            code: "rate_limited".into(),
            message: "Rate limit exceeded. Retry in 2 seconds.".into(),
        },
        ..Default::default()
    };
    assert_eq!(
        to_json(&s),
        json!({"error": {"code": "rate_limited", "message": "Rate limit exceeded. Retry in 2 seconds."}}),
        "no existing_thread keys unless set"
    );
    assert_eq!(
        to_json(&FlatError {
            error: "No leads in campaign".into()
        }),
        json!({"error": "No leads in campaign"})
    );
    let lf = LeadFinderError {
        error: "e".into(),
        message: "m".into(),
        source_id: "network_people".into(),
        code: "c".into(),
        alternatives: vec!["a".into()],
        retryable: true,
        alert: false,
        action: Some(ErrorAction {
            kind: "navigate".into(),
            label: "Go".into(),
            href: "/x".into(),
        }),
    };
    let v = to_json(&lf);
    assert_keys(
        &v,
        &[
            "error",
            "message",
            "sourceId",
            "code",
            "alternatives",
            "retryable",
            "alert",
            "action",
        ],
    );
    assert_eq!(
        v["action"],
        json!({"type": "navigate", "label": "Go", "href": "/x"})
    );
}
