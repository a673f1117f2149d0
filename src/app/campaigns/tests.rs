//! Behaviour of the Campaigns pane as a user meets it: every row of the
//! contract's campaign state table, the create form, the CSV import, the
//! roster's paging, the sequence editor and the generated messages.

use crossterm::event::KeyCode;

use super::import::{self, Stage};
use super::*;
use crate::api::model::*;
use crate::app::fixtures::drive::and_queued;
use crate::app::fixtures::{self, drive};
use crate::app::{ApiReply, ApiRequest, Cmd, Model, Msg, Overlay, update};
use crate::logic::import::{CsvChunk, CsvPos, CsvRow};

/// A model on the Campaigns pane with `list` loaded from the list route.
pub(super) fn with_list(list: &[Campaign]) -> Model {
    let mut m = fixtures::model(100, 30);
    let cmds = drive::key(&mut m, KeyCode::Char('2'));
    assert_eq!(m.pane, Pane::Campaigns);
    answer(&mut m, cmds, |r| match r {
        ApiRequest::ListCampaigns => Some(ApiReply::Campaigns(Ok(Some(list.to_vec())))),
        _ => None,
    });
    m
}

/// Runs `f` on the pane's own state and its context, as the pane's entry
/// points do (the commands it queued come with `and_queued`).
pub(super) fn on_pane<R>(
    m: &mut Model,
    f: impl FnOnce(&mut CampaignsModel, &mut crate::app::ctx::Ctx<'_>) -> R,
) -> R {
    let (c, mut cx) = m.split::<CampaignsModel>();
    f(c, &mut cx)
}

/// Answers the requests among `cmds` that `f` knows; returns the rest and
/// what the answers asked for.
pub(super) fn answer(
    m: &mut Model,
    cmds: Vec<Cmd>,
    f: impl Fn(&ApiRequest) -> Option<ApiReply>,
) -> Vec<Cmd> {
    let mut out = Vec::new();
    for cmd in cmds {
        match &cmd {
            Cmd::Api { id, req } => match f(req) {
                Some(reply) => out.extend(drive::reply(m, *id, reply)),
                None => out.push(cmd),
            },
            _ => out.push(cmd),
        }
    }
    out
}

pub(super) fn requests(cmds: &[Cmd]) -> Vec<ApiRequest> {
    drive::api(cmds).into_iter().map(|(_, r)| r).collect()
}

pub(super) fn toasts(m: &Model) -> String {
    m.toasts
        .items()
        .iter()
        .map(|t| format!("{}: {}", t.title, t.text))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn campaign_reply(c: &Campaign) -> ApiReply {
    ApiReply::Campaign(Box::new(Ok(c.clone())))
}

/// A model with `c` open on its overview.
pub(super) fn opened(c: &Campaign) -> Model {
    let mut m = with_list(std::slice::from_ref(c));
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let rest = answer(&mut m, cmds, |r| match r {
        ApiRequest::GetCampaign { .. } => Some(campaign_reply(c)),
        _ => None,
    });
    assert!(requests(&rest).is_empty(), "{rest:?}");
    assert_eq!(m.panes.campaigns.view, View::Detail);
    m
}

pub(super) fn status_campaign(status: CampaignStatus) -> Campaign {
    fixtures::campaign_detail("c-1", "EU RevOps", Channel::Email, status, 120)
}

pub(super) fn confirm_title(m: &Model) -> Option<String> {
    match &m.overlay {
        Some(Overlay::Confirm(c)) => Some(format!("{} {}", c.title, c.lines.join(" "))),
        _ => None,
    }
}

pub(super) fn service_error(status: u16, body: &str) -> crate::api::ApiError {
    drive::service_error(status, body)
}

// ------------------------------------------------------------ state table

#[test]
fn draft_launch_with_pending_leads_asks_naming_them_then_launches() {
    let mut c = status_campaign(CampaignStatus::Draft);
    // The one ready sender: the preflight finds nothing to say.
    c.sender_accounts = c
        .sender_accounts
        .map(|s| s.into_iter().filter(|s| s.status == "connected").collect());
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::GetCampaign { id }] if id == "c-1"),
        "the launch preflight reads the campaign first: {cmds:?}"
    );
    let cmds = answer(&mut m, cmds, |_| Some(campaign_reply(&c)));
    let reqs = requests(&cmds);
    assert!(
        matches!(&reqs[..], [ApiRequest::ListLeads { query, .. }] if query.status.as_deref() == Some("pending")),
        "then its pending leads: {reqs:?}"
    );
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Roster(Ok(RosterPage {
            prospects: (0..118)
                .map(|i| fixtures::campaign_lead("c-1", i, LeadStatus::Pending))
                .collect(),
            total: 118,
            page: 1,
            limit: 200,
        })))
    });
    let q = confirm_title(&m).expect("a question");
    assert!(q.contains("118 pending leads"), "{q}");
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert!(matches!(&requests(&cmds)[..], [ApiRequest::LaunchCampaign { id }] if id == "c-1"));
    let mut launched = c.clone();
    launched.status = CampaignStatus::Launching;
    answer(&mut m, cmds, |_| Some(campaign_reply(&launched)));
    assert_eq!(
        m.panes.campaigns.open_status(),
        Some(&CampaignStatus::Launching)
    );
}

#[test]
fn draft_launch_without_pending_leads_is_not_sent_and_says_no_leads() {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    let cmds = drive::key(&mut m, KeyCode::Char('L'));
    let cmds = answer(&mut m, cmds, |_| Some(campaign_reply(&c)));
    let rest = answer(&mut m, cmds, |_| {
        Some(ApiReply::Roster(Ok(RosterPage::default())))
    });
    assert!(rest.is_empty(), "nothing is launched: {rest:?}");
    assert!(m.overlay.is_none(), "no question");
    let Some(Dialog::Preflight(d)) = &m.panes.campaigns.dialog else {
        panic!("the preflight lists what it found");
    };
    assert!(
        d.report
            .errors
            .iter()
            .any(|f| f.text.starts_with("No pending lead")),
        "{:?}",
        d.report
    );
}

#[test]
fn the_services_no_leads_answer_is_shown_plainly_and_the_campaign_read_again() {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| detail::launch(c, cx, "c-1")),
        &mut m,
    );
    let cmds = answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(service_error(
            400,
            r#"{"error":"No leads in campaign"}"#,
        )))))
    });
    assert!(
        toasts(&m).contains("No leads in campaign"),
        "{}",
        toasts(&m)
    );
    assert!(matches!(
        &requests(&cmds)[..],
        [ApiRequest::GetCampaign { .. }]
    ));
    assert_eq!(
        m.panes.campaigns.open_status(),
        Some(&CampaignStatus::Draft)
    );
}

#[test]
fn active_pause_asks_then_pauses_keeping_the_counters_the_answer_omits() {
    let c = status_campaign(CampaignStatus::Active);
    let mut m = opened(&c);
    drive::key(&mut m, KeyCode::Char('p'));
    assert!(confirm_title(&m).is_some_and(|q| q.contains("stops sending")));
    let cmds = drive::key(&mut m, KeyCode::Enter);
    assert!(matches!(
        &requests(&cmds)[..],
        [ApiRequest::PauseCampaign { .. }]
    ));
    let mut paused = c.clone();
    paused.status = CampaignStatus::Paused;
    paused.stats.contacted = None;
    paused.stats.connections_accepted = None;
    paused.sequence_nodes = None;
    answer(&mut m, cmds, |_| Some(campaign_reply(&paused)));
    let o = m.panes.campaigns.open.as_ref().unwrap();
    assert_eq!(o.campaign.status, CampaignStatus::Paused);
    assert_eq!(o.campaign.stats.contacted, c.stats.contacted);
    assert!(o.campaign.sequence_nodes.is_some());
}

#[test]
fn pause_is_refused_with_its_reason_in_every_other_status() {
    for status in [
        CampaignStatus::Draft,
        CampaignStatus::Launching,
        CampaignStatus::Paused,
        CampaignStatus::Completed,
    ] {
        let mut m = opened(&status_campaign(status.clone()));
        let hints = crate::app::hints(&m);
        assert!(
            hints.contains(&(crate::app::keymap::Action::Pause, "pause ✗ active only")),
            "{status}: {hints:?}"
        );
        let cmds = drive::key(&mut m, KeyCode::Char('p'));
        assert!(cmds.is_empty() && m.overlay.is_none(), "{status}");
        assert!(
            toasts(&m).contains(&format!(
                "only active campaigns can be paused (this campaign is {status})"
            )),
            "{}",
            toasts(&m)
        );
    }
}

