//! The inbox over simulated time: replies arrive on active threads (seeded
//! and after a send), unread counts rise, the list follows the newest
//! activity, reading and marking read behave; and the seeded inbox a pane
//! needs (every status, draft attachments, a 300-message thread).

use std::collections::HashSet;

use outpost::testkit::api::model::*;
use outpost::testkit::demo::DemoConfig;
use outpost::testkit::demo::seed::LONG_THREAD_MESSAGES;
use serde_json::json;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::common::*;

fn at(s: &str) -> OffsetDateTime {
    OffsetDateTime::parse(s, &Rfc3339).unwrap_or_else(|e| panic!("{s}: {e}"))
}

async fn all_threads(svc: &Svc) -> Vec<Thread> {
    svc.api
        .list_threads(&ThreadQuery {
            limit: Some(200),
            ..Default::default()
        })
        .await
        .unwrap()
        .threads
}

async fn thread_with(svc: &Svc, email: &str) -> Thread {
    all_threads(svc)
        .await
        .into_iter()
        .find(|t| t.participant_email == email)
        .unwrap_or_else(|| panic!("seeded thread with {email}"))
}

async fn all_messages(svc: &Svc, id: &str) -> Vec<ThreadMessage> {
    let mut out = Vec::new();
    for page in 1.. {
        let p = svc
            .api
            .list_messages(id, Some(page), Some(200))
            .await
            .unwrap();
        let n = p.messages.len();
        out.extend(p.messages);
        if n < 200 {
            break;
        }
    }
    out
}

