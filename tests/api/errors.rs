//! Error answers: 401, the three error bodies, the duplicate-recipient 409,
//! and the key never showing in any `Debug`, `Display` or error string.

use std::time::Duration;

use outpost::testkit::api::model::*;
use outpost::testkit::api::retry::RetryPolicy;
use outpost::testkit::api::{ApiError, Client, ClientConfig};
use serde_json::json;

use crate::support::*;

/// What every 401 must tell the user besides the service's words.
#[track_caller]
fn says_how_to_fix_the_key(text: &str) {
    for part in [
        "refused the API key pk_live_…abcd",
        "config file",
        "OUTPOST_API_KEY",
        "outpost check",
    ] {
        assert!(text.contains(part), "`{part}` missing from: {text}");
    }
    assert_no_key("the 401 message", text);
}

#[tokio::test]
async fn unauthorized_carries_the_servers_message_and_how_to_fix_the_key() {
    let srv = Server::always(Reply::json(
        401,
        &json!({"error": {"code": "unauthorized", "message": "API key revoked"}}),
    ))
    .await;
    let err = client(&srv.url()).get_context().await.unwrap_err();
    assert!(err.is_unauthorized(), "{err:?}");
    assert_eq!(err.status(), Some(401));
    assert_eq!(err.code(), "unauthorized");
    assert!(err.message().starts_with("API key revoked. "), "{err}");
    says_how_to_fix_the_key(&err.message());
    assert!(
        err.to_string()
            .starts_with("unauthorized: API key revoked. "),
        "{err}"
    );
    assert!(err.to_string().ends_with("(HTTP 401)"), "{err}");
    says_how_to_fix_the_key(&format!("{err:?}"));
    assert!(!err.retryable(), "retrying the same key cannot help");
    assert_eq!(srv.count(), 1, "a 401 is not retried");

    // A bare 401 still reads as unauthorized.
    let srv = Server::always(Reply::raw(401, "")).await;
    let err = client(&srv.url()).get_context().await.unwrap_err();
    assert!(err.is_unauthorized());
    assert_eq!(err.code(), "unauthorized");
    assert!(
        err.message().starts_with("missing or invalid API key. "),
        "{err}"
    );
    says_how_to_fix_the_key(&err.message());
}

#[tokio::test]
async fn only_errors_a_retry_can_fix_are_retryable() {
    let srv = Server::start(|hit, _| {
        let status = hit
            .path
            .trim_start_matches("/api/threads/")
            .parse()
            .unwrap_or(200);
        Reply::json(status, &json!({"error": {"code": "x", "message": "m"}}))
    })
    .await;
    let mut cfg = config(&srv.url());
    cfg.retry.max_attempts = 1;
    let c = Client::new(cfg).unwrap();
    for (status, retryable) in [
        (400, false),
        (401, false),
        (403, false),
        (404, false),
        (409, false),
        (422, false),
        (408, true),
        (429, true),
        (500, true),
        (502, true),
        (503, true),
        (504, true),
    ] {
        let err = c.get_thread(&status.to_string()).await.unwrap_err();
        assert_eq!(err.status(), Some(status), "{err:?}");
        assert_eq!(err.retryable(), retryable, "{status}: {err}");
        assert!(!err.maybe_accepted(), "{status}: an error answer is a no");
    }
    // A Lead Finder body may mark a 4xx retryable itself.
    let lf = Server::always(Reply::json(
        402,
        &json!({"error": "quota", "message": "later", "code": "quota_busy", "retryable": true}),
    ))
    .await;
    let err = client(&lf.url()).list_searches().await.unwrap_err();
    assert!(err.retryable(), "{err:?}");
    // Nothing reached the service: retryable, certainly not accepted.
    let addr = dead_port().await;
    let err = client(&format!("http://{addr}"))
        .get_context()
        .await
        .unwrap_err();
    assert!(err.retryable() && !err.maybe_accepted(), "{err:?}");
    // Refused before sending.
    let err = c.get_thread("").await.unwrap_err();
    assert!(!err.retryable() && !err.maybe_accepted(), "{err:?}");
}

/// One error answer per body: structured, flat, Lead Finder, a structured
/// 409 with the existing thread, and a non-JSON 500.
async fn error_bodies_server() -> Server {
    Server::start(|hit, _| match hit.path.as_str() {
        "/api/lead-finder" => Reply::json(
            400,
            &json!({"error": {"code": "invalid_request", "message": "sourcePlans[0].query[1]: 1 to 240 chars"}}),
        ),
        "/api/campaigns/c1/launch" => Reply::json(400, &json!({"error": "No leads in campaign"})),
        "/api/lead-finder/s1/run" => Reply::json(
            409,
            &json!({
                "error": "Search already running", "message": "A run of this search is already queued",
                "sourceId": "network_people", "code": "run_in_progress",
                "alternatives": ["Wait for the run", "Run with continuation"],
                "retryable": true, "alert": false,
                "action": {"type": "navigate", "label": "Open run", "href": "/lead-finder/s1/runs/r1"}
            }),
        ),
        "/api/threads" => Reply::json(
            409,
            &json!({
                "error": {"code": "conflict", "message": "A thread with this recipient exists"},
                "existing_thread": crate::decode::thread_sample(),
                "existing_threads": {"exists": true, "total": 1, "threads": [crate::decode::thread_sample()]}
            }),
        ),
        _ => Reply::raw(500, "upstream exploded"),
    })
    .await
}

