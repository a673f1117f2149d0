//! Snapshots of the Profile pane: the profile, the form, the review of a
//! save, a validation error and a redeemed pass.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::ContextResponse;
use outpost::testkit::app::profile::fields::FieldId;
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, Pane, fixtures, update};

use crate::support::{screen_text, terminal};

const SIZES: [(u16, u16); 2] = [(80, 24), (200, 50)];

fn answer(m: &mut Model, cmds: Vec<Cmd>, profile: &ContextResponse) {
    for cmd in cmds {
        let Cmd::Api { id, req } = cmd else { continue };
        let reply = match req {
            ApiRequest::GetContext => ApiReply::Context(Box::new(Ok(profile.clone()))),
            _ => continue,
        };
        update(
            m,
            Msg::Api {
                id,
                latency: Duration::from_millis(42),
                reply: Box::new(reply),
            },
        );
    }
}

/// A model on the Profile pane with the fixture profile read.
/// The profile, loaded (also a README screenshot).
pub fn loaded(w: u16, h: u16) -> Model {
    let mut m = fixtures::model(w, h);
    let cmds = fixtures::drive::switch(&mut m, Pane::Profile);
    answer(&mut m, cmds, &fixtures::company_profile());
    m
}

fn press(m: &mut Model, code: KeyCode) -> Vec<Cmd> {
    update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn ctrl(m: &mut Model, c: char) -> Vec<Cmd> {
    update(
        m,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    )
}

fn typed(m: &mut Model, s: &str) {
    for c in s.chars() {
        press(m, KeyCode::Char(c));
    }
}

fn snap(m: &Model, w: u16, h: u16) -> String {
    screen_text(&terminal(m, w, h))
}

/// Opens the form and edits one field in each section.
/// The form with an edit in each section (also a README screenshot).
pub fn edited(w: u16, h: u16) -> Model {
    let mut m = loaded(w, h);
    press(&mut m, KeyCode::Char('e'));
    let on = |m: &mut Model, f: FieldId| {
        if let Some(e) = m.panes.profile.editor.as_mut() {
            e.focus_on(f);
        }
    };
    on(&mut m, FieldId::LastName);
    typed(&mut m, "-Park");
    on(&mut m, FieldId::ProfessionalBackground);
    typed(&mut m, "Ex-analyst. ");
    on(&mut m, FieldId::Product);
    typed(&mut m, "New: ");
    on(&mut m, FieldId::TopicsToAvoid);
    press(&mut m, KeyCode::Enter);
    typed(&mut m, "competitor bashing");
    on(&mut m, FieldId::IcpKeywords);
    ctrl(&mut m, 'd');
    on(&mut m, FieldId::Extra);
    for _ in 0..7 {
        press(&mut m, KeyCode::Down);
    }
    press(&mut m, KeyCode::End);
    press(&mut m, KeyCode::Left);
    typed(&mut m, "0");
    m
}

#[test]
fn the_profile_by_section() {
    for (w, h) in SIZES {
        let m = loaded(w, h);
        let text = snap(&m, w, h);
        let mut want = vec!["PROFILE", "USER", "COMPANY", "Maya"];
        if w >= 120 {
            want.extend(["CONTENT", "MARKET", "No code redeemed", "Account access"]);
        } else {
            want.push("lines 1–");
        }
        for want in want {
            assert!(text.contains(want), "{want} at {w}x{h}:\n{text}");
        }
        assert_snapshot!(format!("profile_{w}x{h}"), text);
    }
}

#[test]
fn the_form() {
    for (w, h) in SIZES {
        let mut m = edited(w, h);
        if let Some(e) = m.panes.profile.editor.as_mut() {
            e.focus_on(FieldId::TopicsToAvoid);
        }
        let text = snap(&m, w, h);
        assert!(text.contains("Edit company profile"), "{text}");
        assert!(text.contains("6 fields changed"), "{text}");
        assert_snapshot!(format!("form_{w}x{h}"), text);
    }
}

#[test]
fn the_review_before_saving() {
    for (w, h) in [(60, 15), (80, 24), (200, 50)] {
        let mut m = edited(w, h);
        ctrl(&mut m, 's');
        let text = snap(&m, w, h);
        assert!(text.contains("Review: 6 fields change"), "{text}");
        assert!(text.contains("Profile · Last name"), "{text}");
        // Its keys are said whole, on one row of the dialog at every size
        // (a line split across the border would read "to │ │the form").
        assert!(
            text.lines()
                .any(|l| l.contains("y saves · n or Esc goes back to the form · j/k scroll")),
            "{text}"
        );
        assert_snapshot!(format!("review_{w}x{h}"), text);
    }
}

#[test]
fn a_validation_error_on_its_field() {
    for (w, h) in SIZES {
        let mut m = edited(w, h);
        ctrl(&mut m, 's');
        let cmds = press(&mut m, KeyCode::Char('y'));
        let Some(Cmd::Api { id, .. }) = cmds.into_iter().find(|c| matches!(c, Cmd::Api { .. }))
        else {
            panic!("the save is sent");
        };
        let err = fixtures::drive::service_error(
            400,
            r#"{"error":{"code":"invalid_request","message":"context.company.product: at most 500 chars"}}"#,
        );
        update(
            &mut m,
            Msg::Api {
                id,
                latency: Duration::from_millis(42),
                reply: Box::new(ApiReply::ContextSaved(Box::new(Err(err)))),
            },
        );
        m.toasts.clear();
        let text = snap(&m, w, h);
        assert!(text.contains("✗ at most 500 chars"), "{text}");
        assert_snapshot!(format!("validation_error_{w}x{h}"), text);
    }
}

/// Redeems `code` from the dialog and answers with the fixture pass
/// (`redeemed` or refused).
fn redeem(m: &mut Model, code: &str, redeemed: bool) {
    press(m, KeyCode::Char('p'));
    typed(m, code);
    let cmds = press(m, KeyCode::Enter);
    let Some(Cmd::Api { id, .. }) = cmds.into_iter().find(|c| matches!(c, Cmd::Api { .. })) else {
        panic!("the redeem is sent");
    };
    update(
        m,
        Msg::Api {
            id,
            latency: Duration::from_millis(42),
            reply: Box::new(ApiReply::Redeemed(Box::new(Ok(fixtures::discovery_pass(
                redeemed,
            ))))),
        },
    );
    m.toasts.clear();
}

#[test]
fn a_redeemed_pass() {
    for (w, h) in SIZES {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Char('p'));
        typed(&mut m, "DEMO-PASS-1");
        let dialog = snap(&m, w, h);
        assert!(dialog.contains("11/100 characters"), "{dialog}");
        press(&mut m, KeyCode::Esc);
        redeem(&mut m, "DEMO-PASS-1", true);
        let text = snap(&m, w, h);
        assert!(text.contains("remaining 92/100"), "{text}");
        assert!(
            text.contains("active · expires in 14d 00h 00m 00s"),
            "{text}"
        );
        for want in [
            "can create leads",
            "verified",
            "2026-09-23 12:00",
            "Pass ta-1 · used 8 of 100",
            "Eligibility of DEMO-PASS-1",
        ] {
            assert!(text.contains(want), "{want} at {w}x{h}:\n{text}");
        }
        assert_snapshot!(format!("redeemed_{w}x{h}"), text);
    }
}

