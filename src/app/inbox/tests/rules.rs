//! The contract's thread state table, row by row, and its
//! condition-to-error rules 6 to 9, as the user meets them.

use crossterm::event::KeyCode;

use super::{Svc, inbox, last_toast, press, press_ctrl, question, question_text, select, toasts};
use crate::api::ApiError;
use crate::api::model::{
    CreateThreadResponse, ExistingThreads, PatchThread, SendMessage, SendMessageResponse, Thread,
    ThreadMessage, ThreadStatus,
};
use crate::api::validate;
use crate::app::fixtures::drive::{self, service_error};
use crate::app::inbox::{StatusFilter, View};
use crate::app::{ApiReply, ApiRequest};

fn with(t: &Thread, f: impl FnOnce(&mut Thread)) -> Thread {
    let mut t = t.clone();
    f(&mut t);
    t
}

// ---- The state table.

/// "any | PATCH status: active | none | active": unarchiving.
#[test]
fn state_any_to_active_by_unarchiving() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-5");
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    let (id, req) = writes[0].clone();
    assert_eq!(
        req,
        ApiRequest::PatchThread {
            id: "t-5".into(),
            patch: Box::new(PatchThread {
                status: Some(ThreadStatus::Active),
                ..PatchThread::default()
            })
        }
    );
    let t = m.panes.inbox.list.find("t-5").cloned().unwrap();
    drive::reply(
        &mut m,
        id,
        ApiReply::Thread(Box::new(Ok(with(&t, |t| t.status = ThreadStatus::Active)))),
    );
    assert_eq!(
        m.panes.inbox.list.find("t-5").unwrap().status,
        ThreadStatus::Active
    );
    assert!(last_toast(&m).contains("Unarchived"), "{}", last_toast(&m));
}

/// "any | PATCH status: archived | none | archived": archiving; a thread
/// that leaves the filtered status leaves the list.
#[test]
fn state_any_to_archived() {
    let mut svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('s'));
    press(&mut m, &svc, KeyCode::Char('s'));
    assert_eq!(m.panes.inbox.list.status, StatusFilter::Active);
    select(&mut m, "t-2");
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    let (id, req) = writes[0].clone();
    assert!(
        matches!(&req, ApiRequest::PatchThread { patch, .. } if patch.status == Some(ThreadStatus::Archived))
    );
    let t = svc.threads.remove(1);
    drive::reply(
        &mut m,
        id,
        ApiReply::Thread(Box::new(Ok(with(&t, |t| {
            t.status = ThreadStatus::Archived;
        })))),
    );
    assert!(m.panes.inbox.list.find("t-2").is_none(), "no longer active");
    assert!(last_toast(&m).contains("Archived"));
}

/// "any | PATCH status: archived" from `draft`: allowed, but a draft can
/// never come back as one (unarchiving makes it active), so the key asks
/// first, saying so; yes archives, and the answer says what archiving
/// changes ("archived threads are ignored by the duplicate check").
#[test]
fn state_draft_to_archived_asks_first() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-3");
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    assert!(writes.is_empty(), "asks first");
    assert_eq!(question(&m), Some("Archive this draft?"));
    let text = question_text(&m);
    assert!(text.contains("cannot come back as a draft"), "{text}");
    assert!(text.contains("ignored by the duplicate check"), "{text}");
    assert!(text.contains("delete it instead (D)"), "{text}");
    // n: nothing is sent.
    assert!(press(&mut m, &svc, KeyCode::Char('n')).is_empty());
    press(&mut m, &svc, KeyCode::Char('a'));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    let (id, req) = writes[0].clone();
    assert!(
        matches!(&req, ApiRequest::PatchThread { id, patch } if id == "t-3" && patch.status == Some(ThreadStatus::Archived)),
        "{req:?}"
    );
    let t = m.panes.inbox.list.find("t-3").cloned().unwrap();
    drive::reply(
        &mut m,
        id,
        ApiReply::Thread(Box::new(Ok(with(&t, |t| {
            t.status = ThreadStatus::Archived;
        })))),
    );
    assert_eq!(
        m.panes.inbox.list.find("t-3").map(|t| t.status.clone()),
        Some(ThreadStatus::Archived)
    );
    assert!(
        last_toast(&m).contains("no longer block a new thread"),
        "{}",
        last_toast(&m)
    );
}

