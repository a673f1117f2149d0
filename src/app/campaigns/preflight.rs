//! The launch preflight in the dashboard (`L`, `:launch`): the campaign is
//! read as the service will send it, its pending roster walked page by page
//! through the pane's request table ([`logic::preflight`] holds the rules),
//! and what is wrong listed in groups, errors first, each line jumping to
//! its place with Enter. Errors refuse the launch; warnings (or a walk
//! stopped with Esc, whose unchecked leads are counted) need `y` before
//! the usual launch question; nothing found goes straight to it. The launch
//! itself is the one write path's ([`detail::launch`]).
//!
//! [`logic::preflight`]: crate::logic::preflight

use std::collections::BTreeMap;

use crossterm::event::KeyEvent;

use super::super::dialog::Outcome;
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::rules::Op;
use super::{
    CampaignsModel, Confirmed, Dialog, Purpose, Tab, View, detail, error_text, fixed_keys, layout,
    roster, sequence, settle, upsert,
};
use crate::api::ApiError;
use crate::api::model::{Campaign, Channel, LeadStatus, NodeType, RosterPage};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::logic::preflight::{Finding, Kind, Location, Part, Preflight, Report};
use crate::text::format;

/// One line of the findings list: a group's heading or one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A group's heading (not selectable: moving skips it).
    Heading(Kind),
    /// A finding.
    Finding(Finding),
}

/// The preflight dialog of one campaign.
#[derive(Debug, Clone)]
pub struct Check {
    /// The campaign checked (as read for the check once it arrived).
    pub campaign: Campaign,
    /// The walk, once the campaign was read.
    pub walk: Option<Preflight>,
    /// Esc stopped the walk before it ended.
    pub stopped: bool,
    /// The last read failed (the walk waits; the refresh key reads again).
    pub error: Option<String>,
    /// What was found, as of the last page (or the stop).
    pub report: Report,
    /// The findings list, once the walk is over.
    pub lines: Vec<Line>,
    /// Selection over [`Check::lines`].
    pub table: TableState,
    /// A note for the user (why `y` does nothing).
    pub note: Option<String>,
    /// The row (in the roster filtered to pending leads) of each lead a
    /// finding names, for Enter to select it.
    pub rows: BTreeMap<String, u64>,
    /// The pending page in flight (from 1), to tell which rows its leads are.
    pub page: u64,
}

/// What a key in the preflight asks the pane to do.
#[derive(Debug, Clone, PartialEq)]
pub enum PreflightDone {
    /// Stop the walk, listing what was found so far.
    Stop,
    /// Read again what failed.
    Retry,
    /// Close and show this place.
    Jump(Location),
    /// On to the launch question.
    Launch,
}

impl Check {
    fn new(campaign: Campaign) -> Check {
        Check {
            campaign,
            walk: None,
            stopped: false,
            error: None,
            report: Report::default(),
            lines: Vec::new(),
            table: TableState::default(),
            note: None,
            rows: BTreeMap::new(),
            page: 0,
        }
    }

    /// Whether the walk is over (read whole, stopped or refused by the
    /// walk itself): the findings list shows.
    pub fn finished(&self) -> bool {
        self.stopped || self.walk.as_ref().is_some_and(Preflight::done)
    }

    /// Leads checked and the pending leads the service reports (`None`
    /// before the first page).
    pub fn progress(&self) -> (u64, Option<u64>) {
        self.walk.as_ref().map_or((0, None), Preflight::progress)
    }

    /// The finding selected.
    pub fn selected(&self) -> Option<&Finding> {
        match self.lines.get(self.table.selected) {
            Some(Line::Finding(f)) => Some(f),
            _ => None,
        }
    }

    /// Whether the launch needs `y` before its question: a warning, or
    /// leads left unchecked.
    pub fn needs_second_yes(&self) -> bool {
        !self.report.warnings.is_empty() || self.report.not_checked() > 0
    }

    /// The report as it stands, the lines rebuilt from it and the
    /// selection put on the first finding.
    fn list(&mut self, viewport: usize) {
        let Some(walk) = self.walk.as_ref() else {
            return;
        };
        let mut report = walk.report();
        if self.stopped || walk.stopped().is_some() {
            report.complete = false;
        }
        self.lines = report
            .groups()
            .into_iter()
            .flat_map(|(kind, fs)| {
                std::iter::once(Line::Heading(kind))
                    .chain(fs.into_iter().map(|f| Line::Finding(f.clone())))
            })
            .collect();
        self.report = report;
        self.table = TableState::default();
        self.table.set_len(self.lines.len(), viewport);
        self.table.select(1, viewport);
    }

