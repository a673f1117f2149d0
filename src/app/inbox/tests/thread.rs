//! An open thread: reading without marking read, mark read/unread, the
//! message window, `:open thread`.

use crossterm::event::KeyCode;

use super::{Svc, inbox, press, select, settle};
use crate::api::model::{PatchThread, Thread};
use crate::app::fixtures::drive::and_queued;
use crate::app::fixtures::{self, drive};
use crate::app::inbox::View;
use crate::app::inbox::messages::{MAX_PAGES, PAGE};
use crate::app::{ApiReply, ApiRequest, Msg, update};

fn patched(t: &Thread, f: impl FnOnce(&mut Thread)) -> ApiReply {
    let mut t = t.clone();
    f(&mut t);
    ApiReply::Thread(Box::new(Ok(t)))
}

#[test]
fn opening_a_thread_reads_its_messages_without_marking_it_read() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let reqs: Vec<ApiRequest> = drive::api(&cmds).into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        reqs,
        [ApiRequest::ListMessages {
            id: "t-2".into(),
            page: Some(1),
            limit: Some(200)
        }],
        "messages only: no PATCH of unread_count"
    );
    settle(&mut m, &svc, &cmds);
    assert_eq!(m.panes.inbox.view, View::Thread);
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert_eq!(o.messages.total, Some(5));
    assert_eq!(
        o.messages.table.selected, 4,
        "the newest message is selected"
    );
    assert_eq!(
        o.thread.as_ref().map(|t| t.unread_count),
        Some(2),
        "still unread"
    );
    assert_eq!(
        m.panes
            .inbox
            .lasts
            .newest("t-2")
            .map(|n| n.subject.as_str()),
        Some("Re: Forecast accuracy at Granite"),
        "the list learns the subject"
    );
}

#[test]
fn m_marks_read_and_u_marks_unread() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    press(&mut m, &svc, KeyCode::Enter);
    let writes = press(&mut m, &svc, KeyCode::Char('m'));
    let (id, req) = writes[0].clone();
    assert_eq!(
        req,
        ApiRequest::PatchThread {
            id: "t-2".into(),
            patch: Box::new(PatchThread {
                unread_count: Some(0),
                ..PatchThread::default()
            })
        }
    );
    let t = m.panes.inbox.list.find("t-2").cloned().unwrap();
    drive::reply(&mut m, id, patched(&t, |t| t.unread_count = 0));
    assert_eq!(m.panes.inbox.list.find("t-2").unwrap().unread_count, 0);
    assert_eq!(
        m.panes
            .inbox
            .open
            .as_ref()
            .and_then(|o| o.thread.as_ref())
            .map(|t| t.unread_count),
        Some(0)
    );
    // Pressing m again says why nothing happens.
    let writes = press(&mut m, &svc, KeyCode::Char('m'));
    assert!(writes.is_empty());
    assert!(super::last_toast(&m).contains("Already read"));
    let writes = press(&mut m, &svc, KeyCode::Char('u'));
    assert!(matches!(
        &writes[0].1,
        ApiRequest::PatchThread { patch, .. } if patch.unread_count == Some(1)
    ));
}

#[test]
fn a_thread_of_ten_thousand_messages_is_read_in_a_bounded_window() {
    let mut svc = Svc::default();
    svc.messages.insert("t-2".into(), 10_000);
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    press(&mut m, &svc, KeyCode::Enter);
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert_eq!(o.messages.total, Some(10_000));
    assert_eq!(
        o.messages.selected().map(|m| m.id.as_str()),
        Some("t-2-m9999"),
        "opens on the newest"
    );
    // Page up to the oldest: the window never holds more than its bound.
    let mut guard = 0;
    while m.panes.inbox.open.as_ref().unwrap().messages.table.selected > 0 {
        press(&mut m, &svc, KeyCode::PageUp);
        let w = &m.panes.inbox.open.as_ref().unwrap().messages;
        assert!(w.loaded_rows() <= MAX_PAGES * PAGE, "{}", w.loaded_rows());
        guard += 1;
        assert!(guard < 5_000);
    }
    let w = &m.panes.inbox.open.as_ref().unwrap().messages;
    assert_eq!(w.selected().map(|m| m.id.as_str()), Some("t-2-m0"));
    assert_eq!(w.selected().map(|m| m.direction.as_str()), Some("outbound"));
}

