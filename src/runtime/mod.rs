//! The runtime: the only place with `select!`, channels, spawns and the
//! terminal. One loop turns input, replies, timers and signals into `Msg`s,
//! runs `update`, carries out the `Cmd`s, re-derives the subscriptions, and
//! draws one frame only when something changed and the queue is drained.

pub(crate) mod cache;
pub(crate) mod csv_import;
pub(crate) mod dns;
pub(crate) mod effects;
pub(crate) mod signals;
pub(crate) mod subs;
pub(crate) mod terminal;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crossterm::event::{Event, KeyEventKind};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::sync::watch;
use tokio_stream::{Stream, StreamExt};

use crate::api::{ApiKey, Client, ClientConfig};
use crate::app::keymap::Keymap;
use crate::app::{self, Cmd, Model, Msg, Session, Signal, Unsaved};
use crate::cli::Cli;
use crate::config::theme::ColourEnv;
use crate::config::{Config, Paths};
use crate::journal::{Journal, Source};
use crate::store::{CacheFile, Draft, Store, write_atomic};
use crate::text::sanitize;
use subs::SubManager;

/// What the loop needs from the real terminal beyond drawing; tests pass a
/// fake.
pub trait Host {
    /// Puts text on the clipboard.
    fn copy(&mut self, text: &str) -> Result<(), String>;
    /// Inside tmux, also loads the text into tmux's paste buffer (`None`
    /// outside tmux, or for a host without one).
    fn tmux_buffer(&mut self, _text: &str) -> Option<Result<(), String>> {
        None
    }
    /// Suspends to the shell and returns on resume.
    fn suspend(&mut self) -> Result<(), String>;
    /// Rings the bell and shows a desktop notification (the bytes from
    /// `config::notify::Notify::sequence`); a host without a terminal
    /// ignores it.
    fn attention(&mut self, _sequence: &str) {}
}

/// Puts `text` on the clipboard (and tmux's buffer), for the notice
/// saying where it went and, when given, `what` it was.
fn copy_text<H: Host>(
    host: &mut H,
    text: &str,
    what: Option<String>,
) -> Result<crate::app::Copied, String> {
    let chars = text.chars().count();
    host.copy(text).map(|()| crate::app::Copied {
        chars,
        tmux: host.tmux_buffer(text),
        what,
    })
}

/// The real terminal.
#[derive(Debug, Default)]
pub(crate) struct TerminalHost;

impl Host for TerminalHost {
    fn copy(&mut self, text: &str) -> Result<(), String> {
        terminal::copy(text).map_err(|e| e.to_string())
    }

    fn tmux_buffer(&mut self, text: &str) -> Option<Result<(), String>> {
        // tmux's default `set-clipboard external` drops an application's
        // OSC 52: the buffer is the one place sure to keep the text.
        std::env::var_os("TMUX")
            .filter(|v| !v.is_empty())
            .map(|_| terminal::tmux_load_buffer(std::path::Path::new("tmux"), text))
    }

    fn suspend(&mut self) -> Result<(), String> {
        terminal::suspend()
    }

    fn attention(&mut self, sequence: &str) {
        terminal::attention(sequence);
    }
}

/// Counters a test can read while the loop runs.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Frames drawn.
    pub frames: Arc<AtomicU64>,
    /// Messages handled.
    pub messages: Arc<AtomicU64>,
}

/// The message channel of one run.
pub struct Channel {
    tx: UnboundedSender<Msg>,
    rx: UnboundedReceiver<Msg>,
}

impl Default for Channel {
    fn default() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Channel { tx, rx }
    }
}

impl Channel {
    /// A sender for signals and other outside events.
    pub fn sender(&self) -> UnboundedSender<Msg> {
        self.tx.clone()
    }
}

