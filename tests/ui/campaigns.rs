//! Snapshots of the Campaigns pane at 80x24 and 200x50: the list, the
//! create form (email and network), a campaign's overview with the stats
//! chart, its roster, the import's column mapping and report, and the
//! sequence editor.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use outpost::testkit::api::model::*;
use outpost::testkit::app::campaigns::CampaignsSub;
use outpost::testkit::app::{
    ApiReply, ApiRequest, Cmd, Model, Msg, PaneSub, SubId, fixtures, update,
};
use outpost::testkit::logic::import::{CsvChunk, CsvPos, CsvRow};

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
            ApiRequest::GeneratedMessages { id, .. } => {
                ApiReply::Messages(Ok(fixtures::generated_messages(&id, 6)))
            }
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

/// The header row of the list's table.
fn header_row(text: &str) -> String {
    text.lines()
        .find(|l| l.contains("Name") && l.contains("Status"))
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn the_headline_stats_outlast_the_creation_time_on_a_narrow_screen() {
    let text = snap(&listed(80, 24), 80, 24);
    let head = header_row(&text);
    for col in ["Replied", "Bounced", "Reply rate"] {
        assert!(head.contains(col), "{col}: {text}");
    }
    assert!(!head.contains("Created"), "{text}");
    assert!(
        text.contains("Series B RevO…"),
        "the name is cut (and says so), not lost: {text}"
    );
}

/// The figure of leads reached is headed with the service's own word for
/// it: `contacted` 25 with `sent` 0 reads "Contacted 25", never "Sent 25".
#[test]
fn each_figure_is_headed_with_the_service_field_it_shows() {
    for (w, h) in [(80, 24), (200, 50)] {
        let mut m = listed(w, h);
        for c in &mut m.panes.campaigns.list.rows {
            c.stats.sent = 0;
            c.stats.contacted = Some(25);
        }
        let text = snap(&m, w, h);
        let head = header_row(&text);
        assert!(head.contains("Contacted"), "{text}");
        assert!(!head.contains("Sent"), "{text}");
        let row = text
            .lines()
            .find(|l| l.contains("Series B"))
            .unwrap_or_default();
        assert!(row.contains(" 25 "), "{text}");
    }
}

#[test]
fn a_wide_list_shows_further_columns_and_one_time_format_per_column() {
    let text = snap(&listed(200, 50), 200, 50);
    let head = header_row(&text);
    for col in [
        "Pending",
        "Completed",
        "Timed out",
        "Daily limit",
        "Updated",
        "Created",
    ] {
        assert!(head.contains(col), "{col}: {head}");
    }
    // Created spans seven weeks: every row of it is a date (the newest
    // is not "1h ago" beside dates).
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with('│') && l.contains("● "))
        .collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert!(rows.iter().all(|r| !r.contains("1h ago")), "{text}");
    assert!(
        text.contains("10-02 11:00") && text.contains("11-22 11:00"),
        "{text}"
    );
}

#[test]
fn a_filtered_list_counts_what_it_shows_of_all() {
    let mut m = listed(100, 30);
    press(&mut m, KeyCode::Char('/'));
    typed(&mut m, "revops");
    let text = snap(&m, 100, 30);
    assert!(text.contains("Campaigns (2 of 5)"), "{text}");
}

/// Answers every request among `cmds` with `reply()`.
fn deliver(m: &mut Model, cmds: Vec<Cmd>, reply: impl Fn() -> ApiReply) {
    for cmd in cmds {
        if let Cmd::Api { id, .. } = cmd {
            update(
                m,
                Msg::Api {
                    id,
                    latency: Duration::from_millis(42),
                    reply: Box::new(reply()),
                },
            );
        }
    }
}

/// A campaign list that was read, then failed to refresh `secs` later
/// with `status`.
fn failed_refresh(m: &mut Model, secs: i64, status: u16, body: &str) {
    m.clock += secs;
    let cmds = update(
        m,
        Msg::SubFired(SubId::Pane(PaneSub::Campaigns(CampaignsSub::List))),
    );
    deliver(m, cmds, || {
        ApiReply::Campaigns(Err(fixtures::drive::service_error(status, body)))
    });
}

