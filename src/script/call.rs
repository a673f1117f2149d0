//! How the commands call the service: reads retried as the dashboard's are,
//! and the one write path — a write sent once, its reply classified by
//! [`crate::logic::write`], and a write whose answer was lost settled as
//! the operations table declares ([`Settle`]): read on the one schedule of
//! [`Check`] until the verdict (the command waits for it), said, and kept
//! in the workspace's state so that doing it again asks first.
//!
//! Every request goes through the operations table (`api::ops::execute`),
//! the one place the dashboard's requests go through too, which records
//! every write in the profile's write journal; the verdict on a lost one is
//! appended once its check settles.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use super::Ctx;
use super::exit::describe;
use crate::api::model::{Campaign, MessagesPage, SearchPage, SearchPageQuery, ThreadMessage};
use crate::api::ops::execute;
use crate::api::retry::{RetryPolicy, backoff};
use crate::api::{Answer, ApiError, ApiRequest, Settle};
use crate::logic::proof::{Move, RunSeen, SentMessage};
use crate::logic::write::{self, Check, Outcome, Seen, Verdict};
use crate::text::sanitize;

/// Attempts of a read answered with a 5xx the client does not retry
/// itself (a 500): the first and up to four more, after 1, 2, 4 and 8 s.
const READ_ATTEMPTS: u32 = 5;

/// Messages read per page when a thread is checked (the contract's most).
pub(crate) const MESSAGES_PAGE: u64 = 200;

/// Whether a failed read is tried again here: a 5xx the client gave back
/// at once. (It retries 502, 503, 504, a failed connection and a 429
/// within its wait limit itself; a 500 it leaves to its caller, as the
/// dashboard's reads meet it on their next poll.)
fn retried_here(e: &ApiError) -> bool {
    matches!(e, ApiError::Service(s) if s.status >= 500 && !matches!(s.status, 502..=504))
}

/// The answer of `reply` as `T` (a reply of another type is a programming
/// error: said, never panicking).
fn take<T: Answer>(reply: crate::api::ApiReply) -> Result<T, ApiError> {
    T::take(reply).unwrap_or_else(|other| {
        Err(ApiError::Config(format!(
            "internal error: a {other} answer where another was expected"
        )))
    })
}

