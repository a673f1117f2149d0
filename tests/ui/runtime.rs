//! The real loop on a test backend, against the in-process demo service.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use outpost::testkit::api::model::DomainStatus;
use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use outpost::testkit::app::keymap::Keymap;
use outpost::testkit::app::{Model, Session};
use outpost::testkit::demo::DemoConfig;
use outpost::testkit::runtime::{self, Channel, Services, Stats};
use outpost::testkit::store::{State, Store};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tokio::sync::mpsc::unbounded_channel;
use tokio_stream::wrappers::UnboundedReceiverStream;

use crate::support::{FakeHost, GoneBackend, Runner, SharedBackend, deadline};

/// Idle costs nothing: with no input and no due poller, no frame is drawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_dashboard_draws_nothing() {
    let r = Runner::start(80, 24, "domains", DemoConfig::default()).await;
    r.wait_for("Sending domains").await.expect("domains load");
    // The senders view watches nothing, so nothing is due.
    r.key(KeyCode::Char('s'));
    r.wait_for("Senders (").await.expect("senders load");
    // Let replies and toasts settle.
    let mut last = r.stats.frames.load(Ordering::Relaxed);
    loop {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let now = r.stats.frames.load(Ordering::Relaxed);
        if now == last {
            break;
        }
        last = now;
    }
    let messages = r.stats.messages.load(Ordering::Relaxed);
    // The window: 1.5 s with no input.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let frames_idle = r.stats.frames.load(Ordering::Relaxed) - last;
    let messages_idle = r.stats.messages.load(Ordering::Relaxed) - messages;
    // Then a key bound to nothing: its message is counted only once the
    // loop has taken everything before it, so the window's silence is the
    // loop's idleness, not a loop too busy or stuck to count (and the key,
    // changing nothing, draws nothing either).
    r.key(KeyCode::F(12));
    let end = tokio::time::Instant::now() + deadline();
    while r.stats.messages.load(Ordering::Relaxed) == messages + messages_idle {
        assert!(tokio::time::Instant::now() < end, "the loop took no key");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // For BENCHMARKS.md (`--nocapture`).
    println!("idle 1.5 s: {frames_idle} frames, {messages_idle} messages");
    assert_eq!(frames_idle, 0, "no frame while idle");
    assert_eq!(messages_idle, 0, "no message while idle");
    assert_eq!(
        r.stats.frames.load(Ordering::Relaxed),
        last,
        "a key that changes nothing draws nothing"
    );
    r.quit().await;
}

/// Through the real loop: open the newest (pending) domain, copy a record
/// value, trigger a check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_and_copy_through_the_loop() {
    let demo = DemoConfig {
        time_scale: 6000.0,
        ..DemoConfig::default()
    };
    let r = Runner::start(120, 30, "domains", demo).await;
    r.wait_for("● pending").await.expect("domains load");
    r.key(KeyCode::Enter);
    let detail = r.wait_for("DNS records").await.expect("detail opens");
    assert!(
        detail.contains("● pending"),
        "the newest seeded domain is pending:\n{detail}"
    );
    r.key(KeyCode::Char('y'));
    r.wait_for("copied to the clipboard")
        .await
        .expect("copy notice");
    assert_eq!(r.host.copies.lock().map_or(0, |c| c.len()), 1);
    r.key(KeyCode::Char('v'));
    r.wait_for("Verification started")
        .await
        .expect("verify answered");
    let model = r.quit().await;
    let status = model.panes.domains.open_domain().map(|d| d.status.clone());
    assert!(
        matches!(
            status,
            Some(DomainStatus::Verifying | DomainStatus::Verified)
        ),
        "the trigger moved it on: {status:?}"
    );
}

