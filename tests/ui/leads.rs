//! Snapshots and flows of the Leads pane: the search list, the create form
//! with a validation error, a running search with diagnostics, the results
//! table, a result's enrichment detail and the filter builder, at 80x24 and
//! 200x50; plus the real loop against the demo service.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::*;
use outpost::testkit::app::leads::{Dialog, LeadsSub, View};
use outpost::testkit::app::{
    ApiReply, ApiRequest, Cmd, Model, Msg, Pane, PaneSub, SubId, fixtures, update,
};
use outpost::testkit::demo::DemoConfig;

use crate::support::{Runner, offline, pane_body, refuse_key, screen_text, terminal};

/// Runs `f` on the Leads pane's state and context, as its entry points do.
fn with_leads<R>(
    m: &mut Model,
    f: impl FnOnce(
        &mut outpost::testkit::app::leads::LeadsModel,
        &mut outpost::testkit::app::ctx::Ctx<'_>,
    ) -> R,
) -> R {
    let (leads, mut cx) = m.split::<outpost::testkit::app::leads::LeadsModel>();
    f(leads, &mut cx)
}

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
                let n =
                    |v: Option<u64>, or: usize| v.map_or(or, |v| usize::try_from(v).unwrap_or(or));
                let total = n(Some(s.result_count), 0);
                let mut p = fixtures::search_page(&s, total, n(page.offset, 0), n(page.limit, 50));
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

/// Answers every request, and those the answers cause; then lets the wide
/// table's timer read the profiles of the leads in view.
fn settle(m: &mut Model, mut cmds: Vec<Cmd>, run: &RunStatus) {
    loop {
        while !cmds.is_empty() {
            cmds = answer(m, cmds, run);
        }
        let facts = SubId::Pane(PaneSub::Leads(LeadsSub::Facts));
        if !outpost::testkit::app::subscriptions(m)
            .iter()
            .any(|s| s.id == facts)
        {
            return;
        }
        cmds = update(m, Msg::SubFired(facts));
    }
}

