//! The one write path's rules, below both front ends (the dashboard and the
//! scripting commands settle writes the same way).
//!
//! A write's reply is one of three outcomes ([`Outcome`]): done; refused (the
//! service said no with its code, or nothing was sent — nothing happened);
//! or *may have reached* — a timeout or a dropped connection after the
//! request went out, any 5xx (the contract does not promise that a 500 did
//! nothing, and a 502/503/504 comes from whatever stands in front of the
//! service), a 2xx whose body cannot be read. The client marks the last
//! kind ([`ApiError::maybe_accepted`]); this module is where it is read.
//!
//! A write that may have reached is never sent again on its own. Each
//! operation declares how it is settled ([`Settle`]): by a read that proves
//! it ([`Check`], on one schedule), as safe to repeat, or not at all (the
//! contract has no read of it), and the verdict says which.

use std::time::Duration;

use crate::api::ApiError;

/// What a write's reply came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The service answered with success and the answer was read.
    Done,
    /// Nothing happened: the service refused it with its code (a 4xx), or
    /// it never left (validation, read-only, a refused connection, a
    /// closed rate-limit gate).
    Refused,
    /// It may have been carried out although no success was read.
    MayHaveReached,
}

/// Classifies a write's reply: the one place that decides.
pub(crate) fn outcome<T>(reply: &Result<T, ApiError>) -> Outcome {
    match reply {
        Ok(_) => Outcome::Done,
        Err(e) => of_error(e),
    }
}

/// Classifies a write's failure.
pub(crate) fn of_error(e: &ApiError) -> Outcome {
    if e.maybe_accepted() {
        Outcome::MayHaveReached
    } else {
        Outcome::Refused
    }
}

/// How an operation's *may have reached* is settled: declared with the
/// operation, in the table of operations (`api::ops`).
pub use crate::api::ops::Settle;

impl Settle {
    /// What to do after a write that may have reached, said the same way
    /// by the dashboard and the CLI.
    pub fn advice(self) -> &'static str {
        match self {
            Settle::Check => {
                "it may have been carried out, so it was not repeated: check whether it was before trying again"
            }
            Settle::SafeToRepeat => {
                "it may have been carried out; trying again is safe (doing it twice changes nothing)"
            }
            Settle::NoCheck => {
                "it may have been carried out and the service offers no read to check it: look in the web dashboard before trying again"
            }
        }
    }
}

/// When the good reads of a check happen, counted from the loss: at once,
/// then 2, 4, 8 and 16 s after (a slow service may still be working).
pub(crate) const SCHEDULE_SECS: [u64; 5] = [0, 2, 4, 8, 16];

/// Good reads that do not find the write before "not found".
pub(crate) const GOOD_READS: u32 = 5;

/// Failed reads before "could not check". A failed read is never evidence.
pub(crate) const MAX_FAILED_READS: u32 = 10;

/// What one read of the proof found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The write is there (`how`: "found in the thread").
    Found(String),
    /// A good read that does not show it.
    Absent,
    /// The read failed (its code and message); it counts for nothing.
    Failed(String),
}

/// Where a check ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The write landed (`how` it is known).
    Found(String),
    /// [`GOOD_READS`] good reads did not show it.
    NotFound,
    /// [`MAX_FAILED_READS`] reads failed (the last error).
    CouldNotCheck(String),
    /// No read can tell (why).
    NoCheck(String),
}

/// The check of one write whose answer may have reached: counts good and
/// failed reads, says when the next is due and what it all shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Good reads that did not show it.
    pub absent: u32,
    /// Reads that failed.
    pub failed: u32,
    /// The last failed read's error.
    pub last_error: Option<String>,
    /// A read is on its way.
    pub reading: bool,
    /// The verdict, once settled.
    pub verdict: Option<Verdict>,
    /// The dashboard's number of the request that sent the write (its
    /// journal entry is named by it), while its verdict is to be
    /// journaled; `None` for a check no entry waits on.
    pub entry: Option<u64>,
    /// The verdict last appended to the journal, so a verdict is appended
    /// once, and again only when it changes.
    pub journaled: Option<Verdict>,
}

impl Check {
    /// A check kept in the state file (`pending_writes`), as it was: its
    /// reads and its verdict. An unknown verdict is not taken for one: the
    /// check goes on.
    pub fn from_kept(w: &crate::store::PendingWrite) -> Check {
        let verdict = match w.verdict.as_deref() {
            Some("not_found") => Some(Verdict::NotFound),
            Some("could_not_check") => Some(Verdict::CouldNotCheck(w.verdict_detail.clone())),
            Some("no_check") => Some(Verdict::NoCheck(w.verdict_detail.clone())),
            _ => None,
        };
        Check {
            absent: w.absent,
            failed: w.failed,
            last_error: w.last_error.clone(),
            reading: false,
            verdict,
            entry: None,
            journaled: None,
        }
    }

