//! The editor: keys, checks, saving only what changed, and text that is
//! never lost (kept a second after the last edit, on a hangup, after a
//! failed save; offered back; cleared only once the service has it).

use std::time::Duration;

use crossterm::event::KeyCode;

use super::{Svc, inbox, last_toast, press, press_ctrl, question, select, settle};
use crate::api::ApiError;
use crate::api::model::{CreateThread, CreateThreadResponse, PatchThread, Thread, ThreadStatus};
use crate::app::fixtures::{self, drive};
use crate::app::inbox::editor::{DraftFields, draft_key};
use crate::app::inbox::{InboxSub, View};
use crate::app::{
    ApiReply, ApiRequest, Cmd, Model, Msg, PaneSub, Signal, SubId, subscriptions, update,
};

fn typed(m: &mut Model, svc: &Svc, text: &str) {
    for c in text.chars() {
        let writes = press(m, svc, KeyCode::Char(c));
        assert!(writes.is_empty(), "typing sends nothing");
    }
}

fn editor(m: &Model) -> &crate::app::inbox::Editor {
    m.panes.inbox.editor.as_ref().expect("the editor is open")
}

/// The state file the commands would write, if any.
fn saved_state(cmds: &[Cmd]) -> Option<crate::store::State> {
    cmds.iter().rev().find_map(|c| match c {
        Cmd::SaveState(s) => Some((**s).clone()),
        _ => None,
    })
}

/// A new email to `to` with a subject and a body typed.
fn composed(svc: &Svc, to: &str) -> Model {
    let mut m = inbox(svc);
    press(&mut m, svc, KeyCode::Char('c'));
    assert_eq!(m.panes.inbox.view, View::Editor);
    assert_eq!(editor(&m).focused(), "to");
    typed(&mut m, svc, to);
    // To → Name → Cc → Bcc → Subject.
    for _ in 0..4 {
        press(&mut m, svc, KeyCode::Tab);
    }
    typed(&mut m, svc, "Quick question");
    press(&mut m, svc, KeyCode::Tab);
    assert_eq!(editor(&m).focused(), "body");
    typed(&mut m, svc, "Hi Sam, quick question.");
    m
}

fn created(thread: &Thread) -> ApiReply {
    ApiReply::ThreadCreated(Box::new(Ok(CreateThreadResponse {
        thread: thread.clone(),
        ..CreateThreadResponse::default()
    })))
}

fn new_thread(id: &str, f: &DraftFields) -> Thread {
    let mut t = fixtures::thread(
        id,
        ThreadStatus::Draft,
        &f.to,
        &f.name,
        &f.subject,
        0,
        "2026-11-22T12:00:00Z",
        f.account_id.as_deref(),
    );
    t.draft_body_text = Some(f.body.clone());
    t
}

#[test]
fn letters_type_in_the_editor_and_only_chords_act() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    // Keys that are commands elsewhere type here: q, S, D, 3, ?, :.
    typed(&mut m, &svc, " qSD3?:");
    assert!(m.overlay.is_none());
    assert!(!m.quit);
    assert_eq!(m.panes.inbox.view, View::Editor);
    assert_eq!(editor(&m).current().body, "Hi Sam, quick question. qSD3?:");
    // Ctrl-_ (sent as Ctrl-7) undoes the last edit; Ctrl-R redoes it.
    press_ctrl(&mut m, &svc, '7');
    assert_ne!(editor(&m).current().body, "Hi Sam, quick question. qSD3?:");
    press_ctrl(&mut m, &svc, 'r');
    assert_eq!(editor(&m).current().body, "Hi Sam, quick question. qSD3?:");
}

/// Readline keys in every text box of the pane (issue 9): Ctrl-U deletes
/// to the start of the line — in the body, the find line, the fields and
/// the list's `/` filter — and never undoes.
/// A paste longer than a box takes goes in as its start with nothing
/// added, and a notice says how much went in: the body took 262,144
/// characters and ended them with a `…` of its own, the To field 2,048,
/// both without a word. Text that looks like a key is the user's own, and
/// goes in as pasted.
#[test]
fn a_long_paste_goes_in_as_pasted_up_to_the_limit_and_says_so() {
    use crate::text::sanitize::{BLOCK_MAX, INLINE_MAX};
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('c'));
    assert_eq!(editor(&m).focused(), "to");
    let to: String = (0..400).map(|i| format!("p{i:03}@x.io, ")).collect();
    update(&mut m, Msg::Paste(to.clone()));
    let head: String = to.chars().take(INLINE_MAX).collect();
    assert_eq!(editor(&m).current().to, head);
    assert_eq!(
        last_toast(&m),
        "Paste cut short: only the first 2,048 of the 4,400 characters pasted went in: a one-line field takes at most 2,048 at once"
    );
    for _ in 0..5 {
        press(&mut m, &svc, KeyCode::Tab);
    }
    assert_eq!(editor(&m).focused(), "body");
    let body: String = "Key pk_live_abcdefghijkl here.\n"
        .chars()
        .cycle()
        .take(BLOCK_MAX + 1000)
        .collect();
    update(&mut m, Msg::Paste(body.clone()));
    let got = editor(&m).current().body;
    assert_eq!(got, body.chars().take(BLOCK_MAX).collect::<String>());
    assert!(!got.contains('…'), "nothing added to what was pasted");
    assert!(
        last_toast(&m).contains("only the first 262,144 of the 263,144 characters pasted went in: a text box takes at most 262,144"),
        "{}",
        last_toast(&m)
    );
    // A paste that fits says nothing.
    let before = m.toasts.items().len();
    update(&mut m, Msg::Paste("short".into()));
    assert_eq!(m.toasts.items().len(), before);
}

