//! The seeded workspaces, identical on every start (ids derive from fixed
//! seeds; timestamps are fixed offsets from the start of simulated time).
//!
//! `pk_live_demo` holds: five senders (three email, one of them
//! `disconnected`, i.e. not ready to send; two network); five searches (one
//! with 2,000 results — or `--scale N` —, one with a run in flight at start,
//! one never run, one whose latest run failed); nine campaigns covering
//! every status (a 5,000-lead draft for paging, an empty draft, three
//! active — one of them [`ALWAYS_ON`], 2,000 leads that keep sending for a
//! quarter of an hour of real time —, one launching, one paused, two
//! completed — produced by running the real simulation from their launch
//! time); nine threads (drafts with and without messages, one with
//! attachment metadata, active ones with unread replies, two awaiting a
//! reply that arrives 4 and 9 simulated minutes after start — one of them
//! [`LONG_THREAD_MESSAGES`] messages long —, archived, and a hidden warm-up
//! thread); five domains in every status (one verifying that verifies a few
//! seconds after start, one `slow-dns` that never does, one `fail-dkim`
//! that failed); a complete company profile. `pk_live_demo_other` holds one
//! of most things.

use serde_json::json;

use super::clock::{DAY, HOUR, MINUTE, SimMs, iso};
use super::ids::{IdGen, hash_str, mix2, uuid_from};
use super::people::Person;
use super::sim;
use super::store::*;
use crate::api::model::*;

/// Results of the big seeded search (without `--scale`).
pub(crate) const BIG_SEARCH_ROWS: usize = 2_000;
/// Leads of the big draft roster.
pub(crate) const BIG_ROSTER: usize = 5_000;
/// Name of the large active campaign whose stats climb while you watch.
pub const ALWAYS_ON: &str = "Fintech finance leaders — always-on";
/// Leads of [`ALWAYS_ON`].
pub(crate) const ALWAYS_ON_ROSTER: usize = 2_000;
/// Messages of the long seeded thread (Mateo Silva).
pub const LONG_THREAD_MESSAGES: usize = 300;
/// The seeded reply to Nadia Haddad's thread arrives this long after start.
pub(crate) const AWAITING_REPLY_AT: SimMs = 4 * MINUTE;
/// The seeded reply to the long thread arrives this long after start.
pub(crate) const LONG_THREAD_REPLY_AT: SimMs = 9 * MINUTE;

/// Builds the whole world at simulated time `epoch`.
pub(crate) fn world(epoch: SimMs, scale: Option<usize>) -> World {
    World {
        workspaces: vec![demo(epoch, scale), other(epoch)],
        ids: IdGen::new(0x0075_9057),
        poller_chains: 0,
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a row of seed or fixture data: one argument per column reads like the data"
)]
fn sender(
    g: &mut IdGen,
    kind: Channel,
    first: &str,
    last: &str,
    email: &str,
    status: &str,
    daily: u64,
    default: bool,
) -> SenderAccount {
    let network = kind == Channel::Network;
    SenderAccount {
        id: g.uuid(),
        kind,
        email_address: email.to_owned(),
        provider_account_id: format!("acct_{:012x}", g.seed() & 0xffff_ffff_ffff),
        display_name: format!("{first} {last}"),
        status: status.to_owned(),
        first_name: first.to_owned(),
        last_name: last.to_owned(),
        daily_limit: daily,
        is_default_sender: default,
        weekly_connection_limit: if network { daily * 4 } else { 0 },
        weekly_message_limit: if network { daily * 6 } else { 0 },
        is_premium: network && default,
    }
}

fn plan(
    queries: &[&str],
    reason: &str,
    target: Option<u64>,
    countries: &[&str],
    titles: &[&str],
    criteria: &[(&str, CompanyCriterionKind, CriterionOperator, &str)],
    monitoring: bool,
) -> SourcePlan {
    SourcePlan {
        source_id: SourceId::NetworkPeople,
        query: queries.iter().map(ToString::to_string).collect(),
        reason: reason.to_owned(),
        result_target: Some(match target {
            Some(count) => ResultTarget::Count { count },
            None => ResultTarget::All,
        }),
        recurrence: Some(if monitoring {
            Recurrence::Monitoring
        } else {
            Recurrence::Finite
        }),
        geography: (!countries.is_empty()).then(|| Geography {
            mode: "explicit".into(),
            country_codes: countries.iter().map(ToString::to_string).collect(),
            city_names: None,
        }),
        company_size: Some(CompanySize {
            min: Some(50),
            max: Some(1000),
        }),
        person_criteria: (!titles.is_empty()).then(|| {
            vec![PersonCriterion {
                id: "titles".into(),
                kind: PersonCriterionKind::CurrentTitle,
                values: titles.iter().map(ToString::to_string).collect(),
            }]
        }),
        unresolved_preferences: None,
        company_criteria: (!criteria.is_empty()).then(|| {
            criteria
                .iter()
                .enumerate()
                .map(|(i, (_, kind, op, value))| CompanyCriterion {
                    id: format!("c{}", i + 1),
                    kind: kind.clone(),
                    operator: op.clone(),
                    value: value.to_string(),
                })
                .collect()
        }),
        ranked_company_cohort: Some(RankedCompanyCohort::Default { limit: Some(200) }),
    }
}

