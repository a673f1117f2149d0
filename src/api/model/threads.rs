//! Inbox resources: one-off email threads and their messages.

use serde::{Deserialize, Deserializer, Serialize};

use super::lenient;
use crate::string_enum;

string_enum! {
    /// Thread status.
    pub enum ThreadStatus { Draft => "draft", Active => "active", Archived => "archived" }
}

/// Attachment metadata of a thread draft.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Attachment {
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub bucket: String,
    #[serde(deserialize_with = "lenient::string")]
    pub path: String,
    #[serde(deserialize_with = "lenient::string")]
    pub url: String,
    #[serde(deserialize_with = "lenient::string")]
    pub mime_type: String,
    #[serde(deserialize_with = "lenient::int")]
    pub size: u64,
    #[serde(deserialize_with = "lenient::string")]
    pub content_id: String,
}

/// A one-off email thread.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Thread {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub channel: String,
    pub status: ThreadStatus,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub account_id: Option<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub participant_email: String,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub participant_name: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_subject: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_body_text: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_body_html: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_cc: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_bcc: Option<String>,
    #[serde(deserialize_with = "lenient::int")]
    pub unread_count: u64,
    #[serde(deserialize_with = "lenient::vec")]
    pub draft_attachments: Vec<Attachment>,
    /// Not in the contract's table ("further thread fields: not shown"); the
    /// demo service sends it and the client shows it when present.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub created_at: Option<String>,
    /// As `created_at`: the last activity, used to order the list.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub updated_at: Option<String>,
}

/// A message of a thread.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreadMessage {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub conversation_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub direction: String,
    #[serde(deserialize_with = "lenient::string")]
    pub subject: String,
    #[serde(deserialize_with = "lenient::string")]
    pub body_text: String,
    #[serde(deserialize_with = "lenient::string")]
    pub sent_at: String,
}

/// Decodes a field that may be absent (`None`), `null` (`Some(None)`) or a
/// value (`Some(Some(v))`); use with `#[serde(default)]`.
pub fn double_option<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// Body of `POST /api/threads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateThread {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_email: Option<String>,
    /// Absent, `null`, or a ready email sender id.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub account_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_body_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_body_html: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_cc: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_bcc: Option<String>,
    /// Must be omitted or empty for Bearer callers (non-empty is 403).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_attachments: Option<Vec<serde_json::Value>>,
}

/// Body of `PATCH /api/threads/{id}`; `Some(None)` sends `null`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PatchThread {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ThreadStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread_count: Option<u64>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub account_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_name: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_subject: Option<Option<String>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_body_text: Option<Option<String>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_body_html: Option<Option<String>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_cc: Option<Option<String>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_bcc: Option<Option<String>>,
}

/// The `existing_threads` part of a create-thread answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExistingThreads {
    #[serde(deserialize_with = "lenient::boolean")]
    pub exists: bool,
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    #[serde(deserialize_with = "lenient::vec")]
    pub threads: Vec<Thread>,
}

/// Response of `POST /api/threads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateThreadResponse {
    #[serde(deserialize_with = "lenient::or_default")]
    pub thread: Thread,
    #[serde(deserialize_with = "lenient::or_default")]
    pub existing_threads: ExistingThreads,
}

/// `{thread}` envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreadEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub thread: Thread,
}

/// Query of the thread list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ThreadQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    /// 1 to 200, default 50.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Response of `GET /api/threads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreadPage {
    #[serde(deserialize_with = "lenient::vec")]
    pub threads: Vec<Thread>,
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub page: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
}

/// Response of `GET /api/threads/{id}/messages`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MessagesPage {
    #[serde(deserialize_with = "lenient::vec")]
    pub messages: Vec<ThreadMessage>,
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub page: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
}

/// Body of `POST /api/threads/{id}/messages`; omitted fields default to the
/// thread's draft fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendMessage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_html: Option<String>,
}

/// Response of the send-message operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendMessageResponse {
    #[serde(deserialize_with = "lenient::or_default")]
    pub message: ThreadMessage,
    #[serde(deserialize_with = "lenient::or_default")]
    pub thread: Thread,
}

/// `{deleted: true}` answer of a delete.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Deleted {
    #[serde(deserialize_with = "lenient::boolean")]
    pub deleted: bool,
}
