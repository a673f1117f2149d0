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
    /// File name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Storage bucket.
    #[serde(deserialize_with = "lenient::string")]
    pub bucket: String,
    /// Path in the bucket.
    #[serde(deserialize_with = "lenient::string")]
    pub path: String,
    /// Download URL.
    #[serde(deserialize_with = "lenient::string")]
    pub url: String,
    /// MIME type.
    #[serde(deserialize_with = "lenient::string")]
    pub mime_type: String,
    /// Size in bytes, at least 1.
    #[serde(deserialize_with = "lenient::int")]
    pub size: u64,
    /// Content id, for inline use.
    #[serde(deserialize_with = "lenient::string")]
    pub content_id: String,
}

/// A one-off email thread.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Thread {
    /// The thread's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The channel (`email`).
    #[serde(deserialize_with = "lenient::string")]
    pub channel: String,
    /// `draft`, `active` or `archived`.
    pub status: ThreadStatus,
    /// The sender account, or `None` when unset.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub account_id: Option<String>,
    /// The recipient's address, stored lowercase.
    #[serde(deserialize_with = "lenient::string")]
    pub participant_email: String,
    /// The recipient's name.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub participant_name: Option<String>,
    /// Draft subject.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_subject: Option<String>,
    /// Draft plain-text body.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_body_text: Option<String>,
    /// Draft HTML body.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_body_html: Option<String>,
    /// Draft cc addresses, comma-separated.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_cc: Option<String>,
    /// Draft bcc addresses, comma-separated.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub draft_bcc: Option<String>,
    /// Number of unread messages.
    #[serde(deserialize_with = "lenient::int")]
    pub unread_count: u64,
    /// Metadata of the draft's attachments.
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
    /// The message's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The thread the message belongs to.
    #[serde(deserialize_with = "lenient::string")]
    pub conversation_id: String,
    /// Which way the message went (`outbound` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub direction: String,
    /// Subject.
    #[serde(deserialize_with = "lenient::string")]
    pub subject: String,
    /// Plain-text body.
    #[serde(deserialize_with = "lenient::string")]
    pub body_text: String,
    /// When the message was sent.
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
    /// The recipient's address; needed to send.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_email: Option<String>,
    /// Absent, `null`, or a ready email sender id.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub account_id: Option<Option<String>>,
    /// The recipient's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_name: Option<String>,
    /// Draft subject.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_subject: Option<String>,
    /// Draft plain-text body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_body_text: Option<String>,
    /// Draft HTML body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_body_html: Option<String>,
    /// Draft cc addresses, comma-separated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_cc: Option<String>,
    /// Draft bcc addresses, comma-separated.
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
    /// New status, `active` or `archived`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ThreadStatus>,
    /// New unread count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread_count: Option<u64>,
    /// New sender; `Some(None)` clears it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub account_id: Option<Option<String>>,
    /// New recipient address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_email: Option<String>,
    /// New recipient name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub participant_name: Option<String>,
    /// New draft subject; `Some(None)` clears it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_subject: Option<Option<String>>,
    /// New draft plain-text body; `Some(None)` clears it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_body_text: Option<Option<String>>,
    /// New draft HTML body; `Some(None)` clears it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_body_html: Option<Option<String>>,
    /// New draft cc; `Some(None)` clears it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option"
    )]
    pub draft_cc: Option<Option<String>>,
    /// New draft bcc; `Some(None)` clears it.
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
    /// Whether the recipient already has threads.
    #[serde(deserialize_with = "lenient::boolean")]
    pub exists: bool,
    /// How many threads exist.
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    /// The existing threads.
    #[serde(deserialize_with = "lenient::vec")]
    pub threads: Vec<Thread>,
}

/// Response of `POST /api/threads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateThreadResponse {
    /// The new draft thread.
    #[serde(deserialize_with = "lenient::or_default")]
    pub thread: Thread,
    /// Threads already open with the recipient.
    #[serde(deserialize_with = "lenient::or_default")]
    pub existing_threads: ExistingThreads,
}

/// `{thread}` envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreadEnvelope {
    /// The thread the route answered with (`thread` of the envelope).
    #[serde(deserialize_with = "lenient::or_default")]
    pub thread: Thread,
}

/// Query of the thread list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ThreadQuery {
    /// Page number, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    /// 1 to 200, default 50.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Only threads with this status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Response of `GET /api/threads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreadPage {
    /// The threads of this page, newest activity first.
    #[serde(deserialize_with = "lenient::vec")]
    pub threads: Vec<Thread>,
    /// Number of threads matching the filter.
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    /// This page's number, from 1.
    #[serde(deserialize_with = "lenient::int")]
    pub page: u64,
    /// The page size of this answer (`limit`).
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
}

/// Response of `GET /api/threads/{id}/messages`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MessagesPage {
    /// The messages of this page, oldest first.
    #[serde(deserialize_with = "lenient::vec")]
    pub messages: Vec<ThreadMessage>,
    /// Number of messages in the thread.
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    /// This page's number, from 1.
    #[serde(deserialize_with = "lenient::int")]
    pub page: u64,
    /// The page size of this answer (`limit`).
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
}

/// Body of `POST /api/threads/{id}/messages`; omitted fields default to the
/// thread's draft fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendMessage {
    /// The sender to send from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_id: Option<String>,
    /// Subject.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Plain-text body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_text: Option<String>,
    /// HTML body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_html: Option<String>,
}

/// Response of the send-message operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendMessageResponse {
    /// The sent message.
    #[serde(deserialize_with = "lenient::or_default")]
    pub message: ThreadMessage,
    /// The thread, now `active`.
    #[serde(deserialize_with = "lenient::or_default")]
    pub thread: Thread,
}

/// `{deleted: true}` answer of a delete.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Deleted {
    /// Whether the resource was deleted.
    #[serde(deserialize_with = "lenient::boolean")]
    pub deleted: bool,
}
