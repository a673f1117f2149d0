//! One thread: its facts, its messages oldest first in a bounded window,
//! and what can be done to it — mark read or unread, archive or unarchive,
//! delete a draft, edit or send a draft. Opening a thread reads it without
//! changing its unread count (the contract's list-messages operation does
//! not mark it read; only `m` does).

use std::collections::BTreeSet;

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::messages::MessageWindow;
use super::msg_filter::{self, MessageFilter};
use super::{InboxModel, Purpose, Question, View, in_flight, refuse};
use crate::api::ApiError;
use crate::api::model::{MessagesPage, PatchThread, Thread, ThreadStatus};
use crate::app::ctx::Ctx;
use crate::app::fresh::Freshness;
use crate::app::keymap::Action;
use crate::app::keymap::Keymap;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction};
use crate::geometry::Rect;
use crate::logic::write::{self, Outcome};
use crate::store::State;
use crate::text::{sanitize, wrap};

/// The open thread.
#[derive(Debug, Clone)]
pub struct OpenThread {
    /// Its id.
    pub id: String,
    /// The thread, once known (from the list, or read by id).
    pub thread: Option<Thread>,
    /// Its messages.
    pub messages: MessageWindow,
    /// The selection sits on the newest message: new messages are followed.
    pub follow: bool,
    /// Scroll of the reading pane, in lines.
    pub scroll: u16,
    /// The last failure reading the thread itself.
    pub error: Option<ApiError>,
    /// When the thread itself (its status, unread count, draft) was last
    /// read, and whether the last read failed.
    pub fresh: Freshness,
    /// When its newest messages were last read, and whether the last read
    /// failed.
    pub messages_fresh: Freshness,
    /// The `/` filter of its loaded messages.
    pub filter: MessageFilter,
}

impl OpenThread {
    /// Thread `id` opened (its facts, when known), following its newest
    /// message.
    pub fn new(id: &str, thread: Option<Thread>) -> OpenThread {
        OpenThread {
            id: id.to_owned(),
            thread,
            messages: MessageWindow::default(),
            follow: true,
            scroll: 0,
            error: None,
            fresh: Freshness::default(),
            messages_fresh: Freshness::default(),
            filter: MessageFilter::default(),
        }
    }

    /// The freshness the thread view says: of its two reads (the thread,
    /// its messages) the one that can promise less — a failed one, the
    /// one failing longer, the older one — so "live" means both are.
    pub fn shown_fresh(&self) -> &Freshness {
        let rank = |f: &Freshness| (f.is_stale(), f.failures, std::cmp::Reverse(f.read_at));
        if rank(&self.fresh) > rank(&self.messages_fresh) {
            &self.fresh
        } else {
            &self.messages_fresh
        }
    }
}

/// Whether the open thread's `/` input is open (it takes a line).
fn filtering(inbox: &InboxModel) -> bool {
    inbox
        .open
        .as_ref()
        .is_some_and(|o| o.filter.needle.typing())
}

/// Rows of the messages table on screen now.
pub(crate) fn viewport(inbox: &InboxModel, cx: &Ctx<'_>) -> usize {
    super::layout::messages_viewport(cx.layout().body, filtering(inbox))
}

/// Opens a thread shown in the list: its facts are as fresh as the list's
/// row (the last-known list's are read at once).
pub(crate) fn open(inbox: &mut InboxModel, cx: &mut Ctx<'_>, t: Thread) -> Vec<Cmd> {
    let id = t.id.clone();
    forget_other(cx, &id);
    let list = &inbox.list;
    let cached = list.cached.is_some();
    let mut o = OpenThread::new(&id, Some(t));
    o.fresh = list.fresh.clone();
    inbox.open = Some(o);
    inbox.view = View::Thread;
    let mut cmds = if cached {
        read_thread(cx, &id)
    } else {
        Vec::new()
    };
    cmds.extend(request_pages(inbox, cx));
    cmds
}

/// Opens a thread by id (`:open thread <id>`): reads it first.
pub(crate) fn open_by_id(inbox: &mut InboxModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if id.is_empty() {
        return refuse(cx, "open thread", "usage: :open thread <id>");
    }
    forget_other(cx, id);
    let known = inbox.list.find(id).cloned();
    inbox.open = Some(OpenThread::new(id, known));
    inbox.view = View::Thread;
    let mut cmds = read_thread(cx, id);
    cmds.extend(request_pages(inbox, cx));
    cmds
}

