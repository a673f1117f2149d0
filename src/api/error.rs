//! One error type for every way a call can fail: refused before sending,
//! answered with one of the three error bodies, or lost in transport.

use std::fmt;
use std::time::Duration;

use super::bound::Overflow;
use super::key::redact;
use super::model::{ErrorEnvelope, LeadFinderError, Thread};
use super::validate::{self, FieldError};
use crate::text::sanitize::inline;

/// An error answer of the service.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceError {
    /// The HTTP status code of the error answer (4xx or 5xx).
    pub status: u16,
    /// The stable `code` when the body had one, else derived from the status.
    pub code: String,
    /// The service's message (keys redacted), or the status text.
    pub message: String,
    /// The decoded body, when it was one of the three envelopes.
    pub envelope: Option<ErrorEnvelope>,
    /// For 429: how long the service asked us to wait.
    pub retry_after: Option<Duration>,
    /// A write answered 5xx: the contract does not promise that a 500 did
    /// nothing, and a 502/503/504 comes from whatever stands in front of
    /// the service, which may have acted. Set by the client, which knows
    /// whether the request was a write.
    pub may_have_reached: bool,
}

impl ServiceError {
    /// Builds the error of an answer with `status` and `body`.
    pub fn from_body(status: u16, body: &[u8], retry_after: Option<Duration>) -> ServiceError {
        // Redact the whole body first: an echoed key must not survive in the
        // code, the message, or the kept envelope (which `Debug` prints).
        // An error body is bounded like any answer: one of millions of
        // `alternatives` is shown by its first words, never decoded.
        let bounded = super::bound::check(body, None).is_ok();
        // A JSON body is redacted string by string, after unescaping.
        let raw = String::from_utf8_lossy(body);
        let text = match bounded
            .then(|| serde_json::from_str::<serde_json::Value>(&raw).ok())
            .flatten()
        {
            Some(mut value) => {
                super::key::redact_json(&mut value);
                value.to_string()
            }
            None => redact(&raw),
        };
        let envelope = if bounded {
            ErrorEnvelope::decode(text.as_bytes())
        } else {
            None
        };
        // Each piece of service text is made inert on its own, before
        // Outpost's words are joined to it: an escape sequence left open at
        // its end would otherwise swallow them where the whole is shown.
        let code = envelope
            .as_ref()
            .and_then(|e| e.code())
            .map(inline)
            .filter(|c| !c.trim().is_empty())
            .unwrap_or_else(|| code_for_status(status).to_owned());
        // Judged once made inert: a message of nothing but control
        // characters says nothing, and the status says it instead.
        let said = envelope
            .as_ref()
            .map(|e| inline(e.message()))
            .filter(|m| !m.trim().is_empty());
        let message = match said {
            Some(m) => m,
            None => {
                // Cut after sanitizing, so the cut cannot open a sequence.
                let snippet: String = inline(text.trim()).chars().take(200).collect();
                if snippet.is_empty() {
                    status_text(status).to_owned()
                } else {
                    format!("{} ({snippet})", status_text(status))
                }
            }
        };
        ServiceError {
            status,
            code,
            message,
            envelope,
            retry_after,
            may_have_reached: false,
        }
    }
}

impl ServiceError {
    /// Turns a 401 into text that says what to do: the key (masked, e.g.
    /// `pk_live_…1a2b`) was refused, and where to put a good one. The
    /// service's own words are kept in front.
    pub fn refused_key(mut self, masked_key: &str) -> ServiceError {
        let said = self.message.trim().trim_end_matches('.');
        self.message = format!(
            "{said}. The service refused the API key {masked_key}: put a valid key in the config file (`api_key`) or in OUTPOST_API_KEY, then run `outpost check` to test it"
        );
        self
    }
}