    /// Moves by a keymap move, skipping headings.
    fn nav(&mut self, action: Action, viewport: usize) -> bool {
        let before = self.table.selected;
        if !detail::nav(&mut self.table, action, viewport) {
            return false;
        }
        if matches!(self.lines.get(self.table.selected), Some(Line::Heading(_))) {
            // Headings never follow each other: one more row lands on a
            // finding, the way the move went (back down at the top).
            let down = self.table.selected > before || self.table.selected == 0;
            self.table.move_by(if down { 1 } else { -1 }, viewport);
        }
        true
    }

    /// A key in the dialog (`action`: what the keymap makes of it;
    /// `viewport`: the findings list's rows on screen).
    pub fn key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        viewport: usize,
    ) -> Outcome<PreflightDone> {
        self.note = None;
        let finished = self.finished();
        if fixed_keys::CLOSE.matches(&key) {
            return if finished || self.walk.is_none() {
                Outcome::Close
            } else {
                Outcome::Act(PreflightDone::Stop)
            };
        }
        if !finished {
            if self.error.is_some() && action == Some(Action::Refresh) {
                return Outcome::Act(PreflightDone::Retry);
            }
            return Outcome::Keep;
        }
        if action.is_some_and(|a| self.nav(a, viewport)) {
            return Outcome::Keep;
        }
        if fixed_keys::CONFIRM.matches(&key) {
            return match self.selected() {
                Some(f) => Outcome::Act(PreflightDone::Jump(f.location.clone())),
                None => Outcome::Keep,
            };
        }
        if fixed_keys::YES.matches(&key) {
            if self.report.blocks() {
                let n = self.report.errors.len() as u64;
                self.note = Some(format!(
                    "{} the launch: fix {} first",
                    format::plural(n, "error blocks", "errors block"),
                    if n == 1 { "it" } else { "them" }
                ));
                return Outcome::Keep;
            }
            return Outcome::Act(PreflightDone::Launch);
        }
        Outcome::Keep
    }
}

/// Whether a preflight request of campaign `id` is on its way.
pub(crate) fn running(requests: &crate::app::requests::Requests, id: &str) -> bool {
    super::pending(requests, |p| match p {
        Purpose::PreflightCampaign(c) | Purpose::PreflightPage { campaign: c, .. } => c == id,
        _ => false,
    })
}

/// Forgets the preflight's requests: their answers never arrive.
pub(crate) fn forget(cx: &mut Ctx<'_>) {
    cx.requests.forget::<CampaignsModel>(|p| {
        matches!(
            p,
            Purpose::PreflightCampaign(_) | Purpose::PreflightPage { .. }
        )
    });
}

/// The preflight's findings list rows on screen now.
pub(crate) fn viewport(cx: &Ctx<'_>) -> usize {
    layout::preflight(cx.layout().body).list_rows()
}

/// `L` on a campaign whose status allows a launch: the dialog opens and
/// the campaign is read as the service will send it.
pub(crate) fn start(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, c: Campaign) -> Vec<Cmd> {
    let id = c.id.clone();
    cm.dialog = Some(Dialog::Preflight(Box::new(Check::new(c))));
    cx.request(
        Purpose::PreflightCampaign(id.clone()),
        ApiRequest::GetCampaign { id },
    );
    Vec::new()
}

/// The open preflight of campaign `id`.
fn check_mut<'a>(cm: &'a mut CampaignsModel, id: &str) -> Option<&'a mut Check> {
    match cm.dialog.as_mut() {
        Some(Dialog::Preflight(c)) if c.campaign.id == id => Some(c),
        _ => None,
    }
}

/// Asks for the page the walk wants next; once it wants none, lists the
/// findings (or, with nothing found, asks the launch question at once).
fn next(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    let vp = viewport(cx);
    let Some(c) = check_mut(cm, id) else {
        return Vec::new();
    };
    let Some(walk) = c.walk.as_ref() else {
        return Vec::new();
    };
    if let Some(query) = walk.request() {
        c.page = query.page.unwrap_or(1);
        c.report = walk.report();
        cx.request(
            Purpose::PreflightPage {
                campaign: id.to_owned(),
                page: c.page,
            },
            ApiRequest::ListLeads {
                id: id.to_owned(),
                query,
            },
        );
        return Vec::new();
    }
    c.list(vp);
    if c.lines.is_empty() && !c.needs_second_yes() {
        return launch_question(cm, cx, id);
    }
    Vec::new()
}

