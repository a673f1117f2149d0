//! Deleting leads of a draft campaign, each delete confirmed: the selected
//! ones in chunks of at most 500 sent one after the other, or all. The
//! campaign and its roster are read again afterwards (its total and stats
//! changed).

use std::collections::VecDeque;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::rules::Op;
use super::{Confirmed, Purpose, detail, roster};
use crate::api::ApiError;
use crate::api::model::{Campaign, DeleteLeads};
use crate::text::format;

/// Lead ids per delete call (the contract's most).
pub const DELETE_CHUNK: usize = 500;

/// A delete in progress: ids sent in chunks of at most 500, one after the
/// other.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeleteJob {
    /// The campaign.
    pub campaign: String,
    /// Ids still to send.
    pub queue: VecDeque<String>,
    /// Ids asked for in all.
    pub total: usize,
    /// Deleted, as the service counts them.
    pub deleted: u64,
}

/// `d`: asks before deleting the marked leads (or the selected one).
pub fn ask(m: &mut Model, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(m, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    let Some(o) = m.panes.campaigns.open.as_ref() else {
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
        roster::nothing_selected(m);
        return Vec::new();
    }
    let n = ids.len() as u64;
    m.confirm(Confirm {
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
pub fn ask_all(m: &mut Model, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(m, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    let total = campaign.stats.total;
    let who = if total == 1 {
        "Its only lead leaves".to_owned()
    } else {
        format!("All {} leave", format::plural(total, "lead", "leads"))
    };
    m.confirm(Confirm {
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
fn start(m: &mut Model, job: DeleteJob) -> bool {
    match m.panes.campaigns.open.as_mut() {
        Some(o) if o.campaign.id == job.campaign && o.delete.is_none() => {
            o.delete = Some(job);
            true
        }
        _ => false,
    }
}

/// Starts deleting `ids` (confirmed).
pub fn delete(m: &mut Model, campaign: &str, ids: Vec<String>) -> Vec<Cmd> {
    let job = DeleteJob {
        campaign: campaign.to_owned(),
        total: ids.len(),
        queue: ids.into(),
        deleted: 0,
    };
    if !start(m, job) {
        return Vec::new();
    }
    next(m)
}

/// Deletes every lead (confirmed).
pub fn delete_all(m: &mut Model, campaign: &str) -> Vec<Cmd> {
    let job = DeleteJob {
        campaign: campaign.to_owned(),
        ..DeleteJob::default()
    };
    if !start(m, job) {
        return Vec::new();
    }
    m.request(
        Purpose::Delete(campaign.to_owned()),
        ApiRequest::DeleteLeads {
            id: campaign.to_owned(),
            which: DeleteLeads::All { all: true },
        },
    );
    Vec::new()
}

fn next(m: &mut Model) -> Vec<Cmd> {
    let Some(job) = m
        .panes
        .campaigns
        .open
        .as_mut()
        .and_then(|o| o.delete.as_mut())
    else {
        return Vec::new();
    };
    let n = job.queue.len().min(DELETE_CHUNK);
    if n == 0 {
        return finish(m, None);
    }
    let ids: Vec<String> = job.queue.drain(..n).collect();
    let campaign = job.campaign.clone();
    m.request(
        Purpose::Delete(campaign.clone()),
        ApiRequest::DeleteLeads {
            id: campaign,
            which: DeleteLeads::Ids { ids },
        },
    );
    Vec::new()
}

fn finish(m: &mut Model, failure: Option<String>) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_mut() else {
        return Vec::new();
    };
    let Some(job) = o.delete.take() else {
        return Vec::new();
    };
    o.roster.marks.clear();
    let text = format!("{} deleted", format::count(job.deleted));
    match failure {
        None => m.notify(Level::Success, "Leads deleted", &text),
        Some(why) => m.notify(
            Level::Error,
            "Delete stopped",
            &format!("{text}; then: {why} (the rest was not sent)"),
        ),
    }
    let mut cmds = detail::read_again(m, &job.campaign);
    cmds.extend(roster::reload(m));
    cmds
}

/// A delete chunk answered: the next one, or the end.
pub fn on_deleted(m: &mut Model, campaign: &str, result: Result<u64, ApiError>) -> Vec<Cmd> {
    let Some(job) = m
        .panes
        .campaigns
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
            next(m)
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
            finish(m, Some(note))
        }
    }
}