fn wall_clock() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn to_msg(ev: Event) -> Option<Msg> {
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(Msg::Key(k)),
        Event::Mouse(m) => Some(Msg::Mouse(m)),
        Event::Paste(s) => Some(Msg::Paste(s)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// What the loop talks to besides the terminal.
pub struct Services<H> {
    /// The API client.
    pub client: Client,
    /// The local state file.
    pub store: Store,
    /// Clipboard and suspend.
    pub host: H,
    /// Counters for tests.
    pub stats: Stats,
    /// Wall-clock now in Unix seconds for "3m ago"; in `--demo` the demo
    /// service's sped-up clock, so its timestamps read naturally.
    pub clock: Arc<dyn Fn() -> i64 + Send + Sync>,
}

/// The real wall clock.
pub(crate) fn wall_clock_fn() -> Arc<dyn Fn() -> i64 + Send + Sync> {
    Arc::new(wall_clock)
}

/// Runs the dashboard until it quits (or input ends); returns the model.
pub async fn run<B, S, H>(
    terminal: &mut Terminal<B>,
    input: S,
    channel: Channel,
    services: Services<H>,
    model: Model,
) -> Result<Model, String>
where
    B: Backend,
    S: Stream<Item = io::Result<Event>> + Unpin,
    H: Host,
{
    run_started(terminal, input, start(channel, services, model)).await
}

/// A session whose first requests are already on their way, waiting for
/// its terminal: the network works while the terminal is set up.
pub struct Started<H> {
    tx: UnboundedSender<Msg>,
    rx: UnboundedReceiver<Msg>,
    services: Services<H>,
    model: Model,
    gate: watch::Receiver<crate::api::RateLimits>,
    conn: watch::Receiver<crate::api::ConnState>,
    /// What the first batch holds after its leading requests: it may need
    /// the terminal, so it runs when there is one, in order.
    deferred: Vec<Cmd>,
    /// How `:profile NAME` opens another workspace (none: it cannot).
    workspaces: Option<Workspaces>,
    /// How some effects are carried out (`[notify]`, `[dns]`).
    settings: Settings,
}

/// How some effects are carried out, as configured.
#[derive(Debug, Clone, Default)]
struct Settings {
    /// How to get the user's attention (`[notify]`).
    notify: crate::config::notify::Notify,
    /// The resolver of the per-record DNS checks (`[dns]`).
    dns: dns::DnsResolver,
    /// Where this workspace's last-known lists are kept (none: not kept).
    cache: Option<CacheFile>,
}

/// Opens a workspace profile by name (`None`: the default one) for a live
/// switch; the config it reads was loaded at start.
pub(crate) type Workspaces = Arc<dyn Fn(Option<&str>) -> Result<Workspace, String> + Send + Sync>;

/// A workspace ready to switch to: its client, its state file and the
/// session facts the status bar shows.
pub struct Workspace {
    /// Its client.
    pub client: Client,
    /// Its local state file.
    pub store: Store,
    /// Its profile (`None`: the default one).
    pub profile: Option<String>,
    /// Its poll intervals.
    pub poll: crate::config::PollIntervals,
    /// Warnings met resolving it.
    pub notices: Vec<String>,
    /// Its last-known lists' file (none: not kept).
    pub cache: Option<CacheFile>,
}

impl<H> Started<H> {
    /// The model, for what is added before the first frame (notices).
    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }

    /// Sets how the user's attention is got (`[notify]`).
    pub fn set_notify(&mut self, notify: crate::config::notify::Notify) {
        self.settings.notify = notify;
    }

    /// Sets the resolver of the per-record DNS checks (`[dns]`; the
    /// system's when not set).
    pub fn set_dns(&mut self, dns: dns::DnsResolver) {
        self.settings.dns = dns;
    }

    /// Lets `:profile NAME` open the workspaces `open` resolves.
    pub fn set_workspaces(&mut self, open: Workspaces) {
        self.workspaces = Some(open);
    }

    /// Keeps this workspace's last-known lists in `file` (saved behind,
    /// and on quit).
    pub fn set_cache(&mut self, file: Option<CacheFile>) {
        self.settings.cache = file;
    }
}

/// Sends the first requests of the session (the open pane's data) at once,
/// before any terminal exists; needs a tokio runtime.
pub fn start<H>(channel: Channel, services: Services<H>, mut model: Model) -> Started<H> {
    let Channel { tx, rx } = channel;
    // Subscribed before any request can close the gate.
    let mut gate = services.client.rate_limits();
    let mut conn = services.client.connection();
    // What the client already knows (a gate closed before the loop runs)
    // arrives as no change: take it now.
    model.net.limits = gate.borrow_and_update().clone();
    model.net.conn = *conn.borrow_and_update();
    model.now = Instant::now();
    model.clock = (services.clock)();
    let mut deferred = Vec::new();
    for cmd in model.start() {
        match cmd {
            Cmd::Api { id, req } if deferred.is_empty() => {
                effects::spawn_request(&services.client, id, req, &tx);
            }
            other => deferred.push(other),
        }
    }
    Started {
        tx,
        rx,
        services,
        model,
        gate,
        conn,
        deferred,
        workspaces: None,
        settings: Settings::default(),
    }
}

/// Runs a started session on its terminal until it quits (or input ends);
/// returns the model.
pub async fn run_started<B, S, H>(
    terminal: &mut Terminal<B>,
    mut input: S,
    started: Started<H>,
) -> Result<Model, String>
where
    B: Backend,
    S: Stream<Item = io::Result<Event>> + Unpin,
    H: Host,
{
    let Started {
        tx,
        mut rx,
        services,
        mut model,
        mut gate,
        mut conn,
        deferred,
        workspaces,
        settings,
    } = started;
    let Services {
        client,
        store,
        mut host,
        stats,
        clock,
    } = services;
    let mut fx = Effects::new(client, store, tx.clone(), workspaces, settings);
    let mut subs = SubManager::default();
    fx.execute(deferred, &mut model, &mut host, terminal);
    subs.sync(app::subscriptions(&model), &tx);
    // Notices already written to the log file.
    let mut notices = model.toasts.pushed();
    let mut probed = false;
    loop {
        if model.quit {
            break;
        }
        let msg = tokio::select! {
            biased;
            Some(msg) = rx.recv() => msg,
            ev = input.next() => match ev {
                Some(Ok(ev)) => match to_msg(ev) {
                    Some(m) => m,
                    None => continue,
                },
                // The terminal is gone or broken: save and leave.
                Some(Err(e)) => {
                    tracing::warn!("terminal input failed: {e}");
                    Msg::Signal(Signal::Hangup)
                }
                None => Msg::Signal(Signal::Hangup),
            },
            Ok(()) = gate.changed() => Msg::RateLimit(gate.borrow_and_update().clone()),
            Ok(()) = conn.changed() => Msg::Connection(*conn.borrow_and_update()),
            // Last, so it runs only when nothing above is ready: one frame
            // after a burst of keys or replies, not one per event.
            () = std::future::ready(()), if model.redraw => {
                model.redraw = false;
                match terminal.draw(|f| crate::ui::view(&model, f)) {
                    Ok(_) => {}
                    // The terminal is gone (a hang-up the input has not
                    // reported yet): save and leave, as on a hang-up,
                    // never drop the unsent text with an error.
                    Err(e) => {
                        tracing::warn!("cannot draw ({e}): the terminal is gone");
                        let cmds = app::update(&mut model, Msg::Signal(Signal::Hangup));
                        fx.execute(cmds, &mut model, &mut host, terminal);
                        continue;
                    }
                }
                stats.frames.fetch_add(1, Ordering::Relaxed);
                // After the first frame, so it never delays it.
                if !probed {
                    probed = true;
                    fx.execute(vec![Cmd::ProbeStore], &mut model, &mut host, terminal);
                }
                continue;
            }
        };
        stats.messages.fetch_add(1, Ordering::Relaxed);
        model.now = Instant::now();
        // The service's clock stamped the times shown: ages are measured
        // against it, never this machine's if the two disagree.
        model.clock = clock() + fx.client.clock_offset();
        let cmds = app::update(&mut model, msg);
        log_notice(&model, &mut notices);
        fx.execute(cmds, &mut model, &mut host, terminal);
        if std::mem::take(&mut fx.switched) {
            // Another workspace: watch its client's gates and connection.
            gate = fx.client.rate_limits();
            conn = fx.client.connection();
        }
        subs.sync(app::subscriptions(&model), &tx);
    }
    // The lists saved on quit land before the process ends.
    fx.cache_writer.finish().await;
    // The save on the way out failed with unsent text in it: hand the text
    // to whoever restores the terminal, to print it there.
    model.unsaved_at_exit = fx.failed_save.take().filter(|u| !u.drafts.is_empty());
    Ok(model)
}

/// What carries out the commands of one run, and what it has to remember
/// about them.
struct Effects {
    client: Client,
    /// Shared with the blocking task of a store probe.
    store: Arc<Store>,
    tx: UnboundedSender<Msg>,
    /// The last save failed (and nothing saved since): why, and the drafts
    /// it held.
    failed_save: Option<Unsaved>,
    /// How `:profile NAME` opens another workspace.
    workspaces: Option<Workspaces>,
    /// The client was replaced (its watch channels must be followed).
    switched: bool,
    /// How to get the user's attention, the DNS resolver, the cache file.
    settings: Settings,
    /// Writes the last-known lists behind.
    cache_writer: cache::Writer,
}

impl Effects {
    fn new(
        client: Client,
        store: Store,
        tx: UnboundedSender<Msg>,
        workspaces: Option<Workspaces>,
        settings: Settings,
    ) -> Effects {
        Effects {
            client,
            store: Arc::new(store),
            tx,
            failed_save: None,
            workspaces,
            switched: false,
            settings,
            cache_writer: cache::Writer::spawn(),
        }
    }

    fn execute<B: Backend, H: Host>(
        &mut self,
        cmds: Vec<Cmd>,
        model: &mut Model,
        host: &mut H,
        terminal: &mut Terminal<B>,
    ) {
        let tx = self.tx.clone();
        let tx = &tx;
        for cmd in cmds {
            match cmd {
                // The user's explicit retry: one attempt, through a closed
                // rate-limit gate.
                Cmd::Api { id, req } if model.take_user_retry(id) => {
                    effects::spawn_retry(&self.client, id, req, tx);
                }
                Cmd::Api { id, req } => effects::spawn_request(&self.client, id, req, tx),
                Cmd::Copy(text) => {
                    let _ = tx.send(Msg::Copied(copy_text(host, &text, None)));
                }
                Cmd::CopyId { text, what } => {
                    let _ = tx.send(Msg::Copied(copy_text(host, &text, Some(what))));
                }
                // Synchronous on purpose: it is small, and on quit it must
                // land (or be known to have failed) before the process ends.
                Cmd::SaveState(state) => self.save(&state),
                Cmd::SaveCache(lists) => {
                    if let Some(file) = &self.settings.cache {
                        self.cache_writer.save(file.clone(), lists);
                    }
                }
                Cmd::ProbeStore => {
                    let (store, tx) = (self.store.clone(), tx.clone());
                    tokio::task::spawn_blocking(move || {
                        let _ = tx.send(Msg::StoreProbed(store.probe()));
                    });
                }
                Cmd::CheckPath { id, path } => {
                    let tx = tx.clone();
                    tokio::task::spawn_blocking(move || {
                        let exists = path.try_exists().map_err(|e| e.to_string());
                        let _ = tx.send(Msg::PathChecked { id, exists });
                    });
                }
                Cmd::ListDir { id, dir } => {
                    let tx = tx.clone();
                    tokio::task::spawn_blocking(move || {
                        let listing = list_dir(&dir);
                        let _ = tx.send(Msg::DirListed { id, listing });
                    });
                }
                Cmd::WriteFile { id, file } => spawn_write(id, file, tx),
                Cmd::ReadCsv { id, read } => csv_import::spawn(id, read, tx),
                Cmd::ResolveRecords { id, records } => {
                    dns::spawn(&self.settings.dns, id, records, tx);
                }
                Cmd::Suspend => {
                    let msg = match host.suspend() {
                        Ok(()) => {
                            let _ = terminal.clear();
                            Msg::Resumed
                        }
                        Err(e) => Msg::SuspendFailed(e),
                    };
                    let _ = tx.send(msg);
                }
                Cmd::SwitchProfile(name) => self.switch_profile(name.as_deref(), model),
                Cmd::Notify { title, text } => {
                    let seq = self.settings.notify.sequence(
                        &crate::text::sanitize::inline(&title),
                        &crate::text::sanitize::inline(&text),
                    );
                    if !seq.is_empty() {
                        host.attention(&seq);
                    }
                }
                Cmd::ProbeConnection => {
                    // One attempt, its answer dropped: the client publishes
                    // the connection state it learns.
                    let client = self.client.with_bypass();
                    tokio::spawn(async move {
                        let _ = client.get_context().await;
                    });
                }
                Cmd::JournalVerdict { write, verdict } => {
                    effects::journal_verdict(&self.client, write, verdict);
                }
                Cmd::ReadJournal => effects::read_journal(&self.client, model.session.demo, tx),
                Cmd::Quit => model.quit = true,
            }
        }
    }

    /// Opens another workspace: its client and store replace these, and
    /// the model hears of it (or why not).
    fn switch_profile(&mut self, name: Option<&str>, model: &Model) {
        let opened = match &self.workspaces {
            Some(open) => open(name),
            None => Err("this session cannot switch profiles (started without a config)".into()),
        };
        let ws = match opened {
            Ok(ws) => ws,
            Err(e) => {
                let _ = self.tx.send(Msg::ProfileFailed(e));
                return;
            }
        };
        let (state, mut notices) = ws.store.load();
        notices.extend(ws.notices);
        let host = ws.client.host();
        // Small and bounded: read here, so the panes open on it at once.
        let lists = ws.cache.as_ref().and_then(|f| cache::load(f, &host));
        let session = switched_session(&ws.client, ws.profile.clone(), &model.session);
        tracing::info!(host = %session.host, profile = ?session.profile, "profile opened");
        self.client = ws.client;
        self.store = Arc::new(ws.store);
        self.settings.cache = ws.cache;
        self.failed_save = None;
        self.switched = true;
        let _ = self
            .tx
            .send(Msg::ProfileOpened(Box::new(app::msg::OpenedProfile {
                session,
                state,
                poll: ws.poll,
                notices,
                cache: lists.unwrap_or_default(),
            })));
    }

    fn save(&mut self, state: &crate::store::State) {
        let result = self.store.save(state);
        match &result {
            Ok(()) => self.failed_save = None,
            Err(e) => {
                // The error names the path itself.
                tracing::warn!("saving local state failed: {e}");
                self.failed_save = Some(Unsaved {
                    error: e.clone(),
                    drafts: Model::drafts_in(state),
                });
            }
        }
        let _ = self.tx.send(Msg::Saved(result));
    }
}

/// Writes an exported file in the background (answered by
/// `Msg::FileWritten`).
/// Lists `dir` for a path completion (on a blocking thread): names that
/// can be typed and shown (UTF-8, no control characters), at most
/// [`DirListing::MAX`] of them.
///
/// [`DirListing::MAX`]: app::path_complete::DirListing::MAX
fn list_dir(dir: &std::path::Path) -> Result<app::path_complete::DirListing, String> {
    use app::path_complete::{DirEntry, DirListing};
    let dir = csv_import::expand_home(dir);
    let mut listing = DirListing::default();
    for entry in std::fs::read_dir(&dir).map_err(|e| e.to_string())? {
        let Ok(entry) = entry else { continue };
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if name.chars().any(char::is_control) {
            continue;
        }
        if listing.entries.len() == DirListing::MAX {
            listing.truncated = true;
            break;
        }
        // A link to a directory completes as one.
        let is_dir = std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
        listing.entries.push(DirEntry { name, dir: is_dir });
    }
    Ok(listing)
}

fn spawn_write(id: app::RequestId, file: app::cmd::FileWrite, tx: &UnboundedSender<Msg>) {
    let tx = tx.clone();
    tokio::task::spawn_blocking(move || {
        let result = write_file(&file);
        let _ = tx.send(Msg::FileWritten { id, result });
    });
}

/// Prints unsent text that could not be saved on the restored terminal, so
/// it can be copied: where it was, why it was not saved, then each draft's
/// fields whole (made inert, never cut). Errors writing are ignored: after
/// a hang-up there is no terminal to print to.
pub(crate) fn print_unsaved(out: &mut impl Write, u: &Unsaved) {
    let _ = writeln!(
        out,
        "outpost: your unsent text could not be saved ({}).\nIt is printed below so you can copy it.",
        sanitize::inline(&u.error.to_string())
    );
    for (key, d) in &u.drafts {
        print_draft(out, key, d);
    }
    let _ = writeln!(out);
}

fn print_draft(out: &mut impl Write, key: &str, d: &Draft) {
    let title = if d.title.trim().is_empty() {
        key
    } else {
        d.title.as_str()
    };
    let _ = writeln!(out, "\n===== {} =====", sanitize::inline(title));
    for (field, text) in &d.fields {
        if text.trim().is_empty() {
            continue;
        }
        let _ = writeln!(out, "----- {} -----", sanitize::inline(field));
        let _ = writeln!(out, "{}", sanitize::printable(text));
    }
}

/// The local time zone's offset east of UTC now, in seconds; 0 when it
/// cannot be told.
#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; std has no local time zone, and the `time` crate refuses it in a threaded process, so libc's localtime_r is allowed here."
)]
pub(crate) fn local_utc_offset() -> i32 {
    #[cfg(unix)]
    {
        // SAFETY: `time` with a null pointer only returns the time;
        // `localtime_r` writes only into the `tm` it is given. Nothing in
        // the process changes TZ while it runs.
        unsafe {
            let now = libc::time(std::ptr::null_mut());
            let mut tm: libc::tm = std::mem::zeroed();
            if libc::localtime_r(&raw const now, &raw mut tm).is_null() {
                return 0;
            }
            i32::try_from(tm.tm_gmtoff).unwrap_or(0)
        }
    }
    #[cfg(not(unix))]
    {
        0
    }
}

