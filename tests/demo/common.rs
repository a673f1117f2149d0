//! Helpers: start a service, a client per workspace, raw HTTP, polling.

use std::future::Future;
use std::time::Duration;

use outpost::testkit::api::{ApiError, ApiKey, Client, ClientConfig};
use outpost::testkit::demo::{self, DEMO_KEY, DemoConfig, DemoHandle, OTHER_KEY};
use serde_json::Value;

/// A running service with a client for each workspace.
pub struct Svc {
    pub handle: DemoHandle,
    pub api: Client,
    pub other: Client,
    http: reqwest::Client,
}

/// Fast enough for the simulation to move in tests, slow enough that a
/// `launching` or `queued` state is still visible right after the call
/// (one simulated minute takes 0.6 s).
pub const TEST_SCALE: f64 = 100.0;

/// Default test config: no rate limit (tests poll), a gentle time scale.
pub fn config() -> DemoConfig {
    DemoConfig {
        time_scale: TEST_SCALE,
        rate_limit_per_sec: 0,
        ..DemoConfig::default()
    }
}

pub async fn start() -> Svc {
    start_with(config()).await
}

pub fn client(handle: &DemoHandle, key: &str) -> Client {
    let key = ApiKey::parse(key).expect("test key");
    Client::new(ClientConfig::new(handle.base_url(), key)).expect("client")
}

pub async fn start_with(cfg: DemoConfig) -> Svc {
    let handle = demo::spawn("127.0.0.1:0".parse().expect("addr"), cfg)
        .await
        .expect("spawn demo service");
    Svc {
        api: client(&handle, DEMO_KEY),
        other: client(&handle, OTHER_KEY),
        http: reqwest::Client::new(),
        handle,
    }
}

/// A raw answer.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub body: Value,
    pub text: String,
    pub headers: reqwest::header::HeaderMap,
}

impl Raw {
    /// `error.code` of a structured body.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }

    /// `error.message` of a structured body.
    pub fn message(&self) -> &str {
        self.body["error"]["message"].as_str().unwrap_or("")
    }

    /// `error` of a flat body.
    pub fn flat(&self) -> &str {
        self.body["error"].as_str().unwrap_or("")
    }
}

impl Svc {
    /// Raw HTTP with the demo key.
    pub async fn raw(&self, method: &str, path: &str, body: Option<Value>) -> Raw {
        self.raw_as(Some(DEMO_KEY), method, path, body).await
    }

    /// Raw HTTP with any key (or none).
    pub async fn raw_as(
        &self,
        key: Option<&str>,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Raw {
        let body = body.map(|b| b.to_string().into_bytes());
        self.raw_bytes(
            key.map(|k| format!("Bearer {k}")).as_deref(),
            method,
            path,
            body,
        )
        .await
    }

    /// Raw HTTP with an exact Authorization header and body bytes.
    pub async fn raw_bytes(
        &self,
        auth: Option<&str>,
        method: &str,
        path: &str,
        body: Option<Vec<u8>>,
    ) -> Raw {
        let url = format!("{}{path}", self.handle.base_url());
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self.http.request(method, url);
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        if let Some(b) = body {
            req = req.header("content-type", "application/json").body(b);
        }
        let resp = req.send().await.expect("request");
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let text = resp.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Raw {
            status,
            body,
            text,
            headers,
        }
    }
}

/// Polls `f` every 50 ms until it yields `Some`, for at most `secs`.
pub async fn eventually<T, F, Fut>(secs: u64, what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The HTTP status of a failed call.
pub fn status(e: &ApiError) -> u16 {
    e.status().unwrap_or(0)
}

/// Asserts a failed call was answered `code` with `status`.
#[track_caller]
pub fn assert_err(
    r: Result<impl std::fmt::Debug, ApiError>,
    status_code: u16,
    code: &str,
) -> ApiError {
    let e = r.expect_err("expected an error answer");
    assert_eq!(status(&e), status_code, "{e}");
    assert_eq!(e.code(), code, "{e}");
    e
}

/// Waits until the service's simulated clock has passed `secs` simulated
/// seconds from now: what a test then reads is past that window in the
/// service's own time, however slow the machine (a fixed sleep guesses).
pub async fn after_sim(svc: &Svc, secs: i64) {
    let clock = svc.handle.clock();
    let until = clock() + secs;
    let d = Deadline::new(120, "the simulated clock");
    while clock() <= until {
        d.tick().await;
    }
}

/// A polling deadline for loops that keep state between polls.
pub struct Deadline {
    until: tokio::time::Instant,
    what: &'static str,
}

impl Deadline {
    pub fn new(secs: u64, what: &'static str) -> Deadline {
        Deadline {
            until: tokio::time::Instant::now() + Duration::from_secs(secs),
            what,
        }
    }

    /// Sleeps 50 ms; fails the test once the deadline has passed.
    pub async fn tick(&self) {
        assert!(
            tokio::time::Instant::now() < self.until,
            "timed out waiting for {}",
            self.what
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