/// What a write answered 5xx says after the service's words.
const SERVICE_MAY_HAVE: &str = "the service may have acted on it before this answer, so it was not repeated — refresh to check before trying again";

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} (HTTP {})", self.code, self.message, self.status)?;
        if self.may_have_reached {
            write!(f, "; {SERVICE_MAY_HAVE}")?;
        }
        if let Some(ErrorEnvelope::LeadFinder(lf)) = &self.envelope {
            // Each piece made inert on its own (see `from_body`).
            if !lf.alternatives.is_empty() {
                let each: Vec<String> = lf.alternatives.iter().map(|a| inline(a)).collect();
                write!(f, "; try: {}", each.join(", "))?;
            }
            if let Some(action) = &lf.action
                && !action.label.is_empty()
            {
                write!(f, "; {}", inline(&action.label))?;
                if !action.href.is_empty() {
                    write!(f, " ({})", inline(&action.href))?;
                }
            }
            if lf.retryable {
                f.write_str("; retryable")?;
            }
        }
        Ok(())
    }
}

/// The contract's `error.code` for a status, when the body named none.
pub(crate) fn code_for_status(status: u16) -> &'static str {
    match status {
        400 | 405 | 422 => "invalid_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        409 => "conflict",
        429 => "rate_limited",
        500..=599 => "internal_error",
        _ => "error",
    }
}

fn status_text(status: u16) -> &'static str {
    match status {
        400 => "bad request",
        401 => "missing or invalid API key",
        403 => "not permitted",
        404 => "no such resource",
        405 => "method not allowed",
        409 => "not possible in its current state",
        422 => "semantically invalid",
        429 => "rate limit exceeded",
        500 => "unexpected server error",
        502 => "bad gateway",
        503 => "service unavailable",
        504 => "gateway timeout",
        _ => "unexpected answer",
    }
}

/// Every way an operation can fail.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// Refused before any connection: base URL, HTTPS rule, key format.
    #[error("{0}")]
    Config(String),
    /// Client-side validation failed; nothing was sent.
    #[error("invalid request: {}", validate::join(.0))]
    Invalid(Vec<FieldError>),
    /// The service answered with an error status.
    #[error("{0}")]
    Service(Box<ServiceError>),
    /// The rate limit held: the shared gate is closed for `wait`.
    #[error("rate_limited: {message} (waiting {}s)", .wait.as_secs())]
    RateLimited {
        /// How long every call now waits.
        wait: Duration,
        /// The service's message.
        message: String,
    },
    /// No connection could be made; nothing reached the service.
    #[error("cannot reach {host}: {detail}")]
    Connect {
        /// Host and port tried.
        host: String,
        /// What failed.
        detail: String,
    },
    /// No answer in time.
    #[error("timeout: {}", timeout_text(.method, *.after, *.may_have_reached))]
    Timeout {
        /// HTTP method.
        method: String,
        /// The time limit that passed.
        after: Duration,
        /// A write that may have reached the service (never retried).
        may_have_reached: bool,
    },
    /// The connection failed mid-request.
    #[error("connection lost: {}", transport_text(.detail, *.may_have_reached))]
    Transport {
        /// What failed.
        detail: String,
        /// A write that may have reached the service (never retried).
        may_have_reached: bool,
    },
    /// The answer was not the JSON expected.
    #[error("{}", decode_text(*.status, .detail, *.may_have_reached))]
    Decode {
        /// HTTP status of the answer.
        status: u16,
        /// The parser's complaint.
        detail: String,
        /// A write the service answered with success: it may have taken
        /// effect although its answer is unreadable.
        may_have_reached: bool,
    },
    /// Read-only mode refused a request that could change the service;
    /// nothing was sent.
    #[error("{}", read_only_text(.method, .path))]
    ReadOnly {
        /// HTTP method.
        method: String,
        /// The `/api/...` path.
        path: String,
    },
    /// The answer listed more items than one answer may hold
    /// ([`super::bound`]); nothing of it was decoded.
    #[error("{}", too_many_text(*.what, *.may_have_reached))]
    TooMany {
        /// The bound it passed.
        what: Overflow,
        /// A write the service answered with success: it may have taken
        /// effect although its answer was dropped.
        may_have_reached: bool,
    },
    /// The answer exceeded the body size cap.
    #[error("{}", too_large_text(*.limit, *.may_have_reached))]
    TooLarge {
        /// The cap in bytes.
        limit: usize,
        /// A write the service answered with success: it may have taken
        /// effect although its answer was dropped.
        may_have_reached: bool,
    },
}

