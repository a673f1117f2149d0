//! The sequence editor of a draft campaign: its steps (email, or network
//! connection request and messages) ending in `end`, each step's subject
//! and body in a text area with soft wrap, the lead fields and
//! `%custom_fields.<key>%` offered as insertable variables in a picker that
//! narrows as you type (the shared [`crate::app::picker`]), and a preview
//! rendered for a chosen lead of the roster (by the merge the demo service
//! sends with: [`crate::logic::template`]), moved to the next or previous
//! lead, or to the next lead for whom a variable of the sequence is empty.
//! Saving replaces the whole sequence (`PATCH /api/campaigns/{id}` with
//! `sequence_nodes`).

use std::collections::BTreeSet;

use crossterm::event::KeyEvent;
use ratatui_textarea::{CursorMove, TextArea, WrapMode};

use super::super::form::edit_key;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::rules::Op;
use super::{CampaignsModel, Confirmed, Purpose, View, detail, fixed_keys, upsert};
use crate::api::ApiError;
use crate::api::model::{
    Campaign, CampaignLead, Channel, NodeType, RosterPage, RosterQuery, SequenceNode,
    SequenceNodeInput, UpdateCampaign,
};
use crate::app::ctx::Ctx;
use crate::app::keymap::{Action, Scope};
use crate::app::picker::{Picker, PickerKey};
use crate::app::requests::Requests;
use crate::logic::lead_field::LeadField;
use crate::logic::template::{self, Variable};
use crate::store::Draft;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Leads read for the preview at a time.
const PREVIEW_LEADS: u64 = 20;

/// Leads one look for an empty variable goes through at most (reading the
/// windows past the one held) before it says none had one.
pub(crate) const SEEK_LEADS: u64 = 500;

/// A look for the next lead with an empty variable, going on in the
/// windows read after the one held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seek {
    /// Leads looked at so far.
    pub looked: u64,
}

/// One sending step.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its type.
    pub kind: NodeType,
    /// The subject (email steps).
    pub subject: TextArea<'static>,
    /// The step's message body, as edited.
    pub body: TextArea<'static>,
}

impl Step {
    fn new(kind: NodeType, subject: &str, body: &str) -> Step {
        // Text from the service is made inert before it reaches the editor.
        let subject = DisplayText::inline(subject).into_string();
        let body = DisplayText::block(body).into_string();
        let mut s = TextArea::new(vec![subject]);
        s.move_cursor(CursorMove::End);
        let mut b = TextArea::new(body.lines().map(str::to_owned).collect());
        b.set_wrap_mode(WrapMode::WordOrGlyph);
        Step {
            kind,
            subject: s,
            body: b,
        }
    }

    /// Whether the step has a subject line.
    pub fn has_subject(&self) -> bool {
        self.kind == NodeType::Email
    }

    fn subject_text(&self) -> String {
        self.subject.lines().join(" ")
    }

    fn body_text(&self) -> String {
        self.body.lines().join("\n")
    }
}

/// What has the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    /// The step list.
    #[default]
    Steps,
    /// The subject line.
    Subject,
    /// The step's body text area.
    Body,
}

/// The editor.
#[derive(Debug, Clone)]
pub struct Editor {
    /// The id of the campaign whose sequence is edited.
    pub campaign: String,
    /// Its name.
    pub name: String,
    /// Its channel.
    pub channel: Channel,
    /// The sending steps (`end` follows them).
    pub steps: Vec<Step>,
    /// The selected step.
    pub selected: usize,
    /// What has the focus.
    pub focus: Focus,
    /// The variables offered.
    pub variables: Vec<String>,
    /// The variable picker, when open.
    pub picker: Option<Picker>,
    /// Leads for the preview: a window of the roster.
    pub leads: Vec<CampaignLead>,
    /// The roster row of the window's first lead.
    pub window: u64,
    /// The lead (in the window) the preview is rendered for.
    pub preview_lead: usize,
    /// Leads in the roster (as the last window read said).
    pub lead_total: Option<u64>,
    /// The roster's status filter, which the rows count in.
    pub lead_status: Option<String>,
    /// The roster row wanted once its window arrives (the next or
    /// previous lead past the window's end).
    pub want_row: Option<u64>,
    /// A look for a lead with an empty variable, going on in the window
    /// on its way.
    pub seek: Option<Seek>,
    /// A message above the editor (the service's refusal, a save note).
    pub note: Option<String>,
    initial: Vec<(String, String, String)>,
}