impl Ctx {
    /// Sends a read, trying it again after a 500 as the dashboard does
    /// (see [`READ_ATTEMPTS`]); every other failure is the caller's.
    pub(crate) async fn read<T: Answer>(&self, req: ApiRequest) -> Result<T, ApiError> {
        debug_assert!(!req.is_write(), "{} is a write", req.name());
        let policy = RetryPolicy::default();
        let mut attempt = 0;
        loop {
            let answer = take::<T>(execute(&self.client, req.clone()).await);
            match answer {
                Err(e) if retried_here(&e) && attempt + 1 < READ_ATTEMPTS => {
                    tokio::time::sleep(backoff(&policy, attempt, fastrand::f64())).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }
}

/// What a read after a lost answer looks for: the operations table's proof
/// of each write the commands send.
#[derive(Debug, Clone)]
pub(crate) enum Proof {
    /// The campaign's status shows the move.
    Campaign {
        /// The id of the campaign the change was sent to.
        id: String,
        /// The change sent.
        mv: Move,
        /// Its status as last read.
        status: Option<String>,
    },
    /// The search shows a run it did not show before.
    Run {
        /// The id of the search asked to run.
        id: String,
        /// What it showed before the request.
        before: RunSeen,
        /// The run found, once found.
        found: Option<String>,
    },
    /// A listed search shows a run it did not show before.
    RunAll {
        /// Each listed search's last run id before the request; `None`
        /// when the searches could not be listed (no check is possible).
        before: Option<BTreeMap<String, Option<String>>>,
    },
    /// The thread holds the message sent.
    Message {
        /// The id of the thread the message was sent to.
        thread: String,
        /// What was sent.
        sent: SentMessage,
    },
}

impl Proof {
    /// Where the check looks, for its words.
    pub(crate) fn place(&self) -> &'static str {
        match self {
            Proof::Campaign { .. } => "in the campaign's status",
            Proof::Run { .. } => "in the search's run status",
            Proof::RunAll { .. } => "in the searches' runs",
            Proof::Message { .. } => "in the thread",
        }
    }

    /// The check's start: none is possible for a run-all whose searches
    /// could not be listed.
    fn check(&self) -> Check {
        match self {
            Proof::RunAll { before: None } => Check::unchecked(
                "the searches could not be listed before it was sent, so no new run can be told",
            ),
            _ => Check::start(),
        }
    }

    /// One read of the proof.
    async fn read(&mut self, ctx: &Ctx) -> Seen {
        match self {
            Proof::Campaign { id, mv, status } => {
                match ctx
                    .read::<Campaign>(ApiRequest::GetCampaign { id: id.clone() })
                    .await
                {
                    Ok(c) => {
                        *status = Some(c.status.as_str().to_owned());
                        if mv.shown_by(&c.status) {
                            Seen::Found(format!("the campaign is {}", c.status))
                        } else {
                            Seen::Absent
                        }
                    }
                    Err(e) => Seen::Failed(describe(&e)),
                }
            }
            Proof::Run { id, before, found } => {
                let req = ApiRequest::GetSearch {
                    id: id.clone(),
                    page: SearchPageQuery {
                        limit: Some(1),
                        ..SearchPageQuery::default()
                    },
                };
                match ctx.read::<SearchPage>(req).await {
                    Ok(p) => {
                        let now = RunSeen::of(p.latest_run.as_ref(), &p.search);
                        if before.started_in(&now) {
                            found.clone_from(&now.run_id);
                            let status = now.status.map_or("recorded".into(), |s| s.to_string());
                            Seen::Found(format!("the search shows a new run ({status})"))
                        } else {
                            Seen::Absent
                        }
                    }
                    Err(e) => Seen::Failed(describe(&e)),
                }
            }
            Proof::RunAll { before } => {
                let Some(before) = before else {
                    return Seen::Absent;
                };
                match ctx
                    .read::<Option<Vec<crate::api::model::Search>>>(ApiRequest::ListSearches)
                    .await
                {
                    Ok(list) => {
                        let started = list.unwrap_or_default().into_iter().find(|s| {
                            before
                                .get(&s.search_id)
                                .is_some_and(|was| s.last_run_id.is_some() && *was != s.last_run_id)
                        });
                        match started {
                            Some(s) => Seen::Found(format!(
                                "\"{}\" shows a new run",
                                sanitize::inline(&s.title)
                            )),
                            None => Seen::Absent,
                        }
                    }
                    Err(e) => Seen::Failed(describe(&e)),
                }
            }
            Proof::Message { thread, sent } => match newest_messages(ctx, thread).await {
                Ok((first, total, page)) => {
                    if sent.found_in(first, total, &page) {
                        Seen::Found("found in the thread".into())
                    } else {
                        Seen::Absent
                    }
                }
                Err(e) => Seen::Failed(describe(&e)),
            },
        }
    }
}

/// The thread's last page of messages: the index of its first message,
/// the thread's count, and the page.
pub(crate) async fn newest_messages(
    ctx: &Ctx,
    thread: &str,
) -> Result<(u64, u64, Vec<ThreadMessage>), ApiError> {
    let page = |n: u64| ApiRequest::ListMessages {
        id: thread.to_owned(),
        page: Some(n),
        limit: Some(MESSAGES_PAGE),
    };
    let first: MessagesPage = ctx.read(page(1)).await?;
    let last = first.total.saturating_sub(1) / MESSAGES_PAGE + 1;
    if last <= 1 {
        return Ok((0, first.total, first.messages));
    }
    let p: MessagesPage = ctx.read(page(last)).await?;
    Ok(((last - 1) * MESSAGES_PAGE, p.total, p.messages))
}

/// How a write whose answer may have reached the service is kept in the
/// workspace's state (`pending_writes`), so that doing it again asks
/// first: a send on a thread as the dashboard keeps its own
/// (`send:<thread>`, which its Inbox takes back), any other as
/// `cli:<operation>:<target>`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Record {
    /// The state key.
    pub key: String,
    /// Its kind (`send`, or `cli`).
    pub kind: String,
    /// The thread, for a send.
    pub thread: Option<String>,
    /// What was sent, to recognise it (subject, body).
    pub fields: BTreeMap<String, String>,
    /// The thread's message count before a send.
    pub baseline: Option<u64>,
}

impl Record {
    /// The record of a write other than a send: `cli:<op>:<target>`.
    pub(crate) fn cli(op: &str, target: &str) -> Record {
        Record {
            key: format!("cli:{op}:{target}"),
            kind: "cli".into(),
            ..Record::default()
        }
    }