struct SearchSpec<'a> {
    title: &'a str,
    kind: SearchKind,
    persona: usize,
    intent: &'a str,
    plan: SourcePlan,
    created_days_ago: i64,
    rows: usize,
    past_runs: usize,
}

fn search(g: &mut IdGen, user_seed: u64, epoch: SimMs, spec: SearchSpec<'_>) -> SearchRec {
    let created = epoch - spec.created_days_ago * DAY;
    let id = g.uuid();
    let s = Search {
        search_id: id.clone(),
        title: spec.title.to_owned(),
        description: format!("{} — found on the professional network, scored for fit.", spec.intent),
        kind: spec.kind,
        surface: "lead-finder".into(),
        definition_hash: Some(super::ids::hex64(hash_str(spec.title) ^ user_seed)),
        intent: spec.intent.to_owned(),
        seller_context: "Northwind sells a RevOps data platform that keeps CRM, billing and product usage in sync.".into(),
        source_plans: vec![spec.plan],
        details: Some(SearchDetails {
            channel: Some("email".into()),
            signal: Some("Role change, hiring or a post on a relevant topic".into()),
            expected_lead: Some(format!("A decision maker: {}", spec.intent.to_lowercase())),
            why_this_should_work: Some("These people own the budget and feel the pain weekly.".into()),
            planner_assumed_preferences: Some(vec!["Prefer companies with 50–1000 employees".into()]),
        }),
        last_run_id: None,
        lead_count: 0,
        result_count: 0,
        contacted_count: 0,
        created_at: iso(created),
        updated_at: iso(created),
    };
    let mut rec = SearchRec::new(s, spec.persona, mix2(hash_str(&id), user_seed));
    let runs = spec.past_runs.max(usize::from(spec.rows > 0));
    for r in 0..runs {
        // Past runs are spread between creation and a day ago.
        let span = (spec.created_days_ago - 1).max(0) * DAY;
        let at = created + span * (r as i64 + 1) / (runs as i64 + 1) + HOUR;
        let idx = sim_run(&mut rec, g, at);
        let share = spec.rows / runs + usize::from(r < spec.rows % runs);
        let share = u32::try_from(share).unwrap_or(u32::MAX);
        rec.runs[idx].target = share;
        rec.runs[idx].added = share;
        let run = u32::try_from(idx).unwrap_or(u32::MAX);
        rec.add_rows(share, run, rec.runs[idx].end, |seed| {
            let x = super::ids::unit(mix2(seed, 0x57a7));
            if x < 0.08 {
                RowStatus::Contacted
            } else if x < 0.12 {
                RowStatus::Dismissed
            } else {
                RowStatus::New
            }
        });
        rec.search.updated_at = iso(rec.runs[idx].end);
    }
    rec
}

fn sim_run(rec: &mut SearchRec, g: &mut IdGen, at: SimMs) -> usize {
    sim::start_run(rec, at, g)
}

#[expect(
    clippy::too_many_arguments,
    reason = "a row of seed or fixture data: one argument per column reads like the data"
)]
fn campaign(
    g: &mut IdGen,
    ws: &Workspace,
    kind: Channel,
    name: &str,
    senders: &[usize],
    steps: &[(NodeType, &str, &str)],
    leads: usize,
    from: &SearchRec,
    created: SimMs,
) -> CampaignRec {
    let mut c = new_campaign(g, &ws.user_id, kind, name, created);
    c.sender_ids = senders.iter().map(|i| ws.senders[*i].id.clone()).collect();
    if !steps.is_empty() {
        let id = c.c.id.clone();
        c.nodes = steps
            .iter()
            .enumerate()
            .map(|(i, (k, s, b))| node(g.uuid(), &id, i, k.clone(), s, b))
            .collect();
    }
    let offset = (hash_str(name) % 997) as usize;
    let persona = if from.rows.is_empty() {
        0
    } else {
        from.persona
    };
    // A roster never holds one identity twice (imports deduplicate), so a
    // person whose identity is taken is replaced by a fresh one.
    let mut taken = std::collections::HashSet::new();
    c.leads.reserve_exact(leads);
    for i in 0..leads {
        let fresh =
            |attempt: u64| Person::new(mix2(hash_str(name), i as u64 | attempt << 32), persona);
        let (mut p, row) = if from.rows.is_empty() {
            (fresh(0), None)
        } else {
            let row = (offset + i * 7) % from.rows.len();
            let seed = Some(from.rows[row].seed);
            if i >= from.rows.len() {
                // Rosters larger than the search get fresh people.
                (fresh(0), seed)
            } else {
                (from.person(row), seed)
            }
        };
        let mut attempt = 1;
        while !taken.insert(dedup_key(&c.c.kind, &p.email(), &p.network_url())) {
            p = fresh(attempt);
            attempt += 1;
        }
        let text = LeadText::Person {
            seed: p.seed,
            persona,
            row,
        };
        let at = created + (i as i64 % 60) * MINUTE;
        let (id, seed) = (g.next_uuid(), g.seed());
        c.leads.push(pending_lead(id, seed, text, at));
    }
    c
}

