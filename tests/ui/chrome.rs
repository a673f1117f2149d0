//! Snapshots of the chrome: tabs, status bar, help, toasts, confirm, the
//! command line, the too-small screen; and rendering safety.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::api::ApiError;
use outpost::api::ServiceError;
use outpost::app::toast::Level;
use outpost::app::{Confirm, ConfirmAction, Msg, Overlay, fixtures, update};

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
                outpost::api::RouteFamily::LeadFinder,
                now + Duration::from_secs(12),
            )]
            .into_iter()
            .collect(),
        ),
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(text.contains("rate limited · retry in 12s"), "{text}");
    assert!(text.contains("DEMO"), "{text}");
    assert!(text.contains("pk_live_…"), "{text}");
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
        outpost::api::model::DomainStatus::Pending,
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
    let key = |m: &mut outpost::app::Model, c| {
        update(m, Msg::Key(KeyEvent::new(c, KeyModifiers::NONE)));
    };
    key(&mut m, KeyCode::Char('?'));
    for _ in 0..200 {
        key(&mut m, KeyCode::Char('j'));
    }
    let max = outpost::app::help::scroll_max(&m);
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