#[test]
fn a_second_pause_refused_by_the_service_is_shown_as_it_says() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    let cmds = and_queued(on_pane(&mut m, |c, cx| detail::pause(c, cx, "c-1")), &mut m);
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(service_error(
            400,
            r#"{"error":"Only active campaigns can be paused"}"#,
        )))))
    });
    assert!(toasts(&m).contains("Only active campaigns can be paused"));
}

#[test]
fn paused_resume_asks_then_resumes() {
    let c = status_campaign(CampaignStatus::Paused);
    let mut m = opened(&c);
    drive::key(&mut m, KeyCode::Char('R'));
    assert!(confirm_title(&m).is_some_and(|q| q.contains("Resume")));
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert!(matches!(
        &requests(&cmds)[..],
        [ApiRequest::ResumeCampaign { .. }]
    ));
    let mut active = c.clone();
    active.status = CampaignStatus::Active;
    answer(&mut m, cmds, |_| Some(campaign_reply(&active)));
    assert_eq!(
        m.panes.campaigns.open_status(),
        Some(&CampaignStatus::Active)
    );
    // Resume and launch do not apply to an active campaign.
    for key in ['R', 'L'] {
        assert!(drive::key(&mut m, KeyCode::Char(key)).is_empty());
    }
}

/// Opens the roster tab with a first page of `total` leads.
pub(super) fn roster_open(m: &mut Model, total: u64) {
    let cmds = drive::key(m, KeyCode::Char('l'));
    answer(m, cmds, |r| match r {
        ApiRequest::ListLeads { id, query } => Some(ApiReply::Roster(Ok(fixtures::roster_page(
            id,
            total,
            query.page.unwrap_or(1) - 1,
            query.limit.unwrap_or(50),
        )))),
        _ => None,
    });
}

#[test]
fn draft_roster_changes_are_offered() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Char('e'));
    assert!(matches!(
        m.panes.campaigns.dialog,
        Some(Dialog::EditLead(_))
    ));
    drive::key(&mut m, KeyCode::Esc);
    drive::key(&mut m, KeyCode::Char('d'));
    assert!(confirm_title(&m).is_some_and(|q| q.contains("1 lead leaves")));
    m.overlay = None;
    drive::key(&mut m, KeyCode::Char('D'));
    assert!(confirm_title(&m).is_some_and(|q| q.contains("All 120 leads")));
    m.overlay = None;
    drive::key(&mut m, KeyCode::Char('i'));
    assert!(matches!(m.panes.campaigns.dialog, Some(Dialog::Import(_))));
}

#[test]
fn a_launched_roster_is_frozen_with_the_reason_and_nothing_is_sent() {
    for status in [
        CampaignStatus::Launching,
        CampaignStatus::Active,
        CampaignStatus::Paused,
        CampaignStatus::Completed,
    ] {
        let mut m = opened(&status_campaign(status.clone()));
        roster_open(&mut m, 12);
        let hints = crate::app::hints(&m);
        assert!(
            hints.contains(&(crate::app::keymap::Action::EditItem, "edit ✗ roster frozen")),
            "{hints:?}"
        );
        for key in ['e', 'd', 'D', 'i'] {
            m.toasts.clear();
            let cmds = drive::key(&mut m, KeyCode::Char(key));
            assert!(cmds.is_empty(), "{status} {key}");
            assert!(m.overlay.is_none() && m.panes.campaigns.dialog.is_none());
            assert!(
                toasts(&m).contains("the roster is frozen")
                    && toasts(&m).contains(&format!("(it is {status})")),
                "{status} {key}: {}",
                toasts(&m)
            );
        }
    }
}

#[test]
fn an_edit_refused_by_the_service_after_launch_shows_its_reason_on_the_form() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Char('e'));
    drive::key(&mut m, KeyCode::Tab);
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "x");
    let cmds = drive::ctrl(&mut m, 's');
    let sent = requests(&cmds);
    assert!(
        matches!(&sent[..], [ApiRequest::EditLead { edit, .. }] if edit.fields.first_name.as_deref() == Some("Anax")),
        "{sent:?}"
    );
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Lead(Box::new(Err(service_error(
            400,
            r#"{"error":"Leads can only be changed while the campaign is a draft (it is active); the roster is frozen"}"#,
        )))))
    });
    let Some(Dialog::EditLead(d)) = &m.panes.campaigns.dialog else {
        panic!("the form stays open with what was typed");
    };
    assert!(
        d.form
            .note
            .as_deref()
            .is_some_and(|n| n.contains("the roster is frozen"))
    );
    assert_eq!(d.form.value("first_name"), "Anax");
}

// ------------------------------------------------------------ watch

#[test]
fn a_sending_campaign_is_watched_only_while_shown() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    let subs = crate::app::subscriptions(&m);
    assert!(subs.iter().any(|s| matches!(
        &s.id,
        crate::app::SubId::Pane(crate::app::PaneSub::Campaigns(CampaignsSub::Watch(id))) if id == "c-1"
    )));
    drive::key(&mut m, KeyCode::Char('1'));
    assert!(!crate::app::subscriptions(&m).iter().any(|s| matches!(
        s.id,
        crate::app::SubId::Pane(crate::app::PaneSub::Campaigns(_))
    )));
    let m = opened(&status_campaign(CampaignStatus::Paused));
    assert!(!crate::app::subscriptions(&m).iter().any(|s| matches!(
        s.id,
        crate::app::SubId::Pane(crate::app::PaneSub::Campaigns(_))
    )));
}

// ------------------------------------------------------------ list

#[test]
fn without_the_list_route_the_local_registry_is_read_one_by_one() {
    let mut m = fixtures::model(100, 30);
    m.state.remember_campaign("c-7", "Pasted", "pasted");
    m.state.remember_campaign("c-8", "", "created");
    let cmds = drive::key(&mut m, KeyCode::Char('2'));
    let cmds = answer(&mut m, cmds, |_| Some(ApiReply::Campaigns(Ok(None))));
    let gets = requests(&cmds);
    assert_eq!(
        gets,
        vec![
            ApiRequest::GetCampaign { id: "c-7".into() },
            ApiRequest::GetCampaign { id: "c-8".into() }
        ]
    );
    answer(&mut m, cmds, |r| match r {
        ApiRequest::GetCampaign { id } if id == "c-7" => Some(campaign_reply(&fixtures::campaign(
            "c-7",
            "Pasted",
            Channel::Email,
            CampaignStatus::Draft,
            3,
        ))),
        _ => Some(ApiReply::Campaign(Box::new(Err(service_error(
            404,
            r#"{"error":{"code":"not_found","message":"Campaign not found"}}"#,
        ))))),
    });
    let l = &m.panes.campaigns.list;
    assert!(l.registry);
    assert_eq!(l.rows.len(), 1);
    assert!(l.missing.contains_key("c-8"));
}

#[test]
fn the_list_is_newest_first_and_slash_filters_as_you_type() {
    let mut m = with_list(&fixtures::campaigns());
    let names: Vec<&str> = m
        .panes
        .campaigns
        .list
        .rows
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names.len(), 3);
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "net");
    assert_eq!(
        m.panes.campaigns.list.visible().len(),
        1,
        "type or name matches"
    );
    drive::key(&mut m, KeyCode::Enter);
    assert_eq!(m.panes.campaigns.list.needle.text, "net");
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "zzz");
    drive::key(&mut m, KeyCode::Esc);
    assert_eq!(
        m.panes.campaigns.list.needle.text, "net",
        "Esc puts back the filter before"
    );
}

/// A campaign id as copied from the web dashboard (a UUID).
const PASTED: &str = "7dfa1b2c-5d4a-4e7b-9c1d-2a6f0e9b7c35";

