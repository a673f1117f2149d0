//! Sending a draft: a confirm that names the recipient and the sender, one
//! request, never repeated once it may have reached the service. When its
//! answer is lost (a timeout, a dropped connection, any 5xx, an unreadable
//! 2xx), the pane reads the thread's messages on the one schedule of
//! [`crate::logic::write::Check`] (at once, then 2, 4, 8 and 16 s later; a
//! failed read proves nothing) and says what it saw. While it checks the
//! draft cannot be sent; after the verdict, sending again asks first and
//! the question says what the check saw.

use super::editor::reply::ReplySend;
use super::messages::PAGE;
use super::{InboxModel, Purpose, Question, Senders, View, in_flight, readiness, refuse};
use crate::api::ApiError;
use crate::api::model::{MessagesPage, SendMessage, SendMessageResponse, Thread, ThreadStatus};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::keymap::Keymap;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction};
use crate::logic::write::{self, Check, Outcome, Seen, Verdict};
use crate::store::State;

/// Where the check looks, as its texts name it.
pub(crate) const PLACE: &str = "in the thread";

/// Where a send stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage<'a> {
    /// The request is on its way.
    Sending,
    /// Its answer was lost: the thread is being read.
    Checking,
    /// The check ended without finding it (not found, or could not check).
    Settled(&'a Verdict),
}

/// A send of one thread, from the request until it is known to have gone
/// (then it is dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendCheck {
    /// What lost the answer (`bad_gateway`), once it was lost.
    pub lost: Option<String>,
    /// The reads of the thread after the answer was lost (none while the
    /// send is on its way).
    pub check: Option<Check>,
    /// Messages the thread had before the send, when known.
    pub baseline: Option<usize>,
    /// The subject sent (to recognise the message).
    pub subject: String,
    /// The body sent.
    pub body: String,
    /// A reply (its own subject and text, kept locally until it is known
    /// to have gone), not the thread's draft.
    pub reply: bool,
}

impl SendCheck {
    /// Where the send stands.
    pub fn stage(&self) -> Stage<'_> {
        match self.check.as_ref() {
            None => Stage::Sending,
            Some(c) => c.verdict.as_ref().map_or(Stage::Checking, Stage::Settled),
        }
    }

    /// When the next read of the thread is due, while one is.
    pub fn next_in(&self) -> Option<std::time::Duration> {
        self.check.as_ref().and_then(Check::next_in)
    }

    /// Reads of the thread so far, good or failed (a timer's key: it
    /// changes with every read).
    pub fn reads(&self) -> u32 {
        self.check
            .as_ref()
            .map_or(0, |c| c.absent.saturating_add(c.failed))
    }

    /// What the check saw, said of the thread ("checking in the thread…",
    /// "not found in the thread after 5 good reads", "could not check: …").
    pub fn text(&self) -> String {
        self.check
            .as_ref()
            .map_or_else(|| "sending…".to_owned(), |c| c.text(PLACE))
    }
}

/// `S`: checks what the contract needs to send, then asks.
pub(crate) fn ask(inbox: &mut InboxModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    let Some(t) = inbox.thread(id).cloned() else {
        return refuse(cx, "Not loaded", "the thread is still loading; try again");
    };
    if let Some(b) = blocked(inbox, cx.keymap, cx.state, &t) {
        return refuse(cx, b.title, &b.why);
    }
    let account = t.account_id.clone().unwrap_or_default();
    let lines = confirm_lines(inbox, &t, &account);
    cx.confirm(Confirm {
        title: "Send this email?".into(),
        lines,
        yes: "Send".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(
            Question::Send {
                thread: id.to_owned(),
            }
            .into(),
        ),
    });
    Vec::new()
}

/// Why a thread cannot be sent now, if it cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Blocked {
    /// The notice's title ("No recipient").
    pub title: &'static str,
    /// The status-bar hint of the send key ("send ✗ no recipient").
    pub hint: &'static str,
    /// The whole reason, with what to do.
    pub why: String,
}

fn block(title: &'static str, hint: &'static str, why: String) -> Option<Blocked> {
    Some(Blocked { title, hint, why })
}

