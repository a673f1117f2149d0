//! The create-search form turned into a request: checked on the client
//! with a message on the field (and line) it concerns, and the service's
//! field paths mapped back to the form's fields.

use super::super::super::form::Form;
use super::form::COMPANY_KINDS;
use crate::api::model::{
    CohortMetric, CompanyCriterion, CompanyCriterionKind, CompanySize, CreateSearch,
    CriterionOperator, Geography, PersonCriterion, PersonCriterionKind, RankedCompanyCohort,
    Recurrence, ResultTarget, SearchDetails, SearchKind, SourceId, SourcePlan,
};
use crate::api::validate;

/// Field errors: the form key, and the message shown on it.
pub(crate) type FieldErrors = Vec<(&'static str, String)>;

fn opt(s: &str) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.trim().to_owned())
}

fn split_commas(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_owned)
        .collect()
}

fn company_criterion(
    line: &str,
) -> Result<(CompanyCriterionKind, CriterionOperator, String), String> {
    let line = line.trim();
    let (kind_word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let kind_norm = kind_word.to_ascii_lowercase().replace('-', "_");
    if !COMPANY_KINDS.contains(&kind_norm.as_str()) {
        return Err(format!("start with a kind: {}", COMPANY_KINDS.join(", ")));
    }
    let rest = rest.trim_start();
    let lower = rest.to_ascii_lowercase();
    let (op, value) = if let Some(v) = ["is_not ", "is not ", "isnt ", "isn't "]
        .iter()
        .find(|p| lower.starts_with(**p))
        .map(|p| &rest[p.len()..])
    {
        (CriterionOperator::IsNot, v)
    } else if lower.starts_with("is ") {
        (CriterionOperator::Is, &rest[3..])
    } else {
        return Err("then `is` or `is not`, then the value".into());
    };
    Ok((
        CompanyCriterionKind::parse(&kind_norm),
        op,
        value.trim().to_owned(),
    ))
}

/// Reads the form's fields, collecting what is wrong on the way.
struct Reader<'a> {
    form: &'a Form,
    errors: FieldErrors,
}

impl Reader<'_> {
    fn number(&mut self, key: &'static str) -> Option<u64> {
        let v = self.form.value(key);
        if v.is_empty() {
            return None;
        }
        if let Ok(n) = v.replace([',', '_'], "").parse::<u64>() {
            Some(n)
        } else {
            self.errors.push((key, "a whole number, e.g. 50".into()));
            None
        }
    }

    fn result_target(&mut self) -> Option<ResultTarget> {
        match self
            .form
            .value("result_target")
            .to_ascii_lowercase()
            .as_str()
        {
            "" => None,
            "all" => Some(ResultTarget::All),
            other => {
                if let Ok(count) = other.replace([',', '_'], "").parse::<u64>() {
                    Some(ResultTarget::Count { count })
                } else {
                    self.errors
                        .push(("result_target", "a number, or all".into()));
                    None
                }
            }
        }
    }

    fn geography(&mut self) -> Option<Geography> {
        let countries: Vec<String> = split_commas(&self.form.value("countries"))
            .into_iter()
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let cities = split_commas(&self.form.value("cities"));
        if countries.is_empty() {
            if !cities.is_empty() {
                self.errors
                    .push(("countries", "cities need at least one country code".into()));
            }
            return None;
        }
        Some(Geography {
            mode: "explicit".into(),
            country_codes: countries,
            city_names: (!cities.is_empty()).then_some(cities),
        })
    }

    fn person_criteria(&self) -> Vec<PersonCriterion> {
        self.form
            .items("person_criteria")
            .iter()
            .enumerate()
            .map(|(i, line)| PersonCriterion {
                id: format!("p{}", i + 1),
                kind: PersonCriterionKind::CurrentTitle,
                values: line
                    .split([';', '|'])
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned)
                    .collect(),
            })
            .collect()
    }

    /// The company criteria, and the form line of each (lines that do not
    /// parse are left out, which shifts the request's indices).
    fn company_criteria(&mut self) -> (Vec<CompanyCriterion>, Vec<usize>) {
        let mut company = Vec::new();
        let mut lines = Vec::new();
        for (i, line) in self.form.items("company_criteria").iter().enumerate() {
            match company_criterion(line) {
                Ok((kind, operator, value)) => {
                    company.push(CompanyCriterion {
                        id: format!("c{}", i + 1),
                        kind,
                        operator,
                        value,
                    });
                    lines.push(i);
                }
                Err(e) => self
                    .errors
                    .push(("company_criteria", format!("line {}: {e}", i + 1))),
            }
        }
        (company, lines)
    }

    fn cohort(&mut self) -> Option<RankedCompanyCohort> {
        let limit = self.number("cohort_limit");
        let source_id = self.form.value("cohort_source");
        let metric = |metric| Some(RankedCompanyCohort::Metric { metric, limit });
        match self.form.choice("cohort") {
            "default" => Some(RankedCompanyCohort::Default { limit }),
            "named" => Some(RankedCompanyCohort::Named { source_id, limit }),
            "attached" => Some(RankedCompanyCohort::Attached { source_id, limit }),
            "metric: revenue" => metric(CohortMetric::Revenue),
            "metric: market_cap" => metric(CohortMetric::MarketCap),
            _ => {
                if !source_id.is_empty() || limit.is_some() {
                    self.errors.push((
                        "cohort",
                        "pick a cohort kind for the source id or limit".into(),
                    ));
                }
                None
            }
        }
    }

    fn details(&self) -> Option<SearchDetails> {
        let prefs = self.form.items("d_prefs");
        let details = SearchDetails {
            channel: opt(&self.form.value("d_channel")),
            signal: opt(&self.form.value("d_signal")),
            expected_lead: opt(&self.form.value("d_expected_lead")),
            why_this_should_work: opt(&self.form.value("d_why")),
            planner_assumed_preferences: (!prefs.is_empty()).then_some(prefs),
        };
        (details != SearchDetails::default()).then_some(details)
    }

    /// The source plan (the company criteria's form lines beside it).
    fn plan(&mut self) -> (SourcePlan, Vec<usize>) {
        let result_target = self.result_target();
        let recurrence = match self.form.choice("recurrence") {
            "finite" => Some(Recurrence::Finite),
            "monitoring" => Some(Recurrence::Monitoring),
            _ => None,
        };
        let geography = self.geography();
        let (min, max) = (self.number("size_min"), self.number("size_max"));
        let company_size = (min.is_some() || max.is_some()).then_some(CompanySize { min, max });
        let person = self.person_criteria();
        let (company, company_lines) = self.company_criteria();
        let ranked_company_cohort = self.cohort();
        let unresolved = self.form.items("unresolved");
        let plan = SourcePlan {
            source_id: SourceId::NetworkPeople,
            query: self.form.items("queries"),
            reason: self.form.value("reason"),
            result_target,
            recurrence,
            geography,
            company_size,
            person_criteria: (!person.is_empty()).then_some(person),
            unresolved_preferences: (!unresolved.is_empty()).then_some(unresolved),
            company_criteria: (!company.is_empty()).then_some(company),
            ranked_company_cohort,
        };
        (plan, company_lines)
    }
}

