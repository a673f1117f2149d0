//! Replying in a thread: the editor's prefill (To fixed, `Re:` once, the
//! answered message quoted), the quote key, the reply sent once with its
//! own fields, its text kept until the service has it, and a lost answer
//! checked in the thread — after which sending again asks first.

use crossterm::event::KeyCode;

use super::{
    Svc, inbox, last_toast, press, press_ctrl, question, question_text, select, settle, toasts,
    write_error,
};
use crate::api::model::{SendMessage, SendMessageResponse, ThreadMessage};
use crate::app::fixtures::drive;
use crate::app::inbox::editor::reply::{ReplyTo, quoted, reply_key, written};
use crate::app::inbox::lasts::PER_TICK;
use crate::app::inbox::send::Stage;
use crate::app::inbox::{InboxSub, View};
use crate::app::{
    ApiReply, ApiRequest, Model, Msg, PaneSub, RequestId, SubId, subscriptions, update,
};
use crate::logic::write::{GOOD_READS, Verdict};

const LENA: &str = "lena.weber@granite.de";
/// The fixture's last inbound message of Lena's thread (of five).
const LAST_INBOUND: &str = "Reply 3: thanks, that helps. Could we talk on Thursday?";

fn editor(m: &Model) -> &crate::app::inbox::Editor {
    m.panes.inbox.editor.as_ref().expect("the editor is open")
}

fn reply_to(m: &Model) -> &ReplyTo {
    editor(m)
        .reply
        .as_deref()
        .expect("the editor writes a reply")
}

fn body(m: &Model) -> String {
    editor(m).body.lines().join("\n")
}

fn typed(m: &mut Model, svc: &Svc, text: &str) {
    for c in text.chars() {
        assert!(
            press(m, svc, KeyCode::Char(c)).is_empty(),
            "typing sends nothing"
        );
    }
}

/// `R` on Lena's thread in the list.
fn replying(svc: &Svc) -> Model {
    let mut m = inbox(svc);
    select(&mut m, "t-2");
    let writes = press(&mut m, svc, KeyCode::Char('R'));
    assert!(writes.is_empty(), "R writes nothing: {writes:?}");
    assert_eq!(m.panes.inbox.view, View::Editor);
    m
}

/// Types a reply in Lena's thread, sends it and says yes; returns the
/// model and the one write.
fn sent_reply(svc: &Svc, text: &str) -> (Model, (RequestId, ApiRequest)) {
    let mut m = replying(svc);
    typed(&mut m, svc, text);
    assert!(press_ctrl(&mut m, svc, 's').is_empty(), "asks first");
    assert_eq!(question(&m), Some("Send this reply?"));
    let writes = press(&mut m, svc, KeyCode::Char('y'));
    assert_eq!(writes.len(), 1, "one send: {writes:?}");
    (m, writes[0].clone())
}

fn sent_fields(req: &ApiRequest) -> (String, SendMessage) {
    match req {
        ApiRequest::SendMessage { id, send } => (id.clone(), (**send).clone()),
        other => panic!("not a send: {other:?}"),
    }
}

#[test]
fn r_on_a_thread_answers_its_last_inbound_message() {
    let svc = Svc::default();
    let m = replying(&svc);
    let e = editor(&m);
    assert_eq!(e.form.value("to"), LENA);
    assert_eq!(e.form.value("name"), "Lena Weber");
    assert_eq!(
        e.form.value("subject"),
        "Re: Forecast accuracy at Granite",
        "the answered message's subject already has Re: — not doubled"
    );
    assert_eq!(
        e.current().account_id.as_deref(),
        Some("s-1"),
        "the thread's sender"
    );
    assert_eq!(
        reply_to(&m).message,
        "t-2-m3",
        "the last inbound of five messages"
    );
    let b = body(&m);
    assert!(
        b.starts_with("\n\nOn "),
        "an empty line to write on, then the quote: {b:?}"
    );
    assert!(
        b.contains("Lena Weber <lena.weber@granite.de> wrote:"),
        "{b}"
    );
    assert!(b.contains(&format!("> {LAST_INBOUND}\n>\n> Lena")), "{b}");
    assert_eq!(e.body.cursor(), (0, 0), "the cursor waits above the quote");
    assert!(e.in_body);
    // To, Name, Cc, Bcc and the thread's own sender are fixed: Tab goes
    // from the body to the subject and back.
    assert!(!e.focusable(0) && !e.focusable(1) && !e.focusable(3));
    assert!(e.focusable(5));
    let mut m = m;
    press(&mut m, &svc, KeyCode::Tab);
    assert_eq!(editor(&m).focused(), "subject");
    press(&mut m, &svc, KeyCode::Tab);
    assert_eq!(editor(&m).focused(), "body");
    assert!(!editor(&m).unsaved(), "nothing written yet");
}

