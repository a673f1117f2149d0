//! The company profile (`context`) and discovery-pass redemption.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

/// `context.user`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserSection {
    #[serde(deserialize_with = "lenient::string")]
    pub professional_background: String,
}

/// `context.company`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CompanySection {
    #[serde(deserialize_with = "lenient::string")]
    pub overview: String,
    #[serde(deserialize_with = "lenient::string")]
    pub product: String,
    #[serde(deserialize_with = "lenient::string")]
    pub problem_solved: String,
    #[serde(deserialize_with = "lenient::string")]
    pub differentiators: String,
    #[serde(deserialize_with = "lenient::string")]
    pub network_presence: String,
}

/// `context.content`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ContentSection {
    #[serde(deserialize_with = "lenient::string")]
    pub network_voice: String,
    #[serde(deserialize_with = "lenient::string")]
    pub preferred_tone: String,
    #[serde(deserialize_with = "lenient::string")]
    pub posting_cadence: String,
    #[serde(deserialize_with = "lenient::vec")]
    pub recommended_topics: Vec<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub content_formats: Vec<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub topics_to_avoid: Vec<String>,
}

/// `context.market`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MarketSection {
    #[serde(deserialize_with = "lenient::string")]
    pub target_audience: String,
    #[serde(deserialize_with = "lenient::string")]
    pub industry_context: String,
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_job_titles: Vec<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_industries: Vec<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_company_sizes: Vec<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_pain_points: Vec<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub icp_keywords: Vec<String>,
}

/// The workspace-wide company profile context.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanyContext {
    #[serde(deserialize_with = "lenient::or_default")]
    pub user: UserSection,
    #[serde(deserialize_with = "lenient::or_default")]
    pub company: CompanySection,
    #[serde(deserialize_with = "lenient::or_default")]
    pub content: ContentSection,
    #[serde(deserialize_with = "lenient::or_default")]
    pub market: MarketSection,
    #[serde(deserialize_with = "lenient::object")]
    pub extra: Map<String, Value>,
}

/// The `profile` object of a context replacement.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Profile {
    #[serde(deserialize_with = "lenient::string")]
    pub first_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub last_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub company_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub website: String,
}

/// Response of `GET /api/context`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContextResponse {
    #[serde(deserialize_with = "lenient::or_default")]
    pub context: CompanyContext,
    #[serde(deserialize_with = "lenient::opt")]
    pub profile: Option<Profile>,
}

/// Body of `PUT /api/context`: the complete profile.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PutContext {
    pub context: CompanyContext,
    pub profile: Profile,
}

/// `{context}` answer of `PUT /api/context`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContextEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub context: CompanyContext,
}

/// What access the workspace has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Access {
    #[serde(deserialize_with = "lenient::string")]
    pub kind: String,
    #[serde(deserialize_with = "lenient::boolean")]
    pub can_create_leads: bool,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub verified_at: Option<String>,
}

/// Whether a code can be redeemed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Eligibility {
    #[serde(deserialize_with = "lenient::boolean")]
    pub can_redeem: bool,
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
}

/// The test access a discovery pass grants.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestAccess {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub source: String,
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    #[serde(deserialize_with = "lenient::string")]
    pub activated_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub expires_at: String,
    #[serde(deserialize_with = "lenient::int")]
    pub discovery_limit: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub discovery_used: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub remaining: u64,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub terminal_reason: Option<String>,
}

/// Response of `POST /api/test-access/redeem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiscoveryPass {
    #[serde(deserialize_with = "lenient::opt")]
    pub access: Option<Access>,
    #[serde(deserialize_with = "lenient::opt")]
    pub eligibility: Option<Eligibility>,
    #[serde(deserialize_with = "lenient::opt")]
    pub test_access: Option<TestAccess>,
    #[serde(deserialize_with = "lenient::boolean")]
    pub redeemed: bool,
}

/// Body of `POST /api/test-access/redeem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Redeem {
    pub code: String,
}