/// Why a thread cannot be sent now, if it cannot (`keymap` names the keys
/// a reason points to; `state` holds unsent text kept locally).
pub(crate) fn blocked(
    inbox: &InboxModel,
    keymap: &Keymap,
    state: &State,
    t: &Thread,
) -> Option<Blocked> {
    // A send being checked is said first: a thread that turned active may
    // be that very send, and the check says so when it finds it.
    if let Some(c) = inbox.checks.get(&t.id) {
        match c.stage() {
            Stage::Sending => {
                return block(
                    "Sending",
                    "send ✗ sending",
                    "this draft is being sent; wait for the answer".into(),
                );
            }
            Stage::Checking => {
                return block(
                    "Checking the last send",
                    "send ✗ checking",
                    format!(
                        "its answer was lost and it may have been sent, so it is not sent again until Outpost knows: {}",
                        c.text()
                    ),
                );
            }
            Stage::Settled(_) => {}
        }
    }
    if t.status != ThreadStatus::Draft {
        return block(
            "Not a draft",
            "send ✗ drafts only",
            format!("only a draft can be sent; this thread is {}", t.status),
        );
    }
    let edit = keymap.key_label(Action::EditDraft);
    let unsaved = inbox
        .editor
        .as_ref()
        .is_some_and(|e| e.thread.as_deref() == Some(t.id.as_str()) && e.unsaved())
        || state
            .drafts
            .contains_key(&super::editor::draft_key(Some(&t.id)));
    if unsaved {
        return block(
            "Unsaved text",
            "send ✗ save first",
            format!(
                "this draft has text the service does not have (kept locally): open it ({edit}) and save it first, so what is sent is what you see"
            ),
        );
    }
    if t.participant_email.trim().is_empty() {
        return block(
            "No recipient",
            "send ✗ no recipient",
            format!("add the recipient first ({edit})"),
        );
    }
    let Some(account) = t.account_id.as_deref().filter(|a| !a.is_empty()) else {
        return block(
            "No sender",
            "send ✗ no sender",
            format!("choose a ready email sender first ({edit})"),
        );
    };
    if let Some(Err(why)) = inbox.senders.find(account).map(readiness) {
        return block(
            "Sender not ready",
            "send ✗ sender not ready",
            format!("the sender cannot send: {why}"),
        );
    }
    None
}

fn confirm_lines(inbox: &InboxModel, t: &Thread, account: &str) -> Vec<String> {
    let mut lines = vec![
        format!("To:      {}", super::participant(t)),
        format!("From:    {}", inbox.senders.label(account)),
        format!(
            "Subject: {}",
            t.draft_subject
                .as_deref()
                .filter(|s| !s.is_empty())
                .unwrap_or("(none)")
        ),
    ];
    for (label, v) in [("Cc:     ", &t.draft_cc), ("Bcc:    ", &t.draft_bcc)] {
        if let Some(v) = v.as_deref().filter(|v| !v.trim().is_empty()) {
            lines.push(format!("{label} {v}"));
        }
    }
    if !t.draft_attachments.is_empty() {
        let n = u64::try_from(t.draft_attachments.len()).unwrap_or(u64::MAX);
        lines.push(format!(
            "With {} added in the web dashboard.",
            crate::text::format::plural(n, "attachment", "attachments")
        ));
    }
    if let Some(c) = inbox.checks.get(&t.id).and_then(|c| c.check.as_ref()) {
        lines.push(c.again_warning(PLACE));
    }
    lines.push("It is sent once: if the answer is lost, Outpost checks the thread instead of sending again.".into());
    lines
}

/// Sends (confirmed): one request. The editor, if open on this draft,
/// closes (the service has its text); the thread is shown.
pub(crate) fn send(inbox: &mut InboxModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| matches!(p, Purpose::Send(t) if t == id)) {
        return Vec::new();
    }
    let Some(t) = inbox.thread(id).cloned() else {
        return Vec::new();
    };
    if inbox
        .editor
        .as_ref()
        .is_some_and(|e| e.thread.as_deref() == Some(id))
    {
        inbox.editor = None;
    }
    let mut cmds = Vec::new();
    if inbox.open.as_ref().is_none_or(|o| o.id != id) {
        cmds.extend(super::thread::open(inbox, cx, t.clone()));
    }
    inbox.view = View::Thread;
    let baseline = inbox
        .open
        .as_ref()
        .filter(|o| o.id == id)
        .and_then(|o| o.messages.total);
    inbox.checks.insert(
        id.to_owned(),
        SendCheck {
            lost: None,
            check: None,
            baseline,
            subject: t.draft_subject.clone().unwrap_or_default(),
            body: super::editor::draft_body(&t),
            reply: false,
        },
    );
    cx.request(
        Purpose::Send(id.to_owned()),
        ApiRequest::SendMessage {
            id: id.to_owned(),
            send: Box::new(SendMessage::default()),
        },
    );
    cmds
}

