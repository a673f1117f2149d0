//! The HTTP core of the typed client: base URL and the HTTPS rule, the Bearer
//! header, timeouts, a body size cap, retries, the rate-limit gate of each
//! route family, and the connection state.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use reqwest::{Method, StatusCode, Url, header};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::time::Instant;

use tokio::sync::watch;

use super::bound;
use super::error::{ApiError, ServiceError};
use super::gate::{ConnState, Connection, RateGate, RateLimits, RouteFamily};
use super::key::{ApiKey, redact};
use super::proxy::{self, Route};
use super::retry::{self, Decision, Outcome, RetryPolicy};
use crate::text::sanitize::inline;

/// Largest answer body read before giving up (a runaway answer must not eat
/// the memory).
pub(crate) const DEFAULT_MAX_BODY: usize = 32 * 1024 * 1024;

/// How a [`Client`] is built.
#[derive(Clone)]
pub struct ClientConfig {
    /// Base address; every `/api/...` path is appended to it.
    pub base_url: String,
    /// The Bearer key.
    pub key: ApiKey,
    /// Time to establish a connection.
    pub connect_timeout: Duration,
    /// Time for a whole request, answer included.
    pub request_timeout: Duration,
    /// Body size cap in bytes.
    pub max_body: usize,
    /// Retry bounds.
    pub retry: RetryPolicy,
    /// Read-only mode: refuse every request but a read
    /// ([`super::read_only::is_read`]) before it leaves.
    pub read_only: bool,
}

impl ClientConfig {
    /// A config with the default timeouts (connect 5 s, request 30 s).
    pub fn new(base_url: impl Into<String>, key: ApiKey) -> Self {
        ClientConfig {
            base_url: base_url.into(),
            key,
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            max_body: DEFAULT_MAX_BODY,
            retry: RetryPolicy::default(),
            read_only: false,
        }
    }
}

impl std::fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // By hand: a key pasted into the base URL must not be printed.
        f.debug_struct("ClientConfig")
            .field("base_url", &redact(&self.base_url))
            .field("key", &self.key)
            .field("connect_timeout", &self.connect_timeout)
            .field("request_timeout", &self.request_timeout)
            .field("max_body", &self.max_body)
            .field("retry", &self.retry)
            .field("read_only", &self.read_only)
            .finish()
    }
}

/// Checks the contract's HTTPS rule: `https://` always, `http://` only to a
/// loopback host. Returns the parsed base without a trailing slash.
pub fn check_base_url(raw: &str) -> Result<Url, ApiError> {
    let trimmed = raw.trim().trim_end_matches('/');
    let url = Url::parse(trimmed).map_err(|e| {
        ApiError::Config(format!(
            "base URL `{}` is not a valid URL ({e}); expected e.g. https://api.example.com",
            redact(trimmed)
        ))
    })?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(ApiError::Config(format!(
            "base URL `{}` must not carry a query or fragment",
            redact(url.as_str())
        )));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ApiError::Config(
            "base URL must not carry a user name or password".into(),
        ));
    }
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        "http" => Err(ApiError::Config(format!(
            "refusing to send the API key over plain HTTP to `{}`: the service requires HTTPS (plain http:// is allowed only for loopback addresses such as 127.0.0.1)",
            redact(url.host_str().unwrap_or("?"))
        ))),
        other => Err(ApiError::Config(format!(
            "base URL scheme `{other}` is not supported; use https://"
        ))),
    }
}

/// Whether the URL's host is a loopback address (`localhost`, 127/8, ::1).
pub fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .is_ok_and(|ip| ip.is_loopback())
}

struct Inner {
    http: reqwest::Client,
    base: Url,
    route: Route,
    key: ApiKey,
    loopback: bool,
    config: ClientConfig,
    gate: RateGate,
    conn: Connection,
    attempts: AtomicU64,
    clock: crate::api::service_clock::ServiceClock,
}

