//! The roster of the open campaign: pages of at most 200 leads read around
//! the selection over the one page window ([`crate::app::window`]: at most
//! [`MAX_PAGES`] kept, so a roster of any size holds a bounded number of
//! leads), a status filter over the statuses of the campaign's channel, a
//! live text filter over the loaded leads, and the loaded pages marked to
//! be read again whenever the campaign's status or stats change (its
//! leads' statuses moved with them). A lead's detail and edit form live in
//! [`super::lead`], deleting in [`super::delete`].

use std::collections::BTreeSet;

use crossterm::event::KeyEvent;

use super::super::toast::Level;
use super::super::{ApiRequest, Cmd};
use super::{CampaignsModel, Dialog, Opened, Purpose, Tab, delete, detail, lead, pending};
use crate::api::ApiError;
use crate::api::model::{CampaignLead, Channel, LeadStatus, RosterPage, RosterQuery};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::live_filter::{LiveFilter, hit};
use crate::app::window::{PageWindow, Paged, Shape};

/// Leads per page (the contract's most).
pub const PAGE: usize = 200;
/// Pages kept in memory at most.
pub(crate) const MAX_PAGES: usize = 4;

impl Paged for CampaignLead {
    const SHAPE: Shape = Shape {
        page: PAGE,
        max_pages: MAX_PAGES,
        ahead: 50,
        max_inflight: 3,
        // A hundred times the biggest roster the service is known to hold.
        max_total: 50_000_000,
    };
}

/// The statuses an email campaign's leads go through.
const EMAIL_STATUSES: [LeadStatus; 7] = [
    LeadStatus::Pending,
    LeadStatus::Sent,
    LeadStatus::Replied,
    LeadStatus::Bounced,
    LeadStatus::Completed,
    LeadStatus::TimedOut,
    LeadStatus::Cancelled,
];

/// The statuses a network campaign's leads go through.
const NETWORK_STATUSES: [LeadStatus; 8] = [
    LeadStatus::Pending,
    LeadStatus::ConnectionSent,
    LeadStatus::Connected,
    LeadStatus::MessageSent,
    LeadStatus::Replied,
    LeadStatus::Completed,
    LeadStatus::TimedOut,
    LeadStatus::Cancelled,
];

/// The loaded part of the roster.
#[derive(Debug, Clone, Default)]
pub struct Roster {
    /// Only leads of this status (`t` cycles).
    pub status: Option<LeadStatus>,
    /// The loaded pages. Its table selects and scrolls over the rows
    /// shown: `0..total`, or the loaded leads passing the text filter.
    pub window: PageWindow<CampaignLead>,
    /// Selected lead ids (for delete).
    pub marks: BTreeSet<String>,
    /// The text filter over the loaded leads (the contract has no search
    /// parameter for the roster).
    pub needle: LiveFilter,
    /// Rows (in roster order) of the loaded leads passing the text filter.
    pub matches: Vec<usize>,
}

impl Roster {
    /// The lead at row `i` of the roster order, when its page is loaded.
    pub fn row(&self, i: usize) -> Option<&CampaignLead> {
        self.window.row(i)
    }

    /// Whether the text filter narrows the rows shown.
    pub fn filtering(&self) -> bool {
        self.needle.active()
    }

    /// The roster row shown at line `i` of the table.
    pub fn index(&self, i: usize) -> Option<usize> {
        if self.filtering() {
            self.matches.get(i).copied()
        } else {
            Some(i)
        }
    }

    /// The lead shown at line `i` of the table, when loaded.
    pub fn shown(&self, i: usize) -> Option<&CampaignLead> {
        self.row(self.index(i)?)
    }

    /// The selected lead, when loaded.
    pub fn selected(&self) -> Option<&CampaignLead> {
        self.shown(self.window.table.selected)
    }

    /// Leads held in memory.
    pub fn loaded_rows(&self) -> usize {
        self.window.loaded_rows()
    }

    /// Every loaded lead.
    pub fn loaded(&self) -> impl Iterator<Item = &CampaignLead> {
        self.window.loaded_iter()
    }

    /// Whether loaded pages wait to be read again (the campaign changed).
    pub fn stale(&self) -> bool {
        !self.window.stale.is_empty()
    }

    /// The ids of the loaded leads the table shows: every loaded one, or
    /// while the text filter narrows them, those passing it (a hidden lead
    /// is never selected unseen).
    pub fn shown_ids(&self) -> Vec<String> {
        if self.filtering() {
            (0..self.matches.len())
                .filter_map(|i| self.shown(i))
                .map(|l| l.id.clone())
                .collect()
        } else {
            self.loaded().map(|l| l.id.clone()).collect()
        }
    }

    /// Pages to read now (none while the text filter narrows the loaded
    /// leads: its table is over them, not over the roster): those the view
    /// wants that are missing or stale and not on their way.
    pub fn to_fetch(&self, viewport: usize, pending: &BTreeSet<usize>) -> Vec<usize> {
        if self.filtering() {
            return Vec::new();
        }
        self.window.missing(viewport, pending)
    }

