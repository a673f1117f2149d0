//! "Add to campaign…": pick a draft campaign, see how many selected leads
//! lack its channel's identity (email needs `email`, network needs
//! `networkUrl`; those are reported, never sent), then send the rest in
//! chunks of at most 1,000, one after another, each answer triggering the
//! next; the service's imported / duplicates counts and the roster before
//! and after end it.

use super::LeadsModel;
use crate::app::ctx::Ctx;
use crate::app::ctx::Intent;
use crate::app::requests::Requests;
use std::collections::{BTreeSet, VecDeque};

use crossterm::event::KeyEvent;

use super::super::dialog::Outcome;
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::export::{page_of, page_request};
use super::{
    Confirmed, Dialog, Filter, Picked, Purpose, error_text, fixed_keys, in_flight, lead_input, send,
};
use crate::api::model::{AddLeadsResponse, Campaign, CampaignStatus, Channel, LeadInput};
use crate::api::validate;
use crate::api::{ApiError, ResultRows};
use crate::app::keymap::Action;
use crate::logic::export::Walk;
use crate::text::sanitize::DisplayText;

/// Leads per add call (the contract's maximum).
pub(crate) const CHUNK: usize = 1000;
/// Rows of the campaign list in the dialog.
pub(crate) const LIST_ROWS: usize = 8;

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
    /// Nothing was selected: the lead under the cursor.
    Cursor(Picked),
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
            Selection::Cursor(_) => 1,
            Selection::All { total, except, .. } => total.saturating_sub(except.len()),
        }
    }

    /// The leads when they are known one by one (not "all matching").
    pub fn leads(&self) -> Option<&[Picked]> {
        match self {
            Selection::Picked(p) => Some(p),
            Selection::Cursor(p) => Some(std::slice::from_ref(p)),
            Selection::All { .. } => None,
        }
    }

    /// Picked leads lacking the identity of `channel` (`None`: unknown until
    /// the rows are read).
    pub fn lacking(&self, channel: &Channel) -> Option<usize> {
        self.leads().map(|leads| {
            leads
                .iter()
                .filter(|x| validate::missing_identity(channel, &x.lead).is_some())
                .count()
        })
    }

    /// What is added, in words: "3 selected leads", "the lead under the
    /// cursor (Ana López)", "all 1,000 leads matching the filter".
    pub fn what(&self) -> String {
        match self {
            Selection::Picked(p) => {
                format!(
                    "{} selected",
                    crate::text::format::plural(p.len() as u64, "lead", "leads")
                )
            }
            Selection::Cursor(p) => format!(
                "the lead under the cursor ({})",
                DisplayText::inline(&p.name)
            ),
            Selection::All { filter, .. } => format!(
                "all {} {}",
                crate::text::format::plural(self.count() as u64, "lead", "leads"),
                if filter.is_empty() {
                    "of the search"
                } else {
                    "matching the filter"
                }
            ),
        }
    }
}

/// The add in progress.
#[derive(Debug, Clone)]
pub struct AddJob {
    /// The campaign the picked leads are added to.
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
    /// Chunks sent.
    pub chunks: u64,
    /// Leads in the chunk in flight.
    pub in_flight: u64,
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
    /// Selection over the drafts.
    pub table: TableState,
    /// A message.
    pub error: Option<String>,
    /// The dialog's step: picking the campaign, sending chunks, or done.
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

    /// Rows of the picker: the drafts, then "new draft campaign…".
    pub fn rows(&self) -> usize {
        self.drafts().len() + 1
    }

    /// Whether the cursor is on "new draft campaign…" (the last row).
    pub fn on_new(&self) -> bool {
        self.table.selected >= self.drafts().len()
    }

    /// Changes the campaigns offered; the cursor stays on "new draft
    /// campaign…" when it was chosen there (not when it was the only row).
    fn set_campaigns(&mut self, change: impl FnOnce(&mut Vec<Campaign>)) {
        let was_new = self.on_new() && !self.drafts().is_empty();
        change(&mut self.campaigns);
        let n = self.rows();
        self.table.set_len(n, LIST_ROWS);
        if was_new {
            self.table.select(n - 1, LIST_ROWS);
        }
    }
}

/// The identity field a channel needs, as the service names it.
pub(crate) fn identity(channel: &Channel) -> &'static str {
    match channel {
        Channel::Email => "email",
        _ => "networkUrl",
    }
}

