//! Sending: from the editor (saving first), and the send that can never
//! double — a lost answer is checked by reading the thread, never by
//! sending again.

use std::time::Duration;

use crossterm::event::KeyCode;

use super::{Svc, inbox, last_toast, press, press_ctrl, question, select, settle, toasts};
use crate::api::ApiError;
use crate::api::model::{SendMessageResponse, Thread, ThreadMessage, ThreadStatus};
use crate::app::fixtures::{self, drive};
use crate::app::inbox::send::Stage;
use crate::app::inbox::{InboxSub, View};
use crate::app::{
    ApiReply, ApiRequest, Model, Msg, PaneSub, RequestId, SubId, subscriptions, update,
};
use crate::logic::write::{GOOD_READS, MAX_FAILED_READS, SCHEDULE_SECS, Verdict};

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
    send_failing(svc, timeout())
}

/// Sends Jonas's draft and answers the send with `err`; returns the model
/// and the requests that follow.
fn send_failing(svc: &Svc, err: ApiError) -> (Model, Vec<(RequestId, ApiRequest)>) {
    let mut m = inbox(svc);
    select(&mut m, "t-1");
    press(&mut m, svc, KeyCode::Char('S'));
    let writes = press(&mut m, svc, KeyCode::Char('y'));
    assert_eq!(writes.len(), 1, "one send");
    let cmds = drive::reply(&mut m, writes[0].0, ApiReply::Sent(Box::new(Err(err))));
    (m, drive::api(&cmds))
}

/// The read of the thread's messages among `reqs` (the check asks for the
/// messages and the thread).
fn messages_read(reqs: &[(RequestId, ApiRequest)]) -> (RequestId, ApiRequest) {
    reqs.iter()
        .find(|(_, r)| matches!(r, ApiRequest::ListMessages { .. }))
        .cloned()
        .expect("the messages are read")
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
        matches!(&reads[..], [(_, ApiRequest::ListMessages { id, .. }), (_, ApiRequest::GetThread { id: t })] if id == "t-1" && t == "t-1"),
        "the messages and the thread are read: {reads:?}"
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
    let mut cmds = drive::reply(&mut m, reads[0].0, reply);
    // The thread read with the messages answers too.
    cmds.extend(drive::reply(
        &mut m,
        reads[1].0,
        went.read(&reads[1].1).unwrap(),
    ));
    let writes = settle(&mut m, &went, &cmds);
    assert!(writes.is_empty(), "{writes:?}");
    assert!(m.panes.inbox.checks.is_empty());
    assert!(last_toast(&m).contains("sent once"), "{}", last_toast(&m));
    assert!(
        last_toast(&m).contains("found in the thread"),
        "says what the check saw: {}",
        last_toast(&m)
    );
    assert_eq!(
        m.panes.inbox.list.find("t-1").map(|t| t.status.clone()),
        Some(ThreadStatus::Active),
        "the thread is read again"
    );
}

/// The send-check timer due now, with its wait.
fn send_check_due(m: &Model) -> Option<(SubId, Duration)> {
    subscriptions(m)
        .into_iter()
        .find(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::SendCheck(..)))))
        .map(|s| (s.id, s.every))
}

/// Fires the send-check timer and returns the reads it sends (never a
/// send) with the wait it had.
fn next_check(m: &mut Model) -> (Vec<(RequestId, ApiRequest)>, Duration) {
    let (due, every) = send_check_due(m).expect("another read is due");
    let reads = drive::api(&update(m, Msg::SubFired(due)));
    assert_eq!(sends(&reads), 0, "never sent again");
    assert!(
        matches!(
            &reads[..],
            [
                (_, ApiRequest::ListMessages { .. }),
                (_, ApiRequest::GetThread { .. })
            ]
        ),
        "{reads:?}"
    );
    (reads, every)
}

/// A 500 from the service, as the client returns it for a read.
fn read_failed() -> ApiError {
    drive::service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    )
}