/// "any | PATCH status: active" from `draft` (by archiving, then
/// unarchiving): the thread is active, and the draft keys say why they no
/// longer apply; the pane itself never sends `active` for a draft.
#[test]
fn state_draft_to_active_leaves_the_draft_keys_disabled_with_why() {
    use crate::app::keymap::Action;
    let svc = Svc::default();
    let mut m = super::inbox_sized(&svc, 200, 50);
    select(&mut m, "t-3");
    let hint = |m: &crate::app::Model, a| hint_of(m, a);
    assert_eq!(hint(&m, Action::Archive), Some("archive"), "not unarchive");
    // The service made it active (as unarchiving an archived draft does).
    let t = m.panes.inbox.list.find("t-3").cloned().unwrap();
    let active = with(&t, |t| t.status = ThreadStatus::Active);
    super::split(&mut m, |inbox, cx| {
        crate::app::inbox::apply_thread(inbox, cx, active);
    });
    assert_eq!(hint(&m, Action::EditDraft), Some("edit ✗ drafts only"));
    assert_eq!(hint(&m, Action::SendDraft), Some("send ✗ drafts only"));
    assert_eq!(hint(&m, Action::DeleteDraft), Some("delete ✗ drafts only"));
    assert!(press(&mut m, &svc, KeyCode::Char('e')).is_empty());
    assert!(
        last_toast(&m).contains("only drafts can be edited"),
        "{}",
        last_toast(&m)
    );
    // Archiving it again is a plain archive (no question: it is no draft).
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    assert!(question(&m).is_none());
    assert!(
        matches!(&writes[..], [(_, ApiRequest::PatchThread { patch, .. })] if patch.status == Some(ThreadStatus::Archived))
    );
}

/// "draft | DELETE | a draft with no messages | deleted".
#[test]
fn state_an_unsent_draft_is_deleted_after_asking() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-3");
    let writes = press(&mut m, &svc, KeyCode::Char('D'));
    assert!(writes.is_empty(), "asks first");
    assert_eq!(question(&m), Some("Delete this draft?"));
    assert!(question_text(&m).contains("Priya Patel"));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    let (id, req) = writes[0].clone();
    assert_eq!(req, ApiRequest::DeleteThread { id: "t-3".into() });
    drive::reply(&mut m, id, ApiReply::ThreadDeleted(Ok(())));
    assert!(m.panes.inbox.list.find("t-3").is_none());
    // Delete is not offered on an active thread, and says why.
    select(&mut m, "t-2");
    let writes = press(&mut m, &svc, KeyCode::Char('D'));
    assert!(writes.is_empty() && question(&m).is_none());
    assert!(
        last_toast(&m).contains("only unsent drafts"),
        "{}",
        last_toast(&m)
    );
}

/// "draft | send | needs participant_email and a ready email sender |
/// message sent".
#[test]
fn state_a_draft_is_sent_only_with_a_recipient_and_a_ready_sender() {
    let mut svc = Svc::default();
    // No sender.
    let mut m = inbox(&svc);
    select(&mut m, "t-3");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(question(&m).is_none());
    assert!(last_toast(&m).contains("No sender"), "{}", last_toast(&m));
    // A sender that is not ready (s-2: inbox not configured).
    svc.threads[2].account_id = Some("s-2".into());
    let mut m = inbox(&svc);
    select(&mut m, "t-3");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(
        last_toast(&m).contains("inbox_not_configured"),
        "{}",
        last_toast(&m)
    );
    // No recipient.
    svc.threads[2].account_id = Some("s-1".into());
    svc.threads[2].participant_email.clear();
    let mut m = inbox(&svc);
    select(&mut m, "t-3");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(last_toast(&m).contains("No recipient"));
    // Both: the confirm names them; yes sends once; the thread is active
    // with its message.
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert_eq!(question(&m), Some("Send this email?"));
    let text = question_text(&m);
    assert!(
        text.contains("To:      Jonas Fischer <jonas.fischer@kestrel.io>"),
        "{text}"
    );
    assert!(
        text.contains("From:    Dana Reyes <dana@acme-mail.com>"),
        "{text}"
    );
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(writes.len(), 1);
    let (id, req) = writes[0].clone();
    assert_eq!(
        req,
        ApiRequest::SendMessage {
            id: "t-1".into(),
            send: Box::new(SendMessage::default())
        }
    );
    let t = svc.threads[0].clone();
    let sent = with(&t, |t| {
        t.status = ThreadStatus::Active;
        t.draft_subject = None;
        t.draft_body_text = None;
    });
    drive::reply(
        &mut m,
        id,
        ApiReply::Sent(Box::new(Ok(SendMessageResponse {
            message: ThreadMessage {
                id: "msg-1".into(),
                direction: "outbound".into(),
                ..ThreadMessage::default()
            },
            thread: sent,
        }))),
    );
    assert_eq!(m.panes.inbox.view, View::Thread);
    assert_eq!(
        m.panes.inbox.list.find("t-1").map(|t| t.status.clone()),
        Some(ThreadStatus::Active)
    );
    assert!(last_toast(&m).starts_with("Sent"), "{}", last_toast(&m));
}

