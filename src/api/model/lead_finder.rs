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
    /// The search's id (`searchId`).
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    /// The search's title.
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    /// The search's description.
    #[serde(deserialize_with = "lenient::string")]
    pub description: String,
    /// `recurring` or `static`.
    pub kind: SearchKind,
    /// The product surface; `lead-finder`.
    #[serde(deserialize_with = "lenient::string")]
    pub surface: String,
    /// Hash of the search definition, 64 characters, or `None` (`definitionHash`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub definition_hash: Option<String>,
    /// What the search is for, in words.
    #[serde(deserialize_with = "lenient::string")]
    pub intent: String,
    /// What the seller offers, as context for the search (`sellerContext`).
    #[serde(deserialize_with = "lenient::string")]
    pub seller_context: String,
    /// Where and how to look for people (`sourcePlans`).
    #[serde(deserialize_with = "lenient::vec")]
    pub source_plans: Vec<SourcePlan>,
    /// Required by the contract: `None` is written as `{}`, and `{}` (no
    /// notes at all) is read as `None`, so a search read back is the same.
    #[serde(
        deserialize_with = "details_or_none",
        serialize_with = "details_or_empty"
    )]
    pub details: Option<SearchDetails>,
    /// The latest run's id, if the search ran (`lastRunId`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub last_run_id: Option<String>,
    /// Number of leads found (`leadCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub lead_count: u64,
    /// Number of results stored (`resultCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub result_count: u64,
    /// Number of leads contacted (`contactedCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub contacted_count: u64,
    /// When the search was created (`createdAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// When the search last changed (`updatedAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// Reads details leniently; an object with no notes is no details.
fn details_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<SearchDetails>, D::Error> {
    Ok(lenient::opt::<D, SearchDetails>(d)?.filter(|d| *d != SearchDetails::default()))
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
    /// The channel the leads are for.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub channel: Option<String>,
    /// The signal the search looks for.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub signal: Option<String>,
    /// The kind of lead expected (`expectedLead`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub expected_lead: Option<String>,
    /// Why the search should find good leads (`whyThisShouldWork`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub why_this_should_work: Option<String>,
    /// Preferences the planner assumed (`plannerAssumedPreferences`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planner_assumed_preferences: Option<Vec<String>>,
}

/// One source plan of a search (element of `sourcePlans`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SourcePlan {
    /// The source to search (`sourceId`).
    pub source_id: SourceId,
    /// Search queries, at least one, each 1 to 240 chars.
    #[serde(deserialize_with = "lenient::vec")]
    pub query: Vec<String>,
    /// Why this source, 1 to 240 chars.
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
    /// How many results to aim for (`resultTarget`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub result_target: Option<ResultTarget>,
    /// `finite` or `monitoring`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub recurrence: Option<Recurrence>,
    /// Where the people are.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub geography: Option<Geography>,
    /// Headcount bounds of their companies (`companySize`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub company_size: Option<CompanySize>,
    /// Criteria on the people, 1 to 12 (`personCriteria`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub person_criteria: Option<Vec<PersonCriterion>>,
    /// Preferences not yet resolved, at most 3 (`unresolvedPreferences`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub unresolved_preferences: Option<Vec<String>>,
    /// Criteria on the companies, all of which must pass (`companyCriteria`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt"
    )]
    pub company_criteria: Option<Vec<CompanyCriterion>>,
    /// The cohort of companies to rank (`rankedCompanyCohort`).
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
        /// How many results.
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
    /// Country codes, at least one (`countryCodes`).
    #[serde(deserialize_with = "lenient::vec")]
    pub country_codes: Vec<String>,
    /// City names within them (`cityNames`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city_names: Option<Vec<String>>,
}

/// Company headcount bounds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanySize {
    /// Smallest headcount.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_int"
    )]
    pub min: Option<u64>,
    /// Largest headcount.
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
    /// The criterion's id, at most 60 chars.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// What the values match (`current_title`).
    pub kind: PersonCriterionKind,
    /// Values to match, 1 to 12, each 1 to 120 chars.
    #[serde(deserialize_with = "lenient::vec")]
    pub values: Vec<String>,
}

