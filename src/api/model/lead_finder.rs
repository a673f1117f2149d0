//! Lead Finder resources: searches, source plans, results, runs, enrichment
//! and the results query (contract part "Lead Finder").

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::lenient;
use crate::string_enum;

string_enum! {
    /// Search kind.
    pub enum SearchKind { Recurring => "recurring", Static => "static" }
}

string_enum! {
    /// The only documented source of a source plan.
    pub enum SourceId { NetworkPeople => "network_people" }
}

string_enum! {
    /// Source plan recurrence.
    pub enum Recurrence { Finite => "finite", Monitoring => "monitoring" }
}

string_enum! {
    /// Kind of a person criterion.
    pub enum PersonCriterionKind { CurrentTitle => "current_title" }
}

string_enum! {
    /// Kind of a company criterion.
    pub enum CompanyCriterionKind {
        BusinessModel => "business_model",
        CustomerType => "customer_type",
        Offering => "offering",
        Industry => "industry",
        Exclusion => "exclusion",
        OtherKind => "other",
    }
}

string_enum! {
    /// Operator of a company criterion.
    pub enum CriterionOperator { Is => "is", IsNot => "is_not" }
}

string_enum! {
    /// Metric of a `metric` ranked company cohort.
    pub enum CohortMetric { Revenue => "revenue", MarketCap => "market_cap" }
}

string_enum! {
    /// Status of a run. Values beyond `queued` are the assumed reading.
    pub enum RunStatus {
        Queued => "queued",
        Running => "running",
        Completed => "completed",
        Failed => "failed",
        Cancelled => "cancelled",
    }
}

impl RunStatus {
    /// Whether a run in this status is still going (worth polling).
    pub fn is_live(&self) -> bool {
        matches!(self, RunStatus::Queued | RunStatus::Running)
    }
}

string_enum! {
    /// A results-query predicate operator.
    pub enum Operator {
        Contains => "contains",
        Eq => "eq",
        Gt => "gt",
        Gte => "gte",
        Lt => "lt",
        Lte => "lte",
    }
}

string_enum! {
    /// Value type of an enrichment field descriptor.
    pub enum ValueType { String => "string", Number => "number", Boolean => "boolean" }
}

string_enum! {
    /// Sort order of the results query.
    pub enum Sort { ScoreDesc => "score_desc" }
}

/// A Lead Finder search (`search`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Search {
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    #[serde(deserialize_with = "lenient::string")]
    pub description: String,
    pub kind: SearchKind,
    #[serde(deserialize_with = "lenient::string")]
    pub surface: String,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub definition_hash: Option<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub intent: String,
    #[serde(deserialize_with = "lenient::string")]
    pub seller_context: String,
    #[serde(deserialize_with = "lenient::vec")]
    pub source_plans: Vec<SourcePlan>,
    /// Required by the contract: `None` is written as `{}`.
    #[serde(deserialize_with = "lenient::opt", serialize_with = "details_or_empty")]
    pub details: Option<SearchDetails>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub last_run_id: Option<String>,
    #[serde(deserialize_with = "lenient::int")]
    pub lead_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub result_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub contacted_count: u64,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// Writes absent details as the empty object the contract requires.
fn details_or_empty<S: Serializer>(d: &Option<SearchDetails>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => d.serialize(s),
        None => SearchDetails::default().serialize(s),
    }
}

/// `details` of a search: free-text planning notes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchDetails {
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub channel: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub signal: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub expected_lead: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub why_this_should_work: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planner_assumed_preferences: Option<Vec<String>>,
}

/// One source plan of a search (element of `sourcePlans`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SourcePlan {
    pub source_id: SourceId,
    #[serde(deserialize_with = "lenient::vec")]
    pub query: Vec<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub result_target: Option<ResultTarget>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub recurrence: Option<Recurrence>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub geography: Option<Geography>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub company_size: Option<CompanySize>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub person_criteria: Option<Vec<PersonCriterion>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub unresolved_preferences: Option<Vec<String>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub company_criteria: Option<Vec<CompanyCriterion>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub ranked_company_cohort: Option<RankedCompanyCohort>,
}

