//! "Add to campaign…": pick a draft campaign, see how many selected leads
//! lack its channel's identity (email needs `email`, network needs
//! `networkUrl`; those are reported, never sent), then send the rest in
//! chunks of at most 1,000, one after another, each answer triggering the
//! next; the service's imported / duplicates counts and the roster before
//! and after end it.

use std::collections::{BTreeSet, VecDeque};

use crossterm::event::{KeyCode, KeyEvent};

use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Model, RequestId};
use super::export::Walk;
use super::{Dialog, Filter, Picked, Purpose, error_text, lead_input, send};
use crate::api::model::{Campaign, CampaignStatus, Channel, LeadInput};
use crate::api::validate;
use crate::config::keymap::{Action, Scope};

/// Leads per add call (the contract's maximum).
pub const CHUNK: usize = 1000;
/// Rows of the campaign list in the dialog.
pub const LIST_ROWS: usize = 8;

/// Where the dialog is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Choosing the campaign.
    Pick,
    /// Sending chunks.
    Sending,
    /// Finished (or stopped); the report is shown.
    Done,
}

/// What is selected, frozen when the dialog opened.
#[derive(Debug, Clone, PartialEq)]
pub enum Selection {
    /// Leads picked one by one.
    Picked(Vec<Picked>),
    /// Every result matching a filter, minus some.
    All {
        /// The filter.
        filter: Filter,
        /// How many matched.
        total: usize,
        /// Unselected result ids.
        except: BTreeSet<String>,
    },
}

impl Selection {
    /// How many leads.
    pub fn count(&self) -> usize {
        match self {
            Selection::Picked(p) => p.len(),
            Selection::All { total, except, .. } => total.saturating_sub(except.len()),
        }
    }

    /// Picked leads lacking the identity of `channel` (`None`: unknown until
    /// the rows are read).
    pub fn lacking(&self, channel: &Channel) -> Option<usize> {
        match self {
            Selection::Picked(p) => Some(
                p.iter()
                    .filter(|x| validate::missing_identity(channel, &x.lead).is_some())
                    .count(),
            ),
            Selection::All { .. } => None,
        }
    }
}

/// The add in progress.
#[derive(Debug, Clone)]
pub struct AddJob {
    /// The campaign.
    pub campaign: Campaign,
    /// Picked leads still to send.
    pub queue: VecDeque<LeadInput>,
    /// Reading every matching result (all-matching selection).
    pub walk: Option<Walk>,
    /// Leads read and not sent yet.
    pub buffer: Vec<LeadInput>,
    /// Leads to consider in all.
    pub total: u64,
    /// Leads considered so far (sent, queued or skipped).
    pub considered: u64,
    /// Leads sent.
    pub sent: u64,
    /// Imported, as the service counts them.
    pub imported: u64,
    /// Duplicates, as the service counts them.
    pub duplicates: u64,
    /// Leads without the channel's identity (not sent).
    pub skipped: u64,
    /// Names of the first few skipped, for the report.
    pub skipped_names: Vec<String>,
    /// The chunk or page in flight.
    pub pending: Option<RequestId>,
    /// Chunks sent.
    pub chunks: u64,
    /// The user asked to stop after the chunk in flight.
    pub stop: bool,
    /// What ended it early.
    pub error: Option<String>,
    /// Why reading the matching results stopped before the service said
    /// they ended (what was read is still sent).
    pub walk_note: Option<String>,
    /// Roster size after the add (read back from the service).
    pub roster_after: Option<u64>,
}

/// The dialog.
#[derive(Debug, Clone)]
pub struct CampaignDialog {
    /// The search the leads come from.
    pub search: String,
    /// What is selected.
    pub selection: Selection,
    /// Known campaigns (every status; only drafts are offered).
    pub campaigns: Vec<Campaign>,
    /// The list route is not offered: campaigns come from the registry.
    pub registry: bool,
    /// The list is on its way.
    pub loading: bool,
    /// Registry campaigns being read.
    pub reading: BTreeSet<String>,
    /// Selection over the drafts.
    pub table: TableState,
    /// A message.
    pub error: Option<String>,
    /// Where it is.
    pub stage: Stage,
    /// The add.
    pub job: Option<AddJob>,
}

impl CampaignDialog {
    /// Draft campaigns, the only ones leads can be added to.
    pub fn drafts(&self) -> Vec<&Campaign> {
        self.campaigns
            .iter()
            .filter(|c| c.status == CampaignStatus::Draft)
            .collect()
    }