/// Starts the dashboard for the command line: the demo service or the
/// configured one, the terminal, signals, and the loop.
///
/// In start-up order, what the first request needs comes first and the rest
/// is set up while it is in flight: checks that can refuse to start (so
/// their errors print on a plain terminal and nothing is sent), the log
/// (so the request is logged), the client, the state file (its last pane
/// picks the first request), the model and its first requests; then the
/// terminal, signals and input, and the first frame.
pub async fn launch(cli: &Cli, paths: Paths, cfg: Config) -> Result<(), String> {
    check_terminal()?;
    let keymap = Keymap::with_overrides(&cfg.keys)?;
    let log_path = paths.log_file();
    let mut notices: Vec<String> = cfg.warnings.clone();
    if let Some(p) = &log_path
        && let Err(e) = crate::logging::init(p)
    {
        notices.push(e);
    }

    // The service: in-process demo (kept alive for the session), or the
    // configured one.
    let (mut client_cfg, clock, demo_service) = service(cli, &cfg).await?;
    let demo = demo_service.is_some();
    client_cfg.request_timeout = cfg.request_timeout;
    client_cfg.connect_timeout = cfg.connect_timeout;
    client_cfg.read_only = cfg.read_only;
    let client = Client::new(client_cfg).map_err(|e| e.to_string())?;
    let client = journaled(client, (!demo).then_some(&paths), cfg.profile_name());
    let (poll, poll_warnings) = cfg.poll_intervals(client.is_loopback(), demo);
    notices.extend(poll_warnings);

    let state_file = crate::config::profile::session_state_file(&paths, cfg.profile_name(), demo);
    // The demo's lists are not the workspace's: never cached.
    let cache_file = state_file.as_deref().filter(|_| !demo).map(cache::beside);
    let store = Store::new(state_file);
    let (state, store_warnings) = store.load();
    notices.extend(store_warnings);

    let session = Session {
        host: client.host(),
        demo,
        masked_key: client.masked_key(),
        loopback: client.is_loopback(),
        read_only: client.read_only(),
        read_only_flag: cli.session.read_only,
        profile: cfg.profile_name().map(str::to_owned),
    };
    tracing::info!(host = %session.host, demo, "dashboard starting");
    // The size the terminal will have; asked of the tty without setting it
    // up, so the model (and its first requests) need not wait for that.
    let size = crossterm::terminal::size().unwrap_or((80, 24));
    let mut model = Model::new(Instant::now(), size, session, keymap, state);
    model.utc_offset = local_utc_offset();
    model.poll = poll;
    model.theme = cfg.theme.clone();
    model.colour = ColourEnv::from_env();
    let channel = Channel::default();
    let signal_tx = channel.sender();
    let hup_tx = channel.sender();
    let services = Services {
        client,
        store,
        host: TerminalHost,
        stats: Stats::default(),
        clock,
    };
    let host = services.client.host();
    let mut started = start(channel, services, model);
    // The first requests are on their way: the last-known lists are read
    // meanwhile, and shown before the first frame.
    let lists = cache::read_behind(cache_file.clone(), host);
    started.set_workspaces(workspaces(paths.clone(), cfg.clone()));
    started.set_notify(cfg.notify);
    started.set_dns(dns::DnsResolver::new(cfg.dns));

    // The first requests are in flight: set up the rest meanwhile.
    for n in notices {
        started
            .model_mut()
            .notify(app::toast::Level::Warning, "notice", &n);
    }
    terminal::install_panic_hook(log_path.map(|p: PathBuf| p.display().to_string()));
    let mut term = terminal::init().map_err(|e| format!("cannot set up the terminal: {e}"))?;
    tokio::spawn(async move {
        signals::wait_for_shutdown().await;
        let _ = signal_tx.send(Msg::Signal(Signal::Terminate));
    });
    terminal::watch_hangup(move || {
        let _ = hup_tx.send(Msg::Signal(Signal::Hangup));
    });

    if let Some(lists) = lists.await {
        started.model_mut().adopt_cache(lists);
    }
    started.set_cache(cache_file);
    let input = terminal::input_stream();
    let result = run_started(&mut term, input, started).await;
    drop(term);
    tracing::info!("dashboard stopped");
    report_unsaved(&result?)
}

