//! Sending: from the editor (saving first), and the send that can never
//! double — a lost answer is checked by reading the thread, never by
//! sending again.

use std::time::Duration;

use crossterm::event::KeyCode;

use super::{Svc, inbox, last_toast, press, press_ctrl, question, select, settle, toasts};
use crate::api::ApiError;
use crate::api::model::{SendMessageResponse, Thread, ThreadMessage, ThreadStatus};
use crate::app::fixtures::{self, drive};
use crate::app::inbox::send::{MAX_CHECKS, Verdict};
use crate::app::inbox::{InboxSub, View};
use crate::app::{
    ApiReply, ApiRequest, Model, Msg, PaneSub, RequestId, SubId, subscriptions, update,
};

fn timeout() -> ApiError {
    ApiError::Timeout {
        method: "POST".into(),
        after: Duration::from_secs(1),
        may_have_reached: true,
    }
}

/// Sends Jonas's draft and loses the answer; returns the model and the
/// reads it asked for.
fn lost_send(svc: &Svc) -> (Model, Vec<(RequestId, ApiRequest)>) {
    let mut m = inbox(svc);
    select(&mut m, "t-1");
    press(&mut m, svc, KeyCode::Char('S'));
    let writes = press(&mut m, svc, KeyCode::Char('y'));
    assert_eq!(writes.len(), 1, "one send");
    let cmds = drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::Sent(Box::new(Err(timeout()))),
    );
    (m, drive::api(&cmds))
}

fn sends(reqs: &[(RequestId, ApiRequest)]) -> usize {
    reqs.iter()
        .filter(|(_, r)| matches!(r, ApiRequest::SendMessage { .. }))
        .count()
}

/// The thread after the send went: active, draft fields cleared, one
/// outbound message.
fn sent_service() -> Svc {
    let mut svc = Svc::default();
    let t = &mut svc.threads[0];
    t.status = ThreadStatus::Active;
    t.draft_subject = None;
    t.draft_body_text = None;
    t.draft_cc = None;
    svc.messages.insert("t-1".into(), 1);
    svc
}

#[test]
fn a_lost_answer_is_never_retried_and_the_thread_says_it_went() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    assert_eq!(sends(&reads), 0, "never sent again");
    assert!(
        matches!(&reads[..], [(_, ApiRequest::ListMessages { id, .. })] if id == "t-1"),
        "{reads:?}"
    );
    assert!(
        toasts(&m).contains("may have reached the service"),
        "{}",
        toasts(&m)
    );
    // S now waits for the verdict instead of sending.
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none());
    assert!(last_toast(&m).contains("Checking the last send"));
    // The service did send it: its message is in the thread.
    let mut went = sent_service();
    // The fixture's first message carries the draft's subject and body.
    let draft = &Svc::default().threads[0];
    went.messages.insert("t-1".into(), 1);
    let reply = ApiReply::ThreadMessages(Ok(crate::api::model::MessagesPage {
        messages: vec![ThreadMessage {
            id: "m-1".into(),
            conversation_id: "t-1".into(),
            direction: "outbound".into(),
            subject: draft.draft_subject.clone().unwrap(),
            body_text: draft.draft_body_text.clone().unwrap(),
            sent_at: "2026-11-22T12:00:00Z".into(),
        }],
        total: 1,
        page: 1,
        limit: 200,
    }));
    let cmds = drive::reply(&mut m, reads[0].0, reply);
    let writes = settle(&mut m, &went, &cmds);
    assert!(writes.is_empty(), "{writes:?}");
    assert!(m.panes.inbox.checks.is_empty());
    assert!(last_toast(&m).contains("sent once"), "{}", last_toast(&m));
    assert_eq!(
        m.panes.inbox.list.find("t-1").map(|t| t.status.clone()),
        Some(ThreadStatus::Active),
        "the thread is read again"
    );
}

