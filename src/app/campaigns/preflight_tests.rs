//! The launch preflight as a user meets it in the dashboard: `L` reads the
//! campaign and its pending roster page by page through the pane's
//! requests, lists what is wrong, Enter jumps to each place, errors refuse
//! the launch, warnings need `y` before the usual question, and Esc stops
//! the walk (the launch then says how many leads were not checked) or
//! closes without launching.

use crossterm::event::KeyCode;

use super::preflight::Line as Row;
use super::tests::{confirm_title, opened, requests, status_campaign};
use super::*;
use crate::api::model::*;
use crate::app::fixtures::{self, drive};
use crate::app::{ApiReply, ApiRequest, Cmd, Model};
use crate::logic::preflight::{Kind, Location, Part};

/// A draft email campaign with one ready sender and `steps` (subject,
/// body) before the end.
fn draft(steps: &[(&str, &str)]) -> Campaign {
    let mut c = status_campaign(CampaignStatus::Draft);
    let node = |i: usize, kind: NodeType, subject: &str, body: &str| SequenceNode {
        id: format!("c-1-n{i}"),
        campaign_id: "c-1".into(),
        position: i as u64,
        kind,
        subject: subject.into(),
        body: body.into(),
    };
    let mut nodes: Vec<SequenceNode> = steps
        .iter()
        .enumerate()
        .map(|(i, (s, b))| node(i, NodeType::Email, s, b))
        .collect();
    nodes.push(node(steps.len(), NodeType::End, "", ""));
    c.sequence_nodes = Some(nodes);
    c.sender_accounts = Some(
        fixtures::senders()
            .into_iter()
            .filter(|s| s.id == "s-1")
            .collect(),
    );
    c.daily_limit = Some(500);
    c
}

/// Page `page` (from 1) of `pending` pending leads, as the service sends it.
fn pending_page(pending: u64, page: u64, limit: u64) -> RosterPage {
    let first = (page - 1) * limit;
    let last = (first + limit).min(pending);
    RosterPage {
        prospects: (first..last)
            .map(|i| {
                fixtures::campaign_lead("c-1", usize::try_from(i).unwrap_or(0), LeadStatus::Pending)
            })
            .collect(),
        total: pending,
        page,
        limit,
    }
}

/// Answers what the preflight asks (the campaign, pages of the pending
/// roster) as a service holding `c` with `pending` pending leads, until it
/// asks nothing more; returns every other command.
fn serve(m: &mut Model, c: &Campaign, pending: u64, mut cmds: Vec<Cmd>) -> Vec<Cmd> {
    let mut rest = Vec::new();
    while !cmds.is_empty() {
        let mut next = Vec::new();
        for cmd in cmds {
            let reply = match &cmd {
                Cmd::Api {
                    req: ApiRequest::GetCampaign { .. },
                    ..
                } => Some(ApiReply::Campaign(Box::new(Ok(c.clone())))),
                Cmd::Api {
                    req: ApiRequest::ListLeads { query, .. },
                    ..
                } if query.status.as_deref() == Some("pending") => {
                    let page = query.page.unwrap_or(1);
                    let limit = query.limit.unwrap_or(200);
                    Some(ApiReply::Roster(Ok(pending_page(pending, page, limit))))
                }
                _ => None,
            };
            match (reply, &cmd) {
                (Some(reply), Cmd::Api { id, .. }) => next.extend(drive::reply(m, *id, reply)),
                _ => rest.push(cmd),
            }
        }
        cmds = next;
    }
    rest
}

fn check(m: &Model) -> &preflight::Check {
    match &m.panes.campaigns.dialog {
        Some(Dialog::Preflight(c)) => c,
        other => panic!("the preflight is open: {other:?}"),
    }
}

/// The findings list as lines of text (headings by their title).
fn lines(m: &Model) -> Vec<String> {
    check(m)
        .lines
        .iter()
        .map(|l| match l {
            Row::Heading(k) => format!("# {}", k.title()),
            Row::Finding(f) => f.text.clone(),
        })
        .collect()
}

