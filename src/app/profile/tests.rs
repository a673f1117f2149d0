//! Flows of the Profile pane through `update`, as a user drives them.

use std::time::Duration;

use crossterm::event::KeyCode;

use super::diff::diff;
use super::fields::{ALL, FieldId};
use super::*;
use crate::api::ApiError;
use crate::api::model::PutContext;
use crate::app::fixtures::drive::{api, chars, ctrl, key, reply, service_error};
use crate::app::fixtures::{self, CLOCK};
use crate::app::{ApiReply, ApiRequest, Cmd, Overlay, Pane, SubId, subscriptions};

/// The fixture profile as a replacement body.
fn stored() -> PutContext {
    let r = fixtures::company_profile();
    PutContext {
        context: r.context,
        profile: r.profile.unwrap_or_default(),
    }
}

/// A model on the Profile pane with the fixture profile read.
fn loaded() -> Model {
    let mut m = fixtures::model(80, 24);
    let cmds = fixtures::drive::switch(&mut m, Pane::Profile);
    let (id, req) = api(&cmds).remove(0);
    assert_eq!(req, ApiRequest::GetContext);
    reply(
        &mut m,
        id,
        ApiReply::Context(Box::new(Ok(fixtures::company_profile()))),
    );
    m
}

/// The one request among `cmds`.
fn one(cmds: &[Cmd]) -> (RequestId, ApiRequest) {
    let mut all = api(cmds);
    assert_eq!(all.len(), 1, "{cmds:?}");
    all.remove(0)
}

/// Opens the form on `field`, types `text` there and reviews it.
fn edit(m: &mut Model, field: FieldId, text: &str) {
    key(m, KeyCode::Char('e'));
    if let Some(e) = m.panes.profile.editor.as_mut() {
        e.focus_on(field);
    }
    chars(m, text);
}

fn sent_body(req: ApiRequest) -> PutContext {
    match req {
        ApiRequest::PutContext(b) => *b,
        other => panic!("a PUT /api/context, not {other:?}"),
    }
}

#[test]
fn the_profile_is_read_on_entering_and_shown_by_section() {
    let m = loaded();
    let p = &m.panes.profile;
    assert_eq!(p.stored.as_ref().map(|s| &s.body), Some(&stored()));
    assert!(p.doc.row_of(FieldId::IcpKeywords).is_some());
    assert_eq!(p.doc.field_at(p.cursor), Some(FieldId::FirstName));
    assert_eq!(p.tree.lines().len(), 7, "extra as a tree");
}

#[test]
fn one_edit_is_reviewed_then_sent_as_the_complete_profile() {
    let mut m = loaded();
    edit(&mut m, FieldId::Website, "/about");
    assert!(api(&ctrl(&mut m, 's')).is_empty(), "Ctrl-S only reviews");
    let r = m.panes.profile.review.as_ref().expect("the review");
    assert_eq!(r.changes.len(), 1);
    assert_eq!(r.changes[0].field, FieldId::Website);
    let (id, req) = one(&key(&mut m, KeyCode::Char('y')));
    let body = sent_body(req);
    let mut want = stored();
    want.profile.website = "https://northwind.example/about".into();
    assert_eq!(body, want, "everything, with the one change");
    assert!(m.panes.profile.editor.is_some(), "kept until the answer");
    let cmds = reply(
        &mut m,
        id,
        ApiReply::ContextSaved(Box::new(Ok(want.context.clone()))),
    );
    assert!(cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
    let p = &m.panes.profile;
    assert!(p.editor.is_none());
    assert_eq!(p.stored.as_ref().map(|s| &s.body), Some(&want));
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Profile saved")
    );
}

#[test]
fn a_partial_profile_is_never_sent() {
    // Before the profile is read there is nothing to start from: no form.
    let mut m = fixtures::model(80, 24);
    fixtures::drive::switch(&mut m, Pane::Profile);
    assert!(api(&key(&mut m, KeyCode::Char('e'))).is_empty());
    assert!(m.panes.profile.editor.is_none(), "no form over nothing");
    // Whatever single field is edited, every other field goes out as stored.
    let base = stored();
    for field in ALL {
        let mut m = loaded();
        if field == FieldId::Extra {
            edit(&mut m, field, "");
            let ed = m.panes.profile.editor.as_mut().expect("form");
            if let Some(f) = ed.fields.iter_mut().find(|f| f.id == FieldId::Extra)
                && let super::editor::Input::Json(j) = &mut f.input
            {
                j.set_text("{\"only\": 1}");
            }
        } else {
            edit(&mut m, field, "x");
        }
        ctrl(&mut m, 's');
        let (_, req) = one(&key(&mut m, KeyCode::Char('y')));
        let body = sent_body(req);
        let changed: Vec<FieldId> = diff(&base, &body).iter().map(|c| c.field).collect();
        assert_eq!(
            changed,
            [field],
            "only {field:?} differs; the rest is complete"
        );
    }
}

