//! The one list of panes. Everything the shared code does per pane — the
//! `Pane` enum and its tab order, the `Panes` struct
//! holding every pane's state, the tagged `Purpose`/`PaneSub`/`PaneConfirm`
//! enums, the dispatch of keys, replies and timers, the keymap's actions
//! (from each pane's `keymap.rs`) and (in `ui`) the drawing — is generated
//! from this list by callback macros. Adding a pane: its `app/<pane>`
//! (a model implementing [`PaneUnit`](super::pane::PaneUnit), and its keys
//! in `keymap.rs`), its `ui/<pane>` (implementing `ui::PaneView`), one line
//! here, and the folders' `mod` lines in `app/mod.rs` and `ui/mod.rs`.

/// Calls `$callback!` with the registered panes, in tab order:
/// `Variant(field): Type,` for each.
macro_rules! with_panes {
    ($callback:ident) => {
        $callback! {
            Leads(leads): $crate::app::leads::LeadsModel,
            Campaigns(campaigns): $crate::app::campaigns::CampaignsModel,
            Inbox(inbox): $crate::app::inbox::InboxModel,
            Domains(domains): $crate::app::domains::DomainsModel,
            Profile(profile): $crate::app::profile::ProfileModel,
        }
    };
}
pub(crate) use with_panes;

