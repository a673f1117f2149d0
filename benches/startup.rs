//! Start-up latency: from process start to the first frame showing the
//! Lead Finder searches, against a bare `curl` of the same
//! `GET /api/lead-finder` (target: outpost within 1.2 × curl).
//!
//! One run of `cargo bench --bench startup` starts `outpost serve` once on a
//! free loopback port, then interleaves N times: a bare `curl` of the list
//! (spawned plainly), the same `curl` spawned in a pty the way the dashboard
//! is (to show what the pty harness itself costs), then the release
//! `outpost` dashboard in a fresh pty with a fresh config and data
//! directory. The dashboard's time ends when its output, fed through the
//! `vt100` emulator, first shows a search title from the list; curl's when
//! it exits. The target compares against the bare curl (the stricter one).
//! Medians are reported, and the median of the per-run ratios (the machine
//! is shared and noisy: compare the ratios, not the absolutes).
//!
//! `STARTUP_RUNS` sets N (default 41). `STARTUP_BASELINE=/path/to/outpost`
//! adds another build (e.g. one from before a change) to every round, so a
//! before/after comparison runs under the same load. `STARTUP_CACHE=1` adds
//! two rows of instant open: the dashboard started again in a directory
//! holding its last-known lists (`cache.json`), with the service up, and
//! with the service stopped (its port closed).

#![expect(
    clippy::expect_used,
    reason = "A bench that cannot set itself up (a port, a child process, its own fixtures) stops with the reason: there is no user to hand an error to."
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::num::NonZeroU16;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const BIN: &str = env!("CARGO_BIN_EXE_outpost");
const KEY: &str = "pk_live_demo";
const COLS: u16 = 120;
const ROWS: u16 = 32;
/// Longest a single start may take before the bench gives up.
const LIMIT: Duration = Duration::from_secs(30);

/// `outpost serve`, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    l.local_addr().expect("local addr").port()
}

fn start_server(port: u16) -> Server {
    let mut child = Command::new(BIN)
        // No rate limit: the runs follow each other faster than a user
        // would, and a 429 would measure the retry wait instead.
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--rate-limit",
            "0",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start outpost serve");
    let stderr = child.stderr.take().expect("serve stderr");
    let mut lines = BufReader::new(stderr);
    let mut line = String::new();
    lines.read_line(&mut line).expect("read serve's first line");
    assert!(line.contains("listening"), "serve did not start: {line}");
    // It logs every request to stderr: keep reading, or it would write
    // into a closed pipe.
    std::thread::spawn(move || {
        let mut sink = std::io::sink();
        let _ = std::io::copy(&mut lines, &mut sink);
    });
    Server(child)
}

fn pty_size() -> PtySize {
    PtySize {
        rows: ROWS,
        cols: COLS,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// A title the first data frame must show: the start of the first search's.
fn expected_title(url: &str) -> String {
    let out = Command::new("curl")
        .args(["-sf", "-H", &format!("Authorization: Bearer {KEY}"), url])
        .output()
        .expect("run curl (is it installed?)");
    assert!(out.status.success(), "curl {url} failed");
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON list");
    let title = body["searches"][0]["title"]
        .as_str()
        .expect("the demo workspace has searches");
    title.chars().take(24).collect()
}

fn curl_args(url: &str) -> [String; 6] {
    [
        "-sf".into(),
        "-o".into(),
        "/dev/null".into(),
        "-H".into(),
        format!("Authorization: Bearer {KEY}"),
        url.into(),
    ]
}

/// Runs a bare `curl` of the list (no terminal); the time from spawn to
/// exit.
fn time_curl(url: &str) -> Duration {
    let started = Instant::now();
    let status = Command::new("curl")
        .args(curl_args(url))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run curl");
    let took = started.elapsed();
    assert!(status.success(), "curl failed: {status:?}");
    took
}

/// Runs `curl` of the list in a pty, spawned exactly like the dashboard;
/// the time from spawn to exit. Shows what the pty harness itself costs.
fn time_curl_pty(url: &str) -> Duration {
    let pair = native_pty_system().openpty(pty_size()).expect("openpty");
    let mut cmd = CommandBuilder::new("curl");
    cmd.args(curl_args(url));
    let mut reader = pair.master.try_clone_reader().expect("reader");
    // Drain the pty so a chatty curl can never block on it.
    let drain = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while matches!(reader.read(&mut buf), Ok(n) if n > 0) {}
    });
    let started = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).expect("spawn curl");
    let status = child.wait().expect("wait for curl");
    let took = started.elapsed();
    assert!(status.success(), "curl failed: {status:?}");
    drop(pair);
    let _ = drain.join();
    took
}