#[test]
fn ctrl_u_deletes_to_the_start_of_the_line_in_every_box() {
    let svc = Svc::default();
    // The body.
    let mut m = composed(&svc, "sam@example.com");
    press(&mut m, &svc, KeyCode::Enter);
    typed(&mut m, &svc, "second line");
    press_ctrl(&mut m, &svc, 'u');
    assert_eq!(editor(&m).current().body, "Hi Sam, quick question.\n");
    // The find line.
    press_ctrl(&mut m, &svc, 'f');
    typed(&mut m, &svc, "quick");
    press_ctrl(&mut m, &svc, 'u');
    let find = editor(&m).find.as_ref().expect("the find line is open");
    assert_eq!(find.input.lines().join(""), "");
    press(&mut m, &svc, KeyCode::Esc);
    // A field (the subject).
    press(&mut m, &svc, KeyCode::BackTab);
    assert_eq!(editor(&m).focused(), "subject");
    press_ctrl(&mut m, &svc, 'u');
    assert_eq!(editor(&m).current().subject, "");
    // The list's `/` filter.
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('/'));
    typed(&mut m, &svc, "jonas");
    assert_eq!(m.panes.inbox.list.needle.text, "jonas");
    press_ctrl(&mut m, &svc, 'u');
    assert_eq!(m.panes.inbox.list.needle.text, "", "cleared, not undone");
}

#[test]
fn addresses_are_checked_before_anything_is_sent() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example");
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert!(writes.is_empty(), "nothing sent");
    let e = editor(&m);
    assert!(
        e.form.fields[1]
            .error
            .as_deref()
            .unwrap_or("")
            .contains("not an email address")
    );
    assert_eq!(e.focused(), "to", "the focus goes to the first error");
    // Fix To; break Cc.
    press(&mut m, &svc, KeyCode::Char('.'));
    typed(&mut m, &svc, "io");
    press(&mut m, &svc, KeyCode::Tab);
    press(&mut m, &svc, KeyCode::Tab);
    typed(&mut m, &svc, "ana@x.io, bob");
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert!(writes.is_empty());
    let e = editor(&m);
    assert!(e.form.fields[1].error.is_none());
    assert!(
        e.form.fields[3]
            .error
            .as_deref()
            .unwrap_or("")
            .contains("`bob` is not an email address")
    );
}

#[test]
fn saving_a_new_email_posts_only_what_was_typed() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert_eq!(writes.len(), 1);
    assert_eq!(
        writes[0].1,
        ApiRequest::CreateThread(Box::new(CreateThread {
            participant_email: Some("sam@example.com".into()),
            account_id: Some(Some("s-1".into())),
            draft_subject: Some("Quick question".into()),
            draft_body_text: Some("Hi Sam, quick question.".into()),
            ..CreateThread::default()
        })),
        "the default ready sender, the typed fields, nothing empty"
    );
}

#[test]
fn saving_an_edit_patches_only_the_changed_fields() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    assert_eq!(editor(&m).focused(), "body", "e puts the focus in the body");
    typed(&mut m, &svc, " P.S. slides attached.");
    // And clear the cc.
    for _ in 0..4 {
        press(&mut m, &svc, KeyCode::Tab);
    }
    assert_eq!(editor(&m).focused(), "cc");
    for _ in 0.."sam@northwind.com".len() {
        press(&mut m, &svc, KeyCode::Backspace);
    }
    let writes = press_ctrl(&mut m, &svc, 'o');
    let ApiRequest::PatchThread { id, patch } = &writes[0].1 else {
        panic!("{:?}", writes[0].1);
    };
    assert_eq!(id, "t-1");
    let body = fixtures::threads()[0].draft_body_text.clone().unwrap();
    assert_eq!(
        **patch,
        PatchThread {
            draft_body_text: Some(Some(format!("{body} P.S. slides attached."))),
            draft_cc: Some(None),
            ..PatchThread::default()
        }
    );
}

#[test]
fn an_html_body_saved_as_text_replaces_the_html() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-4");
    press(&mut m, &svc, KeyCode::Char('e'));
    let e = editor(&m);
    assert_eq!(
        e.current().body,
        "Hi Hana,\n\nthe slides are attached & the recording follows."
    );
    assert!(e.note.as_deref().unwrap_or("").contains("HTML"));
    assert_eq!(e.attachments.len(), 1, "attachments are shown");
    typed(&mut m, &svc, "!");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let ApiRequest::PatchThread { patch, .. } = &writes[0].1 else {
        panic!();
    };
    assert_eq!(
        patch.draft_body_html,
        Some(None),
        "the HTML copy is cleared"
    );
    assert!(patch.draft_body_text.is_some());
}

