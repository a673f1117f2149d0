//! Generated messages of the open campaign: the list with its status filter
//! (draft, pending, sent, all), read 100 leads at a time; one lead's
//! messages with the inbound replies the service merges in; and editing a
//! draft or pending message.

use crossterm::event::{KeyCode, KeyEvent};

use super::super::form::{Form, FormEvent};
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Model};
use super::{Dialog, Purpose, detail, error_text, in_flight, uncertain};
use crate::api::model::{
    EditGeneratedMessage, GeneratedMessage, GeneratedMessagesQuery, MessageStatus, SequenceNode,
};
use crate::app::keymap::{Action, Scope};
use crate::store::Draft;
use crate::text::sanitize::DisplayText;

/// Leads whose messages are read at a time (the contract's most).
pub const LEADS_PER_PAGE: u64 = 100;

/// The status filter of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    /// Not sent yet, not scheduled (the service's default).
    #[default]
    Draft,
    /// Scheduled to send next.
    Pending,
    /// Sent.
    Sent,
    /// Every status.
    All,
}

impl Filter {
    /// The query value.
    pub fn as_str(self) -> &'static str {
        match self {
            Filter::Draft => "draft",
            Filter::Pending => "pending",
            Filter::Sent => "sent",
            Filter::All => "all",
        }
    }

    /// The next filter, wrapping.
    pub fn next(self) -> Filter {
        match self {
            Filter::Draft => Filter::Pending,
            Filter::Pending => Filter::Sent,
            Filter::Sent => Filter::All,
            Filter::All => Filter::Draft,
        }
    }
}

/// The messages list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Messages {
    /// The status filter.
    pub filter: Filter,
    /// The first lead (offset into the roster order) whose messages show.
    pub offset: u64,
    /// Bumped on every new query: older answers are dropped.
    pub generation: u64,
    /// The messages of leads `offset..offset + 100`.
    pub items: Vec<GeneratedMessage>,
    /// An answer arrived for this generation.
    pub loaded: bool,
    /// The last failure.
    pub error: Option<String>,
    /// Selection.
    pub table: TableState,
}

/// Loads the list unless it is loaded or on its way.
pub fn ensure_loaded(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    let purpose = Purpose::Messages {
        campaign: o.campaign.id.clone(),
        generation: o.messages.generation,
    };
    if o.messages.loaded || in_flight(m, |p| *p == purpose) {
        return Vec::new();
    }
    request(m)
}

/// Reads the list afresh (new filter, new page, or `r`).
pub fn reload(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_mut() else {
        return Vec::new();
    };
    o.messages.generation += 1;
    o.messages.loaded = false;
    m.requests
        .forget::<super::CampaignsModel>(|p| matches!(p, Purpose::Messages { .. }));
    request(m)
}

fn request(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    let id = o.campaign.id.clone();
    let q = GeneratedMessagesQuery {
        status: Some(o.messages.filter.as_str().to_owned()),
        prospect_id: None,
        prospect_limit: Some(LEADS_PER_PAGE),
        prospect_offset: Some(o.messages.offset),
    };
    let (_, cmd) = m.request(
        Purpose::Messages {
            campaign: id.clone(),
            generation: o.messages.generation,
        },
        ApiRequest::GeneratedMessages { id, query: q },
    );
    vec![cmd]
}

/// The list answered.
pub fn on_list(m: &mut Model, campaign: &str, generation: u64, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Messages(result) = reply else {
        return Vec::new();
    };
    let vp = detail::tab_viewport(m);
    let Some(o) = m.panes.campaigns.open.as_mut() else {
        return Vec::new();
    };
    if o.campaign.id != campaign || o.messages.generation != generation {
        return Vec::new();
    }
    let l = &mut o.messages;
    match result {
        Ok(items) => {
            l.table.set_len(items.len(), vp);
            l.items = items;
            l.loaded = true;
            l.error = None;
            names(m)
        }
        Err(e) => {
            l.loaded = true;
            l.error = Some(error_text(&e));
            super::toast_error(m, "reading the generated messages", &e);
            Vec::new()
        }
    }
}

