//! The two workspaces and every resource they hold, plus rendering into the
//! shared model types (the client decodes exactly what is serialized here).

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};

use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::clock::{SimMs, iso};
use super::ids::{IdGen, hash_str, index, mix2, uuid_from};
use super::people::{self, FIELDS, Person, Pred};
use crate::api::model::*;
use crate::logic::lead_field::{LeadField, looks_like_email, looks_like_url};

/// Every workspace and the generators shared by all of them.
#[derive(Debug)]
pub(crate) struct World {
    /// `[demo, other]`, looked up by key.
    pub workspaces: Vec<Workspace>,
    /// Ids minted at run time.
    pub ids: IdGen,
    /// Domain-verification poller chains started so far (all workspaces).
    pub poller_chains: u64,
}

/// One account: its resources are invisible (404) to every other key.
#[derive(Debug)]
pub(crate) struct Workspace {
    /// The API key.
    pub key: &'static str,
    /// The one `user_id` of every resource.
    pub user_id: String,
    /// Connected sender accounts.
    pub senders: Vec<SenderAccount>,
    /// Lead Finder searches, in creation order.
    pub searches: Vec<SearchRec>,
    /// Campaigns, in creation order.
    pub campaigns: Vec<CampaignRec>,
    /// Inbox threads, in creation order.
    pub threads: Vec<ThreadRec>,
    /// Custom sending domains, in creation order.
    pub domains: Vec<DomainRec>,
    /// The company profile.
    pub context: CompanyContext,
    /// The profile object stored with it.
    pub profile: Profile,
    /// What access the account has.
    pub access: Access,
    /// The discovery pass, once redeemed.
    pub pass: Option<PassRec>,
    /// Codes this workspace has redeemed.
    pub redeemed: Vec<String>,
}

impl Workspace {
    /// A search by id.
    pub(crate) fn search(&self, id: &str) -> Option<usize> {
        self.searches.iter().position(|s| s.search.search_id == id)
    }

    /// A campaign by id.
    pub(crate) fn campaign(&self, id: &str) -> Option<usize> {
        self.campaigns.iter().position(|c| c.c.id == id)
    }

    /// A thread by id.
    pub(crate) fn thread(&self, id: &str) -> Option<usize> {
        self.threads.iter().position(|t| t.t.id == id)
    }

    /// A domain by id.
    pub(crate) fn domain(&self, id: &str) -> Option<usize> {
        self.domains.iter().position(|d| d.d.id == id)
    }

    /// A sender by id.
    pub(crate) fn sender(&self, id: &str) -> Option<&SenderAccount> {
        self.senders.iter().find(|s| s.id == id)
    }
}

/// The sender `status` of an account that can send.
pub(crate) const SENDER_READY: &str = "connected";
/// The sender `status` of an account that cannot send until reconnected.
pub(crate) const SENDER_NOT_READY: &str = "disconnected";

/// Whether a sender can send email right now.
pub(crate) fn ready_email_sender(s: &SenderAccount) -> bool {
    s.kind == Channel::Email && s.status == SENDER_READY && !s.email_address.is_empty()
}

// ---------------------------------------------------------------- Lead Finder

/// Status of a result row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowStatus {
    /// Not acted on.
    New,
    /// Added to a campaign.
    Contacted,
    /// Dismissed by the user.
    Dismissed,
}

impl RowStatus {
    fn as_str(self) -> &'static str {
        match self {
            RowStatus::New => "new",
            RowStatus::Contacted => "contacted",
            RowStatus::Dismissed => "dismissed",
        }
    }
}

/// One stored result: everything else derives from `seed`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Row {
    /// Seed of the person.
    pub seed: u64,
    /// Index of the run that found it.
    pub run: u32,
    /// When it was stored.
    pub created: SimMs,
    /// Its status.
    pub status: RowStatus,
    /// Its score in thousandths ([`Person::score_milli`]), kept so ordering
    /// never re-derives it.
    pub score_milli: u16,
}

impl Row {
    /// Its score, `0.40..0.99`.
    pub(crate) fn score(&self) -> f64 {
        f64::from(self.score_milli) / 1000.0
    }
}

/// One run of a search; its status is a function of simulated time.
#[derive(Debug, Clone)]
pub(crate) struct RunRec {
    /// `runId`.
    pub id: String,
    /// `triggerRunId`.
    pub trigger_id: String,
    /// Queued at.
    pub created: SimMs,
    /// Starts running at.
    pub start: SimMs,
    /// Ends at.
    pub end: SimMs,
    /// Results it will store.
    pub target: u32,
    /// Results stored so far.
    pub added: u32,
    /// Ends `failed` instead of `completed`.
    pub fails: bool,
}

impl RunRec {
    /// Status at `now`.
    pub(crate) fn status(&self, now: SimMs) -> RunStatus {
        if now < self.start {
            RunStatus::Queued
        } else if now < self.end {
            RunStatus::Running
        } else if self.fails {
            RunStatus::Failed
        } else {
            RunStatus::Completed
        }
    }

    /// Results this run should have stored by `now`.
    pub(crate) fn due(&self, now: SimMs) -> u32 {
        if self.fails || now < self.start {
            0
        } else if now >= self.end {
            self.target
        } else {
            let f = (now - self.start) as f64 / (self.end - self.start).max(1) as f64;
            crate::num::f64_to_u32(f64::from(self.target) * f)
        }
    }
}

/// A search with its results and runs.
#[derive(Debug, Clone)]
pub(crate) struct SearchRec {
    /// The resource (counts refreshed on render).
    pub search: Search,
    /// Title pool of its people.
    pub persona: usize,
    /// Seed of its results.
    pub seed: u64,
    /// Stored results.
    pub rows: Vec<Row>,
    /// `resultId` (as u128) to row index.
    pub by_id: HashMap<u128, u32>,
    /// Row indices by score, best first.
    pub order: Vec<u32>,
    /// Field coverage counts, computed on first use and kept up to date.
    pub coverage: Option<Vec<u64>>,
    /// Rows with status `contacted`.
    pub contacted: u64,
    /// Runs, oldest first.
    pub runs: Vec<RunRec>,
    /// Runs of this search fail (a seeded provider outage).
    pub fail_runs: bool,
    /// Seeds handed out so far (the next row's seed derives from it).
    pub minted: u64,
}

