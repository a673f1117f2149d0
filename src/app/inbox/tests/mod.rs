//! Tests of the Inbox pane, driven through `update` as a user would: keys,
//! replies, timers and signals. A small fake service answers the reads;
//! the writes are answered by each test, so it can check what was sent.

mod editor;
mod list;
mod reply;
mod rules;
mod send;
mod thread;

use std::collections::BTreeMap;

use crossterm::event::KeyCode;

use super::InboxModel;
use crate::api::model::{Thread, ThreadPage};
use crate::app::ctx::Ctx;
use crate::app::fixtures::{self, drive};
use crate::app::{ApiReply, ApiRequest, Cmd, Model, Overlay, Pane, RequestId};

/// The reads of a fake service over the fixture threads.
pub(super) struct Svc {
    /// Threads, newest activity first.
    pub threads: Vec<Thread>,
    /// Messages per thread id (a count; the rows are fixture messages).
    pub messages: BTreeMap<String, usize>,
}

impl Default for Svc {
    fn default() -> Self {
        Svc {
            threads: fixtures::threads(),
            messages: [("t-2".to_owned(), 5), ("t-4".to_owned(), 1)].into(),
        }
    }
}

impl Svc {
    /// The answer to a read, or `None` for a write.
    pub(super) fn read(&self, req: &ApiRequest) -> Option<ApiReply> {
        Some(match req {
            ApiRequest::ListThreads { query } => {
                let rows: Vec<Thread> = self
                    .threads
                    .iter()
                    .filter(|t| {
                        query
                            .status
                            .as_deref()
                            .is_none_or(|s| t.status.as_str() == s)
                    })
                    .cloned()
                    .collect();
                let page = query.page.unwrap_or(1);
                let limit = query.limit.unwrap_or(50);
                let skip = usize::try_from((page - 1) * limit).unwrap_or(usize::MAX);
                ApiReply::Threads(Ok(ThreadPage {
                    total: rows.len() as u64,
                    threads: rows
                        .into_iter()
                        .skip(skip)
                        .take(usize::try_from(limit).unwrap_or(50))
                        .collect(),
                    page,
                    limit,
                }))
            }
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::GetThread { id } => ApiReply::Thread(Box::new(
                self.threads
                    .iter()
                    .find(|t| t.id == *id)
                    .cloned()
                    .ok_or_else(|| {
                        drive::service_error(
                            404,
                            r#"{"error":{"code":"not_found","message":"Thread not found"}}"#,
                        )
                    }),
            )),
            ApiRequest::ListMessages { id, page, limit } => {
                let n = self.messages.get(id).copied().unwrap_or(0);
                ApiReply::ThreadMessages(Ok(fixtures::messages_page(
                    id,
                    n,
                    page.unwrap_or(1),
                    limit.unwrap_or(50),
                )))
            }
            _ => return None,
        })
    }
}

/// The error the client returns for a write answered `status`: a 5xx is
/// marked as may have reached the service, as the client marks it.
pub(super) fn write_error(status: u16, body: &str) -> crate::api::ApiError {
    let mut e = crate::api::ServiceError::from_body(status, body.as_bytes(), None);
    e.may_have_reached = status >= 500;
    crate::api::ApiError::Service(Box::new(e))
}

/// Answers every read among `cmds` (and the reads those answers ask for);
/// returns the writes, unanswered, for the test to inspect and answer.
pub(super) fn settle(m: &mut Model, svc: &Svc, cmds: &[Cmd]) -> Vec<(RequestId, ApiRequest)> {
    let mut writes = Vec::new();
    let mut queue = drive::api(cmds);
    while let Some((id, req)) = queue.pop() {
        match svc.read(&req) {
            Some(reply) => queue.extend(drive::api(&drive::reply(m, id, reply))),
            None => writes.push((id, req)),
        }
    }
    writes
}

