//! The write journal against the demo service: writes sent through the
//! table of operations (`execute`, as the dashboard's runtime and the CLI
//! send them) are recorded once each, with what was sent and how it came
//! out — a send, a launch, a launch the service refused — and reads never.

use outpost::testkit::api::model::*;
use outpost::testkit::api::ops::{execute, execute_recorded};
use outpost::testkit::api::{ApiRequest, Client};
use outpost::testkit::journal::{self, Journal, Outcome, Source};
use outpost::testkit::logic::write::Verdict;

use crate::common::*;

async fn ready_sender(svc: &Svc, kind: Channel) -> String {
    svc.api
        .list_senders(Some(&kind))
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.status == "connected")
        .unwrap()
        .id
}

/// A draft thread to Rosa, then its message sent: the thread and the
/// send's journal entry.
async fn send_to_rosa(api: &Client, sender: &str) -> (Thread, Option<String>) {
    let created = execute(
        api,
        ApiRequest::CreateThread(Box::new(CreateThread {
            participant_email: Some("rosa@example.com".into()),
            account_id: Some(Some(sender.to_owned())),
            ..Default::default()
        })),
    )
    .await;
    let thread = created
        .typed::<CreateThreadResponse>()
        .unwrap()
        .unwrap()
        .thread;
    let (sent, entry) = execute_recorded(
        api,
        ApiRequest::SendMessage {
            id: thread.id.clone(),
            send: Box::new(SendMessage {
                account_id: Some(sender.to_owned()),
                subject: Some("Re: pricing".into()),
                body_text: Some("Hi Rosa,\nthe Growth plan fits.".into()),
                body_html: None,
            }),
        },
        None,
    )
    .await;
    assert!(sent.error().is_none(), "{sent:?}");
    (thread, entry)
}

/// A campaign with leads, launched, then launched again: the service
/// refuses a launch of a campaign that is no longer a draft.
async fn launch_twice(api: &Client, sender: &str) -> Campaign {
    let campaign = execute(
        api,
        ApiRequest::CreateCampaign(Box::new(CreateCampaign {
            kind: Channel::Email,
            name: "Journal spring".into(),
            sender_account_ids: vec![sender.to_owned()],
            ..Default::default()
        })),
    )
    .await
    .typed::<Campaign>()
    .unwrap()
    .unwrap();
    let leads: Vec<LeadInput> = (0..3)
        .map(|i| LeadInput {
            email: Some(format!("j{i}@example.com")),
            ..Default::default()
        })
        .collect();
    execute(
        api,
        ApiRequest::AddLeads {
            id: campaign.id.clone(),
            channel: Channel::Email,
            leads: leads.into(),
        },
    )
    .await;
    let launch = || ApiRequest::LaunchCampaign {
        id: campaign.id.clone(),
    };
    assert!(execute(api, launch()).await.error().is_none());
    assert!(execute(api, launch()).await.error().is_some());
    campaign
}

#[tokio::test]
async fn a_send_a_launch_and_a_refused_launch_are_journaled_and_reads_are_not() {
    let svc = start().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(journal::FILE);
    let api = svc
        .api
        .clone()
        .with_journal(Journal::new(path.clone(), None, Source::Dashboard));
    let sender = ready_sender(&svc, Channel::Email).await;
    let (thread, sent_id) = send_to_rosa(&api, &sender).await;
    let campaign = launch_twice(&api, &sender).await;
    // A read changes nothing: never journaled.
    execute(
        &api,
        ApiRequest::GetCampaign {
            id: campaign.id.clone(),
        },
    )
    .await;

    let read = journal::read(&path).unwrap();
    let ops: Vec<(&str, Outcome)> = read
        .records
        .iter()
        .map(|r| (r.write.operation.as_str(), r.write.outcome))
        .collect();
    assert_eq!(
        ops,
        [
            ("LaunchCampaign", Outcome::Refused),
            ("LaunchCampaign", Outcome::Done),
            ("AddLeads", Outcome::Done),
            ("CreateCampaign", Outcome::Done),
            ("SendMessage", Outcome::Done),
            ("CreateThread", Outcome::Done),
        ],
        "newest first, one line per write"
    );
    let refused = &read.records[0].write;
    assert_eq!(
        (refused.status, refused.code.as_deref()),
        (Some(409), Some("conflict"))
    );
    assert_eq!(refused.target.id.as_deref(), Some(campaign.id.as_str()));
    let launched = &read.records[1].write;
    assert_eq!(launched.target.name.as_deref(), Some("Journal spring"));
    assert_eq!(read.records[2].write.summary, "3 leads (email)");
    let send = &read.records[4].write;
    assert_eq!(Some(&send.id), sent_id.as_ref());
    assert_eq!(send.target.kind, "thread");
    assert_eq!(send.target.id.as_deref(), Some(thread.id.as_str()));
    assert_eq!(send.target.name.as_deref(), Some("rosa@example.com"));
    assert!(
        send.summary
            .starts_with("subject: \"Re: pricing\"; body: \"Hi Rosa, the Growth plan fits.\""),
        "{}",
        send.summary
    );
    assert_eq!(send.source, Source::Dashboard);

    // A verdict names its entry and is read back with it.
    api.journal()
        .unwrap()
        .verdict(&send.id, &Verdict::Found("found in the thread".into()));
    let read = journal::read(&path).unwrap();
    let v = read.records[4].verdict.as_ref().expect("the verdict");
    assert_eq!(
        (v.verdict.as_str(), v.text.as_str()),
        ("found", "found in the thread")
    );
}

/// A write sent around `execute` (a client method called directly) is
/// still journaled, once, by its route; one through `execute` once, by
/// its name.
#[tokio::test]
async fn a_write_around_the_table_is_journaled_by_its_route() {
    let svc = start().await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(journal::FILE);
    let api = svc
        .api
        .clone()
        .with_journal(Journal::new(path.clone(), None, Source::Cli));
    let e = api.launch_campaign("no-such-campaign").await.unwrap_err();
    assert_eq!(e.status(), Some(404));
    api.list_campaigns().await.unwrap();
    execute(
        &api,
        ApiRequest::LaunchCampaign {
            id: "no-such-campaign".into(),
        },
    )
    .await;
    let read = journal::read(&path).unwrap();
    let ops: Vec<(&str, Option<&str>, Outcome)> = read
        .records
        .iter()
        .map(|r| {
            (
                r.write.operation.as_str(),
                r.write.target.id.as_deref(),
                r.write.outcome,
            )
        })
        .collect();
    assert_eq!(
        ops,
        [
            ("LaunchCampaign", Some("no-such-campaign"), Outcome::Refused),
            (
                "POST /api/campaigns/no-such-campaign/launch",
                Some("no-such-campaign"),
                Outcome::Refused
            ),
        ]
    );
}
