//! Sends still being checked, kept in the local state file: a send whose
//! answer may have reached the service is written into the state on every
//! save, and a restart takes it back and resumes its check where it was
//! (the same reads so far, the same schedule), so the draft is never sent
//! again as if nothing had happened. A send known to have gone is dropped.

use super::send::{SendCheck, Stage};
use crate::app::Model;
use crate::app::toast::Level;
use crate::logic::write::{Check, Verdict};
use crate::store::{PendingWrite, State};

/// The kind of a kept send.
const SEND: &str = "send";

/// What lost the answer of a send that was still on its way when Outpost
/// closed: it may have reached the service all the same.
pub const CLOSED: &str = "closed before the answer";

/// The state key of a thread's send.
fn key(thread: &str) -> String {
    format!("{SEND}:{thread}")
}

/// Copies the sends being checked (or settled without being found) into
/// the state. Before the pane took the kept ones back, the state's are
/// left as they are: nothing kept is dropped unseen.
pub fn capture(m: &Model, state: &mut State) {
    if !m.panes.inbox.restored {
        return;
    }
    state.pending_writes.retain(|_, w| w.kind != SEND);
    for (thread, c) in &m.panes.inbox.checks {
        if let Some(w) = record(thread, c) {
            state.pending_writes.insert(key(thread), w);
        }
    }
}

fn record(thread: &str, c: &SendCheck) -> Option<PendingWrite> {
    let (absent, failed, last_error, verdict, detail) = match c.check.as_ref() {
        None => (0, 0, None, None, String::new()),
        Some(check) => {
            let (v, d) = match &check.verdict {
                None => (None, String::new()),
                // Known to have gone: nothing left to check.
                Some(Verdict::Found(_)) => return None,
                Some(Verdict::NotFound) => (Some("not_found"), String::new()),
                Some(Verdict::CouldNotCheck(e)) => (Some("could_not_check"), e.clone()),
                Some(Verdict::NoCheck(why)) => (Some("no_check"), why.clone()),
            };
            (
                check.absent,
                check.failed,
                check.last_error.clone(),
                v.map(str::to_owned),
                d,
            )
        }
    };
    Some(PendingWrite {
        kind: SEND.into(),
        thread: Some(thread.to_owned()),
        fields: [
            ("subject".to_owned(), c.subject.clone()),
            ("body".to_owned(), c.body.clone()),
        ]
        .into(),
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
    let verdict = match w.verdict.as_deref() {
        Some("not_found") => Some(Verdict::NotFound),
        Some("could_not_check") => Some(Verdict::CouldNotCheck(w.verdict_detail.clone())),
        Some("no_check") => Some(Verdict::NoCheck(w.verdict_detail.clone())),
        // An unknown verdict is not taken for one: the check goes on.
        _ => None,
    };
    let field = |k: &str| w.fields.get(k).cloned().unwrap_or_default();
    SendCheck {
        lost: Some(w.lost.clone().unwrap_or_else(|| CLOSED.to_owned())),
        check: Some(Check {
            absent: w.absent,
            failed: w.failed,
            last_error: w.last_error.clone(),
            reading: false,
            verdict,
        }),
        baseline: w.baseline,
        subject: field("subject"),
        body: field("body"),
    }
}

/// Takes back the sends the state keeps (once per session or profile):
/// their checks resume on their schedule, and the user is told.
pub fn restore(m: &mut Model) {
    if m.panes.inbox.restored {
        return;
    }
    m.panes.inbox.restored = true;
    let kept: Vec<(String, SendCheck)> = m
        .state
        .pending_writes
        .values()
        .filter(|w| w.kind == SEND)
        .filter_map(|w| Some((w.thread.clone()?, check_of(w))))
        .collect();
    let mut resumed = 0_u64;
    for (thread, c) in kept {
        if m.panes.inbox.checks.contains_key(&thread) {
            continue;
        }
        let said = match c.stage() {
            Stage::Settled(_) => None,
            _ => Some(c.subject.clone()),
        };
        m.panes.inbox.checks.insert(thread, c);
        if let Some(subject) = said {
            resumed += 1;
            let subject = if subject.trim().is_empty() {
                "(no subject)".to_owned()
            } else {
                format!("“{}”", crate::text::sanitize::DisplayText::inline(&subject))
            };
            m.notify(
                Level::Warning,
                "An earlier send may have gone",
                &format!(
                    "the send of {subject} lost its answer before Outpost closed; the thread is checked again, and it is not sent again until Outpost knows"
                ),
            );
        }
    }
    if resumed > 0 {
        m.redraw = true;
    }
}
