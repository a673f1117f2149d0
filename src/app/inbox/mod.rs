//! The Inbox pane: one-off email threads. A list of threads (status and
//! text filters, paging, live refresh), a thread's messages in a bounded
//! window, and an editor for drafts with a body in ratatui-textarea.
//!
//! Two promises shape it. **No text is lost**: every change in the editor
//! is kept in the local state (one second after the last keystroke, and on
//! quit, SIGHUP or SIGTERM) until the service acknowledged exactly that
//! text, and reopening that email's editor offers it back. **A send never
//! doubles**: a send is one request, never retried; when its answer is lost
//! (a timeout, a dropped connection, an unreadable 2xx) the pane re-reads
//! the thread's messages to learn whether it went, and says which.
//!
//! Only the [`PaneUnit`] functions at the bottom see the whole model; they
//! split it ([`Model::split`]) and hand the rest of the pane the pane's
//! state (`inbox`, or the part a function touches) and a [`Ctx`]
//! (requests, notices, questions, drafts, keymap, clock). What only reads
//! takes the few values it reads (the keymap, the local state, the body
//! area), so the status bar and the view can call it too.

pub(crate) mod address;
pub(crate) mod arrivals;
pub(crate) mod editor;
pub(crate) mod html;
pub(crate) mod kept;
pub(crate) mod keymap;
pub(crate) mod lasts;
pub(crate) mod layout;
pub(crate) mod list;
pub(crate) mod messages;
pub(crate) mod msg_filter;
pub(crate) mod reply;
pub(crate) mod rules;
pub(crate) mod send;
#[cfg(test)]
mod tests;
pub(crate) mod thread;

use std::collections::BTreeMap;
use std::time::Duration;

use crossterm::event::{KeyEvent, MouseEvent};

use super::command_line::{Arg, CommandSpec};
use super::ctx::Ctx;
use super::ids::{self, IdShown, Target};
use super::pane::{Answer, PaneSpec, PaneUnit};
use super::requests::Requests;
use super::toast::Level;
use super::{Cmd, Model, Pane, Reply, RequestId};
use crate::api::ApiError;
use crate::api::model::{Channel, SenderAccount, Thread, ThreadStatus};
use crate::app::fresh::Freshness;
use crate::app::keymap::{Action, Keymap, Scope};
use crate::logic::resolve::Item;
use crate::store::State;
use crate::text::sanitize;

pub(crate) use editor::{DraftFields, Editor};
pub(crate) use list::{StatusFilter, ThreadList};
pub(crate) use send::SendCheck;
pub(crate) use thread::OpenThread;

/// Which screen of the Inbox is up: the thread list, a thread, the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The threads.
    #[default]
    List,
    /// One thread with its messages.
    Thread,
    /// The editor of a draft (new or existing).
    Editor,
}

/// The workspace's senders: the editor offers the ready email senders and
/// says why the others are unavailable.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Senders {
    /// Every sender (both types).
    pub items: Vec<SenderAccount>,
    /// An answer arrived.
    pub loaded: bool,
    /// Why the last read of the senders failed, as shown (cleared by an answer).
    pub error: Option<String>,
}

impl Senders {
    /// The sender with `id`.
    pub fn find(&self, id: &str) -> Option<&SenderAccount> {
        self.items.iter().find(|s| s.id == id)
    }

    /// `Name <address>` of a sender id, or the id when unknown.
    pub fn label(&self, id: &str) -> String {
        self.find(id).map_or_else(|| id.to_owned(), sender_label)
    }

    /// The email senders, ready ones first (default first among them).
    pub fn email(&self) -> Vec<&SenderAccount> {
        let mut v: Vec<&SenderAccount> = self
            .items
            .iter()
            .filter(|s| s.kind == Channel::Email)
            .collect();
        v.sort_by_key(|s| (readiness(s).is_err(), !s.is_default_sender));
        v
    }
}

/// `Name <address>` of a sender.
pub(crate) fn sender_label(s: &SenderAccount) -> String {
    let name = if s.display_name.trim().is_empty() {
        format!("{} {}", s.first_name, s.last_name)
            .trim()
            .to_owned()
    } else {
        s.display_name.trim().to_owned()
    };
    match (name.is_empty(), s.email_address.is_empty()) {
        (true, true) => s.id.clone(),
        (true, false) => s.email_address.clone(),
        (false, true) => name,
        (false, false) => format!("{name} <{}>", s.email_address),
    }
}

