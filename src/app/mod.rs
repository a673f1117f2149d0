//! The pure core of the dashboard: the model, `update` and the subscriptions.
//! No tokio, no reqwest, no clock, no files: time arrives in `Model::now`
//! (set by the runtime before each update), results arrive as `Msg`s, and
//! effects leave as `Cmd`s.

pub mod cmd;
pub mod command_line;
pub mod domains;
#[doc(hidden)]
pub mod fixtures;
pub mod form;
pub mod json_tree;
pub mod leads;
pub mod msg;
pub mod subscriptions;
pub mod table;
pub mod toast;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

pub use cmd::{ApiRequest, Cmd, RequestId};
pub use msg::{ApiReply, Msg, Signal};
pub use subscriptions::{Sub, SubId, subscriptions};

use crate::config::keymap::{Action, Keymap, Scope};
use crate::config::{PollIntervals, ThemeName};
use crate::store::State;
use crate::ui::layout::AppLayout;
use command_line::{Command, CommandLine};
use toast::{Level, Toasts};

/// The panes, numbered as DESIGN.md numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    /// 1: searches, results, enrichment.
    Leads,
    /// 2: campaigns.
    Campaigns,
    /// 3: inbox.
    Inbox,
    /// 4: senders and sending domains.
    Domains,
    /// 5: company profile.
    Profile,
}

impl Pane {
    /// The panes this build has, in tab order. The others keep their numbers
    /// for when they arrive, but get no tab.
    pub const BUILT: [Pane; 2] = [Pane::Leads, Pane::Domains];

    /// Key number.
    pub fn number(self) -> u8 {
        match self {
            Pane::Leads => 1,
            Pane::Campaigns => 2,
            Pane::Inbox => 3,
            Pane::Domains => 4,
            Pane::Profile => 5,
        }
    }

    /// Tab title.
    pub fn title(self) -> &'static str {
        match self {
            Pane::Leads => "Leads",
            Pane::Campaigns => "Campaigns",
            Pane::Inbox => "Inbox",
            Pane::Domains => "Senders & Domains",
            Pane::Profile => "Profile",
        }
    }

    /// Name kept in preferences.
    pub fn key(self) -> &'static str {
        match self {
            Pane::Leads => "leads",
            Pane::Campaigns => "campaigns",
            Pane::Inbox => "inbox",
            Pane::Domains => "domains",
            Pane::Profile => "profile",
        }
    }

    /// The keymap scope of the pane.
    pub fn scope(self) -> Scope {
        match self {
            Pane::Domains => Scope::Domains,
            _ => Scope::Leads,
        }
    }

    fn from_key(key: &str) -> Option<Pane> {
        Pane::BUILT.into_iter().find(|p| p.key() == key)
    }
}

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
}

/// Network activity for the status bar.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetStatus {
    /// Requests sent and not yet answered.
    pub in_flight: usize,
    /// Latency of the last answer.
    pub last_latency: Option<Duration>,
    /// While a 429 is being waited out: when calls resume.
    pub rate_limited_until: Option<Instant>,
}

/// Who is waiting for a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The Senders & Domains pane.
    Domains,
    /// The Leads pane.
    Leads,
}

/// A question before something that cannot be undone.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    /// Title.
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
    /// A Leads pane action.
    Leads(leads::Confirmed),
}