/// The `resultId` of a person seed.
pub(crate) fn result_id(seed: u64) -> String {
    uuid_from(mix2(seed, 0x7e5))
}

fn uuid_u128(id: &str) -> Option<u128> {
    uuid::Uuid::parse_str(id).ok().map(|u| u.as_u128())
}

impl SearchRec {
    /// An empty search record.
    pub(crate) fn new(search: Search, persona: usize, seed: u64) -> SearchRec {
        SearchRec {
            search,
            persona,
            seed,
            rows: Vec::new(),
            by_id: HashMap::new(),
            order: Vec::new(),
            coverage: None,
            contacted: 0,
            runs: Vec::new(),
            fail_runs: false,
            minted: 0,
        }
    }

    /// Appends `n` fresh results found by run `run` at `at`; `status_of`
    /// chooses each row's status from its seed. Only the new rows are
    /// sorted and merged into the order, so a live run of a huge search
    /// stays cheap on every request that advances it.
    pub(crate) fn add_rows(
        &mut self,
        n: u32,
        run: u32,
        at: SimMs,
        status_of: impl Fn(u64) -> RowStatus,
    ) {
        let start = self.rows.len();
        for _ in 0..n {
            let seed = mix2(self.seed, self.minted);
            self.minted += 1;
            let idx = u32::try_from(self.rows.len()).unwrap_or(u32::MAX);
            if let Some(key) = uuid_u128(&result_id(seed)) {
                self.by_id.insert(key, idx);
            }
            let status = status_of(seed);
            if status == RowStatus::Contacted {
                self.contacted += 1;
            }
            self.rows.push(Row {
                seed,
                run,
                created: at,
                status,
                score_milli: Person::score_milli(seed),
            });
        }
        if self.rows.len() == start {
            return;
        }
        if let Some(counts) = &mut self.coverage {
            for row in &self.rows[start..] {
                count_fields(counts, &Person::new(row.seed, self.persona));
            }
        }
        // Best score first, ties in arrival order. The new rows are sorted
        // alone, their places found by binary search, and the existing
        // entries moved up in blocks: no pass compares every row.
        let rows = &self.rows;
        let key = |i: u32| (Reverse(rows[i as usize].score_milli), i);
        // Row indices are u32 to keep the order small; a search never
        // holds 4 billion rows, and the bounds saturate rather than wrap.
        let lo = u32::try_from(start).unwrap_or(u32::MAX);
        let hi = u32::try_from(rows.len()).unwrap_or(u32::MAX);
        let mut fresh: Vec<u32> = (lo..hi).collect();
        fresh.sort_unstable_by_key(|i| key(*i));
        let order = &mut self.order;
        let places: Vec<usize> = fresh
            .iter()
            .map(|f| order.partition_point(|o| key(*o) < key(*f)))
            .collect();
        let mut end = order.len();
        order.resize(end + fresh.len(), 0);
        for (j, (&f, &at)) in fresh.iter().zip(&places).enumerate().rev() {
            // Entries in `at..end` sort after new entries `0..=j`.
            order.copy_within(at..end, at + j + 1);
            order[at + j] = f;
            end = at;
        }
    }

    /// The row of a `resultId`.
    pub(crate) fn row_of(&self, result_id: &str) -> Option<usize> {
        let key = uuid_u128(result_id)?;
        self.by_id.get(&key).map(|i| *i as usize)
    }

    /// The person of row `i`.
    pub(crate) fn person(&self, i: usize) -> Person {
        Person::new(self.rows[i].seed, self.persona)
    }

    /// The search with counts and `lastRunId` refreshed.
    pub(crate) fn render(&self) -> Search {
        let mut s = self.search.clone();
        s.result_count = self.rows.len() as u64;
        s.lead_count = self.rows.len() as u64;
        s.contacted_count = self.contacted;
        s.last_run_id = self.runs.last().map(|r| r.id.clone());
        s
    }

    /// Field coverage counts over every row (cached).
    pub(crate) fn coverage(&mut self) -> Vec<u64> {
        if let Some(c) = &self.coverage {
            return c.clone();
        }
        let mut counts = vec![0u64; FIELDS.len()];
        for row in &self.rows {
            count_fields(&mut counts, &Person::new(row.seed, self.persona));
        }
        self.coverage = Some(counts.clone());
        counts
    }

    /// Result number `i` as the contract shows it.
    pub(crate) fn result(&self, i: usize) -> LeadResult {
        let row = self.rows[i];
        let p = Person::new(row.seed, self.persona);
        let (query, reason) = self.plan_text(row.seed);
        let run_id = self
            .runs
            .get(row.run as usize)
            .map(|r| r.id.clone())
            .unwrap_or_default();
        let score = row.score();
        let lead_id = p.lead_id();
        LeadResult {
            result_id: result_id(row.seed),
            search_id: self.search.search_id.clone(),
            run_id,
            lead_id: lead_id.clone(),
            source_id: "network_people".into(),
            search_url: format!(
                "https://network.example/search/results/people/?keywords={}",
                query.replace(' ', "%20")
            ),
            query,
            search_reason: reason,
            signal_reason: p.signal_reason(),
            title: format!("{} · {} at {}", p.name(), p.title, p.company()),
            content: p.content(),
            occurred_at: iso(row.created - (row.seed % 72) as i64 * 3_600_000),
            created_at: iso(row.created),
            author: Value::Null,
            lead: Value::Null,
            metadata: json!({"provider": "demo-network", "batch": row.run + 1, "persona": self.persona}),
            canonical_lead: Some(CanonicalLead {
                id: lead_id,
                kind: "person".into(),
                name: p.name(),
                title: p.title.to_owned(),
                company: p.company(),
                company_domain: p.domain(),
                email: p.email(),
                network_url: p.network_url(),
            }),
            entity_company: p.company(),
            entity_person: p.name(),
            score,
            quality_tier: people::tier(score).into(),
            status: row.status.as_str().into(),
            enrichment_summary: Some(EnrichmentSummary {
                status: "available".into(),
                schema_version: 1,
                observed_at: iso(row.created),
                field_count: p.field_count(),
            }),
        }
    }