/// Reads the roster pages holding the leads whose messages show, for
/// their names (only while the roster is unfiltered: then its order is
/// the one `prospect_offset` counts in).
fn names(m: &mut Model) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    if o.roster.status.is_some() {
        return Vec::new();
    }
    let first = o.messages.offset / super::roster::PAGE;
    let last = (o.messages.offset + LEADS_PER_PAGE - 1) / super::roster::PAGE;
    let missing: Vec<u64> = (first..=last)
        .filter(|p| !o.roster.pages.contains_key(p))
        .collect();
    super::roster::request_pages(m, &missing)
}

/// The sequence step a message belongs to (`None`: an inbound reply).
pub fn step_of<'a>(nodes: &'a [SequenceNode], m: &GeneratedMessage) -> Option<&'a SequenceNode> {
    nodes.iter().find(|n| n.id == m.node_id)
}

/// Whether a message can be edited (and why not).
pub fn editable(msg: &GeneratedMessage, nodes: &[SequenceNode]) -> Result<(), &'static str> {
    if !nodes.is_empty() && step_of(nodes, msg).is_none() {
        return Err("a reply from the lead cannot be edited");
    }
    match msg.status {
        MessageStatus::Draft | MessageStatus::Pending => Ok(()),
        MessageStatus::Sent => Err("sent messages cannot be edited"),
        MessageStatus::Other(_) => Err("only draft and pending messages can be edited"),
    }
}

/// A key action on the messages tab.
pub fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = detail::tab_viewport(m);
    let Some(o) = m.panes.campaigns.open.as_mut() else {
        return Vec::new();
    };
    let l = &mut o.messages;
    // At the ends, paging turns to the next (previous) hundred leads.
    match action {
        Action::PageDown if l.loaded && l.table.selected + 1 >= l.table.len => {
            if l.items.is_empty() {
                return Vec::new();
            }
            l.offset = l.offset.saturating_add(LEADS_PER_PAGE);
            l.table = TableState::default();
            return reload(m);
        }
        Action::PageUp if l.table.selected == 0 && l.offset > 0 => {
            l.offset = l.offset.saturating_sub(LEADS_PER_PAGE);
            l.table = TableState::default();
            return reload(m);
        }
        _ => {}
    }
    if detail::nav(&mut l.table, action, vp) {
        return Vec::new();
    }
    let selected = l.items.get(l.table.selected).cloned();
    match action {
        Action::CampaignStatusFilter => {
            l.filter = l.filter.next();
            l.offset = 0;
            l.table = TableState::default();
            reload(m)
        }
        Action::Open => match selected {
            Some(msg) => open_thread(m, &msg.prospect_id),
            None => Vec::new(),
        },
        Action::EditItem => match selected {
            Some(msg) => open_edit(m, &msg),
            None => Vec::new(),
        },
        _ => super::roster::on_action(m, action),
    }
}

/// One lead's messages with the merged replies.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Thread {
    /// The campaign.
    pub campaign: String,
    /// The lead.
    pub prospect: String,
    /// Its name, as far as known.
    pub name: String,
    /// The messages (generated and inbound), oldest first.
    pub items: Vec<GeneratedMessage>,
    /// The answer arrived.
    pub loaded: bool,
    /// The last failure.
    pub error: Option<String>,
    /// The selected message.
    pub selected: usize,
    /// Scroll offset of the text.
    pub scroll: u16,
}

fn lead_name(m: &Model, prospect: &str) -> String {
    m.panes
        .campaigns
        .open
        .as_ref()
        .and_then(|o| o.roster.loaded().find(|l| l.id == prospect))
        .map_or_else(|| prospect.to_owned(), super::roster::lead_name)
}

