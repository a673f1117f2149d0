//! Generated messages of the open campaign: the list with its status filter
//! (draft, pending, sent, all), read 100 leads at a time; one lead's
//! messages with the inbound replies the service merges in; and editing a
//! draft or pending message. A text filter narrows the messages read;
//! the list is read again on each watch of a sending campaign while shown.

use crossterm::event::KeyEvent;

use super::super::dialog::Outcome;
use super::super::form::{Form, FormEvent};
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd};
use super::{CampaignsModel, Dialog, Purpose, detail, error_text, pending};
use crate::api::ApiError;
use crate::api::model::{
    Channel, EditGeneratedMessage, GeneratedMessage, GeneratedMessagesQuery, MessageStatus,
    NodeType, SequenceNode,
};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::live_filter::{LiveFilter, hit};
use crate::logic::preflight::{Location, Part, check_message};
use crate::store::Draft;
use crate::text::sanitize::DisplayText;

/// Leads whose messages are read at a time (the contract's most).
pub(crate) const LEADS_PER_PAGE: u64 = 100;

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
#[derive(Debug, Clone, Default)]
pub struct Messages {
    /// The status filter.
    pub filter: Filter,
    /// The first lead (offset into the roster order) whose messages show.
    pub offset: u64,
    /// The messages of leads `offset..offset + 100`.
    pub items: Vec<GeneratedMessage>,
    /// An answer arrived for the current query.
    pub loaded: bool,
    /// Why the last read of the messages failed (cleared by an answer).
    pub error: Option<ApiError>,
    /// Selection over the items shown.
    pub table: TableState,
    /// The text filter over the items read.
    pub needle: LiveFilter,
    /// Indices of the items passing the text filter.
    pub matches: Vec<usize>,
    /// The campaign changed since the list was read: it is read again when
    /// shown.
    pub stale: bool,
}

impl Messages {
    /// The index into `items` shown at line `i` of the table.
    pub fn index(&self, i: usize) -> Option<usize> {
        if self.needle.active() {
            self.matches.get(i).copied()
        } else {
            (i < self.items.len()).then_some(i)
        }
    }

    /// The message shown at line `i`.
    pub fn shown(&self, i: usize) -> Option<&GeneratedMessage> {
        self.items.get(self.index(i)?)
    }

    /// The selected message.
    pub fn selected(&self) -> Option<&GeneratedMessage> {
        self.shown(self.table.selected)
    }
}

/// Re-counts the messages shown: every item, or those passing the text
/// filter (over status, lead, subject and text).
pub(crate) fn relen(o: &mut super::Opened, viewport: usize) {
    let needle = o.messages.needle.lower();
    let l = &mut o.messages;
    if needle.is_empty() {
        l.matches.clear();
        l.table.set_len(l.items.len(), viewport);
        return;
    }
    let roster = &o.roster;
    l.matches = l
        .items
        .iter()
        .enumerate()
        .filter(|(_, msg)| {
            let who = roster
                .loaded()
                .find(|x| x.id == msg.prospect_id)
                .map(super::lead::lead_name)
                .unwrap_or_default();
            hit(
                &needle,
                [
                    msg.status.as_str(),
                    who.as_str(),
                    msg.subject.as_str(),
                    msg.body_text.as_str(),
                ],
            )
        })
        .map(|(i, _)| i)
        .collect();
    l.table.set_len(l.matches.len(), viewport);
}

/// Loads the list unless it is loaded or on its way; a list read before
/// the campaign last changed is read again.
pub(crate) fn ensure_loaded(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = cm.open.as_ref() else {
        return Vec::new();
    };
    if o.messages.stale {
        return refresh(cm, cx);
    }
    let purpose = Purpose::Messages {
        campaign: o.campaign.id.clone(),
    };
    if o.messages.loaded || pending(cx.requests, |p| *p == purpose) {
        return Vec::new();
    }
    request(o, cx)
}

/// Reads the list again as it is (the watch, or the campaign changed):
/// what is shown stays until the answer.
pub(crate) fn refresh(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    o.messages.stale = false;
    if pending(cx.requests, |p| matches!(p, Purpose::Messages { .. })) {
        return Vec::new();
    }
    request(o, cx)
}

/// Reads the list afresh (new filter, new page, or `r`): a read on its way
/// for the old query is forgotten, so the request table drops its answer
/// (the one place stale replies are dropped).
pub(crate) fn reload(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    o.messages.loaded = false;
    o.messages.stale = false;
    cx.requests
        .forget::<super::CampaignsModel>(|p| matches!(p, Purpose::Messages { .. }));
    request(o, cx)
}

