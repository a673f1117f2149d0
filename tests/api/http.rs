//! Every client method against a recording server: the Bearer header, the
//! route, the query names and the body each operation sends; plus the HTTPS
//! rule, the body cap, malformed and empty answers, optional routes, and ids
//! that must not change the route.

use outpost::testkit::api::model::*;
use outpost::testkit::api::{ApiError, Client, ClientConfig};
use serde_json::{Value, json};

use crate::support::*;

/// Answers every request with `{}`: 201 for the creating POSTs, 200 else.
async fn ok_server() -> Server {
    Server::start(|hit, _| {
        let creates = [
            "/api/lead-finder",
            "/api/campaigns",
            "/api/threads",
            "/api/email/domains",
            "/api/threads/t1/messages",
        ];
        let status = if hit.method == "POST" && creates.contains(&hit.path.as_str()) {
            201
        } else {
            200
        };
        Reply::json(status, &json!({}))
    })
    .await
}

pub fn valid_search() -> CreateSearch {
    CreateSearch {
        title: "Nordic revenue leaders".into(),
        kind: SearchKind::Recurring,
        intent: "Book demos".into(),
        source_plans: vec![SourcePlan {
            source_id: SourceId::NetworkPeople,
            query: vec!["VP Sales".into()],
            reason: "They own the number".into(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Checks one recorded request: Bearer header, method, raw path, query pairs
/// (order-free) and JSON body (with its content type) or no body.
#[track_caller]
fn check(hit: &Hit, method: &str, path: &str, query: &[(&str, &str)], body: Option<Value>) {
    let what = format!("{method} {path}");
    assert_eq!(
        hit.auth.as_deref(),
        Some(format!("Bearer {KEY}").as_str()),
        "{what}: Bearer header"
    );
    assert_eq!(hit.method, method, "{what}");
    assert_eq!(hit.path, path, "{what}");
    let mut got = hit.pairs();
    got.sort();
    let mut want: Vec<(String, String)> = query
        .iter()
        .map(|(k, v)| ((*k).into(), (*v).into()))
        .collect();
    want.sort();
    assert_eq!(got, want, "{what}: query");
    match body {
        Some(b) => {
            assert_eq!(
                hit.content_type.as_deref(),
                Some("application/json"),
                "{what}: content type"
            );
            assert_eq!(hit.json(), b, "{what}: body");
        }
        None => {
            assert!(
                hit.body.is_empty(),
                "{what}: no body expected, got {:?}",
                String::from_utf8_lossy(&hit.body)
            );
            assert_eq!(
                hit.content_type, None,
                "{what}: no content type without a body"
            );
        }
    }
}

/// A client against [`ok_server`]: `next` reads the recorded requests in
/// order, `finish` checks there was exactly one per call.
struct Recorder {
    srv: Server,
    c: Client,
    n: usize,
}

impl Recorder {
    async fn start() -> Recorder {
        let srv = ok_server().await;
        let c = client(&srv.url());
        Recorder { srv, c, n: 0 }
    }

    /// The next recorded request.
    fn next(&mut self) -> Hit {
        self.n += 1;
        self.srv
            .hits()
            .get(self.n - 1)
            .cloned()
            .expect("the call reached the server")
    }

    /// One request per call (no retries), each with the Bearer header.
    fn finish(&self) {
        assert_eq!(self.srv.count(), self.n, "one request per call, no retries");
        assert_eq!(self.c.attempts(), self.n as u64);
        assert!(
            self.srv
                .hits()
                .iter()
                .all(|h| h.auth.as_deref() == Some(&*format!("Bearer {KEY}")))
        );
    }
}

// Lead Finder: searches.
#[tokio::test]
async fn search_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    assert_eq!(c.list_searches().await.unwrap(), Some(vec![]));
    check(&r.next(), "GET", "/api/lead-finder", &[], None);
    c.create_search(&valid_search()).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/lead-finder",
        &[],
        Some(
            json!({"title": "Nordic revenue leaders", "kind": "recurring", "intent": "Book demos",
                    "sourcePlans": [{"sourceId": "network_people", "query": ["VP Sales"], "reason": "They own the number"}]}),
        ),
    );
    let page = SearchPageQuery {
        limit: Some(500),
        offset: Some(100),
        cursor: Some(150),
    };
    c.get_search("s1", &page).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/lead-finder/s1",
        &[("limit", "500"), ("offset", "100"), ("cursor", "150")],
        None,
    );
    c.get_search("s1", &SearchPageQuery::default())
        .await
        .unwrap();
    check(&r.next(), "GET", "/api/lead-finder/s1", &[], None);
    r.finish();
}

// Lead Finder: results, runs and enrichment.
#[tokio::test]
async fn results_and_run_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    let rq = ResultsQuery {
        q: Some("acme".into()),
        predicates: vec![Predicate {
            path: "person.email".into(),
            operator: Operator::Contains,
            value: PredicateValue::Text("@acme".into()),
        }],
        sort: Some(Sort::ScoreDesc),
        cursor: Some("abc".into()),
        limit: Some(10),
    };
    c.query_results("s1", &rq).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/lead-finder/s1/results/query",
        &[],
        Some(
            json!({"q": "acme", "predicates": [{"path": "person.email", "operator": "contains", "value": "@acme"}],
                    "sort": "score_desc", "cursor": "abc", "limit": 10}),
        ),
    );
    c.run_search("s1", Some(true)).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/lead-finder/s1/run",
        &[("continuation", "true")],
        None,
    );
    c.run_search("s1", Some(false)).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/lead-finder/s1/run",
        &[("continuation", "false")],
        None,
    );
    c.run_search("s1", None).await.unwrap();
    check(&r.next(), "POST", "/api/lead-finder/s1/run", &[], None);
    c.run_all().await.unwrap();
    check(&r.next(), "POST", "/api/lead-finder/run", &[], None);
    c.enrichment("s1", "r1").await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/lead-finder/s1/results/r1/enrichment",
        &[],
        None,
    );
    r.finish();
}