fn launches(cmds: &[Cmd]) -> usize {
    requests(cmds)
        .iter()
        .filter(|r| matches!(r, ApiRequest::LaunchCampaign { .. }))
        .count()
}

/// Moves the selection down to the first finding whose text holds `what`.
fn select(m: &mut Model, what: &str) {
    for _ in 0..20 {
        if check(m).selected().is_some_and(|f| f.text.contains(what)) {
            return;
        }
        drive::key(m, KeyCode::Down);
    }
    panic!("no finding holds {what:?}: {:?}", lines(m));
}

#[test]
fn a_sound_campaign_is_walked_page_by_page_then_asked_and_launched_once() {
    let c = draft(&[("Hi %company%", "Hello %first_name%")]);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::GetCampaign { id }] if id == "c-1"),
        "the campaign is read as the service will send it first: {cmds:?}"
    );
    // The walk asks one page at a time, 200 leads each.
    let first = drive::reply(
        &mut m,
        drive::api(&cmds)[0].0,
        ApiReply::Campaign(Box::new(Ok(c.clone()))),
    );
    let reqs = requests(&first);
    assert!(
        matches!(&reqs[..], [ApiRequest::ListLeads { query, .. }]
            if query.page == Some(1) && query.limit == Some(200) && query.status.as_deref() == Some("pending")),
        "{reqs:?}"
    );
    let second = drive::reply(
        &mut m,
        drive::api(&first)[0].0,
        ApiReply::Roster(Ok(pending_page(450, 1, 200))),
    );
    assert_eq!(check(&m).progress(), (200, Some(450)), "progress is shown");
    assert!(confirm_title(&m).is_none(), "nothing is asked mid-walk");
    let rest = serve(&mut m, &c, 450, second);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(m.panes.campaigns.dialog.is_none(), "nothing found: no list");
    let q = confirm_title(&m).expect("the usual question");
    assert!(q.contains("starts sending to 450 pending leads"), "{q}");
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert_eq!(launches(&cmds), 1, "{cmds:?}");
}

#[test]
fn an_empty_step_refuses_the_launch_and_enter_opens_the_editor_on_it() {
    let c = draft(&[
        ("Hi %company%", "Hello %first_name%"),
        ("Again", ""),
        ("Last", "Bye %frist_name%"),
    ]);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    let rest = serve(&mut m, &c, 30, cmds);
    assert!(rest.is_empty(), "{rest:?}");
    assert_eq!(
        lines(&m),
        vec![
            "# Steps without a body",
            "Step 2 (email) has no body",
            "# Unknown variables",
            "Step 3 body: %frist_name% names no lead field (did you mean %first_name%?)",
        ]
    );
    assert!(check(&m).report.blocks());
    // `y` offers nothing: the errors block the launch.
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert_eq!(launches(&cmds), 0);
    assert!(confirm_title(&m).is_none(), "no question is offered");
    assert!(
        check(&m)
            .note
            .as_deref()
            .is_some_and(|n| n.contains("2 errors block the launch")),
        "{:?}",
        check(&m).note
    );
    // Enter on the empty step: the editor, on that step's body.
    select(&mut m, "Step 2");
    let cmds = drive::key(&mut m, KeyCode::Enter);
    assert_eq!(launches(&cmds), 0);
    assert!(m.panes.campaigns.dialog.is_none());
    assert_eq!(m.panes.campaigns.view, View::Sequence);
    let e = m.panes.campaigns.sequence.as_ref().expect("the editor");
    assert_eq!((e.selected, e.focus), (1, sequence::Focus::Body));
}