/// Forgets the reads of another thread than `id` (the user moved on).
fn forget_other(cx: &mut Ctx<'_>, id: &str) {
    cx.requests.forget::<InboxModel>(|p| match p {
        Purpose::Messages { thread, .. } | Purpose::Thread(thread) => thread != id,
        _ => false,
    });
}

/// Back to the list.
pub(crate) fn close(inbox: &mut InboxModel, cx: &mut Ctx<'_>) {
    cx.requests
        .forget::<InboxModel>(|p| matches!(p, Purpose::Messages { .. } | Purpose::Thread(_)));
    inbox.open = None;
    inbox.view = View::List;
}

/// Reads a thread (once at a time).
pub(crate) fn read_thread(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| matches!(p, Purpose::Thread(t) if t == id)) {
        return Vec::new();
    }
    cx.request(
        Purpose::Thread(id.to_owned()),
        ApiRequest::GetThread { id: id.to_owned() },
    );
    Vec::new()
}

fn read_page(cx: &mut Ctx<'_>, id: &str, page: usize) -> Vec<Cmd> {
    if in_flight(
        cx.requests,
        |p| matches!(p, Purpose::Messages { thread, page: q } if thread == id && *q == page),
    ) {
        return Vec::new();
    }
    cx.request(
        Purpose::Messages {
            thread: id.to_owned(),
            page,
        },
        // The window counts pages from 0, the service from 1.
        super::messages::page_request(
            id,
            u64::try_from(page).unwrap_or(u64::MAX).saturating_add(1),
        ),
    );
    Vec::new()
}

/// Asks for the pages the view needs that are neither held nor on their
/// way (a few at a time).
pub(crate) fn request_pages(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let vp = viewport(inbox, cx);
    let Some(o) = inbox.open.as_ref() else {
        return Vec::new();
    };
    let id = o.id.clone();
    let pending: BTreeSet<usize> = cx
        .requests
        .purposes::<InboxModel>()
        .filter_map(|p| match p {
            Purpose::Messages { page, .. } => Some(*page),
            _ => None,
        })
        .collect();
    let wanted = o.messages.missing(vp, &pending);
    let mut cmds = Vec::new();
    for page in wanted {
        cmds.extend(read_page(cx, &id, page));
    }
    cmds
}

/// Reads the open thread again (entering the pane, `r`).
pub(crate) fn refresh(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = inbox.open.as_ref() else {
        inbox.view = View::List;
        return super::list::enter(inbox, cx);
    };
    let id = o.id.clone();
    let last = o.messages.total.map(|_| o.messages.last_page());
    let mut cmds = read_thread(cx, &id);
    match last {
        Some(p) => cmds.extend(read_page(cx, &id, p)),
        None => cmds.extend(request_pages(inbox, cx)),
    }
    cmds
}

/// The live refresh: the thread (its unread count) and its last page (new
/// replies).
pub(crate) fn poll(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if inbox
        .open
        .as_ref()
        .is_some_and(|o| o.messages.total.is_some())
    {
        refresh(inbox, cx)
    } else {
        Vec::new()
    }
}

/// A thread answer (`GET`).
pub(crate) fn on_thread(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    id: &str,
    r: Result<Thread, ApiError>,
) -> Vec<Cmd> {
    match r {
        Ok(t) => {
            if let Some(o) = inbox.open.as_mut()
                && o.id == id
            {
                o.error = None;
                o.fresh.ok(cx.clock);
            }
            super::arrivals::observe(
                &mut inbox.unread_seen,
                cx,
                [&t],
                super::arrivals::Seen::Live,
            );
            super::apply_thread(inbox, cx, t.clone());
            return super::send::thread_seen(inbox, cx, &t);
        }
        Err(e) if e.is_not_found() => {
            super::list::remove(&mut inbox.list, cx, id);
            if inbox.open.as_ref().is_some_and(|o| o.id == id) {
                close(inbox, cx);
            }
            cx.toasts.error(cx.now, "no such thread", &e);
        }
        Err(e) => {
            if let Some(o) = inbox.open.as_mut()
                && o.id == id
            {
                o.error = Some(e.clone());
                // What is shown stays, marked stale.
                o.fresh.fail_at(cx.clock, super::error_text(&e), &e);
            }
            // While a lost send is checked, its line says what the reads
            // saw; a notice per failed read would bury it.
            let checking = inbox
                .checks
                .get(id)
                .is_some_and(|c| c.stage() == super::send::Stage::Checking);
            if !checking {
                cx.toasts.error(cx.now, "reading the thread", &e);
            }
        }
    }
    Vec::new()
}

