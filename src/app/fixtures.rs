//! Sample data for tests, snapshots and benchmarks (not used by the app).

#![expect(
    clippy::needless_pass_by_value,
    reason = "Fixtures take their settings by value so a test reads like the data it builds (`latest_run(RunStatus::Running)`)."
)]

use std::time::Instant;

use super::{Model, Session};
use crate::api::model::*;
use crate::app::keymap::Keymap;
use crate::store::State;

/// Wall clock of the fixtures: 2026-11-22T12:00:00Z.
pub const CLOCK: i64 = 1_795_348_800;

/// A model of the given size against a demo session, on the Domains pane.
pub fn model(w: u16, h: u16) -> Model {
    let session = Session {
        host: "127.0.0.1:8787".into(),
        demo: true,
        masked_key: "pk_live_…".into(),
        loopback: true,
        read_only: false,
        read_only_flag: false,
        profile: None,
    };
    let mut state = State::default();
    state.prefs.last_pane = Some("domains".into());
    let mut m = Model::new(Instant::now(), (w, h), session, Keymap::default(), state);
    m.clock = CLOCK;
    // A session whose state file can be written (the store probe said so).
    m.state_writable = Some(true);
    m
}

fn record(kind: &str, name: &str, value: &str, priority: u64) -> DnsRecord {
    DnsRecord {
        kind: kind.into(),
        name: name.into(),
        value: value.into(),
        priority,
    }
}

/// One domain with the three records to publish.
pub fn domain(id: &str, name: &str, status: DomainStatus, created_at: &str) -> SendingDomain {
    SendingDomain {
        id: id.into(),
        user_id: "user-1".into(),
        domain: name.into(),
        provider_domain_id: format!("prov-{id}"),
        verified_at: (status == DomainStatus::Verified).then(|| "2026-11-21T09:30:00Z".to_owned()),
        status,
        dns_records: vec![
            record(
                "TXT",
                &format!("resend._domainkey.{name}"),
                "p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDx3",
                0,
            ),
            record(
                "TXT",
                &format!("send.{name}"),
                "v=spf1 include:amazonses.com ~all",
                0,
            ),
            record(
                "MX",
                &format!("send.{name}"),
                "feedback-smtp.us-east-1.amazonses.com",
                10,
            ),
            record("TXT", &format!("_dmarc.{name}"), "v=DMARC1; p=none;", 0),
        ],
        created_at: created_at.into(),
        updated_at: created_at.into(),
    }
}

/// Domains in every status, newest first.
pub fn domains() -> Vec<SendingDomain> {
    vec![
        domain(
            "d-4",
            "mail.brightlabs.io",
            DomainStatus::Verifying,
            "2026-11-22T11:50:00Z",
        ),
        domain(
            "d-3",
            "outreach.northwind.com",
            DomainStatus::Pending,
            "2026-11-21T08:00:00Z",
        ),
        domain(
            "d-2",
            "fail.example.org",
            DomainStatus::Failed,
            "2026-11-19T15:00:00Z",
        ),
        domain(
            "d-1",
            "acme-mail.com",
            DomainStatus::Verified,
            "2026-11-02T10:00:00Z",
        ),
    ]
}

/// Senders of both types, one email sender not ready.
pub fn senders() -> Vec<SenderAccount> {
    let s = |id: &str, kind: Channel, name: &str, email: &str, status: &str| SenderAccount {
        id: id.into(),
        kind,
        email_address: email.into(),
        provider_account_id: format!("acct-{id}"),
        display_name: name.into(),
        status: status.into(),
        first_name: name.split(' ').next().unwrap_or("").into(),
        last_name: name.split(' ').nth(1).unwrap_or("").into(),
        daily_limit: 40,
        is_default_sender: id == "s-1",
        weekly_connection_limit: 100,
        weekly_message_limit: 150,
        is_premium: id == "s-3",
    };
    vec![
        s(
            "s-1",
            Channel::Email,
            "Dana Reyes",
            "dana@acme-mail.com",
            "connected",
        ),
        s(
            "s-2",
            Channel::Email,
            "Sam Ortiz",
            "sam@outreach.northwind.com",
            "inbox_not_configured",
        ),
        s("s-3", Channel::Network, "Priya Natarajan", "", "connected"),
    ]
}