#[test]
fn nothing_changed_sends_nothing() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('e'));
    assert!(api(&ctrl(&mut m, 's')).is_empty());
    assert!(m.panes.profile.review.is_none());
    assert_eq!(
        m.toasts.items().last().map(|t| t.title.as_str()),
        Some("Nothing to save")
    );
}

#[test]
fn bad_extra_json_is_marked_and_never_sent() {
    let mut m = loaded();
    edit(&mut m, FieldId::Extra, "oops");
    ctrl(&mut m, 's');
    assert!(m.panes.profile.review.is_none(), "no review of a bad form");
    let e = m.panes.profile.editor.as_ref().expect("the form stays");
    assert_eq!(e.focused(), FieldId::Extra);
    let error = e.field(FieldId::Extra).and_then(|f| f.error.clone());
    assert!(error.is_some_and(|t| t.starts_with("line 1, column 1")));
}

#[test]
fn the_services_validation_error_marks_the_field_and_keeps_the_form() {
    let mut m = loaded();
    edit(&mut m, FieldId::Overview, "New: ");
    ctrl(&mut m, 's');
    let (id, _) = one(&key(&mut m, KeyCode::Char('y')));
    let err = service_error(
        400,
        r#"{"error":{"code":"invalid_request","message":"context.market.icpKeywords[1]: 1 to 40 chars; context.company.overview: too long"}}"#,
    );
    let cmds = reply(&mut m, id, ApiReply::ContextSaved(Box::new(Err(err))));
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Cmd::SaveState(s) if s.drafts.contains_key(DRAFT_KEY))),
        "the edit is kept in the state file"
    );
    let e = m.panes.profile.editor.as_ref().expect("the form stays");
    assert_eq!(
        e.field(FieldId::Overview).and_then(|f| f.error.as_deref()),
        Some("too long")
    );
    assert_eq!(
        e.field(FieldId::IcpKeywords)
            .and_then(|f| f.error.as_deref()),
        Some("[1]: 1 to 40 chars")
    );
    assert_eq!(e.focused(), FieldId::Overview, "the first marked field");
    let typed = e
        .field(FieldId::Overview)
        .map(super::editor::EditField::is_dirty);
    assert_eq!(typed, Some(true), "what was typed is still there");
}

#[test]
fn a_save_that_may_have_arrived_is_read_back_not_resent() {
    let mut m = loaded();
    edit(&mut m, FieldId::FirstName, "-Li");
    ctrl(&mut m, 's');
    let (id, req) = one(&key(&mut m, KeyCode::Char('y')));
    let sent = sent_body(req);
    let lost = ApiError::Timeout {
        method: "PUT".into(),
        after: Duration::from_secs(10),
        may_have_reached: true,
    };
    let cmds = reply(&mut m, id, ApiReply::ContextSaved(Box::new(Err(lost))));
    let (check, req) = one(&cmds);
    assert_eq!(req, ApiRequest::GetContext, "a read, never a second PUT");
    let mut holds = fixtures::company_profile();
    holds.context = sent.context.clone();
    holds.profile = Some(sent.profile.clone());
    reply(&mut m, check, ApiReply::Context(Box::new(Ok(holds))));
    assert!(m.panes.profile.editor.is_none(), "it was stored");
    assert_eq!(
        m.panes
            .profile
            .stored
            .as_ref()
            .map(|s| s.body.profile.first_name.as_str()),
        Some("Maya-Li")
    );
}

/// A save answered 504 after the service stored it: it may have been
/// saved, and saving again is safe (a full replacement) — said on the form
/// and in the notice; the stored profile is read, never a second PUT.
#[test]
fn a_save_answered_504_says_it_may_be_saved_and_saving_again_is_safe() {
    let mut m = loaded();
    edit(&mut m, FieldId::FirstName, "-Li");
    ctrl(&mut m, 's');
    let (id, _) = one(&key(&mut m, KeyCode::Char('y')));
    let mut lost = crate::api::error::ServiceError::from_body(
        504,
        br#"{"error":{"code":"gateway_timeout","message":"upstream timed out"}}"#,
        None,
    );
    lost.may_have_reached = true;
    let cmds = reply(
        &mut m,
        id,
        ApiReply::ContextSaved(Box::new(Err(ApiError::Service(Box::new(lost))))),
    );
    let (check, req) = one(&cmds);
    assert_eq!(req, ApiRequest::GetContext, "a read, never a second PUT");
    let t = m.toasts.items().last().expect("told");
    assert!(
        t.text.as_str().contains("it may have been saved")
            && t.text.as_str().contains("Saving again is safe"),
        "{}",
        t.text.as_str()
    );
    let note = m
        .panes
        .profile
        .editor
        .as_ref()
        .and_then(|e| e.note.clone())
        .unwrap_or_default();
    assert!(note.contains("Saving again is safe"), "{note}");
    // The read fails: it proves nothing, and says so.
    let failed = service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    );
    reply(&mut m, check, ApiReply::Context(Box::new(Err(failed))));
    let note = m
        .panes
        .profile
        .editor
        .as_ref()
        .and_then(|e| e.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("proves nothing") && note.contains("Saving again is safe"),
        "{note}"
    );
}

