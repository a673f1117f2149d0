//! The create-search form: every part of the source-plan schema, checked on
//! the client with field-level messages before the request, kept as a local
//! draft so nothing typed is lost, and the service's refusal shown on the
//! field it names (or, when the account may not create searches, said in
//! plain words).
//!
//! A create whose answer was lost after sending may have made the search:
//! the searches are read again to find it; until that settles, sending
//! again asks first.

pub(crate) mod form;
pub(crate) mod parse;

use super::LeadsModel;
use crate::app::ctx::Ctx;
use std::collections::BTreeSet;
use std::time::Duration;

pub(crate) use crate::app::lost_answer::{Check, Uncertain};

use crossterm::event::KeyEvent;

use super::super::form::FormEvent;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::{
    Confirmed, DRAFT_KEY, Purpose, View, creating, error_text, fixed_keys, search, searches, send,
};
use crate::api::ApiError;
use crate::api::model::{CreateSearch, Search};
use crate::store::Draft;
use crate::text::sanitize::DisplayText;
pub(crate) use form::build;
pub(crate) use parse::{locate, parse};

/// The form and its request.
#[derive(Debug, Clone)]
pub struct NewSearch {
    /// The form.
    pub form: super::super::form::Form,
    /// Where Esc goes back to.
    pub back: View,
}

/// The last create, kept by the pane (not the form): a lost answer is
/// still in question, and looked for, after the form was closed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastCreate {
    /// What it sent, to recognise the search if its answer is lost.
    pub sent: Option<Sent>,
    /// It may have been accepted: what is known of it.
    pub uncertain: Option<Uncertain>,
}

/// A create request as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The title sent.
    pub title: String,
    /// Wall clock when it was sent.
    pub at: i64,
    /// Searches listed before it was sent (not the new one).
    pub known: BTreeSet<String>,
}

impl NewSearch {
    /// An empty form, going back to `back`.
    fn new(back: View) -> NewSearch {
        NewSearch {
            form: build(),
            back,
        }
    }

    /// The form as a local draft.
    pub fn draft(&self) -> Draft {
        Draft {
            title: "New Lead Finder search".into(),
            fields: self.form.snapshot(),
        }
    }

    /// Says up front that the account may not create searches, or stops
    /// saying it (the Profile pane learned the account's access).
    pub fn access_changed(&mut self, can: Option<bool>) {
        let warned = self.form.note.as_deref() == Some(cannot_create_text().as_str());
        if can == Some(false) && self.form.note.is_none() {
            self.form.note = Some(cannot_create_text());
        } else if can != Some(false) && warned {
            self.form.note = None;
        }
    }
}

/// Where the check of a lost create looks.
const PLACE: &str = "in the searches list";

/// Shows in the open form what is known of a create that may have reached
/// the service.
fn show_uncertain(leads: &mut LeadsModel) {
    let l = &mut *leads;
    if let (Some(f), Some(u)) = (l.form.as_mut(), &l.last_create.uncertain) {
        f.form.note = Some(format!(
            "The create request may have reached the service ({}): {}. {} asks before sending it again.",
            u.why,
            u.text("searches"),
            fixed_keys::SUBMIT.label
        ));
    }
}

/// Opens the form, offering back an unsent draft first.
pub(crate) fn open(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let back = match leads.view {
        View::NewSearch => View::Searches,
        v => v,
    };
    if leads.form.is_some() {
        leads.view = View::NewSearch;
        return Vec::new();
    }
    let mut f = NewSearch::new(back);
    if leads.can_create_leads == Some(false) {
        f.form.note = Some(cannot_create_text());
    }
    leads.form = Some(f);
    leads.view = View::NewSearch;
    // A lost create is still in question: the form says so again.
    show_uncertain(leads);
    if let Some(draft) = cx.state.drafts.get(DRAFT_KEY) {
        let title = draft
            .fields
            .get("title")
            .map(|t| DisplayText::inline(t).into_string())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "untitled".into());
        cx.confirm(Confirm {
            title: "Unsent draft".into(),
            lines: vec![
                format!("You have an unsent new-search draft: \"{title}\"."),
                "Restore brings it back; discarding it starts an empty form; cancel keeps it for later."
                    .into(),
            ],
            yes: "Restore".into(),
            no: Some("discard the draft".into()),
            destructive: false,
            on_yes: ConfirmAction::Pane(Confirmed::RestoreDraft.into()),
        });
    }
    Vec::new()
}