/// A search with counts.
pub fn search(id: &str, title: &str, kind: SearchKind, results: u64) -> Search {
    Search {
        search_id: id.into(),
        title: title.into(),
        description: String::new(),
        kind,
        surface: "lead-finder".into(),
        definition_hash: None,
        intent: format!("Find {title}"),
        seller_context: String::new(),
        source_plans: vec![SourcePlan {
            source_id: SourceId::NetworkPeople,
            query: vec!["head of revops saas".into()],
            reason: "They own the tooling budget".into(),
            ..SourcePlan::default()
        }],
        details: None,
        last_run_id: (results > 0).then(|| format!("run-{id}")),
        lead_count: results * 4 / 5,
        result_count: results,
        contacted_count: results / 10,
        created_at: "2026-11-20T09:00:00Z".into(),
        updated_at: "2026-11-22T11:40:00Z".into(),
    }
}

/// Searches in several states, newest first.
pub fn searches() -> Vec<Search> {
    let mut s2 = search("s-2", "VP Sales, fintech, US", SearchKind::Static, 0);
    s2.updated_at = "2026-11-21T16:00:00Z".into();
    vec![
        search(
            "s-3",
            "RevOps leaders at EU SaaS",
            SearchKind::Recurring,
            2000,
        ),
        s2,
        search(
            "s-1",
            "Founders hiring their first SDR",
            SearchKind::Recurring,
            340,
        ),
    ]
}

const FIRST: [&str; 8] = [
    "Ana", "Ben", "Chloé", "Dev", "Emma", "Farid", "Grace", "Hiro",
];
const LAST: [&str; 8] = [
    "López", "Okafor", "Martin", "Patel", "Schmidt", "Haddad", "Kim", "Tanaka",
];
const TITLES: [&str; 4] = [
    "Head of Revenue Operations",
    "VP Sales",
    "RevOps Manager",
    "Director, Sales Operations",
];
const COMPANIES: [&str; 5] = ["Brightlabs", "Northwind", "Acme Cloud", "Globex", "Initech"];

/// Result `i` of search `search` (scores fall with `i`; every 4th has no
/// email, every 5th no network URL).
pub fn lead_result(search: &str, i: usize) -> LeadResult {
    let name = format!("{} {}", FIRST[i % 8], LAST[(i / 8) % 8]);
    let company = COMPANIES[i % 5];
    let score = 0.99 - (i as f64 * 0.0005).min(0.59);
    let slug = name.to_lowercase().replace(' ', ".");
    LeadResult {
        result_id: format!("{search}-r{i}"),
        search_id: search.into(),
        run_id: format!("run-{search}"),
        lead_id: format!("lead-{i}"),
        source_id: "network_people".into(),
        search_url: format!("https://network.example/search?q=revops&p={i}"),
        query: "head of revops saas".into(),
        search_reason: "Title matches Head of Revenue Operations".into(),
        signal_reason: "Posted about replacing their CRM last week".into(),
        title: "Hiring two RevOps analysts".into(),
        content: "We are rebuilding our pipeline reporting and looking for tooling that scales with the team.".into(),
        occurred_at: "2026-11-21T10:00:00Z".into(),
        created_at: "2026-11-22T10:00:00Z".into(),
        canonical_lead: Some(CanonicalLead {
            id: format!("lead-{i}"),
            kind: "person".into(),
            name,
            title: TITLES[i % 4].into(),
            company: company.into(),
            company_domain: format!("{}.com", company.to_lowercase().replace(' ', "")),
            email: if i % 4 == 3 {
                String::new()
            } else {
                format!("{slug}@{}.com", company.to_lowercase().replace(' ', ""))
            },
            network_url: if i % 5 == 4 {
                String::new()
            } else {
                format!("https://network.example/in/{slug}-{i}")
            },
        }),
        entity_company: company.into(),
        entity_person: String::new(),
        score: (score * 100.0).round() / 100.0,
        quality_tier: if score >= 0.85 { "excellent" } else { "good" }.into(),
        status: "new".into(),
        enrichment_summary: Some(EnrichmentSummary {
            status: "available".into(),
            schema_version: 1,
            observed_at: "2026-11-22T10:00:00Z".into(),
            field_count: 6,
        }),
        ..LeadResult::default()
    }
}