#[test]
fn the_text_is_kept_a_second_after_the_last_edit() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let keep: Vec<SubId> = subscriptions(&m)
        .into_iter()
        .filter(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraft(_)))))
        .map(|s| {
            assert_eq!(s.every, Duration::from_secs(1));
            s.id
        })
        .collect();
    assert_eq!(keep.len(), 1, "one timer");
    // Another key restarts it (a new id).
    press(&mut m, &svc, KeyCode::Char('!'));
    let after: Vec<SubId> = subscriptions(&m).into_iter().map(|s| s.id).collect();
    assert!(!after.contains(&keep[0]), "the old timer is gone");
    let cmds = update(&mut m, Msg::SubFired(keep[0].clone()));
    assert!(saved_state(&cmds).is_none(), "a stale timer keeps nothing");
    let current = after
        .into_iter()
        .find(|s| matches!(s, SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraft(_)))))
        .unwrap();
    let cmds = update(&mut m, Msg::SubFired(current));
    let state = saved_state(&cmds).expect("the state is written");
    let kept = DraftFields::from_draft(&state.drafts["inbox-draft:new"]);
    assert_eq!(kept.body, "Hi Sam, quick question.!");
    assert_eq!(kept.to, "sam@example.com");
    assert!(
        !subscriptions(&m)
            .iter()
            .any(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraft(_))))),
        "nothing more to keep until the next edit"
    );
}

/// The bound's timer, when one runs.
fn keep_bound(m: &Model) -> Option<(SubId, Duration)> {
    subscriptions(m)
        .into_iter()
        .find(|s| {
            matches!(
                s.id,
                SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraftBound(..)))
            )
        })
        .map(|s| (s.id, s.every))
}

#[test]
fn steady_typing_is_kept_three_seconds_after_the_first_edit_not_kept() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let (bound, every) = keep_bound(&m).expect("a bound runs beside the debounce");
    assert_eq!(every, Duration::from_secs(3));
    // Keys keep coming, faster than the one-second quiet: the bound's
    // timer is not restarted by them (the same id), the debounce's is.
    for c in ['a', 'b', 'c'] {
        press(&mut m, &svc, KeyCode::Char(c));
        assert_eq!(keep_bound(&m).map(|b| b.0), Some(bound.clone()));
    }
    let cmds = update(&mut m, Msg::SubFired(bound.clone()));
    let state = saved_state(&cmds).expect("the bound keeps the text");
    let kept = DraftFields::from_draft(&state.drafts["inbox-draft:new"]);
    assert_eq!(kept.body, "Hi Sam, quick question.abc");
    assert!(keep_bound(&m).is_none(), "all kept: no timer");
    // The next edit starts a new bound, three seconds from it.
    press(&mut m, &svc, KeyCode::Char('d'));
    let (next, _) = keep_bound(&m).expect("a new bound");
    assert_ne!(next, bound);
    let cmds = update(&mut m, Msg::SubFired(bound));
    assert!(saved_state(&cmds).is_none(), "a stale bound keeps nothing");
}

#[test]
fn a_hangup_keeps_the_text_and_reopening_offers_it_back() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let cmds = update(&mut m, Msg::Signal(Signal::Hangup));
    assert!(cmds.contains(&Cmd::Quit));
    let state = saved_state(&cmds).expect("saved on the way out");
    assert!(state.drafts.contains_key("inbox-draft:new"));
    // The next session, same state: c offers it back.
    let mut m2 = fixtures::model(80, 24);
    m2.state = state.clone();
    let cmds = drive::switch(&mut m2, crate::app::Pane::Inbox);
    settle(&mut m2, &svc, &cmds);
    press(&mut m2, &svc, KeyCode::Char('c'));
    assert_eq!(question(&m2), Some("Unsaved text"));
    // While the question is open, a save keeps the text untouched.
    let cmds = update(&mut m2, Msg::Signal(Signal::Terminate));
    assert!(
        saved_state(&cmds)
            .unwrap()
            .drafts
            .contains_key("inbox-draft:new")
    );
    let mut m3 = fixtures::model(80, 24);
    m3.state = state;
    let cmds = drive::switch(&mut m3, crate::app::Pane::Inbox);
    settle(&mut m3, &svc, &cmds);
    press(&mut m3, &svc, KeyCode::Char('c'));
    press(&mut m3, &svc, KeyCode::Char('y'));
    let e = editor(&m3);
    assert_eq!(e.current().body, "Hi Sam, quick question.");
    assert_eq!(e.current().subject, "Quick question");
    assert!(e.unsaved(), "restored text is not on the service yet");
}

#[test]
fn the_kept_text_can_be_discarded_or_left_for_later() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let state = saved_state(&update(&mut m, Msg::Signal(Signal::Hangup))).unwrap();
    // Esc: kept for later, the editor closes.
    let mut m2 = fixtures::model(80, 24);
    m2.state = state.clone();
    let cmds = drive::switch(&mut m2, crate::app::Pane::Inbox);
    settle(&mut m2, &svc, &cmds);
    press(&mut m2, &svc, KeyCode::Char('c'));
    press(&mut m2, &svc, KeyCode::Esc);
    assert_eq!(m2.panes.inbox.view, View::List);
    assert!(m2.state.drafts.contains_key("inbox-draft:new"));
    // n: discarded (explicitly), the empty editor stays.
    press(&mut m2, &svc, KeyCode::Char('c'));
    let cmds = drive::key(&mut m2, KeyCode::Char('n'));
    assert!(
        !saved_state(&cmds)
            .unwrap()
            .drafts
            .contains_key("inbox-draft:new")
    );
    assert_eq!(editor(&m2).current().body, "");
}

