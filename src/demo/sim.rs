//! The simulation: Lead Finder runs, campaign sending and domain
//! verification, all advanced lazily to simulated now whenever a workspace
//! is touched. Every random outcome derives from a seed, so a run of the
//! service replays identically for the same requests at the same simulated
//! times.
//!
//! Pace (simulated time; the default time scale of 60 makes one simulated
//! minute one real second):
//! - a run is `queued` for 1 minute, `running` for 3 minutes (results appear
//!   progressively), then `completed` (or `failed` for the seeded outage);
//! - a launched campaign is `launching` for 3 minutes, then `active`; it
//!   sends at most one message per minute, and at most the daily cap within
//!   any rolling 24 hours (email: `daily_limit`; network: the sum of its
//!   senders' `daily_limit`); an outcome arrives 10 to 120 minutes after a
//!   send;
//! - an outbound thread message is answered with probability
//!   [`REPLY_CHANCE`], 3 to 30 minutes later ([`REPLY_MINUTES`]);
//! - a triggered domain's records become visible 10 minutes after the first
//!   trigger; the poller chain re-checks at 10, 20, 40, 80, 160 and 320
//!   minutes after the trigger and stops at the first final status.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use serde_json::{Map, Value, json};

use super::clock::{MINUTE, SimMs, iso};
use super::ids::{IdGen, mix2, unit};
use super::store::*;
use crate::api::model::*;
use crate::num::f64_to_i64;

/// How long a run stays queued.
pub(crate) const RUN_QUEUED: SimMs = MINUTE;
/// How long a run runs.
pub(crate) const RUN_RUNNING: SimMs = 3 * MINUTE;
/// How long a launch takes.
pub(crate) const LAUNCH_DELAY: SimMs = 3 * MINUTE;
/// Spacing of sends within a campaign.
pub(crate) const SEND_SLOT: SimMs = MINUTE;
/// Records become visible this long after the first trigger.
pub(crate) const PROPAGATION: SimMs = 10 * MINUTE;

/// Brings every resource of a workspace up to `now`.
pub(crate) fn advance(ws: &mut Workspace, now: SimMs) {
    for s in &mut ws.searches {
        advance_search(s, now, &mut ws.pass);
    }
    for c in &mut ws.campaigns {
        advance_campaign(c, now);
    }
    for d in &mut ws.domains {
        advance_domain(d, now);
    }
    for t in &mut ws.threads {
        advance_thread(t, &ws.senders, now);
    }
}

// ---------------------------------------------------------------- runs

/// Stores the results each run has found by `now`; discoveries are counted
/// against an active discovery pass.
pub(crate) fn advance_search(s: &mut SearchRec, now: SimMs, pass: &mut Option<PassRec>) {
    for ri in 0..s.runs.len() {
        let due = s.runs[ri].due(now);
        let added = s.runs[ri].added;
        if due > added {
            let at = now.min(s.runs[ri].end);
            let run = u32::try_from(ri).unwrap_or(u32::MAX);
            s.add_rows(due - added, run, at, |_| RowStatus::New);
            s.runs[ri].added = due;
            if let Some(p) = pass
                && p.state(at).0 == "active"
            {
                p.used = (p.used + u64::from(due - added)).min(p.limit);
            }
        }
    }
}

/// Whether the latest run of a search is still queued or running.
pub(crate) fn live_run(s: &SearchRec, now: SimMs) -> Option<usize> {
    let i = s.runs.len().checked_sub(1)?;
    s.runs[i].status(now).is_live().then_some(i)
}

/// How many results a run of this search stores.
fn run_target(s: &SearchRec) -> u32 {
    let sum: u64 = s
        .search
        .source_plans
        .iter()
        .map(|p| match &p.result_target {
            Some(ResultTarget::Count { count }) => (*count).min(60),
            Some(ResultTarget::All) => 40,
            None => 20,
        })
        .sum();
    sum.clamp(5, 60) as u32
}

/// Queues a new run at `now` and returns its index.
pub(crate) fn start_run(s: &mut SearchRec, now: SimMs, ids: &mut IdGen) -> usize {
    let fails = s.fail_runs;
    let run = RunRec {
        id: ids.uuid(),
        trigger_id: format!("trg_{:016x}", ids.seed()),
        created: now,
        start: now + RUN_QUEUED,
        end: now + RUN_QUEUED + RUN_RUNNING,
        target: if fails { 0 } else { run_target(s) },
        added: 0,
        fails,
    };
    s.runs.push(run);
    s.search.updated_at = iso(now);
    s.runs.len() - 1
}

