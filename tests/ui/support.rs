//! Shared harness of the UI tests: render a model into a string, and run the
//! real loop on a `TestBackend` that the test can read while it runs.

#![expect(
    dead_code,
    reason = "Shared by every pane module; not each one uses every helper."
)]

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use outpost::testkit::app::keymap::Keymap;
use outpost::testkit::app::{Model, Session};
use outpost::testkit::demo::{DemoConfig, DemoHandle};
use outpost::testkit::runtime::{self, Channel, Host, Services, Stats};
use outpost::testkit::store::{State, Store};
use ratatui::Terminal;
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::UnboundedReceiverStream;

/// Renders the model into a `w`×`h` test terminal.
pub fn terminal(m: &Model, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    t.draw(|f| outpost::testkit::ui::view(m, f)).expect("draw");
    t
}

/// What the pane itself says: the screen without its toasts (dismissed)
/// and without the status bar.
pub fn pane_body(m: &mut Model, w: u16, h: u16) -> String {
    m.toasts.clear();
    let text = screen_text(&terminal(m, w, h));
    let rows: Vec<&str> = text.lines().collect();
    rows[..rows.len().saturating_sub(1)].join("\n")
}

/// Answers every read of a list or a search in `cmds` with a 401 (the
/// key refused).
pub fn refuse_key(m: &mut Model, cmds: Vec<outpost::testkit::app::Cmd>) {
    use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Msg, update};
    let refused = || {
        outpost::testkit::app::fixtures::drive::service_error(
            401,
            r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
        )
    };
    for cmd in cmds {
        let Cmd::Api { id, req } = cmd else { continue };
        let reply = match req {
            ApiRequest::ListSearches => ApiReply::Searches(Err(refused())),
            ApiRequest::GetSearch { .. } => ApiReply::SearchPage(Box::new(Err(refused()))),
            ApiRequest::Enrichment { .. } => ApiReply::Enrichment(Box::new(Err(refused()))),
            ApiRequest::ListDomains { .. } => ApiReply::Domains(Err(refused())),
            ApiRequest::ListSenders => ApiReply::Senders(Err(refused())),
            _ => continue,
        };
        update(
            m,
            Msg::Api {
                id,
                latency: Duration::from_millis(5),
                reply: Box::new(reply),
            },
        );
    }
}

/// The connection refused since 14:02 UTC (the test model's zone is UTC).
pub fn offline(m: &mut Model) {
    let since = std::time::UNIX_EPOCH + Duration::from_secs(1_795_356_120);
    outpost::testkit::app::update(
        m,
        outpost::testkit::app::Msg::Connection(outpost::testkit::api::ConnState::Offline { since }),
    );
}

/// The screen as text, one line per row.
pub fn screen_text(t: &Terminal<TestBackend>) -> String {
    buffer_text(t.backend().buffer())
}

/// A buffer as text.
pub fn buffer_text(buf: &ratatui::buffer::Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        for x in 0..area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// A `TestBackend` shared between the loop and the test.
#[derive(Clone)]
pub struct SharedBackend(pub Arc<Mutex<TestBackend>>);

impl SharedBackend {
    fn with<R>(&self, f: impl FnOnce(&mut TestBackend) -> R) -> R {
        let mut b = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut b)
    }

    /// The screen as text.
    pub fn text(&self) -> String {
        self.with(|b| buffer_text(b.buffer()))
    }
}

impl Backend for SharedBackend {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.with(|b| b.draw(content)).map_err(io::Error::other)
    }
    fn hide_cursor(&mut self) -> io::Result<()> {
        self.with(ratatui::backend::Backend::hide_cursor)
            .map_err(io::Error::other)
    }
    fn show_cursor(&mut self) -> io::Result<()> {
        self.with(ratatui::backend::Backend::show_cursor)
            .map_err(io::Error::other)
    }
    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.with(ratatui::backend::Backend::get_cursor_position)
            .map_err(io::Error::other)
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let p = position.into();
        self.with(|b| b.set_cursor_position(p))
            .map_err(io::Error::other)
    }
    fn clear(&mut self) -> io::Result<()> {
        self.with(ratatui::backend::Backend::clear)
            .map_err(io::Error::other)
    }
    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.with(|b| b.clear_region(clear_type))
            .map_err(io::Error::other)
    }
    fn size(&self) -> io::Result<Size> {
        self.with(|b| b.size()).map_err(io::Error::other)
    }
    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.with(ratatui::backend::Backend::window_size)
            .map_err(io::Error::other)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.with(ratatui::backend::Backend::flush)
            .map_err(io::Error::other)
    }
}

/// A shared backend whose terminal can go away: once `gone` is set, every
/// draw and flush fails with EIO, as on a terminal that hung up.
#[derive(Clone)]
pub struct GoneBackend {
    /// The screen while it lasts.
    pub inner: SharedBackend,
    /// Set: the terminal is gone.
    pub gone: Arc<AtomicBool>,
}

impl GoneBackend {
    fn check(&self) -> io::Result<()> {
        if self.gone.load(Ordering::SeqCst) {
            Err(io::Error::from_raw_os_error(libc::EIO))
        } else {
            Ok(())
        }
    }
}

