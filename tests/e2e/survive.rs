//! Drafts survive anything (issue 21): steady typing is kept within three
//! seconds however fast it goes, so a `kill -9` loses at most those; two
//! dashboards on one data directory keep each other's drafts; a named pipe
//! where a file should be is refused, never waited on; closing the
//! terminal saves and exits without a panic.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::{Pty, deadline};

/// The state file's text of a `--demo` run in `dir` (empty when there is
/// none yet).
fn state(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("demo").join("state.json")).unwrap_or_default()
}

/// Opens the inbox's new-email editor with its body focused.
fn new_email(pty: &Pty) {
    pty.send(b"3");
    pty.wait_for("Inbox · all")
        .expect("the inbox lists threads");
    pty.send(b"c");
    pty.wait_for("New email").expect("the editor opens");
    pty.type_text("steady@example.com");
    // To, Name, Cc, Bcc, Subject, then the body.
    pty.send(b"\t\t\t\t\t");
}

#[test]
fn steady_typing_is_kept_within_three_seconds_and_survives_kill_9() {
    let pty = Pty::spawn(&["--demo"], 100, 30, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    new_email(&pty);
    // Words half a second apart: the one-second quiet the save waited for
    // never comes. The text must reach the file while typing goes on.
    let words: Vec<String> = (0..24).map(|i| format!("word{i:02}")).collect();
    let mut kept_after = None;
    for (i, w) in words.iter().enumerate() {
        pty.type_text(&format!("{w} "));
        std::thread::sleep(Duration::from_millis(500));
        if state(pty.data_dir()).contains("word00") {
            kept_after = Some(i);
            break;
        }
    }
    let Some(i) = kept_after else {
        panic!(
            "12 s of steady typing never reached the state file:\n{}",
            state(pty.data_dir())
        );
    };
    // Typing goes on a little, then the process is killed outright: no
    // save on the way out.
    for w in &words[i + 1..(i + 3).min(words.len())] {
        pty.type_text(&format!("{w} "));
        std::thread::sleep(Duration::from_millis(500));
    }
    pty.signal(libc::SIGKILL);
    let mut pty = pty.restart(&["--demo"], 100, 30, &[]);
    pty.wait_for("Outpost").expect("the dashboard starts again");
    pty.send(b"3");
    pty.wait_for("Inbox · all").expect("the inbox");
    pty.send(b"c");
    pty.wait_for("Unsaved text")
        .expect("the kept text is offered");
    pty.send(b"y");
    let screen = pty
        .wait_for("word00")
        .expect("the text typed before the bound is back");
    assert!(screen.contains("steady@example.com"), "{screen}");
    pty.signal(libc::SIGTERM);
    assert!(pty.wait_exit().is_some());
}

#[test]
fn two_dashboards_on_one_data_dir_keep_each_others_drafts() {
    let mut a = Pty::spawn(&["--demo"], 100, 30, "");
    a.wait_for("Outpost").expect("A starts");
    // B starts before A has saved anything: it read an empty state.
    let mut b = a.beside(&["--demo"], 100, 30, &[]);
    b.wait_for("Outpost").expect("B starts");

    // A keeps an email's text in the state file.
    new_email(&a);
    a.type_text("Written in instance A.");
    let end = Instant::now() + deadline();
    while !state(a.data_dir()).contains("Written in instance A.") {
        assert!(Instant::now() < end, "A never kept its text");
        std::thread::sleep(Duration::from_millis(100));
    }

    // B types a domain name and is told to end (it keeps the text on the
    // way out): its save must not drop A's draft, which B never saw.
    b.send(b"4");
    b.wait_for("Sending domains").expect("B's domains pane");
    b.send(b"a");
    b.wait_for("Add a sending domain").expect("B's add dialog");
    b.type_text("typed-in-b.example");
    b.wait_for("typed-in-b.example").expect("B has the name");
    b.signal(libc::SIGTERM);
    assert_eq!(b.wait_exit(), Some(true), "B ends");
    let after_b = state(a.data_dir());
    assert!(
        after_b.contains("typed-in-b.example"),
        "B's draft is kept:\n{after_b}"
    );
    assert!(
        after_b.contains("Written in instance A."),
        "A's draft survives B's save:\n{after_b}"
    );

    // A ends: its save keeps B's draft, which A never saw either.
    a.signal(libc::SIGTERM);
    assert_eq!(a.wait_exit(), Some(true), "A ends");
    let after_a = state(a.data_dir());
    assert!(
        after_a.contains("typed-in-b.example") && after_a.contains("Written in instance A."),
        "both drafts are kept:\n{after_a}"
    );
}

#[test]
fn a_named_pipe_at_the_state_file_or_the_log_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("config.toml"), "").expect("config");
    // A `--demo` run keeps its state in the data directory's `demo/`.
    std::fs::create_dir(dir.path().join("demo")).expect("demo dir");
    let state_file = dir.path().join("demo").join("state.json");
    let log_file = dir.path().join("outpost.log");
    if !outpost::testkit::files::testing::mkfifo(&state_file)
        || !outpost::testkit::files::testing::mkfifo(&log_file)
    {
        return;
    }
    let mut pty = Pty::spawn_in(dir, &["--demo"], 160, 40, &[]);
    // Before, the dashboard hung blank opening the pipe for a writer that
    // never came.
    let screen = pty
        .wait_for("Outpost")
        .expect("the dashboard starts despite the pipes");
    let screen = if screen.contains("named pipe") {
        screen
    } else {
        pty.wait_for("named pipe")
            .expect("a notice says what is wrong")
    };
    assert!(screen.contains("not a regular file"), "{screen}");
    pty.send(b"q");
    assert!(pty.wait_exit().is_some(), "q quits");
    #[cfg(unix)]
    for p in [&state_file, &log_file] {
        let t = std::fs::symlink_metadata(p).map(|m| m.file_type());
        assert!(
            t.is_ok_and(|t| std::os::unix::fs::FileTypeExt::is_fifo(&t)),
            "{} is left as it was, not replaced",
            p.display()
        );
    }
}