    /// The record of a send on `thread` (what the dashboard keeps for its
    /// own sends, so either front end asks before sending again); `reply`:
    /// a reply's record is marked so, as the Inbox marks its own (the
    /// thread's status proves nothing of a reply).
    pub(crate) fn send(thread: &str, sent: &SentMessage, reply: bool) -> Record {
        let mut fields: std::collections::BTreeMap<String, String> = [
            ("subject".to_owned(), sent.subject.clone()),
            ("body".to_owned(), sent.body.clone()),
        ]
        .into();
        if reply {
            fields.insert(crate::store::REPLY_FIELD.to_owned(), "true".to_owned());
        }
        Record {
            key: format!("send:{thread}"),
            kind: "send".into(),
            thread: Some(thread.to_owned()),
            fields,
            baseline: sent.baseline,
        }
    }
}

/// One write of a command.
#[derive(Debug, Clone)]
pub(crate) struct Write {
    /// The operation, with its arguments.
    pub req: ApiRequest,
    /// What is being done, for messages: `launching campaign "Q3" (7dfa…)`.
    pub doing: String,
    /// How it is kept when its answer is lost.
    pub record: Record,
}

/// A write whose answer was lost, once its check is settled.
#[derive(Debug, Clone)]
pub(crate) struct Lost {
    /// What lost the answer.
    pub error: ApiError,
    /// The check and its verdict.
    pub check: Check,
    /// Where it looked.
    pub place: &'static str,
    /// How the operation is settled.
    pub settle: Settle,
}

impl Lost {
    /// Whether the check found the write: it was carried out, once.
    pub(crate) fn found(&self) -> bool {
        matches!(self.check.verdict, Some(Verdict::Found(_)))
    }

    /// `check` of the JSON documents.
    pub(crate) fn json(&self) -> CheckJson {
        CheckJson {
            lost: self.error.code().to_owned(),
            verdict: match &self.check.verdict {
                Some(Verdict::Found(_)) => "found",
                Some(Verdict::NotFound) => "not_found",
                Some(Verdict::CouldNotCheck(_)) => "could_not_check",
                Some(Verdict::NoCheck(_)) | None => "no_check",
            },
            text: self.check.text(self.place),
        }
    }

    /// The line said on stderr at the end: what was seen, and, when it
    /// was not found, what to do (never sent again by itself).
    pub(crate) fn said(&self, doing: &str) -> String {
        let seen = self.check.text(self.place);
        if self.found() {
            format!(
                "{doing}: the answer was lost ({}), so it was not sent again; the check: {seen} — it was carried out once",
                self.error.code()
            )
        } else {
            let advice = match self.settle {
                Settle::SafeToRepeat => self.settle.advice(),
                _ => {
                    "it may have been carried out, so it was not sent again; doing it again asks first (--yes off a terminal)"
                }
            };
            format!(
                "{doing}: the answer was lost ({}): {advice}; the check: {seen}",
                self.error.code()
            )
        }
    }
}

/// `check` in a write's JSON document: what lost the answer, the verdict
/// (`found`, `not_found`, `could_not_check`, `no_check`) and its words.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CheckJson {
    /// The code of what lost the answer (`bad_gateway`, `timeout`).
    pub lost: String,
    /// The verdict.
    pub verdict: &'static str,
    /// The verdict in words.
    pub text: String,
}

/// What a write came to, refusals aside.
#[derive(Debug, Clone)]
pub(crate) enum Sent<T> {
    /// Done: the service's answer.
    Done(T),
    /// The answer was lost; the check is settled.
    Lost(Box<Lost>),
}

/// Sends `w` once. Done: its answer (and any record of an earlier lost
/// try of it is dropped). Refused (a 4xx, or it never left): the error,
/// nothing happened. Lost: the write is settled as its operation
/// declares — read on the schedule until the verdict, said on stderr, and
/// kept in the state unless it was found.
pub(crate) async fn send<T: Answer>(
    ctx: &Ctx,
    w: &Write,
    proof: &mut Proof,
) -> Result<Sent<T>, ApiError> {
    debug_assert!(w.req.is_write(), "{} is a read", w.req.name());
    let settle = w.req.settle().unwrap_or(Settle::NoCheck);
    let written = ctx.write::<T>(w.req.clone()).await;
    let (reply, entry) = (written.answer, written.entry);
    match write::outcome(&reply) {
        Outcome::Done => {
            super::confirm::forget(ctx, &w.record.key);
            reply.map(Sent::Done)
        }
        Outcome::Refused => reply.map(Sent::Done),
        Outcome::MayHaveReached => {
            let error = match reply {
                Err(e) => e,
                Ok(answer) => return Ok(Sent::Done(answer)),
            };
            let lost = settle_lost(ctx, w, proof, error, settle).await;
            if let Some(verdict) = &lost.check.verdict {
                ctx.verdict(entry.as_deref(), verdict);
            }
            if lost.found() {
                super::confirm::forget(ctx, &w.record.key);
            } else {
                super::confirm::keep(ctx, &w.record, &lost);
            }
            crate::errln!("outpost: {}", sanitize::inline(&lost.said(&w.doing)));
            Ok(Sent::Lost(Box::new(lost)))
        }
    }
}

