//! Launch, pause and resume whose answer may have reached the service are
//! settled by reading the campaign's status on the one check schedule; a
//! refusal did nothing; a partial reply is marked until read whole; the
//! detail says "live" only while its watch really runs and succeeds.

use crossterm::event::KeyCode;

use super::tests::{
    answer, campaign_reply, confirm_title, on_pane, opened, requests, status_campaign, toasts,
};
use super::*;
use crate::api::ServiceError;
use crate::api::model::*;
use crate::app::fixtures::drive;
use crate::app::fixtures::drive::and_queued;
use crate::app::{ApiReply, ApiRequest, Cmd, Model, Msg, PaneSub, SubId, update};
use crate::logic::write;

/// A write's answer lost behind a gateway (the handler ran).
fn lost(status: u16) -> crate::api::ApiError {
    let mut e = ServiceError::from_body(
        status,
        br#"{"error":{"code":"bad_gateway","message":"upstream answer lost"}}"#,
        None,
    );
    e.may_have_reached = true;
    crate::api::ApiError::Service(Box::new(e))
}

fn failed_read() -> ApiReply {
    ApiReply::Campaign(Box::new(Err(drive::service_error(
        500,
        r#"{"error":{"code":"internal_error","message":"boom"}}"#,
    ))))
}

/// The status check's subscription of campaign `id`, if one runs.
fn check_sub(m: &Model, id: &str) -> Option<(u32, std::time::Duration)> {
    crate::app::subscriptions(m)
        .into_iter()
        .find_map(|s| match s.id {
            SubId::Pane(PaneSub::Campaigns(CampaignsSub::StatusCheck(c, reads))) if c == id => {
                Some((reads, s.every))
            }
            _ => None,
        })
}

/// Fires the status check's timer of `id`.
fn fire(m: &mut Model, id: &str) -> Vec<Cmd> {
    let (reads, _) = check_sub(m, id).expect("a check read is due");
    update(
        m,
        Msg::SubFired(SubId::Pane(PaneSub::Campaigns(CampaignsSub::StatusCheck(
            id.into(),
            reads,
        )))),
    )
}

/// A paused campaign whose resume's answer was lost; the first read of
/// its status is returned unanswered.
fn resume_lost() -> (Model, Campaign, Vec<Cmd>) {
    let c = status_campaign(CampaignStatus::Paused);
    let mut m = opened(&c);
    drive::key(&mut m, KeyCode::Char('R'));
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    let check = answer(&mut m, cmds, |r| match r {
        ApiRequest::ResumeCampaign { .. } => Some(ApiReply::Campaign(Box::new(Err(lost(502))))),
        _ => None,
    });
    (m, c, check)
}

#[test]
fn a_lost_resume_is_checked_on_the_schedule_and_the_resume_key_asks_again() {
    let (mut m, c, check) = resume_lost();
    assert!(
        matches!(&requests(&check)[..], [ApiRequest::GetCampaign { id }] if id == "c-1"),
        "the status is read at once: {check:?}"
    );
    let said = toasts(&m);
    assert!(said.contains("Resume: answer lost"), "{said}");
    assert!(!said.contains("retries"), "r does not resume: {said}");
    // While it is checked, the resume key is refused: nothing is sent.
    m.toasts.clear();
    let cmds = drive::key(&mut m, KeyCode::Char('R'));
    assert!(cmds.is_empty() && m.overlay.is_none(), "{cmds:?}");
    assert!(toasts(&m).contains("Cannot resume now"), "{}", toasts(&m));
    // The first read still shows it paused; then one read fails (it
    // counts for nothing) and four more good reads show it paused.
    answer(&mut m, check, |_| Some(campaign_reply(&c)));
    assert_eq!(
        check_sub(&m, "c-1"),
        Some((1, std::time::Duration::from_secs(2)))
    );
    let cmds = fire(&mut m, "c-1");
    answer(&mut m, cmds, |_| Some(failed_read()));
    for _ in 0..4 {
        let cmds = fire(&mut m, "c-1");
        assert!(matches!(
            &requests(&cmds)[..],
            [ApiRequest::GetCampaign { .. }]
        ));
        answer(&mut m, cmds, |_| Some(campaign_reply(&c)));
    }
    let s = &m.panes.campaigns.changes["c-1"];
    assert_eq!((s.check.absent, s.check.failed), (5, 1));
    assert_eq!(check_sub(&m, "c-1"), None, "settled: no more reads");
    let said = toasts(&m);
    assert!(said.contains("Resume: most likely not done"), "{said}");
    assert!(
        said.contains("R asks before sending the resume again"),
        "{said}"
    );
    assert!(!said.contains("retries"), "{said}");
    // Now the key asks first, saying what the check saw.
    drive::key(&mut m, KeyCode::Char('R'));
    let q = confirm_title(&m).expect("asked first");
    assert!(
        q.contains("not found in the campaign's status after 5 good reads"),
        "{q}"
    );
    assert!(q.contains("could do it twice"), "{q}");
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert!(matches!(
        &requests(&cmds)[..],
        [ApiRequest::ResumeCampaign { .. }]
    ));
    assert!(m.panes.campaigns.changes.is_empty());
}