/// A company criterion; every entry is AND-combined.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanyCriterion {
    /// The criterion's id, at most 60 chars.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// What the value is about, e.g. `industry`.
    pub kind: CompanyCriterionKind,
    /// `is` or `is_not`.
    pub operator: CriterionOperator,
    /// The value, 1 to 120 chars; OR alternatives go inside it.
    #[serde(deserialize_with = "lenient::string")]
    pub value: String,
}

/// The ranked company cohort of a source plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RankedCompanyCohort {
    /// The service's default cohort.
    Default {
        /// Most companies in the cohort, greater than 0.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
    /// A named cohort.
    Named {
        /// The cohort's source, 1 to 120 chars (`sourceId`).
        #[serde(rename = "sourceId")]
        source_id: String,
        /// Most companies in the cohort, greater than 0.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
    /// An attached cohort.
    Attached {
        /// The cohort's source, 1 to 120 chars (`sourceId`).
        #[serde(rename = "sourceId")]
        source_id: String,
        /// Most companies in the cohort, greater than 0.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_int"
        )]
        limit: Option<u64>,
    },
    /// Companies ranked by a metric.
    Metric {
        /// The metric to rank by.
        metric: CohortMetric,
        /// Most companies in the cohort, greater than 0.
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
    /// The lead's id.
    #[serde(deserialize_with = "lenient::string")]
    pub id: String,
    /// `type` on the wire (`person` observed).
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    pub kind: String,
    /// Full name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Job title.
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    /// Company name.
    #[serde(deserialize_with = "lenient::string")]
    pub company: String,
    /// The company's domain (`companyDomain`).
    #[serde(deserialize_with = "lenient::string")]
    pub company_domain: String,
    /// Email address.
    #[serde(deserialize_with = "lenient::string")]
    pub email: String,
    /// Profile URL on the network (`networkUrl`).
    #[serde(deserialize_with = "lenient::string")]
    pub network_url: String,
}

/// Summary of a result's enrichment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentSummary {
    /// Enrichment status (`available` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    /// Version of the enrichment schema (`schemaVersion`).
    #[serde(deserialize_with = "lenient::int")]
    pub schema_version: u64,
    /// When the data was observed (`observedAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub observed_at: String,
    /// Number of enrichment fields (`fieldCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub field_count: u64,
}

/// A Lead Finder result (element of `results`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LeadResult {
    /// The result's id (`resultId`).
    #[serde(deserialize_with = "lenient::string")]
    pub result_id: String,
    /// The search that found it (`searchId`).
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    /// The run that found it (`runId`).
    #[serde(deserialize_with = "lenient::string")]
    pub run_id: String,
    /// The lead's id (`leadId`).
    #[serde(deserialize_with = "lenient::string")]
    pub lead_id: String,
    /// The source it came from (`sourceId`).
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    /// The URL of the source search (`searchUrl`).
    #[serde(deserialize_with = "lenient::string")]
    pub search_url: String,
    /// The query that found it.
    #[serde(deserialize_with = "lenient::string")]
    pub query: String,
    /// Why the search looked here (`searchReason`).
    #[serde(deserialize_with = "lenient::string")]
    pub search_reason: String,
    /// Why the result is a signal (`signalReason`).
    #[serde(deserialize_with = "lenient::string")]
    pub signal_reason: String,
    /// The result's title.
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    /// The result's text.
    #[serde(deserialize_with = "lenient::string")]
    pub content: String,
    /// When the result's content occurred (`occurredAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub occurred_at: String,
    /// When the result was stored (`createdAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// Not shown by the contract: kept as JSON.
    pub author: Value,
    /// Not shown by the contract: kept as JSON.
    pub lead: Value,
    /// Not shown by the contract: kept as JSON.
    pub metadata: Value,
    /// The person the result is about (`canonicalLead`).
    #[serde(deserialize_with = "lenient::opt")]
    pub canonical_lead: Option<CanonicalLead>,
    /// The company the result names (`entityCompany`).
    #[serde(deserialize_with = "lenient::string")]
    pub entity_company: String,
    /// The person the result names (`entityPerson`).
    #[serde(deserialize_with = "lenient::string")]
    pub entity_person: String,
    /// The result's score; higher ranks first.
    #[serde(deserialize_with = "lenient::float")]
    pub score: f64,
    /// Quality tier (`qualityTier`; `excellent` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub quality_tier: String,
    /// The result's status (values not shown by the contract).
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    /// Summary of the result's enrichment (`enrichmentSummary`).
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
                        .map(crate::num::f64_to_u64)
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
    /// Total number of results.
    #[serde(deserialize_with = "lenient::int")]
    pub total: u64,
    /// The page size of this answer (`limit`).
    #[serde(deserialize_with = "lenient::int")]
    pub limit: u64,
    /// Offset of this page.
    #[serde(deserialize_with = "lenient::int")]
    pub offset: u64,
    /// Whether more results follow (`hasMore`).
    #[serde(deserialize_with = "lenient::boolean")]
    pub has_more: bool,
    /// Cursor of the next page (`nextCursor`).
    #[serde(deserialize_with = "lenient::opt")]
    pub next_cursor: Option<Cursor>,
}

