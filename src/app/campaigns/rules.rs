//! The contract's campaign state table as the pane applies it: which
//! operations a campaign's status allows, and the reason shown (in the
//! hints, and as a notice when the key is pressed) when it does not. The
//! service stays the judge — a refusal it sends is shown as it says it —
//! but a key that cannot work is never sent.

use crate::api::model::CampaignStatus;

/// An operation whose availability depends on the campaign's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `POST /api/campaigns/{id}/launch`.
    Launch,
    /// `POST /api/campaigns/{id}/pause`.
    Pause,
    /// `POST /api/campaigns/{id}/resume`.
    Resume,
    /// Adding (import), editing or deleting leads.
    ChangeRoster,
    /// Replacing the sequence.
    EditSequence,
}

impl Op {
    /// What the operation is called in messages.
    pub fn name(self) -> &'static str {
        match self {
            Op::Launch => "launch",
            Op::Pause => "pause",
            Op::Resume => "resume",
            Op::ChangeRoster => "change the roster",
            Op::EditSequence => "edit the sequence",
        }
    }
}

/// Whether `op` applies to a campaign in `status`; the error is the reason,
/// ready to show.
pub(crate) fn check(status: &CampaignStatus, op: Op) -> Result<(), String> {
    if let CampaignStatus::Other(s) = status {
        return Err(format!(
            "the campaign's status `{s}` is unknown to Outpost; use the web dashboard"
        ));
    }
    let is = status.as_str();
    match op {
        Op::Launch if *status != CampaignStatus::Draft => Err(format!(
            "only a draft can be launched (this campaign is {is})"
        )),
        Op::Pause if *status != CampaignStatus::Active => Err(format!(
            "only active campaigns can be paused (this campaign is {is})"
        )),
        Op::Resume if *status != CampaignStatus::Paused => Err(format!(
            "only paused campaigns can be resumed (this campaign is {is})"
        )),
        Op::ChangeRoster if *status != CampaignStatus::Draft => Err(format!(
            "the roster is frozen: leads can be added, edited or deleted only while the campaign is a draft (it is {is})"
        )),
        Op::EditSequence if *status != CampaignStatus::Draft => Err(format!(
            "the sequence can be edited only while the campaign is a draft (it is {is})"
        )),
        _ => Ok(()),
    }
}

/// The status-bar label of `op`'s key: the plain name, or the name with
/// the short reason when the status does not allow it.
pub(crate) fn label(status: &CampaignStatus, op: Op, plain: &'static str) -> &'static str {
    if check(status, op).is_ok() {
        return plain;
    }
    match op {
        Op::Launch => "launch ✗ draft only",
        Op::Pause => "pause ✗ active only",
        Op::Resume => "resume ✗ paused only",
        Op::ChangeRoster => match plain {
            "import" => "import ✗ roster frozen",
            "edit" => "edit ✗ roster frozen",
            _ => "delete ✗ roster frozen",
        },
        Op::EditSequence => "sequence ✗ draft only",
    }
}

/// Whether the campaign is sending (its stats move: watch it).
pub(crate) fn is_live(status: &CampaignStatus) -> bool {
    matches!(status, CampaignStatus::Launching | CampaignStatus::Active)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract's state table: which operation each status allows.
    #[test]
    fn every_status_allows_what_the_contract_says() {
        use CampaignStatus::*;
        let table = [
            // status, launch, pause, resume, roster, sequence
            (Draft, true, false, false, true, true),
            (Launching, false, false, false, false, false),
            (Active, false, true, false, false, false),
            (Paused, false, false, true, false, false),
            (Completed, false, false, false, false, false),
        ];
        for (status, launch, pause, resume, roster, sequence) in table {
            let ok = |op| check(&status, op).is_ok();
            assert_eq!(
                (
                    ok(Op::Launch),
                    ok(Op::Pause),
                    ok(Op::Resume),
                    ok(Op::ChangeRoster),
                    ok(Op::EditSequence)
                ),
                (launch, pause, resume, roster, sequence),
                "{status}"
            );
        }
        let unknown = CampaignStatus::Other("archived".into());
        assert!(check(&unknown, Op::Pause).is_err_and(|e| e.contains("`archived`")));
        assert_eq!(
            label(&CampaignStatus::Active, Op::ChangeRoster, "import"),
            "import ✗ roster frozen"
        );
        assert_eq!(label(&CampaignStatus::Active, Op::Pause, "pause"), "pause");
        assert!(is_live(&Launching) && is_live(&Active) && !is_live(&Paused));
    }
}