/// How many results a source plan aims for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum ResultTarget {
    /// A fixed number of results (greater than 0).
    Count {
        #[serde(deserialize_with = "lenient::int")]
        count: u64,
    },
    /// Every result the source yields.
    All,
}

/// Where the people of a source plan are.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Geography {
    /// Always `explicit` in the contract.
    #[serde(deserialize_with = "lenient::string")]
    pub mode: String,
    #[serde(deserialize_with = "lenient::vec")]
    pub country_codes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city_names: Option<Vec<String>>,
}

/// Company headcount bounds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanySize {
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub min: Option<u64>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub max: Option<u64>,
}

/// A person criterion (current titles).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PersonCriterion {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    pub kind: PersonCriterionKind,
    #[serde(deserialize_with = "lenient::vec")]
    pub values: Vec<String>,
}

/// A company criterion; every entry is AND-combined.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanyCriterion {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    pub kind: CompanyCriterionKind,
    pub operator: CriterionOperator,
    #[serde(deserialize_with = "lenient::string")]
    pub value: String,
}

/// The ranked company cohort of a source plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RankedCompanyCohort {
    /// The service's default cohort.
    Default {
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
    /// A named cohort.
    Named {
        #[serde(rename = "sourceId")]
        source_id: String,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
    /// An attached cohort.
    Attached {
        #[serde(rename = "sourceId")]
        source_id: String,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
    /// Companies ranked by a metric.
    Metric {
        metric: CohortMetric,
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
}

/// The canonical lead of a result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CanonicalLead {
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// `type` on the wire (`person` observed).
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    pub kind: String,
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    #[serde(deserialize_with = "lenient::string")]
    pub company: String,
    #[serde(deserialize_with = "lenient::string")]
    pub company_domain: String,
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    #[serde(deserialize_with = "lenient::string")]
    pub network_url: String,
}

/// Summary of a result's enrichment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentSummary {
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    #[serde(deserialize_with = "lenient::int")]
    pub schema_version: u64,
    #[serde(deserialize_with = "lenient::string")]
    pub observed_at: String,
    #[serde(deserialize_with = "lenient::int")]
    pub field_count: u64,
}

/// A Lead Finder result (element of `results`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LeadResult {
    #[serde(deserialize_with = "lenient::string")]
    pub result_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub run_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub lead_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub search_url: String,
    #[serde(deserialize_with = "lenient::string")]
    pub query: String,
    #[serde(deserialize_with = "lenient::string")]
    pub search_reason: String,
    #[serde(deserialize_with = "lenient::string")]
    pub signal_reason: String,
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    #[serde(deserialize_with = "lenient::string")]
    pub content: String,
    #[serde(deserialize_with = "lenient::string")]
    pub occurred_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// Not shown by the contract: kept as JSON.
    pub author: Value,
    /// Not shown by the contract: kept as JSON.
    pub lead: Value,
    /// Not shown by the contract: kept as JSON.
    pub metadata: Value,
    #[serde(deserialize_with = "lenient::opt")]
    pub canonical_lead: Option<CanonicalLead>,
    #[serde(deserialize_with = "lenient::string")]
    pub entity_company: String,
    #[serde(deserialize_with = "lenient::string")]
    pub entity_person: String,
    #[serde(deserialize_with = "lenient::float")]
    pub score: f64,
    #[serde(deserialize_with = "lenient::string")]
    pub quality_tier: String,
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    #[serde(deserialize_with = "lenient::opt")]
    pub enrichment_summary: Option<EnrichmentSummary>,
}

/// A paging cursor: an int on `GET /api/lead-finder/{id}`, an opaque string
/// on the results query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Cursor {
    /// Numeric cursor (search GET).
    Int(u64),
    /// Opaque cursor (results query).
    Text(String),
}

impl<'de> Deserialize<'de> for Cursor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Leniently: a float such as `25.0` is still the int cursor 25.
        match Value::deserialize(d)? {
            Value::String(s) => Ok(Cursor::Text(s)),
            Value::Number(n) => n
                .as_u64()
                .or_else(|| {
                    n.as_f64()
                        .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0)
                        .map(|f| f as u64)
                })
                .map(Cursor::Int)
                .ok_or_else(|| D::Error::custom(format!("cursor {n} is not a whole number"))),
            other => Err(D::Error::custom(format!(
                "a cursor is a number or a string, not {other}"
            ))),
        }
    }
}