/// An error of one source in a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunError {
    /// The source that failed (`sourceId`).
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    /// What went wrong.
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
    /// The error code.
    #[serde(deserialize_with = "lenient::string")]
    pub code: String,
}

/// One search attempt inside query diagnostics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchAttempt {
    /// The attempt's number.
    #[serde(deserialize_with = "lenient::int")]
    pub attempt: u64,
    /// The attempt's stage (`exact` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub stage: String,
    /// Why the attempt was made.
    #[serde(deserialize_with = "lenient::string")]
    pub reason: String,
    /// Items the attempt fetched.
    #[serde(deserialize_with = "lenient::int")]
    pub fetched: u64,
    /// The query sent to the provider (`providerQuery`).
    #[serde(deserialize_with = "lenient::string")]
    pub provider_query: String,
    /// The filters sent to the provider, kept as JSON.
    pub filters: Value,
}

/// Per-query funnel of a run: fetched → normalized → ranked → lead extracted
/// → quality kept → stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct QueryDiagnostics {
    /// The query these numbers are for.
    #[serde(deserialize_with = "lenient::string")]
    pub query: String,
    /// Items fetched.
    #[serde(deserialize_with = "lenient::int")]
    pub fetched: u64,
    /// Items normalized.
    #[serde(deserialize_with = "lenient::int")]
    pub normalized: u64,
    /// Items ranked.
    #[serde(deserialize_with = "lenient::int")]
    pub ranked: u64,
    /// Items a lead was extracted from (`leadExtracted`).
    #[serde(deserialize_with = "lenient::int")]
    pub lead_extracted: u64,
    /// Items kept by the quality filter (`qualityKept`).
    #[serde(deserialize_with = "lenient::int")]
    pub quality_kept: u64,
    /// Results stored.
    #[serde(deserialize_with = "lenient::int")]
    pub stored: u64,
    /// Most results the query may yield (`maxResults`).
    #[serde(deserialize_with = "lenient::int")]
    pub max_results: u64,
    /// The `currentRunDepthExpanded` flag.
    #[serde(deserialize_with = "lenient::boolean")]
    pub current_run_depth_expanded: bool,
    /// The search attempts made (`searchAttempts`).
    #[serde(deserialize_with = "lenient::vec")]
    pub search_attempts: Vec<SearchAttempt>,
    /// The query's error, if any.
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
}

/// Status of one source inside a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SourceStatus {
    /// The source (`sourceId`).
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
    /// The source's status in the run.
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    /// The source's error, if any.
    #[serde(deserialize_with = "lenient::string")]
    pub error: String,
    /// Per-query funnels (`queryDiagnostics`).
    #[serde(deserialize_with = "lenient::vec")]
    pub query_diagnostics: Vec<QueryDiagnostics>,
}

/// The latest run of a search (`latestRun`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LatestRun {
    /// The run's id (`runId`).
    #[serde(deserialize_with = "lenient::string")]
    pub run_id: String,
    /// Where the run is.
    pub status: RunStatus,
    /// Run counters; contents not shown by the contract.
    #[serde(deserialize_with = "lenient::object")]
    pub counts: Map<String, Value>,
    /// Errors of the run's sources.
    #[serde(deserialize_with = "lenient::vec")]
    pub errors: Vec<RunError>,
    /// Status of each source (`sourceStatus`).
    #[serde(deserialize_with = "lenient::vec")]
    pub source_status: Vec<SourceStatus>,
    /// The id of the run's trigger (`triggerRunId`).
    #[serde(deserialize_with = "lenient::string")]
    pub trigger_run_id: String,
    /// When the run was cancelled, if it was (`cancelledAt`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub cancelled_at: Option<String>,
    /// When the run was created (`createdAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub created_at: String,
    /// When the run last changed (`updatedAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub updated_at: String,
}