/// `:send`: the open draft (in the editor: save first).
pub(crate) fn command(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    match inbox.view {
        View::Editor if inbox.editor.is_some() => super::editor::send_from_editor(inbox, cx),
        View::Thread => match inbox.open.as_ref().map(|o| o.id.clone()) {
            Some(id) => ask(inbox, cx, &id),
            None => refuse(cx, "No draft open", "open a draft first"),
        },
        _ => refuse(
            cx,
            "No draft open",
            &format!(
                "open a draft first, or press {} on one in the list",
                cx.keymap.key_label(Action::SendDraft)
            ),
        ),
    }
}

/// The answer to a send: sent; refused (nothing happened, it may be sent
/// again); or it may have reached the service — then the thread is read,
/// and it is never sent again on its own.
pub(crate) fn on_sent(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    thread: &str,
    r: Result<SendMessageResponse, ApiError>,
) -> Vec<Cmd> {
    let reply = inbox.checks.get(thread).is_some_and(|c| c.reply);
    let e = match r {
        Ok(resp) => {
            inbox.checks.remove(thread);
            if reply {
                drop_reply_text(cx, thread);
            }
            let t = resp.thread;
            super::arrivals::observe(
                &mut inbox.unread_seen,
                cx,
                [&t],
                super::arrivals::Seen::Quietly,
            );
            let (to, from) = who(&inbox.senders, &t);
            super::apply_thread(inbox, cx, t.clone());
            super::list::put_on_top(&mut inbox.list, cx, t.clone());
            inbox.lasts.forget(thread);
            if let Some(total) = inbox
                .open
                .as_ref()
                .filter(|o| o.id == thread)
                .and_then(|o| o.messages.total)
            {
                let total = u64::try_from(total).unwrap_or(u64::MAX).saturating_add(1);
                inbox.lasts.saw(&t, &resp.message, total);
            }
            let title = if reply { "Reply sent" } else { "Sent" };
            cx.notify(Level::Success, title, &format!("to {to} from {from}"));
            return refresh_after(inbox, cx, thread);
        }
        Err(e) => e,
    };
    match write::of_error(&e) {
        Outcome::MayHaveReached => {
            if let Some(c) = inbox.checks.get_mut(thread) {
                c.lost = Some(e.code().to_owned());
                c.check = Some(cx.lost_check());
            }
            cx.notify(
                Level::Warning,
                &format!("{} · the answer was lost", e.code()),
                "the send may have reached the service, so it is not sent again; reading the thread to learn whether it went…",
            );
            verify(cx, thread, 1)
        }
        Outcome::Refused | Outcome::Done => {
            inbox.checks.remove(thread);
            let key = cx.keymap.key_label(if reply {
                Action::ReplyThread
            } else {
                Action::SendDraft
            });
            let kept = if reply {
                format!("; the reply's text is kept: {key} opens it again")
            } else {
                String::new()
            };
            let hint = match e.status() {
                Some(400) => " — not sent: the contract needs a recipient and a ready email sender"
                    .to_owned(),
                Some(404) => " — not sent: the thread no longer exists".to_owned(),
                _ if reply => {
                    " — not sent (the service refused it before doing anything)".to_owned()
                }
                _ => format!(
                    " — not sent (the service refused it before doing anything); {key} tries again"
                ),
            };
            cx.notify(
                Level::Error,
                &format!("{} · sending", e.code()),
                &format!("{}{hint}{kept}", e.message()),
            );
            Vec::new()
        }
    }
}

/// Recipient and sender of a thread, for notices.
fn who(senders: &Senders, t: &Thread) -> (String, String) {
    let to = super::participant(t);
    let from = t
        .account_id
        .as_deref()
        .map_or_else(|| "the thread's sender".to_owned(), |a| senders.label(a));
    (to, from)
}

/// After a send is known to have gone: the thread and its newest messages
/// are read again.
fn refresh_after(inbox: &mut InboxModel, cx: &mut Ctx<'_>, thread: &str) -> Vec<Cmd> {
    if inbox.open.as_ref().is_some_and(|o| o.id == thread) {
        let vp = super::thread::viewport(inbox, cx);
        if let Some(o) = inbox.open.as_mut() {
            o.follow = true;
            // One more message: the last page may have grown past its end.
            if let Some(t) = o.messages.total {
                o.messages.table.set_len(t.saturating_add(1), vp);
                o.messages.total = Some(t.saturating_add(1));
                o.messages.table.bottom(vp);
            }
        }
        super::thread::refresh(inbox, cx)
    } else {
        Vec::new()
    }
}