/// Asks for the list of the open campaign `o` as its filter and page say.
fn request(o: &super::Opened, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let id = o.campaign.id.clone();
    let q = GeneratedMessagesQuery {
        status: Some(o.messages.filter.as_str().to_owned()),
        prospect_id: None,
        prospect_limit: Some(LEADS_PER_PAGE),
        prospect_offset: Some(o.messages.offset),
    };
    cx.request(
        Purpose::Messages {
            campaign: id.clone(),
        },
        ApiRequest::GeneratedMessages { id, query: q },
    );
    Vec::new()
}

/// The list answered.
pub(crate) fn on_list(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    campaign: &str,
    result: Result<Vec<GeneratedMessage>, ApiError>,
) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(o) = cm.open.as_mut() else {
        return Vec::new();
    };
    if o.campaign.id != campaign {
        return Vec::new();
    }
    let l = &mut o.messages;
    match result {
        Ok(items) => {
            l.items = items;
            l.loaded = true;
            l.error = None;
            relen(o, vp);
            names(cm, cx)
        }
        Err(e) => {
            l.loaded = true;
            if l.items.is_empty() {
                l.error = Some(e.clone());
            }
            super::toast_error(cx, "reading the generated messages", &e);
            Vec::new()
        }
    }
}

/// A key while the text filter is typed: the list narrows as it changes.
pub(crate) fn on_filter_key(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    if let Some(o) = cm.open.as_mut()
        && o.messages.needle.key(key)
    {
        relen(o, vp);
        o.messages.table.select(0, vp);
    }
    Vec::new()
}

/// Pasted text while the text filter is typed.
pub(crate) fn on_filter_paste(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, text: &str) {
    let vp = detail::tab_viewport(cx);
    if let Some(o) = cm.open.as_mut()
        && o.messages.needle.paste(text)
    {
        relen(o, vp);
    }
}

/// Reads the roster pages holding the leads whose messages show, for
/// their names (only while the roster is unfiltered: then its order is
/// the one `prospect_offset` counts in).
fn names(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = cm.open.as_ref() else {
        return Vec::new();
    };
    if o.roster.status.is_some() {
        return Vec::new();
    }
    let row = |lead: u64| usize::try_from(lead).unwrap_or(usize::MAX);
    let first = row(o.messages.offset);
    let last = row(o.messages.offset.saturating_add(LEADS_PER_PAGE - 1));
    let missing: Vec<usize> = crate::app::window::pages_covering(first, last, super::roster::PAGE)
        .filter(|p| !o.roster.window.pages.contains_key(p))
        .collect();
    super::roster::request_pages(o, cx, &missing)
}

/// The sequence step a message belongs to (`None`: an inbound reply).
pub(crate) fn step_of<'a>(
    nodes: &'a [SequenceNode],
    m: &GeneratedMessage,
) -> Option<&'a SequenceNode> {
    nodes.iter().find(|n| n.id == m.node_id)
}

/// Whether a message can be edited (and why not).
pub(crate) fn editable(msg: &GeneratedMessage, nodes: &[SequenceNode]) -> Result<(), &'static str> {
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
pub(crate) fn on_action(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = detail::tab_viewport(cx);
    let Some(o) = cm.open.as_mut() else {
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
            return reload(cm, cx);
        }
        Action::PageUp if l.table.selected == 0 && l.offset > 0 => {
            l.offset = l.offset.saturating_sub(LEADS_PER_PAGE);
            l.table = TableState::default();
            return reload(cm, cx);
        }
        _ => {}
    }
    if detail::nav(&mut l.table, action, vp) {
        return Vec::new();
    }
    let selected = l.selected().cloned();
    match action {
        Action::Filter => {
            l.needle.open();
            Vec::new()
        }
        Action::Back if l.needle.active() => {
            l.needle.clear();
            relen(o, vp);
            Vec::new()
        }
        Action::CampaignStatusFilter => {
            l.filter = l.filter.next();
            l.offset = 0;
            l.table = TableState::default();
            reload(cm, cx)
        }
        Action::Open => match selected {
            Some(msg) => open_thread(cm, cx, &msg.prospect_id),
            None => Vec::new(),
        },
        Action::EditItem => match selected {
            Some(msg) => open_edit(cm, cx, &msg),
            None => Vec::new(),
        },
        _ => super::roster::on_action(cm, cx, action),
    }
}

