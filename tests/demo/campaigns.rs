//! Campaigns: create rules (1, 2), the campaign state table row by row
//! (rules 3, 4, 5), roster Limits, dedup, paging, simulated progress and
//! generated messages.

use std::collections::HashSet;

use outpost::testkit::api::model::*;
use outpost::testkit::demo::DemoConfig;
use serde_json::{Value, json};

use crate::common::*;

async fn senders(svc: &Svc, kind: Channel) -> Vec<SenderAccount> {
    svc.api.list_senders(Some(&kind)).await.unwrap()
}

async fn ready_sender(svc: &Svc, kind: Channel) -> String {
    senders(svc, kind)
        .await
        .into_iter()
        .find(|s| s.status == "connected")
        .unwrap()
        .id
}

async fn create(svc: &Svc, kind: Channel, name: &str) -> Campaign {
    let sender = ready_sender(svc, kind.clone()).await;
    svc.api
        .create_campaign(&CreateCampaign {
            kind,
            name: name.into(),
            sender_account_ids: vec![sender],
            ..Default::default()
        })
        .await
        .unwrap()
}

fn emails(prefix: &str, n: usize) -> Vec<LeadInput> {
    (0..n)
        .map(|i| LeadInput {
            email: Some(format!("{prefix}{i}@example.com")),
            first_name: Some(format!("Lead{i}")),
            company: Some("Acme".into()),
            ..Default::default()
        })
        .collect()
}

async fn seeded(svc: &Svc, name_start: &str) -> Campaign {
    svc.api
        .list_campaigns()
        .await
        .unwrap()
        .unwrap()
        .into_iter()
        .find(|c| c.name.starts_with(name_start))
        .unwrap_or_else(|| panic!("seeded campaign {name_start}"))
}

async fn roster(svc: &Svc, id: &str) -> Vec<CampaignLead> {
    let mut all = Vec::new();
    for page in 1.. {
        let p = svc
            .api
            .list_leads(
                id,
                &RosterQuery {
                    page: Some(page),
                    limit: Some(200),
                    status: None,
                },
            )
            .await
            .unwrap();
        let n = p.prospects.len();
        all.extend(p.prospects);
        if n < 200 {
            break;
        }
    }
    all
}

/// Asserts `stats` equal the roster's counts by status.
fn assert_stats_match(c: &Campaign, leads: &[CampaignLead]) {
    let n = |s: LeadStatus| leads.iter().filter(|l| l.status == s).count() as u64;
    let st = &c.stats;
    assert_eq!(st.total, leads.len() as u64, "total");
    assert_eq!(st.sent, n(LeadStatus::Sent), "sent");
    assert_eq!(st.replied, n(LeadStatus::Replied), "replied");
    assert_eq!(st.bounced, n(LeadStatus::Bounced), "bounced");
    assert_eq!(st.completed, n(LeadStatus::Completed), "completed");
    assert_eq!(st.timed_out, n(LeadStatus::TimedOut), "timed_out");
    assert_eq!(
        st.connection_sent,
        n(LeadStatus::ConnectionSent),
        "connection_sent"
    );
    assert_eq!(st.connected, n(LeadStatus::Connected), "connected");
    assert_eq!(st.message_sent, n(LeadStatus::MessageSent), "message_sent");
    let contacted = leads
        .iter()
        .filter(|l| l.status != LeadStatus::Pending)
        .count() as u64;
    assert_eq!(st.contacted, Some(contacted), "contacted");
}

#[tokio::test]
async fn create_makes_drafts_with_the_seeded_two_node_sequence() {
    let svc = start().await;
    let e = create(&svc, Channel::Email, "New email campaign").await;
    assert_eq!(
        (e.status.clone(), e.kind.clone()),
        (CampaignStatus::Draft, Channel::Email)
    );
    let nodes = e.sequence_nodes.clone().unwrap();
    assert_eq!(
        nodes.iter().map(|n| n.kind.clone()).collect::<Vec<_>>(),
        [NodeType::Email, NodeType::End]
    );
    assert_eq!(
        (nodes[0].subject.as_str(), nodes[0].body.as_str()),
        ("", "")
    );
    assert!(nodes.iter().all(|n| n.campaign_id == e.id));
    assert_eq!(e.stats.total, 0);
    assert_eq!(e.daily_limit, Some(50));
    assert_eq!(
        e.skip_other_campaigns, None,
        "network-only fields are absent"
    );
    let n = create(&svc, Channel::Network, "New network campaign").await;
    let kinds: Vec<NodeType> = n
        .sequence_nodes
        .unwrap()
        .into_iter()
        .map(|n| n.kind)
        .collect();
    assert_eq!(kinds, [NodeType::ConnectionRequest, NodeType::End]);
    assert_eq!(n.daily_limit, None);
    assert!(n.operating_hours.is_some());
    let r = svc
        .raw("GET", &format!("/api/campaigns/{}", e.id), None)
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body["campaign"]["sender_accounts"].is_array());
    let listed = svc.api.list_campaigns().await.unwrap().unwrap();
    assert_eq!(listed[0].id, n.id, "newest first");
    // Without sender_account_ids the workspace's connected senders are used.
    let c = svc
        .api
        .create_campaign(&CreateCampaign {
            kind: Channel::Email,
            name: "Defaults".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let used = svc
        .api
        .get_campaign(&c.id)
        .await
        .unwrap()
        .sender_accounts
        .unwrap();
    assert!(
        !used.is_empty()
            && used
                .iter()
                .all(|s| s.status == "connected" && s.kind == Channel::Email)
    );
}

#[tokio::test]
async fn rule_1_duplicate_name_is_409() {
    let svc = start().await;
    create(&svc, Channel::Email, "Spring push").await;
    let sender = ready_sender(&svc, Channel::Network).await;
    let req = CreateCampaign {
        kind: Channel::Network,
        name: " spring PUSH ".into(),
        sender_account_ids: vec![sender],
        ..Default::default()
    };
    assert_err(svc.api.create_campaign(&req).await, 409, "conflict");
    // Another workspace may use the name.
    let other = svc
        .other
        .create_campaign(&CreateCampaign {
            kind: Channel::Email,
            name: "Spring push".into(),
            ..Default::default()
        })
        .await;
    assert!(other.is_ok());
}

#[tokio::test]
async fn rule_2_sender_of_the_other_channel_is_400() {
    let svc = start().await;
    let network = ready_sender(&svc, Channel::Network).await;
    let email = ready_sender(&svc, Channel::Email).await;
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "email", "name": "A", "sender_account_ids": [email, network]})),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "invalid_request"));
    assert!(
        r.message()
            .starts_with("sender_account_ids[1]: is a network sender"),
        "{}",
        r.message()
    );
    let not_ready = senders(&svc, Channel::Email)
        .await
        .into_iter()
        .find(|s| s.status != "connected")
        .unwrap();
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "email", "name": "B", "sender_account_ids": [not_ready.id]})),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(r.message().contains("disconnected"), "{}", r.message());
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "email", "name": "C", "sender_account_ids": ["nope"]})),
        )
        .await;
    assert_eq!(r.message(), "sender_account_ids[0]: unknown sender account");
    // The other workspace has no network sender at all.
    let e = svc
        .other
        .create_campaign(&CreateCampaign {
            kind: Channel::Network,
            name: "N".into(),
            ..Default::default()
        })
        .await;
    assert_err(e, 400, "invalid_request");
}