/// The session facts of a profile switched to: its own service, key and
/// read-only setting (with `--read-only`, which its client already holds),
/// never the read-only of the session switched from.
fn switched_session(client: &Client, profile: Option<String>, old: &Session) -> Session {
    Session {
        host: client.host(),
        demo: false,
        masked_key: client.masked_key(),
        loopback: client.is_loopback(),
        read_only: client.read_only(),
        read_only_flag: old.read_only_flag,
        profile,
    }
}

/// `client` recording its writes in the journal of `profile` (when there is
/// a data directory to keep it in). `paths` is `None` for the demo, whose
/// writes reach no one: they are not journaled.
fn journaled(client: Client, paths: Option<&Paths>, profile: Option<&str>) -> Client {
    let journal = paths.and_then(|p| Journal::for_profile(p, profile, Source::Dashboard));
    match journal {
        Some(j) => client.with_journal(j),
        None => client,
    }
}

/// How `:profile NAME` opens the workspaces of the config loaded at start.
fn workspaces(paths: Paths, cfg: Config) -> Workspaces {
    Arc::new(move |name: Option<&str>| {
        let ws = cfg
            .switch_workspace(&paths, name)
            .map_err(|e| e.to_string())?;
        let mut client_cfg = ws.client;
        client_cfg.read_only = ws.read_only;
        let client = Client::new(client_cfg).map_err(|e| e.to_string())?;
        let client = journaled(client, Some(&paths), ws.profile.as_deref());
        let (poll, notices) = cfg.poll_intervals(client.is_loopback(), false);
        Ok(Workspace {
            cache: ws.state_file.as_deref().map(cache::beside),
            store: Store::new(ws.state_file),
            client,
            profile: ws.profile,
            poll,
            notices,
        })
    })
}