#[test]
fn a_save_that_did_not_arrive_keeps_the_form_and_says_so() {
    let mut m = loaded();
    edit(&mut m, FieldId::FirstName, "-Li");
    ctrl(&mut m, 's');
    let (id, _) = one(&key(&mut m, KeyCode::Char('y')));
    let lost = ApiError::Transport {
        detail: "reset".into(),
        may_have_reached: true,
    };
    let (check, _) = one(&reply(
        &mut m,
        id,
        ApiReply::ContextSaved(Box::new(Err(lost))),
    ));
    reply(
        &mut m,
        check,
        ApiReply::Context(Box::new(Ok(fixtures::company_profile()))),
    );
    let e = m.panes.profile.editor.as_ref().expect("the form stays");
    assert!(
        e.note
            .as_deref()
            .is_some_and(|n| n.starts_with("Not saved"))
    );
    assert!(e.is_dirty(), "the edit is still there");
    ctrl(&mut m, 's');
    assert!(
        m.panes.profile.review.is_some(),
        "sending again is reviewed first"
    );
}

#[test]
fn a_closed_form_becomes_a_draft_offered_back() {
    let mut m = loaded();
    edit(&mut m, FieldId::PostingCadence, ", Fridays");
    assert_eq!(m.unsent().as_deref(), Some("the profile form"));
    let cmds = key(&mut m, KeyCode::Esc);
    assert!(m.panes.profile.editor.is_none());
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Cmd::SaveState(s) if s.drafts.contains_key(DRAFT_KEY)))
    );
    key(&mut m, KeyCode::Char('e'));
    assert!(
        matches!(m.overlay, Some(Overlay::Confirm(_))),
        "offered back"
    );
    key(&mut m, KeyCode::Char('y'));
    let e = m.panes.profile.editor.as_ref().expect("the form");
    assert_eq!(e.changes.len(), 1);
    assert_eq!(e.focused(), FieldId::PostingCadence);
}

#[test]
fn quitting_while_a_draft_is_offered_keeps_it() {
    let mut m = loaded();
    edit(&mut m, FieldId::PostingCadence, "!");
    key(&mut m, KeyCode::Esc);
    key(&mut m, KeyCode::Char('e'));
    let cmds = ctrl(&mut m, 'c');
    let Some(Cmd::SaveState(state)) = cmds.first() else {
        panic!("state saved first: {cmds:?}");
    };
    assert!(
        state.drafts.contains_key(DRAFT_KEY),
        "not dropped unanswered"
    );
}

#[test]
fn quitting_mid_edit_keeps_the_form_in_the_state_file() {
    let mut m = loaded();
    edit(&mut m, FieldId::Product, "Also: ");
    let cmds = ctrl(&mut m, 'c');
    let Some(Cmd::SaveState(state)) = cmds.first() else {
        panic!("state saved first: {cmds:?}");
    };
    let draft = state.drafts.get(DRAFT_KEY).expect("the draft");
    assert_eq!(
        draft.fields.keys().collect::<Vec<_>>(),
        ["context.company.product"]
    );
}

#[test]
fn letters_type_into_the_form_instead_of_acting() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('e'));
    for c in ['q', '1', 'p', 'r', ':'] {
        assert!(key(&mut m, KeyCode::Char(c)).is_empty(), "{c} is text");
    }
    assert!(!m.quit && m.pane == Pane::Profile && m.overlay.is_none());
    let first = m
        .panes
        .profile
        .editor
        .as_ref()
        .and_then(|e| e.request().ok());
    assert_eq!(
        first.map(|b| b.profile.first_name),
        Some("Mayaq1pr:".into())
    );
}

#[test]
fn redeeming_shows_the_pass_and_what_the_account_can_do() {
    let mut m = loaded();
    assert_eq!(m.panes.profile.can_create_leads(), None, "unknown at first");
    key(&mut m, KeyCode::Char(':'));
    chars(&mut m, "redeem  DEMO-PASS-1 ");
    let (id, req) = one(&key(&mut m, KeyCode::Enter));
    assert_eq!(
        req,
        ApiRequest::Redeem {
            code: "DEMO-PASS-1".into()
        }
    );
    assert_eq!(m.clock, CLOCK, "14 days before the pass expires");
    reply(
        &mut m,
        id,
        ApiReply::Redeemed(Box::new(Ok(fixtures::discovery_pass(true)))),
    );
    let p = &m.panes.profile;
    assert_eq!(p.can_create_leads(), Some(true));
    assert_eq!(p.pass.as_ref().map(|a| a.pass.redeemed), Some(true));
    assert!(
        subscriptions(&m).iter().any(|s| s.id == SubId::Countdown),
        "the expiry counts down"
    );
    key(&mut m, KeyCode::Char('e'));
    assert!(
        !subscriptions(&m).iter().any(|s| s.id == SubId::Countdown),
        "not while the form covers it"
    );
}

