//! A frame of the roster at 5,000 leads against one at 50, in a 200x50
//! buffer: the virtual table builds only the visible rows and the roster
//! holds at most four pages, so the two must cost the same (target: 5,000
//! leads no slower than 1.2 × 50).
//!
//! `cargo bench --bench campaigns_roster`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use outpost::testkit::api::model::{CampaignStatus, Channel};
use outpost::testkit::app::campaigns::roster::PAGE;
use outpost::testkit::app::campaigns::{Opened, Tab, View};
use outpost::testkit::app::{Model, Pane, fixtures};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The roster tab of a draft of `leads` leads, scrolled to the middle with
/// the pages around the selection loaded (as reading it would leave them).
fn model_with(leads: u64) -> Model {
    let mut m = fixtures::model(200, 50);
    m.pane = Pane::Campaigns;
    m.panes.campaigns.view = View::Detail;
    let c = fixtures::campaign_detail(
        "c-1",
        "Roster bench",
        Channel::Email,
        CampaignStatus::Draft,
        leads,
    );
    let mut o = Opened {
        campaign: c,
        loaded: true,
        tab: Tab::Roster,
        ..Opened::default()
    };
    let all = usize::try_from(leads).unwrap_or(0);
    let middle = all / 2;
    let here = middle / PAGE;
    for page in here.saturating_sub(1)..=(here + 1).min(all.saturating_sub(1) / PAGE) {
        let p = fixtures::roster_page("c-1", leads, page as u64, PAGE as u64);
        o.roster.window.pages.insert(page, p.prospects);
    }
    o.roster.window.total = Some(all);
    let viewport = 42;
    o.roster.window.table.set_len(all, viewport);
    o.roster.window.table.select(middle, viewport);
    m.panes.campaigns.open = Some(o);
    m
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("roster_200x50");
    for leads in [50u64, 5_000] {
        let m = model_with(leads);
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).expect("backend");
        group.bench_function(format!("{leads}_leads"), |b| {
            b.iter(|| {
                terminal
                    .draw(|f| outpost::testkit::ui::view(black_box(&m), f))
                    .expect("draw");
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