impl Editor {
    fn content(&self) -> Vec<(String, String, String)> {
        self.steps
            .iter()
            .map(|s| (s.kind.as_str().to_owned(), s.subject_text(), s.body_text()))
            .collect()
    }

    /// Whether anything differs from the saved sequence.
    pub fn is_dirty(&self) -> bool {
        self.content() != self.initial
    }

    /// The local draft key.
    pub fn draft_key(&self) -> String {
        crate::logic::preflight::unsaved_sequence_key(&self.campaign)
    }

    /// The unsent steps as a draft.
    pub fn draft(&self) -> Draft {
        let mut fields = std::collections::BTreeMap::new();
        fields.insert("count".to_owned(), self.steps.len().to_string());
        for (i, (kind, subject, body)) in self.content().into_iter().enumerate() {
            fields.insert(format!("step.{i}.kind"), kind);
            fields.insert(format!("step.{i}.subject"), subject);
            fields.insert(format!("step.{i}.body"), body);
        }
        Draft {
            title: format!("sequence of {}", self.name),
            fields,
        }
    }

    fn restore(&mut self, d: &Draft) {
        let n: usize = d
            .fields
            .get("count")
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let get = |k: String| d.fields.get(&k).cloned().unwrap_or_default();
        self.steps = (0..n)
            .map(|i| {
                Step::new(
                    NodeType::parse(&get(format!("step.{i}.kind"))),
                    &get(format!("step.{i}.subject")),
                    &get(format!("step.{i}.body")),
                )
            })
            .collect();
        self.selected = 0;
    }

    /// The selected step.
    pub fn step(&self) -> Option<&Step> {
        self.steps.get(self.selected)
    }

    /// The lead of the preview.
    pub fn lead(&self) -> Option<&CampaignLead> {
        self.leads.get(self.preview_lead)
    }

    /// The preview lead's row in the roster (0-based).
    pub fn lead_row(&self) -> u64 {
        self.window.saturating_add(self.preview_lead as u64)
    }

    /// Inserts pasted text where the cursor is.
    pub fn paste(&mut self, text: &str) {
        let focus = self.focus;
        let Some(step) = self.steps.get_mut(self.selected) else {
            return;
        };
        match focus {
            Focus::Subject => {
                step.subject.insert_str(text.replace(['\n', '\r'], " "));
            }
            Focus::Body => {
                step.body
                    .insert_str(text.replace("\r\n", "\n").replace('\r', "\n"));
            }
            Focus::Steps => {}
        }
    }

    /// The sequence to send: the steps, then `end`.
    pub fn nodes(&self) -> Vec<SequenceNodeInput> {
        self.steps
            .iter()
            .map(|s| SequenceNodeInput {
                kind: s.kind.clone(),
                subject: if s.has_subject() {
                    s.subject_text().trim().to_owned()
                } else {
                    String::new()
                },
                body: s.body_text(),
            })
            .chain(std::iter::once(SequenceNodeInput {
                kind: NodeType::End,
                subject: String::new(),
                body: String::new(),
            }))
            .collect()
    }