    /// What a filtered scan of the results reads, copied out so the scan
    /// can run without the world lock.
    pub(crate) fn scan_view(&self) -> ScanView {
        ScanView {
            order: self.order.clone(),
            seeds: self.rows.iter().map(|r| r.seed).collect(),
            persona: self.persona,
            plan_text: self
                .search
                .source_plans
                .iter()
                .map(|pl| {
                    let queries = pl.query.iter().map(|q| q.to_lowercase()).collect();
                    (queries, pl.reason.to_lowercase())
                })
                .collect(),
        }
    }

    /// The query string and reason of the source plan that found a row.
    fn plan_text(&self, seed: u64) -> (String, String) {
        let (query, reason) = plan_text(&self.search.source_plans, seed);
        (query.to_owned(), reason.to_owned())
    }
}

/// The query string and reason of the source plan that found the row of
/// `seed`.
fn plan_text(plans: &[SourcePlan], seed: u64) -> (&str, &str) {
    let plan = plans.get(plan_of(seed, plans.len()));
    let query = plan
        .and_then(|pl| pl.query.get(query_of(seed, pl.query.len())))
        .map_or("", String::as_str);
    (query, plan.map_or("", |pl| pl.reason.as_str()))
}

/// Which of `plans` source plans found the row of `seed`.
fn plan_of(seed: u64, plans: usize) -> usize {
    index(seed, plans.max(1))
}

/// Which of a plan's `queries` query strings found the row of `seed`.
fn query_of(seed: u64, queries: usize) -> usize {
    index(seed >> 8, queries.max(1))
}

fn count_fields(counts: &mut [u64], p: &Person) {
    for (i, c) in counts.iter_mut().enumerate() {
        if p.has_field(i) {
            *c += 1;
        }
    }
}

/// A copy of what a filtered results scan reads ([`SearchRec::scan_view`]).
#[derive(Debug, Clone)]
pub(crate) struct ScanView {
    /// Row indices by score, best first.
    pub order: Vec<u32>,
    /// The seed of every row, by row index.
    pub seeds: Vec<u64>,
    /// Title pool of the people.
    pub persona: usize,
    /// Each source plan's query strings and reason, fully lowercased (user
    /// text: any script).
    pub plan_text: Vec<(Vec<String>, String)>,
}

impl ScanView {
    /// Row indices, best first, of the rows that pass every predicate and
    /// contain `needle` (already lowercased) in their text.
    pub(crate) fn matching(&self, preds: &[Pred], needle: Option<&str>) -> Vec<u32> {
        let mut buf = String::with_capacity(512);
        self.order
            .iter()
            .copied()
            .filter(|i| {
                let Some(seed) = self.seeds.get(*i as usize).copied() else {
                    return false;
                };
                let p = Person::new(seed, self.persona);
                preds.iter().all(|pr| pr.matches(&p))
                    && needle.is_none_or(|n| self.text_matches(&p, n, &mut buf))
            })
            .collect()
    }

    /// Whether `needle` (lowercased) occurs in the text of person `p`: its
    /// name, title, company, content, signal reason, domain and email, and
    /// the query and reason of the plan that found it. `buf` is reused
    /// across rows so a scan barely allocates.
    fn text_matches(&self, p: &Person, needle: &str, buf: &mut String) -> bool {
        buf.clear();
        p.write_text(buf);
        // The people tables have no non-ASCII capitals (a test in `people`
        // keeps it so), so ASCII lowering is full lowering there; the plan
        // text is user text, lowercased fully once per scan.
        buf.make_ascii_lowercase();
        if let Some((queries, reason)) = self.plan_text.get(plan_of(p.seed, self.plan_text.len())) {
            if let Some(q) = queries.get(query_of(p.seed, queries.len())) {
                buf.push('\n');
                buf.push_str(q);
            }
            buf.push('\n');
            buf.push_str(reason);
        }
        buf.contains(needle)
    }
}

// ---------------------------------------------------------------- Campaigns

/// Where a campaign lead is in the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Pending (waiting for the first send) or terminal.
    Idle,
    /// Sent; an outcome is due at this time.
    Waiting(SimMs),
    /// Due to be sent node `.1` since `.0`.
    Ready(SimMs, usize),
}

/// A lead on a roster, kept small: the seeded rosters hold thousands, and
/// they were most of the demo's memory (and so of a `--demo` dashboard's)
/// when each lead held its rendered resource. Ids and times are kept as
/// numbers, a seeded lead's fields derive from its person's seed, and
/// [`LeadRec::render`] makes the resource the contract shows.
#[derive(Debug, Clone)]
pub(crate) struct LeadRec {
    /// `id`.
    pub id: Uuid,
    /// `status`.
    pub status: LeadStatus,
    /// Its profile fields.
    pub text: LeadText,
    /// `created_at`.
    pub created: SimMs,
    /// `updated_at`.
    pub updated: SimMs,
    /// `replied_at`.
    pub replied: Option<SimMs>,
    /// `bounced_at`.
    pub bounced: Option<SimMs>,
    /// Index of the current node (set once a node was sent; its id is
    /// `current_node_id`: only a draft's sequence changes, and a draft's
    /// leads were never sent anything).
    pub node: Option<usize>,
    /// Accepted a connection at some point.
    pub connected: bool,
    /// Simulation phase.
    pub phase: Phase,
    /// Seed of its random outcomes.
    pub seed: u64,
}

