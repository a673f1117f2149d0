//! One thread: its facts, its messages oldest first in a bounded window,
//! and what can be done to it — mark read or unread, archive or unarchive,
//! delete a draft, edit or send a draft. Opening a thread reads it without
//! changing its unread count (the contract's list-messages operation does
//! not mark it read; only `m` does).

use std::collections::BTreeSet;

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::messages::{MessageWindow, PAGE};
use super::msg_filter::{self, MessageFilter};
use super::{InboxModel, Purpose, Question, View, in_flight, refuse};
use crate::api::ApiError;
use crate::api::model::{MessagesPage, PatchThread, Thread, ThreadStatus};
use crate::app::fresh::Freshness;
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use crate::logic::write::{self, Outcome};
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
fn filtering(m: &Model) -> bool {
    m.panes
        .inbox
        .open
        .as_ref()
        .is_some_and(|o| o.filter.needle.typing())
}

/// Rows of the messages table on screen now.
pub fn viewport(m: &Model) -> usize {
    super::layout::messages_viewport(m.layout().body, filtering(m))
}

/// Opens a thread shown in the list: its facts are as fresh as the list's
/// row (the last-known list's are read at once).
pub fn open(m: &mut Model, t: Thread) -> Vec<Cmd> {
    let id = t.id.clone();
    forget_other(m, &id);
    let list = &m.panes.inbox.list;
    let cached = list.cached.is_some();
    let mut o = OpenThread::new(&id, Some(t));
    o.fresh = list.fresh.clone();
    m.panes.inbox.open = Some(o);
    m.panes.inbox.view = View::Thread;
    let mut cmds = if cached {
        read_thread(m, &id)
    } else {
        Vec::new()
    };
    cmds.extend(request_pages(m));
    cmds
}

/// Opens a thread by id (`:open thread <id>`): reads it first.
pub fn open_by_id(m: &mut Model, id: &str) -> Vec<Cmd> {
    if id.is_empty() {
        return refuse(m, "open thread", "usage: :open thread <id>");
    }
    forget_other(m, id);
    let known = m.panes.inbox.list.find(id).cloned();
    m.panes.inbox.open = Some(OpenThread::new(id, known));
    m.panes.inbox.view = View::Thread;
    let mut cmds = read_thread(m, id);
    cmds.extend(request_pages(m));
    cmds
}

/// Forgets the reads of another thread than `id` (the user moved on).
fn forget_other(m: &mut Model, id: &str) {
    m.requests.forget::<InboxModel>(|p| match p {
        Purpose::Messages { thread, .. } | Purpose::Thread(thread) => thread != id,
        _ => false,
    });
}

/// Back to the list.
pub fn close(m: &mut Model) {
    m.requests
        .forget::<InboxModel>(|p| matches!(p, Purpose::Messages { .. } | Purpose::Thread(_)));
    m.panes.inbox.open = None;
    m.panes.inbox.view = View::List;
}

/// Reads a thread (once at a time).
pub fn read_thread(m: &mut Model, id: &str) -> Vec<Cmd> {
    if in_flight(m, |p| matches!(p, Purpose::Thread(t) if t == id)) {
        return Vec::new();
    }
    m.request(
        Purpose::Thread(id.to_owned()),
        ApiRequest::GetThread { id: id.to_owned() },
    );
    Vec::new()
}

fn read_page(m: &mut Model, id: &str, page: usize) -> Vec<Cmd> {
    if in_flight(
        m,
        |p| matches!(p, Purpose::Messages { thread, page: q } if thread == id && *q == page),
    ) {
        return Vec::new();
    }
    m.request(
        Purpose::Messages {
            thread: id.to_owned(),
            page,
        },
        ApiRequest::ListMessages {
            id: id.to_owned(),
            page: Some(u64::try_from(page).unwrap_or(u64::MAX).saturating_add(1)),
            limit: Some(u64::try_from(PAGE).unwrap_or(200)),
        },
    );
    Vec::new()
}

