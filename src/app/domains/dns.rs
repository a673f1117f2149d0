//! The open domain's records as DNS holds them: each record asked of DNS
//! by Outpost itself (`Cmd::ResolveRecords`) and shown found, missing or
//! different, so a domain stuck in `verifying` tells which record is wrong.
//!
//! When: on opening a domain (unless its answers are recent), at each poll
//! of the live watch (or, for a domain not watched, on a timer of the same
//! period while its records are on screen), and on Refresh. Answers are
//! kept per question and not asked again for [`CACHE_FOR`].

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use super::{DomainsModel, Purpose, View, in_flight, records::purpose};
use crate::api::model::{DnsRecord, DomainStatus, SendingDomain};
use crate::app::ctx::Ctx;
use crate::app::requests::Requests;
use crate::app::{Cmd, Model, Pane};
use crate::dns::{Answers, CACHE_FOR, Lookup, Query, Verdict, check};

/// Answers older than this are dropped (the map stays small however many
/// domains are opened).
const FORGET_AFTER: Duration = Duration::from_secs(3600);

/// One answer, with when it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// What DNS said.
    pub lookup: Lookup,
    /// When (for the cache).
    pub at: Instant,
    /// Wall clock (unix seconds), for "checked 3m ago".
    pub clock: i64,
}

/// What DNS said, by question.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DnsTruth {
    /// The last answer to each question.
    pub answers: BTreeMap<Query, Checked>,
    /// The resolver that gave the last answers.
    pub resolver: Option<String>,
}

/// Where one record stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordState {
    /// Not asked yet.
    Unknown,
    /// Asked; no answer yet.
    Checking,
    /// What DNS holds, compared with what is expected.
    Known(Verdict),
}

/// The open domain's records together: how many are found, which are not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Records to publish.
    pub total: usize,
    /// Found as expected.
    pub found: usize,
    /// What each missing record is for (`DKIM`, or `TXT name`).
    pub missing: Vec<String>,
    /// The same, for records that differ.
    pub different: Vec<String>,
    /// The same, for records DNS could not be asked about.
    pub failed: Vec<String>,
    /// Why the first of those could not be asked.
    pub why: Option<String>,
    /// Records with no answer yet.
    pub unknown: usize,
    /// When the oldest answer shown came (wall clock).
    pub oldest: Option<i64>,
}

impl Summary {
    /// One line when the service's status and what DNS shows here
    /// disagree, naming the resolver, what each says and what it may mean
    /// (instead of stating both as facts); `None` when they agree or DNS
    /// has not answered for every record. `verify`: the Verify key.
    pub fn disagreement(
        &self,
        status: &DomainStatus,
        resolver: Option<&str>,
        verify: &str,
    ) -> Option<String> {
        let answered = self.total > 0 && self.unknown == 0 && self.failed.is_empty();
        if !answered {
            return None;
        }
        let via = resolver.map_or_else(
            || "this machine's resolver".to_owned(),
            |r| format!("DNS via {r}"),
        );
        let absent = self.missing.len() + self.different.len();
        match status {
            DomainStatus::Verified if absent > 0 => Some(format!(
                "⚠ The service says verified, but {via} finds {} of {}: its answers may be cached, or the records changed after the service checked.",
                self.found, self.total
            )),
            DomainStatus::Failed if absent == 0 => Some(format!(
                "⚠ The service says the records did not verify, but {via} finds all {}: they may have been published after its check; {verify} verifies again.",
                self.total
            )),
            _ => None,
        }
    }
}

/// A record's short name for the summary: what it is for, else its type
/// and name.
pub(crate) fn label(r: &DnsRecord) -> String {
    purpose(r).map_or_else(
        || format!("{} {}", r.kind.trim().to_ascii_uppercase(), r.name.trim()),
        str::to_owned,
    )
}

impl DomainsModel {
    /// Where a record of `dom` stands.
    pub fn record_state(
        &self,
        requests: &Requests,
        dom: &SendingDomain,
        r: &DnsRecord,
    ) -> RecordState {
        let q = Query::of(r, &dom.domain);
        match self.dns.answers.get(&q) {
            Some(c) => RecordState::Known(check(r, &c.lookup)),
            None if resolving_in(requests, &dom.id) => RecordState::Checking,
            None => RecordState::Unknown,
        }
    }