#[test]
fn r_in_a_thread_answers_the_selected_message() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    press(&mut m, &svc, KeyCode::Enter);
    assert_eq!(m.panes.inbox.view, View::Thread);
    // The first message: ours, with the subject without Re:.
    press(&mut m, &svc, KeyCode::Char('g'));
    press(&mut m, &svc, KeyCode::Char('R'));
    assert_eq!(reply_to(&m).message, "t-2-m0");
    assert_eq!(
        editor(&m).form.value("subject"),
        "Re: Forecast accuracy at Granite"
    );
    assert!(
        body(&m).contains(", you wrote:\n> Message 0:"),
        "{}",
        body(&m)
    );
    // Closing without a word goes back to the thread, keeping nothing.
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(m.panes.inbox.view, View::Thread);
    assert!(!m.state.drafts.contains_key(&reply_key("t-2")));
}

#[test]
fn the_quote_key_takes_the_quote_out_and_puts_it_back() {
    let svc = Svc::default();
    let mut m = replying(&svc);
    typed(&mut m, &svc, "Thursday works.");
    assert!(quoted(editor(&m)));
    let hints = crate::app::inbox::editor::hints(&m.panes.inbox);
    assert!(
        hints.contains(&(crate::app::keymap::Action::ToggleQuote, "remove quote")),
        "{hints:?}"
    );
    press_ctrl(&mut m, &svc, 'q');
    assert_eq!(body(&m), "Thursday works.", "the quote is out");
    assert!(!quoted(editor(&m)));
    assert!(
        editor(&m)
            .note
            .as_deref()
            .is_some_and(|n| n.contains("out of the reply"))
    );
    press_ctrl(&mut m, &svc, 'q');
    let b = body(&m);
    assert!(b.starts_with("Thursday works.\n\nOn "), "{b}");
    assert!(b.ends_with("> Lena"), "{b}");
    assert_eq!(written(editor(&m)), "Thursday works.");
    // Typing goes on where the cursor was.
    typed(&mut m, &svc, " Ok?");
    assert!(
        body(&m).starts_with("Thursday works. Ok?\n\n"),
        "{}",
        body(&m)
    );
}

#[test]
fn a_reply_goes_once_with_its_own_subject_text_and_html() {
    let svc = Svc::default();
    let (mut m, (id, req)) = sent_reply(&svc, "Thursday at 10?");
    let (thread, send) = sent_fields(&req);
    assert_eq!(thread, "t-2");
    assert_eq!(send.account_id.as_deref(), Some("s-1"));
    assert_eq!(
        send.subject.as_deref(),
        Some("Re: Forecast accuracy at Granite")
    );
    let text = send.body_text.clone().unwrap_or_default();
    assert!(text.starts_with("Thursday at 10?\n\nOn "), "{text}");
    assert!(text.contains(LAST_INBOUND), "the quote goes: {text}");
    assert_eq!(
        send.body_html.as_deref(),
        Some(crate::logic::reply::html_of_text(&text).as_str()),
        "the HTML body is made of the same text"
    );
    // Until the answer, the text is kept; the editor closed on the thread.
    assert!(m.panes.inbox.editor.is_none());
    assert_eq!(m.panes.inbox.view, View::Thread);
    assert!(m.state.drafts.contains_key(&reply_key("t-2")));
    assert_eq!(m.panes.inbox.checks["t-2"].stage(), Stage::Sending);
    // R while it is on its way is refused.
    assert!(press(&mut m, &svc, KeyCode::Char('R')).is_empty());
    assert!(m.panes.inbox.editor.is_none());
    assert!(last_toast(&m).contains("Sending"), "{}", last_toast(&m));
    let mut t = svc.threads[1].clone();
    t.unread_count = 0;
    let ok = SendMessageResponse {
        message: ThreadMessage {
            id: "m-new".into(),
            conversation_id: "t-2".into(),
            direction: "outbound".into(),
            subject: send.subject.clone().unwrap_or_default(),
            body_text: text,
            sent_at: "2026-11-22T12:00:00Z".into(),
        },
        thread: t,
    };
    let cmds = drive::reply(&mut m, id, ApiReply::Sent(Box::new(Ok(ok))));
    let writes = settle(&mut m, &svc, &cmds);
    assert!(writes.is_empty(), "{writes:?}");
    assert!(toasts(&m).contains("Reply sent"), "{}", toasts(&m));
    assert!(m.panes.inbox.checks.is_empty());
    assert!(
        !m.state.drafts.contains_key(&reply_key("t-2")),
        "the kept text goes once the service has the message"
    );
}

