//! Writes whose answer was lost, and their verdicts in the write journal.
//!
//! Every dashboard write that may have reached gets its verdict appended
//! to the journal, naming its entry, from one place: [`lost_reply`] (when
//! the reply comes: at once for a write no read settles) and
//! [`Ctx::journal_verdict`] (when a pane's check settles). A pane starts the
//! check of a lost write with [`Ctx::lost_check`] (it carries the write's
//! entry) and settles it with [`Ctx::saw`] or [`Ctx::settle`]; it never
//! sends `Cmd::JournalVerdict` itself.
//!
//! A create whose answer may have reached the service (a timeout, a lost
//! connection, a 5xx, a success answer that could not be read) may have
//! made the resource. The pane reads its list again to find it, on the one
//! schedule of [`crate::logic::write::Check`]: a failed read proves
//! nothing, five good reads without it say "not found", ten failed reads
//! say "could not check". Until the user says otherwise, sending again
//! asks first. This is that shared state and its wording; each pane keeps
//! what it sent and how it recognises the new item.

use std::time::Duration;

use super::ctx::Ctx;
use super::{Cmd, Reply, RequestId};
use crate::api::ops::Settle;
use crate::logic::write::{self, Seen, Verdict};

/// A reply as it reaches the panes: when it is a write's whose answer was
/// lost, either the write whose check will settle it (its verdict is
/// journaled when the pane's check settles), or — for a write no read
/// settles (safe to repeat, or no read of it) — its verdict, journaled at
/// once, as the CLI says it.
pub(crate) fn lost_reply(
    id: RequestId,
    settle: Option<Settle>,
    reply: &Reply,
) -> (Option<RequestId>, Vec<Cmd>) {
    let lost = matches!(reply, Reply::Api(r)
        if r.error().is_some_and(|e| write::of_error(e) == write::Outcome::MayHaveReached));
    match settle {
        Some(Settle::Check) if lost => (Some(id), Vec::new()),
        Some(s @ (Settle::SafeToRepeat | Settle::NoCheck)) if lost => {
            let why = if s == Settle::SafeToRepeat {
                "doing it twice changes nothing"
            } else {
                "the service offers no read of it"
            };
            (
                None,
                vec![Cmd::JournalVerdict {
                    write: id,
                    verdict: Verdict::NoCheck(why.into()),
                }],
            )
        }
        _ => (None, Vec::new()),
    }
}

/// What the journal says of a lost write whose pane keeps no check of it.
pub(crate) const NOT_CHECKED: &str = "the dashboard does not read it back: refresh, or look in the web dashboard, before trying again";

impl Ctx<'_> {
    /// The journal entry of the write whose lost answer is being handled,
    /// for the check that will settle it (taken: a reply whose pane keeps
    /// no check has its verdict journaled as [`NOT_CHECKED`]).
    pub fn lost_entry(&mut self) -> Option<u64> {
        self.take_lost_write().map(|r| r.0)
    }

    /// The check of the write whose lost answer is being handled: its
    /// first read is sent now, and its verdict will name the write's
    /// journal entry.
    pub fn lost_check(&mut self) -> write::Check {
        write::Check::start().for_entry(self.lost_entry())
    }

    /// A read of `check` came back: the verdict when this read settles it
    /// (journaled).
    pub fn saw(&mut self, check: &mut write::Check, seen: Seen) -> Option<Verdict> {
        let verdict = check.saw(seen).cloned();
        self.journal_verdict(check);
        verdict
    }

    /// Settles `check` by other means than its own read (the write was
    /// seen in a list read for another reason; no read can tell any more),
    /// unless it is settled already — but a write found after "not found"
    /// was found; journaled.
    pub fn settle(&mut self, check: &mut write::Check, verdict: Verdict) {
        if !check.settled() || matches!(verdict, Verdict::Found(_)) {
            check.reading = false;
            check.verdict = Some(verdict);
        }
        self.journal_verdict(check);
    }

    /// Appends a settled check's verdict to the journal, naming its write's
    /// entry — the one place a dashboard verdict is journaled from a check
    /// (once per verdict).
    pub fn journal_verdict(&mut self, check: &mut write::Check) {
        if let Some((entry, verdict)) = check.verdict_to_journal() {
            self.run(Cmd::JournalVerdict {
                write: RequestId(entry),
                verdict,
            });
        }
    }
}

/// How long before the create was sent an item found by the check may
/// have been created (the service's clock and ours differ a little).
pub(crate) const CLOCK_SLACK: i64 = 300;

/// Whether an item created at `created_at` (RFC 3339) may be the one a
/// create sent at `sent_at` (unix seconds) made: not older than the send,
/// give or take [`CLOCK_SLACK`]. A time that does not read is given the
/// benefit of the doubt (the name and the list before decide).
pub(crate) fn made_since(created_at: &str, sent_at: i64) -> bool {
    crate::text::format::unix(created_at).is_none_or(|t| t >= sent_at - CLOCK_SLACK)
}

