//! The create form: the type first, then only that channel's settings
//! (email: daily limit, stop on reply, open tracking, signature; network:
//! skip other campaigns, operating hours) and the ready senders of that
//! type. With no ready sender it says so and is not sent. The service's
//! 409 (the name is taken) and 400 (a sender of the other channel) are
//! shown on the field they concern.
//!
//! The form can also be opened from the Leads pane's "add to campaign"
//! picker ([`open_for_leads`]): the campaign it creates is handed back
//! ([`Intent::CampaignForLeads`]) and the Leads pane is shown again.

use crate::app::ctx::Intent;
use crossterm::event::KeyEvent;
use serde_json::{Map, Value};

use super::super::form::{Form, FormEvent};
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Pane};
use super::{CampaignsModel, Purpose, View, detail, error_text, list, lost_create, pending};
use crate::api::ApiError;
use crate::api::model::{Campaign, Channel, CreateCampaign, SenderAccount};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::store::Draft;

/// Key of the create-form draft in the local state.
pub(crate) const DRAFT_KEY: &str = "new-campaign";
/// The channels, in the order the type select offers them.
const TYPES: [&str; 2] = ["email", "network"];

/// Who opened the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// This pane (`n`).
    #[default]
    Pane,
    /// The Leads pane's "add to campaign" picker: the new campaign goes back
    /// to it.
    Leads,
}

/// The create form and what it needs.
#[derive(Debug, Clone)]
pub struct CreateForm {
    /// The form (rebuilt when the type changes).
    pub form: Form,
    /// The type the form is built for.
    pub kind: Channel,
    /// Every sender, once read (`None`: still loading).
    pub senders: Option<Vec<SenderAccount>>,
    /// Why the senders could not be read.
    pub senders_error: Option<String>,
    /// The ids behind the senders checklist, in its order.
    pub sender_ids: Vec<String>,
    /// Who opened it.
    pub origin: Origin,
    /// Where Esc goes back to.
    pub back: View,
    /// The key that reads the campaigns (and the senders) again.
    pub refresh_key: String,
}

impl CreateForm {
    /// The unsent text as a draft.
    pub fn draft(&self) -> Draft {
        Draft {
            title: "new campaign".into(),
            fields: self.form.snapshot(),
        }
    }
}

/// Whether a sender can send now.
pub(crate) fn ready(s: &SenderAccount) -> bool {
    matches!(s.status.as_str(), "connected" | "active" | "ready")
}

fn sender_label(s: &SenderAccount) -> String {
    let name = s.display_name.trim();
    let email = s.email_address.trim();
    match (name.is_empty(), email.is_empty()) {
        (false, false) => format!("{name} <{email}>"),
        (false, true) => name.to_owned(),
        (true, false) => email.to_owned(),
        (true, true) => s.id.clone(),
    }
}

/// The senders line's help: loading, none ready, or how many are not.
fn senders_help(f: &CreateForm) -> String {
    let (kind, senders) = (&f.kind, f.senders.as_deref());
    if let Some(e) = &f.senders_error {
        return format!(
            "could not read the senders ({e}); {} in the list retries",
            f.refresh_key
        );
    }
    let Some(all) = senders else {
        return "loading senders…".into();
    };
    let of_kind: Vec<&SenderAccount> = all.iter().filter(|s| &s.kind == kind).collect();
    let ready_n = of_kind.iter().filter(|s| ready(s)).count();
    if ready_n == 0 {
        return format!(
            "no ready {kind} sender: connect one in the web dashboard first (the campaign cannot be created without one)"
        );
    }
    let waiting = of_kind.len() - ready_n;
    if waiting > 0 {
        format!("Space ticks a sender · {waiting} more not ready to send")
    } else {
        "Space ticks a sender".into()
    }
}