/// A lead's profile fields: a seeded person's, or its own.
#[derive(Debug, Clone)]
pub(crate) enum LeadText {
    /// The seeded person of `seed` with a title of `persona`'s pool, from
    /// the search result of row seed `row` (its `source_ref`); the fields
    /// derive from them on demand.
    Person {
        /// The person's seed.
        seed: u64,
        /// Its title pool.
        persona: usize,
        /// Seed of the search row it was taken from.
        row: Option<u64>,
    },
    /// Fields the lead holds itself: it was added through the API, or
    /// edited.
    Own(Box<OwnText>),
}

/// The profile fields of a lead, as the contract names them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct OwnText {
    /// `email`.
    pub email: String,
    /// `network_url`.
    pub network_url: String,
    /// `first_name`.
    pub first_name: String,
    /// `last_name`.
    pub last_name: String,
    /// `name`.
    pub name: String,
    /// `company`.
    pub company: String,
    /// `position`.
    pub position: String,
    /// `headline`.
    pub headline: String,
    /// `custom_fields`.
    pub custom_fields: Map<String, Value>,
    /// `source`.
    pub source: &'static str,
    /// `source_ref`.
    pub source_ref: String,
}

impl OwnText {
    /// The place of `field` (an edit writes through it).
    pub(crate) fn field_mut(&mut self, field: LeadField) -> &mut String {
        match field {
            LeadField::Email => &mut self.email,
            LeadField::NetworkUrl => &mut self.network_url,
            LeadField::FirstName => &mut self.first_name,
            LeadField::LastName => &mut self.last_name,
            LeadField::Name => &mut self.name,
            LeadField::Company => &mut self.company,
            LeadField::Position => &mut self.position,
            LeadField::Headline => &mut self.headline,
        }
    }
}

/// The `source` of a lead added through the API.
const SOURCE_API: &str = "api";
/// The `source` of a seeded lead taken from a search.
const SOURCE_LEAD_FINDER: &str = "lead_finder";

impl LeadText {
    /// The fields, derived for a seeded person.
    pub(crate) fn fields(&self, kind: &Channel) -> Cow<'_, OwnText> {
        match self {
            LeadText::Own(t) => Cow::Borrowed(t),
            LeadText::Person { seed, persona, row } => {
                let input = person_input(&Person::new(*seed, *persona));
                let mut t = own_text(kind, &input);
                t.source = SOURCE_LEAD_FINDER;
                t.source_ref = row.map(result_id).unwrap_or_default();
                Cow::Owned(t)
            }
        }
    }

    /// The email and network URL, as [`LeadText::fields`] has them
    /// (without deriving the rest).
    pub(crate) fn identities(&self, kind: &Channel) -> (String, String) {
        match self {
            LeadText::Own(t) => (t.email.clone(), t.network_url.clone()),
            LeadText::Person { seed, persona, .. } => {
                let p = Person::new(*seed, *persona);
                identities(kind, p.email(), p.network_url())
            }
        }
    }
}

impl LeadRec {
    /// `id` as the contract writes it.
    pub(crate) fn id_text(&self) -> String {
        self.id.hyphenated().to_string()
    }

    /// The lead as the contract shows it, on campaign `c` with sequence
    /// `nodes`.
    pub(crate) fn render(&self, c: &Campaign, nodes: &[SequenceNode]) -> CampaignLead {
        let t = self.text.fields(&c.kind).into_owned();
        CampaignLead {
            id: self.id_text(),
            campaign_id: c.id.clone(),
            user_id: c.user_id.clone(),
            status: self.status.clone(),
            email: t.email,
            network_url: t.network_url,
            first_name: t.first_name,
            last_name: t.last_name,
            name: t.name,
            company: t.company,
            position: t.position,
            headline: t.headline,
            custom_fields: t.custom_fields,
            source: t.source.to_owned(),
            source_ref: t.source_ref,
            created_at: iso(self.created),
            updated_at: iso(self.updated),
            bounced_at: self.bounced.map(iso),
            replied_at: self.replied.map(iso),
            current_node_id: self.node.and_then(|k| nodes.get(k)).map(|n| n.id.clone()),
        }
    }
}

/// A lead id of the request, when it is one as the service writes them
/// (any other spelling names no lead).
pub(crate) fn lead_id(text: &str) -> Option<Uuid> {
    Uuid::parse_str(text)
        .ok()
        .filter(|u| u.hyphenated().to_string() == text)
}

/// An edit of a generated message.
#[derive(Debug, Clone, Default)]
pub(crate) struct MsgEdit {
    /// New subject.
    pub subject: Option<String>,
    /// New text body.
    pub body_text: Option<String>,
    /// New HTML body.
    pub body_html: Option<String>,
}

/// The sending machinery of a launched campaign.
#[derive(Debug, Clone)]
pub(crate) struct Runner {
    /// `launching` becomes `active` at this time.
    pub active_at: SimMs,
    /// The next send may happen at this time.
    pub next_slot: SimMs,
    /// Pending leads, roster order.
    pub pending: VecDeque<usize>,
    /// Leads waiting for an outcome.
    pub waits: BinaryHeap<Reverse<(SimMs, usize)>>,
    /// Leads due for a follow-up send.
    pub ready: BinaryHeap<Reverse<(SimMs, usize)>>,
    /// Send times within the last day (the daily cap window).
    pub sent_log: VecDeque<SimMs>,
    /// Sends allowed per rolling day.
    pub cap: u32,
    /// When the campaign was paused.
    pub paused_at: Option<SimMs>,
}

/// A campaign with its roster, sequence and simulation.
#[derive(Debug, Clone)]
pub(crate) struct CampaignRec {
    /// The resource (stats, nodes and senders filled on render).
    pub c: Campaign,
    /// Its sender accounts.
    pub sender_ids: Vec<String>,
    /// The sequence.
    pub nodes: Vec<SequenceNode>,
    /// The roster.
    pub leads: Vec<LeadRec>,
    /// Edited generated messages, by message id.
    pub edits: HashMap<String, MsgEdit>,
    /// The roster's dedup keys ([`CampaignRec::roster_keys`]): built by the
    /// first import and kept up to date by the next ones, so a chunked
    /// import of a big file does not re-read the roster on every chunk.
    /// `None` until then, and again after an edit or delete.
    pub keys: Option<HashSet<String>>,
    /// Set once launched.
    pub runner: Option<Runner>,
}

