//! The create-search form: every part of the source-plan schema, checked on
//! the client with field-level messages before the request, kept as a local
//! draft so nothing typed is lost, and the service's refusal shown on the
//! field it names.

use crossterm::event::KeyEvent;

use super::super::form::{Form, FormEvent};
use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model, Overlay, RequestId};
use super::{Confirmed, DRAFT_KEY, Purpose, View, search, searches, send};
use crate::api::model::*;
use crate::api::validate;
use crate::store::Draft;
use crate::text::sanitize::DisplayText;

/// Kinds of a company criterion, as typed.
const COMPANY_KINDS: [&str; 6] = [
    "business_model",
    "customer_type",
    "offering",
    "industry",
    "exclusion",
    "other",
];

/// Choices of the ranked-cohort select.
const COHORTS: [&str; 6] = [
    "none",
    "default",
    "named",
    "attached",
    "metric: revenue",
    "metric: market_cap",
];

/// The form and its request.
#[derive(Debug, Clone)]
pub struct NewSearch {
    /// The form.
    pub form: Form,
    /// The create request in flight.
    pub pending: Option<RequestId>,
    /// Where Esc goes back to.
    pub back: View,
}

impl NewSearch {
    /// The form as a local draft.
    pub fn draft(&self) -> Draft {
        Draft {
            title: "New Lead Finder search".into(),
            fields: self.form.snapshot(),
        }
    }
}

/// The empty form.
pub fn build() -> Form {
    Form::new("New Lead Finder search", "Create")
        .section("Search", "What to find and why; * marks what is required.")
        .required_text("title", "Title", "shown in lists, e.g. RevOps leaders at EU SaaS")
        .select(
            "kind",
            "Kind",
            "recurring: run again by run-all · static: runs once",
            &["recurring", "static"],
        )
        .multiline(
            "intent",
            "Intent *",
            "who you want to find and why, in a sentence or two",
            2,
        )
        .text("description", "Description", "optional notes for your team")
        .multiline(
            "seller_context",
            "Seller context",
            "what you sell, so ranking favours likely buyers (optional)",
            2,
        )
        .section(
            "Source plan · network_people",
            "Where and how people are searched on the professional network.",
        )
        .list(
            "queries",
            "Queries *",
            "one search query per line, 1–240 chars each",
            3,
        )
        .required_text(
            "reason",
            "Reason",
            "why these queries find the right people (1–240 chars)",
        )
        .text(
            "result_target",
            "Result target",
            "empty: service default · a number: that many results · all: every result",
        )
        .select(
            "recurrence",
            "Recurrence",
            "finite: stop at the target · monitoring: keep watching for new people",
            &["default", "finite", "monitoring"],
        )
        .text(
            "countries",
            "Countries",
            "country codes separated by commas, e.g. US, CA, GB (empty: anywhere)",
        )
        .text(
            "cities",
            "Cities",
            "optional city names separated by commas (needs countries)",
        )
        .text("size_min", "Company size: min", "employees, optional")
        .text("size_max", "Company size: max", "employees, optional")
        .list(
            "person_criteria",
            "Person criteria (current title)",
            "one criterion per line (1–12); alternative titles separated by ;  e.g. VP Sales; Head of Sales",
            3,
        )
        .section(
            "Company criteria · every line must pass (AND)",
            "Each line is `<kind> is <value>` or `<kind> is not <value>`; put OR alternatives inside one value, e.g. industry is SaaS or fintech.",
        )
        .list(
            "company_criteria",
            "Company criteria",
            "kinds: business_model customer_type offering industry exclusion other · at most 12 lines",
            4,
        )
        .select(
            "cohort",
            "Ranked company cohort",
            "which companies rank first; named/attached need a source id",
            &COHORTS,
        )
        .text(
            "cohort_source",
            "Cohort source id",
            "for a named or attached cohort (1–120 chars)",
        )
        .text("cohort_limit", "Cohort limit", "optional, greater than 0")
        .list(
            "unresolved",
            "Unresolved preferences",
            "up to 3 lines the planner could not express, 1–240 chars each",
            3,
        )
        .section("Details (optional)", "Planning notes kept with the search.")
        .text("d_channel", "Channel", "e.g. email, network")
        .text("d_signal", "Signal", "what makes someone a lead now")
        .text("d_expected_lead", "Expected lead", "who a good result is")
        .multiline(
            "d_why",
            "Why this should work",
            "the reasoning behind the search",
            2,
        )
        .list(
            "d_prefs",
            "Planner assumed preferences",
            "one per line",
            2,
        )
}

fn opt(s: String) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.trim().to_owned())
}

fn split_commas(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_owned)
        .collect()
}