/// A page of a search's results as `GET /api/lead-finder/{id}` answers it.
pub fn search_page(s: &Search, total: usize, offset: usize, limit: usize) -> SearchPage {
    let end = (offset + limit).min(total);
    SearchPage {
        search: s.clone(),
        results: (offset..end)
            .map(|i| lead_result(&s.search_id, i))
            .collect(),
        pagination: Pagination {
            total: total as u64,
            limit: limit as u64,
            offset: offset as u64,
            has_more: end < total,
            next_cursor: (end < total).then_some(Cursor::Int(end as u64)),
        },
        latest_run: Some(latest_run(RunStatus::Completed)),
    }
}

/// A run with two queries' diagnostics.
pub fn latest_run(status: RunStatus) -> LatestRun {
    let diag = |q: &str, n: u64| QueryDiagnostics {
        query: q.into(),
        fetched: n,
        normalized: n - n / 20,
        ranked: n - n / 10,
        lead_extracted: n * 3 / 4,
        quality_kept: n / 2,
        stored: n / 2 - 3,
        max_results: 1000,
        ..QueryDiagnostics::default()
    };
    LatestRun {
        run_id: "run-s-3".into(),
        status: status.clone(),
        source_status: vec![SourceStatus {
            source_id: "network_people".into(),
            status: status.as_str().into(),
            error: String::new(),
            query_diagnostics: vec![
                diag("head of revops saas", 1240),
                diag("vp revenue operations", 860),
            ],
        }],
        created_at: "2026-11-22T11:55:00Z".into(),
        updated_at: "2026-11-22T11:58:00Z".into(),
        ..LatestRun::default()
    }
}

/// Field descriptors of the fixture enrichment.
pub fn descriptors() -> Vec<FieldDescriptor> {
    let d = |path: &str, label: &str, ns: &str, t: ValueType, ops: &[Operator], n: u64| {
        FieldDescriptor {
            path: path.into(),
            label: label.into(),
            namespace: ns.into(),
            group: "contact".into(),
            value_type: t,
            operators: ops.to_vec(),
            coverage_count: n,
        }
    };
    vec![
        d(
            "person.location.city",
            "City",
            "person",
            ValueType::String,
            &[Operator::Contains, Operator::Eq],
            1890,
        ),
        d(
            "person.seniority",
            "Seniority",
            "person",
            ValueType::String,
            &[Operator::Eq],
            1720,
        ),
        d(
            "person.yearsInRole",
            "Years in role",
            "person",
            ValueType::Number,
            &[
                Operator::Eq,
                Operator::Gt,
                Operator::Gte,
                Operator::Lt,
                Operator::Lte,
            ],
            1400,
        ),
        d(
            "person.openToWork",
            "Open to work",
            "person",
            ValueType::Boolean,
            &[Operator::Eq],
            2000,
        ),
        d(
            "company.headcount",
            "Headcount",
            "company",
            ValueType::Number,
            &[Operator::Gte, Operator::Lte],
            1950,
        ),
        d(
            "company.industry",
            "Industry",
            "company",
            ValueType::String,
            &[Operator::Contains, Operator::Eq],
            1990,
        ),
    ]
}