fn run_counts(s: &SearchRec, run: &RunRec, now: SimMs) -> Map<String, Value> {
    let queries: usize = s.search.source_plans.iter().map(|p| p.query.len()).sum();
    let stored = u64::from(run.due(now));
    let fetched = if run.status(now) == RunStatus::Queued {
        0
    } else {
        stored * 3 + stored / 2
    };
    let mut m = Map::new();
    m.insert("queries".into(), json!(queries));
    m.insert("fetched".into(), json!(fetched));
    m.insert("stored".into(), json!(stored));
    m.insert("duplicates".into(), json!(stored / 7));
    m
}

/// The run handle returned when a run starts.
pub(crate) fn run_handle(s: &SearchRec, ri: usize, now: SimMs) -> RunHandle {
    let run = &s.runs[ri];
    RunHandle {
        run_id: run.id.clone(),
        trigger_run_id: run.trigger_id.clone(),
        status: run.status(now),
        continuation_retry_after: Some(iso(run.created + 5 * MINUTE)),
        counts: run_counts(s, run, now),
    }
}

/// The `latestRun` object at `now`.
pub(crate) fn latest_run(s: &SearchRec, now: SimMs) -> Option<LatestRun> {
    let run = s.runs.last()?;
    let status = run.status(now);
    let stored_total = run.due(now);
    let n_queries: usize = s
        .search
        .source_plans
        .iter()
        .map(|p| p.query.len())
        .sum::<usize>()
        .max(1);
    let mut qi = 0usize;
    let error_text = "The people provider timed out after 3 attempts.";
    let source_status = s
        .search
        .source_plans
        .iter()
        .map(|plan| {
            let diags = plan
                .query
                .iter()
                .map(|q| {
                    let share = stored_total as usize / n_queries
                        + usize::from(qi < stored_total as usize % n_queries);
                    qi += 1;
                    diagnostics(q, share as u64, run, &status, plan)
                })
                .collect();
            SourceStatus {
                source_id: plan.source_id.as_str().to_owned(),
                status: status.as_str().to_owned(),
                error: if status == RunStatus::Failed {
                    error_text.into()
                } else {
                    String::new()
                },
                query_diagnostics: diags,
            }
        })
        .collect();
    let errors = if status == RunStatus::Failed {
        vec![RunError {
            source_id: "network_people".into(),
            error: error_text.into(),
            code: "provider_timeout".into(),
        }]
    } else {
        Vec::new()
    };
    let updated = match status {
        RunStatus::Queued => run.created,
        RunStatus::Running => now,
        _ => run.end,
    };
    Some(LatestRun {
        run_id: run.id.clone(),
        status,
        counts: run_counts(s, run, now),
        errors,
        source_status,
        trigger_run_id: run.trigger_id.clone(),
        cancelled_at: None,
        created_at: iso(run.created),
        updated_at: iso(updated),
    })
}