/// The campaign, read for the check: the walk starts (and the campaign is
/// shown as read everywhere).
pub(crate) fn on_campaign(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    if check_mut(cm, id).is_none() {
        return Vec::new();
    }
    let c = match result {
        Ok(c) => c,
        Err(e) => {
            if let Some(check) = check_mut(cm, id) {
                check.error = Some(error_text(&e));
            }
            return Vec::new();
        }
    };
    let unsaved = cx
        .state
        .drafts
        .contains_key(&crate::logic::preflight::unsaved_sequence_key(id));
    upsert(cm, cx, c.clone());
    if let Err(why) = super::rules::check(&c.status, Op::Launch) {
        // It moved on since it was shown (launched elsewhere).
        cm.dialog = None;
        cx.notify(Level::Warning, "Cannot launch", &why);
        return Vec::new();
    }
    let Some(check) = check_mut(cm, id) else {
        return Vec::new();
    };
    check.error = None;
    check.walk = Some(Preflight::new(&c, unsaved));
    check.campaign = c;
    next(cm, cx, id)
}

/// A page of the pending roster answered: taken in, then the next asked.
pub(crate) fn on_page(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    page: u64,
    result: Result<RosterPage, ApiError>,
) -> Vec<Cmd> {
    let Some(c) = check_mut(cm, id) else {
        return Vec::new();
    };
    let answer = match result {
        Ok(p) => p,
        Err(e) => {
            c.error = Some(error_text(&e));
            return Vec::new();
        }
    };
    c.error = None;
    let Some(walk) = c.walk.as_mut() else {
        return Vec::new();
    };
    walk.take(&answer);
    // The leads findings name, while their page is at hand: Enter selects
    // them in the roster filtered the same way.
    let report = walk.report();
    let first = page.saturating_sub(1).saturating_mul(roster::PAGE as u64);
    for f in report.errors.iter().chain(&report.warnings) {
        if let Location::Lead(lead) = &f.location
            && !c.rows.contains_key(lead)
            && let Some(at) = answer.prospects.iter().position(|l| &l.id == lead)
        {
            c.rows.insert(lead.clone(), first.saturating_add(at as u64));
        }
    }
    next(cm, cx, id)
}

/// Carries out what a key in the dialog asked for.
pub(crate) fn act(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, done: PreflightDone) -> Vec<Cmd> {
    let vp = viewport(cx);
    let Some(Dialog::Preflight(c)) = cm.dialog.as_mut() else {
        return Vec::new();
    };
    let id = c.campaign.id.clone();
    match done {
        PreflightDone::Stop => {
            forget(cx);
            c.stopped = true;
            c.error = None;
            c.list(vp);
            Vec::new()
        }
        PreflightDone::Retry => {
            c.error = None;
            if c.walk.is_none() {
                cx.request(
                    Purpose::PreflightCampaign(id.clone()),
                    ApiRequest::GetCampaign { id },
                );
                return Vec::new();
            }
            next(cm, cx, &id)
        }
        PreflightDone::Launch => launch_question(cm, cx, &id),
        PreflightDone::Jump(at) => {
            let Some(Dialog::Preflight(c)) = cm.dialog.take() else {
                return Vec::new();
            };
            forget(cx);
            jump(cm, cx, &c, &at)
        }
    }
}

/// The dialog closed (Esc): its requests are forgotten.
pub(crate) fn closed(cx: &mut Ctx<'_>) {
    forget(cx);
}

/// The usual launch question, with what the preflight leaves open: the
/// warnings gone past and the leads not checked. The dialog closes.
fn launch_question(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, id: &str) -> Vec<Cmd> {
    let Some(Dialog::Preflight(check)) = cm.dialog.take() else {
        return Vec::new();
    };
    forget(cx);
    let c = &check.campaign;
    let r = &check.report;
    let pending = r.pending;
    let senders = c
        .sender_accounts
        .as_ref()
        .map_or(0, |s| s.iter().filter(|s| s.kind == c.kind).count());
    let mut lines = vec![format!(
        "“{}” ({}) starts sending to {}{}.",
        c.name,
        c.kind,
        format::plural(pending, "pending lead", "pending leads"),
        match senders {
            0 => String::new(),
            1 => " from 1 sender".to_owned(),
            n => format!(" from {n} senders"),
        }
    )];
    if c.kind == Channel::Email
        && let Some(limit) = c.daily_limit
    {
        lines.push(format!("At most {} emails a day.", format::count(limit)));
    }
    if !r.warnings.is_empty() {
        lines.push(format!(
            "The preflight's {} stand: you chose to go on.",
            format::plural(r.warnings.len() as u64, "warning", "warnings")
        ));
    }
    let unchecked = r.not_checked();
    if unchecked > 0 {
        lines.push(format!(
            "{} not checked: the preflight was stopped before it read them.",
            format::plural(unchecked, "pending lead was", "pending leads were")
        ));
    }
    lines.push(
        "The roster and the sequence freeze: leads can no longer be added, edited or deleted."
            .into(),
    );
    lines.extend(settle::again_line(cm, id));
    cx.confirm(Confirm {
        title: "Launch campaign?".into(),
        lines,
        yes: "Launch".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Confirmed::Launch(id.to_owned()).into()),
    });
    Vec::new()
}

