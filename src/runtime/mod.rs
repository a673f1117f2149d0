//! The runtime: the only place with `select!`, channels, spawns and the
//! terminal. One loop turns input, replies, timers and signals into `Msg`s,
//! runs `update`, carries out the `Cmd`s, re-derives the subscriptions, and
//! draws one frame only when something changed and the queue is drained.

pub mod csv_import;
pub mod effects;
pub mod signals;
pub mod subs;
pub mod terminal;

use std::io;
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
use crate::app::{self, Cmd, Model, Msg, Session, Signal};
use crate::cli::Cli;
use crate::config::keymap::Keymap;
use crate::config::theme::ColourEnv;
use crate::config::{Config, Paths};
use crate::store::{Store, write_atomic};
use subs::SubManager;

/// What the loop needs from the real terminal beyond drawing; tests pass a
/// fake.
pub trait Host {
    /// Puts text on the clipboard.
    fn copy(&mut self, text: &str) -> Result<(), String>;
    /// Suspends to the shell and returns on resume.
    fn suspend(&mut self) -> Result<(), String>;
}

/// The real terminal.
#[derive(Debug, Default)]
pub struct TerminalHost;

impl Host for TerminalHost {
    fn copy(&mut self, text: &str) -> Result<(), String> {
        terminal::copy(text).map_err(|e| e.to_string())
    }

    fn suspend(&mut self) -> Result<(), String> {
        terminal::suspend()
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
pub fn wall_clock_fn() -> Arc<dyn Fn() -> i64 + Send + Sync> {
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
}

impl<H> Started<H> {
    /// The model, for what is added before the first frame (notices).
    pub fn model_mut(&mut self) -> &mut Model {
        &mut self.model
    }
}

/// Sends the first requests of the session (the open pane's data) at once,
/// before any terminal exists; needs a tokio runtime.
pub fn start<H>(channel: Channel, services: Services<H>, mut model: Model) -> Started<H> {
    let Channel { tx, rx } = channel;
    // Subscribed before any request can close the gate.
    let gate = services.client.rate_limits();
    let conn = services.client.connection();
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
    } = started;
    let Services {
        client,
        store,
        mut host,
        stats,
        clock,
    } = services;
    let mut subs = SubManager::default();
    execute(
        deferred, &mut model, &client, &store, &mut host, terminal, &tx,
    );
    subs.sync(app::subscriptions(&model), &tx);
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
                terminal
                    .draw(|f| crate::ui::view(&model, f))
                    .map_err(|e| format!("cannot draw: {e}"))?;
                stats.frames.fetch_add(1, Ordering::Relaxed);
                continue;
            }
        };
        stats.messages.fetch_add(1, Ordering::Relaxed);
        model.now = Instant::now();
        model.clock = clock();
        let cmds = app::update(&mut model, msg);
        execute(cmds, &mut model, &client, &store, &mut host, terminal, &tx);
        subs.sync(app::subscriptions(&model), &tx);
    }
    Ok(model)
}

#[allow(clippy::too_many_arguments)]
fn execute<B: Backend, H: Host>(
    cmds: Vec<Cmd>,
    model: &mut Model,
    client: &Client,
    store: &Store,
    host: &mut H,
    terminal: &mut Terminal<B>,
    tx: &UnboundedSender<Msg>,
) {
    for cmd in cmds {
        match cmd {
            Cmd::Api { id, req } => effects::spawn_request(client, id, req, tx),
            Cmd::Copy(text) => {
                let n = text.chars().count();
                let _ = tx.send(Msg::Copied(host.copy(&text).map(|()| n)));
            }
            // Synchronous on purpose: it is small, and on quit it must land
            // before the process ends.
            Cmd::SaveState(state) => {
                // The error names the path itself.
                let result = store.save(&state).map_err(|e| e.to_string());
                if let Err(e) = &result {
                    tracing::warn!("saving local state failed: {e}");
                }
                let _ = tx.send(Msg::Saved(result));
            }
            Cmd::CheckPath { id, path } => {
                let tx = tx.clone();
                tokio::task::spawn_blocking(move || {
                    let exists = path.try_exists().map_err(|e| e.to_string());
                    let _ = tx.send(Msg::PathChecked { id, exists });
                });
            }
            Cmd::WriteFile { id, file } => {
                let tx = tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = if !file.overwrite && file.path.exists() {
                        Err(format!("{} exists; not overwritten", file.path.display()))
                    } else {
                        write_atomic(&file.path, &file.bytes)
                            .map_err(|e| format!("{}: {e}", file.path.display()))
                    };
                    let _ = tx.send(Msg::FileWritten { id, result });
                });
            }
            Cmd::ReadCsv { id, read } => csv_import::spawn(id, read, tx),
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
            Cmd::Quit => model.quit = true,
        }
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
    let keymap = Keymap::with_overrides(&cfg.keys)?;
    let log_path = paths.log_file();
    let mut notices: Vec<String> = cfg.warnings.clone();
    if let Some(p) = &log_path
        && let Err(e) = crate::logging::init(p)
    {
        notices.push(e);
    }

    // The service: in-process demo, or the configured one.
    let mut _demo = None;
    let mut clock = wall_clock_fn();
    let (client_cfg, demo) = if cli.demo {
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
        clock = Arc::new(handle.clock());
        _demo = Some(handle);
        (c, true)
    } else {
        let (url, _) = cfg.base_url.clone().ok_or_else(|| {
            "no service configured: set OUTPOST_BASE_URL (or base_url in config.toml, or --base-url), or try `outpost --demo`".to_owned()
        })?;
        let (key, _) = cfg.key.clone().map_err(|e| e.to_string())?;
        (ClientConfig::new(url, key), false)
    };
    let mut client_cfg = client_cfg;
    client_cfg.request_timeout = cfg.request_timeout;
    client_cfg.connect_timeout = cfg.connect_timeout;
    client_cfg.read_only = cfg.read_only;
    let client = Client::new(client_cfg).map_err(|e| e.to_string())?;
    let (poll, poll_warnings) = cfg.poll_intervals(client.is_loopback(), demo);
    notices.extend(poll_warnings);

    let store = Store::new(crate::config::profile::state_file(
        &paths,
        cfg.profile_name(),
    ));
    let (state, store_warnings) = store.load();
    notices.extend(store_warnings);

    let session = Session {
        host: client.host(),
        demo,
        masked_key: client.masked_key(),
        loopback: client.is_loopback(),
        read_only: client.read_only(),
        profile: cfg.profile_name().map(str::to_owned),
    };
    tracing::info!(host = %session.host, demo, "dashboard starting");
    // The size the terminal will have; asked of the tty without setting it
    // up, so the model (and its first requests) need not wait for that.
    let size = crossterm::terminal::size().unwrap_or((80, 24));
    let mut model = Model::new(Instant::now(), size, session, keymap, state);
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
    let mut started = start(channel, services, model);

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

    let input = terminal::input_stream();
    let result = run_started(&mut term, input, started).await;
    terminal::restore();
    tracing::info!("dashboard stopped");
    result.map(|_| ())
}