/// The handle returned when a run is started (`run`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunHandle {
    /// The run's id (`runId`).
    #[serde(deserialize_with = "lenient::string")]
    pub run_id: String,
    /// The id of the run's trigger (`triggerRunId`).
    #[serde(deserialize_with = "lenient::string")]
    pub trigger_run_id: String,
    /// Where the run is (`queued` observed).
    pub status: RunStatus,
    /// Date-time from which a continuation may be retried (`continuationRetryAfter`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub continuation_retry_after: Option<String>,
    /// Run counters; contents not shown by the contract.
    #[serde(deserialize_with = "lenient::object")]
    pub counts: Map<String, Value>,
}

/// Response of `GET /api/lead-finder/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchPage {
    /// The search whose results this page holds (its metadata and run status).
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
    /// This page of its results.
    #[serde(deserialize_with = "lenient::vec")]
    pub results: Vec<LeadResult>,
    /// Where this page is in the whole.
    #[serde(deserialize_with = "lenient::or_default")]
    pub pagination: Pagination,
    /// The search's latest run, if any (`latestRun`).
    #[serde(deserialize_with = "lenient::opt")]
    pub latest_run: Option<LatestRun>,
}

/// Paging of `GET /api/lead-finder/{id}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchPageQuery {
    /// 1 to 500.
    pub limit: Option<u64>,
    /// Offset into the results.
    pub offset: Option<u64>,
    /// Numeric cursor from the previous page.
    pub cursor: Option<u64>,
}

/// Response of `POST /api/lead-finder/{id}/run`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunResponse {
    /// The search that was run.
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
    /// The started run.
    #[serde(deserialize_with = "lenient::or_default")]
    pub run: RunHandle,
    /// What happened to the request (`queued` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub disposition: String,
    /// How the run was dispatched (`recorded` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub dispatch: String,
}

/// One search of a run-all answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunAllItem {
    /// The search (`searchId`).
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    /// The search's title.
    #[serde(deserialize_with = "lenient::string")]
    pub title: String,
    /// The search's run status.
    pub status: RunStatus,
    /// The started run, if any (`runId`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub run_id: Option<String>,
    /// The id of the run's trigger, if any (`triggerRunId`).
    #[serde(deserialize_with = "lenient::opt_string")]
    pub trigger_run_id: Option<String>,
    /// The error code for this search, if any.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub code: Option<String>,
    /// The message for this search, if any.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub message: Option<String>,
}

/// Response of `POST /api/lead-finder/run`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunAllResponse {
    /// The product surface; `lead-finder`.
    #[serde(deserialize_with = "lenient::string")]
    pub surface: String,
    /// Searches matched (`matchedCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub matched_count: u64,
    /// Searches queued (`queuedCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub queued_count: u64,
    /// Searches counted as existing (`existingCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub existing_count: u64,
    /// Searches blocked (`blockedCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub blocked_count: u64,
    /// Searches that failed (`failedCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub failed_count: u64,
    /// Searches skipped (`skippedCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub skipped_count: u64,
    /// One entry per search.
    #[serde(deserialize_with = "lenient::vec")]
    pub results: Vec<RunAllItem>,
    /// A summary in words (`agentSummary`).
    #[serde(deserialize_with = "lenient::string")]
    pub agent_summary: String,
}

/// Which result an enrichment profile belongs to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentResultRef {
    /// The result (`resultId`).
    #[serde(deserialize_with = "lenient::string")]
    pub result_id: String,
    /// The result's search (`searchId`).
    #[serde(deserialize_with = "lenient::string")]
    pub search_id: String,
    /// The result's lead (`leadId`).
    #[serde(deserialize_with = "lenient::string")]
    pub lead_id: String,
    /// The result's source (`sourceId`; `network_people` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub source_id: String,
}

/// Whether and why an enrichment profile was truncated.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Truncation {
    /// Whether the profile was cut short.
    #[serde(deserialize_with = "lenient::boolean")]
    pub truncated: bool,
    /// Why it was cut short.
    #[serde(deserialize_with = "lenient::vec")]
    pub reasons: Vec<String>,
}