/// Answers each read with a failure.
fn fail_reads(m: &mut Model, reads: &[(RequestId, ApiRequest)]) {
    for (id, req) in reads {
        let reply = match req {
            ApiRequest::ListMessages { .. } => ApiReply::ThreadMessages(Err(read_failed())),
            _ => ApiReply::Thread(Box::new(Err(read_failed()))),
        };
        assert!(drive::api(&drive::reply(m, *id, reply)).is_empty());
    }
}

/// Not found: read again at 0, 2, 4, 8 and 16 s (the one schedule of
/// `logic::write::Check`), then "not found in the thread after 5 good
/// reads"; S then asks, and the question says what the check saw.
#[test]
fn a_send_not_found_is_checked_again_then_said_not_sent() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    // Not there yet (the thread is still a draft).
    for (id, req) in &reads {
        let cmds = drive::reply(&mut m, *id, svc.read(req).unwrap());
        assert!(drive::api(&cmds).is_empty());
    }
    assert!(toasts(&m).contains("Not in the thread yet"));
    let mut at = vec![0];
    for _ in 1..GOOD_READS {
        assert!(
            !toasts(&m).contains("Most likely not sent"),
            "{}",
            toasts(&m)
        );
        let (reads, every) = next_check(&mut m);
        at.push(at.last().unwrap() + every.as_secs());
        for (id, req) in &reads {
            drive::reply(&mut m, *id, svc.read(req).unwrap());
        }
    }
    assert_eq!(at, SCHEDULE_SECS, "reads at 0, 2, 4, 8 and 16 s");
    assert!(send_check_due(&m).is_none(), "settled: no more reads");
    assert!(matches!(
        m.panes.inbox.checks["t-1"].stage(),
        Stage::Settled(Verdict::NotFound)
    ));
    assert!(
        last_toast(&m).contains("Most likely not sent"),
        "{}",
        last_toast(&m)
    );
    assert!(
        last_toast(&m).contains("not found in the thread after 5 good reads"),
        "{}",
        last_toast(&m)
    );
    // Now S may send again; the confirm says what is known, and never that
    // it is safe (a very slow service could still deliver the first).
    let writes = press(&mut m, &svc, KeyCode::Char('S'));
    assert!(writes.is_empty());
    assert_eq!(question(&m), Some("Send this email?"));
    let text = super::question_text(&m);
    assert!(!text.contains("is safe"), "{text}");
    assert!(
        text.contains("not found in the thread after 5 good reads"),
        "{text}"
    );
    assert!(text.contains("could do it twice"), "{text}");
}

/// Defect: after a send whose answer never came, every read of the thread
/// failed with 500 and yet "Most likely not sent: not in the thread after
/// 5 checks" was said, and S sent a second email. A failed read is no
/// check: the reads go on, S stays refused, and after 10 failed reads the
/// verdict is "could not check" — S then asks, saying Outpost cannot tell.
#[test]
fn reads_that_all_fail_never_say_not_sent() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    fail_reads(&mut m, &reads);
    for n in 1..MAX_FAILED_READS {
        assert!(
            !toasts(&m).contains("Most likely not sent"),
            "after {n} failed reads: {}",
            toasts(&m)
        );
        assert!(
            !toasts(&m).contains("Not in the thread yet"),
            "a failed read saw nothing: {}",
            toasts(&m)
        );
        // S is refused while it is checked, and says why.
        assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
        assert!(question(&m).is_none(), "no second send after {n} reads");
        assert!(
            last_toast(&m).contains("Checking the last send"),
            "{}",
            last_toast(&m)
        );
        let (reads, _) = next_check(&mut m);
        fail_reads(&mut m, &reads);
    }
    assert!(send_check_due(&m).is_none(), "settled: no more reads");
    let said = toasts(&m);
    assert!(!said.contains("Most likely not sent"), "{said}");
    assert!(
        said.contains("could not check: 10 reads failed (last: internal_error: boom)"),
        "{said}"
    );
    // The thread's line says the same.
    let screen = super::screen(&m);
    assert!(
        screen.contains("Could not check: 10 reads failed"),
        "{screen}"
    );
    assert!(!screen.contains("Most likely not sent"), "{screen}");
    // S asks first, and the question says Outpost cannot tell.
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert_eq!(question(&m), Some("Send this email?"));
    let text = super::question_text(&m);
    assert!(text.contains("cannot tell"), "{text}");
    assert!(text.contains("could not check"), "{text}");
    assert!(!text.contains("most likely"), "{text}");
}

