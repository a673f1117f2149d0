//! Senders and their schedule.

use outpost::testkit::api::model::*;

use crate::common::*;

#[tokio::test]
async fn senders_list_by_type_and_details() {
    let svc = start().await;
    let all = svc.api.list_senders(None).await.unwrap();
    let email = svc.api.list_senders(Some(&Channel::Email)).await.unwrap();
    let network = svc.api.list_senders(Some(&Channel::Network)).await.unwrap();
    assert_eq!(all.len(), email.len() + network.len());
    assert!(
        email.iter().all(|s| s.kind == Channel::Email)
            && network.iter().all(|s| s.kind == Channel::Network)
    );
    assert!(
        email.iter().any(|s| s.status == "disconnected"),
        "one email sender is not ready"
    );
    assert!(email.iter().filter(|s| s.status == "connected").count() >= 2);
    assert!(
        email.iter().any(|s| s.is_default_sender) && network.iter().any(|s| s.is_default_sender)
    );
    assert!(network.iter().all(|s| s.weekly_connection_limit > 0));
    let one = svc.api.get_sender(&email[0].id).await.unwrap();
    assert_eq!(one, email[0]);
    assert!(svc.api.get_sender("nope").await.unwrap_err().is_not_found());
    let r = svc.raw("GET", "/api/senders?type=fax", None).await;
    assert_eq!(
        (r.status, r.message()),
        (400, "type: one of email, network")
    );
}

#[tokio::test]
async fn schedule_maps_days_to_capacity_and_commitments() {
    let svc = start().await;
    let email = svc.api.list_senders(Some(&Channel::Email)).await.unwrap();
    let maya = email.iter().find(|s| s.is_default_sender).unwrap();
    let v = svc.api.sender_schedule(&maya.id).await.unwrap();
    let days = v["schedule"].as_object().expect("schedule object");
    assert_eq!(days.len(), 14);
    let first = days.values().next().unwrap();
    assert_eq!(first["capacity"], maya.daily_limit);
    assert!(
        first["committed"].as_u64().unwrap() > 0,
        "the active campaign commits sends"
    );
    assert!(
        days.values()
            .all(|d| d["committed"].as_u64() <= d["capacity"].as_u64())
    );
    let off = email.iter().find(|s| s.status == "disconnected").unwrap();
    let v = svc.api.sender_schedule(&off.id).await.unwrap();
    assert!(
        v["schedule"]
            .as_object()
            .unwrap()
            .values()
            .all(|d| d["capacity"] == 0)
    );
    assert!(
        svc.api
            .sender_schedule("nope")
            .await
            .unwrap_err()
            .is_not_found()
    );
}