/// The enrichment of a result.
pub fn enrichment(search: &str, result: &str) -> EnrichmentResponse {
    EnrichmentResponse {
        result: EnrichmentResultRef {
            result_id: result.into(),
            search_id: search.into(),
            lead_id: "lead-0".into(),
            source_id: "network_people".into(),
        },
        status: "available".into(),
        enrichment_profile: EnrichmentProfile {
            schema_version: 1,
            provider: "demo-enrich".into(),
            person: serde_json::json!({
                "location": {"city": "Berlin", "country": "DE"},
                "seniority": "head",
                "yearsInRole": 3,
                "openToWork": false,
                "skills": ["Salesforce", "HubSpot", "SQL"],
            }),
            company: serde_json::json!({
                "name": "Brightlabs",
                "headcount": 240,
                "industry": "SaaS",
                "funding": {"stage": "Series B", "raisedUsd": 42000000},
            }),
            observed_at: "2026-11-22T10:00:00Z".into(),
            provider_observed_at: "2026-11-21T10:00:00Z".into(),
            truncation: Truncation {
                truncated: true,
                reasons: vec!["work history beyond 10 positions omitted".into()],
            },
        },
        fields: descriptors(),
    }
}

/// A campaign.
pub fn campaign(
    id: &str,
    name: &str,
    kind: Channel,
    status: CampaignStatus,
    roster: u64,
) -> Campaign {
    Campaign {
        id: id.into(),
        user_id: "user-1".into(),
        kind,
        name: name.into(),
        status,
        stats: CampaignStats {
            total: roster,
            ..CampaignStats::default()
        },
        created_at: "2026-11-20T09:00:00Z".into(),
        updated_at: "2026-11-22T09:00:00Z".into(),
        ..Campaign::default()
    }
}

/// Campaigns in several states.
pub fn campaigns() -> Vec<Campaign> {
    vec![
        campaign(
            "c-1",
            "EU RevOps — email",
            Channel::Email,
            CampaignStatus::Draft,
            12,
        ),
        campaign(
            "c-2",
            "EU RevOps — network",
            Channel::Network,
            CampaignStatus::Draft,
            4,
        ),
        campaign(
            "c-3",
            "Q3 founders",
            Channel::Email,
            CampaignStatus::Active,
            310,
        ),
    ]
}

/// A thread of the inbox (sender `s-1` unless `account` says otherwise).
#[expect(
    clippy::too_many_arguments,
    reason = "a row of seed or fixture data: one argument per column reads like the data"
)]
pub fn thread(
    id: &str,
    status: ThreadStatus,
    email: &str,
    name: &str,
    subject: &str,
    unread: u64,
    updated_at: &str,
    account: Option<&str>,
) -> Thread {
    Thread {
        id: id.into(),
        channel: "email".into(),
        status,
        account_id: account.map(str::to_owned),
        participant_email: email.into(),
        participant_name: (!name.is_empty()).then(|| name.to_owned()),
        draft_subject: (!subject.is_empty()).then(|| subject.to_owned()),
        unread_count: unread,
        created_at: Some("2026-11-20T09:00:00Z".into()),
        updated_at: Some(updated_at.into()),
        ..Thread::default()
    }
}

/// Threads in every state, newest activity first: a sendable draft, an
/// active thread with unread replies, a draft without a sender, a draft
/// with attachments and an HTML body, an archived thread.
pub fn threads() -> Vec<Thread> {
    let mut jonas = thread(
        "t-1",
        ThreadStatus::Draft,
        "jonas.fischer@kestrel.io",
        "Jonas Fischer",
        "Intro: Kestrel × Northwind",
        0,
        "2026-11-22T11:40:00Z",
        Some("s-1"),
    );
    jonas.draft_body_text = Some(
        "Hi Jonas,\n\nGreat meeting you at SaaStock. A short note on how we keep CRM and billing in sync.\n\nDana".into(),
    );
    jonas.draft_cc = Some("sam@northwind.com".into());
    let lena = thread(
        "t-2",
        ThreadStatus::Active,
        "lena.weber@granite.de",
        "Lena Weber",
        "",
        2,
        "2026-11-22T10:05:00Z",
        Some("s-1"),
    );
    let priya = thread(
        "t-3",
        ThreadStatus::Draft,
        "priya.patel@orbital.ai",
        "Priya Patel",
        "Follow-up on pricing",
        0,
        "2026-11-22T07:00:00Z",
        None,
    );
    let mut hana = thread(
        "t-4",
        ThreadStatus::Draft,
        "hana.ito@helix.ai",
        "Hana Ito",
        "Re: your webinar",
        1,
        "2026-11-21T18:00:00Z",
        Some("s-1"),
    );
    hana.draft_body_html = Some(
        "<p>Hi Hana,</p><p>the <b>slides</b> are attached &amp; the recording follows.</p>".into(),
    );
    hana.draft_attachments = vec![Attachment {
        name: "webinar-slides.pdf".into(),
        mime_type: "application/pdf".into(),
        size: 2_400_000,
        ..Attachment::default()
    }];
    let alex = thread(
        "t-5",
        ThreadStatus::Archived,
        "old.lead@redwood.com",
        "Alex Rossi",
        "",
        0,
        "2026-11-02T10:00:00Z",
        Some("s-1"),
    );
    vec![jonas, lena, priya, hana, alex]
}

