//! Deleting leads of a draft campaign, each delete confirmed: the selected
//! ones in chunks of at most 500 sent one after the other, or all. The
//! campaign and its roster are read again afterwards (its total and stats
//! changed).

use std::collections::VecDeque;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::rules::Op;
use super::{CampaignsModel, Confirmed, Purpose, detail, roster};
use crate::api::ApiError;
use crate::api::model::{Campaign, DeleteLeads};
use crate::app::ctx::Ctx;
use crate::text::format;

/// Lead ids per delete call (the contract's most).
pub(crate) const DELETE_CHUNK: usize = 500;

/// A delete in progress: ids sent in chunks of at most 500, one after the
/// other.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeleteJob {
    /// The id of the campaign whose leads are deleted.
    pub campaign: String,
    /// Ids still to send.
    pub queue: VecDeque<String>,
    /// Ids asked for in all.
    pub total: usize,
    /// Deleted, as the service counts them.
    pub deleted: u64,
}

/// `d`: asks before deleting the marked leads (or the selected one).
pub(crate) fn ask(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(cx, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    let Some(o) = cm.open.as_ref() else {
        return Vec::new();
    };
    let ids: Vec<String> = if o.roster.marks.is_empty() {
        o.roster
            .selected()
            .map(|l| l.id.clone())
            .into_iter()
            .collect()
    } else {
        o.roster.marks.iter().cloned().collect()
    };
    if ids.is_empty() {
        roster::nothing_selected(cx);
        return Vec::new();
    }
    let n = ids.len() as u64;
    cx.confirm(Confirm {
        title: "Delete leads?".into(),
        lines: vec![
            format!(
                "{} the roster of “{}”.",
                if n == 1 {
                    "1 lead leaves".to_owned()
                } else {
                    format!("{} leave", format::plural(n, "lead", "leads"))
                },
                campaign.name
            ),
            "This cannot be undone.".into(),
        ],
        yes: "Delete".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(
            Confirmed::DeleteLeads {
                campaign: campaign.id.clone(),
                ids,
            }
            .into(),
        ),
    });
    Vec::new()
}

/// `D`: asks before deleting every lead.
pub(crate) fn ask_all(cx: &mut Ctx<'_>, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(cx, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    let total = campaign.stats.total;
    let who = if total == 1 {
        "Its only lead leaves".to_owned()
    } else {
        format!("All {} leave", format::plural(total, "lead", "leads"))
    };
    cx.confirm(Confirm {
        title: "Delete every lead?".into(),
        lines: vec![
            format!("{who} the roster of “{}”.", campaign.name),
            "This cannot be undone.".into(),
        ],
        yes: "Delete all".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Confirmed::DeleteAll(campaign.id.clone()).into()),
    });
    Vec::new()
}

/// Starts `job` on the open campaign (unless a delete is on its way, or
/// another campaign is open); whether it started.
fn start(cm: &mut CampaignsModel, job: DeleteJob) -> bool {
    match cm.open.as_mut() {
        Some(o) if o.campaign.id == job.campaign && o.delete.is_none() => {
            o.delete = Some(job);
            true
        }
        _ => false,
    }
}

/// Starts deleting `ids` (confirmed).
pub(crate) fn delete(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    campaign: &str,
    ids: Vec<String>,
) -> Vec<Cmd> {
    let job = DeleteJob {
        campaign: campaign.to_owned(),
        total: ids.len(),
        queue: ids.into(),
        deleted: 0,
    };
    if !start(cm, job) {
        return Vec::new();
    }
    next(cm, cx)
}

/// Deletes every lead (confirmed).
pub(crate) fn delete_all(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, campaign: &str) -> Vec<Cmd> {
    let job = DeleteJob {
        campaign: campaign.to_owned(),
        ..DeleteJob::default()
    };
    if !start(cm, job) {
        return Vec::new();
    }
    cx.request(
        Purpose::Delete(campaign.to_owned()),
        ApiRequest::DeleteLeads {
            id: campaign.to_owned(),
            which: DeleteLeads::All { all: true },
        },
    );
    Vec::new()
}

fn next(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(job) = cm.open.as_mut().and_then(|o| o.delete.as_mut()) else {
        return Vec::new();
    };
    let n = job.queue.len().min(DELETE_CHUNK);
    if n == 0 {
        return finish(cm, cx, None);
    }
    let ids: Vec<String> = job.queue.drain(..n).collect();
    let campaign = job.campaign.clone();
    cx.request(
        Purpose::Delete(campaign.clone()),
        ApiRequest::DeleteLeads {
            id: campaign,
            which: DeleteLeads::Ids { ids },
        },
    );
    Vec::new()
}

fn finish(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, failure: Option<String>) -> Vec<Cmd> {
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    let Some(job) = o.delete.take() else {
        return Vec::new();
    };
    o.roster.marks.clear();
    let text = format!("{} deleted", format::count(job.deleted));
    match failure {
        None => cx.notify(Level::Success, "Leads deleted", &text),
        Some(why) => cx.notify(
            Level::Error,
            "Delete stopped",
            &format!("{text}; then: {why} (the rest was not sent)"),
        ),
    }
    let mut cmds = detail::read_again(cx, &job.campaign);
    cmds.extend(roster::reload(cm, cx));
    cmds
}

/// A delete chunk answered: the next one, or the end.
pub(crate) fn on_deleted(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    campaign: &str,
    result: Result<u64, ApiError>,
) -> Vec<Cmd> {
    let Some(job) = cm
        .open
        .as_mut()
        .and_then(|o| o.delete.as_mut())
        .filter(|j| j.campaign == campaign)
    else {
        return Vec::new();
    };
    match result {
        Ok(n) => {
            job.deleted = job.deleted.saturating_add(n);
            next(cm, cx)
        }
        // Deleting ids again removes nothing more; the roster, read again
        // at the end, shows which leads are left.
        Err(e) => {
            let note = super::settle::failed_write(
                &e,
                "that chunk",
                crate::logic::write::Settle::SafeToRepeat,
                "a deleted lead stays deleted; the roster is read again and shows which are left",
            );
            finish(cm, cx, Some(note))
        }
    }
}
