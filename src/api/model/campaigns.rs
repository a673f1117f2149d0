//! Outbound resources: campaigns, their roster of leads, sequences and
//! generated messages.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;
use super::senders::SenderAccount;
use crate::string_enum;

string_enum! {
    /// The channel of a campaign or sender.
    pub enum Channel { Network => "network", Email => "email" }
}

string_enum! {
    /// Campaign status.
    pub enum CampaignStatus {
        Draft => "draft",
        Launching => "launching",
        Active => "active",
        Paused => "paused",
        Completed => "completed",
    }
}

string_enum! {
    /// Status of a campaign lead.
    pub enum LeadStatus {
        Pending => "pending",
        Sent => "sent",
        ConnectionSent => "connection_sent",
        Connected => "connected",
        MessageSent => "message_sent",
        Replied => "replied",
        Bounced => "bounced",
        Completed => "completed",
        TimedOut => "timed_out",
        Cancelled => "cancelled",
    }
}

impl LeadStatus {
    /// Whether the lead has reached the end of its sequence.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            LeadStatus::Replied
                | LeadStatus::Bounced
                | LeadStatus::Completed
                | LeadStatus::TimedOut
                | LeadStatus::Cancelled
        )
    }
}

string_enum! {
    /// Type of a sequence node (`message` is the assumed network follow-up).
    pub enum NodeType {
        ConnectionRequest => "connection_request",
        Message => "message",
        Email => "email",
        End => "end",
    }
}

string_enum! {
    /// Status of a generated message.
    pub enum MessageStatus { Draft => "draft", Pending => "pending", Sent => "sent" }
}

/// Campaign `stats`: counts of the roster.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignStats {
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub sent: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub replied: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub bounced: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub completed: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub timed_out: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub connection_sent: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub connected: u64,
    /// Omitted by the pause response.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub connections_accepted: Option<u64>,
    #[serde(deserialize_with = "lenient::int")]
    pub message_sent: u64,
    /// Omitted by the pause response.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub contacted: Option<u64>,
}

/// A node of a campaign's message sequence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SequenceNode {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    #[serde(deserialize_with = "lenient::int")]
    pub position: u64,
    #[serde(rename = "type")]
    pub kind: NodeType,
    #[serde(deserialize_with = "lenient::string")]
    pub subject: String,
    #[serde(deserialize_with = "lenient::string")]
    pub body: String,
}

/// An outbound campaign.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Campaign {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub user_id: String,
    #[serde(rename = "type")]
    pub kind: Channel,
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    pub status: CampaignStatus,
    /// Email only.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub daily_limit: Option<u64>,
    /// Email only.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_boolean"
    )]
    pub stop_on_reply: Option<bool>,
    /// Email only.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_boolean"
    )]
    pub open_tracking: Option<bool>,
    /// Email only.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub signature: Option<String>,
    /// Network only.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_boolean"
    )]
    pub skip_other_campaigns: Option<bool>,
    /// Network only; inner structure not shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operating_hours: Option<Value>,
    #[serde(deserialize_with = "lenient::or_default")]
    pub stats: CampaignStats,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub sequence_nodes: Option<Vec<SequenceNode>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub sender_accounts: Option<Vec<SenderAccount>>,
}

/// A lead on a campaign roster (`prospects` element).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignLead {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub user_id: String,
    pub status: LeadStatus,
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    #[serde(deserialize_with = "lenient::string")]
    pub network_url: String,
    #[serde(deserialize_with = "lenient::string")]
    pub first_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub last_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub company: String,
    #[serde(deserialize_with = "lenient::string")]
    pub position: String,
    #[serde(deserialize_with = "lenient::string")]
    pub headline: String,
    #[serde(deserialize_with = "lenient::object")]
    pub custom_fields: Map<String, Value>,
    #[serde(deserialize_with = "lenient::string")]
    pub source: String,
    #[serde(deserialize_with = "lenient::string")]
    pub source_ref: String,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub bounced_at: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub replied_at: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub current_node_id: Option<String>,
}

/// A generated message of a campaign.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GeneratedMessage {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub prospect_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub node_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub subject: String,
    #[serde(deserialize_with = "lenient::string")]
    pub body_text: String,
    #[serde(deserialize_with = "lenient::string")]
    pub body_html: String,
    pub status: MessageStatus,
    #[serde(deserialize_with = "lenient::boolean")]
    pub manually_edited: bool,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
}

/// Body of `POST /api/campaigns`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateCampaign {
    #[serde(rename = "type")]
    pub kind: Channel,
    pub name: String,
    pub sender_account_ids: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_other_campaigns: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operating_hours: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_on_reply: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_tracking: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// One node of a replacement sequence (`PATCH /api/campaigns/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SequenceNodeInput {
    #[serde(rename = "type")]
    pub kind: NodeType,
    pub subject: String,
    pub body: String,
}

/// Body of the update-campaign operation: every field optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdateCampaign {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sender_account_ids: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_other_campaigns: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operating_hours: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_on_reply: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_tracking: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Replaces the whole sequence; the last node must be `end`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_nodes: Option<Vec<SequenceNodeInput>>,
}

/// A lead to add to a roster (the campaign-lead profile fields).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LeadInput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_fields: Option<Map<String, Value>>,
}

/// Body of the add-leads operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AddLeads {
    pub leads: Vec<LeadInput>,
}

/// A dropped duplicate row of an add-leads batch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DuplicateRow {
    #[serde(deserialize_with = "lenient::int")]
    pub index: u64,
    /// `batch` or `roster`.
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
}

/// Response of the add-leads operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AddLeadsResponse {
    #[serde(deserialize_with = "lenient::int")]
    pub imported: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub duplicates: u64,
    #[serde(deserialize_with = "lenient::vec")]
    pub prospects: Vec<CampaignLead>,
    #[serde(deserialize_with = "lenient::vec")]
    pub duplicate_rows: Vec<DuplicateRow>,
}

/// Body of the edit-lead operation: the lead id plus the fields to change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditLead {
    pub id: String,
    #[serde(flatten)]
    pub fields: LeadInput,
}

/// Body of the delete-leads operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DeleteLeads {
    /// Up to 500 lead ids.
    Ids { ids: Vec<String> },
    /// Every lead (`{all: true}`).
    All { all: bool },
}

/// Response of the delete-leads operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeleteLeadsResponse {
    #[serde(deserialize_with = "lenient::int")]
    pub deleted: u64,
}

/// Response of `GET /api/campaigns/{id}/leads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RosterPage {
    #[serde(deserialize_with = "lenient::vec")]
    pub prospects: Vec<CampaignLead>,
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub page: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
}

/// Query of the roster list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RosterQuery {
    /// At least 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u64>,
    /// 1 to 200.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Query of the generated-messages list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GeneratedMessagesQuery {
    /// `draft` (default), `pending`, `sent` or `all`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_id: Option<String>,
    /// 1 to 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_offset: Option<u64>,
}

/// Response of the generated-messages list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GeneratedMessages {
    #[serde(deserialize_with = "lenient::vec")]
    pub messages: Vec<GeneratedMessage>,
}

/// Body of the edit-generated-email operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditGeneratedMessage {
    pub message_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_html: Option<String>,
}

/// `{message}` envelope of edit-generated-email.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GeneratedMessageEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub message: GeneratedMessage,
}

/// `{campaign}` envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub campaign: Campaign,
}

/// Response of the optional list-campaigns route.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignList {
    #[serde(deserialize_with = "lenient::vec")]
    pub campaigns: Vec<Campaign>,
}

/// `{prospect}` envelope of edit-lead.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProspectEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub prospect: CampaignLead,
}