fn diagnostics(
    q: &str,
    stored: u64,
    run: &RunRec,
    status: &RunStatus,
    plan: &SourcePlan,
) -> QueryDiagnostics {
    let started = *status != RunStatus::Queued;
    let quality_kept = stored + stored / 6;
    let lead_extracted = quality_kept + quality_kept * 2 / 5;
    let ranked = lead_extracted + lead_extracted / 10;
    let normalized = ranked + ranked / 5;
    let fetched = if started {
        normalized + normalized / 20 + u64::from(run.fails) * 3
    } else {
        0
    };
    let max_results = match &plan.result_target {
        Some(ResultTarget::Count { count }) => *count,
        Some(ResultTarget::All) => 1000,
        None => 100,
    };
    let mut filters = Map::new();
    if let Some(g) = &plan.geography {
        filters.insert("countryCodes".into(), json!(g.country_codes));
    }
    if let Some(pc) = &plan.person_criteria {
        let titles: Vec<&String> = pc.iter().flat_map(|c| c.values.iter()).collect();
        filters.insert("currentTitles".into(), json!(titles));
    }
    let mut attempts = Vec::new();
    if started {
        attempts.push(SearchAttempt {
            attempt: 1,
            stage: "exact".into(),
            reason: "initial query".into(),
            fetched: fetched.min(fetched * 2 / 3 + 1),
            provider_query: q.to_owned(),
            filters: Value::Object(filters.clone()),
        });
        if fetched > 20 {
            attempts.push(SearchAttempt {
                attempt: 2,
                stage: "broadened".into(),
                reason: "fewer results than the target; dropped the exact-phrase match".into(),
                fetched: fetched - fetched.min(fetched * 2 / 3 + 1),
                provider_query: q.split_whitespace().take(2).collect::<Vec<_>>().join(" "),
                filters: Value::Object(filters),
            });
        }
    }
    QueryDiagnostics {
        query: q.to_owned(),
        fetched,
        normalized: if started { normalized } else { 0 },
        ranked: if started { ranked } else { 0 },
        lead_extracted: if started { lead_extracted } else { 0 },
        quality_kept: if started { quality_kept } else { 0 },
        stored,
        max_results,
        current_run_depth_expanded: attempts.len() > 1,
        search_attempts: attempts,
        error: if run.fails && *status == RunStatus::Failed {
            "provider timeout".into()
        } else {
            String::new()
        },
    }
}

// ---------------------------------------------------------------- campaigns

/// Sends allowed per rolling day for a campaign.
pub(crate) fn daily_cap(c: &CampaignRec, senders: &[SenderAccount]) -> u32 {
    match c.c.kind {
        Channel::Email => u32::try_from(c.c.daily_limit.unwrap_or(50).max(1)).unwrap_or(u32::MAX),
        _ => {
            let sum: u64 = c
                .sender_ids
                .iter()
                .filter_map(|id| senders.iter().find(|s| &s.id == id))
                .map(|s| s.daily_limit)
                .sum();
            u32::try_from(sum.max(1)).unwrap_or(u32::MAX)
        }
    }
}

/// Launches a draft whose roster has a pending lead: `launching` now,
/// `active` after [`LAUNCH_DELAY`].
pub(crate) fn launch(c: &mut CampaignRec, now: SimMs, cap: u32) {
    let active_at = now + LAUNCH_DELAY;
    let pending = (0..c.leads.len())
        .filter(|i| c.leads[*i].status == LeadStatus::Pending)
        .collect::<VecDeque<_>>();
    c.runner = Some(Runner {
        active_at,
        next_slot: active_at,
        pending,
        waits: BinaryHeap::new(),
        ready: BinaryHeap::new(),
        sent_log: VecDeque::new(),
        cap,
        paused_at: None,
    });
    c.c.status = CampaignStatus::Launching;
    c.c.updated_at = iso(now);
}

/// Pauses an active campaign.
pub(crate) fn pause(c: &mut CampaignRec, now: SimMs) {
    c.c.status = CampaignStatus::Paused;
    c.c.updated_at = iso(now);
    if let Some(r) = &mut c.runner {
        r.paused_at = Some(now);
    }
}

/// Resumes a paused campaign: waits and follow-ups shift by the time spent
/// paused (the daily-cap window does not).
pub(crate) fn resume(c: &mut CampaignRec, now: SimMs) {
    c.c.status = CampaignStatus::Active;
    c.c.updated_at = iso(now);
    if let Some(r) = &mut c.runner
        && let Some(at) = r.paused_at.take()
    {
        let shift = (now - at).max(0);
        r.waits = r
            .waits
            .drain()
            .map(|Reverse((t, i))| Reverse((t + shift, i)))
            .collect();
        r.ready = r
            .ready
            .drain()
            .map(|Reverse((t, i))| Reverse((t + shift, i)))
            .collect();
        r.next_slot += shift;
        for l in &mut c.leads {
            l.phase = match l.phase {
                Phase::Waiting(t) => Phase::Waiting(t + shift),
                Phase::Ready(t, k) => Phase::Ready(t + shift, k),
                p => p,
            };
        }
    }
}

fn send_status(kind: &NodeType) -> LeadStatus {
    match kind {
        NodeType::Email => LeadStatus::Sent,
        NodeType::ConnectionRequest => LeadStatus::ConnectionSent,
        _ => LeadStatus::MessageSent,
    }
}