fn email_steps() -> Vec<(NodeType, &'static str, &'static str)> {
    vec![
        (
            NodeType::Email,
            "Quick question about %company%'s RevOps stack",
            "Hi %first_name%,\n\nSaw that %custom_fields.hook% — congrats. Teams like yours usually lose a day a week reconciling CRM and billing data.\n\nWorth a 15-minute look at how Northwind keeps them in sync?\n\nMaya",
        ),
        (
            NodeType::Email,
            "Re: Quick question about %company%'s RevOps stack",
            "Hi %first_name%, bumping this in case it got buried. Happy to send a 2-minute video instead.\n\nMaya",
        ),
        (NodeType::End, "", ""),
    ]
}

fn network_steps() -> Vec<(NodeType, &'static str, &'static str)> {
    vec![
        (
            NodeType::ConnectionRequest,
            "",
            "Hi %first_name% — I work with %position%s at companies like %company%. Would love to connect.",
        ),
        (
            NodeType::Message,
            "",
            "Thanks for connecting, %first_name%! Curious how you handle pipeline reporting today at %company%?",
        ),
        (NodeType::End, "", ""),
    ]
}

#[expect(
    clippy::too_many_arguments,
    reason = "a row of seed or fixture data: one argument per column reads like the data"
)]
fn thread(
    g: &mut IdGen,
    ws: &Workspace,
    status: ThreadStatus,
    sender: Option<usize>,
    email: &str,
    name: &str,
    subject: &str,
    created: SimMs,
) -> ThreadRec {
    ThreadRec::new(Thread {
        id: g.uuid(),
        channel: "email".into(),
        status,
        account_id: sender.map(|i| ws.senders[i].id.clone()),
        participant_email: email.to_lowercase(),
        participant_name: Some(name.to_owned()),
        draft_subject: (!subject.is_empty()).then(|| subject.to_owned()),
        draft_body_text: None,
        draft_body_html: None,
        draft_cc: None,
        draft_bcc: None,
        unread_count: 0,
        draft_attachments: Vec::new(),
        created_at: Some(iso(created)),
        updated_at: Some(iso(created)),
    })
}

fn message(g: &mut IdGen, t: &mut ThreadRec, inbound: bool, subject: &str, body: &str, at: SimMs) {
    t.messages.push(ThreadMessage {
        id: g.uuid(),
        conversation_id: t.t.id.clone(),
        direction: if inbound { "inbound" } else { "outbound" }.into(),
        subject: subject.to_owned(),
        body_text: body.to_owned(),
        sent_at: iso(at),
    });
    t.t.updated_at = Some(iso(at));
    if inbound {
        t.t.unread_count += 1;
    }
}

/// The metadata of two files attached to a draft (read-only through the
/// public interface).
fn slides(user_id: &str, thread_id: &str) -> Vec<Attachment> {
    let file = |name: &str, mime: &str, size: u64, cid: &str| {
        let path = format!("{user_id}/{thread_id}/{name}");
        Attachment {
            name: name.to_owned(),
            bucket: "thread-attachments".into(),
            url: format!(
                "https://files.demo-mail.example/thread-attachments/{path}?expires=3600&sig={:016x}",
                hash_str(&path)
            ),
            path,
            mime_type: mime.to_owned(),
            size,
            content_id: cid.to_owned(),
        }
    };
    vec![
        file("helix-webinar-slides.pdf", "application/pdf", 2_483_112, ""),
        file(
            "pipeline-chart.png",
            "image/png",
            184_220,
            "pipeline-chart@northwind-demo.io",
        ),
    ]
}

/// Schedules the participant's reply to the last (outbound) message.
fn reply_soon(t: &mut ThreadRec, at: SimMs) {
    if let Some(last) = t.messages.last() {
        let subject = sim::reply_subject(&last.subject);
        let seed = hash_str(&last.id);
        t.expect_reply(Reply { at, seed, subject });
    }
}