impl Cursor {
    /// The cursor as text, for the next request.
    pub fn to_text(&self) -> String {
        match self {
            Cursor::Int(n) => n.to_string(),
            Cursor::Text(s) => s.clone(),
        }
    }
}

/// Pagination object of the Lead Finder result lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Pagination {
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub offset: u64,
    #[serde(deserialize_with = "lenient::boolean")]
    pub has_more: bool,
    #[serde(deserialize_with = "lenient::opt")]
    pub next_cursor: Option<Cursor>,
}

/// An error of one source in a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunError {
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
}

/// One search attempt inside query diagnostics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchAttempt {
    #[serde(deserialize_with = "lenient::int")]
    pub attempt: u64,
    #[serde(deserialize_with = "lenient::string")]
    pub stage: String,
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
    #[serde(deserialize_with = "lenient::int")]
    pub fetched: u64,
    #[serde(deserialize_with = "lenient::string")]
    pub provider_query: String,
    pub filters: Value,
}

/// Per-query funnel of a run: fetched → normalized → ranked → lead extracted
/// → quality kept → stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QueryDiagnostics {
    #[serde(deserialize_with = "lenient::string")]
    pub query: String,
    #[serde(deserialize_with = "lenient::int")]
    pub fetched: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub normalized: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub ranked: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub lead_extracted: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub quality_kept: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub stored: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub max_results: u64,
    #[serde(deserialize_with = "lenient::boolean")]
    pub current_run_depth_expanded: bool,
    #[serde(deserialize_with = "lenient::vec")]
    pub search_attempts: Vec<SearchAttempt>,
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
}

/// Status of one source inside a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SourceStatus {
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
    #[serde(deserialize_with = "lenient::vec")]
    pub query_diagnostics: Vec<QueryDiagnostics>,
}

/// The latest run of a search (`latestRun`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LatestRun {
    #[serde(deserialize_with = "lenient::string")]
    pub run_id: String,
    pub status: RunStatus,
    #[serde(deserialize_with = "lenient::object")]
    pub counts: Map<String, Value>,
    #[serde(deserialize_with = "lenient::vec")]
    pub errors: Vec<RunError>,
    #[serde(deserialize_with = "lenient::vec")]
    pub source_status: Vec<SourceStatus>,
    #[serde(deserialize_with = "lenient::string")]
    pub trigger_run_id: String,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub cancelled_at: Option<String>,
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// The handle returned when a run is started (`run`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunHandle {
    #[serde(deserialize_with = "lenient::string")]
    pub run_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub trigger_run_id: String,
    pub status: RunStatus,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub continuation_retry_after: Option<String>,
    #[serde(deserialize_with = "lenient::object")]
    pub counts: Map<String, Value>,
}

/// Response of `GET /api/lead-finder/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchPage {
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
    #[serde(deserialize_with = "lenient::vec")]
    pub results: Vec<LeadResult>,
    #[serde(deserialize_with = "lenient::or_default")]
    pub pagination: Pagination,
    #[serde(deserialize_with = "lenient::opt")]
    pub latest_run: Option<LatestRun>,
}

/// Paging of `GET /api/lead-finder/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchPageQuery {
    /// 1 to 500.
    pub limit: Option<u64>,
    pub offset: Option<u64>,
    pub cursor: Option<u64>,
}

/// Response of `POST /api/lead-finder/{id}/run`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunResponse {
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
    #[serde(deserialize_with = "lenient::or_default")]
    pub run: RunHandle,
    #[serde(deserialize_with = "lenient::string")]
    pub disposition: String,
    #[serde(deserialize_with = "lenient::string")]
    pub dispatch: String,
}

/// One search of a run-all answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunAllItem {
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    pub status: RunStatus,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub run_id: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub trigger_run_id: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub code: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub message: Option<String>,
}

