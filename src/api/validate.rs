//! The documented bounds of the contract (Limits table, source-plan rules,
//! query bounds), checked before a round trip. The client runs these before
//! sending and the demo service runs the same checks, so both agree on every
//! message: a field path, a colon, and what is allowed.

use std::fmt;

use super::model::*;

/// Largest int the contract allows (2^53 - 1).
pub const MAX_INT: u64 = 9_007_199_254_740_991;

/// A validation failure naming the offending field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Field path in the request, e.g. `sourcePlans[0].query[1]`.
    pub path: String,
    /// What is allowed.
    pub message: String,
}

impl FieldError {
    /// A failure at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// The most failures one validation reports; past it they are only counted
/// and summed up in one last entry (`…and N more`), so no input, however
/// large, makes an unbounded error list.
pub(crate) const MAX_ERRORS: usize = 50;

/// The contract's largest page of a results query (`limit` 1 to 100).
pub(crate) const RESULTS_PAGE_MAX: u64 = 100;
/// The contract's largest page of `GET /api/lead-finder/{id}` (`limit` at
/// most 500).
pub(crate) const SEARCH_PAGE_MAX: u64 = 500;
/// The contract's largest roster page (`limit` 1 to 200).
pub(crate) const ROSTER_PAGE_MAX: u64 = 200;
/// The contract's largest page of threads or of a thread's messages
/// (`limit` at most 200).
pub(crate) const THREAD_PAGE_MAX: u64 = 200;

/// Collects failures while walking a request, at most [`MAX_ERRORS`] of
/// them (the rest are counted).
#[derive(Debug, Default)]
pub(crate) struct Errors {
    list: Vec<FieldError>,
    more: usize,
}

impl Errors {
    /// Records a failure at `path` (counted only, once the list is full).
    pub(crate) fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        if self.list.len() < MAX_ERRORS {
            self.list.push(FieldError::new(path, message));
        } else {
            self.more = self.more.saturating_add(1);
        }
    }

    /// Whether nothing failed so far.
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Checks that `s` has `min..=max` chars.
    fn chars(&mut self, path: impl Into<String>, s: &str, min: usize, max: usize) {
        let n = s.chars().count();
        if n < min || n > max {
            self.push(path, chars_message(min, max));
        }
    }

    /// Checks that a list has `min..=max` items.
    fn items(&mut self, path: impl Into<String>, n: usize, min: usize, max: usize) {
        if n < min || n > max {
            let msg = match (min, max) {
                (0, max) => format!("at most {max} items"),
                (min, usize::MAX) => format!("at least {min} item{}", plural(min)),
                (min, max) => format!("{min} to {max} items"),
            };
            self.push(path, msg);
        }
    }

    /// Ends the walk: `Ok` when nothing failed; otherwise the failures,
    /// with one last `…and N more` entry (empty path) when some were only
    /// counted.
    pub(crate) fn finish(self) -> Result<(), Vec<FieldError>> {
        let mut list = self.list;
        if list.is_empty() {
            return Ok(());
        }
        if self.more > 0 {
            list.push(FieldError::new("", format!("…and {} more", self.more)));
        }
        Err(list)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn chars_message(min: usize, max: usize) -> String {
    match (min, max) {
        (0, max) => format!("at most {max} chars"),
        (min, usize::MAX) => format!("at least {min} char{}", plural(min)),
        (min, max) => format!("{min} to {max} chars"),
    }
}

/// Checks a create-search body.
pub(crate) fn create_search(req: &CreateSearch) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if req.title.trim().is_empty() {
        e.push("title", "required");
    }
    if !req.kind.is_known() {
        e.push("kind", "one of recurring, static");
    }
    if req.intent.trim().is_empty() {
        e.push("intent", "required");
    }
    e.items("sourcePlans", req.source_plans.len(), 1, usize::MAX);
    for (i, plan) in req.source_plans.iter().enumerate() {
        source_plan_into(&mut e, &format!("sourcePlans[{i}]"), plan);
    }
    e.finish()
}

/// Checks one source plan; `prefix` is its path, e.g. `sourcePlans[0]`.
#[cfg(test)]
pub(crate) fn source_plan(prefix: &str, plan: &SourcePlan) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    source_plan_into(&mut e, prefix, plan);
    e.finish()
}