#[test]
fn a_lost_pause_whose_status_reads_paused_is_said_to_have_gone() {
    let c = status_campaign(CampaignStatus::Active);
    let mut m = opened(&c);
    let cmds = and_queued(on_pane(&mut m, |c, cx| detail::pause(c, cx, "c-1")), &mut m);
    let timeout = crate::api::ApiError::Timeout {
        method: "POST".into(),
        after: std::time::Duration::from_secs(30),
        may_have_reached: true,
    };
    let check = answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(timeout.clone()))))
    });
    // A failed read proves nothing; the next good one finds it paused.
    answer(&mut m, check, |_| Some(failed_read()));
    assert!(m.panes.campaigns.changes.contains_key("c-1"));
    let cmds = fire(&mut m, "c-1");
    let mut paused = c.clone();
    paused.status = CampaignStatus::Paused;
    answer(&mut m, cmds, |_| Some(campaign_reply(&paused)));
    let said = toasts(&m);
    assert!(said.contains("Pause: it went"), "{said}");
    assert!(
        said.contains("the campaign's status reads paused"),
        "{said}"
    );
    assert_eq!(
        m.panes.campaigns.open_status(),
        Some(&CampaignStatus::Paused)
    );
    assert!(m.panes.campaigns.changes.is_empty());
}

#[test]
fn ten_failed_reads_of_a_lost_launch_say_it_could_not_be_checked() {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| detail::launch(c, cx, "c-1")),
        &mut m,
    );
    let mut cmds = answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(lost(504)))))
    });
    for _ in 0..crate::logic::write::MAX_FAILED_READS {
        answer(&mut m, cmds, |_| Some(failed_read()));
        cmds = check_sub(&m, "c-1").map_or_else(Vec::new, |_| fire(&mut m, "c-1"));
    }
    let said = toasts(&m);
    assert!(said.contains("could not check: 10 reads failed"), "{said}");
    assert!(!said.contains("most likely"), "{said}");
    assert!(
        said.contains("L asks before sending the launch again"),
        "{said}"
    );
}

#[test]
fn a_refused_pause_says_nothing_was_done_and_names_the_pause_key() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    let cmds = and_queued(on_pane(&mut m, |c, cx| detail::pause(c, cx, "c-1")), &mut m);
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(drive::service_error(
            429,
            r#"{"error":{"code":"rate_limited","message":"slow down"}}"#,
        )))))
    });
    let said = toasts(&m);
    assert!(
        said.contains("nothing was done; p asks to pause again"),
        "{said}"
    );
    assert!(
        !said.contains("r retries") && !said.contains("r tries"),
        "{said}"
    );
    assert!(
        m.panes.campaigns.changes.is_empty(),
        "no check: it was refused"
    );
}

#[test]
fn a_pause_reply_without_some_counters_marks_them_and_reads_the_campaign_again() {
    let c = status_campaign(CampaignStatus::Active);
    let mut m = opened(&c);
    let cmds = and_queued(on_pane(&mut m, |c, cx| detail::pause(c, cx, "c-1")), &mut m);
    let mut paused = c.clone();
    paused.status = CampaignStatus::Paused;
    paused.stats.contacted = None;
    paused.stats.connections_accepted = None;
    paused.sequence_nodes = None;
    let rest = answer(&mut m, cmds, |_| Some(campaign_reply(&paused)));
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert_eq!(o.carried, ["accepted", "contacted", "sequence"]);
    assert!(
        matches!(&requests(&rest)[..], [ApiRequest::GetCampaign { .. }]),
        "read whole again: {rest:?}"
    );
    let mut whole = paused.clone();
    whole.stats = c.stats.clone();
    whole.sequence_nodes = c.sequence_nodes.clone();
    answer(&mut m, rest, |_| Some(campaign_reply(&whole)));
    assert!(
        m.panes
            .campaigns
            .open
            .as_ref()
            .expect("open")
            .carried
            .is_empty()
    );
}

/// What the open campaign says of its freshness, in the one wording.
fn shown(m: &Model) -> String {
    let o = m.panes.campaigns.open.as_ref().expect("open");
    crate::app::fresh::shown(m, &o.fresh)
}

