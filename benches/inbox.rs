//! The Inbox pane's two performance targets.
//!
//! - Keypress to frame in the editor with a 100 KB body: `update(key)` and
//!   a full `view` into a `TestBackend`, at 80x24 and 200x50 (target: under
//!   one 60 Hz frame, 16.7 ms).
//! - A thread of 10,000 messages walked from the newest to the oldest a
//!   page at a time, every page request answered as it is asked for: the
//!   model holds a bounded window (asserted at every step), and the
//!   process's resident memory is reported at the end.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use outpost::testkit::api::model::{ThreadPage, ThreadStatus};
use outpost::testkit::app::fixtures::{self, drive};
use outpost::testkit::app::inbox::messages::{MAX_PAGES, PAGE};
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, Pane, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Bytes of the big body.
const BODY: usize = 100 * 1024;
/// Messages in the big thread.
const MESSAGES: usize = 10_000;

/// A body of about 100 KB: paragraphs of prose, 70-odd chars a line.
fn big_body() -> String {
    let line = "We keep CRM and billing in sync so revenue numbers agree everywhere.";
    let mut s = String::with_capacity(BODY + 100);
    let mut n = 0;
    while s.len() < BODY {
        s.push_str(line);
        n += 1;
        s.push_str(if n % 6 == 0 { "\n\n" } else { " " });
    }
    s
}

/// Answers the reads among `cmds`, `messages` per thread for message pages.
fn answer(
    m: &mut Model,
    cmds: &[Cmd],
    threads: &[outpost::testkit::api::model::Thread],
    messages: usize,
) {
    let mut queue = drive::api(cmds);
    while let Some((id, req)) = queue.pop() {
        let reply = match &req {
            ApiRequest::ListThreads { .. } => ApiReply::Threads(Ok(ThreadPage {
                threads: threads.to_vec(),
                total: threads.len() as u64,
                page: 1,
                limit: 100,
            })),
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::ListMessages { id, page, limit } => ApiReply::ThreadMessages(Ok(
                fixtures::messages_page(id, messages, page.unwrap_or(1), limit.unwrap_or(50)),
            )),
            _ => continue,
        };
        queue.extend(drive::api(&drive::reply(m, id, reply)));
    }
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// A model at `w`x`h` with the editor open on a draft with a 100 KB body,
/// the cursor in the middle of it.
fn editor_model(w: u16, h: u16) -> Model {
    let mut t = fixtures::thread(
        "t-big",
        ThreadStatus::Draft,
        "lena.weber@granite.de",
        "Lena Weber",
        "The long version",
        0,
        "2026-11-22T11:00:00Z",
        Some("s-1"),
    );
    t.draft_body_text = Some(big_body());
    let threads = vec![t];
    let mut m = fixtures::model(w, h);
    let cmds = drive::switch(&mut m, Pane::Inbox);
    answer(&mut m, &cmds, &threads, 0);
    let cmds = update(&mut m, key(KeyCode::Char('e')));
    answer(&mut m, &cmds, &threads, 0);
    let Some(e) = m.panes.inbox.editor.as_ref() else {
        panic!("the editor did not open");
    };
    assert!(e.current().body.len() >= BODY, "a 100 KB body");
    // To the middle of the body.
    let lines = e.body.lines().len();
    for _ in 0..lines / 2 {
        update(&mut m, key(KeyCode::Up));
    }
    m
}

fn keypress_to_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("inbox_editor_100k_keypress_to_frame");
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        let mut m = editor_model(w, h);
        let mut term = Terminal::new(TestBackend::new(w, h)).expect("backend");
        term.draw(|f| outpost::testkit::ui::view(&m, f))
            .expect("draw");
        // Typing keeps the body the same size on average: a letter, then
        // Backspace; each is one keypress and one frame.
        let mut typed = false;
        group.bench_function(format!("type_{w}x{h}"), |b| {
            b.iter(|| {
                let code = if typed {
                    KeyCode::Backspace
                } else {
                    KeyCode::Char('x')
                };
                typed = !typed;
                black_box(update(&mut m, key(code)));
                term.draw(|f| outpost::testkit::ui::view(&m, f))
                    .expect("draw");
            });
        });
        let mut down = true;
        group.bench_function(format!("move_{w}x{h}"), |b| {
            b.iter(|| {
                let code = if down { KeyCode::Down } else { KeyCode::Up };
                down = !down;
                black_box(update(&mut m, key(code)));
                term.draw(|f| outpost::testkit::ui::view(&m, f))
                    .expect("draw");
            });
        });
    }
    group.finish();
}

/// A model with the 10,000-message thread open on its newest message.
fn thread_model() -> (Model, Vec<outpost::testkit::api::model::Thread>) {
    let threads = vec![fixtures::thread(
        "t-long",
        ThreadStatus::Active,
        "mateo.silva@example.com",
        "Mateo Silva",
        "",
        0,
        "2026-11-22T11:00:00Z",
        Some("s-1"),
    )];
    let mut m = fixtures::model(200, 50);
    let cmds = drive::switch(&mut m, Pane::Inbox);
    answer(&mut m, &cmds, &threads, MESSAGES);
    let cmds = update(&mut m, key(KeyCode::Enter));
    answer(&mut m, &cmds, &threads, MESSAGES);
    (m, threads)
}

/// Walks the whole thread up a page at a time; returns the most messages
/// held at any step.
fn walk(m: &mut Model, threads: &[outpost::testkit::api::model::Thread]) -> usize {
    let mut most = 0;
    loop {
        let Some(open) = m.panes.inbox.open.as_ref() else {
            panic!("the thread did not open");
        };
        let w = &open.messages;
        most = most.max(w.loaded_rows());
        assert!(w.loaded_rows() <= MAX_PAGES * PAGE, "bounded window");
        if w.table.selected == 0 {
            assert_eq!(w.selected().map(|m| m.id.as_str()), Some("t-long-m0"));
            return most;
        }
        let cmds = update(m, key(KeyCode::PageUp));
        answer(m, &cmds, threads, MESSAGES);
    }
}

fn thread_paging(c: &mut Criterion) {
    let mut group = c.benchmark_group("inbox_thread_10000_messages");
    group.sample_size(10);
    group.bench_function("walk_newest_to_oldest_pgup", |b| {
        b.iter_batched(
            thread_model,
            |(mut m, threads)| black_box(walk(&mut m, &threads)),
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

/// `VmRSS` and `VmHWM` of this process, in KiB (Linux).
fn rss() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))?
            .split_whitespace()
            .nth(1)?
            .parse::<u64>()
            .ok()
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// One walk outside the timing loop, to report memory.
fn report_memory() {
    let before = rss();
    let (mut m, threads) = thread_model();
    let most = walk(&mut m, &threads);
    let after = rss();
    let held = m
        .panes
        .inbox
        .open
        .as_ref()
        .map_or(0, |o| o.messages.loaded_rows());
    println!(
        "thread of {MESSAGES} messages: at most {most} held during the walk ({held} at the end; bound {})",
        MAX_PAGES * PAGE
    );
    if let (Some((rss0, _)), Some((rss1, hwm))) = (before, after) {
        println!("resident memory: {rss0} KiB before the walk, {rss1} KiB after, peak {hwm} KiB");
    }
}

criterion_group!(benches, keypress_to_frame, thread_paging);

fn main() {
    // Memory first, in a fresh process, before the timed runs.
    report_memory();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