/// The form for a channel, with `senders` once read.
fn build(f: &mut CreateForm) {
    let senders = f.senders.as_deref();
    let ready_senders: Vec<&SenderAccount> = senders
        .unwrap_or_default()
        .iter()
        .filter(|s| s.kind == f.kind && ready(s))
        .collect();
    f.sender_ids = ready_senders.iter().map(|s| s.id.clone()).collect();
    let labels: Vec<String> = ready_senders.iter().map(|s| sender_label(s)).collect();
    // The default sender is ticked (or the only one).
    let ticked: Vec<bool> = ready_senders
        .iter()
        .map(|s| s.is_default_sender || ready_senders.len() == 1)
        .collect();
    let help = senders_help(f);
    let mut form = Form::new("New campaign", "Create")
        .select(
            "type",
            "Type",
            "the channel comes first: only its settings follow",
            &TYPES,
        )
        .required_text("name", "Name", "unique in the workspace")
        .checklist("senders", "Senders", &help, &labels, &ticked);
    form = if f.kind == Channel::Email {
        form.section("Email settings", "")
            .text(
                "daily_limit",
                "Daily limit",
                "emails a day at most, e.g. 50",
            )
            .toggle(
                "stop_on_reply",
                "Stop on reply",
                "a lead who replies gets nothing more",
                true,
            )
            .toggle(
                "open_tracking",
                "Open tracking",
                "adds a tracking pixel",
                false,
            )
            .multiline("signature", "Signature", "added under every email", 3)
    } else {
        form.section("Network settings", "")
            .toggle(
                "skip_other_campaigns",
                "Skip leads of other campaigns",
                "leave out people another campaign already contacts",
                true,
            )
            .text(
                "hours_start",
                "Operating hours from",
                "HH:MM, e.g. 09:00 (empty: any time)",
            )
            .text("hours_end", "Operating hours to", "HH:MM, e.g. 17:30")
            .text("timezone", "Time zone", "e.g. Europe/Berlin")
    };
    form.set_choice("type", f.kind.as_str());
    if f.kind == Channel::Email {
        form.set_value("daily_limit", "50");
    }
    form.mark_clean();
    f.form = form;
}

/// Rebuilds the form for its type (or for the senders that arrived),
/// keeping what was typed in fields both builds share and the note (what
/// is known of a lost create); the senders get the new build's ticks (the
/// default sender of the type).
fn rebuild(f: &mut CreateForm) {
    let mut typed = f.form.snapshot();
    let focus = f.form.fields.get(f.form.focus).map(|x| x.key);
    let note = f.form.note.take();
    typed.remove("type");
    typed.remove("senders");
    build(f);
    f.form.restore(&typed);
    f.form.note = note;
    if let Some(key) = focus {
        f.form.focus_key(key);
    }
}

/// `n`: opens the form (the one already open, if any), restoring an unsent
/// draft.
pub(crate) fn open(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    open_with(cm, cx, Origin::Pane, None)
}

/// Opens the create form for the Leads pane's "add to campaign" picker
/// ("new draft campaign…"): the Campaigns pane is shown with the form,
/// typed for `channel` when given (asked by the Leads pane with
/// [`Intent::NewCampaignForLeads`]). When the campaign is created, the Leads
/// pane is shown again and handed the campaign
/// ([`Intent::CampaignForLeads`]); Esc shows the Leads pane again with
/// nothing.
pub(crate) fn open_for_leads(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    channel: Option<Channel>,
) -> Vec<Cmd> {
    cx.show(Pane::Campaigns);
    open_with(cm, cx, Origin::Leads, channel)
}

fn open_with(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    origin: Origin,
    channel: Option<Channel>,
) -> Vec<Cmd> {
    if let Some(f) = cm.create.as_mut() {
        f.origin = origin;
        cm.view = View::Create;
        return Vec::new();
    }
    let back = if cm.view == View::Create {
        View::List
    } else {
        cm.view
    };
    let mut f = CreateForm {
        form: Form::new("New campaign", "Create"),
        kind: channel.unwrap_or(Channel::Email),
        senders: None,
        senders_error: None,
        sender_ids: Vec::new(),
        origin,
        back,
        refresh_key: cx.keymap.key_label(Action::Refresh),
    };
    build(&mut f);
    if let Some(draft) = cx.state.drafts.remove(DRAFT_KEY) {
        if let Some(kind) = draft
            .fields
            .get("type")
            .and_then(|i| i.parse::<usize>().ok())
        {
            f.kind = Channel::parse(TYPES.get(kind).copied().unwrap_or("email"));
            build(&mut f);
        }
        f.form.restore(&draft.fields);
        cx.notify(
            Level::Info,
            "Draft restored",
            "your unsent new campaign is back",
        );
    }
    cm.create = Some(f);
    cm.view = View::Create;
    // A create whose answer was lost is still in question.
    lost_create::show(cm);
    cx.request(Purpose::Senders, ApiRequest::ListSenders);
    Vec::new()
}