/// Normalises a lead's channel identity for deduplication: emails
/// lowercased; network URLs without query string and trailing slashes.
pub(crate) fn dedup_key(channel: &Channel, email: &str, url: &str) -> String {
    match channel {
        Channel::Network => {
            let u = url.trim();
            let u = u.split_once('?').map_or(u, |(a, _)| a);
            u.trim_end_matches('/').to_owned()
        }
        _ => email.trim().to_lowercase(),
    }
}

impl CampaignRec {
    /// The dedup key of lead `i`.
    pub(crate) fn key_of(&self, i: usize) -> String {
        let (email, url) = self.leads[i].text.identities(&self.c.kind);
        dedup_key(&self.c.kind, &email, &url)
    }

    /// Lead `i` as the contract shows it.
    pub(crate) fn lead(&self, i: usize) -> CampaignLead {
        self.leads[i].render(&self.c, &self.nodes)
    }

    /// The dedup keys of every lead on the roster (built once, see
    /// [`CampaignRec::keys`]).
    pub(crate) fn roster_keys(&mut self) -> &mut HashSet<String> {
        if self.keys.is_none() {
            self.keys = Some((0..self.leads.len()).map(|i| self.key_of(i)).collect());
        }
        self.keys.get_or_insert_with(HashSet::new)
    }

    /// Stats: counts of the roster by status.
    pub(crate) fn stats(&self, pause_shape: bool) -> CampaignStats {
        let mut s = CampaignStats {
            total: self.leads.len() as u64,
            ..Default::default()
        };
        let mut accepted = 0;
        let mut contacted = 0;
        for l in &self.leads {
            match l.status {
                LeadStatus::Sent => s.sent += 1,
                LeadStatus::Replied => s.replied += 1,
                LeadStatus::Bounced => s.bounced += 1,
                LeadStatus::Completed => s.completed += 1,
                LeadStatus::TimedOut => s.timed_out += 1,
                LeadStatus::ConnectionSent => s.connection_sent += 1,
                LeadStatus::Connected => s.connected += 1,
                LeadStatus::MessageSent => s.message_sent += 1,
                _ => {}
            }
            if l.connected {
                accepted += 1;
            }
            if !matches!(l.status, LeadStatus::Pending | LeadStatus::Cancelled) {
                contacted += 1;
            }
        }
        if !pause_shape {
            s.connections_accepted = Some(accepted);
            s.contacted = Some(contacted);
        }
        s
    }

    /// The campaign as the contract shows it.
    pub(crate) fn render(
        &self,
        senders: &[SenderAccount],
        with_nodes: bool,
        with_senders: bool,
        pause_shape: bool,
    ) -> Campaign {
        let mut c = self.c.clone();
        c.stats = self.stats(pause_shape);
        if with_nodes {
            c.sequence_nodes = Some(self.nodes.clone());
        }
        if with_senders {
            c.sender_accounts = Some(
                self.sender_ids
                    .iter()
                    .filter_map(|id| senders.iter().find(|s| &s.id == id).cloned())
                    .collect(),
            );
        }
        c
    }

    /// Whether a node type sends something.
    pub(crate) fn sends(kind: &NodeType) -> bool {
        !matches!(kind, NodeType::End)
    }

    /// The lead whose generated messages include `message_id` (ids are
    /// computed, not rendered, so a look-up over a big roster stays cheap).
    pub(crate) fn lead_of_message(&self, message_id: &str) -> Option<usize> {
        let sending: Vec<usize> = (0..self.nodes.len())
            .filter(|k| Self::sends(&self.nodes[*k].kind))
            .collect();
        (0..self.leads.len()).find(|i| {
            let id = self.leads[*i].id_text();
            sending
                .iter()
                .any(|k| self::message_id(&id, *k) == message_id)
        })
    }

    /// The reply of lead `i`, once it replied: an entry with `node_id:
    /// "inbound"`, answering the last message it was sent and addressed to
    /// the campaign's first sender.
    pub(crate) fn inbound_reply(
        &self,
        i: usize,
        senders: &[SenderAccount],
    ) -> Option<GeneratedMessage> {
        if self.leads[i].status != LeadStatus::Replied {
            return None;
        }
        let lead = &self.lead(i);
        let seed = mix2(hash_str(&lead.id), 0x1b0);
        let answered = self.leads[i].node.and_then(|k| self.nodes.get(k));
        let subject = match (&self.c.kind, answered) {
            (Channel::Email, Some(n)) => {
                super::sim::reply_subject(&render_template(&n.subject, lead))
            }
            // Network messages have no subject.
            _ => String::new(),
        };
        let to = self
            .sender_ids
            .first()
            .and_then(|id| senders.iter().find(|s| &s.id == id))
            .map(|s| s.first_name.as_str())
            .unwrap_or_default();
        let from = super::sim::first_name(Some(&lead.first_name), &lead.email);
        let body_text = super::sim::reply_body(seed, to, &from);
        Some(GeneratedMessage {
            id: uuid_from(seed),
            campaign_id: self.c.id.clone(),
            prospect_id: lead.id.clone(),
            node_id: "inbound".into(),
            subject,
            body_html: html_of(&body_text),
            body_text,
            status: MessageStatus::Sent,
            manually_edited: false,
            created_at: lead.replied_at.clone().unwrap_or_default(),
        })
    }