/// Generates the app side of the registry (see the module docs).
macro_rules! define_panes {
    ($($variant:ident($field:ident): $ty:ty,)+) => {
        /// The panes of this build, in tab order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Pane {
            $(
                #[doc = concat!("The ", stringify!($variant), " pane.")]
                $variant,
            )+
        }

        impl Pane {
            /// Every pane, in tab order.
            pub const ALL: &'static [Pane] = &[$(Pane::$variant,)+];

            /// Number, title, scope.
            pub fn spec(self) -> $crate::app::pane::PaneSpec {
                match self {
                    $(Pane::$variant => <$ty as $crate::app::pane::PaneUnit>::SPEC,)+
                }
            }

            /// The `:` commands the pane runs.
            pub fn commands(self) -> &'static [$crate::app::command_line::CommandSpec] {
                match self {
                    $(Pane::$variant => <$ty as $crate::app::pane::PaneUnit>::COMMANDS,)+
                }
            }
        }

        /// The state of every pane.
        #[derive(Debug, Default)]
        pub struct Panes {
            $(
                #[doc = concat!("The ", stringify!($variant), " pane.")]
                pub $field: $ty,
            )+
        }

        /// Why a request was sent: the owning pane's purpose, tagged.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Purpose {
            $(
                #[doc = concat!("A request of the ", stringify!($variant), " pane.")]
                $variant(<$ty as $crate::app::pane::PaneUnit>::Purpose),
            )+
        }

        /// A pane's poller or timer, tagged with the pane.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PaneSub {
            $(
                #[doc = concat!("A subscription of the ", stringify!($variant), " pane.")]
                $variant(<$ty as $crate::app::pane::PaneUnit>::Sub),
            )+
        }

        /// A pane's question, tagged with the pane.
        #[derive(Debug, Clone, PartialEq)]
        pub enum PaneConfirm {
            $(
                #[doc = concat!("A question of the ", stringify!($variant), " pane.")]
                $variant(<$ty as $crate::app::pane::PaneUnit>::Confirmed),
            )+
        }

        $(
            impl From<<$ty as $crate::app::pane::PaneUnit>::Purpose> for Purpose {
                fn from(p: <$ty as $crate::app::pane::PaneUnit>::Purpose) -> Purpose {
                    Purpose::$variant(p)
                }
            }
            impl From<<$ty as $crate::app::pane::PaneUnit>::Sub> for PaneSub {
                fn from(s: <$ty as $crate::app::pane::PaneUnit>::Sub) -> PaneSub {
                    PaneSub::$variant(s)
                }
            }
            impl From<<$ty as $crate::app::pane::PaneUnit>::Confirmed> for PaneConfirm {
                fn from(c: <$ty as $crate::app::pane::PaneUnit>::Confirmed) -> PaneConfirm {
                    PaneConfirm::$variant(c)
                }
            }
            impl $crate::app::registry::Registered for $ty {
                fn slot(panes: &mut Panes) -> &mut Self {
                    &mut panes.$field
                }
                fn purpose(p: &Purpose) -> Option<&Self::Purpose> {
                    match p {
                        Purpose::$variant(p) => Some(p),
                        _ => None,
                    }
                }
                fn purpose_mut(p: &mut Purpose) -> Option<&mut Self::Purpose> {
                    match p {
                        Purpose::$variant(p) => Some(p),
                        _ => None,
                    }
                }
            }
        )+

        /// Calls the pane's function of the trait for one pane, or for each.
        pub(crate) mod dispatch {
            use std::time::Duration;

            use crossterm::event::{KeyEvent, MouseEvent};

            use super::{PaneConfirm, PaneSub, Pane, Purpose};
            use $crate::app::pane::{Answer, PaneUnit};
            use $crate::app::{Cmd, Model, Reply, RequestId};
            use $crate::app::keymap::Action;
            use $crate::store::State;

            pub(crate) fn enter(m: &mut Model, pane: Pane) -> Vec<Cmd> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::enter(m),)+ }
            }
            pub(crate) fn reconnected(m: &mut Model, pane: Pane) -> Vec<Cmd> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::reconnected(m),)+ }
            }
            pub(crate) fn leave(m: &mut Model, pane: Pane) {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::leave(m),)+ }
            }
            pub(crate) fn text_key(m: &mut Model, pane: Pane, key: KeyEvent) -> Option<Vec<Cmd>> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::text_key(m, key),)+ }
            }
            pub(crate) fn action(m: &mut Model, pane: Pane, action: Action) -> Vec<Cmd> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::action(m, action),)+ }
            }
            pub(crate) fn mouse(m: &mut Model, pane: Pane, ev: MouseEvent) -> Vec<Cmd> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::mouse(m, ev),)+ }
            }
            pub(crate) fn paste(m: &mut Model, pane: Pane, text: &str) -> Vec<Cmd> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::paste(m, text),)+ }
            }
            pub(crate) fn command(m: &mut Model, pane: Pane, name: &str, arg: Option<String>) -> Vec<Cmd> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::command(m, name, arg),)+ }
            }
            pub(crate) fn modal(m: &Model, pane: Pane) -> bool {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::modal(m),)+ }
            }
            pub(crate) fn countdown_visible(m: &Model, pane: Pane) -> bool {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::countdown_visible(m),)+ }
            }
            pub(crate) fn id_shown(m: &Model, pane: Pane) -> Option<crate::app::ids::IdShown> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::id_shown(m),)+ }
            }
            pub(crate) fn hints(m: &Model, pane: Pane) -> Vec<(Action, &'static str)> {
                match pane { $(Pane::$variant => <$ty as PaneUnit>::hints(m),)+ }
            }
            pub(crate) fn reply(m: &mut Model, id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
                match purpose { $(Purpose::$variant(p) => <$ty as PaneUnit>::reply(m, id, p, reply),)+ }
            }
            pub(crate) fn sub_fired(m: &mut Model, sub: PaneSub) -> Vec<Cmd> {
                match sub { $(PaneSub::$variant(s) => <$ty as PaneUnit>::sub_fired(m, s),)+ }
            }
            /// Every pane hears an intent (one not for it changes nothing).
            pub(crate) fn intent(m: &mut Model, intent: &$crate::app::ctx::Intent) -> Vec<Cmd> {
                let mut cmds = Vec::new();
                $(cmds.extend(<$ty as PaneUnit>::intent(m, intent));)+
                cmds
            }
            pub(crate) fn answered(m: &mut Model, what: PaneConfirm, answer: Answer) -> Vec<Cmd> {
                match what { $(PaneConfirm::$variant(c) => <$ty as PaneUnit>::answered(m, c, answer),)+ }
            }
            /// Every pane's resize (all of them keep their selections valid).
            pub(crate) fn resize(m: &mut Model) -> Vec<Cmd> {
                let mut cmds = Vec::new();
                $(cmds.extend(<$ty as PaneUnit>::resize(m));)+
                cmds
            }
            /// The first pane holding unsent text, said for the quit question.
            pub(crate) fn unsent(m: &Model) -> Option<String> {
                None$(.or_else(|| <$ty as PaneUnit>::unsent(m)))+
            }
            /// Every write still being checked, in every pane.
            pub(crate) fn checking(m: &Model) -> Vec<String> {
                let mut all = Vec::new();
                $(all.extend(<$ty as PaneUnit>::checking(m));)+
                all
            }
            /// Every pane takes its slice of the last-known lists.
            pub(crate) fn from_cache(m: &mut Model) {
                $(<$ty as PaneUnit>::from_cache(m);)+
            }
            /// Every pane's drafts into the state.
            pub(crate) fn capture_drafts(m: &Model, state: &mut State) {
                $(<$ty as PaneUnit>::capture_drafts(m, state);)+
            }
            /// Every pane's freshness holders told whether a poll reads
            /// them again ([`PaneUnit::sync_fresh`]).
            pub(crate) fn sync_fresh(m: &mut Model) {
                $(<$ty as PaneUnit>::sync_fresh(m);)+
            }
            /// Every pane's subscriptions, tagged.
            pub(crate) fn subscriptions(m: &Model, out: &mut Vec<(PaneSub, Duration)>) {
                $({
                    let mut own = Vec::new();
                    <$ty as PaneUnit>::subscriptions(m, &mut own);
                    out.extend(own.into_iter().map(|(s, every)| (PaneSub::$variant(s), every)));
                })+
            }
        }
    };
}
pub(crate) use define_panes;

/// Typed access to a pane's entries in the shared request table
/// (implemented for every registered pane by the registry).
pub trait Registered: super::pane::PaneUnit {
    /// The pane's own state among all of them.
    fn slot(panes: &mut super::Panes) -> &mut Self;
    /// The pane's own purpose, if the tagged one is the pane's.
    fn purpose(p: &super::Purpose) -> Option<&Self::Purpose>;
    /// The same, mutable.
    fn purpose_mut(p: &mut super::Purpose) -> Option<&mut Self::Purpose>;
}
