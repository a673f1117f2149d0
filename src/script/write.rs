//! A write sent and journaled: the table of operations'
//! [`crate::api::ops::execute_recorded`], the one place that records a
//! write in the profile's write journal (as the dashboard's are), typed
//! for the command, with the id of the entry it made. The one write path
//! ([`super::call::send`]) and the writes that settle themselves (an
//! import's chunk, a verify trigger, a redeem) send with [`Ctx::write`];
//! the verdict on a write that may have reached is appended with
//! [`Ctx::verdict`], naming that entry.

use crate::api::{Answer, ApiError, ApiRequest};
use crate::logic::write::Verdict;

use super::Ctx;

/// A write's typed answer and the journal entry it made.
#[derive(Debug)]
pub(crate) struct Written<T> {
    /// The answer.
    pub answer: Result<T, ApiError>,
    /// The id of its journal entry (none without a journal, or with
    /// `--demo`).
    pub entry: Option<String>,
}

impl Ctx {
    /// Sends one write (sent once; never repeated by itself) and records it
    /// in the journal.
    pub(crate) async fn write<T: Answer>(&self, req: ApiRequest) -> Written<T> {
        let name = req.name();
        let (reply, entry) = crate::api::ops::execute_recorded(&self.client, req, None).await;
        // A reply of another type is a programming error, caught (and
        // asserted in debug builds) where replies are typed.
        let answer = reply.typed().unwrap_or_else(|| {
            Err(ApiError::Config(format!(
                "{name}: an answer of another type came back"
            )))
        });
        Written { answer, entry }
    }

    /// Appends the verdict on the write that made journal entry `entry`.
    pub(crate) fn verdict(&self, entry: Option<&str>, verdict: &Verdict) {
        if let (Some(j), Some(entry)) = (self.client.journal(), entry) {
            j.verdict(entry, verdict);
        }
    }
}
