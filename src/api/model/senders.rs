//! Sender accounts and custom sending domains.

use serde::{Deserialize, Serialize};

use super::campaigns::Channel;
use super::lenient;
use crate::string_enum;

/// A connected sender account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SenderAccount {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(rename = "type")]
    pub kind: Channel,
    #[serde(deserialize_with = "lenient::string")]
    pub email_address: String,
    #[serde(deserialize_with = "lenient::string")]
    pub provider_account_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub display_name: String,
    /// Values not shown by the contract; the demo uses `connected` for a
    /// sender ready to send.
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    #[serde(deserialize_with = "lenient::string")]
    pub first_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub last_name: String,
    #[serde(deserialize_with = "lenient::int")]
    pub daily_limit: u64,
    #[serde(deserialize_with = "lenient::boolean")]
    pub is_default_sender: bool,
    #[serde(deserialize_with = "lenient::int")]
    pub weekly_connection_limit: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub weekly_message_limit: u64,
    #[serde(deserialize_with = "lenient::boolean")]
    pub is_premium: bool,
}

/// Response of `GET /api/senders`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SenderList {
    #[serde(deserialize_with = "lenient::vec")]
    pub senders: Vec<SenderAccount>,
}

/// `{sender}` envelope of sender details.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SenderEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub sender: SenderAccount,
}

string_enum! {
    /// Verification status of a sending domain.
    pub enum DomainStatus {
        Pending => "pending",
        Verifying => "verifying",
        Verified => "verified",
        Failed => "failed",
    }
}

/// A DNS record to publish for a sending domain.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DnsRecord {
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    pub kind: String,
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub value: String,
    #[serde(deserialize_with = "lenient::int")]
    pub priority: u64,
}

/// A custom email sending domain.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendingDomain {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub user_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub domain: String,
    #[serde(deserialize_with = "lenient::string")]
    pub provider_domain_id: String,
    pub status: DomainStatus,
    #[serde(deserialize_with = "lenient::vec")]
    pub dns_records: Vec<DnsRecord>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub verified_at: Option<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// Response of `GET /api/email/domains`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DomainList {
    #[serde(deserialize_with = "lenient::vec")]
    pub domains: Vec<SendingDomain>,
}

/// `{domain}` envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DomainEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub domain: SendingDomain,
}

/// Body of the create-sending-domain operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateDomain {
    pub domain: String,
}
