//! One lead of the roster: its detail with the custom fields, and the edit
//! form (only while the campaign is a draft). Both dialogs are edited in
//! place: their key handlers take them by `&mut` and say whether they stay,
//! close, or ask the pane for something ([`LeadDone`], [`EditDone`]).

use crossterm::event::KeyEvent;

use super::super::dialog::Outcome;
use super::super::form::{Form, FormEvent};
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd};
use super::rules::Op;
use super::{CampaignsModel, Dialog, Purpose, custom, detail, error_text, pending, roster, target};
use crate::api::ApiError;
use crate::api::model::{Campaign, CampaignLead, Channel, EditLead, LeadInput};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::logic::lead_field::LeadField;
use crate::store::Draft;
use crate::text::sanitize::DisplayText;

/// A lead's detail: every field and its custom fields.
#[derive(Debug, Clone, PartialEq)]
pub struct LeadView {
    /// The roster lead shown, as last read.
    pub lead: CampaignLead,
    /// The campaign's channel.
    pub channel: Channel,
    /// Rows scrolled past at the top of the lead's details.
    pub scroll: u16,
}

/// What a key in the lead's detail asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeadDone {
    /// Open the edit form on the lead.
    Edit,
}

impl LeadView {
    /// A key in the detail (`action`: what the keymap makes of it).
    pub fn key(&mut self, action: Option<Action>) -> Outcome<LeadDone> {
        match action {
            Some(Action::Back | Action::Quit) => Outcome::Close,
            Some(Action::EditItem) => Outcome::Act(LeadDone::Edit),
            Some(Action::Down) => {
                self.scroll = self.scroll.saturating_add(1);
                Outcome::Keep
            }
            Some(Action::Up) => {
                self.scroll = self.scroll.saturating_sub(1);
                Outcome::Keep
            }
            _ => Outcome::Keep,
        }
    }
}

/// The lead edit form.
#[derive(Debug, Clone)]
pub struct LeadEdit {
    /// The id of the campaign the edited lead belongs to.
    pub campaign: String,
    /// The campaign's channel (its identity field is required).
    pub channel: Channel,
    /// The lead as it was.
    pub lead: CampaignLead,
    /// The form.
    pub form: Form,
}

/// What a key in the edit form asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum EditDone {
    /// Send the changed fields.
    Save(Box<EditLead>),
    /// Close, keeping the typed text as a local draft.
    KeepDraft,
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

    /// A key in the form; `sending`: the edit is on its way (the form is
    /// read-only until the answer; Esc leaves it to arrive as a notice,
    /// the text kept as a draft until the save succeeds).
    pub fn key(&mut self, key: KeyEvent, sending: bool) -> Outcome<EditDone> {
        if sending {
            return super::key_while_saving(&self.form, &key, EditDone::KeepDraft);
        }
        match self.form.handle_key(key) {
            // Unsent text is kept as a local draft and comes back next time.
            FormEvent::Cancel if self.form.is_dirty() => Outcome::Act(EditDone::KeepDraft),
            FormEvent::Cancel => Outcome::Close,
            FormEvent::Submit => self.submit(),
            FormEvent::Edited | FormEvent::Ignored => Outcome::Keep,
        }
    }

    fn submit(&mut self) -> Outcome<EditDone> {
        self.form.clear_errors();
        if !self.form.check_required() {
            return Outcome::Keep;
        }
        match edit_body(self) {
            Ok(Some(body)) => Outcome::Act(EditDone::Save(Box::new(body))),
            Ok(None) => {
                self.form.note = Some("nothing changed".into());
                Outcome::Keep
            }
            Err((field, e)) => {
                self.form.set_error(&field, &e);
                Outcome::Keep
            }
        }
    }
}

/// A lead's name to show: name, first and last, or an identity.
pub(crate) fn lead_name(l: &CampaignLead) -> String {
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

fn edit_form(channel: &Channel, lead: &CampaignLead) -> Form {
    let identity = LeadField::identity(channel);
    let mut form = Form::new(&format!("Edit lead · {}", lead_name(lead)), "Save");
    for f in LeadField::ALL {
        form = if f == identity {
            form.required_text(f.name(), f.label(), "this campaign's channel needs it")
        } else {
            form.text(f.name(), f.label(), "")
        };
    }
    form = form.multiline(
        "custom_fields",
        "Custom fields",
        "one per line, key: value (JSON: 42, true, \"a\\nb\"; plain text is a string)",
        4,
    );
    for f in LeadField::ALL {
        form.set_value(f.name(), f.of(lead));
    }
    form.set_value(
        "custom_fields",
        &custom::lines(&lead.custom_fields).join("\n"),
    );
    form.mark_clean();
    form
}

fn open_edit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, campaign: &Campaign, lead: &CampaignLead) {
    let mut d = LeadEdit {
        campaign: campaign.id.clone(),
        channel: campaign.kind.clone(),
        lead: lead.clone(),
        form: edit_form(&campaign.kind, lead),
    };
    if let Some(draft) = cx.state.drafts.remove(&d.draft_key()) {
        d.form.restore(&draft.fields);
        cx.notify(
            Level::Info,
            "Draft restored",
            "your unsent edit of this lead is back",
        );
    }
    cm.dialog = Some(Dialog::EditLead(Box::new(d)));
}