/// A page of messages.
pub(crate) fn on_messages(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    id: &str,
    page: usize,
    r: Result<MessagesPage, ApiError>,
) -> Vec<Cmd> {
    let vp = viewport(inbox, cx);
    let Some(o) = inbox.open.as_mut().filter(|o| o.id == id) else {
        return Vec::new();
    };
    match r {
        Ok(p) => {
            let before = o.messages.table.selected;
            take_messages(o, page, p.messages, p.total, vp);
            o.messages_fresh.ok(cx.clock);
            if page == o.messages.last_page()
                && let Some(newest) = o.messages.pages.get(&page).and_then(|r| r.last())
                && let Some(t) = o.thread.as_ref()
            {
                // The list shows what the open thread saw newest, for the
                // row as the list holds it.
                let row = inbox.list.find(id).unwrap_or(t);
                inbox.lasts.saw(row, newest, p.total);
            }
            if o.messages.table.selected != before {
                o.scroll = 0;
            }
            if o.filter.active() {
                o.filter.refilter(&o.messages, vp);
            }
            request_pages(inbox, cx)
        }
        Err(e) => {
            o.messages.failed(&e);
            // What is shown stays, marked stale.
            o.messages_fresh
                .fail_at(cx.clock, super::error_text(&e), &e);
            cx.toasts.error(cx.now, "reading messages", &e);
            Vec::new()
        }
    }
}

/// Takes a page of messages into the open thread's window: the newest
/// message stays selected while followed, and the pages furthest from the
/// selection go past the bound.
pub(super) fn take_messages(
    o: &mut OpenThread,
    page: usize,
    rows: Vec<crate::api::model::ThreadMessage>,
    total: u64,
    vp: usize,
) {
    let grew = o.messages.take_counted(page, rows, total, vp);
    if o.follow && grew {
        o.messages.table.bottom(vp);
    }
    o.messages.evict(vp);
}

/// A key action on the open thread.
pub(crate) fn action(inbox: &mut InboxModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = viewport(inbox, cx);
    let Some(o) = inbox.open.as_mut() else {
        inbox.view = View::List;
        return Vec::new();
    };
    // Filtered: the keys move through the matches.
    let filtered = o.filter.active();
    let t = if filtered {
        &mut o.filter.table
    } else {
        &mut o.messages.table
    };
    match action {
        Action::Up => t.move_by(-1, vp),
        Action::Down => t.move_by(1, vp),
        Action::Top => t.top(vp),
        Action::Bottom => t.bottom(vp),
        Action::PageUp => t.page_up(vp),
        Action::PageDown => t.page_down(vp),
        _ => {
            let id = o.id.clone();
            return other_action(inbox, cx, &id, action);
        }
    }
    o.scroll = 0;
    if filtered {
        return Vec::new();
    }
    o.follow = o.messages.at_end();
    o.messages.evict(vp);
    request_pages(inbox, cx)
}

fn other_action(inbox: &mut InboxModel, cx: &mut Ctx<'_>, id: &str, action: Action) -> Vec<Cmd> {
    match action {
        Action::Back if inbox.open.as_ref().is_some_and(|o| o.filter.active()) => {
            msg_filter::clear(inbox);
            Vec::new()
        }
        Action::Back => {
            close(inbox, cx);
            super::list::want_more(inbox, cx)
        }
        Action::Filter => msg_filter::open(inbox, cx),
        Action::ScrollBodyDown => scroll_body(inbox, cx, 1),
        Action::ScrollBodyUp => scroll_body(inbox, cx, -1),
        Action::Refresh => refresh(inbox, cx),
        Action::Compose => super::editor::open_new(inbox, cx, None),
        Action::ReplyThread => super::reply::key(inbox, cx),
        Action::EditDraft
        | Action::SendDraft
        | Action::EditorSend
        | Action::MarkRead
        | Action::MarkUnread
        | Action::Archive
        | Action::DeleteDraft => thread_action(inbox, cx, id, action),
        _ => Vec::new(),
    }
}