/// What the dialog adds: the marks, else the lead under the cursor (in
/// the detail: the lead shown). `None` when there is neither.
fn selection(leads: &LeadsModel) -> Option<Selection> {
    let o = leads.open.as_ref()?;
    if let Some(a) = &o.marks.all {
        return Some(Selection::All {
            filter: a.filter.clone(),
            total: a.total,
            except: a.except.clone(),
        });
    }
    if !o.marks.picked.is_empty() {
        return Some(Selection::Picked(
            o.marks.picked.values().cloned().collect(),
        ));
    }
    let current = if leads.view == super::View::Detail {
        leads.detail.as_ref().map(|d| &d.result)
    } else {
        o.window.selected()
    }?;
    Some(Selection::Cursor(Picked {
        name: super::result_name(current),
        lead: lead_input(current),
    }))
}

/// Opens the dialog over the selection (or the lead under the cursor when
/// nothing is selected).
pub(crate) fn open(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if super::busy(leads, cx, "adding leads") {
        return Vec::new();
    }
    let Some(search) = leads.open_id().map(str::to_owned) else {
        return Vec::new();
    };
    let selection = match selection(leads) {
        Some(s) if s.count() > 0 => s,
        Some(_) => {
            cx.notify(Level::Info, "Nothing selected", "the selection is empty");
            return Vec::new();
        }
        None => {
            let k = |a| cx.keymap.key_label(a);
            let text = format!(
                "no lead under the cursor yet; {} selects a lead, {} every loaded one, {} all matching the filter",
                k(Action::ToggleMark),
                k(Action::MarkLoaded),
                k(Action::MarkMatching)
            );
            cx.notify(Level::Info, "Nothing selected", &text);
            return Vec::new();
        }
    };
    let mut dialog = CampaignDialog {
        search,
        selection,
        campaigns: Vec::new(),
        registry: false,
        table: TableState::default(),
        error: None,
        stage: Stage::Pick,
        job: None,
    };
    // Only "new draft campaign…" until the campaigns arrive.
    dialog.set_campaigns(|_| {});
    super::show_dialog(leads, cx, Dialog::Campaign(Box::new(dialog)));
    send(cx, Purpose::Campaigns, ApiRequest::ListCampaigns);
    Vec::new()
}

fn dialog_mut(leads: &mut LeadsModel) -> Option<&mut CampaignDialog> {
    match leads.dialog.as_mut() {
        Some(Dialog::Campaign(c)) => Some(c),
        _ => None,
    }
}

/// Whether the campaigns offered are on their way (the list, or campaigns
/// of the registry read one by one).
pub(crate) fn campaigns_loading(requests: &Requests) -> bool {
    in_flight(requests, |p| {
        matches!(p, Purpose::Campaigns | Purpose::Campaign(_))
    })
}

/// The campaign list (or `None`: read the registry one by one).
pub(crate) fn on_campaigns(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<Option<Vec<Campaign>>, ApiError>,
) -> Vec<Cmd> {
    let known: Vec<String> = cx
        .state
        .known_campaigns
        .iter()
        .map(|k| k.id.clone())
        .collect();
    let Some(d) = dialog_mut(leads) else {
        return Vec::new();
    };
    match result {
        Ok(Some(list)) => {
            d.set_campaigns(|c| *c = list);
            d.registry = false;
            Vec::new()
        }
        Ok(None) => {
            d.registry = true;
            if known.is_empty() {
                d.error = Some(
                    "this service does not list campaigns, and no campaign id is known locally yet"
                        .into(),
                );
            }
            for id in known {
                send(
                    cx,
                    Purpose::Campaign(id.clone()),
                    ApiRequest::GetCampaign { id },
                );
            }
            Vec::new()
        }
        Err(e) => {
            d.error = Some(format!("could not list campaigns: {}", error_text(&e)));
            Vec::new()
        }
    }
}

/// One campaign of the registry, offered when it is a draft.
pub(crate) fn on_campaign(
    leads: &mut LeadsModel,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    let Some(d) = dialog_mut(leads) else {
        return Vec::new();
    };
    match result {
        Ok(c) => d.set_campaigns(|list| {
            list.retain(|x| x.id != c.id);
            list.push(c);
        }),
        Err(e) if e.status() != Some(404) => {
            d.error = Some(format!("could not read campaign {id}: {}", error_text(&e)));
        }
        Err(_) => {}
    }
    Vec::new()
}

