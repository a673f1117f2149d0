//! A launch, pause or resume whose answer may have reached the service (a
//! timeout, a dropped connection, any 5xx — [`write::of_error`]) is settled
//! by reading the campaign's status on the one schedule of
//! [`write::Check`]: the status the write leads to proves it landed; a good
//! read still showing the old status counts towards "not found"; a failed
//! read counts for nothing. While it is checked the same key is refused;
//! afterwards it asks first, with what the check saw.

use std::time::Duration;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd};
use super::rules::Op;
use super::{CampaignsModel, Purpose, error_text, pending, uncertain_detail, upsert};
use crate::api::ApiError;
use crate::api::model::{Campaign, CampaignStatus, NodeType, SequenceNodeInput};
use crate::app::ctx::Ctx;
use crate::app::keymap::{Action, Keymap};
use crate::app::requests::Requests;
use crate::logic::proof::Move;
use crate::logic::write::{self, Outcome, Seen, Settle, Verdict};

/// Where the check looks, for [`write::Check::text`].
pub(crate) const PLACE: &str = "in the campaign's status";

/// A state change whose answer was lost, and what its check saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusCheck {
    /// The change sent (launch, pause or resume).
    pub op: Op,
    /// The campaign's name, for the notices.
    pub name: String,
    /// What went wrong with the answer (`bad_gateway: …`).
    pub why: String,
    /// The reads of the campaign so far.
    pub check: write::Check,
    /// A sequence save: the steps sent (type, subject, body), which a read
    /// of the campaign finds when the save landed.
    pub steps: Option<Vec<Step>>,
}

/// A sequence step as sent and as read back: type, subject, body.
pub(crate) type Step = (NodeType, String, String);

/// Where a sequence save's check looks.
pub(crate) const SEQUENCE_PLACE: &str = "in the campaign's sequence";

impl StatusCheck {
    /// Reads so far, good or failed (a subscription's key: it changes with
    /// every read, so each restarts the timer).
    pub fn reads(&self) -> u32 {
        self.check.absent.saturating_add(self.check.failed)
    }

    /// What the check saw so far, said of where it looks (the campaign's
    /// status, or its sequence).
    pub fn text(&self) -> String {
        self.check.text(self.place())
    }

    /// Where the check looks.
    pub fn place(&self) -> &'static str {
        if self.steps.is_some() {
            SEQUENCE_PLACE
        } else {
            PLACE
        }
    }
}

/// Whether a campaign in `status` shows that `op` was carried out: the
/// status moves by the one rule the CLI settles them with
/// ([`crate::logic::proof::Move`]); a roster or sequence change is never
/// shown by the status.
pub(crate) fn landed(op: Op, status: &CampaignStatus) -> bool {
    let moved = match op {
        Op::Launch => Move::Launch,
        Op::Pause => Move::Pause,
        Op::Resume => Move::Resume,
        Op::ChangeRoster | Op::EditSequence => return false,
    };
    moved.shown_by(status)
}

/// The key of `op` (`R` for resume), from the keymap.
pub(crate) fn key_of(keymap: &Keymap, op: Op) -> String {
    let action = match op {
        Op::Launch => Action::Launch,
        Op::Pause => Action::Pause,
        Op::Resume => Action::Resume,
        Op::ChangeRoster => Action::ImportCsv,
        Op::EditSequence => Action::EditSequence,
    };
    keymap.key_label(action)
}