#[test]
fn each_finding_jumps_to_its_place_and_esc_closes_without_launching() {
    let mut c = draft(&[("Hi %company%", "On %custom_fields.plan%?")]);
    // A sender not known to be ready, and a limit too slow for the roster.
    c.sender_accounts = Some(
        fixtures::senders()
            .into_iter()
            .filter(|s| s.kind == Channel::Email)
            .collect(),
    );
    c.daily_limit = Some(1);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    serve(&mut m, &c, 450, cmds);
    let kinds: Vec<Kind> = check(&m)
        .lines
        .iter()
        .filter_map(|l| match l {
            Row::Finding(f) => Some(f.kind),
            Row::Heading(_) => None,
        })
        .collect();
    assert_eq!(
        kinds,
        vec![Kind::EmptyVariable, Kind::SenderNotReady, Kind::SlowRoster]
    );
    // Every 7th lead has a plan: the first without one is lead 1, row 1
    // of the pending roster.
    assert_eq!(
        check(&m).selected().map(|f| f.location.clone()),
        Some(Location::Lead("c-1-l1".into()))
    );
    assert!(
        lines(&m)[1].contains("%custom_fields.plan% is empty for 385 of 450 pending leads"),
        "{:?}",
        lines(&m)
    );
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert_eq!(o.tab, Tab::Roster);
    assert_eq!(o.roster.status, Some(LeadStatus::Pending));
    assert_eq!(o.roster.window.table.selected, 1, "on the lead");
    assert!(
        requests(&cmds).iter().any(|r| matches!(r,
            ApiRequest::ListLeads { query, .. } if query.status.as_deref() == Some("pending") && query.page == Some(1))),
        "its page is read: {cmds:?}"
    );

    // The sender and the daily limit: the overview.
    drive::key(&mut m, KeyCode::Char('h'));
    for what in ["Sam Ortiz", "At 1 a day"] {
        let cmds = drive::key(&mut m, KeyCode::Char('L'));
        serve(&mut m, &c, 450, cmds);
        select(&mut m, what);
        drive::key(&mut m, KeyCode::Enter);
        let o = m.panes.campaigns.open.as_ref().expect("open");
        assert_eq!(o.tab, Tab::Overview, "{what}");
        assert_eq!(m.panes.campaigns.view, View::Detail);
    }

    // Esc on the list closes it; nothing is launched.
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    serve(&mut m, &c, 450, cmds);
    let cmds = drive::key(&mut m, KeyCode::Esc);
    assert_eq!(launches(&cmds), 0);
    assert!(m.panes.campaigns.dialog.is_none());
    assert!(confirm_title(&m).is_none());
}

#[test]
fn warnings_need_a_first_yes_then_the_usual_question() {
    let mut c = draft(&[("Hi %company%", "Hello %first_name%")]);
    c.daily_limit = Some(1);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    serve(&mut m, &c, 45, cmds);
    assert_eq!(
        lines(&m),
        vec![
            "# Daily limit",
            "At 1 a day, 45 pending leads take 45 days to start (more than 30)"
        ]
    );
    assert!(confirm_title(&m).is_none(), "the list comes first");
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert_eq!(launches(&cmds), 0, "the first yes only goes on");
    let q = confirm_title(&m).expect("the usual question");
    assert!(q.contains("45 pending leads"), "{q}");
    assert!(q.contains("warning stand"), "{q}");
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert_eq!(launches(&cmds), 1);
}

#[test]
fn esc_stops_the_walk_and_the_launch_then_says_how_many_leads_were_not_checked() {
    let c = draft(&[("Hi %company%", "Hello %first_name%")]);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    let cmds = drive::reply(
        &mut m,
        drive::api(&cmds)[0].0,
        ApiReply::Campaign(Box::new(Ok(c.clone()))),
    );
    let cmds = drive::reply(
        &mut m,
        drive::api(&cmds)[0].0,
        ApiReply::Roster(Ok(pending_page(2003, 1, 200))),
    );
    let cmds = drive::reply(
        &mut m,
        drive::api(&cmds)[0].0,
        ApiReply::Roster(Ok(pending_page(2003, 2, 200))),
    );
    assert_eq!(check(&m).progress(), (400, Some(2003)));
    let (late, _) = drive::api(&cmds)[0].clone();
    drive::key(&mut m, KeyCode::Esc);
    assert!(check(&m).finished(), "stopped: the list shows");
    assert_eq!(check(&m).report.not_checked(), 1603);
    // The page on its way when Esc was pressed is dropped.
    let after = drive::reply(
        &mut m,
        late,
        ApiReply::Roster(Ok(pending_page(2003, 3, 200))),
    );
    assert!(requests(&after).is_empty(), "no more pages: {after:?}");
    assert_eq!(check(&m).progress().0, 400);
    drive::key(&mut m, KeyCode::Char('y'));
    let q = confirm_title(&m).expect("the question");
    assert!(q.contains("1,603 pending leads were not checked"), "{q}");
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert_eq!(launches(&cmds), 1);
}