#[test]
fn a_code_over_100_characters_never_leaves_the_client() {
    let mut m = loaded();
    let long = "C".repeat(101);
    assert!(api(&key(&mut m, KeyCode::Char(':'))).is_empty());
    chars(&mut m, &format!("redeem {long}"));
    assert!(api(&key(&mut m, KeyCode::Enter)).is_empty(), "not sent");
    let d = m
        .panes
        .profile
        .redeem
        .as_ref()
        .expect("the dialog, with the code");
    assert_eq!(d.code(), long);
    assert!(d.error.as_deref().is_some_and(|e| e.contains("101")));
    // From the dialog too: Enter again sends nothing until it is fixed.
    assert!(api(&key(&mut m, KeyCode::Enter)).is_empty());
    key(&mut m, KeyCode::Backspace);
    let (_, req) = one(&key(&mut m, KeyCode::Enter));
    assert_eq!(
        req,
        ApiRequest::Redeem {
            code: "C".repeat(100)
        }
    );
}

#[test]
fn a_refused_code_is_explained() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('p'));
    chars(&mut m, "OLD-CODE");
    let (id, _) = one(&key(&mut m, KeyCode::Enter));
    reply(
        &mut m,
        id,
        ApiReply::Redeemed(Box::new(Ok(fixtures::discovery_pass(false)))),
    );
    assert!(m.panes.profile.redeem.is_none());
    let t = m.toasts.items().last().expect("a notice");
    assert_eq!(t.title.as_str(), "Code not redeemed");
    assert!(t.text.as_str().contains("already been redeemed"));
}

/// A redeem whose answer may have reached the service: the contract has
/// no read of a pass, so the verdict is "cannot be checked" and says so;
/// nothing is sent again, and redeeming again asks first.
#[test]
fn a_redeem_that_may_have_arrived_cannot_be_checked_and_asks_before_sending_again() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('p'));
    chars(&mut m, "DEMO-PASS-2");
    let (id, _) = one(&key(&mut m, KeyCode::Enter));
    let lost = ApiError::Timeout {
        method: "POST".into(),
        after: Duration::from_secs(10),
        may_have_reached: true,
    };
    let cmds = reply(&mut m, id, ApiReply::Redeemed(Box::new(Err(lost))));
    assert!(api(&cmds).is_empty(), "not repeated on its own");
    let t = m.toasts.items().last().expect("told");
    assert!(
        t.text
            .as_str()
            .contains("cannot be checked: the contract has no read of a pass"),
        "{}",
        t.text.as_str()
    );
    // Redeeming again (the dialog, or `:redeem`) asks first.
    key(&mut m, KeyCode::Char('p'));
    chars(&mut m, "DEMO-PASS-2");
    let cmds = key(&mut m, KeyCode::Enter);
    assert!(api(&cmds).is_empty(), "asked first");
    let Some(Overlay::Confirm(c)) = &m.overlay else {
        panic!("asks");
    };
    assert_eq!(c.title, "Redeem again?");
    assert!(
        c.lines[1].contains(
            "Outpost cannot tell (cannot be checked: the contract has no read of a pass)"
        ),
        "{:?}",
        c.lines
    );
    let (_, req) = one(&key(&mut m, KeyCode::Char('y')));
    assert_eq!(
        req,
        ApiRequest::Redeem {
            code: "DEMO-PASS-2".into()
        }
    );
}

#[test]
fn the_leads_pane_gets_an_explanation_of_a_refused_create() {
    let mut m = loaded();
    let hint = |m: &Model| {
        crate::app::leads::refused_create_hint(&m.keymap, m.panes.leads.can_create_leads)
    };
    assert!(hint(&m).contains("not known yet"));
    let mut pass = fixtures::discovery_pass(true);
    if let Some(a) = pass.access.as_mut() {
        a.can_create_leads = false;
    }
    key(&mut m, KeyCode::Char('p'));
    chars(&mut m, "X");
    let (id, _) = one(&key(&mut m, KeyCode::Enter));
    reply(&mut m, id, ApiReply::Redeemed(Box::new(Ok(pass))));
    assert_eq!(m.panes.profile.can_create_leads(), Some(false));
    assert!(hint(&m).starts_with("This account cannot create leads"));
}

#[test]
fn enter_folds_extra_and_opens_a_field() {
    let mut m = loaded();
    let p = &mut m.panes.profile;
    let tiers = p
        .doc
        .rows
        .iter()
        .position(|r| matches!(r.kind, doc::RowKind::Extra(i) if p.tree.lines()[i].key.as_str() == "tiers"))
        .expect("the tiers row");
    p.cursor = tiers;
    let before = p.tree.lines().len();
    key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.profile.tree.lines().len(), before - 2, "folded");
    assert!(m.panes.profile.editor.is_none());
    key(&mut m, KeyCode::Char('g'));
    key(&mut m, KeyCode::Char('j'));
    key(&mut m, KeyCode::Enter);
    let e = m.panes.profile.editor.as_ref().expect("the form");
    assert_eq!(
        e.focused(),
        FieldId::LastName,
        "on the field under the cursor"
    );
}