#[test]
fn open_campaign_by_an_unknown_id_reads_it_and_remembers_it_on_200() {
    let mut m = with_list(&[]);
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            on_command(c, cx, "open campaign", Some(PASTED.into()))
        }),
        &mut m,
    );
    assert!(
        m.state.known_campaigns.is_empty(),
        "nothing kept before the service answers"
    );
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
    assert!(requests(&cmds).contains(&ApiRequest::GetCampaign { id: PASTED.into() }));
    assert_eq!(m.panes.campaigns.view, View::Detail);
    // `:pause` then acts on it, once it is read.
    let c = fixtures::campaign_detail(PASTED, "Pasted", Channel::Email, CampaignStatus::Active, 9);
    answer(&mut m, cmds, |_| Some(campaign_reply(&c)));
    assert!(
        m.state
            .known_campaigns
            .iter()
            .any(|k| k.id == PASTED && k.source == "pasted" && k.label == "Pasted"),
        "{:?}",
        m.state.known_campaigns
    );
    on_pane(&mut m, |c, cx| on_command(c, cx, "pause", None));
    assert!(confirm_title(&m).is_some_and(|q| q.contains("Pasted")));
}

#[test]
fn open_campaign_by_an_id_the_service_refuses_keeps_nothing() {
    let mut m = with_list(&[]);
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            on_command(c, cx, "open campaign", Some(PASTED.into()))
        }),
        &mut m,
    );
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(service_error(
            404,
            r#"{"error":{"code":"not_found","message":"gone"}}"#,
        )))))
    });
    assert!(
        m.state.known_campaigns.is_empty(),
        "{:?}",
        m.state.known_campaigns
    );
    assert!(m.panes.campaigns.unconfirmed.is_none());
}

/// `:open campaign WHAT` on the listed campaigns: the model and what it
/// sent.
fn open_campaign(what: &str) -> (Model, Vec<ApiRequest>) {
    let mut list = fixtures::campaigns();
    list[0].id = PASTED.into();
    let mut m = with_list(&list);
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            on_command(c, cx, "open campaign", Some(what.into()))
        }),
        &mut m,
    );
    (m, requests(&cmds))
}

#[test]
fn open_campaign_resolves_an_id_a_prefix_a_name_and_a_part_of_one() {
    for (what, id) in [
        (PASTED, PASTED),
        ("c-3", "c-3"),
        ("7DFA1b", PASTED),
        ("EU RevOps — network", "c-2"),
        ("founders", "c-3"),
    ] {
        let (m, sent) = open_campaign(what);
        assert_eq!(m.panes.campaigns.open_id(), Some(id), "{what}");
        assert!(
            sent.contains(&ApiRequest::GetCampaign { id: id.into() }),
            "{what}: {sent:?}"
        );
    }
}

#[test]
fn open_campaign_refuses_the_ambiguous_and_the_nonsense_before_any_request() {
    for (what, says) in [
        (
            "revops",
            "\"revops\" matches 2 campaigns by part of a name: \"EU RevOps — email\" (7dfa1b2c-5d4a-4e7b-9c1d-2a6f0e9b7c35), \"EU RevOps — network\" (c-2)",
        ),
        ("nonsense", "no campaign matches \"nonsense\""),
        ("DACH", "no campaign matches \"DACH\""),
        ("7df", "no campaign matches"),
    ] {
        let (m, sent) = open_campaign(what);
        assert!(sent.is_empty(), "{what}: nothing sent: {sent:?}");
        assert_eq!(m.panes.campaigns.view, View::List, "{what}");
        assert!(m.state.known_campaigns.is_empty(), "{what}: nothing kept");
        let t = toasts(&m);
        assert!(t.contains(says), "{what}: {t}");
    }
}

// ------------------------------------------------------------ create

pub(super) fn create_open(m: &mut Model) {
    let cmds = drive::key(m, KeyCode::Char('n'));
    answer(m, cmds, |r| match r {
        ApiRequest::ListSenders => Some(ApiReply::Senders(Ok(fixtures::senders()))),
        _ => None,
    });
}

pub(super) fn form_keys(m: &Model) -> Vec<&'static str> {
    m.panes
        .campaigns
        .create
        .as_ref()
        .unwrap()
        .form
        .fields
        .iter()
        .map(|f| f.key)
        .collect()
}

#[test]
fn create_asks_the_type_first_then_only_that_channels_settings() {
    let mut m = with_list(&[]);
    create_open(&mut m);
    let f = m.panes.campaigns.create.as_ref().unwrap();
    assert_eq!(f.form.fields[f.form.focus].key, "type");
    let keys = form_keys(&m);
    assert!(
        keys.contains(&"daily_limit") && !keys.contains(&"hours_start"),
        "{keys:?}"
    );
    drive::key(&mut m, KeyCode::Right);
    let keys = form_keys(&m);
    assert!(
        keys.contains(&"hours_start") && !keys.contains(&"daily_limit"),
        "{keys:?}"
    );
    let f = m.panes.campaigns.create.as_ref().unwrap();
    assert_eq!(f.sender_ids, ["s-3"], "network senders only");
}

#[test]
fn create_without_a_ready_sender_says_so_and_sends_nothing() {
    let mut m = with_list(&[]);
    let cmds = drive::key(&mut m, KeyCode::Char('n'));
    let mut senders = fixtures::senders();
    senders.retain(|s| s.kind == Channel::Network || s.status != "connected");
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Senders(Ok(senders.clone())))
    });
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "Q4");
    let cmds = drive::ctrl(&mut m, 's');
    assert!(requests(&cmds).is_empty());
    let f = m.panes.campaigns.create.as_ref().unwrap();
    let senders_field = f.form.fields.iter().find(|x| x.key == "senders").unwrap();
    assert!(
        senders_field
            .error
            .as_deref()
            .is_some_and(|e| e.contains("no ready email sender")),
        "{:?}",
        senders_field.error
    );
}

#[test]
fn create_shows_the_duplicate_name_and_the_wrong_sender_on_their_fields() {
    let mut m = with_list(&[]);
    create_open(&mut m);
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "EU RevOps");
    let cmds = drive::ctrl(&mut m, 's');
    let reqs = requests(&cmds);
    let [ApiRequest::CreateCampaign(req)] = &reqs[..] else {
        panic!("{reqs:?}");
    };
    assert_eq!(
        (
            req.kind.clone(),
            req.name.as_str(),
            req.sender_account_ids.clone(),
            req.daily_limit
        ),
        (
            Channel::Email,
            "EU RevOps",
            vec!["s-1".to_owned()],
            Some(50)
        )
    );
    assert!(req.operating_hours.is_none());
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(service_error(
            409,
            r#"{"error":{"code":"conflict","message":"A campaign named \"EU RevOps\" already exists"}}"#,
        )))))
    });
    let error_of = |m: &Model, key: &str| {
        let f = m.panes.campaigns.create.as_ref().unwrap();
        f.form
            .fields
            .iter()
            .find(|x| x.key == key)
            .and_then(|x| x.error.clone())
    };
    assert!(error_of(&m, "name").is_some_and(|e| e.contains("already exists")));
    let cmds = drive::ctrl(&mut m, 's');
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaign(Box::new(Err(service_error(
            400,
            r#"{"error":{"code":"invalid_request","message":"sender_account_ids[0]: is a network sender; a email campaign needs email senders"}}"#,
        )))))
    });
    assert!(error_of(&m, "senders").is_some_and(|e| e.contains("network sender")));
    assert!(error_of(&m, "name").is_none());
}

#[test]
fn a_created_campaign_opens_and_is_remembered() {
    let mut m = with_list(&[]);
    create_open(&mut m);
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "Fresh");
    assert!(m.panes.campaigns.create.as_ref().unwrap().form.is_dirty());
    assert_eq!(
        crate::app::dispatch::unsent(&m).as_deref(),
        Some("the new-campaign form")
    );
    let cmds = drive::ctrl(&mut m, 's');
    let made =
        fixtures::campaign_detail("c-new", "Fresh", Channel::Email, CampaignStatus::Draft, 0);
    let cmds = answer(&mut m, cmds, |_| Some(campaign_reply(&made)));
    assert!(
        m.state
            .known_campaigns
            .iter()
            .any(|k| k.id == "c-new" && k.source == "created")
    );
    assert_eq!(m.panes.campaigns.view, View::Detail);
    assert_eq!(m.panes.campaigns.open_id(), Some("c-new"));
    assert!(cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
}

