//! The three error envelopes of the contract as axum responses.
//!
//! - Structured `{error: {code, message}}`: authentication, method, validation,
//!   not-found, conflicts, rate limits and internal errors.
//! - Flat `{error: "..."}`: route-specific state failures (pause when not
//!   active, roster frozen, "No leads in campaign", attachments refused, …).
//! - Lead Finder body: the run-already-in-progress conflict.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use crate::api::model::{ErrorAction, LeadFinderError};
use crate::api::validate::{self, FieldError};

/// An error answer of the demo service.
#[derive(Debug, Clone)]
pub(crate) enum DemoError {
    /// `{error: {code, message}}` plus extra top-level keys.
    Structured {
        /// The HTTP status answered.
        status: StatusCode,
        /// Stable `error.code`.
        code: &'static str,
        /// Human message.
        message: String,
        /// Extra keys next to `error` (the duplicate-recipient 409).
        extra: Map<String, Value>,
        /// `Retry-After` seconds, when sent.
        retry_after: Option<u64>,
    },
    /// `{error: "..."}`.
    Flat {
        /// The HTTP status answered.
        status: StatusCode,
        /// The text of `error`.
        message: String,
    },
    /// The Lead Finder error body.
    LeadFinder {
        /// The HTTP status answered.
        status: StatusCode,
        /// The whole JSON body (code, message, advice).
        body: Box<LeadFinderError>,
    },
}

/// Handler result.
pub(crate) type DemoResult<T = Response> = Result<T, DemoError>;

fn structured(status: StatusCode, code: &'static str, message: impl Into<String>) -> DemoError {
    DemoError::Structured {
        status,
        code,
        message: message.into(),
        extra: Map::new(),
        retry_after: None,
    }
}

/// 400 `invalid_request`.
pub(crate) fn invalid(message: impl Into<String>) -> DemoError {
    structured(StatusCode::BAD_REQUEST, "invalid_request", message)
}

/// 400 `invalid_request` from field errors: `path: message; path: message`.
pub(crate) fn invalid_fields(errors: &[FieldError]) -> DemoError {
    invalid(validate::join(errors))
}

/// 400 `invalid_request` naming one field.
pub(crate) fn invalid_field(path: &str, message: &str) -> DemoError {
    invalid(format!("{path}: {message}"))
}

/// 401 `unauthorized`.
pub(crate) fn unauthorized(message: impl Into<String>) -> DemoError {
    structured(StatusCode::UNAUTHORIZED, "unauthorized", message)
}

/// 404 `not_found`.
pub(crate) fn not_found(message: impl Into<String>) -> DemoError {
    structured(StatusCode::NOT_FOUND, "not_found", message)
}

/// 405, structured with `invalid_request`.
pub(crate) fn method_not_allowed(message: impl Into<String>) -> DemoError {
    structured(StatusCode::METHOD_NOT_ALLOWED, "invalid_request", message)
}

/// 409 `conflict`.
pub(crate) fn conflict(message: impl Into<String>) -> DemoError {
    structured(StatusCode::CONFLICT, "conflict", message)
}

/// 409 `conflict` with extra top-level keys.
pub(crate) fn conflict_with(message: impl Into<String>, extra: Map<String, Value>) -> DemoError {
    DemoError::Structured {
        status: StatusCode::CONFLICT,
        code: "conflict",
        message: message.into(),
        extra,
        retry_after: None,
    }
}

/// 500 `internal_error`.
pub(crate) fn internal(message: impl Into<String>) -> DemoError {
    structured(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", message)
}

/// 502 `bad_gateway` or 504 `gateway_timeout` (any other status: 502), as
/// a proxy in front of the service answers when the service's own answer
/// did not reach it.
pub(crate) fn gateway(status: StatusCode, message: impl Into<String>) -> DemoError {
    if status == StatusCode::GATEWAY_TIMEOUT {
        structured(status, "gateway_timeout", message)
    } else {
        structured(StatusCode::BAD_GATEWAY, "bad_gateway", message)
    }
}

/// 429 `rate_limited` naming the wait; `header` adds `Retry-After`.
pub(crate) fn rate_limited(seconds: u64, header: bool) -> DemoError {
    DemoError::Structured {
        status: StatusCode::TOO_MANY_REQUESTS,
        code: "rate_limited",
        message: format!("Rate limit exceeded. Retry in {seconds} seconds."),
        extra: Map::new(),
        retry_after: header.then_some(seconds),
    }
}

/// A flat `{error: "..."}` answer.
pub(crate) fn flat(status: StatusCode, message: impl Into<String>) -> DemoError {
    DemoError::Flat {
        status,
        message: message.into(),
    }
}

/// The Lead Finder 409 for a search whose run is still queued or running.
pub(crate) fn run_in_progress(search_id: &str) -> DemoError {
    DemoError::LeadFinder {
        status: StatusCode::CONFLICT,
        body: Box::new(LeadFinderError {
            error: "run_in_progress".into(),
            message: "A run of this search is already queued or running.".into(),
            source_id: "network_people".into(),
            code: "conflict".into(),
            alternatives: vec![
                "wait for the current run to finish".into(),
                "run again with continuation=true".into(),
            ],
            retryable: true,
            alert: false,
            action: Some(ErrorAction {
                kind: "navigate".into(),
                label: "View the running search".into(),
                href: format!("/lead-finder/{search_id}"),
            }),
        }),
    }
}

impl DemoError {}

impl IntoResponse for DemoError {
    fn into_response(self) -> Response {
        match self {
            DemoError::Structured {
                status,
                code,
                message,
                extra,
                retry_after,
            } => {
                let mut body = Map::new();
                body.insert("error".into(), json!({"code": code, "message": message}));
                body.extend(extra);
                let mut resp = (status, axum::Json(Value::Object(body))).into_response();
                if let Some(secs) = retry_after
                    && let Ok(v) = HeaderValue::from_str(&secs.to_string())
                {
                    resp.headers_mut().insert(header::RETRY_AFTER, v);
                }
                resp
            }
            DemoError::Flat { status, message } => {
                (status, axum::Json(json!({"error": message}))).into_response()
            }
            DemoError::LeadFinder { status, body } => (status, axum::Json(body)).into_response(),
        }
    }
}