#[test]
fn launch_from_the_list_jumps_into_the_campaign() {
    let c = draft(&[("Hi %company%", "")]);
    let mut m = super::tests::with_list(std::slice::from_ref(&c));
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    serve(&mut m, &c, 10, cmds);
    assert_eq!(
        check(&m).selected().map(|f| f.location.clone()),
        Some(Location::Step {
            index: 0,
            part: Some(Part::Body)
        })
    );
    let cmds = drive::key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.campaigns.open_id(), Some("c-1"));
    assert_eq!(m.panes.campaigns.view, View::Sequence, "{cmds:?}");
}

#[test]
fn a_failed_page_says_so_and_the_refresh_key_reads_it_again() {
    let c = draft(&[("Hi %company%", "Hello %first_name%")]);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    let cmds = drive::reply(
        &mut m,
        drive::api(&cmds)[0].0,
        ApiReply::Campaign(Box::new(Ok(c.clone()))),
    );
    drive::reply(
        &mut m,
        drive::api(&cmds)[0].0,
        ApiReply::Roster(Err(drive::service_error(500, r#"{"error":"boom"}"#))),
    );
    assert!(check(&m).error.is_some());
    assert!(!check(&m).finished());
    let cmds = drive::key(&mut m, KeyCode::Char('r'));
    let rest = serve(&mut m, &c, 20, cmds);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(confirm_title(&m).is_some(), "read again, then asked");
}

// ------------------------------------------------- the preview that finds it

/// Leads `0..n` of the roster; those in `gaps` have no plan.
fn planned(n: usize, gaps: &[usize]) -> Vec<CampaignLead> {
    (0..n)
        .map(|i| {
            let mut l = fixtures::campaign_lead("c-1", i, LeadStatus::Pending);
            if gaps.contains(&i) {
                l.custom_fields.remove("plan");
            } else {
                l.custom_fields.insert("plan".into(), "pro".into());
            }
            l
        })
        .collect()
}

/// Answers the preview's roster windows from `roster`.
fn windows(m: &mut Model, roster: &[CampaignLead], mut cmds: Vec<Cmd>) {
    while !cmds.is_empty() {
        let mut next = Vec::new();
        for cmd in cmds {
            if let Cmd::Api {
                id,
                req: ApiRequest::ListLeads { query, .. },
            } = &cmd
            {
                let limit = query.limit.unwrap_or(20);
                let first = (query.page.unwrap_or(1) - 1) * limit;
                let page = RosterPage {
                    prospects: roster
                        .iter()
                        .skip(usize::try_from(first).unwrap_or(0))
                        .take(usize::try_from(limit).unwrap_or(0))
                        .cloned()
                        .collect(),
                    total: roster.len() as u64,
                    page: query.page.unwrap_or(1),
                    limit,
                };
                next.extend(drive::reply(m, *id, ApiReply::Roster(Ok(page))));
            }
        }
        cmds = next;
    }
}

/// The sequence editor on [`draft`] of `steps`, previewing `roster`.
fn editing(steps: &[(&str, &str)], roster: &[CampaignLead]) -> Model {
    let c = draft(steps);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('s'));
    windows(&mut m, roster, cmds);
    assert_eq!(m.panes.campaigns.view, View::Sequence);
    m
}

fn editor(m: &Model) -> &sequence::Editor {
    m.panes.campaigns.sequence.as_ref().expect("the editor")
}

#[test]
fn the_preview_moves_to_the_next_lead_with_an_empty_variable_across_windows() {
    let roster = planned(60, &[45]);
    let mut m = editing(&[("Hi", "On %custom_fields.plan%?")], &roster);
    assert_eq!(editor(&m).lead_row(), 0);
    let cmds = drive::ctrl(&mut m, 'g');
    windows(&mut m, &roster, cmds);
    let e = editor(&m);
    assert_eq!(e.lead_row(), 45, "the first lead without a plan");
    assert_eq!(
        e.empty_for(e.lead().expect("a lead")),
        vec!["%custom_fields.plan%"]
    );
    // Again: none after it; the look wraps and stops having seen them all.
    let cmds = drive::ctrl(&mut m, 'g');
    windows(&mut m, &roster, cmds);
    let e = editor(&m);
    assert_eq!(e.lead_row(), 45, "back on the only one");
}

#[test]
fn the_preview_says_so_when_no_lead_has_an_empty_variable() {
    let roster = planned(30, &[]);
    let mut m = editing(&[("Hi", "On %custom_fields.plan%?")], &roster);
    let cmds = drive::ctrl(&mut m, 'g');
    windows(&mut m, &roster, cmds);
    assert!(
        editor(&m)
            .note
            .as_deref()
            .is_some_and(|n| n.contains("no lead of the roster")),
        "{:?}",
        editor(&m).note
    );
}

#[test]
fn the_preview_moves_back_a_lead_and_from_the_first_to_the_last() {
    let roster = planned(45, &[]);
    let mut m = editing(&[("Hi", "Hello")], &roster);
    let cmds = drive::ctrl(&mut m, 'l');
    windows(&mut m, &roster, cmds);
    assert_eq!(editor(&m).lead_row(), 1);
    let cmds = drive::ctrl(&mut m, 'o');
    windows(&mut m, &roster, cmds);
    assert_eq!(editor(&m).lead_row(), 0);
    let cmds = drive::ctrl(&mut m, 'o');
    windows(&mut m, &roster, cmds);
    assert_eq!(editor(&m).lead_row(), 44, "before the first: the last");
    let cmds = drive::ctrl(&mut m, 'o');
    windows(&mut m, &roster, cmds);
    assert_eq!(editor(&m).lead_row(), 43);
}

#[test]
fn the_variable_picker_narrows_as_you_type_and_moves_with_the_arrows() {
    let roster = planned(5, &[]);
    let mut m = editing(&[("Hi", "Hello")], &roster);
    drive::key(&mut m, KeyCode::End);
    drive::ctrl(&mut m, 't');
    drive::chars(&mut m, "name");
    let p = editor(&m).picker.as_ref().expect("the picker");
    let names: Vec<&str> = sequence::picked_from(p, &editor(&m).variables)
        .into_iter()
        .map(|i| editor(&m).variables[i].as_str())
        .collect();
    assert_eq!(names, vec!["first_name", "last_name", "name"]);
    drive::key(&mut m, KeyCode::Down);
    drive::key(&mut m, KeyCode::Enter);
    assert!(editor(&m).picker.is_none());
    let subject = editor(&m).step().expect("a step").subject.lines().join("");
    assert_eq!(subject, "Hi%last_name%");
    // PgDn goes a page down the whole list; Esc closes, inserting nothing.
    drive::ctrl(&mut m, 't');
    drive::key(&mut m, KeyCode::PageDown);
    assert_eq!(
        editor(&m).picker.as_ref().map(|p| p.table.selected),
        Some(8)
    );
    drive::key(&mut m, KeyCode::Esc);
    let subject = editor(&m).step().expect("a step").subject.lines().join("");
    assert_eq!(subject, "Hi%last_name%");
    assert_eq!(
        m.panes.campaigns.view,
        View::Sequence,
        "Esc closed the picker only"
    );
}