    /// The records of `dom` together.
    pub fn dns_summary(&self, requests: &Requests, dom: &SendingDomain) -> Summary {
        let mut s = Summary {
            total: dom.dns_records.len(),
            ..Summary::default()
        };
        for r in &dom.dns_records {
            let q = Query::of(r, &dom.domain);
            if let Some(c) = self.dns.answers.get(&q) {
                s.oldest = Some(s.oldest.map_or(c.clock, |o| o.min(c.clock)));
            }
            match self.record_state(requests, dom, r) {
                RecordState::Known(Verdict::Found) => s.found += 1,
                RecordState::Known(Verdict::Missing) => s.missing.push(label(r)),
                RecordState::Known(Verdict::Different(_)) => s.different.push(label(r)),
                RecordState::Known(Verdict::Failed(why)) => {
                    s.failed.push(label(r));
                    s.why.get_or_insert(why);
                }
                RecordState::Unknown | RecordState::Checking => s.unknown += 1,
            }
        }
        s
    }
}

/// Whether DNS is being asked about `domain`'s records (for the view).
pub(crate) fn resolving(m: &Model, domain: &str) -> bool {
    resolving_in(&m.requests, domain)
}

/// The same, from the request table.
fn resolving_in(requests: &Requests, domain: &str) -> bool {
    in_flight(
        requests,
        |p| matches!(p, Purpose::Resolve(d) if d == domain),
    )
}

/// The open domain's records with no answer, or none since the last
/// check period: asked now (on opening it, or when its records change).
pub(super) fn ensure(d: &DomainsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(id) = shown(d, cx) else {
        return Vec::new();
    };
    let max_age = cx.poll.domain.max(CACHE_FOR);
    resolve(d, cx, &id, max_age)
}

/// A check of `domain` (the watch polled it, its timer fired, or the user
/// asked): its records asked again unless answered within [`CACHE_FOR`].
pub(super) fn recheck(d: &DomainsModel, cx: &mut Ctx<'_>, domain: &str) -> Vec<Cmd> {
    if shown(d, cx).as_deref() != Some(domain) {
        return Vec::new();
    }
    resolve(d, cx, domain, CACHE_FOR)
}

/// The domain whose records are on screen.
fn shown(d: &DomainsModel, cx: &Ctx<'_>) -> Option<String> {
    shown_when(d, cx.is_shown(Pane::Domains))
}

/// The domain whose records are on screen, `pane_shown` telling whether
/// the pane is.
fn shown_when(d: &DomainsModel, pane_shown: bool) -> Option<String> {
    (pane_shown && d.view == View::DomainDetail)
        .then(|| d.open.clone())
        .flatten()
}

/// Asks DNS about `domain`'s records whose answer is older than
/// `max_age` (or missing); once at a time.
fn resolve(d: &DomainsModel, cx: &mut Ctx<'_>, domain: &str, max_age: Duration) -> Vec<Cmd> {
    if resolving_in(cx.requests, domain) {
        return Vec::new();
    }
    let Some(dom) = d.domain(domain) else {
        return Vec::new();
    };
    let now = cx.now;
    let truth = &d.dns;
    let due = |q: &Query| {
        truth
            .answers
            .get(q)
            .is_none_or(|c| now.saturating_duration_since(c.at) >= max_age)
    };
    let records: BTreeSet<Query> = dom
        .dns_records
        .iter()
        .map(|r| Query::of(r, &dom.domain))
        .filter(due)
        .collect();
    if records.is_empty() {
        return Vec::new();
    }
    let id = cx.effect(Purpose::Resolve(domain.to_owned()));
    vec![Cmd::ResolveRecords {
        id,
        records: records.into_iter().collect(),
    }]
}

/// DNS answered: each answer kept with its time (`now`, `clock`: when).
pub(super) fn on_resolved(truth: &mut DnsTruth, now: Instant, clock: i64, answers: Answers) {
    truth.resolver = Some(answers.resolver);
    for (q, lookup) in answers.lookups {
        truth.answers.insert(
            q,
            Checked {
                lookup,
                at: now,
                clock,
            },
        );
    }
    truth
        .answers
        .retain(|_, c| now.saturating_duration_since(c.at) < FORGET_AFTER);
}

