//! Renders the virtual table at 100 and 100,000 rows into a 200x50 buffer:
//! a frame must cost the same whatever the length (target: 100,000 rows no
//! slower than 1.2 × 100 rows).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use outpost::testkit::api::model::DomainStatus;
use outpost::testkit::app::{Model, fixtures};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn model_with(rows: usize) -> Model {
    let mut m = fixtures::model(200, 50);
    let statuses = [
        DomainStatus::Verified,
        DomainStatus::Pending,
        DomainStatus::Failed,
        DomainStatus::Verifying,
    ];
    m.panes.domains.domains.items = (0..rows)
        .map(|i| {
            fixtures::domain(
                &format!("d-{i}"),
                // Names repeat every 100 rows, so both lengths show rows of
                // the same widths and only the length differs.
                &format!("mail{}.example.com", i % 100),
                statuses[i % 4].clone(),
                "2026-11-20T10:00:00Z",
            )
        })
        .collect();
    m.panes.domains.domains.loaded = true;
    // As every change of the list does (the title's count by status).
    m.panes.domains.recount();
    // Put the selection in the middle, as a user scrolled there would.
    let viewport = 45;
    m.panes.domains.table.set_len(rows, viewport);
    m.panes.domains.table.select(rows / 2, viewport);
    m
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("vtable_200x50");
    for rows in [100usize, 100_000] {
        let m = model_with(rows);
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).expect("backend");
        group.bench_function(format!("{rows}_rows"), |b| {
            b.iter(|| {
                terminal
                    .draw(|f| outpost::testkit::ui::view(black_box(&m), f))
                    .expect("draw");
            });
        });
    }
    group.finish();
}

/// The Leads pane's open search at 200x50 (the wide results table:
/// location, seniority, email, query) over `total` results, its visible
/// page loaded and every lead's facts read.
fn leads_with(total: usize) -> Model {
    use outpost::testkit::api::model::SearchKind;
    use outpost::testkit::app::{ApiReply, Cmd, Msg, Pane, update};
    let mut m = fixtures::model(200, 50);
    m.pane = Pane::Leads;
    let s = fixtures::search("s-big", "Bench search", SearchKind::Recurring, total as u64);
    let opened = {
        let (leads, mut cx) = m.split::<outpost::testkit::app::leads::LeadsModel>();
        outpost::testkit::app::leads::search::open(leads, &mut cx, "s-big")
    };
    let mut cmds = fixtures::drive::and_queued(opened, &mut m);
    for _ in 0..100 {
        let mut next = Vec::new();
        for c in cmds {
            if let Cmd::Api { id, req } = c {
                let reply = match req {
                    outpost::testkit::app::ApiRequest::GetSearch { page, .. } => {
                        let offset =
                            usize::try_from(page.offset.unwrap_or(0)).unwrap_or(usize::MAX);
                        let limit = usize::try_from(page.limit.unwrap_or(100)).unwrap_or(100);
                        ApiReply::SearchPage(Box::new(Ok(fixtures::search_page(
                            &s, total, offset, limit,
                        ))))
                    }
                    outpost::testkit::app::ApiRequest::Enrichment { id, result_id } => {
                        ApiReply::Enrichment(Box::new(Ok(fixtures::enrichment(&id, &result_id))))
                    }
                    _ => continue,
                };
                next.extend(update(
                    &mut m,
                    Msg::Api {
                        id,
                        latency: std::time::Duration::from_millis(1),
                        reply: Box::new(reply),
                    },
                ));
            }
        }
        // The wide table's timer reads one lead's facts at a time.
        let fetched = {
            let (leads, mut cx) = m.split::<outpost::testkit::app::leads::LeadsModel>();
            outpost::testkit::app::leads::facts::fetch_next(leads, &mut cx)
        };
        next.extend(fixtures::drive::and_queued(fetched, &mut m));
        if next.is_empty() {
            break;
        }
        cmds = next;
    }
    // What is measured is the wide table with its facts in.
    assert!(
        outpost::testkit::app::leads::facts::wanted(
            &m.panes.leads,
            m.pane == Pane::Leads,
            m.layout().body,
            &m.requests
        )
        .is_none()
            && !m.panes.leads.facts.by_result.is_empty(),
        "every lead on screen has its facts"
    );
    m
}

fn bench_leads(c: &mut Criterion) {
    let mut group = c.benchmark_group("leads_results_200x50");
    for total in [100usize, 100_000] {
        let m = leads_with(total);
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).expect("backend");
        group.bench_function(format!("{total}_results"), |b| {
            b.iter(|| {
                terminal
                    .draw(|f| outpost::testkit::ui::view(black_box(&m), f))
                    .expect("draw");
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench, bench_leads);
criterion_main!(benches);
