//! Writes whose fate is unknown, told apart from writes that surely failed,
//! and the connection state: `ApiError::maybe_accepted` is true exactly when
//! the service may have acted on a request the call reports as failed (so
//! the UI offers a refresh, never a blind retry), and the client says
//! "offline" at the first refused connection instead of after its retries.

use std::time::Duration;

use outpost::testkit::api::model::*;
use outpost::testkit::api::retry::RetryPolicy;
use outpost::testkit::api::{ApiError, Client, ConnState};
use serde_json::json;
use tokio::net::TcpListener;

use crate::support::*;

fn new_thread() -> CreateThread {
    CreateThread {
        draft_subject: Some("Hi".into()),
        ..Default::default()
    }
}

/// Asserts the error is an unknown outcome: maybe accepted, not offered
/// as a retry, and saying so.
#[track_caller]
fn unknown(err: &ApiError) {
    assert!(err.maybe_accepted(), "{err:?}");
    assert!(!err.retryable(), "a retry could do it twice: {err:?}");
    let text = err.to_string();
    assert!(
        text.contains("may have") && text.contains("refresh"),
        "the text says what to do: {text}"
    );
}

#[tokio::test]
async fn a_write_that_timed_out_after_sending_may_have_been_accepted() {
    let srv = RawServer::start(Raw::Stall).await;
    let mut cfg = config(&srv.url());
    cfg.request_timeout = Duration::from_millis(300);
    let c = Client::new(cfg).unwrap();
    let err = within(10, c.create_thread(&new_thread()))
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Timeout { .. }), "{err:?}");
    unknown(&err);
    assert_eq!(srv.count(), 1, "the request reached the server");
    // A read that timed out changed nothing: a retry is safe.
    let err = within(10, c.get_context()).await.unwrap_err();
    assert!(!err.maybe_accepted() && err.retryable(), "{err:?}");
}

#[tokio::test]
async fn a_write_whose_connection_dropped_after_sending_may_have_been_accepted() {
    let srv = RawServer::start(Raw::Drop).await;
    let c = client(&srv.url());
    let err = within(10, c.create_thread(&new_thread()))
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Transport { .. }), "{err:?}");
    unknown(&err);
    assert_eq!(srv.count(), 1);
}

#[tokio::test]
async fn a_success_whose_body_breaks_off_may_have_been_accepted() {
    // 200 with a promised body of 100 bytes, of which only 10 arrive.
    let answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\nconnection: close\r\n\r\n{\"thread\":".to_vec();
    let srv = RawServer::start(Raw::Answer(answer)).await;
    let c = client(&srv.url());
    let err = within(10, c.create_thread(&new_thread()))
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Transport { .. }), "{err:?}");
    unknown(&err);
    // The same broken answer to a read: nothing was changed.
    let err = within(10, c.get_thread("t1")).await.unwrap_err();
    assert!(!err.maybe_accepted(), "{err:?}");
}

#[tokio::test]
async fn a_success_that_cannot_be_decoded_may_have_been_accepted() {
    let srv = Server::always(Reply::raw(200, "<html>ok</html>")).await;
    let c = client(&srv.url());
    let err = within(10, c.create_thread(&new_thread()))
        .await
        .unwrap_err();
    assert!(
        matches!(err, ApiError::Decode { status: 200, .. }),
        "{err:?}"
    );
    unknown(&err);
    assert_eq!(err.code(), "malformed_response");
    let err = within(10, c.get_thread("t1")).await.unwrap_err();
    assert!(matches!(err, ApiError::Decode { .. }), "{err:?}");
    assert!(!err.maybe_accepted(), "a read: {err:?}");
    assert!(!err.to_string().contains("may have"), "{err}");
}

#[tokio::test]
async fn a_success_too_large_to_keep_may_have_been_accepted() {
    let body = json!({"thread": {"id": "t1", "draft_body_text": "x".repeat(4096)}});
    let srv = Server::always(Reply::json(200, &body)).await;
    let mut cfg = config(&srv.url());
    cfg.max_body = 1024;
    let c = Client::new(cfg).unwrap();
    let err = within(10, c.create_thread(&new_thread()))
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::TooLarge { .. }), "{err:?}");
    unknown(&err);
    // An error answer that is too large is still a no.
    let srv = Server::always(Reply::raw(409, "x".repeat(4096))).await;
    let mut cfg = config(&srv.url());
    cfg.max_body = 1024;
    let err = Client::new(cfg)
        .unwrap()
        .create_thread(&new_thread())
        .await
        .unwrap_err();
    assert!(!err.maybe_accepted(), "{err:?}");
}

#[tokio::test]
async fn refused_connections_and_error_answers_are_certainly_not_accepted() {
    let addr = dead_port().await;
    let c = client(&format!("http://{addr}"));
    let err = within(10, c.create_thread(&new_thread()))
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Connect { .. }), "{err:?}");
    assert!(!err.maybe_accepted());
    assert!(err.retryable(), "nothing was sent, so a retry is safe");

    for status in [400, 403, 404, 409, 429] {
        let srv = Server::always(Reply::json(
            status,
            &json!({"error": {"code": "x", "message": "no"}}),
        ))
        .await;
        let mut cfg = config(&srv.url());
        cfg.retry.max_attempts = 1;
        let err = Client::new(cfg)
            .unwrap()
            .create_thread(&new_thread())
            .await
            .unwrap_err();
        assert!(!err.maybe_accepted(), "{status}: {err:?}");
    }
}