    /// The variables the sequence uses, each once, in the order they
    /// first appear (a subject only where it is sent).
    pub(crate) fn used(&self) -> Vec<Variable> {
        let mut out: Vec<Variable> = Vec::new();
        for s in &self.steps {
            let mut texts = vec![s.body_text()];
            if s.has_subject() {
                texts.insert(0, s.subject_text());
            }
            for t in texts {
                for v in template::uses(&t).variables {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
        out
    }

    /// The variables of the sequence that are empty for `lead`, as tokens.
    pub fn empty_for(&self, lead: &CampaignLead) -> Vec<String> {
        self.used()
            .into_iter()
            .filter(|v| v.value(lead).trim().is_empty())
            .map(|v| v.token())
            .collect()
    }

    /// The first lead of the window from index `from` for whom a variable
    /// of the sequence is empty.
    fn gap_from(&self, from: usize) -> Option<usize> {
        let used = self.used();
        (from..self.leads.len()).find(|i| {
            self.leads
                .get(*i)
                .is_some_and(|l| used.iter().any(|v| v.value(l).trim().is_empty()))
        })
    }

    fn refresh_variables(&mut self, extra: &BTreeSet<String>) {
        let mut keys: BTreeSet<String> = extra.clone();
        for l in &self.leads {
            keys.extend(l.custom_fields.keys().cloned());
        }
        self.variables = LeadField::IN_TEMPLATES
            .into_iter()
            .map(Variable::Field)
            .chain(keys.into_iter().map(Variable::Custom))
            .map(|v| v.name())
            .collect();
    }
}

/// What a step is called.
pub(crate) fn step_name(kind: &NodeType) -> &'static str {
    match kind {
        NodeType::Email => "email",
        NodeType::ConnectionRequest => "connection request",
        NodeType::Message => "message",
        NodeType::End => "end",
        NodeType::Other(_) => "step",
    }
}

/// An editor over a campaign's sequence, previewed on `leads` (a window of
/// the roster from row `window`).
fn editor(
    c: &crate::api::model::Campaign,
    nodes: &[SequenceNode],
    leads: Vec<CampaignLead>,
    window: u64,
) -> Editor {
    let steps: Vec<Step> = nodes
        .iter()
        .filter(|n| n.kind != NodeType::End)
        .map(|n| Step::new(n.kind.clone(), &n.subject, &n.body))
        .collect();
    let mut e = Editor {
        campaign: c.id.clone(),
        name: c.name.clone(),
        channel: c.kind.clone(),
        steps,
        selected: 0,
        focus: Focus::Steps,
        variables: Vec::new(),
        picker: None,
        leads,
        window,
        preview_lead: 0,
        lead_total: None,
        lead_status: None,
        want_row: None,
        seek: None,
        note: None,
        initial: Vec::new(),
    };
    e.initial = e.content();
    e
}

/// The preview's start: the lead selected in the roster (its row, the
/// window of [`PREVIEW_LEADS`] holding it, as far as loaded), the roster's
/// status filter and total.
fn preview_start(cm: &CampaignsModel) -> (u64, Vec<CampaignLead>, Option<String>, Option<u64>) {
    let Some(r) = cm.open.as_ref().map(|o| &o.roster) else {
        return (0, Vec::new(), None, None);
    };
    let row = r.index(r.window.table.selected).unwrap_or(0) as u64;
    let window = row / PREVIEW_LEADS * PREVIEW_LEADS;
    let leads: Vec<CampaignLead> = (window..window + PREVIEW_LEADS)
        .map_while(|i| r.row(usize::try_from(i).ok()?).cloned())
        .collect();
    let status = r.status.as_ref().map(|s| s.as_str().to_owned());
    (row, leads, status, r.window.total.map(|t| t as u64))
}

/// Asks for the window of the roster holding row `row`, for the preview.
fn read_window(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, row: u64) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    e.want_row = Some(row);
    let (campaign, status) = (e.campaign.clone(), e.lead_status.clone());
    let page = row / PREVIEW_LEADS;
    cx.request(
        Purpose::PreviewLeads {
            campaign: campaign.clone(),
            page,
        },
        ApiRequest::ListLeads {
            id: campaign,
            query: RosterQuery {
                page: Some(page.saturating_add(1)),
                limit: Some(PREVIEW_LEADS),
                status,
            },
        },
    );
    Vec::new()
}

/// `s`: opens the editor on the open campaign (draft only), previewed on
/// the lead selected in the roster.
pub(crate) fn open(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(c) = cm
        .open
        .as_ref()
        .filter(|o| o.loaded)
        .map(|o| o.campaign.clone())
    else {
        return Vec::new();
    };
    if !detail::allowed(cx, &c, Op::EditSequence) {
        return Vec::new();
    }
    let Some(nodes) = c.sequence_nodes.clone() else {
        cx.notify(
            Level::Info,
            "Loading the sequence",
            "the campaign is being read; press the key again in a moment",
        );
        return detail::read(cx, &c.id);
    };
    let (row, leads, status, total) = preview_start(cm);
    let mut e = editor(&c, &nodes, leads, row / PREVIEW_LEADS * PREVIEW_LEADS);
    e.preview_lead = usize::try_from(row - e.window).unwrap_or(0);
    e.lead_status = status;
    e.lead_total = total;
    if let Some(d) = cx.state.drafts.remove(&e.draft_key()) {
        e.restore(&d);
        cx.notify(
            Level::Info,
            "Draft restored",
            "your unsent sequence is back",
        );
    }
    e.refresh_variables(&BTreeSet::new());
    if let Some(first) = e.steps.first() {
        e.focus = if first.has_subject() {
            Focus::Subject
        } else {
            Focus::Body
        };
    }
    cm.sequence = Some(e);
    cm.view = View::Sequence;
    read_window(cm, cx, row)
}

/// A window of leads for the preview answered.
pub(crate) fn on_leads(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    campaign: &str,
    page: u64,
    result: Result<RosterPage, ApiError>,
) -> Vec<Cmd> {
    let Ok(answer) = result else {
        return Vec::new();
    };
    let Some(e) = cm.sequence.as_mut().filter(|e| e.campaign == campaign) else {
        return Vec::new();
    };
    e.lead_total = Some(answer.total);
    if !answer.prospects.is_empty() {
        e.window = page.saturating_mul(PREVIEW_LEADS);
        let want = e.want_row.take().unwrap_or(e.window);
        e.leads = answer.prospects;
        let at = usize::try_from(want.saturating_sub(e.window)).unwrap_or(0);
        e.preview_lead = at.min(e.leads.len() - 1);
    }
    e.refresh_variables(&BTreeSet::new());
    match e.seek.take() {
        Some(seek) => seek_on(cm, cx, seek),
        None => Vec::new(),
    }
}

/// The look for a lead with an empty variable goes on from the preview's
/// lead: found in the window, the preview shows it; else the next window
/// is read, until [`SEEK_LEADS`] (or every lead) were looked at.
fn seek_on(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, seek: Seek) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if e.used().is_empty() {
        e.note = Some("the sequence uses no variable: no lead has one empty".into());
        return Vec::new();
    }
    let from = e.preview_lead;
    if let Some(i) = e.gap_from(from) {
        e.preview_lead = i;
        e.note = None;
        return Vec::new();
    }
    let looked = seek
        .looked
        .saturating_add(e.leads.len().saturating_sub(from) as u64);
    let total = e.lead_total.unwrap_or(0);
    if e.leads.is_empty() || looked >= total {
        e.note = Some("no lead of the roster has a variable of the sequence empty".into());
        return Vec::new();
    }
    if looked >= SEEK_LEADS {
        e.note = Some(format!(
            "none of the next {} has a variable of the sequence empty; {} looks further",
            format::plural(looked, "lead", "leads"),
            cx.keymap.key_label(Action::PreviewNextGap)
        ));
        return Vec::new();
    }
    let last = e.window.saturating_add(e.leads.len() as u64);
    let next = if last >= total { 0 } else { last };
    e.seek = Some(Seek { looked });
    read_window(cm, cx, next)
}