#[test]
fn the_kept_text_is_cleared_only_once_the_service_has_exactly_it() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let (id, req) = writes[0].clone();
    assert!(matches!(req, ApiRequest::CreateThread(_)));
    // Typed while the save is on its way.
    typed(&mut m, &svc, " More.");
    let sent = crate::app::inbox::editor::DraftFields {
        body: "Hi Sam, quick question.".into(),
        ..editor(&m).current()
    };
    let t = new_thread("t-new", &sent);
    let cmds = drive::reply(&mut m, id, created(&t));
    assert_eq!(editor(&m).thread.as_deref(), Some("t-new"));
    assert!(editor(&m).unsaved(), "the later text is not on the service");
    let state = saved_state(&update(&mut m, Msg::Signal(Signal::Terminate))).unwrap();
    assert!(
        !state.drafts.contains_key("inbox-draft:new"),
        "the new email has its thread now"
    );
    assert!(
        state.drafts.contains_key(&draft_key(Some("t-new"))),
        "kept under it"
    );
    drop(cmds);
    // Saved again: the service has it all; nothing is kept.
    let mut m = composed(&svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let t = new_thread("t-new", &editor(&m).current());
    let cmds = drive::reply(&mut m, writes[0].0, created(&t));
    let state = saved_state(&cmds).expect("the cleared state is written");
    assert!(state.drafts.is_empty(), "{:?}", state.drafts);
    assert!(!editor(&m).unsaved());
}

#[test]
fn a_failed_save_keeps_the_text_in_the_editor_and_the_state() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let err = ApiError::Connect {
        host: "127.0.0.1:8787".into(),
        detail: "connection refused".into(),
    };
    drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::ThreadCreated(Box::new(Err(err))),
    );
    let e = editor(&m);
    assert!(
        e.note.as_deref().unwrap_or("").contains("unreachable"),
        "{:?}",
        e.note
    );
    assert_eq!(e.current().body, "Hi Sam, quick question.");
    let keep = subscriptions(&m)
        .into_iter()
        .find(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraft(_)))))
        .expect("the text is due to be kept");
    let state = saved_state(&update(&mut m, Msg::SubFired(keep.id))).unwrap();
    assert!(state.drafts.contains_key("inbox-draft:new"));
}

/// Saves the composed email and loses the create's answer; returns the
/// reads the loss asked for.
fn lost_create(m: &mut Model, svc: &Svc) -> Vec<(crate::app::RequestId, ApiRequest)> {
    let writes = press_ctrl(m, svc, 'o');
    assert!(matches!(&writes[..], [(_, ApiRequest::CreateThread(_))]));
    let err = ApiError::Timeout {
        method: "POST".into(),
        after: Duration::from_secs(1),
        may_have_reached: true,
    };
    let cmds = drive::reply(m, writes[0].0, ApiReply::ThreadCreated(Box::new(Err(err))));
    drive::api(&cmds)
}

/// The create-check timer due now, with its wait.
fn create_check_due(m: &Model) -> Option<(SubId, Duration)> {
    subscriptions(m)
        .into_iter()
        .find(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::CreateCheck(..)))))
        .map(|s| (s.id, s.every))
}

#[test]
fn a_lost_create_answer_is_checked_before_saving_again() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let reads = lost_create(&mut m, &svc);
    assert!(
        matches!(&reads[..], [(_, ApiRequest::ListThreads { query })] if query.status.as_deref() == Some("draft")),
        "the drafts are read: {reads:?}"
    );
    // While checking, a second save is refused.
    assert!(press_ctrl(&mut m, &svc, 'o').is_empty());
    // The draft is there: the editor takes it over.
    let t = new_thread("t-made", &editor(&m).current());
    let mut with = Svc::default();
    with.threads.insert(0, t);
    let reply = with.read(&reads[0].1).unwrap();
    drive::reply(&mut m, reads[0].0, reply);
    assert_eq!(editor(&m).thread.as_deref(), Some("t-made"));
    assert!(last_toast(&m).contains("was created"));
    assert!(create_check_due(&m).is_none(), "no more checks");
    // Saving now updates it.
    typed(&mut m, &svc, "!");
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert!(matches!(&writes[0].1, ApiRequest::PatchThread { id, .. } if id == "t-made"));
}

