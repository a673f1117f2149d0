//! The company profile (`context`) and discovery-pass redemption.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

/// `context.user`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserSection {
    /// The user's professional background (`professionalBackground`).
    #[serde(deserialize_with = "lenient::string")]
    pub professional_background: String,
}

/// `context.company`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CompanySection {
    /// Overview of the company.
    #[serde(deserialize_with = "lenient::string")]
    pub overview: String,
    /// What the company sells.
    #[serde(deserialize_with = "lenient::string")]
    pub product: String,
    /// The problem the product solves (`problemSolved`).
    #[serde(deserialize_with = "lenient::string")]
    pub problem_solved: String,
    /// What sets the company apart.
    #[serde(deserialize_with = "lenient::string")]
    pub differentiators: String,
    /// The company's presence on the network (`networkPresence`).
    #[serde(deserialize_with = "lenient::string")]
    pub network_presence: String,
}

/// `context.content`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ContentSection {
    /// The voice of posts on the network (`networkVoice`).
    #[serde(deserialize_with = "lenient::string")]
    pub network_voice: String,
    /// The preferred tone of content (`preferredTone`).
    #[serde(deserialize_with = "lenient::string")]
    pub preferred_tone: String,
    /// How often to post (`postingCadence`).
    #[serde(deserialize_with = "lenient::string")]
    pub posting_cadence: String,
    /// Topics to write about (`recommendedTopics`).
    #[serde(deserialize_with = "lenient::vec")]
    pub recommended_topics: Vec<String>,
    /// Formats of content to use (`contentFormats`).
    #[serde(deserialize_with = "lenient::vec")]
    pub content_formats: Vec<String>,
    /// Topics to stay away from (`topicsToAvoid`).
    #[serde(deserialize_with = "lenient::vec")]
    pub topics_to_avoid: Vec<String>,
}

/// `context.market`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MarketSection {
    /// Who the company sells to (`targetAudience`).
    #[serde(deserialize_with = "lenient::string")]
    pub target_audience: String,
    /// The industry the company works in (`industryContext`).
    #[serde(deserialize_with = "lenient::string")]
    pub industry_context: String,
    /// Job titles of the ideal customer profile (`icpJobTitles`).
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_job_titles: Vec<String>,
    /// Industries of the ideal customer profile (`icpIndustries`).
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_industries: Vec<String>,
    /// Company sizes of the ideal customer profile (`icpCompanySizes`).
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_company_sizes: Vec<String>,
    /// Pain points of the ideal customer profile (`icpPainPoints`).
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_pain_points: Vec<String>,
    /// Keywords of the ideal customer profile (`icpKeywords`).
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_keywords: Vec<String>,
}

/// The workspace-wide company profile context.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanyContext {
    /// The `user` section.
    #[serde(deserialize_with = "lenient::or_default")]
    pub user: UserSection,
    /// The `company` section.
    #[serde(deserialize_with = "lenient::or_default")]
    pub company: CompanySection,
    /// The `content` section.
    #[serde(deserialize_with = "lenient::or_default")]
    pub content: ContentSection,
    /// The `market` section.
    #[serde(deserialize_with = "lenient::or_default")]
    pub market: MarketSection,
    /// The free-form `extra` object.
    #[serde(deserialize_with = "lenient::object")]
    pub extra: Map<String, Value>,
}

/// The `profile` object of a context replacement.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Profile {
    /// The user's first name (`firstName`).
    #[serde(deserialize_with = "lenient::string")]
    pub first_name: String,
    /// The user's last name (`lastName`).
    #[serde(deserialize_with = "lenient::string")]
    pub last_name: String,
    /// The company's name (`companyName`).
    #[serde(deserialize_with = "lenient::string")]
    pub company_name: String,
    /// The company's website.
    #[serde(deserialize_with = "lenient::string")]
    pub website: String,
}

/// Response of `GET /api/context`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContextResponse {
    /// The stored company profile.
    #[serde(deserialize_with = "lenient::or_default")]
    pub context: CompanyContext,
    /// The stored `profile` object, when the service sends one.
    #[serde(deserialize_with = "lenient::opt")]
    pub profile: Option<Profile>,
}

/// Body of `PUT /api/context`: the complete profile.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PutContext {
    /// The complete new company profile.
    pub context: CompanyContext,
    /// The `profile` object that goes with it.
    pub profile: Profile,
}

/// `{context}` answer of `PUT /api/context`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContextEnvelope {
    /// The newly stored company profile.
    #[serde(deserialize_with = "lenient::or_default")]
    pub context: CompanyContext,
}

/// What access the workspace has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Access {
    /// The kind of access (`paid_plan` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub kind: String,
    /// Whether the workspace may create leads (`canCreateLeads`).
    #[serde(deserialize_with = "lenient::boolean")]
    pub can_create_leads: bool,
    /// When the access was verified (`verifiedAt`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub verified_at: Option<String>,
}

/// Whether a code can be redeemed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Eligibility {
    /// Whether a code can be redeemed now (`canRedeem`).
    #[serde(deserialize_with = "lenient::boolean")]
    pub can_redeem: bool,
    /// The reason given for the verdict.
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
}

/// The test access a discovery pass grants.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestAccess {
    /// The test access id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// Where the access came from (`service_domain` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub source: String,
    /// The access status (`active` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    /// When the access started (`activatedAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub activated_at: String,
    /// When the access ends (`expiresAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub expires_at: String,
    /// Discoveries the pass grants (`discoveryLimit`).
    #[serde(deserialize_with = "lenient::int")]
    pub discovery_limit: u64,
    /// Discoveries used so far (`discoveryUsed`).
    #[serde(deserialize_with = "lenient::int")]
    pub discovery_used: u64,
    /// Discoveries left.
    #[serde(deserialize_with = "lenient::int")]
    pub remaining: u64,
    /// Why the access ended, if it did (`terminalReason`; `expired` observed).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub terminal_reason: Option<String>,
}

/// Response of `POST /api/test-access/redeem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoveryPass {
    /// The workspace's access.
    #[serde(deserialize_with = "lenient::opt")]
    pub access: Option<Access>,
    /// Whether a code can be redeemed.
    #[serde(deserialize_with = "lenient::opt")]
    pub eligibility: Option<Eligibility>,
    /// The test access the pass grants (`testAccess`).
    #[serde(deserialize_with = "lenient::opt")]
    pub test_access: Option<TestAccess>,
    /// Whether this call redeemed the code.
    #[serde(deserialize_with = "lenient::boolean")]
    pub redeemed: bool,
}

/// Body of `POST /api/test-access/redeem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Redeem {
    /// The code to redeem, 1 to 100 characters.
    pub code: String,
}
