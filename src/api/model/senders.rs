//! Sender accounts and custom sending domains.

use serde::{Deserialize, Serialize};

use super::campaigns::Channel;
use super::lenient;
use crate::string_enum;

/// A connected sender account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SenderAccount {
    /// The sender's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The sender's channel (`type`).
    #[serde(rename = "type")]
    pub kind: Channel,
    /// The address it sends from.
    #[serde(deserialize_with = "lenient::string")]
    pub email_address: String,
    /// The account's id at its provider.
    #[serde(deserialize_with = "lenient::string")]
    pub provider_account_id: String,
    /// The account's display name.
    #[serde(deserialize_with = "lenient::string")]
    pub display_name: String,
    /// Values not shown by the contract; the demo uses `connected` for a
    /// sender ready to send.
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    /// First name.
    #[serde(deserialize_with = "lenient::string")]
    pub first_name: String,
    /// Last name.
    #[serde(deserialize_with = "lenient::string")]
    pub last_name: String,
    /// Most sends per day.
    #[serde(deserialize_with = "lenient::int")]
    pub daily_limit: u64,
    /// Whether it is the default sender.
    #[serde(deserialize_with = "lenient::boolean")]
    pub is_default_sender: bool,
    /// Most connection requests per week.
    #[serde(deserialize_with = "lenient::int")]
    pub weekly_connection_limit: u64,
    /// Most messages per week.
    #[serde(deserialize_with = "lenient::int")]
    pub weekly_message_limit: u64,
    /// Whether the account is premium.
    #[serde(deserialize_with = "lenient::boolean")]
    pub is_premium: bool,
}

/// Response of `GET /api/senders`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SenderList {
    /// Every sender account of the workspace, email and network alike.
    #[serde(deserialize_with = "lenient::vec")]
    pub senders: Vec<SenderAccount>,
}

/// `{sender}` envelope of sender details.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SenderEnvelope {
    /// The sender.
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
    /// The record type (`type`).
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    pub kind: String,
    /// The record's name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// The record's value.
    #[serde(deserialize_with = "lenient::string")]
    pub value: String,
    /// The record's priority.
    #[serde(deserialize_with = "lenient::int")]
    pub priority: u64,
}

/// A custom email sending domain.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SendingDomain {
    /// The domain's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The owning user's id.
    #[serde(deserialize_with = "lenient::string")]
    pub user_id: String,
    /// The domain name.
    #[serde(deserialize_with = "lenient::string")]
    pub domain: String,
    /// The domain's id at the sending provider.
    #[serde(deserialize_with = "lenient::string")]
    pub provider_domain_id: String,
    /// Where verification stands.
    pub status: DomainStatus,
    /// The records to publish, as last refreshed.
    #[serde(deserialize_with = "lenient::vec")]
    pub dns_records: Vec<DnsRecord>,
    /// When the domain was verified, if it was.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub verified_at: Option<String>,
    /// When the domain was added.
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// When the domain last changed.
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// Response of `GET /api/email/domains`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DomainList {
    /// The domains, newest first.
    #[serde(deserialize_with = "lenient::vec")]
    pub domains: Vec<SendingDomain>,
}

/// `{domain}` envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DomainEnvelope {
    /// The domain.
    #[serde(deserialize_with = "lenient::or_default")]
    pub domain: SendingDomain,
}

/// Body of the create-sending-domain operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateDomain {
    /// The domain name to add.
    pub domain: String,
}
