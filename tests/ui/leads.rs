//! Snapshots and flows of the Leads pane: the search list, the create form
//! with a validation error, a running search with diagnostics, the results
//! table, a result's enrichment detail and the filter builder, at 80x24 and
//! 200x50; plus the real loop against the demo service.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::api::model::*;
use outpost::app::leads::{Dialog, View};
use outpost::app::{ApiReply, ApiRequest, Cmd, Model, Msg, Pane, fixtures, update};
use outpost::demo::DemoConfig;

use crate::support::{Runner, screen_text, terminal};

/// Answers the Leads pane's requests from the fixtures; the run of `s-3`
/// has status `run`.
fn answer(m: &mut Model, cmds: Vec<Cmd>, run: &RunStatus) -> Vec<Cmd> {
    let mut next = Vec::new();
    for cmd in cmds {
        let Cmd::Api { id, req } = cmd else { continue };
        let reply = match req {
            ApiRequest::ListSearches => ApiReply::Searches(Ok(Some(fixtures::searches()))),
            ApiRequest::GetSearch { id, page } => {
                let s = fixtures::searches()
                    .into_iter()
                    .find(|s| s.search_id == id)
                    .unwrap_or_default();
                let total = s.result_count as usize;
                let mut p = fixtures::search_page(
                    &s,
                    total,
                    page.offset.unwrap_or(0) as usize,
                    page.limit.unwrap_or(50) as usize,
                );
                p.latest_run = match total {
                    0 => None,
                    _ => Some(fixtures::latest_run(run.clone())),
                };
                ApiReply::SearchPage(Box::new(Ok(p)))
            }
            ApiRequest::Enrichment { id, result_id } => {
                ApiReply::Enrichment(Box::new(Ok(fixtures::enrichment(&id, &result_id))))
            }
            _ => continue,
        };
        next.extend(update(
            m,
            Msg::Api {
                id,
                latency: Duration::from_millis(42),
                reply: Box::new(reply),
            },
        ));
    }
    next
}

fn settle(m: &mut Model, mut cmds: Vec<Cmd>, run: &RunStatus) {
    while !cmds.is_empty() {
        cmds = answer(m, cmds, run);
    }
}

fn press(m: &mut Model, code: KeyCode, run: &RunStatus) {
    let cmds = update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    settle(m, cmds, run);
}

fn ctrl(m: &mut Model, c: char) {
    update(
        m,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    );
}