#[tokio::test]
async fn the_structured_flat_and_lead_finder_bodies_decode() {
    let srv = error_bodies_server().await;
    let c = client(&srv.url());

    let err = c
        .create_search(&crate::http::valid_search())
        .await
        .unwrap_err();
    assert_eq!((err.status(), err.code()), (Some(400), "invalid_request"));
    assert_eq!(err.message(), "sourcePlans[0].query[1]: 1 to 240 chars");
    let ApiError::Service(s) = &err else {
        panic!("{err:?}")
    };
    assert!(matches!(s.envelope, Some(ErrorEnvelope::Structured(_))));

    let err = c.launch_campaign("c1").await.unwrap_err();
    assert_eq!(err.status(), Some(400));
    assert_eq!(
        err.code(),
        "invalid_request",
        "no code in a flat body: derived from the status"
    );
    assert_eq!(err.message(), "No leads in campaign");
    let ApiError::Service(s) = &err else {
        panic!("{err:?}")
    };
    assert!(matches!(s.envelope, Some(ErrorEnvelope::Flat(_))));

    let err = c.run_search("s1", None).await.unwrap_err();
    assert_eq!((err.status(), err.code()), (Some(409), "run_in_progress"));
    assert_eq!(err.message(), "A run of this search is already queued");
    let lf = err.lead_finder().expect("lead finder body");
    assert_eq!(
        lf.alternatives,
        ["Wait for the run", "Run with continuation"]
    );
    assert_eq!(lf.source_id, "network_people");
    assert!(lf.retryable && !lf.alert);
    let action = lf.action.as_ref().expect("action");
    assert_eq!(
        (action.kind.as_str(), action.label.as_str()),
        ("navigate", "Open run")
    );
    assert_eq!(action.href, "/lead-finder/s1/runs/r1");
    assert_eq!(
        err.to_string(),
        "run_in_progress: A run of this search is already queued (HTTP 409); try: Wait for the run, Run with continuation; Open run (/lead-finder/s1/runs/r1); retryable"
    );

    let err = c
        .create_thread(&CreateThread {
            participant_email: Some("ada@acme.se".into()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!((err.status(), err.code()), (Some(409), "conflict"));
    assert_eq!(
        err.existing_thread()
            .expect("existing_thread")
            .participant_email,
        "ada@acme.se"
    );
    assert!(err.lead_finder().is_none());

    let err = c.get_context().await.unwrap_err();
    assert_eq!((err.status(), err.code()), (Some(500), "internal_error"));
    assert_eq!(err.message(), "unexpected server error (upstream exploded)");
    assert_eq!(srv.count(), 5, "none of these is retried");
}

/// Every way a call can fail, with a server that echoes the key wherever it
/// can; none of the texts may reveal it.
#[tokio::test]
async fn the_key_appears_in_no_debug_display_or_error_text() {
    debug_texts_hide_the_key();
    let mut errors = config_invalid_and_connect_errors().await;
    let srv = key_echo_server().await;
    errors.extend(service_and_decode_errors(&srv.url()).await);
    errors.extend(timeout_and_drop_errors().await);

    let mut seen = std::collections::HashSet::new();
    for err in &errors {
        seen.insert(std::mem::discriminant(err));
        assert_no_key("Display", &err.to_string());
        assert_no_key("Debug", &format!("{err:?}"));
        assert_no_key("Debug (pretty)", &format!("{err:#?}"));
        assert_no_key("message", &err.message());
        assert_no_key("code", err.code());
        for f in err.field_errors() {
            assert_no_key("field error", &f.to_string());
        }
    }
    for want in every_error_kind() {
        assert!(
            seen.contains(&std::mem::discriminant(&want)),
            "no {want:?} was built"
        );
    }
    assert!(errors.iter().any(|e| matches!(e, ApiError::Service(_))));
    // The echoed key is shown masked, so the user can still tell which key.
    let revoked = errors.iter().find(|e| e.is_unauthorized()).unwrap();
    assert!(
        revoked
            .message()
            .starts_with("key pk_live_…abcd is revoked. "),
        "{revoked}"
    );
}

/// One error of every kind that does not come from an answer's body.
fn every_error_kind() -> Vec<ApiError> {
    vec![
        ApiError::Config(String::new()),
        ApiError::Invalid(vec![]),
        ApiError::RateLimited {
            wait: Duration::ZERO,
            message: String::new(),
        },
        ApiError::Connect {
            host: String::new(),
            detail: String::new(),
        },
        ApiError::Timeout {
            method: String::new(),
            after: Duration::ZERO,
            may_have_reached: false,
        },
        ApiError::Transport {
            detail: String::new(),
            may_have_reached: false,
        },
        ApiError::Decode {
            status: 0,
            detail: String::new(),
            may_have_reached: false,
        },
        ApiError::TooLarge {
            limit: 0,
            may_have_reached: false,
        },
    ]
}

/// The key and the config and client that hold it print masked.
fn debug_texts_hide_the_key() {
    let cfg = config("http://127.0.0.1:9");
    let c = Client::new(cfg.clone()).unwrap();
    for (what, text) in [
        ("ApiKey debug", format!("{:?}", key())),
        ("ApiKey display", format!("{}", key())),
        ("ClientConfig debug", format!("{cfg:?}")),
        ("Client debug", format!("{c:?}")),
        ("masked key", c.masked_key()),
    ] {
        assert_no_key(what, &text);
    }
    assert_eq!(c.masked_key(), "pk_live_…abcd");
    let pasted = ClientConfig::new(format!("https://api.example.com/{KEY}"), key());
    assert_no_key("ClientConfig debug, key in the URL", &format!("{pasted:?}"));
    assert_no_key(
        "Client debug, key in the URL",
        &format!("{:?}", Client::new(pasted).unwrap()),
    );
}

/// Errors built before any answer: config, refused input, connect.
async fn config_invalid_and_connect_errors() -> Vec<ApiError> {
    let mut errors: Vec<ApiError> = Vec::new();
    // Config: the HTTPS rule, and a key pasted into the base URL.
    for url in [
        "http://example.com".to_owned(),
        format!("https://api.example.com/?token={KEY}"),
        format!("https://api.example.com/#{KEY}"),
        format!("not a url {KEY}"),
    ] {
        errors.push(Client::new(ClientConfig::new(url, key())).unwrap_err());
    }
    // Invalid: refused before sending.
    let dead = client(&format!("http://{}", dead_port().await));
    errors.push(dead.redeem("").await.unwrap_err());
    // Connect.
    errors.push(dead.get_context().await.unwrap_err());
    errors
}

/// Echoes the key wherever it can: service errors in all three bodies and a
/// non-JSON body, a 429, malformed and mistyped success bodies.
async fn key_echo_server() -> Server {
    let echo = format!("key {KEY} is revoked");
    Server::start(move |hit, _| {
        let echo = echo.clone();
        match hit.path.as_str() {
            "/api/context" => Reply::json(401, &json!({"error": {"code": format!("bad_{KEY}"), "message": echo}})),
            "/api/senders" => Reply::json(400, &json!({"error": echo})),
            "/api/lead-finder/run" => Reply::json(
                402,
                &json!({"error": echo, "message": echo, "code": "quota", "sourceId": KEY,
                       "alternatives": [echo], "action": {"type": "navigate", "label": echo, "href": format!("/k/{KEY}")}}),
            ),
            "/api/email/domains" => Reply::raw(502, format!("<html>{echo}</html>")),
            "/api/threads" => Reply::json(
                409,
                &json!({"error": {"code": "conflict", "message": echo},
                       "existing_thread": {"id": "t", "draft_body_text": echo}}),
            ),
            "/api/test-access/redeem" => Reply::json(429, &json!({"error": {"code": "rate_limited", "message": echo}})),
            "/api/threads/t1" => Reply::raw(200, format!("{{\"thread\": {KEY}")),
            "/api/threads/t2" => Reply::json(200, &json!(KEY)),
            _ => Reply::raw(200, "x".repeat(4096)),
        }
    })
    .await
}

/// The errors of every answer of [`key_echo_server`], one attempt each.
async fn service_and_decode_errors(url: &str) -> Vec<ApiError> {
    let mut errors: Vec<ApiError> = Vec::new();
    let mut one_try = config(url);
    one_try.retry = RetryPolicy {
        max_attempts: 1,
        ..RetryPolicy::default()
    };
    one_try.max_body = 1024;
    let c = Client::new(one_try.clone()).unwrap();
    errors.push(c.get_context().await.unwrap_err());
    errors.push(c.list_senders(None).await.unwrap_err());
    errors.push(c.run_all().await.unwrap_err());
    errors.push(c.list_domains(false).await.unwrap_err());
    errors.push(
        c.create_thread(&CreateThread {
            draft_subject: Some("x".into()),
            ..Default::default()
        })
        .await
        .unwrap_err(),
    );
    errors.push(c.redeem("CODE").await.unwrap_err());
    errors.push(c.get_thread("t1").await.unwrap_err());
    errors.push(c.get_thread("t2").await.unwrap_err());
    errors.push(c.get_sender("big").await.unwrap_err());
    errors
}

/// A timeout and a dropped connection.
async fn timeout_and_drop_errors() -> Vec<ApiError> {
    let mut errors: Vec<ApiError> = Vec::new();
    let stall = RawServer::start(Raw::Stall).await;
    let mut short = config(&stall.url());
    short.request_timeout = Duration::from_millis(200);
    errors.push(Client::new(short).unwrap().get_context().await.unwrap_err());
    let drop = RawServer::start(Raw::Drop).await;
    errors.push(client(&drop.url()).get_context().await.unwrap_err());
    errors
}
