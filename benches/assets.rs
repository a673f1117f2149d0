//! The built-in defaults are parsed from the embedded assets at start:
//! target a few tens of microseconds each, so start-up stays instant.

#![expect(
    clippy::expect_used,
    reason = "A bench that cannot set itself up (a port, a child process, its own fixtures) stops with the reason: there is no user to hand an error to."
)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use outpost::testkit::app::keymap::Keymap;
use outpost::testkit::config::theme::{ColourEnv, ThemeFile};
use outpost::testkit::ui::theme::Theme;

fn bench(c: &mut Criterion) {
    c.bench_function("keymap_defaults", |b| {
        b.iter(|| black_box(Keymap::defaults()));
    });
    c.bench_function("theme_builtin", |b| {
        b.iter(|| black_box(ThemeFile::builtin()));
    });
    let user = ThemeFile::builtin().expect("built-in theme");
    c.bench_function("theme_from_config", |b| {
        b.iter(|| black_box(Theme::from_config(black_box(&user), ColourEnv::default())));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
