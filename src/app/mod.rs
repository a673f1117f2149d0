//! The pure core of the dashboard: the model, `update` and the subscriptions.
//! No tokio, no reqwest, no clock, no files: time arrives in `Model::now`
//! (set by the runtime before each update), results arrive as `Msg`s, and
//! effects leave as `Cmd`s.

// The panes: each is its own folder, listed once more in `with_panes!`
// (registry.rs), which generates everything else. Declared here, not by
// the registry, so every tool that follows `mod` lines (rustfmt) sees them.
pub(crate) mod campaigns;
pub(crate) mod domains;
pub(crate) mod inbox;
pub(crate) mod leads;
pub(crate) mod profile;

pub(crate) mod cache;
#[cfg(test)]
mod cache_tests;
#[cfg(test)]
mod chrome_tests;
pub(crate) mod cmd;
pub(crate) mod command_line;
pub(crate) mod ctx;
pub(crate) mod dialog;
pub(crate) mod fixed_keys;
/// Test fixtures: only in test builds (unit tests, or the `test-util`
/// feature the integration tests turn on), never in the release binary.
#[cfg(any(test, feature = "test-util"))]
pub mod fixtures;
pub(crate) mod form;
pub(crate) mod fresh;
pub(crate) mod help;
pub(crate) mod ids;
pub(crate) mod journal_view;
pub(crate) mod json_tree;
pub(crate) mod keymap;
pub(crate) mod live_filter;
pub(crate) mod lost_answer;
pub(crate) mod msg;
pub(crate) mod net;
pub(crate) mod notice_log;
pub(crate) mod pane;
pub(crate) mod path_complete;
pub(crate) mod picker;
pub(crate) mod read_only;
pub(crate) mod registry;
pub(crate) mod requests;
pub(crate) mod subscriptions;
pub(crate) mod table;
pub(crate) mod toast;
pub(crate) mod window;

use std::time::{Duration, Instant};

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

pub(crate) use cmd::{ApiRequest, Cmd, RequestId};
// The tests and fixtures name replies as `app::ApiReply`, like requests.
#[cfg(any(test, feature = "test-util"))]
pub(crate) use msg::ApiReply;
pub(crate) use msg::{Copied, Msg, Reply, Signal};
pub(crate) use net::{Load, NetStatus, Placeholder};
pub(crate) use subscriptions::{Sub, SubId, subscriptions};

use crate::app::keymap::{Action, Keymap, Scope};
use crate::config::PollIntervals;
use crate::config::theme::{ColourEnv, ThemeFile};
use crate::geometry::AppLayout;
use crate::store::{Draft, State, StoreError};
use command_line::{Command, CommandLine};
use dialog::Outcome;
use pane::Answer;
use registry::{define_panes, with_panes};
use requests::Requests;
use toast::{Level, Toasts};

with_panes!(define_panes);

impl Pane {
    /// Number key.
    pub fn number(self) -> u8 {
        self.spec().number
    }

    /// Tab title.
    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// Name kept in preferences.
    pub fn key(self) -> &'static str {
        self.spec().key
    }

    /// The keymap scope of the pane.
    pub fn scope(self) -> Scope {
        self.spec().scope
    }

    /// The label of its tab.
    pub fn tab_label(self) -> String {
        format!(" {} {} ", self.number(), self.title())
    }

    /// The pane a switch action names, if this build has it.
    pub fn for_action(action: Action) -> Option<Pane> {
        Pane::ALL
            .iter()
            .copied()
            .find(|p| p.spec().action == action)
    }

    fn from_key(key: &str) -> Option<Pane> {
        Pane::ALL.iter().copied().find(|p| p.key() == key)
    }
}

/// Hints for the status bar: `(action, label)` pairs the current view
/// uses, help first (it must survive the narrowest status bar).
pub(crate) fn hints(m: &Model) -> Vec<(Action, &'static str)> {
    let mut out = vec![(Action::Help, "help")];
    out.extend(dispatch::hints(m, m.pane));
    out
}

/// The tab labels for a screen `width` columns wide, in tab order: the
/// titles when they fit, else the short names, else the numbers with the
/// shown pane named, so every tab stays visible (and clickable) at the
/// smallest size.
pub(crate) fn tab_labels(width: u16, shown: Pane) -> Vec<String> {
    let fits = |labels: &[String]| {
        let used: usize = labels.iter().map(|l| l.chars().count() + 1).sum();
        used + crate::geometry::BRAND.chars().count() < usize::from(width)
    };
    let full: Vec<String> = Pane::ALL.iter().map(|p| p.tab_label()).collect();
    if fits(&full) {
        return full;
    }
    let short: Vec<String> = Pane::ALL
        .iter()
        .map(|p| format!(" {} {} ", p.number(), p.key()))
        .collect();
    if fits(&short) {
        return short;
    }
    let named: Vec<String> = Pane::ALL
        .iter()
        .map(|p| {
            if *p == shown {
                format!(" {} {} ", p.number(), p.key())
            } else {
                format!(" {} ", p.number())
            }
        })
        .collect();
    if fits(&named) {
        return named;
    }
    Pane::ALL
        .iter()
        .map(|p| format!(" {} ", p.number()))
        .collect()
}

/// How the status bar names the default workspace after `:profile`
/// switched back to it.
pub(crate) const DEFAULT_PROFILE: &str = "default";

/// Facts about the session the status bar shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// Host (and port) of the service.
    pub host: String,
    /// Running against the embedded demo service.
    pub demo: bool,
    /// The key, masked.
    pub masked_key: String,
    /// The service is on a loopback address.
    pub loopback: bool,
    /// Read-only mode: the client refuses every request but a read, so
    /// actions that would change the service are shown disabled.
    pub read_only: bool,
    /// `--read-only` was given: every profile of the session is read-only,
    /// whatever its own `read_only` says (the status bar names the flag).
    pub read_only_flag: bool,
    /// The workspace profile in use (`--profile`, `:profile NAME`);
    /// `None`: the default, unnamed at start and [`DEFAULT_PROFILE`] once
    /// `:profile` switched back to it.
    pub profile: Option<String>,
}