fn delay(kind: &NodeType, seed: u64) -> SimMs {
    let (lo, hi) = match kind {
        NodeType::ConnectionRequest => (20, 120),
        NodeType::Email => (10, 40),
        _ => (15, 60),
    };
    f64_to_i64(f64::from(lo) + unit(seed) * f64::from(hi - lo)) * MINUTE
}

/// The next sending node after `k`, or `None` at the end.
fn next_sending(nodes: &[SequenceNode], k: usize) -> Option<usize> {
    let n = nodes.get(k + 1)?;
    CampaignRec::sends(&n.kind).then_some(k + 1)
}

/// Runs a campaign's sending simulation up to `now`.
pub(crate) fn advance_campaign(c: &mut CampaignRec, now: SimMs) {
    let Some(mut r) = c.runner.take() else { return };
    if c.c.status == CampaignStatus::Launching && now >= r.active_at {
        c.c.status = CampaignStatus::Active;
        c.c.updated_at = iso(r.active_at);
    }
    if c.c.status == CampaignStatus::Active {
        run_events(c, &mut r, now);
    }
    c.runner = Some(r);
}

fn run_events(c: &mut CampaignRec, r: &mut Runner, now: SimMs) {
    let mut last = r.active_at;
    loop {
        let wait_at = r.waits.peek().map(|Reverse((t, _))| *t);
        let want_send = r
            .ready
            .peek()
            .map(|Reverse((t, _))| *t)
            .or_else(|| (!r.pending.is_empty()).then_some(SimMs::MIN));
        let slot_at = want_send.map(|t| t.max(r.next_slot));
        let take_wait = match (wait_at, slot_at) {
            (Some(w), Some(s)) => w <= s,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if take_wait {
            if wait_at.is_none_or(|t| t > now) {
                break;
            }
            let Some(Reverse((t, i))) = r.waits.pop() else {
                break;
            };
            last = t;
            outcome(c, r, i, t);
        } else {
            let Some(t) = slot_at.filter(|t| *t <= now) else {
                break;
            };
            while r
                .sent_log
                .front()
                .is_some_and(|s| *s <= t - super::clock::DAY)
            {
                r.sent_log.pop_front();
            }
            if u32::try_from(r.sent_log.len()).unwrap_or(u32::MAX) >= r.cap {
                r.next_slot = r.sent_log.front().copied().unwrap_or(t) + super::clock::DAY;
                continue;
            }
            let (i, k) = if let Some(Reverse((_, i))) = r.ready.pop() {
                match c.leads[i].phase {
                    Phase::Ready(_, k) => (i, k),
                    _ => continue,
                }
            } else if let Some(i) = r.pending.pop_front() {
                match c.nodes.iter().position(|n| CampaignRec::sends(&n.kind)) {
                    Some(k) => (i, k),
                    None => {
                        finish(&mut c.leads[i], LeadStatus::Completed, t);
                        continue;
                    }
                }
            } else {
                continue;
            };
            last = t;
            let kind = c.nodes[k].kind.clone();
            let lead = &mut c.leads[i];
            lead.node = Some(k);
            lead.status = send_status(&kind);
            lead.updated = t;
            let due = t + delay(&kind, mix2(lead.seed, k as u64 * 2 + 1));
            lead.phase = Phase::Waiting(due);
            r.waits.push(Reverse((due, i)));
            r.sent_log.push_back(t);
            r.next_slot = t + SEND_SLOT;
        }
    }
    let done = r.pending.is_empty() && r.waits.is_empty() && r.ready.is_empty();
    if done && c.leads.iter().all(|l| l.status.is_terminal()) {
        c.c.status = CampaignStatus::Completed;
        c.c.updated_at = iso(last.min(now));
    }
}

fn finish(lead: &mut LeadRec, status: LeadStatus, t: SimMs) {
    match status {
        LeadStatus::Replied => lead.replied = Some(t),
        LeadStatus::Bounced => lead.bounced = Some(t),
        _ => {}
    }
    lead.status = status;
    lead.updated = t;
    lead.phase = Phase::Idle;
}

fn outcome(c: &mut CampaignRec, r: &mut Runner, i: usize, t: SimMs) {
    if c.leads[i].phase != Phase::Waiting(t) {
        return;
    }
    let Some(k) = c.leads[i].node else { return };
    let kind = c.nodes[k].kind.clone();
    let first_sending = c.nodes.iter().position(|n| CampaignRec::sends(&n.kind)) == Some(k);
    let x = unit(mix2(c.leads[i].seed, k as u64 * 2 + 2));
    let end_draw = unit(mix2(c.leads[i].seed, 0xE17D));
    let next = next_sending(&c.nodes, k);
    let lead = &mut c.leads[i];
    let go_next = |lead: &mut LeadRec, r: &mut Runner| match next {
        Some(n) => {
            lead.phase = Phase::Ready(t, n);
            r.ready.push(Reverse((t, i)));
        }
        None => {
            let s = if end_draw < 0.2 {
                LeadStatus::TimedOut
            } else {
                LeadStatus::Completed
            };
            finish(lead, s, t);
        }
    };
    match kind {
        NodeType::Email => {
            if first_sending && x < 0.07 {
                finish(lead, LeadStatus::Bounced, t);
            } else if x < 0.27 {
                finish(lead, LeadStatus::Replied, t);
            } else {
                go_next(lead, r);
            }
        }
        NodeType::ConnectionRequest => {
            if x < 0.65 {
                lead.connected = true;
                lead.status = LeadStatus::Connected;
                lead.updated = t;
                match next {
                    Some(_) => go_next(lead, r),
                    None => finish(lead, LeadStatus::Completed, t),
                }
            } else {
                finish(lead, LeadStatus::TimedOut, t);
            }
        }
        _ => {
            if x < 0.3 {
                finish(lead, LeadStatus::Replied, t);
            } else {
                go_next(lead, r);
            }
        }
    }
}

// ---------------------------------------------------------------- domains

/// What the verification service says about a domain at `at`: names with
/// `slow` never see their records, names with `fail` are rejected once the
/// records are visible, every other name verifies.
pub(crate) fn live_status(d: &DomainRec, at: SimMs) -> DomainStatus {
    let Some(visible) = d.propagated_at else {
        return d.d.status.clone();
    };
    let name = d.d.domain.as_str();
    if name.contains("slow") || at < visible {
        DomainStatus::Verifying
    } else if name.contains("fail") {
        DomainStatus::Failed
    } else {
        DomainStatus::Verified
    }
}

fn store_status(d: &mut DomainRec, status: DomainStatus, at: SimMs) {
    if status == DomainStatus::Verified && d.d.verified_at.is_none() {
        d.d.verified_at = Some(iso(at));
    }
    if d.d.status != status {
        d.d.updated_at = iso(at);
    }
    d.d.status = status;
}

/// Runs the poller chain's checks that are due by `now`.
pub(crate) fn advance_domain(d: &mut DomainRec, now: SimMs) {
    while let Some(mut chain) = d.chain {
        let at = chain.started + POLL_MINUTES[chain.next] * MINUTE;
        if at > now {
            break;
        }
        let status = live_status(d, at);
        store_status(d, status.clone(), at);
        chain.next += 1;
        d.chain =
            (status == DomainStatus::Verifying && chain.next < POLL_MINUTES.len()).then_some(chain);
    }
}

/// Verify in trigger mode: `verifying` at once, then the live result; while
/// records still propagate a poller chain is scheduled, at most one per
/// domain at a time. Returns whether a new chain started.
pub(crate) fn trigger_verify(d: &mut DomainRec, now: SimMs) -> bool {
    if d.propagated_at.is_none() {
        d.propagated_at = Some(now + PROPAGATION);
    }
    d.d.dns_records = dns_records(&d.d.domain, super::ids::hash_str(&d.d.id));
    store_status(d, DomainStatus::Verifying, now);
    let live = live_status(d, now);
    store_status(d, live.clone(), now);
    if live == DomainStatus::Verifying && d.chain.is_none() {
        d.chain = Some(Chain {
            started: now,
            next: 0,
        });
        d.chains += 1;
        true
    } else {
        false
    }
}

/// A live read (`poll=true`, or the list without `skip_sync`): stores what
/// the verification service says now; never triggers anything.
pub(crate) fn live_refresh(d: &mut DomainRec, now: SimMs) {
    if d.propagated_at.is_some() {
        let live = live_status(d, now);
        if live != DomainStatus::Verifying {
            d.chain = None;
        }
        store_status(d, live, now);
    }
}

// ---------------------------------------------------------------- inbox

/// Share of outbound thread messages the participant answers.
pub(crate) const REPLY_CHANCE: f64 = 0.6;
/// A reply arrives at least the first and less than the second of these
/// many simulated minutes after the message it answers.
pub(crate) const REPLY_MINUTES: (i64, i64) = (3, 30);

/// Whether the participant answers an outbound message sent at `sent`
/// (drawn from `seed`, the message's), and when.
pub(crate) fn draw_reply(seed: u64, subject: &str, sent: SimMs) -> Option<Reply> {
    if unit(mix2(seed, 0x4EB1)) >= REPLY_CHANCE {
        return None;
    }
    let (lo, hi) = REPLY_MINUTES;
    let minutes = lo + f64_to_i64(unit(mix2(seed, 0x4EB2)) * (hi - lo) as f64);
    Some(Reply {
        at: sent + minutes * MINUTE,
        seed,
        subject: reply_subject(subject),
    })
}

/// `Re: <subject>`, without stacking a second `Re:`.
pub(crate) fn reply_subject(subject: &str) -> String {
    let s = subject.trim();
    if s.is_empty() {
        "Re: (no subject)".into()
    } else if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_owned()
    } else {
        format!("Re: {s}")
    }
}