#[test]
fn a_failed_refresh_keeps_the_list_and_the_campaign_marked_stale_with_their_age() {
    let mut m = listed(100, 30);
    failed_refresh(&mut m, 180, 503, "{}");
    let text = snap(&m, 100, 30);
    // The list is polled (a campaign is sending): its poll reads again,
    // slowed down after the failure, and the title says when.
    assert!(text.contains("Campaigns (5)  retrying in 4 s"), "{text}");
    assert!(text.contains("Series B RevOps"), "the rows stay: {text}");
    // The open campaign: a failed watch keeps its stats, marked.
    let mut m = opened(100, 30, 2);
    m.clock += 120;
    let watch = SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch("c-3".into())));
    let cmds = update(&mut m, Msg::SubFired(watch));
    deliver(&mut m, cmds, || {
        ApiReply::Campaign(Box::new(Err(fixtures::drive::service_error(500, "{}"))))
    });
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(text.contains("● active · retrying in 4 s"), "{text}");
    assert!(text.contains("reply rate"), "the stats stay: {text}");
    // Nothing polls a list without a sending campaign: after a failure it
    // says its age and the Refresh key, never "retrying".
    let mut m = listed(100, 30);
    for c in &mut m.panes.campaigns.list.rows {
        c.status = CampaignStatus::Paused;
    }
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::NONE)),
    );
    m.clock += 180;
    deliver(&mut m, cmds, || {
        ApiReply::Campaigns(Err(fixtures::drive::service_error(503, "{}")))
    });
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(
        text.contains("Campaigns (5)  stale · as of 3m ago · r retries"),
        "{text}"
    );
}

#[test]
fn a_refused_key_says_how_to_fix_it_and_never_offers_a_retry() {
    let refused = r#"{"error":{"code":"unauthorized","message":"Invalid API key"}}"#;
    let mut m = fixtures::model(100, 30);
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::NONE)),
    );
    deliver(&mut m, cmds, || {
        ApiReply::Campaigns(Err(fixtures::drive::service_error(401, refused)))
    });
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(text.contains("outpost check"), "{text}");
    assert!(!text.contains("retries"), "{text}");
    // The open campaign's read, refused the same way.
    let mut m = listed(100, 30);
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)),
    );
    assert!(cmds.is_empty());
    // A whole id in no list: read first.
    typed(&mut m, "open campaign 7dfa1b2c-5d4a-4e7b-9c1d-2a6f0e9b7c35");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    deliver(&mut m, cmds, || {
        ApiReply::Campaign(Box::new(Err(fixtures::drive::service_error(401, refused))))
    });
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(text.contains("outpost check"), "{text}");
    assert!(!text.contains("retries"), "{text}");
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
            Err(outpost::testkit::app::fixtures::drive::service_error(
                503, "{}",
            ))
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

#[test]
fn a_wide_roster_shows_long_emails_whole() {
    let mut m = opened(200, 50, 0);
    press(&mut m, KeyCode::Char('l'));
    let long = "anastasia.konstantinopoulou-smythe@brightlabs-enterprise.com";
    if let Some(o) = m.panes.campaigns.open.as_mut()
        && let Some(page) = o.roster.window.pages.get_mut(&0)
    {
        page[0].email = long.into();
    }
    let text = snap(&m, 200, 50);
    assert!(text.contains(long), "{text}");
}

#[test]
fn a_roster_of_one_says_one_lead() {
    let mut m = opened(100, 30, 0);
    press(&mut m, KeyCode::Char('l'));
    if let Some(o) = m.panes.campaigns.open.as_mut() {
        o.roster.window.total = Some(1);
    }
    let text = snap(&m, 100, 30);
    assert!(text.contains("Roster · 1 lead "), "{text}");
}

