//! Snapshots of the chrome: tabs, status bar, help, toasts, confirm, the
//! command line, the too-small screen; and rendering safety.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::ApiError;
use outpost::testkit::api::ServiceError;
use outpost::testkit::app::toast::Level;
use outpost::testkit::app::{Confirm, ConfirmAction, Msg, Overlay, fixtures, update};

use crate::domains::loaded;
use crate::support::{screen_text, terminal};

#[test]
fn help_overlay_is_generated_from_the_keymap() {
    let mut m = loaded(80, 24);
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE)),
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("copy the selected DNS value"), "{text}");
    assert_snapshot!("help_80x24", text);
}

#[test]
fn an_error_toast_shows_the_service_code_and_message() {
    let mut m = loaded(80, 24);
    let err = ApiError::Service(Box::new(ServiceError::from_body(
        500,
        br#"{"error":{"code":"internal_error","message":"Unexpected server error"}}"#,
        None,
    )));
    let now = m.now;
    m.toasts.error(now, "loading sending domains", &err);
    m.toasts.push(
        now,
        Level::Success,
        "Copied",
        "52 characters copied to the clipboard (OSC 52)",
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(
        text.contains("internal_error · loading sending domains"),
        "{text}"
    );
    assert_snapshot!("toasts_80x24", text);
}

#[test]
fn a_confirm_dialog() {
    let mut m = loaded(80, 24);
    m.overlay = Some(Overlay::Confirm(Confirm {
        title: "Quit?".into(),
        lines: vec![
            "You have unsent text in the new search form.".into(),
            "It is kept in the local state file and offered back next time.".into(),
        ],
        yes: "Quit".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Quit,
    }));
    assert_snapshot!("confirm_80x24", screen_text(&terminal(&m, 80, 24)));
}

/// A notice that arrives while a question is open does not sit over it
/// (`:messages` keeps it); it shows once the question is answered.
#[test]
fn a_toast_never_covers_a_dialog() {
    let mut m = loaded(80, 24);
    m.overlay = Some(Overlay::Confirm(Confirm {
        title: "Quit?".into(),
        lines: vec!["You have unsent text in the new search form.".into()],
        yes: "Quit".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Quit,
    }));
    let now = m.now;
    m.toasts
        .push(now, Level::Success, "Copied", "11 characters copied");
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("Quit?") && !text.contains("Copied"), "{text}");
    m.overlay = None;
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("Copied"), "{text}");
}

/// With the selection at the bottom of the screen, the toasts go to the
/// top right instead of over it.
#[test]
fn a_toast_never_covers_the_selection() {
    let mut m = loaded(80, 24);
    let now = m.now;
    m.toasts
        .push(now, Level::Success, "Copied", "11 characters copied");
    let t = terminal(&m, 80, 24);
    let selected = |t: &ratatui::Terminal<ratatui::backend::TestBackend>| {
        let buf = t.backend().buffer();
        (0..buf.area.height)
            .filter(|y| {
                (0..buf.area.width).any(|x| {
                    buf[(x, *y)]
                        .modifier
                        .contains(ratatui::style::Modifier::REVERSED)
                })
            })
            .collect::<Vec<u16>>()
    };
    let toast_row = |t: &ratatui::Terminal<ratatui::backend::TestBackend>| {
        screen_text(t)
            .lines()
            .position(|l| l.contains("Copied"))
            .expect("the toast is shown")
    };
    // The selection near the top: the toast sits at the bottom right.
    assert!(toast_row(&t) > 12, "{}", screen_text(&t));
    // Selection pushed to the bottom: a long list, a page down.
    let run = outpost::testkit::api::model::RunStatus::Completed;
    let mut m = crate::leads::opened(80, 24, &run);
    crate::leads::press(&mut m, KeyCode::PageDown, &run);
    let now = m.now;
    m.toasts
        .push(now, Level::Success, "Copied", "11 characters copied");
    let t = terminal(&m, 80, 24);
    let rows = selected(&t);
    let top = toast_row(&t);
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| usize::from(*r) > top + 2 || usize::from(*r) + 1 < top),
        "toast at {top} over the selection at {rows:?}:\n{}",
        screen_text(&t)
    );
}

#[test]
fn the_command_line_completes() {
    let mut m = loaded(80, 24);
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)),
    );
    for c in "do".chars() {
        update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains(":do"), "{text}");
    assert!(text.contains("domain add"), "{text}");
    assert_snapshot!("command_line_80x24", text);
}

#[test]
fn too_small_below_60x15_and_usable_at_60x15() {
    let m = loaded(59, 14);
    let text = screen_text(&terminal(&m, 59, 14));
    assert!(text.contains("Terminal too small"), "{text}");
    assert!(text.contains("need 60×15, have 59×14"), "{text}");
    assert_snapshot!("too_small_59x14", text);
    let m = loaded(60, 15);
    let text = screen_text(&terminal(&m, 60, 15));
    assert!(text.contains("Sending domains (4)"), "{text}");
    assert!(text.contains("mail.brightlabs.io"), "{text}");
    assert_snapshot!("domain_list_60x15", text);
}

