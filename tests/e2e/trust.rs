//! Never lose typed text, never a silent stall: the real binary in a pty
//! when its state cannot be saved (the data directory is a regular file —
//! tests run as root, so permission bits would not stop a write), when the
//! terminal is too small, and when the service cannot be reached.

#![expect(
    clippy::expect_used,
    reason = "Test helpers: a broken harness fails the test, with the reason."
)]

use std::path::PathBuf;

use crate::support::Pty;

const CTRL_C: &[u8] = b"\x03";
const ESC: &[u8] = b"\x1b";

/// A data directory that cannot hold anything: a regular file stands where
/// it should be. The guard keeps it alive.
fn unsaveable() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("data");
    std::fs::write(&file, b"not a directory").expect("write");
    (dir, file)
}

fn spawn_unsaveable(data: &std::path::Path) -> Pty {
    let data = data.to_string_lossy().into_owned();
    let pty = Pty::spawn_env(
        &["--demo"],
        100,
        30,
        "",
        &[("OUTPOST_DATA_DIR", data.as_str())],
    );
    pty.wait_for("drafts not saved")
        .expect("the status bar says at once that nothing can be saved");
    pty
}

#[test]
fn ctrl_c_prints_unsent_text_that_could_not_be_saved_and_fails() {
    let (_guard, data) = unsaveable();
    let mut pty = spawn_unsaveable(&data);
    pty.send(b"4");
    pty.wait_for("Sending domains").expect("the domains pane");
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add dialog");
    pty.type_text("mail.unsaved-e2e.io");
    pty.wait_for("mail.unsaved-e2e.io").expect("typed");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), Some(false), "a failed exit: text was lost");
    let (alt, hidden) = pty.modes();
    assert!(!alt && !hidden, "the terminal is restored first");
    let screen = pty
        .wait_for("it is printed above")
        .expect("the reason is printed");
    assert!(screen.contains("could not be saved"), "{screen}");
    assert!(screen.contains("is not a directory"), "{screen}");
    assert!(
        screen.contains("mail.unsaved-e2e.io"),
        "the text, to copy:\n{screen}"
    );
}

#[test]
fn sigterm_prints_unsent_text_that_could_not_be_saved() {
    let (_guard, data) = unsaveable();
    let mut pty = spawn_unsaveable(&data);
    pty.send(b"4");
    pty.wait_for("Sending domains").expect("the domains pane");
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add dialog");
    pty.type_text("mail.sigterm-e2e.io");
    pty.wait_for("mail.sigterm-e2e.io").expect("typed");
    pty.signal(libc::SIGTERM);
    assert_eq!(pty.wait_exit(), Some(false));
    let screen = pty
        .wait_for("mail.sigterm-e2e.io")
        .expect("printed on the restored terminal");
    assert!(!pty.modes().0, "{screen}");
}

#[test]
fn a_draft_that_cannot_be_saved_is_never_called_kept_and_q_asks_before_printing_it() {
    let (_guard, data) = unsaveable();
    let mut pty = spawn_unsaveable(&data);
    pty.send(b"n");
    pty.wait_for("New Lead Finder search")
        .expect("the create form");
    pty.type_text("Unsaved E2E title");
    pty.send(ESC);
    let screen = pty
        .wait_for("local state not saved")
        .expect("the failed save is said");
    assert!(!screen.contains("Draft kept —"), "{screen}");
    assert!(!screen.contains("saved locally"), "{screen}");
    // The closed draft is unsent text too: q asks before losing it.
    pty.send(b"q");
    let screen = pty
        .wait_for("Quit and lose unsent text?")
        .expect("q asks first");
    assert!(screen.contains("closed draft"), "{screen}");
    pty.send(b"y");
    assert_eq!(pty.wait_exit(), Some(false));
    pty.wait_for("Unsaved E2E title")
        .expect("the kept draft is printed, not lost");
}

#[test]
fn with_a_working_state_file_ctrl_c_keeps_the_text_there_and_prints_nothing() {
    let mut pty = Pty::spawn(&["--demo"], 100, 30, "");
    pty.wait_for("● online").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("Sending domains").expect("the domains pane");
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add dialog");
    pty.type_text("mail.saved-e2e.io");
    pty.wait_for("mail.saved-e2e.io").expect("typed");
    pty.send(CTRL_C);
    assert_eq!(pty.wait_exit(), Some(true));
    let state = std::fs::read_to_string(pty.demo_state_file()).unwrap_or_default();
    assert!(state.contains("mail.saved-e2e.io"), "{state}");
    assert!(
        !pty.screen().contains("mail.saved-e2e.io"),
        "customer text is not printed when it was saved:\n{}",
        pty.screen()
    );
}

/// Keys on the "too small" screen: `n` (new search) must not open a hidden
/// form that then swallows `q`.
#[test]
fn q_quits_from_the_too_small_screen() {
    let mut pty = Pty::spawn(&["--demo"], 50, 12, "");
    pty.wait_for("Terminal too small").expect("the notice");
    pty.wait_for("q quits").expect("the way out is named");
    pty.send(b"n");
    pty.send(b"a");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quit");
}

/// A refused connection shows in the status bar at once, while the client
/// keeps retrying behind (the request is still in flight on that screen).
#[test]
fn a_refused_connection_shows_offline_at_once() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let config =
        format!("base_url = \"http://127.0.0.1:{port}\"\napi_key = \"pk_live_abcdefgh12345678\"\n");
    let mut pty = Pty::spawn(&[], 100, 30, &config);
    let screen = pty.wait_for("offline since").expect("offline is shown");
    assert!(
        screen.contains('⇅'),
        "shown while the retries still run:\n{screen}"
    );
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true));
}

/// A service that answers every request 401, echoing the Bearer key it got
/// in its message (ending in an open OSC, which must not swallow what
/// Outpost adds). Returns its base URL; the thread lives with the test.
fn key_echoing_service() -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut key = String::from("none");
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                if let Some(k) = line
                    .to_ascii_lowercase()
                    .strip_prefix("authorization: bearer ")
                {
                    // The key as sent (the header's case aside).
                    key = line[line.len() - k.len()..].trim().to_owned();
                }
                line.clear();
            }
            let body = serde_json::json!({"error": {"code": "unauthorized",
                "message": format!("key {key} revoked\u{1b}]")}})
            .to_string();
            let _ = write!(
                &stream,
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

/// The dashboard's own witness of key masking (the CLI has one in
/// tests/cli/net.rs): a service echoing a key with punctuation in a 401
/// shows it masked on screen and in the log, and the advice after it.
#[test]
fn a_key_echoed_by_the_service_is_masked_on_the_dashboards_screen_and_log() {
    let key = "pk_live_ab.cdEFGH/ijkl+mnop=qr12";
    let secret = "ab.cdEFGH/ijkl+mnop=";
    let config = format!(
        "base_url = \"{}\"\napi_key = \"{key}\"\n",
        key_echoing_service()
    );
    let mut pty = Pty::spawn(&[], 120, 30, &config);
    let screen = pty
        .wait_for("pk_live_…qr12")
        .expect("the refusal shows the echoed key masked");
    let output = pty.output();
    pty.send(CTRL_C);
    let _ = pty.wait_exit();
    let log = pty.log();
    for (what, text) in [("screen", &screen), ("output", &output), ("log", &log)] {
        for i in 0..secret.len() - 4 {
            assert!(
                !text.contains(&secret[i..i + 5]),
                "the {what} leaks the key: {text}"
            );
        }
    }
    assert!(
        screen.contains("outpost check"),
        "the advice after the service's text is not swallowed: {screen}"
    );
}