fn source_plan_into(e: &mut Errors, p: &str, plan: &SourcePlan) {
    if !plan.source_id.is_known() {
        e.push(format!("{p}.sourceId"), "must be network_people");
    }
    e.items(format!("{p}.query"), plan.query.len(), 1, usize::MAX);
    for (i, q) in plan.query.iter().enumerate() {
        e.chars(format!("{p}.query[{i}]"), q, 1, 240);
    }
    e.chars(format!("{p}.reason"), &plan.reason, 1, 240);
    if let Some(ResultTarget::Count { count }) = &plan.result_target
        && *count == 0
    {
        e.push(format!("{p}.resultTarget.count"), "must be greater than 0");
    }
    if let Some(r) = &plan.recurrence
        && !r.is_known()
    {
        e.push(format!("{p}.recurrence"), "one of finite, monitoring");
    }
    if let Some(g) = &plan.geography {
        geography_into(e, p, g);
    }
    if let Some(CompanySize {
        min: Some(min),
        max: Some(max),
    }) = &plan.company_size
        && min > max
    {
        e.push(format!("{p}.companySize"), "min must not exceed max");
    }
    if let Some(criteria) = &plan.person_criteria {
        person_criteria_into(e, p, criteria);
    }
    if let Some(prefs) = &plan.unresolved_preferences {
        e.items(format!("{p}.unresolvedPreferences"), prefs.len(), 0, 3);
        for (i, v) in prefs.iter().enumerate() {
            e.chars(format!("{p}.unresolvedPreferences[{i}]"), v, 1, 240);
        }
    }
    if let Some(criteria) = &plan.company_criteria {
        company_criteria_into(e, p, criteria);
    }
    if let Some(cohort) = &plan.ranked_company_cohort {
        cohort_into(e, p, cohort);
    }
}

fn geography_into(e: &mut Errors, p: &str, g: &Geography) {
    if g.mode != "explicit" {
        e.push(format!("{p}.geography.mode"), "must be explicit");
    }
    e.items(
        format!("{p}.geography.countryCodes"),
        g.country_codes.len(),
        1,
        usize::MAX,
    );
    for (i, c) in g.country_codes.iter().enumerate() {
        e.chars(format!("{p}.geography.countryCodes[{i}]"), c, 1, usize::MAX);
    }
    for (i, c) in g.city_names.iter().flatten().enumerate() {
        e.chars(format!("{p}.geography.cityNames[{i}]"), c, 1, usize::MAX);
    }
}

fn person_criteria_into(e: &mut Errors, p: &str, criteria: &[PersonCriterion]) {
    e.items(format!("{p}.personCriteria"), criteria.len(), 1, 12);
    for (i, c) in criteria.iter().enumerate() {
        let cp = format!("{p}.personCriteria[{i}]");
        e.chars(format!("{cp}.id"), &c.id, 0, 60);
        if !c.kind.is_known() {
            e.push(format!("{cp}.kind"), "must be current_title");
        }
        e.items(format!("{cp}.values"), c.values.len(), 1, 12);
        for (j, v) in c.values.iter().enumerate() {
            e.chars(format!("{cp}.values[{j}]"), v, 1, 120);
        }
    }
}

fn company_criteria_into(e: &mut Errors, p: &str, criteria: &[CompanyCriterion]) {
    e.items(format!("{p}.companyCriteria"), criteria.len(), 0, 12);
    for (i, c) in criteria.iter().enumerate() {
        let cp = format!("{p}.companyCriteria[{i}]");
        e.chars(format!("{cp}.id"), &c.id, 0, 60);
        if !c.kind.is_known() {
            e.push(
                format!("{cp}.kind"),
                "one of business_model, customer_type, offering, industry, exclusion, other",
            );
        }
        if !c.operator.is_known() {
            e.push(format!("{cp}.operator"), "one of is, is_not");
        }
        e.chars(format!("{cp}.value"), &c.value, 1, 120);
    }
    // Entries are AND-combined: `is X` and `is_not X` can never both pass.
    // The check compares pairs, so it runs only within the documented
    // bound (a longer list is already an error above).
    if criteria.len() <= 12 {
        for (i, a) in criteria.iter().enumerate() {
            for (j, b) in criteria.iter().enumerate().skip(i + 1) {
                if a.kind == b.kind
                    && a.value.trim().eq_ignore_ascii_case(b.value.trim())
                    && a.operator != b.operator
                {
                    e.push(
                        format!("{p}.companyCriteria[{j}]"),
                        format!(
                            "contradicts companyCriteria[{i}]: entries are AND-combined, so `is` and `is_not` the same value can never both pass; put alternatives inside one value"
                        ),
                    );
                }
            }
        }
    }
}