#[test]
fn status_bar_shows_the_rate_limit_countdown() {
    let mut m = loaded(80, 24);
    let now = Instant::now();
    m.now = now;
    update(
        &mut m,
        Msg::RateLimit(
            [(
                outpost::testkit::api::RouteFamily::LeadFinder,
                now + Duration::from_secs(12),
            )]
            .into_iter()
            .collect(),
        ),
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("rate limited · lead-finder 12 s"), "{text}");
    assert!(text.contains("DEMO"), "{text}");
    let text = screen_text(&terminal(&m, 200, 50));
    assert!(
        text.contains("pk_live_…"),
        "wide screens show the key:\n{text}"
    );
}

fn status_line(m: &outpost::testkit::app::Model, w: u16, h: u16) -> String {
    let text = screen_text(&terminal(m, w, h));
    text.lines().last().unwrap_or_default().to_owned()
}

#[test]
fn a_refused_connection_shows_in_the_status_bar_at_once() {
    let mut m = loaded(80, 24);
    assert!(status_line(&m, 80, 24).contains("● online"));
    // 14:02 UTC (the test model's zone is UTC).
    let since = std::time::UNIX_EPOCH + Duration::from_secs(1_795_356_120);
    update(
        &mut m,
        Msg::Connection(outpost::testkit::api::ConnState::Offline { since }),
    );
    let line = status_line(&m, 80, 24);
    assert!(line.contains("● offline since 14:02"), "{line}");
    assert!(line.starts_with(" ? help"), "{line}");
    let line = status_line(&m, 60, 15);
    assert!(
        line.contains("offline since 14:02") && line.contains("? help"),
        "{line}"
    );
}

/// Every request answered 429 with a 1 s `Retry-After`: between refusals
/// no gate is closed, and the status bar still says rate limited (never
/// "● online"), until the first good answer.
#[test]
fn requests_answered_429_show_rate_limited_even_between_closed_gates() {
    let mut m = loaded(80, 24);
    update(
        &mut m,
        Msg::Connection(outpost::testkit::api::ConnState::RateLimited {
            family: outpost::testkit::api::RouteFamily::EmailDomains,
            since: std::time::SystemTime::now(),
        }),
    );
    let line = status_line(&m, 80, 24);
    assert!(!line.contains("online"), "{line}");
    assert!(line.contains("● rate limited"), "{line}");
    assert!(line.starts_with(" ? help"), "{line}");
    update(
        &mut m,
        Msg::Connection(outpost::testkit::api::ConnState::Online),
    );
    assert!(status_line(&m, 80, 24).contains("● online"));
}

#[test]
fn a_day_long_rate_limit_is_shown_as_such_with_the_way_out() {
    let mut m = loaded(120, 30);
    let now = m.now;
    update(
        &mut m,
        Msg::RateLimit(
            [(
                outpost::testkit::api::RouteFamily::LeadFinder,
                now + Duration::from_secs(100_000),
            )]
            .into_iter()
            .collect(),
        ),
    );
    let line = status_line(&m, 120, 30);
    assert!(
        line.contains("rate limited for 27 h 46 min · lead-finder — r tries once now"),
        "{line}"
    );
    // At the minimum width it is cut, never pushing the help hint out.
    let line = status_line(&m, 60, 15);
    assert!(line.starts_with(" ? help"), "{line}");
    assert!(line.contains("limited 27 h 46 min — r tries now"), "{line}");
    assert_snapshot!("rate_limited_a_day_60x15", line);
}

#[test]
fn repeated_toasts_count_and_a_cut_one_points_to_messages() {
    let mut m = loaded(80, 24);
    let now = m.now;
    let err = ApiError::Timeout {
        method: "GET".into(),
        after: Duration::from_secs(30),
        may_have_reached: false,
    };
    for _ in 0..3 {
        m.toasts.error(now, "loading sending domains", &err);
    }
    let long = format!("the whole story: {}THE-END", "and then ".repeat(40));
    m.toasts.push(now, Level::Warning, "long", &long);
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(
        text.contains("timeout · loading sending domains ×3"),
        "{text}"
    );
    assert!(!text.contains("timeout: timeout"), "{text}");
    assert!(text.contains("… :messages shows it all"), "{text}");
    assert!(!text.contains("THE-END"), "{text}");
    assert_snapshot!("toasts_counted_and_cut_80x24", text);
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)),
    );
    for c in "messages".chars() {
        update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("THE-END"), "the whole message:\n{text}");
    assert!(
        text.contains("timeout · loading sending domains ×3"),
        "{text}"
    );
    assert_snapshot!("messages_80x24", text);
}

