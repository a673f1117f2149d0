//! Read-only mode, proven by the demo service's request log: whatever the
//! client is asked, whatever command runs, nothing but reads reaches the
//! service (the dashboard's keys: `read_only_keys.rs`).

use std::time::Duration;

use outpost::testkit::api::model::*;
use outpost::testkit::api::{ApiError, ApiKey, Client, ClientConfig};

use crate::support::{Serve, cli, workspace, workspace_with};

const SEARCH: &str = "22ea635b-81b0-481e-888c-7d18bfd7f7bf";
const CAMPAIGN: &str = "c3752f7d-db10-475d-ad9f-5671fe0e5e56";
const ACTIVE: &str = "c844f263-513a-4e80-9bee-d4813d6c0576";
const DOMAIN: &str = "72e836d0-b00c-4b6d-b5a2-6cecc36ea49b";
const THREAD: &str = "2b303a75-90a5-47fc-898d-61e1345d3e4d";

fn client(url: &str, read_only: bool) -> Client {
    let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
    let mut cfg = ClientConfig::new(url, key);
    cfg.read_only = read_only;
    Client::new(cfg).expect("client")
}

/// An outcome without its value.
fn ok<T>(r: Result<T, ApiError>) -> Result<(), ApiError> {
    r.map(|_| ())
}

/// Calls every operation of the client that could change the service;
/// returns each outcome, named.
async fn every_write(c: &Client) -> Vec<(&'static str, Result<(), ApiError>)> {
    let mut all = search_and_campaign_writes(c).await;
    all.extend(other_writes(c).await);
    all
}

/// A search the service would create.
fn new_search() -> CreateSearch {
    let plan = SourcePlan {
        source_id: SourceId::NetworkPeople,
        query: vec!["vp sales".into()],
        reason: "r".into(),
        ..SourcePlan::default()
    };
    CreateSearch {
        title: "t".into(),
        kind: SearchKind::Static,
        intent: "i".into(),
        source_plans: vec![plan],
        ..CreateSearch::default()
    }
}

/// The Lead Finder and campaign writes.
async fn search_and_campaign_writes(c: &Client) -> Vec<(&'static str, Result<(), ApiError>)> {
    let search = new_search();
    let lead = LeadInput {
        network_url: Some("https://network.example/in/ro".into()),
        ..LeadInput::default()
    };
    vec![
        ("create_search", ok(c.create_search(&search).await)),
        ("run_search", ok(c.run_search(SEARCH, None).await)),
        ("run_all", ok(c.run_all().await)),
        (
            "create_campaign",
            ok(c.create_campaign(&CreateCampaign {
                kind: Channel::Email,
                name: "ro".into(),
                ..CreateCampaign::default()
            })
            .await),
        ),
        (
            "update_campaign",
            ok(c.update_campaign(
                CAMPAIGN,
                &UpdateCampaign {
                    name: Some("x".into()),
                    ..UpdateCampaign::default()
                },
            )
            .await),
        ),
        ("launch_campaign", ok(c.launch_campaign(CAMPAIGN).await)),
        ("pause_campaign", ok(c.pause_campaign(ACTIVE).await)),
        ("resume_campaign", ok(c.resume_campaign(ACTIVE).await)),
        (
            "add_leads",
            ok(
                c.add_leads(CAMPAIGN, &Channel::Network, std::slice::from_ref(&lead))
                    .await,
            ),
        ),
        (
            "edit_lead",
            ok(c.edit_lead(
                CAMPAIGN,
                &EditLead {
                    id: "x".into(),
                    fields: lead,
                },
            )
            .await),
        ),
        (
            "delete_leads",
            ok(c.delete_leads(CAMPAIGN, &DeleteLeads::All { all: true })
                .await),
        ),
        (
            "edit_generated_message",
            ok(c.edit_generated_message(
                ACTIVE,
                &EditGeneratedMessage {
                    message_id: "m".into(),
                    subject: Some("s".into()),
                    ..EditGeneratedMessage::default()
                },
            )
            .await),
        ),
    ]
}