/// Unsent text the last save before leaving could not write: printed on
/// the restored terminal so it can be copied (see `runtime::launch`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsaved {
    /// Why it could not be saved.
    pub error: StoreError,
    /// The drafts that were not written, by editor key.
    pub drafts: Vec<(String, Draft)>,
}

/// A question before something that cannot be undone.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    /// The question, as the box's title.
    pub title: String,
    /// Explanation lines.
    pub lines: Vec<String>,
    /// Label of the yes button.
    pub yes: String,
    /// Label of an explicit no (`n`), when no does something of its own
    /// (e.g. "discard the draft"); `None`: `n` only closes the question,
    /// like Esc and `q`. Esc and `q` never choose no: they dismiss.
    pub no: Option<String>,
    /// Whether yes destroys or sends something (drawn in the error colour).
    pub destructive: bool,
    /// What yes does.
    pub on_yes: ConfirmAction,
}

/// What a confirmed dialog does.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfirmAction {
    /// Leave the dashboard.
    Quit,
    /// A pane's question, answered by the pane.
    Pane(PaneConfirm),
}

/// What covers the pane.
#[derive(Debug, Clone)]
pub enum Overlay {
    /// Help for the current pane.
    Help {
        /// Rows scrolled past at the top of the help.
        scroll: u16,
    },
    /// A yes/no question.
    Confirm(Confirm),
    /// The `:` command line (boxed: it holds a text area).
    Command(Box<CommandLine>),
    /// `:messages`: the recent notices, whole, newest first.
    Messages {
        /// Rows scrolled past at the top of the list.
        scroll: u16,
    },
    /// `:journal`: the write journal, newest first (boxed: it holds what
    /// was read).
    Journal(Box<journal_view::JournalView>),
}

/// The whole state of the dashboard.
#[derive(Debug)]
pub struct Model {
    /// Time of the message being handled (set by the runtime).
    pub now: Instant,
    /// Wall-clock time in unix seconds, for "3m ago" (set by the runtime).
    pub clock: i64,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// The pane shown.
    pub pane: Pane,
    /// Session facts.
    pub session: Session,
    /// Network activity.
    pub net: NetStatus,
    /// Toasts.
    pub toasts: Toasts,
    /// Help, confirm, messages or command line, over the pane.
    pub overlay: Option<Overlay>,
    /// Keys.
    pub keymap: Keymap,
    /// The configured theme (`[theme]`, layered); `ui` resolves it.
    pub theme: ThemeFile,
    /// What the terminal can show (NO_COLOR, truecolour).
    pub colour: ColourEnv,
    /// Poll intervals.
    pub poll: PollIntervals,
    /// Local state (known ids, drafts, preferences).
    pub state: State,
    /// Command-line history of this session.
    pub history: Vec<String>,
    /// Whether the local state can be saved: `None` until the store probe
    /// at start answers, then what the probe and every save found.
    pub state_writable: Option<bool>,
    /// Why the local state cannot be saved, while it cannot.
    pub store_error: Option<StoreError>,
    /// The local time zone's offset east of UTC in seconds (measured by the
    /// runtime at start), for wall-clock times such as "offline since".
    pub utc_offset: i32,
    /// Set by the runtime when the last save before leaving failed with
    /// unsent text in it; never read by `update`.
    pub unsaved_at_exit: Option<Unsaved>,
    /// While the user's Refresh (`r`, `:refresh`) is being handled: every
    /// request a pane sends then is the user's explicit retry.
    user_retry: bool,
    /// Requests marked as the user's explicit retries, not yet sent.
    user_retries: std::collections::BTreeSet<RequestId>,
    /// Requests and effects in flight, with their purposes.
    pub requests: Requests,
    /// Every pane's state.
    pub panes: Panes,
    /// The panes entered since the session (or profile) began, in order:
    /// the ones holding data to read again when the connection returns.
    entered: Vec<Pane>,
    /// The last-known lists of this workspace (see [`cache`]).
    pub cache: cache::Cache,
    /// A cached list changed since the cache was last saved (a save is
    /// due soon).
    cache_dirty: bool,
    /// Only the age of a cached list changed since the last save (saved
    /// on quit, not sooner).
    cache_touched: bool,
    /// Something visible changed since the last frame.
    pub redraw: bool,
    /// The runtime should leave.
    pub quit: bool,
    /// Effects queued by code rather than returned: every request
    /// ([`Model::request`]) and an alert from deep in a reply handler;
    /// `update` hands them out after its own.
    outbox: Vec<Cmd>,
    /// What handlers asked of the rest of the dashboard, not carried out
    /// yet ([`ctx::Intent`]).
    intents: Vec<ctx::Intent>,
    /// A handler asked for the state to be written ([`ctx::Ctx::save_state`]).
    save_due: bool,
    /// Typing went into a text box, a form or the command line since the
    /// last save: the state is written [`KEEP_TYPED_WITHIN`] after the
    /// first such key however fast the typing goes on, so a `kill -9`
    /// loses at most those seconds of any form (the Inbox editor keeps its
    /// own text on the same bound).
    typed_unsaved: bool,
    /// While a pane handles the reply of a write whose answer was lost:
    /// that write's request (see [`ctx::Ctx::lost_entry`]).
    lost_write: Option<RequestId>,
}

/// How long after the first key typed into a form its text is written to
/// the state file at the latest.
pub(crate) const KEEP_TYPED_WITHIN: Duration = Duration::from_secs(3);