const REPLY_BODIES: [&str; 6] = [
    "Hi {to},\n\nThanks for the note, good timing: we are reviewing our RevOps tooling this quarter. Could you send pricing for a team of about 40?\n\n{from}",
    "Hi {to},\n\nHappy to take a look. Does Thursday at 3pm CET work for a 20-minute call?\n\n{from}",
    "Thanks {to}. Not a priority for us right now; could you check back in a couple of months?\n\n{from}",
    "Hi {to},\n\nInteresting. How is this different from the sync our CRM already offers?\n\nBest,\n{from}",
    "Hi {to}, looping in my colleague who owns our data stack. Could you share a short deck we can pass around?\n\n{from}",
    "Sounds good. I have sent over a calendar invite for Tuesday.\n\n{from}",
];

/// The wording of a reply drawn from `seed`: addressed to `to`, signed
/// `from` (first names; either may be empty).
pub(crate) fn reply_body(seed: u64, to: &str, from: &str) -> String {
    let to = if to.is_empty() { "there" } else { to };
    super::ids::pick(mix2(seed, 0x4EB3), &REPLY_BODIES)
        .replace("{to}", to)
        .replace("{from}", from)
        .trim_end()
        .to_owned()
}

/// The first name of a participant: the first word of the name, else the
/// address's local part up to a dot, capitalised.
pub(crate) fn first_name(name: Option<&str>, email: &str) -> String {
    if let Some(w) = name.and_then(|n| n.split_whitespace().next()) {
        return w.to_owned();
    }
    let local = email.split('@').next().unwrap_or_default();
    let word = local.split(['.', '_', '-', '+']).next().unwrap_or_default();
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Delivers the replies due by `now`: each becomes an `inbound` message,
/// adds one to `unread_count` and is the thread's latest activity. A reply
/// that falls due while the thread is not `active` (archived) is dropped:
/// only live conversations are simulated.
pub(crate) fn advance_thread(t: &mut ThreadRec, senders: &[SenderAccount], now: SimMs) {
    let due = t.replies.partition_point(|r| r.at <= now);
    if due == 0 {
        return;
    }
    let replies: Vec<Reply> = t.replies.drain(..due).collect();
    if t.t.status != ThreadStatus::Active {
        return;
    }
    let to =
        t.t.account_id
            .as_deref()
            .and_then(|id| senders.iter().find(|s| s.id == id))
            .map(|s| s.first_name.clone())
            .unwrap_or_default();
    let from = first_name(t.t.participant_name.as_deref(), &t.t.participant_email);
    for r in replies {
        t.messages.push(ThreadMessage {
            id: super::ids::uuid_from(mix2(r.seed, 0x4EB4)),
            conversation_id: t.t.id.clone(),
            direction: "inbound".into(),
            subject: r.subject,
            body_text: reply_body(r.seed, &to, &from),
            sent_at: iso(r.at),
        });
        t.t.unread_count = t.t.unread_count.saturating_add(1);
        t.t.updated_at = Some(iso(r.at));
    }
}