/// An action on one thread (from the list or the open thread).
pub(crate) fn thread_action(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    id: &str,
    action: Action,
) -> Vec<Cmd> {
    let Some(t) = inbox.thread(id).cloned() else {
        return refuse(cx, "Not loaded", "the thread is still loading; try again");
    };
    match action {
        Action::EditDraft => super::editor::edit(inbox, cx, &t),
        Action::SendDraft | Action::EditorSend => super::send::ask(inbox, cx, id),
        Action::MarkRead => mark(cx, &t, 0),
        Action::MarkUnread => mark(cx, &t, 1),
        Action::Archive => toggle_archive(cx, &t),
        Action::DeleteDraft => ask_delete(inbox, cx, &t),
        _ => Vec::new(),
    }
}

/// The lines of the selected message's body at the width of the reading
/// pane in the pane's `body` area.
pub(crate) fn body_lines(inbox: &InboxModel, body: Rect) -> Vec<String> {
    let (w, _) = super::layout::reading_size(body);
    let Some(o) = inbox.open.as_ref() else {
        return Vec::new();
    };
    let body = match msg_filter::selected_message(o) {
        Some(msg) => super::html::readable(&msg.body_text),
        None => o
            .thread
            .as_ref()
            .map(super::editor::draft_body)
            .unwrap_or_default(),
    };
    wrap::wrap(
        sanitize::DisplayText::block(&body).as_str(),
        usize::from(w.max(1)),
    )
}

fn scroll_body(inbox: &mut InboxModel, cx: &mut Ctx<'_>, pages: i32) -> Vec<Cmd> {
    let body = cx.layout().body;
    let (_, h) = super::layout::reading_size(body);
    let lines = u16::try_from(body_lines(inbox, body).len()).unwrap_or(u16::MAX);
    let max = lines.saturating_sub(h);
    let step = h.saturating_sub(1).max(1);
    if let Some(o) = inbox.open.as_mut() {
        o.scroll = if pages > 0 {
            o.scroll.saturating_add(step).min(max)
        } else {
            o.scroll.saturating_sub(step)
        };
    }
    Vec::new()
}

/// Sets the unread count (`m`: 0, `u`: 1).
pub(crate) fn mark(cx: &mut Ctx<'_>, t: &Thread, unread: u64) -> Vec<Cmd> {
    if unread == 0 && t.unread_count == 0 {
        return refuse(cx, "Already read", "the thread has no unread messages");
    }
    if unread > 0 && t.unread_count > 0 {
        return refuse(
            cx,
            "Already unread",
            "the thread already counts unread messages",
        );
    }
    patch(
        cx,
        Purpose::Mark {
            thread: t.id.clone(),
            unread,
        },
        PatchThread {
            unread_count: Some(unread),
            ..PatchThread::default()
        },
    )
}

/// Archives a thread, or brings an archived one back (as `active`: the
/// contract has no way back to `draft`). A draft is archived only after
/// asking: it would come back active, where its draft can no longer be
/// edited, sent or deleted.
pub(crate) fn toggle_archive(cx: &mut Ctx<'_>, t: &Thread) -> Vec<Cmd> {
    match t.status {
        ThreadStatus::Archived => set_status(cx, &t.id, ThreadStatus::Active),
        ThreadStatus::Draft => {
            ask_archive(cx, t);
            Vec::new()
        }
        _ => set_status(cx, &t.id, ThreadStatus::Archived),
    }
}

/// Archives a draft (confirmed).
pub(crate) fn archive(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    set_status(cx, id, ThreadStatus::Archived)
}