/// The typed client of the whole contract. Cheap to clone; clones share the
/// connection pool, the rate-limit gates and the connection state.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    /// Set on the view [`Client::with_bypass`] returns.
    bypass: bool,
    /// Where its writes are recorded (`api::ops::execute`), shared by its
    /// clones and views.
    journal: Option<Arc<crate::journal::Journal>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &redact(self.inner.base.as_str()))
            .field("key", &self.inner.key)
            .finish()
    }
}

/// Encodes a request body as JSON.
pub(crate) fn json<B: Serialize>(body: &B) -> Result<Option<Vec<u8>>, ApiError> {
    serde_json::to_vec(body)
        .map(Some)
        .map_err(|e| ApiError::Config(format!("cannot encode the request body: {e}")))
}

impl Client {
    /// Builds a client; refuses a bad base URL (HTTPS rule) before any
    /// connection is attempted.
    pub fn new(config: ClientConfig) -> Result<Client, ApiError> {
        let base = check_base_url(&config.base_url)?;
        let route = proxy::route(&base, |name| std::env::var(name).ok())?;
        super::tls::install_provider();
        // The route decided above is the only proxy: reqwest's own reading
        // of the environment would send a loopback service's key to it.
        let mut builder = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .user_agent(concat!("outpost/", env!("CARGO_PKG_VERSION")));
        if let Some(url) = route.proxy_url() {
            let proxy = reqwest::Proxy::all(url.as_str()).map_err(|e| {
                ApiError::Config(format!("cannot use the proxy: {}", inline(&e.to_string())))
            })?;
            builder = builder.proxy(proxy);
        }
        // Loading the platform's trust roots (hundreds of files) is most of
        // start-up; a client that can never do TLS (a plain http base, which
        // is loopback and so never proxied) skips it.
        if base.scheme() == "http" && route.proxy_url().is_none() {
            builder = builder.tls_certs_only(std::iter::empty());
        }
        let http = builder.build().map_err(|e| {
            // A TLS setup failure (no trust roots) says what to do about it.
            let why = super::tls::explain(&e, base.host_str().unwrap_or("?"))
                .unwrap_or_else(|| inline(&error_chain(&e)));
            ApiError::Config(format!("cannot build the HTTP client: {why}"))
        })?;
        let loopback = is_loopback(&base);
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                route,
                loopback,
                key: config.key.clone(),
                base,
                config,
                gate: RateGate::default(),
                conn: Connection::default(),
                attempts: AtomicU64::new(0),
                clock: Default::default(),
            }),
            bypass: false,
            journal: None,
        })
    }

    /// The base address.
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    /// How requests leave: directly or through which proxy (for `check`).
    pub fn route(&self) -> &Route {
        &self.inner.route
    }

    /// Host (and port) of the service, for the status bar.
    pub fn host(&self) -> String {
        let b = &self.inner.base;
        match (b.host_str(), b.port()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_owned(),
            _ => b.to_string(),
        }
    }

    /// Whether the service is on a loopback address (the demo service or a
    /// test server): only then may pollers run tighter than the contract's
    /// 30 s guidance.
    pub fn is_loopback(&self) -> bool {
        self.inner.loopback
    }

    /// Whether this client refuses every request but a read (read-only
    /// mode; shared by every clone and view, [`Client::with_bypass`]
    /// included).
    pub fn read_only(&self) -> bool {
        self.inner.config.read_only
    }

    /// The key, masked.
    pub fn masked_key(&self) -> String {
        self.inner.key.masked()
    }

    /// The rate-limit gates of every route family.
    pub fn gate(&self) -> &RateGate {
        &self.inner.gate
    }

    /// A receiver of every family's rate-limit closure, for countdowns.
    pub fn rate_limits(&self) -> watch::Receiver<RateLimits> {
        self.inner.gate.subscribe()
    }

    /// A receiver of the connection state: `Offline` from the first failed
    /// connection of any call (while reads retry in the background),
    /// `RateLimited` while a family's answers are 429, `Online` again at
    /// the first other answer.
    pub fn connection(&self) -> watch::Receiver<ConnState> {
        self.inner.conn.subscribe()
    }

    /// A view of this client for a retry the user asked for: each call sends
    /// exactly one attempt at once, even while its family's gate is closed,
    /// and never re-sends by itself (no retry after a 429, a 5xx or a failed
    /// connection). Its answers still update the gates and the connection
    /// state; a success reopens the family's gate.
    pub fn with_bypass(&self) -> Client {
        Client {
            inner: self.inner.clone(),
            bypass: true,
            journal: self.journal.clone(),
        }
    }

    /// This client recording every write sent through
    /// [`super::ops::execute`] in `journal`.
    pub fn with_journal(mut self, journal: crate::journal::Journal) -> Client {
        self.journal = Some(Arc::new(journal));
        self
    }

    /// The journal its writes are recorded in, if any.
    pub fn journal(&self) -> Option<&Arc<crate::journal::Journal>> {
        self.journal.as_ref()
    }

    /// Whether this view bypasses the gates (see [`Client::with_bypass`]).
    pub fn bypasses_gate(&self) -> bool {
        self.bypass
    }

    /// How far the service's clock is from this machine's, in seconds
    /// (positive: ahead), from the `Date` of its last answer; 0 until one
    /// came. Ages are measured against the service's clock with it.
    pub fn clock_offset(&self) -> i64 {
        self.inner.clock.offset()
    }

    /// HTTP attempts made so far (retries included); for tests and `check`.
    pub fn attempts(&self) -> u64 {
        self.inner.attempts.load(Ordering::Relaxed)
    }

    fn url(&self, path: &str) -> Url {
        let mut url = self.inner.base.clone();
        let joined = format!("{}{}", url.path().trim_end_matches('/'), path);
        url.set_path(&joined);
        url
    }

    /// Sends one operation and decodes its JSON answer, with the gate, the
    /// retry policy, the body cap and the bounds of [`super::bound`]
    /// applied (an operation that is not paged).
    pub(crate) async fn send<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<Vec<u8>>,
    ) -> Result<T, ApiError> {
        self.send_bounded(method, path, query, body, None).await
    }

    /// Like [`Client::send`] for a paged read: each list directly in the
    /// answer holds at most `page` items, the page size asked for.
    pub(crate) async fn send_page<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<Vec<u8>>,
        page: u64,
    ) -> Result<T, ApiError> {
        let page = usize::try_from(page).unwrap_or(usize::MAX);
        self.send_bounded(method, path, query, body, Some(page))
            .await
    }

    async fn send_bounded<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<Vec<u8>>,
        page: Option<usize>,
    ) -> Result<T, ApiError> {
        let write = !super::read_only::is_read(&method, path, query);
        // Every write is journaled by `ops::execute`; one sent around it (a
        // client method called directly) is still journaled here, by its
        // route, and said in the log so it can be sent the one way.
        let stray = match &self.journal {
            Some(j) if write && !super::ops::recording() => {
                tracing::warn!(method = %method, path, "a write sent around api::ops::execute: journaled by its route");
                let draft =
                    crate::journal::entry::Draft::of_route(method.as_str(), path, body.as_deref());
                Some((j.clone(), draft))
            }
            _ => None,
        };
        let result = self
            .send_decoded(method, path, query, body, page, write)
            .await;
        if let Some((j, draft)) = stray {
            let id = j.next_id();
            j.record(draft.finish_route(result.as_ref().err(), id, &j));
        }
        result
    }

    /// Sends, then decodes the answer within its bounds; an unreadable
    /// success of a write may have reached.
    async fn send_decoded<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        body: Option<Vec<u8>>,
        page: Option<usize>,
        write: bool,
    ) -> Result<T, ApiError> {
        let (status, bytes) = self.send_raw(method, path, query, body).await?;
        decode_bounded(&bytes, status, page).map_err(|e| match e {
            // The service said yes, but what it said cannot be read: a write
            // may have taken effect.
            ApiError::Decode { status, detail, .. } => ApiError::Decode {
                status,
                detail,
                may_have_reached: write,
            },
            ApiError::TooMany { what, .. } => ApiError::TooMany {
                what,
                may_have_reached: write,
            },
            other => other,
        })
    }

    /// Like [`Client::send`] but returns the status and the raw body.
    pub(crate) async fn send_raw(
        &self,
        method: Method,
        path: &str,
        query: &[(String, String)],
        payload: Option<Vec<u8>>,
    ) -> Result<(u16, Vec<u8>), ApiError> {
        let inner = &self.inner;
        if inner.config.read_only && !super::read_only::is_read(&method, path, query) {
            // The dashboard refuses writes before they reach the client: a
            // refusal here means that first line of defence missed one,
            // which the read-only tests look for in the log.
            tracing::warn!(method = %method, path, "read-only mode: refused, not sent");
            return Err(ApiError::ReadOnly {
                method: method.to_string(),
                path: path.to_owned(),
            });
        }
        // The contract's two POST reads (a verification status read, a
        // results query) are reads: repeated like a GET, and never said to
        // "may have reached" anything.
        let idempotent = super::read_only::is_read(&method, path, query);
        let url = self.url_with_query(path, query);
        let family = RouteFamily::of(path);
        // A user's explicit retry: one attempt, sent now, never repeated.
        let single = RetryPolicy {
            max_attempts: 1,
            ..inner.config.retry.clone()
        };
        let policy = if self.bypass {
            &single
        } else {
            &inner.config.retry
        };
        let mut attempt: u32 = 0;
        loop {
            if !self.bypass {
                self.pass_gate(family, policy).await?;
            }
            inner.attempts.fetch_add(1, Ordering::Relaxed);
            let req = self.request(&method, &url, payload.as_deref());
            tracing::debug!(method = %method, path, attempt, bypass = self.bypass, "request");
            let step = Step {
                policy,
                attempt,
                idempotent,
                family,
            };
            match req.send().await {
                Ok(resp) => match self.read_answer(resp, &method, idempotent, family).await? {
                    Answer::Done(status, bytes) => return Ok((status, bytes)),
                    Answer::Retryable(outcome, err) => {
                        self.wait_to_retry(step, outcome, err).await?;
                    }
                },
                Err(e) => {
                    self.wait_to_reconnect(step, &e, &method).await?;
                }
            }
            attempt += 1;
        }
    }

    /// The URL of `path` with the query pairs appended.
    fn url_with_query(&self, path: &str, query: &[(String, String)]) -> Url {
        let mut url = self.url(path);
        if !query.is_empty() {
            let mut pairs = url.query_pairs_mut();
            for (k, v) in query {
                pairs.append_pair(k, v);
            }
        }
        url
    }

    /// Waits for the family's gate to open.
    async fn pass_gate(&self, family: RouteFamily, policy: &RetryPolicy) -> Result<(), ApiError> {
        let gate = &self.inner.gate;
        // A long closure is not slept inside the call: fail now and let the
        // UI count down from the family's gate.
        if let Some(until) = gate.closed_until(family) {
            let wait = until.saturating_duration_since(Instant::now());
            if wait > policy.max_sleep {
                return Err(ApiError::RateLimited {
                    wait,
                    message: format!(
                        "the service asked {family} calls to wait; {} left",
                        crate::api::gate::human_wait(wait)
                    ),
                });
            }
        }
        gate.wait_open(family).await;
        Ok(())
    }

    /// One attempt's request: the Bearer key, JSON accepted, the JSON body.
    fn request(
        &self,
        method: &Method,
        url: &Url,
        payload: Option<&[u8]>,
    ) -> reqwest::RequestBuilder {
        let inner = &self.inner;
        let req = inner
            .http
            .request(method.clone(), url.clone())
            .bearer_auth(inner.key.expose())
            .header(header::ACCEPT, "application/json");
        match payload {
            Some(p) => req
                .header(header::CONTENT_TYPE, "application/json")
                .body(p.to_vec()),
            None => req,
        }
    }

    /// Reads an HTTP answer: a 2xx body, a 429 or 502/503/504 for the retry
    /// policy, or (as `Err`) any other error answer.
    async fn read_answer(
        &self,
        resp: reqwest::Response,
        method: &Method,
        idempotent: bool,
        family: RouteFamily,
    ) -> Result<Answer, ApiError> {
        let inner = &self.inner;
        let status = resp.status();
        // Any answer means the service is reachable; a 429 means it is
        // refusing this family, which the status bar says until a better
        // answer (a short `Retry-After` must not make it look online).
        inner
            .conn
            .answered_by(family, status == StatusCode::TOO_MANY_REQUESTS);
        if let Some(date) = resp
            .headers()
            .get(header::DATE)
            .and_then(|v| v.to_str().ok())
        {
            inner.clock.observe(date, SystemTime::now());
        }
        let retry_after = resp
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry::parse_retry_after(v, SystemTime::now()));
        let location = resp
            .headers()
            .get(header::LOCATION)
            .map(|v| inline(&String::from_utf8_lossy(v.as_bytes())));
        if self.bypass && status != StatusCode::TOO_MANY_REQUESTS {
            inner.gate.open(family);
        }
        let bytes = read_capped(
            resp,
            inner.config.max_body,
            method,
            idempotent,
            inner.config.request_timeout,
            status.is_success(),
        )
        .await?;
        if status.is_success() {
            return Ok(Answer::Done(status.as_u16(), bytes));
        }
        let mut err = ServiceError::from_body(status.as_u16(), &bytes, retry_after);
        err.may_have_reached = !idempotent && status.is_server_error();
        if status.is_redirection() {
            err.message = redirect_text(location.as_deref());
        }
        if status == StatusCode::UNAUTHORIZED {
            err = err.refused_key(&inner.key.masked());
        }
        match status {
            StatusCode::TOO_MANY_REQUESTS => Ok(Answer::Retryable(
                Outcome::RateLimited {
                    retry_after,
                    message: "",
                },
                Box::new(err),
            )),
            StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT => Ok(Answer::Retryable(
                Outcome::Unavailable { retry_after },
                Box::new(err),
            )),
            _ => {
                tracing::debug!(status = status.as_u16(), code = %err.code, "error answer");
                Err(ApiError::Service(Box::new(err)))
            }
        }
    }

    /// After a transport failure: waits before the next attempt when it was
    /// a failed connection the policy retries; otherwise the error.
    async fn wait_to_reconnect(
        &self,
        step: Step<'_>,
        e: &reqwest::Error,
        method: &Method,
    ) -> Result<(), ApiError> {
        let inner = &self.inner;
        let err = transport_error(
            e,
            &self.host(),
            method,
            step.idempotent,
            inner.config.request_timeout,
        );
        if !e.is_connect() {
            return Err(err);
        }
        // Published at the first failure, before any retry, so the UI says
        // "offline" instead of "loading…".
        inner.conn.failed();
        // A certificate the client refuses is refused again on a retry.
        if super::tls::explain(e, "").is_some() {
            return Err(err);
        }
        let decision = retry::decide(
            step.policy,
            step.attempt,
            step.idempotent,
            &Outcome::ConnectFailed,
            fastrand::f64(),
        );
        match decision {
            Decision::Retry(wait) => {
                tracing::debug!(?wait, "connect failed; retrying");
                tokio::time::sleep(wait).await;
                Ok(())
            }
            Decision::GiveUp { .. } => Err(err),
        }
    }

    /// After a 429 or 502/503/504: waits before the next attempt (a 429
    /// closes the family's gate instead of sleeping), or gives up.
    async fn wait_to_retry(
        &self,
        step: Step<'_>,
        outcome: Outcome<'static>,
        err: Box<ServiceError>,
    ) -> Result<(), ApiError> {
        let gate = &self.inner.gate;
        let family = step.family;
        let outcome = match outcome {
            Outcome::RateLimited { retry_after, .. } => Outcome::RateLimited {
                retry_after,
                message: &err.message,
            },
            other => other,
        };
        let rate_limited = matches!(outcome, Outcome::RateLimited { .. });
        match retry::decide(
            step.policy,
            step.attempt,
            step.idempotent,
            &outcome,
            fastrand::f64(),
        ) {
            Decision::Retry(wait) => {
                if rate_limited {
                    gate.close_until(family, Instant::now() + wait);
                } else {
                    tokio::time::sleep(wait).await;
                }
                tracing::info!(?wait, status = err.status, attempt = step.attempt, %family, "waiting before retry");
                Ok(())
            }
            Decision::GiveUp { wait } => {
                if rate_limited {
                    gate.close_until(family, Instant::now() + wait);
                    tracing::info!(?wait, %family, "rate limited; failing fast");
                    return Err(ApiError::RateLimited {
                        wait,
                        message: err.message,
                    });
                }
                Err(ApiError::Service(err))
            }
        }
    }
}

