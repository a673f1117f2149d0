//! A 100,000-row CSV import into a draft campaign against the embedded
//! demo service (`outpost serve`, in its own process so this process's
//! memory is the import's alone), compared in one run with the same
//! chunks sent as bare POSTs. Target: the import within 1.1 × the bare
//! POSTs (the median of 6 runs). Also reports the import's peak heap (a
//! counting allocator, on during an untimed import) and the process's peak
//! resident size.
//!
//! The import is the pane's own code path: `Cmd::ReadCsv` carried out by
//! `runtime::csv_import::read_chunk` on a blocking thread, every message
//! through `app::update`, every `Cmd::Api` through
//! `runtime::effects::execute` on its own task — each command run at once
//! and concurrently, as the runtime runs them; only the terminal loop is
//! left out.
//!
//! `cargo bench --bench campaigns_import`

#![expect(
    clippy::expect_used,
    reason = "A benchmark stops at its first failure, saying which step failed."
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use outpost::testkit::api::model::{Campaign, Channel, CreateCampaign, LeadInput};
use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use outpost::testkit::app::campaigns::import::{self, Stage};
use outpost::testkit::app::campaigns::{CampaignsModel, Dialog, Opened, View};
use outpost::testkit::app::{Cmd, Model, Msg, Pane, fixtures, update};
use outpost::testkit::logic::import as rules;
use outpost::testkit::runtime::{csv_import, effects};
use tokio::task::JoinSet;