fn number(form: &Form, key: &'static str, errors: &mut Vec<(&'static str, String)>) -> Option<u64> {
    let v = form.value(key);
    if v.is_empty() {
        return None;
    }
    match v.replace([',', '_'], "").parse::<u64>() {
        Ok(n) => Some(n),
        Err(_) => {
            errors.push((key, "a whole number, e.g. 50".into()));
            None
        }
    }
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

/// Turns the form into a request, or field errors (key, message).
pub fn parse(form: &Form) -> Result<CreateSearch, Vec<(&'static str, String)>> {
    let mut errors: Vec<(&'static str, String)> = Vec::new();
    let result_target = match form.value("result_target").to_ascii_lowercase().as_str() {
        "" => None,
        "all" => Some(ResultTarget::All),
        other => match other.replace([',', '_'], "").parse::<u64>() {
            Ok(count) => Some(ResultTarget::Count { count }),
            Err(_) => {
                errors.push(("result_target", "a number, or all".into()));
                None
            }
        },
    };
    let recurrence = match form.choice("recurrence") {
        "finite" => Some(Recurrence::Finite),
        "monitoring" => Some(Recurrence::Monitoring),
        _ => None,
    };
    let countries: Vec<String> = split_commas(&form.value("countries"))
        .into_iter()
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let cities = split_commas(&form.value("cities"));
    let geography = if countries.is_empty() {
        if !cities.is_empty() {
            errors.push(("countries", "cities need at least one country code".into()));
        }
        None
    } else {
        Some(Geography {
            mode: "explicit".into(),
            country_codes: countries,
            city_names: (!cities.is_empty()).then_some(cities),
        })
    };
    let (min, max) = (
        number(form, "size_min", &mut errors),
        number(form, "size_max", &mut errors),
    );
    let company_size = (min.is_some() || max.is_some()).then_some(CompanySize { min, max });
    let person: Vec<PersonCriterion> = form
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
        .collect();
    let mut company = Vec::new();
    // Line of each parsed criterion, so the service's indices name lines.
    let mut company_lines = Vec::new();
    for (i, line) in form.items("company_criteria").iter().enumerate() {
        match company_criterion(line) {
            Ok((kind, operator, value)) => {
                company.push(CompanyCriterion {
                    id: format!("c{}", i + 1),
                    kind,
                    operator,
                    value,
                });
                company_lines.push(i);
            }
            Err(e) => errors.push(("company_criteria", format!("line {}: {e}", i + 1))),
        }
    }
    let limit = number(form, "cohort_limit", &mut errors);
    let source = form.value("cohort_source");
    let ranked_company_cohort = match form.choice("cohort") {
        "default" => Some(RankedCompanyCohort::Default { limit }),
        "named" => Some(RankedCompanyCohort::Named {
            source_id: source,
            limit,
        }),
        "attached" => Some(RankedCompanyCohort::Attached {
            source_id: source,
            limit,
        }),
        "metric: revenue" => Some(RankedCompanyCohort::Metric {
            metric: CohortMetric::Revenue,
            limit,
        }),
        "metric: market_cap" => Some(RankedCompanyCohort::Metric {
            metric: CohortMetric::MarketCap,
            limit,
        }),
        _ => {
            if !source.is_empty() || limit.is_some() {
                errors.push((
                    "cohort",
                    "pick a cohort kind for the source id or limit".into(),
                ));
            }
            None
        }
    };
    let unresolved = form.items("unresolved");
    let prefs = form.items("d_prefs");
    let details = SearchDetails {
        channel: opt(form.value("d_channel")),
        signal: opt(form.value("d_signal")),
        expected_lead: opt(form.value("d_expected_lead")),
        why_this_should_work: opt(form.value("d_why")),
        planner_assumed_preferences: (!prefs.is_empty()).then_some(prefs),
    };
    let plan = SourcePlan {
        source_id: SourceId::NetworkPeople,
        query: form.items("queries"),
        reason: form.value("reason"),
        result_target,
        recurrence,
        geography,
        company_size,
        person_criteria: (!person.is_empty()).then_some(person),
        unresolved_preferences: (!unresolved.is_empty()).then_some(unresolved),
        company_criteria: (!company.is_empty()).then_some(company),
        ranked_company_cohort,
    };
    let req = CreateSearch {
        title: form.value("title"),
        description: opt(form.value("description")),
        kind: SearchKind::parse(form.choice("kind")),
        intent: form.value("intent"),
        seller_context: opt(form.value("seller_context")),
        source_plans: vec![plan],
        details: (details != SearchDetails::default()).then_some(details),
    };
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
pub fn locate(path: &str, message: &str) -> (Option<&'static str>, String) {
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

/// Opens the form, offering back an unsent draft first.
pub fn open(m: &mut Model) -> Vec<Cmd> {
    let back = match m.panes.leads.view {
        View::NewSearch => View::Searches,
        v => v,
    };
    if m.panes.leads.form.is_some() {
        m.panes.leads.view = View::NewSearch;
        return Vec::new();
    }
    if let Some(draft) = m.state.drafts.get(DRAFT_KEY) {
        let title = draft
            .fields
            .get("title")
            .map(|t| DisplayText::inline(t).into_string())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "untitled".into());
        m.panes.leads.form = Some(NewSearch {
            form: build(),
            pending: None,
            back,
        });
        m.overlay = Some(Overlay::Confirm(Confirm {
            title: "Unsent draft".into(),
            lines: vec![
                format!("You have an unsent new-search draft: \"{title}\"."),
                "y restores it; n discards it and starts an empty form; Esc keeps it for later."
                    .into(),
            ],
            yes: "Restore".into(),
            no: Some("discard the draft".into()),
            destructive: false,
            on_yes: ConfirmAction::Pane(Confirmed::RestoreDraft.into()),
        }));
        m.panes.leads.view = View::NewSearch;
        return Vec::new();
    }
    m.panes.leads.form = Some(NewSearch {
        form: build(),
        pending: None,
        back,
    });
    m.panes.leads.view = View::NewSearch;
    Vec::new()
}

/// The answer to "restore the draft?".
pub fn restore_draft(m: &mut Model, yes: bool) -> Vec<Cmd> {
    let draft = m.state.drafts.get(DRAFT_KEY).cloned();
    let Some(f) = m.panes.leads.form.as_mut() else {
        return Vec::new();
    };
    m.panes.leads.view = View::NewSearch;
    if yes {
        if let Some(d) = draft {
            f.form.restore(&d.fields);
            f.form.mark_clean();
            f.form.note = None;
        }
        Vec::new()
    } else {
        m.state.drafts.remove(DRAFT_KEY);
        vec![m.save_state()]
    }
}

/// The draft prompt was dismissed: the draft stays saved as it is, the
/// empty form behind the prompt closes.
pub fn keep_draft(m: &mut Model) -> Vec<Cmd> {
    if let Some(f) = m.panes.leads.form.take() {
        m.panes.leads.view = back_view(m, f.back);
    }
    Vec::new()
}

/// Where closing the form goes: `back`, unless what it showed is gone.
fn back_view(m: &Model, back: View) -> View {
    match back {
        View::Detail if m.panes.leads.detail.is_none() => View::Searches,
        View::Search | View::Detail if m.panes.leads.open.is_none() => View::Searches,
        View::NewSearch => View::Searches,
        v => v,
    }
}

/// A key in the form.
pub fn on_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    let Some(f) = m.panes.leads.form.as_mut() else {
        return Vec::new();
    };
    if f.pending.is_some() {
        // Sending: read-only until the answer arrives.
        return Vec::new();
    }
    match f.form.handle_key(key) {
        FormEvent::Cancel => {
            let back = f.back;
            let dirty = f.form.is_dirty();
            let mut cmds = Vec::new();
            if dirty {
                let draft = f.draft();
                m.state.drafts.insert(DRAFT_KEY.into(), draft);
                m.panes.leads.form = None;
                cmds.push(m.save_state());
                m.notify(
                    Level::Info,
                    "Draft kept",
                    "the new search is saved locally; n offers it back",
                );
            } else {
                m.panes.leads.form = None;
            }
            m.panes.leads.view = back_view(m, back);
            cmds
        }
        FormEvent::Submit => submit(m),
        FormEvent::Edited | FormEvent::Ignored => Vec::new(),
    }
}

fn submit(m: &mut Model) -> Vec<Cmd> {
    let Some(f) = m.panes.leads.form.as_mut() else {
        return Vec::new();
    };
    f.form.clear_errors();
    match parse(&f.form) {
        Err(errors) => {
            for (key, message) in errors {
                f.form.set_error(key, &message);
            }
            Vec::new()
        }
        Ok(req) => {
            let (id, cmd) = send(m, Purpose::Create, ApiRequest::CreateSearch(Box::new(req)));
            if let Some(f) = m.panes.leads.form.as_mut() {
                f.pending = Some(id);
            }
            vec![cmd]
        }
    }
}

/// The create answer: open the new search, or show the refusal on the
/// field it names.
pub fn on_created(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::SearchCreated(result) = reply else {
        return Vec::new();
    };
    if let Some(f) = m.panes.leads.form.as_mut() {
        f.pending = None;
    }
    match *result {
        Ok(s) => {
            m.state.remember_search(&s.search_id, &s.title, "created");
            m.state.drafts.remove(DRAFT_KEY);
            m.panes.leads.form = None;
            searches::upsert(m, &s, None);
            if let Some(i) = m
                .panes
                .leads
                .list
                .rows
                .iter()
                .position(|r| r.search.search_id == s.search_id)
            {
                let vp = super::layout::searches_viewport(m.layout().body);
                m.panes.leads.list.table.select(i, vp);
            }
            m.notify(
                Level::Success,
                "Search created",
                &format!("{}: R runs it", DisplayText::inline(&s.title)),
            );
            let mut cmds = vec![m.save_state()];
            cmds.extend(search::open(m, &s.search_id));
            cmds
        }
        Err(e) => {
            let message = e.message();
            let Some(f) = m.panes.leads.form.as_mut() else {
                super::toast_error(m, "creating the search", &e);
                return Vec::new();
            };
            // The service names the field: `sourcePlans[0].query[1]: 1 to 240 chars`.
            let mut placed = false;
            for part in message.split("; ") {
                if let Some((path, text)) = part.split_once(": ")
                    && let (Some(key), msg) = locate(path.trim(), text.trim())
                {
                    f.form.set_error(key, &msg);
                    placed = true;
                }
            }
            if !placed {
                f.form.note = Some(format!("{}: {message}", e.code()));
            }
            super::toast_error(m, "creating the search", &e);
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
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
