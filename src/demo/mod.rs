//! The embedded demo service (axum): the whole contract, simulated, for
//! `outpost --demo`, `outpost serve` and every test that needs a server.
//!
//! It answers every operation of `service-interface.md` and every row of
//! `assumed-operations.md` over real HTTP, with their validation, errors,
//! pagination, state machines and rate limits. Two workspaces exist, keyed
//! [`DEMO_KEY`] (seeded, see [`seed`]) and [`OTHER_KEY`] (small); every
//! resource of one is 404 to the other.
//!
//! Module map: [`store`] (workspaces and resources, rendered into the shared
//! model types), [`seed`], [`people`] (results and enrichment derived from a
//! seed), [`clock`] (simulated time), [`sim`] (runs, campaign sending,
//! domain verification), [`auth`], [`limits`] (rate limits), [`chaos`]
//! (fault injection), [`errors`] (the three envelopes), [`schema`] and
//! [`http`] (request parsing), `routes` (one module per area).
//!
//! # Choices where the contract is silent
//!
//! Requests and envelopes
//! - Pipeline: request log → authentication → rate limit → chaos → route.
//!   Unknown routes are 404 `not_found`, a wrong method 405 structured
//!   `invalid_request`, both after authentication.
//! - A route with an id resolves it before reading its query or body: a
//!   resource of another workspace, or a missing one, is 404 whatever the
//!   input (only a body past the 8 MiB cap is refused earlier, 413).
//! - Bodies are checked for shape first (types, required keys and, for the
//!   search, source plan, `details`, results query and company profile,
//!   unknown keys), then decoded into the shared model and checked with
//!   [`crate::api::validate`], so client and server give the same
//!   `path: message` texts. Other bodies ignore unknown keys. One answer
//!   lists at most 50 failures, then `…and N more`.
//! - Flat `{error}` bodies: pause/resume/launch-without-leads state
//!   failures, a frozen roster, settings or sequence edits in the wrong
//!   status, editing a sent message, attachments (403). The run-in-progress
//!   409 uses the Lead Finder body (`code: conflict`). Everything else is
//!   structured.
//!
//! Time
//! - `sim_now = start + real_elapsed × time_scale`; the start is the wall
//!   clock rounded down to the minute (or [`DemoConfig::epoch_ms`]). The
//!   default scale 60 makes a simulated minute one real second: a run
//!   completes in ~4 s, `mail.northwind-demo.io` verifies ~6 s after start,
//!   the active campaigns send about once a second, seeded inbox replies
//!   arrive 4 and 9 s after start. See [`sim`] for the pace.
//!
//! Lead Finder
//! - `GET /api/lead-finder/{id}`: `limit` defaults to 50; `cursor` (an int,
//!   the offset of the next page) wins over `offset`; rows are ordered by
//!   score, best first. Result `status` is `new`, `contacted` or `dismissed`;
//!   `qualityTier` is `excellent` (score ≥ 0.85), `good` (≥ 0.7) or `fair`.
//! - Results query: `q` matches case-insensitively (Unicode lowercase,
//!   so `ärzte` finds `ÄRZTE`) in the name, title,
//!   company, content, signal reason, company domain, email, query and search
//!   reason. A predicate on a path no result has matches nothing; an
//!   operator the field does not offer, or a value of the wrong type, is 400
//!   naming `predicates[i]…`.
//!   Strings compare case-insensitively (`contains`, `eq`); numbers take
//!   `eq gt gte lt lte`; booleans `eq`; a row without the field never
//!   matches. `nextCursor` is an opaque string bound to the query (a cursor
//!   from another query is 400).
//! - Create: a source plan's `companySize` with `min` greater than `max`
//!   is 400 (`sourcePlans[i].companySize: min must not exceed max`); such a
//!   range can match no company. Criteria `id`s may be empty (at most 60
//!   chars).
//! - A run stores 5 to 60 results (the source plans' `resultTarget` counts,
//!   40 for `all`, 20 when absent); each stored result uses one discovery of
//!   an active discovery pass. `continuation=true` while a run is live
//!   returns that run with `disposition: "existing"`. Run-all queues every
//!   search without a live run except static searches that already ran
//!   (`skipped`).
//!
//! Campaigns
//! - Create requires `type` and `name` (unique per user across both types,
//!   compared trimmed and case-insensitively); without `sender_account_ids`
//!   the workspace's connected senders of that type are used. Unknown,
//!   other-type (rule 2) or disconnected senders are 400 naming the index.
//!   Defaults: email `daily_limit` 50, `stop_on_reply` true, `open_tracking`
//!   false; network `operating_hours` Mon–Fri 09:00–17:00 UTC (not
//!   simulated).
//! - Launch answers `launching`; the campaign is `active` 3 simulated
//!   minutes later. Simulated sending is described in [`sim`]; email leads
//!   end `replied`, `bounced`, `completed` or `timed_out`; network leads go
//!   `connection_sent` → `connected` → `message_sent` → `replied` /
//!   `completed` (or `timed_out` when the connection is not accepted).
//! - `stats` are counts of the roster by current status; `contacted` counts
//!   leads no longer pending; `connections_accepted` counts leads that ever
//!   connected. Resume shifts waiting leads by the time spent paused.
//! - Lead add: rows may carry extra keys (ignored); a present but malformed
//!   channel identity is 400 `row N: invalid email` (or `network_url`).
//!   Dedup compares the channel identity only; a row repeating an earlier
//!   row of the same call is `batch`, one matching the roster (including
//!   rows imported by an earlier chunk of the same file) is `roster`, and
//!   `roster` wins when both hold. The roster's keys are kept between
//!   calls, so each 1,000-row chunk of a 100,000-row import costs the same.
//!   Editing a lead to another lead's identity is 409. Delete ignores ids
//!   not on the roster.
//! - Generated messages exist per lead and sending node (subject and body
//!   are the node's, with `%field%` and `%custom_fields.<key>%` filled from
//!   the lead; an unknown `%name%` is left as written, a missing custom
//!   field is empty). They are `sent` once the lead passed the node,
//!   `pending` once the lead is due for it in a launched campaign
//!   (`launching`, `active` or `paused`: a pending lead's first step, or a
//!   follow-up after the previous step's outcome), `draft` otherwise. An
//!   edit survives the send; replacing the sequence drops all edits. With
//!   `prospect_id`, a replied lead's reply is merged whatever the status
//!   filter, as a `sent` entry with `node_id: "inbound"`, subject `Re: ` and
//!   the subject of the email it answers (empty on network campaigns),
//!   `created_at` its `replied_at`. An unknown `prospect_id` gives an empty
//!   list.
//!
//! Inbox
//! - Warm-up threads (one is seeded) are hidden from the list and ignored by
//!   the duplicate check. The duplicate check runs on create and on a patch
//!   that changes `account_id` or `participant_email`; `existing_threads`
//!   lists every other thread with the recipient (archived ones included).
//! - Deleting a draft whose recipient ends in `@delete-fails.test` simulates
//!   the unexpected failure of rule 9 (500 `internal_error`).
//! - `participant_email`, when present and non-empty, must be an address.
//! - Replies: the participant answers an outbound message (sent through
//!   the API, or seeded) with probability 0.6, 3 to 30 simulated minutes
//!   later, both drawn from the message's id. The reply is an `inbound`
//!   message with subject `Re: <subject>` (never `Re: Re:`) and a short
//!   body addressed to the sender; it adds one to `unread_count` and is the
//!   thread's latest activity. A reply falling due while the thread is
//!   archived is dropped.
//! - `updated_at` (not in the contract) is the last activity and orders
//!   the list: creation, a message either way, and patches of the draft,
//!   recipient or sender. Marking read and status changes are not activity,
//!   so opening or archiving a thread never reorders the list.
//! - Sending clears `draft_attachments` with the other draft fields (they
//!   left with the message); seeded attachment metadata is read-only.
//!
//! Senders, domains, profile, passes
//! - A sender ready to send has `status: "connected"`; the seeded one that
//!   is not has `status: "disconnected"` (it cannot be used for campaigns or
//!   threads; its schedule shows capacity 0).
//! - Schedule: the next 14 simulated days, capacity = `daily_limit`,
//!   committed = sends the sender's live campaigns still need, spread at
//!   their daily cap.
//! - Domains: names containing `fail` end `failed`, `slow` stay `verifying`,
//!   others verify 10 simulated minutes after the first trigger. A list
//!   without `skip_sync` and a `poll=true` verify store the live status; the
//!   poller chain (10…320 min) runs lazily. Duplicate names are 409 within a
//!   workspace only. [`DemoHandle::poller_chains`] counts chains started
//!   through the API.
//! - `PUT /api/context`: every section and field is required, unknown keys
//!   are rejected, `extra` is any object.
//! - Codes: `DEMO-PASS-1` grants 100 discoveries for 14 days, `DEMO-PASS-2`
//!   25 for 2 hours (so expiry is visible). Each code is redeemable once per
//!   workspace and only while no pass is active; otherwise `redeemed: false`
//!   with the reason. Pass status: `active`, `exhausted`
//!   (`terminalReason: "limit_reached"`) or `expired`.
//!
//! Rate limits: see [`limits`]. Chaos: see [`chaos`].