/// Opens a lead's messages.
pub fn open_thread(m: &mut Model, prospect: &str) -> Vec<Cmd> {
    let Some(campaign) = m.panes.campaigns.open_id().map(str::to_owned) else {
        return Vec::new();
    };
    let name = lead_name(m, prospect);
    m.panes.campaigns.dialog = Some(Dialog::Thread(Box::new(Thread {
        campaign: campaign.clone(),
        prospect: prospect.to_owned(),
        name,
        ..Thread::default()
    })));
    let (_, cmd) = m.request(
        Purpose::LeadMessages {
            campaign: campaign.clone(),
            prospect: prospect.to_owned(),
        },
        ApiRequest::GeneratedMessages {
            id: campaign,
            query: GeneratedMessagesQuery {
                status: Some("all".into()),
                prospect_id: Some(prospect.to_owned()),
                prospect_limit: None,
                prospect_offset: None,
            },
        },
    );
    vec![cmd]
}

/// A lead's messages answered.
pub fn on_thread(m: &mut Model, campaign: &str, prospect: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Messages(result) = reply else {
        return Vec::new();
    };
    let Some(Dialog::Thread(t)) = m.panes.campaigns.dialog.as_mut() else {
        return Vec::new();
    };
    if t.campaign != campaign || t.prospect != prospect {
        return Vec::new();
    }
    t.loaded = true;
    match result {
        Ok(mut items) => {
            // Oldest first, as a conversation reads.
            items.sort_by(|a, b| a.created_at.cmp(&b.created_at));
            t.items = items;
            t.error = None;
        }
        Err(e) => t.error = Some(error_text(&e)),
    }
    Vec::new()
}

/// A key in a lead's messages.
pub fn on_thread_key(m: &mut Model, mut t: Box<Thread>, key: KeyEvent) -> Vec<Cmd> {
    let action = m.keymap.action(Scope::Campaigns, &key);
    if action == Some(Action::Back) || key.code == KeyCode::Char('q') {
        return Vec::new();
    }
    match action {
        Some(Action::Down) => {
            t.selected = (t.selected + 1).min(t.items.len().saturating_sub(1));
            t.scroll = 0;
        }
        Some(Action::Up) => {
            t.selected = t.selected.saturating_sub(1);
            t.scroll = 0;
        }
        Some(Action::PageDown) => t.scroll = t.scroll.saturating_add(5),
        Some(Action::PageUp) => t.scroll = t.scroll.saturating_sub(5),
        Some(Action::EditItem) => {
            if let Some(msg) = t.items.get(t.selected).cloned() {
                return open_edit(m, &msg);
            }
        }
        _ => {}
    }
    m.panes.campaigns.dialog = Some(Dialog::Thread(t));
    Vec::new()
}

/// The message edit form.
#[derive(Debug, Clone)]
pub struct MessageEdit {
    /// The campaign.
    pub campaign: String,
    /// The message as it was.
    pub message: GeneratedMessage,
    /// Subject and body.
    pub form: Form,
}

impl MessageEdit {
    /// The local draft key.
    pub fn draft_key(&self) -> String {
        format!("generated-message:{}", self.message.id)
    }

    /// The unsent text as a draft.
    pub fn draft(&self) -> Draft {
        Draft {
            title: "edit of a generated message".into(),
            fields: self.form.snapshot(),
        }
    }
}

