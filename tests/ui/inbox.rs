//! Snapshots of the Inbox pane: the thread list, a thread with messages,
//! the compose form with a validation error, the send confirm and the 409
//! offer, at 80x24 and 200x50 (and the list and editor at 60x15).

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::ThreadPage;
use outpost::testkit::app::fixtures::{self, drive};
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, Pane, update};

use crate::support::{screen_text, terminal};

/// Answers the reads among `cmds` from the fixtures; returns the writes.
fn answer(m: &mut Model, cmds: &[Cmd]) -> Vec<(outpost::testkit::app::RequestId, ApiRequest)> {
    let mut writes = Vec::new();
    let mut queue = drive::api(cmds);
    while let Some((id, req)) = queue.pop() {
        let reply = match &req {
            ApiRequest::ListThreads { query } => {
                let rows: Vec<_> = fixtures::threads()
                    .into_iter()
                    .filter(|t| {
                        query
                            .status
                            .as_deref()
                            .is_none_or(|s| t.status.as_str() == s)
                    })
                    .collect();
                ApiReply::Threads(Ok(ThreadPage {
                    total: rows.len() as u64,
                    threads: rows,
                    page: 1,
                    limit: 100,
                }))
            }
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::ListMessages { id, page, limit } => {
                let n = match id.as_str() {
                    "t-2" => 240,
                    // Archived after the participant's answer.
                    "t-5" => 2,
                    _ => 0,
                };
                ApiReply::ThreadMessages(Ok(fixtures::messages_page(
                    id,
                    n,
                    page.unwrap_or(1),
                    limit.unwrap_or(50),
                )))
            }
            _ => {
                writes.push((id, req));
                continue;
            }
        };
        let next = update(
            m,
            Msg::Api {
                id,
                latency: Duration::from_millis(42),
                reply: Box::new(reply),
            },
        );
        queue.extend(drive::api(&next));
    }
    writes
}

/// A model on the Inbox pane with the fixture threads loaded, and the
/// newest message of each thread on screen read (the list's tick fired
/// until it wants no more).
pub fn loaded(w: u16, h: u16) -> Model {
    use outpost::testkit::app::inbox::InboxSub;
    use outpost::testkit::app::{PaneSub, SubId};
    let mut m = fixtures::model(w, h);
    let cmds = drive::switch(&mut m, Pane::Inbox);
    answer(&mut m, &cmds);
    let tick = SubId::Pane(PaneSub::Inbox(InboxSub::ReadLasts));
    for _ in 0..10 {
        if !outpost::testkit::app::subscriptions(&m)
            .iter()
            .any(|s| s.id == tick)
        {
            break;
        }
        let cmds = update(&mut m, Msg::SubFired(tick.clone()));
        answer(&mut m, &cmds);
    }
    m
}

/// Presses a key and answers the reads it causes; returns the writes.
pub fn press(m: &mut Model, code: KeyCode) -> Vec<(outpost::testkit::app::RequestId, ApiRequest)> {
    let cmds = update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    answer(m, &cmds)
}

fn ctrl(m: &mut Model, c: char) -> Vec<(outpost::testkit::app::RequestId, ApiRequest)> {
    let cmds = update(
        m,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    );
    answer(m, &cmds)
}

fn typed(m: &mut Model, text: &str) {
    for c in text.chars() {
        press(m, KeyCode::Char(c));
    }
}

/// Moves the selection to the thread with `id`.
pub fn select(m: &mut Model, id: &str) {
    while m.panes.inbox.list.selected().is_some_and(|t| t.id != id) {
        press(m, KeyCode::Down);
    }
}

fn snap(m: &Model, w: u16, h: u16) -> String {
    screen_text(&terminal(m, w, h))
}

#[test]
fn thread_list() {
    for (w, h) in [(60, 15), (80, 24), (200, 50)] {
        let m = loaded(w, h);
        let text = snap(&m, w, h);
        assert!(text.contains("Inbox · all (5)"), "{text}");
        assert_snapshot!(format!("thread_list_{w}x{h}"), text);
    }
}

