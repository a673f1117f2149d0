//! A pane is one unit: its state, and how it answers everything that can
//! reach it — entering and leaving, keys, actions, the mouse, a paste,
//! replies to its requests, its pollers, its questions, its `:` commands,
//! its unsent text and its hints. [`PaneUnit`] is that unit, implemented by
//! each pane's model in `app/<pane>`; its drawing is `ui::PaneView`,
//! implemented in `ui/<pane>`.
//!
//! The panes are listed once, in [`with_panes!`](crate::app::registry): the
//! shared code (key routing, reply routing, subscriptions, tabs, help,
//! drawing) is generated from that list, so adding a pane is its own two
//! folders plus one line there — no `match` on panes anywhere else.
//!
//! Like the rest of `app`, every function here is pure. The trait's
//! functions are the pane's entry points: they take the whole [`Model`]
//! and split it at once ([`Model::split`]) into the pane's own state and a
//! [`Ctx`](super::ctx::Ctx) — requests, notices, questions, drafts, keymap
//! and clock, but no other pane. Everything below an entry point takes
//! `&mut self` (or a part of the pane's state) and `cx: &mut Ctx<'_>`;
//! what reaches beyond the pane is an [`Intent`](super::ctx::Intent).

use std::fmt::Debug;
use std::time::Duration;

use crossterm::event::{KeyEvent, MouseEvent};

use super::command_line::CommandSpec;
use super::{Cmd, Model, Reply, RequestId};
use crate::app::keymap::{Action, Scope};
use crate::store::State;

/// What the shared code needs to know of a pane before it is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaneSpec {
    /// Number key and place in the tab row (1–5, in the README's order of the panes).
    pub number: u8,
    /// Tab title.
    pub title: &'static str,
    /// Name kept in preferences and used by `:pane NAME`.
    pub key: &'static str,
    /// Other names `:pane` accepts.
    pub aliases: &'static [&'static str],
    /// The keymap scope of the pane (checked before `Global`).
    pub scope: Scope,
    /// The action that switches to the pane (`1`–`5` by default).
    pub action: Action,
}

/// How a question was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `y` or Enter.
    Yes,
    /// The explicit, labelled `n` (only offered when no does something).
    No,
    /// Esc or `q`: nothing chosen, nothing typed discarded.
    Dismissed,
}

/// One pane: implemented by the pane's model type. Every function but
/// [`PaneUnit::sync_fresh`] has a default that does nothing, so a pane
/// states only what it handles.
pub trait PaneUnit: Default + Debug {
    /// Why the pane sent a request; handed back with the reply. The shared
    /// table of requests keeps it, so a reply the pane has forgotten (the
    /// user moved on) never reaches it.
    type Purpose: Debug + Clone + PartialEq;
    /// The pane's pollers and timers.
    type Sub: Debug + Clone + PartialEq + Eq + PartialOrd + Ord + std::hash::Hash;
    /// The pane's questions (confirm dialogs).
    type Confirmed: Debug + Clone + PartialEq;

    /// Number, title, scope.
    const SPEC: PaneSpec;
    /// The `:` commands the pane runs (completion and help list them).
    const COMMANDS: &'static [CommandSpec] = &[];