fn row(line: u64, fields: &[&str]) -> CsvRow {
    CsvRow {
        line,
        byte: line * 100,
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
        // On its way: the bar says how much of the file went in, in sizes
        // people read.
        let text = snap(&m, w, h);
        assert!(
            text.contains("0 B of 400 B sent · 0%") && text.contains("sending rows 2–"),
            "{text}"
        );
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

/// A write's answer lost behind a gateway (the service ran it).
fn lost_answer(status: u16) -> outpost::testkit::api::ApiError {
    let mut e = outpost::testkit::api::ServiceError::from_body(
        status,
        br#"{"error":{"code":"bad_gateway","message":"upstream answer lost"}}"#,
        None,
    );
    e.may_have_reached = true;
    outpost::testkit::api::ApiError::Service(Box::new(e))
}

/// The screen with its notices (the toasts on it).
fn with_toasts(m: &Model, w: u16, h: u16) -> String {
    let log: Vec<String> = m
        .toasts
        .items()
        .iter()
        .map(|t| format!("{}: {}", t.title, t.text))
        .collect();
    format!("{}\n{}", snap(m, w, h), log.join("\n"))
}

#[test]
fn a_lost_resume_never_says_r_retries_and_its_key_waits_for_the_check() {
    // "Platform eng — EU" is paused.
    let mut m = opened(100, 30, 3);
    press(&mut m, KeyCode::Char('R'));
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
    );
    deliver(&mut m, cmds, || {
        ApiReply::Campaign(Box::new(Err(lost_answer(502))))
    });
    let text = with_toasts(&m, 100, 30);
    assert!(text.contains("Resume: answer lost"), "{text}");
    assert!(text.contains("resume lost: checking"), "{text}");
    assert!(!text.contains("retries"), "r only reads: {text}");
    // The resume key while the check runs: refused, nothing asked or sent.
    m.toasts.clear();
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('R'), KeyModifiers::NONE)),
    );
    assert!(
        !cmds.iter().any(|c| matches!(c, Cmd::Api { .. })),
        "{cmds:?}"
    );
    let text = with_toasts(&m, 100, 30);
    assert!(text.contains("Cannot resume now"), "{text}");
    assert!(!text.contains("Resume campaign?"), "{text}");
}

/// The open active campaign's watch read fails once.
fn watch_failed(m: &mut Model) {
    let watch = SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch("c-3".into())));
    let cmds = update(m, Msg::SubFired(watch));
    deliver(m, cmds, || {
        ApiReply::Campaign(Box::new(Err(fixtures::drive::service_error(500, "{}"))))
    });
    m.toasts.clear();
}

#[test]
fn a_failed_watch_says_when_it_really_reads_again() {
    let mut m = opened(100, 30, 2);
    m.clock += 120;
    watch_failed(&mut m);
    let text = snap(&m, 100, 30);
    // The watch now reads every 4s (slowed down from 2s after the
    // failure): the detail says that, not "retrying" nor the normal period.
    assert_eq!(m.poll.campaign, Duration::from_secs(2));
    assert!(text.contains("● active · retrying in 4 s"), "{text}");
    assert!(
        text.contains("reply rate 10.0% · retrying in 4 s"),
        "{text}"
    );
    assert!(!text.contains("live"), "{text}");
    // It counts down to the read its subscription really makes.
    m.clock += 3;
    let text = snap(&m, 100, 30);
    assert!(text.contains("● active · retrying in 1 s"), "{text}");
}

#[test]
fn a_campaign_never_read_whole_does_not_say_loading_when_nothing_loads() {
    let mut m = listed(100, 30);
    // The list's rows carry no sequence; the campaign's own read fails.
    for c in &mut m.panes.campaigns.list.rows {
        c.sequence_nodes = None;
    }
    for _ in 0..3 {
        press(&mut m, KeyCode::Char('j'));
    }
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
    );
    deliver(&mut m, cmds, || {
        ApiReply::Campaign(Box::new(Err(fixtures::drive::service_error(500, "{}"))))
    });
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(!text.contains("loading"), "nothing is on its way: {text}");
    assert!(
        text.contains("not read (internal_error) — r reads it"),
        "{text}"
    );
    assert!(!text.contains("retrying"), "no poll runs for it: {text}");
}

