//! The pane's forms and text boxes as a user meets them: a lead's edit
//! keeps its custom fields' types, a create whose answer was lost is
//! checked and asked about before it is sent again, a closed form's text is
//! said to be kept only when it can be, readline keys in every text box,
//! and key names that follow the keymap.

use crossterm::event::KeyCode;
use serde_json::json;

use super::tests::*;
use super::*;
use crate::api::model::*;
use crate::app::fixtures::drive::and_queued;
use crate::app::fixtures::{self, drive};
use crate::app::{ApiReply, ApiRequest, Cmd, Model, Msg, PaneSub, SubId, update};

/// A draft with its roster shown, lead 0 holding `fields`.
fn roster_with_fields(fields: &serde_json::Value) -> Model {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    let o = m.panes.campaigns.open.as_mut().expect("open");
    let lead = &mut o.roster.window.pages.get_mut(&0).expect("page 0")[0];
    lead.custom_fields = fields.as_object().cloned().unwrap_or_default();
    m
}

fn edit_form(m: &mut Model) -> &mut crate::app::form::Form {
    match m.panes.campaigns.dialog.as_mut() {
        Some(Dialog::EditLead(d)) => &mut d.form,
        other => panic!("the edit form: {other:?}"),
    }
}

fn sent_edit(cmds: &[Cmd]) -> EditLead {
    match &requests(cmds)[..] {
        [ApiRequest::EditLead { edit, .. }] => (**edit).clone(),
        other => panic!("one edit: {other:?}"),
    }
}

#[test]
fn a_lead_edit_keeps_its_custom_fields_types_and_multi_line_values() {
    let fields = json!({
        "seats": 42,
        "founded": 2009.0,
        "active": true,
        "owner": {"name": "Ana", "tags": [1, "x"]},
        "note": "line one\nline two",
        "plan": "pro",
    });
    let mut m = roster_with_fields(&fields);
    drive::key(&mut m, KeyCode::Char('e'));
    let shown = edit_form(&mut m).value("custom_fields");
    assert!(shown.contains(r#"note: "line one\nline two""#), "{shown}");
    // Another field changes: the form can be saved (the multi-line value
    // is one quoted line) and the custom fields are not sent.
    edit_form(&mut m).set_value("company", "Initech");
    let cmds = drive::ctrl(&mut m, 's');
    let edit = sent_edit(&cmds);
    assert_eq!(edit.fields.company.as_deref(), Some("Initech"));
    assert_eq!(edit.fields.custom_fields, None, "unchanged, not sent");
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Lead(Box::new(Err(service_error(
            500,
            r#"{"error":{"code":"internal_error","message":"boom"}}"#,
        )))))
    });
    // One value changes: every other keeps its type.
    let text = edit_form(&mut m)
        .value("custom_fields")
        .replace("plan: pro", "plan: team");
    edit_form(&mut m).set_value("custom_fields", &text);
    let edit = sent_edit(&drive::ctrl(&mut m, 's'));
    let mut want = fields.as_object().cloned().unwrap_or_default();
    want.insert("plan".into(), json!("team"));
    assert_eq!(edit.fields.custom_fields, Some(want));
}

/// The edit form requires the lead's identity as every other place does
/// ([`crate::logic::lead_field::LeadField::identity`]): a network URL on a
/// network campaign, else the email. The form alone required the network
/// URL of a campaign whose channel it did not know, where the import and
/// the service ask for the email.
#[test]
fn the_edit_form_requires_the_identity_the_import_and_the_service_require() {
    for (kind, want) in [
        (Channel::Email, "email"),
        (Channel::Network, "network_url"),
        (Channel::Other("sms".into()), "email"),
    ] {
        let mut c = status_campaign(CampaignStatus::Draft);
        c.kind = kind.clone();
        let mut m = opened(&c);
        roster_open(&mut m, 3);
        drive::key(&mut m, KeyCode::Char('e'));
        let required: Vec<&str> = edit_form(&mut m)
            .fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.key)
            .collect();
        assert_eq!(required, [want], "{kind:?}");
    }
}