/// "Any status other than active or archived in a PATCH returns 400": the
/// client never builds one, and refuses one before sending.
#[test]
fn a_patch_to_draft_status_is_never_sent() {
    let bad = PatchThread {
        status: Some(ThreadStatus::Draft),
        ..PatchThread::default()
    };
    let errors = validate::patch_thread(&bad).unwrap_err();
    assert_eq!(validate::join(&errors), "status: one of active, archived");
    // Unarchiving goes to active, never back to draft.
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-5");
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    assert!(
        matches!(&writes[0].1, ApiRequest::PatchThread { patch, .. } if patch.status == Some(ThreadStatus::Active))
    );
}

// ---- Condition-to-error rules 6 to 9.

/// Rule 6: a create with attachments is 403. The editor never sends any,
/// and a 403 is explained on the editor, keeping the text.
#[test]
fn rule_6_attachments_are_never_sent_and_a_403_is_explained() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('c'));
    for c in "new.lead@example.com".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    let writes = press_ctrl(&mut m, &svc, 'o');
    let (id, req) = writes[0].clone();
    let ApiRequest::CreateThread(body) = req else {
        panic!("a create: {req:?}");
    };
    assert_eq!(body.draft_attachments, None, "never any attachments");
    drive::reply(
        &mut m,
        id,
        ApiReply::ThreadCreated(Box::new(Err(service_error(
            403,
            r#"{"error":"Attachments can only be added from a dashboard session"}"#,
        )))),
    );
    let e = m.panes.inbox.editor.as_ref().unwrap();
    let note = e.note.clone().unwrap_or_default();
    assert!(note.contains("web dashboard"), "{note}");
    assert_eq!(e.form.value("to"), "new.lead@example.com", "the text stays");
}

/// Rule 7: a create (or a sender change) when that sender already has an
/// open thread with the recipient is 409 `existing_thread`: the editor
/// offers to open that thread instead.
#[test]
fn rule_7_a_409_offers_the_existing_thread() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('c'));
    for c in "lena.weber@granite.de".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    let writes = press_ctrl(&mut m, &svc, 'o');
    let (id, _) = writes[0].clone();
    let body = r#"{"error":{"code":"conflict","message":"This sender already has an open thread with this recipient"},
        "existing_thread":{"id":"t-2","status":"active","participant_email":"lena.weber@granite.de","participant_name":"Lena Weber","account_id":"s-1"},
        "existing_threads":{"exists":true,"total":1,"threads":[]}}"#;
    drive::reply(
        &mut m,
        id,
        ApiReply::ThreadCreated(Box::new(Err(service_error(409, body)))),
    );
    assert_eq!(question(&m), Some("There is already a thread"));
    let text = question_text(&m);
    assert!(text.contains("Dana Reyes <dana@acme-mail.com> already has an open thread with Lena Weber <lena.weber@granite.de>"), "{text}");
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert!(writes.is_empty());
    assert_eq!(m.panes.inbox.view, View::Thread);
    assert_eq!(
        m.panes.inbox.open.as_ref().map(|o| o.id.as_str()),
        Some("t-2")
    );
    assert!(
        m.state.drafts.contains_key("inbox-draft:new"),
        "the typed text is kept to be offered back"
    );
}

#[test]
fn rule_7_changing_the_sender_into_a_duplicate_offers_the_thread_too() {
    let mut svc = Svc::default();
    svc.threads[0].account_id = None;
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    // To the From field (Tab from the body), then choose Dana.
    press(&mut m, &svc, KeyCode::Tab);
    press(&mut m, &svc, KeyCode::Right);
    let writes = press_ctrl(&mut m, &svc, 'o');
    let (id, req) = writes[0].clone();
    let ApiRequest::PatchThread { patch, .. } = req else {
        panic!("{req:?}");
    };
    assert_eq!(
        *patch,
        PatchThread {
            account_id: Some(Some("s-1".into())),
            ..PatchThread::default()
        },
        "only the sender changed"
    );
    let body = r#"{"error":{"code":"conflict","message":"This sender already has an open thread with this recipient"},
        "existing_thread":{"id":"t-9","status":"draft","participant_email":"jonas.fischer@kestrel.io","account_id":"s-1","draft_subject":"Older intro"}}"#;
    drive::reply(
        &mut m,
        id,
        ApiReply::Thread(Box::new(Err(service_error(409, body)))),
    );
    assert_eq!(question(&m), Some("There is already a thread"));
    assert!(
        question_text(&m).contains("draft \"Older intro\""),
        "{}",
        question_text(&m)
    );
    let e = m.panes.inbox.editor.as_ref().unwrap();
    assert!(
        e.form.fields[0]
            .error
            .as_deref()
            .unwrap_or("")
            .contains("already has an open thread")
    );
    // Esc keeps editing: nothing lost, nothing closed.
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(m.panes.inbox.view, View::Editor);
}