/// Sender statuses that mean "ready to send". The contract does not list
/// the values; the demo service uses `connected`.
const READY_STATUSES: &[&str] = &["connected", "active", "ready"];

/// Whether an email sender can send now; `Err` says why not.
pub(crate) fn readiness(s: &SenderAccount) -> Result<(), String> {
    if s.kind != Channel::Email {
        return Err("not an email sender".into());
    }
    if s.email_address.trim().is_empty() {
        return Err("it has no sending address".into());
    }
    let status = s.status.trim().to_ascii_lowercase();
    if READY_STATUSES.contains(&status.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "it is {}: reconnect it in the web dashboard",
            sanitize::inline(if status.is_empty() {
                "not connected"
            } else {
                s.status.trim()
            })
        ))
    }
}

/// Why the Inbox sent a request; its reply is matched against it when it arrives.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// A page of the thread list.
    List {
        /// The status filter it was asked with.
        status: StatusFilter,
        /// The 1-based page.
        page: u64,
        /// How the answer is taken.
        mode: list::Mode,
    },
    /// One thread (`:open thread`, refresh, checking a send).
    Thread(String),
    /// A page of a thread's messages (0-based page of 200).
    Messages {
        /// The id of the thread whose messages were read.
        thread: String,
        /// 0-based page index.
        page: usize,
    },
    /// The sender accounts a draft can be sent from.
    Senders,
    /// Creating a draft (POST) with these fields, from editor `editor`.
    Create {
        /// The editor that saved (its session number).
        editor: u64,
        /// What the editor held.
        sent: Box<DraftFields>,
    },
    /// Saving a draft (PATCH) with these fields (the whole editor content
    /// at the time; only the changed fields were sent).
    Save {
        /// The id of the thread whose draft was saved.
        thread: String,
        /// What the editor held when it was saved.
        sent: Box<DraftFields>,
    },
    /// Setting the unread count.
    Mark {
        /// The id of the thread marked read or unread.
        thread: String,
        /// The count asked for.
        unread: u64,
    },
    /// Archiving or unarchiving.
    Status {
        /// The id of the thread archived or unarchived.
        thread: String,
        /// The status asked for.
        status: ThreadStatus,
    },
    /// Deleting a draft.
    Delete(String),
    /// Sending a draft.
    Send(String),
    /// Reading the drafts after a create whose answer was lost, to find
    /// the draft it may have made.
    Adopt {
        /// The editor that saved (its session number).
        editor: u64,
        /// What the editor held.
        sent: Box<DraftFields>,
    },
    /// The newest message of a thread the list shows (its subject, and
    /// whether it awaits a reply).
    Last {
        /// The thread.
        thread: String,
        /// The 1-based page read.
        page: u64,
        /// Its size.
        limit: u64,
        /// The list's row when it was asked for.
        row: Box<lasts::RowKey>,
    },
    /// A thread's newest messages, read for a reply on the list (the
    /// editor opens on the last inbound one).
    ReplyRead {
        /// The thread.
        thread: String,
        /// The 1-based page read (the first read learns the total).
        page: u64,
    },
    /// Re-reading a thread's messages after a send whose answer was lost.
    Verify {
        /// The id of the thread the lost send went to.
        thread: String,
        /// The 1-based page read (the first read learns the total).
        page: u64,
    },
}

/// The pane's timers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InboxSub {
    /// Live refresh of what is shown (list or open thread).
    Poll,
    /// Keep the editor's text in the local state; the number is the edit
    /// count, so every edit restarts the one-second timer (a debounce).
    KeepDraft(u64),
    /// Keep the editor's text however fast the typing goes on: three
    /// seconds after the first edit not kept yet. Named by the editor's
    /// session and the edit count last kept, which typing leaves alone, so
    /// edits do not restart it.
    KeepDraftBound(u64, u64),
    /// Check again whether a send whose answer was lost arrived (thread,
    /// reads so far).
    SendCheck(String, u32),
    /// Read the drafts again to learn whether a create whose answer was
    /// lost made one (editor session, reads so far).
    CreateCheck(u64, u32),
    /// Read the newest messages of the visible threads the list wants, a
    /// few at a time.
    ReadLasts,
}