/// Refuses to start without a terminal that can show the dashboard (the
/// error prints on a plain terminal, and nothing is sent).
fn check_terminal() -> Result<(), String> {
    use std::io::IsTerminal;
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(
            "the dashboard needs a terminal; for scripts use `outpost check` or `outpost serve`"
                .into(),
        );
    }
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        return Err(
            "TERM=dumb cannot show the dashboard; use a terminal with cursor addressing".into(),
        );
    }
    Ok(())
}

/// The client's settings and clock for `--demo` (which starts the demo
/// service, returned so it lives as long as the session) or for the
/// configured service.
async fn service(
    cli: &Cli,
    cfg: &Config,
) -> Result<
    (
        ClientConfig,
        Arc<dyn Fn() -> i64 + Send + Sync>,
        Option<crate::demo::DemoHandle>,
    ),
    String,
> {
    if cli.demo {
        let mut demo_cfg = crate::demo::DemoConfig::default();
        if let Some(x) = crate::cli::check_time_scale(cli.time_scale)? {
            demo_cfg.time_scale = x;
        }
        demo_cfg.scale = cli.scale;
        let handle = crate::demo::spawn(([127, 0, 0, 1], 0).into(), demo_cfg)
            .await
            .map_err(|e| format!("cannot start the demo service: {e}"))?;
        let key = ApiKey::parse(crate::demo::DEMO_KEY).map_err(|e| e.to_string())?;
        let c = ClientConfig::new(handle.base_url(), key);
        let clock: Arc<dyn Fn() -> i64 + Send + Sync> = Arc::new(handle.clock());
        return Ok((c, clock, Some(handle)));
    }
    let (url, _) = cfg.base_url.clone().ok_or_else(|| {
        "no service configured: set OUTPOST_BASE_URL (or base_url in config.toml, or --base-url), or try `outpost --demo`".to_owned()
    })?;
    let (key, _) = cfg.key.clone().map_err(|e| e.to_string())?;
    Ok((ClientConfig::new(url, key), wall_clock_fn(), None))
}

