//! A campaign create whose answer was lost (see [`crate::app::lost_answer`]):
//! the campaigns are read again and the one with the name sent, not
//! listed before and made since it was sent, is looked for — found, it
//! opens as created. A second Ctrl-S asks first; it never sends a second
//! POST by itself. What was sent and what is known of it live in the pane
//! ([`LastCreate`]), not in the form: closing the form and opening it
//! again forgets neither, and the looks go on meanwhile.

use std::collections::BTreeSet;
use std::time::Duration;

pub(crate) use crate::app::lost_answer::{Check, Uncertain};

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::{
    CampaignsModel, Confirmed, Purpose, create, error_text, fixed_keys, list, uncertain_detail,
};
use crate::api::ApiError;
use crate::api::model::Campaign;
use crate::app::ctx::Ctx;
use crate::app::lost_answer::made_since;

/// A create request as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The name sent (names are unique in a workspace).
    pub name: String,
    /// Wall clock when it was sent (unix seconds).
    pub at: i64,
    /// The campaigns listed before it was sent (may be none: the list was
    /// never read, e.g. when the form was opened from the Leads pane).
    pub known: BTreeSet<String>,
}

impl Sent {
    /// Whether `c` is the campaign this create made: the name sent, not
    /// listed before, and made since (a same-named campaign the list was
    /// not read for is older).
    pub fn made(&self, c: &Campaign) -> bool {
        c.name.trim() == self.name
            && !self.known.contains(&c.id)
            && made_since(&c.created_at, self.at)
    }
}

/// The pane's last create, kept across the form's close and reopen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastCreate {
    /// What the last create sent, to recognise the campaign if its answer
    /// is lost.
    pub sent: Option<Sent>,
    /// The last create may have been carried out: what is known of it.
    pub uncertain: Option<Uncertain>,
}

/// Says in the form's note (when the form is open) what is known of the
/// lost create (once: the error's own advice is left out).
pub(crate) fn show(c: &mut CampaignsModel) {
    if let Some(f) = c.create.as_mut()
        && let Some(u) = &c.last_create.uncertain
    {
        f.form.note = Some(format!(
            "The create request may have been carried out ({}): {}. {} asks before sending it again.",
            u.why,
            u.text("campaigns"),
            fixed_keys::SUBMIT.label
        ));
    }
}

/// The create's answer was lost after sending: the campaigns are read
/// again to find it; the form (if still open) stays and says so.
pub(crate) fn on_lost(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, e: &ApiError) -> Vec<Cmd> {
    let l = &cm.list;
    let listed = !(l.loaded && l.registry);
    cm.last_create.uncertain = Some(Uncertain::new(cx, uncertain_detail(e), listed));
    show(cm);
    cx.notify(
        Level::Warning,
        "Campaign may have been created",
        "its answer was lost; checking the campaigns list",
    );
    if !listed {
        return Vec::new();
    }
    read(cm, cx)
}

/// Reads the campaigns for the check (unless a read is on its way).
pub(crate) fn read(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if super::pending(cx.requests, |p| *p == Purpose::CreateCheck) {
        return Vec::new();
    }
    if let Some(u) = cm.last_create.uncertain.as_mut() {
        u.reading();
    }
    cx.request(Purpose::CreateCheck, ApiRequest::ListCampaigns);
    Vec::new()
}

/// When the check reads the campaigns again, if it does.
pub(crate) fn recheck(c: &CampaignsModel) -> Option<(u32, Duration)> {
    let u = c.last_create.uncertain.as_ref()?;
    Some((u.reads(), u.recheck()?))
}

/// The campaigns, read after a lost create answer: the new campaign is
/// the one with the name sent that was not listed before, made since.
pub(crate) fn on_check(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    result: Result<Option<Vec<Campaign>>, ApiError>,
) -> Vec<Cmd> {
    let last = &cm.last_create;
    if last.uncertain.is_none() {
        return Vec::new();
    }
    let sent = last.sent.clone();
    let check = match result {
        Ok(Some(rows)) => {
            let found = sent
                .as_ref()
                .and_then(|s| rows.iter().find(|c| s.made(c)).cloned());
            // The list shows what the check read.
            let mut cmds = list::on_list(&mut cm.list, cx, Ok(Some(rows)));
            if let Some(c) = found {
                if let Some(u) = cm.last_create.uncertain.as_mut() {
                    u.found(cx, "found in the campaigns list");
                }
                cmds.extend(create::created(cm, cx, c, true));
                return cmds;
            }
            Check::NotFound
        }
        Ok(None) => Check::Unlisted,
        Err(e) => Check::Failed(error_text(&e)),
    };
    if let Some(u) = cm.last_create.uncertain.as_mut() {
        u.read(cx, check);
    }
    show(cm);
    Vec::new()
}

/// "Create again?" after a create that may have been carried out.
pub(crate) fn ask_again(cm: &CampaignsModel, cx: &mut Ctx<'_>) {
    let last = &cm.last_create;
    let Some(u) = last.uncertain.clone() else {
        return;
    };
    let name = last
        .sent
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_default();
    cx.confirm(Confirm {
        title: "Create again?".into(),
        lines: vec![
            format!(
                "The last create of “{name}” may have been carried out ({}).",
                u.why
            ),
            format!("Outpost found: {}.", u.text("campaigns")),
            "Sending it again may create a second campaign (or be refused as a duplicate name)."
                .into(),
        ],
        yes: "Create again".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::CreateAgain.into()),
    });
}

/// "Create again?" was answered yes: the question is settled, the form is
/// sent.
pub(crate) fn create_again(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    cm.last_create.uncertain = None;
    if let Some(f) = cm.create.as_mut() {
        f.form.note = None;
    }
    create::submit(cm, cx)
}