fn lost_after_sending() -> crate::api::ApiError {
    crate::api::ApiError::Timeout {
        method: "POST".into(),
        after: std::time::Duration::from_secs(3),
        may_have_reached: true,
    }
}

/// The create form filled with "Fresh", sent: the create request's id.
fn create_sent(m: &mut Model) -> crate::app::RequestId {
    create_open(m);
    drive::key(m, KeyCode::Tab);
    drive::chars(m, "Fresh");
    let cmds = drive::ctrl(m, 's');
    drive::api(&cmds)[0].0
}

/// A campaign the service made at the fixtures' clock.
fn made_now(id: &str, name: &str) -> Campaign {
    let mut c = fixtures::campaign(id, name, Channel::Email, CampaignStatus::Draft, 0);
    c.created_at = "2026-11-22T12:00:05Z".into();
    c
}

/// The create form filled with "Fresh", sent, its answer lost: what the
/// pane asked for then.
fn sent_and_lost(m: &mut Model) -> Vec<Cmd> {
    let id = create_sent(m);
    drive::reply(
        m,
        id,
        ApiReply::Campaign(Box::new(Err(lost_after_sending()))),
    )
}

fn note(m: &Model) -> String {
    m.panes
        .campaigns
        .create
        .as_ref()
        .and_then(|f| f.form.note.clone())
        .unwrap_or_default()
}

#[test]
fn a_create_whose_answer_was_lost_is_checked_and_asked_before_sending_again() {
    let mut m = with_list(&fixtures::campaigns());
    let check = sent_and_lost(&mut m);
    assert_eq!(requests(&check), [ApiRequest::ListCampaigns], "re-reads");
    assert!(
        note(&m).contains("may have been carried out"),
        "{}",
        note(&m)
    );
    assert_eq!(
        note(&m).matches("check").count(),
        1,
        "the advice once: {}",
        note(&m)
    );
    let listed = || Some(ApiReply::Campaigns(Ok(Some(fixtures::campaigns()))));
    answer(&mut m, check, |_| listed());
    // A write that outlasted the timeout may still land: it looks again,
    // further apart, before saying it was most likely not created.
    for misses in 1..crate::logic::write::GOOD_READS {
        assert!(note(&m).contains("good reads"), "{}", note(&m));
        let sub = SubId::Pane(PaneSub::Campaigns(CampaignsSub::CreateCheck(misses)));
        let polled = crate::app::subscriptions(&m)
            .into_iter()
            .any(|s| s.id == sub);
        assert!(polled, "look {misses} is scheduled");
        let cmds = update(&mut m, Msg::SubFired(sub));
        assert_eq!(requests(&cmds), [ApiRequest::ListCampaigns]);
        answer(&mut m, cmds, |_| listed());
    }
    assert!(note(&m).contains("most likely not created"), "{}", note(&m));
    assert!(
        lost_create::recheck(&m.panes.campaigns).is_none(),
        "settled: no more looks"
    );
    // Ctrl-S asks first; only yes sends again.
    let cmds = drive::ctrl(&mut m, 's');
    assert!(requests(&cmds).is_empty(), "not sent again without asking");
    let q = confirm_title(&m).expect("asks");
    assert!(q.contains("Create again?") && q.contains("“Fresh”"), "{q}");
    assert!(drive::key(&mut m, KeyCode::Esc).is_empty());
    drive::ctrl(&mut m, 's');
    let cmds = drive::key(&mut m, KeyCode::Char('y'));
    assert!(matches!(&requests(&cmds)[..], [ApiRequest::CreateCampaign(c)] if c.name == "Fresh"));
}