/// The preview key for the next lead with an empty variable: the look
/// starts at the lead after the one shown.
fn next_gap(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if e.leads.is_empty() {
        return Vec::new();
    }
    if e.preview_lead + 1 < e.leads.len() {
        e.preview_lead += 1;
        return seek_on(cm, cx, Seek { looked: 0 });
    }
    // The lead shown is the window's last: the look starts in the next.
    let next = e.lead_row().saturating_add(1);
    let next = match e.lead_total {
        Some(total) if next >= total => 0,
        _ => next,
    };
    e.seek = Some(Seek { looked: 1 });
    read_window(cm, cx, next)
}

/// The preview key for the previous lead (the window before is read past
/// the start of this one; before the first lead, the last).
fn prev_lead(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if e.preview_lead > 0 {
        e.preview_lead -= 1;
        return Vec::new();
    }
    let row = e.lead_row();
    let prev = match (row, e.lead_total) {
        (0, Some(total)) if total > 0 => total - 1,
        (0, _) => return Vec::new(),
        (r, _) => r - 1,
    };
    read_window(cm, cx, prev)
}

/// The preview key for the next lead of the roster (the next window is
/// read past the end of this one; after the last lead, the first).
fn next_lead(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if e.preview_lead + 1 < e.leads.len() {
        e.preview_lead += 1;
        return Vec::new();
    }
    let next = e.lead_row().saturating_add(1);
    let next = match e.lead_total {
        Some(total) if next >= total => 0,
        _ => next,
    };
    if e.leads.is_empty() && e.lead_total == Some(0) {
        return Vec::new();
    }
    read_window(cm, cx, next)
}

