//! Inbox threads: rules 6 to 9, the thread state table, Limits rows of
//! `unread_count` and message paging, sending.

use outpost::testkit::api::model::*;
use outpost::testkit::api::validate::MAX_INT;
use serde_json::json;

use crate::common::*;

async fn email_senders(svc: &Svc) -> (String, String, String) {
    let s = svc.api.list_senders(Some(&Channel::Email)).await.unwrap();
    let ready: Vec<&SenderAccount> = s.iter().filter(|s| s.status == "connected").collect();
    let not_ready = s.iter().find(|s| s.status != "connected").unwrap();
    (
        ready[0].id.clone(),
        ready[1].id.clone(),
        not_ready.id.clone(),
    )
}

fn draft(email: &str, account: Option<&str>) -> CreateThread {
    CreateThread {
        participant_email: Some(email.into()),
        account_id: account.map(|a| Some(a.to_owned())),
        draft_subject: Some("Hello".into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn create_a_draft_thread() {
    let svc = start().await;
    let (a, _, _) = email_senders(&svc).await;
    let r = svc
        .api
        .create_thread(&draft("New.Person@Example.COM", Some(&a)))
        .await
        .unwrap();
    let t = &r.thread;
    assert_eq!(t.status, ThreadStatus::Draft);
    assert_eq!(
        t.participant_email, "new.person@example.com",
        "stored lowercase"
    );
    assert_eq!(t.channel, "email");
    assert_eq!(t.account_id.as_deref(), Some(a.as_str()));
    assert_eq!(
        r.existing_threads,
        ExistingThreads {
            exists: false,
            total: 0,
            threads: vec![]
        }
    );
    assert_eq!(svc.api.get_thread(&t.id).await.unwrap(), *t);
    assert!(
        svc.api
            .list_messages(&t.id, None, None)
            .await
            .unwrap()
            .messages
            .is_empty(),
        "create does not send"
    );
    // Only a subject is enough; account_id alone is not a draft field.
    assert!(
        svc.api
            .create_thread(&CreateThread {
                draft_body_text: Some("x".into()),
                ..Default::default()
            })
            .await
            .is_ok()
    );
    let r = svc
        .raw("POST", "/api/threads", Some(json!({"account_id": a})))
        .await;
    assert_eq!(
        (r.status, r.message()),
        (400, "thread: at least one draft field is required")
    );
    let r = svc
        .raw(
            "POST",
            "/api/threads",
            Some(json!({"participant_email": "nope"})),
        )
        .await;
    assert_eq!(r.message(), "participant_email: not an email address");
}

#[tokio::test]
async fn rule_6_attachments_on_create_are_403() {
    let svc = start().await;
    let r = svc
        .raw(
            "POST",
            "/api/threads",
            Some(
                json!({"draft_subject": "x", "draft_attachments": [{"name": "a.pdf", "size": 1}]}),
            ),
        )
        .await;
    assert_eq!(r.status, 403);
    assert!(r.flat().contains("Attachments"), "{}", r.text);
    let r = svc
        .raw(
            "POST",
            "/api/threads",
            Some(json!({"draft_subject": "x", "draft_attachments": []})),
        )
        .await;
    assert_eq!(r.status, 201, "an empty array is fine");
    let t = r.body["thread"]["id"].as_str().unwrap().to_owned();
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/threads/{t}"),
            Some(json!({"draft_attachments": null})),
        )
        .await;
    assert_eq!(r.status, 403, "Bearer callers must omit it on patch");
}

#[tokio::test]
async fn rule_7_duplicate_recipient_is_409_with_existing_thread() {
    let svc = start().await;
    let (a, b, _) = email_senders(&svc).await;
    let first = svc
        .api
        .create_thread(&draft("dup@example.com", Some(&a)))
        .await
        .unwrap()
        .thread;
    let e = assert_err(
        svc.api
            .create_thread(&draft("DUP@example.com", Some(&a)))
            .await,
        409,
        "conflict",
    );
    let existing = e.existing_thread().expect("existing_thread");
    assert_eq!(existing.id, first.id);
    let r = svc
        .raw(
            "POST",
            "/api/threads",
            Some(json!({"participant_email": "dup@example.com", "account_id": a})),
        )
        .await;
    assert_eq!(r.body["existing_threads"]["exists"], true);
    assert_eq!(r.body["existing_threads"]["total"], 1);
    // Another sender, or no sender, is no conflict; existing_threads says so.
    let other = svc
        .api
        .create_thread(&draft("dup@example.com", Some(&b)))
        .await
        .unwrap();
    assert!(other.existing_threads.exists);
    assert_eq!(other.existing_threads.threads[0].id, first.id);
    assert!(
        svc.api
            .create_thread(&draft("dup@example.com", None))
            .await
            .is_ok()
    );
    // Changing account_id onto the blocking sender is 409 too.
    let e = svc
        .api
        .patch_thread(
            &other.thread.id,
            &PatchThread {
                account_id: Some(Some(a.clone())),
                ..Default::default()
            },
        )
        .await;
    let e = assert_err(e, 409, "conflict");
    assert_eq!(e.existing_thread().unwrap().id, first.id);
    // Archived threads are ignored by the check.
    svc.api
        .patch_thread(
            &first.id,
            &PatchThread {
                status: Some(ThreadStatus::Archived),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(
        svc.api
            .create_thread(&draft("dup@example.com", Some(&a)))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn rule_7_warm_up_threads_are_ignored_and_hidden() {
    let svc = start().await;
    let (a, _, _) = email_senders(&svc).await;
    let list = svc
        .api
        .list_threads(&ThreadQuery {
            limit: Some(200),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(
        list.threads
            .iter()
            .all(|t| !t.participant_email.starts_with("warmup")),
        "warm-up threads are hidden"
    );
    // The seeded warm-up thread is active with this sender: no conflict.
    assert!(
        svc.api
            .create_thread(&draft("warmup-7@demo-mail.example", Some(&a)))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn thread_state_table_patch_to_active_and_archived_from_any_state() {
    let svc = start().await;
    let list = svc
        .api
        .list_threads(&ThreadQuery {
            limit: Some(200),
            ..Default::default()
        })
        .await
        .unwrap()
        .threads;
    for from in [
        ThreadStatus::Draft,
        ThreadStatus::Active,
        ThreadStatus::Archived,
    ] {
        let t = list
            .iter()
            .find(|t| t.status == from)
            .unwrap_or_else(|| panic!("a seeded {from} thread"));
        for to in [ThreadStatus::Active, ThreadStatus::Archived] {
            let p = svc
                .api
                .patch_thread(
                    &t.id,
                    &PatchThread {
                        status: Some(to.clone()),
                        ..Default::default()
                    },
                )
                .await
                .unwrap();
            assert_eq!(p.status, to, "{from} -> {to}");
            assert_eq!(svc.api.get_thread(&t.id).await.unwrap().status, to);
        }
    }
}

#[tokio::test]
async fn rule_8_bad_status_and_empty_patches_are_400() {
    let svc = start().await;
    let t = svc
        .api
        .create_thread(&draft("p@example.com", None))
        .await
        .unwrap()
        .thread;
    let path = format!("/api/threads/{}", t.id);
    for status in ["draft", "deleted", "ACTIVE"] {
        let r = svc
            .raw("PATCH", &path, Some(json!({"status": status})))
            .await;
        assert_eq!((r.status, r.code()), (400, "invalid_request"), "{status}");
        assert_eq!(r.message(), "status: one of active, archived");
    }
    let r = svc.raw("PATCH", &path, Some(json!({}))).await;
    assert_eq!(
        (r.status, r.message()),
        (400, "thread: at least one valid field is required")
    );
    let r = svc
        .raw("PATCH", &path, Some(json!({"colour": "blue"})))
        .await;
    assert_eq!(r.status, 400, "no valid field");
    assert_eq!(
        svc.api.get_thread(&t.id).await.unwrap().status,
        ThreadStatus::Draft,
        "unchanged"
    );
    // Draft fields can be set and cleared with null.
    let p = svc
        .api
        .patch_thread(
            &t.id,
            &PatchThread {
                draft_subject: Some(None),
                draft_cc: Some(Some("a@x.io, b@x.io".into())),
                participant_name: Some("P".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(
        (p.draft_subject, p.draft_cc.as_deref()),
        (None, Some("a@x.io, b@x.io"))
    );
}

#[tokio::test]
async fn unread_count_limits() {
    let svc = start().await;
    let t = svc
        .api
        .create_thread(&draft("u@example.com", None))
        .await
        .unwrap()
        .thread;
    let path = format!("/api/threads/{}", t.id);
    let r = svc
        .raw("PATCH", &path, Some(json!({"unread_count": MAX_INT})))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["thread"]["unread_count"], MAX_INT);
    let r = svc
        .raw("PATCH", &path, Some(json!({"unread_count": 0})))
        .await;
    assert_eq!(r.body["thread"]["unread_count"], 0);
    for bad in [json!(MAX_INT + 1), json!(-1), json!(1.5), json!("3")] {
        let r = svc
            .raw("PATCH", &path, Some(json!({"unread_count": bad})))
            .await;
        assert_eq!(r.status, 400, "{bad}");
        assert!(r.message().starts_with("unread_count: "), "{}", r.message());
    }
    let r = svc
        .raw("PATCH", &path, Some(json!({"unread_count": MAX_INT + 1})))
        .await;
    assert_eq!(r.message(), "unread_count: 0 to 9007199254740991");
}

#[tokio::test]
async fn rule_9_delete_only_unsent_drafts() {
    let svc = start().await;
    let t = svc
        .api
        .create_thread(&draft("d@example.com", None))
        .await
        .unwrap()
        .thread;
    let r = svc
        .raw("DELETE", &format!("/api/threads/{}", t.id), None)
        .await;
    assert_eq!((r.status, r.body.clone()), (200, json!({"deleted": true})));
    assert!(svc.api.get_thread(&t.id).await.unwrap_err().is_not_found());
    assert_err(svc.api.delete_thread(&t.id).await, 404, "not_found");
    let list = svc
        .api
        .list_threads(&ThreadQuery::default())
        .await
        .unwrap()
        .threads;
    let active = list
        .iter()
        .find(|t| t.status == ThreadStatus::Active)
        .unwrap();
    assert_err(svc.api.delete_thread(&active.id).await, 409, "conflict");
    // A draft that already holds messages is not an unsent draft.
    let with_messages = list
        .iter()
        .find(|t| t.participant_email == "hana.ito@helix.ai")
        .unwrap();
    assert_eq!(with_messages.status, ThreadStatus::Draft);
    assert_err(
        svc.api.delete_thread(&with_messages.id).await,
        409,
        "conflict",
    );
    // The simulated unexpected failure.
    let doomed = svc
        .api
        .create_thread(&draft("x@delete-fails.test", None))
        .await
        .unwrap()
        .thread;
    assert_err(
        svc.api.delete_thread(&doomed.id).await,
        500,
        "internal_error",
    );
    assert!(svc.api.get_thread(&doomed.id).await.is_ok(), "still there");
}

#[tokio::test]
async fn sending_makes_the_thread_active_and_clears_the_draft() {
    let svc = start().await;
    let (a, _, not_ready) = email_senders(&svc).await;
    let mut req = draft("send@example.com", None);
    req.draft_body_text = Some("Body".into());
    let t = svc.api.create_thread(&req).await.unwrap().thread;
    let e = svc.api.send_message(&t.id, &SendMessage::default()).await;
    let e = assert_err(e, 400, "invalid_request");
    assert!(e.message().starts_with("account_id:"), "no sender: {e}");
    let e = svc
        .api
        .send_message(
            &t.id,
            &SendMessage {
                account_id: Some(not_ready),
                ..Default::default()
            },
        )
        .await;
    assert_err(e, 400, "invalid_request");
    let r = svc
        .raw(
            "POST",
            &format!("/api/threads/{}/messages", t.id),
            Some(json!({"account_id": a})),
        )
        .await;
    assert_eq!(r.status, 201);
    let sent = svc.api.get_thread(&t.id).await.unwrap();
    assert_eq!(sent.status, ThreadStatus::Active);
    assert_eq!((sent.draft_subject, sent.draft_body_text), (None, None));
    assert_eq!(sent.account_id.as_deref(), Some(a.as_str()));
    let msgs = svc.api.list_messages(&t.id, None, None).await.unwrap();
    assert_eq!(msgs.total, 1);
    assert_eq!(
        (
            msgs.messages[0].subject.as_str(),
            msgs.messages[0].body_text.as_str()
        ),
        ("Hello", "Body")
    );
    assert_eq!(msgs.messages[0].direction, "outbound");
    assert_eq!(msgs.messages[0].conversation_id, t.id);
    // No recipient: 400.
    let t = svc
        .api
        .create_thread(&CreateThread {
            draft_subject: Some("s".into()),
            account_id: Some(Some(a.clone())),
            ..Default::default()
        })
        .await
        .unwrap()
        .thread;
    let e = assert_err(
        svc.api.send_message(&t.id, &SendMessage::default()).await,
        400,
        "invalid_request",
    );
    assert!(e.message().starts_with("participant_email"));
    assert_err(
        svc.api.send_message("nope", &SendMessage::default()).await,
        404,
        "not_found",
    );
}

#[tokio::test]
async fn message_paging_limits() {
    let svc = start().await;
    let (a, _, _) = email_senders(&svc).await;
    let t = svc
        .api
        .create_thread(&draft("many@example.com", Some(&a)))
        .await
        .unwrap()
        .thread;
    for i in 0..5 {
        svc.api
            .send_message(
                &t.id,
                &SendMessage {
                    body_text: Some(format!("m{i}")),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
    }
    let p = svc
        .api
        .list_messages(&t.id, Some(2), Some(2))
        .await
        .unwrap();
    assert_eq!((p.total, p.page, p.limit), (5, 2, 2));
    assert_eq!(
        p.messages
            .iter()
            .map(|m| m.body_text.as_str())
            .collect::<Vec<_>>(),
        ["m2", "m3"],
        "sent_at ascending"
    );
    let d = svc.api.list_messages(&t.id, None, None).await.unwrap();
    assert_eq!((d.page, d.limit), (1, 50), "defaults");
    let path = format!("/api/threads/{}/messages", t.id);
    for (q, want) in [
        ("limit=200", 200),
        ("limit=201", 400),
        ("limit=0", 400),
        ("page=0", 400),
        ("page=1", 200),
    ] {
        let r = svc.raw("GET", &format!("{path}?{q}"), None).await;
        assert_eq!(r.status, want, "{q}");
    }
    // Reading messages does not mark the thread read.
    let seeded = svc
        .api
        .list_threads(&ThreadQuery::default())
        .await
        .unwrap()
        .threads;
    let unread = seeded.iter().find(|t| t.unread_count > 0).unwrap();
    svc.api.list_messages(&unread.id, None, None).await.unwrap();
    assert_eq!(
        svc.api.get_thread(&unread.id).await.unwrap().unread_count,
        unread.unread_count
    );
}

#[tokio::test]
async fn thread_list_orders_by_activity_and_filters_status() {
    let svc = start().await;
    let all = svc.api.list_threads(&ThreadQuery::default()).await.unwrap();
    assert!(all.total >= 6);
    let times: Vec<String> = all
        .threads
        .iter()
        .map(|t| t.updated_at.clone().unwrap())
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "newest activity first"
    );
    for s in ["draft", "active", "archived"] {
        let p = svc
            .api
            .list_threads(&ThreadQuery {
                status: Some(s.into()),
                ..Default::default()
            })
            .await
            .unwrap();
        assert!(
            p.total > 0 && p.threads.iter().all(|t| t.status.as_str() == s),
            "{s}"
        );
    }
    let p = svc
        .api
        .list_threads(&ThreadQuery {
            page: Some(2),
            limit: Some(2),
            status: None,
        })
        .await
        .unwrap();
    assert_eq!(p.threads[0].id, all.threads[2].id);
    for (q, want) in [
        ("limit=200", 200),
        ("limit=201", 400),
        ("page=0", 400),
        ("status=spam", 400),
    ] {
        assert_eq!(
            svc.raw("GET", &format!("/api/threads?{q}"), None)
                .await
                .status,
            want,
            "{q}"
        );
    }
}