/// An active thread whose participant answers a few seconds after start.
fn awaiting_reply(g: &mut IdGen, ws: &Workspace, sender: usize, e: SimMs) -> ThreadRec {
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Active,
        Some(sender),
        "nadia.haddad@lumen.health",
        "Nadia Haddad",
        "",
        e - 2 * DAY,
    );
    let subject = "Lumen's quarterly forecast";
    message(
        g,
        &mut t,
        false,
        subject,
        "Hi Nadia, how long does Lumen's quarterly forecast take to close today?",
        e - 2 * DAY,
    );
    message(
        g,
        &mut t,
        true,
        &sim::reply_subject(subject),
        "About two weeks, mostly spreadsheet work. Why do you ask?",
        e - DAY,
    );
    message(
        g,
        &mut t,
        false,
        &sim::reply_subject(subject),
        "Teams like yours get it to two days. Here is a 3-minute walkthrough.",
        e - 12 * MINUTE,
    );
    t.t.unread_count = 0;
    reply_soon(&mut t, e + AWAITING_REPLY_AT);
    t
}

/// An active thread of [`LONG_THREAD_MESSAGES`] messages (paging), with a
/// reply on its way.
fn long_thread(g: &mut IdGen, ws: &Workspace, sender: usize, e: SimMs) -> ThreadRec {
    let start = e - 75 * DAY;
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Active,
        Some(sender),
        "mateo.silva@quarry.io",
        "Mateo Silva",
        "",
        start,
    );
    let n = LONG_THREAD_MESSAGES;
    let span = 75 * DAY - 25 * MINUTE;
    for i in 0..n {
        let at_of = |i: usize| start + span * i as i64 / (n as i64 - 1);
        let at = at_of(i);
        // The day of the report an answer belongs to.
        let day = (at_of(i - i % 2) - start) / DAY + 1;
        let opening = format!("Quarry pilot: day {day} sync report");
        // Mateo reports, Sam answers; the last message is Sam's.
        let inbound = i % 2 == 0;
        let (subject, body) = if inbound {
            (
                opening,
                format!(
                    "Hi Sam, day {day}: the sync ran {} times and flagged {} conflicts. Anything we should tune?\n\nMateo",
                    150 + mix2(i as u64, 7) % 90,
                    mix2(i as u64, 8) % 40
                ),
            )
        } else {
            (
                sim::reply_subject(&opening),
                format!(
                    "Thanks Mateo, that is within range. I adjusted the dedup rule for billing contacts (message {} of the pilot log).\n\nSam",
                    i + 1
                ),
            )
        };
        message(g, &mut t, inbound, &subject, &body, at);
    }
    t.t.unread_count = 0;
    reply_soon(&mut t, e + LONG_THREAD_REPLY_AT);
    t
}

fn domain(g: &mut IdGen, ws: &Workspace, name: &str, created: SimMs) -> DomainRec {
    let id = g.uuid();
    DomainRec {
        d: SendingDomain {
            dns_records: dns_records(name, hash_str(&id)),
            provider_domain_id: format!("dom_{:016x}", hash_str(&id)),
            id,
            user_id: ws.user_id.clone(),
            domain: name.to_owned(),
            status: DomainStatus::Pending,
            verified_at: None,
            created_at: iso(created),
            updated_at: iso(created),
        },
        propagated_at: None,
        chain: None,
        chains: 0,
    }
}

fn full_context() -> (CompanyContext, Profile) {
    let v = |xs: &[&str]| xs.iter().map(ToString::to_string).collect::<Vec<_>>();
    let ctx = CompanyContext {
        user: UserSection {
            professional_background: "Ten years in revenue operations; previously built the RevOps team at a Series C SaaS company.".into(),
        },
        company: CompanySection {
            overview: "Northwind (demo) is a RevOps data platform for B2B SaaS companies of 50 to 1,000 people.".into(),
            product: "Two-way sync between CRM, billing and product analytics, with pipeline and revenue reporting on top.".into(),
            problem_solved: "Revenue teams lose hours every week reconciling CRM, billing and usage data by hand.".into(),
            differentiators: "Set up in a day, no data warehouse required, field-level audit trail.".into(),
            network_presence: "Founder-led posting twice a week; 4,800 followers on the company page.".into(),
        },
        content: ContentSection {
            network_voice: "Practical, numbers-first, no hype.".into(),
            preferred_tone: "Friendly and direct".into(),
            posting_cadence: "Twice a week".into(),
            recommended_topics: v(&["forecast accuracy", "CRM hygiene", "usage-based pricing"]),
            content_formats: v(&["short posts", "carousels", "customer stories"]),
            topics_to_avoid: v(&["competitor bashing", "politics"]),
        },
        market: MarketSection {
            target_audience: "RevOps and finance leaders at B2B SaaS companies".into(),
            industry_context: "Tool sprawl and pressure on efficient growth make data quality a board topic.".into(),
            icp_job_titles: v(&["VP Revenue Operations", "Head of RevOps", "CFO"]),
            icp_industries: v(&["Software", "Fintech"]),
            icp_company_sizes: v(&["51-200", "201-500", "501-1000"]),
            icp_pain_points: v(&["manual reconciliation", "unreliable forecasts", "churn surprises"]),
            icp_keywords: v(&["RevOps", "forecast", "CRM sync"]),
        },
        extra: json!({"demo": true}).as_object().cloned().unwrap_or_default(),
    };
    let profile = Profile {
        first_name: "Maya".into(),
        last_name: "Chen".into(),
        company_name: "Northwind (demo)".into(),
        website: "https://northwind-demo.io".into(),
    };
    (ctx, profile)
}