fn close(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let sending = saving(cx.requests);
    if let Some(e) = cm.sequence.take()
        && e.is_dirty()
    {
        let key = cx.keymap.key_label(Action::EditSequence);
        let back = format!("{key} brings it back");
        let draft = (e.draft_key(), e.draft());
        super::keep_edit_draft(cx, draft, "your sequence", &back, sending);
    }
    cm.view = View::Detail;
    Vec::new()
}

fn save(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if let Some(i) = e
        .steps
        .iter()
        .position(|s| s.has_subject() && s.subject_text().trim().is_empty())
    {
        e.note = Some(format!("step {} has no subject", i + 1));
        e.selected = i;
        e.focus = Focus::Subject;
        return Vec::new();
    }
    if let Some(i) = e.steps.iter().position(|s| s.body_text().trim().is_empty()) {
        e.note = Some(format!("step {} has no text", i + 1));
        e.selected = i;
        e.focus = Focus::Body;
        return Vec::new();
    }
    e.note = None;
    let update = UpdateCampaign {
        sequence_nodes: Some(e.nodes()),
        ..UpdateCampaign::default()
    };
    let id = e.campaign.clone();
    cx.request(
        Purpose::SaveSequence(id.clone()),
        ApiRequest::UpdateCampaign {
            id,
            update: Box::new(update),
        },
    );
    Vec::new()
}

/// The save answered.
pub(crate) fn on_saved(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    campaign: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(c) => {
            // Said of the campaign saved (another may be open by now).
            let steps = c
                .sequence_nodes
                .as_ref()
                .map_or(0, |n| n.iter().filter(|n| n.kind != NodeType::End).count());
            let text = format!(
                "“{}” has {}, then the end",
                DisplayText::inline(&c.name),
                format::plural(steps as u64, "step", "steps")
            );
            upsert(cm, cx, c);
            if cm.sequence.as_ref().is_some_and(|e| e.campaign == campaign) {
                cm.sequence = None;
                cm.view = View::Detail;
            }
            cx.notify(Level::Success, "Sequence saved", &text);
            super::drop_draft(cx, &crate::logic::preflight::unsaved_sequence_key(campaign));
            Vec::new()
        }
        Err(e) => {
            // The save replaces the whole sequence: sending it again
            // leaves the same steps; a read of the campaign tells whether
            // it landed.
            let lost =
                crate::logic::write::of_error(&e) == crate::logic::write::Outcome::MayHaveReached;
            let mut note = super::settle::failed_write(
                &e,
                "the sequence",
                crate::logic::write::Settle::SafeToRepeat,
                &format!(
                    "{} replaces the sequence with the same steps",
                    super::fixed_keys::SUBMIT.label
                ),
            );
            let editing = cm
                .sequence
                .as_ref()
                .is_some_and(|ed| ed.campaign == campaign);
            if lost && editing {
                note.push_str("; reading the campaign back to see");
            }
            let sent = match cm.sequence.as_mut() {
                Some(ed) if ed.campaign == campaign => {
                    ed.note = Some(note);
                    Some(ed.nodes())
                }
                // The editor is gone, and the steps sent with it: the
                // note stands alone (saving again is safe).
                _ => {
                    super::settle::notify_failed(cx, "Sequence save", &e, &note);
                    None
                }
            };
            match sent {
                Some(sent) if lost => super::settle::start_sequence(cm, cx, campaign, &sent, &e),
                _ => Vec::new(),
            }
        }
    }
}