/// Response of `POST /api/lead-finder/run`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunAllResponse {
    #[serde(deserialize_with = "lenient::string")]
    pub surface: String,
    #[serde(deserialize_with = "lenient::int")]
    pub matched_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub queued_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub existing_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub blocked_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub failed_count: u64,
    #[serde(deserialize_with = "lenient::int")]
    pub skipped_count: u64,
    #[serde(deserialize_with = "lenient::vec")]
    pub results: Vec<RunAllItem>,
    #[serde(deserialize_with = "lenient::string")]
    pub agent_summary: String,
}

/// Which result an enrichment profile belongs to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentResultRef {
    #[serde(deserialize_with = "lenient::string")]
    pub result_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub lead_id: String,
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
}

/// Whether and why an enrichment profile was truncated.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Truncation {
    #[serde(deserialize_with = "lenient::boolean")]
    pub truncated: bool,
    #[serde(deserialize_with = "lenient::vec")]
    pub reasons: Vec<String>,
}

/// A result's enrichment profile; `person` and `company` are not shown by the
/// contract and kept as JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentProfile {
    #[serde(deserialize_with = "lenient::int")]
    pub schema_version: u64,
    #[serde(deserialize_with = "lenient::string")]
    pub provider: String,
    pub person: Value,
    pub company: Value,
    #[serde(deserialize_with = "lenient::string")]
    pub observed_at: String,
    #[serde(deserialize_with = "lenient::string")]
    pub provider_observed_at: String,
    #[serde(deserialize_with = "lenient::or_default")]
    pub truncation: Truncation,
}

/// An enrichment field the results filter can use.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FieldDescriptor {
    #[serde(deserialize_with = "lenient::string")]
    pub path: String,
    #[serde(deserialize_with = "lenient::string")]
    pub label: String,
    #[serde(deserialize_with = "lenient::string")]
    pub namespace: String,
    #[serde(deserialize_with = "lenient::string")]
    pub group: String,
    pub value_type: ValueType,
    #[serde(deserialize_with = "lenient::vec")]
    pub operators: Vec<Operator>,
    #[serde(deserialize_with = "lenient::int")]
    pub coverage_count: u64,
}

/// Response of the enrichment operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentResponse {
    #[serde(deserialize_with = "lenient::or_default")]
    pub result: EnrichmentResultRef,
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    #[serde(deserialize_with = "lenient::or_default")]
    pub enrichment_profile: EnrichmentProfile,
    #[serde(deserialize_with = "lenient::vec")]
    pub fields: Vec<FieldDescriptor>,
}

/// A typed predicate value: string, number or boolean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PredicateValue {
    /// A boolean value.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string (at most 512 chars).
    Text(String),
}

impl std::fmt::Display for PredicateValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PredicateValue::Bool(b) => write!(f, "{b}"),
            PredicateValue::Number(n) => write!(f, "{n}"),
            PredicateValue::Text(s) => write!(f, "{s:?}"),
        }
    }
}

/// One results-query predicate over an enrichment path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Predicate {
    pub path: String,
    pub operator: Operator,
    pub value: PredicateValue,
}

/// Body of `POST /api/lead-finder/{id}/results/query`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ResultsQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    pub predicates: Vec<Predicate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<Sort>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

/// The query echoed back by the results query.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QueryEcho {
    #[serde(deserialize_with = "lenient::opt_string")]
    pub q: Option<String>,
    #[serde(deserialize_with = "lenient::vec")]
    pub predicates: Vec<Predicate>,
}

/// Response of the results query (rows and pagination per assumed-operations).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ResultsPage {
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
    #[serde(deserialize_with = "lenient::or_default")]
    pub query: QueryEcho,
    #[serde(deserialize_with = "lenient::vec")]
    pub results: Vec<LeadResult>,
    #[serde(deserialize_with = "lenient::or_default")]
    pub pagination: Pagination,
}

/// Body of the create-search operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateSearch {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub kind: SearchKind,
    pub intent: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seller_context: Option<String>,
    pub source_plans: Vec<SourcePlan>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<SearchDetails>,
}

/// Response of the optional list-searches route.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchList {
    #[serde(deserialize_with = "lenient::vec")]
    pub searches: Vec<Search>,
}

/// `{search}` envelope of create-search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchEnvelope {
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
}