fn cohort_into(e: &mut Errors, p: &str, cohort: &RankedCompanyCohort) {
    let cp = format!("{p}.rankedCompanyCohort");
    let limit = match cohort {
        RankedCompanyCohort::Default { limit } => limit,
        RankedCompanyCohort::Named { source_id, limit }
        | RankedCompanyCohort::Attached { source_id, limit } => {
            e.chars(format!("{cp}.sourceId"), source_id, 1, 120);
            limit
        }
        RankedCompanyCohort::Metric { metric, limit } => {
            if !metric.is_known() {
                e.push(format!("{cp}.metric"), "one of revenue, market_cap");
            }
            limit
        }
    };
    if *limit == Some(0) {
        e.push(format!("{cp}.limit"), "must be greater than 0");
    }
}

/// Checks a results-query body.
pub(crate) fn results_query(req: &ResultsQuery) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if let Some(q) = &req.q {
        e.chars("q", q, 0, 128);
    }
    e.items("predicates", req.predicates.len(), 0, 5);
    for (i, p) in req.predicates.iter().enumerate() {
        e.chars(format!("predicates[{i}].path"), &p.path, 1, 128);
        if !p.operator.is_known() {
            e.push(
                format!("predicates[{i}].operator"),
                "one of contains, eq, gt, gte, lt, lte",
            );
        }
        match &p.value {
            PredicateValue::Text(s) => e.chars(format!("predicates[{i}].value"), s, 0, 512),
            PredicateValue::Number(n) if !n.is_finite() => {
                e.push(format!("predicates[{i}].value"), "must be a finite number");
            }
            _ => {}
        }
    }
    if let Some(s) = &req.sort
        && !s.is_known()
    {
        e.push("sort", "must be score_desc");
    }
    if let Some(c) = &req.cursor {
        e.chars("cursor", c, 1, 1024);
    }
    if let Some(l) = req.limit
        && !(1..=RESULTS_PAGE_MAX).contains(&l)
    {
        e.push("limit", "1 to 100");
    }
    e.finish()
}

/// Checks the paging of `GET /api/lead-finder/{id}`.
pub(crate) fn search_page(q: &SearchPageQuery) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if let Some(l) = q.limit
        && !(1..=SEARCH_PAGE_MAX).contains(&l)
    {
        e.push("limit", "greater than 0 and at most 500");
    }
    e.finish()
}

/// Checks an add-leads batch for a campaign of `channel`: 1 to 1000 rows, each
/// carrying the channel's identity.
pub(crate) fn add_leads(channel: &Channel, leads: &[LeadInput]) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    e.items("leads", leads.len(), 1, 1000);
    for (i, lead) in leads.iter().enumerate() {
        if let Some(field) = missing_identity(channel, lead) {
            e.push(format!("row {i}"), format!("missing {field}"));
        }
    }
    e.finish()
}

/// The identity field a lead lacks for `channel`, if any.
pub(crate) fn missing_identity(channel: &Channel, lead: &LeadInput) -> Option<&'static str> {
    let has = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    match channel {
        Channel::Email if !has(&lead.email) => Some("email"),
        Channel::Network if !has(&lead.network_url) => Some("network_url"),
        _ => None,
    }
}

