//! The table of operations (`api::ops`) against the client: every
//! operation that declares how a lost answer is settled (a write) is
//! refused by a read-only client before anything leaves, and every read
//! goes out; each request goes to the route family the table names. A new
//! operation of the table that is not sampled here fails the test.

use std::collections::BTreeSet;
use std::sync::Arc;

use outpost::testkit::api::model::*;
use outpost::testkit::api::{Client, RouteFamily};
use outpost::testkit::app::ApiRequest;
use outpost::testkit::journal::{self, Journal, Outcome, Source};
use outpost::testkit::logic::write::Settle;
use outpost::testkit::runtime::effects::execute;

use crate::support::*;

/// A sample's name: the operation's, the verify poll (a read) and trigger
/// (a write) apart.
fn name(r: &ApiRequest) -> String {
    match r {
        ApiRequest::VerifyDomain { poll: true, .. } => "VerifyDomain(poll)".into(),
        ApiRequest::VerifyDomain { poll: false, .. } => "VerifyDomain(trigger)".into(),
        other => other.name().into(),
    }
}

fn lead() -> LeadInput {
    LeadInput {
        email: Some("a@example.com".into()),
        ..Default::default()
    }
}

/// One request of every read.
fn reads() -> Vec<ApiRequest> {
    let id = || "x1".to_owned();
    vec![
        ApiRequest::ListDomains { skip_sync: true },
        ApiRequest::VerifyDomain {
            id: id(),
            poll: true,
        },
        ApiRequest::ListSenders,
        ApiRequest::SenderSchedule { id: id() },
        ApiRequest::ListSearches,
        ApiRequest::GetSearch {
            id: id(),
            page: SearchPageQuery::default(),
        },
        ApiRequest::QueryResults {
            id: id(),
            query: ResultsQuery::default(),
        },
        ApiRequest::Enrichment {
            id: id(),
            result_id: id(),
        },
        ApiRequest::ListCampaigns,
        ApiRequest::GetCampaign { id: id() },
        ApiRequest::ListLeads {
            id: id(),
            query: RosterQuery::default(),
        },
        ApiRequest::GeneratedMessages {
            id: id(),
            query: GeneratedMessagesQuery::default(),
        },
        ApiRequest::ListThreads {
            query: ThreadQuery::default(),
        },
        ApiRequest::GetThread { id: id() },
        ApiRequest::ListMessages {
            id: id(),
            page: None,
            limit: None,
        },
        ApiRequest::GetSender { id: id() },
        ApiRequest::GetContext,
    ]
}

/// One request of every write.
fn writes() -> Vec<ApiRequest> {
    let id = || "x1".to_owned();
    vec![
        ApiRequest::CreateDomain {
            name: "a.example.com".into(),
        },
        ApiRequest::VerifyDomain {
            id: id(),
            poll: false,
        },
        ApiRequest::CreateSearch(Box::new(crate::http::valid_search())),
        ApiRequest::RunSearch {
            id: id(),
            continuation: None,
        },
        ApiRequest::RunAll,
        ApiRequest::AddLeads {
            id: id(),
            channel: Channel::Email,
            leads: Arc::from(vec![lead()]),
        },
        ApiRequest::CreateCampaign(Box::new(CreateCampaign {
            kind: Channel::Email,
            name: "Q4".into(),
            ..Default::default()
        })),
        ApiRequest::UpdateCampaign {
            id: id(),
            update: Box::new(UpdateCampaign {
                name: Some("Q4".into()),
                ..Default::default()
            }),
        },
        ApiRequest::LaunchCampaign { id: id() },
        ApiRequest::PauseCampaign { id: id() },
        ApiRequest::ResumeCampaign { id: id() },
        ApiRequest::EditLead {
            id: id(),
            edit: Box::new(EditLead {
                id: id(),
                fields: lead(),
            }),
        },
        ApiRequest::DeleteLeads {
            id: id(),
            which: DeleteLeads::Ids { ids: vec![id()] },
        },
        ApiRequest::EditGeneratedMessage {
            id: id(),
            edit: EditGeneratedMessage {
                message_id: id(),
                subject: Some("Hi".into()),
                ..Default::default()
            },
        },
        ApiRequest::CreateThread(Box::new(CreateThread {
            draft_subject: Some("Hi".into()),
            ..Default::default()
        })),
        ApiRequest::PatchThread {
            id: id(),
            patch: Box::new(PatchThread {
                unread_count: Some(0),
                ..Default::default()
            }),
        },
        ApiRequest::DeleteThread { id: id() },
        ApiRequest::SendMessage {
            id: id(),
            send: Box::default(),
        },
        ApiRequest::PutContext(Box::default()),
        ApiRequest::Redeem {
            code: "DEMO-PASS-1".into(),
        },
    ]
}

