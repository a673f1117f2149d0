//! Chaos: the dashboard in a pty against `outpost serve` with injected
//! 500s, 429s and malformed bodies, and writes slower than the client's
//! time limit, toured through every pane — each one's title waited for,
//! the shared keys pressed, one of its items opened (a campaign, a thread)
//! and one write made where the demo allows it: a search created, a
//! campaign created, a draft saved (and once a draft sent), a domain
//! added, the profile saved. It must not panic, must answer keys while
//! requests hang, and every write action must reach the service exactly
//! once, never twice: the serve log is the witness. Writes outlast the
//! client's time limit (their answer is always lost), so a second request
//! could only be a resend; and since the service's own rate limit is off,
//! every 429 is chaos's, given after the wait, never seen by the client. A
//! draft typed when Ctrl-C comes is kept in the state file.
//!
//! The CI run (`chaos_short`) is one tour. The long run is ignored by
//! default and tours again and again for `OUTPOST_CHAOS_SECS` (200):
//!
//! ```sh
//! OUTPOST_CHAOS_SECS=200 cargo test --release --test e2e chaos_long -- --ignored --nocapture
//! ```

#![expect(
    clippy::expect_used,
    reason = "Test helpers: a broken harness fails the test, with the reason."
)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{Pty, deadline};

const ESC: &[u8] = b"\x1b";
const CTRL_C: &[u8] = b"\x03";
const CTRL_O: &[u8] = b"\x0f";
const CTRL_S: &[u8] = b"\x13";

/// The methods that change something: slowed past the client's limit.
const WRITES: &str = "POST,PUT,PATCH,DELETE";

/// `outpost serve` with chaos flags, its request log read as it comes.
struct Serve {
    child: Child,
    base_url: String,
    log: Arc<Mutex<Vec<serde_json::Value>>>,
}

