//! The launch preflight (`logic::preflight`) against the demo service: the
//! campaign and its pending roster read as the service sends them, page by
//! page, give the findings a launch is refused or asked twice for.

use outpost::testkit::api::model::*;
use outpost::testkit::logic::preflight::{Kind, Preflight};
use serde_json::json;

use crate::common::*;

/// The preflight of `id` with every page of its pending roster read.
async fn preflight(svc: &Svc, id: &str) -> (Preflight, u32) {
    let campaign = svc.api.get_campaign(id).await.unwrap();
    let mut p = Preflight::new(&campaign, false);
    let mut pages = 0;
    while let Some(q) = p.request() {
        let page = svc.api.list_leads(id, &q).await.unwrap();
        p.take(&page);
        pages += 1;
    }
    (p, pages)
}

fn texts(fs: &[outpost::testkit::logic::preflight::Finding]) -> Vec<&str> {
    fs.iter().map(|f| f.text.as_str()).collect()
}

/// A new email campaign (the seeded sequence: an email with no subject and
/// no body) with 250 pending leads, three of them without a plan.
async fn campaign_with_leads(svc: &Svc) -> String {
    let sender = svc
        .api
        .list_senders(Some(&Channel::Email))
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.status == "connected")
        .unwrap()
        .id;
    let c = svc
        .api
        .create_campaign(&CreateCampaign {
            kind: Channel::Email,
            name: "Preflight spring".into(),
            sender_account_ids: vec![sender],
            ..Default::default()
        })
        .await
        .unwrap();
    let gaps = [(17, "Rosa Garcia"), (140, "Bo Chen"), (230, "Kim Lee")];
    let leads: Vec<LeadInput> = (0..250)
        .map(|i| {
            let gap = gaps.iter().find(|(n, _)| *n == i);
            LeadInput {
                email: Some(format!("p{i}@example.com")),
                first_name: Some(format!("Lead{i}")),
                name: gap.map(|(_, name)| (*name).to_owned()),
                custom_fields: gap
                    .is_none()
                    .then(|| json!({"plan": "Growth"}).as_object().cloned().unwrap()),
                ..Default::default()
            }
        })
        .collect();
    svc.api
        .add_leads(&c.id, &Channel::Email, &leads)
        .await
        .unwrap();
    c.id
}

/// A sequence of one email and the end.
fn sequence(subject: &str, body: &str) -> UpdateCampaign {
    UpdateCampaign {
        sequence_nodes: Some(vec![
            SequenceNodeInput {
                kind: NodeType::Email,
                subject: subject.into(),
                body: body.into(),
            },
            SequenceNodeInput {
                kind: NodeType::End,
                subject: String::new(),
                body: String::new(),
            },
        ]),
        ..Default::default()
    }
}

#[tokio::test]
async fn an_empty_step_and_an_unknown_variable_are_refused_and_an_empty_field_warns() {
    let svc = start().await;
    let id = campaign_with_leads(&svc).await;

    // The seeded sequence: an email with no subject and no body.
    let (p, pages) = preflight(&svc, &id).await;
    assert_eq!(pages, 2, "250 pending leads, 200 a page");
    let r = p.report();
    assert_eq!(
        texts(&r.errors),
        [
            "Step 1 (email) has no body",
            "Step 1 (email) has no subject: an email campaign's first email needs one",
        ]
    );

    svc.api
        .update_campaign(
            &id,
            &sequence("Hi %frist_name%", "50% off the %custom_fields.plan% plan"),
        )
        .await
        .unwrap();
    let r = preflight(&svc, &id).await.0.report();
    assert_eq!(
        texts(&r.errors),
        ["Step 1 subject: %frist_name% names no lead field (did you mean %first_name%?)"]
    );
    assert_eq!(
        texts(&r.warnings),
        ["%custom_fields.plan% is empty for 3 of 250 pending leads: Rosa Garcia, Bo Chen, Kim Lee"]
    );
    assert_eq!(r.warnings[0].kind, Kind::EmptyVariable);

    // Fixed, only the warning is left: the launch asks twice.
    svc.api
        .update_campaign(
            &id,
            &sequence("Hi %first_name%", "50% off the %custom_fields.plan% plan"),
        )
        .await
        .unwrap();
    let r = preflight(&svc, &id).await.0.report();
    assert!(!r.blocks(), "{:?}", r.errors);
    assert_eq!(r.warnings.len(), 1);
    assert!(r.complete);
}