/// Runs the dashboard `bin` in a fresh pty and directory; the time from
/// spawn to the first frame holding `title`. Quits it with `q` afterwards.
fn time_outpost(bin: &str, url: &str, title: &str) -> Duration {
    let dir = tempfile::tempdir().expect("tempdir");
    time_outpost_in(bin, dir.path(), url, title)
}

/// Like [`time_outpost`], in the config and data directory `dir` (which
/// keeps what the run leaves there: its state and last-known lists).
fn time_outpost_in(bin: &str, dir: &Path, url: &str, title: &str) -> Duration {
    let pair = native_pty_system().openpty(pty_size()).expect("openpty");
    let mut cmd = CommandBuilder::new(bin);
    cmd.env("TERM", "xterm-256color");
    cmd.env("OUTPOST_CONFIG_DIR", dir);
    cmd.env("OUTPOST_DATA_DIR", dir);
    cmd.env("OUTPOST_BASE_URL", url.trim_end_matches("/api/lead-finder"));
    cmd.env("OUTPOST_API_KEY", KEY);
    cmd.env_remove("NO_COLOR");
    cmd.env_remove("OUTPOST_LOG");
    cmd.cwd(dir);
    let mut reader = pair.master.try_clone_reader().expect("reader");
    let mut writer = pair.master.take_writer().expect("writer");
    let (seen_tx, seen_rx) = mpsc::channel::<Instant>();
    let want = title.to_owned();
    let read = std::thread::spawn(move || {
        let rows = NonZeroU16::new(ROWS).expect("rows");
        let cols = NonZeroU16::new(COLS).expect("cols");
        let mut parser = vt100::Parser::new(rows, cols, 0);
        let mut buf = [0u8; 16384];
        let mut sent = false;
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    parser.process(&buf[..n]);
                    if !sent && parser.screen().contents().contains(&want) {
                        sent = true;
                        let _ = seen_tx.send(Instant::now());
                    }
                }
            }
        }
    });
    let started = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).expect("spawn outpost");
    let seen = seen_rx.recv_timeout(LIMIT);
    // Quit cleanly either way, so the terminal and state file are settled.
    let _ = writer.write_all(b"q");
    let _ = writer.flush();
    let end = Instant::now() + LIMIT;
    let status = loop {
        if let Ok(Some(s)) = child.try_wait() {
            break Some(s);
        }
        if Instant::now() > end {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(writer);
    drop(pair);
    let _ = read.join();
    let Ok(seen) = seen else {
        panic!("no frame showed `{title}` within {LIMIT:?}")
    };
    assert!(
        status
            .as_ref()
            .is_some_and(portable_pty::ExitStatus::success),
        "outpost did not quit cleanly: {status:?}"
    );
    seen.duration_since(started)
}

/// The instant-open rows: two directories holding last-known lists, one
/// of the running service, one of a service since stopped.
struct Cached {
    up_dir: tempfile::TempDir,
    down_dir: tempfile::TempDir,
    down_url: String,
    up: Vec<Duration>,
    down: Vec<Duration>,
}

impl Cached {
    /// Runs the dashboard once in each directory to leave its lists there;
    /// the second service then stops, its port left closed.
    fn new(url: &str, title: &str) -> Cached {
        let up_dir = tempfile::tempdir().expect("tempdir");
        time_outpost_in(BIN, up_dir.path(), url, title);
        let port = free_port();
        let server = start_server(port);
        let down_url = format!("http://127.0.0.1:{port}/api/lead-finder");
        let down_dir = tempfile::tempdir().expect("tempdir");
        time_outpost_in(BIN, down_dir.path(), &down_url, title);
        drop(server);
        for d in [&up_dir, &down_dir] {
            assert!(d.path().join("cache.json").exists(), "no cache was left");
        }
        Cached {
            up_dir,
            down_dir,
            down_url,
            up: Vec::new(),
            down: Vec::new(),
        }
    }

    /// One run of each, back to back.
    fn round(&mut self, url: &str, title: &str) {
        let up = time_outpost_in(BIN, self.up_dir.path(), url, title);
        self.up.push(up);
        let down = time_outpost_in(BIN, self.down_dir.path(), &self.down_url, title);
        self.down.push(down);
    }
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2
    }
}

