//! A domain create whose answer was lost after it was sent (a timeout, a
//! dropped connection, a 5xx, a 2xx body that cannot be read): the domain
//! may have been added. The add dialog says so, and the domain list is
//! read on the one schedule of [`crate::logic::write::Check`] (at 0, 2, 4,
//! 8 and 16 s; a failed read proves nothing) to learn whether it was: found,
//! the domain is shown as added. Sending the same name again asks first;
//! the create itself is never sent again on its own.

use std::time::Duration;

use super::actions::open_domain;
use super::filter::reselect;
use super::load::send_create;
use super::replies::replace_domains;
use super::{DomainsModel, Purpose, Question, View, in_flight};
use crate::api::ApiError;
use crate::api::model::SendingDomain;
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::pane::Answer;
use crate::app::toast::{Level, error_text};
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction};
use crate::logic::write::{Check, Seen, Verdict};
use crate::text::sanitize;

/// Where the check looks, in its words ("not found in the domain list").
const PLACE: &str = "in the domain list";

/// A create that may have been carried out, and the check of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostAdd {
    /// The domain name sent.
    pub name: String,
    /// What went wrong, in short (the error's code: `timeout`).
    pub code: String,
    /// What went wrong (`timeout: no answer within 1s`).
    pub why: String,
    /// The reads of the domain list so far.
    pub check: Check,
}

impl LostAdd {
    /// What the dialog says of it (two lines at most, even at 60 columns).
    pub fn note(&self) -> String {
        let seen = self.check.text(PLACE);
        if self.check.settled() {
            format!(
                "May have been added ({}): {seen}. {SEND} asks first.",
                self.code
            )
        } else {
            format!("May have been added ({}): {seen}", self.code)
        }
    }

    /// Reads of the list so far, good or failed (the subscription's key:
    /// it changes with every read, so each wait is timed from its read).
    pub fn reads(&self) -> u32 {
        self.check.absent.saturating_add(self.check.failed)
    }
}

/// The form's fixed key that sends it, as its footer names it.
const SEND: &str = "Ctrl-S";

/// Shows what is known of the lost create in the dialog (when open).
fn show(d: &mut DomainsModel, cx: &mut Ctx<'_>) {
    let note = d.lost_create.as_ref().map(LostAdd::note);
    if let Some(form) = d.add.as_mut() {
        form.note = note;
    }
    cx.redraw();
}

/// What went wrong, without advice to refresh (Outpost checks itself).
fn lost_why(e: &ApiError) -> String {
    match e {
        ApiError::Timeout { after, .. } => {
            format!("timeout: no answer within {}s", after.as_secs_f32())
        }
        ApiError::Transport { detail, .. } => format!("connection_lost: {detail}"),
        ApiError::Decode { status, detail, .. } => format!(
            "malformed_response: the service said {status} but its answer could not be read: {detail}"
        ),
        ApiError::Service(s) => format!("{}: {} (HTTP {})", s.code, s.message, s.status),
        other => error_text(other),
    }
}

/// A create of `name` failed in a way that may have added it: said, and
/// the list is read to learn whether it was.
pub(super) fn on_lost(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    name: &str,
    e: &ApiError,
) -> Vec<Cmd> {
    let why = lost_why(e);
    d.lost_create = Some(LostAdd {
        name: name.to_owned(),
        code: e.code().to_owned(),
        why: why.clone(),
        check: cx.lost_check(),
    });
    show(d, cx);
    cx.notify(
        Level::Warning,
        "Domain may have been added",
        &format!(
            "{}: {why}; reading the domain list to see",
            sanitize::inline(name)
        ),
    );
    send_read(cx, name)
}

fn send_read(cx: &mut Ctx<'_>, name: &str) -> Vec<Cmd> {
    if in_flight(
        cx.requests,
        |p| matches!(p, Purpose::CreateCheck(n) if n == name),
    ) {
        return Vec::new();
    }
    cx.request(
        Purpose::CreateCheck(name.to_owned()),
        ApiRequest::ListDomains { skip_sync: true },
    );
    Vec::new()
}

/// When the check reads the list again (its key: the reads so far).
pub(super) fn recheck(d: &DomainsModel) -> Option<(u32, Duration)> {
    let l = d.lost_create.as_ref()?;
    Some((l.reads(), l.check.next_in()?))
}

/// The check's next read fell due.
pub(super) fn read(d: &mut DomainsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(l) = d.lost_create.as_mut() else {
        return Vec::new();
    };
    if l.check.next_in().is_none() {
        return Vec::new();
    }
    l.check.reading();
    let name = l.name.clone();
    send_read(cx, &name)
}