fn typed(m: &mut Model, s: &str) {
    for c in s.chars() {
        update(
            m,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
}

/// The Leads pane with the searches listed.
fn listed(w: u16, h: u16, run: &RunStatus) -> Model {
    let mut m = fixtures::model(w, h);
    m.pane = Pane::Leads;
    let cmds = m.start();
    settle(&mut m, cmds, run);
    m
}

/// The big search open.
fn opened(w: u16, h: u16, run: &RunStatus) -> Model {
    let mut m = listed(w, h, run);
    press(&mut m, KeyCode::Enter, run);
    assert_eq!(m.leads.view, View::Search);
    m
}

fn snap(m: &Model, w: u16, h: u16) -> String {
    screen_text(&terminal(m, w, h))
}

const SIZES: [(u16, u16); 2] = [(80, 24), (200, 50)];

#[test]
fn search_list() {
    for (w, h) in SIZES {
        let m = listed(w, h, &RunStatus::Completed);
        let text = snap(&m, w, h);
        assert!(text.contains("RevOps leaders at EU SaaS"), "{text}");
        assert!(text.contains("never"), "a search that never ran says so");
        assert_snapshot!(format!("search_list_{w}x{h}"), text);
    }
}

#[test]
fn registry_list_says_where_ids_come_from() {
    let mut m = fixtures::model(80, 24);
    m.pane = Pane::Leads;
    m.state.remember_search("s-1", "", "pasted");
    let cmds = m.start();
    let mut next = Vec::new();
    for c in cmds {
        if let Cmd::Api { id, .. } = c {
            next.extend(update(
                &mut m,
                Msg::Api {
                    id,
                    latency: Duration::from_millis(42),
                    reply: Box::new(ApiReply::Searches(Ok(None))),
                },
            ));
        }
    }
    settle(&mut m, next, &RunStatus::Completed);
    let text = snap(&m, 80, 24);
    assert!(text.contains("local registry"), "{text}");
    assert!(text.contains("Founders hiring"), "{text}");
    assert!(text.contains("pasted"), "{text}");
}

#[test]
fn create_form_with_a_validation_error() {
    for (w, h) in SIZES {
        let mut m = listed(w, h, &RunStatus::Completed);
        press(&mut m, KeyCode::Char('n'), &RunStatus::Completed);
        typed(&mut m, "RevOps EU");
        if let Some(f) = m.leads.form.as_mut() {
            f.form.set_value("intent", "Find RevOps leaders at EU SaaS");
            f.form
                .set_value("queries", &format!("head of revops\n{}", "x".repeat(250)));
            f.form.set_value("reason", "They own the tooling budget");
        }
        ctrl(&mut m, 's');
        let text = snap(&m, w, h);
        assert!(text.contains("line 2: 1 to 240 chars"), "{text}");
        assert_snapshot!(format!("create_form_error_{w}x{h}"), text);
    }
}

#[test]
fn running_search_with_diagnostics() {
    for (w, h) in SIZES {
        let m = opened(w, h, &RunStatus::Running);
        let text = snap(&m, w, h);
        assert!(text.contains("running"), "{text}");
        assert!(text.contains("head of revops saas"), "{text}");
        assert!(text.contains("1,240"), "fetched count shown: {text}");
        assert_snapshot!(format!("running_search_{w}x{h}"), text);
    }
}

#[test]
fn results_table_with_marks_and_a_filter_chip() {
    for (w, h) in SIZES {
        let run = RunStatus::Completed;
        let mut m = opened(w, h, &run);
        press(&mut m, KeyCode::Char(' '), &run);
        press(&mut m, KeyCode::Char(' '), &run);
        press(&mut m, KeyCode::PageDown, &run);
        let text = snap(&m, w, h);
        assert!(text.contains("2 selected"), "{text}");
        assert!(text.contains("of 2,000"), "{text}");
        assert_snapshot!(format!("results_table_{w}x{h}"), text);
    }
}

#[test]
fn enrichment_detail() {
    for (w, h) in SIZES {
        let run = RunStatus::Completed;
        let mut m = opened(w, h, &run);
        press(&mut m, KeyCode::Enter, &run);
        assert_eq!(m.leads.view, View::Detail);
        let person = snap(&m, w, h);
        assert!(person.contains("truncated"), "{person}");
        assert!(person.contains("Berlin"), "{person}");
        assert_snapshot!(format!("detail_person_{w}x{h}"), person);
        press(&mut m, KeyCode::Char('e'), &run);
        let fields = snap(&m, w, h);
        assert!(fields.contains("Coverage"), "{fields}");
        assert!(fields.contains("person.location.city"), "{fields}");
        assert_snapshot!(format!("detail_fields_{w}x{h}"), fields);
    }
}

#[test]
fn filter_builder() {
    for (w, h) in SIZES {
        let run = RunStatus::Completed;
        let mut m = opened(w, h, &run);
        press(&mut m, KeyCode::Char('/'), &run);
        typed(&mut m, "revops");
        ctrl(&mut m, 'n');
        typed(&mut m, "city");
        press(&mut m, KeyCode::Enter, &run);
        press(&mut m, KeyCode::Tab, &run);
        typed(&mut m, "Berlin");
        ctrl(&mut m, 'n');
        typed(&mut m, "head");
        press(&mut m, KeyCode::Enter, &run);
        press(&mut m, KeyCode::Right, &run);
        press(&mut m, KeyCode::Tab, &run);
        typed(&mut m, "lots");
        // Enter applies: the number is refused on its row.
        press(&mut m, KeyCode::Enter, &run);
        assert!(matches!(m.leads.dialog, Some(Dialog::Filter(_))));
        let text = snap(&m, w, h);
        assert!(text.contains("a number, e.g. 50 or 2.5"), "{text}");
        assert_snapshot!(format!("filter_builder_{w}x{h}"), text);
        // The picker over the descriptors.
        ctrl(&mut m, 'n');
        let text = snap(&m, w, h);
        assert!(text.contains("Pick a field"), "{text}");
        assert_snapshot!(format!("filter_picker_{w}x{h}"), text);
    }
}

#[test]
fn the_smallest_screen_still_shows_the_results() {
    let run = RunStatus::Running;
    let m = opened(60, 15, &run);
    let text = snap(&m, 60, 15);
    assert!(text.contains("Score"), "{text}");
    assert!(text.contains("Ana López"), "{text}");
}

/// The real loop against the demo service: open the seeded search, page
/// to its end, open a result's enrichment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loop_pages_and_opens_enrichment_against_the_demo() {
    let r = Runner::start(100, 30, "leads", DemoConfig::default()).await;
    r.wait_for("RevOps leaders at Series B SaaS")
        .await
        .expect("the seeded searches are listed");
    r.key(KeyCode::Char('G'));
    r.key(KeyCode::Enter);
    r.wait_for("Results 2,000").await.expect("the results open");
    r.key(KeyCode::Char('G'));
    r.wait_for("2,000 of 2,000")
        .await
        .expect("the last row is reached");
    r.key(KeyCode::Enter);
    r.wait_for("Person").await.expect("the detail opens");
    r.wait_for("schema 1")
        .await
        .expect("the enrichment arrives");
    let m = r.quit().await;
    let o = m.leads.open.as_ref().expect("open");
    assert!(o.window.loaded_rows() <= 1000);
}