#[test]
fn open_thread_by_id_reads_it_first_and_a_missing_one_is_said() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    let cmds = update(
        &mut m,
        Msg::Key(crossterm::event::KeyEvent::from(KeyCode::Char(':'))),
    );
    settle(&mut m, &svc, &cmds);
    for c in "open thread t-4".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    press(&mut m, &svc, KeyCode::Enter);
    assert_eq!(m.panes.inbox.view, View::Thread);
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert_eq!(
        o.thread.as_ref().map(|t| t.participant_email.as_str()),
        Some("hana.ito@helix.ai")
    );
    assert_eq!(o.messages.total, Some(1));
    let cmds = and_queued(
        super::split(&mut m, |inbox, cx| {
            crate::app::inbox::thread::open_by_id(inbox, cx, "t-404")
        }),
        &mut m,
    );
    settle(&mut m, &svc, &cmds);
    assert_eq!(m.panes.inbox.view, View::List, "back to the list");
    assert!(
        super::toasts(&m).contains("not_found"),
        "{}",
        super::toasts(&m)
    );
}

#[test]
fn the_reading_pane_scrolls_within_the_body() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    press(&mut m, &svc, KeyCode::Enter);
    let o = m.panes.inbox.open.as_mut().unwrap();
    // A long body on the selected message.
    let sel = o.messages.table.selected;
    let page = o.messages.pages.get_mut(&(sel / PAGE)).unwrap();
    page[sel % PAGE].body_text = (0..100).map(|i| format!("line {i}\n")).collect();
    press(&mut m, &svc, KeyCode::Char('J'));
    let scroll = m.panes.inbox.open.as_ref().unwrap().scroll;
    assert!(scroll > 0);
    for _ in 0..50 {
        press(&mut m, &svc, KeyCode::Char('J'));
    }
    let lines = crate::app::inbox::thread::body_lines(&m.panes.inbox, m.layout().body).len();
    let (_, h) = crate::app::inbox::layout::reading_size(m.layout().body);
    assert_eq!(
        usize::from(m.panes.inbox.open.as_ref().unwrap().scroll),
        lines - usize::from(h),
        "stops at the last line"
    );
    press(&mut m, &svc, KeyCode::Up);
    assert_eq!(
        m.panes.inbox.open.as_ref().unwrap().scroll,
        0,
        "another message starts at the top"
    );
}

/// `/` on an open thread filters its loaded messages live; the letters go
/// into the filter (never to the thread's keys: `r`, `e`, `a`, `m` …);
/// Enter keeps it; as in Campaigns, Esc while typing puts back the filter
/// from before, Esc on the filtered thread clears it, and a second Esc goes
/// back.
#[test]
fn slash_filters_the_threads_loaded_messages_and_takes_the_letters() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    press(&mut m, &svc, KeyCode::Enter);
    assert_eq!(m.panes.inbox.view, View::Thread);
    assert!(press(&mut m, &svc, KeyCode::Char('/')).is_empty());
    for c in "reply 3".chars() {
        let writes = press(&mut m, &svc, KeyCode::Char(c));
        assert!(writes.is_empty(), "typing sends nothing");
    }
    assert!(m.overlay.is_none());
    assert_eq!(m.panes.inbox.view, View::Thread, "letters did not act");
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert_eq!(o.filter.needle.text, "reply 3");
    assert_eq!(o.filter.matches, [3]);
    let body = crate::app::inbox::thread::body_lines(&m.panes.inbox, m.layout().body).join("\n");
    assert!(body.starts_with("Reply 3:"), "the match is shown: {body}");
    let screen = super::screen(&m);
    assert!(
        screen.contains("/reply 3 · 1 match of the loaded"),
        "{screen}"
    );
    press(&mut m, &svc, KeyCode::Enter);
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert!(!o.filter.needle.typing());
    // Typing again, then Esc: the kept filter comes back.
    press(&mut m, &svc, KeyCode::Char('/'));
    press(&mut m, &svc, KeyCode::Char('9'));
    assert!(
        m.panes
            .inbox
            .open
            .as_ref()
            .unwrap()
            .filter
            .matches
            .is_empty()
    );
    press(&mut m, &svc, KeyCode::Esc);
    let o = m.panes.inbox.open.as_ref().unwrap();
    assert!(!o.filter.needle.typing());
    assert_eq!(o.filter.needle.text, "reply 3", "Esc puts back the filter");
    assert_eq!(o.filter.matches, [3]);
    // Kept: the keys move through the matches, Esc clears it.
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(
        m.panes.inbox.view,
        View::Thread,
        "Esc cleared the filter first"
    );
    assert!(!m.panes.inbox.open.as_ref().unwrap().filter.active());
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(m.panes.inbox.view, View::List);
}

