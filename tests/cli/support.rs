//! Helpers: the demo service as a separate process (`outpost serve`) whose
//! request log is the witness of what reached it, and the `outpost` binary
//! run in its own config and data directories.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One line of the demo service's request log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    /// HTTP method.
    pub method: String,
    /// Path, without the query.
    pub path: String,
    /// The query string, when there was one.
    pub query: Option<String>,
    /// The answer's status.
    pub status: u64,
}

impl Logged {
    /// `METHOD path?query`.
    pub fn line(&self) -> String {
        match &self.query {
            Some(q) => format!("{} {}?{q}", self.method, self.path),
            None => format!("{} {}", self.method, self.path),
        }
    }

    /// Whether it is a read as read-only mode defines one: a GET, the
    /// `poll=true` verification read or the results filter.
    pub fn is_read(&self) -> bool {
        let segs: Vec<&str> = self.path.trim_start_matches('/').split('/').collect();
        match (self.method.as_str(), segs.as_slice()) {
            ("GET" | "HEAD", _) | ("POST", ["api", "lead-finder", _, "results", "query"]) => true,
            ("POST", ["api", "email", "domains", _, "verify"]) => self
                .query
                .as_deref()
                .is_some_and(|q| q.split('&').any(|p| p == "poll=true")),
            _ => false,
        }
    }
}

/// `outpost serve` on a free loopback port, its stderr log collected.
pub struct Serve {
    child: Child,
    /// `http://127.0.0.1:PORT` (`https://` with `--tls-cert`).
    pub url: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Serve {
    /// Starts the service with extra flags (e.g. `--time-scale 600`).
    pub fn start(flags: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_outpost"))
            .args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "0"])
            .args(flags)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("outpost serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let first = lines
            .next()
            .and_then(Result::ok)
            .expect("the service says where it listens");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://") || w.starts_with("https://"))
            .expect("a URL in the first line")
            .to_owned();
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if let Ok(mut l) = sink.lock() {
                    l.push(line);
                }
            }
        });
        Serve { child, url, log }
    }

    /// Every line the service wrote to stderr so far (requests and other
    /// events, such as failed TLS handshakes).
    pub fn log_lines(&self) -> Vec<String> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The requests logged so far.
    pub fn requests(&self) -> Vec<Logged> {
        let lines = self.log.lock().map(|l| l.clone()).unwrap_or_default();
        lines
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| {
                Some(Logged {
                    method: v["method"].as_str()?.to_owned(),
                    path: v["path"].as_str()?.to_owned(),
                    query: v["query"].as_str().map(str::to_owned),
                    status: v["status"].as_u64()?,
                })
            })
            .collect()
    }

    /// Waits until `n` requests were logged (a log line is written after
    /// its answer, so a client may see the answer first).
    pub fn wait_requests(&self, n: usize) -> Vec<Logged> {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            let r = self.requests();
            if r.len() >= n || Instant::now() > end {
                return r;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the log holds `n` writes (a log line is written after
    /// its answer, so a command may exit before its last line is there),
    /// then every write, as [`Serve::writes`].
    pub fn wait_writes(&self, n: usize) -> Vec<String> {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            let w = self.writes();
            if w.len() >= n || Instant::now() > end {
                return w;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Every logged request that is not a read.
    pub fn writes(&self) -> Vec<String> {
        self.requests()
            .iter()
            .filter(|r| !r.is_read())
            .map(Logged::line)
            .collect()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a run of `outpost` gave.
#[derive(Debug)]
pub struct Run {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// stdout as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

/// `outpost` with its config and data in `dir`, and no service or key from
/// the environment.
pub fn outpost(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_outpost"));
    c.env("OUTPOST_CONFIG_DIR", dir)
        .env("OUTPOST_DATA_DIR", dir)
        .env_remove("OUTPOST_BASE_URL")
        .env_remove("OUTPOST_API_KEY")
        .env_remove("OUTPOST_PROFILE")
        .stdin(Stdio::null());
    c
}

/// Runs a command to its end.
pub fn run(c: &mut Command) -> Run {
    let out = c.output().expect("outpost runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A workspace directory whose config points at `serve` with the demo key.
pub fn workspace(serve: &Serve) -> tempfile::TempDir {
    workspace_with(serve, "")
}

/// Like [`workspace`], with more config text after the base URL.
pub fn workspace_with(serve: &Serve, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = format!(
        "base_url = \"{}\"\napi_key = \"{}\"\n{extra}",
        serve.url,
        outpost::testkit::demo::DEMO_KEY
    );
    let path = dir.path().join("config.toml");
    std::fs::write(&path, config).expect("config");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
    }
    dir
}

/// `outpost ARGS` in `dir`.
pub fn cli(dir: &Path, args: &[&str]) -> Run {
    run(outpost(dir).args(args))
}

/// What a [`Fake`] answers: status, extra headers, JSON body.
pub type Answer = (u16, Vec<(&'static str, String)>, String);

/// A stand-in service on a free loopback port for what the demo cannot
/// do (ids that share a prefix, a run-all with failed searches, a 500
/// then a 200): `answer(method, path, n)` answers the `n`-th request
/// (from 0); every request line is kept.
pub struct Fake {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Fake {
    /// Starts answering.
    pub fn start(answer: impl Fn(&str, &str, usize) -> Answer + Send + 'static) -> Fake {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            for (n, mut s) in listener.incoming().flatten().enumerate() {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                // The head, then as much body as it announces.
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match s.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(k) => buf.extend_from_slice(&chunk[..k]),
                    }
                }
                let text = String::from_utf8_lossy(&buf).into_owned();
                let head_end = text.find("\r\n\r\n").map_or(text.len(), |i| i + 4);
                let length = text
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())
                            .flatten()
                    })
                    .unwrap_or(0);
                while buf.len() < head_end + length {
                    match s.read(&mut chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(k) => buf.extend_from_slice(&chunk[..k]),
                    }
                }
                let first = text.lines().next().unwrap_or_default().to_owned();
                let mut parts = first.split_whitespace();
                let method = parts.next().unwrap_or_default().to_owned();
                let target = parts.next().unwrap_or_default().to_owned();
                let path = target.split('?').next().unwrap_or_default().to_owned();
                if let Ok(mut l) = sink.lock() {
                    l.push(format!("{method} {path}"));
                }
                let (status, headers, body) = answer(&method, &path, n);
                let mut head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
                    body.len()
                );
                for (k, v) in headers {
                    head.push_str(&format!("{k}: {v}\r\n"));
                }
                let _ = write!(s, "{head}\r\n{body}");
            }
        });
        Fake { url, log }
    }

    /// Every request so far: `METHOD path`.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// A workspace whose config points at it with a key of the right form.
    pub fn workspace(&self) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("config.toml");
        std::fs::write(
            &path,
            format!(
                "base_url = \"{}\"\napi_key = \"pk_live_fake12345678\"\n",
                self.url
            ),
        )
        .expect("config");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
        }
        dir
    }
}
