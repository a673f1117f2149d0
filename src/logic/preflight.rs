//! The launch preflight: what is wrong with a campaign as the service will
//! send it, found before the launch (the dashboard's `L` and `:launch`, the
//! CLI's `campaign launch`), and the same check of one generated message
//! before it is saved ([`check_message`]).
//!
//! A [`Preflight`] is built from the campaign as the service sends it (its
//! channel, its sequence, its senders with their statuses, its daily limit)
//! and whether a sequence edited here is kept but not saved. The pending
//! roster is then walked page by page, a state machine like
//! [`super::export::Walk`]: each front end reads the page
//! [`Preflight::request`] asks for its own way and hands it to
//! [`Preflight::take`], showing [`Preflight::progress`] meanwhile.
//! [`Preflight::report`] says, at any point, what was found: errors (the
//! launch is refused) and warnings (it needs a second confirmation), each
//! with a [`Location`] a UI line jumps to, grouped by [`Kind`]. A report of
//! an unfinished walk says how many pending leads were not checked.
//!
//! Variables are read with the one template grammar ([`template::uses`]):
//! `%` + a lead field's name + `%`, or `%custom_fields.<key>%`; any other
//! `%` is literal ("50% off").

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde::Serialize;

use super::lead_field::LeadField;
use super::template::{self, CUSTOM_PREFIX, Variable};
use crate::api::model::{
    Campaign, CampaignLead, Channel, LeadStatus, NodeType, RosterPage, RosterQuery, SenderAccount,
};
use crate::text::format::{count, plural};

/// Leads per roster page the walk asks for (the most the service gives).
pub(crate) const PAGE: u64 = 200;

/// Days past which a daily limit makes the pending roster take too long.
pub(crate) const MAX_DAYS: u64 = 30;

/// Leads named in the text of a variable that is empty for them.
pub(crate) const NAMES_SHOWN: usize = 3;

/// Custom-field keys named when a variable names an unknown one.
const KEYS_SHOWN: usize = 5;

/// The key under which the dashboard keeps a sequence edited but not saved
/// (in the state file's drafts), so the CLI's launch can say so too.
pub(crate) fn unsaved_sequence_key(campaign: &str) -> String {
    format!("sequence:{campaign}")
}

/// Whether a sender's status says it is ready to send (the contract does
/// not list the values; the demo service says `connected`).
pub(crate) fn sender_ready(s: &SenderAccount) -> bool {
    matches!(s.status.as_str(), "connected" | "active" | "ready")
}

/// How much a finding holds up the launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The launch is refused until it is fixed.
    Error,
    /// The launch needs a second, explicit confirmation.
    Warning,
}

/// A part of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The subject.
    Subject,
    /// The body (a connection request's note).
    Body,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Subject => "subject",
            Part::Body => "body",
        }
    }
}

/// A campaign setting a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    /// `daily_limit`.
    DailyLimit,
}

/// Where a finding is, for a UI line to jump to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// A step of the sequence: its index (from 0) in the service's order
    /// (by `position`), and the part when the finding is about one.
    Step {
        /// Index in the sequence.
        index: usize,
        /// The subject or body, or the step as a whole.
        part: Option<Part>,
    },
    /// The sequence as a whole.
    Sequence,
    /// The campaign's list of senders.
    Senders,
    /// One sender, by id.
    Sender(String),
    /// A setting.
    Setting(Setting),
    /// The roster of pending leads.
    Roster,
    /// One lead, by id (the first one the finding is true of).
    Lead(String),
    /// A part of the generated message being saved.
    Message(Part),
}

/// What a finding is: its group, in the order groups are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The sequence has no step that sends anything, or was not read.
    NoMessageStep,
    /// An email or network message step without a body.
    NoBody,
    /// An email campaign's first email without a subject.
    NoSubject,
    /// A `%name%` that names no lead field.
    UnknownVariable,
    /// A `%custom_fields.<key>%` whose key no pending lead has.
    UnknownCustomField,
    /// No sender of the campaign's channel.
    NoSender,
    /// No lead is pending.
    NoPendingLead,
    /// A `%token%` left in a generated message.
    LeftoverToken,
    /// A variable that is empty for some pending leads.
    EmptyVariable,
    /// A sender whose status is not known to be ready.
    SenderNotReady,
    /// A sequence edited here but not saved.
    UnsavedSequence,
    /// A daily limit that makes the roster take more than [`MAX_DAYS`].
    SlowRoster,
    /// A custom field no lead checked so far has (the walk is unfinished).
    UnseenCustomField,
}

impl Kind {
    /// Whether it blocks the launch or asks for a second confirmation.
    pub fn severity(self) -> Severity {
        match self {
            Kind::NoMessageStep
            | Kind::NoBody
            | Kind::NoSubject
            | Kind::UnknownVariable
            | Kind::UnknownCustomField
            | Kind::NoSender
            | Kind::NoPendingLead
            | Kind::LeftoverToken => Severity::Error,
            Kind::EmptyVariable
            | Kind::SenderNotReady
            | Kind::UnsavedSequence
            | Kind::SlowRoster
            | Kind::UnseenCustomField => Severity::Warning,
        }
    }

    /// The group's heading.
    pub fn title(self) -> &'static str {
        match self {
            Kind::NoMessageStep => "No message step",
            Kind::NoBody => "Steps without a body",
            Kind::NoSubject => "No subject",
            Kind::UnknownVariable => "Unknown variables",
            Kind::UnknownCustomField | Kind::UnseenCustomField => "Unknown custom fields",
            Kind::NoSender => "No sender",
            Kind::NoPendingLead => "No pending lead",
            Kind::LeftoverToken => "Variables left in the text",
            Kind::EmptyVariable => "Empty variables",
            Kind::SenderNotReady => "Senders not known to be ready",
            Kind::UnsavedSequence => "Unsaved sequence",
            Kind::SlowRoster => "Daily limit",
        }
    }
}