#[test]
fn a_typed_code_survives_quitting_and_comes_back() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('p'));
    chars(&mut m, "HALF-TYPED");
    assert_eq!(m.unsent().as_deref(), Some("the redeem dialog"));
    let cmds = ctrl(&mut m, 'c');
    let Some(Cmd::SaveState(state)) = cmds.first() else {
        panic!("state saved first: {cmds:?}");
    };
    let mut next = fixtures::model(80, 24);
    next.state = (**state).clone();
    fixtures::drive::switch(&mut next, Pane::Profile);
    key(&mut next, KeyCode::Char('p'));
    let code = next
        .panes
        .profile
        .redeem
        .as_ref()
        .map(pass::RedeemDialog::code);
    assert_eq!(code.as_deref(), Some("HALF-TYPED"));
}

#[test]
fn the_mouse_selects_opens_and_focuses() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let click = |row| {
        crate::app::Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: 10,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    let mut m = loaded();
    // Body row 1 is the doc's top border; the Last name row is line 2.
    crate::app::update(&mut m, click(4));
    let p = &m.panes.profile;
    assert_eq!(p.doc.field_at(p.cursor), Some(FieldId::LastName));
    assert!(p.editor.is_none(), "a first click selects");
    crate::app::update(&mut m, click(4));
    let e = m
        .panes
        .profile
        .editor
        .as_ref()
        .expect("a second click opens");
    assert_eq!(e.focused(), FieldId::LastName);
    let wheel = crate::app::Msg::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 10,
        row: 5,
        modifiers: KeyModifiers::NONE,
    });
    crate::app::update(&mut m, wheel);
    let e = m.panes.profile.editor.as_ref().expect("the form");
    assert_eq!(
        e.focused(),
        FieldId::CompanyName,
        "the wheel steps through fields"
    );
    // The form's first block is the Profile heading, then First name's
    // label at row 3 of the screen.
    crate::app::update(&mut m, click(3));
    let e = m.panes.profile.editor.as_ref().expect("the form");
    assert_eq!(e.focused(), FieldId::FirstName, "a click focuses a field");
}