/// The answer to "restore the draft?".
pub(crate) fn restore_draft(leads: &mut LeadsModel, cx: &mut Ctx<'_>, yes: bool) -> Vec<Cmd> {
    let draft = cx.state.drafts.get(DRAFT_KEY).cloned();
    let Some(f) = leads.form.as_mut() else {
        return Vec::new();
    };
    leads.view = View::NewSearch;
    if yes {
        if let Some(d) = draft {
            f.form.restore(&d.fields);
            f.form.mark_clean();
            f.form.note = None;
        }
        show_uncertain(leads);
        Vec::new()
    } else {
        cx.state.drafts.remove(DRAFT_KEY);
        cx.save_state();
        Vec::new()
    }
}

/// The draft prompt was dismissed: the draft stays saved as it is, the
/// empty form behind the prompt closes.
pub(crate) fn keep_draft(leads: &mut LeadsModel) -> Vec<Cmd> {
    if let Some(f) = leads.form.take() {
        leads.view = back_view(leads, f.back);
    }
    Vec::new()
}

/// Where closing the form goes: `back`, unless what it showed is gone.
fn back_view(leads: &LeadsModel, back: View) -> View {
    match back {
        View::Detail if leads.detail.is_none() => View::Searches,
        View::Search | View::Detail if leads.open.is_none() => View::Searches,
        View::NewSearch => View::Searches,
        v => v,
    }
}

/// A key in the form.
pub(crate) fn on_key(leads: &mut LeadsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    if creating(cx.requests) {
        // Sending: read-only until the answer arrives.
        return Vec::new();
    }
    let Some(f) = leads.form.as_mut() else {
        return Vec::new();
    };
    match f.form.handle_key(key) {
        FormEvent::Cancel => close(leads, cx),
        FormEvent::Submit => submit(leads, cx),
        FormEvent::Edited => {
            recheck_errors(f);
            Vec::new()
        }
        FormEvent::Ignored => Vec::new(),
    }
}

/// After an edit, drops the errors shown that the form no longer has: an
/// error can sit on another field than the one fixed ("min must not exceed
/// max" is shown at the minimum while the user lowers the maximum).
pub(crate) fn recheck_errors(f: &mut NewSearch) {
    if !f.form.has_errors() {
        return;
    }
    let errors = parse(&f.form).err().unwrap_or_default();
    f.form.recheck_errors(&errors);
}

/// Esc: the form closes; typed text is kept as a draft.
fn close(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(f) = leads.form.take() else {
        return Vec::new();
    };
    if f.form.is_dirty() {
        let n = cx.keymap.key_label(crate::app::keymap::Action::NewSearch);
        cx.keep_draft(
            DRAFT_KEY.into(),
            f.draft(),
            "the new search",
            &format!("{n} offers it back"),
        );
    }
    leads.view = back_view(leads, f.back);
    Vec::new()
}

/// Ctrl-S: checks the form and sends it (asking first when the last
/// create may have been accepted).
fn submit(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(f) = leads.form.as_mut() else {
        return Vec::new();
    };
    f.form.clear_errors();
    match parse(&f.form) {
        Err(errors) => {
            for (key, message) in errors {
                f.form.set_error(key, &message);
            }
            Vec::new()
        }
        Ok(_) if leads.last_create.uncertain.is_some() => {
            ask_create_again(leads, cx);
            Vec::new()
        }
        Ok(req) => send_create(leads, cx, req),
    }
}

