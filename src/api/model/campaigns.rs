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
    /// Number of leads on the roster.
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    /// Leads with status `sent`.
    #[serde(deserialize_with = "lenient::int")]
    pub sent: u64,
    /// Leads with status `replied`.
    #[serde(deserialize_with = "lenient::int")]
    pub replied: u64,
    /// Leads with status `bounced`.
    #[serde(deserialize_with = "lenient::int")]
    pub bounced: u64,
    /// Leads with status `completed`.
    #[serde(deserialize_with = "lenient::int")]
    pub completed: u64,
    /// Leads with status `timed_out`.
    #[serde(deserialize_with = "lenient::int")]
    pub timed_out: u64,
    /// Leads with status `connection_sent`.
    #[serde(deserialize_with = "lenient::int")]
    pub connection_sent: u64,
    /// Leads with status `connected`.
    #[serde(deserialize_with = "lenient::int")]
    pub connected: u64,
    /// Omitted by the pause response.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub connections_accepted: Option<u64>,
    /// Leads with status `message_sent`.
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
    /// The node's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The campaign the node belongs to.
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    /// The node's place in the sequence.
    #[serde(deserialize_with = "lenient::int")]
    pub position: u64,
    /// The node type (`type`).
    #[serde(rename = "type")]
    pub kind: NodeType,
    /// Email subject.
    #[serde(deserialize_with = "lenient::string")]
    pub subject: String,
    /// Message body template.
    #[serde(deserialize_with = "lenient::string")]
    pub body: String,
}

/// An outbound campaign.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Campaign {
    /// The campaign's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The owning user's id.
    #[serde(deserialize_with = "lenient::string")]
    pub user_id: String,
    /// The campaign's channel (`type`).
    #[serde(rename = "type")]
    pub kind: Channel,
    /// The campaign's name, unique per user.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Where the campaign is in its lifecycle.
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
    /// Counts of the roster by lead status.
    #[serde(deserialize_with = "lenient::or_default")]
    pub stats: CampaignStats,
    /// When the campaign was created.
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// When the campaign last changed.
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
    /// The message sequence (present on create and get).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub sequence_nodes: Option<Vec<SequenceNode>>,
    /// The senders it sends from (present on pause and get).
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
    /// The lead's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The campaign the lead is on.
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    /// The owning user's id.
    #[serde(deserialize_with = "lenient::string")]
    pub user_id: String,
    /// Where the lead is in the sequence.
    pub status: LeadStatus,
    /// Email address; the identity on email campaigns.
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    /// Profile URL on the network; the identity on network campaigns.
    #[serde(deserialize_with = "lenient::string")]
    pub network_url: String,
    /// First name.
    #[serde(deserialize_with = "lenient::string")]
    pub first_name: String,
    /// Last name.
    #[serde(deserialize_with = "lenient::string")]
    pub last_name: String,
    /// Full name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Company the lead works at.
    #[serde(deserialize_with = "lenient::string")]
    pub company: String,
    /// The lead's position at the company.
    #[serde(deserialize_with = "lenient::string")]
    pub position: String,
    /// The lead's profile headline.
    #[serde(deserialize_with = "lenient::string")]
    pub headline: String,
    /// Free-form fields, rendered in templates as `%custom_fields.<key>%`.
    #[serde(deserialize_with = "lenient::object")]
    pub custom_fields: Map<String, Value>,
    /// Where the lead came from (values not shown by the contract).
    #[serde(deserialize_with = "lenient::string")]
    pub source: String,
    /// The lead's reference in its source (meaning not shown by the contract).
    #[serde(deserialize_with = "lenient::string")]
    pub source_ref: String,
    /// When the lead was added.
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// When the lead last changed.
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
    /// When the lead's email bounced, if it did.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub bounced_at: Option<String>,
    /// When the lead replied, if they did.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub replied_at: Option<String>,
    /// The sequence node the lead is at, if any.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub current_node_id: Option<String>,
}

/// A generated message of a campaign.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GeneratedMessage {
    /// The message's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// The campaign the message belongs to.
    #[serde(deserialize_with = "lenient::string")]
    pub campaign_id: String,
    /// The lead the message is for.
    #[serde(deserialize_with = "lenient::string")]
    pub prospect_id: String,
    /// The sequence node the message was generated from.
    #[serde(deserialize_with = "lenient::string")]
    pub node_id: String,
    /// Email subject.
    #[serde(deserialize_with = "lenient::string")]
    pub subject: String,
    /// Plain-text body.
    #[serde(deserialize_with = "lenient::string")]
    pub body_text: String,
    /// HTML body.
    #[serde(deserialize_with = "lenient::string")]
    pub body_html: String,
    /// `draft`, `pending` or `sent`.
    pub status: MessageStatus,
    /// Whether a user edited the message.
    #[serde(deserialize_with = "lenient::boolean")]
    pub manually_edited: bool,
    /// When the message was generated.
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
}