// Campaigns: the campaign itself and its states.
#[tokio::test]
async fn campaign_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    assert_eq!(c.list_campaigns().await.unwrap(), Some(vec![]));
    check(&r.next(), "GET", "/api/campaigns", &[], None);
    let create = CreateCampaign {
        kind: Channel::Email,
        name: "Q2".into(),
        sender_account_ids: vec!["acc_1".into()],
        daily_limit: Some(50),
        ..Default::default()
    };
    c.create_campaign(&create).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/campaigns",
        &[],
        Some(
            json!({"type": "email", "name": "Q2", "sender_account_ids": ["acc_1"], "daily_limit": 50}),
        ),
    );
    c.get_campaign("c1").await.unwrap();
    check(&r.next(), "GET", "/api/campaigns/c1", &[], None);
    let update = UpdateCampaign {
        name: Some("Q3".into()),
        sequence_nodes: Some(vec![
            SequenceNodeInput {
                kind: NodeType::Email,
                subject: "Hi".into(),
                body: "Hello".into(),
            },
            SequenceNodeInput {
                kind: NodeType::End,
                ..Default::default()
            },
        ]),
        ..Default::default()
    };
    c.update_campaign("c1", &update).await.unwrap();
    check(
        &r.next(),
        "PATCH",
        "/api/campaigns/c1",
        &[],
        Some(
            json!({"name": "Q3", "sequence_nodes": [{"type": "email", "subject": "Hi", "body": "Hello"},
                                                     {"type": "end", "subject": "", "body": ""}]}),
        ),
    );
    c.launch_campaign("c1").await.unwrap();
    check(&r.next(), "POST", "/api/campaigns/c1/launch", &[], None);
    c.pause_campaign("c1").await.unwrap();
    check(&r.next(), "POST", "/api/campaigns/c1/pause", &[], None);
    c.resume_campaign("c1").await.unwrap();
    check(&r.next(), "POST", "/api/campaigns/c1/resume", &[], None);
    r.finish();
}