/// `e` on the roster: edit the selected lead (draft only).
pub(crate) fn edit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, campaign: &Campaign) -> Vec<Cmd> {
    if !detail::allowed(cx, campaign, Op::ChangeRoster) {
        return Vec::new();
    }
    let lead = cm.open.as_ref().and_then(|o| o.roster.selected().cloned());
    match lead {
        Some(lead) => open_edit(cm, cx, campaign, &lead),
        None => cx.notify(Level::Info, "No lead", "select a loaded lead first"),
    }
    Vec::new()
}

/// The changed fields of the edit, or a message for the form. The custom
/// fields are sent (whole: the service replaces them) only when a value
/// changed; those whose text is unchanged keep their type.
fn edit_body(d: &LeadEdit) -> Result<Option<EditLead>, (String, String)> {
    let mut fields = LeadInput::default();
    let mut changed = false;
    for f in LeadField::ALL {
        let v = d.form.value(f.name());
        if v == DisplayText::inline(f.of(&d.lead)).as_str().trim() {
            continue;
        }
        changed = true;
        *f.in_input(&mut fields) = Some(v);
    }
    let custom = custom::parse(&d.form.items("custom_fields"), &d.lead.custom_fields)
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

/// What the lead's detail asked for.
pub(crate) fn act_view(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, done: LeadDone) -> Vec<Cmd> {
    let Some(Dialog::Lead(d)) = cm.dialog.as_ref() else {
        return Vec::new();
    };
    let lead = d.lead.clone();
    match done {
        LeadDone::Edit => {
            // A dialog's own key, past the shared gate: read-only mode
            // refuses it here.
            if crate::app::read_only::refuse(cx) {
                return Vec::new();
            }
            let Some(campaign) = target(cm) else {
                return Vec::new();
            };
            // Refused: the detail stays, the notice says why.
            if detail::allowed(cx, &campaign, Op::ChangeRoster) {
                open_edit(cm, cx, &campaign, &lead);
            }
            Vec::new()
        }
    }
}

/// What the edit form asked for.
pub(crate) fn act_edit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, done: EditDone) -> Vec<Cmd> {
    match done {
        EditDone::Save(body) => {
            let Some(Dialog::EditLead(d)) = cm.dialog.as_ref() else {
                return Vec::new();
            };
            let (id, campaign) = (d.lead.id.clone(), d.campaign.clone());
            cx.request(
                Purpose::EditLead(id),
                ApiRequest::EditLead {
                    id: campaign,
                    edit: body,
                },
            );
            Vec::new()
        }
        EditDone::KeepDraft => {
            let Some(Dialog::EditLead(d)) = cm.dialog.take() else {
                return Vec::new();
            };
            let saving = pending(cx.requests, |p| *p == Purpose::EditLead(d.lead.id.clone()));
            let what = "your edit of this lead";
            let back = format!(
                "{} on the lead brings it back",
                cx.keymap.key_label(Action::EditItem)
            );
            super::keep_edit_draft(cx, (d.draft_key(), d.draft()), what, &back, saving);
            Vec::new()
        }
    }
}

/// The edit answered: the lead is replaced, or the form says why not.
pub(crate) fn on_edited(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    lead_id: &str,
    result: Result<CampaignLead, ApiError>,
) -> Vec<Cmd> {
    let open = matches!(&cm.dialog, Some(Dialog::EditLead(d)) if d.lead.id == lead_id);
    match result {
        Ok(lead) => {
            if open {
                cm.dialog = None;
            }
            let name = lead_name(&lead);
            roster::replace_lead(cm, cx, lead);
            cx.notify(Level::Success, "Lead saved", &name);
            super::drop_draft(cx, &format!("campaign-lead:{lead_id}"));
            Vec::new()
        }
        Err(e) => {
            // An edit sets the fields it names: sent again, it sets the
            // same values.
            let note = super::settle::failed_write(
                &e,
                "the edit",
                crate::logic::write::Settle::SafeToRepeat,
                &format!(
                    "{} sets the same fields to the same values",
                    super::fixed_keys::SUBMIT.label
                ),
            );
            let Some(Dialog::EditLead(d)) = cm.dialog.as_mut().filter(|_| open) else {
                super::settle::notify_failed(cx, "Lead edit", &e, &note);
                return Vec::new();
            };
            if crate::logic::write::of_error(&e) == crate::logic::write::Outcome::MayHaveReached {
                d.form.note = Some(note);
            } else if e.status() == Some(409) {
                d.form
                    .set_error(LeadField::identity(&d.channel).name(), &e.message());
            } else if !refused_fields(&mut d.form, &e) {
                d.form.note = Some(error_text(&e));
            }
            Vec::new()
        }
    }
}

/// Puts a service refusal that names fields (`email: not a valid email;
/// …`) on those fields of the edit form, the typed text left as it is;
/// whether any field was named.
fn refused_fields(form: &mut Form, e: &ApiError) -> bool {
    let field = |path: &str| {
        let path = path.trim();
        if path.starts_with("custom_fields") {
            return Some("custom_fields");
        }
        LeadField::parse(path).map(LeadField::name)
    };
    let mut placed = false;
    if matches!(e.status(), Some(400 | 422)) {
        for part in e.message().split("; ") {
            if let Some((path, text)) = part.split_once(": ")
                && let Some(key) = field(path)
            {
                form.set_error(key, text.trim());
                placed = true;
            }
        }
    }
    placed
}
