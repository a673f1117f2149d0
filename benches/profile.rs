//! The Profile pane's costs: a frame of the read view and of the form at
//! 80x24 and 200x50, a key typed into the form (it recomputes the live
//! diff), and the review of a save — for the fixture profile and for a
//! large one (1,000 items in every list, 2,000 keys in `extra`).
//! Target: a key and a frame each well under 16 ms, so typing never lags.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use outpost::testkit::api::model::ContextResponse;
use outpost::testkit::app::profile::diff::diff;
use outpost::testkit::app::profile::fields::FieldId;
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, Pane, fixtures, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;

/// The fixture profile, or a large one.
fn profile(large: bool) -> ContextResponse {
    let mut p = fixtures::company_profile();
    if large {
        let items: Vec<String> = (0..1000).map(|i| format!("item number {i}")).collect();
        let m = &mut p.context.market;
        for list in [
            &mut m.icp_job_titles,
            &mut m.icp_industries,
            &mut m.icp_company_sizes,
            &mut m.icp_pain_points,
            &mut m.icp_keywords,
        ] {
            list.clone_from(&items);
        }
        for i in 0..2000 {
            p.context
                .extra
                .insert(format!("key{i}"), json!({"n": i, "tags": ["a", "b"]}));
        }
    }
    p
}

/// A model on the Profile pane with `profile` read.
fn model(w: u16, h: u16, profile: &ContextResponse) -> Model {
    let mut m = fixtures::model(w, h);
    let cmds = fixtures::drive::switch(&mut m, Pane::Profile);
    for cmd in cmds {
        if let Cmd::Api {
            id,
            req: ApiRequest::GetContext,
        } = cmd
        {
            update(
                &mut m,
                Msg::Api {
                    id,
                    latency: std::time::Duration::from_millis(1),
                    reply: Box::new(ApiReply::Context(Box::new(Ok(profile.clone())))),
                },
            );
        }
    }
    m
}

fn key(m: &mut Model, code: KeyCode) {
    update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("profile_frame");
    for large in [false, true] {
        let p = profile(large);
        let name = if large { "large" } else { "fixture" };
        for (w, h) in [(80u16, 24u16), (200, 50)] {
            let read = model(w, h, &p);
            let mut form = model(w, h, &p);
            key(&mut form, KeyCode::Char('e'));
            key(&mut form, KeyCode::Char('x'));
            let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("backend");
            group.bench_function(format!("read_{name}_{w}x{h}"), |b| {
                b.iter(|| {
                    terminal
                        .draw(|f| outpost::testkit::ui::view(black_box(&read), f))
                        .expect("draw");
                });
            });
            group.bench_function(format!("form_{name}_{w}x{h}"), |b| {
                b.iter(|| {
                    terminal
                        .draw(|f| outpost::testkit::ui::view(black_box(&form), f))
                        .expect("draw");
                });
            });
        }
    }
    group.finish();
}

fn typing(c: &mut Criterion) {
    let mut group = c.benchmark_group("profile_key");
    for large in [false, true] {
        let p = profile(large);
        let name = if large { "large" } else { "fixture" };
        let mut m = model(80, 24, &p);
        key(&mut m, KeyCode::Char('e'));
        // Typing into a list item and into extra: each key recomputes the
        // whole live diff.
        for (field, label) in [(FieldId::IcpKeywords, "list"), (FieldId::Extra, "extra")] {
            if let Some(e) = m.panes.profile.editor.as_mut() {
                e.focus_on(field);
            }
            group.bench_function(format!("{label}_{name}"), |b| {
                b.iter(|| {
                    key(&mut m, KeyCode::Char(' '));
                    key(&mut m, KeyCode::Backspace);
                });
            });
        }
        // The form's own profile against what it would send now.
        let Some(Ok((base, request))) = m
            .panes
            .profile
            .editor
            .as_ref()
            .map(|e| e.request().map(|r| (e.base.clone(), r)))
        else {
            panic!("the form is open and valid");
        };
        group.bench_function(format!("diff_{name}"), |b| {
            b.iter(|| diff(black_box(&base), black_box(&request)));
        });
        group.bench_function(format!("load_and_open_form_{name}"), |b| {
            b.iter(|| {
                let mut m = model(80, 24, &p);
                key(&mut m, KeyCode::Char('e'));
                black_box(m.panes.profile.editor.is_some())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, frames, typing);
criterion_main!(benches);
