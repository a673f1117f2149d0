//! The create-search form's fields: every part of the source-plan schema,
//! in four sections, with the help each field shows.

use super::super::super::form::Form;

/// Kinds of a company criterion, as typed.
pub(crate) const COMPANY_KINDS: [&str; 6] = [
    "business_model",
    "customer_type",
    "offering",
    "industry",
    "exclusion",
    "other",
];

/// Choices of the ranked-cohort select.
pub(crate) const COHORTS: [&str; 6] = [
    "none",
    "default",
    "named",
    "attached",
    "metric: revenue",
    "metric: market_cap",
];

/// The empty form.
pub(crate) fn build() -> Form {
    let form = Form::new("New Lead Finder search", "Create");
    details(company(source_plan(search(form))))
}

/// What to find and why.
fn search(form: Form) -> Form {
    form.section("Search", "What to find and why; * marks what is required.")
        .required_text(
            "title",
            "Title",
            "shown in lists, e.g. RevOps leaders at EU SaaS",
        )
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
}

/// Where and how people are searched.
fn source_plan(form: Form) -> Form {
    form
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
}

/// Which companies pass, and which rank first.
fn company(form: Form) -> Form {
    form
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
}

/// Planning notes.
fn details(form: Form) -> Form {
    form.section("Details (optional)", "Planning notes kept with the search.")
        .text("d_channel", "Channel", "e.g. email, network")
        .text("d_signal", "Signal", "what makes someone a lead now")
        .text("d_expected_lead", "Expected lead", "who a good result is")
        .multiline(
            "d_why",
            "Why this should work",
            "the reasoning behind the search",
            2,
        )
        .list("d_prefs", "Planner assumed preferences", "one per line", 2)
}
