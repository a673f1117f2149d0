//! What a pane's handler may use besides its own state: the clock, the
//! keymap, the session, the request table, notices, questions, drafts and
//! the cache — everything of the [`Model`] but the other panes.
//!
//! A pane's code takes `&mut self` (its own model) and `cx: &mut Ctx<'_>`,
//! split off the model by [`Model::split`]; only a pane's entry points
//! (the [`PaneUnit`](super::pane::PaneUnit) functions) see the whole model.
//! What reaches beyond the pane — showing another pane, telling another
//! pane something, writing the state file with every pane's unsent text —
//! is asked for as an [`Intent`] and carried out by the model when the
//! handler returns ([`Model::carry_out`]), so no pane reaches into
//! another's state.

use std::collections::BTreeSet;
use std::time::Instant;

use super::cache::{self, Cache};
use super::keymap::Keymap;
use super::registry::Registered;
use super::requests::{self, Requests};
use super::toast::{Level, Toasts};
use super::{
    Cmd, Confirm, Model, NetStatus, Overlay, Pane, Panes, Purpose, RequestId, Session, tab_labels,
};
use crate::api::model::{Campaign, Channel};
use crate::config::PollIntervals;
use crate::geometry::AppLayout;
use crate::store::{Draft, State, StoreError};

/// What a pane asks of the rest of the dashboard; carried out, in order,
/// when the pane's handler returns.
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    /// Show this pane (the shown one is left, this one entered).
    Show(Pane),
    /// To the Campaigns pane: open the create form for the Leads pane's
    /// "add to campaign" picker, typed for the channel when given.
    NewCampaignForLeads(Option<Channel>),
    /// To the Leads pane: the campaign its picker's create form made.
    CampaignForLeads(Box<Campaign>),
    /// To the Campaigns pane: a campaign read by another pane, as it is
    /// now (its list shows the new figures).
    CampaignRead(Box<Campaign>),
    /// To every pane: what the last redeem answer said of whether the
    /// account can create leads.
    CanCreateLeads(Option<bool>),
}

/// The model but its panes, borrowed for one handler (see the module
/// docs). Plain values are copies taken when the handler began.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// Time of the message being handled.
    pub now: Instant,
    /// Wall-clock time in unix seconds, for ages.
    pub clock: i64,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// The pane shown.
    pub shown: Pane,
    /// The local time zone's offset east of UTC, in seconds.
    pub utc_offset: i32,
    /// Session facts (host, read-only, profile).
    pub session: &'a Session,
    /// Network activity and rate limits.
    pub net: &'a NetStatus,
    /// Keys.
    pub keymap: &'a Keymap,
    /// Poll intervals.
    pub poll: &'a PollIntervals,
    /// Local state (known ids, drafts, preferences).
    pub state: &'a mut State,
    /// Requests and effects in flight, with their purposes.
    pub requests: &'a mut Requests,
    /// Notices.
    pub toasts: &'a mut Toasts,
    /// The last-known lists (read; a pane hands fresh ones to
    /// [`Ctx::cache_list`]).
    cache: &'a mut Cache,
    cache_dirty: &'a mut bool,
    cache_touched: &'a mut bool,
    overlay: &'a mut Option<Overlay>,
    redraw: &'a mut bool,
    outbox: &'a mut Vec<Cmd>,
    user_retry: bool,
    user_retries: &'a mut BTreeSet<RequestId>,
    intents: &'a mut Vec<Intent>,
    save_due: &'a mut bool,
    /// While a pane handles the reply of a write whose answer was lost and
    /// which a read can settle: that write's request, until the pane's
    /// check takes it ([`Ctx::lost_entry`]).
    lost_write: &'a mut Option<RequestId>,
    state_writable: Option<bool>,
    store_error: &'a Option<StoreError>,
}

impl Model {
    /// Splits the model into pane `P`'s state and the context its handlers
    /// use (see the module docs).
    pub fn split<P: Registered>(&mut self) -> (&mut P, Ctx<'_>) {
        let (panes, cx) = self.split_panes();
        (P::slot(panes), cx)
    }

