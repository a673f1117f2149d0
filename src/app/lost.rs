//! A create whose answer was lost after sending (a timeout, a lost
//! connection, a success answer that could not be read) may have made the
//! resource. The pane reads its list again to find it; not found, it reads
//! a few times more, further apart — a write that outlasted the client's
//! timeout may still land — before saying it was most likely not created.
//! Until then, and until the user says otherwise, sending again asks first.
//! This is that shared state and its wording; each pane keeps what it sent
//! and how it recognises the new item.

use std::time::Duration;

/// Reads of the list after a lost create before "most likely not
/// created" (the first at once, the later ones 2, 4 and 8 s apart).
pub const CHECKS: u32 = 4;

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
    /// What reading the list again found.
    pub check: Check,
    /// Reads of the list that did not show it.
    pub misses: u32,
}

impl Uncertain {
    /// A lost create, checked when the service lists what was created
    /// (`listed`), else left for the user to look in the web dashboard.
    pub fn new(why: String, listed: bool) -> Uncertain {
        Uncertain {
            why,
            check: if listed {
                Check::Checking
            } else {
                Check::Unlisted
            },
            misses: 0,
        }
    }

    /// When to read the list again, if it is not settled yet.
    pub fn recheck(&self) -> Option<Duration> {
        (self.check == Check::NotFound && self.misses < CHECKS)
            .then(|| Duration::from_secs(1 << self.misses))
    }

    /// A read of the list came back without the item (`check`).
    pub fn read(&mut self, check: Check) {
        self.misses += u32::from(check == Check::NotFound);
        self.check = check;
    }

    /// What is known, said of the list `what` ("campaigns", "searches").
    pub fn text(&self, what: &str) -> String {
        self.check.text(what, self.recheck().is_none())
    }
}

/// Whether the list shows the item a lost create may have made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The list is being read.
    Checking,
    /// It does not show it (yet).
    NotFound,
    /// The service does not list them: Outpost cannot tell.
    Unlisted,
    /// Reading it failed.
    Failed(String),
}

impl Check {
    /// The check, said for a form's note and the question (`settled`: no
    /// more reads will follow).
    pub fn text(&self, what: &str, settled: bool) -> String {
        match self {
            Check::Checking => format!("checking the {what} list…"),
            Check::NotFound if !settled => {
                format!("the {what} list does not show it yet; looking again shortly")
            }
            Check::NotFound => {
                format!("the {what} list does not show it, so it was most likely not created")
            }
            Check::Unlisted => format!(
                "this service does not list {what}, so Outpost cannot tell; the web dashboard shows whether it exists"
            ),
            Check::Failed(e) => format!("checking the {what} list failed ({e})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_is_read_again_further_apart_then_settled() {
        let mut u = Uncertain::new("timeout".into(), true);
        assert_eq!(u.recheck(), None, "the first read is on its way");
        let mut waits = Vec::new();
        for _ in 0..CHECKS {
            u.read(Check::NotFound);
            waits.extend(u.recheck());
        }
        assert_eq!(waits, [2, 4, 8].map(Duration::from_secs));
        assert!(u.text("campaigns").contains("most likely not created"));
        let unlisted = Uncertain::new("timeout".into(), false);
        assert!(unlisted.text("searches").contains("cannot tell"));
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