/// What a yes/no question of the Inbox asks; its answer arrives tagged with it.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    /// Restore unsent text kept for this editor (its draft key)?
    RestoreDraft(String),
    /// Send this thread's draft? (`again`: a send whose answer was lost did
    /// not arrive.)
    Send {
        /// The id of the thread whose draft would be sent.
        thread: String,
    },
    /// Send this reply (exactly these fields)?
    Reply(Box<editor::reply::ReplySend>),
    /// Delete this draft?
    Delete(String),
    /// Archive this draft (it cannot come back as a draft)?
    ArchiveDraft(String),
    /// The service named an existing thread with this sender and
    /// recipient: open it instead?
    OpenExisting(Box<Thread>),
    /// The editor has unsaved changes: save before closing?
    CloseEditor,
    /// A create whose answer was lost was not found (or could not be
    /// checked): create it again, then do this?
    CreateAgain(editor::After),
}

/// The Inbox pane's own state: threads, the open thread, the editor and sends.
#[derive(Debug, Default)]
pub struct InboxModel {
    /// The screen shown: the thread list, the open thread or the editor.
    pub view: View,
    /// The threads.
    pub list: ThreadList,
    /// The open thread.
    pub open: Option<OpenThread>,
    /// The editor (kept while another pane is shown).
    pub editor: Option<Editor>,
    /// Senders, for the editor and for names.
    pub senders: Senders,
    /// Sends in flight or whose answer was lost, by thread id.
    pub checks: BTreeMap<String, SendCheck>,
    /// The newest message of each thread read (the list shows its subject
    /// where a thread has no draft subject, and marks the threads awaiting
    /// a reply).
    pub lasts: lasts::Lasts,
    /// Editors opened so far: each gets the next number, so an answer to
    /// an editor that was closed never lands in a later one.
    pub editors: u64,
    /// Each thread's unread count as last read (a live refresh that finds
    /// it risen announces the reply).
    pub unread_seen: BTreeMap<String, u64>,
    /// The sends the state file kept (still being checked when Outpost
    /// closed) were taken back; until then a save leaves them as they are.
    pub restored: bool,
}

impl InboxModel {
    /// The freshness of the view shown: the list's, or the open
    /// thread's (`None`: the editor, which shows no read values).
    pub fn shown_fresh(&self) -> Option<&Freshness> {
        match self.view {
            View::List => Some(&self.list.fresh),
            View::Thread => self.open.as_ref().map(OpenThread::shown_fresh),
            View::Editor => None,
        }
    }

    /// A thread known to the pane (the open one first, then the list).
    pub fn thread(&self, id: &str) -> Option<&Thread> {
        self.open
            .as_ref()
            .filter(|o| o.id == id)
            .and_then(|o| o.thread.as_ref())
            .or_else(|| self.list.find(id))
            .or_else(|| {
                // A draft the list's status filter hides, saved from the
                // editor.
                self.editor
                    .as_ref()
                    .and_then(|e| e.service.as_ref())
                    .filter(|t| t.id == id)
            })
    }
}

/// Whether a request of this pane passing `f` is in flight.
pub(crate) fn in_flight(requests: &Requests, f: impl Fn(&Purpose) -> bool) -> bool {
    requests.pending::<InboxModel>(f)
}

/// `code: message` of an error.
pub(crate) fn error_text(e: &ApiError) -> String {
    format!("{}: {}", e.code(), e.message())
}

/// The participant of a thread: `Name <address>`, the address, or a dash.
pub(crate) fn participant(t: &Thread) -> String {
    let name = t.participant_name.as_deref().unwrap_or("").trim();
    let email = t.participant_email.trim();
    match (name.is_empty(), email.is_empty()) {
        (true, true) => "(no recipient yet)".into(),
        (false, true) => format!("{name} (no address yet)"),
        (true, false) => email.to_owned(),
        (false, false) => format!("{name} <{email}>"),
    }
}