/// Runs a function of the pane on `m` split as the pane's entry points
/// split it: the pane's state and its context.
pub(super) fn split<R>(m: &mut Model, f: impl FnOnce(&mut InboxModel, &mut Ctx<'_>) -> R) -> R {
    let (inbox, mut cx) = m.split::<InboxModel>();
    f(inbox, &mut cx)
}

/// A model on the Inbox pane with the fixture threads and senders loaded.
pub(super) fn inbox(svc: &Svc) -> Model {
    inbox_sized(svc, 80, 24)
}

/// The same at another size.
pub(super) fn inbox_sized(svc: &Svc, w: u16, h: u16) -> Model {
    let mut m = fixtures::model(w, h);
    let cmds = drive::switch(&mut m, Pane::Inbox);
    let writes = settle(&mut m, svc, &cmds);
    assert!(writes.is_empty(), "entering writes nothing: {writes:?}");
    m
}

/// Presses a key and answers the reads it causes; returns the writes.
pub(super) fn press(m: &mut Model, svc: &Svc, code: KeyCode) -> Vec<(RequestId, ApiRequest)> {
    let cmds = drive::key(m, code);
    settle(m, svc, &cmds)
}

/// Presses Ctrl and a letter; returns the writes.
pub(super) fn press_ctrl(m: &mut Model, svc: &Svc, c: char) -> Vec<(RequestId, ApiRequest)> {
    let cmds = drive::ctrl(m, c);
    settle(m, svc, &cmds)
}

/// Selects the thread with `id` in the list.
pub(super) fn select(m: &mut Model, id: &str) {
    let vp = super::layout::list_viewport(m.layout().body, false);
    m.panes.inbox.list.select_id(id, vp);
    assert_eq!(
        m.panes.inbox.list.selected().map(|t| t.id.as_str()),
        Some(id)
    );
}

/// The open question's title, if one is open.
pub(super) fn question(m: &Model) -> Option<&str> {
    match &m.overlay {
        Some(Overlay::Confirm(c)) => Some(c.title.as_str()),
        _ => None,
    }
}

/// The open question's lines joined.
pub(super) fn question_text(m: &Model) -> String {
    match &m.overlay {
        Some(Overlay::Confirm(c)) => c.lines.join("\n"),
        _ => String::new(),
    }
}

/// The newest toast's title and text.
pub(super) fn last_toast(m: &Model) -> String {
    m.toasts
        .items()
        .last()
        .map(|t| format!("{}: {}", t.title, t.text))
        .unwrap_or_default()
}

/// Every toast, joined.
pub(super) fn toasts(m: &Model) -> String {
    m.toasts
        .items()
        .iter()
        .map(|t| format!("{}: {}", t.title, t.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The screen as text, one line per row.
pub(super) fn screen(m: &Model) -> String {
    let (w, h) = m.size;
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut term = ratatui::Terminal::new(backend).expect("terminal");
    term.draw(|f| crate::ui::view(m, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn i_copies_the_selected_thread_s_id_and_open_thread_resolves_a_name() {
    let svc = Svc::default();
    let mut m = inbox(&svc);
    select(&mut m, "t-2");
    let cmds = drive::key(&mut m, KeyCode::Char('I'));
    assert!(
        cmds.iter().any(|c| matches!(c, Cmd::CopyId { text, what }
            if text == "t-2" && what.contains("Lena Weber <lena.weber@granite.de>"))),
        "{cmds:?}"
    );
    // `:open thread` by a part of the participant's name reads that thread.
    let opened = split(&mut m, |i, cx| super::open_typed(i, cx, "lena"));
    let opened = drive::and_queued(opened, &mut m);
    let sent: Vec<ApiRequest> = drive::api(&opened).into_iter().map(|(_, r)| r).collect();
    assert!(
        sent.iter()
            .any(|r| matches!(r, ApiRequest::GetThread { id, .. } if id == "t-2")),
        "{sent:?}"
    );
    // Nonsense is refused before any request.
    let none = split(&mut m, |i, cx| super::open_typed(i, cx, "nonsense"));
    let none = drive::and_queued(none, &mut m);
    assert!(drive::api(&none).is_empty(), "{none:?}");
}