/// Heap in use and its high-water mark, counted only while `COUNTING` is
/// set: around the untimed warm-up import. Counting on every allocation of
/// the timed rounds made them slower where threads allocate at once (two
/// shared atomics written by every allocation and free, on every thread):
/// the pane's path, which reads, prepares and uploads on three threads,
/// paid for it more than the bare POSTs did on one.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static NOW: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// A size as counted (no allocation comes near `isize::MAX`).
fn signed(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; a counting allocator (to measure the import's peak heap) can only be written with it. SAFETY: every call is passed to the system allocator unchanged; only the sizes are counted."
)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            let size = signed(layout.size());
            let now = NOW.fetch_add(size, Ordering::Relaxed) + size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        if COUNTING.load(Ordering::Relaxed) {
            NOW.fetch_sub(signed(layout.size()), Ordering::Relaxed);
        }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const ROWS: usize = 100_000;
/// Timed rounds (each one import through the pane and one of bare POSTs).
const ROUNDS: usize = 4;

/// A file of `ROWS` rows: every 97th without an email, every 89th repeating
/// the row before it.
fn write_csv(path: &std::path::Path) -> u64 {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("csv file"));
    writeln!(f, "Email,First Name,Last Name,Company,Job Title,Plan,City").expect("write");
    for i in 0..ROWS {
        let email = if i % 97 == 5 {
            String::new()
        } else if i % 89 == 7 {
            format!("lead{}@example.io", i - 1)
        } else {
            format!("lead{i}@example.io")
        };
        writeln!(
            f,
            "{email},First{i},Last{i},Company {},Head of RevOps,{},Berlin",
            i % 500,
            if i % 2 == 0 { "pro" } else { "free" }
        )
        .expect("write");
    }
    f.flush().expect("flush");
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// `outpost serve` on a free loopback port, without a rate limit.
fn serve() -> (Child, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    let addr = format!("127.0.0.1:{port}");
    let child = Command::new(env!("CARGO_BIN_EXE_outpost"))
        .args(["serve", "--addr", &addr, "--rate-limit", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("outpost serve");
    let end = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(&addr).is_err() {
        assert!(Instant::now() < end, "the demo service did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, format!("http://{addr}"))
}

async fn new_campaign(client: &Client, name: &str) -> Campaign {
    client
        .create_campaign(&CreateCampaign {
            kind: Channel::Email,
            name: name.into(),
            daily_limit: Some(50),
            ..CreateCampaign::default()
        })
        .await
        .expect("a draft campaign")
}

/// A model on the Campaigns pane with `c` open.
fn model_with(c: Campaign) -> Model {
    let mut m = fixtures::model(120, 40);
    m.pane = Pane::Campaigns;
    m.panes.campaigns.view = View::Detail;
    m.panes.campaigns.open = Some(Opened {
        campaign: c,
        loaded: true,
        ..Opened::default()
    });
    m
}

fn ctrl_s() -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL))
}

/// Starts a command the way the runtime does: a file read on a blocking
/// thread, a request on its own task (others, such as toasts' timers, are
/// not the import's).
fn start(tasks: &mut JoinSet<Msg>, client: &Client, cmd: Cmd) {
    match cmd {
        Cmd::ReadCsv { id, read } => {
            tasks.spawn_blocking(move || Msg::CsvRead {
                id,
                result: csv_import::read_chunk(&read),
            });
        }
        Cmd::Api { id, req } => {
            let client = client.clone();
            tasks.spawn(async move {
                Msg::Api {
                    id,
                    latency: Duration::ZERO,
                    reply: Box::new(effects::execute(&client, req).await),
                }
            });
        }
        _ => {}
    }
}

/// Carries out the commands as the runtime would (each at once, their
/// results through `update` as they come), until none is left.
async fn run(m: &mut Model, client: &Client, cmds: Vec<Cmd>) {
    let mut tasks = JoinSet::new();
    for cmd in cmds {
        start(&mut tasks, client, cmd);
    }
    while let Some(msg) = tasks.join_next().await {
        for cmd in update(m, msg.expect("a command's task")) {
            start(&mut tasks, client, cmd);
        }
    }
}

/// The whole import through the pane; returns its time and the summary.
async fn import_through_the_pane(
    client: &Client,
    c: Campaign,
    path: &std::path::Path,
) -> (Duration, String) {
    let mut m = model_with(c);
    let started = Instant::now();
    let (pane, mut cx) = m.split::<CampaignsModel>();
    let opened = import::open(pane, &mut cx, Some(path.display().to_string()));
    let cmds = fixtures::drive::and_queued(opened, &mut m);
    run(&mut m, client, cmds).await;
    // Mapping, then preview: Ctrl-S moves on from each.
    update(&mut m, ctrl_s());
    let cmds = update(&mut m, ctrl_s());
    run(&mut m, client, cmds).await;
    let elapsed = started.elapsed();
    let Some(Dialog::Import(d)) = &m.panes.campaigns.dialog else {
        panic!("the import dialog is gone");
    };
    assert_eq!(d.stage, Stage::Done, "{:?}", d.progress.failure);
    (elapsed, d.progress.counts.summary())
}

/// The chunks the import sends, built ahead (not timed).
fn chunks(path: &std::path::Path) -> Vec<Vec<LeadInput>> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut start = rules::CsvPos::START;
    let mut mapping = Vec::new();
    loop {
        let chunk = csv_import::read_chunk(&rules::CsvRead {
            path: path.to_owned(),
            start,
            header: start == rules::CsvPos::START,
            max_rows: rules::CHUNK,
            max_bytes: rules::CHUNK_BYTES,
        })
        .expect("chunk");
        if let Some(h) = &chunk.header {
            mapping = rules::guess_all(h);
        }
        let leads: Vec<LeadInput> = chunk
            .rows
            .iter()
            .filter_map(|r| r.fields.as_ref().ok())
            .map(|f| rules::lead_of(f, &mapping))
            .filter(|l| rules::lacks_identity(l, &Channel::Email).is_none())
            .filter(|l| seen.insert(rules::identity_key(l, &Channel::Email)))
            .collect();
        if !leads.is_empty() {
            out.push(leads);
        }
        if chunk.eof {
            return out;
        }
        start = chunk.next;
    }
}

async fn bare_posts(client: &Client, c: &Campaign, chunks: &[Vec<LeadInput>]) -> Duration {
    let started = Instant::now();
    for leads in chunks {
        client
            .add_leads(&c.id, &Channel::Email, leads)
            .await
            .expect("bare POST");
    }
    started.elapsed()
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn mib(bytes: isize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

// The dashboard's own runtime (src/main.rs): two workers run the effects
// while the loop runs `update`.
#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("leads-100k.csv");
    let size = write_csv(&path);
    let (mut server, base) = serve();
    let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
    let client = Client::new(ClientConfig::new(base, key)).expect("client");

    // A first import, not timed, warms up the service and this process
    // (the first timed import was the slowest, whichever side it was).
    let warm = new_campaign(&client, "bench warm-up").await;
    import_through_the_pane(&client, warm, &path).await;
    // A second one, not timed either, has its heap counted.
    let counted = new_campaign(&client, "bench heap").await;
    COUNTING.store(true, Ordering::Relaxed);
    import_through_the_pane(&client, counted, &path).await;
    COUNTING.store(false, Ordering::Relaxed);
    let heap_peak = PEAK.load(Ordering::Relaxed);
    // Rounds in alternating orders (pane first, then bare first), so a
    // trend of the service (its rosters grow) favours neither side; four,
    // as one import's time moves by a tenth from one to the next.
    let mut pane = Vec::new();
    let mut bare = Vec::new();
    let mut summary = String::new();
    let mut rss_after_pane = None;
    for round in 0..ROUNDS {
        let a = new_campaign(&client, &format!("bench pane {round}")).await;
        let b = new_campaign(&client, &format!("bench bare {round}")).await;
        if round % 2 == 1 {
            bare.push(bare_posts(&client, &b, &chunks(&path)).await);
        }
        let (t, s) = import_through_the_pane(&client, a, &path).await;
        pane.push(t);
        summary = s;
        if round == 0 {
            // Before any bare POSTs' chunks are built: the import's own.
            rss_after_pane = peak_rss_kib();
        }
        if round % 2 == 0 {
            bare.push(bare_posts(&client, &b, &chunks(&path)).await);
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let total = |v: &[Duration]| v.iter().sum::<Duration>();
    let ratio = total(&pane).as_secs_f64() / total(&bare).as_secs_f64();
    println!(
        "CSV import of {ROWS} rows ({:.1} MiB) into a draft campaign, outpost serve on loopback",
        size as f64 / 1048576.0
    );
    println!("  report: {summary}");
    for (i, (p, b)) in pane.iter().zip(&bare).enumerate() {
        println!(
            "  round {}: through the pane {:>8.0} ms   bare POSTs of the same chunks {:>8.0} ms",
            i + 1,
            p.as_secs_f64() * 1000.0,
            b.as_secs_f64() * 1000.0
        );
    }
    println!("  ratio pane / bare: {ratio:.3} (target: at most 1.1)");
    println!(
        "  peak heap of the import (above what was in use before it): {:.2} MiB",
        mib(heap_peak)
    );
    if let Some(kib) = rss_after_pane {
        println!(
            "  peak resident size after the first timed import, before any bare POSTs' chunks are built (the service runs apart): {:.1} MiB",
            kib as f64 / 1024.0
        );
    }
}