/// The median of `o / c` over rounds: each round ran back to back, so its
/// ratio sees one machine load.
fn per_round(c: &[Duration], o: &[Duration]) -> f64 {
    let mut r: Vec<f64> = c.iter().zip(o).map(|(c, o)| ms(*o) / ms(*c)).collect();
    r.sort_by(f64::total_cmp);
    r.get(r.len() / 2).copied().unwrap_or(f64::NAN)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The other build to compare with (`STARTUP_BASELINE`), if any.
fn baseline() -> Option<String> {
    let b = std::env::var("STARTUP_BASELINE")
        .ok()
        .filter(|p| !p.is_empty())?;
    assert!(Path::new(&b).exists(), "no baseline binary at {b}");
    Some(b)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` would not, and
    // a start-up measurement has no place in a test run.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let runs: usize = std::env::var("STARTUP_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(41);
    assert!(Path::new(BIN).exists(), "no binary at {BIN}");
    let port = free_port();
    let _server = start_server(port);
    let url = format!("http://127.0.0.1:{port}/api/lead-finder");
    let title = expected_title(&url);

    let baseline = baseline();

    // One of each first, to warm the page cache and the service.
    time_curl(&url);
    time_curl_pty(&url);
    time_outpost(BIN, &url, &title);
    if let Some(b) = &baseline {
        time_outpost(b, &url, &title);
    }

    let mut curl = Vec::with_capacity(runs);
    let mut curl_pty = Vec::with_capacity(runs);
    let mut outpost = Vec::with_capacity(runs);
    let mut base = Vec::with_capacity(runs);
    let mut cached = std::env::var_os("STARTUP_CACHE").map(|_| Cached::new(&url, &title));
    for _ in 0..runs {
        if let Some(c) = cached.as_mut() {
            c.round(&url, &title);
        }
        curl.push(time_curl(&url));
        curl_pty.push(time_curl_pty(&url));
        outpost.push(time_outpost(BIN, &url, &title));
        if let Some(b) = &baseline {
            base.push(time_outpost(b, &url, &title));
        }
    }
    let pair_ratio = per_round(&curl, &outpost);
    let row = |name: &str, v: &mut Vec<Duration>| -> Duration {
        let min = v.iter().min().copied().unwrap_or_default();
        let med = median(v);
        println!(
            "  {name:<36} median {:7.2} ms   min {:7.2} ms",
            ms(med),
            ms(min)
        );
        med
    };
    println!("start to first data frame, {runs} runs interleaved, loopback");
    println!("  binary: {BIN}");
    let c = row("curl GET /api/lead-finder (bare)", &mut curl);
    let cp = row("curl, spawned in a pty like outpost", &mut curl_pty);
    let o = row("outpost, first frame with searches", &mut outpost);
    println!(
        "  ratio outpost / bare curl            {:.2}x (target <= 1.20x)",
        ms(o) / ms(c)
    );
    println!("  median of per-run ratios             {pair_ratio:.2}x");
    println!(
        "  ratio outpost / curl in a pty        {:.2}x",
        ms(o) / ms(cp)
    );
    if let Some(mut c) = cached {
        println!("instant open: the same, started again on its last-known lists");
        row("outpost, cache, service up", &mut c.up);
        row("outpost, cache, service down", &mut c.down);
    }
    if let Some(b) = &baseline {
        println!("  baseline: {b}");
        let bm = row("baseline, first frame with searches", &mut base);
        println!(
            "  ratio baseline / bare curl           {:.2}x",
            ms(bm) / ms(c)
        );
        println!(
            "  median of per-run ratios             {:.2}x",
            per_round(&curl, &base)
        );
    }
}
