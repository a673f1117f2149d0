//! Fault injection for reliability tests, reproducible from the seed: every
//! authenticated request draws the same four numbers from one seeded
//! generator in arrival order, so the same sequence of requests meets the
//! same faults on every start.
//!
//! - latency: a fixed delay before the handler (of every request, or of
//!   the methods named by `latency_methods` only);
//! - error rate: 500 `internal_error`, the handler not run (nothing stored);
//! - 429 rate: 429 `rate_limited` without `Retry-After` (an upstream limit),
//!   the handler not run;
//! - malformed rate: the handler runs (its effects are stored), then a
//!   successful body is replaced, keeping the status, by truncated JSON (the
//!   first half), JSON followed by garbage, or an HTML page.

use std::sync::{Arc, Mutex};

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::errors::{internal, rate_limited};
use super::{App, ChaosConfig};

/// What happens to one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Nothing.
    None,
    /// 500.
    Error,
    /// 429.
    TooMany,
    /// A broken body of this variant (0 to 2).
    Malformed(u8),
}

/// The seeded fault generator.
#[derive(Debug)]
pub struct Chaos {
    cfg: ChaosConfig,
    rng: Mutex<fastrand::Rng>,
}

impl Chaos {
    /// A generator for `cfg`.
    pub fn new(cfg: ChaosConfig) -> Chaos {
        Chaos {
            rng: Mutex::new(fastrand::Rng::with_seed(cfg.seed)),
            cfg,
        }
    }

    /// Whether any fault or latency is configured.
    pub fn enabled(&self) -> bool {
        !self.cfg.latency.is_zero()
            || self.cfg.error_rate > 0.0
            || self.cfg.rate_429 > 0.0
            || self.cfg.malformed_rate > 0.0
    }

    /// Whether the latency applies to a request of `method`.
    pub fn slows(&self, method: &str) -> bool {
        let only = &self.cfg.latency_methods;
        only.is_empty() || only.iter().any(|m| m.eq_ignore_ascii_case(method))
    }

    /// Draws the fault of the next request.
    pub fn draw(&self) -> Fault {
        let mut rng = self
            .rng
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (e, t, m, v) = (rng.f64(), rng.f64(), rng.f64(), rng.u8(0..3));
        if e < self.cfg.error_rate {
            Fault::Error
        } else if t < self.cfg.rate_429 {
            Fault::TooMany
        } else if m < self.cfg.malformed_rate {
            Fault::Malformed(v)
        } else {
            Fault::None
        }
    }
}

/// The middleware (after authentication and the rate limit).
pub async fn layer(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if !app.chaos.enabled() {
        return next.run(req).await;
    }
    let fault = app.chaos.draw();
    if !app.chaos.cfg.latency.is_zero() && app.chaos.slows(req.method().as_str()) {
        tokio::time::sleep(app.chaos.cfg.latency).await;
    }
    match fault {
        Fault::None => next.run(req).await,
        Fault::Error => {
            internal("Simulated failure (chaos): the request was not processed.").into_response()
        }
        Fault::TooMany => rate_limited(1, false).into_response(),
        Fault::Malformed(variant) => {
            let resp = next.run(req).await;
            if !resp.status().is_success() {
                return resp;
            }
            let (mut parts, body) = resp.into_parts();
            let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
            let broken: Vec<u8> = match variant {
                0 => bytes[..bytes.len() / 2].to_vec(),
                1 => [&bytes[..], b"\n{\"garbage\": tru"].concat(),
                _ => {
                    parts
                        .headers
                        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
                    b"<html><body><h1>502 Bad Gateway</h1></body></html>".to_vec()
                }
            };
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(broken))
        }
    }
}