/// The service is still working on the create when the drafts are first
/// read (the POST slower than the client's timeout): "not found yet", read
/// again on the send check's schedule, saving blocked until the verdict —
/// so the draft is made once.
#[test]
fn a_lost_create_not_found_at_first_is_read_again_and_never_made_twice() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let reads = lost_create(&mut m, &svc);
    drive::reply(&mut m, reads[0].0, svc.read(&reads[0].1).unwrap());
    let note = editor(&m).note.clone().unwrap_or_default();
    assert!(note.contains("not there after 1 of 5 good reads"), "{note}");
    assert!(!note.contains("not created"), "{note}");
    // Saving still waits for the verdict: nothing is posted.
    assert!(press_ctrl(&mut m, &svc, 'o').is_empty());
    assert!(
        last_toast(&m).contains("Checking the last save"),
        "{}",
        last_toast(&m)
    );
    assert_eq!(
        create_check_due(&m),
        Some((
            SubId::Pane(PaneSub::Inbox(InboxSub::CreateCheck(editor(&m).session, 1))),
            Duration::from_secs(2)
        )),
        "read again after 2 s"
    );
    // The second read finds the draft the slow POST made.
    let (due, _) = create_check_due(&m).unwrap();
    let reads = drive::api(&update(&mut m, Msg::SubFired(due)));
    assert!(matches!(&reads[..], [(_, ApiRequest::ListThreads { .. })]));
    let mut with = Svc::default();
    with.threads
        .insert(0, new_thread("t-slow", &editor(&m).current()));
    drive::reply(&mut m, reads[0].0, with.read(&reads[0].1).unwrap());
    assert_eq!(editor(&m).thread.as_deref(), Some("t-slow"));
    typed(&mut m, &svc, "!");
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert!(
        matches!(&writes[..], [(_, ApiRequest::PatchThread { id, .. })] if id == "t-slow"),
        "an update, not a second create: {writes:?}"
    );
}

/// Never found: the drafts are read at 0, 2, 4, 8 and 16 s (the one
/// schedule of `logic::write::Check`) and only after the last is the
/// draft said to be most likely not created; saving then asks first,
/// saying what the check saw, and creates it on yes.
#[test]
fn a_lost_create_never_found_is_said_not_created_only_after_the_last_check() {
    use crate::logic::write::{GOOD_READS, SCHEDULE_SECS};
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let mut reads = lost_create(&mut m, &svc);
    let mut at = vec![0];
    for n in 1..GOOD_READS {
        drive::reply(&mut m, reads[0].0, svc.read(&reads[0].1).unwrap());
        let note = editor(&m).note.clone().unwrap_or_default();
        assert!(!note.contains("not created"), "read {n}: {note}");
        let (due, every) = create_check_due(&m).expect("another check is due");
        at.push(at.last().unwrap() + every.as_secs());
        reads = drive::api(&update(&mut m, Msg::SubFired(due)));
        assert_eq!(reads.len(), 1);
    }
    assert_eq!(at, SCHEDULE_SECS, "reads at 0, 2, 4, 8 and 16 s");
    drive::reply(&mut m, reads[0].0, svc.read(&reads[0].1).unwrap());
    let note = editor(&m).note.clone().unwrap_or_default();
    assert!(note.contains("most likely not created"), "{note}");
    assert!(
        note.contains("not found among the drafts after 5 good reads"),
        "{note}"
    );
    assert!(create_check_due(&m).is_none());
    // Creating again asks first, with what the check saw.
    assert!(press_ctrl(&mut m, &svc, 'o').is_empty());
    assert_eq!(question(&m), Some("Create this draft again?"));
    let text = super::question_text(&m);
    assert!(
        text.contains("not found among the drafts after 5 good reads"),
        "{text}"
    );
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert!(matches!(&writes[..], [(_, ApiRequest::CreateThread(_))]));
}

/// Reads of the drafts that fail are no evidence: they never say "not
/// created", saving stays refused, and ten of them say "could not check".
#[test]
fn failed_reads_of_the_drafts_never_say_not_created() {
    use crate::logic::write::MAX_FAILED_READS;
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let mut reads = lost_create(&mut m, &svc);
    let failed = || {
        ApiReply::Threads(Err(drive::service_error(
            500,
            r#"{"error":{"code":"internal_error","message":"boom"}}"#,
        )))
    };
    for n in 1..MAX_FAILED_READS {
        drive::reply(&mut m, reads[0].0, failed());
        let note = editor(&m).note.clone().unwrap_or_default();
        assert!(!note.contains("not created"), "read {n}: {note}");
        assert!(note.contains("a failed read proves nothing"), "{note}");
        assert!(press_ctrl(&mut m, &svc, 'o').is_empty(), "no second create");
        assert!(question(&m).is_none());
        let (due, _) = create_check_due(&m).expect("read again");
        reads = drive::api(&update(&mut m, Msg::SubFired(due)));
        assert_eq!(reads.len(), 1);
    }
    drive::reply(&mut m, reads[0].0, failed());
    let note = editor(&m).note.clone().unwrap_or_default();
    assert!(note.contains("could not check: 10 reads failed"), "{note}");
    assert!(!note.contains("most likely"), "{note}");
    assert!(create_check_due(&m).is_none());
    let screen = super::screen(&m);
    assert!(screen.contains("created? could not check"), "{screen}");
    assert!(!screen.contains("checking whether"), "{screen}");
    assert!(press_ctrl(&mut m, &svc, 'o').is_empty(), "asks first");
    assert_eq!(question(&m), Some("Create this draft again?"));
    assert!(super::question_text(&m).contains("cannot tell"));
}