/// Defect: a send answered 502 after the service acted was reported "not
/// sent", and S sent a second email. A 5xx to a write may have reached:
/// the thread is read, and S waits for the verdict.
#[test]
fn a_send_answered_502_is_checked_never_repeated() {
    let svc = Svc::default();
    let mut e = crate::api::ServiceError::from_body(
        502,
        br#"{"error":{"code":"bad_gateway","message":"upstream answer lost"}}"#,
        None,
    );
    // As the client marks a write answered 5xx.
    e.may_have_reached = true;
    let (mut m, reads) = send_failing(&svc, ApiError::Service(Box::new(e)));
    assert_eq!(sends(&reads), 0, "never sent again");
    assert!(
        matches!(
            &reads[..],
            [
                (_, ApiRequest::ListMessages { .. }),
                (_, ApiRequest::GetThread { .. })
            ]
        ),
        "the thread is read: {reads:?}"
    );
    let said = toasts(&m);
    assert!(said.contains("bad_gateway · the answer was lost"), "{said}");
    assert!(said.contains("may have reached"), "{said}");
    assert!(!said.contains("— not sent"), "{said}");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none(), "no second send while checking");
    // The service had sent it.
    let went = sent_service();
    for (id, req) in &reads {
        let cmds = drive::reply(&mut m, *id, went.read(req).unwrap());
        settle(&mut m, &went, &cmds);
    }
    assert!(m.panes.inbox.checks.is_empty(), "it went");
    assert!(toasts(&m).contains("sent once"), "{}", toasts(&m));
    // S on the thread it made active: not a draft any more.
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none());
}

#[test]
fn a_larger_thread_is_checked_on_its_last_page() {
    let mut svc = Svc::default();
    svc.messages.insert("t-1".into(), 450);
    let (mut m, reads) = lost_send(&svc);
    let (id, req) = messages_read(&reads);
    let cmds = drive::reply(&mut m, id, svc.read(&req).unwrap());
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

/// A connection dropped after the send left: it may have reached the
/// service, so it is checked, never sent again.
#[test]
fn a_dropped_connection_after_sending_is_checked_not_repeated() {
    let svc = Svc::default();
    let (mut m, reads) = send_failing(
        &svc,
        ApiError::Transport {
            detail: "connection reset".into(),
            may_have_reached: true,
        },
    );
    assert_eq!(sends(&reads), 0, "never sent again");
    assert_eq!(m.panes.inbox.checks["t-1"].stage(), Stage::Checking);
    assert!(toasts(&m).contains("the answer was lost"), "{}", toasts(&m));
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none(), "no second send while checking");
}

/// A connection that failed before the request left did not send: it is
/// said plainly, and may be sent again.
#[test]
fn a_connection_lost_before_sending_is_not_sent() {
    let svc = Svc::default();
    let (m, reads) = send_failing(
        &svc,
        ApiError::Transport {
            detail: "connection reset".into(),
            may_have_reached: false,
        },
    );
    assert!(reads.is_empty(), "nothing to check: {reads:?}");
    assert!(m.panes.inbox.checks.is_empty());
    assert!(last_toast(&m).contains("not sent"), "{}", last_toast(&m));
}

/// A 201 whose body cannot be read: the service said it sent; the thread
/// is read to learn the rest, and the send is not repeated.
#[test]
fn an_unreadable_201_is_checked_not_repeated() {
    let svc = Svc::default();
    let (mut m, reads) = send_failing(
        &svc,
        ApiError::Decode {
            status: 201,
            detail: "expected value at line 1 column 1".into(),
            may_have_reached: true,
        },
    );
    assert_eq!(sends(&reads), 0, "never sent again");
    assert_eq!(m.panes.inbox.checks["t-1"].stage(), Stage::Checking);
    // The thread as the service holds it now: sent.
    let went = sent_service();
    for (id, req) in &reads {
        let cmds = drive::reply(&mut m, *id, went.read(req).unwrap());
        settle(&mut m, &went, &cmds);
    }
    assert!(m.panes.inbox.checks.is_empty(), "it went");
    assert!(toasts(&m).contains("sent once"), "{}", toasts(&m));
}