impl Model {
    /// A model for a session; the first pane comes from the preferences.
    pub fn new(
        now: Instant,
        size: (u16, u16),
        session: Session,
        keymap: Keymap,
        state: State,
    ) -> Model {
        let pane = state
            .prefs
            .last_pane
            .as_deref()
            .and_then(Pane::from_key)
            .unwrap_or(Pane::ALL[0]);
        let poll = if session.loopback && session.demo {
            PollIntervals::DEMO
        } else {
            PollIntervals::REMOTE
        };
        let mut toasts = Toasts::default();
        toasts.set_retry_key(&keymap.key_label(Action::Refresh));
        Model {
            now,
            clock: 0,
            size,
            pane,
            session,
            net: NetStatus::default(),
            toasts,
            overlay: None,
            keymap,
            theme: ThemeFile::default(),
            colour: ColourEnv::default(),
            poll,
            state,
            history: Vec::new(),
            state_writable: None,
            store_error: None,
            utc_offset: 0,
            unsaved_at_exit: None,
            user_retry: false,
            user_retries: std::collections::BTreeSet::new(),
            requests: Requests::default(),
            panes: Panes::default(),
            entered: Vec::new(),
            cache: cache::Cache::default(),
            cache_dirty: false,
            cache_touched: false,
            redraw: true,
            quit: false,
            outbox: Vec::new(),
            intents: Vec::new(),
            save_due: false,
            typed_unsaved: false,
            lost_write: None,
        }
    }

    /// The first requests of the session (the open pane's data).
    pub fn start(&mut self) -> Vec<Cmd> {
        let mut cmds = self.enter_pane(self.pane);
        cmds.extend(self.carry_out());
        dispatch::sync_fresh(self);
        cmds.append(&mut self.outbox);
        cmds
    }

    /// Sends a request for a pane's `purpose`: records it in the request
    /// table and queues its command, which `update` hands to the runtime
    /// with its own (so a request cannot be recorded and never sent);
    /// returns its id. The reply reaches the pane with the purpose, unless
    /// the pane forgot it first. Sent while the pane handles the user's
    /// Refresh, it is an explicit retry, like [`Model::request_now`].
    pub fn request(&mut self, purpose: impl Into<Purpose>, req: ApiRequest) -> RequestId {
        self.ctx().request(purpose, req)
    }

    /// Sends a request the user explicitly asked for again. It goes out at
    /// once as one attempt, even while its route family is rate limited (a
    /// closed gate would otherwise hold it for up to a day), and is never
    /// re-sent by itself. The command is an ordinary `Cmd::Api`, queued
    /// like [`Model::request`]'s (so pane code and tests handle it as any
    /// other); its id is marked, and the runtime sends a marked id with
    /// `effects::spawn_retry` ([`Model::take_user_retry`]). The reply comes
    /// back like any other.
    ///
    /// A pane's Refresh action needs nothing more than `Model::request`:
    /// requests sent while it handles Refresh are sent this way. Call this
    /// for any other explicit "try again" (a retry button in a dialog).
    pub fn request_now(&mut self, purpose: impl Into<Purpose>, req: ApiRequest) -> RequestId {
        self.ctx().request_now(purpose, req)
    }

    /// The commands queued by [`Model::request`] and [`Model::alert`] since
    /// the last `update` (which hands them out itself): for code that drives
    /// a pane's functions directly, outside `update`.
    pub fn take_queued(&mut self) -> Vec<Cmd> {
        let carried = self.carry_out();
        let mut cmds = std::mem::take(&mut self.outbox);
        cmds.extend(carried);
        cmds
    }

    /// Whether request `id` is the user's explicit retry (see
    /// [`Model::request_now`]).
    pub fn is_user_retry(&self, id: RequestId) -> bool {
        self.user_retries.contains(&id)
    }

    /// For the runtime, when it sends request `id`: whether it is the
    /// user's explicit retry (the mark is taken off).
    pub fn take_user_retry(&mut self, id: RequestId) -> bool {
        self.user_retries.remove(&id)
    }

    /// Whether unsent text put into `state.drafts` really reaches the disk:
    /// the store probe or the last save said the state file can be written.
    /// No pane may say "Draft kept — saved locally" unless this holds; use
    /// [`Model::notify_draft_kept`], which words it either way.
    pub fn drafts_saved(&self) -> bool {
        self.state_writable == Some(true)
    }

    /// Whether text typed since the last save waits for it (the
    /// [`KEEP_TYPED_WITHIN`] timer runs).
    pub fn typed_unsaved(&self) -> bool {
        self.typed_unsaved
    }

    /// Tells the user that a closed editor's text was kept, truthfully:
    /// "Draft kept — `what` is saved locally; `how_back`" when saving
    /// works, else a warning that it lives only in this session (and is
    /// printed on quit). Call it after putting the draft into `state.drafts`
    /// and asking for [`Model::save_state`].
    pub fn notify_draft_kept(&mut self, what: &str, how_back: &str) {
        self.ctx().notify_draft_kept(what, how_back);
    }

    /// A fresh id for a non-request effect (file checks and writes); its
    /// answer reaches the pane with the purpose, like a reply.
    pub fn effect(&mut self, purpose: impl Into<Purpose>) -> RequestId {
        self.ctx().effect(purpose)
    }

    /// The screen layout for the current size.
    pub fn layout(&self) -> AppLayout {
        AppLayout::new(self.size, &tab_labels(self.size.0, self.pane))
    }

    /// An overlay or a pane's dialog is open: toasts wait (they would sit
    /// over the question being asked).
    pub fn dialog_open(&self) -> bool {
        self.overlay.is_some() || dispatch::modal(self, self.pane)
    }

    /// Says so when a box did not take a paste whole (`notice`: what
    /// [`Pasted::notice`](crate::text::sanitize::Pasted::notice) says; the
    /// text it took is the paste's start, with nothing added).
    pub fn notify_paste(&mut self, notice: Option<String>) {
        self.ctx().notify_paste(notice);
    }