    /// The context alone, for the shell's own code.
    pub fn ctx(&mut self) -> Ctx<'_> {
        self.split_panes().1
    }

    fn split_panes(&mut self) -> (&mut Panes, Ctx<'_>) {
        let cx = Ctx {
            now: self.now,
            clock: self.clock,
            size: self.size,
            shown: self.pane,
            utc_offset: self.utc_offset,
            session: &self.session,
            net: &self.net,
            keymap: &self.keymap,
            poll: &self.poll,
            state: &mut self.state,
            requests: &mut self.requests,
            toasts: &mut self.toasts,
            cache: &mut self.cache,
            cache_dirty: &mut self.cache_dirty,
            cache_touched: &mut self.cache_touched,
            overlay: &mut self.overlay,
            redraw: &mut self.redraw,
            outbox: &mut self.outbox,
            user_retry: self.user_retry,
            user_retries: &mut self.user_retries,
            intents: &mut self.intents,
            save_due: &mut self.save_due,
            lost_write: &mut self.lost_write,
            state_writable: self.state_writable,
            store_error: &self.store_error,
        };
        (&mut self.panes, cx)
    }

    /// Carries out what handlers asked for ([`Intent`]s, in order, and a
    /// save of the state asked with [`Ctx::save_state`]); returns the
    /// effects. Intents a carried-out intent asks for are carried out too.
    pub fn carry_out(&mut self) -> Vec<Cmd> {
        let mut cmds = Vec::new();
        while !self.intents.is_empty() {
            for intent in std::mem::take(&mut self.intents) {
                match intent {
                    Intent::Show(pane) => cmds.extend(self.switch_pane(pane)),
                    other => cmds.extend(super::dispatch::intent(self, &other)),
                }
            }
        }
        if self.save_due {
            cmds.push(self.save_state());
        }
        cmds
    }
}