/// The campaign read back after the add: its roster size for the report.
pub(crate) fn on_roster_after(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    let Some(d) = dialog_mut(leads).filter(|d| d.stage == Stage::Done) else {
        return Vec::new();
    };
    let Ok(c) = result else {
        return Vec::new();
    };
    if let Some(job) = d.job.as_mut().filter(|j| j.campaign.id == id) {
        job.roster_after = Some(c.stats.total);
    }
    // The Campaigns pane's list shows the roster as it is now.
    cx.intend(Intent::CampaignRead(Box::new(c)));
    Vec::new()
}

/// A new job over the selection, for `campaign`: picked leads lacking
/// the channel's identity are counted as skipped here, never sent.
fn new_job(d: &CampaignDialog, campaign: Campaign) -> AddJob {
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
        chunks: 0,
        in_flight: 0,
        stop: false,
        error: None,
        walk_note: None,
        roster_after: None,
    };
    match &d.selection {
        Selection::Picked(_) | Selection::Cursor(_) => {
            for p in d.selection.leads().unwrap_or_default() {
                job.considered += 1;
                if validate::missing_identity(&channel, &p.lead).is_some() {
                    job.skip(&p.name);
                } else {
                    job.queue.push_back(p.lead.clone());
                }
            }
        }
        Selection::All { filter, total, .. } => {
            job.walk = Some(Walk::new(&d.search, filter, *total as u64));
        }
    }
    job
}

impl AddJob {
    /// Counts a lead without the channel's identity (named in the report).
    fn skip(&mut self, name: &str) {
        self.skipped += 1;
        if self.skipped_names.len() < 5 {
            self.skipped_names.push(name.to_owned());
        }
    }
}

/// An add to a campaign whose answer may have reached the service. Safe to
/// repeat ([`crate::logic::write::Settle::SafeToRepeat`]): the service drops
/// leads the campaign already holds, so sending them again adds none twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncertainAdd {
    /// The id of the campaign the chunk was sent to.
    pub campaign: String,
    /// Its name.
    pub name: String,
    /// Leads in the chunk that may have been accepted.
    pub leads: u64,
    /// What went wrong.
    pub why: String,
}

/// "Add again?" after an add to the same campaign that may have reached
/// the service: safe to repeat, and said so; still asked.
fn ask_add_again(cx: &mut Ctx<'_>, u: &UncertainAdd) {
    cx.confirm(Confirm {
        title: "Add again?".into(),
        lines: vec![
            format!(
                "The last add to {} ({}) may have reached the service ({}).",
                DisplayText::inline(&u.name),
                crate::text::format::plural(u.leads, "lead", "leads"),
                u.why
            ),
            SAFE_TO_REPEAT.into(),
            "Its report showed the roster read back after it.".into(),
        ],
        yes: "Add again".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::AddAgain.into()),
    });
}

/// Why sending an add again does no harm (the contract: duplicates are
/// dropped, within the batch and against the roster).
const SAFE_TO_REPEAT: &str = "Sending them again is safe: the service drops leads the campaign already holds (counted as duplicates), so none is added twice.";

/// "Add again?" was answered yes.
pub(crate) fn add_again(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    leads.uncertain_add = None;
    start(leads, cx)
}

/// Starts the add to the chosen campaign.
fn start(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let uncertain = leads.uncertain_add.clone();
    let Some(d) = dialog_mut(leads) else {
        return Vec::new();
    };
    let Some(campaign) = d.drafts().get(d.table.selected).map(|c| (*c).clone()) else {
        return Vec::new();
    };
    if let Some(u) = uncertain.filter(|u| u.campaign == campaign.id) {
        ask_add_again(cx, &u);
        return Vec::new();
    }
    let Some(d) = dialog_mut(leads) else {
        return Vec::new();
    };
    let job = new_job(d, campaign);
    if job.walk.is_none() && job.queue.is_empty() {
        let (a, what) = match job.campaign.kind {
            Channel::Email => ("an", "email"),
            _ => ("a", "network URL"),
        };
        let who = match &d.selection {
            Selection::Cursor(_) => format!("{} has no {what}", d.selection.what()),
            _ => format!("none of the {} has {a} {what}", d.selection.what()),
        };
        d.error = Some(format!("{who}: pick a campaign of the other channel"));
        return Vec::new();
    }
    d.error = None;
    d.stage = Stage::Sending;
    let (id, name) = (job.campaign.id.clone(), job.campaign.name.clone());
    d.job = Some(job);
    // Known from now on: the Campaigns pane lists it even where the
    // service has no list route.
    cx.state.remember_campaign(&id, &name, "leads");
    cx.save_state();
    let mut cmds = Vec::new();
    cmds.extend(next(leads, cx));
    cmds
}

