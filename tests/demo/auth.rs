//! Authentication, routing errors, body errors and workspace isolation.

use outpost::testkit::api::Client;
use outpost::testkit::api::model::*;
use outpost::testkit::demo::{DEMO_KEY, OTHER_KEY};
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn missing_malformed_and_unknown_keys_are_401_structured() {
    let svc = start().await;
    let cases: [(Option<&str>, &str); 5] = [
        (None, "no header"),
        (Some("pk_live_demo"), "no Bearer scheme"),
        (Some("Basic pk_live_demo"), "another scheme"),
        (Some("Bearer sk_live_demo"), "wrong prefix"),
        (Some("Bearer pk_live_unknown_key"), "unknown key"),
    ];
    for (auth, why) in cases {
        let r = svc.raw_bytes(auth, "GET", "/api/campaigns", None).await;
        assert_eq!(r.status, 401, "{why}");
        assert_eq!(r.code(), "unauthorized", "{why}");
        assert!(!r.message().is_empty(), "{why}");
        assert!(
            !r.text.contains("pk_live_unknown_key"),
            "the key is never echoed"
        );
    }
    // The typed client reports it as unauthorized too.
    let bad = client(&svc.handle, "pk_live_not_a_workspace");
    let e = bad.list_senders(None).await.expect_err("401");
    assert!(e.is_unauthorized());
}

#[tokio::test]
async fn authentication_comes_before_routing_and_ids() {
    let svc = start().await;
    for path in [
        "/api/threads/00000000-0000-4000-8000-000000000000",
        "/api/nope",
        "/elsewhere",
    ] {
        let r = svc.raw_as(None, "GET", path, None).await;
        assert_eq!((r.status, r.code()), (401, "unauthorized"), "{path}");
    }
    let r = svc
        .raw_as(Some("pk_live_wrong"), "DELETE", "/api/threads/x", None)
        .await;
    assert_eq!(r.status, 401);
}

#[tokio::test]
async fn unknown_routes_are_404_and_wrong_methods_405_structured() {
    let svc = start().await;
    let r = svc.raw("GET", "/api/no-such-route", None).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = svc.raw("GET", "/api/admin/users", None).await;
    assert_eq!(
        (r.status, r.code()),
        (404, "not_found"),
        "hidden routes are not there"
    );
    let r = svc.raw("DELETE", "/api/senders", None).await;
    assert_eq!((r.status, r.code()), (405, "invalid_request"));
    assert!(r.message().contains("DELETE"), "{}", r.message());
    let r = svc.raw("GET", "/api/lead-finder/run", None).await;
    assert_eq!(r.status, 405);
}

#[tokio::test]
async fn malformed_json_and_wrong_types_are_400_naming_the_field() {
    let svc = start().await;
    let auth = format!("Bearer {DEMO_KEY}");
    let r = svc
        .raw_bytes(
            Some(&auth),
            "POST",
            "/api/threads",
            Some(b"{\"draft_subject\": ".to_vec()),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "invalid_request"));
    assert!(
        r.message().starts_with("body: malformed JSON"),
        "{}",
        r.message()
    );
    let r = svc
        .raw_bytes(Some(&auth), "POST", "/api/email/domains", None)
        .await;
    assert_eq!(r.status, 400, "an empty body");
    let r = svc
        .raw("POST", "/api/threads", Some(json!({"draft_subject": 5})))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.message(),
        "draft_subject: expected a string, got a number"
    );
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "email", "name": "x", "sender_account_ids": "abc"})),
        )
        .await;
    assert_eq!(
        r.message(),
        "sender_account_ids: expected an array, got a string"
    );
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "fax", "name": "x"})),
        )
        .await;
    assert_eq!(r.message(), "type: one of network, email");
    let r = svc.raw("POST", "/api/campaigns", Some(json!([1, 2]))).await;
    assert_eq!(r.message(), "body: expected an object, got an array");
    // A body past the 8 MiB cap is refused with the structured envelope too.
    let huge = format!("{{\"draft_subject\": \"{}\"}}", "x".repeat(9 * 1024 * 1024));
    let r = svc
        .raw_bytes(Some(&auth), "POST", "/api/threads", Some(huge.into_bytes()))
        .await;
    assert_eq!((r.status, r.code()), (413, "invalid_request"));
}