/// What covers the pane.
#[derive(Debug, Clone)]
pub enum Overlay {
    /// Help for the current pane.
    Help {
        /// Scroll offset.
        scroll: u16,
    },
    /// A yes/no question.
    Confirm(Confirm),
    /// The `:` command line (boxed: it holds a text area).
    Command(Box<CommandLine>),
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
    /// Help, confirm or command line, over the pane.
    pub overlay: Option<Overlay>,
    /// Keys.
    pub keymap: Keymap,
    /// Theme.
    pub theme: ThemeName,
    /// Poll intervals.
    pub poll: PollIntervals,
    /// Local state (known ids, drafts, preferences).
    pub state: State,
    /// Command-line history of this session.
    pub history: Vec<String>,
    /// Who awaits each reply.
    pub owners: BTreeMap<RequestId, Owner>,
    /// The Senders & Domains pane.
    pub domains: domains::DomainsModel,
    /// The Leads pane.
    pub leads: leads::LeadsModel,
    /// Something visible changed since the last frame.
    pub redraw: bool,
    /// The runtime should leave.
    pub quit: bool,
    next_request: u64,
}

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
            .unwrap_or(Pane::Leads);
        let poll = if session.loopback && session.demo {
            PollIntervals::DEMO
        } else {
            PollIntervals::REMOTE
        };
        Model {
            now,
            clock: 0,
            size,
            pane,
            session,
            net: NetStatus::default(),
            toasts: Toasts::default(),
            overlay: None,
            keymap,
            theme: ThemeName::Default,
            poll,
            state,
            history: Vec::new(),
            owners: BTreeMap::new(),
            domains: domains::DomainsModel::default(),
            leads: leads::LeadsModel::default(),
            redraw: true,
            quit: false,
            next_request: 0,
        }
    }

    /// The first requests of the session (the open pane's data).
    pub fn start(&mut self) -> Vec<Cmd> {
        self.enter_pane(self.pane)
    }

    /// Sends a request on behalf of `owner`; returns its id and command.
    pub fn request(&mut self, owner: Owner, req: ApiRequest) -> (RequestId, Cmd) {
        self.next_request += 1;
        let id = RequestId(self.next_request);
        self.owners.insert(id, owner);
        self.net.in_flight += 1;
        (id, Cmd::Api { id, req })
    }

    /// A fresh id for a non-request effect (file checks and writes).
    pub fn effect_id(&mut self) -> RequestId {
        self.next_request += 1;
        RequestId(self.next_request)
    }

    /// The screen layout for the current size.
    pub fn layout(&self) -> AppLayout {
        AppLayout::new(self.size)
    }

    /// Shows a notice.
    pub fn notify(&mut self, level: Level, title: &str, text: &str) {
        self.toasts.push(self.now, level, title, text);
        self.redraw = true;
    }

    /// Whether a countdown is on screen (it needs a one-second tick).
    pub fn countdown_visible(&self) -> bool {
        self.net.rate_limited_until.is_some_and(|t| t > self.now)
            || (self.pane == Pane::Domains && self.domains.countdown_visible())
    }

    /// Whether something typed and unsent would be lost by quitting.
    pub fn unsent(&self) -> Option<String> {
        self.leads
            .unsent()
            .or_else(|| self.domains.unsent())
            .or_else(|| match &self.overlay {
                Some(Overlay::Command(c)) if !c.text().trim().is_empty() => {
                    Some("the command line".into())
                }
                _ => None,
            })
    }

    /// A command that writes the local state, with unsent text captured.
    pub fn save_state(&mut self) -> Cmd {
        self.leads.capture_drafts(&mut self.state);
        self.domains.capture_drafts(&mut self.state);
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

    fn switch_pane(&mut self, pane: Pane) -> Vec<Cmd> {
        if !Pane::BUILT.contains(&pane) || pane == self.pane {
            return Vec::new();
        }
        if self.pane == Pane::Domains {
            domains::on_leave(self);
        }
        self.pane = pane;
        self.redraw = true;
        self.enter_pane(pane)
    }

    fn enter_pane(&mut self, pane: Pane) -> Vec<Cmd> {
        match pane {
            Pane::Domains => domains::on_enter(self),
            Pane::Leads => leads::on_enter(self),
            _ => Vec::new(),
        }
    }

    fn cycle_pane(&mut self, forward: bool) -> Vec<Cmd> {
        let built = Pane::BUILT;
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
        vec![self.save_state(), Cmd::Quit]
    }

    fn ask_quit(&mut self) -> Vec<Cmd> {
        match self.unsent() {
            Some(what) => {
                self.overlay = Some(Overlay::Confirm(Confirm {
                    title: "Quit?".into(),
                    lines: vec![
                        format!("You have unsent text in {what}."),
                        "It is kept in the local state file and offered back next time.".into(),
                    ],
                    yes: "Quit".into(),
                    no: None,
                    destructive: false,
                    on_yes: ConfirmAction::Quit,
                }));
                self.redraw = true;
                Vec::new()
            }
            None => self.quit_now(),
        }
    }
}

/// The draft key of text left in the command line.
const COMMAND_DRAFT: &str = "command-line";