impl Serve {
    fn start(latency_ms: u64, seed: u64) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_outpost"))
            .args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "0"])
            .args(["--chaos-seed", &seed.to_string()])
            .args(["--chaos-latency-ms", &latency_ms.to_string()])
            .args(["--chaos-latency-methods", WRITES])
            .args(["--chaos-error-rate", "0.2", "--chaos-429-rate", "0.2"])
            .args(["--chaos-malformed-rate", "0.05"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("outpost serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let log: Arc<Mutex<Vec<serde_json::Value>>> = Arc::default();
        let (url_tx, url_rx) = std::sync::mpsc::channel();
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("outpost demo service listening on ") {
                    let url = rest.split_whitespace().next().unwrap_or_default();
                    let _ = url_tx.send(url.to_owned());
                } else if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line)
                    && let Ok(mut l) = lines.lock()
                {
                    l.push(v);
                }
            }
        });
        let base_url = url_rx
            .recv_timeout(deadline())
            .expect("serve prints its address");
        Serve {
            child,
            base_url,
            log,
        }
    }

    /// Requests that could change something (not the two reading POSTs)
    /// with `method` to a path matching `pattern` (`*`: one segment).
    fn writes(&self, method: &str, pattern: &str) -> usize {
        self.log.lock().map_or(0, |l| {
            l.iter()
                .filter(|v| v["method"] == method && !is_read(v))
                .filter(|v| v["path"].as_str().is_some_and(|p| path_matches(pattern, p)))
                .count()
        })
    }

    fn requests(&self) -> usize {
        self.log.lock().map_or(0, |l| l.len())
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The two POSTs the contract defines as reads: the results filter and the
/// `poll=true` verification read.
fn is_read(v: &serde_json::Value) -> bool {
    let path = v["path"].as_str().unwrap_or_default();
    path.ends_with("/results/query")
        || (path.ends_with("/verify")
            && v["query"]
                .as_str()
                .is_some_and(|q| q.split('&').any(|p| p == "poll=true")))
}

/// Whether `path` matches `pattern`, `*` standing for one segment.
fn path_matches(pattern: &str, path: &str) -> bool {
    let p: Vec<&str> = pattern.split('/').collect();
    let q: Vec<&str> = path.split('/').collect();
    p.len() == q.len() && p.iter().zip(&q).all(|(a, b)| *a == "*" || a == b)
}

/// The write actions made so far: how many requests each method and path
/// must have met, and how many actions there were.
#[derive(Default)]
struct Ledger {
    expected: BTreeMap<(&'static str, &'static str), usize>,
}

impl Ledger {
    /// One write action was made: its request reaches the service (after
    /// the chaos latency), once.
    fn wrote(
        &mut self,
        (pty, serve): (&Pty, &Serve),
        name: &str,
        method: &'static str,
        path: &'static str,
    ) {
        let want = self.expected.entry((method, path)).or_default();
        *want += 1;
        let want = *want;
        let end = Instant::now() + deadline();
        while serve.writes(method, path) < want {
            assert!(
                Instant::now() < end,
                "{name}: the {method} {path} never reached the service; the screen:\n{}",
                pty.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(serve.writes(method, path), want, "{name}: sent twice");
    }

    /// Every write action's requests, counted again: none was sent twice
    /// later (a resend after the lost answer).
    fn check(&self, serve: &Serve) {
        for ((method, path), want) in &self.expected {
            assert_eq!(
                serve.writes(method, path),
                *want,
                "{method} {path}: one request per write action, never two"
            );
        }
    }

    fn actions(&self) -> usize {
        self.expected.values().sum()
    }
}

/// The dashboard against `serve`, polling fast (loopback allows it), its
/// requests given up after 1 s: every write outlasts it.
fn dashboard(serve: &Serve) -> Pty {
    let config = format!(
        "base_url = \"{}\"\napi_key = \"{}\"\nrequest_timeout_secs = 1\n[poll]\ndomain_secs = 1\nrun_secs = 0.5\ncampaign_secs = 1\ninbox_secs = 1\n",
        serve.base_url,
        outpost::testkit::demo::DEMO_KEY
    );
    let pty = Pty::spawn(&[], 120, 34, &config);
    pty.wait_for(" Outpost ").expect("the dashboard starts");
    pty
}

/// Presses keys, one at a time, and checks the dashboard still draws.
fn keys(pty: &Pty, keys: &[&[u8]]) {
    for k in keys {
        pty.send(k);
        std::thread::sleep(Duration::from_millis(40));
    }
    pty.wait_for(" Outpost ")
        .expect("still drawing after the keys");
}

/// Waits for `text`, pressing `r` every few seconds meanwhile: under chaos
/// a read can fail after all its retries, and the pane then says so.
fn wait_retrying(pty: &Pty, text: &str) -> String {
    let end = Instant::now() + deadline();
    let mut retry = Instant::now() + Duration::from_secs(3);
    loop {
        let screen = pty.screen();
        if screen.contains(text) {
            return screen;
        }
        assert!(Instant::now() < end, "`{text}` never showed:\n{screen}");
        if Instant::now() > retry {
            pty.send(b"r");
            retry = Instant::now() + Duration::from_secs(3);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// How long [`answer_if`] looks for its question.
#[derive(Clone, Copy)]
enum Until<'a> {
    /// Until this shows instead (what comes when no question does).
    Shows(&'a str),
    /// For this long.
    For(Duration),
}

/// Answers a question with `key` if one of `texts` shows while it looks.
fn answer_if(pty: &Pty, texts: &[&str], key: &[u8], until: Until<'_>) {
    let end = Instant::now()
        + match until {
            Until::Shows(_) => deadline(),
            Until::For(d) => d,
        };
    while Instant::now() < end {
        let screen = pty.screen();
        if texts.iter().any(|t| screen.contains(t)) {
            keys(pty, &[key]);
            return;
        }
        if matches!(until, Until::Shows(n) if screen.contains(n)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Closes the form titled `title` (a draft is kept): `Esc` again while it
/// is busy learning what became of its lost answer; a question about
/// unsaved changes is answered "discard".
fn close(pty: &Pty, title: &str) {
    let end = Instant::now() + deadline();
    while pty.screen().contains(title) {
        assert!(
            Instant::now() < end,
            "`{title}` never closed:\n{}",
            pty.screen()
        );
        keys(pty, &[ESC]);
        // Asked again on the next turn of the loop if it comes late.
        answer_if(
            pty,
            &["Unsaved"],
            b"n",
            Until::For(Duration::from_millis(300)),
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Goes to pane `n` and waits for its title.
fn pane(pty: &Pty, n: &[u8], title: &str) {
    keys(pty, &[ESC, ESC, ESC, n]);
    wait_retrying(pty, title);
}

/// The shared keys in the pane shown: move, jump, refresh, help, filter.
fn tour_pane(pty: &Pty) {
    keys(pty, &[b"j", b"j", b"k", b"G", b"g", b"r"]);
    keys(pty, &[b"?"]);
    pty.wait_for("Help ·").expect("help opens");
    keys(pty, &[ESC, b"/", b"x", ESC, ESC, ESC]);
}

/// The list (its title `list`) narrowed by `/text`, its first row opened
/// until `opened` shows: `Enter` again while the list is shown (it may
/// have been read again meanwhile), `r` while what opened could not be
/// read.
fn open(pty: &Pty, list: &str, text: &str, opened: &str) {
    keys(pty, &[b"/", ESC, ESC, b"/"]);
    pty.type_text(text);
    keys(pty, &[b"\r"]);
    let end = Instant::now() + deadline();
    loop {
        let screen = pty.screen();
        if screen.contains(opened) {
            return;
        }
        assert!(Instant::now() < end, "`{opened}` never showed:\n{screen}");
        keys(pty, &[if screen.contains(list) { b"\r" } else { b"r" }]);
        let wait = Instant::now() + Duration::from_millis(2500);
        while Instant::now() < wait && !pty.screen().contains(opened) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A write made with a form: `open.0` opens the form titled `open.1` (a
/// draft of an earlier round offered back is discarded), `text` is typed
/// and `send` pressed; its request reaches the service once; the form is
/// closed.
fn form_write(
    (pty, serve, ledger): (&Pty, &Serve, &mut Ledger),
    open: (&[u8], &str),
    text: &str,
    send: &[u8],
    (name, method, path): (&str, &'static str, &'static str),
) {
    keys(pty, &[open.0]);
    answer_if(
        pty,
        &["Unsent draft", "Unsaved text"],
        b"n",
        Until::Shows(open.1),
    );
    pty.wait_for(open.1).expect("the form opens");
    pty.type_text(text);
    keys(pty, &[send]);
    ledger.wrote((pty, serve), name, method, path);
    close(pty, open.1);
}

/// Leads: a search created (its answer lost: the form says it may have
/// been, and closing keeps it as a draft, discarded at the next round).
fn leads(pty: &Pty, serve: &Serve, ledger: &mut Ledger, round: usize) {
    pane(pty, b"1", "Lead Finder searches");
    tour_pane(pty);
    let text = format!("Chaos search {round}\t\tfind buyers\t\t\tvp sales\tthey buy");
    form_write(
        (pty, serve, ledger),
        (b"n", "New Lead Finder search"),
        &text,
        CTRL_S,
        ("create a search", "POST", "/api/lead-finder"),
    );
}

/// Campaigns: one opened, then one created.
fn campaigns(pty: &Pty, serve: &Serve, ledger: &mut Ledger, round: usize) {
    pane(pty, b"2", "Campaigns (");
    tour_pane(pty);
    open(pty, "Campaigns (", "Series B", "Settings & sequence");
    keys(pty, &[b"l", b"h", ESC, ESC]);
    // The form needs the senders: when reading them failed, close it, let
    // the list read them again and open it again.
    for _ in 0..10 {
        keys(pty, &[b"n"]);
        let form = pty
            .wait_until("the senders, or why not", |s| {
                s.contains("New campaign")
                    && (s.contains("Maya Chen") || s.contains("could not read"))
            })
            .expect("the create form");
        if form.contains("Maya Chen") {
            break;
        }
        let before = serve.requests();
        keys(pty, &[ESC, b"r"]);
        // Reopen once the refresh has reached the service (an event, not a
        // guessed pause).
        let end = Instant::now() + deadline();
        while serve.requests() <= before && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    pty.type_text(&format!("\tChaos campaign {round}"));
    keys(pty, &[CTRL_S]);
    answer_if(pty, &["again?"], b"y", Until::For(Duration::from_secs(2)));
    ledger.wrote((pty, serve), "create a campaign", "POST", "/api/campaigns");
    close(pty, "New campaign");
}

/// Inbox: a thread opened, a new email saved as a draft; in the first
/// round the seeded draft sent.
fn inbox(pty: &Pty, serve: &Serve, ledger: &mut Ledger, round: usize) {
    pane(pty, b"3", "Inbox ·");
    tour_pane(pty);
    open(pty, "Inbox ·", "mateo", "Thread");
    keys(pty, &[ESC]);
    if round == 0 {
        open(pty, "Inbox ·", "jonas", "Thread");
        keys(pty, &[ESC, b"S"]);
        pty.wait_for("Send this email?").expect("the send confirm");
        keys(pty, &[b"y"]);
        ledger.wrote(
            (pty, serve),
            "send a draft",
            "POST",
            "/api/threads/*/messages",
        );
    }
    keys(pty, &[ESC]);
    let text = format!("chaos{round}@example.com\t\t\t\tChaos {round}\tBody {round}");
    form_write(
        (pty, serve, ledger),
        (b"c", "New email"),
        &text,
        CTRL_O,
        ("save a draft", "POST", "/api/threads"),
    );
}

/// Senders & Domains: a domain added; the dialog shows its records or why
/// not (the answer is lost: it re-reads the list to learn which).
fn domains(pty: &Pty, serve: &Serve, ledger: &mut Ledger, round: usize) {
    pane(pty, b"4", "Sending domains");
    tour_pane(pty);
    form_write(
        (pty, serve, ledger),
        (b"a", "Add a sending domain"),
        &format!("mail.chaos-{round}.io"),
        CTRL_S,
        ("add a domain", "POST", "/api/email/domains"),
    );
}

/// Profile: read, edited, reviewed and saved (one full replacement).
fn profile(pty: &Pty, serve: &Serve, ledger: &mut Ledger, round: usize) {
    pane(pty, b"5", "Company profile");
    wait_retrying(pty, "First name");
    tour_pane(pty);
    keys(pty, &[b"e"]);
    answer_if(pty, &["Unsent"], b"n", Until::Shows("Edit company profile"));
    pty.wait_for("Edit company profile").expect("the form");
    pty.type_text(&round.to_string());
    keys(pty, &[CTRL_S]);
    pty.wait_for("Review:").expect("the changes reviewed");
    keys(pty, &[b"y"]);
    ledger.wrote((pty, serve), "save the profile", "PUT", "/api/context");
    close(pty, "Edit company profile");
}

/// One tour: every pane, its title, an item opened, its write.
fn tour(pty: &Pty, serve: &Serve, ledger: &mut Ledger, round: usize) {
    leads(pty, serve, ledger, round);
    campaigns(pty, serve, ledger, round);
    inbox(pty, serve, ledger, round);
    domains(pty, serve, ledger, round);
    profile(pty, serve, ledger, round);
    ledger.check(serve);
}

/// While a request hangs (the domain watch's `poll=true` read outlasts
/// the time limit: one is nearly always in flight), a key is answered:
/// help opens.
fn keys_answered_while_requests_hang(pty: &Pty) {
    pane(pty, b"4", "Sending domains");
    // A loaded machine can let one 1.2 s hang end between seeing it and
    // drawing help; the claim holds when any of a few tries shows help
    // drawn under a hanging request (a dashboard that waits for its
    // requests never would).
    let mut last = String::new();
    for _ in 0..5 {
        pty.wait_until("a request in flight", |s| s.contains('⇅'))
            .expect("the watch's read hangs");
        pty.send(b"?");
        last = pty.wait_for("Help ·").expect("help opens at once");
        keys(pty, &[ESC]);
        if last.contains('⇅') {
            return;
        }
    }
    panic!("help was never drawn while a request hung:\n{last}");
}

/// A new email typed and left open survives Ctrl-C in the state file;
/// the process ends cleanly (no panic).
fn quit_keeping_a_draft(mut pty: Pty, body: &str) {
    pane(&pty, b"3", "Inbox ·");
    keys(&pty, &[b"c"]);
    answer_if(&pty, &["Unsaved text"], b"n", Until::Shows("New email"));
    pty.wait_for("New email").expect("the editor");
    pty.type_text(&format!("keep@example.com\t\t\t\tKept\t{body}"));
    pty.wait_for(body).expect("typed");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), Some(true), "a clean exit");
    let state = std::fs::read_to_string(pty.data_dir().join("state.json")).unwrap_or_default();
    assert!(state.contains(body), "the draft is kept: {state}");
    let log = std::fs::read_to_string(pty.log_file()).unwrap_or_default();
    assert!(!log.contains("panic"), "{log}");
}

#[test]
fn chaos_short() {
    let serve = Serve::start(1200, 7);
    let pty = dashboard(&serve);
    keys_answered_while_requests_hang(&pty);
    let mut ledger = Ledger::default();
    tour(&pty, &serve, &mut ledger, 0);
    println!(
        "chaos short: {} requests, {} write actions, each sent once",
        serve.requests(),
        ledger.actions()
    );
    assert!(serve.requests() > 20, "the chaos was met");
    quit_keeping_a_draft(pty, "Typed before Ctrl-C");
    ledger.check(&serve);
}

#[test]
#[ignore = "long run: OUTPOST_CHAOS_SECS=200 cargo test --release --test e2e chaos_long -- --ignored"]
fn chaos_long() {
    let secs: u64 = std::env::var("OUTPOST_CHAOS_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let serve = Serve::start(2000, 42);
    let pty = dashboard(&serve);
    keys_answered_while_requests_hang(&pty);
    let started = Instant::now();
    let end = started + Duration::from_secs(secs);
    let mut ledger = Ledger::default();
    let mut round = 0;
    while Instant::now() < end {
        tour(&pty, &serve, &mut ledger, round);
        // The panes by Tab too.
        for _ in 0..5 {
            keys(&pty, &[b"\t"]);
            tour_pane(&pty);
        }
        round += 1;
    }
    println!(
        "chaos long run: {round} rounds in {} s, {} requests, {} write actions: {:?}",
        started.elapsed().as_secs(),
        serve.requests(),
        ledger.actions(),
        ledger.expected
    );
    quit_keeping_a_draft(pty, "Typed before the long run's Ctrl-C");
    ledger.check(&serve);
}