// Campaigns: the roster.
#[tokio::test]
async fn roster_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    let roster = RosterQuery {
        page: Some(2),
        limit: Some(200),
        status: Some("pending".into()),
    };
    c.list_leads("c1", &roster).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/campaigns/c1/leads",
        &[("page", "2"), ("limit", "200"), ("status", "pending")],
        None,
    );
    let lead = LeadInput {
        email: Some("ada@acme.se".into()),
        first_name: Some("Ada".into()),
        custom_fields: Some(serde_json::Map::from_iter([(
            "plan".to_owned(),
            json!("pro"),
        )])),
        ..Default::default()
    };
    c.add_leads("c1", &Channel::Email, std::slice::from_ref(&lead))
        .await
        .unwrap();
    check(
        &r.next(),
        "POST",
        "/api/campaigns/c1/leads",
        &[],
        Some(
            json!({"leads": [{"email": "ada@acme.se", "first_name": "Ada", "custom_fields": {"plan": "pro"}}]}),
        ),
    );
    let edit = EditLead {
        id: "l1".into(),
        fields: LeadInput {
            company: Some("Acme".into()),
            ..Default::default()
        },
    };
    c.edit_lead("c1", &edit).await.unwrap();
    check(
        &r.next(),
        "PATCH",
        "/api/campaigns/c1/leads",
        &[],
        Some(json!({"id": "l1", "company": "Acme"})),
    );
    assert_eq!(
        c.delete_leads(
            "c1",
            &DeleteLeads::Ids {
                ids: vec!["l1".into()]
            }
        )
        .await
        .unwrap(),
        0
    );
    check(
        &r.next(),
        "DELETE",
        "/api/campaigns/c1/leads",
        &[],
        Some(json!({"ids": ["l1"]})),
    );
    c.delete_leads("c1", &DeleteLeads::All { all: true })
        .await
        .unwrap();
    check(
        &r.next(),
        "DELETE",
        "/api/campaigns/c1/leads",
        &[],
        Some(json!({"all": true})),
    );
    r.finish();
}

// Campaigns: generated messages.
#[tokio::test]
async fn generated_message_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    let gm = GeneratedMessagesQuery {
        status: Some("all".into()),
        prospect_id: Some("p1".into()),
        prospect_limit: Some(100),
        prospect_offset: Some(5),
    };
    c.generated_messages("c1", &gm).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/campaigns/c1/generate-messages",
        &[
            ("status", "all"),
            ("prospect_id", "p1"),
            ("prospect_limit", "100"),
            ("prospect_offset", "5"),
        ],
        None,
    );
    let em = EditGeneratedMessage {
        message_id: "m1".into(),
        subject: Some("New".into()),
        ..Default::default()
    };
    c.edit_generated_message("c1", &em).await.unwrap();
    check(
        &r.next(),
        "PATCH",
        "/api/campaigns/c1/generate-messages",
        &[],
        Some(json!({"message_id": "m1", "subject": "New"})),
    );
    r.finish();
}

// Inbox.
#[tokio::test]
async fn inbox_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    let tq = ThreadQuery {
        page: Some(1),
        limit: Some(50),
        status: Some("draft".into()),
    };
    c.list_threads(&tq).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/threads",
        &[("page", "1"), ("limit", "50"), ("status", "draft")],
        None,
    );
    c.get_thread("t1").await.unwrap();
    check(&r.next(), "GET", "/api/threads/t1", &[], None);
    let ct = CreateThread {
        participant_email: Some("ada@acme.se".into()),
        account_id: Some(None),
        draft_subject: Some("Hi".into()),
        ..Default::default()
    };
    c.create_thread(&ct).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/threads",
        &[],
        Some(
            json!({"participant_email": "ada@acme.se", "account_id": null, "draft_subject": "Hi"}),
        ),
    );
    let pt = PatchThread {
        status: Some(ThreadStatus::Archived),
        unread_count: Some(0),
        ..Default::default()
    };
    c.patch_thread("t1", &pt).await.unwrap();
    check(
        &r.next(),
        "PATCH",
        "/api/threads/t1",
        &[],
        Some(json!({"status": "archived", "unread_count": 0})),
    );
    c.delete_thread("t1").await.unwrap();
    check(&r.next(), "DELETE", "/api/threads/t1", &[], None);
    c.list_messages("t1", Some(2), Some(200)).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/threads/t1/messages",
        &[("page", "2"), ("limit", "200")],
        None,
    );
    c.list_messages("t1", None, None).await.unwrap();
    check(&r.next(), "GET", "/api/threads/t1/messages", &[], None);
    let sm = SendMessage {
        subject: Some("Hi".into()),
        ..Default::default()
    };
    c.send_message("t1", &sm).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/threads/t1/messages",
        &[],
        Some(json!({"subject": "Hi"})),
    );
    r.finish();
}