#[test]
fn offline_the_detail_says_the_age_of_its_last_read_and_is_not_live() {
    let mut m = opened(100, 30, 2);
    let text = snap(&m, 100, 30);
    assert!(text.contains("● active · live"), "{text}");
    m.clock += 300;
    crate::support::offline(&mut m);
    // The watch's read cannot connect: the detail says when it reads
    // again, never "live".
    let watch = SubId::Pane(PaneSub::Campaigns(CampaignsSub::Watch("c-3".into())));
    let cmds = update(&mut m, Msg::SubFired(watch));
    deliver(&mut m, cmds, || {
        ApiReply::Campaign(Box::new(Err(outpost::testkit::api::ApiError::Connect {
            host: "127.0.0.1".into(),
            detail: "connection refused".into(),
        })))
    });
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(text.contains("● active · retrying in 4 s"), "{text}");
    assert!(!text.contains("live"), "{text}");
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::NONE)),
    );
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(with_toasts(&m, 100, 30).contains("Cannot pause now"));
}

#[test]
fn a_pause_reply_that_leaves_counters_out_marks_them_until_read_again() {
    let mut m = opened(100, 30, 2);
    press(&mut m, KeyCode::Char('p'));
    let cmds = update(
        &mut m,
        Msg::Key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)),
    );
    let mut paused = campaigns()
        .into_iter()
        .find(|c| c.id == "c-3")
        .expect("the active campaign");
    paused.status = CampaignStatus::Paused;
    paused.stats.sent += 5;
    paused.stats.contacted = None;
    paused.stats.connections_accepted = None;
    paused.sequence_nodes = None;
    let mut reread = Vec::new();
    for cmd in cmds {
        if let Cmd::Api { id, .. } = cmd {
            reread.extend(update(
                &mut m,
                Msg::Api {
                    id,
                    latency: Duration::from_millis(42),
                    reply: Box::new(ApiReply::Campaign(Box::new(Ok(paused.clone())))),
                },
            ));
        }
    }
    m.toasts.clear();
    let text = snap(&m, 100, 30);
    assert!(
        text.contains("~ from before the change · reading it again…"),
        "{text}"
    );
    let contacted = text
        .lines()
        .find(|l| l.contains("contacted"))
        .unwrap_or_default();
    assert!(contacted.contains('~'), "{contacted}");
    // The campaign read whole again: the marks go.
    settle(&mut m, reread);
    let text = snap(&m, 100, 30);
    assert!(!text.contains("~ from before"), "{text}");
}

/// A sequence edited and closed unsaved is kept locally; the overview says
/// so beside the saved steps it shows, and which key opens the kept edit.
#[test]
fn a_sequence_kept_locally_is_shown_on_the_overview() {
    let (w, h) = (120, 40);
    let mut m = opened(w, h, 0);
    assert!(!snap(&m, w, h).contains("kept locally"));
    press(&mut m, KeyCode::Char('s'));
    press(&mut m, KeyCode::End);
    typed(&mut m, "!");
    press(&mut m, KeyCode::Esc);
    let text = snap(&m, w, h);
    assert!(
        text.contains("kept locally, not saved — s opens it"),
        "{text}"
    );
}

/// No editor is 1–3 rows tall at 80x24 or 100x20, and a body keeps at
/// least 5 rows at 80x24: the sequence editor's body and the generated
/// message's.
#[test]
fn the_editors_keep_room_to_write() {
    for (w, h) in [(80, 24), (100, 20)] {
        let want = if h >= 24 { 5 } else { 4 };
        let mut m = opened(w, h, 0);
        press(&mut m, KeyCode::Char('s'));
        let text = snap(&m, w, h);
        let rows = crate::support::rows_under(&text, "Body (soft wrap)");
        assert!(
            rows >= Some(want),
            "sequence body at {w}x{h}: {rows:?}\n{text}"
        );
        assert_snapshot!(format!("sequence_editor_rows_{w}x{h}"), text);

        let mut m = opened(w, h, 2);
        press(&mut m, KeyCode::Char('h'));
        press(&mut m, KeyCode::Char('e'));
        let text = snap(&m, w, h);
        assert!(text.contains("Edit generated message"), "{text}");
        let rows = crate::support::rows_between(&text, "  Body", "the text the lead receives");
        assert!(
            rows >= Some(want),
            "message body at {w}x{h}: {rows:?}\n{text}"
        );
        assert_snapshot!(format!("message_editor_rows_{w}x{h}"), text);
    }
}