#[test]
fn the_too_small_screen_shows_the_quit_question() {
    let mut m = loaded(80, 24);
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE)),
    );
    for c in "mail.acme.io".chars() {
        update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    update(
        &mut m,
        Msg::Saved(Err(outpost::testkit::store::StoreError::DiskFull {
            path: "/data/state.json".into(),
        })),
    );
    update(&mut m, Msg::Resize(50, 12));
    let text = screen_text(&terminal(&m, 50, 12));
    assert!(text.contains("q quits"), "{text}");
    update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)),
    );
    assert!(!m.quit);
    let text = screen_text(&terminal(&m, 50, 12));
    assert!(text.contains("Quit and lose unsent text?"), "{text}");
    assert!(text.contains("y Quit anyway · n cancel"), "{text}");
    assert_snapshot!("too_small_quit_question_50x12", text);
}

/// Service text carrying ESC, CSI, OSC, C1 and bidi characters reaches no
/// cell: neither the control characters nor the remnants of sequences.
#[test]
fn hostile_service_text_is_inert() {
    let hostile = "evil\x1b[31mred\x1b[0m\x1b]0;pwned\x07\u{9b}2J\u{9d}52;c;eA==\u{9c}\u{202e}gnp.exe\u{2066}x\u{200b}y\x07\x08.com";
    let mut m = fixtures::model(120, 30);
    let mut d = fixtures::domain(
        "h",
        hostile,
        outpost::testkit::api::model::DomainStatus::Pending,
        "2026-11-22T11:00:00Z",
    );
    d.dns_records[0].value = hostile.into();
    d.dns_records[0].name = hostile.into();
    let mut cmds = m.start();
    while !cmds.is_empty() {
        cmds = crate::domains::answer(&mut m, cmds, std::slice::from_ref(&d));
    }
    let now = m.now;
    m.toasts.push(now, Level::Error, hostile, hostile);
    let mut screens = vec![terminal(&m, 120, 30)];
    crate::domains::press(&mut m, KeyCode::Enter);
    screens.push(terminal(&m, 120, 30));
    for t in &screens {
        let buf = t.backend().buffer();
        for cell in buf.content() {
            for c in cell.symbol().chars() {
                assert!(!c.is_control(), "control {c:?} reached a cell");
                assert!(
                    !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}' | '\u{200e}' | '\u{200f}'),
                    "bidi/zero-width {c:?} reached a cell"
                );
            }
        }
        let text = screen_text(t);
        assert!(text.contains("evilred"), "{text}");
        for remnant in ["[31m", "[0m", "]0;", "pwned", "2J", "52;c"] {
            assert!(!text.contains(remnant), "`{remnant}` leaked:\n{text}");
        }
    }
}

#[test]
fn a_toast_with_endless_lines_is_drawn_without_a_panic() {
    let mut m = loaded(80, 24);
    let now = m.now;
    m.toasts
        .push(now, Level::Error, "boom", &"x\n".repeat(70_000));
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("boom"), "{text}");
}

#[test]
fn help_scrolls_no_further_than_its_last_line_and_hides_missing_panes() {
    let mut m = loaded(80, 24);
    let key = |m: &mut outpost::testkit::app::Model, c| {
        update(m, Msg::Key(KeyEvent::new(c, KeyModifiers::NONE)));
    };
    key(&mut m, KeyCode::Char('?'));
    for _ in 0..200 {
        key(&mut m, KeyCode::Char('j'));
    }
    let max = outpost::testkit::app::help::scroll_max(&m);
    assert!(matches!(m.overlay, Some(Overlay::Help { scroll }) if scroll == max));
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(
        text.contains("Keys are set in config.toml under [keys.global]"),
        "the last line shows:\n{text}"
    );
    assert!(
        !text.contains("Inbox pane"),
        "no help for a pane this build lacks:\n{text}"
    );
    key(&mut m, KeyCode::Esc);
    m.redraw = false;
    key(&mut m, KeyCode::Char('Z'));
    assert!(!m.redraw, "an unbound key draws nothing");
}

