//! The Profile pane: the workspace's company profile by section, edited as
//! a form and saved as one full replacement (the complete profile, always,
//! after a review of what changes), and the discovery pass: redeeming a
//! code, and what the answer grants.
//!
//! The account's access (`canCreateLeads`) is known once a redeem answer
//! carried it; the Leads pane is told with
//! [`Intent::CanCreateLeads`](crate::app::ctx::Intent::CanCreateLeads).

pub(crate) mod diff;
pub(crate) mod doc;
pub(crate) mod editor;
pub(crate) mod fields;
pub(crate) mod json_edit;
pub(crate) mod keymap;
pub(crate) mod layout;
pub(crate) mod list_edit;
pub(crate) mod pass;
mod read;
mod redeem;
pub(crate) mod review;
mod save;
#[cfg(test)]
mod tests;
pub(crate) mod text;

use std::time::Duration;

use crossterm::event::{KeyEvent, MouseEvent};

use super::command_line::{Arg, CommandSpec};
use super::ctx::Ctx;
use super::json_tree::JsonTree;
use super::pane::{Answer, PaneSpec, PaneUnit};
use super::requests::Requests;
use super::{Cmd, Model, Pane, Reply, RequestId};
use crate::api::model::{Access, PutContext};
use crate::app::keymap::{Action, Scope};
use crate::store::State;
use doc::Doc;
use editor::Editor;
use pass::{PassAnswer, RedeemDialog};
use review::Review;

/// Key of the unsent profile form in the local state.
pub(crate) const DRAFT_KEY: &str = "profile";
/// Key of a code typed in the redeem dialog and not sent.
pub(crate) const REDEEM_DRAFT_KEY: &str = "redeem-code";

/// Why Profile sent a request; its reply is matched against it when it arrives.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    /// Reading the stored profile.
    Load,
    /// Replacing it with this complete profile.
    Save(Box<PutContext>),
    /// Reading it again after a save that may have reached the service,
    /// to learn whether this profile was stored.
    Check(Box<PutContext>),
    /// Redeeming this code.
    Redeem(String),
}

/// The pane has no pollers of its own (its countdown uses the shared
/// one-second tick).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProfileSub {}

/// What a yes/no question of Profile asks; its answer arrives tagged with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// Offer back the unsent profile form.
    RestoreDraft,
    /// Send a redeem again whose first try may have reached the service.
    RedeemAgain(String),
}

/// The profile as the service holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// The context and the profile object, as one replacement body.
    pub body: PutContext,
    /// The service's answer had no `profile` object.
    pub profile_missing: bool,
}

/// The Profile pane's own state: the stored profile, its editor and the pass.
#[derive(Debug, Default)]
pub struct ProfileModel {
    /// The stored profile, once read.
    pub stored: Option<Stored>,
    /// Why it could not be read (shown while nothing is).
    pub load_error: Option<crate::api::ApiError>,
    /// When the stored profile was last read, and whether the last read
    /// failed (what was read stays shown, marked stale). No poll reads it
    /// again: only entering the pane, the Refresh key or a reconnect do.
    pub fresh: crate::app::fresh::Freshness,
    /// `extra` as a tree, for reading.
    pub tree: JsonTree,
    /// The read view's document.
    pub doc: Doc,
    /// The row the cursor is on.
    pub cursor: usize,
    /// The first document line on screen.
    pub offset: usize,
    /// The form, while editing.
    pub editor: Option<Editor>,
    /// The review of a save, waiting for `y`.
    pub review: Option<Review>,
    /// The dialog redeeming a discovery pass code, while open.
    pub redeem: Option<RedeemDialog>,
    /// The last redeem answer.
    pub pass: Option<PassAnswer>,
    /// A redeem whose answer may have reached the service: redeeming again
    /// asks first.
    pub uncertain_redeem: Option<redeem::UncertainRedeem>,
    /// The account's access, once an answer carried it.
    pub access: Option<Access>,
    /// The `/` filter of the read view (fields by label or text, live).
    pub needle: crate::app::live_filter::LiveFilter,
}

impl ProfileModel {
    /// Whether the account can create leads: `None` until a redeem answer
    /// carried the account's access in this session.
    pub fn can_create_leads(&self) -> Option<bool> {
        self.access.as_ref().map(|a| a.can_create_leads)
    }

    /// The account's access, where known.
    pub fn access(&self) -> Option<&Access> {
        self.access.as_ref()
    }

    /// What unsent text the pane holds.
    pub fn unsent(&self) -> Option<String> {
        if self.editor.as_ref().is_some_and(Editor::is_dirty) {
            return Some("the profile form".into());
        }
        self.redeem
            .as_ref()
            .filter(|d| !d.code().trim().is_empty())
            .map(|_| "the redeem dialog".into())
    }