/// Shows the place a finding is about: the campaign opened (when `L` was
/// pressed on the list), then a step in the sequence editor, a lead in the
/// roster of pending leads, the senders and settings on the overview.
fn jump(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, check: &Check, at: &Location) -> Vec<Cmd> {
    let id = check.campaign.id.clone();
    let mut cmds = Vec::new();
    if cm.view != View::Detail || cm.open_id() != Some(id.as_str()) {
        cmds.extend(detail::open(cm, cx, &id));
    }
    if let Some(o) = cm.open.as_mut().filter(|o| o.campaign.id == id) {
        // The campaign as the check read it, what the open copy lacks kept.
        o.campaign = detail::merge(&o.campaign, check.campaign.clone());
        o.loaded = true;
    }
    match at {
        Location::Step { index, part } => {
            cmds.extend(to_step(cm, cx, check, Some((*index, *part))));
        }
        Location::Sequence => cmds.extend(to_step(cm, cx, check, None)),
        Location::Roster => cmds.extend(detail::show_tab(cm, cx, Tab::Roster)),
        Location::Lead(lead) => cmds.extend(to_lead(cm, cx, check, lead)),
        Location::Senders | Location::Sender(_) | Location::Setting(_) | Location::Message(_) => {
            cmds.extend(detail::show_tab(cm, cx, Tab::Overview));
        }
    }
    cmds
}

/// The sequence editor, on step `step` (the preflight's index in the
/// service's order, and the part) when given.
fn to_step(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    check: &Check,
    step: Option<(usize, Option<Part>)>,
) -> Vec<Cmd> {
    if super::rules::check(&check.campaign.status, Op::EditSequence).is_err() {
        return detail::show_tab(cm, cx, Tab::Overview);
    }
    let cmds = sequence::open(cm, cx);
    let Some((index, part)) = step else {
        return cmds;
    };
    let at = editor_index(&check.campaign, index);
    if let Some(e) = cm.sequence.as_mut()
        && let Some(at) = at.filter(|i| *i < e.steps.len())
    {
        e.selected = at;
        let subject = e.steps.get(at).is_some_and(sequence::Step::has_subject);
        e.focus = match part {
            Some(Part::Subject) if subject => sequence::Focus::Subject,
            _ => sequence::Focus::Body,
        };
    }
    cmds
}

/// The editor's index of the step the preflight numbers `index` (the
/// service's order by position, the end nodes counted); the editor lists
/// the nodes as sent, the end left out.
pub(crate) fn editor_index(c: &Campaign, index: usize) -> Option<usize> {
    let nodes = c.sequence_nodes.as_ref()?;
    let mut sorted: Vec<_> = nodes.iter().collect();
    sorted.sort_by_key(|n| n.position);
    let node = sorted.get(index)?;
    nodes
        .iter()
        .filter(|n| n.kind != NodeType::End)
        .position(|n| std::ptr::eq(n, *node))
}

/// The roster of pending leads, on `lead` (its row as the walk read it).
fn to_lead(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, check: &Check, lead: &str) -> Vec<Cmd> {
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    o.tab = Tab::Roster;
    o.roster.status = Some(LeadStatus::Pending);
    o.roster.needle.clear();
    o.roster.marks.clear();
    let Some(row) = check.rows.get(lead).copied() else {
        cx.notify(
            Level::Info,
            "Lead not found",
            "the roster shows the pending leads; the lead was not on a page read",
        );
        return roster::reload(cm, cx);
    };
    // The walk just counted the pending leads: the pages around the lead
    // are asked for at once, the first answer corrects the count.
    let total = check.report.pending.max(row.saturating_add(1));
    let at = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    roster::reload_at(cm, cx, Some((at(row), at(total))))
}