pub(crate) mod auth;
pub(crate) mod chaos;
pub(crate) mod clock;
pub(crate) mod errors;
pub(crate) mod http;
pub(crate) mod ids;
pub(crate) mod limits;
pub(crate) mod people;
mod routes;
pub(crate) mod schema;
pub(crate) mod seed;
pub(crate) mod sim;
pub(crate) mod store;
pub(crate) mod tls;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The key of the seeded demo workspace.
pub const DEMO_KEY: &str = "pk_live_demo";
/// The key of the second, small workspace.
pub const OTHER_KEY: &str = "pk_live_demo_other";

/// Fault injection for reliability tests, reproducible from `seed`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChaosConfig {
    /// Seed of every random choice.
    pub seed: u64,
    /// Added latency per request.
    pub latency: Duration,
    /// The HTTP methods the latency applies to (upper case); empty: every
    /// method. `["POST"]` makes only the writes slow, so a client whose
    /// timeout is shorter still reads quickly and can check what a late
    /// write did.
    pub latency_methods: Vec<String>,
    /// Share of requests answered 500 `internal_error` (0.0 to 1.0).
    pub error_rate: f64,
    /// Share of requests answered 429 `rate_limited`.
    pub rate_429: f64,
    /// Share of requests answered with truncated or invalid JSON.
    pub malformed_rate: f64,
    /// Requests whose handler runs (its effects are stored) and whose
    /// answer is then lost: the reply a proxy drops after the service acted.
    pub lost_answers: Vec<chaos::LostAnswer>,
}