    /// Shows a notice.
    pub fn notify(&mut self, level: Level, title: &str, text: &str) {
        self.ctx().notify(level, title, text);
    }

    /// Shows a notice the user waits for (a watched domain verified or
    /// failed, a run completed, a reply arrived) and gets attention for it:
    /// the bell and a desktop notification, as `[notify]` configures.
    pub fn alert(&mut self, level: Level, title: &str, text: &str) {
        self.ctx().alert(level, title, text);
    }

    /// Whether a countdown is on screen (it needs a one-second tick): any
    /// route family rate limited, or a pane's own.
    pub fn countdown_visible(&self) -> bool {
        self.net.any_rate_limited(self.now) || dispatch::countdown_visible(self, self.pane)
    }

    /// Whether something typed and unsent would be lost by quitting: an
    /// open editor's text, or (while the state file cannot be written)
    /// drafts already closed into `state.drafts`.
    pub fn unsent(&self) -> Option<String> {
        dispatch::unsent(self)
            .or_else(|| match &self.overlay {
                Some(Overlay::Command(c)) if !c.text().trim().is_empty() => {
                    Some("the command line".into())
                }
                _ => None,
            })
            .or_else(|| self.unsaved_drafts())
    }

    /// The closed drafts the state file cannot hold, said for the quit
    /// question; `None` while saving works (they are on disk).
    fn unsaved_drafts(&self) -> Option<String> {
        if self.state_writable != Some(false) {
            return None;
        }
        match Self::drafts_in(&self.state).as_slice() {
            [] => None,
            [(_, d)] => Some(format!(
                "a closed draft ({})",
                crate::text::sanitize::DisplayText::inline(&d.title)
            )),
            more => Some(format!("{} closed drafts", more.len())),
        }
    }

    /// A command that writes the local state, with unsent text captured.
    pub fn save_state(&mut self) -> Cmd {
        self.save_due = false;
        self.typed_unsaved = false;
        let mut state = std::mem::take(&mut self.state);
        dispatch::capture_drafts(self, &mut state);
        self.state = state;
        if let Some(Overlay::Command(c)) = &self.overlay {
            let text = c.text();
            if !text.trim().is_empty() {
                self.state.drafts.insert(
                    COMMAND_DRAFT.into(),
                    crate::store::Draft {
                        title: "command line".into(),
                        fields: [("text".to_owned(), text)].into(),
                    },
                );
            }
        }
        self.state.prefs.last_pane = Some(self.pane.key().to_owned());
        Cmd::SaveState(Box::new(self.state.clone()))
    }

    /// Shows the last-known lists of `cache` (read at start, or with a
    /// switched-to profile) in every pane that has none of its own yet,
    /// marked stale until the service answers.
    pub fn adopt_cache(&mut self, cache: cache::Cache) {
        self.cache = cache.without_empty();
        self.cache_dirty = false;
        self.cache_touched = false;
        dispatch::from_cache(self);
        // Taken outside `update` at start: the lists it shows say at once
        // whether they are polled.
        dispatch::sync_fresh(self);
        self.redraw = true;
    }

    /// Hands a pane's fresh list, read now, to the cache (the first
    /// [`cache::MAX_ITEMS`], trimmed); it is saved behind, and on quit.
    /// Build `fresh` with [`cache::Cached::of`] at `m.clock`.
    pub fn cache_list<T: cache::Item>(
        &mut self,
        slot: fn(&mut cache::Cache) -> &mut Option<cache::Cached<T>>,
        fresh: cache::Cached<T>,
    ) {
        self.ctx().cache_list(slot, fresh);
    }

    /// Hands one item read alone (a search's metadata, a campaign of the
    /// local registry) to its cached list.
    pub fn cache_item<T: cache::Item>(
        &mut self,
        slot: fn(&mut cache::Cache) -> &mut Option<cache::Cached<T>>,
        item: &T,
    ) {
        self.ctx().cache_item(slot, item);
    }

    /// Whether a cached list changed and is not saved yet (the debounced
    /// save is due).
    pub fn cache_due(&self) -> bool {
        self.cache_dirty
    }

    /// The command that writes the cache: when a list changed, or (`all`,
    /// on quit and before a profile switch) when only its age did.
    fn save_cache(&mut self, all: bool) -> Option<Cmd> {
        if !(self.cache_dirty || all && self.cache_touched) {
            return None;
        }
        self.cache_dirty = false;
        self.cache_touched = false;
        self.cache.v = cache::CACHE_VERSION;
        self.cache.host.clone_from(&self.session.host);
        Some(Cmd::SaveCache(Box::new(self.cache.clone())))
    }

    /// Shows `pane` (leaving the one shown); nothing when it is shown.
    pub fn switch_pane(&mut self, pane: Pane) -> Vec<Cmd> {
        if pane == self.pane {
            return Vec::new();
        }
        dispatch::leave(self, self.pane);
        self.pane = pane;
        self.redraw = true;
        self.enter_pane(pane)
    }

    fn enter_pane(&mut self, pane: Pane) -> Vec<Cmd> {
        if !self.entered.contains(&pane) {
            self.entered.push(pane);
        }
        dispatch::enter(self, pane)
    }

    /// Opens another workspace profile (`:profile NAME`): this one's
    /// unsent text is saved to its own state file first; when that cannot
    /// be written, the switch waits (nothing typed is dropped).
    pub fn open_profile(&mut self, name: Option<String>) -> Vec<Cmd> {
        if self.unsent().is_some() && !self.drafts_saved() {
            self.notify(
                Level::Warning,
                "Profile not switched",
                "unsent text here cannot be saved (the state file cannot be written); send or discard it first",
            );
            return Vec::new();
        }
        let shown = name.clone().unwrap_or_else(|| DEFAULT_PROFILE.into());
        self.notify(Level::Info, "Opening profile", &shown);
        let mut cmds = vec![self.save_state()];
        cmds.extend(self.save_cache(true));
        cmds.push(Cmd::SwitchProfile(name));
        cmds
    }