/// Asks for the pages the view needs that are neither held nor on their
/// way (a few at a time).
pub fn request_pages(m: &mut Model) -> Vec<Cmd> {
    let vp = viewport(m);
    let Some(o) = m.panes.inbox.open.as_ref() else {
        return Vec::new();
    };
    let id = o.id.clone();
    let pending: BTreeSet<usize> = m
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
        cmds.extend(read_page(m, &id, page));
    }
    cmds
}

/// Reads the open thread again (entering the pane, `r`).
pub fn refresh(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.inbox.open.as_ref() else {
        m.panes.inbox.view = View::List;
        return super::list::enter(m);
    };
    let id = o.id.clone();
    let last = o.messages.total.map(|_| o.messages.last_page());
    let mut cmds = read_thread(m, &id);
    match last {
        Some(p) => cmds.extend(read_page(m, &id, p)),
        None => cmds.extend(request_pages(m)),
    }
    cmds
}

/// The live refresh: the thread (its unread count) and its last page (new
/// replies).
pub fn poll(m: &mut Model) -> Vec<Cmd> {
    if m.panes
        .inbox
        .open
        .as_ref()
        .is_some_and(|o| o.messages.total.is_some())
    {
        refresh(m)
    } else {
        Vec::new()
    }
}

/// A thread answer (`GET`).
pub fn on_thread(m: &mut Model, id: &str, r: Result<Thread, ApiError>) -> Vec<Cmd> {
    match r {
        Ok(t) => {
            if let Some(o) = m.panes.inbox.open.as_mut()
                && o.id == id
            {
                o.error = None;
                o.fresh.ok(m.clock);
            }
            super::arrivals::observe(m, [&t], super::arrivals::Seen::Live);
            super::apply_thread(m, t.clone());
            return super::send::thread_seen(m, &t);
        }
        Err(e) if e.is_not_found() => {
            super::list::remove(m, id);
            if m.panes.inbox.open.as_ref().is_some_and(|o| o.id == id) {
                close(m);
            }
            m.toasts.error(m.now, "no such thread", &e);
        }
        Err(e) => {
            if let Some(o) = m.panes.inbox.open.as_mut()
                && o.id == id
            {
                o.error = Some(e.clone());
                // What is shown stays, marked stale.
                o.fresh.fail_at(m.clock, super::error_text(&e), &e);
            }
            // While a lost send is checked, its line says what the reads
            // saw; a notice per failed read would bury it.
            let checking = m
                .panes
                .inbox
                .checks
                .get(id)
                .is_some_and(|c| c.stage() == super::send::Stage::Checking);
            if !checking {
                m.toasts.error(m.now, "reading the thread", &e);
            }
        }
    }
    Vec::new()
}