#[test]
fn the_leads_pane_gets_the_campaign_it_asked_for() {
    let mut m = fixtures::model(100, 30);
    m.pane = Pane::Leads;
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            create::open_for_leads(c, cx, Some(Channel::Network))
        }),
        &mut m,
    );
    assert_eq!(m.pane, Pane::Campaigns);
    let f = m.panes.campaigns.create.as_ref().unwrap();
    assert_eq!(f.kind, Channel::Network);
    answer(&mut m, cmds, |r| match r {
        ApiRequest::ListSenders => Some(ApiReply::Senders(Ok(fixtures::senders()))),
        _ => None,
    });
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "From leads");
    let cmds = drive::ctrl(&mut m, 's');
    let made = fixtures::campaign(
        "c-9",
        "From leads",
        Channel::Network,
        CampaignStatus::Draft,
        0,
    );
    answer(&mut m, cmds, |r| match r {
        ApiRequest::CreateCampaign(_) => Some(campaign_reply(&made)),
        _ => None,
    });
    assert_eq!(m.pane, Pane::Leads, "back where it was asked");
    // The Leads pane was handed it as it was shown (its picker adds to it:
    // see the Leads tests).
    assert!(m.state.known_campaigns.iter().any(|k| k.id == "c-9"));
}

// ------------------------------------------------------------ import

pub(super) fn row(line: u64, fields: &[&str]) -> CsvRow {
    CsvRow {
        line,
        byte: line * 100,
        fields: Ok(fields.iter().map(|s| (*s).to_owned()).collect()),
    }
}

/// A model with the import dialog of a draft email campaign at the given
/// stage of `first`.
pub(super) fn importing(first: CsvChunk) -> (Model, Vec<Cmd>) {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            import::open(c, cx, Some("leads.csv".into()))
        }),
        &mut m,
    );
    let Some(Cmd::ReadCsv { id, read }) = cmds.first() else {
        panic!("{cmds:?}");
    };
    assert_eq!(
        (read.start, read.header, read.max_rows),
        (CsvPos::START, true, 1000)
    );
    let cmds = file_answers(&mut m, *id, Ok(first));
    (m, cmds)
}

pub(super) fn dialog(m: &Model) -> &import::Import {
    match &m.panes.campaigns.dialog {
        Some(Dialog::Import(d)) => d,
        other => panic!("{other:?}"),
    }
}

pub(super) fn header() -> Option<Vec<String>> {
    Some(vec!["Email".into(), "Name".into(), "Tier".into()])
}

#[test]
fn the_preview_marks_rows_without_an_email_and_duplicates() {
    let (mut m, _) = importing(CsvChunk {
        header: header(),
        rows: vec![
            row(2, &["a@x.io", "Ann", "gold"]),
            row(3, &["", "Bo", ""]),
            row(4, &["A@X.IO ", "Ann again"]),
            row(5, &["not-an-email", "Cy"]),
            CsvRow {
                line: 6,
                byte: 600,
                fields: Err("field 2 is not UTF-8 text".into()),
            },
        ],
        eof: true,
        ..CsvChunk::default()
    });
    assert_eq!(dialog(&m).stage, Stage::Mapping);
    drive::ctrl(&mut m, 's');
    let d = dialog(&m);
    assert_eq!(d.stage, Stage::Preview);
    let verdicts: Vec<String> = d
        .preview
        .iter()
        .map(|r| format!("{}:{:?}", r.line, r.verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            "2:Import",
            "3:LeftOut(\"no email\")",
            "4:Duplicate",
            "5:LeftOut(\"not a valid email: not-an-email\")",
            "6:LeftOut(\"field 2 is not UTF-8 text\")"
        ]
    );
    assert_eq!(
        d.preview[0]
            .lead
            .custom_fields
            .as_ref()
            .and_then(|c| c.get("tier")),
        Some(&serde_json::Value::String("gold".into()))
    );
}

/// Sends the chunk leads from `cmds` to a fake service that takes every
/// lead except those whose email is in `roster`.
pub(super) fn service(m: &mut Model, cmds: Vec<Cmd>, roster: &[&str]) -> Vec<Cmd> {
    answer(m, cmds, |r| match r {
        ApiRequest::AddLeads { leads, .. } => {
            let mut out = AddLeadsResponse::default();
            for (i, l) in leads.iter().enumerate() {
                if roster.contains(&l.email.as_deref().unwrap_or_default()) {
                    out.duplicates += 1;
                    out.duplicate_rows.push(DuplicateRow {
                        index: i as u64,
                        reason: "roster".into(),
                    });
                } else {
                    out.imported += 1;
                }
            }
            Some(ApiReply::LeadsAdded(Ok(out)))
        }
        _ => None,
    })
}

/// The import of [`first_chunk`] past its mapping and preview: the first
/// chunk is on its way (`cmds`) and the next one is being read (`read`,
/// asked as `id`).
fn uploading_first() -> (
    Model,
    Vec<Cmd>,
    crate::app::RequestId,
    crate::logic::import::CsvRead,
) {
    let (mut m, _) = importing(first_chunk());
    drive::ctrl(&mut m, 's');
    let cmds = drive::ctrl(&mut m, 's');
    let (id, read) = read_of(&cmds);
    (m, cmds, id, read)
}

/// Answers the upload in `cmds` with a 500: the import stops.
fn upload_fails(m: &mut Model, cmds: Vec<Cmd>) {
    answer(m, cmds, |_| {
        Some(ApiReply::LeadsAdded(Err(service_error(
            500,
            r#"{"error":{"code":"internal","message":"boom"}}"#,
        ))))
    });
    assert_eq!(dialog(m).stage, Stage::Failed);
}

/// The file's answer to the read `id`.
pub(super) fn file_answers(
    m: &mut Model,
    id: crate::app::RequestId,
    result: Result<CsvChunk, String>,
) -> Vec<Cmd> {
    update(m, Msg::CsvRead { id, result })
}

/// Whether `cmds` send leads to the service.
fn sends_leads(cmds: &[Cmd]) -> bool {
    requests(cmds)
        .iter()
        .any(|r| matches!(r, ApiRequest::AddLeads { .. }))
}

/// The read asked for among `cmds`.
pub(super) fn read_of(cmds: &[Cmd]) -> (crate::app::RequestId, crate::logic::import::CsvRead) {
    cmds.iter()
        .find_map(|c| match c {
            Cmd::ReadCsv { id, read } => Some((*id, read.clone())),
            _ => None,
        })
        .expect("a read")
}

/// The first chunk of a file: 1,000 rows, two without an email (lines 9
/// and 59), one repeating another in capitals (line 5).
pub(super) fn first_chunk() -> CsvChunk {
    CsvChunk {
        header: header(),
        rows: (0..1000u64)
            .map(|i| {
                let email = match i {
                    7 | 57 => String::new(),
                    3 => "USER2@x.io".into(),
                    _ => format!("user{i}@x.io"),
                };
                row(i + 2, &[&email, "N", ""])
            })
            .collect(),
        start: CsvPos::START,
        next: CsvPos {
            byte: 20_000,
            line: 1002,
        },
        eof: false,
        file_len: 50_000,
    }
}

/// The second (last) chunk: a repeat of a row of the first, and a new row.
pub(super) fn second_chunk(start: CsvPos) -> CsvChunk {
    CsvChunk {
        rows: vec![
            row(1002, &["user1@x.io", "again"]),
            row(1003, &["new@x.io", "x"]),
        ],
        start,
        next: CsvPos {
            byte: 50_000,
            line: 1004,
        },
        eof: true,
        file_len: 50_000,
        ..CsvChunk::default()
    }
}

