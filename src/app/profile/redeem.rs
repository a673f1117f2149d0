//! Redeeming a discovery-pass code: from the dialog or `:redeem <code>`,
//! checked before it is sent (1 to 100 characters), sent once, and the
//! answer shown in the pass panel.

use crate::app::ctx::{Ctx, Intent};
use crossterm::event::KeyEvent;

use super::pass::{self, PassAnswer, RedeemDialog};
use super::{Confirmed, ProfileModel, Purpose, REDEEM_DRAFT_KEY, read, redeem_pending};
use crate::api::ApiError;
use crate::api::model::DiscoveryPass;
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{ApiRequest, Cmd, Confirm, ConfirmAction};
use crate::logic::write;
use crate::text::format;
use crate::text::sanitize::DisplayText;

/// Opens the redeem dialog holding `code` (or a code typed before the
/// last exit, when `code` is empty).
pub(super) fn open_dialog(p: &mut ProfileModel, cx: &mut Ctx<'_>, code: &str) {
    if crate::app::read_only::refuse(cx) {
        return;
    }
    let kept = cx
        .state
        .drafts
        .remove(REDEEM_DRAFT_KEY)
        .and_then(|d| d.fields.get("code").cloned());
    let code = match kept {
        Some(k) if code.is_empty() => k,
        _ => code.to_owned(),
    };
    p.redeem = Some(RedeemDialog::new(&code));
}

/// A key in the dialog.
pub(super) fn dialog_key(p: &mut ProfileModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    // Redeem and close as the keymap binds them, and only so (a chord or a
    // named key: letters type into the code).
    let action = (!super::text::types(&key))
        .then(|| cx.keymap.action(crate::app::keymap::Scope::Profile, &key))
        .flatten();
    if redeem_pending(cx.requests) {
        // Sent: the dialog waits for the answer; Back hides it (the answer
        // still arrives, in the pass panel).
        if action == Some(Action::Back) {
            p.redeem = None;
        }
        return Vec::new();
    }
    let Some(d) = p.redeem.as_mut() else {
        return Vec::new();
    };
    match action {
        Some(Action::Open) => {
            let code = d.code();
            start(p, cx, &code)
        }
        Some(Action::Back) => {
            p.redeem = None;
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
pub(super) fn start(p: &mut ProfileModel, cx: &mut Ctx<'_>, code: &str) -> Vec<Cmd> {
    if crate::app::read_only::refuse(cx) {
        return Vec::new();
    }
    let code = match pass::check_code(code) {
        Ok(c) => c,
        Err(why) => {
            if p.redeem.is_none() {
                open_dialog(p, cx, code);
            }
            if let Some(d) = p.redeem.as_mut() {
                d.error = Some(why);
            }
            return Vec::new();
        }
    };
    if redeem_pending(cx.requests) {
        cx.notify(
            Level::Info,
            "Redeeming",
            "a code is already being redeemed; wait for its answer",
        );
        return Vec::new();
    }
    if let Some(u) = p.uncertain_redeem.clone() {
        ask_again(p, cx, code, &u);
        return Vec::new();
    }
    send(p, cx, code)
}

/// "Redeem again?" was answered yes: sent, the last one no longer asked of.
pub(super) fn redeem_again(p: &mut ProfileModel, cx: &mut Ctx<'_>, code: &str) -> Vec<Cmd> {
    p.uncertain_redeem = None;
    start(p, cx, code)
}

fn send(p: &mut ProfileModel, cx: &mut Ctx<'_>, code: String) -> Vec<Cmd> {
    cx.request(Purpose::Redeem(code.clone()), ApiRequest::Redeem { code });
    // "redeeming…" shows where the pass is.
    read::rebuild(p, cx);
    Vec::new()
}

/// The answer to a redeem.
pub(super) fn on_redeemed(
    p: &mut ProfileModel,
    cx: &mut Ctx<'_>,
    code: String,
    result: Result<DiscoveryPass, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(answer) => {
            p.redeem = None;
            p.uncertain_redeem = None;
            if let Some(a) = &answer.access {
                p.access = Some(a.clone());
                // The Leads pane's create form says so up front, and a
                // refused create explains itself.
                cx.intend(Intent::CanCreateLeads(Some(a.can_create_leads)));
            }
            announce(cx, &code, &answer);
            p.pass = Some(PassAnswer { code, pass: answer });
            // On a narrow screen the pass is the document's first section:
            // shown, the cursor on it.
            read::rebuild(p, cx);
            read::show_pass(p, cx);
        }
        Err(e) if e.maybe_accepted() => {
            p.redeem = None;
            let u = UncertainRedeem {
                code: code.clone(),
                why: crate::app::leads::error_text(&e),
                check: write::Check::unchecked(NO_READ),
            };
            let again = cx.keymap.key_label(Action::RedeemPass);
            cx.notify(
                Level::Warning,
                "The redeem may have reached the service",
                &format!(
                    "{}: {} — {}. Redeeming again ({again}) asks first.",
                    DisplayText::inline(&code),
                    u.why,
                    u.check.text("")
                ),
            );
            p.uncertain_redeem = Some(u);
            read::rebuild(p, cx);
        }
        Err(e) => {
            read::rebuild(p, cx);
            cx.toasts.error(cx.now, "redeeming the code", &e);
            if p.redeem.is_none() {
                open_dialog(p, cx, &code);
            }
            if let Some(d) = p.redeem.as_mut() {
                d.error = Some(format!("{}: {}", e.code(), e.message()));
            }
        }
    }
    Vec::new()
}

fn announce(cx: &mut Ctx<'_>, code: &str, answer: &crate::api::model::DiscoveryPass) {
    let code = DisplayText::inline(code).into_string();
    if answer.redeemed {
        let what = answer.test_access.as_ref().map_or_else(String::new, |t| {
            format!(
                ": {} discoveries until {}",
                format::count(t.remaining),
                format::date(&t.expires_at)
            )
        });
        cx.notify(
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
        cx.notify(
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
fn ask_again(p: &mut ProfileModel, cx: &mut Ctx<'_>, code: String, u: &UncertainRedeem) {
    p.redeem = None;
    let last = DisplayText::inline(&u.code).into_string();
    let shown = DisplayText::inline(&code).into_string();
    cx.confirm(Confirm {
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