impl Ctx<'_> {
    /// Whether `pane` is the one shown.
    pub fn is_shown(&self, pane: Pane) -> bool {
        self.shown == pane
    }

    /// Something visible changed: the next frame is drawn.
    pub fn redraw(&mut self) {
        *self.redraw = true;
    }

    /// Asks for `intent` to be carried out when the handler returns.
    pub fn intend(&mut self, intent: Intent) {
        self.intents.push(intent);
    }

    /// Shows `pane` when the handler returns (leaving the one shown).
    pub fn show(&mut self, pane: Pane) {
        self.intend(Intent::Show(pane));
    }

    /// Sends a request for a pane's `purpose` and returns its id: see
    /// [`Model::request`].
    pub fn request(&mut self, purpose: impl Into<Purpose>, req: super::ApiRequest) -> RequestId {
        if self.user_retry {
            return self.request_now(purpose, req);
        }
        let id = self.requests.open(purpose.into(), requests::Kind::Api);
        if let Some(settle) = req.settle() {
            self.requests.set_settle(id, settle);
        }
        self.outbox.push(Cmd::Api { id, req });
        id
    }

    /// Sends a request the user explicitly asked for again: see
    /// [`Model::request_now`].
    pub fn request_now(
        &mut self,
        purpose: impl Into<Purpose>,
        req: super::ApiRequest,
    ) -> RequestId {
        let id = self.requests.open(purpose.into(), requests::Kind::Api);
        if let Some(settle) = req.settle() {
            self.requests.set_settle(id, settle);
        }
        self.user_retries.insert(id);
        self.outbox.push(Cmd::Api { id, req });
        id
    }

    /// Takes the write whose lost answer is being handled (see
    /// [`Ctx::lost_entry`]).
    pub(super) fn take_lost_write(&mut self) -> Option<RequestId> {
        self.lost_write.take()
    }

    /// Whether request `id` is the user's explicit retry.
    pub fn is_user_retry(&self, id: RequestId) -> bool {
        self.user_retries.contains(&id)
    }

    /// A fresh id for a non-request effect (file checks and writes); its
    /// answer reaches the pane with the purpose, like a reply.
    pub fn effect(&mut self, purpose: impl Into<Purpose>) -> RequestId {
        self.requests.open(purpose.into(), requests::Kind::Effect)
    }

    /// Queues an effect that is not a request (it leaves with the
    /// handler's own).
    pub fn run(&mut self, cmd: Cmd) {
        self.outbox.push(cmd);
    }

    /// The screen layout for the current size.
    pub fn layout(&self) -> AppLayout {
        AppLayout::new(self.size, &tab_labels(self.size.0, self.shown))
    }

    /// Shows a notice.
    pub fn notify(&mut self, level: Level, title: &str, text: &str) {
        self.toasts.push(self.now, level, title, text);
        *self.redraw = true;
    }

    /// Shows a notice the user waits for and gets attention for it (the
    /// bell and a desktop notification, as `[notify]` configures).
    pub fn alert(&mut self, level: Level, title: &str, text: &str) {
        self.notify(level, title, text);
        self.outbox.push(Cmd::Notify {
            title: title.to_owned(),
            text: text.to_owned(),
        });
    }

    /// Says so when a box did not take a paste whole (`notice`: what
    /// [`Pasted::notice`](crate::text::sanitize::Pasted::notice) says).
    pub fn notify_paste(&mut self, notice: Option<String>) {
        if let Some(text) = notice {
            self.notify(Level::Warning, crate::text::sanitize::PASTE_CUT, &text);
        }
    }

    /// Asks a question; its answer reaches the pane the question names.
    pub fn confirm(&mut self, c: Confirm) {
        *self.overlay = Some(Overlay::Confirm(c));
        *self.redraw = true;
    }

    /// Whether a question (or another overlay) covers the pane.
    pub fn overlay_open(&self) -> bool {
        self.overlay.is_some()
    }

    /// Asks for the local state to be written when the handler returns,
    /// with every pane's unsent text captured.
    pub fn save_state(&mut self) {
        *self.save_due = true;
    }

    /// Whether unsent text put into `state.drafts` really reaches the disk
    /// (see [`Model::drafts_saved`]).
    pub fn drafts_saved(&self) -> bool {
        self.state_writable == Some(true)
    }

    /// Keeps a closed form's text as a local draft under `key`, asks for
    /// the state to be written and says so truthfully
    /// ([`Ctx::notify_draft_kept`]).
    pub fn keep_draft(&mut self, key: String, draft: Draft, what: &str, how_back: &str) {
        self.state.drafts.insert(key, draft);
        self.save_state();
        self.notify_draft_kept(what, how_back);
    }

    /// Tells the user that a closed editor's text was kept, truthfully:
    /// saved locally when saving works, else a warning that it lives only
    /// in this session (and is printed on quit).
    pub fn notify_draft_kept(&mut self, what: &str, how_back: &str) {
        if self.drafts_saved() {
            self.notify(
                Level::Info,
                super::DRAFT_KEPT,
                &format!("{what} is saved locally; {how_back}"),
            );
        } else {
            let why = self.store_error.as_ref().map_or_else(
                || "the local state file is not checked yet".into(),
                ToString::to_string,
            );
            self.notify(
                Level::Warning,
                "Draft kept in this session only",
                &format!("{what} cannot be saved ({why}); {how_back} while Outpost runs, and it is printed when you quit"),
            );
        }
    }

    /// The last-known lists of this workspace.
    pub fn cache(&self) -> &Cache {
        self.cache
    }

    /// Hands a pane's fresh list, read now, to the cache (the first
    /// [`cache::MAX_ITEMS`], trimmed); it is saved behind, and on quit.
    /// Build `fresh` with [`cache::Cached::of`] at `cx.clock`.
    pub fn cache_list<T: cache::Item>(
        &mut self,
        slot: fn(&mut Cache) -> &mut Option<cache::Cached<T>>,
        fresh: cache::Cached<T>,
    ) {
        let held = slot(self.cache);
        let changed = held.as_ref().is_none_or(|c| c.items != fresh.items);
        *held = Some(fresh);
        *self.cache_dirty |= changed;
        *self.cache_touched = true;
    }

    /// Hands one item read alone (a search's metadata, a campaign of the
    /// local registry) to its cached list.
    pub fn cache_item<T: cache::Item>(
        &mut self,
        slot: fn(&mut Cache) -> &mut Option<cache::Cached<T>>,
        item: &T,
    ) {
        let clock = self.clock;
        let held = slot(self.cache).get_or_insert_with(|| cache::Cached {
            as_of: clock,
            items: Vec::new(),
        });
        *self.cache_dirty |= held.put_one(item);
    }
}