/// Body of `POST /api/campaigns`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateCampaign {
    /// The campaign's channel (`type`).
    #[serde(rename = "type")]
    pub kind: Channel,
    /// The campaign's name, unique per user.
    pub name: String,
    /// Senders to send from; each of the campaign's channel.
    pub sender_account_ids: Vec<String>,
    /// Network only: the `skip_other_campaigns` setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_other_campaigns: Option<bool>,
    /// Network only; inner structure not shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operating_hours: Option<Value>,
    /// Email only: most sends per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_limit: Option<u64>,
    /// Email only: stop a lead's sequence when they reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_on_reply: Option<bool>,
    /// Email only: track email opens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_tracking: Option<bool>,
    /// Email only: the signature appended to emails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
}

/// One node of a replacement sequence (`PATCH /api/campaigns/{id}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SequenceNodeInput {
    /// The node type (`type`).
    #[serde(rename = "type")]
    pub kind: NodeType,
    /// Email subject.
    pub subject: String,
    /// Message body template.
    pub body: String,
}

/// Body of the update-campaign operation: every field optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UpdateCampaign {
    /// New name, unique per user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// New senders, each of the campaign's channel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sender_account_ids: Option<Vec<String>>,
    /// Network only: the `skip_other_campaigns` setting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_other_campaigns: Option<bool>,
    /// Network only; inner structure not shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operating_hours: Option<Value>,
    /// Email only: most sends per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_limit: Option<u64>,
    /// Email only: stop a lead's sequence when they reply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_on_reply: Option<bool>,
    /// Email only: track email opens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub open_tracking: Option<bool>,
    /// Email only: the signature appended to emails.
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
    /// Email address; required on email campaigns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Profile URL on the network; required on network campaigns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_url: Option<String>,
    /// First name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    /// Last name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    /// Full name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Company the lead works at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub company: Option<String>,
    /// The lead's position at the company.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The lead's profile headline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline: Option<String>,
    /// Free-form fields for message templates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_fields: Option<Map<String, Value>>,
}

/// Body of the add-leads operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AddLeads {
    /// The rows to add, 1 to 1000.
    pub leads: Vec<LeadInput>,
}

/// A dropped duplicate row of an add-leads batch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DuplicateRow {
    /// The row's 0-based index in the batch.
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
    /// How many rows were added.
    #[serde(deserialize_with = "lenient::int")]
    pub imported: u64,
    /// How many rows were dropped as duplicates.
    #[serde(deserialize_with = "lenient::int")]
    pub duplicates: u64,
    /// The added leads.
    #[serde(deserialize_with = "lenient::vec")]
    pub prospects: Vec<CampaignLead>,
    /// The dropped rows and why.
    #[serde(deserialize_with = "lenient::vec")]
    pub duplicate_rows: Vec<DuplicateRow>,
}

/// Body of the edit-lead operation: the lead id plus the fields to change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditLead {
    /// The id of the lead to edit.
    pub id: String,
    /// The profile fields to change (flattened into the body).
    #[serde(flatten)]
    pub fields: LeadInput,
}

/// Body of the delete-leads operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DeleteLeads {
    /// Up to 500 lead ids.
    Ids {
        /// The ids of the leads to remove.
        ids: Vec<String>,
    },
    /// Every lead (`{all: true}`).
    All {
        /// `true`.
        all: bool,
    },
}

/// Response of the delete-leads operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeleteLeadsResponse {
    /// How many leads were removed.
    #[serde(deserialize_with = "lenient::int")]
    pub deleted: u64,
}

/// Response of `GET /api/campaigns/{id}/leads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RosterPage {
    /// The leads of this page.
    #[serde(deserialize_with = "lenient::vec")]
    pub prospects: Vec<CampaignLead>,
    /// Number of leads matching the filter.
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    /// This page's number, from 1.
    #[serde(deserialize_with = "lenient::int")]
    pub page: u64,
    /// The page size of this answer (`limit`).
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
    /// Only leads with this status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Query of the generated-messages list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GeneratedMessagesQuery {
    /// `draft` (default), `pending`, `sent` or `all`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Only this lead's messages (inbound replies are then merged in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_id: Option<String>,
    /// 1 to 100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_limit: Option<u64>,
    /// Offset into the stable lead order, with `prospect_limit`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_offset: Option<u64>,
}

/// Response of the generated-messages list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GeneratedMessages {
    /// The generated messages.
    #[serde(deserialize_with = "lenient::vec")]
    pub messages: Vec<GeneratedMessage>,
}

/// Body of the edit-generated-email operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditGeneratedMessage {
    /// The id of the message to edit.
    pub message_id: String,
    /// New subject.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// New plain-text body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_text: Option<String>,
    /// New HTML body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_html: Option<String>,
}

/// `{message}` envelope of edit-generated-email.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GeneratedMessageEnvelope {
    /// The edited message.
    #[serde(deserialize_with = "lenient::or_default")]
    pub message: GeneratedMessage,
}

/// `{campaign}` envelope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignEnvelope {
    /// The campaign the route answered with (`campaign` of the envelope).
    #[serde(deserialize_with = "lenient::or_default")]
    pub campaign: Campaign,
}

/// Response of the optional list-campaigns route.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignList {
    /// The campaigns, newest first.
    #[serde(deserialize_with = "lenient::vec")]
    pub campaigns: Vec<Campaign>,
}

/// `{prospect}` envelope of edit-lead.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProspectEnvelope {
    /// The edited lead.
    #[serde(deserialize_with = "lenient::or_default")]
    pub prospect: CampaignLead,
}