/// A service's words reach the screen only made inert (DisplayText): a
/// failed read's message, shown where the thread, its messages or the
/// threads would be, draws no escape sequence, nor its remains, and no bidi
/// override.
#[test]
fn a_failed_reads_message_is_drawn_inert() {
    const HOSTILE: &str =
        r#"{"error":{"code":"internal_error","message":"boom\u001b]52;c;eA==\u0007 \u202egnol"}}"#;
    // Neither the sequence nor what is left of it once a cell drops its
    // control characters (`]52;c;…`, a clipboard write).
    let inert = |s: &str| {
        !s.contains("52;c;")
            && !s
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}')
    };
    let failed = || drive::service_error(500, HOSTILE);
    // The list's first page.
    let mut m = fixtures::model(80, 24);
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    for (id, req) in drive::api(&cmds) {
        if matches!(req, ApiRequest::ListThreads { .. }) {
            drive::reply(&mut m, id, ApiReply::Threads(Err(failed())));
        }
    }
    m.toasts.clear();
    let s = super::screen(&m);
    assert!(s.contains("could not load the threads"), "{s}");
    assert!(inert(&s), "{s:?}");
    // The thread and its messages.
    let svc = Svc::default();
    let mut m = inbox(&svc);
    let cmds = and_queued(
        super::split(&mut m, |inbox, cx| {
            crate::app::inbox::thread::open_by_id(inbox, cx, "t-9")
        }),
        &mut m,
    );
    for (id, req) in drive::api(&cmds) {
        let reply = match req {
            ApiRequest::GetThread { .. } => ApiReply::Thread(Box::new(Err(failed()))),
            ApiRequest::ListMessages { .. } => ApiReply::ThreadMessages(Err(failed())),
            _ => continue,
        };
        drive::reply(&mut m, id, reply);
    }
    m.toasts.clear();
    let s = super::screen(&m);
    assert!(s.contains("could not load the thread"), "{s}");
    assert!(s.contains("could not load the messages"), "{s}");
    assert!(inert(&s), "{s:?}");
}

/// Archives the open thread t-2 and answers the PATCH with `status`;
/// returns the model and the requests that follow.
fn archive_answered(status: u16, body: &str) -> (crate::app::Model, Vec<ApiRequest>) {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    press(&mut m, &svc, KeyCode::Enter);
    let writes = press(&mut m, &svc, KeyCode::Char('a'));
    let [(id, ApiRequest::PatchThread { patch, .. })] = &writes[..] else {
        panic!("one PATCH: {writes:?}");
    };
    assert!(patch.status.is_some());
    let e = super::write_error(status, body);
    let cmds = drive::reply(&mut m, *id, ApiReply::Thread(Box::new(Err(e))));
    let reqs = drive::api(&cmds).into_iter().map(|(_, r)| r).collect();
    (m, reqs)
}

/// An archive answered 502 may have been done: it says so, never offers
/// "r retries" (r refreshes), and reads the thread so what is shown comes
/// from the service.
#[test]
fn an_archive_that_may_have_reached_says_so_and_reads_the_thread() {
    let (m, reqs) = archive_answered(
        502,
        r#"{"error":{"code":"bad_gateway","message":"upstream answer lost"}}"#,
    );
    let shown = super::toasts(&m);
    assert!(shown.contains("may have reached the service"), "{shown}");
    assert!(!shown.contains("retries"), "{shown}");
    assert!(
        reqs.iter()
            .any(|r| matches!(r, ApiRequest::GetThread { id } if id == "t-2")),
        "the thread is read again: {reqs:?}"
    );
    assert!(
        !reqs
            .iter()
            .any(|r| matches!(r, ApiRequest::PatchThread { .. })),
        "never sent again"
    );
}

/// A refused archive did nothing: it names the archive key to try again,
/// never "r retries".
#[test]
fn a_refused_archive_names_its_own_key() {
    let (m, reqs) = archive_answered(
        429,
        r#"{"error":{"code":"rate_limited","message":"Too many requests"}}"#,
    );
    let shown = super::toasts(&m);
    assert!(shown.contains("nothing changed; a tries again"), "{shown}");
    assert!(!shown.contains("r retries"), "{shown}");
    assert!(!shown.contains("r tries"), "{shown}");
    assert!(reqs.is_empty(), "{reqs:?}");
}

/// A message arriving while the newest one is selected is followed; away
/// from the end the selection stays where the user put it.
#[test]
fn a_new_message_is_followed_only_at_the_end() {
    use crate::app::inbox::thread::{OpenThread, take_messages};
    let page = |n: usize| (0..n).map(|i| fixtures::thread_message("t-1", i)).collect();
    let mut o = OpenThread::new("t-1", None);
    take_messages(&mut o, 0, page(3), 3, 10);
    assert_eq!(o.messages.table.selected, 2, "opens on the newest");
    take_messages(&mut o, 0, page(4), 4, 10);
    assert_eq!(o.messages.table.selected, 3, "followed");
    o.follow = false;
    o.messages.table.top(10);
    take_messages(&mut o, 0, page(5), 5, 10);
    assert_eq!(
        o.messages.table.selected, 0,
        "not followed away from the end"
    );
}