    /// The pane became visible: load what it shows.
    fn enter(_m: &mut Model) -> Vec<Cmd> {
        Vec::new()
    }
    /// The last-known lists arrived (`m.cache`, at start or with a
    /// switched-to profile): show the pane's slice at once, marked stale
    /// with its age, unless the pane already holds a list of its own. Runs
    /// for every pane, shown or not, after the first `enter`.
    fn from_cache(_m: &mut Model) {}
    /// The connection came back after an outage: read again what the pane
    /// shows, so nothing stays marked stale until the user changes panes.
    /// Runs for every pane entered this session, shown or not; by default
    /// it is the pane's own Refresh (as an ordinary read, through the
    /// rate-limit gate, not as the user's explicit retry).
    fn reconnected(m: &mut Model) -> Vec<Cmd> {
        Self::action(m, Action::Refresh)
    }
    /// The pane is being left.
    fn leave(_m: &mut Model) {}
    /// The terminal was resized (selections stay on screen; a taller window
    /// may need more rows).
    fn resize(_m: &mut Model) -> Vec<Cmd> {
        Vec::new()
    }
    /// A key for a focused text box or a dialog, before the keymap; `None`
    /// when the pane has none open (the keymap then decides).
    fn text_key(_m: &mut Model, _key: KeyEvent) -> Option<Vec<Cmd>> {
        None
    }
    /// A key action while the pane is shown and nothing covers it.
    fn action(_m: &mut Model, _action: Action) -> Vec<Cmd> {
        Vec::new()
    }
    /// A mouse event over the pane body.
    fn mouse(_m: &mut Model, _ev: MouseEvent) -> Vec<Cmd> {
        Vec::new()
    }
    /// Pasted text (bracketed paste) for the focused text box.
    fn paste(_m: &mut Model, _text: &str) -> Vec<Cmd> {
        Vec::new()
    }
    /// The reply to one of the pane's requests or effects. An API reply
    /// goes to the purpose's handler typed, `reply.answer(|r| handler(m,
    /// r))` (`r`: the `Result<T, ApiError>` of the operation's answer; a
    /// reply of another type is caught there, in one place).
    fn reply(_m: &mut Model, _id: RequestId, _purpose: Self::Purpose, _reply: Reply) -> Vec<Cmd> {
        Vec::new()
    }
    /// Pollers and timers the pane wants now, with their periods.
    fn subscriptions(_m: &Model, _subs: &mut Vec<(Self::Sub, Duration)>) {}
    /// Tells each [`Freshness`](crate::app::fresh::Freshness) the pane
    /// holds whether a poll really reads it again, and at what base period
    /// ([`Freshness::schedule`](crate::app::fresh::Freshness::schedule)),
    /// by the same rules its [`PaneUnit::subscriptions`] use. The update
    /// loop runs it for every pane after every message, so what a value
    /// says of itself ("live", "retrying in 8 s", "stale · as of 2m ago")
    /// is what the subscriptions run, whatever changed it. No default: a
    /// pane that polls nothing says so.
    fn sync_fresh(m: &mut Model);
    /// One of the pane's subscriptions fired.
    fn sub_fired(_m: &mut Model, _sub: Self::Sub) -> Vec<Cmd> {
        Vec::new()
    }
    /// Another pane's [`Intent`](super::ctx::Intent) (every pane hears
    /// each; one not for this pane changes nothing).
    fn intent(_m: &mut Model, _intent: &super::ctx::Intent) -> Vec<Cmd> {
        Vec::new()
    }
    /// One of the pane's questions was answered.
    fn answered(_m: &mut Model, _what: Self::Confirmed, _answer: Answer) -> Vec<Cmd> {
        Vec::new()
    }
    /// A `:` command of [`PaneUnit::COMMANDS`] (the pane is already shown);
    /// `arg` is the rest of the line, trimmed, `None` when empty.
    fn command(_m: &mut Model, _name: &str, _arg: Option<String>) -> Vec<Cmd> {
        Vec::new()
    }
    /// What unsent text the pane holds, said for the quit question.
    fn unsent(_m: &Model) -> Option<String> {
        None
    }
    /// Writes whose answer may have reached the service and that are still
    /// being checked, each said for the quit question ("the send to
    /// jonas@kestrel.io").
    fn checking(_m: &Model) -> Vec<String> {
        Vec::new()
    }
    /// Copies unsent text into the local state (on every save).
    fn capture_drafts(_m: &Model, _state: &mut State) {}
    /// A dialog is open that must keep the focus (tab clicks and pane keys
    /// wait until it closes).
    fn modal(_m: &Model) -> bool {
        false
    }
    /// A countdown is on screen (the shared one-second tick runs).
    fn countdown_visible(_m: &Model) -> bool {
        false
    }
    /// The item whose id `I` copies: the selected row of the list shown,
    /// or the item a detail view shows; `None` where there is none.
    fn id_shown(_m: &Model) -> Option<super::ids::IdShown> {
        None
    }
    /// Status-bar hints for what is shown: `(action, label)`; the key shown
    /// is the one the keymap binds.
    fn hints(_m: &Model) -> Vec<(Action, &'static str)> {
        Vec::new()
    }
}
