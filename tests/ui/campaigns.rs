//! Snapshots of the Campaigns pane at 80x24 and 200x50: the list, the
//! create form (email and network), a campaign's overview with the stats
//! chart, its roster, the import's column mapping and report, and the
//! sequence editor.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::api::model::*;
use outpost::app::campaigns::CampaignsSub;
use outpost::app::csv_chunk::{CsvChunk, CsvPos, CsvRow};
use outpost::app::{ApiReply, ApiRequest, Cmd, Model, Msg, PaneSub, SubId, fixtures, update};

use crate::support::{screen_text, terminal};

/// Campaigns in every status, newest first.
fn campaigns() -> Vec<Campaign> {
    let mk = |id: &str, name: &str, kind: Channel, status: CampaignStatus, n: u64, at: &str| {
        let mut c = fixtures::campaign_detail(id, name, kind, status, n);
        c.created_at = at.into();
        c
    };
    vec![
        mk(
            "c-5",
            "Q4 RevOps — email",
            Channel::Email,
            CampaignStatus::Draft,
            2350,
            "2026-11-22T11:00:00Z",
        ),
        mk(
            "c-4",
            "DACH founders (network)",
            Channel::Network,
            CampaignStatus::Launching,
            80,
            "2026-11-21T11:00:00Z",
        ),
        mk(
            "c-3",
            "Series B RevOps — wave 2",
            Channel::Email,
            CampaignStatus::Active,
            1200,
            "2026-11-20T11:00:00Z",
        ),
        mk(
            "c-2",
            "Platform eng — EU",
            Channel::Email,
            CampaignStatus::Paused,
            600,
            "2026-11-18T11:00:00Z",
        ),
        mk(
            "c-1",
            "Finance leaders Q2",
            Channel::Email,
            CampaignStatus::Completed,
            300,
            "2026-10-02T11:00:00Z",
        ),
    ]
}

/// Answers the pane's requests the way a fixture service would.
fn answer(m: &mut Model, cmds: Vec<Cmd>) -> Vec<Cmd> {
    let mut next = Vec::new();
    for cmd in cmds {
        let Cmd::Api { id, req } = cmd else {
            next.push(cmd);
            continue;
        };
        let reply = match req {
            ApiRequest::ListCampaigns => ApiReply::Campaigns(Ok(Some(campaigns()))),
            ApiRequest::GetCampaign { id } => {
                let c = campaigns()
                    .into_iter()
                    .find(|c| c.id == id)
                    .unwrap_or_default();
                ApiReply::Campaign(Box::new(Ok(c)))
            }
            ApiRequest::ListLeads { id, query } => {
                let total = campaigns()
                    .iter()
                    .find(|c| c.id == id)
                    .map_or(0, |c| c.stats.total);
                let limit = query.limit.unwrap_or(50);
                ApiReply::Roster(Ok(fixtures::roster_page(
                    &id,
                    total,
                    query.page.unwrap_or(1) - 1,
                    limit,
                )))
            }
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::AddLeads { leads, .. } => ApiReply::LeadsAdded(Ok(AddLeadsResponse {
                imported: leads.len() as u64 - 1,
                duplicates: 1,
                duplicate_rows: vec![DuplicateRow {
                    index: 0,
                    reason: "roster".into(),
                }],
                ..AddLeadsResponse::default()
            })),
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
    next
}

fn settle(m: &mut Model, mut cmds: Vec<Cmd>) {
    for _ in 0..20 {
        let rest = answer(m, cmds);
        if !rest.iter().any(|c| matches!(c, Cmd::Api { .. })) {
            return;
        }
        cmds = rest;
    }
}

fn press(m: &mut Model, code: KeyCode) {
    let cmds = update(m, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    settle(m, cmds);
}

fn ctrl(m: &mut Model, c: char) -> Vec<Cmd> {
    update(
        m,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    )
}

fn typed(m: &mut Model, s: &str) {
    for c in s.chars() {
        press(m, KeyCode::Char(c));
    }
}

/// The Campaigns pane with the list loaded.
/// The campaign list, loaded (also a README screenshot).
pub fn listed(w: u16, h: u16) -> Model {
    let mut m = fixtures::model(w, h);
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::NONE)),
    );
    settle(&mut m, cmds);
    m
}

