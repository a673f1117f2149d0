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
//! - lost answers (`--chaos-lost-answer METHOD:PATH-PATTERN[:502|504|reset]`):
//!   the handler runs and its effects are stored, then the answer is
//!   replaced by a 502 or 504 (`bad_gateway`, `gateway_timeout`, as a proxy
//!   in front of the service would say) or the connection drops after the
//!   status line (`reset`). This is the failure the error rate cannot show:
//!   the write happened, and the client was told it did not. Not drawn from
//!   the seed: every matching request loses its answer.

use std::sync::{Arc, Mutex};

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use axum::http::StatusCode;

use super::errors::{gateway, internal, rate_limited};
use super::{App, ChaosConfig};

/// How a lost answer is lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// A 502 `bad_gateway` in place of the answer.
    BadGateway,
    /// A 504 `gateway_timeout` in place of the answer.
    GatewayTimeout,
    /// The status line of the real answer, then the connection drops.
    Reset,
}

/// One `--chaos-lost-answer` rule: requests of `method` whose path matches
/// `pattern` (`*` stands for one path segment) lose their answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostAnswer {
    /// The HTTP method, upper case.
    pub method: String,
    /// The path's segments; `*` matches any one segment.
    pub pattern: Vec<String>,
    /// How the answer is lost.
    pub loss: Loss,
}

impl LostAnswer {
    /// Parses `METHOD:PATH-PATTERN[:502|504|reset]` (502 when not given).
    pub fn parse(s: &str) -> Result<LostAnswer, String> {
        let usage =
            "expected METHOD:PATH-PATTERN[:502|504|reset], e.g. POST:/api/threads/*/messages:502";
        let (method, rest) = s.split_once(':').ok_or_else(|| format!("`{s}`: {usage}"))?;
        let (path, loss) = match rest.rsplit_once(':') {
            Some((path, loss)) => (path, loss),
            None => (rest, "502"),
        };
        let loss = match loss.to_ascii_lowercase().as_str() {
            "502" => Loss::BadGateway,
            "504" => Loss::GatewayTimeout,
            "reset" => Loss::Reset,
            other => return Err(format!("`{s}`: unknown loss `{other}`; {usage}")),
        };
        let method = method.trim().to_ascii_uppercase();
        if method.is_empty() || !method.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(format!("`{s}`: `{method}` is not an HTTP method; {usage}"));
        }
        if !path.starts_with('/') {
            return Err(format!("`{s}`: the path must start with `/`; {usage}"));
        }
        Ok(LostAnswer {
            method,
            pattern: segments(path).map(str::to_owned).collect(),
            loss,
        })
    }

    /// Whether a request of `method` to `path` (no query) matches.
    pub fn matches(&self, method: &str, path: &str) -> bool {
        method.eq_ignore_ascii_case(&self.method)
            && segments(path).count() == self.pattern.len()
            && segments(path)
                .zip(&self.pattern)
                .all(|(seg, pat)| pat == "*" || pat == seg)
    }
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|s| !s.is_empty())
}

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
            || !self.cfg.lost_answers.is_empty()
    }

    /// How the answer to `method` `path` is lost, if a rule says so.
    pub fn loss(&self, method: &str, path: &str) -> Option<Loss> {
        self.cfg
            .lost_answers
            .iter()
            .find(|r| r.matches(method, path))
            .map(|r| r.loss)
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
pub(crate) async fn layer(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if !app.chaos.enabled() {
        return next.run(req).await;
    }
    let fault = app.chaos.draw();
    if !app.chaos.cfg.latency.is_zero() && app.chaos.slows(req.method().as_str()) {
        tokio::time::sleep(app.chaos.cfg.latency).await;
    }
    if let Some(loss) = app.chaos.loss(req.method().as_str(), req.uri().path()) {
        let resp = next.run(req).await;
        return lose(resp, loss);
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

/// What a lost answer says.
const LOST: &str =
    "Simulated lost answer (chaos): the request was processed, then its answer was lost.";

/// The answer after the handler ran, lost as `loss` says.
fn lose(resp: Response, loss: Loss) -> Response {
    match loss {
        Loss::BadGateway | Loss::GatewayTimeout => {
            let status = if loss == Loss::BadGateway {
                StatusCode::BAD_GATEWAY
            } else {
                StatusCode::GATEWAY_TIMEOUT
            };
            gateway(status, LOST).into_response()
        }
        Loss::Reset => {
            // The status line goes out, then the body fails: the server
            // drops the connection mid-answer.
            let (mut parts, _) = resp.into_parts();
            parts.headers.remove(header::CONTENT_LENGTH);
            let broken = tokio_stream::once(Err::<axum::body::Bytes, std::io::Error>(
                std::io::Error::new(std::io::ErrorKind::ConnectionReset, LOST),
            ));
            Response::from_parts(parts, Body::from_stream(broken))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_answer_rule_reads_method_path_and_loss() {
        let r = LostAnswer::parse("post:/api/threads/*/messages:504").expect("parses");
        assert_eq!(r.method, "POST");
        assert_eq!(r.loss, Loss::GatewayTimeout);
        assert!(r.matches("POST", "/api/threads/abc/messages"));
        assert!(
            !r.matches("GET", "/api/threads/abc/messages"),
            "reads keep their answer"
        );
        assert!(!r.matches("POST", "/api/threads/abc"), "other paths too");
        assert!(!r.matches("POST", "/api/threads/abc/messages/x"));
        assert_eq!(
            LostAnswer::parse("POST:/api/email/domains").map(|r| r.loss),
            Ok(Loss::BadGateway),
            "502 when not given"
        );
        assert_eq!(
            LostAnswer::parse("PUT:/api/context/profile:reset").map(|r| r.loss),
            Ok(Loss::Reset)
        );
        assert!(LostAnswer::parse("POST").is_err());
        assert!(LostAnswer::parse("POST:api/x").is_err(), "no leading slash");
        assert!(LostAnswer::parse("POST:/api/x:418").is_err());
    }
}