    /// Another profile is open: every pane starts afresh on its service and
    /// state; replies still on their way from the old one are dropped.
    fn on_profile_opened(&mut self, opened: msg::OpenedProfile) -> Vec<Cmd> {
        let msg::OpenedProfile {
            mut session,
            state,
            poll,
            notices,
            cache,
        } = opened;
        // Back on the default workspace after a switch: the status bar
        // names it, as it named the profile switched from.
        let name = session
            .profile
            .get_or_insert_with(|| DEFAULT_PROFILE.into())
            .clone();
        self.session = session;
        self.state = state;
        self.poll = poll;
        self.requests.forget_all();
        self.panes = Panes::default();
        self.entered.clear();
        self.adopt_cache(cache);
        self.overlay = None;
        self.net = net::NetStatus::default();
        self.notify(
            Level::Success,
            "Profile",
            &format!("{name}: {}", self.session.host),
        );
        for n in notices {
            self.notify(Level::Warning, "notice", &n);
        }
        self.redraw = true;
        let pane = self.pane;
        self.enter_pane(pane)
    }

    /// Asks a question; `on_yes` is answered by its pane.
    pub fn confirm(&mut self, c: Confirm) {
        self.ctx().confirm(c);
    }

    fn cycle_pane(&mut self, forward: bool) -> Vec<Cmd> {
        let built = Pane::ALL;
        let i = built.iter().position(|p| *p == self.pane).unwrap_or(0);
        let n = built.len();
        let next = if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        };
        self.switch_pane(built[next])
    }

    fn quit_now(&mut self) -> Vec<Cmd> {
        self.quit = true;
        let mut cmds = vec![self.save_state()];
        cmds.extend(self.save_cache(true));
        cmds.push(Cmd::Quit);
        cmds
    }

    /// `q`: quits at once when nothing typed would be lost; else asks,
    /// and when the state cannot be saved says so and stays unless told.
    fn ask_quit(&mut self) -> Vec<Cmd> {
        let Some(what) = self.unsent() else {
            return self.ask_quit_while_checking();
        };
        let question = if self.drafts_saved() {
            Confirm {
                title: "Quit?".into(),
                lines: vec![
                    format!("You have unsent text in {what}."),
                    "It is kept in the local state file and offered back next time.".into(),
                ],
                yes: "Quit".into(),
                no: None,
                destructive: false,
                on_yes: ConfirmAction::Quit,
            }
        } else {
            let why = self.store_error.as_ref().map_or_else(
                || "the local state file could not be checked yet".into(),
                ToString::to_string,
            );
            Confirm {
                title: "Quit and lose unsent text?".into(),
                lines: vec![
                    format!("You have unsent text in {what}, and it cannot be saved:"),
                    why,
                    "If you quit, it is printed to the terminal so you can copy it.".into(),
                ],
                yes: "Quit anyway".into(),
                no: None,
                destructive: true,
                on_yes: ConfirmAction::Quit,
            }
        };
        self.confirm(question);
        Vec::new()
    }

    /// `q` with nothing unsent: quits at once unless a write whose answer
    /// may have reached is still being checked — quitting stops the check
    /// before it can say whether the write landed, so it asks.
    fn ask_quit_while_checking(&mut self) -> Vec<Cmd> {
        let checking = dispatch::checking(self);
        if checking.is_empty() {
            return self.quit_now();
        }
        let mut lines = vec![
            "These may have reached the service, and Outpost is still checking whether they did:"
                .to_owned(),
        ];
        lines.extend(checking.iter().map(|w| format!("  · {w}")));
        lines.push(
            "If you quit now, the check stops: sends are checked again at the next start; for the rest, look in the web dashboard before doing any of them again."
                .to_owned(),
        );
        self.confirm(Confirm {
            title: "Quit while checking?".into(),
            lines,
            yes: "Quit".into(),
            no: None,
            destructive: true,
            on_yes: ConfirmAction::Quit,
        });
        Vec::new()
    }

    /// Every unsent draft in the state (for printing what a failed save
    /// would lose).
    pub fn drafts_in(state: &State) -> Vec<(String, Draft)> {
        state
            .drafts
            .iter()
            .filter(|(_, d)| d.fields.values().any(|v| !v.trim().is_empty()))
            .map(|(k, d)| (k.clone(), d.clone()))
            .collect()
    }

    fn on_saved(&mut self, result: Result<(), StoreError>) {
        match result {
            Ok(()) => {
                if self.state_writable == Some(false) {
                    self.notify(
                        Level::Success,
                        "local state saved",
                        "drafts are kept on disk again",
                    );
                }
                self.state_writable = Some(true);
                self.store_error = None;
            }
            Err(e) => {
                // A "Draft kept" just shown was not: take it back.
                self.toasts.retract(DRAFT_KEPT);
                self.notify(
                    Level::Warning,
                    "local state not saved",
                    &format!("{e}; unsent text is kept only while Outpost runs, and printed when you quit"),
                );
                self.state_writable = Some(false);
                self.store_error = Some(e);
            }
        }
    }

    fn on_probed(&mut self, result: Result<(), StoreError>) {
        match result {
            Ok(()) => {
                // A save that failed since is the fresher news.
                if self.store_error.is_none() {
                    self.state_writable = Some(true);
                }
            }
            Err(e) => {
                self.notify(
                    Level::Warning,
                    "local state cannot be saved",
                    &format!("{e}; drafts will be kept only while Outpost runs"),
                );
                self.state_writable = Some(false);
                self.store_error = Some(e);
            }
        }
    }
}

/// The title of the "Draft kept" notice (taken back if the save fails).
const DRAFT_KEPT: &str = "Draft kept";

/// The draft key of text left in the command line.
const COMMAND_DRAFT: &str = "command-line";