#[test]
fn an_import_in_chunks_reports_exactly_and_resumes_from_a_failed_chunk() {
    let (mut m, _) = importing(first_chunk());
    drive::ctrl(&mut m, 's');
    let cmds = drive::ctrl(&mut m, 's');
    let sent = requests(&cmds);
    let [ApiRequest::AddLeads { leads, .. }] = &sent[..] else {
        panic!("{sent:?}");
    };
    assert_eq!(
        leads.len(),
        997,
        "two without an email, one duplicate stay out"
    );
    let cmds = service(&mut m, cmds, &["user9@x.io"]);
    let (id, read) = read_of(&cmds);
    assert_eq!(
        (read.start, read.header),
        (first_chunk().next, false),
        "the next chunk was asked for with the first upload"
    );
    assert_eq!(dialog(&m).progress.counts.bytes_done, 20_000);
    // The second chunk's upload fails: the answer is lost.
    let cmds = file_answers(&mut m, id, Ok(second_chunk(read.start)));
    answer(&mut m, cmds, |_| {
        Some(ApiReply::LeadsAdded(Err(crate::api::ApiError::Timeout {
            method: "POST".into(),
            after: std::time::Duration::from_secs(30),
            may_have_reached: true,
        })))
    });
    let d = dialog(&m);
    assert_eq!(d.stage, Stage::Failed);
    let fail = d.progress.failure.as_ref().unwrap();
    assert!(fail.uncertain && fail.line == 1002);
    assert_eq!(d.progress.counts.went_in, Some((2, 1001)));
    // Resuming asks first (the chunk may have gone in), then reads it again.
    drive::key(&mut m, KeyCode::Enter);
    assert!(confirm_title(&m).is_some_and(|q| q.contains("may have gone in")));
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    let (id, again) = read_of(&cmds);
    assert_eq!(again.start, read.start);
    let cmds = file_answers(&mut m, id, Ok(second_chunk(read.start)));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::AddLeads { leads, .. }] if leads.len() == 1)
    );
    service(&mut m, cmds, &["new@x.io"]);
    let p = &dialog(&m).progress.counts;
    assert_eq!(dialog(&m).stage, Stage::Done);
    assert_eq!(
        (p.imported, p.dup_file, p.dup_roster, p.left_out_count),
        (996, 2, 2, 2),
        "{}",
        p.summary()
    );
    assert_eq!(
        p.left_out,
        vec![(9, "no email".to_owned()), (59, "no email".to_owned())]
    );
}

#[test]
fn the_next_chunk_is_read_while_one_uploads_and_waits_its_turn() {
    let (mut m, cmds, id, read) = uploading_first();
    assert_eq!(
        (read.start, read.header),
        (first_chunk().next, false),
        "the next chunk is read while the first one uploads"
    );
    // It is read before the first chunk is answered: it waits its turn.
    let early = file_answers(&mut m, id, Ok(second_chunk(read.start)));
    assert!(early.is_empty(), "one chunk in flight at a time: {early:?}");
    assert_eq!(dialog(&m).progress.counts.bytes_done, 0);
    let uploads: Vec<Cmd> = cmds
        .into_iter()
        .filter(|c| matches!(c, Cmd::Api { .. }))
        .collect();
    // The first goes in: the second is sent at once, with no read between,
    // without the row repeating one of the first chunk.
    let cmds = service(&mut m, uploads, &[]);
    assert!(!cmds.iter().any(|c| matches!(c, Cmd::ReadCsv { .. })));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::AddLeads { leads, .. }, ..] if leads.len() == 1),
        "{cmds:?}"
    );
    service(&mut m, cmds, &[]);
    let p = &dialog(&m).progress.counts;
    assert_eq!(dialog(&m).stage, Stage::Done);
    assert_eq!((p.imported, p.dup_file), (998, 2), "{}", p.summary());
}

#[test]
fn a_chunk_that_cannot_be_read_ahead_stops_the_import_after_the_one_in_flight() {
    let (mut m, cmds, id, _) = uploading_first();
    // The read ahead fails while the first chunk uploads.
    file_answers(
        &mut m,
        id,
        Err("leads.csv: Input/output error (os error 5)".into()),
    );
    assert_eq!(
        dialog(&m).stage,
        Stage::Uploading,
        "the first chunk goes on"
    );
    // The first chunk went in: its rows are counted, then the import stops
    // at the chunk that could not be read, and resumes from it.
    let cmds = service(&mut m, cmds, &[]);
    assert!(
        requests(&cmds)
            .iter()
            .all(|r| !matches!(r, ApiRequest::AddLeads { .. }))
    );
    let d = dialog(&m);
    assert_eq!(d.stage, Stage::Failed);
    assert_eq!(d.progress.counts.imported, 997);
    assert_eq!(d.progress.counts.went_in, Some((2, 1001)));
    let fail = d.progress.failure.as_ref().expect("why it stopped");
    assert_eq!((fail.line, fail.uncertain), (1002, false));
    assert!(fail.message.contains("Input/output error"));
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let (_, again) = read_of(&cmds);
    assert_eq!(again.start, first_chunk().next);
}

#[test]
fn a_stop_while_the_next_chunk_is_read_sends_nothing_more() {
    let (mut m, cmds, id, read) = uploading_first();
    // The first chunk went in before the next was read; then Esc.
    let cmds = service(&mut m, cmds, &[]);
    assert!(!sends_leads(&cmds), "{cmds:?}");
    drive::key(&mut m, KeyCode::Esc);
    let cmds = file_answers(&mut m, id, Ok(second_chunk(read.start)));
    assert!(!sends_leads(&cmds), "stopped: the chunk read is not sent");
    let p = &dialog(&m).progress;
    assert_eq!(dialog(&m).stage, Stage::Done);
    assert_eq!((p.counts.imported, p.next), (997, Some(first_chunk().next)));
}

#[test]
fn a_read_ahead_from_before_a_failure_never_reaches_the_resumed_import() {
    let (mut m, cmds, stale, read) = uploading_first();
    // The first chunk fails (a 500) while the next is being read.
    upload_fails(&mut m, cmds);
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let (fresh, again) = read_of(&cmds);
    assert_eq!(again.start, CsvPos::START, "from the failed (first) chunk");
    // The read from before arrives now: dropped, not taken for the first.
    let late = file_answers(&mut m, stale, Ok(second_chunk(read.start)));
    assert!(late.is_empty() && dialog(&m).progress.inflight.is_none());
    let cmds = file_answers(&mut m, fresh, Ok(first_chunk()));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::AddLeads { leads, .. }] if leads.len() == 997)
    );
}

#[test]
fn rows_the_service_names_in_a_400_are_left_out_and_the_rest_sent_again() {
    let (mut m, _) = importing(CsvChunk {
        header: header(),
        rows: vec![
            row(2, &["a@x.io"]),
            row(3, &["b@x.io"]),
            row(4, &["c@x.io"]),
        ],
        eof: true,
        ..CsvChunk::default()
    });
    drive::ctrl(&mut m, 's');
    let cmds = drive::ctrl(&mut m, 's');
    let cmds = answer(&mut m, cmds, |_| {
        Some(ApiReply::LeadsAdded(Err(service_error(
            400,
            r#"{"error":{"code":"invalid_request","message":"row 1: invalid email"}}"#,
        ))))
    });
    let reqs = requests(&cmds);
    assert!(matches!(&reqs[..], [ApiRequest::AddLeads { leads, .. }] if leads.len() == 2));
    service(&mut m, cmds, &[]);
    let p = &dialog(&m).progress.counts;
    assert_eq!(p.imported, 2);
    assert_eq!(p.left_out.len(), 1);
    assert_eq!(p.left_out[0].0, 3);
}

#[test]
fn a_file_that_cannot_be_read_goes_back_to_the_path_with_why() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| {
            import::open(c, cx, Some("missing.csv".into()))
        }),
        &mut m,
    );
    let (id, _) = read_of(&cmds);
    file_answers(
        &mut m,
        id,
        Err("missing.csv: No such file or directory (os error 2)".into()),
    );
    let d = dialog(&m);
    assert_eq!(d.stage, Stage::Path);
    assert!(
        d.error
            .as_deref()
            .is_some_and(|e| e.contains("No such file"))
    );
}

// ------------------------------------------------------------ roster

#[test]
fn a_5000_lead_roster_pages_by_200_and_holds_a_bounded_number() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let mut cmds = drive::key(&mut m, KeyCode::Char('l'));
    let mut asked = Vec::new();
    for _ in 0..60 {
        cmds = answer(&mut m, cmds, |r| match r {
            ApiRequest::ListLeads { id, query } => {
                assert_eq!(query.limit, Some(200));
                Some(ApiReply::Roster(Ok(fixtures::roster_page(
                    id,
                    5000,
                    query.page.unwrap_or(1) - 1,
                    200,
                ))))
            }
            _ => None,
        });
        cmds.extend(drive::key(&mut m, KeyCode::PageDown));
        asked.extend(requests(&cmds));
        let r = &m.panes.campaigns.open.as_ref().unwrap().roster;
        assert!(r.window.pages.len() <= roster::MAX_PAGES && r.loaded_rows() <= 800);
    }
    asked.extend(requests(&drive::key(&mut m, KeyCode::Char('G'))));
    let r = &m.panes.campaigns.open.as_ref().unwrap().roster;
    assert_eq!(r.window.table.len, 5000);
    assert!(
        asked
            .iter()
            .any(|q| matches!(q, ApiRequest::ListLeads { query, .. } if query.page == Some(25)))
    );
}