/// Message `i` of a thread: alternately out and in (the newest one at the
/// thread's last activity).
pub fn thread_message(thread: &str, i: usize) -> ThreadMessage {
    message_of(thread, message_span(thread), i, i + 1)
}

/// When a fixture thread's messages may fall: from its creation to its
/// last activity (unix seconds).
fn message_span(thread: &str) -> (i64, i64) {
    let t = threads().into_iter().find(|t| t.id == thread);
    let at = |ts: Option<&str>, or: i64| ts.and_then(crate::text::format::unix).unwrap_or(or);
    let start = at(
        t.as_ref().and_then(|t| t.created_at.as_deref()),
        1_795_165_200,
    );
    let end = at(
        t.as_ref().and_then(|t| t.updated_at.as_deref()),
        1_795_341_900,
    );
    (start, end.max(start))
}

/// Message `i` of a thread of `total`: spread evenly over the thread's
/// life, the newest at its last activity.
fn message_of(thread: &str, (start, end): (i64, i64), i: usize, total: usize) -> ThreadMessage {
    let inbound = i % 2 == 1;
    let steps = i64::try_from(total.saturating_sub(1).max(1)).unwrap_or(1);
    let back = i64::try_from(total.saturating_sub(1).saturating_sub(i)).unwrap_or(0);
    let at = end - (end - start) * back / steps;
    let sent_at = time::OffsetDateTime::from_unix_timestamp(at)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default();
    ThreadMessage {
        id: format!("{thread}-m{i}"),
        conversation_id: thread.into(),
        direction: if inbound { "inbound" } else { "outbound" }.into(),
        subject: if i == 0 {
            "Forecast accuracy at Granite".into()
        } else {
            "Re: Forecast accuracy at Granite".into()
        },
        body_text: if inbound {
            format!("Reply {i}: thanks, that helps. Could we talk on Thursday?\n\nLena")
        } else {
            format!("Message {i}: here is the benchmark we discussed.\n\nDana")
        },
        sent_at,
    }
}

/// The 1-based `page` of a thread of `total` messages, `limit` a page.
pub fn messages_page(thread: &str, total: usize, page: u64, limit: u64) -> MessagesPage {
    let limit = usize::try_from(limit).unwrap_or(200);
    let start = usize::try_from(page.saturating_sub(1))
        .unwrap_or(usize::MAX)
        .saturating_mul(limit);
    let span = message_span(thread);
    MessagesPage {
        messages: (start..total.min(start.saturating_add(limit)))
            .map(|i| message_of(thread, span, i, total))
            .collect(),
        total: u64::try_from(total).unwrap_or(u64::MAX),
        page,
        limit: u64::try_from(limit).unwrap_or(200),
    }
}

