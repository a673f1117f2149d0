//! The roster of the open campaign: pages of at most 200 leads read around
//! the selection (at most [`MAX_PAGES`] kept, so a roster of any size holds
//! a bounded number of leads), a status filter, a lead's detail with its
//! custom fields, the lead edit form, and deleting leads (the selected
//! ones in chunks of at most 500, or all) — edits only while the campaign
//! is a draft.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crossterm::event::{KeyCode, KeyEvent};
use serde_json::{Map, Value};

use super::super::form::{Form, FormEvent};
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::rules::Op;
use super::{Confirmed, Dialog, Purpose, Tab, detail, error_text, in_flight, target, uncertain};
use crate::api::model::{
    Campaign, CampaignLead, Channel, DeleteLeads, EditLead, LeadInput, LeadStatus, RosterQuery,
};
use crate::app::keymap::{Action, Scope};
use crate::store::Draft;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Leads per page (the contract's most).
pub const PAGE: u64 = 200;
/// Pages kept in memory at most.
pub const MAX_PAGES: usize = 4;
/// Lead ids per delete call (the contract's most).
pub const DELETE_CHUNK: usize = 500;
/// The most leads a reported `total` is believed to stand for (a broken
/// or hostile service can send `1e19`); the pages themselves still decide
/// where the roster ends.
pub const MAX_TOTAL: u64 = 50_000_000;
/// Rows around the visible ones loaded ahead.
const AHEAD: u64 = 50;

/// The loaded part of the roster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Roster {
    /// Only leads of this status (`t` cycles).
    pub status: Option<LeadStatus>,
    /// Bumped when the filter changes: older pages are dropped.
    pub generation: u64,
    /// Leads the service says match (`None` until the first page).
    pub total: Option<u64>,
    /// Loaded pages by index.
    pub pages: BTreeMap<u64, Vec<CampaignLead>>,
    /// Selection and scroll over `0..total`.
    pub table: TableState,
    /// Selected lead ids (for delete).
    pub marks: BTreeSet<String>,
    /// The last failure, shown while nothing is loaded.
    pub error: Option<String>,
}

impl Roster {
    /// The lead at row `i`, when its page is loaded.
    pub fn row(&self, i: usize) -> Option<&CampaignLead> {
        let i = i as u64;
        self.pages
            .get(&(i / PAGE))?
            .get(usize::try_from(i % PAGE).ok()?)
    }

    /// The selected lead, when loaded.
    pub fn selected(&self) -> Option<&CampaignLead> {
        self.row(self.table.selected)
    }

    /// Leads held in memory.
    pub fn loaded_rows(&self) -> usize {
        self.pages.values().map(Vec::len).sum()
    }

    /// Every loaded lead.
    pub fn loaded(&self) -> impl Iterator<Item = &CampaignLead> {
        self.pages.values().flatten()
    }

    /// Pages the view wants: those of the visible rows and just around
    /// them, nearest to the selection first.
    pub fn wanted(&self, viewport: usize) -> Vec<u64> {
        let Some(total) = self.total else {
            return vec![0];
        };
        if total == 0 {
            return Vec::new();
        }
        let offset = self.table.offset as u64;
        let first = offset.saturating_sub(AHEAD);
        let last = offset
            .saturating_add(viewport.max(1) as u64)
            .saturating_add(AHEAD)
            .min(total - 1);
        let here = self.table.selected as u64 / PAGE;
        let mut pages: Vec<u64> = (first / PAGE..=last / PAGE).collect();
        pages.sort_by_key(|p| p.abs_diff(here));
        pages
    }

    /// Drops the pages furthest from the selection beyond [`MAX_PAGES`].
    fn evict(&mut self) {
        let here = self.table.selected as u64 / PAGE;
        while self.pages.len() > MAX_PAGES {
            let far = self.pages.keys().copied().max_by_key(|p| p.abs_diff(here));
            match far {
                Some(p) => self.pages.remove(&p),
                None => break,
            };
        }
    }
}

