//! The contract's thread rules as the pane shows them: only a draft is
//! edited, sent or deleted, and a send needs its recipient, a ready sender
//! and the text the service holds. A key that does not apply to the thread
//! under the cursor stays in the hints, after the ones that do, with a
//! short reason ("send ✗ drafts only"); pressing it says the whole reason
//! as a notice. The service stays the judge of what it is sent.

use super::InboxModel;
use super::send::{Blocked, Stage, blocked};
use crate::api::model::{Thread, ThreadStatus};
use crate::app::keymap::{Action, Keymap};
use crate::store::State;

/// A thread key whose use depends on the thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// Opening the draft's editor.
    Edit,
    /// Sending the draft.
    Send,
    /// Deleting the draft.
    Delete,
}

impl Op {
    /// Every such key, in the order the hints list them.
    pub(crate) const ALL: [Op; 3] = [Op::Edit, Op::Send, Op::Delete];

    /// The key's action.
    pub(crate) fn action(self) -> Action {
        match self {
            Op::Edit => Action::EditDraft,
            Op::Send => Action::SendDraft,
            Op::Delete => Action::DeleteDraft,
        }
    }
}

fn no(title: &'static str, hint: &'static str, why: String) -> Option<Blocked> {
    Some(Blocked { title, hint, why })
}

/// Why `op` does not apply to thread `t` now, if it does not: not a
/// draft; a send of it on its way or being checked (the draft may already
/// be gone); for a delete, messages in the thread (only an unsent draft is
/// deleted). `keymap` names the keys a reason points to; `state` holds the
/// unsent text that blocks a send.
pub(crate) fn blocked_op(
    inbox: &InboxModel,
    keymap: &Keymap,
    state: &State,
    t: &Thread,
    op: Op,
) -> Option<Blocked> {
    let (verb, not_draft, sending, checking) = match op {
        Op::Send => return blocked(inbox, keymap, state, t),
        Op::Edit => (
            "edited",
            "edit ✗ drafts only",
            "edit ✗ sending",
            "edit ✗ checking",
        ),
        Op::Delete => (
            "deleted",
            "delete ✗ drafts only",
            "delete ✗ sending",
            "delete ✗ checking",
        ),
    };
    if t.status != ThreadStatus::Draft {
        return no(
            "Not a draft",
            not_draft,
            if op == Op::Delete {
                format!(
                    "only unsent drafts can be deleted; this thread is {} — archive it instead ({})",
                    t.status,
                    keymap.key_label(Action::Archive)
                )
            } else {
                format!(
                    "only drafts can be edited; this thread is {} (the contract sends only drafts)",
                    t.status
                )
            },
        );
    }
    match inbox.checks.get(&t.id).map(|c| c.stage()) {
        Some(Stage::Sending) => {
            return no(
                "Sending",
                sending,
                format!("this draft is being sent; it cannot be {verb} until the answer comes"),
            );
        }
        Some(Stage::Checking) => {
            return no(
                "Checking the last send",
                checking,
                format!(
                    "its answer was lost and the draft may already have gone; it cannot be {verb} until Outpost knows"
                ),
            );
        }
        _ => {}
    }
    let messages = inbox
        .open
        .as_ref()
        .filter(|o| o.id == t.id)
        .and_then(|o| o.messages.total)
        .unwrap_or(0);
    if op == Op::Delete && messages > 0 {
        return no(
            "Has messages",
            "delete ✗ has messages",
            format!(
                "only a draft with no messages can be deleted; this one has {} — archive it instead ({})",
                crate::text::format::plural(
                    u64::try_from(messages).unwrap_or(u64::MAX),
                    "message",
                    "messages"
                ),
                keymap.key_label(Action::Archive)
            ),
        );
    }
    None
}

/// The hint of `op`'s key for thread `t`, and whether the key applies:
/// `("send", true)`, or `("send ✗ no recipient", false)`.
pub(crate) fn hint(
    inbox: &InboxModel,
    keymap: &Keymap,
    state: &State,
    t: &Thread,
    op: Op,
) -> (&'static str, bool) {
    let label = match op {
        Op::Edit => "edit",
        Op::Send => "send",
        Op::Delete => "delete",
    };
    blocked_op(inbox, keymap, state, t, op).map_or((label, true), |b| (b.hint, false))
}

/// Status-bar hints: `(action, label)`.
pub(crate) type Hints = Vec<(Action, &'static str)>;

/// The hints of the thread keys for `t`: those that apply, and those that
/// do not (listed last, with why).
pub(crate) fn hints(
    inbox: &InboxModel,
    keymap: &Keymap,
    state: &State,
    t: &Thread,
) -> (Hints, Hints) {
    let (mut on, mut off) = (Vec::new(), Vec::new());
    for op in Op::ALL {
        let (label, applies) = hint(inbox, keymap, state, t, op);
        if applies {
            on.push((op.action(), label));
        } else {
            off.push((op.action(), label));
        }
    }
    (on, off)
}