/// Rule 8: a PATCH with no valid field is an error: the editor never sends
/// an empty one; a 400 on a status change shows the service's code and
/// message.
#[test]
fn rule_8_an_empty_patch_is_never_sent_and_a_400_is_shown() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert!(writes.is_empty(), "nothing changed: nothing sent");
    assert!(
        last_toast(&m).contains("Nothing to save"),
        "{}",
        last_toast(&m)
    );
    assert!(validate::patch_thread(&PatchThread::default()).is_err());
    press(&mut m, &svc, KeyCode::Esc);
    select(&mut m, "t-2");
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::Thread(Box::new(Err(service_error(
            400,
            r#"{"error":{"code":"invalid_request","message":"status: one of active, archived"}}"#,
        )))),
    );
    let shown = toasts(&m);
    assert!(
        shown.contains("invalid_request") && shown.contains("status: one of active, archived"),
        "{shown}"
    );
}

/// Rule 9: deleting a thread that is not an unsent draft is 409; a missing
/// one 404; a refused one names the delete key (never "r retries": r
/// refreshes); a 500 may have deleted it.
#[test]
fn rule_9_delete_failures_are_explained() {
    let svc = Svc::default();
    for (status, body, says, stays) in [
        (
            409,
            r#"{"error":{"code":"conflict","message":"Only unsent drafts can be deleted (this thread is draft and has messages)"}}"#,
            "only a draft with no messages can be deleted",
            true,
        ),
        (
            404,
            r#"{"error":{"code":"not_found","message":"Thread not found"}}"#,
            "Already gone",
            false,
        ),
        (
            500,
            r#"{"error":{"code":"internal_error","message":"Unexpected failure while deleting the thread"}}"#,
            "may have reached the service, so it was not sent again: the draft may be gone already",
            true,
        ),
        (
            422,
            r#"{"error":{"code":"invalid_request","message":"Thread id is malformed"}}"#,
            "nothing was deleted; D tries again",
            true,
        ),
    ] {
        let mut m = inbox(&svc);
        select(&mut m, "t-4");
        press(&mut m, &svc, KeyCode::Char('D'));
        let writes = press(&mut m, &svc, KeyCode::Char('y'));
        let (id, _) = writes[0].clone();
        let e: ApiError = super::write_error(status, body);
        let cmds = drive::reply(&mut m, id, ApiReply::ThreadDeleted(Err(e)));
        super::settle(&mut m, &svc, &cmds);
        let shown = toasts(&m);
        assert!(shown.contains(says), "{status}: {shown}");
        assert!(!shown.contains("retries"), "{status}: {shown}");
        assert_eq!(m.panes.inbox.list.find("t-4").is_some(), stays, "{status}");
    }
}

/// A create's answer carries the other threads with the recipient: the
/// editor says so.
#[test]
fn a_created_draft_mentions_other_threads_with_the_recipient() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('c'));
    for c in "lena.weber@granite.de".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    let writes = press_ctrl(&mut m, &svc, 'o');
    let t = crate::app::fixtures::thread(
        "t-new",
        ThreadStatus::Draft,
        "lena.weber@granite.de",
        "",
        "",
        0,
        "2026-11-22T12:00:00Z",
        Some("s-1"),
    );
    drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::ThreadCreated(Box::new(Ok(CreateThreadResponse {
            thread: t,
            existing_threads: ExistingThreads {
                exists: true,
                total: 1,
                threads: Vec::new(),
            },
        }))),
    );
    let note = m
        .panes
        .inbox
        .editor
        .as_ref()
        .and_then(|e| e.note.clone())
        .unwrap_or_default();
    assert!(note.contains("1 other thread"), "{note}");
}

// ---- Keys that do not apply are shown with why.

/// The hint of `action` in the status bar, if listed.
fn hint_of(m: &crate::app::Model, action: crate::app::keymap::Action) -> Option<&'static str> {
    crate::app::hints(m)
        .into_iter()
        .find(|(a, _)| *a == action)
        .map(|(_, label)| label)
}