/// The list read after a lost create of `name`: it is taken like any
/// list; the domain found there is shown (it was added), else the check
/// goes on (a failed read counts for nothing).
pub(super) fn on_check(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    name: &str,
    result: Result<Vec<SendingDomain>, ApiError>,
) -> Vec<Cmd> {
    let seen = match result {
        Ok(list) => {
            let found = find(&list, name);
            replace_domains(d, cx, &Default::default(), list);
            if let Some(id) = found {
                went_through(d, cx, name, &id);
                return Vec::new();
            }
            Seen::Absent
        }
        Err(e) => Seen::Failed(error_text(&e)),
    };
    let Some(l) = d.lost_create.as_mut().filter(|l| l.name == name) else {
        return Vec::new();
    };
    let settled = cx.saw(&mut l.check, seen);
    let said = l.check.text(PLACE);
    show(d, cx);
    if let Some(Verdict::NotFound | Verdict::CouldNotCheck(_)) = settled {
        cx.notify(
            Level::Warning,
            "Domain may have been added",
            &format!(
                "{}: {said}; adding it again asks first",
                sanitize::inline(name)
            ),
        );
    }
    Vec::new()
}

/// The domain named `name` in `list`.
fn find(list: &[SendingDomain], name: &str) -> Option<String> {
    list.iter()
        .find(|d| d.domain.eq_ignore_ascii_case(name))
        .map(|d| d.id.clone())
}

/// A list answered (any read of it): if it shows the domain a lost create
/// may have added, that create went through.
pub(super) fn spot(d: &mut DomainsModel, cx: &mut Ctx<'_>) {
    let Some(name) = d.lost_create.as_ref().map(|l| l.name.clone()) else {
        return;
    };
    if let Some(id) = find(&d.domains.items, &name) {
        went_through(d, cx, &name, &id);
    }
}

/// The lost create went through: the domain is shown on its records.
fn went_through(d: &mut DomainsModel, cx: &mut Ctx<'_>, name: &str, id: &str) {
    if let Some(mut l) = d.lost_create.take_if(|l| l.name == name) {
        cx.settle(&mut l.check, Verdict::Found(format!("found {PLACE}")));
    }
    let dialog_for_it = d
        .add
        .as_ref()
        .is_some_and(|f| same_name(&f.value("domain"), name));
    if dialog_for_it {
        d.add = None;
    }
    if !reselect(d, cx, View::Domains, Some(id.to_owned())) {
        d.domain_query.clear();
        reselect(d, cx, View::Domains, Some(id.to_owned()));
    }
    if dialog_for_it {
        open_domain(d, cx, id);
    }
    let verify = cx.keymap.key_label(Action::Verify);
    cx.notify(
        Level::Success,
        "Domain added",
        &format!(
            "{}: the request whose answer was lost went through (found {PLACE}); publish its DNS records, then press {verify} to verify",
            sanitize::inline(name)
        ),
    );
}

/// Whether two typed names are the same domain.
fn same_name(typed: &str, name: &str) -> bool {
    typed
        .trim()
        .trim_end_matches('.')
        .eq_ignore_ascii_case(name)
}

/// Sending `name` again after a create of it that may have been accepted
/// asks first; returns whether it asked.
pub(super) fn ask_first(d: &mut DomainsModel, cx: &mut Ctx<'_>, name: &str) -> bool {
    let Some(l) = d.lost_create.clone().filter(|l| l.name == name) else {
        return false;
    };
    cx.confirm(Confirm {
        title: "Add again?".into(),
        lines: vec![
            format!(
                "The last request to add {} may have reached the service ({}).",
                sanitize::inline(name),
                l.why
            ),
            l.check.again_warning(PLACE),
            "Sending it again may also be refused as already added.".into(),
        ],
        yes: "Add again".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Question::AddAgain(name.to_owned()).into()),
    });
    true
}

/// A question of the pane was answered.
pub(super) fn answered(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    q: Question,
    answer: Answer,
) -> Vec<Cmd> {
    match (q, answer) {
        (Question::AddAgain(name), Answer::Yes) => {
            d.lost_create = None;
            if let Some(form) = d.add.as_mut() {
                form.note = None;
            }
            send_create(d, cx, &name)
        }
        // Nothing is sent; the dialog stays as it was.
        (Question::AddAgain(_), _) => Vec::new(),
    }
}
