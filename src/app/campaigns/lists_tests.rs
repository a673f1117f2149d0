//! The pane's lists as a user meets them: the campaigns read again when
//! shown after the poll interval and polled while one sends; the roster
//! and the messages read again after the campaign changed; the text filter
//! of the roster and the messages (letters never act as commands there);
//! the status filter over the channel's statuses; the draft row of the
//! state table after an import chunk or a delete; the preview's lead.

use crossterm::event::KeyCode;

use super::tests::*;
use super::*;
use crate::api::model::*;
use crate::app::fixtures::drive::and_queued;
use crate::app::fixtures::{self, drive};
use crate::app::{ApiReply, ApiRequest, Cmd, Model, Msg, PaneSub, SubId, update};

fn fire(m: &mut Model, sub: CampaignsSub) -> Vec<Cmd> {
    update(m, Msg::SubFired(SubId::Pane(PaneSub::Campaigns(sub))))
}

fn subs(m: &Model) -> Vec<CampaignsSub> {
    crate::app::subscriptions(m)
        .into_iter()
        .filter_map(|s| match s.id {
            SubId::Pane(PaneSub::Campaigns(c)) => Some(c),
            _ => None,
        })
        .collect()
}

fn lists(cmds: &[Cmd]) -> usize {
    requests(cmds)
        .iter()
        .filter(|r| **r == ApiRequest::ListCampaigns)
        .count()
}

#[test]
fn the_list_is_read_again_when_shown_after_the_poll_interval() {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Esc);
    assert_eq!(lists(&cmds), 0, "just read: not again");
    let every = i64::try_from(m.poll.campaign.as_secs()).unwrap_or(30);
    let cmds = drive::key(&mut m, KeyCode::Enter);
    answer(&mut m, cmds, |_| Some(campaign_reply(&c)));
    m.clock += every;
    let cmds = drive::key(&mut m, KeyCode::Esc);
    assert_eq!(lists(&cmds), 1, "back on the list after the interval");
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaigns(Ok(Some(vec![c.clone()]))))
    });
    // Entering the pane again does the same.
    drive::key(&mut m, KeyCode::Char('1'));
    assert_eq!(lists(&drive::key(&mut m, KeyCode::Char('2'))), 0);
    drive::key(&mut m, KeyCode::Char('1'));
    m.clock += every;
    assert_eq!(lists(&drive::key(&mut m, KeyCode::Char('2'))), 1);
}

#[test]
fn the_list_is_polled_while_it_shows_a_sending_campaign() {
    let mut m = with_list(&[status_campaign(CampaignStatus::Draft)]);
    assert!(!subs(&m).contains(&CampaignsSub::List), "nothing sending");
    let mut live = status_campaign(CampaignStatus::Launching);
    let mut m2 = with_list(std::slice::from_ref(&live));
    assert!(subs(&m2).contains(&CampaignsSub::List));
    let cmds = fire(&mut m2, CampaignsSub::List);
    assert_eq!(lists(&cmds), 1);
    live.status = CampaignStatus::Completed;
    answer(&mut m2, cmds, |_| {
        Some(ApiReply::Campaigns(Ok(Some(vec![live.clone()]))))
    });
    assert_eq!(
        m2.panes.campaigns.list.rows[0].status,
        CampaignStatus::Completed,
        "the list shows what the service says now"
    );
    assert!(
        !subs(&m2).contains(&CampaignsSub::List),
        "done: no more polls"
    );
    m.panes.campaigns.list.rows[0].status = CampaignStatus::Active;
    drive::key(&mut m, KeyCode::Char('1'));
    assert!(
        !subs(&m).contains(&CampaignsSub::List),
        "not shown: not polled"
    );
}