    /// Generated messages of lead `i`, one per sending node.
    pub(crate) fn messages_of(&self, i: usize) -> Vec<GeneratedMessage> {
        let lead = &self.leads[i];
        let p = self.lead(i);
        // Launched and not finished: a paused campaign's queue still holds
        // its messages.
        let live = matches!(
            self.c.status,
            CampaignStatus::Active | CampaignStatus::Launching | CampaignStatus::Paused
        );
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| Self::sends(&n.kind))
            .map(|(k, node)| {
                let id = message_id(&p.id, k);
                let sent = lead.node.is_some_and(|j| j >= k);
                let first_sending = self.nodes.iter().position(|n| Self::sends(&n.kind)) == Some(k);
                let pending = !sent
                    && live
                    && match lead.phase {
                        Phase::Ready(_, j) => j == k,
                        Phase::Idle => lead.status == LeadStatus::Pending && first_sending,
                        Phase::Waiting(_) => false,
                    };
                let status = if sent {
                    MessageStatus::Sent
                } else if pending {
                    MessageStatus::Pending
                } else {
                    MessageStatus::Draft
                };
                let subject = render_template(&node.subject, &p);
                let body_text = render_template(&node.body, &p);
                let mut m = GeneratedMessage {
                    id: id.clone(),
                    campaign_id: self.c.id.clone(),
                    prospect_id: p.id.clone(),
                    node_id: node.id.clone(),
                    body_html: html_of(&body_text),
                    subject,
                    body_text,
                    status,
                    manually_edited: false,
                    created_at: p.created_at.clone(),
                };
                if let Some(e) = self.edits.get(&id) {
                    m.manually_edited = true;
                    if let Some(s) = &e.subject {
                        m.subject = s.clone();
                    }
                    if let Some(s) = &e.body_text {
                        m.body_text = s.clone();
                        if e.body_html.is_none() {
                            m.body_html = html_of(s);
                        }
                    }
                    if let Some(s) = &e.body_html {
                        m.body_html = s.clone();
                    }
                }
                m
            })
            .collect()
    }
}

/// The id of the generated message of lead `lead_id` for node `k`.
pub(crate) fn message_id(lead_id: &str, k: usize) -> String {
    uuid_from(mix2(hash_str(lead_id), k as u64))
}

/// `text` filled in for the lead: the dashboard's preview merge
/// ([`crate::logic::template::merge`]), so the preview shows what is sent.
pub(crate) fn render_template(text: &str, lead: &CampaignLead) -> String {
    crate::logic::template::merge(text, lead).text
}

/// A minimal HTML rendering of a text body (escaped, one `<p>` per line).
pub(crate) fn html_of(text: &str) -> String {
    text.lines()
        .map(|l| {
            let esc = l
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            format!("<p>{esc}</p>")
        })
        .collect()
}

// ---------------------------------------------------------------- Inbox

/// A thread with its messages.
#[derive(Debug, Clone)]
pub(crate) struct ThreadRec {
    /// The resource.
    pub t: Thread,
    /// A warm-up thread: hidden from lists and ignored by the duplicate
    /// check.
    pub warmup: bool,
    /// Messages, in `sent_at` order.
    pub messages: Vec<ThreadMessage>,
    /// Replies the participant will send, soonest first
    /// ([`super::sim::advance_thread`] delivers them).
    pub replies: Vec<Reply>,
}

impl ThreadRec {
    /// A thread with no messages and no replies on the way.
    pub(crate) fn new(t: Thread) -> ThreadRec {
        ThreadRec {
            t,
            warmup: false,
            messages: Vec::new(),
            replies: Vec::new(),
        }
    }

    /// Schedules a reply, keeping the queue soonest first.
    pub(crate) fn expect_reply(&mut self, r: Reply) {
        let at = self.replies.partition_point(|x| x.at <= r.at);
        self.replies.insert(at, r);
    }
}

/// An inbound reply on its way: it arrives at `at` (simulated time).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    /// When it arrives.
    pub at: SimMs,
    /// Seed of its id and wording.
    pub seed: u64,
    /// Its subject (`Re: ` and the subject it answers).
    pub subject: String,
}

// ---------------------------------------------------------------- Domains

/// The background re-checks, in simulated minutes after the trigger.
pub(crate) const POLL_MINUTES: [i64; 6] = [10, 20, 40, 80, 160, 320];

/// A running poller chain of one domain.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chain {
    /// When the chain was started.
    pub started: SimMs,
    /// Index into [`POLL_MINUTES`] of the next check.
    pub next: usize,
}

/// A sending domain with its simulated DNS.
#[derive(Debug, Clone)]
pub(crate) struct DomainRec {
    /// The resource.
    pub d: SendingDomain,
    /// When the published records become visible (set on first trigger).
    pub propagated_at: Option<SimMs>,
    /// The running poller chain.
    pub chain: Option<Chain>,
    /// Poller chains started for this domain.
    pub chains: u32,
}

/// The records to publish for `domain`.
pub(crate) fn dns_records(domain: &str, seed: u64) -> Vec<DnsRecord> {
    let key: String = (0..6).map(|i| format!("{:016x}", mix2(seed, i))).collect();
    vec![
        DnsRecord {
            kind: "TXT".into(),
            name: format!("outpost._domainkey.{domain}"),
            value: format!("v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ{key}"),
            priority: 0,
        },
        DnsRecord {
            kind: "MX".into(),
            name: format!("send.{domain}"),
            value: "feedback-smtp.demo-mail.example".into(),
            priority: 10,
        },
        DnsRecord {
            kind: "TXT".into(),
            name: format!("send.{domain}"),
            value: "v=spf1 include:spf.demo-mail.example ~all".into(),
            priority: 0,
        },
        DnsRecord {
            kind: "TXT".into(),
            name: format!("_dmarc.{domain}"),
            value: "v=DMARC1; p=none; rua=mailto:dmarc@demo-mail.example".into(),
            priority: 0,
        },
    ]
}

// ---------------------------------------------------------------- Discovery pass

/// A redeemable code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PassCode {
    /// The code.
    pub code: &'static str,
    /// Discoveries it grants.
    pub limit: u64,
    /// How long it lasts once redeemed, simulated ms.
    pub lasts: SimMs,
}

/// The codes the demo service knows.
pub(crate) const PASS_CODES: [PassCode; 2] = [
    PassCode {
        code: "DEMO-PASS-1",
        limit: 100,
        lasts: 14 * super::clock::DAY,
    },
    PassCode {
        code: "DEMO-PASS-2",
        limit: 25,
        lasts: 2 * super::clock::HOUR,
    },
];