#[tokio::test]
async fn created_resources_answer_201_and_reads_200() {
    let svc = start().await;
    let r = svc
        .raw(
            "POST",
            "/api/email/domains",
            Some(json!({"domain": "status-check.example.com"})),
        )
        .await;
    assert_eq!(r.status, 201);
    let r = svc
        .raw("POST", "/api/threads", Some(json!({"draft_subject": "hi"})))
        .await;
    assert_eq!(r.status, 201);
    let r = svc.raw("GET", "/api/threads", None).await;
    assert_eq!(r.status, 200);
    let r = svc
        .raw(
            "POST",
            "/api/test-access/redeem",
            Some(json!({"code": "NOPE"})),
        )
        .await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn user_id_is_one_value_per_workspace() {
    let svc = start().await;
    let campaigns = svc.api.list_campaigns().await.unwrap().unwrap();
    let domains = svc.api.list_domains(true).await.unwrap();
    let mut ids: Vec<&str> = campaigns.iter().map(|c| c.user_id.as_str()).collect();
    ids.extend(domains.iter().map(|d| d.user_id.as_str()));
    ids.dedup();
    assert_eq!(ids.len(), 1, "one user_id in the demo workspace");
    let other = svc.other.list_domains(true).await.unwrap();
    assert_ne!(other[0].user_id, ids[0], "workspaces differ");
}

/// One of each resource a workspace owns, with results and leads.
struct Owned {
    search: Search,
    result: String,
    campaign: Campaign,
    lead: String,
    thread: Thread,
    sender: SenderAccount,
    domain: SendingDomain,
}

/// The resources of `mine`'s workspace the id routes are tried on.
async fn owned(mine: &Client) -> Owned {
    let search = mine
        .list_searches()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|s| s.result_count > 0)
        .unwrap();
    let page = mine
        .get_search(&search.search_id, &SearchPageQuery::default())
        .await
        .unwrap();
    let result = page.results[0].result_id.clone();
    let campaign = mine
        .list_campaigns()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|c| c.stats.total > 0)
        .unwrap();
    let lead = mine
        .list_leads(&campaign.id, &RosterQuery::default())
        .await
        .unwrap()
        .prospects[0]
        .id
        .clone();
    let thread = mine
        .list_threads(&ThreadQuery::default())
        .await
        .unwrap()
        .threads
        .remove(0);
    let sender = mine.list_senders(None).await.unwrap().remove(0);
    let domain = mine.list_domains(true).await.unwrap().remove(0);
    Owned {
        search,
        result,
        campaign,
        lead,
        thread,
        sender,
        domain,
    }
}

/// Every route that takes an id, on the resources of `o`.
fn id_routes(o: &Owned) -> Vec<(&'static str, String, Option<serde_json::Value>)> {
    let (s, c, t, d) = (
        &o.search.search_id,
        &o.campaign.id,
        &o.thread.id,
        &o.domain.id,
    );
    let (result, lead, sender) = (&o.result, &o.lead, &o.sender);
    vec![
        ("GET", format!("/api/lead-finder/{s}"), None),
        ("POST", format!("/api/lead-finder/{s}/run"), None),
        (
            "POST",
            format!("/api/lead-finder/{s}/results/query"),
            Some(json!({})),
        ),
        (
            "GET",
            format!("/api/lead-finder/{s}/results/{result}/enrichment"),
            None,
        ),
        ("GET", format!("/api/campaigns/{c}"), None),
        (
            "PATCH",
            format!("/api/campaigns/{c}"),
            Some(json!({"name": "stolen"})),
        ),
        ("POST", format!("/api/campaigns/{c}/launch"), None),
        ("POST", format!("/api/campaigns/{c}/pause"), None),
        ("POST", format!("/api/campaigns/{c}/resume"), None),
        ("GET", format!("/api/campaigns/{c}/leads"), None),
        (
            "POST",
            format!("/api/campaigns/{c}/leads"),
            Some(json!({"leads": [{"email": "x@y.io"}]})),
        ),
        (
            "PATCH",
            format!("/api/campaigns/{c}/leads"),
            Some(json!({"id": lead, "first_name": "X"})),
        ),
        (
            "DELETE",
            format!("/api/campaigns/{c}/leads"),
            Some(json!({"all": true})),
        ),
        ("GET", format!("/api/campaigns/{c}/generate-messages"), None),
        (
            "PATCH",
            format!("/api/campaigns/{c}/generate-messages"),
            Some(json!({"message_id": "m"})),
        ),
        ("GET", format!("/api/threads/{t}"), None),
        (
            "PATCH",
            format!("/api/threads/{t}"),
            Some(json!({"status": "archived"})),
        ),
        ("DELETE", format!("/api/threads/{t}"), None),
        ("GET", format!("/api/threads/{t}/messages"), None),
        (
            "POST",
            format!("/api/threads/{t}/messages"),
            Some(json!({})),
        ),
        ("GET", format!("/api/senders/{}", sender.id), None),
        ("GET", format!("/api/senders/{}/schedule", sender.id), None),
        ("POST", format!("/api/email/domains/{d}/verify"), None),
        (
            "POST",
            format!("/api/email/domains/{d}/verify?poll=true"),
            None,
        ),
    ]
}