#[test]
fn a_named_pipe_as_the_config_file_is_refused_with_a_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("config.toml");
    if !outpost::testkit::files::testing::mkfifo(&config) {
        return;
    }
    let mut pty = Pty::spawn_in(dir, &["--demo"], 160, 30, &[]);
    assert_eq!(pty.wait_exit(), Some(false), "it stops at once, not hung");
    let out = pty.output();
    assert!(
        out.contains("config.toml: it is a named pipe (FIFO), not a regular file"),
        "{out}"
    );
}

#[test]
fn closing_the_terminal_saves_the_text_and_exits_without_a_panic() {
    let mut pty = Pty::spawn(&["--demo"], 100, 30, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    new_email(&pty);
    pty.type_text("Typed before the window closed.");
    pty.wait_for("Typed before the window closed.")
        .expect("the text is on screen");
    // The terminal window closes: the pty's master end goes away.
    pty.hang_up();
    let exit = pty.wait_exit();
    let log = pty.log();
    assert!(log.contains("dashboard stopped"), "{log}");
    assert!(
        !log.contains("panic"),
        "nothing panicked on the way out:\n{log}"
    );
    assert_eq!(exit, Some(true), "it exits cleanly");
    let state = state(pty.data_dir());
    assert!(
        state.contains("Typed before the window closed."),
        "the text is saved:\n{state}\nlog:\n{log}"
    );
}

/// Every form, not only the Inbox editor: steady typing into the new
/// Lead Finder search reaches the state file within three seconds, and a
/// `kill -9` loses nothing typed before that.
#[test]
fn steady_typing_in_a_search_form_survives_kill_9() {
    let pty = Pty::spawn(&["--demo"], 100, 30, "");
    pty.wait_for("Lead Finder searches")
        .expect("the dashboard starts on the searches");
    pty.send(b"n");
    pty.wait_for("New Lead Finder search")
        .expect("the form opens");
    // Letters a quarter second apart: no pause the save could wait for.
    let start = Instant::now();
    let mut kept = false;
    for c in "Steadytypedtitle".chars().cycle().take(60) {
        pty.type_text(&c.to_string());
        std::thread::sleep(Duration::from_millis(250));
        if state(pty.data_dir()).contains("Steadytyped") {
            kept = true;
            break;
        }
    }
    assert!(
        kept,
        "{:?} of steady typing never reached the state file:\n{}",
        start.elapsed(),
        state(pty.data_dir())
    );
    pty.signal(libc::SIGKILL);
    let mut pty = pty.restart(&["--demo"], 100, 30, &[]);
    pty.wait_for("Lead Finder searches")
        .expect("the dashboard starts again");
    pty.send(b"n");
    pty.wait_for("Steadytyped")
        .expect("the typed title is offered back");
    pty.send(b"y");
    pty.wait_for("New Lead Finder search").expect("restored");
    pty.signal(libc::SIGTERM);
    assert!(pty.wait_exit().is_some());
}