#[test]
fn a_failed_poll_keeps_the_values_marked_stale() {
    let live = status_campaign(CampaignStatus::Active);
    let mut m = opened(&live);
    let cmds = fire(&mut m, CampaignsSub::Watch("c-1".into()));
    m.clock += 180;
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(service_error(503, "{}")))))
    });
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert!(o.loaded && o.fresh.is_stale());
    assert_eq!(o.campaign.stats, live.stats, "the values stay");
    assert_eq!(o.fresh.age(m.clock), Some(180));
    // Back on the list (older than the interval), whose read fails too.
    let cmds = drive::key(&mut m, KeyCode::Esc);
    assert_eq!(lists(&cmds), 1);
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaigns(Err(service_error(503, "{}"))))
    });
    let l = &m.panes.campaigns.list;
    assert!(l.fresh.is_stale() && l.rows.len() == 1 && l.error.is_none());
}

#[test]
fn after_a_launch_the_roster_shown_again_is_read_again() {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Char('h'));
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| detail::launch(c, cx, "c-1")),
        &mut m,
    );
    let mut launched = c.clone();
    launched.status = CampaignStatus::Launching;
    answer(&mut m, cmds, |_| Some(campaign_reply(&launched)));
    let cmds = drive::key(&mut m, KeyCode::Char('l'));
    assert!(
        requests(&cmds)
            .iter()
            .any(|r| matches!(r, ApiRequest::ListLeads { query, .. } if query.page == Some(1))),
        "the roster is read again: {cmds:?}"
    );
}

/// The roster pages read before the campaign moved are read again as they
/// are shown, each once: those on screen at once, a page scrolled back to
/// when it is (it was kept with the old statuses), and nothing while the
/// campaign read again did not move.
#[test]
fn a_moved_campaign_reads_each_roster_page_again_when_it_is_shown() {
    let c = status_campaign(CampaignStatus::Paused);
    let mut m = opened(&c);
    let roster =
        |r: &ApiRequest| match r {
            ApiRequest::ListLeads { id, query } => Some(ApiReply::Roster(Ok(
                fixtures::roster_page(id, 5000, query.page.unwrap_or(1) - 1, 200),
            ))),
            _ => None,
        };
    let pages = |cmds: &[Cmd]| -> Vec<u64> {
        requests(cmds)
            .into_iter()
            .filter_map(|r| match r {
                ApiRequest::ListLeads { query, .. } => query.page,
                _ => None,
            })
            .collect()
    };
    let cmds = drive::key(&mut m, KeyCode::Char('l'));
    answer(&mut m, cmds, roster);
    // Down to the third page, then back to the top: three pages held.
    while m
        .panes
        .campaigns
        .open
        .as_ref()
        .unwrap()
        .roster
        .window
        .table
        .selected
        < 450
    {
        let cmds = drive::key(&mut m, KeyCode::PageDown);
        answer(&mut m, cmds, roster);
    }
    let cmds = drive::key(&mut m, KeyCode::Char('g'));
    assert!(pages(&answer(&mut m, cmds, roster)).is_empty());
    let held = |m: &Model| -> Vec<usize> {
        let r = &m.panes.campaigns.open.as_ref().unwrap().roster;
        r.window.pages.keys().copied().collect()
    };
    assert_eq!(held(&m), [0, 1, 2]);
    // The campaign is read again and its stats moved: the page on screen
    // is read again, not the others.
    let mut moved = c.clone();
    moved.stats.sent += 3;
    let cmds = and_queued(on_pane(&mut m, |_, cx| detail::read(cx, "c-1")), &mut m);
    let cmds = answer(&mut m, cmds, |_| Some(campaign_reply(&moved)));
    assert_eq!(pages(&cmds), [1], "the page on screen");
    answer(&mut m, cmds, roster);
    // Read again, unmoved: nothing more.
    let cmds = and_queued(on_pane(&mut m, |_, cx| detail::read(cx, "c-1")), &mut m);
    let cmds = answer(&mut m, cmds, |_| Some(campaign_reply(&moved)));
    assert!(pages(&cmds).is_empty(), "{cmds:?}");
    // Scrolled down again, the pages held with the old statuses are read
    // again as they are shown.
    let mut asked = Vec::new();
    while m
        .panes
        .campaigns
        .open
        .as_ref()
        .unwrap()
        .roster
        .window
        .table
        .selected
        < 450
    {
        let cmds = drive::key(&mut m, KeyCode::PageDown);
        asked.extend(pages(&cmds));
        answer(&mut m, cmds, roster);
    }
    assert_eq!(held(&m), [0, 1, 2], "{asked:?}");
    assert_eq!(asked, [2, 3], "each once");
}