    fn set_len(&mut self) {
        let n = self.drafts().len();
        self.table.set_len(n, LIST_ROWS);
    }
}

/// The identity field a channel needs, as the service names it.
pub fn identity(channel: &Channel) -> &'static str {
    match channel {
        Channel::Email => "email",
        _ => "networkUrl",
    }
}

/// Opens the dialog over the selection (or the selected result when none).
pub fn open(m: &mut Model) -> Vec<Cmd> {
    if super::busy(m, "adding leads") {
        return Vec::new();
    }
    let Some(o) = m.panes.leads.open.as_ref() else {
        return Vec::new();
    };
    let selection = match &o.marks.all {
        Some(a) => Selection::All {
            filter: a.filter.clone(),
            total: a.total,
            except: a.except.clone(),
        },
        None if !o.marks.picked.is_empty() => {
            Selection::Picked(o.marks.picked.values().cloned().collect())
        }
        None => {
            let current = if m.panes.leads.view == super::View::Detail {
                m.panes.leads.detail.as_ref().map(|d| d.result.clone())
            } else {
                o.window.selected().cloned()
            };
            match current {
                Some(r) => Selection::Picked(vec![Picked {
                    name: super::result_name(&r),
                    lead: lead_input(&r),
                }]),
                None => {
                    m.notify(
                        Level::Info,
                        "Nothing selected",
                        "space selects a lead, a every loaded one, A all matching the filter",
                    );
                    return Vec::new();
                }
            }
        }
    };
    if selection.count() == 0 {
        m.notify(Level::Info, "Nothing selected", "the selection is empty");
        return Vec::new();
    }
    let search = o.search.search_id.clone();
    m.panes.leads.dialog = Some(Dialog::Campaign(Box::new(CampaignDialog {
        search,
        selection,
        campaigns: Vec::new(),
        registry: false,
        loading: true,
        reading: BTreeSet::new(),
        table: TableState::default(),
        error: None,
        stage: Stage::Pick,
        job: None,
    })));
    let (_, cmd) = send(m, Purpose::Campaigns, ApiRequest::ListCampaigns);
    vec![cmd]
}

fn dialog_mut(m: &mut Model) -> Option<&mut CampaignDialog> {
    match m.panes.leads.dialog.as_mut() {
        Some(Dialog::Campaign(c)) => Some(c),
        _ => None,
    }
}

/// The campaign list (or `None`: read the registry one by one).
pub fn on_campaigns(m: &mut Model, _id: RequestId, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Campaigns(result) = reply else {
        return Vec::new();
    };
    let known: Vec<String> = m
        .state
        .known_campaigns
        .iter()
        .map(|k| k.id.clone())
        .collect();
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    d.loading = false;
    match result {
        Ok(Some(list)) => {
            d.campaigns = list;
            d.registry = false;
            d.set_len();
            Vec::new()
        }
        Ok(None) => {
            d.registry = true;
            d.reading = known.iter().cloned().collect();
            if known.is_empty() {
                d.error = Some(
                    "this service does not list campaigns, and no campaign id is known locally yet"
                        .into(),
                );
            }
            known
                .into_iter()
                .map(|id| {
                    let (_, cmd) = send(
                        m,
                        Purpose::Campaign(id.clone()),
                        ApiRequest::GetCampaign { id },
                    );
                    cmd
                })
                .collect()
        }
        Err(e) => {
            d.error = Some(format!("could not list campaigns: {}", error_text(&e)));
            Vec::new()
        }
    }
}

/// One campaign: a registry entry, or the roster read back after an add.
pub fn on_campaign(m: &mut Model, id: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Campaign(result) = reply else {
        return Vec::new();
    };
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    if let Some(job) = d.job.as_mut()
        && job.campaign.id == id
        && d.stage == Stage::Done
    {
        if let Ok(c) = result.as_ref() {
            job.roster_after = Some(c.stats.total);
        }
        return Vec::new();
    }
    if d.reading.remove(id) {
        match *result {
            Ok(c) => {
                d.campaigns.retain(|x| x.id != c.id);
                d.campaigns.push(c);
                d.set_len();
            }
            Err(e) if e.status() != Some(404) => {
                d.error = Some(format!("could not read campaign {id}: {}", error_text(&e)));
            }
            Err(_) => {}
        }
    }
    Vec::new()
}