/// The thread itself says the send went (active, its draft fields cleared)
/// even when the message read does not show the draft's text (the service
/// may store it otherwise): one read of the thread settles it.
#[test]
fn a_thread_turned_active_with_its_draft_cleared_means_it_went() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    let mut went = sent_service();
    went.messages.insert("t-1".into(), 0);
    let (id, req) = messages_read(&reads);
    drive::reply(&mut m, id, svc.read(&req).unwrap());
    assert!(
        !m.panes.inbox.checks.is_empty(),
        "the messages alone do not say"
    );
    let (id, req) = reads
        .iter()
        .find(|(_, r)| matches!(r, ApiRequest::GetThread { .. }))
        .cloned()
        .expect("the thread is read");
    let cmds = drive::reply(&mut m, id, went.read(&req).unwrap());
    settle(&mut m, &went, &cmds);
    assert!(m.panes.inbox.checks.is_empty(), "it went");
    assert!(
        toasts(&m).contains("found in the thread (it is active, its draft sent)"),
        "{}",
        toasts(&m)
    );
}

/// A thread whose count grew only by an inbound reply did not get the
/// send: the check counts an outbound message past the count it had.
#[test]
fn an_inbound_reply_is_not_taken_for_the_send() {
    let mut svc = Svc::default();
    svc.messages.insert("t-1".into(), 2);
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Enter);
    assert_eq!(
        m.panes.inbox.open.as_ref().and_then(|o| o.messages.total),
        Some(2)
    );
    press(&mut m, &svc, KeyCode::Char('S'));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(m.panes.inbox.checks["t-1"].baseline, Some(2));
    let cmds = drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::Sent(Box::new(Err(timeout()))),
    );
    let reads = drive::api(&cmds);
    // Three messages now: the third is a reply (fixture message 2 is
    // outbound, so answer with an inbound row).
    let (id, _) = messages_read(&reads);
    let mut reply_row = fixtures::thread_message("t-1", 1);
    reply_row.id = "t-1-m2".into();
    let mut page = fixtures::messages_page("t-1", 2, 1, 200);
    page.messages.push(reply_row);
    page.total = 3;
    drive::reply(&mut m, id, ApiReply::ThreadMessages(Ok(page)));
    assert_eq!(
        m.panes.inbox.checks["t-1"].stage(),
        Stage::Checking,
        "not taken for the send"
    );
}

/// `:send` on the open draft asks first, as `S` does; elsewhere it says
/// how to send.
#[test]
fn the_send_command_asks_for_the_open_draft() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    let command = |m: &mut Model, text: &str| {
        drive::key(m, KeyCode::Char(':'));
        drive::chars(m, text);
        drive::api(&drive::key(m, KeyCode::Enter))
    };
    // On the list: no draft is open.
    assert!(command(&mut m, "send").is_empty());
    assert!(
        last_toast(&m).contains("No draft open"),
        "{}",
        last_toast(&m)
    );
    assert!(last_toast(&m).contains('S'), "names the send key");
    // On the open draft: the confirm, nothing sent yet; y sends once.
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Enter);
    assert!(command(&mut m, "send").is_empty(), "asks first");
    assert_eq!(question(&m), Some("Send this email?"));
    assert!(super::question_text(&m).contains("jonas.fischer@kestrel.io"));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(sends(&writes), 1);
}

/// `q` while a send whose answer was lost is still being checked asks
/// first (quitting would end the check before it says whether the email
/// went); once the check has its verdict, `q` quits at once.
#[test]
fn quitting_while_a_lost_send_is_checked_asks_first() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    fail_reads(&mut m, &reads);
    press(&mut m, &svc, KeyCode::Char('q'));
    assert!(!m.quit, "not quit while checking");
    assert_eq!(question(&m), Some("Quit while checking?"));
    let text = super::question_text(&m);
    assert!(text.contains("the send to"), "{text}");
    press(&mut m, &svc, KeyCode::Char('n'));
    for _ in 1..MAX_FAILED_READS {
        let (reads, _) = next_check(&mut m);
        fail_reads(&mut m, &reads);
    }
    assert!(send_check_due(&m).is_none(), "settled");
    press(&mut m, &svc, KeyCode::Char('q'));
    assert!(m.quit, "settled: quits at once");
}