/// The status filter after `s`: every known lead status, then none.
pub fn next_status(s: Option<&LeadStatus>) -> Option<LeadStatus> {
    let all = LeadStatus::KNOWN;
    match s {
        None => all.first().cloned(),
        Some(cur) => all
            .iter()
            .position(|x| x == cur)
            .and_then(|i| all.get(i + 1))
            .cloned(),
    }
}

fn roster_mut(m: &mut Model) -> Option<&mut Roster> {
    m.panes.campaigns.open.as_mut().map(|o| &mut o.roster)
}

/// Asks for the wanted pages not loaded nor on their way; drops far ones.
pub fn fetch_pages(m: &mut Model) -> Vec<Cmd> {
    let vp = detail::tab_viewport(m);
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    if o.tab != Tab::Roster || !o.loaded && o.campaign.id.is_empty() {
        return Vec::new();
    }
    let wanted = o.roster.wanted(vp);
    let missing: Vec<u64> = wanted
        .into_iter()
        .filter(|p| !o.roster.pages.contains_key(p))
        .collect();
    request_pages(m, &missing)
}

/// Asks again for the pages on screen (the campaign is sending: statuses
/// move); what is shown stays until the fresh copy arrives.
pub fn refresh_visible(m: &mut Model) -> Vec<Cmd> {
    let vp = detail::tab_viewport(m);
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    let wanted = o.roster.wanted(vp);
    request_pages(m, &wanted)
}

/// Asks for roster pages (those already on their way are skipped).
pub(super) fn request_pages(m: &mut Model, pages: &[u64]) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    let (campaign, generation) = (o.campaign.id.clone(), o.roster.generation);
    let status = o.roster.status.as_ref().map(|s| s.as_str().to_owned());
    let mut cmds = Vec::new();
    for page in pages {
        let purpose = Purpose::Roster {
            campaign: campaign.clone(),
            generation,
            page: *page,
        };
        if in_flight(m, |p| *p == purpose) {
            continue;
        }
        let (_, cmd) = m.request(
            purpose,
            ApiRequest::ListLeads {
                id: campaign.clone(),
                query: RosterQuery {
                    page: Some(page.saturating_add(1)),
                    limit: Some(PAGE),
                    status: status.clone(),
                },
            },
        );
        cmds.push(cmd);
    }
    cmds
}

/// Reads the roster afresh (a new filter, or after a change).
pub fn reload(m: &mut Model) -> Vec<Cmd> {
    let Some(r) = roster_mut(m) else {
        return Vec::new();
    };
    r.generation += 1;
    r.pages.clear();
    r.total = None;
    r.error = None;
    r.table = TableState::default();
    m.requests
        .forget::<super::CampaignsModel>(|p| matches!(p, Purpose::Roster { .. }));
    fetch_pages(m)
}

/// A roster page answered.
pub fn on_page(
    m: &mut Model,
    campaign: &str,
    generation: u64,
    page: u64,
    reply: ApiReply,
) -> Vec<Cmd> {
    let ApiReply::Roster(result) = reply else {
        return Vec::new();
    };
    let vp = detail::tab_viewport(m);
    let Some(o) = m.panes.campaigns.open.as_mut() else {
        return Vec::new();
    };
    if o.campaign.id != campaign || o.roster.generation != generation {
        return Vec::new();
    }
    let r = &mut o.roster;
    match result {
        Ok(p) => {
            let total = p.total.min(MAX_TOTAL);
            r.total = Some(total);
            r.error = None;
            r.pages.insert(page, p.prospects);
            let len = usize::try_from(total).unwrap_or(usize::MAX);
            r.table.set_len(len, vp);
            r.evict();
            // A shorter roster (leads deleted elsewhere) may want other pages.
            fetch_pages(m)
        }
        Err(e) => {
            if r.total.is_none() {
                r.error = Some(error_text(&e));
            }
            super::toast_error(m, "reading the roster", &e);
            Vec::new()
        }
    }
}

