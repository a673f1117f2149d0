//! The reply key (`R`, `:reply`): on a thread of the list, a reply to its
//! last inbound message (its newest messages are read first); in an open
//! thread, a reply to the selected message. The editor writes it
//! ([`super::editor::reply`]); [`super::send::send_reply`] sends it, on the
//! one send path (asked first, sent once, a lost answer checked in the
//! thread).

use super::messages::PAGE;
use super::send::{Blocked, Stage};
use super::{InboxModel, Purpose, View, in_flight, msg_filter, refuse};
use crate::api::ApiError;
use crate::api::model::{MessagesPage, Thread, ThreadStatus};
use crate::app::Cmd;
use crate::app::ctx::Ctx;
use crate::app::keymap::{Action, Keymap};
use crate::logic::reply;

/// Why a reply cannot be written or sent in thread `t` now, if it cannot:
/// a send of it on its way or being checked (its answer was lost: the
/// reply may have gone), no participant, or a draft (nothing to answer
/// yet; it is sent as it is).
pub(crate) fn blocked(inbox: &InboxModel, keymap: &Keymap, t: &Thread) -> Option<Blocked> {
    let block = |title, hint, why: String| Some(Blocked { title, hint, why });
    match inbox.checks.get(&t.id).map(|c| c.stage()) {
        Some(Stage::Sending) => {
            return block(
                "Sending",
                "reply ✗ sending",
                "a message of this thread is being sent; wait for the answer".into(),
            );
        }
        Some(Stage::Checking) => {
            return block(
                "Checking the last send",
                "reply ✗ checking",
                format!(
                    "its answer was lost and it may have been sent, so nothing more goes to this thread until Outpost knows: {}",
                    inbox
                        .checks
                        .get(&t.id)
                        .map(super::send::SendCheck::text)
                        .unwrap_or_default()
                ),
            );
        }
        _ => {}
    }
    if t.status == ThreadStatus::Draft {
        return block(
            "A draft",
            "reply ✗ draft",
            format!(
                "nothing was sent in this thread yet: edit the draft ({}) or send it ({})",
                keymap.key_label(Action::EditDraft),
                keymap.key_label(Action::SendDraft)
            ),
        );
    }
    if t.participant_email.trim().is_empty() {
        return block(
            "No recipient",
            "reply ✗ no recipient",
            "the thread has no participant address to reply to".into(),
        );
    }
    None
}

/// The reply key's hint for thread `t`: `("reply", true)`, or why not.
pub(crate) fn hint(inbox: &InboxModel, keymap: &Keymap, t: &Thread) -> (&'static str, bool) {
    blocked(inbox, keymap, t).map_or(("reply", true), |b| (b.hint, false))
}

/// `R` (and `:reply`): in an open thread, a reply to the selected
/// message; on the list, to the selected thread's last inbound message.
pub(crate) fn key(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    match inbox.view {
        View::Thread => in_thread(inbox, cx),
        View::List => match inbox.list.selected().cloned() {
            Some(t) => on_thread(inbox, cx, &t),
            None => refuse(
                cx,
                "Nothing selected",
                "no thread is selected (the list is empty or still loading)",
            ),
        },
        View::Editor => refuse(
            cx,
            "An email is open",
            "finish or close it first; then reply from the thread",
        ),
    }
}

/// A reply to the open thread's selected message.
fn in_thread(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = inbox.open.as_ref() else {
        return Vec::new();
    };
    let Some(t) = o.thread.clone() else {
        return refuse(cx, "Not loaded", "the thread is still loading; try again");
    };
    if let Some(b) = blocked(inbox, cx.keymap, &t) {
        return refuse(cx, b.title, &b.why);
    }
    let Some(msg) = msg_filter::selected_message(o).cloned() else {
        return refuse(
            cx,
            "No message selected",
            "select the message to reply to (its messages are still loading, or there are none)",
        );
    };
    let baseline = o.messages.total;
    super::editor::reply::open(inbox, cx, &t, &msg, baseline)
}

/// A reply to thread `t`'s last inbound message: its newest messages are
/// read first (the list holds only its newest one).
fn on_thread(inbox: &mut InboxModel, cx: &mut Ctx<'_>, t: &Thread) -> Vec<Cmd> {
    if crate::app::read_only::refuse(cx) {
        return Vec::new();
    }
    if let Some(b) = blocked(inbox, cx.keymap, t) {
        return refuse(cx, b.title, &b.why);
    }
    if in_flight(
        cx.requests,
        |p| matches!(p, Purpose::ReplyRead { thread, .. } if *thread == t.id),
    ) {
        return Vec::new();
    }
    read(cx, &t.id, 1);
    Vec::new()
}

fn read(cx: &mut Ctx<'_>, thread: &str, page: u64) {
    cx.request(
        Purpose::ReplyRead {
            thread: thread.to_owned(),
            page,
        },
        super::messages::page_request(thread, page),
    );
}

/// The newest messages read for a reply on the list: the editor opens on
/// the last inbound one — unless the user went elsewhere meanwhile (the
/// thread was opened, an editor too).
pub(crate) fn on_read(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    thread: &str,
    page: u64,
    r: Result<MessagesPage, ApiError>,
) -> Vec<Cmd> {
    let p = match r {
        Ok(p) => p,
        Err(e) => {
            cx.toasts.error(cx.now, "reading the thread to reply", &e);
            return Vec::new();
        }
    };
    let per = u64::try_from(PAGE).unwrap_or(200);
    let last = p.total.saturating_sub(1) / per + 1;
    if page < last {
        // The newest messages are on the last page.
        read(cx, thread, last);
        return Vec::new();
    }
    if inbox.view != View::List || inbox.editor.is_some() {
        return Vec::new();
    }
    let Some(t) = inbox.thread(thread).cloned() else {
        return Vec::new();
    };
    let Some(msg) = reply::last_inbound(&p.messages).cloned() else {
        return refuse(
            cx,
            "Nothing to reply to",
            &format!(
                "no inbound message among this thread's latest; open it ({}) and reply to a message there",
                cx.keymap.key_label(Action::Open)
            ),
        );
    };
    let baseline = usize::try_from(p.total).ok();
    super::editor::reply::open(inbox, cx, &t, &msg, baseline)
}