fn send_create(leads: &mut LeadsModel, cx: &mut Ctx<'_>, req: CreateSearch) -> Vec<Cmd> {
    let sent = Sent {
        title: req.title.trim().to_owned(),
        at: cx.clock,
        known: leads
            .list
            .rows
            .iter()
            .map(|r| r.search.search_id.clone())
            .collect(),
    };
    send(cx, Purpose::Create, ApiRequest::CreateSearch(Box::new(req)));
    leads.last_create.sent = Some(sent);
    Vec::new()
}

/// "Create again?" after a create that may have reached the service: what
/// went wrong, then what the check saw (the one wording of
/// [`crate::logic::write::Check::again_warning`]).
fn ask_create_again(leads: &mut LeadsModel, cx: &mut Ctx<'_>) {
    let Some(u) = leads.last_create.uncertain.clone() else {
        return;
    };
    cx.confirm(Confirm {
        title: "Create again?".into(),
        lines: vec![
            format!("The last create request: {}.", u.why),
            u.check.again_warning(PLACE),
            "Sending it again may create a second search.".into(),
        ],
        yes: "Create again".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::CreateAgain.into()),
    });
}

/// "Create again?" was answered yes.
pub(crate) fn create_again(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    leads.last_create.uncertain = None;
    if let Some(f) = leads.form.as_mut() {
        f.form.note = None;
    }
    submit(leads, cx)
}

/// The create answer: open the new search, or show the refusal on the
/// field it names.
pub(crate) fn on_created(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<Search, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(s) => created(leads, cx, &s, false),
        Err(e) if e.maybe_accepted() => create_uncertain(leads, cx, &e),
        Err(e) => refused(leads, cx, &e),
    }
}

/// The search exists: remember it, drop the draft, open it. `late`: it was
/// found by the check after a lost answer.
fn created(leads: &mut LeadsModel, cx: &mut Ctx<'_>, s: &Search, late: bool) -> Vec<Cmd> {
    cx.state.remember_search(&s.search_id, &s.title, "created");
    cx.state.drafts.remove(DRAFT_KEY);
    leads.last_create = LastCreate::default();
    // Found by a later look after the form was closed: said, listed, and
    // the user is not taken from what they do now.
    let was_open = leads.form.take().is_some();
    searches::upsert(leads, cx, s, None);
    let vp = super::layout::searches_viewport(cx.layout().body);
    leads.list.set_len(vp, Some(&s.search_id));
    let run = cx.keymap.key_label(crate::app::keymap::Action::RunSearch);
    let mut text = format!("{}: {run} runs it", DisplayText::inline(&s.title));
    if late {
        text.push_str(" (the request whose answer was lost went through)");
    }
    cx.notify(Level::Success, "Search created", &text);
    cx.save_state();
    let mut cmds = Vec::new();
    if was_open || !late {
        cmds.extend(search::open(leads, cx, &s.search_id));
    }
    cmds
}

/// The answer was lost after sending: the search may exist. The list is
/// read to find it; the form stays, and says so.
fn create_uncertain(leads: &mut LeadsModel, cx: &mut Ctx<'_>, e: &ApiError) -> Vec<Cmd> {
    let l = &leads.list;
    let listed = !l.loaded || !l.registry;
    leads.last_create.uncertain = Some(Uncertain::new(cx, error_text(e), listed));
    show_uncertain(leads);
    let doing = if listed {
        "Outpost reads the searches list to learn whether it was created"
    } else {
        "this service does not list searches, so Outpost cannot check"
    };
    cx.notify(
        Level::Warning,
        "Search may have been created",
        &format!("{}. {doing}.", error_text(e)),
    );
    if !listed {
        return Vec::new();
    }
    read_check(leads, cx)
}

/// Reads the searches for the check of a lost create (unless a read is on
/// its way).
pub(crate) fn read_check(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if cx
        .requests
        .pending::<super::LeadsModel>(|p| *p == Purpose::CreateCheck)
    {
        return Vec::new();
    }
    if let Some(u) = leads.last_create.uncertain.as_mut() {
        u.reading();
    }
    send(cx, Purpose::CreateCheck, ApiRequest::ListSearches);
    Vec::new()
}