#[test]
fn a_kept_reply_is_offered_first_resume_or_start_over() {
    let svc = Svc::default();
    let mut m = replying(&svc);
    typed(&mut m, &svc, "Half written");
    press(&mut m, &svc, KeyCode::Esc);
    assert!(last_toast(&m).contains("Reply kept"), "{}", last_toast(&m));
    assert!(m.panes.inbox.editor.is_none());
    let kept = &m.state.drafts[&reply_key("t-2")];
    assert!(kept.fields["body"].starts_with("Half written"));
    assert!(
        !m.state
            .drafts
            .contains_key(&crate::app::inbox::editor::draft_key(Some("t-2"))),
        "kept apart from the thread's draft"
    );
    // R again: resume.
    press(&mut m, &svc, KeyCode::Char('R'));
    assert_eq!(question(&m), Some("Unsent reply"));
    press(&mut m, &svc, KeyCode::Char('y'));
    assert!(body(&m).starts_with("Half written\n\nOn "), "{}", body(&m));
    press(&mut m, &svc, KeyCode::Esc);
    // R again: start over.
    press(&mut m, &svc, KeyCode::Char('R'));
    assert_eq!(question(&m), Some("Unsent reply"));
    press(&mut m, &svc, KeyCode::Char('n'));
    assert!(body(&m).starts_with("\n\nOn "), "{}", body(&m));
    assert!(!m.state.drafts.contains_key(&reply_key("t-2")));
}

#[test]
fn a_thread_without_sender_needs_one_picked_and_an_empty_reply_is_not_sent() {
    let mut svc = Svc::default();
    svc.threads[1].account_id = None;
    let mut m = replying(&svc);
    assert!(editor(&m).focusable(0), "From is the operator's to pick");
    assert_eq!(
        editor(&m).current().account_id,
        None,
        "none chosen for them"
    );
    assert!(press_ctrl(&mut m, &svc, 's').is_empty());
    assert!(question(&m).is_none());
    assert!(
        editor(&m).form.fields[0].error.is_some(),
        "the From field says a sender is needed"
    );
    // Pick one: nothing written yet is refused too.
    press(&mut m, &svc, KeyCode::Right);
    assert_eq!(editor(&m).current().account_id.as_deref(), Some("s-1"));
    assert!(press_ctrl(&mut m, &svc, 's').is_empty());
    assert!(question(&m).is_none());
    assert!(
        editor(&m)
            .note
            .as_deref()
            .is_some_and(|n| n.contains("Nothing written yet"))
    );
    assert_eq!(
        editor(&m).focused(),
        "body",
        "the refusal puts the cursor where to write"
    );
    typed(&mut m, &svc, "Hello");
    press_ctrl(&mut m, &svc, 's');
    assert_eq!(question(&m), Some("Send this reply?"));
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    let (_, send) = sent_fields(&writes[0].1);
    assert_eq!(
        send.account_id.as_deref(),
        Some("s-1"),
        "from the sender picked"
    );
}

fn check_due(m: &Model) -> Option<SubId> {
    subscriptions(m)
        .into_iter()
        .map(|s| s.id)
        .find(|s| matches!(s, SubId::Pane(PaneSub::Inbox(InboxSub::SendCheck(..)))))
}