/// Handles one message; returns the effects to run. Whatever the message
/// changed, every pane's freshness is then put in step with its polls
/// ([`PaneUnit::sync_fresh`](pane::PaneUnit::sync_fresh)), the one place
/// that happens.
pub fn update(m: &mut Model, msg: Msg) -> Vec<Cmd> {
    let mut cmds = handle(m, msg);
    cmds.extend(m.carry_out());
    dispatch::sync_fresh(m);
    cmds.append(&mut m.outbox);
    cmds
}

impl Model {
    /// Says where a copied text went (the tmux buffer, the terminal's
    /// clipboard) or why it may be nowhere.
    fn on_copied(&mut self, result: Result<Copied, String>) {
        let what = |c: &Copied| {
            c.what
                .clone()
                .unwrap_or_else(|| format!("{} characters", c.chars))
        };
        match result {
            Ok(c @ Copied { tmux: None, .. }) => self.notify(
                Level::Success,
                "Copied",
                &format!("{} copied to the clipboard (OSC 52)", what(&c)),
            ),
            Ok(
                c @ Copied {
                    tmux: Some(Ok(())),
                    ..
                },
            ) => self.notify(
                Level::Success,
                "Copied",
                &format!(
                    "{} copied to the tmux buffer (prefix ] pastes) and to the terminal's clipboard (OSC 52)",
                    what(&c)
                ),
            ),
            // Said as a warning: tmux's default keeps an application's
            // OSC 52 from the outer terminal, so the text may be nowhere.
            Ok(
                ref c @ Copied {
                    tmux: Some(Err(ref e)),
                    ..
                },
            ) => self.notify(
                Level::Warning,
                "Copy may not have landed",
                &format!(
                    "{} sent by OSC 52, which tmux may not pass on; loading the tmux buffer failed: {e}",
                    what(c)
                ),
            ),
            Err(e) => self.notify(Level::Error, "copy failed", &e),
        }
    }
}

/// One message, by kind.
fn handle(m: &mut Model, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Key(key) if key.kind == KeyEventKind::Release => Vec::new(),
        Msg::Key(key) => on_key(m, key),
        Msg::Mouse(ev) => on_mouse(m, ev),
        Msg::Paste(text) => on_paste(m, &text),
        Msg::Resize(w, h) => {
            m.size = (w, h);
            m.redraw = true;
            dispatch::resize(m)
        }
        Msg::Api { id, latency, reply } => {
            m.net.last_latency = Some(latency);
            m.redraw = true;
            on_reply(m, id, Reply::Api(*reply))
        }
        // Both change what a pane shows (or ask to replace the file): the
        // frame must be drawn again, or the question stays unseen.
        Msg::PathChecked { id, exists } => {
            m.redraw = true;
            on_reply(m, id, Reply::PathChecked(exists))
        }
        Msg::FileWritten { id, result } => {
            m.redraw = true;
            on_reply(m, id, Reply::FileWritten(result))
        }
        Msg::DirListed { id, listing } => {
            m.redraw = true;
            on_reply(m, id, Reply::DirListed(listing))
        }
        Msg::CsvRead { id, result } => {
            m.redraw = true;
            on_reply(m, id, Reply::Csv(result))
        }
        Msg::DnsResolved { id, answers } => {
            m.redraw = true;
            on_reply(m, id, Reply::Dns(answers))
        }
        Msg::SubFired(sub) => on_sub(m, sub),
        Msg::RateLimit(limits) => {
            m.net.limits = limits;
            m.redraw = true;
            Vec::new()
        }
        // Shown at once, while the client's retries go on behind.
        Msg::Connection(state) => {
            let back = m.net.conn.is_offline() && !state.is_offline();
            m.redraw = m.redraw || m.net.conn != state;
            m.net.conn = state;
            if back { m.reconnected() } else { Vec::new() }
        }
        Msg::Copied(result) => {
            m.on_copied(result);
            Vec::new()
        }
        Msg::Saved(result) => {
            m.on_saved(result);
            Vec::new()
        }
        Msg::StoreProbed(result) => {
            m.on_probed(result);
            Vec::new()
        }
        Msg::ProfileOpened(opened) => m.on_profile_opened(*opened),
        Msg::ProfileFailed(why) => {
            m.notify(Level::Error, "profile not opened", &why);
            Vec::new()
        }
        Msg::Signal(_) => m.quit_now(),
        Msg::Resumed => {
            m.redraw = true;
            Vec::new()
        }
        Msg::SuspendFailed(why) => {
            m.notify(Level::Warning, "cannot suspend", &why);
            Vec::new()
        }
        Msg::JournalRead(reading) => {
            journal_view::on_read(m, *reading);
            Vec::new()
        }
    }
}

/// Pasted text goes to the open command line or the pane's text box.
fn on_paste(m: &mut Model, text: &str) -> Vec<Cmd> {
    // Nothing to paste into is visible on the "too small" screen.
    if m.layout().too_small {
        return Vec::new();
    }
    m.redraw = true;
    m.typed_unsaved = true;
    match &mut m.overlay {
        Some(Overlay::Command(c)) => {
            c.input.insert_str(text.replace(['\n', '\r'], " "));
            Vec::new()
        }
        Some(Overlay::Journal(j)) => {
            journal_view::paste(j, text);
            Vec::new()
        }
        Some(_) => Vec::new(),
        None => dispatch::paste(m, m.pane, text),
    }
}

/// A timer: a pane's poller, the countdown tick, toast expiry.
fn on_sub(m: &mut Model, sub: SubId) -> Vec<Cmd> {
    match sub {
        SubId::Pane(sub) => dispatch::sub_fired(m, sub),
        SubId::Countdown => {
            m.redraw = true;
            Vec::new()
        }
        SubId::Toasts => {
            if m.toasts.expire(m.now) {
                m.redraw = true;
            }
            Vec::new()
        }
        SubId::CacheSave => m.save_cache(false).into_iter().collect(),
        SubId::KeepTyped if m.typed_unsaved => vec![m.save_state()],
        SubId::Reconnect if m.net.conn.is_offline() => vec![Cmd::ProbeConnection],
        SubId::KeepTyped | SubId::Reconnect => Vec::new(),
    }
}