#[test]
fn offline_a_state_change_is_not_offered_and_the_detail_is_not_live() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    assert_eq!(shown(&m), "live", "watched and read");
    update(
        &mut m,
        Msg::Connection(crate::api::ConnState::Offline {
            since: std::time::SystemTime::now(),
        }),
    );
    // At once, before any read fails: the last read succeeded, but
    // nothing is live while the service cannot be reached.
    assert_eq!(shown(&m), "offline · as of just now");
    // The watch's read fails to connect: it says when it reads again.
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| detail::on_watch(c, cx, "c-1")),
        &mut m,
    );
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(
            crate::api::ApiError::Connect {
                host: "h".into(),
                detail: "refused".into(),
            },
        ))))
    });
    assert_eq!(shown(&m), "retrying in 4 s");
    let cmds = drive::key(&mut m, KeyCode::Char('p'));
    assert!(cmds.is_empty() && m.overlay.is_none());
    assert!(toasts(&m).contains("Cannot pause now"), "{}", toasts(&m));
}

/// The watch reads as often as its subscription says, and the detail says
/// the same: after a failed read it is slower, "retrying in" that period,
/// counting down; off screen nothing reads it, and it says its age.
#[test]
fn what_the_detail_calls_live_is_what_the_watch_really_does() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    let base = m.poll.campaign;
    assert_eq!(
        detail::watch(&m.panes.campaigns, m.pane),
        Some(("c-1".into(), base))
    );
    assert_eq!(shown(&m), "live");
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| detail::on_watch(c, cx, "c-1")),
        &mut m,
    );
    answer(&mut m, cmds, |_| Some(failed_read()));
    assert_eq!(
        detail::watch(&m.panes.campaigns, m.pane),
        Some(("c-1".into(), base * 2))
    );
    let watch = || {
        crate::app::subscriptions(&m).into_iter().find(|s| {
            matches!(
                &s.id,
                SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch(_)))
            )
        })
    };
    assert_eq!(watch().map(|s| s.every), Some(base * 2));
    assert_eq!(shown(&m), format!("retrying in {} s", (base * 2).as_secs()));
    assert!(
        crate::app::subscriptions(&m)
            .iter()
            .any(|s| s.id == SubId::Countdown),
        "the countdown is redrawn every second"
    );
    // Another pane: the watch stops, and the values say their age.
    m.clock += 150;
    drive::key(&mut m, KeyCode::Char('1'));
    assert_eq!(detail::watch(&m.panes.campaigns, m.pane), None);
    assert!(
        shown(&m).starts_with("stale · as of 2m ago"),
        "{}",
        shown(&m)
    );
}

/// The other writes' lost answers say they may have reached, how sending
/// again is settled, and never offer the refresh key as a retry — also
/// when their form is gone by the time the answer is lost.
#[test]
fn the_other_writes_lost_answers_say_they_may_have_reached_and_never_r() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    on_pane(&mut m, |c, cx| {
        sequence::on_saved(c, cx, "c-1", Err(lost(502)))
    });
    on_pane(&mut m, |c, cx| {
        lead::on_edited(c, cx, "l-1", Err(lost(504)))
    });
    on_pane(&mut m, |c, cx| {
        messages::on_edited(c, cx, "msg-1", Err(lost(502)))
    });
    // Three notices: two on screen at most, all three in the log.
    let said = m
        .toasts
        .log()
        .map(|l| format!("{}: {}", l.title, l.text))
        .collect::<Vec<_>>()
        .join("\n");
    for (title, repeat) in [
        (
            "Sequence save may have reached",
            "Ctrl-S replaces the sequence with the same steps",
        ),
        (
            "Lead edit may have reached",
            "Ctrl-S sets the same fields to the same values",
        ),
        (
            "Message edit may have reached",
            "Ctrl-S sets the same subject and text",
        ),
    ] {
        assert!(said.contains(title), "{title}: {said}");
        assert!(
            said.contains(&format!("sending it again is safe: {repeat}")),
            "{said}"
        );
    }
    assert!(
        !said.contains("r refreshes") && !said.contains("retries"),
        "{said}"
    );
}

#[test]
fn a_delete_chunk_whose_answer_was_lost_says_so_and_reads_the_roster_again() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let ids: Vec<String> = (0..700).map(|i| format!("l{i}")).collect();
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| delete::delete(c, cx, "c-1", ids)),
        &mut m,
    );
    let cmds = answer(&mut m, cmds, |_| Some(ApiReply::LeadsDeleted(Ok(500))));
    let rest = answer(&mut m, cmds, |r| match r {
        ApiRequest::DeleteLeads { .. } => Some(ApiReply::LeadsDeleted(Err(lost(502)))),
        _ => None,
    });
    let said = toasts(&m);
    assert!(said.contains("500 deleted; then:"), "{said}");
    assert!(
        said.contains("that chunk may have reached the service"),
        "{said}"
    );
    assert!(said.contains("a deleted lead stays deleted"), "{said}");
    assert!(!said.contains("retries"), "{said}");
    assert!(
        requests(&rest)
            .iter()
            .any(|r| matches!(r, ApiRequest::GetCampaign { .. })),
        "the campaign and roster are read again: {rest:?}"
    );
}