pub fn press(m: &mut Model, code: KeyCode, run: &RunStatus) {
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
pub fn listed(w: u16, h: u16, run: &RunStatus) -> Model {
    let mut m = fixtures::model(w, h);
    m.pane = Pane::Leads;
    let cmds = m.start();
    settle(&mut m, cmds, run);
    m
}

/// The big search open.
pub fn opened(w: u16, h: u16, run: &RunStatus) -> Model {
    let mut m = listed(w, h, run);
    press(&mut m, KeyCode::Enter, run);
    assert_eq!(m.panes.leads.view, View::Search);
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
        if let Some(f) = m.panes.leads.form.as_mut() {
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
        // A wide screen shows where each lead is, their seniority, their
        // email and the query that found them.
        let wide = w >= outpost::testkit::app::leads::layout::WIDE_TABLE;
        for more in ["Location", "Berlin, DE", "Seniority", "Email", "Query"] {
            assert_eq!(text.contains(more), wide, "{more} at {w}: {text}");
        }
        assert_snapshot!(format!("results_table_{w}x{h}"), text);
    }
}

#[test]
fn enrichment_detail() {
    for (w, h) in SIZES {
        let run = RunStatus::Completed;
        let mut m = opened(w, h, &run);
        press(&mut m, KeyCode::Enter, &run);
        assert_eq!(m.panes.leads.view, View::Detail);
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
fn the_lead_part_of_the_detail() {
    for (w, h) in [(80, 24), (60, 15)] {
        let run = RunStatus::Completed;
        let mut m = opened(w, h, &run);
        press(&mut m, KeyCode::Enter, &run);
        press(&mut m, KeyCode::Char('h'), &run);
        let text = snap(&m, w, h);
        assert!(text.contains("email:"), "{text}");
        assert_snapshot!(format!("detail_lead_{w}x{h}"), text);
        press(&mut m, KeyCode::Char('G'), &run);
        let text = snap(&m, w, h);
        assert!(
            text.contains("link: https://network.example/search"),
            "{text}"
        );
        assert!(text.contains("with the team."), "{text}");
        assert_snapshot!(format!("detail_lead_end_{w}x{h}"), text);
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
        assert!(matches!(m.panes.leads.dialog, Some(Dialog::Filter(_))));
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
fn the_filter_builder_scrolls_to_the_focused_row_at_60x15() {
    let (w, h) = (60, 15);
    let run = RunStatus::Completed;
    let mut m = opened(w, h, &run);
    press(&mut m, KeyCode::Char('/'), &run);
    for _ in 0..5 {
        ctrl(&mut m, 'n');
        typed(&mut m, "head");
        press(&mut m, KeyCode::Enter, &run);
        press(&mut m, KeyCode::Tab, &run);
        typed(&mut m, "lots");
    }
    // Enter: each number is refused on its row (five error lines).
    press(&mut m, KeyCode::Enter, &run);
    for _ in 0..4 {
        press(&mut m, KeyCode::Down, &run);
    }
    typed(&mut m, "9");
    let Some(Dialog::Filter(b)) = &m.panes.leads.dialog else {
        panic!("builder open");
    };
    assert_eq!(b.rows[4].value_text(), "lots9");
    let text = snap(&m, w, h);
    assert!(text.contains("and 5"), "the focused row is drawn: {text}");
    assert!(text.contains("lots9"), "and what is typed in it: {text}");
    assert_snapshot!("filter_builder_scrolled_60x15", text);
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
    let o = m.panes.leads.open.as_ref().expect("open");
    assert!(o.window.loaded_rows() <= 1000);
}

/// Runs every command against the client (API calls through
/// `runtime::effects::execute`, path checks on disk) and feeds the answers
/// to `update`, until nothing is left; returns the other commands.
async fn drive(m: &mut Model, client: &outpost::testkit::api::Client, cmds: Vec<Cmd>) -> Vec<Cmd> {
    let mut queue: std::collections::VecDeque<Cmd> = cmds.into();
    let mut other = Vec::new();
    while let Some(c) = queue.pop_front() {
        match c {
            Cmd::Api { id, req } => {
                let reply = outpost::testkit::runtime::effects::execute(client, req).await;
                queue.extend(update(
                    m,
                    Msg::Api {
                        id,
                        latency: Duration::from_millis(1),
                        reply: Box::new(reply),
                    },
                ));
            }
            Cmd::CheckPath { id, path } => {
                let exists = path.try_exists().map_err(|e| e.to_string());
                queue.extend(update(m, Msg::PathChecked { id, exists }));
            }
            c => other.push(c),
        }
    }
    other
}

/// A model on the Leads pane against a demo service; the rate limit is
/// lifted so the tests never wait out a 429.
async fn demo_model(
    scale: Option<usize>,
) -> (
    Model,
    outpost::testkit::api::Client,
    outpost::testkit::demo::DemoHandle,
) {
    let handle = outpost::testkit::demo::spawn(
        "127.0.0.1:0"
            .parse()
            .unwrap_or_else(|e| panic!("addr: {e:?}")),
        DemoConfig {
            scale,
            rate_limit_per_sec: 100_000,
            ..DemoConfig::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("demo service: {e:?}"));
    let key = outpost::testkit::api::ApiKey::parse(outpost::testkit::demo::DEMO_KEY)
        .unwrap_or_else(|e| panic!("key: {e:?}"));
    let client = outpost::testkit::api::Client::new(outpost::testkit::api::ClientConfig::new(
        handle.base_url(),
        key,
    ))
    .unwrap_or_else(|e| panic!("client: {e:?}"));
    let mut m = fixtures::model(100, 30);
    m.pane = Pane::Leads;
    let cmds = m.start();
    drive(&mut m, &client, cmds).await;
    (m, client, handle)
}

/// Opens the search with the most results.
async fn open_biggest(m: &mut Model, client: &outpost::testkit::api::Client) -> String {
    let (i, id) = m
        .panes
        .leads
        .list
        .rows
        .iter()
        .enumerate()
        .max_by_key(|(_, r)| r.search.result_count)
        .map_or_else(
            || panic!("a search"),
            |(i, r)| (i, r.search.search_id.clone()),
        );
    let vp = outpost::testkit::app::leads::layout::searches_viewport(m.layout().body);
    m.panes.leads.list.table.select(i, vp);
    let cmds = update(
        m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    drive(m, client, cmds).await;
    id
}

/// Resident memory of this process in KiB (Linux).
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `--scale 100000`: the selection walks the whole list (jumps, pages, the
/// end and back) while the model never holds more than 10 pages of 100.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_100k_results_keeps_a_bounded_window() {
    let (mut m, client, _demo) = demo_model(Some(100_000)).await;
    let rss_before = rss_kib();
    open_biggest(&mut m, &client).await;
    let total = m
        .panes
        .leads
        .open
        .as_ref()
        .and_then(|o| o.window.total)
        .expect("total");
    assert_eq!(total, 100_000);
    let vp =
        outpost::testkit::app::leads::layout::results_viewport(m.layout().body, &m.panes.leads);
    let mut most_rows = 0;
    let mut check = |m: &Model| {
        let o = m.panes.leads.open.as_ref().expect("open");
        assert!(
            o.window.pages.len() <= 10,
            "{} pages held",
            o.window.pages.len()
        );
        assert!(
            o.window.selected().is_some(),
            "the selection's page is loaded"
        );
        most_rows = most_rows.max(o.window.loaded_rows());
    };
    // Jumps across the whole list.
    for step in 0..=100 {
        let target = (step * 997 * 7) % total;
        if let Some(o) = m.panes.leads.open.as_mut() {
            o.window.table.select(target, vp);
        }
        let cmds = fixtures::drive::and_queued(
            with_leads(&mut m, |l, cx| {
                outpost::testkit::app::leads::search::fetch_pages(l, cx, false)
            }),
            &mut m,
        );
        drive(&mut m, &client, cmds).await;
        check(&m);
    }
    // Keys: the end, then paging back up through several pages.
    for code in [KeyCode::Char('G')]
        .into_iter()
        .chain(std::iter::repeat_n(KeyCode::PageUp, 60))
    {
        let cmds = update(&mut m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        drive(&mut m, &client, cmds).await;
        check(&m);
    }
    let o = m.panes.leads.open.as_ref().expect("open");
    assert!(o.window.table.selected < total - 1000, "walked back up");
    let rss_after = rss_kib();
    println!(
        "100k paging: most rows held {most_rows}; VmRSS before opening {rss_before:?} KiB, after walking {rss_after:?} KiB"
    );
    assert!(most_rows <= 1000);
    if let (Some(a), Some(b)) = (rss_before, rss_after) {
        // The demo service (same process) holds the 100k rows already; the
        // walk itself must not grow memory by anything like the list's size.
        assert!(b.saturating_sub(a) < 64 * 1024, "RSS grew by {} KiB", b - a);
    }
}

/// The service's rows, read independently of the pane (GET by offset, or
/// the results query by cursor).
async fn service_rows(
    client: &outpost::testkit::api::Client,
    id: &str,
    query: Option<ResultsQuery>,
) -> Vec<LeadResult> {
    let mut out = Vec::new();
    match query {
        None => loop {
            let p = client
                .get_search(
                    id,
                    &SearchPageQuery {
                        limit: Some(500),
                        offset: Some(out.len() as u64),
                        cursor: None,
                    },
                )
                .await
                .unwrap_or_else(|e| panic!("page: {e:?}"));
            let n = p.results.len();
            out.extend(p.results);
            if !p.pagination.has_more || n == 0 {
                return out;
            }
        },
        Some(mut q) => loop {
            let p = client
                .query_results(id, &q)
                .await
                .unwrap_or_else(|e| panic!("page: {e:?}"));
            out.extend(p.results);
            match p.pagination.next_cursor {
                Some(c) if p.pagination.has_more => q.cursor = Some(c.to_text()),
                _ => return out,
            }
        },
    }
}

/// What a spreadsheet must see for a cell: the text, with a `'` before a
/// leading `= + - @`, tab or CR.
fn expected_cell(v: &str) -> String {
    assert!(
        !v.chars().any(|c| c.is_control() && c != '\n'),
        "fixture text is plain: {v:?}"
    );
    if v.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{v}")
    } else {
        v.to_owned()
    }
}

fn expected_record(r: &LeadResult) -> Vec<String> {
    let c = r.canonical_lead.clone().unwrap_or_default();
    let name = if c.name.trim().is_empty() {
        r.entity_person.trim().to_owned()
    } else {
        c.name.trim().to_owned()
    };
    let company = if c.company.trim().is_empty() {
        r.entity_company.clone()
    } else {
        c.company.clone()
    };
    let mut out = vec![expected_cell(&r.result_id), r.score.to_string()];
    for v in [
        &r.quality_tier,
        &name,
        &c.title,
        &company,
        &c.company_domain,
        &c.email,
        &c.network_url,
        &r.status,
        &r.created_at,
        &r.occurred_at,
        &r.query,
        &r.search_reason,
        &r.signal_reason,
        &r.search_url,
        &r.lead_id,
        &r.run_id,
    ] {
        out.push(expected_cell(v));
    }
    out
}

/// Runs an export of the open search to `path` and returns the file's rows.
async fn export_to(
    m: &mut Model,
    client: &outpost::testkit::api::Client,
    path: &std::path::Path,
) -> Vec<Vec<String>> {
    let cmds = with_leads(m, |l, cx| {
        outpost::testkit::app::leads::start_export(l, cx, Some(path.display().to_string()))
    });
    let other = drive(m, client, cmds).await;
    let Some(Cmd::WriteFile { id, file }) = other.into_iter().next() else {
        panic!("the export ends in one write");
    };
    assert!(!file.overwrite, "a new file needs no overwrite");
    outpost::testkit::store::write_atomic(&file.path, &file.bytes)
        .unwrap_or_else(|e| panic!("write: {e:?}"));
    update(m, Msg::FileWritten { id, result: Ok(()) });
    let mut rdr = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("csv: {e:?}"));
    let header: Vec<String> = rdr
        .headers()
        .unwrap_or_else(|e| panic!("header: {e:?}"))
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header, outpost::testkit::logic::export::COLUMNS);
    rdr.records()
        .map(|r| {
            r.unwrap_or_else(|e| panic!("record: {e:?}"))
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// CSV export of the seeded search's 2,000 results equals the service's
/// rows, in order, cell for cell; and so does a filtered export.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_export_of_2000_results_matches_the_service() {
    let (mut m, client, _demo) = demo_model(None).await;
    let id = open_biggest(&mut m, &client).await;
    let dir = tempfile::tempdir().expect("tempdir");

    let path = dir.path().join("all.csv");
    let rows = export_to(&mut m, &client, &path).await;
    let service = service_rows(&client, &id, None).await;
    assert_eq!(service.len(), 2000);
    assert_eq!(rows.len(), service.len());
    for (i, (got, r)) in rows.iter().zip(&service).enumerate() {
        assert_eq!(got, &expected_record(r), "row {i}");
    }
    assert!(m.panes.leads.dialog.is_none(), "the export dialog closes");

    // Filtered: the results query walked by cursor.
    let filter = outpost::testkit::app::leads::Filter {
        q: "revenue".into(),
        predicates: Vec::new(),
    };
    let cmds = fixtures::drive::and_queued(
        with_leads(&mut m, |l, cx| {
            outpost::testkit::app::leads::search::apply_filter(l, cx, filter.clone())
        }),
        &mut m,
    );
    drive(&mut m, &client, cmds).await;
    let path = dir.path().join("filtered.csv");
    let rows = export_to(&mut m, &client, &path).await;
    let service = service_rows(&client, &id, Some(filter.query(None, 100))).await;
    assert!(
        !service.is_empty() && service.len() < 2000,
        "{}",
        service.len()
    );
    assert_eq!(rows.len(), service.len());
    for (i, (got, r)) in rows.iter().zip(&service).enumerate() {
        assert_eq!(got, &expected_record(r), "filtered row {i}");
    }
}

/// The runtime's file write never creates a missing directory unless told
/// to, and names it when it refuses.
#[test]
fn a_file_write_creates_a_missing_directory_only_when_told() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let path = dir.path().join("new").join("out.csv");
    let mut file = outpost::testkit::app::cmd::FileWrite {
        path: path.clone(),
        bytes: b"a,b\n".to_vec(),
        overwrite: false,
        create_dirs: false,
    };
    let refused = outpost::testkit::runtime::write_file(&file);
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.contains("does not exist") && e.contains("new")),
        "{refused:?}"
    );
    assert!(!path.parent().is_some_and(std::path::Path::exists));
    file.create_dirs = true;
    assert_eq!(outpost::testkit::runtime::write_file(&file), Ok(()));
    assert_eq!(std::fs::read(&path).ok(), Some(b"a,b\n".to_vec()));
}

/// The dashboard's export never replaces a named pipe (nor writes through
/// one), even when told to overwrite; the file it writes is private.
#[test]
fn a_file_write_refuses_a_named_pipe_and_writes_mode_0600() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let pipe = dir.path().join("out.csv");
    if !outpost::testkit::files::testing::mkfifo(&pipe) {
        return;
    }
    let mut file = outpost::testkit::app::cmd::FileWrite {
        path: pipe.clone(),
        bytes: b"a,b\n".to_vec(),
        overwrite: true,
        create_dirs: false,
    };
    let refused = outpost::testkit::runtime::write_file(&file);
    assert!(
        refused
            .as_ref()
            .is_err_and(|e| e.contains("named pipe (FIFO), not a regular file")),
        "{refused:?}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let kept = std::fs::symlink_metadata(&pipe).map(|m| m.file_type().is_fifo());
        assert_eq!(kept.ok(), Some(true), "the pipe is left as it was");
        file.path = dir.path().join("real.csv");
        assert_eq!(outpost::testkit::runtime::write_file(&file), Ok(()));
        let mode = std::fs::metadata(&file.path).map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o600));
    }
}

/// What brings a view's read.
type Step = fn(&mut Model) -> Vec<Cmd>;

#[test]
fn a_refused_key_is_said_with_its_fix_and_never_r_retries() {
    let (w, h) = (120, 30);
    let enter = |m: &mut Model| {
        update(
            m,
            Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        )
    };
    // The searches list, the results of an open search, a result's
    // enrichment: each read refused.
    let mut on_leads = fixtures::model(w, h);
    on_leads.pane = Pane::Leads;
    let cases: [(Model, Step, &str); 3] = [
        (on_leads, Model::start, "searches"),
        (listed(w, h, &RunStatus::Completed), enter, "results"),
        (
            opened(w, h, &RunStatus::Completed),
            enter,
            "the enrichment profile",
        ),
    ];
    for (mut m, go, what) in cases {
        let cmds = go(&mut m);
        refuse_key(&mut m, cmds);
        let text = pane_body(&mut m, w, h);
        assert!(
            text.contains(&format!("could not load {what}: unauthorized")),
            "{text}"
        );
        assert!(text.contains("outpost check"), "{text}");
        assert!(!text.contains("retries"), "{text}");
    }
}

#[test]
fn a_refused_connection_is_said_in_the_pane_at_once() {
    let (w, h) = (100, 30);
    let mut m = fixtures::model(w, h);
    m.pane = Pane::Leads;
    let _pending = m.start();
    offline(&mut m);
    let text = pane_body(&mut m, w, h);
    assert!(text.contains("offline since 14:02"), "{text}");
    assert!(!text.contains("loading searches"), "{text}");
    // Opening a search while the service cannot be reached.
    let mut m = listed(w, h, &RunStatus::Completed);
    let _pending = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    offline(&mut m);
    let text = pane_body(&mut m, w, h);
    assert!(text.contains("offline since 14:02"), "{text}");
    assert!(!text.contains("loading results"), "{text}");
}

/// At exactly 160 columns (the wide table's threshold), with values as
/// long as the demo's, where each lead is, their seniority and email show.
#[test]
fn results_at_160_columns_show_location_seniority_and_email() {
    let run = RunStatus::Completed;
    let mut m = opened(160, 40, &run);
    let o = m.panes.leads.open.as_mut().expect("open");
    for rows in o.window.pages.values_mut() {
        for r in rows.iter_mut() {
            if let Some(c) = r.canonical_lead.as_mut() {
                c.name = "Felix Nakamura".into();
                c.title = "Director of Sales Operations".into();
                c.company = "Ironbark Logistics".into();
                c.email = "felix.nakamura@ironbarklogistics.com".into();
            }
            r.query = "VP Revenue Operations SaaS Series B".into();
            r.status = "contacted".into();
            r.created_at = "2026-10-24T11:22:00Z".into();
        }
    }
    for f in m.panes.leads.facts.by_result.values_mut() {
        f.location = "San Francisco Bay Area, US".into();
        f.seniority = "director".into();
    }
    let text = snap(&m, 160, 40);
    for header in ["Location", "Seniority", "Email"] {
        assert!(text.contains(header), "{header} at 160:\n{text}");
    }
    assert!(text.contains("San Francisco"), "{text}");
    assert!(text.contains("felix.nakamura@"), "{text}");
    assert_snapshot!("results_table_160x40", text);
}

/// A model on the Leads pane against a demo service that loses the
/// answers `lost` names (`METHOD:PATH-PATTERN[:502|504|reset]`).
async fn lost_answer_model(
    lost: &str,
) -> (
    Model,
    outpost::testkit::api::Client,
    outpost::testkit::demo::DemoHandle,
) {
    let lost = outpost::testkit::demo::chaos::LostAnswer::parse(lost)
        .unwrap_or_else(|e| panic!("lost answer: {e}"));
    let handle = outpost::testkit::demo::spawn(
        "127.0.0.1:0"
            .parse()
            .unwrap_or_else(|e| panic!("addr: {e:?}")),
        DemoConfig {
            rate_limit_per_sec: 100_000,
            chaos: outpost::testkit::demo::ChaosConfig {
                lost_answers: vec![lost],
                ..outpost::testkit::demo::ChaosConfig::default()
            },
            ..DemoConfig::default()
        },
    )
    .await
    .unwrap_or_else(|e| panic!("demo service: {e:?}"));
    let key = outpost::testkit::api::ApiKey::parse(outpost::testkit::demo::DEMO_KEY)
        .unwrap_or_else(|e| panic!("key: {e:?}"));
    let client = outpost::testkit::api::Client::new(outpost::testkit::api::ClientConfig::new(
        handle.base_url(),
        key,
    ))
    .unwrap_or_else(|e| panic!("client: {e:?}"));
    let mut m = fixtures::model(100, 30);
    m.pane = Pane::Leads;
    let cmds = m.start();
    drive(&mut m, &client, cmds).await;
    (m, client, handle)
}

/// A Lead Finder create whose answer is lost (502 after the demo service
/// made the search): the create goes to the lost-create check, Ctrl-S
/// meanwhile asks instead of sending a second create, and the check's read
/// of the searches finds the one search it made — never two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_answered_502_is_found_by_the_check_and_never_sent_twice() {
    let (mut m, client, _demo) = lost_answer_model("POST:/api/lead-finder:502").await;
    let press = |m: &mut Model, code: KeyCode, mods: KeyModifiers| {
        update(m, Msg::Key(KeyEvent::new(code, mods)))
    };
    press(&mut m, KeyCode::Char('n'), KeyModifiers::NONE);
    {
        let f = m.panes.leads.form.as_mut().expect("the form opens");
        f.form.set_value("title", "Lost answer RevOps");
        f.form.set_value("intent", "Find RevOps leaders at EU SaaS");
        f.form.set_value("queries", "head of revops");
        f.form.set_value("reason", "They own the tooling budget");
    }
    let cmds = press(&mut m, KeyCode::Char('s'), KeyModifiers::CONTROL);
    let [Cmd::Api { id, req }] = cmds.as_slice() else {
        panic!("one create: {cmds:?}");
    };
    assert!(matches!(req, ApiRequest::CreateSearch(_)), "{req:?}");
    let reply = outpost::testkit::runtime::effects::execute(&client, req.clone()).await;
    let check = update(
        &mut m,
        Msg::Api {
            id: *id,
            latency: Duration::from_millis(1),
            reply: Box::new(reply),
        },
    );
    assert!(
        check.iter().any(|c| matches!(
            c,
            Cmd::Api {
                req: ApiRequest::ListSearches,
                ..
            }
        )),
        "the check reads the searches: {check:?}"
    );
    let said: Vec<String> = m.toasts.log().map(|t| t.text.as_str().to_owned()).collect();
    assert!(!said.iter().any(|t| t.contains("r retries")), "{said:?}");
    // While the check reads: Ctrl-S asks, and sends nothing.
    let again = press(&mut m, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(
        !again.iter().any(|c| matches!(
            c,
            Cmd::Api {
                req: ApiRequest::CreateSearch(_),
                ..
            }
        )),
        "no second create without a yes: {again:?}"
    );
    let text = screen_text(&terminal(&m, 100, 30));
    assert!(text.contains("Create again?"), "{text}");
    press(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    drive(&mut m, &client, check).await;
    // Found by the check: opened, said so.
    let open = m.panes.leads.open.as_ref().expect("the search opens");
    assert_eq!(open.search.title, "Lost answer RevOps");
    assert!(
        m.toasts.log().any(|t| t
            .text
            .as_str()
            .contains("the request whose answer was lost went through")),
        "announced"
    );
    assert!(m.panes.leads.last_create.uncertain.is_none(), "settled");
    let made = client
        .list_searches()
        .await
        .unwrap_or_else(|e| panic!("list: {e:?}"))
        .unwrap_or_default()
        .into_iter()
        .filter(|s| s.title == "Lost answer RevOps")
        .count();
    assert_eq!(made, 1, "one search, never two");
}