/// How the demo service runs.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoConfig {
    /// Simulated seconds per real second.
    pub time_scale: f64,
    /// When set, one search holds this many results (performance work).
    pub scale: Option<usize>,
    /// Requests per second allowed per key and route (0: unlimited).
    pub rate_limit_per_sec: u32,
    /// Fault injection.
    pub chaos: ChaosConfig,
    /// One JSON log line per request to stderr (`outpost serve`).
    pub log_requests: bool,
    /// Simulated start instant (Unix ms); `None`: now, rounded to the minute.
    pub epoch_ms: Option<i64>,
}

impl Default for DemoConfig {
    fn default() -> Self {
        DemoConfig {
            time_scale: 60.0,
            scale: None,
            rate_limit_per_sec: 20,
            chaos: ChaosConfig::default(),
            log_requests: false,
            epoch_ms: None,
        }
    }
}

/// Shared state of one running service.
#[derive(Debug)]
pub(crate) struct App {
    world: Mutex<store::World>,
    /// The API key of each workspace, by index: fixed at start, so a key
    /// resolves without the world lock.
    keys: Vec<&'static str>,
    clock: clock::Clock,
    config: DemoConfig,
    limiter: limits::Limiter,
    chaos: chaos::Chaos,
}

impl App {
    /// Builds the seeded world.
    pub(crate) fn new(config: DemoConfig) -> App {
        let epoch = config.epoch_ms.unwrap_or_else(clock::wall_epoch);
        let world = seed::world(epoch, config.scale);
        App {
            keys: world.workspaces.iter().map(|w| w.key).collect(),
            world: Mutex::new(world),
            clock: clock::Clock::new(epoch, config.time_scale),
            limiter: limits::Limiter::new(config.rate_limit_per_sec),
            chaos: chaos::Chaos::new(config.chaos.clone()),
            config,
        }
    }

    /// The world; a panic elsewhere must not take the service down, so a
    /// poisoned lock is entered anyway.
    pub(crate) fn lock(&self) -> MutexGuard<'_, store::World> {
        self.world
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The workspace of an API key (no lock taken).
    pub(crate) fn workspace_of(&self, key: &str) -> Option<usize> {
        self.keys.iter().position(|k| *k == key)
    }