/// Turns the form into a request, or field errors (key, message).
pub(crate) fn parse(form: &Form) -> Result<CreateSearch, FieldErrors> {
    let mut r = Reader {
        form,
        errors: Vec::new(),
    };
    let (plan, company_lines) = r.plan();
    let req = CreateSearch {
        title: form.value("title"),
        description: opt(&form.value("description")),
        kind: SearchKind::parse(form.choice("kind")),
        intent: form.value("intent"),
        seller_context: opt(&form.value("seller_context")),
        source_plans: vec![plan],
        details: r.details(),
    };
    let mut errors = r.errors;
    if let Err(list) = validate::create_search(&req) {
        for e in list {
            let path = renumber(&e.path, "companyCriteria[", &company_lines);
            let message = renumber(&e.message, "companyCriteria[", &company_lines);
            let (key, message) = locate(&path, &message);
            errors.push((key.unwrap_or("title"), message));
        }
    }
    if errors.is_empty() {
        Ok(req)
    } else {
        Err(errors)
    }
}

/// Rewrites `name[i]` to `name[lines[i]]` (criteria skipped for a parse
/// error shift the request's indices away from the form's lines).
fn renumber(text: &str, name: &str, lines: &[usize]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let (head, tail) = rest.split_at(at + name.len());
        out.push_str(head);
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        match digits.parse::<usize>().ok().and_then(|i| lines.get(i)) {
            Some(line) => out.push_str(&line.to_string()),
            None => out.push_str(&digits),
        }
        rest = &tail[digits.len()..];
    }
    out.push_str(rest);
    out
}