fn decode_text(status: u16, detail: &str, may_have_reached: bool) -> String {
    let base = format!("the service sent malformed JSON (HTTP {status}): {detail}");
    if may_have_reached {
        format!(
            "{base}; the service said it succeeded, so the change may have been made — refresh to check before trying again"
        )
    } else {
        base
    }
}

fn too_many_text(what: Overflow, may_have_reached: bool) -> String {
    let base = format!("{what}; the answer was dropped");
    if may_have_reached {
        format!(
            "{base}; the service said it succeeded, so the change may have been made — refresh to check before trying again"
        )
    } else {
        base
    }
}

fn too_large_text(limit: usize, may_have_reached: bool) -> String {
    let base = format!("the service's answer exceeded {limit} bytes and was dropped");
    if may_have_reached {
        format!(
            "{base}; the service said it succeeded, so the change may have been made — refresh to check before trying again"
        )
    } else {
        base
    }
}

/// The words after `timeout: `.
fn timeout_text(method: &str, after: Duration, may_have_reached: bool) -> String {
    let base = format!("no answer within {}s", after.as_secs_f32());
    if may_have_reached {
        format!(
            "{base}; this {method} may have reached the service, so it was not repeated — refresh to check before trying again"
        )
    } else {
        base
    }
}

/// The words after `connection lost: `.
fn transport_text(detail: &str, may_have_reached: bool) -> String {
    if may_have_reached {
        format!(
            "{detail}; the request may have reached the service, so it was not repeated — refresh to check"
        )
    } else {
        detail.to_owned()
    }
}

/// What a refused write says (after its code, `read_only`).
fn read_only_text(method: &str, path: &str) -> String {
    format!(
        "{method} {path} was not sent: read-only mode lets nothing through that could change the service"
    )
}

/// `text` without a leading `code: ` in any spelling (`connection_lost`,
/// `connection lost`, `Connection-Lost`): what a toast shows after the code.
fn without_code(code: &str, text: String) -> String {
    let words = |s: &str| s.to_lowercase().replace(['_', '-'], " ");
    let n = code.chars().count();
    let head: String = text.chars().take(n).collect();
    let rest: String = text.chars().skip(n).collect();
    match rest.strip_prefix(':') {
        Some(rest) if words(&head) == words(code) && !rest.trim().is_empty() => {
            rest.trim_start().to_owned()
        }
        _ => text,
    }
}