/// A key action on the roster tab.
pub fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = detail::tab_viewport(m);
    let Some(o) = m.panes.campaigns.open.as_mut() else {
        return Vec::new();
    };
    if o.tab == Tab::Roster && detail::nav(&mut o.roster.table, action, vp) {
        return fetch_pages(m);
    }
    let campaign = o.campaign.clone();
    match action {
        Action::Open if o.tab == Tab::Roster => {
            if let Some(lead) = o.roster.selected().cloned() {
                m.panes.campaigns.dialog = Some(Dialog::Lead(Box::new(LeadView {
                    lead,
                    channel: campaign.kind,
                    scroll: 0,
                })));
            }
            Vec::new()
        }
        Action::CampaignStatusFilter => {
            o.tab = Tab::Roster;
            o.roster.status = next_status(o.roster.status.as_ref());
            o.roster.marks.clear();
            reload(m)
        }
        Action::MarkLead => {
            o.tab = Tab::Roster;
            if let Some(id) = o.roster.selected().map(|l| l.id.clone())
                && !o.roster.marks.remove(&id)
            {
                o.roster.marks.insert(id);
            }
            o.roster.table.move_by(1, vp);
            fetch_pages(m)
        }
        Action::MarkLoadedLeads => {
            o.tab = Tab::Roster;
            let ids: Vec<String> = o.roster.loaded().map(|l| l.id.clone()).collect();
            o.roster.marks.extend(ids);
            Vec::new()
        }
        Action::EditItem => edit(m, &campaign),
        Action::DeleteLeads => ask_delete(m, &campaign),
        Action::DeleteAllLeads => ask_delete_all(m, &campaign),
        _ => detail::disabled_notice(m, action),
    }
}

/// A lead's detail: every field and its custom fields.
#[derive(Debug, Clone, PartialEq)]
pub struct LeadView {
    /// The lead.
    pub lead: CampaignLead,
    /// The campaign's channel.
    pub channel: Channel,
    /// Scroll offset.
    pub scroll: u16,
}

/// A key in the lead's detail.
pub fn on_lead_key(m: &mut Model, mut d: Box<LeadView>, key: KeyEvent) -> Vec<Cmd> {
    match m.keymap.action(Scope::Campaigns, &key) {
        Some(Action::Back) => Vec::new(),
        _ if key.code == KeyCode::Char('q') => Vec::new(),
        Some(Action::EditItem) => {
            let Some(campaign) = target(m) else {
                return Vec::new();
            };
            if !detail::allowed(m, &campaign, Op::ChangeRoster) {
                m.panes.campaigns.dialog = Some(Dialog::Lead(d));
                return Vec::new();
            }
            open_edit(m, &campaign, &d.lead);
            Vec::new()
        }
        Some(Action::Down) => {
            d.scroll = d.scroll.saturating_add(1);
            m.panes.campaigns.dialog = Some(Dialog::Lead(d));
            Vec::new()
        }
        Some(Action::Up) => {
            d.scroll = d.scroll.saturating_sub(1);
            m.panes.campaigns.dialog = Some(Dialog::Lead(d));
            Vec::new()
        }
        _ => {
            m.panes.campaigns.dialog = Some(Dialog::Lead(d));
            Vec::new()
        }
    }
}

/// The lead edit form.
#[derive(Debug, Clone)]
pub struct LeadEdit {
    /// The campaign.
    pub campaign: String,
    /// The campaign's channel (its identity field is required).
    pub channel: Channel,
    /// The lead as it was.
    pub lead: CampaignLead,
    /// The form.
    pub form: Form,
}

impl LeadEdit {
    /// The local draft key.
    pub fn draft_key(&self) -> String {
        format!("campaign-lead:{}", self.lead.id)
    }

    /// The unsent text as a draft.
    pub fn draft(&self) -> Draft {
        Draft {
            title: format!("edit of lead {}", lead_name(&self.lead)),
            fields: self.form.snapshot(),
        }
    }
}