#[test]
fn the_status_filter_reads_the_roster_again_and_drops_older_pages() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    roster_open(&mut m, 12);
    let cmds = drive::key(&mut m, KeyCode::Char('t'));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::ListLeads { query, .. }] if query.status.as_deref() == Some("pending"))
    );
    let r = &m.panes.campaigns.open.as_ref().unwrap().roster;
    assert!(r.window.pages.is_empty() && r.window.total.is_none());
}

/// A page asked for under the old filter, answering after the filter
/// changed, never lands: its request was forgotten.
#[test]
fn a_page_of_an_older_filter_answering_late_never_lands() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    let cmds = drive::key(&mut m, KeyCode::Char('l'));
    let [(old, ApiRequest::ListLeads { id, .. })] = &drive::api(&cmds)[..] else {
        panic!("the first page is asked for: {cmds:?}");
    };
    let stale = fixtures::roster_page(id, 120, 0, 200);
    let (old, stale_first) = (*old, stale.prospects[0].id.clone());
    // `t`: only pending leads; the new page is on its way.
    let cmds = drive::key(&mut m, KeyCode::Char('t'));
    assert_eq!(requests(&cmds).len(), 1);
    drive::reply(&mut m, old, ApiReply::Roster(Ok(stale)));
    let r = &m.panes.campaigns.open.as_ref().unwrap().roster;
    assert!(
        r.window.pages.is_empty() && r.window.total.is_none(),
        "the old page was dropped"
    );
    // The new filter's page lands.
    let mut fresh = fixtures::roster_page("c-1", 3, 0, 200);
    fresh.prospects.retain(|l| l.id != stale_first);
    answer(&mut m, cmds, |_| Some(ApiReply::Roster(Ok(fresh.clone()))));
    let r = &m.panes.campaigns.open.as_ref().unwrap().roster;
    assert_eq!(r.window.total, usize::try_from(fresh.total).ok());
    assert!(r.loaded().all(|l| l.id != stale_first), "no old lead shown");
}

#[test]
fn deleting_more_than_500_goes_in_chunks_one_after_the_other() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let ids: Vec<String> = (0..1200).map(|i| format!("l{i}")).collect();
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| delete::delete(c, cx, "c-1", ids)),
        &mut m,
    );
    let mut sizes = Vec::new();
    let mut cmds = cmds;
    loop {
        let reqs = requests(&cmds);
        let Some(ApiRequest::DeleteLeads {
            which: DeleteLeads::Ids { ids },
            ..
        }) = reqs.first()
        else {
            break;
        };
        sizes.push(ids.len());
        let n = ids.len() as u64;
        cmds = answer(&mut m, cmds, |r| match r {
            ApiRequest::DeleteLeads { .. } => Some(ApiReply::LeadsDeleted(Ok(n))),
            _ => None,
        });
    }
    assert_eq!(sizes, [500, 500, 200]);
    assert!(toasts(&m).contains("1,200 deleted"));
}

// ------------------------------------------------------------ sequence

#[test]
fn the_sequence_editor_inserts_variables_previews_and_saves_the_whole_sequence() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let cmds = drive::key(&mut m, KeyCode::Char('s'));
    answer(&mut m, cmds, |r| match r {
        ApiRequest::ListLeads { id, .. } => {
            Some(ApiReply::Roster(Ok(fixtures::roster_page(id, 5, 0, 20))))
        }
        _ => None,
    });
    let e = m.panes.campaigns.sequence.as_ref().unwrap();
    assert_eq!(e.focus, sequence::Focus::Subject);
    assert!(
        e.variables.contains(&"custom_fields.plan".to_owned()),
        "{:?}",
        e.variables
    );
    drive::key(&mut m, KeyCode::End);
    drive::chars(&mut m, " and ");
    drive::ctrl(&mut m, 't');
    drive::key(&mut m, KeyCode::Enter);
    let e = m.panes.campaigns.sequence.as_ref().unwrap();
    let lead = e.lead().unwrap();
    let subject = e.step().unwrap().subject.lines().join("");
    assert_eq!(subject, "Quick question about %company% and %first_name%");
    assert_eq!(
        crate::logic::template::merge(&subject, lead).text,
        "Quick question about Brightlabs and Ana"
    );
    assert_eq!(
        crate::app::dispatch::unsent(&m).as_deref(),
        Some("the sequence editor")
    );
    let cmds = drive::ctrl(&mut m, 's');
    let reqs = requests(&cmds);
    let [ApiRequest::UpdateCampaign { update: u, .. }] = &reqs[..] else {
        panic!("{reqs:?}");
    };
    let nodes = u.sequence_nodes.as_ref().unwrap();
    assert_eq!(nodes.len(), 2);
    assert_eq!(nodes[0].subject, subject);
    assert_eq!(nodes[1].kind, NodeType::End);
}

#[test]
fn a_template_renders_lead_fields_and_custom_fields_and_names_the_empty_ones() {
    let lead = fixtures::campaign_lead("c", 1, LeadStatus::Pending);
    let merged = crate::logic::template::merge(
        "Hi %first_name% at %company% (%custom_fields.plan%) — 100% sure, %unknown%",
        &lead,
    );
    assert_eq!(merged.text, "Hi Ben at Northwind () — 100% sure, %unknown%");
    assert_eq!(merged.empty, ["custom_fields.plan"]);
}

// ------------------------------------------------------------ messages

pub(super) fn messages_open(m: &mut Model) {
    let mut cmds = drive::key(m, KeyCode::Char('h'));
    while !cmds.is_empty() {
        cmds = answer(m, cmds, |r| match r {
            ApiRequest::GeneratedMessages { id, .. } => {
                Some(ApiReply::Messages(Ok(fixtures::generated_messages(id, 6))))
            }
            ApiRequest::ListLeads { id, query } => Some(ApiReply::Roster(Ok(
                fixtures::roster_page(id, 6, query.page.unwrap_or(1) - 1, 200),
            ))),
            _ => None,
        });
    }
}

/// The messages tab offers `e edit` only on a message it can edit: a sent
/// one reads `edit ✗ sent`, among the keys that do not apply.
#[test]
fn the_edit_hint_on_a_sent_message_says_it_cannot_act() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    let edit = |m: &Model| {
        crate::app::hints(m)
            .into_iter()
            .filter(|(a, _)| *a == Action::EditItem)
            .map(|(_, l)| l)
            .collect::<Vec<_>>()
    };
    assert_eq!(edit(&m), ["edit"], "row 0 is a draft");
    // Row 2 is sent.
    drive::key(&mut m, KeyCode::Down);
    drive::key(&mut m, KeyCode::Down);
    assert_eq!(edit(&m), ["edit ✗ sent"]);
}

#[test]
fn messages_filter_by_status_and_only_drafts_and_pending_can_be_edited() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    let cmds = drive::key(&mut m, KeyCode::Char('t'));
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::GeneratedMessages { query, .. }] if query.status.as_deref() == Some("pending") && query.prospect_limit == Some(100))
    );
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Messages(Ok(fixtures::generated_messages(
            "c-1", 6,
        ))))
    });
    // Row 2 is sent: refused with the reason.
    drive::key(&mut m, KeyCode::Down);
    drive::key(&mut m, KeyCode::Down);
    drive::key(&mut m, KeyCode::Char('e'));
    assert!(m.panes.campaigns.dialog.is_none());
    assert!(toasts(&m).contains("sent messages cannot be edited"));
    // Row 0 is a draft: edited and saved.
    drive::key(&mut m, KeyCode::Char('g'));
    drive::key(&mut m, KeyCode::Char('e'));
    drive::key(&mut m, KeyCode::End);
    drive::chars(&mut m, "?");
    let cmds = drive::ctrl(&mut m, 's');
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::EditGeneratedMessage { edit, .. }] if edit.subject.as_deref() == Some("Quick question about Brightlabs?") && edit.body_text.is_none())
    );
}

