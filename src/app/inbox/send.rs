//! Sending a draft: a confirm that names the recipient and the sender, one
//! request, never retried once it may have reached the service. When its
//! answer is lost (a timeout, a dropped connection, an unreadable 2xx), the
//! pane re-reads the thread's messages — at once, then after 2, 4, 8 and
//! 16 seconds (a slow service may still be working on it) — and says
//! whether it went. Until that is known the draft cannot be sent again.

use std::time::Duration;

use super::messages::PAGE;
use super::{InboxModel, Purpose, Question, View, in_flight, readiness, refuse};
use crate::api::ApiError;
use crate::api::model::{MessagesPage, SendMessage, SendMessageResponse, Thread, ThreadStatus};
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction, Model};

/// Checks made after a lost answer before saying the message did not go
/// (a lost create's check of the drafts follows the same schedule).
pub const MAX_CHECKS: u32 = 5;

/// The wait before check `attempts + 1` after a lost answer: 2, 4, 8, 16 s
/// (the first check is at once; a slow service may still be working).
pub fn check_delay(attempts: u32) -> Duration {
    Duration::from_secs(1u64 << attempts.clamp(1, 4))
}

/// Where a send stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The request is on its way.
    Sending,
    /// Its answer was lost: the thread is being checked.
    Checking,
    /// Checked [`MAX_CHECKS`] times: the message is not in the thread.
    NotSent,
}

/// A send of one thread, from the request until it is known to have gone
/// (then it is dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendCheck {
    /// Where it stands.
    pub verdict: Verdict,
    /// Checks made so far.
    pub attempts: u32,
    /// A check is due (its timer runs).
    pub waiting: bool,
    /// Messages the thread had before the send, when known.
    pub baseline: Option<usize>,
    /// The subject sent (to recognise the message).
    pub subject: String,
    /// The body sent.
    pub body: String,
}

impl SendCheck {
    /// When the next check is due, while one is.
    pub fn next_in(&self) -> Option<Duration> {
        (self.verdict == Verdict::Checking && self.waiting).then(|| check_delay(self.attempts))
    }
}