/// The screen as text.
fn screen(m: &Model) -> String {
    let (w, h) = m.size;
    let mut term =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| crate::ui::view(m, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A profile that never loaded says why with the shared wording: a
/// refused key says how to fix it and never "r retries"; in an outage it
/// says "offline since …" rather than "loading…".
#[test]
fn an_unread_profile_says_why_with_the_shared_placeholder() {
    let mut m = fixtures::model(80, 24);
    let cmds = fixtures::drive::switch(&mut m, Pane::Profile);
    let (id, _) = one(&cmds);
    m.net.conn = crate::api::ConnState::Offline {
        since: std::time::UNIX_EPOCH + Duration::from_secs(1_795_348_000),
    };
    let s = screen(&m);
    assert!(s.contains("offline since"), "{s}");
    assert!(!s.contains("loading"), "{s}");
    m.net.conn = crate::api::ConnState::Online;
    let refused = service_error(
        401,
        r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
    );
    reply(&mut m, id, ApiReply::Context(Box::new(Err(refused))));
    m.toasts.clear();
    let s = screen(&m);
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("could not load the company profile: unauthorized"),
        "{s}"
    );
    assert!(flat.contains("refused the API key"), "{s}");
    assert!(!flat.contains("r retries"), "retrying cannot help:\n{s}");
}

/// The review confirms like every confirm of the dashboard: `y` sends,
/// Enter does nothing (a full replacement is never sent by a stray key),
/// `n`, `q` (either case) and Esc go back to the form; it scrolls with the keymap's movement
/// keys, and its footer names them (remapped: as remapped).
#[test]
fn the_review_sends_only_on_y_and_scrolls_with_the_keymap() {
    use crate::config::KeyOverride;
    let mut m = loaded();
    m.keymap = crate::app::keymap::Keymap::with_overrides(&[KeyOverride {
        origin: "test".into(),
        scope: "global".into(),
        key: "ctrl-n".into(),
        action: "down".into(),
    }])
    .expect("keymap");
    key(&mut m, KeyCode::Char('e'));
    for f in [
        FieldId::Overview,
        FieldId::Product,
        FieldId::ProblemSolved,
        FieldId::Differentiators,
    ] {
        if let Some(e) = m.panes.profile.editor.as_mut() {
            e.focus_on(f);
        }
        chars(&mut m, &"Long enough to scroll. ".repeat(6));
    }
    ctrl(&mut m, 's');
    assert!(m.panes.profile.review.is_some());
    assert!(
        api(&key(&mut m, KeyCode::Enter)).is_empty(),
        "Enter sends nothing"
    );
    assert!(m.panes.profile.review.is_some(), "and keeps the review");
    let s = screen(&m);
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    // Named from the fixed keys the handler reads.
    let (yes, no) = (
        crate::app::fixed_keys::YES.label,
        crate::app::fixed_keys::NO.label,
    );
    assert!(
        flat.contains(&format!("{yes} saves · {no} or Esc goes back to the form")),
        "{s}"
    );
    // Scrolled by the movement keys, a remapped one too (the review is
    // taller than the screen).
    key(&mut m, KeyCode::Char('j'));
    assert_eq!(m.panes.profile.review.as_ref().map(|r| r.scroll), Some(1));
    ctrl(&mut m, 'n');
    assert_eq!(m.panes.profile.review.as_ref().map(|r| r.scroll), Some(2));
    key(&mut m, KeyCode::Esc);
    assert!(m.panes.profile.review.is_none(), "Esc: back to the form");
    assert!(m.panes.profile.editor.is_some());
    ctrl(&mut m, 's');
    key(&mut m, KeyCode::Char('n'));
    assert!(m.panes.profile.review.is_none(), "n: back to the form");
    // `q` and `Q` dismiss, as in every question (fixed_keys::DISMISS).
    for q in ['q', 'Q'] {
        ctrl(&mut m, 's');
        key(&mut m, KeyCode::Char(q));
        assert!(m.panes.profile.review.is_none(), "{q}: back to the form");
        assert!(m.panes.profile.editor.is_some());
    }
    ctrl(&mut m, 's');
    let (_, req) = one(&key(&mut m, KeyCode::Char('y')));
    assert!(matches!(req, ApiRequest::PutContext(_)), "y sends");
}

/// Every key the pane names comes from the keymap: remapped, the form's
/// save key, its close key, the refresh key of "not read yet" and the
/// redeem dialog's keys are named — and work — as remapped; the keys they
/// replaced, unbound, no longer act (none is hard-coded beside the keymap).
#[test]
fn the_pane_names_its_keys_as_the_keymap_binds_them() {
    let keymap = remapped();
    // Not read yet: the refresh key as remapped.
    let mut m = fixtures::model(80, 24);
    m.keymap = keymap.clone();
    let (id, _) = one(&fixtures::drive::switch(&mut m, Pane::Profile));
    let failed = service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    );
    reply(&mut m, id, ApiReply::Context(Box::new(Err(failed))));
    key(&mut m, KeyCode::Char('e'));
    let last = m
        .toasts
        .items()
        .last()
        .map(|t| t.text.as_str().to_owned())
        .unwrap_or_default();
    assert!(last.contains("(F5 reads it)"), "{last}");
    // The form's footer and its keys.
    let mut m = loaded();
    m.keymap = keymap;
    key(&mut m, KeyCode::Char('e'));
    chars(&mut m, "x");
    let s = screen(&m);
    assert!(s.contains("Ctrl-X review & save"), "{s}");
    assert!(s.contains("F3 close"), "{s}");
    assert!(!s.contains("Ctrl-S") && !s.contains("Esc"), "{s}");
    let focused = |m: &Model| {
        m.panes
            .profile
            .editor
            .as_ref()
            .map(super::editor::Editor::focused)
    };
    let before = focused(&m);
    key(&mut m, KeyCode::PageDown);
    assert_eq!(focused(&m), before, "PgDn, unbound, jumps nowhere");
    key(&mut m, KeyCode::F(4));
    assert_ne!(focused(&m), before, "the remapped key jumps a section");
    assert!(api(&ctrl(&mut m, 's')).is_empty());
    assert!(
        m.panes.profile.review.is_none(),
        "Ctrl-S, unbound, reviews nothing"
    );
    assert!(api(&ctrl(&mut m, 'x')).is_empty());
    assert!(m.panes.profile.review.is_some(), "the remapped key reviews");
    key(&mut m, KeyCode::F(3));
    assert!(m.panes.profile.review.is_none(), "Back leaves the review");
    key(&mut m, KeyCode::Esc);
    assert!(
        m.panes.profile.editor.is_some(),
        "Esc, unbound, closes nothing"
    );
    key(&mut m, KeyCode::F(3));
    assert!(m.panes.profile.editor.is_none(), "Back closes the form");
    redeem_keys_as_remapped(&mut m);
}

/// The keymap of [`the_pane_names_its_keys_as_the_keymap_binds_them`]:
/// each key the pane names moved to another.
fn remapped() -> crate::app::keymap::Keymap {
    use crate::config::KeyOverride;
    let o = |scope: &str, key: &str, action: &str| KeyOverride {
        origin: "test".into(),
        scope: scope.into(),
        key: key.into(),
        action: action.into(),
    };
    crate::app::keymap::Keymap::with_overrides(&[
        o("profile", "ctrl-s", "none"),
        o("profile", "ctrl-x", "save_profile"),
        o("global", "r", "none"),
        o("global", "f5", "refresh"),
        o("global", "esc", "none"),
        o("global", "f3", "back"),
        o("global", "enter", "none"),
        o("global", "f2", "open"),
        o("global", "pgdn", "none"),
        o("global", "f4", "page_down"),
    ])
    .expect("keymap")
}