/// The kind of a new step: email for email campaigns; for network, a
/// connection request first, then messages.
fn new_kind(e: &Editor) -> NodeType {
    match e.channel {
        Channel::Email => NodeType::Email,
        _ if e
            .steps
            .iter()
            .all(|s| s.kind != NodeType::ConnectionRequest) =>
        {
            NodeType::ConnectionRequest
        }
        _ => NodeType::Message,
    }
}

/// Removes step `i` (confirmed when it held text).
pub(crate) fn remove_step(cm: &mut CampaignsModel, i: usize) -> Vec<Cmd> {
    if let Some(e) = cm.sequence.as_mut()
        && i < e.steps.len()
    {
        e.steps.remove(i);
        e.selected = e.selected.min(e.steps.len().saturating_sub(1));
    }
    Vec::new()
}

fn ask_remove(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_ref() else {
        return Vec::new();
    };
    let i = e.selected;
    let Some(step) = e.step() else {
        return Vec::new();
    };
    if step.subject_text().trim().is_empty() && step.body_text().trim().is_empty() {
        return remove_step(cm, i);
    }
    cx.confirm(Confirm {
        title: "Remove step?".into(),
        lines: vec![format!(
            "Step {} ({}) and its text leave the sequence (nothing is saved until {}).",
            i + 1,
            step_name(&step.kind),
            fixed_keys::SUBMIT.label
        )],
        yes: "Remove".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Confirmed::RemoveStep(i).into()),
    });
    Vec::new()
}

/// The variables matching what is typed in the picker.
pub(crate) fn picked_from(p: &Picker, variables: &[String]) -> Vec<usize> {
    p.matches(variables, |v| vec![v.as_str()])
}

/// A key in the variable picker: typing narrows, ↑/↓ and PgUp/PgDn move,
/// Enter inserts `%name%` where the cursor is, Esc closes.
fn picker_key(e: &mut Editor, key: KeyEvent) {
    let Some(p) = e.picker.as_mut() else { return };
    let variables = &e.variables;
    let at = match p.key(key, |p| picked_from(p, variables).len()) {
        PickerKey::Keep => return,
        PickerKey::Close => {
            e.picker = None;
            return;
        }
        PickerKey::Pick(at) => picked_from(p, variables).get(at).copied(),
    };
    e.picker = None;
    let Some(var) = at.and_then(|i| e.variables.get(i)).cloned() else {
        return;
    };
    let focus = e.focus;
    if let Some(step) = e.steps.get_mut(e.selected) {
        let text = format!("%{var}%");
        match focus {
            Focus::Subject => {
                step.subject.insert_str(text);
            }
            _ => {
                step.body.insert_str(text);
            }
        }
    }
}

/// Moves the focus on (or back), skipping the subject of steps without one.
fn cycle(e: &mut Editor, forward: bool) {
    let has_subject = e.step().is_some_and(Step::has_subject);
    let order: &[Focus] = if has_subject {
        &[Focus::Steps, Focus::Subject, Focus::Body]
    } else {
        &[Focus::Steps, Focus::Body]
    };
    let i = order.iter().position(|f| *f == e.focus).unwrap_or(0);
    let n = order.len();
    e.focus = order[if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    }];
    if e.steps.is_empty() {
        e.focus = Focus::Steps;
    }
}