    /// Keeps unsent text in the local state; `offering` says the form is
    /// waiting for the answer to "restore the draft?" (the draft stays).
    pub fn capture_drafts(&self, state: &mut State, offering: bool) {
        match &self.editor {
            Some(e) if e.is_dirty() => {
                state.drafts.insert(DRAFT_KEY.into(), e.draft());
            }
            // An open form has offered back (or dropped) any older draft.
            Some(_) if !offering => {
                state.drafts.remove(DRAFT_KEY);
            }
            _ => {}
        }
        if let Some(d) = self.redeem.as_ref().filter(|d| !d.code().trim().is_empty()) {
            state.drafts.insert(
                REDEEM_DRAFT_KEY.into(),
                crate::store::Draft {
                    title: "discovery-pass code".into(),
                    fields: [("code".to_owned(), d.code())].into(),
                },
            );
        }
    }
}

impl ProfileModel {
    /// Whether the profile is being read for the first time.
    pub fn loading(&self, requests: &Requests) -> bool {
        self.stored.is_none() && in_flight(requests, |p| *p == Purpose::Load)
    }

    /// Whether the pass's expiry counts down on screen now (`shown`: the
    /// pane is shown; `clock`: now).
    fn countdown_visible(&self, shown: bool, clock: i64) -> bool {
        shown
            && self.editor.is_none()
            && self
                .pass
                .as_ref()
                .and_then(|a| a.pass.test_access.as_ref())
                .is_some_and(|t| pass::seconds_left(t, clock).is_some())
    }

    /// Status-bar hints for what is shown (`read_only`: the session's
    /// mode, which the form and the redeem dialog refuse).
    fn hints(&self, read_only: bool) -> Vec<(Action, &'static str)> {
        let p = self;
        if p.editor.is_some() || p.review.is_some() || p.redeem.is_some() || p.needle.typing() {
            return Vec::new();
        }
        let edit = if p.stored.is_some() {
            (Action::EditProfile, "edit")
        } else {
            (Action::EditProfile, "edit (not loaded)")
        };
        let open = match p.doc.rows.get(p.cursor).map(|r| &r.kind) {
            Some(doc::RowKind::Extra(i))
                if p.tree
                    .lines()
                    .get(*i)
                    .is_some_and(|l| l.kind == super::json_tree::NodeKind::Container) =>
            {
                (Action::Open, "fold")
            }
            // Read-only: the form and the redeem dialog do not open.
            Some(doc::RowKind::Pass(_)) if read_only => (Action::Open, "redeem ✗ read-only"),
            Some(doc::RowKind::Pass(_)) => (Action::Open, "redeem a pass"),
            _ if read_only => (Action::Open, "edit field ✗ read-only"),
            _ => (Action::Open, "edit field"),
        };
        let mut out = vec![edit, (Action::RedeemPass, "redeem pass"), open];
        if p.needle.active() {
            out.push((Action::Back, "clear filter"));
        }
        out.extend([(Action::Filter, "filter"), (Action::Refresh, "reload")]);
        out
    }

    /// Pasted text, for the focused text box.
    fn on_paste(&mut self, cx: &mut Ctx<'_>, text: &str) {
        let notice = if let Some(d) = self.redeem.as_mut() {
            d.paste(text)
        } else if self.review.is_none()
            && let Some(e) = self.editor.as_mut()
        {
            e.paste(text)
        } else if self.editor.is_none() && self.needle.typing() {
            read::filter_paste(self, cx, text);
            return;
        } else {
            None
        };
        cx.notify_paste(notice);
    }

    /// A key for the open review, dialog, form or `/` input; `None` when
    /// none is open.
    fn on_text_key(&mut self, cx: &mut Ctx<'_>, key: KeyEvent) -> Option<Vec<Cmd>> {
        if self.review.is_some() {
            return Some(save::review_key(self, cx, key));
        }
        if self.redeem.is_some() {
            return Some(redeem::dialog_key(self, cx, key));
        }
        if self.editor.is_some() {
            return Some(save::editor_key(self, cx, key));
        }
        if self.needle.typing() {
            return Some(read::filter_key(self, cx, key));
        }
        None
    }
}

/// Whether a request of this pane passing `f` is in flight.
fn in_flight(requests: &Requests, f: impl Fn(&Purpose) -> bool) -> bool {
    requests.pending::<ProfileModel>(f)
}

/// Whether a save (or the check after an uncertain one) is on its way
/// (for the view).
pub(crate) fn saving(m: &Model) -> bool {
    save_pending(&m.requests)
}

/// Whether a save (or its check) is on its way, from the request table.
fn save_pending(requests: &Requests) -> bool {
    in_flight(requests, |p| {
        matches!(p, Purpose::Save(_) | Purpose::Check(_))
    })
}