/// When the check of a lost create reads the searches again, if it does.
pub(crate) fn recheck(last: &LastCreate) -> Option<(u32, Duration)> {
    let u = last.uncertain.as_ref()?;
    Some((u.reads(), u.recheck()?))
}

/// The searches, read after a lost create answer: the new search is one
/// with the title sent that was not listed before, made since.
pub(crate) fn on_create_check(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<Option<Vec<Search>>, ApiError>,
) -> Vec<Cmd> {
    let last = &leads.last_create;
    if last.uncertain.is_none() {
        return Vec::new();
    }
    let check = match result {
        Ok(Some(list)) => {
            let found = last.sent.as_ref().and_then(|sent| {
                list.into_iter().find(|s| {
                    s.title.trim() == sent.title
                        && !sent.known.contains(&s.search_id)
                        && crate::app::lost_answer::made_since(&s.created_at, sent.at)
                })
            });
            if let Some(s) = found {
                if let Some(u) = leads.last_create.uncertain.as_mut() {
                    u.found(cx, "found in the searches list");
                }
                return created(leads, cx, &s, true);
            }
            Check::NotFound
        }
        Ok(None) => Check::Unlisted,
        Err(e) => Check::Failed(error_text(&e)),
    };
    if let Some(u) = leads.last_create.uncertain.as_mut() {
        u.read(cx, check);
    }
    show_uncertain(leads);
    Vec::new()
}

/// The service refused the search: on the field it names, else in the
/// form's note — in plain words when the account may not create searches.
fn refused(leads: &mut LeadsModel, cx: &mut Ctx<'_>, e: &ApiError) -> Vec<Cmd> {
    let mut plain = refusal(e, leads.can_create_leads);
    if e.status() == Some(403)
        && let Some(text) = plain.as_mut()
    {
        // What the account's access (the Profile pane's) says of it.
        text.push(' ');
        text.push_str(&super::refused_create_hint(
            cx.keymap,
            leads.can_create_leads,
        ));
    }
    let Some(f) = leads.form.as_mut() else {
        super::toast_error(cx, "creating the search", e);
        return Vec::new();
    };
    let message = e.message();
    // The service names the field: `sourcePlans[0].query[1]: 1 to 240 chars`.
    let mut placed = false;
    if plain.is_none() {
        for part in message.split("; ") {
            if let Some((path, text)) = part.split_once(": ")
                && let (Some(key), msg) = locate(path.trim(), text.trim())
            {
                f.form.set_error(key, &msg);
                placed = true;
            }
        }
    }
    if !placed {
        f.form.note = Some(plain.unwrap_or_else(|| error_text(e)));
    }
    super::toast_error(cx, "creating the search", e);
    Vec::new()
}

/// What the form says when the account may not create searches (from the
/// Profile pane's `access.canCreateLeads`).
fn cannot_create_text() -> String {
    "This account may not create Lead Finder searches (the Profile shows lead creation is off): the service will refuse this form. Ask a workspace admin to enable it; what you type is kept as a draft.".into()
}

/// Why the service refused to create a search, in plain words, when it was
/// not about a field: a 403 (the account may not create searches), or a
/// Lead Finder error (its message, what to try instead, what to do).
pub(crate) fn refusal(e: &ApiError, can_create: Option<bool>) -> Option<String> {
    if e.status() == Some(403) {
        let why = if can_create == Some(false) {
            "this account may not create Lead Finder searches (the Profile shows lead creation is off)"
        } else {
            "this account is not allowed to create Lead Finder searches"
        };
        return Some(format!(
            "Not created: {why}. The service said: {}. Ask a workspace admin to enable lead creation; the form is kept as a draft.",
            e.message().trim_end_matches('.')
        ));
    }
    let lf = e.lead_finder()?;
    Some(format!(
        "Not created: the Lead Finder refused the search: {}. {}",
        DisplayText::inline(lf.message.trim_end_matches('.')),
        super::advice::text(e)
    ))
}