/// The redeem dialog with the keys of [`remapped`].
fn redeem_keys_as_remapped(m: &mut Model) {
    key(m, KeyCode::Char('p'));
    let s = screen(m);
    assert!(s.contains("F2 redeem") && s.contains("F3 cancel"), "{s}");
    chars(m, "DEMO-PASS-1");
    assert!(api(&key(m, KeyCode::Enter)).is_empty(), "Enter, unbound");
    key(m, KeyCode::Esc);
    assert!(
        m.panes.profile.redeem.is_some(),
        "Esc, unbound, keeps it open"
    );
    let (_, req) = one(&key(m, KeyCode::F(2)));
    assert!(matches!(req, ApiRequest::Redeem { .. }), "{req:?}");
    // Sent: Esc still does nothing, Back hides the dialog.
    key(m, KeyCode::Esc);
    assert!(m.panes.profile.redeem.is_some());
    key(m, KeyCode::F(3));
    assert!(m.panes.profile.redeem.is_none());
}

/// When the state file cannot be written, a closed form is never said to
/// be "saved locally": the notice says it lives in this session only, and
/// so does the title.
#[test]
fn a_draft_is_said_saved_locally_only_when_it_is() {
    // Writable: "Draft kept", "saved locally".
    let mut m = loaded();
    edit(&mut m, FieldId::PostingCadence, ", Fridays");
    key(&mut m, KeyCode::Esc);
    let toast = m
        .toasts
        .items()
        .last()
        .map(|t| format!("{}: {}", t.title, t.text.as_str()));
    assert!(
        toast
            .as_deref()
            .is_some_and(|t| t.starts_with("Draft kept:") && t.contains("saved locally")),
        "{toast:?}"
    );
    assert!(screen(&m).contains("unsent changes saved locally"));
    // Not writable.
    let mut m = loaded();
    crate::app::update(
        &mut m,
        crate::app::Msg::Saved(Err(crate::store::StoreError::ReadOnly {
            path: "/ro/state.json".into(),
            detail: "read-only file system".into(),
        })),
    );
    m.toasts.clear();
    edit(&mut m, FieldId::PostingCadence, ", Fridays");
    key(&mut m, KeyCode::Esc);
    let all: Vec<String> = m
        .toasts
        .items()
        .iter()
        .map(|t| format!("{}: {}", t.title, t.text.as_str()))
        .collect();
    assert!(
        all.iter()
            .any(|t| t.starts_with("Draft kept in this session only")),
        "{all:?}"
    );
    assert!(!all.iter().any(|t| t.contains("saved locally")), "{all:?}");
    let s = screen(&m);
    assert!(!s.contains("saved locally"), "{s}");
    assert!(s.contains("kept in this session only"), "{s}");
}

/// `/` filters the read view's fields by label or text, live; the letters
/// go into the filter (`/eng` used to open the form with `e` and type
/// "ng" into First name; here `r` would reload and `e` edit); Enter keeps
/// it; Esc while typing puts back the one before, Esc after clears it.
#[test]
fn slash_filters_the_fields_and_takes_the_letters() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "rev");
    let shown = |m: &Model| -> Vec<FieldId> {
        m.panes
            .profile
            .doc
            .rows
            .iter()
            .filter_map(|r| match r.kind {
                doc::RowKind::Field(f) => Some(f),
                _ => None,
            })
            .collect()
    };
    let p = &m.panes.profile;
    assert!(p.editor.is_none(), "e did not open the form");
    assert_eq!(p.needle.text, "rev");
    assert!(!shown(&m).is_empty(), "some field matches");
    for r in &p.doc.rows {
        if let doc::RowKind::Field(f) = r.kind {
            let text = format!("{} {}", f.label(), r.lines.join(" ")).to_lowercase();
            assert!(text.contains("rev"), "{f:?} does not match: {text}");
        }
    }
    // Live: a narrower filter shows fewer fields.
    key(&mut m, KeyCode::Backspace);
    key(&mut m, KeyCode::Backspace);
    key(&mut m, KeyCode::Backspace);
    chars(&mut m, "icp");
    let icp = shown(&m);
    assert!(icp.iter().all(|f| f.label().starts_with("ICP")), "{icp:?}");
    assert!(icp.contains(&FieldId::IcpJobTitles));
    let s = screen(&m);
    assert!(s.contains("/icp"), "{s}");
    // Enter keeps it; the letters act again.
    key(&mut m, KeyCode::Enter);
    assert!(!m.panes.profile.needle.typing());
    assert_eq!(m.panes.profile.needle.text, "icp");
    assert_eq!(
        m.panes.profile.doc.field_at(m.panes.profile.cursor),
        Some(FieldId::IcpJobTitles),
        "the cursor on the first field shown"
    );
    // As in Campaigns: typing again then Esc puts back the filter from
    // before; Esc on the filtered view clears it: every field again.
    key(&mut m, KeyCode::Char('/'));
    chars(&mut m, "zzz");
    assert!(shown(&m).is_empty(), "live: nothing matches icpzzz");
    key(&mut m, KeyCode::Esc);
    assert!(!m.panes.profile.needle.typing());
    assert_eq!(m.panes.profile.needle.text, "icp", "Esc puts it back");
    assert_eq!(shown(&m), icp);
    key(&mut m, KeyCode::Esc);
    assert_eq!(m.panes.profile.needle.text, "");
    assert!(m.panes.profile.doc.row_of(FieldId::FirstName).is_some());
}