/// Sends the next chunk, reads the next page, or finishes.
fn next(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(leads) else {
        return Vec::new();
    };
    let Some(job) = d.job.as_mut() else {
        return Vec::new();
    };
    if job.stop || job.error.is_some() {
        return finish(leads, cx);
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
        job.in_flight = chunk.len() as u64;
        let req = ApiRequest::AddLeads {
            id: job.campaign.id.clone(),
            channel: job.campaign.kind.clone(),
            leads: chunk.into(),
        };
        send(cx, Purpose::AddChunk, req);
        return Vec::new();
    }
    if walking {
        let Some(req) = job.walk.as_ref().map(|w| page_request(w.request())) else {
            return Vec::new();
        };
        send(cx, Purpose::AddPage, req);
        return Vec::new();
    }
    finish(leads, cx)
}

fn finish(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(leads) else {
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
        && let Some(o) = leads.open.as_mut()
        && o.search.search_id == from
    {
        // Sent: start the next selection from scratch.
        o.marks = Default::default();
    }
    cx.notify(
        if clean {
            Level::Success
        } else {
            Level::Warning
        },
        "Leads added",
        &text,
    );
    // Read the roster back so the report shows what the campaign holds now.
    send(
        cx,
        Purpose::RosterAfter(campaign.clone()),
        ApiRequest::GetCampaign { id: campaign },
    );
    Vec::new()
}

/// The job, while it sends: the one chunk or page it waits for answers it
/// (what is in flight is in the request table, forgotten when the dialog
/// closes).
fn job_mut(leads: &mut LeadsModel) -> Option<&mut AddJob> {
    dialog_mut(leads)
        .filter(|d| d.stage == Stage::Sending)
        .and_then(|d| d.job.as_mut())
}

/// The answer to a chunk.
pub(crate) fn on_chunk(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<AddLeadsResponse, ApiError>,
) -> Vec<Cmd> {
    let Some(job) = job_mut(leads) else {
        return Vec::new();
    };
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
        Err(e) if e.maybe_accepted() => {
            // Never sent again by itself; the roster read back at the end
            // shows what the campaign holds, and the next add to it asks.
            let n = job.in_flight;
            job.error = Some(format!(
                "the last chunk ({}) may have reached the service ({}); stopped here — the roster below shows what the campaign holds. {SAFE_TO_REPEAT} Adding to this campaign again asks first.",
                crate::text::format::plural(n, "lead", "leads"),
                error_text(&e)
            ));
            let c = &job.campaign;
            let uncertain = UncertainAdd {
                campaign: c.id.clone(),
                name: c.name.clone(),
                leads: n,
                why: error_text(&e),
            };
            leads.uncertain_add = Some(uncertain);
        }
        Err(e) => {
            job.error = Some(error_text(&e));
        }
    }
    next(leads, cx)
}

/// A page of the matching results (all-matching selection).
pub(crate) fn on_page(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    rows: Result<ResultRows, ApiError>,
) -> Vec<Cmd> {
    let except = match leads.dialog.as_ref() {
        Some(Dialog::Campaign(d)) => match &d.selection {
            Selection::All { except, .. } => except.clone(),
            Selection::Picked(_) | Selection::Cursor(_) => BTreeSet::new(),
        },
        _ => return Vec::new(),
    };
    let Some(job) = job_mut(leads) else {
        return Vec::new();
    };
    let Some(walk) = job.walk.as_mut() else {
        return Vec::new();
    };
    // `take` hands over only rows not read before: a lead is sent once.
    match page_of(rows).map(|page| walk.take(page)) {
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
                    job.skip(&super::result_name(r));
                } else {
                    job.buffer.push(lead);
                }
            }
        }
        Err(e) => job.error = Some(format!("reading the results failed: {e}")),
    }
    next(leads, cx)
}