#[test]
fn keys_that_do_not_apply_to_a_thread_are_shown_disabled_with_why() {
    use crate::app::keymap::Action;
    let svc = Svc::default();
    let mut m = super::inbox_sized(&svc, 200, 50);
    // An active thread: edit, send and delete are for drafts only.
    select(&mut m, "t-2");
    for (action, label) in [
        (Action::EditDraft, "edit ✗ drafts only"),
        (Action::SendDraft, "send ✗ drafts only"),
        (Action::DeleteDraft, "delete ✗ drafts only"),
    ] {
        assert_eq!(hint_of(&m, action), Some(label));
    }
    // Listed after the keys that apply.
    let hints = crate::app::hints(&m);
    let first_off = hints.iter().position(|(_, l)| l.contains('✗'));
    assert!(
        first_off.is_some_and(|i| hints[i..].iter().all(|(_, l)| l.contains('✗'))),
        "{hints:?}"
    );
    let bar = super::screen(&m)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned();
    assert!(bar.contains("S send ✗ drafts only"), "{bar}");
    // Pressed anyway: the whole reason, nothing sent.
    assert!(press(&mut m, &svc, KeyCode::Char('S')).is_empty());
    assert!(
        last_toast(&m).contains("only a draft can be sent"),
        "{}",
        last_toast(&m)
    );
    // A sendable draft: all three apply.
    select(&mut m, "t-1");
    assert_eq!(hint_of(&m, Action::SendDraft), Some("send"));
    assert_eq!(hint_of(&m, Action::EditDraft), Some("edit"));
    assert_eq!(hint_of(&m, Action::DeleteDraft), Some("delete"));
    // A draft without a sender: sending is not possible yet, and says why.
    select(&mut m, "t-3");
    assert_eq!(hint_of(&m, Action::SendDraft), Some("send ✗ no sender"));
    assert_eq!(hint_of(&m, Action::EditDraft), Some("edit"));
    // The open thread says the same.
    select(&mut m, "t-5");
    press(&mut m, &svc, KeyCode::Enter);
    assert_eq!(m.panes.inbox.view, View::Thread);
    assert_eq!(hint_of(&m, Action::EditDraft), Some("edit ✗ drafts only"));
    assert_eq!(hint_of(&m, Action::SendDraft), Some("send ✗ drafts only"));
}

/// A draft with messages cannot be deleted (rule 9): the open thread
/// shows `D` disabled with why, and pressing it says so — nothing sent.
#[test]
fn delete_is_disabled_on_a_draft_with_messages() {
    use crate::app::keymap::Action;
    let svc = Svc::default();
    let mut m = super::inbox_sized(&svc, 200, 50);
    // Hana's draft has a message in the thread.
    select(&mut m, "t-4");
    press(&mut m, &svc, KeyCode::Enter);
    assert_eq!(
        m.panes.inbox.open.as_ref().and_then(|o| o.messages.total),
        Some(1)
    );
    assert_eq!(
        hint_of(&m, Action::DeleteDraft),
        Some("delete ✗ has messages")
    );
    assert_eq!(hint_of(&m, Action::EditDraft), Some("edit"));
    assert!(press(&mut m, &svc, KeyCode::Char('D')).is_empty());
    assert!(question(&m).is_none(), "no delete confirm");
    assert!(
        last_toast(&m).contains("only a draft with no messages"),
        "{}",
        last_toast(&m)
    );
}

/// While a send of the draft is on its way or being checked, editing and
/// deleting it are disabled with why (the draft may already have gone).
#[test]
fn edit_and_delete_wait_while_a_send_is_checked() {
    use crate::app::keymap::Action;
    let svc = Svc::default();
    let mut m = super::inbox_sized(&svc, 200, 50);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('S'));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(hint_of(&m, Action::EditDraft), Some("edit ✗ sending"));
    assert_eq!(hint_of(&m, Action::DeleteDraft), Some("delete ✗ sending"));
    let lost = ApiError::Timeout {
        method: "POST".into(),
        after: std::time::Duration::from_secs(1),
        may_have_reached: true,
    };
    drive::reply(&mut m, writes[0].0, ApiReply::Sent(Box::new(Err(lost))));
    assert_eq!(hint_of(&m, Action::EditDraft), Some("edit ✗ checking"));
    assert_eq!(hint_of(&m, Action::DeleteDraft), Some("delete ✗ checking"));
    assert!(press(&mut m, &svc, KeyCode::Char('e')).is_empty());
    assert_ne!(m.panes.inbox.view, View::Editor, "the editor stays closed");
    assert!(
        last_toast(&m).contains("may already have gone"),
        "{}",
        last_toast(&m)
    );
    assert!(press(&mut m, &svc, KeyCode::Char('D')).is_empty());
    assert!(question(&m).is_none());
}