#[test]
fn the_messages_shown_are_read_again_on_each_watch() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    let cmds = fire(&mut m, CampaignsSub::Watch("c-1".into()));
    assert!(
        requests(&cmds)
            .iter()
            .any(|r| matches!(r, ApiRequest::GeneratedMessages { .. })),
        "{cmds:?}"
    );
}

#[test]
fn typing_a_roster_filter_never_acts_as_commands() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 120);
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "ab");
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert!(
        o.roster.marks.is_empty(),
        "a did not select the loaded leads"
    );
    assert_eq!(o.roster.needle.text, "ab");
    drive::key(&mut m, KeyCode::Esc);
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "schmidt");
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert_eq!((m.panes.campaigns.view, o.tab), (View::Detail, Tab::Roster));
    assert!(
        m.panes.campaigns.sequence.is_none(),
        "s did not open the editor"
    );
    let names: Vec<String> = (0..o.roster.window.table.len)
        .filter_map(|i| o.roster.shown(i).map(lead::lead_name))
        .collect();
    assert!(
        !names.is_empty() && names.iter().all(|n| n.contains("Schmidt")),
        "{names:?}"
    );
    // Enter keeps it; Back clears it before leaving the campaign.
    drive::key(&mut m, KeyCode::Enter);
    drive::key(&mut m, KeyCode::Esc);
    let o = m.panes.campaigns.open.as_ref().expect("still open");
    assert!(!o.roster.filtering());
    assert_eq!(o.roster.window.table.len, 120);
}

#[test]
fn typing_a_messages_filter_never_acts_as_commands() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "brightlabs");
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert_eq!(o.tab, Tab::Messages);
    assert!(m.panes.campaigns.dialog.is_none());
    assert!(o.messages.table.len > 0 && o.messages.table.len < o.messages.items.len());
    assert!(
        (0..o.messages.table.len)
            .filter_map(|i| o.messages.shown(i))
            .all(|x| x.subject.contains("Brightlabs"))
    );
    drive::key(&mut m, KeyCode::Esc);
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert_eq!(o.messages.table.len, o.messages.items.len(), "Esc clears");
}

#[test]
fn the_status_filter_cycles_the_statuses_of_the_campaigns_channel() {
    let cycle = |channel: Channel| {
        let mut out = Vec::new();
        let mut s = None;
        loop {
            s = roster::next_status(&channel, s.as_ref());
            match &s {
                Some(x) => out.push(x.as_str().to_owned()),
                None => return out,
            }
        }
    };
    let email = cycle(Channel::Email);
    assert!(email.contains(&"bounced".to_owned()));
    assert!(
        !email
            .iter()
            .any(|s| s.starts_with("connect") || s == "message_sent")
    );
    let network = cycle(Channel::Network);
    assert!(network.contains(&"connection_sent".to_owned()));
    assert!(!network.contains(&"bounced".to_owned()) && !network.contains(&"sent".to_owned()));
}

