//! Renders the virtual table at 100 and 100,000 rows into a 200x50 buffer:
//! a frame must cost the same whatever the length (target: 100,000 rows no
//! slower than 1.2 × 100 rows).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use outpost::api::model::DomainStatus;
use outpost::app::{Model, fixtures};
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
                    .draw(|f| outpost::ui::view(black_box(&m), f))
                    .expect("draw");
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