/// A page of messages.
pub fn on_messages(
    m: &mut Model,
    id: &str,
    page: usize,
    r: Result<MessagesPage, ApiError>,
) -> Vec<Cmd> {
    let vp = viewport(m);
    let Some(o) = m.panes.inbox.open.as_mut().filter(|o| o.id == id) else {
        return Vec::new();
    };
    match r {
        Ok(p) => {
            let before = o.messages.table.selected;
            take_messages(o, page, p.messages, p.total, vp);
            o.messages_fresh.ok(m.clock);
            if page == o.messages.last_page()
                && let Some(newest) = o.messages.pages.get(&page).and_then(|r| r.last())
                && !newest.subject.trim().is_empty()
            {
                let subject = newest.subject.clone();
                m.panes.inbox.subjects.insert(id.to_owned(), subject);
            }
            if o.messages.table.selected != before {
                o.scroll = 0;
            }
            if o.filter.active() {
                o.filter.refilter(&o.messages, vp);
            }
            request_pages(m)
        }
        Err(e) => {
            o.messages.failed(&e);
            // What is shown stays, marked stale.
            o.messages_fresh.fail_at(m.clock, super::error_text(&e), &e);
            m.toasts.error(m.now, "reading messages", &e);
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
pub fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = viewport(m);
    let Some(o) = m.panes.inbox.open.as_mut() else {
        m.panes.inbox.view = View::List;
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
            return other_action(m, &id, action);
        }
    }
    o.scroll = 0;
    if filtered {
        return Vec::new();
    }
    o.follow = o.messages.at_end();
    o.messages.evict(vp);
    request_pages(m)
}

fn other_action(m: &mut Model, id: &str, action: Action) -> Vec<Cmd> {
    match action {
        Action::Back
            if m.panes
                .inbox
                .open
                .as_ref()
                .is_some_and(|o| o.filter.active()) =>
        {
            msg_filter::clear(m);
            Vec::new()
        }
        Action::Back => {
            close(m);
            super::list::want_more(m)
        }
        Action::Filter => msg_filter::open(m),
        Action::ScrollBodyDown => scroll_body(m, 1),
        Action::ScrollBodyUp => scroll_body(m, -1),
        Action::Refresh => refresh(m),
        Action::Compose => super::editor::compose(m, None),
        Action::EditDraft
        | Action::SendDraft
        | Action::EditorSend
        | Action::MarkRead
        | Action::MarkUnread
        | Action::Archive
        | Action::DeleteDraft => thread_action(m, id, action),
        _ => Vec::new(),
    }
}

/// An action on one thread (from the list or the open thread).
pub fn thread_action(m: &mut Model, id: &str, action: Action) -> Vec<Cmd> {
    let Some(t) = m.panes.inbox.thread(id).cloned() else {
        return refuse(m, "Not loaded", "the thread is still loading; try again");
    };
    match action {
        Action::EditDraft => super::editor::edit(m, &t),
        Action::SendDraft | Action::EditorSend => super::send::ask(m, id),
        Action::MarkRead => mark(m, &t, 0),
        Action::MarkUnread => mark(m, &t, 1),
        Action::Archive => toggle_archive(m, &t),
        Action::DeleteDraft => ask_delete(m, &t),
        _ => Vec::new(),
    }
}

/// The lines of the selected message's body at the reading pane's width.
pub fn body_lines(m: &Model) -> Vec<String> {
    let (w, _) = super::layout::reading_size(m.layout().body);
    let Some(o) = m.panes.inbox.open.as_ref() else {
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

fn scroll_body(m: &mut Model, pages: i32) -> Vec<Cmd> {
    let (_, h) = super::layout::reading_size(m.layout().body);
    let lines = u16::try_from(body_lines(m).len()).unwrap_or(u16::MAX);
    let max = lines.saturating_sub(h);
    let step = h.saturating_sub(1).max(1);
    if let Some(o) = m.panes.inbox.open.as_mut() {
        o.scroll = if pages > 0 {
            o.scroll.saturating_add(step).min(max)
        } else {
            o.scroll.saturating_sub(step)
        };
    }
    Vec::new()
}

/// Sets the unread count (`m`: 0, `u`: 1).
pub fn mark(m: &mut Model, t: &Thread, unread: u64) -> Vec<Cmd> {
    if unread == 0 && t.unread_count == 0 {
        return refuse(m, "Already read", "the thread has no unread messages");
    }
    if unread > 0 && t.unread_count > 0 {
        return refuse(
            m,
            "Already unread",
            "the thread already counts unread messages",
        );
    }
    patch(
        m,
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
pub fn toggle_archive(m: &mut Model, t: &Thread) -> Vec<Cmd> {
    match t.status {
        ThreadStatus::Archived => set_status(m, &t.id, ThreadStatus::Active),
        ThreadStatus::Draft => {
            ask_archive(m, t);
            Vec::new()
        }
        _ => set_status(m, &t.id, ThreadStatus::Archived),
    }
}

/// Archives a draft (confirmed).
pub fn archive(m: &mut Model, id: &str) -> Vec<Cmd> {
    set_status(m, id, ThreadStatus::Archived)
}

/// Asks before archiving a draft, saying what it costs.
fn ask_archive(m: &mut Model, t: &Thread) {
    let subject = t
        .draft_subject
        .as_deref()
        .filter(|s| !s.is_empty())
        .unwrap_or("(no subject)");
    m.confirm(Confirm {
        title: "Archive this draft?".into(),
        lines: vec![
            format!("To: {} · draft \"{subject}\"", super::participant(t)),
            "Archived, it no longer blocks a new thread to this recipient: archived threads are ignored by the duplicate check.".into(),
            "It cannot come back as a draft: unarchiving makes it active, and an active thread's draft can no longer be edited, sent or deleted.".into(),
            format!(
                "To drop an unsent draft, delete it instead ({}).",
                m.keymap.key_label(Action::DeleteDraft)
            ),
        ],
        yes: "Archive".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Question::ArchiveDraft(t.id.clone()).into()),
    });
}

fn set_status(m: &mut Model, id: &str, status: ThreadStatus) -> Vec<Cmd> {
    patch(
        m,
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

fn patch(m: &mut Model, purpose: Purpose, patch: PatchThread) -> Vec<Cmd> {
    let id = match &purpose {
        Purpose::Mark { thread, .. } | Purpose::Status { thread, .. } => thread.clone(),
        _ => return Vec::new(),
    };
    if in_flight(
        m,
        |p| matches!(p, Purpose::Mark { thread, .. } | Purpose::Status { thread, .. } if *thread == id),
    ) {
        return refuse(
            m,
            "Busy",
            "a change to this thread is on its way; wait for it",
        );
    }
    m.request(
        purpose,
        ApiRequest::PatchThread {
            id,
            patch: Box::new(patch),
        },
    );
    Vec::new()
}

/// The answer to a mark or a status change.
pub fn on_patched(m: &mut Model, purpose: &Purpose, r: Result<Thread, ApiError>) -> Vec<Cmd> {
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
            super::arrivals::observe(m, [&t], super::arrivals::Seen::Quietly);
            super::apply_thread(m, t);
            if let Some((title, body)) = text {
                m.notify(Level::Success, title, &body);
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
            write_failed(m, what, key, &e);
            if write::of_error(&e) == Outcome::MayHaveReached {
                // What is shown comes from the service, not from a guess.
                return read_thread(m, &thread);
            }
        }
    }
    Vec::new()
}

/// A change to a thread failed: refused (nothing changed; its own key
/// tries again — the refresh key would not), or it may have reached the
/// service (not repeated; the thread is read again to show what it holds).
fn write_failed(m: &mut Model, what: &str, key: Action, e: &ApiError) {
    let title = format!("{} · {what}", e.code());
    match write::of_error(e) {
        Outcome::MayHaveReached => m.notify(
            Level::Warning,
            &title,
            &format!(
                "{} — it may have reached the service, so it was not sent again; reading the thread to show what the service holds",
                e.message()
            ),
        ),
        Outcome::Refused | Outcome::Done if again_helps(e) => m.notify(
            Level::Error,
            &title,
            &format!(
                "{} — nothing changed; {} tries again",
                e.message(),
                m.keymap.key_label(key)
            ),
        ),
        // A refused key, read-only mode: trying again cannot help.
        Outcome::Refused | Outcome::Done => m.toasts.error(m.now, what, e),
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
fn ask_delete(m: &mut Model, t: &Thread) -> Vec<Cmd> {
    if let Some(b) = super::rules::blocked_op(m, t, super::rules::Op::Delete) {
        return refuse(m, b.title, &b.why);
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
    if m.state
        .drafts
        .contains_key(&super::editor::draft_key(Some(&t.id)))
    {
        lines.push("Unsaved text kept locally for it is discarded too.".into());
    }
    m.confirm(Confirm {
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
pub fn delete(m: &mut Model, id: &str) -> Vec<Cmd> {
    if in_flight(m, |p| matches!(p, Purpose::Delete(t) if t == id)) {
        return Vec::new();
    }
    m.request(
        Purpose::Delete(id.to_owned()),
        ApiRequest::DeleteThread { id: id.to_owned() },
    );
    Vec::new()
}

/// The answer to a delete: the contract's rule 9 as the user sees it.
pub fn on_deleted(m: &mut Model, id: &str, r: Result<(), ApiError>) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    match r {
        Ok(()) => {
            forget_thread(m, id);
            if m.state
                .drafts
                .remove(&super::editor::draft_key(Some(id)))
                .is_some()
            {
                cmds.push(m.save_state());
            }
            m.notify(
                Level::Success,
                "Draft deleted",
                "the draft is gone from the service",
            );
        }
        Err(e) if e.status() == Some(409) => {
            m.notify(
                Level::Error,
                "conflict · not an unsent draft",
                &format!(
                    "{} — only a draft with no messages can be deleted; it was sent or has a reply. Archive it instead ({}).",
                    e.message(),
                    m.keymap.key_label(Action::Archive)
                ),
            );
            cmds.extend(read_thread(m, id));
        }
        Err(e) if e.is_not_found() => {
            forget_thread(m, id);
            m.notify(
                Level::Info,
                "Already gone",
                "the service has no such thread (deleted elsewhere?); it is removed from the list",
            );
        }
        Err(e) if write::of_error(&e) == Outcome::MayHaveReached => {
            m.notify(
                Level::Warning,
                &format!("{} · deleting the draft", e.code()),
                &format!(
                    "{} — the delete may have reached the service, so it was not sent again: the draft may be gone already. {} refreshes the list to show whether it is.",
                    e.message(),
                    m.keymap.key_label(Action::Refresh)
                ),
            );
        }
        Err(e) if !again_helps(&e) => m.toasts.error(m.now, "deleting the draft", &e),
        Err(e) => {
            let key = m.keymap.key_label(Action::DeleteDraft);
            m.notify(
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
fn forget_thread(m: &mut Model, id: &str) {
    super::list::remove(m, id);
    if m.panes.inbox.open.as_ref().is_some_and(|o| o.id == id) {
        close(m);
    }
}

/// The terminal was resized.
pub fn resize(m: &mut Model) {
    let vp = viewport(m);
    if let Some(o) = m.panes.inbox.open.as_mut() {
        o.messages.table.clamp(vp);
        o.filter.table.clamp(vp);
    }
}

/// Mouse on the open thread: a click selects a message, the wheel moves
/// the selection (over the table) or scrolls the body (over the reading
/// pane).
pub fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
    let areas = super::layout::thread(m.layout().body, filtering(m));
    let over_reading = super::layout::contains(areas.reading, ev.column, ev.row);
    match ev.kind {
        MouseEventKind::ScrollDown if over_reading => scroll_body(m, 1),
        MouseEventKind::ScrollUp if over_reading => scroll_body(m, -1),
        MouseEventKind::ScrollDown => action(m, Action::Down),
        MouseEventKind::ScrollUp => action(m, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => {
            let Some(line) = crate::geometry::table::line_at(areas.table, ev.column, ev.row) else {
                return Vec::new();
            };
            let vp = viewport(m);
            let Some(o) = m.panes.inbox.open.as_mut() else {
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
            request_pages(m)
        }
        _ => Vec::new(),
    }
}

/// Status-bar hints of the open thread (none while the `/` input is open:
/// its line says its keys).
pub fn hints(m: &Model) -> Vec<(Action, &'static str)> {
    let Some(o) = m.panes.inbox.open.as_ref() else {
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
    let t = m.panes.inbox.open.as_ref().and_then(|o| o.thread.as_ref());
    let mut off = Vec::new();
    if let Some(t) = t {
        let (on, not) = super::rules::hints(m, t);
        off = not;
        out.extend(on);
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