#[test]
fn draft_an_import_chunk_or_a_delete_reads_the_campaign_again_and_shows_the_new_total() {
    let (mut m, _) = importing(first_chunk());
    drive::ctrl(&mut m, 's');
    let cmds = drive::ctrl(&mut m, 's');
    let cmds = service(&mut m, cmds, &[]);
    assert!(
        requests(&cmds).contains(&ApiRequest::GetCampaign { id: "c-1".into() }),
        "the chunk went in: the campaign is read again"
    );
    let mut grown = status_campaign(CampaignStatus::Draft);
    grown.stats.total = 1117;
    answer(&mut m, cmds, |r| match r {
        ApiRequest::GetCampaign { .. } => Some(campaign_reply(&grown)),
        _ => None,
    });
    let total = |m: &Model| {
        m.panes
            .campaigns
            .open
            .as_ref()
            .map(|o| o.campaign.stats.total)
    };
    assert_eq!(total(&m), Some(1117));
    // A delete: the campaign is read again when it ends.
    m.panes.campaigns.dialog = None;
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            delete::delete(c, cx, "c-1", vec!["c-1-l0".into()])
        }),
        &mut m,
    );
    let cmds = answer(&mut m, cmds, |r| match r {
        ApiRequest::DeleteLeads { .. } => Some(ApiReply::LeadsDeleted(Ok(1))),
        _ => None,
    });
    assert!(requests(&cmds).contains(&ApiRequest::GetCampaign { id: "c-1".into() }));
    grown.stats.total = 1116;
    answer(&mut m, cmds, |r| match r {
        ApiRequest::GetCampaign { .. } => Some(campaign_reply(&grown)),
        _ => None,
    });
    assert_eq!(total(&m), Some(1116));
}

/// A large import reads the open campaign again now and then, not after
/// every chunk (that would double its requests), and always at the end.
#[test]
fn an_upload_reads_the_open_campaign_again_at_most_every_two_seconds() {
    let (mut m, _) = importing(first_chunk());
    drive::ctrl(&mut m, 's');
    let cmds = drive::ctrl(&mut m, 's');
    let cmds = service(&mut m, cmds, &[]);
    let reads = |cmds: &[Cmd]| {
        requests(cmds)
            .iter()
            .filter(|r| matches!(r, ApiRequest::GetCampaign { .. }))
            .count()
    };
    assert_eq!(reads(&cmds), 1, "the first chunk that went in");
    let mut cmds = cmds;
    for (n, later) in [(0, 0), (1, 2)] {
        m.now += std::time::Duration::from_secs(later);
        let (id, read) = read_of(&cmds);
        let mut middle = second_chunk(read.start);
        let email = format!("fresh{n}@x.io");
        middle.rows = vec![row(read.start.line, &[email.as_str(), "x"])];
        middle.eof = false;
        middle.next = crate::logic::import::CsvPos {
            byte: read.start.byte + 100,
            line: read.start.line + 2,
        };
        middle.file_len = 1_000_000;
        let sent = update(
            &mut m,
            Msg::CsvRead {
                id,
                result: Ok(middle),
            },
        );
        cmds = service(&mut m, sent, &[]);
        assert_eq!(reads(&cmds), n, "{later} s later");
    }
}

#[test]
fn the_preview_starts_on_the_lead_selected_and_reaches_any_lead() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 120);
    for _ in 0..5 {
        drive::key(&mut m, KeyCode::Down);
    }
    let cmds = drive::key(&mut m, KeyCode::Char('s'));
    let e = m.panes.campaigns.sequence.as_ref().expect("editor");
    assert_eq!(e.lead().map(|l| l.id.as_str()), Some("c-1-l5"));
    let window = |cmds: &[Cmd]| {
        requests(cmds).iter().find_map(|r| match r {
            ApiRequest::ListLeads { query, .. } => query.page,
            _ => None,
        })
    };
    assert_eq!(window(&cmds), Some(1));
    let serve = |m: &mut Model, cmds: Vec<Cmd>| {
        answer(m, cmds, |r| match r {
            ApiRequest::ListLeads { id, query } => Some(ApiReply::Roster(Ok(
                fixtures::roster_page(id, 120, query.page.unwrap_or(1) - 1, 20),
            ))),
            _ => None,
        });
    };
    serve(&mut m, cmds);
    // Past the first twenty: the next window is read.
    let mut asked = None;
    for _ in 0..15 {
        let cmds = drive::ctrl(&mut m, 'l');
        if let Some(p) = window(&cmds) {
            asked = Some(p);
            serve(&mut m, cmds);
        }
    }
    assert_eq!(asked, Some(2));
    let e = m.panes.campaigns.sequence.as_ref().expect("editor");
    assert_eq!(e.lead().map(|l| l.id.as_str()), Some("c-1-l20"));
}