/// The timer of the open domain's checks, when the watch does not poll it
/// (the watch's polls check it then): its period is the watch's, `every`.
/// The pane is shown.
pub(super) fn subscription(d: &DomainsModel, every: Duration) -> Option<(String, Duration)> {
    let id = shown_when(d, true)?;
    let has_records = d.domain(&id).is_some_and(|dom| !dom.dns_records.is_empty());
    (has_records && !d.watches.contains_key(&id)).then_some((id, every))
}

impl DomainsModel {
    /// The open domain's disagreement line between the service's status and
    /// DNS ([`Summary::disagreement`]), if any.
    pub fn disagreement(&self, requests: &Requests, verify: &str) -> Option<String> {
        let dom = self.open_domain()?;
        self.dns_summary(requests, dom).disagreement(
            &dom.status,
            self.dns.resolver.as_deref(),
            verify,
        )
    }
}

impl DomainsModel {
    /// What DNS holds at a record's name instead of what is expected, as
    /// shown beside it; `None` when it is found (or not asked yet).
    pub fn at_dns(&self, dom: &SendingDomain, r: &DnsRecord) -> Option<String> {
        let q = Query::of(r, &dom.domain);
        let lookup = &self.dns.answers.get(&q)?.lookup;
        match (check(r, lookup), lookup) {
            (Verdict::Found, _) => None,
            (Verdict::Different(found), _) => Some(found.join(" | ")),
            (_, Lookup::NoName) => Some("nothing (no such name)".to_owned()),
            (Verdict::Failed(why), _) => Some(format!("unknown: {why}")),
            (Verdict::Missing, _) => Some(format!("nothing (no {} record at this name)", q.kind)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crossterm::event::KeyCode;

    use super::super::DomainsSub;
    use super::*;
    use crate::app::fixtures::drive::{api, key, questions, reply, resolve};
    use crate::app::fixtures::{self, dns_answers};
    use crate::app::{ApiReply, ApiRequest, Msg, PaneSub, SubId, subscriptions, update};
    use crate::dns::Verdict;

    /// The Domains pane with the fixture domains listed.
    fn listed() -> Model {
        let mut m = fixtures::model(80, 24);
        let mut cmds = m.start();
        while let Some((id, _)) = api(&cmds).into_iter().next() {
            cmds = reply(&mut m, id, ApiReply::Domains(Ok(fixtures::domains())));
        }
        m
    }

    /// Opens the domain on row `row`; returns the commands.
    fn open(m: &mut Model, row: usize) -> Vec<Cmd> {
        for _ in 0..row {
            key(m, KeyCode::Char('j'));
        }
        key(m, KeyCode::Enter)
    }

    fn states(m: &Model) -> Vec<RecordState> {
        let d = &m.panes.domains;
        let dom = d.open_domain().expect("a domain is open");
        dom.dns_records
            .iter()
            .map(|r| d.record_state(&m.requests, dom, r))
            .collect()
    }

    fn dns_sub(m: &Model) -> Option<(String, Duration)> {
        subscriptions(m).into_iter().find_map(|s| match s.id {
            SubId::Pane(PaneSub::Domains(DomainsSub::Dns(d))) => Some((d, s.every)),
            _ => None,
        })
    }

    /// The Domains pane listing `domains`, with the one on row 1 opened
    /// and DNS answering with `missing` records absent.
    fn opened_with(status: crate::api::model::DomainStatus, missing: &[&str]) -> Model {
        let mut m = fixtures::model(80, 24);
        let mut listed = fixtures::domains();
        listed[1].status = status;
        let mut cmds = m.start();
        while let Some((id, _)) = api(&cmds).into_iter().next() {
            cmds = reply(&mut m, id, ApiReply::Domains(Ok(listed.clone())));
        }
        let cmds = open(&mut m, 1);
        let dom = m.panes.domains.open_domain().cloned().expect("open");
        resolve(&mut m, &cmds, |q| dns_answers(&dom, q, missing, &[]));
        m
    }

    #[test]
    fn a_verified_status_that_dns_does_not_show_is_one_warning_naming_the_resolver() {
        use crate::api::model::DomainStatus;
        let m = opened_with(DomainStatus::Verified, &["DKIM", "MX", "SPF", "DMARC"]);
        assert_eq!(
            m.panes.domains.disagreement(&m.requests, "v").as_deref(),
            Some(
                "⚠ The service says verified, but DNS via 127.0.0.1:5353 finds 0 of 4: its answers may be cached, or the records changed after the service checked."
            )
        );
        // The facts get a line more for it, so the dates stay on screen.
        let d = &m.panes.domains;
        let body = m.layout().body;
        let a = super::super::layout::areas(body, d.view, d.filter_bar(d.view), true);
        assert_eq!(a.info.height, 7);
    }

    #[test]
    fn a_failed_status_with_every_record_found_says_to_verify_again() {
        use crate::api::model::DomainStatus;
        let m = opened_with(DomainStatus::Failed, &[]);
        assert_eq!(
            m.panes.domains.disagreement(&m.requests, "v").as_deref(),
            Some(
                "⚠ The service says the records did not verify, but DNS via 127.0.0.1:5353 finds all 4: they may have been published after its check; v verifies again."
            )
        );
    }

    #[test]
    fn no_warning_when_the_service_and_dns_agree_or_dns_has_not_answered() {
        use crate::api::model::DomainStatus;
        for (status, missing) in [
            (DomainStatus::Verified, &[][..]),
            (DomainStatus::Failed, &["DKIM"][..]),
            // Pending or verifying: the service has not judged yet.
            (DomainStatus::Pending, &[][..]),
            (DomainStatus::Verifying, &["DKIM"][..]),
        ] {
            let m = opened_with(status.clone(), missing);
            assert_eq!(
                m.panes.domains.disagreement(&m.requests, "v"),
                None,
                "{status:?} {missing:?}"
            );
        }
        // Verified, DNS still being asked: nothing is known to disagree.
        let mut m = fixtures::model(80, 24);
        let mut listed = fixtures::domains();
        listed[1].status = DomainStatus::Verified;
        let mut cmds = m.start();
        while let Some((id, _)) = api(&cmds).into_iter().next() {
            cmds = reply(&mut m, id, ApiReply::Domains(Ok(listed.clone())));
        }
        open(&mut m, 1);
        assert_eq!(m.panes.domains.disagreement(&m.requests, "v"), None);
    }

    #[test]
    fn opening_a_domain_asks_dns_once_per_name_and_type() {
        let mut m = listed();
        let cmds = open(&mut m, 1);
        let asked = questions(&cmds);
        let names: Vec<String> = asked
            .iter()
            .map(|q| format!("{} {}", q.kind, q.name))
            .collect();
        assert_eq!(
            names,
            [
                "TXT _dmarc.outreach.northwind.com.",
                "TXT resend._domainkey.outreach.northwind.com.",
                "MX send.outreach.northwind.com.",
                "TXT send.outreach.northwind.com.",
            ]
        );
        assert_eq!(states(&m), vec![RecordState::Checking; 4]);
        // Moving in the records asks nothing more while DNS is asked.
        assert!(questions(&key(&mut m, KeyCode::Char('j'))).is_empty());
    }

    #[test]
    fn each_record_says_found_missing_or_different_and_the_summary_names_them() {
        let mut m = listed();
        let cmds = open(&mut m, 1);
        let dom = m.panes.domains.open_domain().cloned().expect("open");
        resolve(&mut m, &cmds, |q| dns_answers(&dom, q, &["DKIM"], &["SPF"]));
        let st = states(&m);
        assert_eq!(st[0], RecordState::Known(Verdict::Missing), "DKIM");
        assert!(
            matches!(&st[1], RecordState::Known(Verdict::Different(f)) if f[0].ends_with("-changed")),
            "SPF: {:?}",
            st[1]
        );
        assert_eq!(st[2], RecordState::Known(Verdict::Found), "MX");
        assert_eq!(st[3], RecordState::Known(Verdict::Found), "DMARC");
        let s = m.panes.domains.dns_summary(&m.requests, &dom);
        assert_eq!((s.found, s.total), (2, 4));
        assert_eq!(s.missing, ["DKIM"]);
        assert_eq!(s.different, ["SPF"]);
        assert_eq!(
            m.panes.domains.dns.resolver.as_deref(),
            Some("127.0.0.1:5353")
        );
        let r = &dom.dns_records[0];
        assert_eq!(
            m.panes.domains.at_dns(&dom, r).as_deref(),
            Some("nothing (no such name)")
        );
        // Back and in again at once: the answers are recent, DNS is not asked.
        key(&mut m, KeyCode::Esc);
        assert!(questions(&open(&mut m, 0)).is_empty());
    }

    #[test]
    fn the_watch_poll_asks_dns_again_but_not_within_the_cache() {
        let mut m = listed();
        let cmds = open(&mut m, 0);
        assert_eq!(m.panes.domains.open.as_deref(), Some("d-4"), "verifying");
        let dom = m.panes.domains.open_domain().cloned().expect("open");
        resolve(&mut m, &cmds, |q| dns_answers(&dom, q, &["DMARC"], &[]));
        assert!(dns_sub(&m).is_none(), "the watch's polls check DNS");
        let watch = SubId::Pane(PaneSub::Domains(DomainsSub::Watch("d-4".into(), 0)));
        let cmds = update(&mut m, Msg::SubFired(watch.clone()));
        assert_eq!(api(&cmds).len(), 1, "the poll");
        assert!(questions(&cmds).is_empty(), "answered within {CACHE_FOR:?}");
        let (poll, _) = api(&cmds).remove(0);
        reply(&mut m, poll, ApiReply::Domain(Ok(dom.clone())));
        m.now += CACHE_FOR;
        let cmds = update(&mut m, Msg::SubFired(watch));
        assert_eq!(questions(&cmds).len(), 4, "the poll asks DNS again");
        // The DMARC record was published meanwhile: its row turns found.
        resolve(&mut m, &cmds, |q| dns_answers(&dom, q, &[], &[]));
        assert_eq!(states(&m), vec![RecordState::Known(Verdict::Found); 4]);
        assert!(matches!(
            api(&cmds)[0].1,
            ApiRequest::VerifyDomain { poll: true, .. }
        ));
    }

    #[test]
    fn an_unwatched_domain_is_checked_on_a_timer_while_its_records_show() {
        let mut m = listed();
        let cmds = open(&mut m, 2);
        let dom = m.panes.domains.open_domain().cloned().expect("open");
        resolve(&mut m, &cmds, |q| dns_answers(&dom, q, &[], &[]));
        let (id, every) = dns_sub(&m).expect("a DNS timer");
        assert_eq!((id.as_str(), every), ("d-2", m.poll.domain));
        m.now += CACHE_FOR;
        let sub = SubId::Pane(PaneSub::Domains(DomainsSub::Dns(id)));
        let cmds = update(&mut m, Msg::SubFired(sub));
        assert_eq!(questions(&cmds).len(), 4);
        // A lookup that fails says so on its record, and the others keep
        // what they had.
        resolve(&mut m, &cmds, |q| crate::dns::Answers {
            resolver: "x".into(),
            lookups: q
                .iter()
                .map(|q| (q.clone(), Lookup::Failed("no answer within 6s".into())))
                .collect(),
        });
        assert!(matches!(
            states(&m)[0],
            RecordState::Known(Verdict::Failed(_))
        ));
        key(&mut m, KeyCode::Esc);
        assert!(dns_sub(&m).is_none(), "the records are no longer shown");
    }

    #[test]
    fn an_answer_after_leaving_is_kept_for_next_time() {
        let mut m = listed();
        let cmds = open(&mut m, 1);
        let dom = m.panes.domains.open_domain().cloned().expect("open");
        key(&mut m, KeyCode::Esc);
        key(&mut m, KeyCode::Char('1'));
        resolve(&mut m, &cmds, |q| dns_answers(&dom, q, &[], &[]));
        assert_eq!(m.panes.domains.dns.answers.len(), 4);
    }
}