/// The message edit form's fields, as `(key, value, error)`.
fn edit_fields(m: &Model) -> Vec<(&'static str, String, Option<String>)> {
    let Some(Dialog::EditMessage(d)) = &m.panes.campaigns.dialog else {
        panic!("the edit form is open");
    };
    d.form
        .fields
        .iter()
        .map(|f| (f.key, d.form.value(f.key), f.error.clone()))
        .collect()
}

#[test]
fn an_edited_message_with_an_empty_subject_or_a_leftover_variable_is_not_saved() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    drive::key(&mut m, KeyCode::Char('e'));
    // The subject emptied (Ctrl-U), a variable typed into the body.
    drive::ctrl(&mut m, 'u');
    drive::key(&mut m, KeyCode::Tab);
    drive::key(&mut m, KeyCode::End);
    drive::chars(&mut m, " %frist_name%");
    let cmds = drive::ctrl(&mut m, 's');
    assert!(requests(&cmds).is_empty(), "nothing is sent: {cmds:?}");
    let fields = edit_fields(&m);
    assert_eq!(fields[0].1, "", "the edit is kept");
    assert!(fields[1].1.contains(" %frist_name%"), "{fields:?}");
    assert_eq!(fields[0].2.as_deref(), Some("The subject is empty"));
    assert_eq!(
        fields[1].2.as_deref(),
        Some("The body still holds %frist_name%: it is sent as written")
    );
    let Some(Dialog::EditMessage(d)) = &m.panes.campaigns.dialog else {
        panic!("still open");
    };
    assert!(
        d.form
            .note
            .as_deref()
            .is_some_and(|n| n.starts_with("Not saved: 2 problems")),
        "{:?}",
        d.form.note
    );
    // The first field in error has the focus: fixed, it is saved.
    drive::chars(&mut m, "Hi again");
    drive::key(&mut m, KeyCode::Tab);
    drive::key(&mut m, KeyCode::End);
    for _ in 0.." %frist_name%".len() {
        drive::key(&mut m, KeyCode::Backspace);
    }
    let cmds = drive::ctrl(&mut m, 's');
    assert!(
        matches!(&requests(&cmds)[..], [ApiRequest::EditGeneratedMessage { edit, .. }] if edit.subject.as_deref() == Some("Hi again")),
        "{cmds:?}"
    );
}

#[test]
fn a_leads_messages_include_the_merged_replies_in_order() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    let cmds = drive::key(&mut m, KeyCode::Enter);
    let reqs = requests(&cmds);
    assert!(
        matches!(&reqs[..], [ApiRequest::GeneratedMessages { query, .. }] if query.prospect_id.as_deref() == Some("c-1-l0") && query.status.as_deref() == Some("all"))
    );
    let mut items = fixtures::generated_messages("c-1", 1);
    items.insert(
        0,
        GeneratedMessage {
            id: "reply".into(),
            node_id: "inbound".into(),
            subject: "Re: hi".into(),
            created_at: "2026-11-22T12:00:00Z".into(),
            status: MessageStatus::Sent,
            ..GeneratedMessage::default()
        },
    );
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Messages(Ok(items.clone())))
    });
    let Some(Dialog::Thread(t)) = &m.panes.campaigns.dialog else {
        panic!();
    };
    assert_eq!(t.name, "Ana López", "the name comes from the roster");
    assert_eq!(
        t.items.iter().map(|x| x.id.as_str()).collect::<Vec<_>>(),
        ["c-1-m0", "reply"]
    );
    let nodes = m
        .panes
        .campaigns
        .open
        .as_ref()
        .unwrap()
        .campaign
        .sequence_nodes
        .clone()
        .unwrap();
    assert_eq!(
        messages::editable(&t.items[1], &nodes),
        Err("a reply from the lead cannot be edited")
    );
}

// ------------------------------------------------------------ robustness

mod props {
    use super::*;
    use crossterm::event::{KeyEvent, KeyModifiers};
    use proptest::prelude::*;

    /// The fixtures' answer to `req` (a roster of 450, hostile counts now
    /// and then).
    fn answer(req: ApiRequest, round: usize) -> ApiReply {
        match req {
            ApiRequest::ListCampaigns => ApiReply::Campaigns(Ok(Some(fixtures::campaigns()))),
            ApiRequest::GetCampaign { id } => campaign_reply(&fixtures::campaign_detail(
                &id,
                "C",
                Channel::Email,
                CampaignStatus::Draft,
                450,
            )),
            ApiRequest::ListLeads { id, query } => {
                let total = if round.is_multiple_of(5) {
                    u64::MAX
                } else {
                    450
                };
                let mut p = fixtures::roster_page(
                    &id,
                    450,
                    query.page.unwrap_or(1) - 1,
                    query.limit.unwrap_or(50),
                );
                p.total = total;
                ApiReply::Roster(Ok(p))
            }
            ApiRequest::ListSenders => ApiReply::Senders(Ok(fixtures::senders())),
            ApiRequest::GeneratedMessages { id, .. } => {
                ApiReply::Messages(Ok(fixtures::generated_messages(&id, 7)))
            }
            ApiRequest::AddLeads { leads, .. } => ApiReply::LeadsAdded(Ok(AddLeadsResponse {
                imported: u64::MAX,
                duplicates: leads.len() as u64,
                ..AddLeadsResponse::default()
            })),
            ApiRequest::DeleteLeads { .. } => ApiReply::LeadsDeleted(Ok(u64::MAX)),
            other => ApiReply::failed(&other, service_error(400, r#"{"error":"no"}"#)),
        }
    }

    /// A small chunk of the file for `read`.
    fn chunk(read: &crate::logic::import::CsvRead, round: usize) -> CsvChunk {
        CsvChunk {
            header: read.header.then(header).flatten(),
            rows: vec![
                row(read.start.line + 1, &["a@x.io", "A"]),
                row(read.start.line + 2, &[""]),
            ],
            start: read.start,
            next: CsvPos {
                byte: read.start.byte + 10,
                line: read.start.line + 3,
            },
            eof: round.is_multiple_of(2),
            file_len: 100,
        }
    }

    /// Answers every request from the fixtures and every file read with a
    /// small chunk, until nothing is asked.
    fn serve(m: &mut Model, mut cmds: Vec<Cmd>, round: usize) {
        for _ in 0..50 {
            let mut next = Vec::new();
            for cmd in cmds {
                let msg = match cmd {
                    Cmd::Api { id, req } => Msg::Api {
                        id,
                        latency: std::time::Duration::ZERO,
                        reply: Box::new(answer(req, round)),
                    },
                    Cmd::ReadCsv { id, read } => Msg::CsvRead {
                        id,
                        result: Ok(chunk(&read, round)),
                    },
                    _ => continue,
                };
                next.extend(update(m, msg));
            }
            if next.is_empty() {
                return;
            }
            cmds = next;
        }
    }

    fn any_key() -> impl Strategy<Value = KeyEvent> {
        let codes = prop_oneof![
            Just(KeyCode::Enter),
            Just(KeyCode::Esc),
            Just(KeyCode::Tab),
            Just(KeyCode::Up),
            Just(KeyCode::Down),
            Just(KeyCode::Left),
            Just(KeyCode::Right),
            Just(KeyCode::PageDown),
            Just(KeyCode::Backspace),
            prop::sample::select(vec![
                'n', 'i', 'L', 'p', 'R', 'l', 'h', 't', 'e', 's', 'd', 'D', ' ', 'a', 'j', 'k',
                'G', 'g', '/', 'x', 'y', 'r', '%'
            ])
            .prop_map(KeyCode::Char),
        ];
        (codes, prop::bool::weighted(0.1)).prop_map(|(code, ctrl)| {
            let ctrl = ctrl && matches!(code, KeyCode::Char('s' | 't' | 'l'));
            KeyEvent::new(
                code,
                if ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                },
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_keys_answers_and_sizes_never_panic(
            keys in proptest::collection::vec(any_key(), 1..80),
            sizes in proptest::collection::vec((1u16..220, 1u16..60), 1..4),
        ) {
            let mut m = with_list(&fixtures::campaigns());
            for (i, k) in keys.into_iter().enumerate() {
                if m.pane != Pane::Campaigns {
                    drive::key(&mut m, KeyCode::Char('2'));
                }
                let cmds = update(&mut m, Msg::Key(k));
                if i % 4 != 0 {
                    serve(&mut m, cmds, i);
                }
                if let Some((w, h)) = sizes.get(i % 5) {
                    update(&mut m, Msg::Resize(*w, *h));
                    let backend = ratatui::backend::TestBackend::new(*w, *h);
                    let mut term = ratatui::Terminal::new(backend).expect("terminal");
                    term.draw(|f| crate::ui::view(&m, f)).expect("draw");
                }
                if m.quit {
                    break;
                }
            }
        }
    }
}

#[test]
fn a_file_read_of_a_closed_import_never_reaches_the_next_one() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| import::open(c, cx, Some("old.csv".into()))),
        &mut m,
    );
    let (stale, _) = read_of(&cmds);
    // Closed before the file was read; another import is started.
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.panes.campaigns.dialog.is_none());
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| import::open(c, cx, Some("new.csv".into()))),
        &mut m,
    );
    let (fresh, _) = read_of(&cmds);
    file_answers(&mut m, stale, Ok(first_chunk()));
    assert_eq!(
        dialog(&m).stage,
        Stage::Reading,
        "the old file's rows are not taken"
    );
    file_answers(&mut m, fresh, Ok(first_chunk()));
    assert_eq!(dialog(&m).stage, Stage::Mapping);
}