/// `S`: checks what the contract needs to send, then asks.
pub fn ask(m: &mut Model, id: &str) -> Vec<Cmd> {
    let Some(t) = m.panes.inbox.thread(id).cloned() else {
        return refuse(m, "Not loaded", "the thread is still loading; try again");
    };
    if let Some(b) = blocked(m, &t) {
        return refuse(m, b.title, &b.why);
    }
    let account = t.account_id.clone().unwrap_or_default();
    let lines = confirm_lines(m, &t, &account);
    m.confirm(Confirm {
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
pub struct Blocked {
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

/// Why a thread cannot be sent now, if it cannot.
pub fn blocked(m: &Model, t: &Thread) -> Option<Blocked> {
    if t.status != ThreadStatus::Draft {
        return block(
            "Not a draft",
            "send ✗ drafts only",
            format!("only a draft can be sent; this thread is {}", t.status),
        );
    }
    match m.panes.inbox.checks.get(&t.id).map(|c| c.verdict) {
        Some(Verdict::Sending) => {
            return block(
                "Sending",
                "send ✗ sending",
                "this draft is being sent; wait for the answer".into(),
            );
        }
        Some(Verdict::Checking) => {
            return block(
                "Checking the last send",
                "send ✗ checking",
                "its answer was lost; Outpost is reading the thread to learn whether it went — wait for the verdict".into(),
            );
        }
        _ => {}
    }
    let edit = m.keymap.key_label(Action::EditDraft);
    let unsaved = m
        .panes
        .inbox
        .editor
        .as_ref()
        .is_some_and(|e| e.thread.as_deref() == Some(t.id.as_str()) && e.unsaved())
        || m.state
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
    if let Some(Err(why)) = m.panes.inbox.senders.find(account).map(readiness) {
        return block(
            "Sender not ready",
            "send ✗ sender not ready",
            format!("the sender cannot send: {why}"),
        );
    }
    None
}

fn confirm_lines(m: &Model, t: &Thread, account: &str) -> Vec<String> {
    let mut lines = vec![
        format!("To:      {}", super::participant(t)),
        format!("From:    {}", m.panes.inbox.senders.label(account)),
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
    if m.panes
        .inbox
        .checks
        .get(&t.id)
        .is_some_and(|c| c.verdict == Verdict::NotSent)
    {
        lines.push(format!(
            "The last attempt was not in the thread after {MAX_CHECKS} checks over 30 s and it is still a draft, so it most likely did not go — but if the service is only very slow, sending again could send it twice. Look at the thread first if in doubt."
        ));
    }
    lines.push("It is sent once: if the answer is lost, Outpost checks the thread instead of sending again.".into());
    lines
}

/// Sends (confirmed): one request. The editor, if open on this draft,
/// closes (the service has its text); the thread is shown.
pub fn send(m: &mut Model, id: &str) -> Vec<Cmd> {
    if in_flight(m, |p| matches!(p, Purpose::Send(t) if t == id)) {
        return Vec::new();
    }
    let Some(t) = m.panes.inbox.thread(id).cloned() else {
        return Vec::new();
    };
    if m.panes
        .inbox
        .editor
        .as_ref()
        .is_some_and(|e| e.thread.as_deref() == Some(id))
    {
        m.panes.inbox.editor = None;
    }
    let mut cmds = Vec::new();
    if m.panes.inbox.open.as_ref().is_none_or(|o| o.id != id) {
        cmds.extend(super::thread::open(m, t.clone()));
    }
    m.panes.inbox.view = View::Thread;
    let baseline = m
        .panes
        .inbox
        .open
        .as_ref()
        .filter(|o| o.id == id)
        .and_then(|o| o.messages.total);
    m.panes.inbox.checks.insert(
        id.to_owned(),
        SendCheck {
            verdict: Verdict::Sending,
            attempts: 0,
            waiting: false,
            baseline,
            subject: t.draft_subject.clone().unwrap_or_default(),
            body: super::editor::draft_body(&t),
        },
    );
    let (_, cmd) = m.request(
        Purpose::Send(id.to_owned()),
        ApiRequest::SendMessage {
            id: id.to_owned(),
            send: Box::new(SendMessage::default()),
        },
    );
    cmds.push(cmd);
    cmds
}

/// `:send`: the open draft (in the editor: save first).
pub fn command(m: &mut Model) -> Vec<Cmd> {
    match m.panes.inbox.view {
        View::Editor if m.panes.inbox.editor.is_some() => super::editor::send_from_editor(m),
        View::Thread => match m.panes.inbox.open.as_ref().map(|o| o.id.clone()) {
            Some(id) => ask(m, &id),
            None => refuse(m, "No draft open", "open a draft first"),
        },
        _ => refuse(
            m,
            "No draft open",
            &format!(
                "open a draft first, or press {} on one in the list",
                m.keymap.key_label(Action::SendDraft)
            ),
        ),
    }
}

/// The answer to a send.
pub fn on_sent(m: &mut Model, thread: &str, r: Result<SendMessageResponse, ApiError>) -> Vec<Cmd> {
    match r {
        Ok(resp) => {
            m.panes.inbox.checks.remove(thread);
            let t = resp.thread;
            super::arrivals::observe(m, [&t], super::arrivals::Seen::Quietly);
            let (to, from) = who(m, &t);
            super::apply_thread(m, t.clone());
            super::list::put_on_top(m, t);
            m.notify(Level::Success, "Sent", &format!("to {to} from {from}"));
            refresh_after(m, thread)
        }
        Err(e) if e.maybe_accepted() => {
            if let Some(c) = m.panes.inbox.checks.get_mut(thread) {
                c.verdict = Verdict::Checking;
            }
            m.notify(
                Level::Warning,
                &format!("{} · the answer was lost", e.code()),
                "the send may have reached the service, so it is not repeated; reading the thread to learn whether it went…",
            );
            verify(m, thread, 1)
        }
        Err(e) => {
            m.panes.inbox.checks.remove(thread);
            let hint = match e.status() {
                Some(400) => " — not sent: the contract needs a recipient and a ready email sender",
                Some(429) => " — not sent (the service refused it before doing anything)",
                Some(404) => " — the thread no longer exists",
                _ => " — not sent",
            };
            m.notify(
                Level::Error,
                &format!("{} · sending", e.code()),
                &format!("{}{hint}", e.message()),
            );
            Vec::new()
        }
    }
}

/// Recipient and sender of a thread, for notices.
fn who(m: &Model, t: &Thread) -> (String, String) {
    let to = super::participant(t);
    let from = t.account_id.as_deref().map_or_else(
        || "the thread's sender".to_owned(),
        |a| m.panes.inbox.senders.label(a),
    );
    (to, from)
}

/// After a send is known to have gone: the thread and its newest messages
/// are read again.
fn refresh_after(m: &mut Model, thread: &str) -> Vec<Cmd> {
    if m.panes.inbox.open.as_ref().is_some_and(|o| o.id == thread) {
        let vp = super::thread::viewport(m);
        if let Some(o) = m.panes.inbox.open.as_mut() {
            o.messages.follow = true;
            // One more message: the last page may have grown past its end.
            if let Some(t) = o.messages.total {
                o.messages.table.set_len(t.saturating_add(1), vp);
                o.messages.total = Some(t.saturating_add(1));
                o.messages.table.bottom(vp);
            }
        }
        super::thread::refresh(m)
    } else {
        Vec::new()
    }
}

/// Reads a page of the thread's messages to learn whether the send went;
/// with the first page, the thread itself (a sent draft turns active with
/// its draft fields cleared).
fn verify(m: &mut Model, thread: &str, page: u64) -> Vec<Cmd> {
    let (_, cmd) = m.request(
        Purpose::Verify {
            thread: thread.to_owned(),
            page,
        },
        ApiRequest::ListMessages {
            id: thread.to_owned(),
            page: Some(page),
            limit: Some(u64::try_from(PAGE).unwrap_or(200)),
        },
    );
    let mut cmds = vec![cmd];
    if page == 1 {
        cmds.extend(super::thread::read_thread(m, thread));
    }
    cmds
}

/// A check's timer fired.
pub fn check_again(m: &mut Model, thread: &str, attempt: u32) -> Vec<Cmd> {
    match m.panes.inbox.checks.get_mut(thread) {
        Some(c) if c.waiting && c.attempts == attempt => {
            c.waiting = false;
            verify(m, thread, 1)
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
/// and body), or not yet. An inbound reply that grew the thread is not
/// taken for the send.
pub fn on_verify(
    m: &mut Model,
    thread: &str,
    page: u64,
    r: Result<MessagesPage, ApiError>,
) -> Vec<Cmd> {
    let Some(check) = m.panes.inbox.checks.get(thread).cloned() else {
        return Vec::new();
    };
    if check.verdict != Verdict::Checking {
        return Vec::new();
    }
    let p = match r {
        Ok(p) => p,
        Err(e) => {
            m.toasts.error(m.now, "checking the send", &e);
            return not_yet(m, thread);
        }
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
        went(m, thread, "the message is in the thread")
    } else if page < last {
        // The newest messages are on the last page.
        verify(m, thread, last)
    } else {
        not_yet(m, thread)
    }
}

/// The thread read while a send is checked (or after it was said not to
/// have gone): active with its draft fields cleared means it was sent.
pub fn thread_seen(m: &mut Model, t: &Thread) -> Vec<Cmd> {
    let checked = m
        .panes
        .inbox
        .checks
        .get(&t.id)
        .is_some_and(|c| matches!(c.verdict, Verdict::Checking | Verdict::NotSent));
    let empty = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
    let cleared = empty(&t.draft_subject) && empty(&t.draft_body_text) && empty(&t.draft_body_html);
    if checked && t.status == ThreadStatus::Active && cleared {
        went(m, &t.id, "the thread is active with its draft sent")
    } else {
        Vec::new()
    }
}

/// The send is known to have gone (`how` says how it is known).
fn went(m: &mut Model, thread: &str, how: &str) -> Vec<Cmd> {
    m.panes.inbox.checks.remove(thread);
    m.notify(
        Level::Success,
        "Sent",
        &format!("{how}: its answer was lost on the way, and it was sent once"),
    );
    let mut cmds = refresh_after(m, thread);
    cmds.extend(super::thread::read_thread(m, thread));
    cmds
}

/// The message is not in the thread (yet): check again later, or, after
/// the last check, say it most likely did not go.
fn not_yet(m: &mut Model, thread: &str) -> Vec<Cmd> {
    let Some(c) = m.panes.inbox.checks.get_mut(thread) else {
        return Vec::new();
    };
    c.attempts += 1;
    if c.attempts >= MAX_CHECKS {
        c.verdict = Verdict::NotSent;
        c.waiting = false;
        let key = m.keymap.key_label(Action::SendDraft);
        m.notify(
            Level::Warning,
            "Most likely not sent",
            &format!(
                "after {MAX_CHECKS} checks over 30 s the message is not in the thread and it is still a draft; {key} sends it again (asks first) — if the service is only very slow, that could send it twice"
            ),
        );
    } else {
        c.waiting = true;
        if c.attempts == 1 {
            m.notify(
                Level::Info,
                "Not in the thread yet",
                "the service may still be working on it; checking again shortly (it is not sent again)",
            );
        }
    }
    Vec::new()
}

/// The state of a thread's send, for the views.
pub fn state_of<'a>(inbox: &'a InboxModel, thread: &str) -> Option<&'a SendCheck> {
    inbox.checks.get(thread)
}