/// Asks before archiving a draft, saying what it costs.
fn ask_archive(cx: &mut Ctx<'_>, t: &Thread) {
    let subject = t
        .draft_subject
        .as_deref()
        .filter(|s| !s.is_empty())
        .unwrap_or("(no subject)");
    cx.confirm(Confirm {
        title: "Archive this draft?".into(),
        lines: vec![
            format!("To: {} · draft \"{subject}\"", super::participant(t)),
            "Archived, it no longer blocks a new thread to this recipient: archived threads are ignored by the duplicate check.".into(),
            "It cannot come back as a draft: unarchiving makes it active, and an active thread's draft can no longer be edited, sent or deleted.".into(),
            format!(
                "To drop an unsent draft, delete it instead ({}).",
                cx.keymap.key_label(Action::DeleteDraft)
            ),
        ],
        yes: "Archive".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Question::ArchiveDraft(t.id.clone()).into()),
    });
}

fn set_status(cx: &mut Ctx<'_>, id: &str, status: ThreadStatus) -> Vec<Cmd> {
    patch(
        cx,
        Purpose::Status {
            thread: id.to_owned(),
            status: status.clone(),
        },
        PatchThread {
            status: Some(status),
            ..PatchThread::default()
        },
    )
}

fn patch(cx: &mut Ctx<'_>, purpose: Purpose, patch: PatchThread) -> Vec<Cmd> {
    let id = match &purpose {
        Purpose::Mark { thread, .. } | Purpose::Status { thread, .. } => thread.clone(),
        _ => return Vec::new(),
    };
    if in_flight(
        cx.requests,
        |p| matches!(p, Purpose::Mark { thread, .. } | Purpose::Status { thread, .. } if *thread == id),
    ) {
        return refuse(
            cx,
            "Busy",
            "a change to this thread is on its way; wait for it",
        );
    }
    cx.request(
        purpose,
        ApiRequest::PatchThread {
            id,
            patch: Box::new(patch),
        },
    );
    Vec::new()
}

/// The answer to a mark or a status change.
pub(crate) fn on_patched(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    purpose: &Purpose,
    r: Result<Thread, ApiError>,
) -> Vec<Cmd> {
    match r {
        Ok(t) => {
            let who = super::participant(&t);
            let text = match purpose {
                Purpose::Mark { unread: 0, .. } => Some(("Marked read", who)),
                Purpose::Mark { .. } => Some(("Marked unread", who)),
                Purpose::Status {
                    status: ThreadStatus::Archived,
                    ..
                } => Some((
                    "Archived",
                    format!(
                        "{who}: archived threads no longer block a new thread to this recipient"
                    ),
                )),
                Purpose::Status { .. } => Some(("Unarchived", format!("{who} is active again"))),
                _ => None,
            };
            super::arrivals::observe(
                &mut inbox.unread_seen,
                cx,
                [&t],
                super::arrivals::Seen::Quietly,
            );
            super::apply_thread(inbox, cx, t);
            if let Some((title, body)) = text {
                cx.notify(Level::Success, title, &body);
            }
        }
        Err(e) => {
            let (what, key, thread) = match purpose {
                Purpose::Mark { thread, unread: 0 } => {
                    ("changing the unread count", Action::MarkRead, thread)
                }
                Purpose::Mark { thread, .. } => {
                    ("changing the unread count", Action::MarkUnread, thread)
                }
                Purpose::Status { thread, .. } => {
                    ("changing the thread's status", Action::Archive, thread)
                }
                _ => return Vec::new(),
            };
            let thread = thread.clone();
            write_failed(cx, what, key, &e);
            if write::of_error(&e) == Outcome::MayHaveReached {
                // What is shown comes from the service, not from a guess.
                return read_thread(cx, &thread);
            }
        }
    }
    Vec::new()
}

/// A change to a thread failed: refused (nothing changed; its own key
/// tries again — the refresh key would not), or it may have reached the
/// service (not repeated; the thread is read again to show what it holds).
fn write_failed(cx: &mut Ctx<'_>, what: &str, key: Action, e: &ApiError) {
    let title = format!("{} · {what}", e.code());
    match write::of_error(e) {
        Outcome::MayHaveReached => cx.notify(
            Level::Warning,
            &title,
            &format!(
                "{} — it may have reached the service, so it was not sent again; reading the thread to show what the service holds",
                e.message()
            ),
        ),
        Outcome::Refused | Outcome::Done if again_helps(e) => cx.notify(
            Level::Error,
            &title,
            &format!(
                "{} — nothing changed; {} tries again",
                e.message(),
                cx.keymap.key_label(key)
            ),
        ),
        // A refused key, read-only mode: trying again cannot help.
        Outcome::Refused | Outcome::Done => cx.toasts.error(cx.now, what, e),
    }
}