    /// The verdict as the state file keeps it (`verdict`, `verdict_detail`;
    /// `(None, "")` while the check goes on); `None` for one found, which
    /// is never kept (nothing is left to check).
    pub fn kept_verdict(&self) -> Option<(Option<String>, String)> {
        Some(match &self.verdict {
            None => (None, String::new()),
            Some(Verdict::Found(_)) => return None,
            Some(Verdict::NotFound) => (Some("not_found".into()), String::new()),
            Some(Verdict::CouldNotCheck(e)) => (Some("could_not_check".into()), e.clone()),
            Some(Verdict::NoCheck(why)) => (Some("no_check".into()), why.clone()),
        })
    }

    /// A check whose first read is sent now.
    pub fn start() -> Check {
        Check {
            absent: 0,
            failed: 0,
            last_error: None,
            reading: true,
            verdict: None,
            entry: None,
            journaled: None,
        }
    }

    /// A write no read can settle (`why`: "the contract has no read of a
    /// pass"): settled at once.
    pub fn unchecked(why: &str) -> Check {
        Check {
            reading: false,
            verdict: Some(Verdict::NoCheck(why.to_owned())),
            ..Check::start()
        }
    }

    /// Whether the verdict is in.
    pub fn settled(&self) -> bool {
        self.verdict.is_some()
    }

    /// The wait before the next read, while one is due (none while a read
    /// is on its way, or once settled). Good reads follow
    /// [`SCHEDULE_SECS`]; a failed read is tried again after the gap the
    /// next good read would have had (8 s at most).
    pub fn next_in(&self) -> Option<Duration> {
        if self.reading || self.settled() {
            return None;
        }
        // After read n (1-based), the gap to scheduled read n + 1; past the
        // schedule's end, its last gap.
        let last = SCHEDULE_SECS.len() - 1;
        let n = usize::try_from(self.absent.saturating_add(self.failed))
            .unwrap_or(usize::MAX)
            .clamp(1, last);
        Some(Duration::from_secs(SCHEDULE_SECS[n] - SCHEDULE_SECS[n - 1]))
    }

    /// The same check, its verdict to be journaled under request `entry`
    /// (the dashboard's write whose answer was lost).
    pub fn for_entry(self, entry: Option<u64>) -> Check {
        Check { entry, ..self }
    }

    /// The verdict to append to the journal now, once: settled, for an
    /// entry, and not the one appended last.
    pub fn verdict_to_journal(&mut self) -> Option<(u64, Verdict)> {
        let entry = self.entry?;
        let verdict = self.verdict.clone()?;
        if self.journaled.as_ref() == Some(&verdict) {
            return None;
        }
        self.journaled = Some(verdict.clone());
        Some((entry, verdict))
    }

    /// A read was sent.
    pub fn reading(&mut self) {
        self.reading = true;
    }

    /// A read came back: the verdict, when this read settles it.
    pub fn saw(&mut self, seen: Seen) -> Option<&Verdict> {
        self.reading = false;
        if self.settled() {
            return self.verdict.as_ref();
        }
        match seen {
            Seen::Found(how) => self.verdict = Some(Verdict::Found(how)),
            Seen::Absent => {
                self.absent += 1;
                if self.absent >= GOOD_READS {
                    self.verdict = Some(Verdict::NotFound);
                }
            }
            Seen::Failed(e) => {
                self.failed += 1;
                if self.failed >= MAX_FAILED_READS {
                    self.verdict = Some(Verdict::CouldNotCheck(e.clone()));
                }
                self.last_error = Some(e);
            }
        }
        self.verdict.as_ref()
    }

    /// What is known, said of where it is looked for (`in`: "in the
    /// thread", "in the domain list"): "found in the thread", "not found
    /// in the thread after 5 good reads", "could not check: 10 reads
    /// failed (…)", or while it goes on, "checking…" with the reads so far.
    pub fn text(&self, place: &str) -> String {
        match &self.verdict {
            Some(Verdict::Found(how)) => how.clone(),
            Some(Verdict::NotFound) => {
                format!("not found {place} after {} good reads", self.absent)
            }
            Some(Verdict::CouldNotCheck(e)) => {
                format!("could not check: {} reads failed (last: {e})", self.failed)
            }
            Some(Verdict::NoCheck(why)) => format!("cannot be checked: {why}"),
            None => {
                let mut said = format!("checking {place}…");
                if self.absent > 0 {
                    said.push_str(&format!(
                        " not there after {} of {GOOD_READS} good reads",
                        self.absent
                    ));
                }
                if let Some(e) = &self.last_error {
                    said.push_str(&format!(
                        " ({} failed, last: {e}; a failed read proves nothing)",
                        plural_reads(self.failed)
                    ));
                }
                said
            }
        }
    }

