//! Rate limits per key and route: at most `rate_limit_per_sec` requests
//! (default 20) in each one-second window per (key, method, route template,
//! ids collapsed); `0` disables the limit. Requests to a path that is no
//! route of the contract, or with a method other than GET, POST, PUT, PATCH
//! and DELETE, share one window per key, so the table of windows stays
//! bounded whatever the paths; past [`MAX_WINDOWS`] entries, expired
//! windows are dropped as well. A dashboard polling a few routes every
//! second or slower never meets it. A refused request gets 429
//! `rate_limited`, the message naming the seconds to wait, and `Retry-After`
//! (the endpoint limit always sends the header; the chaos layer's
//! upstream-style 429s never do).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::App;
use super::auth::Ws;
use super::errors::rate_limited;

/// The literal segments of the contract's paths; every other segment is an
/// id and collapses to `{id}`, so `/api/threads/A` and `/api/threads/B`
/// share one limit.
const LITERALS: &[&str] = &[
    "api",
    "lead-finder",
    "run",
    "results",
    "query",
    "enrichment",
    "campaigns",
    "launch",
    "pause",
    "resume",
    "leads",
    "generate-messages",
    "threads",
    "messages",
    "senders",
    "schedule",
    "email",
    "domains",
    "verify",
    "context",
    "test-access",
    "redeem",
];

/// The route templates of the contract, ids collapsed (kept in step with
/// `routes::router`).
const ROUTES: &[&str] = &[
    "/api/lead-finder",
    "/api/lead-finder/run",
    "/api/lead-finder/{id}",
    "/api/lead-finder/{id}/run",
    "/api/lead-finder/{id}/results/query",
    "/api/lead-finder/{id}/results/{id}/enrichment",
    "/api/campaigns",
    "/api/campaigns/{id}",
    "/api/campaigns/{id}/launch",
    "/api/campaigns/{id}/pause",
    "/api/campaigns/{id}/resume",
    "/api/campaigns/{id}/leads",
    "/api/campaigns/{id}/generate-messages",
    "/api/threads",
    "/api/threads/{id}",
    "/api/threads/{id}/messages",
    "/api/senders",
    "/api/senders/{id}",
    "/api/senders/{id}/schedule",
    "/api/email/domains",
    "/api/email/domains/{id}/verify",
    "/api/context",
    "/api/test-access/redeem",
];

/// The methods that get a window of their own on a known route.
const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The shared key of every request to an unknown route or with another
/// method.
pub(crate) const OTHER_ROUTE: &str = "other";

/// Above this many windows, expired ones are dropped.
pub(crate) const MAX_WINDOWS: usize = 1024;

/// `GET /api/threads/{id}` for `GET /api/threads/123`; [`OTHER_ROUTE`] for
/// a path that is no route of the contract or a method outside `METHODS`.
pub(crate) fn route_key(method: &str, path: &str) -> String {
    let template: Vec<&str> = path
        .split('/')
        .map(|s| {
            if s.is_empty() || LITERALS.contains(&s) {
                s
            } else {
                "{id}"
            }
        })
        .collect();
    let template = template.join("/");
    if METHODS.contains(&method) && ROUTES.contains(&template.as_str()) {
        format!("{method} {template}")
    } else {
        OTHER_ROUTE.to_owned()
    }
}

/// Fixed one-second windows per (workspace, route).
#[derive(Debug)]
pub(crate) struct Limiter {
    per_sec: u32,
    windows: Mutex<HashMap<(usize, String), (Instant, u32)>>,
}

impl Limiter {
    /// A limiter allowing `per_sec` requests per second and route (0: off).
    pub(crate) fn new(per_sec: u32) -> Limiter {
        Limiter {
            per_sec,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// `Err(seconds)` when this request is over the limit.
    pub(crate) fn check(&self, ws: usize, route: String) -> Result<(), u64> {
        if self.per_sec == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut w = self
            .windows
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if w.len() >= MAX_WINDOWS {
            w.retain(|_, (start, _)| now.duration_since(*start) < Duration::from_secs(1));
        }
        let entry = w.entry((ws, route)).or_insert((now, 0));
        if now.duration_since(entry.0) >= Duration::from_secs(1) {
            *entry = (now, 0);
        }
        if entry.1 >= self.per_sec {
            let left = Duration::from_secs(1).saturating_sub(now.duration_since(entry.0));
            return Err(crate::num::f64_to_u64(left.as_secs_f64().ceil().max(1.0)));
        }
        entry.1 += 1;
        Ok(())
    }
}

/// The middleware (after authentication).
pub(crate) async fn layer(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if let Some(Ws(ws)) = req.extensions().get::<Ws>().copied() {
        let key = route_key(req.method().as_str(), req.uri().path());
        if let Err(secs) = app.limiter.check(ws, key) {
            return rate_limited(secs, true).into_response();
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_collapse_into_the_route() {
        assert_eq!(
            route_key("GET", "/api/threads/abc/messages"),
            "GET /api/threads/{id}/messages"
        );
        assert_eq!(
            route_key("POST", "/api/lead-finder/run"),
            "POST /api/lead-finder/run"
        );
    }

    #[test]
    fn unknown_routes_and_methods_share_one_key() {
        assert_eq!(route_key("GET", "/api/nope"), OTHER_ROUTE);
        assert_eq!(route_key("GET", "/api/threads/a/b/c/d"), OTHER_ROUTE);
        assert_eq!(route_key("BREW", "/api/threads"), OTHER_ROUTE);
        assert_eq!(
            route_key("DELETE", "/api/senders"),
            "DELETE /api/senders",
            "a wrong method on a known route keeps its own window"
        );
        assert_eq!(
            route_key("GET", "/api/lead-finder/x/results/y/enrichment"),
            "GET /api/lead-finder/{id}/results/{id}/enrichment"
        );
    }

    #[test]
    fn the_table_stays_bounded() {
        let l = Limiter::new(5);
        let mut path = String::from("/api");
        for i in 0..2000 {
            path.push_str("/x");
            let _ = l.check(0, route_key(&format!("M{i}"), &path));
        }
        assert_eq!(l.windows.lock().map_or(0, |w| w.len()), 1);
        // Even with arbitrary keys, expired windows go once it is large.
        let l = Limiter::new(5);
        for i in 0..MAX_WINDOWS {
            let _ = l.check(0, format!("k{i}"));
        }
        if let Ok(mut w) = l.windows.lock() {
            for (start, _) in w.values_mut() {
                *start = start.checked_sub(Duration::from_secs(2)).unwrap_or(*start);
            }
        }
        assert!(l.check(0, "fresh".into()).is_ok());
        assert_eq!(l.windows.lock().map_or(0, |w| w.len()), 1);
    }

    #[test]
    fn the_window_refuses_past_the_limit() {
        let l = Limiter::new(2);
        assert!(l.check(0, "a".into()).is_ok());
        assert!(l.check(0, "a".into()).is_ok());
        assert_eq!(l.check(0, "a".into()), Err(1));
        assert!(l.check(1, "a".into()).is_ok(), "per key");
        assert!(l.check(0, "b".into()).is_ok(), "per route");
        assert!(Limiter::new(0).check(0, "a".into()).is_ok());
    }
}
