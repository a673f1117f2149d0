//! Sending domains: create, list, and the verification state table row by
//! row, with the poller chain collapsing repeated triggers.

use outpost::testkit::api::model::*;
use outpost::testkit::demo::DemoConfig;
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn seeded_domains_cover_every_status_newest_first() {
    let svc = start_with(DemoConfig {
        time_scale: 0.0,
        ..config()
    })
    .await;
    let list = svc.api.list_domains(true).await.unwrap();
    let statuses: Vec<&str> = list.iter().map(|d| d.status.as_str()).collect();
    for s in ["pending", "verifying", "verified", "failed"] {
        assert!(statuses.contains(&s), "{s} in {statuses:?}");
    }
    let created: Vec<&str> = list.iter().map(|d| d.created_at.as_str()).collect();
    assert!(created.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let verified = list
        .iter()
        .find(|d| d.status == DomainStatus::Verified)
        .unwrap();
    assert!(verified.verified_at.is_some());
    assert_eq!(svc.other.list_domains(true).await.unwrap().len(), 1);
}

#[tokio::test]
async fn create_domain_pending_with_records_and_its_errors() {
    let svc = start().await;
    let d = svc.api.create_domain("Mail.Example.ORG.").await.unwrap();
    assert_eq!(d.domain, "mail.example.org");
    assert_eq!(d.status, DomainStatus::Pending);
    assert!(d.verified_at.is_none());
    let names: Vec<&str> = d.dns_records.iter().map(|r| r.name.as_str()).collect();
    assert!(
        names.iter().any(|n| n.contains("_domainkey")),
        "DKIM: {names:?}"
    );
    assert!(
        d.dns_records.iter().any(|r| r.value.starts_with("v=spf1")),
        "SPF"
    );
    assert!(names.iter().any(|n| n.starts_with("_dmarc.")), "DMARC");
    assert!(
        d.dns_records
            .iter()
            .any(|r| r.kind == "MX" && r.priority == 10)
    );
    assert_eq!(
        svc.api.list_domains(true).await.unwrap()[0].id,
        d.id,
        "newest first"
    );
    assert_err(
        svc.api.create_domain("mail.example.org").await,
        409,
        "conflict",
    );
    let r = svc
        .raw(
            "POST",
            "/api/email/domains",
            Some(json!({"domain": "not a host"})),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (400, "domain: a hostname such as mail.example.com")
    );
    let r = svc.raw("POST", "/api/email/domains", Some(json!({}))).await;
    assert_eq!(r.message(), "domain: required");
    assert!(
        svc.other.create_domain("mail.example.org").await.is_ok(),
        "names are per workspace"
    );
}

#[tokio::test]
async fn state_table_verify_goes_verifying_then_verified_with_one_poller_chain() {
    let svc = start().await;
    let d = svc.api.create_domain("good.example.com").await.unwrap();
    let before = svc.handle.poller_chains();
    // poll=true on a never-triggered domain: its cached status, nothing
    // triggered.
    let polled = svc.api.verify_domain(&d.id, true).await.unwrap();
    assert_eq!(polled.status, DomainStatus::Pending);
    assert_eq!(svc.handle.poller_chains(), before);
    // Trigger: `verifying` at once (records still propagating).
    let v = svc.api.verify_domain(&d.id, false).await.unwrap();
    assert_eq!(v.status, DomainStatus::Verifying);
    assert!(!v.dns_records.is_empty());
    // A second trigger collapses into the same chain.
    let v2 = svc.api.verify_domain(&d.id, false).await.unwrap();
    assert_eq!(v2.status, DomainStatus::Verifying);
    assert_eq!(svc.handle.poller_chains(), before + 1, "one poller chain");
    // The background chain verifies it; observed through the cached list
    // (skip_sync) so only the poller moves it.
    let done = eventually(30, "verified", || async {
        let list = svc.api.list_domains(true).await.unwrap();
        list.into_iter()
            .find(|x| x.id == d.id)
            .filter(|x| x.status == DomainStatus::Verified)
    })
    .await;
    assert!(done.verified_at.is_some());
    assert_eq!(svc.handle.poller_chains(), before + 1);
    // Triggering a verified domain: the live result comes back verified,
    // no new chain.
    let again = svc.api.verify_domain(&d.id, false).await.unwrap();
    assert_eq!(again.status, DomainStatus::Verified);
    assert_eq!(svc.handle.poller_chains(), before + 1);
}

#[tokio::test]
async fn state_table_rejected_records_fail_and_propagating_ones_stay_verifying() {
    let svc = start().await;
    let bad = svc.api.create_domain("fail-spf.example.com").await.unwrap();
    let slow = svc
        .api
        .create_domain("slow-propagation.example.com")
        .await
        .unwrap();
    assert_eq!(
        svc.api.verify_domain(&bad.id, false).await.unwrap().status,
        DomainStatus::Verifying
    );
    assert_eq!(
        svc.api.verify_domain(&slow.id, false).await.unwrap().status,
        DomainStatus::Verifying
    );
    eventually(30, "failed", || async {
        let d = svc.api.verify_domain(&bad.id, true).await.unwrap();
        (d.status == DomainStatus::Failed).then_some(())
    })
    .await;
    // Well past the first checks (10 and 20 simulated minutes), the slow
    // one is still verifying.
    after_sim(&svc, 25 * 60).await;
    let s = svc.api.verify_domain(&slow.id, true).await.unwrap();
    assert_eq!(s.status, DomainStatus::Verifying);
    assert_eq!(
        svc.handle.poller_chains(),
        2,
        "one chain each; none for the polls"
    );
    // Re-triggering a failed domain answers the live result at once.
    assert_eq!(
        svc.api.verify_domain(&bad.id, false).await.unwrap().status,
        DomainStatus::Failed
    );
}

#[tokio::test]
async fn the_live_list_and_poll_see_the_seeded_domain_verify() {
    // `mail.northwind-demo.io` was triggered 4 simulated minutes before the
    // start; its records are visible 6 minutes in (9 s here).
    let svc = start_with(DemoConfig {
        time_scale: 40.0,
        ..config()
    })
    .await;
    let d = svc
        .api
        .list_domains(false)
        .await
        .unwrap()
        .into_iter()
        .find(|d| d.domain == "mail.northwind-demo.io")
        .unwrap();
    assert_eq!(d.status, DomainStatus::Verifying);
    eventually(60, "seeded domain verified", || async {
        let d2 = svc.api.verify_domain(&d.id, true).await.unwrap();
        (d2.status == DomainStatus::Verified).then_some(())
    })
    .await;
    let slow = svc
        .api
        .list_domains(false)
        .await
        .unwrap()
        .into_iter()
        .find(|d| d.domain.starts_with("slow"))
        .unwrap();
    assert_eq!(slow.status, DomainStatus::Verifying);
    assert_eq!(
        svc.handle.poller_chains(),
        0,
        "polls and lists trigger nothing"
    );
    let r = svc
        .raw(
            "POST",
            &format!("/api/email/domains/{}/verify?poll=maybe", d.id),
            None,
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (400, "poll: expected true or false")
    );
    assert_err(svc.api.verify_domain("nope", false).await, 404, "not_found");
}