/// The state file a save writes.
fn state_saved(m: &mut Model) -> crate::store::State {
    match m.save_state() {
        crate::app::Cmd::SaveState(s) => *s,
        other => panic!("not a save: {other:?}"),
    }
}

/// A new session on the Inbox with `state` read from the state file.
fn restarted(svc: &Svc, state: crate::store::State) -> Model {
    let mut m = crate::app::fixtures::model(80, 24);
    m.state = state;
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    let writes = settle(&mut m, svc, &cmds);
    assert_eq!(sends(&writes), 0, "a restart sends nothing");
    m
}

/// Defect: a send whose answer was lost was checked only while Outpost
/// ran; quit and start again, and the draft looked untouched — S sent it a
/// second time without a word. The check is kept in the state file: the
/// next session resumes it where it was (the reads so far count), S stays
/// refused until the verdict, and then asks, saying what the check saw.
#[test]
fn a_checking_send_survives_a_restart_and_its_check_resumes() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    fail_reads(&mut m, &reads);
    let (reads, _) = next_check(&mut m);
    fail_reads(&mut m, &reads);
    assert_eq!(m.panes.inbox.checks["t-1"].reads(), 2);
    let state = state_saved(&mut m);
    let kept = &state.pending_writes["send:t-1"];
    assert_eq!(kept.failed, 2);
    assert_eq!(kept.lost.as_deref(), Some("timeout"));

    let mut m = restarted(&svc, state);
    assert!(
        toasts(&m).contains("An earlier send may have gone"),
        "{}",
        toasts(&m)
    );
    let c = &m.panes.inbox.checks["t-1"];
    assert_eq!(c.stage(), Stage::Checking);
    assert_eq!(c.reads(), 2, "resumed where it was");
    assert_eq!(
        c.subject,
        Svc::default().threads[0].draft_subject.clone().unwrap()
    );
    // S is refused while the check goes on.
    select(&mut m, "t-1");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none());
    assert!(
        last_toast(&m).contains("Checking the last send"),
        "{}",
        last_toast(&m)
    );
    // The schedule goes on: 8 more failed reads make 10.
    for _ in 2..MAX_FAILED_READS {
        let (reads, _) = next_check(&mut m);
        fail_reads(&mut m, &reads);
    }
    assert!(matches!(
        m.panes.inbox.checks["t-1"].stage(),
        Stage::Settled(Verdict::CouldNotCheck(_))
    ));
    // Settled: kept, so the next session still asks first.
    let state = state_saved(&mut m);
    let mut m = restarted(&svc, state);
    select(&mut m, "t-1");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert_eq!(question(&m), Some("Send this email?"));
    let text = super::question_text(&m);
    assert!(text.contains("could not check: 10 reads failed"), "{text}");
    assert!(text.contains("could do it twice"), "{text}");
}

/// A send the check found is dropped from the state file: the next
/// session has nothing to check.
#[test]
fn a_send_found_is_dropped_from_the_state() {
    let svc = Svc::default();
    let (mut m, reads) = lost_send(&svc);
    assert!(state_saved(&mut m).pending_writes.contains_key("send:t-1"));
    let went = sent_service();
    let thread = reads
        .iter()
        .find(|(_, r)| matches!(r, ApiRequest::GetThread { .. }))
        .cloned()
        .expect("the thread is read");
    let cmds = drive::reply(&mut m, thread.0, went.read(&thread.1).unwrap());
    settle(&mut m, &went, &cmds);
    assert!(m.panes.inbox.checks.is_empty(), "found");
    let state = state_saved(&mut m);
    assert!(state.pending_writes.is_empty(), "{state:?}");
    let m = restarted(&went, state);
    assert!(m.panes.inbox.checks.is_empty());
}