/// Starts the add to the chosen campaign.
fn start(m: &mut Model, mut d: Box<CampaignDialog>) -> Vec<Cmd> {
    let Some(campaign) = d.drafts().get(d.table.selected).map(|c| (*c).clone()) else {
        m.panes.leads.dialog = Some(Dialog::Campaign(d));
        return Vec::new();
    };
    let channel = campaign.kind.clone();
    let mut job = AddJob {
        campaign,
        queue: VecDeque::new(),
        walk: None,
        buffer: Vec::new(),
        total: d.selection.count() as u64,
        considered: 0,
        sent: 0,
        imported: 0,
        duplicates: 0,
        skipped: 0,
        skipped_names: Vec::new(),
        pending: None,
        chunks: 0,
        stop: false,
        error: None,
        walk_note: None,
        roster_after: None,
    };
    match &d.selection {
        Selection::Picked(picked) => {
            for p in picked {
                job.considered += 1;
                if validate::missing_identity(&channel, &p.lead).is_some() {
                    job.skipped += 1;
                    if job.skipped_names.len() < 5 {
                        job.skipped_names.push(p.name.clone());
                    }
                } else {
                    job.queue.push_back(p.lead.clone());
                }
            }
            if job.queue.is_empty() {
                d.error = Some(format!(
                    "none of the {} selected leads has {}: pick a campaign of the other channel",
                    picked.len(),
                    match channel {
                        Channel::Email => "an email",
                        _ => "a network URL",
                    }
                ));
                m.panes.leads.dialog = Some(Dialog::Campaign(d));
                return Vec::new();
            }
        }
        Selection::All { filter, total, .. } => {
            job.walk = Some(Walk::new(&d.search, filter, *total as u64));
        }
    }
    d.error = None;
    d.stage = Stage::Sending;
    d.job = Some(job);
    m.panes.leads.dialog = Some(Dialog::Campaign(d));
    next(m)
}

/// Sends the next chunk, reads the next page, or finishes.
fn next(m: &mut Model) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    let Some(job) = d.job.as_mut() else {
        return Vec::new();
    };
    if job.stop || job.error.is_some() {
        return finish(m);
    }
    let walking = job.walk.as_ref().is_some_and(|w| !w.done);
    let chunk: Vec<LeadInput> = if job.walk.is_some() {
        if job.buffer.len() >= CHUNK || (!walking && !job.buffer.is_empty()) {
            let n = job.buffer.len().min(CHUNK);
            job.buffer.drain(..n).collect()
        } else {
            Vec::new()
        }
    } else {
        let n = job.queue.len().min(CHUNK);
        job.queue.drain(..n).collect()
    };
    if !chunk.is_empty() {
        let req = ApiRequest::AddLeads {
            id: job.campaign.id.clone(),
            channel: job.campaign.kind.clone(),
            leads: chunk,
        };
        let (id, cmd) = send(m, Purpose::AddChunk, req);
        if let Some(job) = dialog_mut(m).and_then(|d| d.job.as_mut()) {
            job.pending = Some(id);
        }
        return vec![cmd];
    }
    if walking {
        let Some(req) = job.walk.as_ref().map(Walk::request) else {
            return Vec::new();
        };
        let (id, cmd) = send(m, Purpose::AddPage, req);
        if let Some(job) = dialog_mut(m).and_then(|d| d.job.as_mut()) {
            job.pending = Some(id);
        }
        return vec![cmd];
    }
    finish(m)
}

fn finish(m: &mut Model) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    d.stage = Stage::Done;
    let Some(job) = d.job.as_ref() else {
        return Vec::new();
    };
    let campaign = job.campaign.id.clone();
    let clean = job.error.is_none() && !job.stop && job.walk_note.is_none();
    let (imported, duplicates, skipped) = (job.imported, job.duplicates, job.skipped);
    let mut text = format!("imported {imported} · duplicates {duplicates} · skipped {skipped}");
    if let Some(why) = &job.walk_note {
        text.push_str(&format!(" · reading stopped early: {why}"));
    }
    let from = d.search.clone();
    if clean
        && let Some(o) = m.panes.leads.open.as_mut()
        && o.search.search_id == from
    {
        // Sent: start the next selection from scratch.
        o.marks = Default::default();
    }
    m.notify(
        if clean {
            Level::Success
        } else {
            Level::Warning
        },
        "Leads added",
        &text,
    );
    // Read the roster back so the report shows what the campaign holds now.
    let (_, cmd) = send(
        m,
        Purpose::Campaign(campaign.clone()),
        ApiRequest::GetCampaign { id: campaign },
    );
    vec![cmd]
}