/// Reads a page of the thread's messages to learn whether the send went;
/// with the first page, the thread itself (a sent draft turns active with
/// its draft fields cleared).
fn verify(cx: &mut Ctx<'_>, thread: &str, page: u64) -> Vec<Cmd> {
    cx.request(
        Purpose::Verify {
            thread: thread.to_owned(),
            page,
        },
        super::messages::page_request(thread, page),
    );
    let mut cmds = Vec::new();
    if page == 1 {
        cmds.extend(super::thread::read_thread(cx, thread));
    }
    cmds
}

/// A check's timer fired (`reads`: the reads made when it was set).
pub(crate) fn check_again(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    thread: &str,
    reads: u32,
) -> Vec<Cmd> {
    match inbox.checks.get_mut(thread) {
        Some(c) if c.next_in().is_some() && c.reads() == reads => {
            if let Some(check) = c.check.as_mut() {
                check.reading();
            }
            verify(cx, thread, 1)
        }
        _ => Vec::new(),
    }
}

/// Whether a message is the one this check looks for: outbound, with the
/// draft's subject and body.
fn is_sent(check: &SendCheck, msg: &crate::api::model::ThreadMessage) -> bool {
    msg.direction.eq_ignore_ascii_case("outbound")
        && msg.subject.trim() == check.subject.trim()
        && super::html::readable(&msg.body_text).trim() == check.body.trim()
}

/// A page read to check a send: the message is there (an outbound message
/// past the count the thread had before, or one with the draft's subject
/// and body), or not (yet). An inbound reply that grew the thread is not
/// taken for the send; a failed read proves nothing either way.
pub(crate) fn on_verify(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    thread: &str,
    page: u64,
    r: Result<MessagesPage, ApiError>,
) -> Vec<Cmd> {
    let Some(check) = inbox.checks.get(thread).cloned() else {
        return Vec::new();
    };
    if check.stage() != Stage::Checking {
        return Vec::new();
    }
    let p = match r {
        Ok(p) => p,
        Err(e) => return saw(inbox, cx, thread, Seen::Failed(super::error_text(&e))),
    };
    let total = usize::try_from(p.total).unwrap_or(usize::MAX);
    let first = usize::try_from(page.saturating_sub(1))
        .unwrap_or(usize::MAX)
        .saturating_mul(PAGE);
    // Only messages past the count before the send can be it.
    let fresh = |i: usize| check.baseline.is_none_or(|b| first.saturating_add(i) >= b);
    let rows = || p.messages.iter().enumerate().filter(|(i, _)| fresh(*i));
    let found = rows().any(|(_, msg)| is_sent(&check, msg));
    let grew = check.baseline.is_some_and(|b| total > b)
        && rows().any(|(_, msg)| msg.direction.eq_ignore_ascii_case("outbound"));
    let last = u64::try_from(total.saturating_sub(1) / PAGE + 1).unwrap_or(1);
    if found || grew {
        went(inbox, cx, thread, "found in the thread")
    } else if page < last {
        // The newest messages are on the last page: the same read goes on.
        verify(cx, thread, last)
    } else {
        saw(inbox, cx, thread, Seen::Absent)
    }
}

/// The thread read while a send is checked (or after the check ended
/// without finding it): active with its draft fields cleared means it was
/// sent.
pub(crate) fn thread_seen(inbox: &mut InboxModel, cx: &mut Ctx<'_>, t: &Thread) -> Vec<Cmd> {
    // A reply goes to a thread that is active already: its status proves
    // nothing, only its messages do.
    let checked = inbox
        .checks
        .get(&t.id)
        .is_some_and(|c| c.check.is_some() && !c.reply);
    let empty = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
    let cleared = empty(&t.draft_subject) && empty(&t.draft_body_text) && empty(&t.draft_body_html);
    if checked && t.status == ThreadStatus::Active && cleared {
        went(
            inbox,
            cx,
            &t.id,
            "found in the thread (it is active, its draft sent)",
        )
    } else {
        Vec::new()
    }
}

/// The send is known to have gone (`how` the check found it).
fn went(inbox: &mut InboxModel, cx: &mut Ctx<'_>, thread: &str, how: &str) -> Vec<Cmd> {
    let Some(mut c) = inbox.checks.remove(thread) else {
        return Vec::new();
    };
    if c.reply {
        drop_reply_text(cx, thread);
    }
    inbox.lasts.forget(thread);
    let check = c.check.get_or_insert_with(Check::start);
    // A later read can still find it after "not found": it settles it.
    check.verdict = None;
    cx.saw(check, Seen::Found(how.to_owned()));
    let lost = c.lost.as_deref().unwrap_or("the answer");
    cx.notify(
        Level::Success,
        "Sent once",
        &format!(
            "{lost}: the send's answer was lost, so it was not sent again; the check: {} — it was sent once",
            check.text(PLACE)
        ),
    );
    let mut cmds = refresh_after(inbox, cx, thread);
    cmds.extend(super::thread::read_thread(cx, thread));
    cmds
}