#[test]
fn a_create_whose_answer_was_lost_but_went_through_opens_the_campaign() {
    let mut m = with_list(&fixtures::campaigns());
    let check = sent_and_lost(&mut m);
    // The first look is too early: the write lands after it.
    answer(&mut m, check, |_| {
        Some(ApiReply::Campaigns(Ok(Some(fixtures::campaigns()))))
    });
    let mut list = fixtures::campaigns();
    list.insert(0, made_now("c-new", "Fresh"));
    let sub = SubId::Pane(PaneSub::Campaigns(CampaignsSub::CreateCheck(1)));
    let cmds = update(&mut m, Msg::SubFired(sub));
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Campaigns(Ok(Some(list.clone()))))
    });
    assert!(m.panes.campaigns.create.is_none(), "the form closes");
    assert_eq!(m.panes.campaigns.open_id(), Some("c-new"));
    assert!(toasts(&m).contains("Campaign created"), "{}", toasts(&m));
    assert!(!m.state.drafts.contains_key(create::DRAFT_KEY));
}

/// Every "Draft kept" of the pane, with the state file unwritable: none
/// claims the text is saved.
#[test]
fn a_closed_form_is_never_said_saved_when_the_state_file_cannot_be_written() {
    let unwritable = |m: &mut Model| {
        update(
            m,
            Msg::Saved(Err(crate::store::StoreError::ReadOnly {
                path: "/ro/state.json".into(),
                detail: "read-only file system".into(),
            })),
        );
        m.toasts.clear();
    };
    let check = |m: &Model, what: &str| {
        let t = toasts(m);
        assert!(t.contains("Draft kept in this session only"), "{what}: {t}");
        assert!(!t.contains("saved locally"), "{what}: {t}");
    };
    // The create form.
    let mut m = with_list(&[]);
    unwritable(&mut m);
    create_open(&mut m);
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "Half typed");
    let cmds = drive::key(&mut m, KeyCode::Esc);
    assert!(cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
    check(&m, "create");
    // The lead edit form.
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    unwritable(&mut m);
    drive::key(&mut m, KeyCode::Char('e'));
    drive::chars(&mut m, "x");
    drive::key(&mut m, KeyCode::Esc);
    check(&m, "lead");
    // The sequence editor.
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    unwritable(&mut m);
    drive::key(&mut m, KeyCode::Char('s'));
    drive::chars(&mut m, "x");
    drive::key(&mut m, KeyCode::Esc);
    check(&m, "sequence");
    // The message edit form.
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    unwritable(&mut m);
    drive::key(&mut m, KeyCode::Char('e'));
    drive::chars(&mut m, "x");
    drive::key(&mut m, KeyCode::Esc);
    check(&m, "message");
}

#[test]
fn ctrl_u_clears_to_the_start_of_the_line_in_every_text_box() {
    // The list's filter.
    let mut m = with_list(&fixtures::campaigns());
    drive::key(&mut m, KeyCode::Char('/'));
    drive::chars(&mut m, "net");
    drive::ctrl(&mut m, 'u');
    assert_eq!(m.panes.campaigns.list.needle.text, "");
    // The sequence's subject and body.
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    drive::key(&mut m, KeyCode::Char('s'));
    let step = |m: &Model| {
        let s = m.panes.campaigns.sequence.as_ref().expect("editor").step();
        let s = s.expect("a step");
        (s.subject.lines().join(""), s.body.lines().join("\n"))
    };
    drive::key(&mut m, KeyCode::End);
    drive::ctrl(&mut m, 'u');
    assert_eq!(step(&m).0, "", "the subject line is cleared");
    drive::key(&mut m, KeyCode::Tab);
    let body = step(&m).1;
    drive::key(&mut m, KeyCode::End);
    drive::ctrl(&mut m, 'u');
    let first = body.lines().next().unwrap_or_default().to_owned();
    assert!(!first.is_empty());
    assert_eq!(
        step(&m).1,
        body.replacen(&first, "", 1),
        "the first line is cleared"
    );
    // The import's path.
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    drive::key(&mut m, KeyCode::Char('i'));
    drive::chars(&mut m, "leads.csv");
    drive::ctrl(&mut m, 'u');
    let Some(Dialog::Import(d)) = &m.panes.campaigns.dialog else {
        panic!("the import");
    };
    assert_eq!(d.path_input.lines().join(""), "");
}

