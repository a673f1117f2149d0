//! Hostile bodies on every route that reads one: never a 5xx, never a
//! non-JSON answer, and the service keeps answering afterwards.

use serde_json::{Value, json};

use crate::common::*;

fn weird() -> Vec<Value> {
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!([deep]);
    }
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e300),
        json!(18446744073709551615u64),
        json!(""),
        json!("x".repeat(5000)),
        json!("\u{0}\u{1b}[31m"),
        json!([]),
        json!([null, 1, "a"]),
        json!({}),
        json!({"nested": {"x": [1, {"y": null}]}}),
        deep,
    ]
}

/// The ids of a seeded search with results, the 5,000-lead draft campaign
/// and a thread.
async fn seeded_ids(svc: &Svc) -> (String, String, String) {
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
        .find(|c| c.name.starts_with("Q3"))
        .unwrap();
    let thread = svc
        .api
        .list_threads(&Default::default())
        .await
        .unwrap()
        .threads
        .remove(0);
    (search.search_id, campaign.id, thread.id)
}

/// A route's method, path and the body keys it reads.
type Route = (&'static str, String, &'static [&'static str]);

/// Every route that reads a body, with the keys it reads.
fn routes(s: &str, c: &str, t: &str) -> Vec<Route> {
    [lead_finder_and_campaign_routes(s, c), other_routes(t)].concat()
}

/// The Lead Finder and campaign routes that read a body.
fn lead_finder_and_campaign_routes(s: &str, c: &str) -> Vec<Route> {
    vec![
        (
            "POST",
            "/api/lead-finder".into(),
            &[
                "title",
                "kind",
                "intent",
                "sourcePlans",
                "details",
                "description",
            ],
        ),
        (
            "POST",
            format!("/api/lead-finder/{s}/results/query"),
            &["q", "predicates", "sort", "cursor", "limit"],
        ),
        (
            "POST",
            "/api/campaigns".into(),
            &[
                "type",
                "name",
                "sender_account_ids",
                "daily_limit",
                "operating_hours",
            ],
        ),
        (
            "PATCH",
            format!("/api/campaigns/{c}"),
            &[
                "name",
                "sender_account_ids",
                "daily_limit",
                "sequence_nodes",
                "signature",
            ],
        ),
        ("POST", format!("/api/campaigns/{c}/leads"), &["leads"]),
        (
            "PATCH",
            format!("/api/campaigns/{c}/leads"),
            &["id", "email", "custom_fields"],
        ),
        (
            "DELETE",
            format!("/api/campaigns/{c}/leads"),
            &["ids", "all"],
        ),
        (
            "PATCH",
            format!("/api/campaigns/{c}/generate-messages"),
            &["message_id", "subject"],
        ),
    ]
}

/// The inbox, domain, profile and discovery-pass routes that read a body.
fn other_routes(t: &str) -> Vec<Route> {
    vec![
        (
            "POST",
            "/api/threads".into(),
            &[
                "participant_email",
                "account_id",
                "draft_subject",
                "draft_attachments",
            ],
        ),
        (
            "PATCH",
            format!("/api/threads/{t}"),
            &[
                "status",
                "unread_count",
                "account_id",
                "participant_email",
                "draft_cc",
            ],
        ),
        (
            "POST",
            format!("/api/threads/{t}/messages"),
            &["account_id", "subject", "body_text"],
        ),
        ("POST", "/api/email/domains".into(), &["domain"]),
        ("PUT", "/api/context".into(), &["context", "profile"]),
        ("POST", "/api/test-access/redeem".into(), &["code"]),
    ]
}

/// The hostile bodies for one route and one weird value `w`: `w` itself and
/// `w` under each key (and inside a lead row or a predicate where the route
/// reads those).
fn bodies(method: &str, path: &str, keys: &[&str], w: &Value) -> Vec<Value> {
    let mut bodies = vec![w.clone()];
    bodies.extend(keys.iter().map(|k| json!({ *k: w.clone() })));
    if method == "POST" && path.ends_with("/leads") {
        bodies.push(json!({"leads": [w.clone()]}));
        bodies.push(json!({"leads": [{"email": w.clone(), "custom_fields": w.clone()}]}));
    }
    if path.ends_with("/results/query") {
        bodies.push(
            json!({"predicates": [{"path": w.clone(), "operator": "eq", "value": w.clone()}]}),
        );
    }
    bodies
}

/// Below 500, JSON, and an `error` on a failure.
#[track_caller]
fn assert_answered_cleanly(r: &Raw, method: &str, path: &str, b: &Value) {
    assert!(
        r.status < 500,
        "{method} {path} {b}: {} {}",
        r.status,
        r.text
    );
    assert!(
        !r.body.is_null(),
        "{method} {path} {b}: not JSON: {}",
        r.text
    );
    if r.status >= 400 {
        assert!(
            r.body.get("error").is_some(),
            "{method} {path} {b}: {}",
            r.text
        );
    }
}

#[tokio::test]
async fn hostile_bodies_never_break_the_service() {
    let svc = start().await;
    let (s, c, t) = seeded_ids(&svc).await;
    let routes = routes(&s, &c, &t);
    let mut sent = 0;
    for (method, path, keys) in &routes {
        for w in weird() {
            for b in bodies(method, path, keys, &w) {
                let r = svc.raw(method, path, Some(b.clone())).await;
                sent += 1;
                assert_answered_cleanly(&r, method, path, &b);
            }
        }
    }
    assert!(sent > 500);
    // Garbage bytes too.
    let auth = format!("Bearer {}", outpost::testkit::demo::DEMO_KEY);
    for (method, path, _) in &routes {
        for bytes in [&b"\xff\xfe\x00"[..], b"{", b"[1,", b"nul", b"{\"a\":1}}"] {
            let r = svc
                .raw_bytes(Some(&auth), method, path, Some(bytes.to_vec()))
                .await;
            assert_eq!(r.status, 400, "{method} {path}");
            assert_eq!(r.code(), "invalid_request");
        }
    }
    assert_eq!(
        svc.raw("GET", "/api/senders", None).await.status,
        200,
        "still serving"
    );
}