/// One time format per column: a thread older than 30 days turns the whole
/// Activity column into dates (with the year when one is not this year's),
/// wide enough to be read whole; a time ahead of the clock is a date too.
#[test]
fn an_old_thread_turns_the_activity_column_into_dates() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        let l = &mut m.panes.inbox.list;
        for t in &mut l.threads {
            match t.id.as_str() {
                "t-5" => t.updated_at = Some("2025-12-30T10:00:00Z".into()),
                "t-3" => t.updated_at = Some("2026-11-23T08:00:00Z".into()),
                _ => {}
            }
        }
        let vp = outpost::testkit::app::inbox::layout::list_viewport(m.layout().body, false);
        m.panes.inbox.list.refilter(vp);
        let text = snap(&m, w, h);
        assert!(text.contains("2025-12-30 10:00"), "{text}");
        assert!(
            text.contains("2026-11-23 08:00"),
            "ahead of the clock:\n{text}"
        );
        assert!(text.contains("2026-11-22 11:40"), "{text}");
        assert!(!text.contains(" ago"), "one format per column:\n{text}");
        assert_snapshot!(format!("thread_list_old_{w}x{h}"), text);
    }
}

#[test]
fn a_thread_with_messages() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        select(&mut m, "t-2");
        press(&mut m, KeyCode::Enter);
        let text = snap(&m, w, h);
        assert!(text.contains("Messages (240)"), "{text}");
        assert!(
            text.contains("2 unread"),
            "opening did not mark it read:\n{text}"
        );
        assert_snapshot!(format!("thread_messages_{w}x{h}"), text);
    }
}

#[test]
fn compose_form_with_a_validation_error() {
    for (w, h) in [(60, 15), (80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Char('c'));
        typed(&mut m, "sam@example.com");
        press(&mut m, KeyCode::Tab);
        typed(&mut m, "Sam Ortiz");
        press(&mut m, KeyCode::Tab);
        typed(&mut m, "ana@x.io, bob");
        press(&mut m, KeyCode::Tab);
        press(&mut m, KeyCode::Tab);
        typed(&mut m, "Quick question");
        press(&mut m, KeyCode::Tab);
        typed(&mut m, "Hi Sam,\n\nquick question about your RevOps stack.");
        let writes = ctrl(&mut m, 'o');
        assert!(writes.is_empty(), "nothing sent with a bad address");
        let text = snap(&m, w, h);
        assert!(text.contains("`bob` is not an email address"), "{text}");
        assert_snapshot!(format!("compose_error_{w}x{h}"), text);
    }
}

#[test]
fn the_send_confirm_names_recipient_and_sender() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        select(&mut m, "t-1");
        press(&mut m, KeyCode::Char('S'));
        let text = snap(&m, w, h);
        assert!(
            text.contains("Jonas Fischer <jonas.fischer@kestrel.io>"),
            "{text}"
        );
        assert!(text.contains("Dana Reyes <dana@acme-mail.com>"), "{text}");
        assert_snapshot!(format!("send_confirm_{w}x{h}"), text);
    }
}

#[test]
fn the_409_offers_the_existing_thread() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Char('c'));
        typed(&mut m, "lena.weber@granite.de");
        for _ in 0..4 {
            press(&mut m, KeyCode::Tab);
        }
        typed(&mut m, "Benchmark");
        press(&mut m, KeyCode::Tab);
        typed(&mut m, "Hi Lena, the benchmark is ready.");
        let writes = ctrl(&mut m, 'o');
        let body = r#"{"error":{"code":"conflict","message":"This sender already has an open thread with this recipient"},
            "existing_thread":{"id":"t-2","status":"active","participant_email":"lena.weber@granite.de","participant_name":"Lena Weber","account_id":"s-1"}}"#;
        let cmds = drive::reply(
            &mut m,
            writes[0].0,
            ApiReply::ThreadCreated(Box::new(Err(drive::service_error(409, body)))),
        );
        answer(&mut m, &cmds);
        let text = snap(&m, w, h);
        assert!(text.contains("There is already a thread"), "{text}");
        assert_snapshot!(format!("conflict_offer_{w}x{h}"), text);
    }
}

#[test]
fn an_html_draft_with_attachments_in_the_editor() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        select(&mut m, "t-4");
        press(&mut m, KeyCode::Char('e'));
        let text = snap(&m, w, h);
        assert!(text.contains("webinar-slides.pdf"), "{text}");
        assert!(
            text.contains("the slides are attached & the recording follows."),
            "{text}"
        );
        assert_snapshot!(format!("editor_html_attachments_{w}x{h}"), text);
    }
}