/// The title of `op`'s notices: `Resume`.
pub(crate) fn title(op: Op) -> String {
    let name = op.name();
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// `op`'s answer may have reached the service: checking starts now (the
/// first read goes out at once).
pub(crate) fn start(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    name: &str,
    op: Op,
    e: &ApiError,
) -> Vec<Cmd> {
    let why = uncertain_detail(e);
    cm.changes.insert(
        id.to_owned(),
        StatusCheck {
            op,
            name: name.to_owned(),
            why: why.clone(),
            check: cx.lost_check(),
            steps: None,
        },
    );
    let key = key_of(cx.keymap, op);
    cx.notify(
        Level::Warning,
        &format!("{}: answer lost", title(op)),
        &format!(
            "{why} — the {} may have reached the service, so it was not sent again; reading the campaign's status to see ({key} waits for the check)",
            op.name()
        ),
    );
    send(cx, id)
}

/// A sequence save's answer may have reached the service: the campaign is
/// read back at once, then on the check's schedule, and its steps compared
/// with those sent (found when they match; a failed read counts for
/// nothing).
pub(crate) fn start_sequence(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    sent: &[SequenceNodeInput],
    e: &ApiError,
) -> Vec<Cmd> {
    let name = cm
        .open
        .as_ref()
        .map(|o| &o.campaign)
        .into_iter()
        .chain(cm.list.rows.iter())
        .find(|c| c.id == id)
        .map_or_else(|| id.to_owned(), |c| c.name.clone());
    cm.changes.insert(
        id.to_owned(),
        StatusCheck {
            op: Op::EditSequence,
            name,
            why: uncertain_detail(e),
            check: cx.lost_check(),
            steps: Some(sent.iter().map(step_of_input).collect()),
        },
    );
    send(cx, id)
}

fn step_of_input(n: &SequenceNodeInput) -> Step {
    (n.kind.clone(), n.subject.trim().to_owned(), n.body.clone())
}

/// The steps a campaign read shows, in order (`None`: the answer left its
/// sequence out, which proves nothing either way).
fn steps_read(c: &Campaign) -> Option<Vec<Step>> {
    let mut nodes = c.sequence_nodes.clone()?;
    nodes.sort_by_key(|n| n.position);
    Some(
        nodes
            .iter()
            .map(|n| (n.kind.clone(), n.subject.trim().to_owned(), n.body.clone()))
            .collect(),
    )
}

/// What one good read of campaign `c` shows of the write `s` checks.
fn seen_in(s: &StatusCheck, c: &Campaign) -> Seen {
    match &s.steps {
        Some(sent) => match steps_read(c) {
            Some(read) if read == *sent => {
                Seen::Found("found in the campaign's sequence (its steps are those sent)".into())
            }
            Some(_) => Seen::Absent,
            None => Seen::Failed("the campaign was read without its sequence".into()),
        },
        None if landed(s.op, &c.status) => {
            Seen::Found(format!("the campaign's status reads {}", c.status))
        }
        None => Seen::Absent,
    }
}

/// Sends the check's next read of the campaign.
fn send(cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    cx.request(
        Purpose::StatusCheck(id.to_owned()),
        ApiRequest::GetCampaign { id: id.to_owned() },
    );
    Vec::new()
}

/// The check's timer fired: its next read (unless one is on its way).
pub(crate) fn read(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    if pending(cx.requests, |p| *p == Purpose::StatusCheck(id.to_owned())) {
        return Vec::new();
    }
    let Some(s) = cm.changes.get_mut(id) else {
        return Vec::new();
    };
    if s.check.settled() {
        return Vec::new();
    }
    s.check.reading();
    send(cx, id)
}

/// When each unsettled check reads next: `(campaign, reads so far, wait)`.
/// A check whose read was dropped (another workspace opened) reads again
/// after the schedule's first gap instead of waiting forever.
/// (`requests`: what is in flight).
pub(crate) fn due(c: &CampaignsModel, requests: &Requests) -> Vec<(String, u32, Duration)> {
    c.changes
        .iter()
        .filter_map(|(id, s)| {
            let lost_read = s.check.reading
                && !s.check.settled()
                && !pending(requests, |p| *p == Purpose::StatusCheck(id.clone()));
            let wait = if lost_read {
                Some(Duration::from_secs(write::SCHEDULE_SECS[1]))
            } else {
                s.check.next_in()
            };
            wait.map(|w| (id.clone(), s.reads(), w))
        })
        .collect()
}

/// A read of the check came back.
pub(crate) fn on_read(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    let Some(check) = cm.changes.get(id) else {
        return Vec::new();
    };
    let seen = match result {
        Ok(c) => {
            let seen = seen_in(check, &c);
            upsert(cm, cx, c);
            // A whole campaign: nothing shown is carried over any more.
            super::detail::whole_read(cm, id);
            seen
        }
        Err(e) => Seen::Failed(error_text(&e)),
    };
    let Some(s) = cm.changes.get_mut(id) else {
        return Vec::new();
    };
    let Some(verdict) = cx.saw(&mut s.check, seen) else {
        cx.redraw();
        return Vec::new();
    };
    let s = s.clone();
    let key = key_of(cx.keymap, s.op);
    let name = &s.name;
    if s.steps.is_some() {
        return sequence_verdict(cm, cx, id, &s, &verdict);
    }
    match verdict {
        Verdict::Found(how) => {
            cm.changes.remove(id);
            cx.notify(
                Level::Success,
                &format!("{}: it went", title(s.op)),
                &format!("“{name}”: {how} (checked after its answer was lost)"),
            );
        }
        Verdict::NotFound => cx.notify(
            Level::Warning,
            &format!("{}: most likely not done", title(s.op)),
            &format!(
                "“{name}”: {} — {key} asks before sending the {} again",
                s.text(),
                s.op.name()
            ),
        ),
        Verdict::CouldNotCheck(_) | Verdict::NoCheck(_) => cx.notify(
            Level::Warning,
            &format!("{}: may have reached", title(s.op)),
            &format!(
                "“{name}”: {} — {key} asks before sending the {} again; the web dashboard shows the campaign's status",
                s.text(),
                s.op.name()
            ),
        ),
    }
    Vec::new()
}

/// A sequence save's check settled: said once. Saving again is safe either
/// way (it replaces the whole sequence), so the verdict says so.
fn sequence_verdict(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    s: &StatusCheck,
    verdict: &Verdict,
) -> Vec<Cmd> {
    let name = crate::text::sanitize::DisplayText::inline(&s.name).to_string();
    let key = super::fixed_keys::SUBMIT.label;
    match verdict {
        Verdict::Found(how) => {
            cm.changes.remove(id);
            cx.notify(
                Level::Success,
                "Sequence saved",
                &format!("“{name}”: {how} (checked after its answer was lost)"),
            );
            // Saved: the editor closes as after a save that answered.
            if cm.sequence.as_ref().is_some_and(|e| e.campaign == id) {
                cm.sequence = None;
                cm.view = super::View::Detail;
            }
            super::drop_draft(cx, &crate::logic::preflight::unsaved_sequence_key(id));
            return Vec::new();
        }
        Verdict::NotFound => cx.notify(
            Level::Warning,
            "Sequence: most likely not saved",
            &format!(
                "“{name}”: {} — {key} in the editor saves it again (safe: it replaces the sequence)",
                s.text()
            ),
        ),
        Verdict::CouldNotCheck(_) | Verdict::NoCheck(_) => cx.notify(
            Level::Warning,
            "Sequence: may have been saved",
            &format!(
                "“{name}”: {} — {key} in the editor saves it again (safe: it replaces the sequence)",
                s.text()
            ),
        ),
    }
    Vec::new()
}

/// Whether `op` on campaign `id` may go on to its question: refused (with a
/// notice) while an earlier one whose answer was lost is being checked.
pub(crate) fn may_ask(cm: &CampaignsModel, cx: &mut Ctx<'_>, id: &str, op: Op) -> bool {
    let Some(s) = cm.changes.get(id) else {
        return true;
    };
    if s.check.settled() {
        return true;
    }
    let text = format!(
        "the last {} may have reached the service ({}); {} — wait for the check before sending anything again",
        s.op.name(),
        s.why,
        s.text()
    );
    cx.notify(Level::Warning, &format!("Cannot {} now", op.name()), &text);
    false
}

/// The line a state-change question adds after a lost answer of the same
/// campaign: what the check saw and why sending again could do it twice.
pub(crate) fn again_line(c: &CampaignsModel, id: &str) -> Option<String> {
    let s = c.changes.get(id)?;
    Some(format!(
        "The last {} ({}): {}",
        s.op.name(),
        s.why,
        s.check.again_warning(s.place())
    ))
}

/// A state change of `id` is sent again (asked and confirmed): the old
/// check is done with.
pub(crate) fn sent_again(cm: &mut CampaignsModel, id: &str) {
    cm.changes.remove(id);
}

/// The note of another write of the pane (a sequence, lead or message
/// save, a delete) that failed, from the one classifier
/// ([`write::of_error`]): a refusal as the service said it (nothing was
/// done); an answer that may have reached says so once, and how it is
/// settled — `repeat` says why sending again does no harm
/// ([`Settle::SafeToRepeat`]). Never a refresh key as if it retried.
pub(crate) fn failed_write(e: &ApiError, what: &str, settle: Settle, repeat: &str) -> String {
    match write::of_error(e) {
        Outcome::MayHaveReached => {
            let how = match settle {
                Settle::SafeToRepeat => format!("sending it again is safe: {repeat}"),
                Settle::Check | Settle::NoCheck => repeat.to_owned(),
            };
            format!(
                "{} — {what} may have reached the service (its answer was lost); {how}",
                uncertain_detail(e)
            )
        }
        Outcome::Refused | Outcome::Done => format!("{} — nothing was done", error_text(e)),
    }
}

/// Says a write's failure as a notice when its form is gone (`title`:
/// "Lead edit"): a warning when it may have reached, an error when refused.
pub(crate) fn notify_failed(cx: &mut Ctx<'_>, title: &str, e: &ApiError, note: &str) {
    if write::of_error(e) == Outcome::MayHaveReached {
        cx.notify(Level::Warning, &format!("{title} may have reached"), note);
    } else {
        cx.notify(Level::Error, &format!("{title} refused"), note);
    }
}