/// One thing found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Its group (and so its severity).
    pub kind: Kind,
    /// Where the problem is (a step, the senders, a setting, a lead), for a UI to jump to.
    pub location: Location,
    /// What is wrong, in a sentence.
    pub text: String,
}

impl Finding {
    fn new(kind: Kind, location: Location, text: String) -> Finding {
        Finding {
            kind,
            location,
            text,
        }
    }

    /// Whether it blocks or warns.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

/// What a preflight found so far.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Report {
    /// Findings that block the launch, grouped by kind (in [`Kind`]'s
    /// order), each group in the sequence's order.
    pub errors: Vec<Finding>,
    /// Findings that need a second confirmation, grouped the same way.
    pub warnings: Vec<Finding>,
    /// Pending leads checked.
    pub checked: u64,
    /// Pending leads the service reports (all of them checked when the
    /// walk is complete).
    pub pending: u64,
    /// Whether every page of the pending roster was read.
    pub complete: bool,
}

impl Report {
    /// Whether the launch is refused.
    pub fn blocks(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Pending leads not checked (a launch confirmed before the walk ends
    /// says so).
    pub fn not_checked(&self) -> u64 {
        if self.complete {
            0
        } else {
            self.pending.saturating_sub(self.checked)
        }
    }

    /// The findings in groups, errors first: each group's kind and its
    /// findings.
    pub fn groups(&self) -> Vec<(Kind, Vec<&Finding>)> {
        let mut out: Vec<(Kind, Vec<&Finding>)> = Vec::new();
        for f in self.errors.iter().chain(&self.warnings) {
            match out.last_mut() {
                Some((k, items)) if *k == f.kind => items.push(f),
                _ => out.push((f.kind, vec![f])),
            }
        }
        out
    }

    fn push(&mut self, f: Finding) {
        match f.severity() {
            Severity::Error => self.errors.push(f),
            Severity::Warning => self.warnings.push(f),
        }
    }

    /// Orders each severity's findings by group, keeping each group's own
    /// order.
    fn sort(&mut self) {
        self.errors.sort_by_key(|f| f.kind);
        self.warnings.sort_by_key(|f| f.kind);
    }
}

/// One step of the sequence, as checked.
#[derive(Debug, Clone)]
struct Step {
    kind: NodeType,
    subject: String,
    body: String,
}

impl Step {
    /// Its parts that are sent: an email's subject and body, any other
    /// step's body (a network step has no subject).
    fn parts(&self) -> Vec<(Part, &str)> {
        match self.kind {
            NodeType::End => Vec::new(),
            NodeType::Email => vec![(Part::Subject, &self.subject), (Part::Body, &self.body)],
            _ => vec![(Part::Body, &self.body)],
        }
    }

    fn kind_name(&self) -> &str {
        match &self.kind {
            NodeType::Email => "email",
            NodeType::Message => "message",
            NodeType::ConnectionRequest => "connection request",
            NodeType::End => "end",
            NodeType::Other(s) => s,
        }
    }
}

/// "Step 2 (email)".
fn step_name(index: usize, step: &Step) -> String {
    format!("Step {} ({})", index + 1, step.kind_name())
}

/// The leads a variable is empty for.
#[derive(Debug, Clone, Default)]
struct Empties {
    count: u64,
    names: Vec<String>,
    first: String,
}

/// A lead as a finding names it: its name, else first and last name, else
/// its identity, else its id.
pub(crate) fn lead_label(lead: &CampaignLead) -> String {
    let name = lead.name.trim();
    if !name.is_empty() {
        return name.to_owned();
    }
    let full = format!("{} {}", lead.first_name.trim(), lead.last_name.trim());
    let full = full.trim();
    if !full.is_empty() {
        return full.to_owned();
    }
    [&lead.email, &lead.network_url, &lead.id]
        .into_iter()
        .map(|s| s.trim())
        .find(|s| !s.is_empty())
        .unwrap_or("a lead without a name")
        .to_owned()
}

/// The preflight of one campaign: its fixed findings and the walk over its
/// pending roster.
#[derive(Debug, Clone)]
pub struct Preflight {
    /// The campaign checked.
    pub campaign_id: String,
    daily_limit: Option<u64>,
    /// Each variable used, with where (step index and part), in the order
    /// they first appear.
    uses: Vec<(Variable, Vec<(usize, Part)>)>,
    /// Findings that do not depend on the leads.
    fixed: Vec<Finding>,
    /// The next roster page (from 1).
    next_page: u64,
    /// Pending leads the service reports, once a page said.
    total: Option<u64>,
    /// Pending leads checked.
    checked: u64,
    /// Leads read, repeats included.
    read: u64,
    /// Ids of the leads taken: a lead read twice is checked once.
    seen: HashSet<String>,
    /// Every page was read.
    done: bool,
    /// Why the walk ended before the service said it was done.
    stopped: Option<String>,
    /// Custom-field keys the leads checked have.
    custom_keys: BTreeSet<String>,
    /// For each used variable (by its index in `uses`), the leads it is
    /// empty for.
    empty: BTreeMap<usize, Empties>,
}

impl Preflight {
    /// The preflight of `campaign` (as the service sent it); `unsaved`:
    /// whether a sequence edited here is kept but not saved.
    pub fn new(campaign: &Campaign, unsaved: bool) -> Preflight {
        let mut p = Preflight {
            campaign_id: campaign.id.clone(),
            daily_limit: campaign.daily_limit,
            uses: Vec::new(),
            fixed: Vec::new(),
            next_page: 1,
            total: None,
            checked: 0,
            read: 0,
            seen: HashSet::new(),
            done: false,
            stopped: None,
            custom_keys: BTreeSet::new(),
            empty: BTreeMap::new(),
        };
        p.check_sequence(campaign);
        p.check_senders(campaign);
        if unsaved {
            p.fixed.push(Finding::new(
                Kind::UnsavedSequence,
                Location::Sequence,
                "A sequence edited here is kept but not saved: the launch sends the one the service has".into(),
            ));
        }
        p
    }

    fn check_sequence(&mut self, campaign: &Campaign) {
        let Some(nodes) = &campaign.sequence_nodes else {
            self.fixed.push(Finding::new(
                Kind::NoMessageStep,
                Location::Sequence,
                "The campaign's sequence was not read: read the campaign again".into(),
            ));
            return;
        };
        let mut nodes: Vec<_> = nodes.iter().collect();
        nodes.sort_by_key(|n| n.position);
        let steps: Vec<Step> = nodes
            .into_iter()
            .map(|n| Step {
                kind: n.kind.clone(),
                subject: n.subject.clone(),
                body: n.body.clone(),
            })
            .collect();
        if !steps.iter().any(|s| s.kind != NodeType::End) {
            self.fixed.push(Finding::new(
                Kind::NoMessageStep,
                Location::Sequence,
                "The sequence has no step that sends anything".into(),
            ));
        }
        let first_email = steps.iter().position(|s| s.kind == NodeType::Email);
        for (i, step) in steps.iter().enumerate() {
            let blank = |t: &str| t.trim().is_empty();
            if matches!(step.kind, NodeType::Email | NodeType::Message) && blank(&step.body) {
                self.fixed.push(Finding::new(
                    Kind::NoBody,
                    Location::Step {
                        index: i,
                        part: Some(Part::Body),
                    },
                    format!("{} has no body", step_name(i, step)),
                ));
            }
            if campaign.kind == Channel::Email && first_email == Some(i) && blank(&step.subject) {
                self.fixed.push(Finding::new(
                    Kind::NoSubject,
                    Location::Step {
                        index: i,
                        part: Some(Part::Subject),
                    },
                    format!(
                        "{} has no subject: an email campaign's first email needs one",
                        step_name(i, step)
                    ),
                ));
            }
            for (part, text) in step.parts() {
                self.check_variables(i, part, text);
            }
        }
    }

    /// The variables of one part of step `i`: unknown names are errors,
    /// the rest are kept to be checked against each lead.
    fn check_variables(&mut self, i: usize, part: Part, text: &str) {
        let u = template::uses(text);
        let at = Location::Step {
            index: i,
            part: Some(part),
        };
        let place = format!("Step {} {}", i + 1, part.name());
        for name in &u.unknown {
            let hint = suggestion(name)
                .map(|s| format!(" (did you mean %{s}%?)"))
                .unwrap_or_default();
            self.fixed.push(Finding::new(
                Kind::UnknownVariable,
                at.clone(),
                format!("{place}: %{name}% names no lead field{hint}"),
            ));
        }
        for v in u.variables {
            if v == Variable::Custom(String::new()) {
                self.fixed.push(Finding::new(
                    Kind::UnknownVariable,
                    at.clone(),
                    format!("{place}: %{CUSTOM_PREFIX}% names no custom field"),
                ));
                continue;
            }
            match self.uses.iter_mut().find(|(x, _)| *x == v) {
                Some((_, wheres)) => wheres.push((i, part)),
                None => self.uses.push((v, vec![(i, part)])),
            }
        }
    }

    fn check_senders(&mut self, campaign: &Campaign) {
        let channel = campaign.kind.as_str();
        let Some(senders) = &campaign.sender_accounts else {
            self.fixed.push(Finding::new(
                Kind::NoSender,
                Location::Senders,
                "The campaign's senders were not read: read the campaign again".into(),
            ));
            return;
        };
        let of_channel: Vec<&SenderAccount> =
            senders.iter().filter(|s| s.kind == campaign.kind).collect();
        if of_channel.is_empty() {
            self.fixed.push(Finding::new(
                Kind::NoSender,
                Location::Senders,
                format!("No {channel} sender: the campaign has no sender of its channel"),
            ));
        }
        for s in of_channel.into_iter().filter(|s| !sender_ready(s)) {
            let status = if s.status.trim().is_empty() {
                "has no status".to_owned()
            } else {
                format!("is {}", s.status.trim())
            };
            self.fixed.push(Finding::new(
                Kind::SenderNotReady,
                Location::Sender(s.id.clone()),
                format!("Sender {} {status}, not known to be ready", sender_label(s)),
            ));
        }
    }

    /// The roster page to read next; `None` once the walk is over.
    pub fn request(&self) -> Option<RosterQuery> {
        (!self.done).then(|| RosterQuery {
            page: Some(self.next_page),
            limit: Some(PAGE),
            status: Some(LeadStatus::Pending.as_str().to_owned()),
        })
    }

    /// Whether every page was read (or the walk stopped).
    pub fn done(&self) -> bool {
        self.done
    }

    /// Why the walk stopped before the service said it was done.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Pending leads checked, and the pending leads the service reports
    /// (`None` before the first page).
    pub fn progress(&self) -> (u64, Option<u64>) {
        (self.checked, self.total)
    }

    /// Takes in a page of the pending roster and moves on. Leads that are
    /// not pending (a service that ignores the filter) are not checked.
    pub fn take(&mut self, page: &RosterPage) {
        let n = page.prospects.len() as u64;
        self.read = self.read.saturating_add(n);
        let mut fresh = 0u64;
        for lead in &page.prospects {
            // Leads without an id cannot be told apart: each counts as new.
            if !lead.id.is_empty() && !self.seen.insert(lead.id.clone()) {
                continue;
            }
            fresh += 1;
            if lead.status == LeadStatus::Pending {
                self.check_lead(lead);
            }
        }
        let reported = page.total;
        self.total = Some(reported.max(self.checked));
        let limit = self.total.unwrap_or(0).saturating_add(PAGE);
        if n == 0 || self.seen.len() as u64 >= reported || (page.limit > 0 && n < page.limit) {
            self.done = true;
        } else if fresh == 0 {
            self.stop("the service sent leads already read again");
        } else if self.read > limit.saturating_add(reported / 10) {
            self.stop("the service sent more leads than it reported");
        } else {
            self.next_page += 1;
        }
        if self.done {
            self.total = Some(self.checked);
        }
    }

    fn stop(&mut self, why: &str) {
        self.done = true;
        self.stopped = Some(why.to_owned());
    }

    fn check_lead(&mut self, lead: &CampaignLead) {
        self.checked += 1;
        self.custom_keys
            .extend(lead.custom_fields.keys().map(String::clone));
        for (i, (v, _)) in self.uses.iter().enumerate() {
            if v.value(lead).trim().is_empty() {
                let e = self.empty.entry(i).or_default();
                e.count += 1;
                if e.first.is_empty() {
                    e.first = lead.id.clone();
                }
                if e.names.len() < NAMES_SHOWN {
                    e.names.push(lead_label(lead));
                }
            }
        }
    }

    /// Pending leads as the texts count them: those checked once the walk
    /// is over, the service's figure before.
    fn pending(&self) -> u64 {
        if self.done {
            self.checked
        } else {
            self.total.unwrap_or(0).max(self.checked)
        }
    }

    /// What was found so far.
    pub fn report(&self) -> Report {
        let complete = self.done && self.stopped.is_none();
        let mut r = Report {
            checked: self.checked,
            pending: self.pending(),
            complete,
            ..Report::default()
        };
        for f in &self.fixed {
            r.push(f.clone());
        }
        if self.done && self.checked == 0 {
            r.push(Finding::new(
                Kind::NoPendingLead,
                Location::Roster,
                "No pending lead: the service refuses a launch without one".into(),
            ));
        }
        self.variable_findings(&mut r);
        if let Some(f) = self.slow_roster(r.pending) {
            r.push(f);
        }
        r.sort();
        r
    }

    /// The findings of the variables against the leads checked: a custom
    /// field none has, a variable empty for some.
    fn variable_findings(&self, r: &mut Report) {
        let complete = r.complete;
        let known: Vec<&str> = self
            .custom_keys
            .iter()
            .take(KEYS_SHOWN)
            .map(String::as_str)
            .collect();
        let known = if known.is_empty() {
            "they have none".to_owned()
        } else if self.custom_keys.len() > KEYS_SHOWN {
            format!("known: {}, …", known.join(", "))
        } else {
            format!("known: {}", known.join(", "))
        };
        for (i, (v, wheres)) in self.uses.iter().enumerate() {
            let unknown_key = match v {
                Variable::Custom(key) => !self.custom_keys.contains(key),
                Variable::Field(_) => false,
            };
            let (index, part) = wheres[0];
            let at = Location::Step {
                index,
                part: Some(part),
            };
            let place = format!("Step {} {}", index + 1, part.name());
            if unknown_key {
                // With no lead checked, nothing is known of the keys (and
                // no pending lead at all is its own error).
                if self.checked == 0 {
                    continue;
                }
                if complete {
                    r.push(Finding::new(
                        Kind::UnknownCustomField,
                        at,
                        format!(
                            "{place}: {} names a custom field no pending lead has ({known})",
                            v.token()
                        ),
                    ));
                } else {
                    r.push(Finding::new(
                        Kind::UnseenCustomField,
                        at,
                        format!(
                            "{place}: {} names a custom field none of the {} checked so far has ({known})",
                            v.token(),
                            plural(self.checked, "lead", "leads")
                        ),
                    ));
                }
                continue;
            }
            let Some(e) = self.empty.get(&i) else {
                continue;
            };
            let mut names = e.names.join(", ");
            if e.count > e.names.len() as u64 {
                names.push_str(", …");
            }
            let of = if complete {
                format!(
                    "{} of {}",
                    count(e.count),
                    plural(r.pending, "pending lead", "pending leads")
                )
            } else {
                format!(
                    "{} of the {} checked so far ({} in all)",
                    count(e.count),
                    plural(self.checked, "pending lead", "pending leads"),
                    count(r.pending)
                )
            };
            r.push(Finding::new(
                Kind::EmptyVariable,
                Location::Lead(e.first.clone()),
                format!("{} is empty for {of}: {names}", v.token()),
            ));
        }
    }

    /// The daily limit's warning, when the roster would take too long.
    fn slow_roster(&self, pending: u64) -> Option<Finding> {
        let limit = self.daily_limit?;
        if pending == 0 {
            return None;
        }
        let at = Location::Setting(Setting::DailyLimit);
        if limit == 0 {
            return Some(Finding::new(
                Kind::SlowRoster,
                at,
                "The daily limit is 0: no lead would be sent anything".into(),
            ));
        }
        let days = pending.div_ceil(limit);
        (days > MAX_DAYS).then(|| {
            Finding::new(
                Kind::SlowRoster,
                at,
                format!(
                    "At {} a day, {} take {days} days to start (more than {MAX_DAYS})",
                    count(limit),
                    plural(pending, "pending lead", "pending leads")
                ),
            )
        })
    }
}

/// A sender as a finding names it: `Display Name <address>`, or what it
/// has of those, or its id.
fn sender_label(s: &SenderAccount) -> String {
    let name = s.display_name.trim();
    let address = s.email_address.trim();
    match (name.is_empty(), address.is_empty()) {
        (false, false) => format!("{name} <{address}>"),
        (false, true) => name.to_owned(),
        (true, false) => address.to_owned(),
        (true, true) => s.id.clone(),
    }
}

/// The lead field a mistyped name most likely meant (at most two edits
/// away), or `custom_fields.<key>` for a misspelt prefix.
fn suggestion(name: &str) -> Option<String> {
    if let Some((prefix, key)) = name.split_once('.')
        && edits(prefix, CUSTOM_PREFIX.trim_end_matches('.')) <= 2
    {
        return Some(format!("{CUSTOM_PREFIX}{key}"));
    }
    LeadField::ALL
        .into_iter()
        .map(|f| (edits(name, f.name()), f.name()))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.to_owned())
}

/// The edit distance between two short names (Levenshtein, with a swap of
/// two neighbours counted as one edit: `frist` is one from `first`).
fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The check of a generated message before it is saved after an edit: an
/// empty subject (an email's), an empty body, and a `%token%` left in
/// either (a variable the merge did not fill, or a mistyped one).
pub(crate) fn check_message(subject: &str, body: &str, email: bool) -> Vec<Finding> {
    let mut out = Vec::new();
    if email && subject.trim().is_empty() {
        out.push(Finding::new(
            Kind::NoSubject,
            Location::Message(Part::Subject),
            "The subject is empty".into(),
        ));
    }
    if body.trim().is_empty() {
        out.push(Finding::new(
            Kind::NoBody,
            Location::Message(Part::Body),
            "The body is empty".into(),
        ));
    }
    let parts = if email {
        vec![(Part::Subject, subject), (Part::Body, body)]
    } else {
        vec![(Part::Body, body)]
    };
    for (part, text) in parts {
        let u = template::uses(text);
        let tokens = u
            .variables
            .iter()
            .map(Variable::token)
            .chain(u.unknown.iter().map(|n| format!("%{n}%")));
        for token in tokens {
            out.push(Finding::new(
                Kind::LeftoverToken,
                Location::Message(part),
                format!(
                    "The {} still holds {token}: it is sent as written",
                    part.name()
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::api::model::SequenceNode;

    fn node(position: u64, kind: NodeType, subject: &str, body: &str) -> SequenceNode {
        SequenceNode {
            id: format!("n{position}"),
            position,
            kind,
            subject: subject.into(),
            body: body.into(),
            ..SequenceNode::default()
        }
    }

    fn sender(id: &str, kind: Channel, status: &str) -> SenderAccount {
        SenderAccount {
            id: id.into(),
            kind,
            status: status.into(),
            display_name: format!("Sender {id}"),
            email_address: format!("{id}@outpost.test"),
            ..SenderAccount::default()
        }
    }

    fn email_campaign(nodes: Vec<SequenceNode>) -> Campaign {
        Campaign {
            id: "c1".into(),
            kind: Channel::Email,
            name: "Spring".into(),
            sequence_nodes: Some(nodes),
            sender_accounts: Some(vec![sender("s1", Channel::Email, "connected")]),
            ..Campaign::default()
        }
    }

    fn good_sequence() -> Vec<SequenceNode> {
        vec![
            node(
                1,
                NodeType::Email,
                "Hi %first_name%",
                "50% off for %company%",
            ),
            node(2, NodeType::End, "", ""),
        ]
    }

    fn lead(id: &str, first: &str, last: &str, company: &str) -> CampaignLead {
        CampaignLead {
            id: id.into(),
            status: LeadStatus::Pending,
            first_name: first.into(),
            last_name: last.into(),
            company: company.into(),
            email: format!("{id}@lead.test"),
            ..CampaignLead::default()
        }
    }

    fn page(leads: Vec<CampaignLead>, total: u64, number: u64) -> RosterPage {
        RosterPage {
            prospects: leads,
            total,
            page: number,
            limit: PAGE,
        }
    }

    fn texts(fs: &[Finding]) -> Vec<&str> {
        fs.iter().map(|f| f.text.as_str()).collect()
    }

    /// Walks a roster given whole, as the service would page it.
    fn walk(p: &mut Preflight, roster: &[CampaignLead]) {
        while let Some(q) = p.request() {
            let size = usize::try_from(PAGE).unwrap();
            let n = usize::try_from(q.page.unwrap_or(1) - 1).unwrap() * size;
            let rows: Vec<_> = roster.iter().skip(n).take(size).cloned().collect();
            p.take(&page(rows, roster.len() as u64, q.page.unwrap_or(1)));
        }
    }

    #[test]
    fn a_sound_campaign_has_nothing_to_say() {
        let mut p = Preflight::new(&email_campaign(good_sequence()), false);
        walk(&mut p, &[lead("l1", "Ana", "López", "Brightlabs")]);
        let r = p.report();
        assert_eq!(r.errors, Vec::new());
        assert_eq!(r.warnings, Vec::new());
        assert!(r.complete);
        assert_eq!((r.checked, r.pending, r.not_checked()), (1, 1, 0));
    }

    #[test]
    fn an_empty_step_and_a_missing_subject_block_the_launch() {
        let c = email_campaign(vec![
            node(1, NodeType::Email, " ", "Hello"),
            node(2, NodeType::Email, "", "  \n"),
            node(3, NodeType::End, "", ""),
        ]);
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &[lead("l1", "Ana", "López", "Brightlabs")]);
        let r = p.report();
        assert!(r.blocks());
        assert_eq!(
            texts(&r.errors),
            [
                "Step 2 (email) has no body",
                "Step 1 (email) has no subject: an email campaign's first email needs one",
            ]
        );
        assert_eq!(
            r.errors[0].location,
            Location::Step {
                index: 1,
                part: Some(Part::Body)
            }
        );
        assert_eq!(
            r.errors[1].location,
            Location::Step {
                index: 0,
                part: Some(Part::Subject)
            }
        );
    }

    #[test]
    fn steps_are_read_in_the_services_order_and_the_end_and_a_note_may_be_empty() {
        let c = Campaign {
            kind: Channel::Network,
            sender_accounts: Some(vec![sender("s1", Channel::Network, "connected")]),
            ..email_campaign(vec![
                node(3, NodeType::End, "", ""),
                node(2, NodeType::Message, "", ""),
                node(1, NodeType::ConnectionRequest, "", ""),
            ])
        };
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &[lead("l1", "Ana", "López", "Brightlabs")]);
        assert_eq!(texts(&p.report().errors), ["Step 2 (message) has no body"]);
    }

    #[test]
    fn a_sequence_of_only_the_end_or_not_read_is_refused() {
        let p = Preflight::new(&email_campaign(vec![node(1, NodeType::End, "", "")]), false);
        assert_eq!(
            texts(&p.report().errors),
            ["The sequence has no step that sends anything"]
        );
        let c = Campaign {
            sequence_nodes: None,
            ..email_campaign(Vec::new())
        };
        assert_eq!(
            texts(&Preflight::new(&c, false).report().errors),
            ["The campaign's sequence was not read: read the campaign again"]
        );
    }

    #[test]
    fn an_unknown_variable_is_refused_with_a_suggestion_and_percent_text_is_not() {
        let c = email_campaign(vec![
            node(
                1,
                NodeType::Email,
                "50% off, %frist_name%",
                "Up 20% at %compnay% — %custom_fields.% %custom_feilds.plan% %zzz%",
            ),
            node(2, NodeType::End, "", ""),
        ]);
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &[lead("l1", "Ana", "López", "Brightlabs")]);
        let r = p.report();
        assert_eq!(
            texts(&r.errors),
            [
                "Step 1 subject: %frist_name% names no lead field (did you mean %first_name%?)",
                "Step 1 body: %compnay% names no lead field (did you mean %company%?)",
                "Step 1 body: %custom_feilds.plan% names no lead field (did you mean %custom_fields.plan%?)",
                "Step 1 body: %zzz% names no lead field",
                "Step 1 body: %custom_fields.% names no custom field",
            ]
        );
        assert!(r.errors.iter().all(|f| f.kind == Kind::UnknownVariable));
    }

    #[test]
    fn a_custom_field_no_pending_lead_has_is_refused_and_one_some_lack_warns() {
        let c = email_campaign(vec![
            node(
                1,
                NodeType::Email,
                "For %company%",
                "On %custom_fields.plan% since %custom_fields.sine%",
            ),
            node(2, NodeType::End, "", ""),
        ]);
        let mut roster: Vec<CampaignLead> = (0..2003)
            .map(|i| {
                let mut l = lead(&format!("l{i}"), "Ana", "López", "Brightlabs");
                l.custom_fields.insert("plan".into(), json!("Growth"));
                l.custom_fields.insert("since".into(), json!(2009));
                l
            })
            .collect();
        for (i, name) in [(5, "Rosa Garcia"), (700, "Bo Chen"), (2002, "Kim Lee")] {
            roster[i].name = name.into();
            roster[i].custom_fields.insert("plan".into(), json!(" "));
        }
        roster[9].custom_fields.remove("plan");
        roster[9].name = "Dee Ray".into();
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &roster);
        let r = p.report();
        assert_eq!(
            texts(&r.errors),
            [
                "Step 1 body: %custom_fields.sine% names a custom field no pending lead has (known: plan, since)"
            ]
        );
        assert_eq!(
            texts(&r.warnings),
            [
                "%custom_fields.plan% is empty for 4 of 2,003 pending leads: Rosa Garcia, Dee Ray, Bo Chen, …"
            ]
        );
        assert_eq!(r.warnings[0].location, Location::Lead("l5".into()));
        assert_eq!(r.errors[0].kind, Kind::UnknownCustomField);
    }

    #[test]
    fn an_empty_field_names_the_leads_and_jumps_to_the_first() {
        let mut p = Preflight::new(&email_campaign(good_sequence()), false);
        let roster = vec![
            lead("l1", "Ana", "López", "Brightlabs"),
            lead("l2", "", "", "Brightlabs"),
            CampaignLead {
                name: "Rosa Garcia".into(),
                ..lead("l3", "", "Garcia", "")
            },
        ];
        walk(&mut p, &roster);
        let r = p.report();
        assert_eq!(
            texts(&r.warnings),
            [
                "%first_name% is empty for 2 of 3 pending leads: l2@lead.test, Rosa Garcia",
                "%company% is empty for 1 of 3 pending leads: Rosa Garcia",
            ]
        );
        assert_eq!(r.warnings[0].location, Location::Lead("l2".into()));
        assert!(!r.blocks(), "warnings ask, they do not block");
    }

    #[test]
    fn no_sender_of_the_channel_blocks_and_one_not_ready_warns() {
        let c = Campaign {
            sender_accounts: Some(vec![
                sender("s1", Channel::Network, "connected"),
                SenderAccount {
                    display_name: String::new(),
                    ..sender("s2", Channel::Network, "")
                },
            ]),
            ..email_campaign(good_sequence())
        };
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &[lead("l1", "Ana", "López", "Brightlabs")]);
        let r = p.report();
        assert_eq!(
            texts(&r.errors),
            ["No email sender: the campaign has no sender of its channel"]
        );
        assert_eq!(r.errors[0].location, Location::Senders);
        let c = Campaign {
            sender_accounts: Some(vec![
                sender("s1", Channel::Email, "disconnected"),
                SenderAccount {
                    display_name: String::new(),
                    ..sender("s2", Channel::Email, "")
                },
                sender("s3", Channel::Email, "connected"),
            ]),
            ..email_campaign(good_sequence())
        };
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &[lead("l1", "Ana", "López", "Brightlabs")]);
        let r = p.report();
        assert_eq!(r.errors, Vec::new());
        assert_eq!(
            texts(&r.warnings),
            [
                "Sender Sender s1 <s1@outpost.test> is disconnected, not known to be ready",
                "Sender s2@outpost.test has no status, not known to be ready",
            ]
        );
        assert_eq!(r.warnings[1].location, Location::Sender("s2".into()));
    }

