//! Company profile (full replacement) and discovery-pass redemption.

use outpost::testkit::api::model::*;
use outpost::testkit::demo::DemoConfig;
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn the_seeded_profile_reads_and_replaces_whole() {
    let svc = start().await;
    let cur = svc.api.get_context().await.unwrap();
    assert!(!cur.context.company.overview.is_empty());
    assert!(!cur.context.market.icp_job_titles.is_empty());
    assert_eq!(cur.profile.as_ref().unwrap().first_name, "Maya");
    let mut next = cur.context.clone();
    next.company.product = "Something new".into();
    next.content.topics_to_avoid = vec![];
    let stored = svc
        .api
        .put_context(&PutContext {
            context: next.clone(),
            profile: cur.profile.clone().unwrap(),
        })
        .await
        .unwrap();
    assert_eq!(stored, next);
    assert_eq!(svc.api.get_context().await.unwrap().context, next);
    // The other workspace's profile is its own.
    assert_ne!(svc.other.get_context().await.unwrap().context, next);
}

#[tokio::test]
async fn partial_profiles_and_unknown_keys_are_400() {
    let svc = start().await;
    let cur = svc.api.get_context().await.unwrap();
    let full = serde_json::to_value(PutContext {
        context: cur.context.clone(),
        profile: cur.profile.clone().unwrap(),
    })
    .unwrap();
    let mut partial = full.clone();
    partial["context"]["market"]
        .as_object_mut()
        .unwrap()
        .remove("icpKeywords");
    let r = svc.raw("PUT", "/api/context", Some(partial)).await;
    assert_eq!(
        (r.status, r.message()),
        (400, "context.market.icpKeywords: required")
    );
    let r = svc
        .raw(
            "PUT",
            "/api/context",
            Some(json!({"context": full["context"]})),
        )
        .await;
    assert_eq!(r.message(), "profile: required");
    let mut extra = full.clone();
    extra["context"]["company"]["mission"] = json!("x");
    let r = svc.raw("PUT", "/api/context", Some(extra)).await;
    assert_eq!(
        r.message(),
        "context.company.mission: unknown key (no other keys allowed)"
    );
    let mut wrong = full.clone();
    wrong["context"]["content"]["recommendedTopics"] = json!("one topic");
    let r = svc.raw("PUT", "/api/context", Some(wrong)).await;
    assert_eq!(
        r.message(),
        "context.content.recommendedTopics: expected an array, got a string"
    );
    assert_eq!(
        svc.api.get_context().await.unwrap().context,
        cur.context,
        "unchanged"
    );
    let r = svc.raw("PUT", "/api/context", Some(full)).await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn redeem_a_code_once_with_limit_and_expiry() {
    let svc = start().await;
    let p = svc.api.redeem("demo-pass-1").await.unwrap();
    assert!(p.redeemed);
    let ta = p.test_access.unwrap();
    assert_eq!(
        (ta.status.as_str(), ta.source.as_str()),
        ("active", "service_domain")
    );
    assert_eq!(
        (ta.discovery_limit, ta.discovery_used, ta.remaining),
        (100, 0, 100)
    );
    assert!(ta.expires_at > ta.activated_at);
    assert_eq!(ta.terminal_reason, None);
    assert_eq!(p.access.unwrap().kind, "paid_plan");
    let again = svc.api.redeem("DEMO-PASS-1").await.unwrap();
    assert!(!again.redeemed);
    let el = again.eligibility.unwrap();
    assert!(
        !el.can_redeem && el.reason.contains("already"),
        "{}",
        el.reason
    );
    let second = svc.api.redeem("DEMO-PASS-2").await.unwrap();
    assert!(!second.redeemed, "one active pass at a time");
    let unknown = svc.api.redeem("NOT-A-CODE").await.unwrap();
    assert!(!unknown.redeemed);
    assert_eq!(unknown.eligibility.unwrap().reason, "Unknown code");
    // Runs use discoveries of the active pass.
    let s = svc
        .api
        .list_searches()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|s| s.title.starts_with("CFOs"))
        .unwrap();
    svc.api.run_search(&s.search_id, None).await.unwrap();
    let used = eventually(30, "discoveries used", || async {
        let p = svc.api.redeem("NOT-A-CODE").await.unwrap();
        let ta = p.test_access.unwrap();
        (ta.discovery_used > 0).then_some(ta)
    })
    .await;
    assert_eq!(used.remaining, used.discovery_limit - used.discovery_used);
}