/// Every route that takes an id answers 404 to the other workspace, in both
/// directions, and the resource is untouched.
#[tokio::test]
async fn every_id_route_is_404_across_workspaces() {
    let svc = start().await;
    for (owner, intruder) in [(DEMO_KEY, OTHER_KEY), (OTHER_KEY, DEMO_KEY)] {
        let mine = client(&svc.handle, owner);
        let o = owned(&mine).await;
        let (c, t) = (&o.campaign.id, &o.thread.id);
        for (method, path, body) in id_routes(&o) {
            let r = svc.raw_as(Some(intruder), method, &path, body).await;
            assert_eq!(
                (r.status, r.code()),
                (404, "not_found"),
                "{method} {path} as {intruder}"
            );
        }
        // Untouched: same name, same roster, thread not archived.
        let again = mine.get_campaign(c).await.unwrap();
        assert_eq!(again.name, o.campaign.name);
        assert_eq!(again.stats.total, o.campaign.stats.total);
        assert_eq!(mine.get_thread(t).await.unwrap().status, o.thread.status);
        // The typed client sees a 404 too.
        let them = client(&svc.handle, intruder);
        assert!(them.get_campaign(c).await.unwrap_err().is_not_found());
    }
}

/// Id routes with bad input: (method, path with `ID` for the id, body).
const BAD_INPUT_ROUTES: [(&str, &str, Option<&str>); 15] = [
    ("GET", "/api/lead-finder/ID?limit=0", None),
    ("POST", "/api/lead-finder/ID/run?continuation=x", None),
    (
        "POST",
        "/api/lead-finder/ID/results/query",
        Some(r#"{"limit":0}"#),
    ),
    ("PATCH", "/api/campaigns/ID", Some("{")),
    ("GET", "/api/campaigns/ID/leads?limit=0", None),
    ("POST", "/api/campaigns/ID/leads", Some(r#"{"leads":5}"#)),
    ("PATCH", "/api/campaigns/ID/leads", Some("{}")),
    ("DELETE", "/api/campaigns/ID/leads", Some("{}")),
    (
        "GET",
        "/api/campaigns/ID/generate-messages?prospect_limit=0",
        None,
    ),
    ("PATCH", "/api/campaigns/ID/generate-messages", Some("{}")),
    ("PATCH", "/api/threads/ID", Some(r#"{"unread_count":-1}"#)),
    ("GET", "/api/threads/ID/messages?limit=0", None),
    ("POST", "/api/threads/ID/messages", Some(r#"{"subject":5}"#)),
    ("POST", "/api/email/domains/ID/verify?poll=maybe", None),
    ("GET", "/api/threads/ID/messages?page=0", None),
];

/// An id route resolves its id before it reads its input: another
/// workspace's resource, or a missing one, is 404 even when the query or
/// body is also bad (the owner gets the 400).
#[tokio::test]
async fn id_routes_answer_404_before_checking_input() {
    let svc = start().await;
    let search = svc
        .api
        .list_searches()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|s| s.result_count > 0)
        .unwrap();
    let campaign = svc
        .api
        .list_campaigns()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|c| c.stats.total > 0)
        .unwrap();
    let thread = svc
        .api
        .list_threads(&ThreadQuery::default())
        .await
        .unwrap()
        .threads
        .remove(0);
    let domain = svc.api.list_domains(true).await.unwrap().remove(0);
    let missing = "00000000-0000-4000-8000-000000000000";
    for (method, path, body) in BAD_INPUT_ROUTES {
        let id = if path.starts_with("/api/lead-finder") {
            &search.search_id
        } else if path.starts_with("/api/campaigns") {
            &campaign.id
        } else if path.starts_with("/api/threads") {
            &thread.id
        } else {
            &domain.id
        };
        let send = |key: &str, id: &str| {
            let auth = format!("Bearer {key}");
            let path = path.replace("ID", id);
            let svc = &svc;
            async move {
                svc.raw_bytes(
                    Some(&auth),
                    method,
                    &path,
                    body.map(|b| b.as_bytes().to_vec()),
                )
                .await
            }
        };
        let r = send(DEMO_KEY, id).await;
        assert_eq!(r.status, 400, "{method} {path} as the owner: {}", r.text);
        for (key, id, whose) in [
            (OTHER_KEY, id.as_str(), "another's"),
            (DEMO_KEY, missing, "a missing"),
        ] {
            let r = send(key, id).await;
            assert_eq!(
                (r.status, r.code()),
                (404, "not_found"),
                "{method} {path} on {whose} id: {}",
                r.text
            );
        }
    }
}