// Senders and domains.
#[tokio::test]
async fn sender_and_domain_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    c.list_senders(Some(&Channel::Email)).await.unwrap();
    check(&r.next(), "GET", "/api/senders", &[("type", "email")], None);
    c.list_senders(Some(&Channel::Network)).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/senders",
        &[("type", "network")],
        None,
    );
    c.list_senders(None).await.unwrap();
    check(&r.next(), "GET", "/api/senders", &[], None);
    c.get_sender("acc_1").await.unwrap();
    check(&r.next(), "GET", "/api/senders/acc_1", &[], None);
    assert_eq!(c.sender_schedule("acc_1").await.unwrap(), json!({}));
    check(&r.next(), "GET", "/api/senders/acc_1/schedule", &[], None);
    c.list_domains(true).await.unwrap();
    check(
        &r.next(),
        "GET",
        "/api/email/domains",
        &[("skip_sync", "true")],
        None,
    );
    c.list_domains(false).await.unwrap();
    check(&r.next(), "GET", "/api/email/domains", &[], None);
    c.create_domain(" Mail.Acme.se. ").await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/email/domains",
        &[],
        Some(json!({"domain": "mail.acme.se"})),
    );
    c.verify_domain("d1", true).await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/email/domains/d1/verify",
        &[("poll", "true")],
        None,
    );
    c.verify_domain("d1", false).await.unwrap();
    check(&r.next(), "POST", "/api/email/domains/d1/verify", &[], None);
    r.finish();
}

// Company profile and discovery pass.
#[tokio::test]
async fn profile_and_pass_methods_send_the_bearer_header_route_query_and_body() {
    let mut r = Recorder::start().await;
    let c = r.c.clone();
    c.get_context().await.unwrap();
    check(&r.next(), "GET", "/api/context", &[], None);
    let put = PutContext {
        profile: Profile {
            first_name: "Ada".into(),
            ..Default::default()
        },
        ..Default::default()
    };
    c.put_context(&put).await.unwrap();
    let hit = r.next();
    check(
        &hit,
        "PUT",
        "/api/context",
        &[],
        Some(serde_json::to_value(&put).unwrap()),
    );
    assert_eq!(hit.json()["profile"]["firstName"], "Ada");
    c.redeem(" DEMO-PASS-1 ").await.unwrap();
    check(
        &r.next(),
        "POST",
        "/api/test-access/redeem",
        &[],
        Some(json!({"code": "DEMO-PASS-1"})),
    );
    r.finish();
}

