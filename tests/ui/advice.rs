//! Issue 19, "the service's advice in full": a Lead Finder error's details,
//! alternatives, action (its label and where it leads), `retryable` and
//! `alert` are shown by the dashboard — in the notice (whole in
//! `:messages`) and in the create form's note — and a refused run (409)
//! shows its code and status.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::RunStatus;
use outpost::testkit::app::fixtures::drive::service_error;
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, update};

use crate::leads::{listed, opened, press};
use crate::support::{screen_text, terminal};

/// The demo's refusal of a second run (`demo::errors::run_in_progress`).
const RUN_IN_PROGRESS: &str = r#"{"error":"run_in_progress","message":"A run of this search is already queued or running.","sourceId":"network_people","code":"conflict","alternatives":["wait for the current run to finish","run again with continuation=true"],"retryable":true,"alert":false,"action":{"type":"navigate","label":"View the running search","href":"/lead-finder/s-3"}}"#;

/// A refusal that is not worth sending again, flagged as an alert.
const QUOTA: &str = r#"{"error":"quota","message":"Discovery quota used up","code":"quota_exhausted","sourceId":"network_people","alternatives":["redeem a pass"],"retryable":false,"alert":true,"action":{"type":"navigate","label":"Upgrade","href":"/billing"}}"#;

fn key(m: &mut Model, code: KeyCode) -> Vec<Cmd> {
    update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

/// Answers the request `req` matches among `cmds` with `reply`.
fn answer(m: &mut Model, cmds: &[Cmd], req: fn(&ApiRequest) -> bool, reply: ApiReply) {
    let id = cmds
        .iter()
        .find_map(|c| c.request().filter(|(_, r)| req(r)).map(|(id, _)| id))
        .expect("the request was sent");
    update(
        m,
        Msg::Api {
            id,
            latency: Duration::from_millis(10),
            reply: Box::new(reply),
        },
    );
}

fn run_refused(w: u16, h: u16, status: u16, body: &str) -> Model {
    let mut m = opened(w, h, &RunStatus::Completed);
    let cmds = key(&mut m, KeyCode::Char('R'));
    answer(
        &mut m,
        &cmds,
        |r| matches!(r, ApiRequest::RunSearch { .. }),
        ApiReply::RunStarted(Box::new(Err(service_error(status, body)))),
    );
    m
}

fn messages(m: &mut Model) -> String {
    key(m, KeyCode::Char(':'));
    for c in "messages".chars() {
        key(m, KeyCode::Char(c));
    }
    key(m, KeyCode::Enter);
    let (w, h) = m.size;
    screen_text(&terminal(m, w, h))
}

#[test]
fn a_refused_run_409_shows_its_code_details_and_advice() {
    let m = run_refused(200, 50, 409, RUN_IN_PROGRESS);
    let text = screen_text(&terminal(&m, 200, 50));
    assert!(text.contains("Already running"), "{text}");
    assert_snapshot!("advice_run_409_200x50", text);
    let mut m = run_refused(80, 24, 409, RUN_IN_PROGRESS);
    let text = messages(&mut m);
    for said in [
        "conflict (409): A run of this search is already queued or running",
        "Details: error run_in_progress, source network_people.",
        "Try instead: wait for the current run to finish, run again with",
        "Action: View the running search (/lead-finder/s-3).",
        "Retryable: it may work if sent again later.",
    ] {
        assert!(text.contains(said), "{said}:\n{text}");
    }
    assert_snapshot!("advice_run_409_messages_80x24", text);
}

#[test]
fn a_refused_run_says_not_retryable_and_the_alert() {
    let mut m = run_refused(80, 24, 403, QUOTA);
    let text = messages(&mut m);
    for said in [
        "quota_exhausted · starting the run",
        "Try instead: redeem a pass.",
        "Action: Upgrade",
        "(/billing).",
        "Not retryable: sending it again as it is will not help.",
        "service flags it as an alert.",
    ] {
        assert!(text.contains(said), "{said}:\n{text}");
    }
    assert_snapshot!("advice_run_refused_messages_80x24", text);
}

#[test]
fn a_refused_create_shows_the_advice_in_the_form() {
    let mut m = listed(80, 24, &RunStatus::Completed);
    press(&mut m, KeyCode::Char('n'), &RunStatus::Completed);
    for c in "RevOps EU".chars() {
        key(&mut m, KeyCode::Char(c));
    }
    if let Some(f) = m.panes.leads.form.as_mut() {
        f.form.set_value("intent", "Find RevOps leaders at EU SaaS");
        f.form.set_value("queries", "head of revops");
        f.form.set_value("reason", "They own the tooling budget");
    }
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    );
    answer(
        &mut m,
        &cmds,
        |r| matches!(r, ApiRequest::CreateSearch(_)),
        ApiReply::SearchCreated(Box::new(Err(service_error(422, QUOTA)))),
    );
    m.toasts.clear();
    let note = m
        .panes
        .leads
        .form
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("Action: Upgrade (/billing).") && note.contains("alert"),
        "{note}"
    );
    let text = screen_text(&terminal(&m, 80, 24));
    assert_snapshot!("advice_create_refused_80x24", text);
}