/// Hands a reply to the pane that asked, with its purpose; a reply the
/// pane forgot is dropped here, the one place that happens. A write whose
/// answer was lost is where its journal verdict begins
/// ([`lost_answer::lost_reply`]).
fn on_reply(m: &mut Model, id: RequestId, reply: Reply) -> Vec<Cmd> {
    let settle = m.requests.settle_of(id);
    let Some(purpose) = m.requests.take(id) else {
        return Vec::new();
    };
    let (lost_write, mut cmds) = lost_answer::lost_reply(id, settle, &reply);
    m.lost_write = lost_write;
    cmds.extend(dispatch::reply(m, id, purpose, reply));
    // The pane keeps no check of this lost write: its verdict says so.
    if let Some(write) = m.lost_write.take() {
        cmds.push(Cmd::JournalVerdict {
            write,
            verdict: crate::logic::write::Verdict::NoCheck(lost_answer::NOT_CHECKED.into()),
        });
    }
    cmds
}

fn on_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    // Escape hatches first: Ctrl-C quits and Ctrl-Z suspends, even inside a
    // text box (whose text is saved first either way).
    if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
        return m.quit_now();
    }
    if key.modifiers.contains(KeyModifiers::CONTROL)
        && m.keymap.action(Scope::Global, &key) == Some(Action::Suspend)
    {
        return vec![m.save_state(), Cmd::Suspend];
    }
    // The "too small" screen hides the pane: its keys must not reach a
    // text box or a list nobody can see.
    if m.layout().too_small {
        return too_small_key(m, key);
    }
    if m.overlay.is_some() {
        m.redraw = true;
        m.typed_unsaved |= matches!(m.overlay, Some(Overlay::Command(_)));
        return on_overlay_key(m, key);
    }
    // A focused text box (dialog, form, filter) sees the key before the keymap.
    if let Some(cmds) = dispatch::text_key(m, m.pane, key) {
        m.redraw = true;
        m.typed_unsaved = true;
        return cmds;
    }
    // An unbound key changes nothing, so it draws nothing.
    let Some(action) = m.keymap.action(m.pane.scope(), &key) else {
        return Vec::new();
    };
    m.redraw = true;
    on_action(m, action)
}

/// A key while the terminal is too small: quit works (asking first when
/// something unsent would be lost, the question drawn on that screen), an
/// open question can be answered; nothing else happens.
fn too_small_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    if matches!(m.overlay, Some(Overlay::Confirm(_))) {
        m.redraw = true;
        return on_overlay_key(m, key);
    }
    match m.keymap.action(Scope::Global, &key) {
        Some(Action::Quit) => {
            m.redraw = true;
            m.ask_quit()
        }
        Some(Action::ForceQuit) => m.quit_now(),
        _ => Vec::new(),
    }
}

fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    if m.session.read_only && action.writes() {
        m.notify(Level::Warning, "Disabled", read_only::REASON);
        return Vec::new();
    }
    if Action::PANE_SWITCHES.contains(&action) {
        return Pane::for_action(action).map_or_else(Vec::new, |p| m.switch_pane(p));
    }
    match action {
        // The user's explicit retry: what the pane sends now skips a closed
        // rate-limit gate, once.
        Action::Refresh => {
            m.user_retry = true;
            let cmds = dispatch::action(m, m.pane, action);
            m.user_retry = false;
            cmds
        }
        Action::Quit => m.ask_quit(),
        Action::ForceQuit => m.quit_now(),
        Action::Suspend => vec![m.save_state(), Cmd::Suspend],
        Action::NextPane => m.cycle_pane(true),
        Action::PrevPane => m.cycle_pane(false),
        Action::Help => {
            m.overlay = Some(Overlay::Help { scroll: 0 });
            Vec::new()
        }
        Action::CommandLine => {
            let mut c = CommandLine {
                args: open_args(m),
                ..CommandLine::default()
            };
            // Text left in the command line at the last exit comes back.
            if let Some(d) = m.state.drafts.remove(COMMAND_DRAFT)
                && let Some(text) = d.fields.get("text")
            {
                c.set_text(text);
            }
            m.overlay = Some(Overlay::Command(Box::new(c)));
            Vec::new()
        }
        // A dialog keeps its keys; otherwise the pane says what is shown.
        Action::CopyId if !dispatch::modal(m, m.pane) => {
            let shown = dispatch::id_shown(m, m.pane);
            ids::copy(m, shown)
        }
        other => dispatch::action(m, m.pane, other),
    }
}

/// What each `:open KIND` completes from: the lists the panes hold.
fn open_args(m: &Model) -> Vec<(&'static str, Vec<crate::logic::resolve::Item>)> {
    vec![
        ("open campaign", campaigns::open_items(&m.panes.campaigns)),
        ("open search", leads::open_items(&m.panes.leads)),
        ("open thread", inbox::open_items(&m.panes.inbox)),
    ]
}