#[test]
fn deleting_every_lead_of_a_roster_of_one_says_one_lead() {
    let mut c = status_campaign(CampaignStatus::Draft);
    c.stats.total = 1;
    let mut m = opened(&c);
    roster_open(&mut m, 1);
    drive::key(&mut m, KeyCode::Char('D'));
    let q = confirm_title(&m).expect("asks");
    assert!(q.contains("Its only lead leaves"), "{q}");
    assert!(!q.contains("1 leads"), "{q}");
}

#[test]
fn selecting_the_loaded_leads_of_a_filtered_roster_selects_only_those_shown() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "brightlabs");
    drive::key(&mut m, KeyCode::Enter);
    drive::key(&mut m, KeyCode::Char('a'));
    let o = m.panes.campaigns.open.as_ref().expect("open");
    let marked: Vec<&str> = o.roster.marks.iter().map(String::as_str).collect();
    assert_eq!(marked, ["c-1-l0", "c-1-l10", "c-1-l5"], "the three shown");
    drive::key(&mut m, KeyCode::Char('d'));
    let q = confirm_title(&m).expect("asks");
    assert!(q.contains("3 leads leave"), "{q}");
    // Without the filter, every loaded lead.
    m.overlay = None;
    drive::key(&mut m, KeyCode::Esc);
    drive::key(&mut m, KeyCode::Char('a'));
    let o = m.panes.campaigns.open.as_ref().expect("open");
    assert_eq!(o.roster.marks.len(), 12);
}

#[test]
fn a_filter_being_typed_is_the_shared_input_line_naming_what_it_searches() {
    let screen = crate::app::cache_tests::screen;
    let mut m = with_list(&fixtures::campaigns());
    drive::key(&mut m, KeyCode::Char('/'));
    let s = screen(&m);
    assert!(s.contains("└ /  a name, type or status"), "{s}");
    assert!(s.contains("Enter keeps · Esc cancels"), "{s}");
    drive::chars(&mut m, "network");
    let s = screen(&m);
    assert!(s.contains(" / network"), "{s}");
    assert!(!s.contains("Q3 founders"), "narrowed as typed: {s}");
    drive::key(&mut m, KeyCode::Enter);
    let s = screen(&m);
    assert!(
        s.contains(" / network · Esc clears"),
        "the applied filter: {s}"
    );
    // The roster's: the selection count stays beside the input.
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Char(' '));
    drive::key(&mut m, KeyCode::Char('/'));
    let s = screen(&m);
    assert!(
        s.contains(" /  a name, email, company, position or status"),
        "{s}"
    );
    assert!(s.contains("1 selected"), "{s}");
}

#[test]
fn a_service_error_in_a_tables_placeholder_is_drawn_inert() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let cmds = drive::key(&mut m, KeyCode::Char('l'));
    answer(&mut m, cmds, |r| match r {
        ApiRequest::ListLeads { .. } => Some(ApiReply::Roster(Err(service_error(
            500,
            "{\"error\":{\"code\":\"internal_error\",\"message\":\"boom \\u001b[31mred\\u202e here\"}}",
        )))),
        _ => None,
    });
    let s = crate::app::cache_tests::screen(&m);
    assert!(s.contains("boom"), "the service's words: {s}");
    assert!(!s.contains('\u{1b}') && !s.contains('\u{202e}'), "{s:?}");
}