/// Puts a thread the service answered with everywhere it is shown.
pub(crate) fn apply_thread(inbox: &mut InboxModel, cx: &Ctx<'_>, t: Thread) {
    if let Some(o) = inbox.open.as_mut()
        && o.id == t.id
    {
        o.thread = Some(t.clone());
    }
    if let Some(e) = inbox.editor.as_mut()
        && e.thread.as_deref() == Some(t.id.as_str())
    {
        e.service = Some(t.clone());
    }
    list::update_row(&mut inbox.list, cx, t);
}

/// Loads the senders once (or again with `force`).
fn load_senders(inbox: &InboxModel, cx: &mut Ctx<'_>, force: bool) -> Vec<Cmd> {
    if (inbox.senders.loaded && !force) || in_flight(cx.requests, |p| *p == Purpose::Senders) {
        return Vec::new();
    }
    cx.request(Purpose::Senders, super::ApiRequest::ListSenders);
    Vec::new()
}

fn on_senders(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    r: Result<Vec<SenderAccount>, ApiError>,
) -> Vec<Cmd> {
    match r {
        Ok(items) => {
            inbox.senders = Senders {
                items,
                loaded: true,
                error: None,
            };
            editor::senders_arrived(inbox);
        }
        Err(e) => {
            inbox.senders.error = Some(error_text(&e));
            cx.toasts.error(cx.now, "loading senders", &e);
        }
    }
    Vec::new()
}

/// The pane became visible.
fn on_enter(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    kept::restore(inbox, cx);
    let mut cmds = load_senders(inbox, cx, false);
    match inbox.view {
        View::List => cmds.extend(list::enter(inbox, cx)),
        View::Thread => cmds.extend(thread::refresh(inbox, cx)),
        View::Editor => {}
    }
    cmds
}

/// A key action in the Inbox: the editor or question takes it first, then the view.
fn on_action(inbox: &mut InboxModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    match inbox.view {
        View::List => list::action(inbox, cx, action),
        View::Thread => thread::action(inbox, cx, action),
        // The editor takes its keys through `text_key`; an action that
        // reaches here came from the command line (`:refresh`).
        View::Editor => Vec::new(),
    }
}

/// A reply for this pane.
fn on_reply(inbox: &mut InboxModel, cx: &mut Ctx<'_>, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
    let Reply::Api(reply) = reply else {
        return Vec::new();
    };
    match purpose {
        Purpose::List { status, page, mode } => {
            reply.answer(|r| list::on_page(inbox, cx, status, page, mode, r))
        }
        Purpose::Thread(t) => reply.answer(|r| thread::on_thread(inbox, cx, &t, r)),
        Purpose::Messages { thread, page } => {
            reply.answer(|r| thread::on_messages(inbox, cx, &thread, page, r))
        }
        Purpose::Senders => reply.answer(|r| on_senders(inbox, cx, r)),
        Purpose::Create { editor, sent } => {
            reply.answer(|r| editor::on_created(inbox, cx, editor, *sent, r))
        }
        Purpose::Save { thread, sent } => {
            reply.answer(|r| editor::on_saved(inbox, cx, &thread, *sent, r))
        }
        p @ (Purpose::Mark { .. } | Purpose::Status { .. }) => {
            reply.answer(|r| thread::on_patched(inbox, cx, &p, r))
        }
        Purpose::Adopt { editor, sent } => {
            reply.answer(|r| editor::on_adopt(inbox, cx, editor, *sent, r))
        }
        Purpose::Delete(t) => reply.answer(|r| thread::on_deleted(inbox, cx, &t, r)),
        Purpose::Send(t) => reply.answer(|r| send::on_sent(inbox, cx, &t, r)),
        Purpose::Verify { thread, page } => {
            reply.answer(|r| send::on_verify(inbox, cx, &thread, page, r))
        }
        Purpose::Last {
            thread,
            page,
            limit,
            row,
        } => reply.answer(|r| lasts::on_read(inbox, &thread, page, limit, *row, r)),
        Purpose::ReplyRead { thread, page } => {
            reply.answer(|r| self::reply::on_read(inbox, cx, &thread, page, r))
        }
    }
}