/// A lead's name to show: name, first and last, or an identity.
pub fn lead_name(l: &CampaignLead) -> String {
    let full = format!("{} {}", l.first_name.trim(), l.last_name.trim());
    [
        l.name.trim(),
        full.trim(),
        l.email.trim(),
        l.network_url.trim(),
    ]
    .into_iter()
    .find(|s| !s.is_empty())
    .unwrap_or("(no name)")
    .to_owned()
}

/// `key: value` lines of custom fields (strings bare, the rest as JSON).
pub fn custom_lines(fields: &Map<String, Value>) -> Vec<String> {
    fields
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => format!("{k}: {s}"),
            other => format!("{k}: {}", crate::app::json_tree::value_text(other)),
        })
        .collect()
}

/// Parses `key: value` lines back; the error names the line.
pub fn parse_custom(lines: &[String]) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for (i, line) in lines.iter().enumerate() {
        let Some((k, v)) = line.split_once(':') else {
            return Err(format!("line {}: write it as key: value", i + 1));
        };
        let k = k.trim();
        if k.is_empty() {
            return Err(format!("line {}: the key is empty", i + 1));
        }
        out.insert(k.to_owned(), Value::String(v.trim().to_owned()));
    }
    Ok(out)
}

const FIELDS: [(&str, &str); 8] = [
    ("email", "Email"),
    ("network_url", "Network URL"),
    ("first_name", "First name"),
    ("last_name", "Last name"),
    ("name", "Name"),
    ("company", "Company"),
    ("position", "Position"),
    ("headline", "Headline"),
];

fn field_of<'a>(l: &'a CampaignLead, key: &str) -> &'a str {
    match key {
        "email" => &l.email,
        "network_url" => &l.network_url,
        "first_name" => &l.first_name,
        "last_name" => &l.last_name,
        "name" => &l.name,
        "company" => &l.company,
        "position" => &l.position,
        _ => &l.headline,
    }
}

fn edit_form(channel: &Channel, lead: &CampaignLead) -> Form {
    let identity = if *channel == Channel::Email {
        "email"
    } else {
        "network_url"
    };
    let mut form = Form::new(&format!("Edit lead · {}", lead_name(lead)), "Save");
    for (key, label) in FIELDS {
        form = if key == identity {
            form.required_text(key, label, "this campaign's channel needs it")
        } else {
            form.text(key, label, "")
        };
    }
    form = form.multiline(
        "custom_fields",
        "Custom fields",
        "one per line: key: value (used as %custom_fields.key% in messages)",
        4,
    );
    for (key, _) in FIELDS {
        form.set_value(key, field_of(lead, key));
    }
    form.set_value(
        "custom_fields",
        &custom_lines(&lead.custom_fields).join("\n"),
    );
    form.mark_clean();
    form
}

fn open_edit(m: &mut Model, campaign: &Campaign, lead: &CampaignLead) {
    let mut d = LeadEdit {
        campaign: campaign.id.clone(),
        channel: campaign.kind.clone(),
        lead: lead.clone(),
        form: edit_form(&campaign.kind, lead),
    };
    if let Some(draft) = m.state.drafts.remove(&d.draft_key()) {
        d.form.restore(&draft.fields);
        m.notify(
            Level::Info,
            "Draft restored",
            "your unsent edit of this lead is back",
        );
    }
    m.panes.campaigns.dialog = Some(Dialog::EditLead(Box::new(d)));
}