/// A result's enrichment profile; `person` and `company` are not shown by the
/// contract and kept as JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentProfile {
    /// Version of the profile schema (`schemaVersion`; 1 observed).
    #[serde(deserialize_with = "lenient::int")]
    pub schema_version: u64,
    /// The enrichment provider.
    #[serde(deserialize_with = "lenient::string")]
    pub provider: String,
    /// Data about the person; not shown by the contract, kept as JSON.
    pub person: Value,
    /// Data about the company; not shown by the contract, kept as JSON.
    pub company: Value,
    /// When the data was observed (`observedAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub observed_at: String,
    /// When the provider observed the data (`providerObservedAt`).
    #[serde(deserialize_with = "lenient::string")]
    pub provider_observed_at: String,
    /// Whether and why the profile was truncated.
    #[serde(deserialize_with = "lenient::or_default")]
    pub truncation: Truncation,
}

/// An enrichment field the results filter can use.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FieldDescriptor {
    /// The enrichment path a predicate uses.
    #[serde(deserialize_with = "lenient::string")]
    pub path: String,
    /// Human-readable name.
    #[serde(deserialize_with = "lenient::string")]
    pub label: String,
    /// Namespace of the field (`person` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub namespace: String,
    /// Group of the field (`contact` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub group: String,
    /// Type of the field's values (`valueType`).
    pub value_type: ValueType,
    /// Operators the field can be filtered with.
    #[serde(deserialize_with = "lenient::vec")]
    pub operators: Vec<Operator>,
    /// How many results carry the field (`coverageCount`).
    #[serde(deserialize_with = "lenient::int")]
    pub coverage_count: u64,
}

/// Response of the enrichment operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnrichmentResponse {
    /// Which result the profile belongs to.
    #[serde(deserialize_with = "lenient::or_default")]
    pub result: EnrichmentResultRef,
    /// Enrichment status (`available` observed).
    #[serde(deserialize_with = "lenient::string")]
    pub status: String,
    /// The profile (`enrichmentProfile`).
    #[serde(deserialize_with = "lenient::or_default")]
    pub enrichment_profile: EnrichmentProfile,
    /// Fields the results filter can use.
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
    /// The enrichment path, 1 to 128 chars.
    pub path: String,
    /// How to compare.
    pub operator: Operator,
    /// The value to compare with.
    pub value: PredicateValue,
}

/// Body of `POST /api/lead-finder/{id}/results/query`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ResultsQuery {
    /// Free text, at most 128 chars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// At most 5 predicates, all of which must hold.
    pub predicates: Vec<Predicate>,
    /// Sort order (default `score_desc`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sort: Option<Sort>,
    /// Opaque cursor from the previous page, 1 to 1024 chars.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 25).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

/// The query echoed back by the results query.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QueryEcho {
    /// The free text, or `None`.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub q: Option<String>,
    /// The predicates.
    #[serde(deserialize_with = "lenient::vec")]
    pub predicates: Vec<Predicate>,
}

/// Response of the results query (rows and pagination per assumed-operations).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ResultsPage {
    /// The search the results query ran on (its metadata and run status).
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
    /// The query as the service read it.
    #[serde(deserialize_with = "lenient::or_default")]
    pub query: QueryEcho,
    /// The matching results of this page.
    #[serde(deserialize_with = "lenient::vec")]
    pub results: Vec<LeadResult>,
    /// Where this page is in the whole.
    #[serde(deserialize_with = "lenient::or_default")]
    pub pagination: Pagination,
}

/// Body of the create-search operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CreateSearch {
    /// The search's title.
    pub title: String,
    /// The search's description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `recurring` or `static`.
    pub kind: SearchKind,
    /// What the search is for, in words.
    pub intent: String,
    /// What the seller offers, as context for the search (`sellerContext`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seller_context: Option<String>,
    /// Where and how to look for people (`sourcePlans`).
    pub source_plans: Vec<SourcePlan>,
    /// Free-text planning notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<SearchDetails>,
}

/// Response of the optional list-searches route.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchList {
    /// The searches, newest first.
    #[serde(deserialize_with = "lenient::vec")]
    pub searches: Vec<Search>,
}

/// `{search}` envelope of create-search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchEnvelope {
    /// The search the route answered with (`search` of the envelope).
    #[serde(deserialize_with = "lenient::or_default")]
    pub search: Search,
}