/// A question was answered.
fn on_answer(inbox: &mut InboxModel, cx: &mut Ctx<'_>, q: Question, answer: Answer) -> Vec<Cmd> {
    match q {
        Question::RestoreDraft(key) => editor::answer_restore(inbox, cx, &key, answer),
        Question::Send { thread } if answer == Answer::Yes => send::send(inbox, cx, &thread),
        Question::Reply(r) if answer == Answer::Yes => send::send_reply(inbox, cx, *r),
        Question::Delete(thread) if answer == Answer::Yes => thread::delete(cx, &thread),
        Question::ArchiveDraft(thread) if answer == Answer::Yes => thread::archive(cx, &thread),
        Question::OpenExisting(t) if answer == Answer::Yes => editor::open_existing(inbox, cx, *t),
        Question::CloseEditor => editor::answer_close(inbox, cx, answer),
        Question::CreateAgain(after) if answer == Answer::Yes => {
            editor::create_again(inbox, cx, after)
        }
        _ => Vec::new(),
    }
}

/// A timer fired.
fn on_sub(inbox: &mut InboxModel, cx: &mut Ctx<'_>, sub: InboxSub) -> Vec<Cmd> {
    match sub {
        InboxSub::Poll => match inbox.view {
            View::List => list::poll(inbox, cx),
            View::Thread => thread::poll(inbox, cx),
            View::Editor => Vec::new(),
        },
        InboxSub::KeepDraft(edits) => editor::keep_draft(inbox, cx, edits),
        InboxSub::KeepDraftBound(session, kept) => {
            editor::keep_draft_bound(inbox, cx, session, kept)
        }
        InboxSub::SendCheck(thread, reads) => send::check_again(inbox, cx, &thread, reads),
        InboxSub::CreateCheck(session, reads) => {
            editor::check_created_again(inbox, cx, session, reads)
        }
        InboxSub::ReadLasts => lasts::read(inbox, cx),
    }
}

impl InboxModel {
    /// The timers the pane wants now (`list_rows`: rows of the list on
    /// screen, when the pane is shown).
    fn subscriptions(&self, list_rows: Option<usize>, subs: &mut Vec<(InboxSub, Duration)>) {
        if list_rows.is_some_and(|vp| lasts::due(self, vp)) {
            subs.push((InboxSub::ReadLasts, lasts::EVERY));
        }
        if let Some(e) = &self.editor {
            if e.edits != e.kept {
                subs.push((InboxSub::KeepDraft(e.edits), editor::KEEP_AFTER));
                subs.push((
                    InboxSub::KeepDraftBound(e.session, e.kept),
                    editor::KEEP_WITHIN,
                ));
            }
            if let Some(c) = &e.created_check
                && let Some(after) = c.check.next_in()
            {
                subs.push((InboxSub::CreateCheck(e.session, c.reads()), after));
            }
        }
        for (thread, check) in &self.checks {
            if let Some(after) = check.next_in() {
                subs.push((InboxSub::SendCheck(thread.clone(), check.reads()), after));
            }
        }
        // The live refresh of what is shown, at the period its freshness
        // says (slower after failures by the one backoff rule, none for a
        // refused key), so "live" and "retrying in N s" are what really
        // happens.
        if let Some(every) = self.shown_fresh().and_then(Freshness::next_poll) {
            subs.push((InboxSub::Poll, every));
        }
    }

    /// Tells the list's and the open thread's freshness whether the live
    /// refresh reads them again (the pane's `sync_fresh`, after every
    /// message): each view's values are read every `every` while the pane
    /// is `shown` with that view; [`InboxModel::subscriptions`] polls by
    /// what they then say.
    fn sync_fresh(&mut self, shown: bool, every: Duration) {
        let polled = |view: View| (shown && self.view == view).then_some(every);
        let list = polled(View::List);
        let thread = polled(View::Thread);
        self.list.fresh.schedule(list);
        if let Some(o) = self.open.as_mut() {
            o.fresh.schedule(thread);
            o.messages_fresh.schedule(thread);
        }
    }

    /// The sends (and the new draft's create) still being checked, said
    /// for the quit question.
    fn checking(&self) -> Vec<String> {
        let mut all: Vec<String> = self
            .checks
            .iter()
            .filter(|(_, c)| !matches!(c.stage(), send::Stage::Settled(_)))
            .map(|(id, _)| {
                let to = self.thread(id).map_or_else(|| id.clone(), participant);
                format!("the send to {to}")
            })
            .collect();
        if self
            .editor
            .as_ref()
            .and_then(|e| e.created_check.as_ref())
            .is_some_and(|c| !c.check.settled())
        {
            all.push("the new draft's create".to_owned());
        }
        all
    }