/// Checks a delete-leads body: 1 to 500 ids, or all.
pub(crate) fn delete_leads(req: &DeleteLeads) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    match req {
        DeleteLeads::Ids { ids } => e.items("ids", ids.len(), 1, 500),
        DeleteLeads::All { all } if !*all => e.push("all", "must be true"),
        DeleteLeads::All { .. } => {}
    }
    e.finish()
}

/// Checks the roster-list query.
pub(crate) fn roster_query(q: &RosterQuery) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if q.page == Some(0) {
        e.push("page", "at least 1");
    }
    if let Some(l) = q.limit
        && !(1..=ROSTER_PAGE_MAX).contains(&l)
    {
        e.push("limit", "1 to 200");
    }
    e.finish()
}

/// Checks the generated-messages query.
pub(crate) fn generated_messages_query(q: &GeneratedMessagesQuery) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if let Some(s) = &q.status
        && !matches!(s.as_str(), "draft" | "pending" | "sent" | "all")
    {
        e.push("status", "one of draft, pending, sent, all");
    }
    if let Some(l) = q.prospect_limit
        && !(1..=100).contains(&l)
    {
        e.push("prospect_limit", "1 to 100");
    }
    e.finish()
}

/// Checks the paging of thread lists and thread messages (`limit` 1 to 200).
pub(crate) fn thread_paging(page: Option<u64>, limit: Option<u64>) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if page == Some(0) {
        e.push("page", "greater than 0");
    }
    if let Some(l) = limit
        && !(1..=THREAD_PAGE_MAX).contains(&l)
    {
        e.push("limit", "1 to 200");
    }
    e.finish()
}

/// Checks a create-thread body: at least one draft field, no attachments.
pub(crate) fn create_thread(req: &CreateThread) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if req
        .draft_attachments
        .as_ref()
        .is_some_and(|a| !a.is_empty())
    {
        e.push(
            "draft_attachments",
            "attachments can only be added in the web dashboard",
        );
    }
    let any_draft_field = req.participant_email.is_some()
        || req.participant_name.is_some()
        || req.draft_subject.is_some()
        || req.draft_body_text.is_some()
        || req.draft_body_html.is_some()
        || req.draft_cc.is_some()
        || req.draft_bcc.is_some();
    if !any_draft_field {
        e.push("thread", "at least one draft field is required");
    }
    e.finish()
}

/// Checks a patch-thread body: at least one field.
pub(crate) fn patch_thread(req: &PatchThread) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    if req == &PatchThread::default() {
        e.push("thread", "at least one valid field is required");
    }
    if let Some(s) = &req.status
        && !matches!(s, ThreadStatus::Active | ThreadStatus::Archived)
    {
        e.push("status", "one of active, archived");
    }
    if req.unread_count.is_some_and(|n| n > MAX_INT) {
        e.push("unread_count", format!("0 to {MAX_INT}"));
    }
    e.finish()
}

/// Checks a replacement sequence: at least one node and `end` last.
pub(crate) fn sequence(nodes: &[SequenceNodeInput]) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    match nodes.last() {
        None => e.push("sequence_nodes", "at least 1 item"),
        Some(last) if last.kind != NodeType::End => {
            e.push(
                format!("sequence_nodes[{}].type", nodes.len() - 1),
                "the last node must be end",
            );
        }
        Some(_) => {}
    }
    for (i, n) in nodes.iter().enumerate() {
        if !n.kind.is_known() {
            e.push(
                format!("sequence_nodes[{i}].type"),
                "one of connection_request, message, email, end",
            );
        }
        if n.kind == NodeType::End && i + 1 != nodes.len() {
            e.push(
                format!("sequence_nodes[{i}].type"),
                "end must be the last node",
            );
        }
    }
    e.finish()
}

/// Checks a discovery-pass code: 1 to 100 chars.
pub(crate) fn redeem_code(code: &str) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    e.chars("code", code, 1, 100);
    e.finish()
}

/// Checks a sending-domain name: a plausible hostname.
pub(crate) fn domain_name(name: &str) -> Result<(), Vec<FieldError>> {
    let mut e = Errors::default();
    let labels: Vec<&str> = name.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if name.len() > 253 || labels.len() < 2 || !labels.iter().all(label_ok) {
        e.push("domain", "a hostname such as mail.example.com");
    }
    e.finish()
}