/// What a key in the dialog asks the pane to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CampaignDone {
    /// Add the selection to the chosen campaign.
    Start,
    /// Create a draft campaign (the Campaigns pane's form) and add to it.
    New,
    /// Read the campaigns again.
    Reload,
}

impl CampaignDialog {
    /// A key in the dialog, edited in place; `action` is what the keymap
    /// binds the key to.
    pub fn key(&mut self, key: KeyEvent, action: Option<Action>) -> Outcome<CampaignDone> {
        match self.stage {
            Stage::Pick => {
                if fixed_keys::CLOSE.matches(&key) {
                    return Outcome::Close;
                }
                if fixed_keys::CONFIRM.matches(&key) {
                    return Outcome::Act(if self.on_new() {
                        CampaignDone::New
                    } else {
                        CampaignDone::Start
                    });
                }
                match action {
                    Some(Action::Up) => self.table.move_by(-1, LIST_ROWS),
                    Some(Action::Down) => self.table.move_by(1, LIST_ROWS),
                    Some(Action::Top) => self.table.top(LIST_ROWS),
                    Some(Action::Bottom) => self.table.bottom(LIST_ROWS),
                    Some(Action::Refresh) => return Outcome::Act(CampaignDone::Reload),
                    _ => {}
                }
                Outcome::Keep
            }
            Stage::Sending => {
                if fixed_keys::CLOSE.matches(&key)
                    && let Some(job) = self.job.as_mut()
                {
                    // A chunk in flight cannot be recalled: stop after it.
                    job.stop = true;
                }
                Outcome::Keep
            }
            Stage::Done if fixed_keys::CLOSE.matches(&key) || fixed_keys::CONFIRM.matches(&key) => {
                Outcome::Close
            }
            Stage::Done => Outcome::Keep,
        }
    }
}

/// Carries out what the dialog asked for, with the whole pane.
pub(crate) fn act(leads: &mut LeadsModel, cx: &mut Ctx<'_>, done: CampaignDone) -> Vec<Cmd> {
    match done {
        CampaignDone::Start => start(leads, cx),
        CampaignDone::New => new_campaign(leads, cx),
        CampaignDone::Reload => {
            let Some(d) = dialog_mut(leads) else {
                return Vec::new();
            };
            d.error = None;
            send(cx, Purpose::Campaigns, ApiRequest::ListCampaigns);
            Vec::new()
        }
    }
}

/// The channel a new campaign for the selection is suggested in: network
/// when fewer of the picked leads lack a network URL than an email (`None`:
/// not known, the form's default).
fn suggested_channel(selection: &Selection) -> Option<Channel> {
    let email = selection.lacking(&Channel::Email)?;
    let network = selection.lacking(&Channel::Network)?;
    Some(if network < email {
        Channel::Network
    } else {
        Channel::Email
    })
}

/// "New draft campaign…": the Campaigns pane shows its create form; the
/// campaign it creates comes back as [`Intent::CampaignForLeads`], to
/// [`take_new`].
fn new_campaign(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(leads) else {
        return Vec::new();
    };
    d.error = None;
    let channel = suggested_channel(&d.selection);
    cx.intend(Intent::NewCampaignForLeads(channel));
    Vec::new()
}

/// The campaign created for the picker ("new draft campaign…"), handed
/// over as the pane is shown again: the add continues into it. With the
/// picker closed meanwhile, the campaign is only listed (back with nothing,
/// after Esc in the form, the picker stays as it was).
pub(crate) fn take_new(leads: &mut LeadsModel, cx: &mut Ctx<'_>, c: Campaign) -> Vec<Cmd> {
    let Some(d) = dialog_mut(leads).filter(|d| d.stage == Stage::Pick) else {
        return Vec::new();
    };
    let id = c.id.clone();
    d.set_campaigns(|list| {
        list.retain(|x| x.id != c.id);
        list.push(c);
    });
    let Some(i) = d.drafts().iter().position(|x| x.id == id) else {
        d.error = Some("the new campaign is not a draft: leads can only be added to drafts".into());
        return Vec::new();
    };
    d.table.select(i, LIST_ROWS);
    start(leads, cx)
}