/// A complete company profile, as `GET /api/context` answers it.
pub fn company_profile() -> ContextResponse {
    let v = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let extra = serde_json::json!({
        "crm": "hubspot",
        "tiers": {"gold": 3, "silver": 12},
        "regions": ["EU", "UK"]
    });
    ContextResponse {
        context: CompanyContext {
            user: UserSection {
                professional_background: "Ten years in revenue operations, now founder and head of sales.".into(),
            },
            company: CompanySection {
                overview: "Northwind builds forecasting and pipeline analytics for B2B SaaS revenue teams.".into(),
                product: "A forecasting workspace that reconciles CRM and billing data nightly.".into(),
                problem_solved: "Forecasts that finance and sales both trust.".into(),
                differentiators: "Works from day one on messy CRM data; no consultants needed.".into(),
                network_presence: "Weekly posts on forecasting by the founder.".into(),
            },
            content: ContentSection {
                network_voice: "Practical, numbers-first, no hype.".into(),
                preferred_tone: "Friendly and direct".into(),
                posting_cadence: "Twice a week".into(),
                recommended_topics: v(&["forecast accuracy", "CRM hygiene"]),
                content_formats: v(&["short posts", "carousels"]),
                topics_to_avoid: v(&["politics"]),
            },
            market: MarketSection {
                target_audience: "RevOps and finance leaders at B2B SaaS companies".into(),
                industry_context: "Tool sprawl makes data quality a board topic.".into(),
                icp_job_titles: v(&["VP Revenue Operations", "CFO"]),
                icp_industries: v(&["Software", "Fintech"]),
                icp_company_sizes: v(&["51-200", "201-500"]),
                icp_pain_points: v(&["manual reconciliation", "unreliable forecasts"]),
                icp_keywords: v(&["RevOps", "forecast"]),
            },
            extra: extra.as_object().cloned().unwrap_or_default(),
        },
        profile: Some(Profile {
            first_name: "Maya".into(),
            last_name: "Chen".into(),
            company_name: "Northwind".into(),
            website: "https://northwind.example".into(),
        }),
    }
}

/// A redeem answer: a fresh 100-discovery pass ending in 14 days (from
/// [`CLOCK`]) with 8 used, or a refusal naming why.
pub fn discovery_pass(redeemed: bool) -> DiscoveryPass {
    DiscoveryPass {
        access: Some(Access {
            kind: "paid_plan".into(),
            can_create_leads: true,
            verified_at: Some("2026-09-23T12:00:00Z".into()),
        }),
        eligibility: Some(Eligibility {
            can_redeem: false,
            reason: if redeemed {
                "Redeemed: the pass is active".into()
            } else {
                "This code has already been redeemed".into()
            },
        }),
        test_access: Some(TestAccess {
            id: "ta-1".into(),
            source: "service_domain".into(),
            status: "active".into(),
            activated_at: "2026-11-22T12:00:00Z".into(),
            expires_at: "2026-12-06T12:00:00Z".into(),
            discovery_limit: 100,
            discovery_used: 8,
            remaining: 92,
            terminal_reason: None,
        }),
        redeemed,
    }
}

/// A campaign as `GET /api/campaigns/{id}` answers it: settings of its
/// channel, a two-step sequence, its senders and stats of `roster` leads
/// (a third of them reached when it is sending).
pub fn campaign_detail(
    id: &str,
    name: &str,
    kind: Channel,
    status: CampaignStatus,
    roster: u64,
) -> Campaign {
    let mut c = campaign(id, name, kind.clone(), status.clone(), roster);
    let sending = !matches!(status, CampaignStatus::Draft);
    let reached = if sending { roster / 3 } else { 0 };
    c.stats = CampaignStats {
        total: roster,
        sent: reached * 6 / 10,
        replied: reached / 10,
        bounced: reached / 20,
        completed: reached / 5,
        timed_out: reached / 20,
        connection_sent: 0,
        connected: 0,
        connections_accepted: Some(0),
        message_sent: 0,
        contacted: Some(reached),
    };
    let node = |i: u64, kind: NodeType, subject: &str, body: &str| SequenceNode {
        id: format!("{id}-n{i}"),
        campaign_id: id.into(),
        position: i,
        kind,
        subject: subject.into(),
        body: body.into(),
    };
    let senders: Vec<SenderAccount> = senders().into_iter().filter(|s| s.kind == kind).collect();
    if kind == Channel::Email {
        c.daily_limit = Some(50);
        c.stop_on_reply = Some(true);
        c.open_tracking = Some(false);
        c.signature = Some("— Dana, Acme".into());
        c.sequence_nodes = Some(vec![
            node(
                0,
                NodeType::Email,
                "Quick question about %company%",
                "Hi %first_name%,\n\nHow does %company% keep its CRM clean?\n\nDana",
            ),
            node(1, NodeType::End, "", ""),
        ]);
    } else {
        c.skip_other_campaigns = Some(true);
        c.operating_hours = Some(serde_json::json!({"start": "09:00", "end": "17:00"}));
        c.sequence_nodes = Some(vec![
            node(
                0,
                NodeType::ConnectionRequest,
                "",
                "Hi %first_name%, we both work on RevOps — happy to connect.",
            ),
            node(1, NodeType::End, "", ""),
        ]);
    }
    c.sender_accounts = Some(senders);
    c
}