/// What a redirect answer says: redirects are never followed, since the
/// key would go along to wherever they point.
fn redirect_text(location: Option<&str>) -> String {
    let to = location.map_or_else(|| "elsewhere".to_owned(), |l| format!("to `{l}`"));
    format!(
        "the service answered with a redirect {to}, which Outpost does not follow (the API key would go along): check the base URL"
    )
}

/// What an HTTP answer came to.
enum Answer {
    /// 2xx: the status and the body.
    Done(u16, Vec<u8>),
    /// 429 or 502/503/504: the retry policy decides.
    Retryable(Outcome<'static>, Box<ServiceError>),
}

/// Where a call is in its retries.
#[derive(Clone, Copy)]
struct Step<'a> {
    policy: &'a RetryPolicy,
    attempt: u32,
    idempotent: bool,
    family: RouteFamily,
}

/// Reads a body, refusing more than `max` bytes.
/// `success` tells whether the status was 2xx: a write whose yes cannot be
/// read may still have taken effect.
async fn read_capped(
    mut resp: reqwest::Response,
    max: usize,
    method: &Method,
    idempotent: bool,
    timeout: Duration,
    success: bool,
) -> Result<Vec<u8>, ApiError> {
    let too_large = ApiError::TooLarge {
        limit: max,
        may_have_reached: success && !idempotent,
    };
    let announced = resp.content_length();
    if announced.is_some_and(|n| n > max as u64) {
        return Err(too_large);
    }
    // Sized once when the length is announced: growing by doubling would
    // hold up to twice a large answer for a moment.
    let mut buf = Vec::with_capacity(announced.and_then(|n| usize::try_from(n).ok()).unwrap_or(0));
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                if buf.len() + chunk.len() > max {
                    return Err(too_large);
                }
                buf.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(buf),
            Err(e) => {
                let host = e.url().and_then(|u| u.host_str()).unwrap_or("?").to_owned();
                return Err(transport_error(&e, &host, method, idempotent, timeout));
            }
        }
    }
}