/// One lead's messages with the merged replies.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Thread {
    /// The id of the campaign the lead is in.
    pub campaign: String,
    /// The id of the lead (prospect) whose messages are shown.
    pub prospect: String,
    /// Its name, as far as known.
    pub name: String,
    /// The messages (generated and inbound), oldest first.
    pub items: Vec<GeneratedMessage>,
    /// The answer arrived.
    pub loaded: bool,
    /// Why the last read of the lead's messages failed, as shown.
    pub error: Option<String>,
    /// The selected message.
    pub selected: usize,
    /// Scroll offset of the text.
    pub scroll: u16,
}

/// What a key in a lead's messages asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum ThreadDone {
    /// Edit this message.
    Edit(Box<GeneratedMessage>),
}

impl Thread {
    /// A key in the lead's messages (`action`: what the keymap makes of it).
    pub fn key(&mut self, action: Option<Action>) -> Outcome<ThreadDone> {
        match action {
            Some(Action::Back | Action::Quit) => return Outcome::Close,
            Some(Action::Down) => {
                self.selected = (self.selected + 1).min(self.items.len().saturating_sub(1));
                self.scroll = 0;
            }
            Some(Action::Up) => {
                self.selected = self.selected.saturating_sub(1);
                self.scroll = 0;
            }
            Some(Action::PageDown) => self.scroll = self.scroll.saturating_add(5),
            Some(Action::PageUp) => self.scroll = self.scroll.saturating_sub(5),
            Some(Action::EditItem) => {
                if let Some(msg) = self.items.get(self.selected) {
                    return Outcome::Act(ThreadDone::Edit(Box::new(msg.clone())));
                }
            }
            _ => {}
        }
        Outcome::Keep
    }
}

fn lead_name(cm: &CampaignsModel, prospect: &str) -> String {
    cm.open
        .as_ref()
        .and_then(|o| o.roster.loaded().find(|l| l.id == prospect))
        .map_or_else(|| prospect.to_owned(), super::lead::lead_name)
}

/// Opens a lead's messages.
pub(crate) fn open_thread(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, prospect: &str) -> Vec<Cmd> {
    let Some(campaign) = cm.open_id().map(str::to_owned) else {
        return Vec::new();
    };
    let name = lead_name(cm, prospect);
    cm.dialog = Some(Dialog::Thread(Box::new(Thread {
        campaign: campaign.clone(),
        prospect: prospect.to_owned(),
        name,
        ..Thread::default()
    })));
    cx.request(
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
    Vec::new()
}

/// A lead's messages answered.
pub(crate) fn on_thread(
    cm: &mut CampaignsModel,
    campaign: &str,
    prospect: &str,
    result: Result<Vec<GeneratedMessage>, ApiError>,
) -> Vec<Cmd> {
    let Some(Dialog::Thread(t)) = cm.dialog.as_mut() else {
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

/// What a lead's messages asked for.
pub(crate) fn act_thread(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, done: ThreadDone) -> Vec<Cmd> {
    match done {
        // A dialog's own key, past the shared gate: read-only mode refuses
        // it here.
        ThreadDone::Edit(_) if crate::app::read_only::refuse(cx) => Vec::new(),
        ThreadDone::Edit(msg) => open_edit(cm, cx, &msg),
    }
}

/// The message edit form.
#[derive(Debug, Clone)]
pub struct MessageEdit {
    /// The id of the campaign the message was generated for.
    pub campaign: String,
    /// The message as it was.
    pub message: GeneratedMessage,
    /// Subject and body.
    pub form: Form,
    /// Whether it is an email (its subject is sent, so it may not be empty).
    pub email: bool,
}

/// What a key in the message edit form asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum EditDone {
    /// Send the changed subject and text.
    Save(EditGeneratedMessage),
    /// Close, keeping the typed text as a local draft.
    KeepDraft,
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

    /// A key in the form; `sending`: the edit is on its way (read-only
    /// until the answer; Esc leaves it to arrive as a notice, the text
    /// kept as a draft until the save succeeds).
    pub fn key(&mut self, key: KeyEvent, sending: bool) -> Outcome<EditDone> {
        if sending {
            return super::key_while_saving(&self.form, &key, EditDone::KeepDraft);
        }
        match self.form.handle_key(key) {
            FormEvent::Cancel if self.form.is_dirty() => Outcome::Act(EditDone::KeepDraft),
            FormEvent::Cancel => Outcome::Close,
            FormEvent::Submit if !self.form.is_dirty() => {
                self.form.note = Some("nothing changed".into());
                Outcome::Keep
            }
            FormEvent::Submit => {
                let subject = self.form.value("subject");
                let body = self.form.value("body_text");
                if self.refused(&subject, &body) {
                    return Outcome::Keep;
                }
                let was = &self.message;
                Outcome::Act(EditDone::Save(EditGeneratedMessage {
                    message_id: was.id.clone(),
                    subject: (subject != DisplayText::inline(&was.subject).as_str().trim())
                        .then_some(subject),
                    body_text: (body != DisplayText::block(&was.body_text).as_str().trim())
                        .then_some(body),
                    body_html: None,
                }))
            }
            FormEvent::Edited | FormEvent::Ignored => Outcome::Keep,
        }
    }
}

impl MessageEdit {
    /// The check of a generated message before it is saved
    /// ([`check_message`]): an empty subject or body, or a `%token%` the
    /// merge left, refuses the save, said on the fields and in the note;
    /// the text stays as typed. Whether it refused.
    fn refused(&mut self, subject: &str, body: &str) -> bool {
        let findings = check_message(subject, body, self.email);
        if findings.is_empty() {
            return false;
        }
        self.form.clear_errors();
        for f in &findings {
            let field = match f.location {
                Location::Message(Part::Subject) => "subject",
                _ => "body_text",
            };
            self.form.set_error(field, &f.text);
        }
        let n = findings.len() as u64;
        self.form.note = Some(format!(
            "Not saved: {} — the lead would receive it as written; your text is kept",
            crate::text::format::plural(n, "problem", "problems")
        ));
        true
    }
}

/// `e` on a message: edit it when it is a draft or pending.
fn open_edit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, msg: &GeneratedMessage) -> Vec<Cmd> {
    let Some(o) = cm.open.as_ref() else {
        return Vec::new();
    };
    let nodes = o.campaign.sequence_nodes.clone().unwrap_or_default();
    if let Err(why) = editable(msg, &nodes) {
        cx.notify(Level::Warning, "Cannot edit", why);
        return Vec::new();
    }
    let campaign = o.campaign.id.clone();
    let email = match step_of(&nodes, msg) {
        Some(step) => step.kind == NodeType::Email,
        None => o.campaign.kind == Channel::Email,
    };
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
        email,
    };
    if let Some(draft) = cx.state.drafts.remove(&d.draft_key()) {
        d.form.restore(&draft.fields);
        cx.notify(Level::Info, "Draft restored", "your unsent edit is back");
    }
    cm.dialog = Some(Dialog::EditMessage(Box::new(d)));
    Vec::new()
}