#[test]
fn key_names_in_notes_follow_the_keymap() {
    let over = |scope: &str, key: &str, action: &str| crate::config::KeyOverride {
        scope: scope.into(),
        key: key.into(),
        action: action.into(),
        origin: "test.toml".into(),
    };
    let remapped = || {
        crate::app::keymap::Keymap::with_overrides(&[
            over("global", "r", "none"),
            over("global", "f5", "refresh"),
            over("global", "enter", "none"),
            over("global", "o", "open"),
        ])
        .expect("keymap")
    };
    // `:launch` with no campaign open names the open key.
    let mut m = with_list(&fixtures::campaigns());
    m.keymap = remapped();
    on_pane(&mut m, |c, cx| on_command(c, cx, "launch", None));
    assert!(toasts(&m).contains("open one first (o)"), "{}", toasts(&m));
    // A lost edit answer names the save key (sending it again is safe),
    // never the refresh key as if it retried.
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    m.keymap = remapped();
    drive::key(&mut m, KeyCode::Char('e'));
    drive::chars(&mut m, "x");
    let cmds = drive::ctrl(&mut m, 's');
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Lead(Box::new(Err(lost_after_sending()))))
    });
    let n = edit_form(&mut m).note.clone().unwrap_or_default();
    assert!(n.contains("may have reached the service"), "{n}");
    assert!(
        n.contains("sending it again is safe: Ctrl-S sets the same fields"),
        "{n}"
    );
    assert!(!n.contains("F5") && !n.contains("retries"), "{n}");
    assert!(!n.contains("refresh to check"), "the advice once: {n}");
}

#[test]
fn the_import_report_scrolls_with_the_keymaps_moves() {
    let (mut m, _) = importing(first_chunk());
    drive::ctrl(&mut m, 's');
    let cmds = drive::ctrl(&mut m, 's');
    service(&mut m, cmds, &[]);
    let Some(Dialog::Import(d)) = m.panes.campaigns.dialog.as_mut() else {
        panic!("the import");
    };
    d.stage = import::Stage::Done;
    m.keymap = crate::app::keymap::Keymap::with_overrides(&[crate::config::KeyOverride {
        scope: "global".into(),
        key: "v".into(),
        action: "down".into(),
        origin: "test.toml".into(),
    }])
    .expect("keymap");
    drive::key(&mut m, KeyCode::Char('v'));
    assert_eq!(dialog(&m).scroll, 1, "the remapped down key scrolls");
    drive::key(&mut m, KeyCode::Char('j'));
    assert_eq!(dialog(&m).scroll, 2, "j stays bound too");
}

/// A draft's sequence editor with "!" typed after the first subject.
fn sequence_typed() -> (Campaign, Model) {
    let c = status_campaign(CampaignStatus::Draft);
    let mut m = opened(&c);
    drive::key(&mut m, KeyCode::Char('s'));
    drive::key(&mut m, KeyCode::End);
    drive::chars(&mut m, "!");
    (c, m)
}

#[test]
fn the_sequence_saved_notice_says_what_was_saved() {
    let (c, mut m) = sequence_typed();
    let cmds = drive::ctrl(&mut m, 's');
    answer(&mut m, cmds, |r| match r {
        ApiRequest::UpdateCampaign { .. } => Some(campaign_reply(&c)),
        _ => None,
    });
    let t = toasts(&m);
    assert!(
        t.contains("Sequence saved: “EU RevOps” has 1 step, then the end"),
        "{t}"
    );
}