#[tokio::test]
async fn redeem_code_length_limits() {
    let svc = start().await;
    for (code, want) in [
        ("x".repeat(100), 200),
        ("x".repeat(101), 400),
        (String::new(), 400),
        ("x".into(), 200),
    ] {
        let r = svc
            .raw(
                "POST",
                "/api/test-access/redeem",
                Some(json!({"code": code})),
            )
            .await;
        assert_eq!(r.status, want, "{} chars", code.len());
        if want == 400 {
            assert_eq!(
                (r.code(), r.message()),
                ("invalid_request", "code: 1 to 100 chars")
            );
        } else {
            assert_eq!(r.body["redeemed"], false);
        }
    }
    let r = svc
        .raw("POST", "/api/test-access/redeem", Some(json!({})))
        .await;
    assert_eq!(r.message(), "code: required");
}

#[tokio::test]
async fn a_pass_expires() {
    // DEMO-PASS-2 lasts two simulated hours: 1.2 s at this pace.
    let svc = start_with(DemoConfig {
        time_scale: 6000.0,
        ..config()
    })
    .await;
    let p = svc.api.redeem("DEMO-PASS-2").await.unwrap();
    assert!(p.redeemed);
    assert_eq!(p.test_access.unwrap().discovery_limit, 25);
    after_sim(&svc, 2 * 3600).await;
    let later = svc.api.redeem("DEMO-PASS-2").await.unwrap();
    let ta = later.test_access.unwrap();
    assert_eq!(
        (ta.status.as_str(), ta.terminal_reason.as_deref()),
        ("expired", Some("expired"))
    );
    // With the pass expired, another code may be redeemed.
    assert!(svc.api.redeem("DEMO-PASS-1").await.unwrap().redeemed);
}

#[tokio::test]
async fn a_pass_runs_out_of_discoveries_and_its_wire_shape_is_the_contracts() {
    // A run takes 4 simulated minutes (0.4 s here); DEMO-PASS-2 lasts two
    // simulated hours (12 s).
    let svc = start_with(DemoConfig {
        time_scale: 600.0,
        ..config()
    })
    .await;
    let r = svc
        .raw(
            "POST",
            "/api/test-access/redeem",
            Some(json!({"code": "DEMO-PASS-2"})),
        )
        .await;
    assert_eq!(r.status, 200);
    let b = &r.body;
    assert_eq!(b["redeemed"], true);
    assert_eq!(b["access"]["kind"], "paid_plan");
    assert_eq!(b["access"]["canCreateLeads"], true);
    assert!(b["access"]["verifiedAt"].is_string());
    assert_eq!(b["eligibility"]["canRedeem"], false);
    assert!(b["eligibility"]["reason"].is_string());
    let ta = &b["testAccess"];
    for key in ["id", "source", "status", "activatedAt", "expiresAt"] {
        assert!(ta[key].is_string(), "testAccess.{key}: {ta}");
    }
    assert_eq!(
        (
            &ta["discoveryLimit"],
            &ta["discoveryUsed"],
            &ta["remaining"],
            &ta["terminalReason"]
        ),
        (&json!(25), &json!(0), &json!(25), &json!(null))
    );
    // The never-run search stores 40 results: more than the pass allows.
    let s = svc
        .api
        .list_searches()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|s| s.title.starts_with("CFOs"))
        .unwrap();
    svc.api.run_search(&s.search_id, None).await.unwrap();
    let ended = eventually(20, "the pass used up", || async {
        let ta = svc.api.redeem("DEMO-PASS-2").await.unwrap().test_access?;
        (ta.remaining == 0).then_some(ta)
    })
    .await;
    assert_eq!(
        (
            ended.status.as_str(),
            ended.terminal_reason.as_deref(),
            ended.discovery_used
        ),
        ("exhausted", Some("limit_reached"), 25)
    );
    // Used up is not active: another code may be redeemed, a used one not.
    let again = svc.api.redeem("DEMO-PASS-2").await.unwrap();
    assert!(!again.redeemed);
    assert!(
        again.eligibility.unwrap().reason.contains("already"),
        "a used code"
    );
    let next = svc.api.redeem("DEMO-PASS-1").await.unwrap();
    assert!(next.redeemed);
    let ta = next.test_access.unwrap();
    assert_eq!((ta.discovery_limit, ta.remaining), (100, 100));
}
