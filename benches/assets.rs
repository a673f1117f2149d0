//! The built-in defaults are parsed from the embedded assets at start:
//! target a few tens of microseconds each, so start-up stays instant.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use outpost::config::keymap::Keymap;

fn bench(c: &mut Criterion) {
    c.bench_function("keymap_defaults", |b| {
        b.iter(|| black_box(Keymap::defaults()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