    /// Whether the editor is open and shown (it takes every key).
    fn modal(&self) -> bool {
        self.view == View::Editor && self.editor.is_some()
    }

    /// Whether "retrying in N s" counts down in the view shown at `clock`
    /// (the one-second tick redraws it).
    fn countdown_visible(&self, clock: i64) -> bool {
        self.shown_fresh()
            .is_some_and(|f| matches!(f.shown(clock), crate::app::fresh::Shown::Retrying { .. }))
    }

    /// Status-bar hints of the current view (`keymap` names keys in the
    /// reasons of keys that do not apply; `state` holds unsent text).
    fn hints(&self, keymap: &Keymap, state: &State) -> Vec<(Action, &'static str)> {
        match self.view {
            View::List => list::hints(self, keymap, state),
            View::Thread => thread::hints(self, keymap, state),
            View::Editor => editor::hints(self),
        }
    }
}

/// A `:` command.
fn on_command(inbox: &mut InboxModel, cx: &mut Ctx<'_>, name: &str, arg: Option<&str>) -> Vec<Cmd> {
    match name {
        "open thread" => open_typed(inbox, cx, arg.unwrap_or("")),
        "send" => send::command(inbox, cx),
        "compose" => editor::open_new(inbox, cx, arg.map(str::trim)),
        "reply" => reply::key(inbox, cx),
        _ => Vec::new(),
    }
}

/// The label of a key bound to `action` that still acts while a text box
/// has the focus (a named key or a chord, not a letter that would type):
/// `↑` rather than `k`.
pub(crate) fn text_box_key(keymap: &Keymap, action: Action) -> String {
    keymap.text_box_label(action)
}

/// `:open thread <what>`: an id, a unique id prefix, the participant's
/// address or name (or a unique part of one) of a thread listed; a whole id
/// in no list is read first; anything else is refused before any request.
fn open_typed(inbox: &mut InboxModel, cx: &mut Ctx<'_>, typed: &str) -> Vec<Cmd> {
    match ids::resolve_open(cx, "thread", typed, &open_items(inbox)) {
        None => Vec::new(),
        Some(Target::Listed(id) | Target::Unconfirmed(id)) => thread::open_by_id(inbox, cx, &id),
    }
}

/// The threads `:open thread` resolves among (and completes from): each
/// named by its participant's name and address.
pub(crate) fn open_items(inbox: &InboxModel) -> Vec<Item> {
    inbox
        .list
        .threads
        .iter()
        .map(|t| {
            let mut names = vec![thread_label(t), t.participant_email.clone()];
            names.extend(t.participant_name.clone());
            Item {
                id: t.id.clone(),
                names,
            }
        })
        .collect()
}

/// A thread as its people are named: the participant's name and address.
pub(crate) fn thread_label(t: &Thread) -> String {
    match t.participant_name.as_deref().map(str::trim) {
        Some(name) if !name.is_empty() => format!("{name} <{}>", t.participant_email.trim()),
        _ => t.participant_email.trim().to_owned(),
    }
}

/// Tells the user a key does not apply now, and why.
pub(crate) fn refuse(cx: &mut Ctx<'_>, what: &str, why: &str) -> Vec<Cmd> {
    cx.notify(Level::Info, what, why);
    Vec::new()
}

impl PaneUnit for InboxModel {
    type Purpose = Purpose;
    type Sub = InboxSub;
    type Confirmed = Question;

