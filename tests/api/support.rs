//! Test servers on 127.0.0.1 and client builders.
//!
//! [`Server`] is a tiny axum app that records every request (method, raw
//! path and query, `Authorization`, body, arrival instant) and answers from a
//! closure. [`RawServer`] is a bare `TcpListener` for byte-level control:
//! stalling, dropping the connection, or answering with chosen bytes.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::Response;
use outpost::testkit::api::retry::RetryPolicy;
use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// The key every test client sends.
pub const KEY: &str = "pk_live_SECRETKEY1234abcd";
/// The part of [`KEY`] that must never show up in any text (the masked form
/// keeps only the prefix and the last four characters).
pub const SECRET: &str = "SECRETKEY";

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Hit {
    pub method: String,
    /// Raw (still percent-encoded) path.
    pub path: String,
    pub query: Option<String>,
    pub auth: Option<String>,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    pub at: Instant,
}

impl Hit {
    /// The query as decoded pairs.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.query
            .as_deref()
            .map(|q| {
                reqwest::Url::parse(&format!("http://x/?{q}"))
                    .expect("query")
                    .query_pairs()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The body as JSON (`Null` when empty).
    pub fn json(&self) -> serde_json::Value {
        if self.body.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::from_slice(&self.body).expect("request body is JSON")
        }
    }
}

/// An answer of [`Server`].
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, value: &serde_json::Value) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(value).expect("encodes"),
        }
    }

    /// An answer with these exact bytes.
    pub fn raw(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: body.into(),
        }
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }
}

type Handler = dyn Fn(&Hit, &[Hit]) -> Reply + Send + Sync;

/// A recording axum server; stops when dropped.
pub struct Server {
    pub addr: SocketAddr,
    hits: Arc<Mutex<Vec<Hit>>>,
    task: JoinHandle<()>,
}

impl Server {
    /// Starts a server whose `handler` gets the request and every request so
    /// far (this one included, last).
    pub async fn start(handler: impl Fn(&Hit, &[Hit]) -> Reply + Send + Sync + 'static) -> Server {
        let hits: Arc<Mutex<Vec<Hit>>> = Arc::default();
        let handler: Arc<Handler> = Arc::new(handler);
        let state = (hits.clone(), handler);
        let app = axum::Router::new().fallback(move |req: Request| {
            let (hits, handler) = state.clone();
            async move {
                let at = Instant::now();
                let (parts, body) = req.into_parts();
                let header = |name: &str| {
                    parts
                        .headers
                        .get(name)
                        .map(|v| v.to_str().expect("ascii header").to_owned())
                };
                let hit = Hit {
                    method: parts.method.to_string(),
                    path: parts.uri.path().to_owned(),
                    query: parts.uri.query().map(str::to_owned),
                    auth: header("authorization"),
                    content_type: header("content-type"),
                    body: to_bytes(body, usize::MAX).await.expect("body").to_vec(),
                    at,
                };
                let reply = {
                    let mut all = hits.lock().expect("lock");
                    all.push(hit.clone());
                    handler(&hit, &all)
                };
                let mut resp = Response::builder().status(reply.status);
                for (k, v) in &reply.headers {
                    resp = resp.header(k, v);
                }
                resp.body(Body::from(reply.body)).expect("response")
            }
        });
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("serve");
        });
        Server { addr, hits, task }
    }

    /// A server answering every request with `reply`.
    pub async fn always(reply: Reply) -> Server {
        Server::start(move |_, _| reply.clone()).await
    }

    /// Base URL of the server.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request so far.
    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().expect("lock").clone()
    }

    /// How many requests arrived.
    pub fn count(&self) -> usize {
        self.hits.lock().expect("lock").len()
    }

    /// The only request so far.
    pub fn only(&self) -> Hit {
        let hits = self.hits();
        assert_eq!(hits.len(), 1, "expected exactly one request: {hits:#?}");
        hits.into_iter().next().expect("one")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What [`RawServer`] does once it has read a whole request.
#[derive(Debug, Clone)]
pub enum Raw {
    /// Keep the connection open and never answer.
    Stall,
    /// Close the connection without answering.
    Drop,
    /// Write these bytes, then close.
    Answer(Vec<u8>),
}

/// A byte-level server: counts whole requests read; stops when dropped.
pub struct RawServer {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl RawServer {
    /// Starts a server that does `what` after reading each request.
    pub async fn start(what: Raw) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = requests.clone();
        let task = tokio::spawn(async move {
            // Stalled sockets live as long as this task.
            let mut held = Vec::new();
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    return;
                };
                let Some(head) = read_request(&mut stream).await else {
                    continue;
                };
                seen.lock().expect("lock").push(head);
                match &what {
                    Raw::Stall => held.push(stream),
                    Raw::Drop => drop(stream),
                    Raw::Answer(bytes) => {
                        let _ = stream.write_all(bytes).await;
                        let _ = stream.shutdown().await;
                    }
                }
            }
        });
        RawServer {
            addr,
            requests,
            task,
        }
    }

    /// Base URL of the server.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// How many whole requests were read.
    pub fn count(&self) -> usize {
        self.requests.lock().expect("lock").len()
    }

    /// The request heads read so far.
    pub fn heads(&self) -> Vec<String> {
        self.requests.lock().expect("lock").clone()
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Reads one HTTP/1.1 request (head and `Content-Length` body); returns the
/// head.
async fn read_request(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(head)
}

/// A fast retry policy: three attempts, 20 ms first step.
pub fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        base: Duration::from_millis(20),
        cap: Duration::from_millis(200),
        max_sleep: Duration::from_secs(5),
    }
}

/// The test key.
pub fn key() -> ApiKey {
    ApiKey::parse(KEY).expect("valid key")
}

/// A config for `url` with the test key, short timeouts and fast retries.
pub fn config(url: &str) -> ClientConfig {
    let mut c = ClientConfig::new(url, key());
    c.connect_timeout = Duration::from_secs(2);
    c.request_timeout = Duration::from_secs(10);
    c.retry = fast_retry();
    c
}

/// A client built from [`config`].
pub fn client(url: &str) -> Client {
    Client::new(config(url)).expect("client")
}

/// A port with nothing listening on it.
pub async fn dead_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    drop(listener);
    addr
}

/// Fails the test instead of hanging when `fut` does not finish in `secs`.
pub async fn within<F: std::future::Future>(secs: u64, fut: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(secs), fut)
        .await
        .expect("the call hung")
}

/// Asserts that `text` does not reveal the key.
#[track_caller]
pub fn assert_no_key(what: &str, text: &str) {
    assert!(
        !text.contains(SECRET) && !text.contains(KEY),
        "{what} reveals the key: {text}"
    );
}
