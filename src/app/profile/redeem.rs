//! Redeeming a discovery-pass code: from the dialog or `:redeem <code>`,
//! checked before it is sent (1 to 100 characters), sent once, and the
//! answer shown in the pass panel.

use crate::app::ctx::Intent;
use crossterm::event::KeyEvent;

use super::pass::{self, PassAnswer, RedeemDialog};
use super::{Confirmed, Purpose, REDEEM_DRAFT_KEY, read, redeeming};
use crate::api::ApiError;
use crate::api::model::DiscoveryPass;
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use crate::logic::write;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Opens the redeem dialog holding `code` (or a code typed before the
/// last exit, when `code` is empty).
pub fn open_dialog(m: &mut Model, code: &str) {
    if crate::app::read_only::refuse(m) {
        return;
    }
    let kept = m
        .state
        .drafts
        .remove(REDEEM_DRAFT_KEY)
        .and_then(|d| d.fields.get("code").cloned());
    let code = match kept {
        Some(k) if code.is_empty() => k,
        _ => code.to_owned(),
    };
    m.panes.profile.redeem = Some(RedeemDialog::new(&code));
}

/// A key in the dialog.
pub fn dialog_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    // Redeem and close as the keymap binds them, and only so (a chord or a
    // named key: letters type into the code).
    let action = (!super::text::types(&key))
        .then(|| m.keymap.action(crate::app::keymap::Scope::Profile, &key))
        .flatten();
    if redeeming(m) {
        // Sent: the dialog waits for the answer; Back hides it (the answer
        // still arrives, in the pass panel).
        if action == Some(Action::Back) {
            m.panes.profile.redeem = None;
        }
        return Vec::new();
    }
    let Some(d) = m.panes.profile.redeem.as_mut() else {
        return Vec::new();
    };
    match action {
        Some(Action::Open) => {
            let code = d.code();
            start(m, &code)
        }
        Some(Action::Back) => {
            m.panes.profile.redeem = None;
            Vec::new()
        }
        _ => {
            d.key(key);
            Vec::new()
        }
    }
}

/// Redeems `code`: a code outside 1 to 100 characters never leaves the
/// client — the dialog shows why, holding what was typed.
pub fn start(m: &mut Model, code: &str) -> Vec<Cmd> {
    if crate::app::read_only::refuse(m) {
        return Vec::new();
    }
    let code = match pass::check_code(code) {
        Ok(c) => c,
        Err(why) => {
            if m.panes.profile.redeem.is_none() {
                open_dialog(m, code);
            }
            if let Some(d) = m.panes.profile.redeem.as_mut() {
                d.error = Some(why);
            }
            return Vec::new();
        }
    };
    if redeeming(m) {
        m.notify(
            Level::Info,
            "Redeeming",
            "a code is already being redeemed; wait for its answer",
        );
        return Vec::new();
    }
    if let Some(u) = m.panes.profile.uncertain_redeem.clone() {
        ask_again(m, code, &u);
        return Vec::new();
    }
    send(m, code)
}

/// "Redeem again?" was answered yes: sent, the last one no longer asked of.
pub fn redeem_again(m: &mut Model, code: &str) -> Vec<Cmd> {
    m.panes.profile.uncertain_redeem = None;
    start(m, code)
}

fn send(m: &mut Model, code: String) -> Vec<Cmd> {
    m.request(Purpose::Redeem(code.clone()), ApiRequest::Redeem { code });
    // "redeeming…" shows where the pass is.
    read::rebuild(m);
    Vec::new()
}

/// The answer to a redeem.
pub fn on_redeemed(
    m: &mut Model,
    code: String,
    result: Result<DiscoveryPass, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(answer) => {
            m.panes.profile.redeem = None;
            m.panes.profile.uncertain_redeem = None;
            if let Some(a) = &answer.access {
                m.panes.profile.access = Some(a.clone());
                // The Leads pane's create form says so up front, and a
                // refused create explains itself.
                m.ctx()
                    .intend(Intent::CanCreateLeads(Some(a.can_create_leads)));
            }
            announce(m, &code, &answer);
            m.panes.profile.pass = Some(PassAnswer { code, pass: answer });
            // On a narrow screen the pass is the document's first section:
            // shown, the cursor on it.
            read::rebuild(m);
            read::show_pass(m);
        }
        Err(e) if e.maybe_accepted() => {
            m.panes.profile.redeem = None;
            let u = UncertainRedeem {
                code: code.clone(),
                why: crate::app::leads::error_text(&e),
                check: write::Check::unchecked(NO_READ),
            };
            let again = m.keymap.key_label(Action::RedeemPass);
            m.notify(
                Level::Warning,
                "The redeem may have reached the service",
                &format!(
                    "{}: {} — {}. Redeeming again ({again}) asks first.",
                    DisplayText::inline(&code),
                    u.why,
                    u.check.text("")
                ),
            );
            m.panes.profile.uncertain_redeem = Some(u);
            read::rebuild(m);
        }
        Err(e) => {
            read::rebuild(m);
            m.toasts.error(m.now, "redeeming the code", &e);
            if m.panes.profile.redeem.is_none() {
                open_dialog(m, &code);
            }
            if let Some(d) = m.panes.profile.redeem.as_mut() {
                d.error = Some(format!("{}: {}", e.code(), e.message()));
            }
        }
    }
    Vec::new()
}

fn announce(m: &mut Model, code: &str, answer: &crate::api::model::DiscoveryPass) {
    let code = DisplayText::inline(code).into_string();
    if answer.redeemed {
        let what = answer.test_access.as_ref().map_or_else(String::new, |t| {
            format!(
                ": {} discoveries until {}",
                format::count(t.remaining),
                format::date(&t.expires_at)
            )
        });
        m.notify(
            Level::Success,
            "Discovery pass redeemed",
            &format!("{code}{what}"),
        );
    } else {
        let why = answer
            .eligibility
            .as_ref()
            .map(|e| e.reason.clone())
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| "the service gave no reason".into());
        m.notify(
            Level::Warning,
            "Code not redeemed",
            &format!("{code}: {why}"),
        );
    }
}

/// Why a lost redeem cannot be checked.
const NO_READ: &str = "the contract has no read of a pass";

/// A redeem whose answer may have reached the service. No read can settle
/// it ([`write::Settle::NoCheck`]): the verdict says so and the user
/// decides; redeeming again asks first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncertainRedeem {
    /// The code sent.
    pub code: String,
    /// What went wrong (`code: message`).
    pub why: String,
    /// The verdict: settled at once as "cannot be checked".
    pub check: write::Check,
}

/// "Redeem again?" after a redeem that may have reached the service.
fn ask_again(m: &mut Model, code: String, u: &UncertainRedeem) {
    m.panes.profile.redeem = None;
    let last = DisplayText::inline(&u.code).into_string();
    let shown = DisplayText::inline(&code).into_string();
    m.confirm(Confirm {
        title: "Redeem again?".into(),
        lines: vec![
            format!("Redeeming {last} may have reached the service ({}).", u.why),
            u.check.again_warning("in the pass"),
            format!("Redeem {shown} now?"),
        ],
        yes: "Redeem".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::RedeemAgain(code).into()),
    });
}