/// A read of the thread did not find the send (`Absent`) or failed
/// (`Failed`, which proves nothing): the check goes on on its schedule,
/// or its verdict is said.
fn saw(inbox: &mut InboxModel, cx: &mut Ctx<'_>, thread: &str, seen: Seen) -> Vec<Cmd> {
    let Some(c) = inbox.checks.get_mut(thread) else {
        return Vec::new();
    };
    let (key, again, still) = if c.reply {
        (
            cx.keymap.key_label(Action::ReplyThread),
            "opens the reply again (its text was kept) and sending asks first",
            "",
        )
    } else {
        (
            cx.keymap.key_label(Action::SendDraft),
            "sends it again (asks first)",
            ", and it is still a draft",
        )
    };
    let Some(check) = c.check.as_mut() else {
        return Vec::new();
    };
    let first_miss = seen == Seen::Absent && check.absent == 0;
    match cx.saw(check, seen) {
        Some(Verdict::NotFound) => {
            let seen = check.text(PLACE);
            cx.notify(
                Level::Warning,
                "Most likely not sent",
                &format!(
                    "{seen}{still}; {key} {again} — if the service is only very slow, that could send it twice"
                ),
            );
        }
        Some(_) => {
            let seen = check.text(PLACE);
            cx.notify(
                Level::Error,
                "Sent? Outpost cannot tell",
                &format!(
                    "the send may have reached the service and {seen}; look at the thread in the web dashboard before sending again — {key} asks first"
                ),
            );
        }
        None if first_miss => {
            cx.notify(
                Level::Info,
                "Not in the thread yet",
                "the service may still be working on it; checking again shortly (it is not sent again)",
            );
        }
        None => {}
    }
    Vec::new()
}

/// A reply is known to have gone: its text kept locally goes too.
fn drop_reply_text(cx: &mut Ctx<'_>, thread: &str) {
    if cx
        .state
        .drafts
        .remove(&super::editor::reply::reply_key(thread))
        .is_some()
    {
        cx.save_state();
    }
}

/// Sends a confirmed reply: one request carrying its own subject, text and
/// HTML (the service would fill an omitted field from the thread's draft).
/// Its text stays kept locally until the service is known to have it; the
/// editor closes and the thread is shown. From here it is a send like any
/// other: never repeated, its lost answer checked in the thread.
pub(crate) fn send_reply(inbox: &mut InboxModel, cx: &mut Ctx<'_>, r: ReplySend) -> Vec<Cmd> {
    let id = r.thread.clone();
    if in_flight(cx.requests, |p| matches!(p, Purpose::Send(t) if *t == id)) {
        return Vec::new();
    }
    let editor = inbox
        .editor
        .as_ref()
        .filter(|e| e.reply.as_ref().is_some_and(|x| x.thread == id));
    let Some(t) = editor
        .and_then(|e| e.service.clone())
        .or_else(|| inbox.thread(&id).cloned())
    else {
        return Vec::new();
    };
    if let Some(b) = super::reply::blocked(inbox, cx.keymap, &t) {
        return refuse(cx, b.title, &b.why);
    }
    let baseline = editor.and_then(|e| e.reply.as_ref().and_then(|x| x.baseline));
    if let Some(e) = editor {
        // Kept until the service is known to have it: a lost answer keeps
        // the text for a send again.
        cx.state.drafts.insert(e.key(), e.current().to_draft());
        cx.save_state();
        inbox.editor = None;
    }
    let mut cmds = Vec::new();
    if inbox.open.as_ref().is_none_or(|o| o.id != id) {
        cmds.extend(super::thread::open(inbox, cx, t));
    }
    inbox.view = View::Thread;
    let baseline = baseline.or_else(|| {
        inbox
            .open
            .as_ref()
            .filter(|o| o.id == id)
            .and_then(|o| o.messages.total)
    });
    inbox.checks.insert(
        id.clone(),
        SendCheck {
            lost: None,
            check: None,
            baseline,
            subject: r.subject.clone(),
            body: r.body.clone(),
            reply: true,
        },
    );
    cx.request(
        Purpose::Send(id.clone()),
        ApiRequest::SendMessage {
            id,
            send: Box::new(SendMessage {
                account_id: Some(r.account_id),
                subject: Some(r.subject),
                body_html: Some(crate::logic::reply::html_of_text(&r.body)),
                body_text: Some(r.body),
            }),
        },
    );
    cmds
}