/// A refused code at 80x24: the answer, why nothing changed, the pass the
/// account holds, the account's access and the code's eligibility — all on
/// screen, none cut.
#[test]
fn a_refused_code() {
    let mut m = loaded(80, 24);
    redeem(&mut m, "USED-CODE", false);
    let text = snap(&m, 80, 24);
    for want in [
        "✗ USED-CODE was not redeemed: This code has already been redeemed",
        "Nothing changed on the account; the pass shown below was redeemed before.",
        "remaining 92/100",
        "Pass ta-1 · used 8 of 100",
        "Account: paid_plan · can create leads · verified 2026-09-23 12:00",
        "Eligibility of USED-CODE: cannot be redeemed now",
    ] {
        assert!(text.contains(want), "{want}:\n{text}");
    }
    assert_snapshot!("refused_80x24", text);
}

/// At the smallest size the pass is the document's first section: every
/// line of it is read by moving down, then the profile follows.
#[test]
fn a_refused_code_at_the_smallest_size() {
    let mut m = loaded(60, 15);
    redeem(&mut m, "USED-CODE", false);
    let text = snap(&m, 60, 15);
    assert!(text.contains("was not redeemed"), "{text}");
    assert_snapshot!("refused_60x15", text);
    let mut seen = text;
    for _ in 0..12 {
        press(&mut m, KeyCode::Down);
        seen.push_str(&snap(&m, 60, 15));
    }
    let flat = seen.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "Nothing changed on the account",
        "remaining 92/100",
        "Pass ta-1",
        "can create leads",
        "Eligibility of USED-CODE",
        "PROFILE",
        "First name",
    ] {
        assert!(flat.contains(want), "{want}:\n{seen}");
    }
}

/// The profile editor at 80x24 and 100x20: a long text field is never an
/// editor of 1–3 rows (it was 2 for a one-line text).
#[test]
fn the_editor_keeps_room_to_write() {
    for (w, h) in [(80, 24), (100, 20)] {
        let mut m = loaded(w, h);
        press(&mut m, KeyCode::Char('e'));
        if let Some(e) = m.panes.profile.editor.as_mut() {
            e.focus_on(FieldId::ProfessionalBackground);
        }
        let text = snap(&m, w, h);
        assert!(text.contains("Edit company profile"), "{text}");
        let rows = crate::support::rows_between(
            &text,
            "Professional background",
            "your role and experience",
        );
        assert!(rows >= Some(4), "at {w}x{h}: {rows:?}\n{text}");
        assert_snapshot!(format!("editor_rows_{w}x{h}"), text);
    }
}