impl ApiError {
    /// The HTTP status of a service answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Service(e) => Some(e.status),
            ApiError::RateLimited { .. } => Some(429),
            ApiError::Decode { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The contract's `error.code` (or a local stand-in such as `timeout`).
    pub fn code(&self) -> &str {
        match self {
            ApiError::Service(e) => &e.code,
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Config(_) => "config",
            ApiError::Invalid(_) => "invalid_request",
            ApiError::Connect { .. } => "unreachable",
            ApiError::Timeout { .. } => "timeout",
            ApiError::Transport { .. } => "connection_lost",
            ApiError::Decode { .. } => "malformed_response",
            ApiError::TooLarge { .. } | ApiError::TooMany { .. } => "response_too_large",
            ApiError::ReadOnly { .. } => "read_only",
        }
    }

    /// The message without the code, for a toast body: `code: message`
    /// never repeats the code in any wording (`timeout: timeout: no
    /// answer`, `connection_lost: connection lost: reset`).
    pub fn message(&self) -> String {
        let text = match self {
            // The service's words only: whoever shows a write that may have
            // reached says what follows (a pane's check, a toast's advice);
            // `Display`, for the CLI and the log, adds it.
            ApiError::Service(e) => e.message.clone(),
            ApiError::RateLimited { message, .. } => message.clone(),
            ApiError::Invalid(errors) => validate::join(errors),
            ApiError::Timeout {
                method,
                after,
                may_have_reached,
            } => timeout_text(method, *after, *may_have_reached),
            ApiError::Transport {
                detail,
                may_have_reached,
            } => transport_text(detail, *may_have_reached),
            ApiError::ReadOnly { method, path } => read_only_text(method, path),
            ApiError::Config(_)
            | ApiError::Connect { .. }
            | ApiError::Decode { .. }
            | ApiError::TooLarge { .. }
            | ApiError::TooMany { .. } => self.to_string(),
        };
        without_code(self.code(), text)
    }

    /// Whether the request may have been accepted although the call failed:
    /// a write that timed out or lost its connection after being sent, or
    /// whose success answer could not be read. Such a write is never
    /// repeated automatically; the UI should offer a refresh, not a retry.
    /// `false` means it certainly was not acted on (refused connection,
    /// error status, validation) or was a read.
    pub fn maybe_accepted(&self) -> bool {
        match self {
            ApiError::Service(e) => e.may_have_reached,
            ApiError::Timeout {
                may_have_reached, ..
            }
            | ApiError::Transport {
                may_have_reached, ..
            }
            | ApiError::Decode {
                may_have_reached, ..
            }
            | ApiError::TooLarge {
                may_have_reached, ..
            }
            | ApiError::TooMany {
                may_have_reached, ..
            } => *may_have_reached,
            _ => false,
        }
    }

    /// Whether sending the same request again can help, so the UI offers
    /// "r retries": rate limits, timeouts, 5xx, lost or refused connections,
    /// and errors the service marks `retryable`. Never for a refused key, a
    /// forbidden or invalid request, a missing resource or a conflict — and
    /// never when the first attempt may have been accepted
    /// ([`ApiError::maybe_accepted`]), where a retry could do it twice.
    pub fn retryable(&self) -> bool {
        if self.maybe_accepted() {
            return false;
        }
        match self {
            ApiError::RateLimited { .. }
            | ApiError::Connect { .. }
            | ApiError::Timeout { .. }
            | ApiError::Transport { .. } => true,
            ApiError::Service(e) => {
                let marked =
                    matches!(&e.envelope, Some(ErrorEnvelope::LeadFinder(lf)) if lf.retryable);
                marked || matches!(e.status, 408 | 425 | 429 | 500..=599)
            }
            ApiError::Config(_)
            | ApiError::Invalid(_)
            | ApiError::Decode { .. }
            | ApiError::TooLarge { .. }
            | ApiError::TooMany { .. }
            | ApiError::ReadOnly { .. } => false,
        }
    }

    /// Whether the service said 404.
    pub fn is_not_found(&self) -> bool {
        self.status() == Some(404)
    }

    /// Whether the key was refused (401).
    pub fn is_unauthorized(&self) -> bool {
        self.status() == Some(401)
    }

    /// The thread named by a duplicate-recipient 409.
    pub fn existing_thread(&self) -> Option<&Thread> {
        match self {
            ApiError::Service(e) => match &e.envelope {
                Some(ErrorEnvelope::Structured(s)) => s.existing_thread.as_ref(),
                _ => None,
            },
            _ => None,
        }
    }

    /// The Lead Finder body, when the error used it.
    pub fn lead_finder(&self) -> Option<&LeadFinderError> {
        match self {
            ApiError::Service(e) => match &e.envelope {
                Some(ErrorEnvelope::LeadFinder(lf)) => Some(lf),
                _ => None,
            },
            _ => None,
        }
    }

    /// The field errors of a client-side validation failure.
    pub fn field_errors(&self) -> &[FieldError] {
        match self {
            ApiError::Invalid(errors) => errors,
            _ => &[],
        }
    }
}

impl From<Vec<FieldError>> for ApiError {
    fn from(errors: Vec<FieldError>) -> Self {
        ApiError::Invalid(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the API property test: a message of only a C1 control
    /// (`{"error": "\u009d"}`) was kept, and shown empty.
    #[test]
    fn a_message_of_nothing_visible_is_said_by_its_status() {
        for body in [
            r#"{"error":"\u009d"}"#,
            r#"{"error":"\u001b"}"#,
            r#"{"message":"\u200b"}"#,
        ] {
            let e = ServiceError::from_body(400, body.as_bytes(), None);
            assert!(!e.message.trim().is_empty(), "{body}: {e:?}");
        }
    }

    #[test]
    fn the_three_bodies_decode() {
        let s = ServiceError::from_body(
            401,
            br#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#,
            None,
        );
        assert_eq!(
            (s.code.as_str(), s.message.as_str()),
            ("unauthorized", "Invalid API key")
        );
        assert_eq!(s.to_string(), "unauthorized: Invalid API key (HTTP 401)");

        let f = ServiceError::from_body(400, br#"{"error":"No leads in campaign"}"#, None);
        assert_eq!(
            (f.code.as_str(), f.message.as_str()),
            ("invalid_request", "No leads in campaign")
        );
        assert!(matches!(f.envelope, Some(ErrorEnvelope::Flat(_))));

        let lf = ServiceError::from_body(
            402,
            br#"{"error":"quota","message":"Discovery quota used up","code":"quota_exhausted","sourceId":"network_people","alternatives":["redeem a pass"],"retryable":false,"alert":true,"action":{"type":"navigate","label":"Upgrade","href":"/billing"}}"#,
            None,
        );
        assert_eq!(lf.code, "quota_exhausted");
        assert_eq!(
            lf.to_string(),
            "quota_exhausted: Discovery quota used up (HTTP 402); try: redeem a pass; Upgrade (/billing)"
        );
    }

    #[test]
    fn unknown_bodies_fall_back_to_the_status() {
        let e = ServiceError::from_body(502, b"<html>bad gateway</html>", None);
        assert_eq!(e.code, "internal_error");
        assert_eq!(e.message, "bad gateway (<html>bad gateway</html>)");
        let e = ServiceError::from_body(404, b"", None);
        assert_eq!(e.to_string(), "not_found: no such resource (HTTP 404)");
        // A bodiless answer never says its code twice ("conflict: conflict").
        let words = |s: &str| s.to_lowercase().replace('_', " ");
        for status in [
            400, 401, 403, 404, 405, 409, 422, 429, 500, 502, 503, 504, 418,
        ] {
            let e = ServiceError::from_body(status, b"", None);
            assert!(
                !words(&e.message).starts_with(&words(&e.code)),
                "{status}: {e}"
            );
        }
    }

    #[test]
    fn echoed_keys_never_reach_the_code_or_the_kept_body() {
        let e = ServiceError::from_body(
            409,
            br#"{"error":{"code":"x_pk_live_abcdefgh12345678","message":"m"},"existing_thread":{"id":"pk_live_abcdefgh12345678"}}"#,
            None,
        );
        let shown = format!("{e:?} {e}");
        assert!(!shown.contains("abcdefgh"), "{shown}");
        let long = format!("{}pk_live_abcdefgh12345678", "x".repeat(190));
        let e = ServiceError::from_body(502, long.as_bytes(), None);
        assert!(
            !format!("{e:?}").contains("abcd"),
            "cut after redaction: {e:?}"
        );
    }

    #[test]
    fn the_message_never_repeats_the_code() {
        let e = ApiError::Timeout {
            method: "GET".into(),
            after: Duration::from_secs(30),
            may_have_reached: false,
        };
        assert_eq!(e.message(), "no answer within 30s");
        assert_eq!(format!("{}: {}", e.code(), e.message()), e.to_string());
        let e = ApiError::Connect {
            host: "h:1".into(),
            detail: "refused".into(),
        };
        assert_eq!(e.message(), "cannot reach h:1: refused");
    }

    #[test]
    fn echoed_keys_never_reach_the_message() {
        let e = ServiceError::from_body(
            401,
            br#"{"error":{"code":"unauthorized","message":"key pk_live_abcdefgh12345678 revoked"}}"#,
            None,
        );
        assert!(!e.to_string().contains("abcdefgh"));
    }
}
