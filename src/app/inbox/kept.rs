//! Sends still being checked, kept in the local state file: a send whose
//! answer may have reached the service is written into the state on every
//! save, and a restart takes it back and resumes its check where it was
//! (the same reads so far, the same schedule), so the draft is never sent
//! again as if nothing had happened. A send known to have gone is dropped.
//! A new draft's create being checked is kept the same way, with the
//! editor's unsent text: restoring that text brings its check back.

use super::InboxModel;
use super::editor::{CreateCheck, DraftFields, draft_key};
use super::send::{SendCheck, Stage};
use crate::app::ctx::Ctx;
use crate::app::toast::Level;
use crate::logic::write::Check;
use crate::store::REPLY_FIELD as REPLY;
use crate::store::{PendingWrite, State};

/// The kind of a kept send.
const SEND: &str = "send";

/// What lost the answer of a send that was still on its way when Outpost
/// closed: it may have reached the service all the same.
pub(crate) const CLOSED: &str = "closed before the answer";

/// The state key of a thread's send.
fn key(thread: &str) -> String {
    format!("{SEND}:{thread}")
}

/// Copies the sends being checked (or settled without being found) into
/// the state. Before the pane took the kept ones back, the state's are
/// left as they are: nothing kept is dropped unseen.
pub(crate) fn capture(inbox: &InboxModel, state: &mut State) {
    if !inbox.restored {
        return;
    }
    state.pending_writes.retain(|_, w| w.kind != SEND);
    for (thread, c) in &inbox.checks {
        if let Some(w) = record(thread, c) {
            state.pending_writes.insert(key(thread), w);
        }
    }
    capture_create(inbox, state);
}

/// The kind of a kept create.
const CREATE: &str = "create";

/// The state key of the new draft's create.
fn create_key() -> String {
    format!("{CREATE}:{}", draft_key(None))
}

/// The new draft's create being checked, kept beside its unsent text; it
/// goes when that text goes (sent, saved, discarded) or the check found it.
fn capture_create(inbox: &InboxModel, state: &mut State) {
    let editor = inbox.editor.as_ref().filter(|e| !e.restoring);
    match editor {
        Some(e) if e.thread.is_none() && e.reply.is_none() => {
            match e.created_check.as_ref().and_then(create_record) {
                Some(w) => state.pending_writes.insert(create_key(), w),
                None => state.pending_writes.remove(&create_key()),
            };
        }
        _ if !state.drafts.contains_key(&draft_key(None)) => {
            state.pending_writes.remove(&create_key());
        }
        _ => {}
    }
}

fn create_record(c: &CreateCheck) -> Option<PendingWrite> {
    let (verdict, detail) = c.check.kept_verdict()?;
    Some(PendingWrite {
        kind: CREATE.into(),
        thread: None,
        fields: c.sent.to_draft().fields,
        baseline: None,
        lost: None,
        absent: c.check.absent,
        failed: c.check.failed,
        last_error: c.check.last_error.clone(),
        verdict,
        verdict_detail: detail,
    })
}

/// The kept check of the new draft's create, taken back with its text
/// (the reads so far and the verdict as they were).
pub(crate) fn take_create(state: &State) -> Option<CreateCheck> {
    let w = state.pending_writes.get(&create_key())?;
    Some(CreateCheck {
        sent: DraftFields::from_draft(&crate::store::Draft {
            title: String::new(),
            fields: w.fields.clone(),
        }),
        check: Check::from_kept(w),
    })
}

/// The new draft's kept text was discarded: its create's check goes too.
pub(crate) fn drop_create(state: &mut State) {
    state.pending_writes.remove(&create_key());
}

fn record(thread: &str, c: &SendCheck) -> Option<PendingWrite> {
    let (absent, failed, last_error, (verdict, detail)) = match c.check.as_ref() {
        None => (0, 0, None, (None, String::new())),
        Some(check) => (
            check.absent,
            check.failed,
            check.last_error.clone(),
            check.kept_verdict()?,
        ),
    };
    Some(PendingWrite {
        kind: SEND.into(),
        thread: Some(thread.to_owned()),
        fields: {
            let mut f: std::collections::BTreeMap<String, String> = [
                ("subject".to_owned(), c.subject.clone()),
                ("body".to_owned(), c.body.clone()),
            ]
            .into();
            if c.reply {
                f.insert(REPLY.to_owned(), "true".to_owned());
            }
            f
        },
        baseline: c.baseline,
        lost: Some(c.lost.clone().unwrap_or_else(|| CLOSED.to_owned())),
        absent,
        failed,
        last_error,
        verdict,
        verdict_detail: detail,
    })
}

/// A kept send as the pane's check: the reads so far and the verdict as
/// they were; a read that was on its way is due again on the schedule. A
/// send that had no answer yet when Outpost closed is checked from the
/// start.
fn check_of(w: &PendingWrite) -> SendCheck {
    let field = |k: &str| w.fields.get(k).cloned().unwrap_or_default();
    SendCheck {
        lost: Some(w.lost.clone().unwrap_or_else(|| CLOSED.to_owned())),
        check: Some(Check::from_kept(w)),
        baseline: w.baseline,
        subject: field("subject"),
        body: field("body"),
        reply: w.fields.contains_key(REPLY),
    }
}

/// Takes back the sends the state keeps (once per session or profile):
/// their checks resume on their schedule, and the user is told.
pub(crate) fn restore(inbox: &mut InboxModel, cx: &mut Ctx<'_>) {
    if inbox.restored {
        return;
    }
    inbox.restored = true;
    let kept: Vec<(String, SendCheck)> = cx
        .state
        .pending_writes
        .values()
        .filter(|w| w.kind == SEND)
        .filter_map(|w| Some((w.thread.clone()?, check_of(w))))
        .collect();
    let mut resumed = 0_u64;
    for (thread, c) in kept {
        if inbox.checks.contains_key(&thread) {
            continue;
        }
        let said = match c.stage() {
            Stage::Settled(_) => None,
            _ => Some(c.subject.clone()),
        };
        inbox.checks.insert(thread, c);
        if let Some(subject) = said {
            resumed += 1;
            let subject = if subject.trim().is_empty() {
                "(no subject)".to_owned()
            } else {
                format!("“{}”", crate::text::sanitize::DisplayText::inline(&subject))
            };
            cx.notify(
                Level::Warning,
                "An earlier send may have gone",
                &format!(
                    "the send of {subject} lost its answer before Outpost closed; the thread is checked again, and it is not sent again until Outpost knows"
                ),
            );
        }
    }
    if resumed > 0 {
        cx.redraw();
    }
}
