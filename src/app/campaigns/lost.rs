//! A create whose answer was lost after sending (a timeout, a lost
//! connection, a success answer that could not be read) may have made the
//! campaign. The campaigns are read again and the one with the name sent
//! (not listed before) is looked for: found, it opens as created; not
//! found, they are read a few times more, further apart (a write that
//! outlasted the timeout may still land), before the form says it was
//! most likely not created. Until the user says otherwise, sending the
//! create again asks first — a second Ctrl-S never sends a second POST by
//! itself.

use std::collections::BTreeSet;
use std::time::Duration;

use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::{Confirmed, Purpose, create, error_text, keys, list, uncertain_detail};
use crate::api::ApiError;

/// A create request as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The name sent (names are unique in a workspace).
    pub name: String,
    /// The campaigns listed before it was sent.
    pub known: BTreeSet<String>,
}

/// A create whose answer was lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncertain {
    /// What went wrong (`timeout: no answer within 3s`).
    pub why: String,
    /// What reading the campaigns again found.
    pub check: Check,
    /// Reads of the campaigns that did not show it.
    pub misses: u32,
}

/// Reads of the campaigns after a lost create before "most likely not
/// created" (the later ones 2, 4 and 8 s apart).
pub const CHECKS: u32 = 4;

impl Uncertain {
    /// When to read the campaigns again, if it is not settled yet.
    pub fn recheck(&self) -> Option<Duration> {
        (self.check == Check::NotFound && self.misses < CHECKS)
            .then(|| Duration::from_secs(1 << self.misses))
    }
}

/// Whether the campaigns show the campaign a lost create may have made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The campaigns are being read.
    Checking,
    /// They do not show it: most likely not created.
    NotFound,
    /// The service does not list campaigns: Outpost cannot tell.
    Unlisted,
    /// Reading them failed.
    Failed(String),
}

impl Check {
    /// The check, said for the form's note and the question (`settled`:
    /// no more reads will follow).
    pub fn text(&self, settled: bool) -> String {
        match self {
            Check::Checking => "checking the campaigns list…".into(),
            Check::NotFound if !settled => {
                "the campaigns list does not show it yet; looking again shortly".into()
            }
            Check::NotFound => {
                "the campaigns list does not show it, so it was most likely not created".into()
            }
            Check::Unlisted => "this service does not list campaigns, so Outpost cannot tell; the web dashboard shows whether it exists".into(),
            Check::Failed(e) => format!("checking the campaigns list failed ({e})"),
        }
    }
}

/// Says in the form's note what is known of the lost create (once: the
/// error's own advice is left out).
fn show(m: &mut Model) {
    if let Some(f) = m.panes.campaigns.create.as_mut()
        && let Some(u) = &f.uncertain
    {
        f.form.note = Some(format!(
            "The create request may have been carried out ({}): {}. {} asks before sending it again.",
            u.why,
            u.check.text(u.recheck().is_none()),
            keys::SUBMIT.label
        ));
    }
}

/// The create's answer was lost after sending: the campaigns are read
/// again to find it; the form stays and says so.
pub fn on_lost(m: &mut Model, e: &ApiError) -> Vec<Cmd> {
    let l = &m.panes.campaigns.list;
    let listed = !(l.loaded && l.registry);
    let Some(f) = m.panes.campaigns.create.as_mut() else {
        super::toast_error(m, "creating the campaign", e);
        return list::refresh(m);
    };
    f.uncertain = Some(Uncertain {
        why: uncertain_detail(e),
        check: if listed {
            Check::Checking
        } else {
            Check::Unlisted
        },
        misses: 0,
    });
    show(m);
    m.notify(
        Level::Warning,
        "Campaign may have been created",
        "its answer was lost; checking the campaigns list",
    );
    if !listed {
        return Vec::new();
    }
    read(m)
}

/// Reads the campaigns for the check (unless a read is on its way).
pub fn read(m: &mut Model) -> Vec<Cmd> {
    if super::in_flight(m, |p| *p == Purpose::CreateCheck) {
        return Vec::new();
    }
    let (_, cmd) = m.request(Purpose::CreateCheck, ApiRequest::ListCampaigns);
    vec![cmd]
}

/// When the check reads the campaigns again, if it does.
pub fn recheck(m: &Model) -> Option<(u32, Duration)> {
    let u = m.panes.campaigns.create.as_ref()?.uncertain.as_ref()?;
    Some((u.misses, u.recheck()?))
}

/// The campaigns, read after a lost create answer: the new campaign is
/// the one with the name sent that was not listed before.
pub fn on_check(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Campaigns(result) = reply else {
        return Vec::new();
    };
    let Some(f) = m.panes.campaigns.create.as_ref() else {
        return Vec::new();
    };
    if f.uncertain.is_none() {
        return Vec::new();
    }
    let sent = f.sent.clone();
    let check = match result {
        Ok(Some(rows)) => {
            let found = sent.as_ref().and_then(|s| {
                rows.iter()
                    .find(|c| c.name.trim() == s.name && !s.known.contains(&c.id))
                    .cloned()
            });
            // The list shows what the check read.
            let mut cmds = list::on_list(m, ApiReply::Campaigns(Ok(Some(rows))));
            if let Some(c) = found {
                cmds.extend(create::created(m, c, true));
                return cmds;
            }
            Check::NotFound
        }
        Ok(None) => Check::Unlisted,
        Err(e) => Check::Failed(error_text(&e)),
    };
    if let Some(u) = m
        .panes
        .campaigns
        .create
        .as_mut()
        .and_then(|f| f.uncertain.as_mut())
    {
        u.misses += u32::from(check == Check::NotFound);
        u.check = check;
    }
    show(m);
    Vec::new()
}

/// "Create again?" after a create that may have been carried out.
pub fn ask_again(m: &mut Model) {
    let Some(u) = m
        .panes
        .campaigns
        .create
        .as_ref()
        .and_then(|f| f.uncertain.clone())
    else {
        return;
    };
    let name = m
        .panes
        .campaigns
        .create
        .as_ref()
        .and_then(|f| f.sent.as_ref())
        .map(|s| s.name.clone())
        .unwrap_or_default();
    m.confirm(Confirm {
        title: "Create again?".into(),
        lines: vec![
            format!(
                "The last create of “{name}” may have been carried out ({}).",
                u.why
            ),
            format!("Outpost found: {}.", u.check.text(u.recheck().is_none())),
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
pub fn create_again(m: &mut Model) -> Vec<Cmd> {
    if let Some(f) = m.panes.campaigns.create.as_mut() {
        f.uncertain = None;
        f.form.note = None;
    }
    create::submit(m)
}