/// Read-only mode: Enter on a field, a double click and Enter on the pass
/// open neither the form nor the redeem dialog (no write can follow); the
/// Enter hint says so; the reason is given.
#[test]
fn read_only_mode_opens_no_form_by_enter_or_the_mouse() {
    use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut m = loaded();
    m.session.read_only = true;
    let hint = |m: &Model| {
        crate::app::hints(m)
            .into_iter()
            .find(|(a, _)| *a == Action::Open)
            .map(|(_, l)| l)
    };
    assert_eq!(hint(&m), Some("edit field ✗ read-only"));
    assert!(api(&key(&mut m, KeyCode::Enter)).is_empty());
    assert!(m.panes.profile.editor.is_none(), "Enter opens no form");
    assert!(
        m.toasts
            .items()
            .last()
            .is_some_and(|t| t.text.as_str().contains("read-only")),
        "says why"
    );
    let click = crate::app::Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 10,
        row: 4,
        modifiers: KeyModifiers::NONE,
    });
    crate::app::update(&mut m, click.clone());
    crate::app::update(&mut m, click);
    assert!(
        m.panes.profile.editor.is_none(),
        "a double click opens no form"
    );
    // A pass answer shown (from before): Enter on it opens no dialog.
    m.panes.profile.pass = Some(pass::PassAnswer {
        code: "DEMO-PASS-1".into(),
        pass: fixtures::discovery_pass(true),
    });
    {
        let (p, cx) = m.split::<ProfileModel>();
        read::rebuild(p, &cx);
        read::show_pass(p, &cx);
    }
    assert_eq!(hint(&m), Some("redeem ✗ read-only"));
    key(&mut m, KeyCode::Enter);
    assert!(m.panes.profile.redeem.is_none(), "no redeem dialog");
    // The Inbox's editor paths are gated the same way.
    crate::app::inbox::editor::compose(&mut m, Some("a@example.com"));
    assert!(m.panes.inbox.editor.is_none());
}

/// Counts in the form read as everywhere in the dashboard
/// (`text::format::plural`): "1,234 keys", never "1234 keys".
#[test]
fn the_forms_counts_are_written_as_everywhere() {
    let mut m = loaded();
    edit(&mut m, FieldId::Extra, "");
    let big: Vec<String> = (0..1234).map(|i| format!("\"k{i}\": {i}")).collect();
    if let Some(e) = m.panes.profile.editor.as_mut()
        && let Some(f) = e.fields.iter_mut().find(|f| f.id == FieldId::Extra)
        && let super::editor::Input::Json(j) = &mut f.input
    {
        j.set_text(&format!("{{{}}}", big.join(", ")));
    }
    let s = screen(&m);
    assert!(s.contains("✓ a JSON object with 1,234 keys"), "{s}");
}

/// The service's refusal of a code reaches the redeem dialog made inert:
/// no escape sequence, nor what is left of one, no bidi override.
#[test]
fn a_refused_codes_reason_is_drawn_inert() {
    let mut m = loaded();
    key(&mut m, KeyCode::Char('p'));
    chars(&mut m, "DEMO-PASS-1");
    let (id, _) = one(&key(&mut m, KeyCode::Enter));
    let refused = service_error(
        400,
        r#"{"error":{"code":"invalid_code","message":"no\u001b]52;c;eA==\u0007 such \u202ecode"}}"#,
    );
    reply(&mut m, id, ApiReply::Redeemed(Box::new(Err(refused))));
    m.toasts.clear();
    let s = screen(&m);
    assert!(s.contains("✗ invalid_code: no"), "{s}");
    assert!(!s.contains("52;c;"), "{s}");
    assert!(!s.contains('\u{202e}'), "{s:?}");
}

/// A reload that fails keeps the profile shown and says how old it is and
/// how to read it again (it once only raised a notice that faded, leaving
/// the old profile looking current).
#[test]
fn a_failed_reload_keeps_the_profile_and_says_its_age() {
    let mut m = loaded();
    m.clock = CLOCK + 150;
    let (id, req) = one(&key(&mut m, KeyCode::Char('r')));
    assert_eq!(req, ApiRequest::GetContext);
    let busy = service_error(
        503,
        r#"{"error":{"code":"unavailable","message":"try later"}}"#,
    );
    reply(&mut m, id, ApiReply::Context(Box::new(Err(busy))));
    m.toasts.clear();
    let s = screen(&m);
    assert!(s.contains("First name"), "the profile stays:\n{s}");
    assert!(
        s.contains("Company profile  stored  stale · as of 2m ago · r retries"),
        "{s}"
    );
}