/// `e` on the roster: edit the selected lead (draft only).
fn edit(m: &mut Model, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(m, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    let lead = m
        .panes
        .campaigns
        .open
        .as_ref()
        .and_then(|o| o.roster.selected().cloned());
    match lead {
        Some(lead) => open_edit(m, campaign, &lead),
        None => m.notify(Level::Info, "No lead", "select a loaded lead first"),
    }
    Vec::new()
}

/// The changed fields of the edit, or a message for the form.
fn edit_body(d: &LeadEdit) -> Result<Option<EditLead>, (String, String)> {
    let mut fields = LeadInput::default();
    let mut changed = false;
    for (key, _) in FIELDS {
        let v = d.form.value(key);
        if v == DisplayText::inline(field_of(&d.lead, key)).as_str().trim() {
            continue;
        }
        changed = true;
        let slot = match key {
            "email" => &mut fields.email,
            "network_url" => &mut fields.network_url,
            "first_name" => &mut fields.first_name,
            "last_name" => &mut fields.last_name,
            "name" => &mut fields.name,
            "company" => &mut fields.company,
            "position" => &mut fields.position,
            _ => &mut fields.headline,
        };
        *slot = Some(v);
    }
    let custom = parse_custom(&d.form.items("custom_fields"))
        .map_err(|e| ("custom_fields".to_owned(), e))?;
    if custom != d.lead.custom_fields {
        changed = true;
        fields.custom_fields = Some(custom);
    }
    Ok(changed.then(|| EditLead {
        id: d.lead.id.clone(),
        fields,
    }))
}

/// A key in the lead edit form.
pub fn on_edit_key(m: &mut Model, mut d: Box<LeadEdit>, key: KeyEvent) -> Vec<Cmd> {
    let sending = in_flight(m, |p| *p == Purpose::EditLead(d.lead.id.clone()));
    if sending {
        // Read-only until the answer; Esc leaves it to arrive as a notice.
        if key.code != KeyCode::Esc {
            m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
        }
        return Vec::new();
    }
    match d.form.handle_key(key) {
        // Unsent text is kept as a local draft and comes back next time.
        FormEvent::Cancel => {
            if d.form.is_dirty() {
                m.state.drafts.insert(d.draft_key(), d.draft());
                m.notify(
                    Level::Info,
                    "Draft kept",
                    "your edit is kept; e on the lead brings it back",
                );
            }
            Vec::new()
        }
        FormEvent::Submit => submit_edit(m, d),
        FormEvent::Edited | FormEvent::Ignored => {
            m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
            Vec::new()
        }
    }
}

fn submit_edit(m: &mut Model, mut d: Box<LeadEdit>) -> Vec<Cmd> {
    d.form.clear_errors();
    if !d.form.check_required() {
        m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
        return Vec::new();
    }
    let body = match edit_body(&d) {
        Ok(Some(b)) => b,
        Ok(None) => {
            d.form.note = Some("nothing changed".into());
            m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
            return Vec::new();
        }
        Err((field, e)) => {
            d.form.set_error(&field, &e);
            m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
            return Vec::new();
        }
    };
    let (_, cmd) = m.request(
        Purpose::EditLead(d.lead.id.clone()),
        ApiRequest::EditLead {
            id: d.campaign.clone(),
            edit: Box::new(body),
        },
    );
    m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
    vec![cmd]
}

/// The edit answered.
pub fn on_edited(m: &mut Model, lead_id: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Lead(result) = reply else {
        return Vec::new();
    };
    let dialog = match m.panes.campaigns.dialog.take() {
        Some(Dialog::EditLead(d)) if d.lead.id == lead_id => Some(d),
        other => {
            m.panes.campaigns.dialog = other;
            None
        }
    };
    match *result {
        Ok(lead) => {
            let name = lead_name(&lead);
            replace_lead(m, lead);
            m.state.drafts.remove(&format!("campaign-lead:{lead_id}"));
            m.notify(Level::Success, "Lead saved", &name);
            Vec::new()
        }
        Err(e) => {
            let Some(mut d) = dialog else {
                super::toast_error(m, "saving the lead", &e);
                return Vec::new();
            };
            if uncertain(&e) {
                d.form.note = Some(format!(
                    "{} — the edit may have been saved; Esc and r re-read the roster before saving again",
                    e.message()
                ));
            } else if e.status() == Some(409) {
                let key = if d.channel == Channel::Email {
                    "email"
                } else {
                    "network_url"
                };
                d.form.set_error(key, &e.message());
            } else {
                d.form.note = Some(error_text(&e));
            }
            m.panes.campaigns.dialog = Some(Dialog::EditLead(d));
            Vec::new()
        }
    }
}

fn replace_lead(m: &mut Model, lead: CampaignLead) {
    let Some(r) = roster_mut(m) else {
        return;
    };
    for page in r.pages.values_mut() {
        if let Some(slot) = page.iter_mut().find(|l| l.id == lead.id) {
            *slot = lead;
            return;
        }
    }
}

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

fn ask_delete(m: &mut Model, campaign: &Campaign) -> Vec<Cmd> {
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
        m.notify(
            Level::Info,
            "Nothing selected",
            "select leads with Space first",
        );
        return Vec::new();
    }
    let n = ids.len();
    m.confirm(Confirm {
        title: "Delete leads?".into(),
        lines: vec![
            format!(
                "{} lead{} leave{} the roster of “{}”.",
                format::count(n as u64),
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" },
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

fn ask_delete_all(m: &mut Model, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(m, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    m.confirm(Confirm {
        title: "Delete every lead?".into(),
        lines: vec![
            format!(
                "All {} leads leave the roster of “{}”.",
                format::count(campaign.stats.total),
                campaign.name
            ),
            "This cannot be undone.".into(),
        ],
        yes: "Delete all".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Confirmed::DeleteAll(campaign.id.clone()).into()),
    });
    Vec::new()
}

/// Starts deleting `ids` (confirmed).
pub fn delete(m: &mut Model, campaign: &str, ids: Vec<String>) -> Vec<Cmd> {
    let Some(o) = m
        .panes
        .campaigns
        .open
        .as_mut()
        .filter(|o| o.campaign.id == campaign)
    else {
        return Vec::new();
    };
    if o.delete.is_some() {
        return Vec::new();
    }
    o.delete = Some(DeleteJob {
        campaign: campaign.to_owned(),
        total: ids.len(),
        queue: ids.into(),
        deleted: 0,
    });
    next_delete(m)
}

/// Deletes every lead (confirmed).
pub fn delete_all(m: &mut Model, campaign: &str) -> Vec<Cmd> {
    let Some(o) = m
        .panes
        .campaigns
        .open
        .as_mut()
        .filter(|o| o.campaign.id == campaign)
    else {
        return Vec::new();
    };
    if o.delete.is_some() {
        return Vec::new();
    }
    o.delete = Some(DeleteJob {
        campaign: campaign.to_owned(),
        ..DeleteJob::default()
    });
    let (_, cmd) = m.request(
        Purpose::Delete(campaign.to_owned()),
        ApiRequest::DeleteLeads {
            id: campaign.to_owned(),
            which: DeleteLeads::All { all: true },
        },
    );
    vec![cmd]
}

fn next_delete(m: &mut Model) -> Vec<Cmd> {
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
        return finish_delete(m, None);
    }
    let ids: Vec<String> = job.queue.drain(..n).collect();
    let campaign = job.campaign.clone();
    let (_, cmd) = m.request(
        Purpose::Delete(campaign.clone()),
        ApiRequest::DeleteLeads {
            id: campaign,
            which: DeleteLeads::Ids { ids },
        },
    );
    vec![cmd]
}

fn finish_delete(m: &mut Model, failure: Option<String>) -> Vec<Cmd> {
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
    let mut cmds = detail::read(m, &job.campaign);
    cmds.extend(reload(m));
    cmds
}

/// A delete chunk answered: the next one, or the end.
pub fn on_deleted(m: &mut Model, campaign: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::LeadsDeleted(result) = reply else {
        return Vec::new();
    };
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
            next_delete(m)
        }
        Err(e) if uncertain(&e) => finish_delete(
            m,
            Some(format!(
                "{} — that chunk may have been deleted; the roster is read again",
                e.message()
            )),
        ),
        Err(e) => finish_delete(m, Some(error_text(&e))),
    }
}