#[tokio::test]
async fn fields_of_the_other_channel_are_silently_ignored() {
    let svc = start().await;
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "network", "name": "Net", "daily_limit": "lots", "signature": 5, "skip_other_campaigns": true})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert!(r.body["campaign"].get("daily_limit").is_none());
    assert_eq!(r.body["campaign"]["skip_other_campaigns"], true);
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "email", "name": "Em", "daily_limit": 0})),
        )
        .await;
    assert_eq!(
        r.message(),
        "daily_limit: must be greater than 0",
        "own-channel fields are checked"
    );
    let r = svc
        .raw(
            "POST",
            "/api/campaigns",
            Some(json!({"type": "email", "name": "  "})),
        )
        .await;
    assert_eq!(r.message(), "name: required");
}

#[tokio::test]
async fn rule_3_launch_without_pending_leads_is_400_flat_and_stays_draft() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Empty").await;
    let r = svc
        .raw("POST", &format!("/api/campaigns/{}/launch", c.id), None)
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.body,
        json!({"error": "No leads in campaign"}),
        "the flat envelope, exactly"
    );
    let e = assert_err(svc.api.launch_campaign(&c.id).await, 400, "invalid_request");
    assert_eq!(e.message(), "No leads in campaign");
    assert_eq!(
        svc.api.get_campaign(&c.id).await.unwrap().status,
        CampaignStatus::Draft
    );
}

#[tokio::test]
async fn state_table_draft_launch_goes_launching_then_active() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Launch me").await;
    svc.api
        .add_leads(&c.id, &Channel::Email, &emails("l", 3))
        .await
        .unwrap();
    let launched = svc.api.launch_campaign(&c.id).await.unwrap();
    assert_eq!(launched.status, CampaignStatus::Launching);
    // Launching a non-draft is a conflict.
    assert_err(svc.api.launch_campaign(&c.id).await, 409, "conflict");
    eventually(30, "active", || async {
        (svc.api.get_campaign(&c.id).await.unwrap().status == CampaignStatus::Active).then_some(())
    })
    .await;
    assert_err(svc.api.launch_campaign(&c.id).await, 409, "conflict");
}

#[tokio::test]
async fn rule_4_pause_only_when_active() {
    // A stopped clock keeps the seeded launch in `launching`.
    let svc = start_with(DemoConfig {
        time_scale: 0.0,
        ..config()
    })
    .await;
    let pause_raw = |id: String| {
        let svc = &svc;
        async move {
            svc.raw("POST", &format!("/api/campaigns/{id}/pause"), None)
                .await
        }
    };
    for name in [
        "Q3 RevOps",
        "Growth leaders — launch week",
        "Founders — first SDR",
        "Finance leaders Q2",
        "Platform eng — EU",
    ] {
        let c = seeded(&svc, name).await;
        assert_ne!(c.status, CampaignStatus::Active, "{name}");
        let r = pause_raw(c.id.clone()).await;
        assert_eq!(r.status, 400, "{name} ({})", c.status);
        assert_eq!(r.flat(), "Only active campaigns can be paused");
        assert_eq!(
            svc.api.get_campaign(&c.id).await.unwrap().status,
            c.status,
            "unchanged"
        );
    }
    // active → paused, synchronously; the pause answer omits two stats and
    // carries the senders; a second pause is 400.
    let active = seeded(&svc, "Series B RevOps").await;
    assert_eq!(active.status, CampaignStatus::Active);
    let r = pause_raw(active.id.clone()).await;
    assert_eq!(r.status, 200);
    let camp = &r.body["campaign"];
    assert_eq!(camp["status"], "paused");
    assert!(
        camp["stats"].get("connections_accepted").is_none()
            && camp["stats"].get("contacted").is_none()
    );
    assert!(camp["stats"]["total"].as_u64().unwrap() > 0);
    assert!(!camp["sender_accounts"].as_array().unwrap().is_empty());
    assert_eq!(
        svc.api.get_campaign(&active.id).await.unwrap().status,
        CampaignStatus::Paused
    );
    assert_err(
        svc.api.pause_campaign(&active.id).await,
        400,
        "invalid_request",
    );
}

#[tokio::test]
async fn state_table_paused_resume_goes_active_and_others_cannot_resume() {
    let svc = start().await;
    let paused = seeded(&svc, "Platform eng — EU").await;
    assert_eq!(paused.status, CampaignStatus::Paused);
    let before = roster(&svc, &paused.id).await;
    let resumed = svc.api.resume_campaign(&paused.id).await.unwrap();
    assert_eq!(resumed.status, CampaignStatus::Active);
    let r = svc
        .raw(
            "POST",
            &format!("/api/campaigns/{}/resume", paused.id),
            None,
        )
        .await;
    assert_eq!(
        (r.status, r.flat()),
        (400, "Only paused campaigns can be resumed")
    );
    let draft = seeded(&svc, "Q3 RevOps").await;
    assert_err(
        svc.api.resume_campaign(&draft.id).await,
        400,
        "invalid_request",
    );
    // While paused nothing moved; the roster is the same people.
    assert_eq!(before.len(), roster(&svc, &paused.id).await.len());
}

#[tokio::test]
async fn rule_5_roster_is_frozen_outside_draft() {
    let svc = start_with(DemoConfig {
        time_scale: 0.0,
        ..config()
    })
    .await;
    for name in [
        "Growth leaders — launch week",
        "Series B RevOps",
        "Platform eng — EU",
        "Finance leaders Q2",
    ] {
        let c = seeded(&svc, name).await;
        let lead = svc
            .api
            .list_leads(&c.id, &RosterQuery::default())
            .await
            .unwrap()
            .prospects[0]
            .id
            .clone();
        let path = format!("/api/campaigns/{}/leads", c.id);
        let tries = [
            ("POST", json!({"leads": [{"email": "new@example.com"}]})),
            ("PATCH", json!({"id": lead, "first_name": "Changed"})),
            ("DELETE", json!({"ids": [lead]})),
            ("DELETE", json!({"all": true})),
        ];
        for (method, body) in tries {
            let r = svc.raw(method, &path, Some(body)).await;
            assert_eq!(r.status, 400, "{method} on {name} ({})", c.status);
            assert!(r.flat().contains("roster is frozen"), "{}", r.text);
        }
        assert_eq!(
            svc.api.get_campaign(&c.id).await.unwrap().stats.total,
            c.stats.total,
            "{name} unchanged"
        );
    }
}