/// The inbox, domain, profile and pass writes.
async fn other_writes(c: &Client) -> Vec<(&'static str, Result<(), ApiError>)> {
    let context = c.get_context().await.expect("a read passes");
    vec![
        (
            "create_thread",
            ok(c.create_thread(&CreateThread {
                participant_email: Some("ro@example.com".into()),
                draft_subject: Some("s".into()),
                ..CreateThread::default()
            })
            .await),
        ),
        (
            "patch_thread",
            ok(c.patch_thread(
                THREAD,
                &PatchThread {
                    unread_count: Some(0),
                    ..PatchThread::default()
                },
            )
            .await),
        ),
        ("delete_thread", ok(c.delete_thread(THREAD).await)),
        (
            "send_message",
            ok(c.send_message(THREAD, &SendMessage::default()).await),
        ),
        ("create_domain", ok(c.create_domain("ro.example.com").await)),
        (
            "verify_domain (trigger)",
            ok(c.verify_domain(DOMAIN, false).await),
        ),
        (
            "put_context",
            ok(c.put_context(&PutContext {
                context: context.context,
                profile: context.profile.unwrap_or_default(),
            })
            .await),
        ),
        ("redeem", ok(c.redeem("DEMO-PASS-1").await)),
    ]
}

#[test]
fn the_client_sends_nothing_but_reads_whatever_it_is_asked() {
    let serve = Serve::start(&[]);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let c = client(&serve.url, true);
        assert!(c.read_only());
        for view in [c.clone(), c.with_bypass()] {
            for (name, r) in every_write(&view).await {
                assert!(
                    matches!(r, Err(ApiError::ReadOnly { .. })),
                    "{name} was not refused: {r:?}"
                );
            }
        }
        // Reads pass, the two reading POSTs included.
        c.list_domains(true).await.expect("GET");
        let d = c.verify_domain(DOMAIN, true).await.expect("the poll read");
        assert_eq!(d.status, DomainStatus::Pending, "nothing was triggered");
        c.query_results(
            SEARCH,
            &ResultsQuery {
                q: Some("founder".into()),
                ..ResultsQuery::default()
            },
        )
        .await
        .expect("the results filter");
        assert_eq!(c.attempts(), 5, "only the five reads were attempted");
    });
    let logged = serve.wait_requests(5);
    assert_eq!(logged.len(), 5, "{logged:?}");
    assert!(serve.writes().is_empty(), "{:?}", serve.writes());

    // The witness sees writes: the same calls without read-only reach it.
    rt.block_on(async {
        let c = client(&serve.url, false);
        let _ = every_write(&c).await;
    });
    let end = std::time::Instant::now() + Duration::from_secs(10);
    while serve.writes().len() < 20 && std::time::Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(serve.writes().len(), 20, "{:?}", serve.writes());
}

#[test]
fn the_commands_refuse_writes_and_read_as_usual() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace_with(&serve, "read_only = true\n");
    let d = dir.path();
    for args in [
        &["searches", "--json"][..],
        &["results", SEARCH, "--q", "founder", "--json"],
        &["campaigns", "--json"],
        &["campaign", ACTIVE, "--json"],
        &["threads", "--json"],
        &["domains", "--json"],
        &[
            "domain",
            "watch",
            "mail.northwind-demo.io",
            "--interval",
            "0.2",
            "--timeout",
            "20",
        ],
    ] {
        let r = cli(d, args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
    let file = d.join("l.csv");
    std::fs::write(&file, "email\nro@example.com\n").expect("csv");
    let import = cli(
        d,
        &[
            "leads",
            "import",
            CAMPAIGN,
            file.to_str().unwrap_or_default(),
        ],
    );
    assert_eq!(import.code, 6, "{}", import.stderr);
    assert!(
        import.stderr.contains("read-only mode"),
        "{}",
        import.stderr
    );
    let redeem = cli(d, &["redeem", "DEMO-PASS-1"]);
    assert_eq!(redeem.code, 6, "{}", redeem.stderr);
    assert!(
        redeem
            .stderr
            .contains("read_only: POST /api/test-access/redeem was not sent: read-only mode"),
        "{}",
        redeem.stderr
    );
    let trigger = cli(d, &["domain", "watch", DOMAIN, "--trigger"]);
    assert_eq!(trigger.code, 6, "{}", trigger.stderr);
    // The flag does the same without the config.
    let plain = workspace(&serve);
    let flag = cli(plain.path(), &["--read-only", "redeem", "DEMO-PASS-1"]);
    assert_eq!(flag.code, 6);
    assert!(!serve.requests().is_empty());
    assert!(serve.writes().is_empty(), "{:?}", serve.writes());
}