/// `e` on a message: edit it when it is a draft or pending.
fn open_edit(m: &mut Model, msg: &GeneratedMessage) -> Vec<Cmd> {
    let Some(o) = m.panes.campaigns.open.as_ref() else {
        return Vec::new();
    };
    let nodes = o.campaign.sequence_nodes.clone().unwrap_or_default();
    if let Err(why) = editable(msg, &nodes) {
        m.notify(Level::Warning, "Cannot edit", why);
        return Vec::new();
    }
    let campaign = o.campaign.id.clone();
    let mut form = Form::new("Edit generated message", "Save")
        .text("subject", "Subject", "")
        .multiline(
            "body_text",
            "Body",
            "the text the lead receives (saved as manually edited)",
            10,
        );
    // Text from the service is made inert before it reaches a text box.
    form.set_value("subject", DisplayText::inline(&msg.subject).as_str());
    form.set_value("body_text", DisplayText::block(&msg.body_text).as_str());
    form.mark_clean();
    let mut d = MessageEdit {
        campaign,
        message: msg.clone(),
        form,
    };
    if let Some(draft) = m.state.drafts.remove(&d.draft_key()) {
        d.form.restore(&draft.fields);
        m.notify(Level::Info, "Draft restored", "your unsent edit is back");
    }
    m.panes.campaigns.dialog = Some(Dialog::EditMessage(Box::new(d)));
    Vec::new()
}

/// A key in the message edit form.
pub fn on_edit_key(m: &mut Model, mut d: Box<MessageEdit>, key: KeyEvent) -> Vec<Cmd> {
    if in_flight(m, |p| *p == Purpose::EditMessage(d.message.id.clone())) {
        if key.code != KeyCode::Esc {
            m.panes.campaigns.dialog = Some(Dialog::EditMessage(d));
        }
        return Vec::new();
    }
    match d.form.handle_key(key) {
        FormEvent::Cancel => {
            if d.form.is_dirty() {
                m.state.drafts.insert(d.draft_key(), d.draft());
                m.notify(
                    Level::Info,
                    "Draft kept",
                    "your edit is kept; e on the message brings it back",
                );
            }
            Vec::new()
        }
        FormEvent::Submit => {
            if !d.form.is_dirty() {
                d.form.note = Some("nothing changed".into());
                m.panes.campaigns.dialog = Some(Dialog::EditMessage(d));
                return Vec::new();
            }
            let subject = d.form.value("subject");
            let body = d.form.value("body_text");
            let edit = EditGeneratedMessage {
                message_id: d.message.id.clone(),
                subject: (subject != DisplayText::inline(&d.message.subject).as_str().trim())
                    .then_some(subject),
                body_text: (body != DisplayText::block(&d.message.body_text).as_str().trim())
                    .then_some(body),
                body_html: None,
            };
            let (_, cmd) = m.request(
                Purpose::EditMessage(d.message.id.clone()),
                ApiRequest::EditGeneratedMessage {
                    id: d.campaign.clone(),
                    edit,
                },
            );
            m.panes.campaigns.dialog = Some(Dialog::EditMessage(d));
            vec![cmd]
        }
        FormEvent::Edited | FormEvent::Ignored => {
            m.panes.campaigns.dialog = Some(Dialog::EditMessage(d));
            Vec::new()
        }
    }
}

/// The edit answered.
pub fn on_edited(m: &mut Model, message: &str, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::Message(result) = reply else {
        return Vec::new();
    };
    let dialog = match m.panes.campaigns.dialog.take() {
        Some(Dialog::EditMessage(d)) if d.message.id == message => Some(d),
        other => {
            m.panes.campaigns.dialog = other;
            None
        }
    };
    match *result {
        Ok(msg) => {
            if let Some(o) = m.panes.campaigns.open.as_mut()
                && let Some(slot) = o.messages.items.iter_mut().find(|x| x.id == msg.id)
            {
                *slot = msg;
            }
            m.state
                .drafts
                .remove(&format!("generated-message:{message}"));
            m.notify(Level::Success, "Message saved", "marked as manually edited");
            Vec::new()
        }
        Err(e) => {
            let Some(mut d) = dialog else {
                super::toast_error(m, "saving the message", &e);
                return Vec::new();
            };
            d.form.note = Some(if uncertain(&e) {
                format!(
                    "{} — it may have been saved; Esc and r re-read before saving again",
                    e.message()
                )
            } else {
                error_text(&e)
            });
            m.panes.campaigns.dialog = Some(Dialog::EditMessage(d));
            Vec::new()
        }
    }
}