/// The senders answered.
pub(crate) fn on_senders(
    cm: &mut CampaignsModel,
    result: Result<Vec<SenderAccount>, ApiError>,
) -> Vec<Cmd> {
    let Some(f) = cm.create.as_mut() else {
        return Vec::new();
    };
    match result {
        Ok(list) => {
            f.senders = Some(list);
            f.senders_error = None;
        }
        Err(e) => {
            f.senders = Some(Vec::new());
            f.senders_error = Some(error_text(&e));
        }
    }
    rebuild(f);
    Vec::new()
}

/// Closes the form; unsent text stays as a draft.
fn close(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(f) = cm.create.take() else {
        return Vec::new();
    };
    if f.form.is_dirty() {
        let key = cx.keymap.key_label(Action::NewCampaign);
        let how_back = format!("{key} brings it back");
        cx.keep_draft(DRAFT_KEY.into(), f.draft(), "the new campaign", &how_back);
    }
    cx.requests
        .forget::<super::CampaignsModel>(|p| *p == Purpose::Senders);
    cm.view = f.back;
    if f.origin == Origin::Leads {
        cx.show(Pane::Leads);
    }
    Vec::new()
}

/// A key in the form.
pub(crate) fn on_key(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    if pending(cx.requests, |p| *p == Purpose::Create) {
        // Read-only while it is sent; the answer decides.
        return Vec::new();
    }
    let Some(f) = cm.create.as_mut() else {
        return Vec::new();
    };
    match f.form.handle_key(key) {
        FormEvent::Cancel => close(cm, cx),
        FormEvent::Submit => submit(cm, cx),
        FormEvent::Edited | FormEvent::Ignored => {
            let kind = Channel::parse(f.form.choice("type"));
            if kind != f.kind {
                f.kind = kind;
                rebuild(f);
            }
            Vec::new()
        }
    }
}

/// Checks `HH:MM`.
fn hhmm(s: &str) -> bool {
    let Some((h, m)) = s.split_once(':') else {
        return false;
    };
    h.len() == 2
        && m.len() == 2
        && h.parse::<u8>().is_ok_and(|h| h < 24)
        && m.parse::<u8>().is_ok_and(|m| m < 60)
}

/// The request body, or the form with its errors marked.
fn body(f: &mut CreateForm) -> Option<CreateCampaign> {
    let help = senders_help(f);
    let form = &mut f.form;
    form.clear_errors();
    let mut ok = form.check_required();
    let sender_account_ids: Vec<String> = form
        .checked("senders")
        .into_iter()
        .filter_map(|i| f.sender_ids.get(i).cloned())
        .collect();
    if f.sender_ids.is_empty() {
        form.set_error("senders", &help);
        ok = false;
    } else if sender_account_ids.is_empty() {
        form.set_error("senders", "tick at least one sender (Space)");
        ok = false;
    }
    let mut req = CreateCampaign {
        kind: f.kind.clone(),
        name: form.value("name"),
        sender_account_ids,
        ..CreateCampaign::default()
    };
    if f.kind == Channel::Email {
        let limit = form.value("daily_limit");
        match limit.parse::<u64>() {
            Ok(n) if (1..=100_000).contains(&n) => req.daily_limit = Some(n),
            _ if limit.is_empty() => {}
            _ => {
                form.set_error("daily_limit", "a whole number from 1 to 100,000");
                ok = false;
            }
        }
        req.stop_on_reply = Some(form.is_on("stop_on_reply"));
        req.open_tracking = Some(form.is_on("open_tracking"));
        let sig = form.value("signature");
        req.signature = (!sig.is_empty()).then_some(sig);
    } else {
        req.skip_other_campaigns = Some(form.is_on("skip_other_campaigns"));
        let (from, to, tz) = (
            form.value("hours_start"),
            form.value("hours_end"),
            form.value("timezone"),
        );
        for (key, v) in [("hours_start", &from), ("hours_end", &to)] {
            if !v.is_empty() && !hhmm(v) {
                form.set_error(key, "HH:MM, e.g. 09:00");
                ok = false;
            }
        }
        if from.is_empty() != to.is_empty() {
            let key = if from.is_empty() {
                "hours_start"
            } else {
                "hours_end"
            };
            form.set_error(key, "give both ends of the operating hours, or neither");
            ok = false;
        }
        if !from.is_empty() {
            let mut hours = Map::new();
            hours.insert("start".into(), Value::String(from));
            hours.insert("end".into(), Value::String(to));
            if !tz.is_empty() {
                hours.insert("timezone".into(), Value::String(tz));
            }
            req.operating_hours = Some(Value::Object(hours));
        }
    }
    ok.then_some(req)
}