/// A redeemed discovery pass.
#[derive(Debug, Clone)]
pub(crate) struct PassRec {
    /// `testAccess.id`.
    pub id: String,
    /// Activated at.
    pub activated: SimMs,
    /// Expires at.
    pub expires: SimMs,
    /// Discoveries granted.
    pub limit: u64,
    /// Discoveries used.
    pub used: u64,
}

impl PassRec {
    /// `(status, terminalReason)` at `now`.
    pub(crate) fn state(&self, now: SimMs) -> (&'static str, Option<&'static str>) {
        if now >= self.expires {
            ("expired", Some("expired"))
        } else if self.used >= self.limit {
            ("exhausted", Some("limit_reached"))
        } else {
            ("active", None)
        }
    }

    /// The `testAccess` object at `now`.
    pub(crate) fn render(&self, now: SimMs) -> TestAccess {
        let (status, reason) = self.state(now);
        TestAccess {
            id: self.id.clone(),
            source: "service_domain".into(),
            status: status.into(),
            activated_at: iso(self.activated),
            expires_at: iso(self.expires),
            discovery_limit: self.limit,
            discovery_used: self.used,
            remaining: self.limit.saturating_sub(self.used),
            terminal_reason: reason.map(str::to_owned),
        }
    }
}

/// `existing_threads` for a recipient: every other non-warm-up thread with
/// the same participant.
pub(crate) fn existing_threads(
    ws: &Workspace,
    email: &str,
    except: Option<&str>,
) -> ExistingThreads {
    let threads: Vec<Thread> = ws
        .threads
        .iter()
        .filter(|t| !t.warmup && !email.is_empty() && t.t.participant_email == email)
        .filter(|t| Some(t.t.id.as_str()) != except)
        .map(|t| t.t.clone())
        .collect();
    ExistingThreads {
        exists: !threads.is_empty(),
        total: threads.len() as u64,
        threads,
    }
}

/// The thread that blocks `account` from writing to `email`: same sender,
/// not archived, not warm-up.
pub(crate) fn blocking_thread<'a>(
    ws: &'a Workspace,
    account: Option<&str>,
    email: &str,
    except: Option<&str>,
) -> Option<&'a ThreadRec> {
    let account = account?;
    if email.is_empty() {
        return None;
    }
    ws.threads.iter().find(|t| {
        !t.warmup
            && t.t.status != ThreadStatus::Archived
            && t.t.account_id.as_deref() == Some(account)
            && t.t.participant_email == email
            && Some(t.t.id.as_str()) != except
    })
}

/// The 409 extra keys of a duplicate recipient.
pub(crate) fn duplicate_extra(
    ws: &Workspace,
    blocking: &Thread,
    email: &str,
    except: Option<&str>,
) -> Map<String, Value> {
    let mut extra = Map::new();
    extra.insert(
        "existing_thread".into(),
        serde_json::to_value(blocking).unwrap_or(Value::Null),
    );
    extra.insert(
        "existing_threads".into(),
        serde_json::to_value(existing_threads(ws, email, except)).unwrap_or(Value::Null),
    );
    extra
}

// ---------------------------------------------------------------- constructors

/// A sequence node.
pub(crate) fn node(
    id: String,
    campaign_id: &str,
    position: usize,
    kind: NodeType,
    subject: &str,
    body: &str,
) -> SequenceNode {
    SequenceNode {
        id,
        campaign_id: campaign_id.to_owned(),
        position: position as u64,
        kind,
        subject: subject.to_owned(),
        body: body.to_owned(),
    }
}

/// A new draft campaign with the default two-node sequence.
pub(crate) fn new_campaign(
    ids: &mut IdGen,
    user_id: &str,
    kind: Channel,
    name: &str,
    now: SimMs,
) -> CampaignRec {
    let id = ids.uuid();
    let first = match kind {
        Channel::Network => NodeType::ConnectionRequest,
        _ => NodeType::Email,
    };
    let nodes = vec![
        node(ids.uuid(), &id, 0, first, "", ""),
        node(ids.uuid(), &id, 1, NodeType::End, "", ""),
    ];
    let email = kind == Channel::Email;
    let c = Campaign {
        id,
        user_id: user_id.to_owned(),
        kind,
        name: name.to_owned(),
        status: CampaignStatus::Draft,
        daily_limit: email.then_some(50),
        stop_on_reply: email.then_some(true),
        open_tracking: email.then_some(false),
        signature: email.then(String::new),
        skip_other_campaigns: (!email).then_some(false),
        operating_hours: (!email).then(|| {
            json!({"timezone": "UTC", "days": ["mon", "tue", "wed", "thu", "fri"], "start": "09:00", "end": "17:00"})
        }),
        stats: CampaignStats::default(),
        created_at: iso(now),
        updated_at: iso(now),
        sequence_nodes: None,
        sender_accounts: None,
    };
    CampaignRec {
        c,
        sender_ids: Vec::new(),
        nodes,
        leads: Vec::new(),
        edits: HashMap::new(),
        keys: None,
        runner: None,
    }
}

fn opt_text(v: &Option<String>) -> String {
    v.as_deref().map(str::trim).unwrap_or_default().to_owned()
}

/// The channel identity as given; the other identity only when valid.
fn identities(kind: &Channel, email: String, url: String) -> (String, String) {
    match kind {
        Channel::Network => (
            if looks_like_email(&email) {
                email
            } else {
                String::new()
            },
            url,
        ),
        _ => (
            email,
            if looks_like_url(&url) {
                url
            } else {
                String::new()
            },
        ),
    }
}