fn demo(e: SimMs, scale: Option<usize>) -> Workspace {
    let mut g = IdGen::new(0xD330_0001);
    // The always-on campaign and the threads that came later draw ids from
    // their own generator, so the ids of what came before (some are quoted
    // in the README) stay the same.
    let mut g2 = IdGen::new(0xD330_0002);
    let user_seed = 0xD3;
    let (context, profile) = full_context();
    let mut ws = Workspace {
        key: super::DEMO_KEY,
        user_id: uuid_from(mix2(user_seed, 1)),
        senders: Vec::new(),
        searches: Vec::new(),
        campaigns: Vec::new(),
        threads: Vec::new(),
        domains: Vec::new(),
        context,
        profile,
        access: Access {
            kind: "paid_plan".into(),
            can_create_leads: true,
            verified_at: Some(iso(e - 60 * DAY)),
        },
        pass: None,
        redeemed: Vec::new(),
    };
    ws.senders = demo_senders(&mut g);
    ws.searches = demo_searches(&mut g, user_seed, e, scale);
    ws.campaigns = demo_campaigns(&mut g, &mut g2, &ws, e);
    ws.threads = demo_threads(&mut g, &mut g2, &ws, e);
    ws.domains = demo_domains(&mut g, &ws, e);
    ws
}

/// Indices of the demo senders (see [`demo_senders`]) the campaigns and
/// threads send from.
const MAYA_EM: usize = 0;
const SAM_EM: usize = 1;
const MAYA_NET: usize = 3;
const LEO_NET: usize = 4;

/// The demo workspace's senders: two ready email senders, one not ready,
/// two network senders.
fn demo_senders(g: &mut IdGen) -> Vec<SenderAccount> {
    vec![
        sender(
            g,
            Channel::Email,
            "Maya",
            "Chen",
            "maya@northwind-demo.io",
            SENDER_READY,
            50,
            true,
        ),
        sender(
            g,
            Channel::Email,
            "Sam",
            "Ortiz",
            "sam@northwind-demo.io",
            SENDER_READY,
            40,
            false,
        ),
        sender(
            g,
            Channel::Email,
            "Ops",
            "Inbox",
            "ops@northwind-demo.io",
            SENDER_NOT_READY,
            30,
            false,
        ),
        sender(
            g,
            Channel::Network,
            "Maya",
            "Chen",
            "",
            SENDER_READY,
            25,
            true,
        ),
        sender(
            g,
            Channel::Network,
            "Leo",
            "Park",
            "",
            SENDER_READY,
            20,
            false,
        ),
    ]
}