impl Backend for GoneBackend {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.check()?;
        self.inner.draw(content)
    }
    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }
    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }
    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }
    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }
    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }
    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }
    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }
    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.inner.flush()
    }
}

/// Records clipboard writes instead of emitting OSC 52.
#[derive(Clone, Default)]
pub struct FakeHost {
    /// What was copied.
    pub copies: Arc<Mutex<Vec<String>>>,
}

impl Host for FakeHost {
    fn copy(&mut self, text: &str) -> Result<(), String> {
        self.copies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(text.to_owned());
        Ok(())
    }
    fn suspend(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// Deadlines are generous: machines are shared and noisy.
pub fn deadline() -> Duration {
    if std::env::var_os("CI").is_some() {
        Duration::from_secs(30)
    } else {
        Duration::from_secs(15)
    }
}

/// The real loop against the in-process demo service.
pub struct Runner {
    /// The screen.
    pub backend: SharedBackend,
    /// Counters of the loop.
    pub stats: Stats,
    /// Clipboard writes.
    pub host: FakeHost,
    input: UnboundedSender<io::Result<Event>>,
    task: JoinHandle<Result<Model, String>>,
    _demo: DemoHandle,
}

impl Runner {
    /// Starts the demo service and the loop at `w`×`h`, on `pane`.
    pub async fn start(w: u16, h: u16, pane: &str, demo: DemoConfig) -> Runner {
        let handle = outpost::testkit::demo::spawn("127.0.0.1:0".parse().expect("addr"), demo)
            .await
            .expect("demo service");
        let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
        let client = Client::new(ClientConfig::new(handle.base_url(), key)).expect("client");
        let session = Session {
            host: client.host(),
            demo: true,
            masked_key: client.masked_key(),
            loopback: true,
            read_only: false,
            read_only_flag: false,
            profile: None,
        };
        let mut state = State::default();
        state.prefs.last_pane = Some(pane.to_owned());
        let model = Model::new(
            std::time::Instant::now(),
            (w, h),
            session,
            Keymap::default(),
            state,
        );
        let backend = SharedBackend(Arc::new(Mutex::new(TestBackend::new(w, h))));
        let mut terminal = Terminal::new(backend.clone()).expect("terminal");
        let (tx, rx) = unbounded_channel();
        let stats = Stats::default();
        let host = FakeHost::default();
        let services = Services {
            client,
            store: Store::new(None),
            host: host.clone(),
            stats: stats.clone(),
            clock: std::sync::Arc::new(handle.clock()),
        };
        let task = tokio::spawn(async move {
            runtime::run(
                &mut terminal,
                UnboundedReceiverStream::new(rx),
                Channel::default(),
                services,
                model,
            )
            .await
        });
        Runner {
            backend,
            stats,
            host,
            input: tx,
            task,
            _demo: handle,
        }
    }

    /// Sends a key.
    pub fn key(&self, code: KeyCode) {
        self.key_with(code, KeyModifiers::NONE);
    }

    /// Sends a key with modifiers.
    pub fn key_with(&self, code: KeyCode, mods: KeyModifiers) {
        let _ = self.input.send(Ok(Event::Key(KeyEvent::new(code, mods))));
    }

    /// Types text.
    pub fn type_text(&self, s: &str) {
        for c in s.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    /// Waits until the screen holds `text`; the error carries the screen.
    pub async fn wait_for(&self, text: &str) -> Result<String, String> {
        let end = tokio::time::Instant::now() + deadline();
        loop {
            let screen = self.backend.text();
            if screen.contains(text) {
                return Ok(screen);
            }
            if tokio::time::Instant::now() > end {
                return Err(format!("`{text}` never appeared; the screen:\n{screen}"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Quits with Ctrl-C and returns the final model.
    pub async fn quit(self) -> Model {
        self.key_with(KeyCode::Char('c'), KeyModifiers::CONTROL);
        match tokio::time::timeout(deadline(), self.task).await {
            Ok(Ok(Ok(m))) => m,
            other => panic!("the loop did not end cleanly: {other:?}"),
        }
    }
}

/// Rows of text inside the box (or the part of one) whose top line holds
/// `title`: the rows down to the next border at the box's left edge.
pub fn rows_under(text: &str, title: &str) -> Option<usize> {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let top = lines
        .iter()
        .position(|l| l.iter().collect::<String>().contains(title))?;
    let x = lines[top]
        .iter()
        .position(|c| matches!(c, '┌' | '│' | '├'))?;
    let rows = lines[top + 1..]
        .iter()
        .take_while(|l| !matches!(l.get(x), Some('└' | '├' | '┌')))
        .count();
    Some(rows)
}

/// Rows strictly between the first line holding `from` and the next one
/// holding `to` (a form field's input, between its label and its help).
pub fn rows_between(text: &str, from: &str, to: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let a = lines.iter().position(|l| l.contains(from))?;
    let b = lines[a + 1..].iter().position(|l| l.contains(to))?;
    Some(b)
}