/// Handles one message; returns the effects to run.
pub fn update(m: &mut Model, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Key(key) if key.kind == KeyEventKind::Release => Vec::new(),
        Msg::Key(key) => on_key(m, key),
        Msg::Mouse(ev) => on_mouse(m, ev),
        Msg::Paste(text) => {
            m.redraw = true;
            match &mut m.overlay {
                Some(Overlay::Command(c)) => {
                    c.input.insert_str(text.replace(['\n', '\r'], " "));
                    Vec::new()
                }
                Some(_) => Vec::new(),
                None => match m.pane {
                    Pane::Domains => domains::on_paste(m, &text),
                    Pane::Leads => leads::on_paste(m, &text),
                    _ => Vec::new(),
                },
            }
        }
        Msg::Resize(w, h) => {
            m.size = (w, h);
            m.redraw = true;
            domains::on_resize(m);
            leads::on_resize(m)
        }
        Msg::Api { id, latency, reply } => {
            m.net.in_flight = m.net.in_flight.saturating_sub(1);
            m.net.last_latency = Some(latency);
            m.redraw = true;
            match m.owners.remove(&id) {
                Some(Owner::Domains) => domains::on_reply(m, id, *reply),
                Some(Owner::Leads) => leads::on_reply(m, id, *reply),
                None => Vec::new(),
            }
        }
        Msg::SubFired(sub) => match sub {
            SubId::DomainWatch(domain, _) => domains::on_watch_due(m, &domain),
            SubId::RunWatch(search) => leads::on_run_watch_due(m, &search),
            SubId::Countdown => {
                m.redraw = true;
                if m.net.rate_limited_until.is_some_and(|t| t <= m.now) {
                    m.net.rate_limited_until = None;
                }
                Vec::new()
            }
            SubId::Toasts => {
                if m.toasts.expire(m.now) {
                    m.redraw = true;
                }
                Vec::new()
            }
        },
        Msg::RateLimit(limits) => {
            m.net.rate_limited_until = limits.latest().filter(|t| *t > m.now);
            m.redraw = true;
            Vec::new()
        }
        Msg::Connection(_) => Vec::new(),
        Msg::Copied(result) => {
            match result {
                Ok(n) => m.notify(
                    Level::Success,
                    "Copied",
                    &format!("{n} characters copied to the clipboard (OSC 52)"),
                ),
                Err(e) => m.notify(Level::Error, "copy failed", &e),
            }
            Vec::new()
        }
        Msg::Saved(result) => {
            if let Err(e) = result {
                m.notify(Level::Warning, "local state not saved", &e);
            }
            Vec::new()
        }
        // Both change the export dialog (or ask to replace the file): the
        // frame must be drawn again, or the question stays unseen.
        Msg::PathChecked { id, exists } => {
            m.redraw = true;
            leads::on_path_checked(m, id, exists)
        }
        Msg::FileWritten { id, result } => {
            m.redraw = true;
            leads::on_file_written(m, id, result)
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
    }
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
    if let Some(overlay) = m.overlay.take() {
        m.redraw = true;
        return on_overlay_key(m, overlay, key);
    }
    // A focused text box (dialog, form, filter) sees the key before the keymap.
    let consumed = match m.pane {
        Pane::Domains => domains::on_text_key(m, key),
        Pane::Leads => leads::on_text_key(m, key),
        _ => None,
    };
    if let Some(cmds) = consumed {
        m.redraw = true;
        return cmds;
    }
    // An unbound key changes nothing, so it draws nothing.
    let Some(action) = m.keymap.action(m.pane.scope(), &key) else {
        return Vec::new();
    };
    m.redraw = true;
    on_action(m, action)
}

fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    match action {
        Action::Quit => m.ask_quit(),
        Action::ForceQuit => m.quit_now(),
        Action::Suspend => vec![m.save_state(), Cmd::Suspend],
        Action::NextPane => m.cycle_pane(true),
        Action::PrevPane => m.cycle_pane(false),
        Action::PaneLeads => m.switch_pane(Pane::Leads),
        Action::PaneCampaigns => m.switch_pane(Pane::Campaigns),
        Action::PaneInbox => m.switch_pane(Pane::Inbox),
        Action::PaneDomains => m.switch_pane(Pane::Domains),
        Action::PaneProfile => m.switch_pane(Pane::Profile),
        Action::Help => {
            m.overlay = Some(Overlay::Help { scroll: 0 });
            Vec::new()
        }
        Action::CommandLine => {
            let mut c = CommandLine::default();
            // Text left in the command line at the last exit comes back.
            if let Some(d) = m.state.drafts.remove(COMMAND_DRAFT)
                && let Some(text) = d.fields.get("text")
            {
                c.set_text(text);
            }
            m.overlay = Some(Overlay::Command(Box::new(c)));
            Vec::new()
        }
        other => match m.pane {
            Pane::Domains => domains::on_action(m, other),
            Pane::Leads => leads::on_action(m, other),
            _ => Vec::new(),
        },
    }
}