/// The campaign at row `row` of the list, opened.
/// Campaign `row` of the list, opened on its overview (also a README
/// screenshot).
pub fn opened(w: u16, h: u16, row: usize) -> Model {
    let mut m = listed(w, h);
    for _ in 0..row {
        press(&mut m, KeyCode::Char('j'));
    }
    press(&mut m, KeyCode::Enter);
    m
}

fn snap(m: &Model, w: u16, h: u16) -> String {
    screen_text(&terminal(m, w, h))
}

#[test]
fn campaign_list() {
    for (w, h) in [(80, 24), (200, 50)] {
        let m = listed(w, h);
        let text = snap(&m, w, h);
        assert!(
            text.contains("● launching") && text.contains("2,350"),
            "{text}"
        );
        assert_snapshot!(format!("campaign_list_{w}x{h}"), text);
    }
}

#[test]
fn create_form_email_and_network() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = listed(w, h);
        press(&mut m, KeyCode::Char('n'));
        let text = snap(&m, w, h);
        assert!(
            text.contains("Daily limit") && !text.contains("Operating hours"),
            "{text}"
        );
        assert_snapshot!(format!("create_email_{w}x{h}"), text);
        press(&mut m, KeyCode::Right);
        let text = snap(&m, w, h);
        assert!(
            text.contains("Operating hours") && !text.contains("Daily limit"),
            "{text}"
        );
        assert_snapshot!(format!("create_network_{w}x{h}"), text);
    }
}

#[test]
fn detail_with_the_stats_chart() {
    for (w, h) in [(80, 24), (200, 50)] {
        let m = opened(w, h, 2);
        let text = snap(&m, w, h);
        assert!(
            text.contains("Stats") && text.contains("reply rate"),
            "{text}"
        );
        assert_snapshot!(format!("detail_active_{w}x{h}"), text);
    }
}

/// The open campaign polled a few times: its stats change from poll to
/// poll (a failed poll adds nothing) and each counter shows its trend.
fn polled(w: u16, h: u16) -> Model {
    let mut m = opened(w, h, 2);
    let base = campaigns()
        .into_iter()
        .find(|c| c.id == "c-3")
        .expect("the active campaign");
    for (i, step) in [0u64, 3, 0, 9, 14, 30, 41].iter().enumerate() {
        let watch = SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch("c-3".into())));
        let cmds = update(&mut m, Msg::SubFired(watch));
        let Some(Cmd::Api { id, .. }) = cmds.into_iter().find(|c| matches!(c, Cmd::Api { .. }))
        else {
            panic!("the watch reads the campaign");
        };
        let mut c = base.clone();
        c.stats.sent += step * 4;
        c.stats.replied += step / 3;
        c.stats.completed += step;
        c.stats.bounced += u64::from(i > 4);
        let reply = if i == 2 {
            Err(outpost::app::fixtures::drive::service_error(503, "{}"))
        } else {
            Ok(c)
        };
        update(
            &mut m,
            Msg::Api {
                id,
                latency: Duration::from_millis(42),
                reply: Box::new(ApiReply::Campaign(Box::new(reply))),
            },
        );
    }
    m
}

#[test]
fn stats_with_their_trends() {
    for (w, h) in [(80, 24), (200, 50)] {
        let m = polled(w, h);
        assert_eq!(
            m.panes.campaigns.trends.len("c-3"),
            7,
            "the open read and six polls"
        );
        let text = snap(&m, w, h);
        assert!(text.contains("last 7 polls"), "{text}");
        assert!(text.contains('▁') && text.contains('█'), "{text}");
        assert_snapshot!(format!("detail_trends_{w}x{h}"), text);
    }
    let m = polled(60, 15);
    let text = snap(&m, 60, 15);
    assert!(text.contains("Stats"), "{text}");
}

#[test]
fn roster_with_a_selection() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = opened(w, h, 0);
        press(&mut m, KeyCode::Char('l'));
        press(&mut m, KeyCode::Char(' '));
        press(&mut m, KeyCode::Char(' '));
        let text = snap(&m, w, h);
        assert!(
            text.contains("2,350 leads") && text.contains("2 selected"),
            "{text}"
        );
        assert_snapshot!(format!("roster_{w}x{h}"), text);
    }
}

