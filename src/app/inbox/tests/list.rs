//! The thread list: loading, status and text filters, paging, live refresh.

use crossterm::event::KeyCode;

use super::{Svc, inbox, press, select, settle};
use crate::api::model::{ThreadQuery, ThreadStatus};
use crate::app::fixtures::drive::and_queued;
use crate::app::fixtures::{self, drive};
use crate::app::inbox::list::{Mode, PAGE};
use crate::app::inbox::{InboxSub, Purpose};
use crate::app::{ApiRequest, Cmd, Msg, PaneSub, SubId, subscriptions, update};

fn ids(m: &crate::app::Model) -> Vec<String> {
    let l = &m.panes.inbox.list;
    (0..l.shown.len())
        .filter_map(|i| l.row(i).map(|t| t.id.clone()))
        .collect()
}

#[test]
fn entering_reads_the_first_page_and_the_senders() {
    let mut m = fixtures::model(80, 24);
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    let reqs: Vec<ApiRequest> = drive::api(&cmds).into_iter().map(|(_, r)| r).collect();
    assert!(reqs.contains(&ApiRequest::ListSenders));
    assert!(reqs.contains(&ApiRequest::ListThreads {
        query: ThreadQuery {
            page: Some(1),
            limit: Some(PAGE),
            status: None
        }
    }));
    let svc = Svc::default();
    settle(&mut m, &svc, &cmds);
    assert_eq!(
        ids(&m),
        ["t-1", "t-2", "t-3", "t-4", "t-5"],
        "the service's order"
    );
}

#[test]
fn the_status_filter_reads_the_list_again_and_ignores_the_old_answer() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    // A refresh of the unfiltered list is on its way when the filter changes.
    let stale = and_queued(super::split(&mut m, super::super::list::poll), &mut m);
    let cmds = drive::key(&mut m, KeyCode::Char('s'));
    let (id, req) = drive::api(&cmds).remove(0);
    assert_eq!(
        req,
        ApiRequest::ListThreads {
            query: ThreadQuery {
                page: Some(1),
                limit: Some(PAGE),
                status: Some("draft".into())
            }
        }
    );
    // The unfiltered answer arrives late: dropped.
    for (sid, sreq) in drive::api(&stale) {
        if let Some(r) = svc.read(&sreq) {
            drive::reply(&mut m, sid, r);
        }
    }
    assert!(ids(&m).is_empty(), "nothing shown until the drafts arrive");
    let reply = svc.read(&req).unwrap();
    drive::reply(&mut m, id, reply);
    assert_eq!(ids(&m), ["t-1", "t-3", "t-4"]);
    press(&mut m, &svc, KeyCode::Char('s'));
    assert_eq!(ids(&m), ["t-2"], "active");
    press(&mut m, &svc, KeyCode::Char('s'));
    assert_eq!(ids(&m), ["t-5"], "archived");
    press(&mut m, &svc, KeyCode::Char('s'));
    assert_eq!(ids(&m).len(), 5, "all again");
}

fn many(n: usize) -> Svc {
    let threads = (0..n)
        .map(|i| {
            fixtures::thread(
                &format!("t-{i}"),
                ThreadStatus::Active,
                &format!("lead{i}@example.com"),
                if i == 230 { "Kofi Okafor" } else { "" },
                "",
                0,
                &format!("2026-11-{:02}T10:00:00Z", 22 - i / 20),
                Some("s-1"),
            )
        })
        .collect();
    Svc {
        threads,
        ..Svc::default()
    }
}

#[test]
fn pages_are_read_as_the_selection_nears_the_end() {
    let svc = many(250);
    let mut m = inbox(&svc);
    assert_eq!(m.panes.inbox.list.threads.len(), 100, "one page at first");
    assert_eq!(m.panes.inbox.list.total, Some(250));
    press(&mut m, &svc, KeyCode::Char('G'));
    assert_eq!(m.panes.inbox.list.threads.len(), 200, "the next page");
    press(&mut m, &svc, KeyCode::Char('G'));
    assert_eq!(m.panes.inbox.list.threads.len(), 250);
    assert!(!m.panes.inbox.list.more());
    let cmds = drive::key(&mut m, KeyCode::Char('G'));
    assert!(drive::api(&cmds).is_empty(), "nothing more to read");
}