/// Lead `i` of a campaign's roster (every 7th has a custom plan field).
pub fn campaign_lead(campaign: &str, i: usize, status: LeadStatus) -> CampaignLead {
    let first = FIRST[i % 8];
    let last = LAST[(i / 8) % 8];
    let company = COMPANIES[i % 5];
    let slug = format!("{}.{}", first.to_lowercase(), last.to_lowercase());
    let mut custom = serde_json::Map::new();
    custom.insert("city".into(), "Berlin".into());
    if i.is_multiple_of(7) {
        custom.insert("plan".into(), "pro".into());
    }
    CampaignLead {
        id: format!("{campaign}-l{i}"),
        campaign_id: campaign.into(),
        user_id: "user-1".into(),
        status,
        email: format!("{slug}{i}@{}.com", company.to_lowercase().replace(' ', "")),
        network_url: format!("https://network.example/in/{slug}-{i}"),
        first_name: first.into(),
        last_name: last.into(),
        name: format!("{first} {last}"),
        company: company.into(),
        position: TITLES[i % 4].into(),
        headline: format!("{} at {company}", TITLES[i % 4]),
        custom_fields: custom,
        source: "csv".into(),
        created_at: "2026-11-21T09:00:00Z".into(),
        updated_at: "2026-11-22T11:00:00Z".into(),
        ..CampaignLead::default()
    }
}

/// A roster page of `total` leads (0-based `page`), statuses cycling
/// through pending, sent, replied, bounced.
pub fn roster_page(campaign: &str, total: u64, page: u64, limit: u64) -> RosterPage {
    let statuses = [
        LeadStatus::Pending,
        LeadStatus::Sent,
        LeadStatus::Replied,
        LeadStatus::Bounced,
    ];
    let start = page * limit;
    let end = (start + limit).min(total);
    RosterPage {
        prospects: (start..end)
            .map(|i| {
                let i = usize::try_from(i).unwrap_or(0);
                campaign_lead(campaign, i, statuses[i % 4].clone())
            })
            .collect(),
        total,
        page: page + 1,
        limit,
    }
}

/// Generated messages of the first `n` leads, first step, statuses cycling.
pub fn generated_messages(campaign: &str, n: usize) -> Vec<GeneratedMessage> {
    let statuses = [
        MessageStatus::Draft,
        MessageStatus::Pending,
        MessageStatus::Sent,
    ];
    (0..n)
        .map(|i| GeneratedMessage {
            id: format!("{campaign}-m{i}"),
            campaign_id: campaign.into(),
            prospect_id: format!("{campaign}-l{i}"),
            node_id: format!("{campaign}-n0"),
            subject: format!("Quick question about {}", COMPANIES[i % 5]),
            body_text: format!(
                "Hi {},\n\nHow does {} keep its CRM clean?",
                FIRST[i % 8],
                COMPANIES[i % 5]
            ),
            body_html: String::new(),
            status: statuses[i % 3].clone(),
            manually_edited: i == 1,
            created_at: "2026-11-22T10:00:00Z".into(),
        })
        .collect()
}