/// The demo workspace's searches, oldest first.
#[expect(
    clippy::too_many_lines,
    reason = "A table of seed data: one literal per search."
)]
fn demo_searches(g: &mut IdGen, user_seed: u64, e: SimMs, scale: Option<usize>) -> Vec<SearchRec> {
    use CompanyCriterionKind as K;
    use CriterionOperator as O;
    let big = search(
        g,
        user_seed,
        e,
        SearchSpec {
            title: "RevOps leaders at Series B SaaS",
            kind: SearchKind::Recurring,
            persona: 0,
            intent: "Find revenue operations leaders at Series B SaaS companies in Europe",
            plan: plan(
                &["VP Revenue Operations SaaS", "Head of RevOps Series B"],
                "RevOps owns the tooling budget and feels the data pain",
                Some(50),
                &["DE", "GB", "NL"],
                &["VP Revenue Operations", "Head of RevOps"],
                &[
                    ("c1", K::BusinessModel, O::Is, "B2B SaaS"),
                    ("c2", K::Exclusion, O::IsNot, "Agencies"),
                ],
                true,
            ),
            created_days_ago: 40,
            rows: scale.unwrap_or(BIG_SEARCH_ROWS),
            past_runs: 4,
        },
    );
    let growth = search(
        g,
        user_seed,
        e,
        SearchSpec {
            title: "Heads of Growth in fintech (DACH)",
            kind: SearchKind::Static,
            persona: 1,
            intent: "Growth leaders at fintechs in Germany, Austria and Switzerland",
            plan: plan(
                &["Head of Growth fintech", "VP Growth payments"],
                "Growth teams buy attribution tooling",
                Some(120),
                &["DE", "AT", "CH"],
                &["Head of Growth", "VP Growth"],
                &[("c1", K::Industry, O::Is, "Fintech")],
                false,
            ),
            created_days_ago: 12,
            rows: 120,
            past_runs: 1,
        },
    );
    let mut platform = search(
        g,
        user_seed,
        e,
        SearchSpec {
            title: "Platform engineering managers, 200–1000 staff",
            kind: SearchKind::Recurring,
            persona: 2,
            intent: "Engineering managers who own internal platforms",
            plan: plan(
                &["platform engineering manager", "head of infrastructure"],
                "Platform teams feel tool sprawl first",
                Some(30),
                &["US", "CA"],
                &[],
                &[],
                true,
            ),
            created_days_ago: 6,
            rows: 60,
            past_runs: 2,
        },
    );
    // A run in flight at start: queued for a moment, then running, then done.
    sim::start_run(&mut platform, e - 30_000, g);
    let cfo = search(
        g,
        user_seed,
        e,
        SearchSpec {
            title: "CFOs at bootstrapped e-commerce brands",
            kind: SearchKind::Static,
            persona: 3,
            intent: "Finance leaders at profitable D2C brands",
            plan: plan(
                &["CFO e-commerce", "VP Finance D2C brand"],
                "Finance leaders sign off on data tooling",
                None,
                &["GB", "IE"],
                &["CFO", "VP Finance"],
                &[("c1", K::Industry, O::Is, "E-commerce")],
                false,
            ),
            created_days_ago: 1,
            rows: 0,
            past_runs: 0,
        },
    );
    let mut founders = search(
        g,
        user_seed,
        e,
        SearchSpec {
            title: "Founders hiring their first SDR",
            kind: SearchKind::Recurring,
            persona: 4,
            intent: "Founders about to build an outbound team",
            plan: plan(
                &["founder hiring SDR", "first sales hire startup"],
                "First SDR hires need pipeline tooling",
                Some(40),
                &["US", "GB"],
                &["Founder", "CEO"],
                &[],
                true,
            ),
            created_days_ago: 20,
            rows: 35,
            past_runs: 1,
        },
    );
    // A provider outage: the latest run failed two hours ago.
    founders.fail_runs = true;
    sim::start_run(&mut founders, e - 2 * HOUR, g);
    let mut searches = vec![big, growth, platform, cfo, founders];
    // Lists read newest first from the end: keep creation order.
    searches.sort_by(|a, b| a.search.created_at.cmp(&b.search.created_at));
    searches
}

type Steps = [(NodeType, &'static str, &'static str)];

/// A demo campaign whose roster comes from search `from`.
#[expect(
    clippy::too_many_arguments,
    reason = "a row of seed or fixture data: one argument per column reads like the data"
)]
fn mk(
    g: &mut IdGen,
    ws: &Workspace,
    kind: Channel,
    name: &str,
    s: &[usize],
    steps: &Steps,
    n: usize,
    from: usize,
    created: SimMs,
) -> CampaignRec {
    campaign(g, ws, kind, name, s, steps, n, &ws.searches[from], created)
}

/// The demo workspace's campaigns in every state, oldest first.
#[expect(
    clippy::too_many_lines,
    reason = "A table of seed data: one literal per campaign, then their launches."
)]
fn demo_campaigns(g: &mut IdGen, g2: &mut IdGen, ws: &Workspace, e: SimMs) -> Vec<CampaignRec> {
    let mut draft = mk(
        g,
        ws,
        Channel::Email,
        "Q3 RevOps outreach (5,000-lead draft)",
        &[MAYA_EM],
        &email_steps(),
        BIG_ROSTER,
        0,
        e - 2 * DAY,
    );
    draft.c.daily_limit = Some(200);
    let empty = mk(
        g,
        ws,
        Channel::Network,
        "Platform eng intros (empty draft)",
        &[LEO_NET],
        &[],
        0,
        2,
        e - 3 * HOUR,
    );
    let mut active_email = mk(
        g,
        ws,
        Channel::Email,
        "Series B RevOps — wave 2",
        &[MAYA_EM, SAM_EM],
        &email_steps(),
        120,
        0,
        e - DAY,
    );
    active_email.c.daily_limit = Some(100);
    let active_net = mk(
        g,
        ws,
        Channel::Network,
        "DACH growth leaders (network)",
        &[MAYA_NET, LEO_NET],
        &network_steps(),
        80,
        1,
        e - DAY,
    );
    let mut paused = mk(
        g,
        ws,
        Channel::Email,
        "Platform eng — EU",
        &[SAM_EM],
        &email_steps(),
        60,
        2,
        e - 2 * DAY,
    );
    // Below the roster size, so the campaign is mid-way when paused.
    paused.c.daily_limit = Some(40);
    let done_net = mk(
        g,
        ws,
        Channel::Network,
        "Founders — first SDR (network)",
        &[MAYA_NET],
        &network_steps(),
        40,
        4,
        e - 6 * DAY,
    );
    let done_email = mk(
        g,
        ws,
        Channel::Email,
        "Finance leaders Q2",
        &[MAYA_EM],
        &email_steps(),
        30,
        1,
        e - 12 * DAY,
    );
    let launching = mk(
        g,
        ws,
        Channel::Email,
        "Growth leaders — launch week",
        &[SAM_EM],
        &email_steps(),
        25,
        1,
        e - 2 * HOUR,
    );
    let mut plan_launch = vec![
        (active_email, e - 40 * MINUTE, None),
        (active_net, e - 30 * MINUTE, None),
        (paused, e - 5 * HOUR, Some(e - 2 * HOUR)),
        (done_net, e - 4 * DAY, None),
        (done_email, e - 10 * DAY, None),
        (launching, e, None),
    ];
    let mut campaigns = vec![draft, empty];
    for (mut c, at, pause_at) in plan_launch.drain(..) {
        let cap = sim::daily_cap(&c, &ws.senders);
        sim::launch(&mut c, at, cap);
        if let Some(p) = pause_at {
            sim::advance_campaign(&mut c, p);
            if c.c.status == CampaignStatus::Active {
                sim::pause(&mut c, p);
            }
        }
        sim::advance_campaign(&mut c, e);
        campaigns.push(c);
    }
    // Large enough to keep sending for a quarter of an hour of real time at
    // the default pace: the campaign whose stats visibly climb.
    let mut always_on = mk(
        g2,
        ws,
        Channel::Email,
        ALWAYS_ON,
        &[MAYA_EM, SAM_EM],
        &email_steps(),
        ALWAYS_ON_ROSTER,
        1,
        e - 3 * DAY,
    );
    always_on.c.daily_limit = Some(1000);
    let cap = sim::daily_cap(&always_on, &ws.senders);
    sim::launch(&mut always_on, e - 90 * MINUTE, cap);
    sim::advance_campaign(&mut always_on, e);
    campaigns.push(always_on);
    campaigns.sort_by(|a, b| a.c.created_at.cmp(&b.c.created_at));
    campaigns
}