fn transport_error(
    e: &reqwest::Error,
    host: &str,
    method: &Method,
    idempotent: bool,
    timeout: Duration,
) -> ApiError {
    // reqwest's Display can include the URL; keys never travel in URLs, but
    // redact anyway in case a server put one in a redirect. Made inert
    // before Outpost's words are joined to it.
    if let Some(why) = super::tls::explain(e, host) {
        return ApiError::Connect {
            host: host.to_owned(),
            detail: why,
        };
    }
    let detail = inline(&error_chain(e));
    if e.is_connect() {
        ApiError::Connect {
            host: host.to_owned(),
            detail,
        }
    } else if e.is_timeout() {
        ApiError::Timeout {
            method: method.to_string(),
            after: timeout,
            may_have_reached: !idempotent,
        }
    } else {
        ApiError::Transport {
            detail,
            may_have_reached: !idempotent,
        }
    }
}

/// The innermost causes of an error, joined; reqwest's top-level text alone
/// ("error sending request") does not say what went wrong.
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = Vec::new();
    let mut cur: Option<&(dyn std::error::Error + 'static)> = e.source();
    while let Some(err) = cur {
        parts.push(err.to_string());
        cur = err.source();
    }
    if parts.is_empty() {
        parts.push(without_url(&e.to_string()));
    }
    parts.dedup();
    parts.join(": ")
}

