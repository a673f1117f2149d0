//! Snapshots of the launch preflight at 80x24 and 200x50: its progress
//! while the roster is read, and its findings in groups (errors first),
//! long lines cut with `…`, the list scrolled to keep the selection on
//! screen.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::*;
use outpost::testkit::app::{ApiReply, ApiRequest, Cmd, Model, Msg, fixtures, update};

use crate::support::{screen_text, terminal};

const PENDING: u64 = 450;

/// A draft with something of every kind wrong: empty steps, mistyped
/// variables, a custom field no lead has, one most leads lack, a sender
/// not ready, a daily limit too slow.
fn troubled() -> Campaign {
    let mut c = fixtures::campaign_detail(
        "c-9",
        "Q4 RevOps — email (the long name of a campaign that goes on)",
        Channel::Email,
        CampaignStatus::Draft,
        PENDING,
    );
    let steps = [
        (
            "Quick question about %compnay%",
            "Hi %frist_name%, how is %custom_fields.plan% treating %company%? %custom_fields.tier% aside, %custom_fields.% too",
        ),
        ("Following up", ""),
        ("", ""),
        ("Last one", "Bye %fist_name% from %positon%"),
    ];
    let mut nodes: Vec<SequenceNode> = steps
        .iter()
        .enumerate()
        .map(|(i, (s, b))| SequenceNode {
            id: format!("c-9-n{i}"),
            campaign_id: "c-9".into(),
            position: i as u64,
            kind: NodeType::Email,
            subject: (*s).into(),
            body: (*b).into(),
        })
        .collect();
    nodes.push(SequenceNode {
        id: "c-9-end".into(),
        campaign_id: "c-9".into(),
        position: 9,
        kind: NodeType::End,
        ..SequenceNode::default()
    });
    c.sequence_nodes = Some(nodes);
    c.daily_limit = Some(5);
    c
}

/// Answers as a service holding [`troubled`] with [`PENDING`] pending
/// leads; `pages`: how many roster pages to answer (the rest are left).
fn answer(m: &mut Model, mut cmds: Vec<Cmd>, mut pages: usize) {
    while !cmds.is_empty() {
        let mut next = Vec::new();
        for cmd in cmds {
            let Cmd::Api { id, req } = cmd else {
                continue;
            };
            let reply = match req {
                ApiRequest::ListCampaigns => ApiReply::Campaigns(Ok(Some(vec![troubled()]))),
                ApiRequest::GetCampaign { .. } => ApiReply::Campaign(Box::new(Ok(troubled()))),
                ApiRequest::ListLeads { query, .. }
                    if query.status.as_deref() == Some("pending") && pages > 0 =>
                {
                    pages -= 1;
                    let limit = query.limit.unwrap_or(200);
                    let first = (query.page.unwrap_or(1) - 1) * limit;
                    let last = (first + limit).min(PENDING);
                    ApiReply::Roster(Ok(RosterPage {
                        prospects: (first..last)
                            .map(|i| {
                                fixtures::campaign_lead(
                                    "c-9",
                                    usize::try_from(i).unwrap_or(0),
                                    LeadStatus::Pending,
                                )
                            })
                            .collect(),
                        total: PENDING,
                        page: query.page.unwrap_or(1),
                        limit,
                    }))
                }
                _ => continue,
            };
            next.extend(update(
                m,
                Msg::Api {
                    id,
                    latency: Duration::from_millis(42),
                    reply: Box::new(reply),
                },
            ));
        }
        cmds = next;
    }
}

fn key(m: &mut Model, code: KeyCode, pages: usize) {
    let cmds = update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    answer(m, cmds, pages);
}

/// The campaign list, then `L` on the campaign, its roster answered for
/// `pages` pages.
fn preflight(w: u16, h: u16, pages: usize) -> Model {
    let mut m = fixtures::model(w, h);
    key(&mut m, KeyCode::Char('2'), 0);
    key(&mut m, KeyCode::Char('L'), pages);
    m
}

#[test]
fn the_preflight_reads_the_roster_with_progress() {
    for (w, h) in [(80, 24), (200, 50)] {
        let m = preflight(w, h, 1);
        let text = screen_text(&terminal(&m, w, h));
        assert!(text.contains("checked 200 of 450 leads"), "{text}");
        assert!(text.contains("Esc stop"), "{text}");
        assert_snapshot!(format!("preflight_progress_{w}x{h}"), text);
    }
}

#[test]
fn the_preflight_lists_its_findings_grouped_errors_first() {
    for (w, h) in [(80, 24), (200, 50)] {
        let m = preflight(w, h, 3);
        let text = screen_text(&terminal(&m, w, h));
        assert!(text.contains("errors block the launch"), "{text}");
        let errors = text.find("Steps without a body").expect("errors");
        let warnings = text.find("Empty variables").unwrap_or(usize::MAX);
        assert!(errors < warnings, "errors come first: {text}");
        assert!(!text.contains("y go on"), "no launch is offered: {text}");
        assert_snapshot!(format!("preflight_findings_{w}x{h}"), text);
    }
}

#[test]
fn the_preflight_list_scrolls_to_its_last_finding_at_80x24() {
    let mut m = preflight(80, 24, 3);
    key(&mut m, KeyCode::Char('G'), 0);
    let text = screen_text(&terminal(&m, 80, 24));
    assert!(
        text.contains("At 5 a day"),
        "the last finding shows: {text}"
    );
    assert!(!text.contains("Steps without a body"), "scrolled: {text}");
    assert!(text.contains('…'), "long lines are cut: {text}");
    assert_snapshot!("preflight_findings_scrolled_80x24", text);
}