#[test]
fn a_send_not_found_is_checked_again_then_said_not_sent() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    // Not there yet.
    let cmds = drive::reply(&mut m, reads[0].0, svc.read(&reads[0].1).unwrap());
    assert!(drive::api(&cmds).is_empty());
    assert!(toasts(&m).contains("Not in the thread yet"));
    for attempt in 1..MAX_CHECKS {
        let due: Vec<(SubId, Duration)> = subscriptions(&m)
            .into_iter()
            .filter(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::SendCheck(..)))))
            .map(|s| (s.id, s.every))
            .collect();
        assert_eq!(
            due,
            [(
                SubId::Pane(PaneSub::Inbox(InboxSub::SendCheck("t-1".into(), attempt))),
                Duration::from_secs(1 << attempt.min(4))
            )],
            "checks back off: 2, 4, 8, 16 s"
        );
        let cmds = update(&mut m, Msg::SubFired(due[0].0.clone()));
        let reads = drive::api(&cmds);
        assert_eq!(sends(&reads), 0);
        assert!(matches!(&reads[..], [(_, ApiRequest::ListMessages { .. })]));
        drive::reply(&mut m, reads[0].0, svc.read(&reads[0].1).unwrap());
    }
    assert_eq!(m.panes.inbox.checks["t-1"].verdict, Verdict::NotSent);
    assert!(last_toast(&m).contains("Not sent"), "{}", last_toast(&m));
    // Now S may send again, and says it is safe.
    let writes = press(&mut m, &svc, KeyCode::Char('S'));
    assert!(writes.is_empty());
    assert_eq!(question(&m), Some("Send this email?"));
    assert!(super::question_text(&m).contains("sending again is safe"));
}

#[test]
fn a_larger_thread_is_checked_on_its_last_page() {
    let mut svc = Svc::default();
    svc.messages.insert("t-1".into(), 450);
    let (mut m, reads) = lost_send(&svc);
    let cmds = drive::reply(&mut m, reads[0].0, svc.read(&reads[0].1).unwrap());
    let next = drive::api(&cmds);
    assert!(
        matches!(
            &next[..],
            [(_, ApiRequest::ListMessages { page: Some(3), .. })]
        ),
        "{next:?}"
    );
}

#[test]
fn a_refused_send_is_said_and_may_be_sent_again() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('S'));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    let err = drive::service_error(
        400,
        r#"{"error":{"code":"invalid_request","message":"account_id: a ready email sender is required to send"}}"#,
    );
    drive::reply(&mut m, writes[0].0, ApiReply::Sent(Box::new(Err(err))));
    assert!(
        last_toast(&m).contains("a ready email sender"),
        "{}",
        last_toast(&m)
    );
    assert!(m.panes.inbox.checks.is_empty(), "definitely not sent");
    press(&mut m, &svc, KeyCode::Char('S'));
    assert_eq!(question(&m), Some("Send this email?"));
}

#[test]
fn ctrl_s_in_the_editor_saves_then_asks_then_sends_once() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    for c in " Thanks!".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    let writes = press_ctrl(&mut m, &svc, 's');
    assert!(
        matches!(&writes[..], [(_, ApiRequest::PatchThread { .. })]),
        "saved first"
    );
    assert!(question(&m).is_none(), "asks once the service has the text");
    let mut t: Thread = svc.threads[0].clone();
    t.draft_body_text = Some(format!("{} Thanks!", t.draft_body_text.unwrap_or_default()));
    let cmds = drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::Thread(Box::new(Ok(t.clone()))),
    );
    assert!(drive::api(&cmds).is_empty());
    assert_eq!(question(&m), Some("Send this email?"));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(sends(&writes), 1);
    assert_eq!(
        m.panes.inbox.view,
        View::Thread,
        "the editor closed: the service has its text"
    );
    assert!(m.panes.inbox.editor.is_none());
    // A second S while it is on its way sends nothing.
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(last_toast(&m).contains("being sent"));
    let mut active = t;
    active.status = ThreadStatus::Active;
    let cmds = drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::Sent(Box::new(Ok(SendMessageResponse {
            message: fixtures::thread_message("t-1", 0),
            thread: active,
        }))),
    );
    settle(&mut m, &sent_service(), &cmds);
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert_eq!(o.messages.total, Some(1), "its message is shown");
    assert_eq!(
        o.thread.as_ref().map(|t| t.status.clone()),
        Some(ThreadStatus::Active)
    );
}

#[test]
fn unsaved_text_blocks_a_send_from_the_list() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    m.state.drafts.insert(
        "inbox-draft:t-1".into(),
        crate::store::Draft {
            title: "email".into(),
            fields: [("body".to_owned(), "newer text".to_owned())].into(),
        },
    );
    select(&mut m, "t-1");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none());
    assert!(
        last_toast(&m).contains("Unsaved text"),
        "{}",
        last_toast(&m)
    );
}