/// A key for the overlay, which is edited in place; what it asks for is
/// carried out once it is closed.
fn on_overlay_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    if matches!(m.overlay, Some(Overlay::Journal(_)))
        && let Some(Overlay::Journal(mut j)) = m.overlay.take()
    {
        let done = journal_view::key(m, &mut j, key);
        m.overlay = Some(Overlay::Journal(j));
        return match done {
            journal_view::Done::Keep => Vec::new(),
            journal_view::Done::Close => {
                m.overlay = None;
                Vec::new()
            }
            journal_view::Done::Reload => vec![Cmd::ReadJournal],
            journal_view::Done::Open(cmd) => {
                m.overlay = None;
                run_command(m, cmd)
            }
        };
    }
    let action = m.keymap.action(m.pane.scope(), &key);
    let help_max = match &m.overlay {
        Some(Overlay::Messages { .. }) => notice_log::scroll_max(m),
        _ => help::scroll_max(m),
    };
    let Some(overlay) = m.overlay.as_mut() else {
        return Vec::new();
    };
    let outcome = match overlay {
        Overlay::Help { scroll } | Overlay::Messages { scroll } => {
            help_key(scroll, action, help_max).map(|()| OverlayDone::Nothing)
        }
        Overlay::Confirm(c) => confirm_key(c, key).map(OverlayDone::Answered),
        Overlay::Command(c) => command_key(c, key, &m.history).map(OverlayDone::Command),
        // Handled above, before the overlay is borrowed.
        Overlay::Journal(_) => Outcome::Keep,
    };
    match outcome {
        Outcome::Keep => Vec::new(),
        Outcome::Close => {
            m.overlay = None;
            Vec::new()
        }
        Outcome::Act(done) => {
            let overlay = m.overlay.take();
            match (done, overlay) {
                (OverlayDone::Answered(answer), Some(Overlay::Confirm(c))) => match c.on_yes {
                    ConfirmAction::Quit if answer == Answer::Yes => m.quit_now(),
                    ConfirmAction::Quit => Vec::new(),
                    ConfirmAction::Pane(what) => dispatch::answered(m, what, answer),
                },
                (OverlayDone::Command((text, cmd)), _) => {
                    if m.history.last() != Some(&text) {
                        m.history.push(text);
                    }
                    run_command(m, cmd)
                }
                _ => Vec::new(),
            }
        }
    }
}

/// What a closed overlay asks for.
enum OverlayDone {
    /// Nothing more.
    Nothing,
    /// A question was answered.
    Answered(Answer),
    /// A command line was entered (its text, and the command).
    Command((String, Command)),
}

/// Help scrolls with the movement keys; any other key closes it.
fn help_key(scroll: &mut u16, action: Option<Action>, max: u16) -> Outcome<()> {
    *scroll = match action {
        Some(Action::Down) => scroll.saturating_add(1),
        Some(Action::Up) => scroll.saturating_sub(1),
        Some(Action::PageDown) => scroll.saturating_add(10),
        Some(Action::PageUp) => scroll.saturating_sub(10),
        Some(Action::Top) => 0,
        Some(Action::Bottom) => max,
        _ => return Outcome::Close,
    }
    .min(max);
    Outcome::Keep
}

/// A key answers the question by the keys its footer names
/// ([`fixed_keys::question`]); any other key is ignored.
fn confirm_key(c: &Confirm, key: KeyEvent) -> Outcome<Answer> {
    fixed_keys::question(c)
        .into_iter()
        .find(|k| k.key.matches(&key))
        .map_or(Outcome::Keep, |k| Outcome::Act(k.answer))
}

fn command_key(
    c: &mut CommandLine,
    key: KeyEvent,
    history: &[String],
) -> Outcome<(String, Command)> {
    use command_line::LineKey;
    match command_line::line_key(&key) {
        Some(LineKey::Close) => Outcome::Close,
        Some(LineKey::Run) => {
            let text = c.text();
            match command_line::parse(&text) {
                Ok(cmd) => Outcome::Act((text, cmd)),
                Err(e) => {
                    c.error = Some(e);
                    Outcome::Keep
                }
            }
        }
        Some(LineKey::Complete) => {
            c.complete();
            Outcome::Keep
        }
        Some(back @ (LineKey::Older | LineKey::Newer)) => {
            c.recall(history, back == LineKey::Older);
            Outcome::Keep
        }
        None => {
            c.error = None;
            form::edit_key(&mut c.input, key);
            Outcome::Keep
        }
    }
}

fn run_command(m: &mut Model, cmd: Command) -> Vec<Cmd> {
    match cmd {
        Command::Quit => m.ask_quit(),
        Command::ForceQuit => m.quit_now(),
        Command::Help => {
            m.overlay = Some(Overlay::Help { scroll: 0 });
            Vec::new()
        }
        Command::Messages => {
            m.overlay = Some(Overlay::Messages { scroll: 0 });
            Vec::new()
        }
        Command::Journal => journal_view::open(m),
        Command::Pane(p) => m.switch_pane(p),
        Command::Profile(name) => m.open_profile(name),
        Command::Refresh => on_action(m, Action::Refresh),
        Command::Of { name, .. } if m.session.read_only && read_only::command_writes(name) => {
            m.notify(
                Level::Warning,
                "Disabled",
                &format!(":{name}: {}", read_only::REASON),
            );
            Vec::new()
        }
        Command::Of { pane, name, arg } => {
            let mut cmds = m.switch_pane(pane);
            cmds.extend(dispatch::command(m, pane, name, arg));
            cmds
        }
    }
}

fn on_mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
    let layout = m.layout();
    if layout.too_small || m.overlay.is_some() {
        return Vec::new();
    }
    // Clicks and the wheel change what is shown; bare motion does not.
    if matches!(
        ev.kind,
        MouseEventKind::Down(_) | MouseEventKind::ScrollDown | MouseEventKind::ScrollUp
    ) {
        m.redraw = true;
    }
    match ev.kind {
        MouseEventKind::Down(MouseButton::Left) if ev.row == layout.tabs.y => {
            // A modal dialog keeps the focus, as it does for the keyboard
            // (1-5 and Tab go to it): leaving the pane under it would let a
            // command reach a job it holds.
            if dispatch::modal(m, m.pane) {
                return Vec::new();
            }
            match layout.tab_at(ev.column).and_then(|i| Pane::ALL.get(i)) {
                Some(pane) => m.switch_pane(*pane),
                None => Vec::new(),
            }
        }
        _ => dispatch::mouse(m, m.pane, ev),
    }
}