/// Start-up sends the open pane's first request before any terminal exists
/// (so the network works while the screen is set up), and the first frame
/// drawn once there is a terminal shows what it brought.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_request_leaves_before_there_is_a_terminal() {
    let handle =
        outpost::testkit::demo::spawn("127.0.0.1:0".parse().expect("addr"), DemoConfig::default())
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
    state.prefs.last_pane = Some("leads".into());
    let model = Model::new(Instant::now(), (120, 30), session, Keymap::default(), state);
    let stats = Stats::default();
    let services = Services {
        client: client.clone(),
        store: Store::new(None),
        host: FakeHost::default(),
        stats: stats.clone(),
        clock: Arc::new(handle.clock()),
    };
    let started = runtime::start(Channel::default(), services, model);

    let end = tokio::time::Instant::now() + deadline();
    while client.attempts() == 0 {
        assert!(
            tokio::time::Instant::now() < end,
            "no request was sent before the terminal"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(stats.frames.load(Ordering::Relaxed), 0, "nothing drawn yet");

    let backend = SharedBackend(Arc::new(Mutex::new(TestBackend::new(120, 30))));
    let mut terminal = Terminal::new(backend.clone()).expect("terminal");
    let (input, rx) = unbounded_channel();
    let task = tokio::spawn(async move {
        runtime::run_started(&mut terminal, UnboundedReceiverStream::new(rx), started).await
    });
    loop {
        let screen = backend.text();
        if screen.contains("RevOps leaders at Series B SaaS") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < end,
            "the searches never appeared; the screen:\n{screen}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let _ = input.send(Ok(Event::Key(ctrl_c)));
    let ended = tokio::time::timeout(deadline(), task).await;
    assert!(
        matches!(ended, Ok(Ok(Ok(_)))),
        "the loop did not end cleanly: {ended:?}"
    );
}

/// A day-long 429 on one route family (seen: `Retry-After: 100000`) is
/// shown as such in the status bar, and `r` sends one attempt at once
/// through the closed gate; its answer reopens the family.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r_tries_once_through_a_day_long_rate_limit() {
    let handle =
        outpost::testkit::demo::spawn("127.0.0.1:0".parse().expect("addr"), DemoConfig::default())
            .await
            .expect("demo service");
    let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
    let client = Client::new(ClientConfig::new(handle.base_url(), key)).expect("client");
    client.gate().close_until(
        outpost::testkit::api::RouteFamily::EmailDomains,
        Instant::now() + Duration::from_secs(100_000),
    );
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
    state.prefs.last_pane = Some("domains".into());
    let model = Model::new(Instant::now(), (120, 30), session, Keymap::default(), state);
    let services = Services {
        client: client.clone(),
        store: Store::new(None),
        host: FakeHost::default(),
        stats: Stats::default(),
        clock: Arc::new(handle.clock()),
    };
    let backend = SharedBackend(Arc::new(Mutex::new(TestBackend::new(120, 30))));
    let mut terminal = Terminal::new(backend.clone()).expect("terminal");
    let (input, rx) = unbounded_channel();
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
    let wait_for = |text: &'static str| {
        let backend = backend.clone();
        async move {
            let end = tokio::time::Instant::now() + deadline();
            loop {
                let screen = backend.text();
                if screen.contains(text) {
                    return screen;
                }
                assert!(
                    tokio::time::Instant::now() < end,
                    "`{text}` never appeared:\n{screen}"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    let screen = wait_for("rate limited for 27 h").await;
    assert!(
        screen.contains("email/domains — r tries once now"),
        "{screen}"
    );
    assert_eq!(client.attempts(), 0, "nothing was sent through the gate");
    let key = |c| Ok(Event::Key(KeyEvent::new(c, KeyModifiers::NONE)));
    let _ = input.send(key(KeyCode::Char('r')));
    let screen = wait_for("mail.northwind-demo.io").await;
    assert!(screen.contains("● online"), "the gate reopened:\n{screen}");
    assert!(client.attempts() >= 1);
    let _ = input.send(Ok(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    ))));
    let ended = tokio::time::timeout(deadline(), task).await;
    assert!(matches!(ended, Ok(Ok(Ok(_)))), "{ended:?}");
}

/// The terminal goes away and a frame fails to draw before the input says
/// so (a hang-up): the loop keeps the unsent text and quits, as on a
/// hang-up. Before, it returned "cannot draw" and skipped the save.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_that_cannot_be_drawn_saves_the_text_and_quits() {
    let handle =
        outpost::testkit::demo::spawn("127.0.0.1:0".parse().expect("addr"), DemoConfig::default())
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
    state.prefs.last_pane = Some("domains".into());
    let model = Model::new(Instant::now(), (100, 30), session, Keymap::default(), state);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("state.json");
    let services = Services {
        client,
        store: Store::new(Some(path.clone())),
        host: FakeHost::default(),
        stats: Stats::default(),
        clock: Arc::new(handle.clock()),
    };
    let backend = GoneBackend {
        inner: SharedBackend(Arc::new(Mutex::new(TestBackend::new(100, 30)))),
        gone: Arc::default(),
    };
    let mut terminal = Terminal::new(backend.clone()).expect("terminal");
    let (input, rx) = unbounded_channel();
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
    let key = |c: char| {
        let _ = input.send(Ok(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        ))));
    };
    let end = tokio::time::Instant::now() + deadline();
    let wait = |text: &'static str| {
        let backend = backend.clone();
        async move {
            while !backend.inner.text().contains(text) {
                assert!(tokio::time::Instant::now() < end, "{text} never appeared");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    wait("Sending domains").await;
    key('a');
    wait("Add a sending domain").await;
    "gone.example".chars().for_each(key);
    wait("gone.example").await;
    backend.gone.store(true, Ordering::SeqCst);
    key('x');
    let ended = tokio::time::timeout(deadline(), task).await;
    let model = match ended {
        Ok(Ok(Ok(model))) => model,
        other => panic!("the loop did not end cleanly: {other:?}"),
    };
    assert!(model.quit);
    let saved = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        saved.contains("gone.examplex"),
        "the text is kept:\n{saved}"
    );
}