#[test]
fn quitting_with_unsaved_text_asks_and_esc_offers_to_save() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    // q types; Ctrl-C would quit at once (saving the text first).
    assert_eq!(m.unsent().as_deref(), Some("the email to sam@example.com"));
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(question(&m), Some("Unsaved changes"));
    // Esc: keep editing.
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(m.panes.inbox.view, View::Editor);
    // y: save and close once the service has it.
    press(&mut m, &svc, KeyCode::Esc);
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert!(matches!(writes[0].1, ApiRequest::CreateThread(_)));
    assert_eq!(m.panes.inbox.view, View::Editor, "open until acknowledged");
    let t = new_thread("t-new", &editor(&m).current());
    drive::reply(&mut m, writes[0].0, created(&t));
    assert_eq!(m.panes.inbox.view, View::List);
    assert!(m.panes.inbox.editor.is_none());
    assert_eq!(
        m.panes.inbox.list.selected().map(|t| t.id.as_str()),
        Some("t-new")
    );
    // The quit question when text is unsent.
    let mut m = composed(&svc, "sam@example.com");
    press(&mut m, &svc, KeyCode::Esc);
    press(&mut m, &svc, KeyCode::Char('n'));
    assert!(m.panes.inbox.editor.is_none(), "n discards");
    let mut m = composed(&svc, "sam@example.com");
    // Leave the editor open on another pane, then quit.
    let cmds = drive::switch(&mut m, crate::app::Pane::Domains);
    drop(cmds);
    press(&mut m, &svc, KeyCode::Char('q'));
    assert_eq!(question(&m), Some("Quit?"));
}

#[test]
fn find_moves_through_the_matches_of_the_body() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    press_ctrl(&mut m, &svc, 'f');
    assert!(editor(&m).find.is_some());
    typed(&mut m, &svc, "SYNC");
    let e = editor(&m);
    assert_eq!(
        e.find.as_ref().unwrap().found,
        Some(true),
        "case-insensitive"
    );
    let ratatui_textarea::DataCursor(row, col) = e.body.cursor();
    let at: String = e.body.lines()[row].chars().skip(col).take(4).collect();
    assert_eq!(at, "sync");
    // A literal: `.` is not "any char" ("SaaStock" has no "S.a").
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    press_ctrl(&mut m, &svc, 'f');
    typed(&mut m, &svc, "S.a");
    assert_eq!(editor(&m).find.as_ref().unwrap().found, Some(false));
    press(&mut m, &svc, KeyCode::Esc);
    assert!(editor(&m).find.is_none(), "Esc closes find, not the editor");
    assert_eq!(m.panes.inbox.view, View::Editor);
}

#[test]
fn the_sender_list_says_why_others_are_unavailable() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('c'));
    let e = editor(&m);
    assert_eq!(
        e.sender_ids,
        [None, Some("s-1".to_owned())],
        "ready email senders only"
    );
    assert_eq!(e.unavailable.len(), 1);
    assert!(
        e.unavailable[0].contains("Sam Ortiz") && e.unavailable[0].contains("inbox_not_configured")
    );
    // Sending without a sender is refused on the field.
    press(&mut m, &svc, KeyCode::BackTab);
    press(&mut m, &svc, KeyCode::Left);
    press(&mut m, &svc, KeyCode::Tab);
    typed(&mut m, &svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 's');
    assert!(writes.is_empty());
    assert!(
        editor(&m).form.fields[0]
            .error
            .as_deref()
            .unwrap_or("")
            .contains("choose a ready email sender")
    );
}

#[test]
fn an_answer_for_a_closed_editor_never_lands_in_a_new_one() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let sent = editor(&m).current();
    // Closed while the save is on its way: discard.
    press(&mut m, &svc, KeyCode::Esc);
    press(&mut m, &svc, KeyCode::Char('n'));
    assert!(m.panes.inbox.editor.is_none());
    // Another email.
    press(&mut m, &svc, KeyCode::Char('c'));
    typed(&mut m, &svc, "other@example.com");
    let t = new_thread("t-first", &sent);
    drive::reply(&mut m, writes[0].0, created(&t));
    let e = editor(&m);
    assert_eq!(e.thread, None, "the new email is still new");
    assert_eq!(e.current().to, "other@example.com");
    assert!(e.unsaved());
    assert_eq!(
        m.panes.inbox.list.find("t-first").map(|t| t.id.as_str()),
        Some("t-first"),
        "the first one is on the service, and listed"
    );
}

#[test]
fn a_draft_the_status_filter_hides_can_still_be_sent_from_the_editor() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('s'));
    press(&mut m, &svc, KeyCode::Char('s'));
    assert_eq!(
        m.panes.inbox.list.status,
        crate::app::inbox::StatusFilter::Active
    );
    press(&mut m, &svc, KeyCode::Char('c'));
    typed(&mut m, &svc, "sam@example.com");
    press(&mut m, &svc, KeyCode::Tab);
    let writes = press_ctrl(&mut m, &svc, 's');
    assert!(matches!(writes[0].1, ApiRequest::CreateThread(_)));
    let t = new_thread("t-hidden", &editor(&m).current());
    drive::reply(&mut m, writes[0].0, created(&t));
    assert!(
        m.panes.inbox.list.find("t-hidden").is_none(),
        "not an active thread"
    );
    assert_eq!(question(&m), Some("Send this email?"), "{}", last_toast(&m));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert!(matches!(&writes[..], [(_, ApiRequest::SendMessage { id, .. })] if id == "t-hidden"));
    assert_eq!(m.panes.inbox.view, View::Thread);
}

