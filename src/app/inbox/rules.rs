//! The contract's thread rules as the pane shows them: only a draft is
//! edited, sent or deleted, and a send needs its recipient, a ready sender
//! and the text the service holds. A key that does not apply to the thread
//! under the cursor stays in the hints, after the ones that do, with a
//! short reason ("send ✗ drafts only"); pressing it says the whole reason
//! as a notice. The service stays the judge of what it is sent.

use super::send::blocked;
use crate::api::model::{Thread, ThreadStatus};
use crate::app::Model;
use crate::app::keymap::Action;

/// A thread key whose use depends on the thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Opening the draft's editor.
    Edit,
    /// Sending the draft.
    Send,
    /// Deleting the draft.
    Delete,
}

impl Op {
    /// Every such key, in the order the hints list them.
    pub const ALL: [Op; 3] = [Op::Edit, Op::Send, Op::Delete];

    /// The key's action.
    pub fn action(self) -> Action {
        match self {
            Op::Edit => Action::EditDraft,
            Op::Send => Action::SendDraft,
            Op::Delete => Action::DeleteDraft,
        }
    }
}

/// The hint of `op`'s key for thread `t`, and whether the key applies:
/// `("send", true)`, or `("send ✗ no recipient", false)`.
pub fn hint(m: &Model, t: &Thread, op: Op) -> (&'static str, bool) {
    let draft = t.status == ThreadStatus::Draft;
    let label = match op {
        Op::Edit if draft => "edit",
        Op::Edit => "edit ✗ drafts only",
        Op::Delete if draft => "delete",
        Op::Delete => "delete ✗ drafts only",
        Op::Send => return blocked(m, t).map_or(("send", true), |b| (b.hint, false)),
    };
    (label, draft)
}

/// Status-bar hints: `(action, label)`.
pub type Hints = Vec<(Action, &'static str)>;

/// The hints of the thread keys for `t`: those that apply, and those that
/// do not (listed last, with why).
pub fn hints(m: &Model, t: &Thread) -> (Hints, Hints) {
    let (mut on, mut off) = (Vec::new(), Vec::new());
    for op in Op::ALL {
        let (label, applies) = hint(m, t, op);
        if applies {
            on.push((op.action(), label));
        } else {
            off.push((op.action(), label));
        }
    }
    (on, off)
}