/// Whether pressing a refused write's key again can help: the service
/// refused it (a 4xx other than a refused key) or it never left.
fn again_helps(e: &ApiError) -> bool {
    e.retryable()
        || e.status()
            .is_some_and(|s| (400..500).contains(&s) && s != 401)
}

/// Asks before deleting a draft.
fn ask_delete(inbox: &InboxModel, cx: &mut Ctx<'_>, t: &Thread) -> Vec<Cmd> {
    if let Some(b) =
        super::rules::blocked_op(inbox, cx.keymap, cx.state, t, super::rules::Op::Delete)
    {
        return refuse(cx, b.title, &b.why);
    }
    let mut lines = vec![
        format!("To: {}", super::participant(t)),
        format!(
            "Subject: {}",
            t.draft_subject
                .as_deref()
                .filter(|s| !s.is_empty())
                .unwrap_or("(none)")
        ),
        "The draft is deleted on the service; this cannot be undone.".into(),
    ];
    if cx
        .state
        .drafts
        .contains_key(&super::editor::draft_key(Some(&t.id)))
    {
        lines.push("Unsaved text kept locally for it is discarded too.".into());
    }
    cx.confirm(Confirm {
        title: "Delete this draft?".into(),
        lines,
        yes: "Delete".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Question::Delete(t.id.clone()).into()),
    });
    Vec::new()
}

/// Deletes a draft (confirmed).
pub(crate) fn delete(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| matches!(p, Purpose::Delete(t) if t == id)) {
        return Vec::new();
    }
    cx.request(
        Purpose::Delete(id.to_owned()),
        ApiRequest::DeleteThread { id: id.to_owned() },
    );
    Vec::new()
}

/// The answer to a delete: the contract's rule 9 as the user sees it.
pub(crate) fn on_deleted(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    id: &str,
    r: Result<(), ApiError>,
) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    match r {
        Ok(()) => {
            forget_thread(inbox, cx, id);
            if cx
                .state
                .drafts
                .remove(&super::editor::draft_key(Some(id)))
                .is_some()
            {
                cx.save_state();
            }
            cx.notify(
                Level::Success,
                "Draft deleted",
                "the draft is gone from the service",
            );
        }
        Err(e) if e.status() == Some(409) => {
            cx.notify(
                Level::Error,
                "conflict · not an unsent draft",
                &format!(
                    "{} — only a draft with no messages can be deleted; it was sent or has a reply. Archive it instead ({}).",
                    e.message(),
                    cx.keymap.key_label(Action::Archive)
                ),
            );
            cmds.extend(read_thread(cx, id));
        }
        Err(e) if e.is_not_found() => {
            forget_thread(inbox, cx, id);
            cx.notify(
                Level::Info,
                "Already gone",
                "the service has no such thread (deleted elsewhere?); it is removed from the list",
            );
        }
        Err(e) if write::of_error(&e) == Outcome::MayHaveReached => {
            cx.notify(
                Level::Warning,
                &format!("{} · deleting the draft", e.code()),
                &format!(
                    "{} — the delete may have reached the service, so it was not sent again: the draft may be gone already. {} refreshes the list to show whether it is.",
                    e.message(),
                    cx.keymap.key_label(Action::Refresh)
                ),
            );
        }
        Err(e) if !again_helps(&e) => cx.toasts.error(cx.now, "deleting the draft", &e),
        Err(e) => {
            let key = cx.keymap.key_label(Action::DeleteDraft);
            cx.notify(
                Level::Error,
                &format!("{} · deleting the draft", e.code()),
                &format!(
                    "{} — nothing was deleted; {key} tries again (asks first)",
                    e.message()
                ),
            );
        }
    }
    cmds
}