#[tokio::test]
async fn rule_5_a_row_without_the_channel_identity_names_its_index() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Identity").await;
    let r = svc
        .raw(
            "POST",
            &format!("/api/campaigns/{}/leads", c.id),
            Some(json!({"leads": [{"email": "a@x.io"}, {"network_url": "https://network.example/in/b"}, {"email": "c@x.io"}, {"email": "  "}]})),
        )
        .await;
    assert_eq!((r.status, r.code()), (400, "invalid_request"));
    assert_eq!(r.message(), "row 1: missing email; row 3: missing email");
    assert_eq!(
        svc.api.get_campaign(&c.id).await.unwrap().stats.total,
        0,
        "rejected whole"
    );
    let n = create(&svc, Channel::Network, "Identity net").await;
    let r = svc
        .raw(
            "POST",
            &format!("/api/campaigns/{}/leads", n.id),
            Some(json!({"leads": [{"email": "a@x.io"}]})),
        )
        .await;
    assert_eq!(r.message(), "row 0: missing network_url");
    let r = svc
        .raw(
            "POST",
            &format!("/api/campaigns/{}/leads", c.id),
            Some(json!({"leads": [{"email": "not-an-address"}]})),
        )
        .await;
    assert_eq!(r.message(), "row 0: invalid email");
    // The other identity is recorded when valid, dropped when not.
    let added = svc
        .api
        .add_leads(
            &n.id,
            &Channel::Network,
            &[
                LeadInput {
                    network_url: Some("https://network.example/in/x".into()),
                    email: Some("X@Y.io".into()),
                    ..Default::default()
                },
                LeadInput {
                    network_url: Some("https://network.example/in/y".into()),
                    email: Some("broken".into()),
                    ..Default::default()
                },
            ],
        )
        .await
        .unwrap();
    assert_eq!(added.prospects[0].email, "X@Y.io");
    assert_eq!(added.prospects[1].email, "");
    assert!(
        added
            .prospects
            .iter()
            .all(|p| p.status == LeadStatus::Pending)
    );
}

#[tokio::test]
async fn lead_add_and_delete_limits() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Limits").await;
    let path = format!("/api/campaigns/{}/leads", c.id);
    let rows = |n: usize, p: &str| {
        Value::Array(
            (0..n)
                .map(|i| json!({"email": format!("{p}{i}@x.io")}))
                .collect(),
        )
    };
    let r = svc
        .raw("POST", &path, Some(json!({"leads": rows(1001, "a")})))
        .await;
    assert_eq!((r.status, r.message()), (400, "leads: 1 to 1000 items"));
    let r = svc.raw("POST", &path, Some(json!({"leads": []}))).await;
    assert_eq!((r.status, r.message()), (400, "leads: 1 to 1000 items"));
    let r = svc
        .raw("POST", &path, Some(json!({"leads": rows(1000, "a")})))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["imported"], 1000);
    let r = svc
        .raw("POST", &path, Some(json!({"leads": rows(1, "b")})))
        .await;
    assert_eq!(r.body["imported"], 1, "one row is inside the bound");
    assert_eq!(
        svc.api.get_campaign(&c.id).await.unwrap().stats.total,
        1001,
        "stats recomputed after add"
    );
    let ids: Vec<String> = roster(&svc, &c.id)
        .await
        .into_iter()
        .map(|l| l.id)
        .collect();
    let r = svc
        .raw("DELETE", &path, Some(json!({"ids": ids[..501]})))
        .await;
    assert_eq!((r.status, r.message()), (400, "ids: 1 to 500 items"));
    let r = svc.raw("DELETE", &path, Some(json!({"ids": []}))).await;
    assert_eq!(r.status, 400);
    let r = svc.raw("DELETE", &path, Some(json!({}))).await;
    assert_eq!(r.status, 400);
    let deleted = svc
        .api
        .delete_leads(
            &c.id,
            &DeleteLeads::Ids {
                ids: ids[..500].to_vec(),
            },
        )
        .await
        .unwrap();
    assert_eq!(deleted, 500);
    assert_eq!(
        svc.api.get_campaign(&c.id).await.unwrap().stats.total,
        501,
        "stats recomputed after delete"
    );
    let deleted = svc
        .api
        .delete_leads(
            &c.id,
            &DeleteLeads::Ids {
                ids: vec![ids[0].clone(), "not-on-roster".into()],
            },
        )
        .await
        .unwrap();
    assert_eq!(deleted, 0, "already gone / unknown ids are ignored");
    assert_eq!(
        svc.api
            .delete_leads(&c.id, &DeleteLeads::All { all: true })
            .await
            .unwrap(),
        501
    );
    assert_eq!(svc.api.get_campaign(&c.id).await.unwrap().stats.total, 0);
}

#[tokio::test]
async fn dedup_in_the_batch_and_against_the_roster() {
    let svc = start().await;
    let e = create(&svc, Channel::Email, "Dedup email").await;
    let first = svc
        .api
        .add_leads(&e.id, &Channel::Email, &emails("ann", 2))
        .await
        .unwrap();
    assert_eq!((first.imported, first.duplicates), (2, 0));
    let batch = vec![
        LeadInput {
            email: Some("ANN0@Example.com".into()),
            ..Default::default()
        },
        LeadInput {
            email: Some("new@example.com".into()),
            ..Default::default()
        },
        LeadInput {
            email: Some(" New@Example.COM ".into()),
            ..Default::default()
        },
        LeadInput {
            email: Some("other@example.com".into()),
            ..Default::default()
        },
    ];
    let r = svc
        .api
        .add_leads(&e.id, &Channel::Email, &batch)
        .await
        .unwrap();
    assert_eq!((r.imported, r.duplicates), (2, 2));
    let dups: Vec<(u64, &str)> = r
        .duplicate_rows
        .iter()
        .map(|d| (d.index, d.reason.as_str()))
        .collect();
    assert_eq!(dups, [(0, "roster"), (2, "batch")]);
    assert_eq!(r.prospects.len(), 2, "only imported rows come back");
    let n = create(&svc, Channel::Network, "Dedup network").await;
    let url = |u: &str| LeadInput {
        network_url: Some(u.into()),
        ..Default::default()
    };
    let r = svc
        .api
        .add_leads(
            &n.id,
            &Channel::Network,
            &[
                url("https://network.example/in/jane"),
                url("https://network.example/in/jane/"),
                url("https://network.example/in/jane//?utm_source=x"),
                url("https://network.example/in/John"),
            ],
        )
        .await
        .unwrap();
    assert_eq!((r.imported, r.duplicates), (2, 2));
    let r = svc
        .api
        .add_leads(
            &n.id,
            &Channel::Network,
            &[url("https://network.example/in/John/?ref=1")],
        )
        .await
        .unwrap();
    assert_eq!(r.duplicate_rows[0].reason, "roster");
}