/// After the terminal is restored: unsent text the last save could not
/// write is printed (and logged, without the text) and the exit fails.
fn report_unsaved(model: &Model) -> Result<(), String> {
    match &model.unsaved_at_exit {
        None => Ok(()),
        Some(u) => {
            let titles: Vec<&str> = u.drafts.iter().map(|(k, _)| k.as_str()).collect();
            tracing::warn!(
                drafts = ?titles,
                "unsent text could not be saved ({}); printed to the terminal",
                u.error
            );
            print_unsaved(&mut io::stderr().lock(), u);
            Err(format!(
                "unsent text was not saved ({}); it is printed above",
                u.error
            ))
        }
    }
}

/// Writes a file for `Cmd::WriteFile`: never over an existing file unless
/// `overwrite`, never into a missing directory unless `create_dirs` (the
/// error names what is in the way).
pub fn write_file(file: &app::cmd::FileWrite) -> Result<(), String> {
    let dir = file.path.parent().filter(|d| !d.as_os_str().is_empty());
    if !file.overwrite && file.path.exists() {
        return Err(format!("{} exists; not overwritten", file.path.display()));
    }
    if let Some(dir) = dir.filter(|d| !file.create_dirs && !d.is_dir()) {
        return Err(format!(
            "the directory {} does not exist; not created",
            dir.display()
        ));
    }
    write_atomic(&file.path, &file.bytes).map_err(|e| format!("{}: {e}", file.path.display()))
}