/// A reply answered 502: it may have reached the service, so it is never
/// sent again on its own; the thread is read (an active thread proves
/// nothing), R waits while it is checked, and after "not found" R offers
/// the kept text and sending asks first, saying what the check saw.
#[test]
fn a_lost_reply_is_checked_and_sending_again_asks_first() {
    let svc = Svc::default();
    let (mut m, (id, _)) = sent_reply(&svc, "Thursday at 10?");
    let err = write_error(502, r#"{"error":{"code":"bad_gateway","message":"lost"}}"#);
    let cmds = drive::reply(&mut m, id, ApiReply::Sent(Box::new(Err(err))));
    assert!(toasts(&m).contains("may have reached"), "{}", toasts(&m));
    let writes = settle(&mut m, &svc, &cmds);
    assert!(writes.is_empty(), "never sent again: {writes:?}");
    assert_eq!(
        m.panes.inbox.checks["t-2"].stage(),
        Stage::Checking,
        "Lena's thread is active with no draft: that proves nothing for a reply"
    );
    assert!(press(&mut m, &svc, KeyCode::Char('R')).is_empty());
    assert!(m.panes.inbox.editor.is_none() && question(&m).is_none());
    assert!(
        last_toast(&m).contains("Checking the last send"),
        "{}",
        last_toast(&m)
    );
    for _ in 1..GOOD_READS {
        let due = check_due(&m).expect("another read is due");
        let cmds = update(&mut m, Msg::SubFired(due));
        assert!(settle(&mut m, &svc, &cmds).is_empty());
    }
    assert!(matches!(
        m.panes.inbox.checks["t-2"].stage(),
        Stage::Settled(Verdict::NotFound)
    ));
    assert!(
        last_toast(&m).contains("Most likely not sent"),
        "{}",
        last_toast(&m)
    );
    assert!(
        last_toast(&m).contains("opens the reply again"),
        "{}",
        last_toast(&m)
    );
    // R: the kept text is offered; sending asks, saying what was seen.
    press(&mut m, &svc, KeyCode::Char('R'));
    assert_eq!(question(&m), Some("Unsent reply"));
    press(&mut m, &svc, KeyCode::Char('y'));
    assert!(body(&m).starts_with("Thursday at 10?"), "{}", body(&m));
    press_ctrl(&mut m, &svc, 's');
    assert_eq!(question(&m), Some("Send this reply?"));
    let text = question_text(&m);
    assert!(
        text.contains("not found in the thread after 5 good reads"),
        "{text}"
    );
    assert!(text.contains("could do it twice"), "{text}");
    let writes = press(&mut m, &svc, KeyCode::Char('y'));
    assert_eq!(writes.len(), 1, "sent again only when asked");
}

/// The kept state of a lost reply says it is one: after a restart its
/// check does not take the active thread for proof.
#[test]
fn a_kept_reply_check_stays_a_reply() {
    let svc = Svc::default();
    let (mut m, (id, _)) = sent_reply(&svc, "Thursday at 10?");
    let err = write_error(502, r#"{"error":{"code":"bad_gateway","message":"lost"}}"#);
    drive::reply(&mut m, id, ApiReply::Sent(Box::new(Err(err))));
    let mut state = m.state.clone();
    crate::app::inbox::kept::capture(&m.panes.inbox, &mut state);
    let w = &state.pending_writes["send:t-2"];
    assert_eq!(w.fields.get("reply").map(String::as_str), Some("true"));
    // A new session takes it back.
    m.panes.inbox = crate::app::inbox::InboxModel::default();
    m.state = state;
    super::split(&mut m, crate::app::inbox::kept::restore);
    assert!(m.panes.inbox.checks["t-2"].reply);
}

fn lasts_due(m: &Model) -> Option<SubId> {
    subscriptions(m)
        .into_iter()
        .map(|s| s.id)
        .find(|s| matches!(s, SubId::Pane(PaneSub::Inbox(InboxSub::ReadLasts))))
}

/// Fires the list's read tick; returns how many newest-message reads it
/// sent (all answered).
fn tick(m: &mut Model, svc: &Svc) -> usize {
    let due = lasts_due(m).expect("reads are due");
    let cmds = update(m, Msg::SubFired(due));
    let reads = drive::api(&cmds)
        .iter()
        .filter(|(_, r)| matches!(r, ApiRequest::ListMessages { .. }))
        .count();
    assert!(settle(m, svc, &cmds).is_empty());
    reads
}

/// Ten active threads on screen and two drafts: a few reads at a time, one
/// per short thread, two for a long one; the subjects show and the
/// threads whose newest message is inbound await a reply. A refresh that
/// changes nothing reads nothing again; a row that changed is read again.
#[test]
fn the_list_reads_the_newest_message_of_visible_threads_a_few_at_a_time() {
    let mut svc = Svc::default();
    for i in 0..9 {
        let mut t = svc.threads[1].clone();
        t.id = format!("t-a{i}");
        t.participant_email = format!("p{i}@example.com");
        t.participant_name = Some(format!("Person {i}"));
        svc.messages
            .insert(t.id.clone(), if i % 2 == 0 { 4 } else { 3 });
        svc.threads.insert(2, t);
    }
    // Lena's thread is long: its newest message (the 300th) is inbound.
    svc.messages.insert("t-2".into(), 300);
    let mut m = inbox(&svc);
    assert_eq!(
        m.panes.inbox.lasts.items.len(),
        PER_TICK,
        "the list's answer sends the first few at once"
    );
    let mut reads = PER_TICK;
    let mut ticks = 0;
    while lasts_due(&m).is_some() {
        let n = tick(&mut m, &svc);
        assert!(n <= PER_TICK, "{n} reads in one tick");
        reads += n;
        ticks += 1;
        assert!(ticks < 20, "the reads end");
    }
    // Ten active threads and an archived one: one read each, one more for
    // the long thread's last message; drafts are never read.
    assert_eq!(reads, 12);
    let lasts = &m.panes.inbox.lasts;
    assert!(lasts.awaiting("t-2"), "the 300th message is inbound");
    assert!(lasts.awaiting("t-a0") && !lasts.awaiting("t-a1"));
    assert!(
        !lasts.items.contains_key("t-1"),
        "a draft has no messages to read"
    );
    let screen = super::screen(&m);
    assert!(screen.contains("awaiting reply"), "{screen}");
    assert!(
        screen.contains("Re: Forecast accuracy at Granite"),
        "{screen}"
    );
    let row = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row("Person 0").contains("awaiting reply"), "{screen}");
    assert!(row("Person 1").contains("active"), "{screen}");
    // A refresh with nothing changed wants nothing read again.
    press(&mut m, &svc, KeyCode::Char('r'));
    assert!(
        lasts_due(&m).is_none(),
        "nothing changed: nothing read again"
    );
    // A reply arrived in Person 1's thread: the row changed, it is read.
    let i = svc.threads.iter().position(|t| t.id == "t-a1").unwrap();
    svc.threads[i].unread_count = 3;
    svc.threads[i].updated_at = Some("2026-11-22T12:00:00Z".into());
    svc.messages.insert("t-a1".into(), 4);
    press(&mut m, &svc, KeyCode::Char('r'));
    while lasts_due(&m).is_some() {
        tick(&mut m, &svc);
    }
    assert!(m.panes.inbox.lasts.awaiting("t-a1"));
}

/// Answers the reads among `cmds` as `svc` does, except the reads of
/// thread `failing`'s messages, which fail; returns how many of those came.
fn settle_failing(m: &mut Model, svc: &Svc, cmds: &[crate::app::Cmd], failing: &str) -> usize {
    let mut failed = 0;
    let mut queue = drive::api(cmds);
    while let Some((id, req)) = queue.pop() {
        let reply = match &req {
            ApiRequest::ListMessages { id: t, .. } if t == failing => {
                failed += 1;
                ApiReply::ThreadMessages(Err(drive::service_error(
                    500,
                    r#"{"error":{"code":"internal_error","message":"boom"}}"#,
                )))
            }
            _ => svc.read(&req).expect("only reads"),
        };
        queue.extend(drive::api(&drive::reply(m, id, reply)));
    }
    failed
}

/// A failed read of a thread's newest message is tried again on later
/// ticks, three times in all, then left alone until the row changes.
#[test]
fn a_failed_newest_message_read_is_tried_again_a_few_times() {
    use crate::app::inbox::lasts::MAX_FAILURES;
    let mut svc = Svc::default();
    let mut m = crate::app::fixtures::model(80, 24);
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    let mut failed = settle_failing(&mut m, &svc, &cmds, "t-2");
    while let Some(due) = lasts_due(&m) {
        let cmds = update(&mut m, Msg::SubFired(due));
        failed += settle_failing(&mut m, &svc, &cmds, "t-2");
        assert!(failed <= usize::from(MAX_FAILURES), "{failed} reads");
    }
    assert_eq!(failed, usize::from(MAX_FAILURES));
    assert_eq!(m.panes.inbox.lasts.newest("t-2"), None);
    // The row changes (a new message): read again, and it answers.
    svc.threads[1].unread_count = 3;
    press(&mut m, &svc, KeyCode::Char('r'));
    while let Some(due) = lasts_due(&m) {
        let cmds = update(&mut m, Msg::SubFired(due));
        settle(&mut m, &svc, &cmds);
    }
    assert!(m.panes.inbox.lasts.newest("t-2").is_some());
}