#[tokio::test]
async fn roster_paging_and_status_filter_over_5000_leads() {
    let svc = start().await;
    let c = seeded(&svc, "Q3 RevOps").await;
    assert_eq!(c.stats.total, 5000);
    let all = roster(&svc, &c.id).await;
    assert_eq!(all.len(), 5000);
    assert_eq!(
        all.iter()
            .map(|l| l.id.as_str())
            .collect::<HashSet<_>>()
            .len(),
        5000,
        "no duplicates across pages"
    );
    assert!(
        all.iter()
            .all(|l| l.campaign_id == c.id && l.status == LeadStatus::Pending)
    );
    let p = svc
        .api
        .list_leads(
            &c.id,
            &RosterQuery {
                page: Some(3),
                limit: Some(7),
                status: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (p.total, p.page, p.limit, p.prospects.len()),
        (5000, 3, 7, 7)
    );
    assert_eq!(p.prospects[0].id, all[14].id, "stable order");
    let p = svc
        .api
        .list_leads(
            &c.id,
            &RosterQuery {
                page: Some(9999),
                limit: Some(200),
                status: None,
            },
        )
        .await
        .unwrap();
    assert!(p.prospects.is_empty());
    let p = svc
        .api
        .list_leads(
            &c.id,
            &RosterQuery {
                status: Some("replied".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(p.total, 0);
    let p = svc
        .api
        .list_leads(&c.id, &RosterQuery::default())
        .await
        .unwrap();
    assert_eq!(p.limit, 50, "default limit");
}

#[tokio::test]
async fn roster_query_bounds_are_checked() {
    let svc = start().await;
    let c = seeded(&svc, "Q3 RevOps").await;
    let path = format!("/api/campaigns/{}/leads", c.id);
    for (q, want) in [
        ("limit=200", 200),
        ("limit=201", 400),
        ("limit=0", 400),
        ("limit=1", 200),
        ("page=0", 400),
        ("page=1", 200),
        ("status=waiting", 400),
    ] {
        let r = svc.raw("GET", &format!("{path}?{q}"), None).await;
        assert_eq!(r.status, want, "{q}: {}", r.text);
        if want == 400 {
            assert_eq!(r.code(), "invalid_request");
        }
    }
}

// In an active campaign the filter returns only that status.
#[tokio::test]
async fn the_status_filter_of_an_active_campaign_returns_only_that_status() {
    let svc = start().await;
    let active = seeded(&svc, "Series B RevOps").await;
    let sent = svc
        .api
        .list_leads(
            &active.id,
            &RosterQuery {
                status: Some("sent".into()),
                limit: Some(200),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(sent.prospects.iter().all(|l| l.status == LeadStatus::Sent));
}

#[tokio::test]
async fn edit_lead_in_a_draft() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Edit").await;
    let added = svc
        .api
        .add_leads(&c.id, &Channel::Email, &emails("e", 2))
        .await
        .unwrap();
    let (a, b) = (&added.prospects[0], &added.prospects[1]);
    let edited = svc
        .api
        .edit_lead(
            &c.id,
            &EditLead {
                id: a.id.clone(),
                fields: LeadInput {
                    first_name: Some("Ada".into()),
                    position: Some("CTO".into()),
                    ..Default::default()
                },
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (
            edited.first_name.as_str(),
            edited.position.as_str(),
            edited.email.as_str()
        ),
        ("Ada", "CTO", a.email.as_str())
    );
    let dup = svc
        .api
        .edit_lead(
            &c.id,
            &EditLead {
                id: a.id.clone(),
                fields: LeadInput {
                    email: Some(b.email.to_uppercase()),
                    ..Default::default()
                },
            },
        )
        .await;
    assert_err(dup, 409, "conflict");
    let missing = svc
        .api
        .edit_lead(
            &c.id,
            &EditLead {
                id: "nope".into(),
                fields: LeadInput::default(),
            },
        )
        .await;
    assert_err(missing, 404, "not_found");
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/campaigns/{}/leads", c.id),
            Some(json!({"id": a.id, "email": ""})),
        )
        .await;
    assert_eq!(r.status, 400, "the identity cannot be removed");
}

#[tokio::test]
async fn update_campaign_settings_and_sequence_by_status() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Update me").await;
    let u = svc
        .api
        .update_campaign(
            &c.id,
            &UpdateCampaign {
                name: Some("Updated".into()),
                daily_limit: Some(7),
                sequence_nodes: Some(vec![
                    SequenceNodeInput {
                        kind: NodeType::Email,
                        subject: "Hi %first_name%".into(),
                        body: "Hello".into(),
                    },
                    SequenceNodeInput {
                        kind: NodeType::Email,
                        subject: "Bump".into(),
                        body: "Again".into(),
                    },
                    SequenceNodeInput {
                        kind: NodeType::End,
                        ..Default::default()
                    },
                ]),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!((u.name.as_str(), u.daily_limit), ("Updated", Some(7)));
    let nodes = u.sequence_nodes.unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(
        nodes.iter().map(|n| n.position).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let path = format!("/api/campaigns/{}", c.id);
    let r = svc
        .raw(
            "PATCH",
            &path,
            Some(json!({"sequence_nodes": [{"type": "email"}]})),
        )
        .await;
    assert_eq!(
        r.message(),
        "sequence_nodes[0].type: the last node must be end"
    );
    let r = svc
        .raw(
            "PATCH",
            &path,
            Some(json!({"sequence_nodes": [{"type": "connection_request"}, {"type": "end"}]})),
        )
        .await;
    assert!(
        r.message()
            .starts_with("sequence_nodes[0].type: a email campaign uses"),
        "{}",
        r.message()
    );
    let r = svc.raw("PATCH", &path, Some(json!({}))).await;
    assert_eq!(r.status, 400);
    create(&svc, Channel::Email, "Taken").await;
    assert_err(
        svc.api
            .update_campaign(
                &c.id,
                &UpdateCampaign {
                    name: Some("taken".into()),
                    ..Default::default()
                },
            )
            .await,
        409,
        "conflict",
    );
}

// Paused: settings yes, sequence no. Active: neither.
#[tokio::test]
async fn paused_campaigns_take_settings_but_no_sequence_and_active_ones_neither() {
    let svc = start().await;
    let paused = seeded(&svc, "Platform eng — EU").await;
    let ok = svc
        .api
        .update_campaign(
            &paused.id,
            &UpdateCampaign {
                daily_limit: Some(45),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(ok.daily_limit, Some(45));
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/campaigns/{}", paused.id),
            Some(json!({"sequence_nodes": [{"type": "end"}]})),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(
        r.flat()
            .starts_with("The sequence can only be changed while the campaign is a draft")
    );
    let active = seeded(&svc, "Series B RevOps").await;
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/campaigns/{}", active.id),
            Some(json!({"name": "Renamed"})),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(
        r.flat()
            .starts_with("Campaign settings can only be changed"),
        "{}",
        r.text
    );
}

/// Gives draft `id` twelve leads of `kind` and, for the network, a sequence
/// with a follow-up message.
async fn fill_for_a_run(svc: &Svc, id: &str, kind: &Channel) {
    if *kind == Channel::Network {
        svc.api
            .update_campaign(
                id,
                &UpdateCampaign {
                    sequence_nodes: Some(vec![
                        SequenceNodeInput {
                            kind: NodeType::ConnectionRequest,
                            subject: String::new(),
                            body: "Hi".into(),
                        },
                        SequenceNodeInput {
                            kind: NodeType::Message,
                            subject: String::new(),
                            body: "Thanks".into(),
                        },
                        SequenceNodeInput {
                            kind: NodeType::End,
                            ..Default::default()
                        },
                    ]),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let rows: Vec<LeadInput> = (0..12)
            .map(|i| LeadInput {
                network_url: Some(format!("https://network.example/in/p{i}")),
                ..Default::default()
            })
            .collect();
        svc.api.add_leads(id, kind, &rows).await.unwrap();
    } else {
        svc.api
            .add_leads(id, kind, &emails("run", 12))
            .await
            .unwrap();
    }
}

/// Polls campaign `id` until it completes, checking stats against the
/// roster on the way: the campaign, its roster, and whether it was seen
/// active and with leads in flight.
async fn run_until_completed(svc: &Svc, id: &str) -> (Campaign, Vec<CampaignLead>, bool, bool) {
    let mut saw_active = false;
    let mut saw_in_flight = false;
    let dl = Deadline::new(60, "completed");
    loop {
        let camp = svc.api.get_campaign(id).await.unwrap();
        let leads = roster(svc, id).await;
        // Stats and roster are read one after the other; compare them
        // when nothing moved in between.
        let again = svc.api.get_campaign(id).await.unwrap();
        if again.stats == camp.stats {
            assert_stats_match(&again, &leads);
        }
        saw_active |= camp.status == CampaignStatus::Active;
        saw_in_flight |= leads
            .iter()
            .any(|l| !l.status.is_terminal() && l.status != LeadStatus::Pending);
        if camp.status == CampaignStatus::Completed {
            return (camp, leads, saw_active, saw_in_flight);
        }
        dl.tick().await;
    }
}

#[tokio::test]
async fn an_active_campaign_completes_with_stats_equal_to_roster_counts() {
    let svc = start_with(DemoConfig {
        time_scale: 3000.0,
        ..config()
    })
    .await;
    for kind in [Channel::Email, Channel::Network] {
        let c = create(&svc, kind.clone(), &format!("Run to completion ({kind})")).await;
        fill_for_a_run(&svc, &c.id, &kind).await;
        svc.api.launch_campaign(&c.id).await.unwrap();
        let (camp, leads, saw_active, saw_in_flight) = run_until_completed(&svc, &c.id).await;
        assert!(
            saw_active && saw_in_flight,
            "{kind}: moved through active with leads in flight"
        );
        assert!(
            leads.iter().all(|l| l.status.is_terminal()),
            "{kind}: every lead terminal"
        );
        assert_stats_match(&camp, &leads);
        let final_states: HashSet<&str> = leads.iter().map(|l| l.status.as_str()).collect();
        assert!(
            final_states
                .iter()
                .all(|s| ["replied", "bounced", "completed", "timed_out"].contains(s)),
            "{final_states:?}"
        );
        if kind == Channel::Network {
            assert!(
                !final_states.contains("bounced"),
                "network leads do not bounce"
            );
            assert!(camp.stats.connections_accepted.unwrap() > 0);
        }
        assert!(leads.iter().all(|l| l.current_node_id.is_some()));
        assert_err(svc.api.pause_campaign(&c.id).await, 400, "invalid_request");
    }
}

#[tokio::test]
async fn sending_honours_daily_limit() {
    // One simulated day is 144 real seconds here: the cap holds for the
    // whole test.
    let svc = start_with(DemoConfig {
        time_scale: 600.0,
        ..config()
    })
    .await;
    let c = create(&svc, Channel::Email, "Capped").await;
    svc.api
        .update_campaign(
            &c.id,
            &UpdateCampaign {
                daily_limit: Some(2),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    svc.api
        .add_leads(&c.id, &Channel::Email, &emails("cap", 6))
        .await
        .unwrap();
    svc.api.launch_campaign(&c.id).await.unwrap();
    let pending = async || {
        svc.api
            .list_leads(
                &c.id,
                &RosterQuery {
                    status: Some("pending".into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap()
            .total
    };
    let dl = Deadline::new(30, "two sends");
    while pending().await != 4 {
        dl.tick().await;
    }
    // Half a simulated hour later (the demo sends a lead every few
    // simulated minutes): still only two leads contacted, and the two
    // contacted leads got no follow-up past the cap.
    after_sim(&svc, 30 * 60).await;
    assert_eq!(pending().await, 4);
    let msgs = svc
        .api
        .generated_messages(
            &c.id,
            &GeneratedMessagesQuery {
                status: Some("sent".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(msgs.len(), 2, "exactly daily_limit sends in the day");
}

/// The generated messages of the first `limit` leads from `offset`.
fn first_leads(limit: Option<u64>, offset: Option<u64>) -> GeneratedMessagesQuery {
    GeneratedMessagesQuery {
        prospect_limit: limit,
        prospect_offset: offset,
        ..Default::default()
    }
}

/// The generated-messages query is checked at its bounds.
async fn assert_generated_messages_query_bounds(svc: &Svc, id: &str) {
    let path = format!("/api/campaigns/{id}/generate-messages");
    for (query, want) in [
        ("prospect_limit=101", 400),
        ("prospect_limit=0", 400),
        ("status=archived", 400),
        ("status=all&prospect_limit=1", 200),
    ] {
        assert_eq!(
            svc.raw("GET", &format!("{path}?{query}"), None)
                .await
                .status,
            want,
            "{query}"
        );
    }
}

#[tokio::test]
async fn generated_messages_list_and_filter() {
    let svc = start().await;
    let draft = seeded(&svc, "Q3 RevOps").await;
    let msgs = svc
        .api
        .generated_messages(&draft.id, &first_leads(Some(3), None))
        .await
        .unwrap();
    assert_eq!(msgs.len(), 6, "two email nodes per lead");
    assert!(
        msgs.iter()
            .all(|m| m.status == MessageStatus::Draft && !m.manually_edited)
    );
    let leads = svc
        .api
        .list_leads(
            &draft.id,
            &RosterQuery {
                limit: Some(4),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .prospects;
    assert!(
        msgs[0].subject.contains(&leads[0].company),
        "templated: {}",
        msgs[0].subject
    );
    assert!(msgs[0].body_text.contains(&leads[0].first_name));
    let shifted = svc
        .api
        .generated_messages(&draft.id, &first_leads(Some(1), Some(3)))
        .await
        .unwrap();
    assert_eq!(
        shifted[0].prospect_id, leads[3].id,
        "offset into the stable lead order"
    );
    let hundred = svc
        .api
        .generated_messages(&draft.id, &first_leads(Some(100), None))
        .await
        .unwrap();
    assert_eq!(hundred.len(), 200);
    assert_generated_messages_query_bounds(&svc, &draft.id).await;
}

#[tokio::test]
async fn editing_a_draft_message_is_stored_and_marked() {
    let svc = start().await;
    let draft = seeded(&svc, "Q3 RevOps").await;
    let msgs = svc
        .api
        .generated_messages(&draft.id, &first_leads(Some(3), None))
        .await
        .unwrap();
    let edited = svc
        .api
        .edit_generated_message(
            &draft.id,
            &EditGeneratedMessage {
                message_id: msgs[1].id.clone(),
                subject: Some("Hand-written subject".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(edited.manually_edited);
    assert_eq!(edited.subject, "Hand-written subject");
    assert_eq!(edited.body_text, msgs[1].body_text);
    let again = svc
        .api
        .generated_messages(&draft.id, &first_leads(Some(1), None))
        .await
        .unwrap();
    assert_eq!(
        again[1].subject, "Hand-written subject",
        "the edit is stored"
    );
    let missing = svc
        .api
        .edit_generated_message(
            &draft.id,
            &EditGeneratedMessage {
                message_id: "nope".into(),
                ..Default::default()
            },
        )
        .await;
    assert_err(missing, 404, "not_found");
}

// Sent messages of the active campaign cannot be edited.
#[tokio::test]
async fn sent_messages_cannot_be_edited_and_a_leads_reply_is_merged() {
    let svc = start().await;
    let active = seeded(&svc, "Series B RevOps").await;
    let sent = svc
        .api
        .generated_messages(
            &active.id,
            &GeneratedMessagesQuery {
                status: Some("sent".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(!sent.is_empty());
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/campaigns/{}/generate-messages", active.id),
            Some(json!({"message_id": sent[0].id, "subject": "x"})),
        )
        .await;
    assert_eq!(
        (r.status, r.flat()),
        (400, "Sent messages cannot be edited")
    );
    // A replied lead's reply is merged when asking for that lead.
    let replied = svc
        .api
        .list_leads(
            &active.id,
            &RosterQuery {
                status: Some("replied".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    if let Some(lead) = replied.prospects.first() {
        let m = svc
            .api
            .generated_messages(
                &active.id,
                &GeneratedMessagesQuery {
                    status: Some("all".into()),
                    prospect_id: Some(lead.id.clone()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert!(m.iter().any(|m| m.node_id == "inbound"));
    }
}

#[tokio::test]
async fn seeded_campaigns_cover_every_status_with_consistent_stats() {
    // A stopped clock: nothing moves between the reads below.
    let svc = start_with(DemoConfig {
        time_scale: 0.0,
        ..config()
    })
    .await;
    let list = svc.api.list_campaigns().await.unwrap().unwrap();
    for s in [
        CampaignStatus::Draft,
        CampaignStatus::Launching,
        CampaignStatus::Active,
        CampaignStatus::Paused,
        CampaignStatus::Completed,
    ] {
        assert!(list.iter().any(|c| c.status == s), "{s}");
    }
    assert!(
        list.iter()
            .any(|c| c.kind == Channel::Network && c.status == CampaignStatus::Completed)
    );
    assert!(
        list.iter()
            .any(|c| c.kind == Channel::Network && c.status == CampaignStatus::Active)
    );
    for c in &list {
        let leads = roster(&svc, &c.id).await;
        assert_stats_match(c, &leads);
        let identities: HashSet<String> = leads
            .iter()
            .map(|l| match c.kind {
                Channel::Network => l.network_url.clone(),
                _ => l.email.to_lowercase(),
            })
            .collect();
        assert_eq!(
            identities.len(),
            leads.len(),
            "{}: no identity twice",
            c.name
        );
        match c.status {
            CampaignStatus::Completed => {
                assert!(leads.iter().all(|l| l.status.is_terminal()), "{}", c.name);
            }
            CampaignStatus::Active | CampaignStatus::Paused => {
                assert!(
                    leads.iter().any(|l| l.status == LeadStatus::Pending),
                    "{} still has work",
                    c.name
                );
                assert!(
                    leads.iter().any(|l| l.status != LeadStatus::Pending),
                    "{} has started",
                    c.name
                );
            }
            _ => assert!(
                leads.iter().all(|l| l.status == LeadStatus::Pending),
                "{}",
                c.name
            ),
        }
    }
}

/// Row `r` of a 2,500-row CSV file: mostly new addresses, with rows that
/// repeat a roster lead (`r % 100 == 7`, other case), repeat the row just
/// before (`r % 100 == 50`, other case and spaces) or repeat a row of an
/// earlier chunk (`r % 100 == 90` from the second chunk on).
fn csv_row(r: usize) -> LeadInput {
    let email = match r % 100 {
        7 => format!("ROSTER{}@Example.com", (r / 100) % 40),
        50 => format!(" FILE{}@Example.COM ", r - 1),
        90 => format!("file{}@example.com", r % 1000),
        _ => format!("file{r}@example.com"),
    };
    let mut custom = serde_json::Map::new();
    custom.insert("row".into(), json!(r));
    LeadInput {
        email: Some(email),
        first_name: Some(format!("Row{r}")),
        company: Some("Acme".into()),
        custom_fields: Some(custom),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_csv_file_imported_in_chunks_reports_every_duplicate_exactly() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "CSV import, 2,500 rows").await;
    svc.api
        .add_leads(&c.id, &Channel::Email, &emails("roster", 40))
        .await
        .unwrap();
    let rows: Vec<LeadInput> = (0..2500).map(csv_row).collect();
    let mut imported_rows = Vec::new();
    for (n, chunk) in rows.chunks(1000).enumerate() {
        let r = svc
            .api
            .add_leads(&c.id, &Channel::Email, chunk)
            .await
            .unwrap();
        let want: Vec<(u64, &str)> = (0..chunk.len())
            .filter_map(|i| match (i % 100, n) {
                (7, _) | (90, 1..) => Some((i as u64, "roster")),
                (50, _) => Some((i as u64, "batch")),
                _ => None,
            })
            .collect();
        let got: Vec<(u64, &str)> = r
            .duplicate_rows
            .iter()
            .map(|d| (d.index, d.reason.as_str()))
            .collect();
        assert_eq!(got, want, "chunk {n}");
        let expected = [(980, 20), (970, 30), (485, 15)][n];
        assert_eq!((r.imported, r.duplicates), expected, "chunk {n}");
        assert_eq!(r.prospects.len() as u64, r.imported);
        let dup: HashSet<u64> = r.duplicate_rows.iter().map(|d| d.index).collect();
        let kept: Vec<u64> = (0..chunk.len() as u64)
            .filter(|i| !dup.contains(i))
            .map(|i| n as u64 * 1000 + i)
            .collect();
        let got_rows: Vec<u64> = r
            .prospects
            .iter()
            .map(|p| p.custom_fields["row"].as_u64().unwrap())
            .collect();
        assert_eq!(got_rows, kept, "the imported rows, in file order");
        assert!(
            r.prospects
                .iter()
                .all(|p| p.status == LeadStatus::Pending && p.campaign_id == c.id)
        );
        imported_rows.extend(got_rows);
    }
    assert_eq!(imported_rows.len(), 2435);
    let camp = svc.api.get_campaign(&c.id).await.unwrap();
    assert_eq!(camp.stats.total, 40 + 2435);
    let all = roster(&svc, &c.id).await;
    assert_eq!(all.len(), 2475);
    let distinct: HashSet<String> = all.iter().map(|l| l.email.to_lowercase()).collect();
    assert_eq!(distinct.len(), all.len(), "no address twice on the roster");
    // Importing the whole file again adds nothing.
    let again = svc
        .api
        .add_leads(&c.id, &Channel::Email, &rows[..1000])
        .await
        .unwrap();
    assert_eq!((again.imported, again.duplicates), (0, 1000));
    assert!(
        again
            .duplicate_rows
            .iter()
            .enumerate()
            .all(|(i, d)| d.index == i as u64 && d.reason == "roster")
    );
}

/// A draft email campaign with a daily cap of 2, two templated email steps
/// and four leads with a custom topic: the campaign and its leads.
async fn lifecycle_campaign(svc: &Svc) -> (Campaign, Vec<CampaignLead>) {
    let c = create(svc, Channel::Email, "Messages lifecycle").await;
    svc.api
        .update_campaign(
            &c.id,
            &UpdateCampaign {
                daily_limit: Some(2),
                sequence_nodes: Some(vec![
                    SequenceNodeInput {
                        kind: NodeType::Email,
                        subject: "A note for %company%".into(),
                        body: "Hi %first_name%, about %custom_fields.topic%. %unknown% stays."
                            .into(),
                    },
                    SequenceNodeInput {
                        kind: NodeType::Email,
                        subject: "Re: A note for %company%".into(),
                        body: "Following up, %first_name%.".into(),
                    },
                    SequenceNodeInput {
                        kind: NodeType::End,
                        ..Default::default()
                    },
                ]),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let leads: Vec<LeadInput> = (0..4)
        .map(|i| {
            let mut custom = serde_json::Map::new();
            custom.insert("topic".into(), json!(format!("topic {i}")));
            LeadInput {
                email: Some(format!("life{i}@example.com")),
                first_name: Some(format!("Ada{i}")),
                company: Some(format!("Firm{i}")),
                custom_fields: Some(custom),
                ..Default::default()
            }
        })
        .collect();
    let added = svc
        .api
        .add_leads(&c.id, &Channel::Email, &leads)
        .await
        .unwrap()
        .prospects;
    (c, added)
}

/// Edits the body of due message `target`: the edit is stored, marked,
/// rendered to HTML, and leaves the other fields alone.
async fn edit_a_due_message(svc: &Svc, campaign: &str, target: &GeneratedMessage) {
    let edited = svc
        .api
        .edit_generated_message(
            campaign,
            &EditGeneratedMessage {
                message_id: target.id.clone(),
                body_text: Some("Hand-tuned, Ada3.".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(edited.manually_edited);
    assert_eq!(
        (edited.status.clone(), edited.body_text.as_str()),
        (MessageStatus::Pending, "Hand-tuned, Ada3.")
    );
    assert!(edited.body_html.contains("Hand-tuned, Ada3."));
    assert_eq!(edited.subject, target.subject, "untouched fields stay");
}

/// The generated messages of campaign `id` with `status`.
async fn messages_with_status(svc: &Svc, id: &str, status: &str) -> Vec<GeneratedMessage> {
    svc.api
        .generated_messages(
            id,
            &GeneratedMessagesQuery {
                status: Some(status.into()),
                ..Default::default()
            },
        )
        .await
        .unwrap()
}

/// Before launch every message of campaign `id` is a filled-in draft; the
/// campaign's sequence nodes.
async fn assert_drafts_before_launch(
    svc: &Svc,
    id: &str,
    added: &[CampaignLead],
) -> Vec<SequenceNode> {
    let list = |status| messages_with_status(svc, id, status);
    let camp = svc.api.get_campaign(id).await.unwrap();
    let nodes = camp.sequence_nodes.unwrap();
    let drafts = list("draft").await;
    assert_eq!(drafts.len(), 8, "two email steps for each of four leads");
    let first = drafts
        .iter()
        .find(|m| m.prospect_id == added[2].id && m.node_id == nodes[0].id)
        .unwrap();
    assert_eq!(first.subject, "A note for Firm2");
    assert_eq!(first.body_text, "Hi Ada2, about topic 2. %unknown% stays.");
    assert!(first.body_html.contains("Hi Ada2, about topic 2."));
    assert!(list("pending").await.is_empty() && list("sent").await.is_empty());
    nodes
}

#[tokio::test]
async fn generated_messages_go_draft_pending_sent_as_the_campaign_runs() {
    // One simulated day is 86 real seconds: the daily cap of 2 holds two
    // leads back for the whole test.
    let svc = start_with(DemoConfig {
        time_scale: 1000.0,
        ..config()
    })
    .await;
    let (c, added) = lifecycle_campaign(&svc).await;
    let list = |status| messages_with_status(&svc, &c.id, status);
    let nodes = assert_drafts_before_launch(&svc, &c.id, &added).await;

    svc.api.launch_campaign(&c.id).await.unwrap();
    let all = list("all").await;
    let firsts: Vec<&GeneratedMessage> = all.iter().filter(|m| m.node_id == nodes[0].id).collect();
    assert!(
        firsts.iter().all(|m| m.status != MessageStatus::Draft),
        "launched: every lead's first email is queued or sent"
    );
    assert!(
        all.iter()
            .filter(|m| m.node_id == nodes[1].id)
            .all(|m| m.status == MessageStatus::Draft),
        "follow-ups wait for the first outcome"
    );
    // Two sends (the daily cap), then the other two leads wait for a day.
    let sent = eventually(20, "two first emails sent", || async {
        let s = list("sent").await;
        (s.len() == 2).then_some(s)
    })
    .await;
    let sent_leads: HashSet<&str> = sent.iter().map(|m| m.prospect_id.as_str()).collect();
    assert_eq!(
        sent_leads,
        HashSet::from([added[0].id.as_str(), added[1].id.as_str()]),
        "roster order"
    );
    let waiting = list("pending").await;
    for lead in &added[2..] {
        assert!(
            waiting
                .iter()
                .any(|m| m.prospect_id == lead.id && m.node_id == nodes[0].id),
            "{} is due",
            lead.email
        );
    }
    // A due message can be edited; the edit is kept and marked.
    let target = waiting
        .iter()
        .find(|m| m.prospect_id == added[3].id)
        .unwrap();
    edit_a_due_message(&svc, &c.id, target).await;
    // Pausing keeps the queue: due messages stay pending.
    eventually(20, "active", || async {
        let s = svc.api.get_campaign(&c.id).await.unwrap().status;
        (s == CampaignStatus::Active).then_some(())
    })
    .await;
    svc.api.pause_campaign(&c.id).await.unwrap();
    let paused = list("pending").await;
    assert!(
        paused
            .iter()
            .any(|m| m.id == target.id && m.manually_edited)
    );
    // A sent message is not editable.
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/campaigns/{}/generate-messages", c.id),
            Some(json!({"message_id": sent[0].id, "body_text": "x"})),
        )
        .await;
    assert_eq!(
        (r.status, r.flat()),
        (400, "Sent messages cannot be edited")
    );
}

#[tokio::test]
async fn a_replied_lead_shows_its_reply_with_the_generated_messages() {
    let svc = start_with(DemoConfig {
        time_scale: 0.0,
        ..config()
    })
    .await;
    let c = seeded(&svc, outpost::testkit::demo::seed::ALWAYS_ON).await;
    assert_eq!(c.status, CampaignStatus::Active);
    let detail = svc.api.get_campaign(&c.id).await.unwrap();
    let sender = detail.sender_accounts.unwrap()[0].first_name.clone();
    let replied = svc
        .api
        .list_leads(
            &c.id,
            &RosterQuery {
                status: Some("replied".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap()
        .prospects;
    assert!(!replied.is_empty(), "the seeded campaign has replies");
    for lead in replied.iter().take(5) {
        let msgs = svc
            .api
            .generated_messages(
                &c.id,
                &GeneratedMessagesQuery {
                    prospect_id: Some(lead.id.clone()),
                    status: Some("sent".into()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert!(msgs.iter().all(|m| m.prospect_id == lead.id));
        let reply = msgs
            .iter()
            .find(|m| m.node_id == "inbound")
            .expect("the reply is merged");
        let answered = msgs
            .iter()
            .rfind(|m| m.node_id != "inbound")
            .expect("the email it answers was sent");
        let base = answered.subject.trim_start_matches("Re: ");
        assert_eq!(reply.subject, format!("Re: {base}"), "no stacked Re:");
        assert!(reply.body_text.contains(&sender), "{}", reply.body_text);
        assert!(
            reply.body_text.ends_with(&lead.first_name),
            "{}",
            reply.body_text
        );
        assert_eq!(Some(&reply.created_at), lead.replied_at.as_ref());
    }
    // Without `prospect_id` no reply is merged.
    let plain = svc
        .api
        .generated_messages(
            &c.id,
            &GeneratedMessagesQuery {
                status: Some("all".into()),
                prospect_limit: Some(100),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(plain.iter().all(|m| m.node_id != "inbound"));
}

#[tokio::test]
async fn dedup_follows_edits_and_deletes_between_imports() {
    let svc = start().await;
    let c = create(&svc, Channel::Email, "Dedup after edits").await;
    let first = svc
        .api
        .add_leads(&c.id, &Channel::Email, &emails("keep", 3))
        .await
        .unwrap();
    let add = async |email: &str| {
        svc.api
            .add_leads(
                &c.id,
                &Channel::Email,
                &[LeadInput {
                    email: Some(email.into()),
                    ..Default::default()
                }],
            )
            .await
            .unwrap()
    };
    // An edited address frees the old one and blocks the new one.
    svc.api
        .edit_lead(
            &c.id,
            &EditLead {
                id: first.prospects[0].id.clone(),
                fields: LeadInput {
                    email: Some("moved@example.com".into()),
                    ..Default::default()
                },
            },
        )
        .await
        .unwrap();
    assert_eq!(add("keep0@example.com").await.imported, 1);
    let r = add("Moved@Example.com").await;
    assert_eq!(
        (r.imported, r.duplicate_rows[0].reason.as_str()),
        (0, "roster")
    );
    // A deleted lead's address can be imported again.
    svc.api
        .delete_leads(
            &c.id,
            &DeleteLeads::Ids {
                ids: vec![first.prospects[1].id.clone()],
            },
        )
        .await
        .unwrap();
    assert_eq!(add("keep1@example.com").await.imported, 1);
    assert_eq!(add("keep1@example.com").await.duplicates, 1);
    svc.api
        .delete_leads(&c.id, &DeleteLeads::All { all: true })
        .await
        .unwrap();
    assert_eq!(add("keep2@example.com").await.imported, 1);
}