/// Keys while the step list has the focus (letters are commands here).
fn steps_key(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    key: KeyEvent,
    action: Option<Action>,
) -> Vec<Cmd> {
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if fixed_keys::ADD_STEP.matches(&key) {
        let kind = new_kind(e);
        let at = if e.steps.is_empty() {
            0
        } else {
            e.selected + 1
        };
        e.steps.insert(at, Step::new(kind, "", ""));
        e.selected = at;
        cycle(e, true);
    } else if fixed_keys::REMOVE_STEP.matches(&key) {
        return ask_remove(cm, cx);
    } else if fixed_keys::CONFIRM.matches(&key) {
        cycle(e, true);
    } else {
        match action {
            Some(Action::Up) => e.selected = e.selected.saturating_sub(1),
            Some(Action::Down) => {
                e.selected = (e.selected + 1).min(e.steps.len().saturating_sub(1));
            }
            _ => {}
        }
    }
    Vec::new()
}

/// Whether the editor's save is on its way (the editor is read-only until
/// it answers: what was typed meanwhile would be closed away unsaved).
/// (`requests`: what is in flight).
pub(crate) fn saving(requests: &Requests) -> bool {
    super::pending(requests, |p| matches!(p, Purpose::SaveSequence(_)))
}

/// Keys of the whole editor (before the focused box): close, save, the
/// variable picker, the next lead, the next box. `None`: not one of them.
/// While the save is on its way, every key that would change the text is
/// taken here and changes nothing.
fn editor_key(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    key: KeyEvent,
    action: Option<Action>,
) -> Option<Vec<Cmd>> {
    let sending = saving(cx.requests);
    let e = cm.sequence.as_mut()?;
    if fixed_keys::CLOSE.matches(&key) {
        return Some(close(cm, cx));
    }
    match action {
        Some(Action::PreviewNextLead) => return Some(next_lead(cm, cx)),
        Some(Action::PreviewPrevLead) => return Some(prev_lead(cm, cx)),
        Some(Action::PreviewNextGap) => return Some(next_gap(cm, cx)),
        _ => {}
    }
    if sending && !fixed_keys::NEXT.matches(&key) && !fixed_keys::PREV.matches(&key) {
        e.note = Some("saving… the editor takes text again once the service answers".into());
        return Some(Vec::new());
    }
    if fixed_keys::SUBMIT.matches(&key) {
        return Some(save(cm, cx));
    }
    if fixed_keys::INSERT_VARIABLE.matches(&key) {
        if e.focus != Focus::Steps && !e.steps.is_empty() {
            e.picker = Some(Picker::new((), e.variables.len(), None));
        } else {
            e.note = Some(format!(
                "move to a subject or body first ({}), then insert a variable",
                fixed_keys::NEXT.label
            ));
        }
    } else if fixed_keys::NEXT.matches(&key) {
        cycle(e, true);
    } else if fixed_keys::PREV.matches(&key) {
        cycle(e, false);
    } else {
        return None;
    }
    Some(Vec::new())
}

/// A key in the editor: text boxes take readline keys (`Ctrl-U` clears to
/// the start of the line, as in every text box).
pub(crate) fn on_key(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let action = cx.keymap.action(Scope::Campaigns, &key);
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    if e.picker.is_some() {
        picker_key(e, key);
        return Vec::new();
    }
    if let Some(cmds) = editor_key(cm, cx, key, action) {
        return cmds;
    }
    let Some(e) = cm.sequence.as_mut() else {
        return Vec::new();
    };
    let focus = e.focus;
    let Some(step) = e.steps.get_mut(e.selected) else {
        return steps_key(cm, cx, key, action);
    };
    match focus {
        Focus::Steps => return steps_key(cm, cx, key, action),
        Focus::Subject => {
            if fixed_keys::CONFIRM.matches(&key) {
                e.focus = Focus::Body;
            } else {
                edit_key(&mut step.subject, key);
            }
        }
        Focus::Body => {
            edit_key(&mut step.body, key);
        }
    }
    e.note = None;
    Vec::new()
}