    #[test]
    fn no_pending_lead_blocks_once_the_roster_is_read() {
        let mut p = Preflight::new(&email_campaign(good_sequence()), false);
        assert_eq!(p.report().errors, Vec::new(), "not read yet: not known");
        walk(&mut p, &[]);
        let r = p.report();
        assert_eq!(
            texts(&r.errors),
            ["No pending lead: the service refuses a launch without one"]
        );
        assert_eq!(r.errors[0].location, Location::Roster);
    }

    #[test]
    fn an_unsaved_sequence_and_a_slow_daily_limit_warn() {
        let c = Campaign {
            daily_limit: Some(50),
            ..email_campaign(good_sequence())
        };
        let roster: Vec<_> = (0..2003)
            .map(|i| lead(&format!("l{i}"), "Ana", "López", "Brightlabs"))
            .collect();
        let mut p = Preflight::new(&c, true);
        walk(&mut p, &roster);
        let r = p.report();
        assert_eq!(
            texts(&r.warnings),
            [
                "A sequence edited here is kept but not saved: the launch sends the one the service has",
                "At 50 a day, 2,003 pending leads take 41 days to start (more than 30)",
            ]
        );
        assert_eq!(
            r.warnings[1].location,
            Location::Setting(Setting::DailyLimit)
        );
        // 1,500 at 50 a day is 30 days: not more than 30.
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &roster[..1500]);
        assert_eq!(p.report().warnings, Vec::new());
        let c = Campaign {
            daily_limit: Some(0),
            ..c
        };
        let mut p = Preflight::new(&c, false);
        walk(&mut p, &roster[..1]);
        assert_eq!(
            texts(&p.report().warnings),
            ["The daily limit is 0: no lead would be sent anything"]
        );
    }

    #[test]
    fn the_roster_is_walked_page_by_page_with_progress() {
        let c = email_campaign(good_sequence());
        let roster: Vec<_> = (0..450)
            .map(|i| lead(&format!("l{i}"), if i == 420 { "" } else { "Ana" }, "", "B"))
            .collect();
        let mut p = Preflight::new(&c, false);
        assert_eq!(p.progress(), (0, None));
        let q = p.request().expect("a first page");
        assert_eq!(
            (q.page, q.limit, q.status.as_deref()),
            (Some(1), Some(PAGE), Some("pending"))
        );
        p.take(&page(roster[..200].to_vec(), 450, 1));
        assert_eq!(p.progress(), (200, Some(450)));
        assert_eq!(p.request().and_then(|q| q.page), Some(2));
        // Stopped here (Esc): the report says what was not checked.
        let r = p.report();
        assert!(!r.complete);
        assert_eq!(r.not_checked(), 250);
        assert_eq!(r.warnings, Vec::new(), "lead 420 not read yet");
        p.take(&page(roster[200..400].to_vec(), 450, 2));
        p.take(&page(roster[400..].to_vec(), 450, 3));
        assert!(p.done());
        assert_eq!(p.request(), None);
        let r = p.report();
        assert!(r.complete);
        assert_eq!(
            texts(&r.warnings),
            ["%first_name% is empty for 1 of 450 pending leads: l420@lead.test"]
        );
    }

    #[test]
    fn an_unfinished_walk_says_what_it_saw_so_far() {
        let c = email_campaign(vec![
            node(
                1,
                NodeType::Email,
                "Hi %first_name%",
                "%custom_fields.plan%",
            ),
            node(2, NodeType::End, "", ""),
        ]);
        let roster: Vec<_> = (0..300)
            .map(|i| lead(&format!("l{i}"), if i < 2 { "" } else { "Ana" }, "", "B"))
            .collect();
        let mut p = Preflight::new(&c, false);
        p.take(&page(roster[..200].to_vec(), 300, 1));
        let r = p.report();
        assert_eq!(r.errors, Vec::new(), "an unseen key may be on a later page");
        assert_eq!(
            texts(&r.warnings),
            [
                "%first_name% is empty for 2 of the 200 pending leads checked so far (300 in all): l0@lead.test, l1@lead.test",
                "Step 1 body: %custom_fields.plan% names a custom field none of the 200 leads checked so far has (they have none)",
            ]
        );
    }

    #[test]
    fn a_service_that_repeats_pages_or_ignores_the_filter_is_walked_safely() {
        let c = email_campaign(good_sequence());
        let mut p = Preflight::new(&c, false);
        let rows: Vec<_> = (0..200)
            .map(|i| lead(&format!("l{i}"), "Ana", "L", "B"))
            .collect();
        p.take(&page(rows.clone(), 1000, 1));
        p.take(&page(rows, 1000, 2));
        assert!(p.done());
        assert_eq!(
            p.stopped(),
            Some("the service sent leads already read again")
        );
        assert!(!p.report().complete);
        // Leads that are not pending are not checked.
        let mut p = Preflight::new(&c, false);
        let mut sent = lead("l9", "", "", "");
        sent.status = LeadStatus::Sent;
        walk(&mut p, &[sent, lead("l1", "Ana", "L", "B")]);
        let r = p.report();
        assert_eq!(r.checked, 1);
        assert_eq!(r.warnings, Vec::new());
    }

    #[test]
    fn findings_come_in_groups_errors_first() {
        let c = Campaign {
            sender_accounts: Some(vec![sender("s1", Channel::Email, "paused")]),
            ..email_campaign(vec![
                node(1, NodeType::Email, "", "%frist_name%"),
                node(2, NodeType::Email, "", ""),
                node(3, NodeType::Email, "", ""),
                node(4, NodeType::End, "", ""),
            ])
        };
        let mut p = Preflight::new(&c, true);
        walk(&mut p, &[lead("l1", "Ana", "L", "B")]);
        let r = p.report();
        let groups: Vec<(Kind, usize)> = r.groups().iter().map(|(k, v)| (*k, v.len())).collect();
        assert_eq!(
            groups,
            [
                (Kind::NoBody, 2),
                (Kind::NoSubject, 1),
                (Kind::UnknownVariable, 1),
                (Kind::SenderNotReady, 1),
                (Kind::UnsavedSequence, 1),
            ]
        );
        assert_eq!(Kind::NoBody.title(), "Steps without a body");
    }

    #[test]
    fn a_generated_message_is_checked_before_it_is_saved() {
        assert_eq!(
            check_message("Hi Ana", "50% off, 100% sure", true),
            Vec::new()
        );
        let found = check_message(
            " ",
            "Hi %first_name%, %frist_name% %custom_fields.plan%",
            true,
        );
        assert_eq!(
            texts(&found),
            [
                "The subject is empty",
                "The body still holds %first_name%: it is sent as written",
                "The body still holds %custom_fields.plan%: it is sent as written",
                "The body still holds %frist_name%: it is sent as written",
            ]
        );
        assert_eq!(found[0].location, Location::Message(Part::Subject));
        assert!(found.iter().all(|f| f.severity() == Severity::Error));
        assert_eq!(texts(&check_message("", "", false)), ["The body is empty"]);
    }

    #[test]
    fn a_report_reads_as_json_for_the_cli() {
        let mut p = Preflight::new(&email_campaign(vec![node(1, NodeType::End, "", "")]), false);
        walk(&mut p, &[]);
        let json = serde_json::to_value(p.report()).unwrap();
        assert_eq!(
            json["errors"][0],
            json!({"kind": "no_message_step", "location": "sequence", "text": "The sequence has no step that sends anything"})
        );
        assert_eq!(json["errors"][1]["location"], json!("roster"));
        let f = Finding::new(
            Kind::NoBody,
            Location::Step {
                index: 1,
                part: Some(Part::Body),
            },
            String::new(),
        );
        assert_eq!(
            serde_json::to_value(f).unwrap()["location"],
            json!({"step": {"index": 1, "part": "body"}})
        );
        assert_eq!(unsaved_sequence_key("c1"), "sequence:c1");
    }

    #[test]
    fn edits_count_a_swap_as_one() {
        assert_eq!(edits("frist_name", "first_name"), 1);
        assert_eq!(edits("company", "company"), 0);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(suggestion("naem"), Some("name".into()));
        assert_eq!(suggestion("zzz"), None);
    }

    /// Text with `%` that never opens a variable: every `%` is followed by
    /// something other than a letter or `_`, or ends the text.
    fn literal_text() -> impl Strategy<Value = String> {
        ("([a-zA-Z0-9 ,.!_-]|%[0-9 ,.!-])*", any::<bool>())
            .prop_map(|(s, ends)| if ends { s + "%" } else { s })
    }

    proptest! {
        /// Literal `%` text is never a variable: it is used as none, merged
        /// as it is, and the preflight says nothing of it.
        #[test]
        fn literal_percent_text_is_never_a_variable(text in literal_text()) {
            let u = template::uses(&text);
            prop_assert_eq!(u.variables, Vec::new());
            prop_assert_eq!(u.unknown, Vec::<String>::new());
            prop_assert_eq!(template::merge(&text, &CampaignLead::default()).text, text.clone());
            let c = email_campaign(vec![
                node(1, NodeType::Email, "Subject", &format!("x{text}")),
                node(2, NodeType::End, "", ""),
            ]);
            let mut p = Preflight::new(&c, false);
            walk(&mut p, &[lead("l1", "", "", "")]);
            let r = p.report();
            prop_assert_eq!(r.errors, Vec::new());
            prop_assert_eq!(r.warnings, Vec::new());
        }

        /// Literal `%` text around a variable leaves the variable one, and
        /// itself literal.
        #[test]
        fn literal_text_around_a_variable_keeps_it_one(
            before in literal_text(),
            after in literal_text(),
            field in proptest::sample::select(LeadField::ALL.to_vec()),
        ) {
            let token = Variable::Field(field).token();
            let text = format!("{before}{token}{after}");
            prop_assert_eq!(template::uses(&text).variables, vec![Variable::Field(field)]);
            let mut l = CampaignLead::default();
            *field.of_mut(&mut l) = "V".into();
            prop_assert_eq!(template::merge(&text, &l).text, format!("{before}V{after}"));
        }
    }
}