/// What the message edit form asked for.
pub(crate) fn act_edit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, done: EditDone) -> Vec<Cmd> {
    match done {
        EditDone::Save(edit) => {
            let Some(Dialog::EditMessage(d)) = cm.dialog.as_ref() else {
                return Vec::new();
            };
            let (message, campaign) = (d.message.id.clone(), d.campaign.clone());
            cx.request(
                Purpose::EditMessage(message),
                ApiRequest::EditGeneratedMessage { id: campaign, edit },
            );
            Vec::new()
        }
        EditDone::KeepDraft => {
            let Some(Dialog::EditMessage(d)) = cm.dialog.take() else {
                return Vec::new();
            };
            let saving = pending(cx.requests, |p| {
                *p == Purpose::EditMessage(d.message.id.clone())
            });
            let what = "your edit of the message";
            let back = format!(
                "{} on the message brings it back",
                cx.keymap.key_label(Action::EditItem)
            );
            super::keep_edit_draft(cx, (d.draft_key(), d.draft()), what, &back, saving);
            Vec::new()
        }
    }
}

/// The edit answered.
pub(crate) fn on_edited(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    message: &str,
    result: Result<GeneratedMessage, ApiError>,
) -> Vec<Cmd> {
    let open = matches!(&cm.dialog, Some(Dialog::EditMessage(d)) if d.message.id == message);
    match result {
        Ok(msg) => {
            if open {
                cm.dialog = None;
            }
            if let Some(o) = cm.open.as_mut()
                && let Some(slot) = o.messages.items.iter_mut().find(|x| x.id == msg.id)
            {
                *slot = msg;
            }
            cx.notify(Level::Success, "Message saved", "marked as manually edited");
            super::drop_draft(cx, &format!("generated-message:{message}"));
            Vec::new()
        }
        Err(e) => {
            // An edit sets the subject and text it names: sent again, it
            // sets the same.
            let note = super::settle::failed_write(
                &e,
                "the edit",
                crate::logic::write::Settle::SafeToRepeat,
                &format!(
                    "{} sets the same subject and text",
                    super::fixed_keys::SUBMIT.label
                ),
            );
            let Some(Dialog::EditMessage(d)) = cm.dialog.as_mut().filter(|_| open) else {
                super::settle::notify_failed(cx, "Message edit", &e, &note);
                return Vec::new();
            };
            d.form.note = Some(note);
            Vec::new()
        }
    }
}