/// The pane's `update` builds no style (issue 8): no file of the Inbox's
/// app layer names ratatui's styles or the ui layer outside its tests; the
/// editor's look is drawn from the theme.
#[test]
fn the_inbox_update_builds_no_style() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "tests") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src/app/inbox")),
        &mut files,
    );
    assert!(files.len() > 5, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for banned in ["ratatui::style", "Style::", "crate::ui"] {
            assert!(!code.contains(banned), "{} uses {banned}", file.display());
        }
    }
}

/// The body's cursor shows (in the theme's selected style) only while the
/// body has the focus.
#[test]
fn the_body_cursor_shows_only_while_the_body_has_the_focus() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let theme = crate::ui::theme::Theme::from_config(&m.theme, m.colour);
    let cursors = |m: &Model| {
        let (w, h) = m.size;
        let mut term =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("terminal");
        term.draw(|f| crate::ui::view(m, f)).expect("draw");
        let buf = term.backend().buffer().clone();
        let body =
            crate::app::inbox::editor::lines::areas_in(&m.panes.inbox, &m.keymap, m.layout().body)
                .expect("the editor")
                .0
                .body;
        let mut n = 0;
        for y in body.y..body.y + body.height {
            for x in body.x..body.x + body.width {
                if buf[(x, y)].style() == buf[(x, y)].style().patch(theme.selected)
                    && theme.selected != ratatui::style::Style::default()
                {
                    n += 1;
                }
            }
        }
        n
    };
    assert_eq!(editor(&m).focused(), "body");
    assert_eq!(cursors(&m), 1, "the cursor in the body");
    press(&mut m, &svc, KeyCode::Tab);
    assert_ne!(editor(&m).focused(), "body");
    assert_eq!(
        cursors(&m),
        0,
        "no cursor in the body while a field has the focus"
    );
}

/// At 80 columns the reasons some senders are unavailable, and where
/// attachments are managed, are wrapped and read whole.
#[test]
fn long_notes_wrap_at_80_columns() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('c'));
    press(&mut m, &svc, KeyCode::BackTab);
    assert_eq!(editor(&m).focused(), "from");
    let screen = super::screen(&m);
    // The editor's rows inside its border, joined as one text.
    let inside = screen
        .lines()
        .map(|l| l.trim().trim_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ");
    let why = m
        .panes
        .inbox
        .senders
        .email()
        .into_iter()
        .find_map(|s| crate::app::inbox::readiness(s).err())
        .expect("an unavailable sender");
    assert!(why.contains("inbox_not_configured"), "its code: {why}");
    assert!(why.ends_with(" dashboard"), "its last word: {why}");
    assert!(
        inside.contains(&format!("<sam@outreach.northwind.com>: {why}")),
        "the reason is read whole, code to last word:\n{screen}"
    );
    // The attachment note of Hana's draft.
    let mut m = inbox(&svc);
    select(&mut m, "t-4");
    press(&mut m, &svc, KeyCode::Char('e'));
    let screen = super::screen(&m);
    assert!(screen.contains("refuses them."), "{screen}");
    assert!(screen.contains("webinar-slides.pdf"), "{screen}");
}

/// The editor says its changes are kept locally only once they were
/// written, and says they are not when the state file cannot be written.
#[test]
fn kept_locally_is_said_only_when_it_is_true() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let bottom = |m: &Model| {
        super::screen(m)
            .lines()
            .rev()
            .nth(1)
            .unwrap_or_default()
            .to_owned()
    };
    assert!(bottom(&m).contains("unsaved changes"), "{}", bottom(&m));
    assert!(
        !bottom(&m).contains("kept locally"),
        "not written yet: {}",
        bottom(&m)
    );
    let keep = subscriptions(&m)
        .into_iter()
        .find(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraft(_)))))
        .expect("the keep timer");
    update(&mut m, Msg::SubFired(keep.id));
    assert!(bottom(&m).contains("kept locally"), "{}", bottom(&m));
    // A state file that cannot be written: never "kept".
    update(
        &mut m,
        Msg::Saved(Err(crate::store::StoreError::ReadOnly {
            path: "/ro/state.json".into(),
            detail: "read-only file system".into(),
        })),
    );
    assert!(!bottom(&m).contains("kept locally"), "{}", bottom(&m));
    assert!(bottom(&m).contains("not saved locally"), "{}", bottom(&m));
}

/// A new session on `state` (the last one's state file), on the Inbox.
fn next_session(svc: &Svc, state: crate::store::State) -> Model {
    let mut m = fixtures::model(80, 24);
    m.state = state;
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    settle(&mut m, svc, &cmds);
    m
}