/// Reads the proof on the schedule until the verdict (or says at once
/// why none can be had).
async fn settle_lost(
    ctx: &Ctx,
    w: &Write,
    proof: &mut Proof,
    error: ApiError,
    settle: Settle,
) -> Lost {
    let place = proof.place();
    let mut check = match settle {
        Settle::Check => proof.check(),
        Settle::SafeToRepeat => Check::unchecked("doing it twice changes nothing"),
        Settle::NoCheck => Check::unchecked("the service offers no read of it"),
    };
    if !check.settled() {
        crate::errln!(
            "outpost: {}: the answer was lost ({}); it is not sent again — checking {place}…",
            sanitize::inline(&w.doing),
            error.code()
        );
    }
    while !check.settled() {
        let seen = proof.read(ctx).await;
        check.saw(seen);
        if let Some(wait) = check.next_in() {
            check.reading();
            tokio::time::sleep(wait).await;
        }
    }
    Lost {
        error,
        check,
        place,
        settle,
    }
}

/// The wait between reads while a run is followed, never shorter than a
/// second.
pub(crate) fn follow_interval(ctx: &Ctx) -> Duration {
    ctx.poll().run.max(Duration::from_secs(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ServiceError;

    /// A reply's kept record is marked a reply, as the Inbox marks its own,
    /// so the dashboard never takes the thread's status for proof of it.
    #[test]
    fn a_replys_record_is_marked_a_reply_and_a_drafts_is_not() {
        let sent = SentMessage {
            baseline: Some(3),
            subject: "Re: Hi".into(),
            body: "Yes".into(),
        };
        let reply = Record::send("t-1", &sent, true);
        assert_eq!(
            reply
                .fields
                .get(crate::store::REPLY_FIELD)
                .map(String::as_str),
            Some("true")
        );
        let draft = Record::send("t-1", &sent, false);
        assert!(!draft.fields.contains_key(crate::store::REPLY_FIELD));
        assert_eq!(reply.key, draft.key, "one send at a time per thread");
    }

    #[test]
    fn only_a_5xx_the_client_returns_at_once_is_tried_again_here() {
        let service =
            |status| ApiError::Service(Box::new(ServiceError::from_body(status, b"", None)));
        assert!(retried_here(&service(500)));
        assert!(retried_here(&service(501)));
        // The client already tried these again.
        assert!(!retried_here(&service(502)));
        assert!(!retried_here(&service(504)));
        assert!(!retried_here(&service(404)));
        assert!(!retried_here(&ApiError::RateLimited {
            wait: Duration::from_secs(1),
            message: String::new()
        }));
    }

    #[test]
    fn a_lost_write_says_what_was_seen_and_what_to_do() {
        let e = ApiError::Service(Box::new({
            let mut s = ServiceError::from_body(502, b"{}", None);
            s.may_have_reached = true;
            s
        }));
        let mut check = Check::start();
        check.saw(Seen::Found("the campaign is launching".into()));
        let found = Lost {
            error: e.clone(),
            check,
            place: "in the campaign's status",
            settle: Settle::Check,
        };
        assert_eq!(
            found.said("launching campaign \"Q3\""),
            "launching campaign \"Q3\": the answer was lost (internal_error), so it was not sent again; the check: the campaign is launching — it was carried out once"
        );
        assert_eq!(found.json().verdict, "found");
        let none = Lost {
            check: Check::unchecked("the service offers no read of it"),
            ..found
        };
        assert_eq!(
            none.said("redeeming"),
            "redeeming: the answer was lost (internal_error): it may have been carried out, so it was not sent again; doing it again asks first (--yes off a terminal); the check: cannot be checked: the service offers no read of it"
        );
        assert_eq!(none.json().verdict, "no_check");
    }
}