/// The fields a lead of a `kind` campaign keeps of an input row (values
/// trimmed, see [`identities`]), with `source` `api`.
fn own_text(kind: &Channel, input: &LeadInput) -> OwnText {
    let (email, network_url) =
        identities(kind, opt_text(&input.email), opt_text(&input.network_url));
    let first_name = opt_text(&input.first_name);
    let last_name = opt_text(&input.last_name);
    let name = match opt_text(&input.name) {
        n if n.is_empty() => format!("{first_name} {last_name}").trim().to_owned(),
        n => n,
    };
    OwnText {
        email,
        network_url,
        first_name,
        last_name,
        name,
        company: opt_text(&input.company),
        position: opt_text(&input.position),
        headline: opt_text(&input.headline),
        custom_fields: input.custom_fields.clone().unwrap_or_default(),
        source: SOURCE_API,
        source_ref: String::new(),
    }
}

/// A seeded person as a lead's input row.
pub(crate) fn person_input(p: &Person) -> LeadInput {
    let city = match p.field(9) {
        Some(people::FVal::Str(s)) => s,
        _ => String::new(),
    };
    let mut custom = Map::new();
    custom.insert(
        "hook".into(),
        Value::String(p.signal_reason().to_lowercase()),
    );
    custom.insert("city".into(), Value::String(city));
    LeadInput {
        email: Some(p.email()),
        network_url: Some(p.network_url()),
        first_name: Some(p.first.to_owned()),
        last_name: Some(p.last.to_owned()),
        name: None,
        company: Some(p.company()),
        position: Some(p.title.to_owned()),
        headline: Some(p.headline()),
        custom_fields: Some(custom),
    }
}

/// A new pending lead from an input row: its fields as [`own_text`] keeps
/// them.
pub(crate) fn new_lead(
    c: &CampaignRec,
    id: Uuid,
    seed: u64,
    input: &LeadInput,
    now: SimMs,
) -> LeadRec {
    pending_lead(
        id,
        seed,
        LeadText::Own(Box::new(own_text(&c.c.kind, input))),
        now,
    )
}

/// A pending lead with `text`, added at `now`.
pub(crate) fn pending_lead(id: Uuid, seed: u64, text: LeadText, now: SimMs) -> LeadRec {
    LeadRec {
        id,
        status: LeadStatus::Pending,
        text,
        created: now,
        updated: now,
        replied: None,
        bounced: None,
        node: None,
        connected: false,
        phase: Phase::Idle,
        seed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedup_keys_normalise_identities() {
        let k = |c, e, u| dedup_key(&c, e, u);
        assert_eq!(k(Channel::Email, " A@X.io ", ""), "a@x.io");
        assert_eq!(
            k(
                Channel::Network,
                "",
                "https://network.example/in/ann//?utm=1"
            ),
            "https://network.example/in/ann"
        );
    }

    fn search_rec() -> SearchRec {
        SearchRec::new(Search::default(), 0, 42)
    }

    #[test]
    fn rows_stay_24_bytes() {
        assert_eq!(std::mem::size_of::<Row>(), 24);
    }

    #[test]
    fn merged_order_equals_a_full_sort_and_caches_follow() {
        let mut s = search_rec();
        s.add_rows(500, 0, 0, |seed| {
            if seed % 5 == 0 {
                RowStatus::Contacted
            } else {
                RowStatus::New
            }
        });
        let _ = s.coverage();
        for (run, n) in [1u32, 0, 7, 300, 2, 1000].into_iter().enumerate() {
            s.add_rows(n, u32::try_from(run).unwrap() + 1, 0, |_| RowStatus::New);
        }
        let mut want: Vec<u32> = (0..u32::try_from(s.rows.len()).unwrap()).collect();
        want.sort_by(|a, b| {
            let sa = Person::score(s.rows[*a as usize].seed);
            let sb = Person::score(s.rows[*b as usize].seed);
            sb.total_cmp(&sa).then(a.cmp(b))
        });
        assert_eq!(s.order, want);
        for r in &s.rows {
            assert_eq!(r.score(), Person::score(r.seed));
        }
        let kept = s.coverage();
        s.coverage = None;
        assert_eq!(kept, s.coverage(), "coverage kept up to date");
        let contacted = s.rows.iter().filter(|r| r.status == RowStatus::Contacted);
        assert_eq!(s.render().contacted_count, contacted.count() as u64);
        assert!(s.render().contacted_count > 0);
    }

    #[test]
    fn text_search_ignores_case_in_any_script() {
        let mut s = search_rec();
        s.search.source_plans = vec![SourcePlan {
            query: vec!["ÄRZTE Leitung".into()],
            reason: "Große Kliniken".into(),
            ..Default::default()
        }];
        s.add_rows(20, 0, 0, |_| RowStatus::New);
        let view = s.scan_view();
        for q in ["ärzte", "ärzte leitung", "leitung", "große", "GROSSE"] {
            let needle = q.to_lowercase();
            let want = if q == "GROSSE" { 0 } else { 20 };
            assert_eq!(view.matching(&[], Some(&needle)).len(), want, "{q}");
        }
    }

    #[test]
    fn templates_fill_lead_fields() {
        let mut lead = CampaignLead {
            first_name: "Ann".into(),
            company: "Acme".into(),
            ..Default::default()
        };
        lead.custom_fields.insert("hook".into(), json!("your post"));
        assert_eq!(
            render_template(
                "Hi %first_name% at %company%, re %custom_fields.hook% 100%",
                &lead
            ),
            "Hi Ann at Acme, re your post 100%"
        );
    }

    /// The demo sends what the dashboard's preview shows: a whole number in
    /// a custom field without its fraction (the demo wrote `2009.0`), and
    /// `%network_url%` filled in (it is a lead field; the demo sent it as
    /// written).
    #[test]
    fn templates_render_as_the_preview_does() {
        let mut lead = CampaignLead {
            network_url: "https://network.example/in/ann".into(),
            ..Default::default()
        };
        lead.custom_fields.insert("founded".into(), json!(2009.0));
        lead.custom_fields.insert("tags".into(), json!([1.0, "x"]));
        assert_eq!(
            render_template(
                "since %custom_fields.founded% %custom_fields.tags% · %network_url% · 50% off",
                &lead
            ),
            "since 2009 [1,\"x\"] · https://network.example/in/ann · 50% off"
        );
    }
}