#[tokio::test]
async fn answers_decode_into_what_the_user_sees() {
    let srv = Server::start(|hit, _| match hit.path.as_str() {
        "/api/campaigns/c1/pause" => Reply::json(200, &json!({"campaign": crate::decode::paused_network_campaign_sample()})),
        "/api/threads" => Reply::json(
            201,
            &json!({"thread": crate::decode::thread_sample(), "existing_threads": {"exists": true, "total": 1, "threads": []}}),
        ),
        "/api/email/domains" => Reply::json(200, &json!({"domains": [crate::decode::domain_sample()]})),
        _ => Reply::json(404, &json!({"error": {"code": "not_found", "message": "Not found"}})),
    })
    .await;
    let c = client(&srv.url());
    let paused = c.pause_campaign("c1").await.unwrap();
    assert_eq!(paused.status, CampaignStatus::Paused);
    assert_eq!(paused.stats.contacted, None);
    assert_eq!(paused.sender_accounts.unwrap()[0].display_name, "Ada B");
    let created = c
        .create_thread(&CreateThread {
            draft_subject: Some("x".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(created.thread.status.to_string(), "snoozed");
    assert!(created.existing_threads.exists);
    let domains = c.list_domains(true).await.unwrap();
    assert_eq!(domains[0].status.to_string(), "expired");
    let err = c.get_campaign("nope").await.unwrap_err();
    assert!(err.is_not_found(), "{err:?}");
}

#[tokio::test]
async fn plain_http_is_refused_except_to_loopback() {
    for url in [
        "http://example.com",
        "http://api.example.com:8080/",
        "http://10.0.0.7",
    ] {
        match Client::new(ClientConfig::new(url, key())) {
            Err(ApiError::Config(msg)) => {
                assert!(msg.contains("HTTPS"), "{url}: {msg}");
                assert_no_key("config error", &msg);
            }
            other => panic!("{url}: expected a config error, got {other:?}"),
        }
    }
    assert!(Client::new(ClientConfig::new("ftp://example.com", key())).is_err());
    let https = Client::new(ClientConfig::new("https://api.example.com/", key())).unwrap();
    assert_eq!(https.base_url().as_str(), "https://api.example.com/");
    assert!(!https.is_loopback());

    let srv = ok_server().await;
    let local = client(&srv.url());
    assert!(local.is_loopback());
    assert_eq!(local.host(), srv.addr.to_string());
    local.get_context().await.unwrap();
    assert_eq!(srv.count(), 1);
    let by_name = client(&format!("http://localhost:{}", srv.addr.port()));
    assert!(by_name.is_loopback());
}

#[tokio::test]
async fn a_body_over_the_cap_is_refused() {
    let big = format!(
        "{{\"thread\":{{\"draft_body_text\":\"{}\"}}}}",
        "x".repeat(2000)
    );
    let srv =
        Server::always(Reply::raw(200, big.clone()).header("content-type", "application/json"))
            .await;
    let mut cfg = config(&srv.url());
    cfg.max_body = 1024;
    let c = Client::new(cfg.clone()).unwrap();
    let err = c.get_thread("t1").await.unwrap_err();
    assert_eq!(
        err,
        ApiError::TooLarge {
            limit: 1024,
            may_have_reached: false
        }
    );
    assert!(err.to_string().contains("1024"), "{err}");
    assert_eq!(srv.count(), 1, "not retried");

    // Without a Content-Length (chunked), the cap holds while reading.
    let chunk = "x".repeat(512);
    let mut raw = String::from(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
    );
    for _ in 0..4 {
        raw.push_str(&format!("{:x}\r\n{chunk}\r\n", chunk.len()));
    }
    raw.push_str("0\r\n\r\n");
    let rs = RawServer::start(Raw::Answer(raw.into_bytes())).await;
    cfg.base_url = rs.url();
    let c = Client::new(cfg.clone()).unwrap();
    assert_eq!(
        c.get_thread("t1").await.unwrap_err(),
        ApiError::TooLarge {
            limit: 1024,
            may_have_reached: false
        }
    );

    // Exactly at the cap is fine.
    let body = format!("{{\"thread\":{{\"id\":\"{}\"}}}}", "y".repeat(1024 - 20));
    assert_eq!(body.len(), 1024);
    let srv = Server::always(Reply::raw(200, body)).await;
    cfg.base_url = srv.url();
    let t = Client::new(cfg).unwrap().get_thread("t1").await.unwrap();
    assert_eq!(t.id.len(), 1004);
}

#[tokio::test]
async fn malformed_json_is_a_decode_error_with_a_message() {
    let srv = Server::always(Reply::raw(200, r#"{"thread": {"id": "t1""#)).await;
    let c = client(&srv.url());
    let err = c.get_thread("t1").await.unwrap_err();
    let ApiError::Decode { status, detail, .. } = &err else {
        panic!("expected a decode error, got {err:?}")
    };
    assert_eq!(*status, 200);
    assert!(!detail.is_empty());
    assert!(err.to_string().contains("malformed JSON"), "{err}");
    assert_eq!(err.code(), "malformed_response");
    assert_eq!(srv.count(), 1, "not retried");

    let srv = Server::always(Reply::raw(200, "<html>maintenance</html>")).await;
    let err = client(&srv.url()).list_domains(false).await.unwrap_err();
    assert!(
        matches!(err, ApiError::Decode { status: 200, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn delete_thread_accepts_an_empty_200_or_204() {
    for (status, body) in [
        (200, ""),
        (204, ""),
        (200, "{\"deleted\":true}"),
        (200, "  \n"),
    ] {
        let srv = Server::always(Reply::raw(status, body)).await;
        let r = client(&srv.url()).delete_thread("t1").await;
        assert_eq!(r, Ok(()), "status {status} body {body:?}");
        assert_eq!(srv.only().method, "DELETE");
    }
}

#[tokio::test]
async fn optional_list_routes_map_404_and_405_to_none() {
    for status in [404, 405] {
        let srv = Server::always(Reply::json(
            status,
            &json!({"error": {"code": "not_found", "message": "no such route"}}),
        ))
        .await;
        let c = client(&srv.url());
        assert_eq!(c.list_searches().await, Ok(None), "{status}");
        assert_eq!(c.list_campaigns().await, Ok(None), "{status}");
        assert_eq!(srv.count(), 2);
    }
    // An empty 405 body, as a bare framework would send it.
    let srv = Server::always(Reply::raw(405, "")).await;
    assert_eq!(client(&srv.url()).list_campaigns().await, Ok(None));

    let srv = Server::start(|hit, _| match hit.path.as_str() {
        "/api/lead-finder" => {
            Reply::json(200, &json!({"searches": [crate::decode::search_sample()]}))
        }
        _ => Reply::json(
            200,
            &json!({"campaigns": [crate::decode::email_campaign_sample()]}),
        ),
    })
    .await;
    let c = client(&srv.url());
    assert_eq!(
        c.list_searches().await.unwrap().unwrap()[0].title,
        "Nordic revenue leaders"
    );
    assert_eq!(
        c.list_campaigns().await.unwrap().unwrap()[0].name,
        "Q2 outreach"
    );

    // Other failures stay errors.
    for status in [401, 500] {
        let srv = Server::always(Reply::json(
            status,
            &json!({"error": {"code": "x", "message": "boom"}}),
        ))
        .await;
        let err = client(&srv.url()).list_searches().await.unwrap_err();
        assert_eq!(err.status(), Some(status));
    }
}

#[tokio::test]
async fn ids_are_percent_encoded_and_cannot_change_the_route() {
    let srv = ok_server().await;
    let c = client(&srv.url());
    c.get_thread("a/b?c#d e").await.unwrap();
    let hit = srv.only();
    assert_eq!(hit.path, "/api/threads/a%2Fb%3Fc%23d%20e");
    assert_eq!(hit.query, None);

    c.enrichment("s/../1", "r?x=1").await.unwrap();
    let hit = srv.hits().pop().unwrap();
    assert_eq!(
        hit.path,
        "/api/lead-finder/s%2F..%2F1/results/r%3Fx%3D1/enrichment"
    );
    assert_eq!(hit.query, None);
    c.pause_campaign("../../admin").await.unwrap();
    assert_eq!(
        srv.hits().pop().unwrap().path,
        "/api/campaigns/..%2F..%2Fadmin/pause"
    );
    c.verify_domain("d1?poll=false&x", true).await.unwrap();
    let hit = srv.hits().pop().unwrap();
    assert_eq!(hit.path, "/api/email/domains/d1%3Fpoll%3Dfalse%26x/verify");
    assert_eq!(hit.pairs(), [("poll".to_owned(), "true".to_owned())]);
    c.get_sender("ünï").await.unwrap();
    assert_eq!(srv.hits().pop().unwrap().path, "/api/senders/%C3%BCn%C3%AF");
    let before = srv.count();

    // Dot segments and empty ids would be normalized away by the URL parser
    // (`/api/campaigns/../leads` is `/api/leads`), so they are refused.
    for id in ["", ".", ".."] {
        let err = c
            .delete_leads(id, &DeleteLeads::All { all: true })
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::Invalid(_)), "{id:?}: {err:?}");
        assert!(err.to_string().contains("id"), "{err}");
        assert!(
            c.get_thread(id).await.unwrap_err().field_errors()[0]
                .path
                .contains("id")
        );
        assert!(matches!(
            c.delete_thread(id).await,
            Err(ApiError::Invalid(_))
        ));
        assert!(matches!(
            c.enrichment("s1", id).await,
            Err(ApiError::Invalid(_))
        ));
        assert!(matches!(
            c.pause_campaign(id).await,
            Err(ApiError::Invalid(_))
        ));
    }
    assert_eq!(srv.count(), before, "nothing was sent for a bad id");
}