/// The form field a request path names, and the message to show there
/// (list fields say which line). `None` when no field matches.
pub(crate) fn locate(path: &str, message: &str) -> (Option<&'static str>, String) {
    let rest = path
        .strip_prefix("sourcePlans[")
        .and_then(|r| r.split_once("]."))
        .map_or(path, |(_, r)| r);
    let indexed = |name: &str| -> Option<(usize, String)> {
        let after = rest.strip_prefix(name)?.strip_prefix('[')?;
        let (n, tail) = after.split_once(']')?;
        let i: usize = n.parse().ok()?;
        Some((i, tail.trim_start_matches('.').to_owned()))
    };
    let line_msg = |name: &str| -> String {
        match indexed(name) {
            Some((i, tail)) if tail.is_empty() => format!("line {}: {message}", i + 1),
            Some((i, tail)) => format!("line {} ({tail}): {message}", i + 1),
            None => message.to_owned(),
        }
    };
    let key = match rest {
        "title" => "title",
        "kind" => "kind",
        "intent" => "intent",
        "description" => "description",
        "sellerContext" => "seller_context",
        "reason" => "reason",
        "recurrence" => "recurrence",
        "sourcePlans" => "queries",
        "details.channel" => "d_channel",
        "details.signal" => "d_signal",
        "details.expectedLead" => "d_expected_lead",
        "details.whyThisShouldWork" => "d_why",
        "companySize.max" => "size_max",
        "rankedCompanyCohort.sourceId" => "cohort_source",
        "rankedCompanyCohort.limit" => "cohort_limit",
        r if r.starts_with("query") => return (Some("queries"), line_msg("query")),
        r if r.starts_with("personCriteria") => {
            return (Some("person_criteria"), line_msg("personCriteria"));
        }
        r if r.starts_with("companyCriteria") => {
            return (Some("company_criteria"), line_msg("companyCriteria"));
        }
        r if r.starts_with("unresolvedPreferences") => {
            return (Some("unresolved"), line_msg("unresolvedPreferences"));
        }
        r if r.starts_with("details.plannerAssumedPreferences") => "d_prefs",
        r if r.starts_with("resultTarget") => "result_target",
        r if r.starts_with("geography.cityNames") => "cities",
        r if r.starts_with("geography") => "countries",
        r if r.starts_with("companySize") => "size_min",
        r if r.starts_with("rankedCompanyCohort") => "cohort",
        _ => return (None, format!("{path}: {message}")),
    };
    (Some(key), message.to_owned())
}

#[cfg(test)]
mod tests {
    use super::super::form::build;
    use super::*;

    fn filled() -> Form {
        let mut f = build();
        f.set_value("title", "RevOps leaders");
        f.set_value("intent", "Find RevOps leaders at EU SaaS");
        f.set_value("queries", "head of revops saas\nvp revenue operations");
        f.set_value("reason", "They own the tooling budget");
        f
    }

    #[test]
    fn a_full_form_becomes_the_whole_schema() {
        let mut f = filled();
        f.set_value("result_target", "250");
        f.set_choice("recurrence", "monitoring");
        f.set_value("countries", "de, fr");
        f.set_value("cities", "Berlin, Paris");
        f.set_value("size_min", "50");
        f.set_value("size_max", "1,000");
        f.set_value("person_criteria", "VP Sales; Head of Sales\nCRO");
        f.set_value(
            "company_criteria",
            "industry is SaaS or fintech\nexclusion is not agency",
        );
        f.set_choice("cohort", "named");
        f.set_value("cohort_source", "eu-saas-top-500");
        f.set_value("cohort_limit", "100");
        f.set_value("unresolved", "prefers founder-led companies");
        f.set_value("d_channel", "email");
        let req = parse(&f).expect("valid");
        let plan = &req.source_plans[0];
        assert_eq!(plan.query.len(), 2);
        assert_eq!(plan.result_target, Some(ResultTarget::Count { count: 250 }));
        assert_eq!(plan.recurrence, Some(Recurrence::Monitoring));
        let geo = plan.geography.as_ref().expect("geo");
        assert_eq!(geo.country_codes, ["DE", "FR"]);
        assert_eq!(plan.company_size.as_ref().and_then(|s| s.max), Some(1000));
        let person = plan.person_criteria.as_ref().expect("person");
        assert_eq!(person[0].values, ["VP Sales", "Head of Sales"]);
        let company = plan.company_criteria.as_ref().expect("company");
        assert_eq!(company[1].operator, CriterionOperator::IsNot);
        assert_eq!(company[1].kind, CompanyCriterionKind::Exclusion);
        assert_eq!(company[0].value, "SaaS or fintech");
        assert_eq!(
            plan.ranked_company_cohort,
            Some(RankedCompanyCohort::Named {
                source_id: "eu-saas-top-500".into(),
                limit: Some(100)
            })
        );
        assert_eq!(
            req.details.as_ref().and_then(|d| d.channel.as_deref()),
            Some("email")
        );
    }

    #[test]
    fn errors_land_on_the_field_and_line() {
        let mut f = filled();
        f.set_value("queries", &format!("ok\n{}", "x".repeat(241)));
        f.set_value(
            "company_criteria",
            "industry is SaaS\nindustry is not saas\nsize big",
        );
        f.set_value("size_min", "lots");
        let errors = parse(&f).expect_err("invalid");
        let find = |k: &str| {
            errors
                .iter()
                .filter(|(key, _)| *key == k)
                .map(|(_, m)| m.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(find("queries"), ["line 2: 1 to 240 chars"]);
        assert!(find("company_criteria")[0].starts_with("line 3: start with a kind"));
        assert_eq!(find("size_min"), ["a whole number, e.g. 50"]);
        assert_eq!(
            locate("sourcePlans[0].companyCriteria[1]", "contradicts"),
            (Some("company_criteria"), "line 2: contradicts".into())
        );
        assert_eq!(
            locate(
                "sourcePlans[0].personCriteria[0].values[2]",
                "1 to 120 chars"
            ),
            (
                Some("person_criteria"),
                "line 1 (values[2]): 1 to 120 chars".into()
            )
        );
    }
}