/// The live refresh fires `secs` after the last read and every read it
/// makes fails with a 503.
fn failed_poll(m: &mut Model, secs: i64) {
    use outpost::testkit::app::inbox::InboxSub;
    use outpost::testkit::app::{PaneSub, SubId};
    m.clock += secs;
    let cmds = update(
        m,
        Msg::SubFired(SubId::Pane(PaneSub::Inbox(InboxSub::Poll))),
    );
    let failed = || drive::service_error(503, r#"{"error":{"code":"unavailable"}}"#);
    for (id, req) in drive::api(&cmds) {
        let reply = match req {
            ApiRequest::ListThreads { .. } => ApiReply::Threads(Err(failed())),
            ApiRequest::GetThread { .. } => ApiReply::Thread(Box::new(Err(failed()))),
            ApiRequest::ListMessages { .. } => ApiReply::ThreadMessages(Err(failed())),
            other => panic!("the live refresh only reads: {other:?}"),
        };
        drive::reply(m, id, reply);
    }
    m.toasts.clear();
}

/// What the list and an open thread say of themselves when their live
/// refresh fails (the rows stay, and the retry is said when it really
/// comes) and while the service cannot be reached (their age): the one
/// wording every pane uses.
#[test]
fn the_inbox_says_when_its_values_are_stale_or_offline() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        failed_poll(&mut m, 90);
        let text = snap(&m, w, h);
        assert!(text.contains("Inbox · all (5)  retrying in 4 s"), "{text}");
        assert!(text.contains("Jonas Fischer"), "the rows stay:\n{text}");
        assert_snapshot!(format!("list_retrying_{w}x{h}"), text);

        let mut m = loaded(w, h);
        m.clock += 150;
        crate::support::offline(&mut m);
        m.toasts.clear();
        let text = snap(&m, w, h);
        assert!(
            text.contains("Inbox · all (5)  offline · as of 2m ago"),
            "{text}"
        );
        assert_snapshot!(format!("list_offline_{w}x{h}"), text);

        let mut m = loaded(w, h);
        select(&mut m, "t-2");
        press(&mut m, KeyCode::Enter);
        failed_poll(&mut m, 90);
        let text = snap(&m, w, h);
        assert!(text.contains("Thread  retrying in 4 s"), "{text}");
        assert!(
            text.contains("Messages (240)"),
            "the messages stay:\n{text}"
        );
        assert_snapshot!(format!("thread_retrying_{w}x{h}"), text);

        let mut m = loaded(w, h);
        select(&mut m, "t-2");
        press(&mut m, KeyCode::Enter);
        m.clock += 150;
        crate::support::offline(&mut m);
        m.toasts.clear();
        let text = snap(&m, w, h);
        assert!(text.contains("Thread  offline · as of 2m ago"), "{text}");
        assert_snapshot!(format!("thread_offline_{w}x{h}"), text);
    }
}

/// R on a thread awaiting a reply: To fixed to the participant, `Re:`
/// once, the last inbound message quoted under the text; then the
/// question, which says exactly what goes.
#[test]
fn the_reply_editor_and_its_question() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = loaded(w, h);
        select(&mut m, "t-2");
        assert!(press(&mut m, KeyCode::Char('R')).is_empty());
        typed(&mut m, "Thursday at 10 works.");
        let text = snap(&m, w, h);
        assert!(text.contains("Reply · to lena.weber@granite.de"), "{text}");
        assert!(text.contains("Re: Forecast accuracy at Granite"), "{text}");
        assert!(
            text.contains("Lena Weber <lena.weber@granite.de> wrote:"),
            "{text}"
        );
        assert_snapshot!(format!("reply_editor_{w}x{h}"), text);
        assert!(ctrl(&mut m, 's').is_empty());
        let text = snap(&m, w, h);
        assert!(text.contains("Send this reply?"), "{text}");
        assert_snapshot!(format!("reply_confirm_{w}x{h}"), text);
    }
}

/// The compose and reply editors keep room to write at 80x24 and 100x20:
/// no body of 1–3 rows, at least 5 at 80x24.
#[test]
fn the_editors_keep_room_to_write() {
    for (w, h) in [(80, 24), (100, 20)] {
        let want = if h >= 24 { 5 } else { 4 };
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Char('c'));
        let text = snap(&m, w, h);
        let rows = crate::support::rows_under(&text, "Body ──");
        assert!(rows >= Some(want), "compose at {w}x{h}: {rows:?}\n{text}");
        assert_snapshot!(format!("compose_rows_{w}x{h}"), text);
        let mut m = loaded(w, h);
        select(&mut m, "t-2");
        press(&mut m, KeyCode::Char('R'));
        let text = snap(&m, w, h);
        let rows = crate::support::rows_under(&text, "Body ──");
        assert!(rows >= Some(want), "reply at {w}x{h}: {rows:?}\n{text}");
        assert_snapshot!(format!("reply_rows_{w}x{h}"), text);
    }
}