#[test]
fn a_read_ahead_of_a_failed_import_never_reaches_the_next_one() {
    let (mut m, cmds, stale, read) = uploading_first();
    // The first chunk is refused while the next is read; the user closes
    // the failed import and starts another.
    upload_fails(&mut m, cmds);
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.panes.campaigns.dialog.is_none());
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| import::open(c, cx, Some("new.csv".into()))),
        &mut m,
    );
    let (fresh, _) = read_of(&cmds);
    // The old file's rows from mid-file arrive first: not taken (they have
    // no header, and would send the user back to the path).
    file_answers(&mut m, stale, Ok(second_chunk(read.start)));
    assert_eq!(dialog(&m).stage, Stage::Reading);
    assert!(dialog(&m).error.is_none());
    file_answers(&mut m, fresh, Ok(first_chunk()));
    assert_eq!(dialog(&m).stage, Stage::Mapping);
}

#[test]
fn whole_numbers_in_custom_fields_show_as_integers() {
    let mut lead = fixtures::campaign_lead("c-1", 1, crate::api::model::LeadStatus::Pending);
    lead.custom_fields
        .insert("founded".into(), serde_json::json!(2009.0));
    lead.custom_fields
        .insert("tags".into(), serde_json::json!([1.0, "x"]));
    let lines = custom::lines(&lead.custom_fields);
    assert!(lines.contains(&"founded: 2009".to_owned()), "{lines:?}");
    assert!(lines.contains(&r#"tags: [1,"x"]"#.to_owned()), "{lines:?}");
    let merged = crate::logic::template::merge("since %custom_fields.founded%", &lead);
    assert_eq!(merged.text, "since 2009");
}

/// A messages page asked for under the old status filter, answering after
/// the filter changed, never lands: its request was forgotten, and the
/// request table dropped its answer (no counter of the pane's own).
#[test]
fn a_messages_page_of_an_older_filter_answering_late_never_lands() {
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    let cmds = drive::key(&mut m, KeyCode::Char('h'));
    let old = drive::api(&cmds)
        .into_iter()
        .find_map(|(id, r)| matches!(r, ApiRequest::GeneratedMessages { .. }).then_some(id))
        .expect("the messages are asked for");
    // `t`: another status; its page is on its way.
    let cmds = drive::key(&mut m, KeyCode::Char('t'));
    let stale = fixtures::generated_messages("c-1", 6);
    drive::reply(&mut m, old, ApiReply::Messages(Ok(stale.clone())));
    let l = &m.panes.campaigns.open.as_ref().expect("open").messages;
    assert!(
        l.items.is_empty() && !l.loaded,
        "the old page was dropped: {:?}",
        l.items.len()
    );
    // The new filter's page lands.
    let fresh: Vec<_> = stale.into_iter().take(2).collect();
    answer(&mut m, cmds, |r| {
        matches!(r, ApiRequest::GeneratedMessages { .. })
            .then(|| ApiReply::Messages(Ok(fresh.clone())))
    });
    let l = &m.panes.campaigns.open.as_ref().expect("open").messages;
    assert!(l.loaded);
    assert_eq!(l.items.len(), 2, "only the new filter's page is shown");
}

/// The listing a Tab asked for, answered with `names` (`/` ending: a
/// directory).
fn tab_listed(m: &mut Model, names: &[&str]) -> std::path::PathBuf {
    let cmds = drive::key(m, KeyCode::Tab);
    let [Cmd::ListDir { id, dir }] = &cmds[..] else {
        panic!("a listing: {cmds:?}");
    };
    let entries = names
        .iter()
        .map(|n| crate::app::path_complete::DirEntry {
            name: n.trim_end_matches('/').to_owned(),
            dir: n.ends_with('/'),
        })
        .collect();
    let listing = Ok(crate::app::path_complete::DirListing {
        entries,
        truncated: false,
    });
    let (id, dir) = (*id, dir.clone());
    update(m, Msg::DirListed { id, listing });
    dir
}

/// Tab in the import's path completes from the directory (listed by the
/// runtime, not by `update`); with nothing left to add it lists the
/// candidates under the path. A tab is never typed into the path.
#[test]
fn tab_completes_the_import_path_and_then_lists_the_candidates() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    on_pane(&mut m, |c, cx| import::open(c, cx, None));
    drive::chars(&mut m, "data/le");
    let names = ["leads-q3.csv", "leads-q4.csv", "old/"];
    assert_eq!(tab_listed(&mut m, &names), std::path::Path::new("data/"));
    let text = |m: &Model| dialog(m).path_input.lines().join("");
    assert_eq!(text(&m), "data/leads-q");
    assert_eq!(dialog(&m).complete.note, None);
    tab_listed(&mut m, &names);
    assert_eq!(text(&m), "data/leads-q", "nothing more to add");
    assert_eq!(
        dialog(&m).complete.note.as_deref(),
        Some("2 match: leads-q3.csv  leads-q4.csv")
    );
    drive::chars(&mut m, "4");
    assert_eq!(dialog(&m).complete.note, None, "typing clears the list");
    tab_listed(&mut m, &names);
    assert_eq!(text(&m), "data/leads-q4.csv");
    assert!(!text(&m).contains(char::is_whitespace));
}

/// An empty campaign list offers no `Enter open`: there is nothing to
/// open (creating one still is).
#[test]
fn an_empty_list_offers_nothing_to_open() {
    let m = with_list(&[]);
    let hints = crate::app::hints(&m);
    assert!(hints.iter().all(|(a, _)| *a != Action::Open), "{hints:?}");
    assert!(
        hints.iter().any(|(a, _)| *a == Action::NewCampaign),
        "{hints:?}"
    );
    let m = with_list(&[status_campaign(CampaignStatus::Draft)]);
    let hints = crate::app::hints(&m);
    assert!(hints.iter().any(|(a, _)| *a == Action::Open), "{hints:?}");
}

// ------------------------------------------------------------ ids

/// The id `I` puts on the clipboard, and what the notice will say.
fn copied_id(cmds: &[Cmd]) -> Option<(String, String)> {
    cmds.iter().find_map(|c| match c {
        Cmd::CopyId { text, what } => Some((text.clone(), what.clone())),
        _ => None,
    })
}

#[test]
fn i_copies_the_selected_campaign_s_id_then_the_open_one_s() {
    let mut m = with_list(&fixtures::campaigns());
    drive::key(&mut m, KeyCode::Char('j'));
    let (id, what) = copied_id(&drive::key(&mut m, KeyCode::Char('I'))).expect("copied");
    let selected = m.panes.campaigns.list.selected().map(|c| c.id.clone());
    assert_eq!(Some(id.clone()), selected);
    assert!(what.contains("campaign “") && what.contains(&id), "{what}");
    let c = fixtures::campaign_detail(
        "c-3",
        "Q3 founders",
        Channel::Email,
        CampaignStatus::Active,
        9,
    );
    let mut m = opened(&c);
    let (id, what) = copied_id(&drive::key(&mut m, KeyCode::Char('I'))).expect("copied");
    assert_eq!(id, "c-3");
    assert_eq!(what, "the id of campaign “Q3 founders” (c-3)");
}