    /// Simulated now.
    pub(crate) fn now(&self) -> clock::SimMs {
        self.clock.now()
    }
}

/// A running demo service.
#[derive(Debug)]
pub struct DemoHandle {
    /// The bound address.
    pub addr: SocketAddr,
    /// Served over TLS.
    https: bool,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    app: Arc<App>,
}

impl DemoHandle {
    /// `http://ADDR` (`https://ADDR` over TLS), the base URL to give a
    /// client.
    pub fn base_url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// Domain-verification poller chains started through the API so far
    /// (repeated triggers of one domain collapse into one chain).
    pub fn poller_chains(&self) -> u64 {
        self.app.lock().poller_chains
    }

    /// Simulated now, ISO 8601.
    pub fn sim_now(&self) -> String {
        clock::iso(self.app.now())
    }

    /// Simulated now in Unix seconds: the dashboard's clock in `--demo`, so
    /// "3m ago" is measured in the demo's sped-up world.
    pub fn clock(&self) -> impl Fn() -> i64 + Send + Sync + 'static {
        let app = self.app.clone();
        move || app.now().div_euclid(1000)
    }
}

impl Drop for DemoHandle {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Binds `addr` (use port 0 for any) and serves in the background on the
/// current tokio runtime until the handle is dropped.
pub async fn spawn(addr: SocketAddr, config: DemoConfig) -> std::io::Result<DemoHandle> {
    spawn_with(addr, config, None).await
}

/// Like [`spawn`], over HTTPS when `tls` is given (`outpost serve
/// --tls-cert/--tls-key`).
pub async fn spawn_with(
    addr: SocketAddr,
    config: DemoConfig,
    tls: Option<tls::Tls>,
) -> std::io::Result<DemoHandle> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let log = config.log_requests;
    let app = Arc::new(App::new(config));
    let router = routes::router(app.clone());
    let stop = async {
        let _ = rx.await;
    };
    let https = tls.is_some();
    match tls {
        None => {
            tokio::spawn(async move {
                let _ = axum::serve(listener, router)
                    .with_graceful_shutdown(stop)
                    .await;
            });
        }
        Some(tls) => {
            let listener = tls.listen(listener, log)?;
            tokio::spawn(async move {
                let _ = axum::serve(listener, router)
                    .with_graceful_shutdown(stop)
                    .await;
            });
        }
    }
    Ok(DemoHandle {
        addr,
        https,
        shutdown: Some(tx),
        app,
    })
}

/// The outermost middleware: one JSON line per request on stderr when
/// `log_requests` is set — method, path and query string (keys redacted;
/// `query` only when there is one), status, milliseconds; never the
/// Authorization header.
///
/// A request is carried out to its end even when the client hangs up
/// (a timeout), as a real service does: a write whose answer was lost still
/// happened, and its log line is still written. (Dropping the handler with
/// the connection would make a late write silently vanish, which is not the
/// failure a client must be ready for.)
async fn log_layer(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let log = app.config.log_requests;
    let work = async move {
        if !log {
            return next.run(req).await;
        }
        let started = Instant::now();
        let method = req.method().to_string();
        let path = crate::api::key::redact(req.uri().path());
        let query = req.uri().query().map(crate::api::key::redact);
        let resp = next.run(req).await;
        let mut line = serde_json::json!({
            "ts": clock::iso(clock::wall_epoch_ms()),
            "method": method,
            "path": path,
            "status": resp.status().as_u16(),
            "ms": (started.elapsed().as_secs_f64() * 1000.0 * 10.0).round() / 10.0,
        });
        if let Some(q) = query {
            line["query"] = q.into();
        }
        crate::errln!("{line}");
        resp
    };
    let mut resp = match tokio::spawn(work).await {
        Ok(resp) => resp,
        Err(_) => errors::internal("the request handler failed").into_response(),
    };
    let now = app.now();
    // The simulated clock stamps the answer, as it stamps the times in it
    // (hyper adds the real time only when the header is missing).
    let at =
        std::time::UNIX_EPOCH + std::time::Duration::from_millis(u64::try_from(now).unwrap_or(0));
    if let Ok(v) = axum::http::HeaderValue::from_str(&httpdate::fmt_http_date(at)) {
        resp.headers_mut().insert(axum::http::header::DATE, v);
    }
    resp
}