/// Ctrl-S: checks the form and sends it — asking first when the last
/// create may have been carried out.
pub(super) fn submit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(f) = cm.create.as_mut() else {
        return Vec::new();
    };
    let Some(req) = body(f) else {
        return Vec::new();
    };
    if cm.last_create.uncertain.is_some() {
        // The check above cleared the note: what is known stays said.
        lost_create::show(cm);
        lost_create::ask_again(cm, cx);
        return Vec::new();
    }
    cm.last_create.sent = Some(lost_create::Sent {
        name: req.name.trim().to_owned(),
        at: cx.clock,
        known: cm.list.rows.iter().map(|c| c.id.clone()).collect(),
    });
    cx.request(Purpose::Create, ApiRequest::CreateCampaign(Box::new(req)));
    Vec::new()
}

/// Puts a service refusal on the field it concerns.
fn show_error(f: &mut CreateForm, e: &ApiError) {
    for fe in e.field_errors() {
        let key = if fe.path.starts_with("sender") {
            "senders"
        } else if fe.path == "type" {
            "type"
        } else {
            "name"
        };
        f.form.set_error(key, &fe.message);
    }
    if !e.field_errors().is_empty() {
        return;
    }
    let text = error_text(e);
    let lower = text.to_lowercase();
    if e.status() == Some(409) || lower.contains("already exists") {
        f.form.set_error("name", &text);
    } else if lower.contains("sender") {
        f.form.set_error("senders", &text);
    } else if lower.contains("daily_limit") {
        f.form.set_error("daily_limit", &text);
    } else if lower.contains("name") {
        f.form.set_error("name", &text);
    } else {
        f.form.note = Some(text);
    }
}

/// The create answered: the new campaign opens (or goes back to the Leads
/// pane); a refusal is shown on its field; a lost answer is checked.
pub(crate) fn on_created(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(c) => created(cm, cx, c, false),
        Err(e)
            if crate::logic::write::of_error(&e)
                == crate::logic::write::Outcome::MayHaveReached =>
        {
            lost_create::on_lost(cm, cx, &e)
        }
        Err(e) => {
            match cm.create.as_mut() {
                Some(f) => show_error(f, &e),
                None => super::toast_error(cx, "creating the campaign", &e),
            }
            Vec::new()
        }
    }
}

/// The campaign exists: remembered, the draft dropped, and it opens (or
/// goes back to the Leads pane; found after the form was closed, it is
/// listed and said). `late`: found by the check after a lost answer.
pub(super) fn created(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    c: Campaign,
    late: bool,
) -> Vec<Cmd> {
    cm.last_create = lost_create::LastCreate::default();
    let form = cm.create.take();
    cx.state.drafts.remove(DRAFT_KEY);
    cx.state.remember_campaign(&c.id, &c.name, "created");
    cx.save_state();
    let mut text = format!(
        "“{}” is a draft: import leads and write its sequence",
        c.name
    );
    if late {
        text.push_str(" (the request whose answer was lost went through)");
    }
    cx.notify(Level::Success, "Campaign created", &text);
    list::upsert(&mut cm.list, cx, c.clone());
    let Some(f) = form else {
        // The form was closed meanwhile: the campaign is listed, the view
        // stays where the user went.
        return Vec::new();
    };
    cm.view = f.back;
    if f.origin == Origin::Leads {
        cx.show(Pane::Leads);
        cx.intend(Intent::CampaignForLeads(Box::new(c)));
        Vec::new()
    } else {
        detail::open(cm, cx, &c.id)
    }
}