    /// The line a question to send again shows: what the check saw and
    /// why sending again could do it twice.
    pub fn again_warning(&self, place: &str) -> String {
        let seen = self.text(place);
        match &self.verdict {
            Some(Verdict::Found(_)) => format!("It went: {seen}."),
            Some(Verdict::NotFound) => format!(
                "The last attempt may have reached the service: {seen}, so it most likely did not — but if the service is only very slow, sending again could do it twice."
            ),
            _ => format!(
                "The last attempt may have reached the service and Outpost cannot tell ({seen}): sending again could do it twice. Look in the web dashboard first if in doubt."
            ),
        }
    }
}

fn plural_reads(n: u32) -> String {
    if n == 1 {
        "1 read".to_owned()
    } else {
        format!("{n} reads")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::error::ServiceError;

    fn service(status: u16, may_have_reached: bool) -> ApiError {
        let mut e = ServiceError::from_body(status, b"{}", None);
        e.may_have_reached = may_have_reached;
        ApiError::Service(Box::new(e))
    }

    #[test]
    fn a_write_answered_5xx_may_have_reached_and_a_4xx_was_refused() {
        assert_eq!(of_error(&service(502, true)), Outcome::MayHaveReached);
        assert_eq!(of_error(&service(500, true)), Outcome::MayHaveReached);
        assert_eq!(of_error(&service(409, false)), Outcome::Refused);
        let timeout = ApiError::Timeout {
            method: "POST".into(),
            after: Duration::from_secs(1),
            may_have_reached: true,
        };
        assert_eq!(of_error(&timeout), Outcome::MayHaveReached);
        let refused = ApiError::Connect {
            host: "h".into(),
            detail: "refused".into(),
        };
        assert_eq!(of_error(&refused), Outcome::Refused, "nothing left");
        assert_eq!(outcome::<()>(&Ok(())), Outcome::Done);
    }

    /// Reads happen at 0, 2, 4, 8 and 16 s while each one works.
    #[test]
    fn good_reads_follow_the_schedule_then_say_not_found() {
        let mut c = Check::start();
        let mut at = 0;
        let mut times = vec![at];
        while c.saw(Seen::Absent).is_none() {
            let wait = c.next_in().expect("another read is due");
            at += wait.as_secs();
            times.push(at);
            c.reading();
        }
        assert_eq!(times, SCHEDULE_SECS);
        assert_eq!(c.verdict, Some(Verdict::NotFound));
        assert_eq!(
            c.text("in the thread"),
            "not found in the thread after 5 good reads"
        );
        assert_eq!(c.next_in(), None, "settled: no more reads");
    }

    #[test]
    fn failed_reads_are_never_evidence() {
        let mut c = Check::start();
        for n in 1..MAX_FAILED_READS {
            assert_eq!(c.saw(Seen::Failed("internal_error".into())), None);
            assert!(c.next_in().is_some(), "read {n} failed: tried again");
            c.reading();
        }
        assert_eq!(
            c.saw(Seen::Failed("internal_error: boom".into())),
            Some(&Verdict::CouldNotCheck("internal_error: boom".into()))
        );
        assert_eq!(c.absent, 0, "no failed read counted as a check");
        assert_eq!(
            c.text("in the thread"),
            "could not check: 10 reads failed (last: internal_error: boom)"
        );
        assert!(!c.again_warning("in the thread").contains("most likely"));
    }

    #[test]
    fn a_read_that_finds_it_settles_it_whatever_came_before() {
        let mut c = Check::start();
        c.saw(Seen::Failed("timeout".into()));
        c.reading();
        c.saw(Seen::Absent);
        c.reading();
        let v = c.saw(Seen::Found("found in the thread".into())).cloned();
        assert_eq!(v, Some(Verdict::Found("found in the thread".into())));
        assert_eq!(c.text("in the thread"), "found in the thread");
    }

    #[test]
    fn mixed_reads_say_what_was_seen_so_far() {
        let mut c = Check::start();
        c.saw(Seen::Absent);
        c.reading();
        c.saw(Seen::Failed("internal_error".into()));
        assert_eq!(
            c.text("in the domain list"),
            "checking in the domain list… not there after 1 of 5 good reads (1 read failed, last: internal_error; a failed read proves nothing)"
        );
    }

    #[test]
    fn an_unchecked_write_says_why() {
        let c = Check::unchecked("the contract has no read of a pass");
        assert!(c.settled());
        assert_eq!(c.next_in(), None);
        assert_eq!(
            c.text("anywhere"),
            "cannot be checked: the contract has no read of a pass"
        );
    }
}
