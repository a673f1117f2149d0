//! The three error bodies of the contract, as they travel on the wire.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::threads::{ExistingThreads, Thread};

/// `error` of the structured envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ErrorDetail {
    /// The stable error code, e.g. `invalid_request`.
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
    /// The human-readable message.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
}

/// Structured envelope `{error: {code, message}}`, plus the extra keys some
/// answers carry (the duplicate-recipient 409 adds `existing_thread` and
/// `existing_threads`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StructuredError {
    /// The `{code, message}` detail.
    #[serde(deserialize_with = "lenient::or_default")]
    pub error: ErrorDetail,
    /// The conflicting thread of a duplicate-recipient 409.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub existing_thread: Option<Thread>,
    /// The recipient's existing threads, on a duplicate-recipient 409.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub existing_threads: Option<ExistingThreads>,
}

/// Flat envelope `{error: "..."}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FlatError {
    /// The error message.
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
}

/// The `action` a Lead Finder error suggests.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ErrorAction {
    /// `navigate` observed.
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    pub kind: String,
    /// The action's label.
    #[serde(deserialize_with = "lenient::string")]
    pub label: String,
    /// Where the action leads.
    #[serde(deserialize_with = "lenient::string")]
    pub href: String,
}

/// The Lead Finder error body.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LeadFinderError {
    /// The error text.
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
    /// The human-readable message.
    #[serde(deserialize_with = "lenient::string")]
    pub message: String,
    /// The source the error is about (`sourceId`).
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    /// The error code.
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
    /// Suggested alternative values.
    #[serde(deserialize_with = "lenient::vec")]
    pub alternatives: Vec<String>,
    /// Whether retrying may succeed.
    #[serde(deserialize_with = "lenient::boolean")]
    pub retryable: bool,
    /// The `alert` flag (meaning not shown by the contract).
    #[serde(deserialize_with = "lenient::boolean")]
    pub alert: bool,
    /// A suggested action, such as a page to navigate to.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub action: Option<ErrorAction>,
}

/// Which of the three bodies an error answer used.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorEnvelope {
    /// `{error: {code, message}}`.
    Structured(Box<StructuredError>),
    /// `{error: "..."}`.
    Flat(FlatError),
    /// The Lead Finder body with `message`, `code`, `alternatives`, `action`.
    LeadFinder(LeadFinderError),
}

impl ErrorEnvelope {
    /// Recognises an error body; `None` when it is none of the three.
    pub fn decode(body: &[u8]) -> Option<ErrorEnvelope> {
        let value: Value = serde_json::from_slice(body).ok()?;
        let obj: &Map<String, Value> = value.as_object()?;
        match obj.get("error") {
            Some(Value::Object(_)) => serde_json::from_value(value)
                .ok()
                .map(|s| Self::Structured(Box::new(s))),
            Some(Value::String(_)) => {
                let lead_finder_keys = [
                    "message",
                    "code",
                    "alternatives",
                    "retryable",
                    "action",
                    "sourceId",
                ];
                if lead_finder_keys.iter().any(|k| obj.contains_key(*k)) {
                    serde_json::from_value(value).ok().map(Self::LeadFinder)
                } else {
                    serde_json::from_value(value).ok().map(Self::Flat)
                }
            }
            _ => None,
        }
    }

    /// The stable `code`, when the body has one.
    pub fn code(&self) -> Option<&str> {
        let code = match self {
            Self::Structured(s) => s.error.code.as_str(),
            Self::Flat(_) => "",
            Self::LeadFinder(l) => l.code.as_str(),
        };
        (!code.is_empty()).then_some(code)
    }

    /// The human message.
    pub fn message(&self) -> &str {
        match self {
            Self::Structured(s) => &s.error.message,
            Self::Flat(f) => &f.error,
            Self::LeadFinder(l) if !l.message.is_empty() => &l.message,
            Self::LeadFinder(l) => &l.error,
        }
    }
}