    const SPEC: PaneSpec = PaneSpec {
        number: 3,
        title: "Inbox",
        key: "inbox",
        aliases: &["threads", "mail"],
        scope: Scope::Inbox,
        action: Action::PaneInbox,
    };
    const COMMANDS: &'static [CommandSpec] = &[
        CommandSpec {
            name: "open thread",
            writes: false,
            arg: Arg::Required("<thread>"),
            help: "open a thread by id, id prefix, address, name or part of one (Tab completes)",
        },
        CommandSpec {
            name: "send",
            writes: true,
            arg: Arg::None,
            help: "send the open draft (asks first)",
        },
        CommandSpec {
            name: "compose",
            writes: true,
            arg: Arg::Optional("[address]"),
            help: "write a new email (to an address)",
        },
        CommandSpec {
            name: "reply",
            writes: true,
            arg: Arg::None,
            help: "reply to the selected thread or message (asks before it goes)",
        },
    ];

    fn enter(m: &mut Model) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        on_enter(inbox, &mut cx)
    }
    fn from_cache(m: &mut Model) {
        let (inbox, mut cx) = m.split::<Self>();
        kept::restore(inbox, &mut cx);
        list::from_cache(&mut inbox.list, &cx);
    }
    fn resize(m: &mut Model) -> Vec<Cmd> {
        let (inbox, cx) = m.split::<Self>();
        list::resize(&mut inbox.list, &cx);
        thread::resize(inbox, &cx);
        Vec::new()
    }
    fn text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
        let (inbox, mut cx) = m.split::<Self>();
        if inbox.view == View::Editor && inbox.editor.is_some() {
            return Some(editor::key(inbox, &mut cx, key));
        }
        if inbox.view == View::List && inbox.list.needle.typing() {
            return Some(list::filter_key(inbox, &mut cx, key));
        }
        if inbox.view == View::Thread
            && inbox
                .open
                .as_ref()
                .is_some_and(|o| o.filter.needle.typing())
        {
            return Some(msg_filter::key(inbox, &cx, key));
        }
        None
    }
    fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        on_action(inbox, &mut cx, action)
    }
    fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        match inbox.view {
            View::List => list::mouse(inbox, &mut cx, ev),
            View::Thread => thread::mouse(inbox, &mut cx, ev),
            View::Editor => editor::mouse(inbox, &cx, ev),
        }
    }
    fn paste(m: &mut Model, text: &str) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        match inbox.view {
            View::Editor => editor::paste(inbox, &mut cx, text),
            View::List => list::paste(inbox, &mut cx, text),
            View::Thread => msg_filter::paste(inbox, &cx, text),
        }
    }
    fn reply(m: &mut Model, _id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        on_reply(inbox, &mut cx, purpose, reply)
    }
    fn subscriptions(m: &Model, subs: &mut Vec<(InboxSub, Duration)>) {
        let inbox = &m.panes.inbox;
        let rows = (m.pane == Pane::Inbox)
            .then(|| layout::list_viewport(m.layout().body, inbox.list.needle.typing()));
        inbox.subscriptions(rows, subs);
    }
    fn sync_fresh(m: &mut Model) {
        let (inbox, cx) = m.split::<Self>();
        inbox.sync_fresh(cx.is_shown(Pane::Inbox), cx.poll.inbox);
    }
    fn sub_fired(m: &mut Model, sub: InboxSub) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        on_sub(inbox, &mut cx, sub)
    }
    fn answered(m: &mut Model, what: Question, answer: Answer) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        on_answer(inbox, &mut cx, what, answer)
    }
    fn command(m: &mut Model, name: &str, arg: Option<String>) -> Vec<Cmd> {
        let (inbox, mut cx) = m.split::<Self>();
        on_command(inbox, &mut cx, name, arg.as_deref())
    }
    fn unsent(m: &Model) -> Option<String> {
        editor::unsent(&m.panes.inbox)
    }
    fn checking(m: &Model) -> Vec<String> {
        m.panes.inbox.checking()
    }
    fn capture_drafts(m: &Model, state: &mut State) {
        editor::capture(&m.panes.inbox, state);
        kept::capture(&m.panes.inbox, state);
    }
    fn modal(m: &Model) -> bool {
        m.panes.inbox.modal()
    }
    fn countdown_visible(m: &Model) -> bool {
        m.pane == Pane::Inbox && m.panes.inbox.countdown_visible(m.clock)
    }
    fn id_shown(m: &Model) -> Option<IdShown> {
        let inbox = &m.panes.inbox;
        let thread = |t: &Thread| IdShown::new("thread", &t.id, &thread_label(t));
        match inbox.view {
            View::List => inbox.list.selected().map(thread),
            View::Thread => inbox.open.as_ref().map(|o| {
                o.thread
                    .as_ref()
                    .map_or_else(|| IdShown::new("thread", &o.id, ""), thread)
            }),
            View::Editor => None,
        }
    }
    fn hints(m: &Model) -> Vec<(Action, &'static str)> {
        m.panes.inbox.hints(&m.keymap, &m.state)
    }
}