/// What DNS would answer for `dom`'s records asked in `queries`: each as
/// published, except those whose label (`DKIM`, `SPF`, `DMARC`, `MX`…) is
/// in `missing` (no such name) or in `different` (another value).
pub fn dns_answers(
    dom: &SendingDomain,
    queries: &[crate::dns::Query],
    missing: &[&str],
    different: &[&str],
) -> crate::dns::Answers {
    use crate::dns::{Found, Lookup, Query};
    let lookups = queries
        .iter()
        .map(|q| {
            let records: Vec<&DnsRecord> = dom
                .dns_records
                .iter()
                .filter(|r| Query::of(r, &dom.domain) == *q)
                .collect();
            let label = |r: &&DnsRecord| crate::app::domains::dns::label(r);
            let lookup = if records.iter().any(|r| missing.contains(&label(r).as_str())) {
                Lookup::NoName
            } else {
                Lookup::Records(
                    records
                        .iter()
                        .map(|r| {
                            let changed = different.contains(&label(r).as_str());
                            Found {
                                priority: (r.kind == "MX")
                                    .then(|| u16::try_from(r.priority).unwrap_or(0)),
                                value: if changed {
                                    format!("{} -changed", r.value)
                                } else {
                                    r.value.clone()
                                },
                            }
                        })
                        .collect(),
                )
            };
            (q.clone(), lookup)
        })
        .collect();
    crate::dns::Answers {
        resolver: "127.0.0.1:5353".into(),
        lookups,
    }
}

/// Test drivers of `update`, shared by the pane tests.
pub mod drive {
    use std::time::Duration;

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use crate::api::{ApiError, ServiceError};
    use crate::app::{ApiReply, ApiRequest, Cmd, Model, Msg, RequestId, update};

    /// Presses a key.
    pub fn key(m: &mut Model, code: KeyCode) -> Vec<Cmd> {
        update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
    }

    /// Presses Ctrl and a letter.
    pub fn ctrl(m: &mut Model, c: char) -> Vec<Cmd> {
        update(
            m,
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
        )
    }

    /// Types text key by key.
    pub fn chars(m: &mut Model, s: &str) {
        for c in s.chars() {
            key(m, KeyCode::Char(c));
        }
    }

    /// The requests among commands.
    pub fn api(cmds: &[Cmd]) -> Vec<(RequestId, ApiRequest)> {
        cmds.iter()
            .filter_map(|c| c.request().map(|(id, req)| (id, req.clone())))
            .collect()
    }

    /// Shows `pane`, as its key would: the commands of entering it,
    /// with the requests it queued.
    pub fn switch(m: &mut Model, pane: crate::app::Pane) -> Vec<Cmd> {
        and_queued(m.switch_pane(pane), m)
    }

    /// `cmds`, returned by a pane's function called directly (outside
    /// `update`, which hands them out itself), with the requests it queued.
    pub fn and_queued(mut cmds: Vec<Cmd>, m: &mut Model) -> Vec<Cmd> {
        cmds.append(&mut m.take_queued());
        cmds
    }

    /// Delivers the reply to a request.
    pub fn reply(m: &mut Model, id: RequestId, reply: ApiReply) -> Vec<Cmd> {
        update(
            m,
            Msg::Api {
                id,
                latency: Duration::from_millis(3),
                reply: Box::new(reply),
            },
        )
    }

    /// Answers every `Cmd::ResolveRecords` among `cmds` with `answer` (given
    /// the questions); returns the commands that follow.
    pub fn resolve(
        m: &mut Model,
        cmds: &[Cmd],
        answer: impl Fn(&[crate::dns::Query]) -> crate::dns::Answers,
    ) -> Vec<Cmd> {
        let mut next = Vec::new();
        for c in cmds {
            if let Cmd::ResolveRecords { id, records } = c {
                let answers = answer(records);
                next.extend(update(m, Msg::DnsResolved { id: *id, answers }));
            }
        }
        next
    }

    /// The questions of the `Cmd::ResolveRecords` among `cmds`.
    pub fn questions(cmds: &[Cmd]) -> Vec<crate::dns::Query> {
        cmds.iter()
            .filter_map(|c| match c {
                Cmd::ResolveRecords { records, .. } => Some(records.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// An error answer of the service with `status` and JSON `body`.
    pub fn service_error(status: u16, body: &str) -> ApiError {
        ApiError::Service(Box::new(ServiceError::from_body(
            status,
            body.as_bytes(),
            None,
        )))
    }
}