fn on_overlay_key(m: &mut Model, overlay: Overlay, key: KeyEvent) -> Vec<Cmd> {
    match overlay {
        Overlay::Help { scroll } => {
            let action = m.keymap.action(m.pane.scope(), &key);
            let max = crate::ui::help_scroll_max(m);
            let scroll = match action {
                Some(Action::Down) => scroll.saturating_add(1),
                Some(Action::Up) => scroll.saturating_sub(1),
                Some(Action::PageDown) => scroll.saturating_add(10),
                Some(Action::PageUp) => scroll.saturating_sub(10),
                Some(Action::Top) => 0,
                Some(Action::Bottom) => max,
                _ => return Vec::new(),
            };
            m.overlay = Some(Overlay::Help {
                scroll: scroll.min(max),
            });
            Vec::new()
        }
        Overlay::Confirm(c) => match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => match c.on_yes {
                ConfirmAction::Quit => m.quit_now(),
                ConfirmAction::Leads(what) => leads::on_confirmed(m, what),
            },
            KeyCode::Char('n') | KeyCode::Char('N') if c.no.is_some() => match c.on_yes {
                ConfirmAction::Quit => Vec::new(),
                ConfirmAction::Leads(what) => leads::on_declined(m, what),
            },
            // Dismissed: the question closes and nothing is chosen (nothing
            // typed is ever discarded by Esc).
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc | KeyCode::Char('q') => {
                match c.on_yes {
                    ConfirmAction::Quit => Vec::new(),
                    ConfirmAction::Leads(what) => leads::on_dismissed(m, what),
                }
            }
            _ => {
                m.overlay = Some(Overlay::Confirm(c));
                Vec::new()
            }
        },
        Overlay::Command(mut c) => match key.code {
            KeyCode::Esc => Vec::new(),
            KeyCode::Enter => {
                let text = c.text();
                match command_line::parse(&text) {
                    Ok(cmd) => {
                        if m.history.last() != Some(&text) {
                            m.history.push(text);
                        }
                        run_command(m, cmd)
                    }
                    Err(e) => {
                        c.error = Some(e);
                        m.overlay = Some(Overlay::Command(c));
                        Vec::new()
                    }
                }
            }
            KeyCode::Tab => {
                c.complete();
                m.overlay = Some(Overlay::Command(c));
                Vec::new()
            }
            KeyCode::Up | KeyCode::Down => {
                c.recall(&m.history, key.code == KeyCode::Up);
                m.overlay = Some(Overlay::Command(c));
                Vec::new()
            }
            _ => {
                c.error = None;
                c.input.input(key);
                m.overlay = Some(Overlay::Command(c));
                Vec::new()
            }
        },
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
        Command::Pane(p) => m.switch_pane(p),
        Command::Refresh => on_action(m, Action::Refresh),
        Command::DomainAdd(name) => {
            let mut cmds = m.switch_pane(Pane::Domains);
            cmds.extend(domains::add_domain(m, &name));
            cmds
        }
        Command::OpenSearch(id) => {
            let mut cmds = m.switch_pane(Pane::Leads);
            cmds.extend(leads::open_search_by_id(m, &id, "pasted"));
            cmds
        }
        Command::RunAll => {
            let mut cmds = m.switch_pane(Pane::Leads);
            cmds.extend(leads::on_action(m, Action::RunAll));
            cmds
        }
        Command::Export(path) => {
            let mut cmds = m.switch_pane(Pane::Leads);
            cmds.extend(leads::start_export(m, path));
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
            // A Leads dialog is modal, as it is to the keyboard (1-5 and Tab
            // go to it): leaving the pane under it would let a command
            // (`:export`, `:open search`) reach a job it holds.
            if m.pane == Pane::Leads && m.leads.dialog.is_some() {
                return Vec::new();
            }
            match layout.tab_at(ev.column) {
                Some(pane) => m.switch_pane(pane),
                None => Vec::new(),
            }
        }
        _ => match m.pane {
            Pane::Domains => domains::on_mouse(m, ev),
            Pane::Leads => leads::on_mouse(m, ev),
            _ => Vec::new(),
        },
    }
}