/// The demo workspace's inbox threads, oldest first.
#[expect(
    clippy::too_many_lines,
    reason = "A table of seed data: one literal per thread and its messages."
)]
fn demo_threads(g: &mut IdGen, g2: &mut IdGen, ws: &Workspace, e: SimMs) -> Vec<ThreadRec> {
    let mut threads = Vec::new();
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Draft,
        Some(MAYA_EM),
        "jonas.fischer@kestrel.io",
        "Jonas Fischer",
        "Intro: Kestrel × Northwind",
        e - 3 * HOUR,
    );
    t.t.draft_body_text = Some("Hi Jonas,\n\nGreat meeting you at SaaStock. As promised, a short note on how we keep CRM and billing in sync.\n\nMaya".into());
    t.t.draft_cc = Some("sam@northwind-demo.io".into());
    threads.push(t);
    threads.push(thread(
        g,
        ws,
        ThreadStatus::Draft,
        None,
        "priya.patel@orbital.ai",
        "Priya Patel",
        "Follow-up on pricing",
        e - 5 * HOUR,
    ));
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Active,
        Some(MAYA_EM),
        "lena.weber@granite.de",
        "Lena Weber",
        "",
        e - 3 * DAY,
    );
    message(
        g,
        &mut t,
        false,
        "Forecast accuracy at Granite",
        "Hi Lena, saw your post on forecast accuracy — would a benchmark help?",
        e - 3 * DAY,
    );
    message(
        g,
        &mut t,
        true,
        "Re: Forecast accuracy at Granite",
        "Hi Maya, yes please — send it over.",
        e - 2 * DAY,
    );
    message(
        g,
        &mut t,
        false,
        "Re: Forecast accuracy at Granite",
        "Here it is. Happy to walk you through it Thursday.",
        e - 2 * DAY + 2 * HOUR,
    );
    message(
        g,
        &mut t,
        true,
        "Re: Forecast accuracy at Granite",
        "Thursday 3pm works.",
        e - 4 * HOUR,
    );
    t.t.unread_count = 1;
    threads.push(t);
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Active,
        Some(SAM_EM),
        "kofi.okafor@tidal.io",
        "Kofi Okafor",
        "",
        e - DAY,
    );
    message(
        g,
        &mut t,
        false,
        "Tidal's RevOps stack",
        "Hi Kofi, quick question about how Tidal reconciles billing data.",
        e - DAY,
    );
    message(
        g,
        &mut t,
        true,
        "Re: Tidal's RevOps stack",
        "Interesting timing — we're evaluating tools this quarter.",
        e - 6 * HOUR,
    );
    message(
        g,
        &mut t,
        true,
        "Re: Tidal's RevOps stack",
        "Also looping in our CFO.",
        e - 5 * HOUR,
    );
    threads.push(t);
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Archived,
        Some(MAYA_EM),
        "old.lead@redwood.com",
        "Alex Rossi",
        "",
        e - 20 * DAY,
    );
    message(
        g,
        &mut t,
        false,
        "Checking in",
        "Hi Alex, checking in one last time.",
        e - 20 * DAY,
    );
    t.t.unread_count = 0;
    threads.push(t);
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Draft,
        Some(SAM_EM),
        "hana.ito@helix.ai",
        "Hana Ito",
        "Re: your webinar",
        e - 8 * HOUR,
    );
    message(
        g,
        &mut t,
        true,
        "Your webinar",
        "Hi Sam, loved the webinar — do you have the slides?",
        e - 8 * HOUR,
    );
    t.t.draft_body_text = Some("Hi Hana, attached are the slides…".into());
    t.t.draft_attachments = slides(&ws.user_id, &t.t.id);
    threads.push(t);
    let mut t = thread(
        g,
        ws,
        ThreadStatus::Active,
        Some(MAYA_EM),
        "warmup-7@demo-mail.example",
        "Warm-up",
        "",
        e - DAY,
    );
    t.warmup = true;
    message(g, &mut t, false, "warm-up", "warm-up message", e - DAY);
    t.t.unread_count = 0;
    threads.push(t);
    threads.push(awaiting_reply(g2, ws, MAYA_EM, e));
    threads.push(long_thread(g2, ws, SAM_EM, e));
    threads.sort_by(|a, b| a.t.created_at.cmp(&b.t.created_at));
    threads
}