/// Drops a thread from the pane (deleted or missing).
fn forget_thread(inbox: &mut InboxModel, cx: &mut Ctx<'_>, id: &str) {
    super::list::remove(&mut inbox.list, cx, id);
    if inbox.open.as_ref().is_some_and(|o| o.id == id) {
        close(inbox, cx);
    }
}

/// The terminal was resized.
pub(crate) fn resize(inbox: &mut InboxModel, cx: &Ctx<'_>) {
    let vp = viewport(inbox, cx);
    if let Some(o) = inbox.open.as_mut() {
        o.messages.table.clamp(vp);
        o.filter.table.clamp(vp);
    }
}

/// Mouse on the open thread: a click selects a message, the wheel moves
/// the selection (over the table) or scrolls the body (over the reading
/// pane).
pub(crate) fn mouse(inbox: &mut InboxModel, cx: &mut Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    let areas = super::layout::thread(cx.layout().body, filtering(inbox));
    let over_reading = super::layout::contains(areas.reading, ev.column, ev.row);
    match ev.kind {
        MouseEventKind::ScrollDown if over_reading => scroll_body(inbox, cx, 1),
        MouseEventKind::ScrollUp if over_reading => scroll_body(inbox, cx, -1),
        MouseEventKind::ScrollDown => action(inbox, cx, Action::Down),
        MouseEventKind::ScrollUp => action(inbox, cx, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => {
            let Some(line) = crate::geometry::table::line_at(areas.table, ev.column, ev.row) else {
                return Vec::new();
            };
            let vp = viewport(inbox, cx);
            let Some(o) = inbox.open.as_mut() else {
                return Vec::new();
            };
            if o.filter.active() {
                if let Some(row) = o.filter.table.row_at(line) {
                    o.filter.table.select(row, vp);
                    o.scroll = 0;
                }
                return Vec::new();
            }
            let Some(row) = o.messages.table.row_at(line) else {
                return Vec::new();
            };
            o.messages.table.select(row, vp);
            o.follow = o.messages.at_end();
            o.scroll = 0;
            request_pages(inbox, cx)
        }
        _ => Vec::new(),
    }
}

/// Status-bar hints of the open thread (none while the `/` input is open:
/// its line says its keys; `keymap` and `state` as
/// [`super::rules::hints`] reads them).
pub(crate) fn hints(
    inbox: &InboxModel,
    keymap: &Keymap,
    state: &State,
) -> Vec<(Action, &'static str)> {
    let Some(o) = inbox.open.as_ref() else {
        return Vec::new();
    };
    if o.filter.needle.typing() {
        return Vec::new();
    }
    let mut out = vec![if o.filter.active() {
        (Action::Back, "clear filter")
    } else {
        (Action::Back, "back")
    }];
    let t = inbox.open.as_ref().and_then(|o| o.thread.as_ref());
    let mut off = Vec::new();
    if let Some(t) = t {
        let (on, mut not) = super::rules::hints(inbox, keymap, state, t);
        out.extend(on);
        reply_hint(inbox, keymap, t, &mut out, &mut not);
        off = not;
        if t.unread_count > 0 {
            out.push((Action::MarkRead, "mark read"));
        } else {
            out.push((Action::MarkUnread, "mark unread"));
        }
        out.push(if t.status == ThreadStatus::Archived {
            (Action::Archive, "unarchive")
        } else {
            (Action::Archive, "archive")
        });
    }
    out.push((Action::ScrollBodyDown, "scroll"));
    out.push((Action::Filter, "filter"));
    // Keys that do not apply to this thread, with why.
    out.extend(off);
    out
}

/// The reply key's hint for thread `t`: among the keys that apply, or,
/// with why, among those that do not (a draft's is left out: edit and
/// send say what to do with it).
pub(crate) fn reply_hint(
    inbox: &InboxModel,
    keymap: &Keymap,
    t: &Thread,
    on: &mut Vec<(Action, &'static str)>,
    off: &mut Vec<(Action, &'static str)>,
) {
    if t.status == ThreadStatus::Draft {
        return;
    }
    match super::reply::hint(inbox, keymap, t) {
        (label, true) => on.push((Action::ReplyThread, label)),
        (label, false) => off.push((Action::ReplyThread, label)),
    }
}
