//! The sequence editor of a draft campaign: its steps (email, or network
//! connection request and messages) ending in `end`, each step's subject
//! and body in a text area with soft wrap, the lead fields and
//! `%custom_fields.<key>%` offered as insertable variables, and a preview
//! rendered for a chosen lead of the roster. Saving replaces the whole
//! sequence (`PATCH /api/campaigns/{id}` with `sequence_nodes`).

use std::collections::BTreeSet;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea, WrapMode};
use serde_json::Value;

use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::rules::Op;
use super::{Confirmed, Purpose, View, detail, error_text, uncertain, upsert};
use crate::api::model::{
    CampaignLead, Channel, NodeType, RosterQuery, SequenceNode, SequenceNodeInput, UpdateCampaign,
};
use crate::store::Draft;
use crate::text::sanitize::DisplayText;

/// Lead fields a template can use, as `%name%`.
pub const LEAD_FIELDS: [&str; 7] = [
    "first_name",
    "last_name",
    "name",
    "company",
    "position",
    "headline",
    "email",
];

/// Leads read for the preview.
const PREVIEW_LEADS: usize = 20;

/// One sending step.
#[derive(Debug, Clone)]
pub struct Step {
    /// Its type.
    pub kind: NodeType,
    /// The subject (email steps).
    pub subject: TextArea<'static>,
    /// The body.
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
    /// The body.
    Body,
}

/// The editor.
#[derive(Debug, Clone)]
pub struct Editor {
    /// The campaign.
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
    /// The variable picker, open on this row.
    pub picker: Option<usize>,
    /// Leads for the preview.
    pub leads: Vec<CampaignLead>,
    /// The lead the preview is rendered for.
    pub preview_lead: usize,
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
        format!("sequence:{}", self.campaign)
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

    fn refresh_variables(&mut self, extra: &BTreeSet<String>) {
        let mut keys: BTreeSet<String> = extra.clone();
        for l in &self.leads {
            keys.extend(l.custom_fields.keys().cloned());
        }
        self.variables = LEAD_FIELDS
            .iter()
            .map(|f| (*f).to_owned())
            .chain(keys.into_iter().map(|k| format!("custom_fields.{k}")))
            .collect();
    }
}

/// What a step is called.
pub fn step_name(kind: &NodeType) -> &'static str {
    match kind {
        NodeType::Email => "email",
        NodeType::ConnectionRequest => "connection request",
        NodeType::Message => "message",
        NodeType::End => "end",
        NodeType::Other(_) => "step",
    }
}

/// A template rendered for a lead: `%field%` and `%custom_fields.key%`
/// replaced; returns the text and the variables the lead has no value for.
pub fn render(template: &str, lead: &CampaignLead) -> (String, Vec<String>) {
    let mut out = String::with_capacity(template.len());
    let mut empty = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find('%') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let Some(end) = after.find('%') else {
            out.push('%');
            rest = after;
            continue;
        };
        let key = &after[..end];
        let value = match key {
            "first_name" => Some(lead.first_name.clone()),
            "last_name" => Some(lead.last_name.clone()),
            "name" => Some(lead.name.clone()),
            "company" => Some(lead.company.clone()),
            "position" => Some(lead.position.clone()),
            "headline" => Some(lead.headline.clone()),
            "email" => Some(lead.email.clone()),
            k => k
                .strip_prefix("custom_fields.")
                .map(|cf| match lead.custom_fields.get(cf) {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Null) | None => String::new(),
                    Some(v) => crate::app::json_tree::value_text(v),
                }),
        };
        match value {
            Some(v) => {
                if v.trim().is_empty() {
                    empty.push(key.to_owned());
                }
                out.push_str(&v);
                rest = &after[end + 1..];
            }
            None => {
                // Not a variable: the `%` stays, the scan goes on after it.
                out.push('%');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    (out, empty)
}

/// An editor over a campaign's sequence, with `leads` for the preview.
fn editor(
    c: &crate::api::model::Campaign,
    nodes: &[SequenceNode],
    leads: Vec<CampaignLead>,
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
        preview_lead: 0,
        note: None,
        initial: Vec::new(),
    };
    e.initial = e.content();
    e
}

