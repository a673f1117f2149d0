//! A create whose answer may have reached the service (a timeout, a lost
//! connection, a 5xx, a success answer that could not be read) may have
//! made the resource. The pane reads its list again to find it, on the one
//! schedule of [`crate::logic::write::Check`]: a failed read proves
//! nothing, five good reads without it say "not found", ten failed reads
//! say "could not check". Until the user says otherwise, sending again
//! asks first. This is that shared state and its wording; each pane keeps
//! what it sent and how it recognises the new item.

use std::time::Duration;

use crate::logic::write::{self, Seen, Verdict};

/// How long before the create was sent an item found by the check may
/// have been created (the service's clock and ours differ a little).
pub const CLOCK_SLACK: i64 = 300;

/// Whether an item created at `created_at` (RFC 3339) may be the one a
/// create sent at `sent_at` (unix seconds) made: not older than the send,
/// give or take [`CLOCK_SLACK`]. A time that does not read is given the
/// benefit of the doubt (the name and the list before decide).
pub fn made_since(created_at: &str, sent_at: i64) -> bool {
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
    /// in the web dashboard.
    pub fn new(why: String, listed: bool) -> Uncertain {
        Uncertain {
            why,
            check: if listed {
                write::Check::start()
            } else {
                write::Check::unchecked("the service does not list them")
            },
        }
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
    pub fn read(&mut self, check: Check) {
        match check {
            Check::NotFound => {
                self.check.saw(Seen::Absent);
            }
            Check::Failed(e) => {
                self.check.saw(Seen::Failed(e));
            }
            Check::Unlisted => {
                self.check = write::Check::unchecked("the service does not list them");
            }
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
        let mut u = Uncertain::new("timeout".into(), true);
        assert_eq!(u.recheck(), None, "the first read is on its way");
        let mut waits = Vec::new();
        for _ in 0..crate::logic::write::GOOD_READS {
            u.read(Check::NotFound);
            waits.extend(u.recheck());
            u.reading();
        }
        assert_eq!(waits, [2, 2, 4, 8].map(Duration::from_secs));
        assert!(u.text("campaigns").contains("most likely not created"));
        let unlisted = Uncertain::new("timeout".into(), false);
        assert!(unlisted.text("searches").contains("cannot tell"));
    }

    /// A list read that fails is no evidence: ten of them say "could not
    /// check", never "most likely not created".
    #[test]
    fn failed_reads_never_say_most_likely_not() {
        let mut u = Uncertain::new("bad_gateway".into(), true);
        for _ in 0..crate::logic::write::MAX_FAILED_READS {
            assert!(!u.text("searches").contains("most likely"));
            u.read(Check::Failed("internal_error".into()));
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