/// Joins failures into one line for an error message.
pub(crate) fn join(errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> SourcePlan {
        SourcePlan {
            source_id: SourceId::NetworkPeople,
            query: vec!["vp sales".into()],
            reason: "they buy".into(),
            ..Default::default()
        }
    }

    #[test]
    fn query_strings_are_bounded_at_240_chars() {
        let mut p = plan();
        p.query = vec!["a".repeat(240), "b".repeat(241), String::new()];
        let errs = source_plan("sourcePlans[0]", &p).unwrap_err();
        let paths: Vec<_> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(
            paths,
            [
                "sourcePlans[0].query[1]: 1 to 240 chars",
                "sourcePlans[0].query[2]: 1 to 240 chars"
            ]
        );
    }

    #[test]
    fn contradicting_company_criteria_are_rejected() {
        let mut p = plan();
        let c = |op| CompanyCriterion {
            id: "c".into(),
            kind: CompanyCriterionKind::Industry,
            operator: op,
            value: "SaaS".into(),
        };
        p.company_criteria = Some(vec![c(CriterionOperator::Is), c(CriterionOperator::IsNot)]);
        let errs = source_plan("p", &p).unwrap_err();
        assert!(errs[0].path == "p.companyCriteria[1]" && errs[0].message.contains("AND"));
    }

    fn criterion(i: usize, op: CriterionOperator, value: &str) -> CompanyCriterion {
        CompanyCriterion {
            id: format!("c{i}"),
            kind: CompanyCriterionKind::Industry,
            operator: op,
            value: value.into(),
        }
    }

    #[test]
    fn an_overlong_criteria_list_is_not_compared_pairwise() {
        let mut p = plan();
        let ops = [CriterionOperator::Is, CriterionOperator::IsNot];
        p.company_criteria = Some(
            (0..400)
                .map(|i| criterion(i, ops[i % 2].clone(), "SaaS"))
                .collect(),
        );
        let errs = source_plan("p", &p).unwrap_err();
        let text: Vec<String> = errs.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["p.companyCriteria: at most 12 items"]);
    }

    #[test]
    fn the_error_list_is_capped_with_a_count_of_the_rest() {
        let mut p = plan();
        p.company_criteria = Some(
            (0..300)
                .map(|i| criterion(i, CriterionOperator::Is, ""))
                .collect(),
        );
        let errs = source_plan("p", &p).unwrap_err();
        assert_eq!(errs.len(), MAX_ERRORS + 1);
        assert_eq!(errs[0].to_string(), "p.companyCriteria: at most 12 items");
        assert_eq!(
            errs[MAX_ERRORS - 1].to_string(),
            "p.companyCriteria[48].value: 1 to 120 chars"
        );
        // 1 + 300 failures, 50 listed.
        assert_eq!(errs[MAX_ERRORS].to_string(), "…and 251 more");
        assert!(join(&errs).ends_with("1 to 120 chars; …and 251 more"));
    }

    #[test]
    fn results_query_bounds() {
        let mut q = ResultsQuery {
            q: Some("x".repeat(128)),
            limit: Some(100),
            ..Default::default()
        };
        assert!(results_query(&q).is_ok());
        q.q = Some("x".repeat(129));
        q.limit = Some(101);
        let errs = results_query(&q).unwrap_err();
        assert_eq!(errs.len(), 2);
        assert_eq!(errs[0].to_string(), "q: at most 128 chars");
        assert_eq!(errs[1].to_string(), "limit: 1 to 100");
    }

    #[test]
    fn rows_without_identity_name_their_index() {
        let leads = vec![
            LeadInput {
                email: Some("a@x.io".into()),
                ..Default::default()
            },
            LeadInput::default(),
        ];
        let errs = add_leads(&Channel::Email, &leads).unwrap_err();
        assert_eq!(errs[0].to_string(), "row 1: missing email");
    }

    #[test]
    fn domain_names() {
        assert!(domain_name("mail.example.com").is_ok());
        assert!(domain_name("example").is_err());
        assert!(domain_name("bad..com").is_err());
        assert!(domain_name("-x.com").is_err());
    }
}