/// The demo workspace's sending domains, one per verification outcome.
fn demo_domains(g: &mut IdGen, ws: &Workspace, e: SimMs) -> Vec<DomainRec> {
    let mut verified = domain(g, ws, "northwind-demo.io", e - 30 * DAY);
    sim::trigger_verify(&mut verified, e - 30 * DAY + HOUR);
    let mut failed = domain(g, ws, "fail-dkim.northwind-demo.io", e - 3 * DAY);
    sim::trigger_verify(&mut failed, e - 2 * DAY);
    let mut slow = domain(g, ws, "slow-dns.northwind-demo.io", e - DAY);
    sim::trigger_verify(&mut slow, e - 30 * MINUTE);
    let mut verifying = domain(g, ws, "mail.northwind-demo.io", e - HOUR);
    sim::trigger_verify(&mut verifying, e - 4 * MINUTE);
    let pending = domain(g, ws, "news.northwind-demo.io", e - 10 * MINUTE);
    let mut domains = vec![verified, failed, slow, verifying, pending];
    domains.sort_by(|a, b| a.d.created_at.cmp(&b.d.created_at));
    for d in &mut domains {
        sim::advance_domain(d, e);
    }
    domains
}

/// The second, small workspace (key [`super::OTHER_KEY`]).
#[expect(
    clippy::too_many_lines,
    reason = "A table of seed data: one literal per resource."
)]
fn other(e: SimMs) -> Workspace {
    let mut g = IdGen::new(0x074E_0002);
    let user_seed = 0x07;
    let mut ws = Workspace {
        key: super::OTHER_KEY,
        user_id: uuid_from(mix2(user_seed, 1)),
        senders: Vec::new(),
        searches: Vec::new(),
        campaigns: Vec::new(),
        threads: Vec::new(),
        domains: Vec::new(),
        context: CompanyContext {
            company: CompanySection {
                overview: "A second, small demo workspace.".into(),
                ..Default::default()
            },
            ..Default::default()
        },
        profile: Profile {
            first_name: "Robin".into(),
            last_name: "Solo".into(),
            company_name: "Other (demo)".into(),
            website: "https://other-demo.test".into(),
        },
        access: Access {
            kind: "free_trial".into(),
            can_create_leads: true,
            verified_at: None,
        },
        pass: None,
        redeemed: Vec::new(),
    };
    ws.senders = vec![sender(
        &mut g,
        Channel::Email,
        "Robin",
        "Solo",
        "robin@other-demo.test",
        SENDER_READY,
        30,
        true,
    )];
    let s = search(
        &mut g,
        user_seed,
        e,
        SearchSpec {
            title: "Solo founders in Lisbon",
            kind: SearchKind::Static,
            persona: 4,
            intent: "Founders of small startups in Lisbon",
            plan: plan(
                &["founder Lisbon"],
                "Small teams decide fast",
                Some(15),
                &["PT"],
                &[],
                &[],
                false,
            ),
            created_days_ago: 3,
            rows: 15,
            past_runs: 1,
        },
    );
    ws.searches = vec![s];
    let c = campaign(
        &mut g,
        &ws,
        Channel::Email,
        "Other draft",
        &[0],
        &email_steps(),
        3,
        &ws.searches[0],
        e - DAY,
    );
    ws.campaigns = vec![c];
    let mut t = thread(
        &mut g,
        &ws,
        ThreadStatus::Active,
        Some(0),
        "client@other-demo.test",
        "A Client",
        "",
        e - DAY,
    );
    message(
        &mut g,
        &mut t,
        false,
        "Hello",
        "Hello from the other workspace.",
        e - DAY,
    );
    ws.threads = vec![t];
    ws.domains = vec![domain(&mut g, &ws, "other-demo.test", e - DAY)];
    ws
}