#[test]
fn slash_filters_the_loaded_threads_and_reads_the_rest_for_it() {
    let svc = many(250);
    let mut m = inbox(&svc);
    press(&mut m, &svc, KeyCode::Char('/'));
    assert!(m.panes.inbox.list.needle.typing());
    // Letters type into the filter; `s` does not change the status filter.
    for c in "kofi".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    assert_eq!(
        m.panes.inbox.list.status,
        crate::app::inbox::StatusFilter::All
    );
    assert_eq!(ids(&m), ["t-230"], "found on a page read for the filter");
    press(&mut m, &svc, KeyCode::Enter);
    assert!(!m.panes.inbox.list.needle.typing());
    assert_eq!(ids(&m), ["t-230"], "Enter keeps the filter");
    // As in Campaigns: Esc while typing puts back the filter from before,
    // Esc on the filtered list clears it.
    press(&mut m, &svc, KeyCode::Char('/'));
    for c in "zzz".chars() {
        press(&mut m, &svc, KeyCode::Char(c));
    }
    assert!(ids(&m).is_empty(), "live: nothing matches kofizzz");
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(m.panes.inbox.list.needle.text, "kofi");
    assert_eq!(ids(&m), ["t-230"], "Esc puts back the filter before");
    press(&mut m, &svc, KeyCode::Esc);
    assert_eq!(ids(&m).len(), 250, "a second Esc clears it");
}

#[test]
fn the_live_refresh_moves_a_replied_thread_up_and_keeps_the_selection() {
    let mut svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-3");
    let wanted: Vec<SubId> = subscriptions(&m).into_iter().map(|s| s.id).collect();
    let poll = SubId::Pane(PaneSub::Inbox(InboxSub::Poll));
    assert!(wanted.contains(&poll), "polls while shown");
    // A reply arrives on Lena's thread: it becomes the newest.
    let mut lena = svc.threads.remove(1);
    lena.unread_count = 3;
    lena.updated_at = Some("2026-11-22T11:59:00Z".into());
    svc.threads.insert(0, lena);
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    assert!(
        m.requests
            .pending::<crate::app::inbox::InboxModel>(|p| matches!(
                p,
                Purpose::List {
                    mode: Mode::Merge,
                    ..
                }
            ))
    );
    settle(&mut m, &svc, &cmds);
    assert_eq!(ids(&m), ["t-2", "t-1", "t-3", "t-4", "t-5"]);
    assert_eq!(
        m.panes.inbox.list.find("t-2").map(|t| t.unread_count),
        Some(3)
    );
    assert_eq!(
        m.panes.inbox.list.selected().map(|t| t.id.as_str()),
        Some("t-3"),
        "the selection stays on its thread"
    );
    // Another pane: no polling.
    drive::key(&mut m, KeyCode::Char('4'));
    assert_eq!(m.pane, crate::app::Pane::Domains);
    let wanted: Vec<SubId> = subscriptions(&m).into_iter().map(|s| s.id).collect();
    assert!(!wanted.contains(&poll));
}

#[test]
fn a_thread_gone_from_the_first_page_is_gone_from_the_list() {
    let mut svc = Svc::default();
    let mut m = inbox(&svc);
    // Deleted elsewhere.
    svc.threads.retain(|t| t.id != "t-3");
    let cmds = and_queued(super::split(&mut m, super::super::list::poll), &mut m);
    settle(&mut m, &svc, &cmds);
    assert_eq!(ids(&m), ["t-1", "t-2", "t-4", "t-5"]);
}

/// A failed live refresh after a successful load keeps the rows, says in
/// the one wording every pane uses that the poll retries and when (it polls
/// more slowly), and the next good answer makes it live again.
#[test]
fn a_failed_refresh_keeps_the_rows_marked_stale_with_their_age() {
    use crate::app::ApiReply;
    let svc = Svc::default();
    let mut m = inbox(&svc);
    let poll = SubId::Pane(PaneSub::Inbox(InboxSub::Poll));
    let every = |m: &crate::app::Model| {
        subscriptions(m)
            .into_iter()
            .find(|s| s.id == poll)
            .map(|s| s.every)
    };
    let normal = every(&m).expect("polls");
    m.clock += 90;
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    let (id, _) = drive::api(&cmds)
        .into_iter()
        .find(|(_, r)| matches!(r, ApiRequest::ListThreads { .. }))
        .expect("the first page is read again");
    let err = drive::service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    );
    drive::reply(&mut m, id, ApiReply::Threads(Err(err)));
    assert_eq!(
        ids(&m),
        ["t-1", "t-2", "t-3", "t-4", "t-5"],
        "the rows stay"
    );
    let screen = super::screen(&m);
    let title = screen.lines().nth(1).unwrap_or_default();
    let slower = normal * 2;
    assert!(
        title.contains(&format!("retrying in {} s", slower.as_secs())),
        "the retry, when it really comes:\n{screen}"
    );
    assert_eq!(every(&m), Some(slower), "polled more slowly");
    // It counts down.
    m.clock += 1;
    let title = super::screen(&m)
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    assert!(
        title.contains(&format!("retrying in {} s", slower.as_secs() - 1)),
        "{title}"
    );
    // The next poll answers: live again, at the normal pace.
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    settle(&mut m, &svc, &cmds);
    let title = super::screen(&m)
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_owned();
    assert!(title.contains(" live "), "{title}");
    assert!(!title.contains("retrying"), "{title}");
    assert_eq!(every(&m), Some(normal));
}