/// A create whose answer was lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncertain {
    /// What went wrong (`timeout: no answer within 3s`).
    pub why: String,
    /// The reads of the list so far; settled at once as "no check
    /// possible" when the service does not list these.
    pub check: write::Check,
}

impl Uncertain {
    /// A lost create, checked when the service lists what was created
    /// (`listed`, the first read sent now), else left for the user to look
    /// in the web dashboard (journaled so at once).
    pub fn new(cx: &mut Ctx<'_>, why: String, listed: bool) -> Uncertain {
        let mut check = if listed {
            cx.lost_check()
        } else {
            write::Check::unchecked("the service does not list them").for_entry(cx.lost_entry())
        };
        cx.journal_verdict(&mut check);
        Uncertain { why, check }
    }

    /// The created item was found (`how`: "found in the campaigns list").
    pub fn found(&mut self, cx: &mut Ctx<'_>, how: &str) {
        cx.settle(&mut self.check, Verdict::Found(how.to_owned()));
    }

    /// Reads of the list so far, good or failed (a subscription's key: it
    /// changes with every read).
    pub fn reads(&self) -> u32 {
        self.check.absent.saturating_add(self.check.failed)
    }

    /// When to read the list again, if it is not settled yet.
    pub fn recheck(&self) -> Option<Duration> {
        self.check.next_in()
    }

    /// A read of the list is on its way.
    pub fn reading(&mut self) {
        self.check.reading();
    }

    /// A read of the list came back without the item (`check`).
    pub fn read(&mut self, cx: &mut Ctx<'_>, check: Check) {
        match check {
            Check::NotFound => {
                cx.saw(&mut self.check, Seen::Absent);
            }
            Check::Failed(e) => {
                cx.saw(&mut self.check, Seen::Failed(e));
            }
            Check::Unlisted => cx.settle(
                &mut self.check,
                Verdict::NoCheck("the service does not list them".into()),
            ),
        }
    }

    /// What is known, said of the list `what` ("campaigns", "searches").
    pub fn text(&self, what: &str) -> String {
        if matches!(self.check.verdict, Some(Verdict::NoCheck(_))) {
            return format!(
                "this service does not list {what}, so Outpost cannot tell; the web dashboard shows whether it exists"
            );
        }
        match &self.check.verdict {
            Some(Verdict::NotFound) => format!(
                "the {what} list does not show it after {} good reads, so it was most likely not created",
                self.check.absent
            ),
            Some(Verdict::CouldNotCheck(e)) => format!(
                "could not check: {} reads of the {what} list failed (last: {e}), so Outpost cannot tell",
                self.check.failed
            ),
            _ => self.check.text(&format!("the {what} list")),
        }
    }
}

/// What one read of the list showed of the item a lost create may have made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// It does not show it (yet).
    NotFound,
    /// The service does not list them: Outpost cannot tell.
    Unlisted,
    /// Reading it failed (it proves nothing).
    Failed(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_is_read_again_on_the_schedule_then_settled() {
        let mut m = crate::app::fixtures::model(80, 24);
        let mut cx = m.ctx();
        let mut u = Uncertain::new(&mut cx, "timeout".into(), true);
        assert_eq!(u.recheck(), None, "the first read is on its way");
        let mut waits = Vec::new();
        for _ in 0..crate::logic::write::GOOD_READS {
            u.read(&mut cx, Check::NotFound);
            waits.extend(u.recheck());
            u.reading();
        }
        assert_eq!(waits, [2, 2, 4, 8].map(Duration::from_secs));
        assert!(u.text("campaigns").contains("most likely not created"));
        let unlisted = Uncertain::new(&mut cx, "timeout".into(), false);
        assert!(unlisted.text("searches").contains("cannot tell"));
    }

    /// A list read that fails is no evidence: ten of them say "could not
    /// check", never "most likely not created".
    #[test]
    fn failed_reads_never_say_most_likely_not() {
        let mut m = crate::app::fixtures::model(80, 24);
        let mut cx = m.ctx();
        let mut u = Uncertain::new(&mut cx, "bad_gateway".into(), true);
        for _ in 0..crate::logic::write::MAX_FAILED_READS {
            assert!(!u.text("searches").contains("most likely"));
            u.read(&mut cx, Check::Failed("internal_error".into()));
            u.reading();
        }
        let said = u.text("searches");
        assert!(said.contains("could not check: 10 reads"), "{said}");
        assert!(!said.contains("most likely"), "{said}");
        assert_eq!(u.recheck(), None, "settled");
    }

    #[test]
    fn only_an_item_made_since_the_send_can_be_the_created_one() {
        let sent = crate::text::format::unix("2026-03-01T12:00:00Z").expect("time");
        assert!(made_since("2026-03-01T12:00:01Z", sent));
        assert!(
            made_since("2026-03-01T11:56:00Z", sent),
            "clocks differ a little"
        );
        assert!(!made_since("2026-02-01T12:00:00Z", sent), "a month older");
        assert!(made_since("", sent), "no time: the name decides");
    }
}