/// Whether a redeem is on its way (for the view).
pub(crate) fn redeeming(m: &Model) -> bool {
    redeem_pending(&m.requests)
}

/// Whether a redeem is on its way, from the request table.
fn redeem_pending(requests: &Requests) -> bool {
    in_flight(requests, |p| matches!(p, Purpose::Redeem(_)))
}

/// Whether the profile is being read for the first time (for the view).
pub(crate) fn loading(m: &Model) -> bool {
    m.panes.profile.loading(&m.requests)
}

impl PaneUnit for ProfileModel {
    type Purpose = Purpose;
    type Sub = ProfileSub;
    type Confirmed = Confirmed;

    const SPEC: PaneSpec = PaneSpec {
        number: 5,
        title: "Profile",
        key: "profile",
        aliases: &["context", "company"],
        scope: Scope::Profile,
        action: Action::PaneProfile,
    };
    const COMMANDS: &'static [CommandSpec] = &[CommandSpec {
        name: "redeem",
        writes: true,
        arg: Arg::Optional("<code>"),
        help: "redeem a discovery-pass code (no code: open the dialog)",
    }];

    fn enter(m: &mut Model) -> Vec<Cmd> {
        let (p, mut cx) = m.split::<Self>();
        read::on_enter(p, &mut cx)
    }
    fn resize(m: &mut Model) -> Vec<Cmd> {
        let (p, cx) = m.split::<Self>();
        read::rebuild(p, &cx);
        Vec::new()
    }
    fn text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
        let (p, mut cx) = m.split::<Self>();
        p.on_text_key(&mut cx, key)
    }
    fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
        let (p, mut cx) = m.split::<Self>();
        read::on_action(p, &mut cx, action)
    }
    fn sync_fresh(m: &mut Model) {
        // No poll reads the stored profile again: it says its age.
        m.panes.profile.fresh.schedule(None);
    }
    fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
        let (p, mut cx) = m.split::<Self>();
        read::on_mouse(p, &mut cx, ev)
    }
    fn paste(m: &mut Model, text: &str) -> Vec<Cmd> {
        let (p, mut cx) = m.split::<Self>();
        p.on_paste(&mut cx, text);
        Vec::new()
    }
    fn reply(m: &mut Model, _id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
        let Reply::Api(reply) = reply else {
            return Vec::new();
        };
        let (p, mut cx) = m.split::<Self>();
        let cx = &mut cx;
        match purpose {
            Purpose::Load => reply.answer(|r| read::on_loaded(p, cx, r)),
            Purpose::Save(sent) => reply.answer(|r| save::on_saved(p, cx, *sent, r)),
            Purpose::Check(sent) => reply.answer(|r| save::on_checked(p, cx, &sent, r)),
            Purpose::Redeem(code) => reply.answer(|r| redeem::on_redeemed(p, cx, code, r)),
        }
    }
    fn subscriptions(_m: &Model, _subs: &mut Vec<(ProfileSub, Duration)>) {}
    fn answered(m: &mut Model, what: Confirmed, answer: Answer) -> Vec<Cmd> {
        let (p, mut cx) = m.split::<Self>();
        match what {
            Confirmed::RestoreDraft => save::restore_answered(p, &mut cx, answer),
            Confirmed::RedeemAgain(code) if answer == Answer::Yes => {
                redeem::redeem_again(p, &mut cx, &code)
            }
            Confirmed::RedeemAgain(_) => Vec::new(),
        }
    }
    fn command(m: &mut Model, name: &str, arg: Option<String>) -> Vec<Cmd> {
        let (p, mut cx) = m.split::<Self>();
        match (name, arg) {
            ("redeem", Some(code)) => redeem::start(p, &mut cx, &code),
            ("redeem", None) => {
                redeem::open_dialog(p, &mut cx, "");
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
    fn unsent(m: &Model) -> Option<String> {
        m.panes.profile.unsent()
    }
    fn capture_drafts(m: &Model, state: &mut State) {
        let offering = matches!(
            &m.overlay,
            Some(super::Overlay::Confirm(c))
                if c.on_yes == super::ConfirmAction::Pane(Confirmed::RestoreDraft.into())
        );
        m.panes.profile.capture_drafts(state, offering);
    }
    fn modal(m: &Model) -> bool {
        let p = &m.panes.profile;
        p.review.is_some() || p.redeem.is_some()
    }
    fn countdown_visible(m: &Model) -> bool {
        m.panes
            .profile
            .countdown_visible(m.pane == Pane::Profile, m.clock)
    }
    fn hints(m: &Model) -> Vec<(Action, &'static str)> {
        m.panes.profile.hints(m.session.read_only)
    }
}