/// At 60x15 the help is wrapped, not cut: scrolled from top to bottom,
/// every word of every entry and note is on screen, and no line runs into
/// the border.
#[test]
fn help_wraps_at_a_narrow_size() {
    let (w, h) = (60, 15);
    let mut m = loaded(w, h);
    let key = |m: &mut outpost::testkit::app::Model, c| {
        update(m, Msg::Key(KeyEvent::new(c, KeyModifiers::NONE)));
    };
    key(&mut m, KeyCode::Char('?'));
    let inside = |m: &outpost::testkit::app::Model| -> Vec<String> {
        screen_text(&terminal(m, w, h))
            .lines()
            .filter(|l| l.starts_with('│'))
            .map(|l| l.trim_matches('│').trim_end().to_owned())
            .collect()
    };
    let mut seen = inside(&m);
    for _ in 0..outpost::testkit::app::help::scroll_max(&m) {
        key(&mut m, KeyCode::Char('j'));
        seen.extend(inside(&m).last().cloned());
    }
    let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let screen = words(&seen.join(" ")).join(" ");
    for row in outpost::testkit::app::help::rows(&m) {
        let text = match row {
            outpost::testkit::app::help::Row::Entry { keys, help, .. } => format!("{keys} {help}"),
            outpost::testkit::app::help::Row::Note(n)
            | outpost::testkit::app::help::Row::Title(n) => n,
            outpost::testkit::app::help::Row::Blank => continue,
        };
        let text = words(&text).join(" ");
        assert!(
            screen.contains(&text),
            "{text:?} is not whole on screen:\n{}",
            seen.join("\n")
        );
    }
}

/// READ-ONLY and the profile's name are on the status bar's own line (not
/// somewhere else on screen) at every size; after `:profile` goes back to
/// the default workspace, that line says `default`.
#[test]
fn the_status_bar_says_read_only_and_names_the_workspace() {
    let mut m = loaded(120, 30);
    let line = status_line(&m, 120, 30);
    assert!(
        !line.contains("READ-ONLY") && !line.contains("default"),
        "{line}"
    );
    m.session.read_only = true;
    m.session.profile = Some("acme-eu".into());
    for (w, h) in [(200, 50), (120, 30), (80, 24), (60, 15)] {
        let text = screen_text(&terminal(&m, w, h));
        let (rest, line) = text.trim_end().rsplit_once('\n').unwrap_or_default();
        assert!(
            line.contains(" READ-ONLY ") && line.contains("acme-eu"),
            "{w}x{h}: {line}"
        );
        assert!(
            !rest.contains("READ-ONLY") && !rest.contains("acme-eu"),
            "{w}x{h}: on the status bar only:\n{text}"
        );
    }

    // `:profile` with no name: the default workspace opens.
    let mut session = m.session.clone();
    session.profile = None;
    session.read_only = false;
    let poll = m.poll;
    update(
        &mut m,
        Msg::ProfileOpened(Box::new(outpost::testkit::app::msg::OpenedProfile {
            session,
            state: outpost::testkit::store::State::default(),
            poll,
            notices: Vec::new(),
            cache: outpost::testkit::app::cache::Cache::default(),
        })),
    );
    for (w, h) in [(120, 30), (60, 15)] {
        let line = status_line(&m, w, h);
        assert!(
            line.contains(" default ") && !line.contains("acme-eu") && !line.contains("READ-ONLY"),
            "{w}x{h}: {line}"
        );
    }
}

/// In read-only mode a write's hint is marked disabled once, in place of
/// the pane's own reason (never `pause ✗ active only✗`), in the form every
/// disabled hint has: the name, a space, the mark and why (`n new ✗
/// read-only`, never `n new✗`).
#[test]
fn read_only_hints_carry_one_mark() {
    let mut m = crate::campaigns::listed(200, 50);
    let line = status_line(&m, 200, 50);
    assert!(line.contains("pause ✗ active only"), "{line}");
    m.session.read_only = true;
    let line = status_line(&m, 200, 50);
    assert!(
        !line.contains("only✗") && !line.contains("✗ active") && !line.contains("✗ paused"),
        "{line}"
    );
    assert!(
        line.contains("launch ✗ read-only") && line.contains("pause ✗ read-only"),
        "{line}"
    );
    assert!(line.contains("n new ✗ read-only"), "{line}");
    assert!(!line.contains("✗ read-only✗"), "{line}");
}

/// A hint that already says why its key does not apply is marked once in
/// read-only mode, with read-only's mark in place of its own reason (not
/// `edit ✗ drafts only✗`).
#[test]
fn a_disabled_hint_is_marked_once() {
    let mut m = crate::inbox::loaded(200, 50);
    let mut found = false;
    for _ in 0..10 {
        if status_line(&m, 200, 50).contains("drafts only") {
            found = true;
            break;
        }
        crate::inbox::press(&mut m, KeyCode::Char('j'));
    }
    assert!(found, "a thread that is not a draft");
    m.session.read_only = true;
    let line = status_line(&m, 200, 50);
    // Read-only is the reason that counts: it takes the pane's own place.
    assert!(line.contains("edit ✗ read-only"), "{line}");
    assert!(
        !line.contains("drafts only") && !line.contains("only✗"),
        "{line}"
    );
    // A write key without a reason of its own still gets its mark.
    let mut m = crate::domains::loaded(200, 50);
    m.session.read_only = true;
    let line = status_line(&m, 200, 50);
    assert!(line.contains("a add ✗ read-only"), "{line}");
}