/// The contract does not promise that a 5xx did nothing, and a 502, 503 or
/// 504 comes from whatever stands in front of the service, which may have
/// acted: a write answered so may have reached it (seen: a send answered
/// 502 after the service sent it, reported "not sent", sent twice).
#[tokio::test]
async fn a_write_answered_5xx_may_have_reached_the_service_and_a_read_did_not() {
    for status in [500, 502, 503, 504] {
        let srv = Server::always(Reply::json(
            status,
            &json!({"error": {"code": "bad_gateway", "message": "upstream"}}),
        ))
        .await;
        let mut cfg = config(&srv.url());
        cfg.retry.max_attempts = 1;
        let c = Client::new(cfg).unwrap();
        let err = c.create_thread(&new_thread()).await.unwrap_err();
        assert_eq!(err.status(), Some(status));
        unknown(&err);
        let read = c.list_campaigns().await.unwrap_err();
        assert!(!read.maybe_accepted(), "a read changes nothing: {read:?}");
        assert!(read.retryable(), "a read is tried again: {read:?}");
    }
}

/// The verification status read (`POST …/verify?poll=true`) is a read: a
/// timeout of it is never described as a write that may have reached.
#[tokio::test]
async fn a_poll_of_a_domain_that_times_out_is_a_read() {
    let srv = RawServer::start(Raw::Stall).await;
    let mut cfg = config(&srv.url());
    cfg.request_timeout = Duration::from_millis(300);
    cfg.retry.max_attempts = 1;
    let c = Client::new(cfg).unwrap();
    let err = within(10, c.verify_domain("d1", true)).await.unwrap_err();
    assert!(matches!(err, ApiError::Timeout { .. }), "{err:?}");
    assert!(!err.maybe_accepted(), "{err:?}");
    assert!(!err.to_string().contains("may have"), "{err}");
    let err = within(10, c.verify_domain("d1", false)).await.unwrap_err();
    assert!(err.maybe_accepted(), "the trigger is a write: {err:?}");
}

#[tokio::test]
async fn offline_is_published_at_the_first_refused_connection_and_online_at_an_answer() {
    let addr = dead_port().await;
    let mut cfg = config(&format!("http://{addr}"));
    // Slow retries: the state must change long before they are over.
    cfg.retry = RetryPolicy {
        max_attempts: 4,
        base: Duration::from_millis(700),
        cap: Duration::from_secs(2),
        max_sleep: Duration::from_secs(5),
    };
    let c = Client::new(cfg).unwrap();
    let mut rx = c.connection();
    assert_eq!(*rx.borrow_and_update(), ConnState::Online);
    let before = std::time::SystemTime::now();
    let call = tokio::spawn({
        let c = c.clone();
        async move { c.get_context().await }
    });
    within(5, rx.changed()).await.unwrap();
    let state = *rx.borrow_and_update();
    let ConnState::Offline { since } = state else {
        panic!("expected offline, got {state:?}")
    };
    assert!(since >= before);
    assert_eq!(c.attempts(), 1, "published after the first failure");
    assert!(!call.is_finished(), "while the read still retries");

    // The service comes back on that port: the next retry is answered.
    let listener = TcpListener::bind(addr).await.unwrap();
    let app = axum::Router::new()
        .fallback(|| async { axum::Json(json!({"context": {"company_name": "Acme"}})) });
    let server = tokio::spawn(async move { axum::serve(listener, app).await });
    within(10, rx.changed()).await.unwrap();
    assert_eq!(*rx.borrow_and_update(), ConnState::Online);
    assert!(within(10, call).await.unwrap().is_ok());
    server.abort();
}

/// A service that answers every request 429 (with a 1 s `Retry-After`, so
/// the family's gate reopens between refusals) is not "online": the state
/// says rate limited once the call is over, and online again at the first
/// good answer.
#[tokio::test]
async fn a_service_answering_429_is_rate_limited_until_its_first_good_answer() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let limited = Arc::new(AtomicBool::new(true));
    let srv = Server::start({
        let limited = limited.clone();
        move |_, _| {
            if limited.load(Ordering::SeqCst) {
                Reply::json(
                    429,
                    &json!({"error": {"code": "rate_limited", "message": "Rate limit exceeded."}}),
                )
                .header("retry-after", "0")
            } else {
                Reply::json(200, &json!({"context": {"company_name": "Acme"}}))
            }
        }
    })
    .await;
    let c = client(&srv.url());
    let rx = c.connection();
    let err = within(10, c.get_context()).await.unwrap_err();
    assert_eq!(err.code(), "rate_limited", "{err:?}");
    assert!(srv.count() >= 1);
    let state = *rx.borrow();
    assert_ne!(
        state,
        ConnState::Online,
        "every answer was 429, no gate is closed now, and yet it is not online"
    );
    assert!(!state.is_offline(), "the service answers: {state:?}");
    limited.store(false, Ordering::SeqCst);
    within(10, c.get_context()).await.unwrap();
    assert_eq!(
        *rx.borrow(),
        ConnState::Online,
        "back at the first good answer"
    );
}