/// The keep timer fires; returns the state it writes.
fn kept(m: &mut Model) -> crate::store::State {
    let keep = subscriptions(m)
        .into_iter()
        .find(|s| matches!(s.id, SubId::Pane(PaneSub::Inbox(InboxSub::KeepDraft(_)))))
        .expect("the text is due to be kept");
    saved_state(&update(m, Msg::SubFired(keep.id))).expect("the state is written")
}

/// An existing draft's editor, killed (no chance to save on the way out)
/// a second after the last keystroke: `e` on that draft in the next
/// session offers the text back, and `y` restores it over the draft.
#[test]
fn e_offers_an_existing_drafts_text_back_after_a_kill() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    typed(&mut m, &svc, " PS: typed before the kill.");
    let state = kept(&mut m);
    assert!(state.drafts.contains_key(&draft_key(Some("t-1"))));
    // Killed: nothing more is written. The next session:
    let mut m = next_session(&svc, state);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    assert_eq!(question(&m), Some("Unsaved text"));
    press(&mut m, &svc, KeyCode::Char('y'));
    let e = editor(&m);
    assert_eq!(e.thread.as_deref(), Some("t-1"));
    assert!(
        e.current()
            .body
            .ends_with("Dana PS: typed before the kill."),
        "{}",
        e.current().body
    );
    assert!(e.unsaved());
    // Saving sends the restored text as an update of that draft.
    let writes = press_ctrl(&mut m, &svc, 'o');
    assert!(
        matches!(&writes[..], [(_, ApiRequest::PatchThread { id, patch })]
            if id == "t-1" && patch.draft_body_text.as_ref().is_some_and(|b| b.as_deref().is_some_and(|b| b.ends_with("before the kill.")))),
        "{writes:?}"
    );
}

/// A save the service refused keeps the text; reopening that draft's
/// editor (here in the next session, after quitting) offers it back.
#[test]
fn reopening_after_a_failed_save_offers_the_text_back() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    typed(&mut m, &svc, " Newer text.");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let err = drive::service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"database unavailable"}}"#,
    );
    drive::reply(&mut m, writes[0].0, ApiReply::Thread(Box::new(Err(err))));
    let note = editor(&m).note.clone().unwrap_or_default();
    assert!(note.contains("the text is kept"), "{note}");
    assert!(editor(&m).current().body.ends_with("Newer text."));
    // Quitting saves it first (Ctrl-C: at once).
    let cmds = drive::ctrl(&mut m, 'c');
    let state = saved_state(&cmds).expect("saved on the way out");
    let mut m = next_session(&svc, state);
    select(&mut m, "t-1");
    press(&mut m, &svc, KeyCode::Char('e'));
    assert_eq!(question(&m), Some("Unsaved text"));
    press(&mut m, &svc, KeyCode::Char('y'));
    assert!(editor(&m).current().body.ends_with("Newer text."));
    // A failed save of a new email, killed once the text was kept: the
    // next session's `c` offers it too.
    let mut m = composed(&svc, "sam@example.com");
    let writes = press_ctrl(&mut m, &svc, 'o');
    let err = ApiError::Connect {
        host: "127.0.0.1:8787".into(),
        detail: "connection refused".into(),
    };
    drive::reply(
        &mut m,
        writes[0].0,
        ApiReply::ThreadCreated(Box::new(Err(err))),
    );
    let state = kept(&mut m);
    let mut m = next_session(&svc, state);
    press(&mut m, &svc, KeyCode::Char('c'));
    assert_eq!(question(&m), Some("Unsaved text"));
    press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(editor(&m).current().body, "Hi Sam, quick question.");
}

/// Defect: a new draft's create whose answer was lost was checked only
/// while Outpost ran; after a restart the restored text saved as a fresh
/// create, making the draft twice. The check is kept with the text:
/// restoring the text brings it back, its reads go on where they were,
/// and saving waits for the verdict.
#[test]
fn a_create_being_checked_comes_back_with_its_text_after_a_restart() {
    let svc = Svc::default();
    let mut m = composed(&svc, "sam@example.com");
    let reads = lost_create(&mut m, &svc);
    drive::reply(
        &mut m,
        reads[0].0,
        ApiReply::Threads(Err(drive::service_error(
            500,
            r#"{"error":{"code":"internal_error","message":"boom"}}"#,
        ))),
    );
    let state = kept(&mut m);
    assert_eq!(state.pending_writes["create:inbox-draft:new"].failed, 1);
    // The next session: `c` offers the text back, `y` restores it and
    // the check with it.
    let mut m = next_session(&svc, state);
    press(&mut m, &svc, KeyCode::Char('c'));
    assert_eq!(question(&m), Some("Unsaved text"));
    press(&mut m, &svc, KeyCode::Char('y'));
    let c = editor(&m).created_check.clone().expect("the check is back");
    assert_eq!(c.check.failed, 1, "resumed where it was");
    assert!(create_check_due(&m).is_some(), "its reads go on");
    let note = editor(&m).note.clone().unwrap_or_default();
    assert!(note.contains("may have created it"), "{note}");
    assert!(press_ctrl(&mut m, &svc, 'o').is_empty(), "no second create");
    assert!(
        last_toast(&m).contains("Checking the last save"),
        "{}",
        last_toast(&m)
    );
}