fn row(line: u64, fields: &[&str]) -> CsvRow {
    CsvRow {
        line,
        fields: Ok(fields.iter().map(|s| (*s).to_owned()).collect()),
    }
}

/// A small file: one row without an email, one repeating another.
fn small_file() -> CsvChunk {
    CsvChunk {
        header: Some(
            [
                "Email",
                "First Name",
                "Last Name",
                "Company",
                "Job Title",
                "Plan",
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
        ),
        rows: vec![
            row(
                2,
                &[
                    "ana@brightlabs.com",
                    "Ana",
                    "López",
                    "Brightlabs",
                    "VP Sales",
                    "pro",
                ],
            ),
            row(3, &["", "Ben", "Okafor", "Northwind", "RevOps", "free"]),
            row(
                4,
                &[
                    "ANA@brightlabs.com",
                    "Ana",
                    "L.",
                    "Brightlabs",
                    "VP Sales",
                    "pro",
                ],
            ),
            row(
                5,
                &[
                    "dev@globex.com",
                    "Dev",
                    "Patel",
                    "Globex",
                    "Head of Sales",
                    "pro",
                ],
            ),
            row(
                6,
                &[
                    "grace@initech.com",
                    "Grace",
                    "Kim",
                    "Initech",
                    "CRO",
                    "free",
                ],
            ),
        ],
        start: CsvPos::START,
        next: CsvPos { byte: 400, line: 7 },
        eof: true,
        file_len: 400,
    }
}

/// The import of a small file into the draft campaign, at the mapping.
fn import_mapping(w: u16, h: u16) -> Model {
    let mut m = opened(w, h, 0);
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('i'), KeyModifiers::NONE)),
    );
    assert!(cmds.is_empty(), "the path is asked first");
    typed(&mut m, "leads.csv");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    let Some(Cmd::ReadCsv { id, .. }) = cmds.first() else {
        panic!("{cmds:?}");
    };
    let chunk = small_file();
    let cmds = update(
        &mut m,
        Msg::CsvRead {
            id: *id,
            result: Ok(chunk),
        },
    );
    settle(&mut m, cmds);
    m
}

#[test]
fn import_mapping_and_report() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = import_mapping(w, h);
        let text = snap(&m, w, h);
        assert!(text.contains("custom_fields.plan"), "{text}");
        assert_snapshot!(format!("import_mapping_{w}x{h}"), text);
        let cmds = ctrl(&mut m, 's');
        settle(&mut m, cmds);
        let text = snap(&m, w, h);
        assert!(
            text.contains("left out: no email") && text.contains("duplicate in the file"),
            "{text}"
        );
        assert_snapshot!(format!("import_preview_{w}x{h}"), text);
        let cmds = ctrl(&mut m, 's');
        settle(&mut m, cmds);
        m.toasts.clear();
        let text = snap(&m, w, h);
        assert!(
            text.contains("1 in the file · 1 already in the roster"),
            "{text}"
        );
        assert_snapshot!(format!("import_report_{w}x{h}"), text);
    }
}

#[test]
fn sequence_editor() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = opened(w, h, 0);
        press(&mut m, KeyCode::Char('s'));
        let text = snap(&m, w, h);
        assert!(
            text.contains("Preview · Ana López")
                && text.contains("Quick question about Brightlabs"),
            "{text}"
        );
        assert_snapshot!(format!("sequence_editor_{w}x{h}"), text);
    }
}

#[test]
fn every_view_fits_the_smallest_screen() {
    let mut m = opened(60, 15, 2);
    let text = snap(&m, 60, 15);
    assert!(text.contains("Stats"), "{text}");
    press(&mut m, KeyCode::Char('l'));
    let text = snap(&m, 60, 15);
    assert!(text.contains("Roster"), "{text}");
    press(&mut m, KeyCode::Char('l'));
    press(&mut m, KeyCode::Esc);
    press(&mut m, KeyCode::Char('n'));
    let text = snap(&m, 60, 15);
    assert!(text.contains("New campaign"), "{text}");
}