#[tokio::test]
async fn seeded_replies_arrive_unread_and_lead_the_list() {
    // 4 and 9 simulated minutes after start: 6 s and 13.5 s here.
    let svc = start_with(DemoConfig {
        time_scale: 40.0,
        ..config()
    })
    .await;
    let nadia = thread_with(&svc, "nadia.haddad@lumen.health").await;
    let mateo = thread_with(&svc, "mateo.silva@quarry.io").await;
    assert_eq!((nadia.unread_count, mateo.unread_count), (0, 0));
    assert_eq!(nadia.status, ThreadStatus::Active);
    let before = svc.api.list_messages(&nadia.id, None, None).await.unwrap();
    assert_eq!(before.total, 3);
    assert_eq!(before.messages[2].direction, "outbound");

    let nadia = eventually(20, "Nadia's reply", || async {
        let t = svc.api.get_thread(&nadia.id).await.unwrap();
        (t.unread_count == 1).then_some(t)
    })
    .await;
    let msgs = svc.api.list_messages(&nadia.id, None, None).await.unwrap();
    assert_eq!(msgs.total, 4);
    let reply = &msgs.messages[3];
    assert_eq!(reply.direction, "inbound");
    assert_eq!(reply.conversation_id, nadia.id);
    assert_eq!(reply.subject, "Re: Lumen's quarterly forecast");
    assert!(reply.body_text.contains("Maya"), "{}", reply.body_text);
    assert!(reply.body_text.ends_with("Nadia"), "{}", reply.body_text);
    assert!(at(&reply.sent_at) > at(&msgs.messages[2].sent_at));
    assert_eq!(
        nadia.updated_at.as_deref(),
        Some(reply.sent_at.as_str()),
        "the reply is the latest activity"
    );
    let list = all_threads(&svc).await;
    let top = &list[0];
    assert!(
        top.id == nadia.id || top.id == mateo.id,
        "the newest activity leads: {}",
        top.participant_email
    );

    // Reading does not mark read; marking read does not reorder.
    svc.api.list_messages(&nadia.id, None, None).await.unwrap();
    assert_eq!(svc.api.get_thread(&nadia.id).await.unwrap().unread_count, 1);
    let read = svc
        .api
        .patch_thread(
            &nadia.id,
            &PatchThread {
                unread_count: Some(0),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(read.unread_count, 0);
    assert_eq!(
        read.updated_at, nadia.updated_at,
        "marking read is no activity"
    );

    // The long thread's reply arrives later and takes the top.
    let mateo = eventually(30, "Mateo's reply", || async {
        let t = svc.api.get_thread(&mateo.id).await.unwrap();
        (t.unread_count == 1).then_some(t)
    })
    .await;
    let list = all_threads(&svc).await;
    assert_eq!(list[0].id, mateo.id, "newest activity first");
    assert_eq!(list[1].id, nadia.id);
    let n = LONG_THREAD_MESSAGES as u64 + 1;
    let last = svc
        .api
        .list_messages(&mateo.id, Some(n.div_ceil(50)), None)
        .await
        .unwrap();
    assert_eq!(last.total, n);
    assert_eq!(last.messages.len() as u64, n - (n.div_ceil(50) - 1) * 50);
    let reply = last.messages.last().unwrap();
    assert_eq!(reply.direction, "inbound");
    assert!(
        reply.subject.starts_with("Re: Quarry pilot"),
        "{}",
        reply.subject
    );
    assert!(!reply.subject.starts_with("Re: Re:"), "{}", reply.subject);
}

/// Creates `n` draft threads with sender `a`, sends one message on each
/// (archiving the thread right after when `archive`) and returns their ids.
async fn send_to_many(svc: &Svc, a: &str, n: usize, archive: bool) -> Vec<String> {
    let mut ids = Vec::new();
    for i in 0..n {
        let t = svc
            .api
            .create_thread(&CreateThread {
                participant_email: Some(format!("prospect{i}@replies.example")),
                participant_name: Some(format!("Prospect{i} Example")),
                account_id: Some(Some(a.to_owned())),
                draft_subject: Some(format!("Offer {i}")),
                draft_body_text: Some("Hello".into()),
                ..Default::default()
            })
            .await
            .unwrap()
            .thread;
        svc.api
            .send_message(&t.id, &SendMessage::default())
            .await
            .unwrap();
        if archive {
            svc.api
                .patch_thread(
                    &t.id,
                    &PatchThread {
                        status: Some(ThreadStatus::Archived),
                        ..Default::default()
                    },
                )
                .await
                .unwrap();
        }
        ids.push(t.id);
    }
    ids
}

async fn ready_email_sender(svc: &Svc) -> String {
    svc.api
        .list_senders(Some(&Channel::Email))
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.status == "connected")
        .unwrap()
        .id
}

#[tokio::test]
async fn sent_messages_get_a_reply_some_of_the_time_and_replay_identically() {
    // 30 simulated minutes (the latest a reply comes) are 0.6 s here.
    let fast = DemoConfig {
        time_scale: 3000.0,
        epoch_ms: Some(1_790_000_000_000),
        ..config()
    };
    let a = start_with(fast.clone()).await;
    let n = 12;
    let sender = ready_email_sender(&a).await;
    let ids_a = send_to_many(&a, &sender, n, false).await;
    // Past the latest a reply comes (30 simulated minutes).
    after_sim(&a, 31 * 60).await;
    let mut replied = Vec::new();
    for (i, id) in ids_a.iter().enumerate() {
        let t = a.api.get_thread(id).await.unwrap();
        let msgs = all_messages(&a, id).await;
        let inbound: Vec<&ThreadMessage> =
            msgs.iter().filter(|m| m.direction == "inbound").collect();
        assert!(inbound.len() <= 1, "one reply per message sent");
        assert_eq!(t.unread_count, inbound.len() as u64);
        if let Some(r) = inbound.first() {
            replied.push(i);
            assert_eq!(r.subject, format!("Re: Offer {i}"));
            assert!(
                r.body_text.ends_with(&format!("Prospect{i}")),
                "{}",
                r.body_text
            );
            let wait = at(&r.sent_at) - at(&msgs[0].sent_at);
            assert!(
                wait >= time::Duration::minutes(3) && wait < time::Duration::minutes(30),
                "{wait}"
            );
            assert_eq!(t.updated_at.as_deref(), Some(r.sent_at.as_str()));
            assert_eq!(msgs.last().map(|m| &m.id), Some(&r.id), "sent_at order");
        }
    }
    assert!(
        !replied.is_empty() && replied.len() < n,
        "some but not all answered: {replied:?}"
    );
    // The same requests give the same draws: a fresh service answers the
    // same threads.
    let c = start_with(fast).await;
    let ids_c = send_to_many(&c, &sender, n, false).await;
    after_sim(&c, 31 * 60).await;
    let mut replied_c = Vec::new();
    for (i, id) in ids_c.iter().enumerate() {
        if c.api.get_thread(id).await.unwrap().unread_count > 0 {
            replied_c.push(i);
        }
    }
    assert_eq!(replied, replied_c);
    // The same draws on threads archived right after the send: no reply
    // arrives (3 to 30 simulated minutes are 0.6 to 6 s here).
    let b = start_with(DemoConfig {
        time_scale: 300.0,
        epoch_ms: Some(1_790_000_000_000),
        ..config()
    })
    .await;
    let ids_b = send_to_many(&b, &sender, n, true).await;
    after_sim(&b, 31 * 60).await;
    for id in &ids_b {
        let t = b.api.get_thread(id).await.unwrap();
        assert_eq!(t.unread_count, 0);
        assert!(
            all_messages(&b, id)
                .await
                .iter()
                .all(|m| m.direction == "outbound"),
            "no reply on an archived thread"
        );
    }
}

#[tokio::test]
async fn the_seeded_inbox_has_every_status_attachments_and_a_long_thread() {
    let svc = start_with(DemoConfig {
        time_scale: 0.0,
        ..config()
    })
    .await;
    let list = all_threads(&svc).await;
    let statuses: HashSet<&str> = list.iter().map(|t| t.status.as_str()).collect();
    assert_eq!(statuses, HashSet::from(["draft", "active", "archived"]));
    let unread = list
        .iter()
        .find(|t| t.status == ThreadStatus::Active && t.unread_count > 0)
        .expect("an active thread with unread replies");
    let msgs = all_messages(&svc, &unread.id).await;
    assert_eq!(msgs.last().unwrap().direction, "inbound");

    // A draft with attachment metadata, which Bearer callers cannot change.
    let hana = list
        .iter()
        .find(|t| !t.draft_attachments.is_empty())
        .expect("a draft with attachments");
    assert_eq!(hana.status, ThreadStatus::Draft);
    let names: Vec<&str> = hana
        .draft_attachments
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["helix-webinar-slides.pdf", "pipeline-chart.png"]);
    for a in &hana.draft_attachments {
        assert!(a.size >= 1 && !a.mime_type.is_empty() && !a.bucket.is_empty());
        assert!(a.path.contains(&hana.id) && a.url.starts_with("https://"));
    }
    let r = svc
        .raw(
            "PATCH",
            &format!("/api/threads/{}", hana.id),
            Some(json!({"draft_attachments": []})),
        )
        .await;
    assert_eq!(r.status, 403);
    // Sending takes the attachments with the message.
    let sent = svc
        .api
        .send_message(&hana.id, &SendMessage::default())
        .await
        .unwrap();
    assert!(sent.thread.draft_attachments.is_empty());

    // The long thread pages in order without gaps.
    let long = list
        .iter()
        .find(|t| t.participant_email == "mateo.silva@quarry.io")
        .unwrap();
    let first = svc
        .api
        .list_messages(&long.id, Some(1), Some(200))
        .await
        .unwrap();
    assert_eq!(first.total, LONG_THREAD_MESSAGES as u64);
    assert_eq!(first.messages.len(), 200);
    let all = all_messages(&svc, &long.id).await;
    assert_eq!(all.len(), LONG_THREAD_MESSAGES);
    assert_eq!(
        all.iter()
            .map(|m| m.id.as_str())
            .collect::<HashSet<_>>()
            .len(),
        all.len(),
        "no message twice across pages"
    );
    assert!(
        all.windows(2)
            .all(|w| at(&w[0].sent_at) <= at(&w[1].sent_at)),
        "sent_at ascending"
    );
    let directions: HashSet<&str> = all.iter().map(|m| m.direction.as_str()).collect();
    assert_eq!(directions, HashSet::from(["inbound", "outbound"]));
}