#[test]
fn a_dialog_is_edited_in_place_and_keeps_what_was_typed_when_refused() {
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Enter);
    assert!(matches!(m.panes.campaigns.dialog, Some(Dialog::Lead(_))));
    drive::key(&mut m, KeyCode::Char('j'));
    let Some(Dialog::Lead(d)) = &m.panes.campaigns.dialog else {
        panic!("the lead stays open");
    };
    assert_eq!(d.scroll, 1);
    drive::key(&mut m, KeyCode::Char('e'));
    // The email (focused first) is typed over with one the service refuses.
    drive::ctrl(&mut m, 'u');
    drive::chars(&mut m, "ana.typed@nowhere");
    let cmds = drive::ctrl(&mut m, 's');
    assert!(matches!(
        &requests(&cmds)[..],
        [ApiRequest::EditLead { .. }]
    ));
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Lead(Box::new(Err(service_error(
            422,
            r#"{"error":{"code":"invalid_request","message":"email: not a deliverable address"}}"#,
        )))))
    });
    let form = edit_form(&mut m);
    assert_eq!(
        form.value("email"),
        "ana.typed@nowhere",
        "the typed text stays"
    );
    let error = form.fields.iter().find(|f| f.key == "email");
    let error = error.and_then(|f| f.error.clone());
    assert_eq!(
        error.as_deref(),
        Some("not a deliverable address"),
        "the refusal is on the field it names"
    );
    let shown = crate::app::cache_tests::screen(&m);
    assert!(shown.contains("ana.typed@nowhere"), "{shown}");
    assert!(shown.contains("✗ not a deliverable address"), "{shown}");
}

/// A create of "Fresh" whose answer was lost, its form closed while the
/// list is read: the model and that read.
fn lost_then_closed() -> (Model, Vec<Cmd>) {
    let mut m = with_list(&fixtures::campaigns());
    let check = sent_and_lost(&mut m);
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.panes.campaigns.create.is_none(), "Esc closes it");
    assert!(m.state.drafts.contains_key(create::DRAFT_KEY), "kept");
    (m, check)
}

#[test]
fn a_lost_create_is_still_asked_about_after_its_form_is_closed_and_opened_again() {
    let (mut m, check) = lost_then_closed();
    // The looks go on with the form closed.
    answer(&mut m, check, |_| {
        Some(ApiReply::Campaigns(Ok(Some(fixtures::campaigns()))))
    });
    assert!(
        lost_create::recheck(&m.panes.campaigns).is_some(),
        "looked for again later"
    );
    // Opened again: the form says what is known (also once its senders
    // arrive), and Ctrl-S asks before a second POST.
    create_open(&mut m);
    let f = m.panes.campaigns.create.as_ref().expect("the form");
    assert_eq!(f.form.value("name"), "Fresh", "the draft is back");
    assert!(
        note(&m).contains("may have been carried out"),
        "{}",
        note(&m)
    );
    let cmds = drive::ctrl(&mut m, 's');
    assert!(requests(&cmds).is_empty(), "no second POST without asking");
    let q = confirm_title(&m).expect("asks");
    assert!(q.contains("Create again?") && q.contains("“Fresh”"), "{q}");
    drive::key(&mut m, KeyCode::Esc);
    assert!(note(&m).contains("may have been carried out"), "still said");
}

#[test]
fn a_lost_create_found_after_its_form_was_closed_is_said_and_its_draft_dropped() {
    let (mut m, check) = lost_then_closed();
    let mut list = fixtures::campaigns();
    list.insert(0, made_now("c-new", "Fresh"));
    let cmds = answer(&mut m, check, |_| {
        Some(ApiReply::Campaigns(Ok(Some(list.clone()))))
    });
    assert!(toasts(&m).contains("Campaign created"), "{}", toasts(&m));
    assert!(!m.state.drafts.contains_key(create::DRAFT_KEY));
    assert!(cmds.iter().any(|c| matches!(c, Cmd::SaveState(_))));
    assert!(
        lost_create::recheck(&m.panes.campaigns).is_none(),
        "settled"
    );
    assert_eq!(m.panes.campaigns.view, View::List, "the view stays");
    assert!(m.panes.campaigns.list.rows.iter().any(|c| c.id == "c-new"));
    // A new form starts blank and sends without asking.
    create_open(&mut m);
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "Other");
    let cmds = drive::ctrl(&mut m, 's');
    assert!(matches!(&requests(&cmds)[..], [ApiRequest::CreateCampaign(c)] if c.name == "Other"));
}