/// `s`: opens the editor on the open campaign (draft only).
pub fn open(m: &mut Model) -> Vec<Cmd> {
    let Some(c) = m
        .panes
        .campaigns
        .open
        .as_ref()
        .filter(|o| o.loaded)
        .map(|o| o.campaign.clone())
    else {
        return Vec::new();
    };
    if !detail::allowed(m, &c, Op::EditSequence) {
        return Vec::new();
    }
    let Some(nodes) = c.sequence_nodes.clone() else {
        m.notify(
            Level::Info,
            "Loading the sequence",
            "the campaign is being read; press the key again in a moment",
        );
        return detail::read(m, &c.id);
    };
    let leads: Vec<CampaignLead> = m
        .panes
        .campaigns
        .open
        .as_ref()
        .map(|o| o.roster.loaded().take(PREVIEW_LEADS).cloned().collect())
        .unwrap_or_default();
    let mut e = editor(&c, &nodes, leads);
    if let Some(d) = m.state.drafts.remove(&e.draft_key()) {
        e.restore(&d);
        m.notify(
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
    m.panes.campaigns.sequence = Some(e);
    m.panes.campaigns.view = View::Sequence;
    let (_, cmd) = m.request(
        Purpose::PreviewLeads(c.id.clone()),
        ApiRequest::ListLeads {
            id: c.id,
            query: RosterQuery {
                page: Some(1),
                limit: Some(PREVIEW_LEADS as u64),
                status: None,
            },
        },
    );
    vec![cmd]
}

/// Leads for the preview answered.
pub fn on_leads(m: &mut Model, campaign: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Roster(Ok(page)) = reply else {
        return Vec::new();
    };
    let Some(e) = m
        .panes
        .campaigns
        .sequence
        .as_mut()
        .filter(|e| e.campaign == campaign)
    else {
        return Vec::new();
    };
    if !page.prospects.is_empty() {
        e.leads = page.prospects;
        e.preview_lead = e.preview_lead.min(e.leads.len() - 1);
    }
    e.refresh_variables(&BTreeSet::new());
    Vec::new()
}

fn close(m: &mut Model) -> Vec<Cmd> {
    if let Some(e) = m.panes.campaigns.sequence.take()
        && e.is_dirty()
    {
        m.state.drafts.insert(e.draft_key(), e.draft());
        m.notify(
            Level::Info,
            "Draft kept",
            "your sequence is kept; s brings it back",
        );
    }
    m.panes.campaigns.view = View::Detail;
    Vec::new()
}

fn save(m: &mut Model) -> Vec<Cmd> {
    let Some(e) = m.panes.campaigns.sequence.as_mut() else {
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
    let (_, cmd) = m.request(
        Purpose::SaveSequence(id.clone()),
        ApiRequest::UpdateCampaign {
            id,
            update: Box::new(update),
        },
    );
    vec![cmd]
}

/// The save answered.
pub fn on_saved(m: &mut Model, campaign: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Campaign(result) = reply else {
        return Vec::new();
    };
    match *result {
        Ok(c) => {
            upsert(m, c);
            m.state.drafts.remove(&format!("sequence:{campaign}"));
            if m.panes
                .campaigns
                .sequence
                .as_ref()
                .is_some_and(|e| e.campaign == campaign)
            {
                m.panes.campaigns.sequence = None;
                m.panes.campaigns.view = View::Detail;
            }
            m.notify(Level::Success, "Sequence saved", "");
            Vec::new()
        }
        Err(e) => {
            let note = if uncertain(&e) {
                format!(
                    "{} — the sequence may have been saved; saving again replaces it with the same steps",
                    e.message()
                )
            } else {
                error_text(&e)
            };
            match m.panes.campaigns.sequence.as_mut() {
                Some(ed) if ed.campaign == campaign => ed.note = Some(note),
                _ => super::toast_error(m, "saving the sequence", &e),
            }
            Vec::new()
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
pub fn remove_step(m: &mut Model, i: usize) -> Vec<Cmd> {
    if let Some(e) = m.panes.campaigns.sequence.as_mut()
        && i < e.steps.len()
    {
        e.steps.remove(i);
        e.selected = e.selected.min(e.steps.len().saturating_sub(1));
    }
    Vec::new()
}

fn ask_remove(m: &mut Model) -> Vec<Cmd> {
    let Some(e) = m.panes.campaigns.sequence.as_ref() else {
        return Vec::new();
    };
    let i = e.selected;
    let Some(step) = e.step() else {
        return Vec::new();
    };
    if step.subject_text().trim().is_empty() && step.body_text().trim().is_empty() {
        return remove_step(m, i);
    }
    m.confirm(Confirm {
        title: "Remove step?".into(),
        lines: vec![format!(
            "Step {} ({}) and its text leave the sequence (nothing is saved until Ctrl-S).",
            i + 1,
            step_name(&step.kind)
        )],
        yes: "Remove".into(),
        no: None,
        destructive: true,
        on_yes: ConfirmAction::Pane(Confirmed::RemoveStep(i).into()),
    });
    Vec::new()
}

/// A key in the variable picker.
fn picker_key(e: &mut Editor, key: KeyEvent) {
    let Some(row) = e.picker else { return };
    match key.code {
        KeyCode::Esc => e.picker = None,
        KeyCode::Up | KeyCode::Char('k') => e.picker = Some(row.saturating_sub(1)),
        KeyCode::Down | KeyCode::Char('j') => {
            e.picker = Some((row + 1).min(e.variables.len().saturating_sub(1)));
        }
        KeyCode::Enter => {
            e.picker = None;
            let Some(var) = e.variables.get(row).cloned() else {
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
        _ => {}
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
fn steps_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    let Some(e) = m.panes.campaigns.sequence.as_mut() else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => e.selected = e.selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => {
            e.selected = (e.selected + 1).min(e.steps.len().saturating_sub(1));
        }
        KeyCode::Char('a') => {
            let kind = new_kind(e);
            let at = if e.steps.is_empty() {
                0
            } else {
                e.selected + 1
            };
            e.steps.insert(at, Step::new(kind, "", ""));
            e.selected = at;
            cycle(e, true);
        }
        KeyCode::Char('x') => return ask_remove(m),
        KeyCode::Enter => cycle(e, true),
        _ => {}
    }
    Vec::new()
}

/// A key in the editor.
pub fn on_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    let sending = super::in_flight(m, |p| matches!(p, Purpose::SaveSequence(_)));
    let Some(e) = m.panes.campaigns.sequence.as_mut() else {
        return Vec::new();
    };
    if e.picker.is_some() {
        picker_key(e, key);
        return Vec::new();
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => return close(m),
        KeyCode::Char('s') if ctrl => {
            return if sending { Vec::new() } else { save(m) };
        }
        KeyCode::Char('t') if ctrl => {
            if e.focus != Focus::Steps && !e.steps.is_empty() {
                e.picker = Some(0);
            } else {
                e.note =
                    Some("move to a subject or body first (Tab), then insert a variable".into());
            }
            return Vec::new();
        }
        KeyCode::Char('l') if ctrl => {
            if !e.leads.is_empty() {
                e.preview_lead = (e.preview_lead + 1) % e.leads.len();
            }
            return Vec::new();
        }
        KeyCode::Tab => {
            cycle(e, true);
            return Vec::new();
        }
        KeyCode::BackTab => {
            cycle(e, false);
            return Vec::new();
        }
        _ => {}
    }
    let focus = e.focus;
    let Some(step) = e.steps.get_mut(e.selected) else {
        return steps_key(m, key);
    };
    match focus {
        Focus::Steps => return steps_key(m, key),
        Focus::Subject => {
            if key.code == KeyCode::Enter {
                e.focus = Focus::Body;
            } else {
                step.subject.input(key);
            }
        }
        Focus::Body => {
            step.body.input(key);
        }
    }
    e.note = None;
    Vec::new()
}