/// One request of every operation (37, the two kinds of verify apart).
fn every_operation() -> Vec<ApiRequest> {
    [reads(), writes()].concat()
}

#[tokio::test]
async fn read_only_refuses_exactly_the_operations_the_table_calls_writes() {
    let ops = every_operation();
    let names: BTreeSet<String> = ops.iter().map(name).collect();
    assert_eq!(names.len(), ops.len(), "each operation once");
    let sampled: BTreeSet<&str> = ops.iter().map(ApiRequest::name).collect();
    let table: BTreeSet<&str> = ApiRequest::NAMES.iter().copied().collect();
    assert_eq!(sampled, table, "every operation of the table is sampled");
    assert_eq!(names.len(), 37);
    // Nothing listens: a read fails to connect; a write must never get
    // that far.
    let addr = dead_port().await;
    let mut cfg = config(&format!("http://{addr}"));
    cfg.read_only = true;
    cfg.retry.max_attempts = 1;
    let client = Client::new(cfg).expect("client");
    for op in ops {
        let settle = op.settle();
        let what = name(&op);
        let reply = format!("{:?}", execute(&client, op).await);
        let refused = reply.contains("ReadOnly {");
        assert_eq!(
            refused,
            settle.is_some(),
            "{what} (settled as {settle:?}): {reply}"
        );
        if !refused {
            assert!(reply.contains("Connect {"), "{what} went out: {reply}");
        }
    }
}

#[test]
fn the_writes_that_cannot_be_checked_or_can_be_repeated_are_declared() {
    let settled = |want: Settle| -> BTreeSet<String> {
        every_operation()
            .iter()
            .filter(|o| o.settle() == Some(want))
            .map(name)
            .collect()
    };
    assert_eq!(
        settled(Settle::SafeToRepeat),
        // The Campaigns pane says "sending it again is safe" of a lost
        // lead edit, lead delete or message edit: the table agrees.
        [
            "AddLeads",
            "DeleteLeads",
            "EditGeneratedMessage",
            "EditLead",
            "PutContext",
            "VerifyDomain(trigger)"
        ]
        .map(String::from)
        .into()
    );
    assert_eq!(settled(Settle::NoCheck), ["Redeem".to_owned()].into());
}

#[tokio::test]
async fn each_operation_goes_to_the_route_family_the_table_names() {
    let server = Server::always(Reply::raw(404, "")).await;
    let mut cfg = config(&server.url());
    cfg.retry.max_attempts = 1;
    let client = Client::new(cfg).expect("client");
    for op in every_operation() {
        let (what, family) = (name(&op), op.family());
        let before = server.count();
        execute(&client, op).await;
        let hits = server.hits();
        assert_eq!(hits.len(), before + 1, "{what} sent once");
        let path = hits.last().map(|h| h.path.clone()).unwrap_or_default();
        assert_eq!(RouteFamily::of(&path), family, "{what}: {path}");
    }
}

/// Every write of the table, sent through `execute` as both front ends
/// send them, leaves one journal line naming its operation; a read leaves
/// none.
#[tokio::test]
async fn every_write_and_no_read_is_journaled_once() {
    let server = Server::always(Reply::raw(
        409,
        r#"{"error":{"code":"conflict","message":"not now"}}"#,
    ))
    .await;
    let mut cfg = config(&server.url());
    cfg.retry.max_attempts = 1;
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join(journal::FILE);
    let client = Client::new(cfg).expect("client").with_journal(Journal::new(
        path.clone(),
        None,
        Source::Cli,
    ));
    for op in every_operation() {
        execute(&client, op).await;
    }
    let read = journal::read(&path).expect("the journal");
    let recorded: Vec<&str> = read
        .records
        .iter()
        .rev()
        .map(|r| r.write.operation.as_str())
        .collect();
    let sent: Vec<&str> = writes().iter().map(ApiRequest::name).collect();
    assert_eq!(recorded, sent);
    for r in &read.records {
        assert_eq!(r.write.outcome, Outcome::Refused, "{:?}", r.write);
        assert!(!r.write.target.kind.is_empty(), "{:?}", r.write);
    }
}