/// `q` while a lost resume is still being checked asks first, naming it;
/// once the status read finds it went, `q` quits at once.
#[test]
fn quitting_while_a_lost_resume_is_checked_asks_first() {
    let (mut m, c, check) = resume_lost();
    drive::key(&mut m, KeyCode::Char('q'));
    assert!(!m.quit, "not quit while checking");
    let q = confirm_title(&m).unwrap_or_default();
    assert!(q.starts_with("Quit while checking?"), "{q}");
    assert!(q.contains("the resume of “EU RevOps”"), "{q}");
    drive::key(&mut m, KeyCode::Char('n'));
    let mut active = c.clone();
    active.status = CampaignStatus::Active;
    answer(&mut m, check, |_| Some(campaign_reply(&active)));
    drive::key(&mut m, KeyCode::Char('q'));
    assert!(m.quit, "settled: quits at once");
}

/// A campaign read back after a lost sequence save, its steps `sent` (or
/// the old ones).
fn with_steps(c: &Campaign, sent: Option<&[SequenceNodeInput]>) -> ApiReply {
    let mut read = c.clone();
    if let Some(sent) = sent {
        read.sequence_nodes = Some(
            sent.iter()
                .enumerate()
                .map(|(i, n)| SequenceNode {
                    id: format!("n{i}"),
                    campaign_id: c.id.clone(),
                    position: i as u64,
                    kind: n.kind.clone(),
                    subject: n.subject.clone(),
                    body: n.body.clone(),
                })
                .collect(),
        );
    }
    campaign_reply(&read)
}

/// A draft's sequence edited ("!" after the first subject) and saved, its
/// answer lost: the steps sent and the check's first read.
fn sequence_lost() -> (Campaign, Model, Vec<SequenceNodeInput>, Vec<Cmd>) {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    drive::key(&mut m, KeyCode::Char('s'));
    drive::key(&mut m, KeyCode::End);
    drive::chars(&mut m, "!");
    let cmds = drive::ctrl(&mut m, 's');
    let sent = match &requests(&cmds)[..] {
        [ApiRequest::UpdateCampaign { update, .. }] => {
            update.sequence_nodes.clone().expect("the steps are sent")
        }
        other => panic!("the save is sent: {other:?}"),
    };
    let read = answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(lost(502)))))
    });
    assert!(
        matches!(&requests(&read)[..], [ApiRequest::GetCampaign { .. }]),
        "the campaign is read back at once: {read:?}"
    );
    (c, m, sent, read)
}

/// A lost sequence save is proved by reading the campaign back: found when
/// its steps are those sent; a failed read counts for nothing.
#[test]
fn a_lost_sequence_save_is_found_when_the_campaign_read_back_has_the_steps_sent() {
    let (c, mut m, sent, read) = sequence_lost();
    answer(&mut m, read, |_| Some(failed_read()));
    assert!(!toasts(&m).contains("Sequence saved"), "{}", toasts(&m));
    let s = &m.panes.campaigns.changes["c-1"];
    assert_eq!(
        (s.check.absent, s.check.failed),
        (0, 1),
        "a failed read is no evidence"
    );
    let cmds = fire(&mut m, "c-1");
    answer(&mut m, cmds, |_| Some(with_steps(&c, Some(&sent))));
    let t = toasts(&m);
    assert!(
        t.contains("Sequence saved: “EU RevOps”: found in the campaign's sequence"),
        "{t}"
    );
    assert!(!m.panes.campaigns.changes.contains_key("c-1"));
    assert!(
        m.panes.campaigns.sequence.is_none(),
        "the editor closes, saved"
    );
}

/// Good reads showing the old steps: after five, "most likely not saved",
/// and saving again is said to be safe.
#[test]
fn a_lost_sequence_save_whose_steps_never_show_is_most_likely_not_saved() {
    let (c, mut m, _sent, mut read) = sequence_lost();
    for _ in 0..write::GOOD_READS {
        answer(&mut m, read, |_| Some(with_steps(&c, None)));
        if m.panes.campaigns.changes["c-1"].check.settled() {
            break;
        }
        read = fire(&mut m, "c-1");
    }
    let t = toasts(&m);
    assert!(t.contains("Sequence: most likely not saved"), "{t}");
    assert!(
        t.contains("not found in the campaign's sequence after 5 good reads"),
        "{t}"
    );
    assert!(!t.contains("Sequence saved:"), "{t}");
}