    /// Drops the pages furthest from the selection beyond [`MAX_PAGES`]
    /// (while filtering, from the roster row of the selected match).
    fn evict(&mut self, viewport: usize) {
        if self.filtering() {
            let here = self.index(self.window.table.selected).unwrap_or(0);
            self.window.evict_around(here, &[]);
        } else {
            self.window.evict(viewport);
        }
    }

    /// Re-counts the rows shown: the roster's total, or the loaded leads
    /// passing the text filter.
    pub fn relen(&mut self, viewport: usize) {
        let needle = self.needle.lower();
        if needle.is_empty() {
            self.matches.clear();
            let total = self.window.total.unwrap_or(0);
            self.window.table.set_len(total, viewport);
            return;
        }
        self.matches = self
            .window
            .pages
            .iter()
            .flat_map(|(p, leads)| {
                let needle = needle.as_str();
                leads
                    .iter()
                    .enumerate()
                    .filter(move |(_, l)| lead_hit(l, needle))
                    .map(move |(j, _)| p * PAGE + j)
            })
            .collect();
        self.window.table.set_len(self.matches.len(), viewport);
    }
}

/// Whether a lead holds the filter's text (name, identity, company,
/// position or status).
fn lead_hit(l: &CampaignLead, needle: &str) -> bool {
    let name = lead::lead_name(l);
    hit(
        needle,
        [
            name.as_str(),
            l.email.as_str(),
            l.network_url.as_str(),
            l.company.as_str(),
            l.position.as_str(),
            l.status.as_str(),
        ],
    )
}

/// The lead statuses of a channel, in the order the status filter cycles.
pub(crate) fn statuses(channel: &Channel) -> &'static [LeadStatus] {
    match channel {
        Channel::Network => &NETWORK_STATUSES,
        _ => &EMAIL_STATUSES,
    }
}

/// The status filter after `t`: the channel's statuses in turn, then none.
pub(crate) fn next_status(channel: &Channel, s: Option<&LeadStatus>) -> Option<LeadStatus> {
    let all = statuses(channel);
    match s {
        None => all.first().cloned(),
        Some(cur) => all
            .iter()
            .position(|x| x == cur)
            .and_then(|i| all.get(i + 1))
            .cloned(),
    }
}

fn roster_mut(cm: &mut CampaignsModel) -> Option<&mut Roster> {
    cm.open.as_mut().map(|o| &mut o.roster)
}

/// Asks for the wanted pages not loaded nor on their way; drops far ones.
/// Pages read before the campaign last changed are read again.
pub(crate) fn fetch_pages(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(o) = cm.open.as_ref() else {
        return Vec::new();
    };
    if o.tab != Tab::Roster || !o.loaded && o.campaign.id.is_empty() {
        return Vec::new();
    }
    if o.roster.filtering() && o.roster.stale() {
        return refresh_visible(cm, cx);
    }
    let pending: BTreeSet<usize> = cx
        .requests
        .purposes::<super::CampaignsModel>()
        .filter_map(|p| match p {
            Purpose::Roster { page, .. } => Some(*page),
            _ => None,
        })
        .collect();
    let missing = o.roster.to_fetch(vp, &pending);
    request_pages(o, cx, &missing)
}

/// Asks again for the pages on screen (the campaign is sending: statuses
/// move); what is shown stays until the fresh copy arrives. While the text
/// filter narrows the loaded leads, every loaded page is read again.
pub(crate) fn refresh_visible(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    if o.roster.filtering() {
        let pages: Vec<usize> = o.roster.window.pages.keys().copied().collect();
        o.roster.window.stale.clear();
        return request_pages(o, cx, &pages);
    }
    o.roster.window.mark_wanted_stale(vp);
    fetch_pages(cm, cx)
}

/// Asks for roster pages of the open campaign `o` (those already on
/// their way are skipped).
pub(super) fn request_pages(o: &Opened, cx: &mut Ctx<'_>, pages: &[usize]) -> Vec<Cmd> {
    let campaign = o.campaign.id.clone();
    let status = o.roster.status.as_ref().map(|s| s.as_str().to_owned());
    for page in pages {
        let purpose = Purpose::Roster {
            campaign: campaign.clone(),
            page: *page,
        };
        if pending(cx.requests, |p| *p == purpose) {
            continue;
        }
        cx.request(
            purpose,
            ApiRequest::ListLeads {
                id: campaign.clone(),
                query: RosterQuery {
                    page: Some(u64::try_from(*page).unwrap_or(u64::MAX).saturating_add(1)),
                    limit: Some(PAGE as u64),
                    status: status.clone(),
                },
            },
        );
    }
    Vec::new()
}

/// Reads the roster afresh (a new filter, or after a change).
pub(crate) fn reload(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    reload_at(cm, cx, None)
}

