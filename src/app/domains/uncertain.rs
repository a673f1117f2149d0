//! A domain create whose answer was lost after it was sent (a timeout, a
//! dropped connection, a 2xx body that cannot be read): the domain may have
//! been added. The add dialog says so, the list is read again to learn
//! whether it was (then the domain is shown), and sending the same name
//! again asks first. The create itself is never sent again on its own.

use super::actions::open_domain;
use super::filter::reselect;
use super::load::send_create;
use super::replies::{error_text, replace_domains};
use super::{Purpose, Question, View, in_flight};
use crate::api::ApiError;
use crate::api::model::SendingDomain;
use crate::app::keymap::Action;
use crate::app::pane::Answer;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use crate::text::sanitize;

/// A create that may have been accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncertainAdd {
    /// The domain name sent.
    pub name: String,
    /// What went wrong, in short (the error's code: `timeout`).
    pub code: String,
    /// What went wrong (`code: message`).
    pub why: String,
    /// What reading the list found.
    pub check: AddCheck,
}

/// Whether the list shows the domain a lost create may have added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddCheck {
    /// The list is being read.
    Checking,
    /// The list does not show it: most likely not added.
    NotListed,
    /// Reading the list failed (the error's code).
    Failed(String),
}

impl UncertainAdd {
    /// What the dialog says of it (two lines at most, even at 60 columns).
    pub fn note(&self) -> String {
        let code = &self.code;
        match &self.check {
            AddCheck::Checking => format!(
                "May have been added ({code}): reading the domain list to learn whether it was…"
            ),
            AddCheck::NotListed => format!(
                "May have been added ({code}), but the list does not show it: most likely not. {SEND} asks first."
            ),
            AddCheck::Failed(e) => format!(
                "May have been added ({code}); reading the list failed ({e}). {SEND} asks first."
            ),
        }
    }
}

/// The form's fixed key that sends it, as its footer names it.
const SEND: &str = "Ctrl-S";

/// Shows what is known of the lost create in the dialog (when open).
fn show(m: &mut Model) {
    let note = m
        .panes
        .domains
        .uncertain_add
        .as_ref()
        .map(UncertainAdd::note);
    if let Some(form) = m.panes.domains.add.as_mut() {
        form.note = note;
    }
}

/// A create of `name` failed in a way that may have added it: said, and
/// the list is read to learn whether it was.
pub(super) fn on_uncertain(m: &mut Model, name: &str, e: &ApiError) -> Vec<Cmd> {
    let why = full_text(e);
    m.panes.domains.uncertain_add = Some(UncertainAdd {
        name: name.to_owned(),
        code: e.code().to_owned(),
        why: why.clone(),
        check: AddCheck::Checking,
    });
    show(m);
    m.notify(
        Level::Warning,
        "Domain may have been added",
        &format!(
            "{}: {why}; reading the domain list to see",
            sanitize::inline(name)
        ),
    );
    if in_flight(m, |p| matches!(p, Purpose::CreateCheck(n) if n == name)) {
        return Vec::new();
    }
    let (_, cmd) = m.request(
        Purpose::CreateCheck(name.to_owned()),
        ApiRequest::ListDomains { skip_sync: true },
    );
    vec![cmd]
}

/// The list read after a lost create of `name`: it is taken like any
/// list; the domain found there is shown (it was added), else the dialog
/// says it most likely was not.
pub(super) fn on_check(
    m: &mut Model,
    name: &str,
    result: Result<Vec<SendingDomain>, ApiError>,
) -> Vec<Cmd> {
    let list = match result {
        Ok(list) => list,
        Err(e) => {
            set_check(m, name, AddCheck::Failed(e.code().to_owned()));
            m.toasts
                .error(m.now, "checking whether the domain was added", &e);
            return Vec::new();
        }
    };
    let found = list
        .iter()
        .find(|d| d.domain.eq_ignore_ascii_case(name))
        .map(|d| d.id.clone());
    replace_domains(m, &Default::default(), list);
    match found {
        Some(id) => went_through(m, name, &id),
        None => set_check(m, name, AddCheck::NotListed),
    }
    Vec::new()
}

fn set_check(m: &mut Model, name: &str, check: AddCheck) {
    if let Some(u) = m
        .panes
        .domains
        .uncertain_add
        .as_mut()
        .filter(|u| u.name == name)
    {
        u.check = check;
    }
    show(m);
}

/// The lost create went through: the domain is shown on its records.
fn went_through(m: &mut Model, name: &str, id: &str) {
    if m.panes
        .domains
        .uncertain_add
        .as_ref()
        .is_some_and(|u| u.name == name)
    {
        m.panes.domains.uncertain_add = None;
    }
    let dialog_for_it = m
        .panes
        .domains
        .add
        .as_ref()
        .is_some_and(|f| same_name(&f.value("domain"), name));
    if dialog_for_it {
        m.panes.domains.add = None;
    }
    if !reselect(m, View::Domains, Some(id.to_owned())) {
        m.panes.domains.domain_query.clear();
        reselect(m, View::Domains, Some(id.to_owned()));
    }
    if dialog_for_it {
        open_domain(m, id);
    }
    let verify = m.keymap.key_label(Action::Verify);
    m.notify(
        Level::Success,
        "Domain added",
        &format!(
            "{}: the request whose answer was lost went through; publish its DNS records, then press {verify} to verify",
            sanitize::inline(name)
        ),
    );
}

/// `code: message`, the code once (a timeout's message starts with it).
fn full_text(e: &ApiError) -> String {
    let (code, message) = (e.code(), e.message());
    if message.starts_with(&format!("{code}:")) {
        message
    } else {
        error_text(e)
    }
}

/// Whether two typed names are the same domain.
fn same_name(typed: &str, name: &str) -> bool {
    typed
        .trim()
        .trim_end_matches('.')
        .eq_ignore_ascii_case(name)
}

/// Sending `name` again after a create of it that may have been accepted
/// asks first; returns whether it asked.
pub(super) fn ask_first(m: &mut Model, name: &str) -> bool {
    let Some(u) = m
        .panes
        .domains
        .uncertain_add
        .clone()
        .filter(|u| u.name == name)
    else {
        return false;
    };
    let check = match &u.check {
        AddCheck::Checking => "The domain list is still being read.".to_owned(),
        AddCheck::NotListed => "The domain list does not show it.".to_owned(),
        AddCheck::Failed(e) => format!("Reading the domain list failed ({e})."),
    };
    m.confirm(Confirm {
        title: "Add again?".into(),
        lines: vec![
            format!(
                "The last request to add {} may have been accepted ({}).",
                sanitize::inline(name),
                u.why
            ),
            check,
            "Sending it again may add it twice, or be refused as already added.".into(),
        ],
        yes: "Add again".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Question::AddAgain(name.to_owned()).into()),
    });
    true
}

/// A question of the pane was answered.
pub(super) fn answered(m: &mut Model, q: Question, answer: Answer) -> Vec<Cmd> {
    match (q, answer) {
        (Question::AddAgain(name), Answer::Yes) => {
            m.panes.domains.uncertain_add = None;
            if let Some(form) = m.panes.domains.add.as_mut() {
                form.note = None;
            }
            send_create(m, &name)
        }
        // Nothing is sent; the dialog stays as it was.
        (Question::AddAgain(_), _) => Vec::new(),
    }
}