/// The list that never loaded says why with the shared wording: a refused
/// key says how to fix it and never offers "r retries"; in an outage it
/// says "offline since …" instead of "loading…".
#[test]
fn an_unloaded_list_says_why_with_the_shared_placeholder() {
    use crate::app::ApiReply;
    let mut m = fixtures::model(80, 24);
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    let (id, _) = drive::api(&cmds)
        .into_iter()
        .find(|(_, r)| matches!(r, ApiRequest::ListThreads { .. }))
        .expect("the list is read");
    // Offline while it is on its way.
    m.net.conn = crate::api::ConnState::Offline {
        since: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_348_000),
    };
    let screen = super::screen(&m);
    assert!(screen.contains("offline since"), "{screen}");
    assert!(!screen.contains("loading"), "{screen}");
    m.net.conn = crate::api::ConnState::Online;
    let refused = drive::service_error(
        401,
        r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
    );
    drive::reply(&mut m, id, ApiReply::Threads(Err(refused)));
    let screen = super::screen(&m);
    let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("could not load the threads: unauthorized"),
        "{screen}"
    );
    assert!(flat.contains("refused the API key"), "{screen}");
    assert!(
        !flat.contains("r retries"),
        "retrying cannot help:\n{screen}"
    );
}

/// Answers every read among `cmds` (and those that follow); returns every
/// command the answers gave, for the notifications among them.
fn settle_all(m: &mut crate::app::Model, svc: &Svc, cmds: &[Cmd]) -> Vec<Cmd> {
    let mut out = cmds.to_vec();
    let mut queue = drive::api(cmds);
    while let Some((id, req)) = queue.pop() {
        if let Some(reply) = svc.read(&req) {
            let next = drive::reply(m, id, reply);
            queue.extend(drive::api(&next));
            out.extend(next);
        }
    }
    out
}

fn notices(cmds: &[Cmd]) -> Vec<String> {
    cmds.iter()
        .filter_map(|c| match c {
            Cmd::Notify { title, .. } => Some(title.clone()),
            _ => None,
        })
        .collect()
}

/// A reply arriving (a thread's unread count rising on a live refresh)
/// rings once — not on the first load, not again on the next refresh or
/// the open thread's read, and not for the user's own `u`.
#[test]
fn a_reply_arriving_notifies_once() {
    let mut svc = Svc::default();
    let mut m = fixtures::model(80, 24);
    let cmds = drive::switch(&mut m, crate::app::Pane::Inbox);
    let all = settle_all(&mut m, &svc, &cmds);
    assert!(notices(&all).is_empty(), "not on the first load");
    let poll = SubId::Pane(PaneSub::Inbox(InboxSub::Poll));
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    let all = settle_all(&mut m, &svc, &cmds);
    assert!(notices(&all).is_empty(), "nothing new");
    // Lena replies.
    svc.threads[1].unread_count = 3;
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    let all = settle_all(&mut m, &svc, &cmds);
    assert_eq!(
        notices(&all),
        ["Reply from Lena Weber <lena.weber@granite.de>"]
    );
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    let all = settle_all(&mut m, &svc, &cmds);
    assert!(notices(&all).is_empty(), "once per arrival");
    // Opening the thread reads it again: the same count, no second ring.
    select(&mut m, "t-2");
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let all = settle_all(&mut m, &svc, &cmds);
    let cmds = update(&mut m, Msg::SubFired(poll.clone()));
    let all2 = settle_all(&mut m, &svc, &cmds);
    assert!(notices(&all).is_empty() && notices(&all2).is_empty());
    // Another reply while the thread is open: its refresh rings.
    svc.threads[1].unread_count = 4;
    let cmds = update(&mut m, Msg::SubFired(poll));
    let all = settle_all(&mut m, &svc, &cmds);
    assert_eq!(notices(&all).len(), 1, "{all:?}");
    // The user's own `u` raises the count: no ring.
    svc.threads[1].unread_count = 0;
    let mut t = svc.threads[1].clone();
    let writes = press(&mut m, &svc, KeyCode::Char('m'));
    let cmds = drive::reply(
        &mut m,
        writes[0].0,
        crate::app::ApiReply::Thread(Box::new(Ok(t.clone()))),
    );
    assert!(notices(&cmds).is_empty());
    let writes = press(&mut m, &svc, KeyCode::Char('u'));
    t.unread_count = 1;
    let cmds = drive::reply(
        &mut m,
        writes[0].0,
        crate::app::ApiReply::Thread(Box::new(Ok(t))),
    );
    assert!(notices(&cmds).is_empty(), "the user's own change");
}