#[test]
fn an_older_campaign_of_the_same_name_is_not_taken_for_a_lost_create() {
    // Opened from the Leads pane: the campaigns were never read, so no
    // campaign is known to be older than the create.
    let mut m = fixtures::model(100, 30);
    let cmds = and_queued(
        on_pane(&mut m, |c, cx| create::open_for_leads(c, cx, None)),
        &mut m,
    );
    answer(&mut m, cmds, |r| match r {
        ApiRequest::ListSenders => Some(ApiReply::Senders(Ok(fixtures::senders()))),
        _ => None,
    });
    drive::key(&mut m, KeyCode::Tab);
    drive::chars(&mut m, "Fresh");
    let cmds = drive::ctrl(&mut m, 's');
    let id = drive::api(&cmds)[0].0;
    let check = drive::reply(
        &mut m,
        id,
        ApiReply::Campaign(Box::new(Err(lost_after_sending()))),
    );
    // Made two days before the create was sent.
    let older = fixtures::campaign("c-old", "Fresh", Channel::Email, CampaignStatus::Active, 40);
    answer(&mut m, check, |r| match r {
        ApiRequest::ListCampaigns => Some(ApiReply::Campaigns(Ok(Some(vec![older.clone()])))),
        _ => None,
    });
    assert!(!toasts(&m).contains("Campaign created"), "{}", toasts(&m));
    assert!(m.panes.campaigns.create.is_some(), "the form stays");
    assert_eq!(
        m.pane,
        crate::app::Pane::Campaigns,
        "nothing handed back: the Leads pane is not shown"
    );
    assert!(
        note(&m).contains("not there after 1 of 5 good reads"),
        "{}",
        note(&m)
    );
}

#[test]
fn esc_while_an_edit_is_saved_keeps_it_as_a_draft_until_the_save_succeeds() {
    let lead_email = |m: &mut Model| edit_form(m).value("email");
    let mut m = opened(&status_campaign(CampaignStatus::Draft));
    roster_open(&mut m, 12);
    drive::key(&mut m, KeyCode::Char('e'));
    drive::chars(&mut m, "x");
    let typed = lead_email(&mut m);
    let cmds = drive::ctrl(&mut m, 's');
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.panes.campaigns.dialog.is_none(), "Esc still closes");
    assert!(m.state.drafts.contains_key("campaign-lead:c-1-l0"));
    assert!(
        toasts(&m).contains("should it fail, e on the lead brings it back"),
        "{}",
        toasts(&m)
    );
    // The save fails: the edit comes back with `e`.
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Lead(Box::new(Err(service_error(
            500,
            r#"{"error":{"code":"internal_error","message":"boom"}}"#,
        )))))
    });
    drive::key(&mut m, KeyCode::Char('e'));
    assert_eq!(lead_email(&mut m), typed, "the edit is back");
    // Sent again and closed again: this time it succeeds, and the draft goes.
    let cmds = drive::ctrl(&mut m, 's');
    drive::key(&mut m, KeyCode::Esc);
    let mut saved = fixtures::campaign_lead("c-1", 0, LeadStatus::Pending);
    saved.email = typed;
    let rest = answer(&mut m, cmds, |_| {
        Some(ApiReply::Lead(Box::new(Ok(saved.clone()))))
    });
    assert!(!m.state.drafts.contains_key("campaign-lead:c-1-l0"));
    assert!(
        rest.iter().any(|c| matches!(c, Cmd::SaveState(_))),
        "the state file follows"
    );
    // The message edit: the same.
    let mut m = opened(&status_campaign(CampaignStatus::Active));
    messages_open(&mut m);
    drive::key(&mut m, KeyCode::Char('e'));
    drive::key(&mut m, KeyCode::End);
    drive::chars(&mut m, "?");
    let cmds = drive::ctrl(&mut m, 's');
    drive::key(&mut m, KeyCode::Esc);
    assert!(m.state.drafts.contains_key("generated-message:c-1-m0"));
    answer(&mut m, cmds, |_| {
        Some(ApiReply::Message(Box::new(Err(service_error(
            500,
            r#"{"error":{"code":"internal_error","message":"boom"}}"#,
        )))))
    });
    drive::key(&mut m, KeyCode::Char('e'));
    let Some(Dialog::EditMessage(d)) = &m.panes.campaigns.dialog else {
        panic!("the message edit");
    };
    assert!(d.form.value("subject").ends_with('?'), "the edit is back");
}