/// Writes a notice the last update showed to the log file (its level and
/// title: what happened and when, for support; the text may hold customer
/// data and stays on screen).
fn log_notice(model: &Model, seen: &mut u64) {
    let pushed = model.toasts.pushed();
    if pushed == *seen {
        return;
    }
    *seen = pushed;
    if let Some(n) = model.toasts.log().last() {
        tracing::info!(level = n.level.name(), "notice: {}", n.title.as_str());
    }
}

#[cfg(test)]
mod switch_tests {
    use super::*;
    use crate::api::{ApiKey, ClientConfig};

    fn client(read_only: bool) -> Client {
        let key = ApiKey::parse(crate::demo::DEMO_KEY).ok();
        let mut cfg = ClientConfig::new(
            "http://127.0.0.1:9",
            key.unwrap_or_else(|| panic!("a test key")),
        );
        cfg.read_only = read_only;
        Client::new(cfg).unwrap_or_else(|e| panic!("{e}"))
    }

    fn session(read_only: bool, flag: bool) -> Session {
        Session {
            host: "127.0.0.1:9".into(),
            demo: false,
            masked_key: String::new(),
            loopback: true,
            read_only,
            read_only_flag: flag,
            profile: None,
        }
    }

    #[test]
    fn read_only_is_the_profile_s_own_both_ways() {
        let to_normal = switched_session(&client(false), None, &session(true, false));
        assert!(
            !to_normal.read_only,
            "a read-only profile's setting is not carried over"
        );
        let to_ro = switched_session(&client(true), Some("ro".into()), &session(false, false));
        assert!(to_ro.read_only);
        assert!(!to_ro.read_only_flag, "the profile's own, not the flag");
    }

    #[test]
    fn the_flag_travels_with_the_session() {
        let next = switched_session(&client(true), Some("other".into()), &session(true, true));
        assert!(next.read_only && next.read_only_flag);
    }
}