fn job_mut(m: &mut Model, id: RequestId) -> Option<&mut AddJob> {
    dialog_mut(m)
        .and_then(|d| d.job.as_mut())
        .filter(|j| j.pending == Some(id))
}

/// The answer to a chunk.
pub fn on_chunk(m: &mut Model, id: RequestId, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::LeadsAdded(result) = reply else {
        return Vec::new();
    };
    let Some(job) = job_mut(m, id) else {
        return Vec::new();
    };
    job.pending = None;
    job.chunks += 1;
    match result {
        Ok(r) => {
            // Counts from the service: any u64, so never a plain `+`.
            job.sent = job
                .sent
                .saturating_add(r.imported.saturating_add(r.duplicates));
            job.imported = job.imported.saturating_add(r.imported);
            job.duplicates = job.duplicates.saturating_add(r.duplicates);
            if job.walk.is_none() {
                job.considered = job.total.saturating_sub(job.queue.len() as u64);
            }
        }
        Err(e) => {
            job.error = Some(error_text(&e));
        }
    }
    next(m)
}

/// A page of the matching results (all-matching selection).
pub fn on_page(m: &mut Model, id: RequestId, reply: ApiReply) -> Vec<Cmd> {
    let except = match m.panes.leads.dialog.as_ref() {
        Some(Dialog::Campaign(d)) => match &d.selection {
            Selection::All { except, .. } => except.clone(),
            Selection::Picked(_) => BTreeSet::new(),
        },
        _ => return Vec::new(),
    };
    let Some(job) = job_mut(m, id) else {
        return Vec::new();
    };
    job.pending = None;
    let Some(walk) = job.walk.as_mut() else {
        return Vec::new();
    };
    // `take` hands over only rows not read before: a lead is sent once.
    match walk.take(reply) {
        Ok(rows) => {
            let channel = job.campaign.kind.clone();
            job.total = walk.total.saturating_sub(except.len() as u64);
            if let Some(why) = &walk.stopped {
                job.walk_note = Some(why.clone());
            }
            for r in rows.iter().filter(|r| !except.contains(&r.result_id)) {
                job.considered += 1;
                let lead = lead_input(r);
                if validate::missing_identity(&channel, &lead).is_some() {
                    job.skipped += 1;
                    if job.skipped_names.len() < 5 {
                        job.skipped_names.push(super::result_name(r));
                    }
                } else {
                    job.buffer.push(lead);
                }
            }
        }
        Err(e) => job.error = Some(format!("reading the results failed: {e}")),
    }
    next(m)
}

/// A key in the dialog.
pub fn on_key(m: &mut Model, mut d: Box<CampaignDialog>, key: KeyEvent) -> Vec<Cmd> {
    let action = m.keymap.action(Scope::Leads, &key);
    match d.stage {
        Stage::Pick => match (key.code, action) {
            (KeyCode::Esc, _) => Vec::new(),
            (KeyCode::Enter, _) => start(m, d),
            (_, Some(Action::Up)) => {
                d.table.move_by(-1, LIST_ROWS);
                m.panes.leads.dialog = Some(Dialog::Campaign(d));
                Vec::new()
            }
            (_, Some(Action::Down)) => {
                d.table.move_by(1, LIST_ROWS);
                m.panes.leads.dialog = Some(Dialog::Campaign(d));
                Vec::new()
            }
            (_, Some(Action::Refresh)) => {
                d.loading = true;
                d.error = None;
                m.panes.leads.dialog = Some(Dialog::Campaign(d));
                let (_, cmd) = send(m, Purpose::Campaigns, ApiRequest::ListCampaigns);
                vec![cmd]
            }
            _ => {
                m.panes.leads.dialog = Some(Dialog::Campaign(d));
                Vec::new()
            }
        },
        Stage::Sending => {
            if key.code == KeyCode::Esc
                && let Some(job) = d.job.as_mut()
            {
                // A chunk in flight cannot be recalled: stop after it.
                job.stop = true;
            }
            m.panes.leads.dialog = Some(Dialog::Campaign(d));
            Vec::new()
        }
        Stage::Done => match key.code {
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => Vec::new(),
            _ => {
                m.panes.leads.dialog = Some(Dialog::Campaign(d));
                Vec::new()
            }
        },
    }
}