fn without_url(s: &str) -> String {
    match s.find(" for url (") {
        Some(i) => s[..i].to_owned(),
        None => s.to_owned(),
    }
}

/// Decodes a JSON answer of an operation that is not paged; an empty body
/// decodes as `null`.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], status: u16) -> Result<T, ApiError> {
    decode_bounded(bytes, status, None)
}

/// Decodes a JSON answer after checking it against the bounds of
/// [`super::bound`] (`page`: the page size asked for), so an answer of
/// millions of items is refused before any of them is built.
pub(crate) fn decode_bounded<T: DeserializeOwned>(
    bytes: &[u8],
    status: u16,
    page: Option<usize>,
) -> Result<T, ApiError> {
    bound::check(bytes, page).map_err(|what| ApiError::TooMany {
        what,
        may_have_reached: false,
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"null"
    } else {
        bytes
    };
    // serde_json quotes offending strings ("invalid type: string \"…\""),
    // which may be an echoed key; `inline` redacts it and makes it inert.
    serde_json::from_slice(bytes).map_err(|e| ApiError::Decode {
        status,
        detail: inline(&e.to_string()),
        may_have_reached: false,
    })
}

/// Builds a query list from a serializable struct (skipping `None`s).
pub(crate) fn query_of<T: Serialize>(value: &T) -> Vec<(String, String)> {
    let Ok(serde_json::Value::Object(map)) = serde_json::to_value(value) else {
        return Vec::new();
    };
    map.into_iter()
        .filter_map(|(k, v)| {
            let text = match v {
                serde_json::Value::Null => return None,
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            Some((k, text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_rule() {
        assert!(check_base_url("https://api.example.com/").is_ok());
        assert!(check_base_url("http://127.0.0.1:8787").is_ok());
        assert!(check_base_url("http://localhost:1").is_ok());
        assert!(check_base_url("http://[::1]:9").is_ok());
        let err = check_base_url("http://example.com").unwrap_err();
        assert!(err.to_string().contains("HTTPS"), "{err}");
        assert!(check_base_url("ftp://x").is_err());
        assert!(check_base_url("not a url").is_err());
    }

    #[test]
    fn paths_append_to_the_base() {
        let key = ApiKey::parse("pk_live_testtesttest").unwrap();
        let c = Client::new(ClientConfig::new("https://h.example/prefix/", key)).unwrap();
        assert_eq!(
            c.url("/api/context").as_str(),
            "https://h.example/prefix/api/context"
        );
    }

    #[test]
    fn dot_segments_would_change_the_route_so_seg_refuses_them() {
        let key = ApiKey::parse("pk_live_testtesttest").unwrap();
        let c = Client::new(ClientConfig::new("https://h.example", key)).unwrap();
        // The URL parser resolves dot segments, even percent-encoded ones.
        assert_eq!(c.url("/api/campaigns/../leads").path(), "/api/leads");
        assert_eq!(c.url("/api/campaigns/%2e%2E/leads").path(), "/api/leads");
        assert_eq!(c.url("/api/threads/.").path(), "/api/threads/");
        for id in ["", ".", ".."] {
            assert!(crate::api::seg(id).is_err(), "{id:?}");
        }
        assert_eq!(crate::api::seg("...").unwrap(), "...");
        assert_eq!(crate::api::seg("a/b?c").unwrap(), "a%2Fb%3Fc");
    }
}