/// Reads the roster afresh; `at`: a row to select and the rows known to be
/// there (the preflight just counted them), so the pages around that row
/// are asked for at once.
pub(crate) fn reload_at(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    at: Option<(usize, usize)>,
) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(r) = roster_mut(cm) else {
        return Vec::new();
    };
    r.window = PageWindow::default();
    r.matches.clear();
    if let Some((row, total)) = at {
        r.window.total = Some(total);
        r.window.table.set_len(total, vp);
        r.window.table.select(row, vp);
    }
    // The one place older pages are dropped: their requests are forgotten,
    // so their replies never reach the pane.
    cx.requests
        .forget::<super::CampaignsModel>(|p| matches!(p, Purpose::Roster { .. }));
    fetch_pages(cm, cx)
}

/// A roster page answered.
/// Only replies still in the request table arrive: a page of another
/// campaign or of an older filter was forgotten ([`reload`], opening or
/// closing a campaign) and never gets here.
pub(crate) fn on_page(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    page: usize,
    result: Result<RosterPage, ApiError>,
) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    let r = &mut o.roster;
    match result {
        Ok(p) => {
            r.window.take_counted(page, p.prospects, p.total, vp);
            r.relen(vp);
            r.evict(vp);
            r.relen(vp);
            // A shorter roster (leads deleted elsewhere) may want other pages.
            fetch_pages(cm, cx)
        }
        Err(e) => {
            r.window.failed(&e);
            super::toast_error(cx, "reading the roster", &e);
            Vec::new()
        }
    }
}

/// A key while the text filter is typed: the rows narrow as it changes,
/// keeping the selected lead when it still passes.
pub(crate) fn on_filter_key(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(r) = roster_mut(cm) else {
        return Vec::new();
    };
    let at = r.index(r.window.table.selected);
    if r.needle.key(key) {
        refiltered(r, at, vp);
        return fetch_pages(cm, cx);
    }
    Vec::new()
}

/// Pasted text while the text filter is typed.
pub(crate) fn on_filter_paste(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, text: &str) {
    let vp = detail::tab_viewport(cx);
    if let Some(r) = roster_mut(cm) {
        let at = r.index(r.window.table.selected);
        if r.needle.paste(text) {
            refiltered(r, at, vp);
        }
    }
}

/// The rows after the text filter changed, the selection kept on roster
/// row `at` when it is still shown.
fn refiltered(r: &mut Roster, at: Option<usize>, vp: usize) {
    r.relen(vp);
    let line = match at {
        Some(at) if r.filtering() => r.matches.iter().position(|x| *x == at),
        other => other,
    };
    r.window.table.select(line.unwrap_or(0), vp);
}

/// A key action on the roster tab.
pub(crate) fn on_action(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    if o.tab == Tab::Roster && detail::nav(&mut o.roster.window.table, action, vp) {
        return fetch_pages(cm, cx);
    }
    let campaign = o.campaign.clone();
    match action {
        Action::Open if o.tab == Tab::Roster => {
            if let Some(lead) = o.roster.selected().cloned() {
                cm.dialog = Some(Dialog::Lead(Box::new(lead::LeadView {
                    lead,
                    channel: campaign.kind,
                    scroll: 0,
                })));
            }
            Vec::new()
        }
        Action::Filter if o.tab == Tab::Roster => {
            o.roster.needle.open();
            Vec::new()
        }
        Action::Back if o.tab == Tab::Roster && o.roster.filtering() => {
            let at = o.roster.index(o.roster.window.table.selected);
            o.roster.needle.clear();
            refiltered(&mut o.roster, at, vp);
            fetch_pages(cm, cx)
        }
        Action::CampaignStatusFilter => {
            o.tab = Tab::Roster;
            o.roster.status = next_status(&campaign.kind, o.roster.status.as_ref());
            o.roster.marks.clear();
            reload(cm, cx)
        }
        Action::MarkLead => {
            o.tab = Tab::Roster;
            if let Some(id) = o.roster.selected().map(|l| l.id.clone())
                && !o.roster.marks.remove(&id)
            {
                o.roster.marks.insert(id);
            }
            o.roster.window.table.move_by(1, vp);
            fetch_pages(cm, cx)
        }
        Action::MarkLoadedLeads => {
            o.tab = Tab::Roster;
            let ids = o.roster.shown_ids();
            o.roster.marks.extend(ids);
            Vec::new()
        }
        Action::EditItem => lead::edit(cm, cx, &campaign),
        Action::DeleteLeads => delete::ask(cm, cx, &campaign),
        Action::DeleteAllLeads => delete::ask_all(cx, &campaign),
        _ => detail::disabled_notice(cx, action),
    }
}

/// Puts an edited lead in place of its older copy.
pub(crate) fn replace_lead(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, lead: CampaignLead) {
    let vp = detail::tab_viewport(cx);
    let Some(r) = roster_mut(cm) else {
        return;
    };
    for page in r.window.pages.values_mut() {
        if let Some(slot) = page.iter_mut().find(|l| l.id == lead.id) {
            *slot = lead;
            break;
        }
    }
    if r.filtering() {
        r.relen(vp);
    }
}

/// Says that nothing is selected to act on.
pub(super) fn nothing_selected(cx: &mut Ctx<'_>) {
    let key = cx.keymap.key_label(Action::MarkLead);
    cx.notify(
        Level::Info,
        "Nothing selected",
        &format!("select leads with {key} first"),
    );
}
