//! What a read shows of a write whose answer was lost: the proofs the
//! operations table's `Settle::Check` promises, as pure rules on what was
//! read before the write and what is read now. The CLI's one write path
//! reads them on the schedule of [`super::write::Check`]; the dashboard's
//! Campaigns and Leads panes settle with the same rules. (The Inbox still
//! holds its own send rule, which also reads an HTML body as text.)

use crate::api::model::{CampaignStatus, LatestRun, RunStatus, Search, ThreadMessage};

/// What a search showed of its runs: its last run's id and status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RunSeen {
    /// The last run's id (`latestRun.runId`, else the search's `lastRunId`).
    pub run_id: Option<String>,
    /// The last run's status, when known.
    pub status: Option<RunStatus>,
}

impl RunSeen {
    /// What a search and its latest run show.
    pub(crate) fn of(run: Option<&LatestRun>, search: &Search) -> RunSeen {
        RunSeen {
            run_id: run
                .map(|r| r.run_id.clone())
                .filter(|r| !r.is_empty())
                .or_else(|| search.last_run_id.clone())
                .filter(|r| !r.is_empty()),
            status: run.map(|r| r.status.clone()),
        }
    }

    /// Whether `now` shows a run that `self` (before the request) did not:
    /// a new run id, or the same run live again (a continuation).
    pub(crate) fn started_in(&self, now: &RunSeen) -> bool {
        let new_id = now.run_id.is_some() && now.run_id != self.run_id;
        let was_live = self.status.as_ref().is_some_and(RunStatus::is_live);
        let live_again = !was_live && now.status.as_ref().is_some_and(RunStatus::is_live);
        new_id || live_again
    }
}

/// A change of a campaign's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    /// `launch`: out of `draft`.
    Launch,
    /// `pause`: to `paused`.
    Pause,
    /// `resume`: out of `paused`, going again.
    Resume,
}

impl Move {
    /// The verb, for messages: "launch".
    pub(crate) fn verb(self) -> &'static str {
        match self {
            Move::Launch => "launch",
            Move::Pause => "pause",
            Move::Resume => "resume",
        }
    }

    /// Whether a campaign now in `status` shows the move was made (it was
    /// sent from the status the move starts from: launch from a draft,
    /// pause from active, resume from paused).
    pub(crate) fn shown_by(self, status: &CampaignStatus) -> bool {
        match self {
            Move::Launch => matches!(
                status,
                CampaignStatus::Launching | CampaignStatus::Active | CampaignStatus::Completed
            ),
            Move::Pause => *status == CampaignStatus::Paused,
            Move::Resume => matches!(
                status,
                CampaignStatus::Launching | CampaignStatus::Active | CampaignStatus::Completed
            ),
        }
    }
}

/// A message as it was sent: what a read of the thread looks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SentMessage {
    /// Messages the thread had before the send, when known.
    pub baseline: Option<u64>,
    /// The subject sent.
    pub subject: String,
    /// The text body sent.
    pub body: String,
}

impl SentMessage {
    /// Whether a page of the thread's messages (`first`: the index of its
    /// first message in the thread; `total`: the thread's count) shows the
    /// send: an outbound message past the count before it with the subject
    /// and body sent, or — the count known — an outbound message past it.
    /// An inbound reply that grew the thread is not taken for it.
    pub(crate) fn found_in(&self, first: u64, total: u64, page: &[ThreadMessage]) -> bool {
        let fresh = |i: usize| {
            let at = first.saturating_add(u64::try_from(i).unwrap_or(u64::MAX));
            self.baseline.is_none_or(|b| at >= b)
        };
        let outbound = |m: &ThreadMessage| m.direction.eq_ignore_ascii_case("outbound");
        let mut rows = page.iter().enumerate().filter(|(i, _)| fresh(*i));
        let grew = self.baseline.is_some_and(|b| total > b);
        rows.any(|(_, m)| {
            outbound(m)
                && (grew
                    || (m.subject.trim() == self.subject.trim()
                        && m.body_text.trim() == self.body.trim()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(direction: &str, subject: &str, body: &str) -> ThreadMessage {
        ThreadMessage {
            direction: direction.into(),
            subject: subject.into(),
            body_text: body.into(),
            ..ThreadMessage::default()
        }
    }

    #[test]
    fn a_run_is_shown_by_a_new_id_or_a_stopped_run_live_again() {
        let before = RunSeen {
            run_id: Some("r1".into()),
            status: Some(RunStatus::Completed),
        };
        let same = before.clone();
        assert!(!before.started_in(&same));
        let new = RunSeen {
            run_id: Some("r2".into()),
            status: Some(RunStatus::Queued),
        };
        assert!(before.started_in(&new));
        let failed = RunSeen {
            run_id: Some("r1".into()),
            status: Some(RunStatus::Failed),
        };
        let again = RunSeen {
            run_id: Some("r1".into()),
            status: Some(RunStatus::Running),
        };
        assert!(failed.started_in(&again), "a continuation");
        let live = RunSeen {
            status: Some(RunStatus::Running),
            ..failed
        };
        assert!(!live.started_in(&again), "it was running already");
        assert!(RunSeen::default().started_in(&new), "a first run");
    }

    #[test]
    fn each_move_is_shown_by_where_it_leads() {
        assert!(Move::Launch.shown_by(&CampaignStatus::Launching));
        assert!(Move::Launch.shown_by(&CampaignStatus::Active));
        assert!(!Move::Launch.shown_by(&CampaignStatus::Draft));
        assert!(Move::Pause.shown_by(&CampaignStatus::Paused));
        assert!(!Move::Pause.shown_by(&CampaignStatus::Active));
        assert!(Move::Resume.shown_by(&CampaignStatus::Active));
        assert!(!Move::Resume.shown_by(&CampaignStatus::Paused));
    }

    #[test]
    fn a_send_is_found_past_the_count_and_never_in_an_inbound_reply() {
        let sent = SentMessage {
            baseline: Some(2),
            subject: "Re: pricing".into(),
            body: "Here it is.".into(),
        };
        let old = msg("outbound", "Re: pricing", "Here it is.");
        // The same words before the count are an older message.
        assert!(!sent.found_in(0, 2, &[old.clone(), msg("inbound", "x", "y")]));
        // An inbound reply grew the thread: not the send.
        let reply = msg("inbound", "Re: pricing", "thanks");
        assert!(!sent.found_in(0, 3, &[old.clone(), old.clone(), reply]));
        // An outbound message past the count is it.
        let new = msg("outbound", "Re: pricing", "Here it is. ");
        assert!(sent.found_in(0, 3, &[old.clone(), old.clone(), new.clone()]));
        // A later page, the count known: its outbound message is past it.
        assert!(sent.found_in(2, 3, &[new]));
        // Count unknown: only the subject and body tell.
        let unknown = SentMessage {
            baseline: None,
            ..sent
        };
        assert!(unknown.found_in(0, 9, &[old]));
        assert!(!unknown.found_in(0, 9, &[msg("outbound", "other", "Here it is.")]));
    }
}