#[test]
fn the_sequence_editor_takes_no_text_while_its_save_is_on_the_way() {
    let (c, mut m) = sequence_typed();
    let subject = |m: &Model| {
        let e = m.panes.campaigns.sequence.as_ref().expect("the editor");
        e.step().expect("a step").subject.lines().join("")
    };
    let sent = subject(&m);
    let cmds = drive::ctrl(&mut m, 's');
    drive::chars(&mut m, " and more");
    update(&mut m, Msg::Paste(" pasted".into()));
    drive::ctrl(&mut m, 'u');
    assert_eq!(
        subject(&m),
        sent,
        "nothing is typed into a sequence being saved"
    );
    let e = m.panes.campaigns.sequence.as_ref().expect("the editor");
    assert!(
        e.note.as_deref().is_some_and(|n| n.contains("saving")),
        "{:?}",
        e.note
    );
    let mut saved = c.clone();
    if let Some(n) = saved.sequence_nodes.as_mut() {
        n[0].subject.clone_from(&sent);
    }
    answer(&mut m, cmds, |_| Some(campaign_reply(&saved)));
    assert!(
        m.panes.campaigns.sequence.is_none(),
        "saved: the editor closes"
    );
    assert_eq!(
        crate::app::dispatch::unsent(&m),
        None,
        "nothing typed was lost"
    );
}

#[test]
fn the_sequence_saved_notice_names_the_campaign_saved_when_another_is_open() {
    let (c, mut m) = sequence_typed();
    let save = drive::ctrl(&mut m, 's');
    drive::key(&mut m, KeyCode::Esc);
    // Another campaign is opened before the save answers.
    let other = fixtures::campaign_detail(
        "c-9",
        "Q3 founders",
        Channel::Email,
        CampaignStatus::Draft,
        5,
    );
    let cmds = on_pane(&mut m, |c, cx| open_by_id(c, cx, "c-9", "pasted"));
    answer(&mut m, cmds, |r| match r {
        ApiRequest::GetCampaign { .. } => Some(campaign_reply(&other)),
        _ => None,
    });
    assert_eq!(m.panes.campaigns.open_id(), Some("c-9"));
    answer(&mut m, save, |_| Some(campaign_reply(&c)));
    let t = toasts(&m);
    assert!(t.contains("Sequence saved: “EU RevOps” has 1 step"), "{t}");
    assert!(
        !m.state.drafts.contains_key("sequence:c-1"),
        "its draft is dropped"
    );
}

#[test]
fn a_lead_with_a_blank_custom_field_key_from_the_service_can_be_saved() {
    let mut m = roster_with_fields(&json!({"": "from an import", "plan": "pro"}));
    drive::key(&mut m, KeyCode::Char('e'));
    edit_form(&mut m).set_value("company", "Initech");
    let edit = sent_edit(&drive::ctrl(&mut m, 's'));
    assert_eq!(edit.fields.company.as_deref(), Some("Initech"));
    assert_eq!(edit.fields.custom_fields, None, "unchanged, not sent");
}
