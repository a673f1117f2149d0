//! Retries against real sockets: the 429 gate of each route family, backoff without
//! `Retry-After`, bounded attempts, and writes that are never repeated once
//! they may have reached the service. Timing is asserted only as lower
//! bounds (a wait is never shorter than asked) plus counts and order; upper
//! bounds only catch hangs.

use std::time::Duration;

use outpost::testkit::api::model::*;
use outpost::testkit::api::retry::RetryPolicy;
use outpost::testkit::api::{ApiError, Client, RouteFamily};
use serde_json::json;
use tokio::time::Instant;

use crate::support::*;

fn rate_limited(message: &str) -> Reply {
    Reply::json(
        429,
        &json!({"error": {"code": "rate_limited", "message": message}}),
    )
}

/// How many earlier-or-equal hits share this hit's path.
fn nth_on_path(hit: &Hit, all: &[Hit]) -> usize {
    all.iter().filter(|h| h.path == hit.path).count()
}

/// Waits until `family`'s gate reports a closure and returns its reopening
/// instant.
async fn gate_closes(c: &Client, family: RouteFamily) -> Instant {
    let mut rx = c.rate_limits();
    within(10, async move {
        loop {
            if let Some(t) = rx
                .borrow_and_update()
                .until(family, std::time::Instant::now())
            {
                return Instant::from_std(t);
            }
            rx.changed().await.expect("gate alive");
        }
    })
    .await
}

/// The threads calls among `hits` arrived after the gate opened at `until`,
/// every other call before it.
#[track_caller]
fn assert_only_the_family_waited(hits: &[Hit], until: Instant) {
    for h in hits {
        if h.path.starts_with("/api/threads") {
            assert!(
                h.at >= until,
                "{} {} arrived before the gate opened",
                h.method,
                h.path
            );
        } else {
            assert!(
                h.at < until,
                "{} {} waited for another family's gate",
                h.method,
                h.path
            );
        }
    }
}

#[tokio::test]
async fn retry_after_is_waited_out_by_the_call_and_by_its_family_only() {
    let srv = Server::start(|hit, all| {
        if hit.path == "/api/threads" && nth_on_path(hit, all) == 1 {
            rate_limited("Rate limit exceeded. Retry in 1 seconds.").header("retry-after", "1")
        } else {
            Reply::json(200, &json!({}))
        }
    })
    .await;
    let c = client(&srv.url());
    assert!(
        c.rate_limits().borrow().all_open(std::time::Instant::now()),
        "every gate starts open"
    );

    // A write: a 429 means "not processed", so even a POST is retried.
    let first = tokio::spawn({
        let c = c.clone();
        async move {
            c.create_thread(&CreateThread {
                draft_subject: Some("Hi".into()),
                ..Default::default()
            })
            .await
        }
    });
    let until = gate_closes(&c, RouteFamily::Threads).await;
    assert!(
        c.gate().closed_until(RouteFamily::Threads).is_some(),
        "the threads gate is closed while the other calls start"
    );
    assert_eq!(c.gate().closed_until(RouteFamily::Senders), None);
    // Calls made meanwhile from other tasks: one of the same family, two of
    // other families.
    let same = tokio::spawn({
        let c = c.clone();
        async move { c.get_thread("t1").await.map(drop) }
    });
    let others = [
        tokio::spawn({
            let c = c.clone();
            async move { c.list_senders(None).await.map(drop) }
        }),
        tokio::spawn({
            let c = c.clone();
            async move { c.get_context().await.map(drop) }
        }),
    ];
    for o in others {
        within(10, o).await.unwrap().unwrap();
    }
    within(10, same).await.unwrap().unwrap();
    within(10, first).await.unwrap().unwrap();

    let hits = srv.hits();
    assert_eq!(hits.len(), 5, "{hits:#?}");
    assert_eq!(
        (hits[0].path.as_str(), hits[0].method.as_str()),
        ("/api/threads", "POST")
    );
    assert!(
        until >= hits[0].at + Duration::from_secs(1),
        "the gate holds for the full Retry-After"
    );
    assert_only_the_family_waited(&hits[1..], until);
    assert_eq!(
        hits.iter().filter(|h| h.path == "/api/threads").count(),
        2,
        "one retry"
    );
    assert_eq!(
        c.gate().closed_until(RouteFamily::Threads),
        None,
        "open again"
    );
}

#[tokio::test]
async fn without_retry_after_the_seconds_named_in_the_message_are_waited() {
    let srv = Server::start(|_, all| {
        if all.len() == 1 {
            rate_limited("Rate limit exceeded. Retry in 1 seconds.")
        } else {
            Reply::json(200, &json!({"domains": []}))
        }
    })
    .await;
    let c = client(&srv.url());
    let call = tokio::spawn({
        let c = c.clone();
        async move { c.list_domains(true).await }
    });
    let until = gate_closes(&c, RouteFamily::EmailDomains).await;
    assert_eq!(within(10, call).await.unwrap(), Ok(vec![]));
    let hits = srv.hits();
    assert_eq!(hits.len(), 2);
    assert!(until >= hits[0].at + Duration::from_secs(1));
    assert!(hits[1].at >= hits[0].at + Duration::from_secs(1));
    assert_eq!(
        hits[1].pairs(),
        [("skip_sync".to_owned(), "true".to_owned())],
        "the retry is the same request"
    );
}

#[tokio::test]
async fn without_any_hint_backoff_is_exponential_and_bounded() {
    let srv = Server::always(rate_limited("Too many requests")).await;
    let mut cfg = config(&srv.url());
    cfg.retry = RetryPolicy {
        max_attempts: 4,
        base: Duration::from_millis(100),
        cap: Duration::from_secs(10),
        max_sleep: Duration::from_secs(10),
    };
    let c = Client::new(cfg).unwrap();
    let err = within(20, c.get_context()).await.unwrap_err();
    let ApiError::RateLimited { wait, message } = &err else {
        panic!("expected RateLimited, got {err:?}")
    };
    assert_eq!(message, "Too many requests");
    assert!(
        *wait >= Duration::from_millis(800),
        "the next step would be 800 ms or more: {wait:?}"
    );
    assert_eq!(err.status(), Some(429));
    assert_eq!(err.code(), "rate_limited");

    let hits = srv.hits();
    assert_eq!(hits.len(), 4, "max_attempts bounds the tries");
    assert_eq!(c.attempts(), 4);
    for (i, pair) in hits.windows(2).enumerate() {
        let step = Duration::from_millis(100 * (1 << i));
        assert!(
            pair[1].at - pair[0].at >= step,
            "gap {i} shorter than {step:?}"
        );
    }
    assert!(
        c.gate().closed_until(RouteFamily::Context).is_some(),
        "giving up leaves the gate closed for the UI's countdown"
    );
}

#[tokio::test]
async fn the_default_policy_first_retries_after_one_second() {
    let srv = Server::start(|_, all| {
        if all.len() == 1 {
            rate_limited("Too many requests")
        } else {
            Reply::json(200, &json!({"senders": []}))
        }
    })
    .await;
    let c = Client::new(outpost::testkit::api::ClientConfig::new(srv.url(), key())).unwrap();
    assert_eq!(RetryPolicy::default().base, Duration::from_secs(1));
    let call = tokio::spawn({
        let c = c.clone();
        async move { c.list_senders(None).await }
    });
    let until = gate_closes(&c, RouteFamily::Senders).await;
    assert_eq!(within(20, call).await.unwrap(), Ok(vec![]));
    let hits = srv.hits();
    assert_eq!(hits.len(), 2);
    assert!(
        until >= hits[0].at + Duration::from_secs(1),
        "backoff starts at 1 s"
    );
    assert!(
        until <= hits[0].at + Duration::from_secs(5),
        "first step is 1 s plus at most 25 % jitter"
    );
    assert!(hits[1].at - hits[0].at >= Duration::from_secs(1));
}

#[tokio::test]
async fn a_long_retry_after_fails_fast_and_holds_its_family_only() {
    let srv = Server::start(|hit, _| {
        if hit.path.starts_with("/api/lead-finder") {
            rate_limited("Rate limit exceeded. Retry in 100000 seconds.")
                .header("retry-after", "100000")
        } else {
            Reply::json(200, &json!({"senders": []}))
        }
    })
    .await;
    let c = client(&srv.url());
    let err = within(5, c.get_search("s1", &Default::default()))
        .await
        .unwrap_err();
    let ApiError::RateLimited { wait, .. } = err else {
        panic!("expected RateLimited, got {err:?}")
    };
    // Clamped to a day: the longest wait taken from a server.
    assert_eq!(wait, outpost::testkit::api::retry::MAX_WAIT);
    let until = c
        .gate()
        .closed_until(RouteFamily::LeadFinder)
        .expect("lead-finder gate closed");
    assert!(until > std::time::Instant::now() + Duration::from_secs(86_000));
    // What the status bar reads: one family, for about a day.
    let limits = c.rate_limits().borrow().clone();
    let now = std::time::Instant::now();
    assert_eq!(limits.closed(now).count(), 1);
    assert_eq!(
        limits.longest(now).map(|(f, _)| f),
        Some(RouteFamily::LeadFinder)
    );

    // Another Lead Finder call does not hang for a day, sends nothing, and
    // names the wait.
    let err = within(5, c.list_searches()).await.unwrap_err();
    let ApiError::RateLimited { wait, message } = &err else {
        panic!("expected RateLimited, got {err:?}")
    };
    assert!(*wait > Duration::from_secs(86_000), "{wait:?}");
    assert!(
        message.contains("lead-finder") && message.contains(" h "),
        "{message}"
    );
    assert!(err.retryable());
    assert_eq!(srv.count(), 1);

    // Other families are not held at all.
    assert_eq!(within(5, c.list_senders(None)).await, Ok(vec![]));
    assert_eq!(srv.count(), 2);
}

#[tokio::test]
async fn an_explicit_retry_sends_one_attempt_at_once_through_a_closed_gate() {
    // Lead Finder answers 429 (a long wait) until the third request.
    let srv = Server::start(|hit, all| {
        let n = all
            .iter()
            .filter(|h| h.path.starts_with("/api/lead-finder"))
            .count();
        if hit.path.starts_with("/api/lead-finder") && n < 3 {
            rate_limited("Rate limit exceeded. Retry in 600 seconds.").header("retry-after", "600")
        } else {
            Reply::json(200, &json!({"searches": []}))
        }
    })
    .await;
    let c = client(&srv.url());
    assert!(c.list_searches().await.is_err());
    assert!(c.gate().closed_until(RouteFamily::LeadFinder).is_some());
    assert!(!c.bypasses_gate());

    // The user presses r: one attempt goes out now; still limited, so the
    // call fails at once without re-sending, and the gate stays closed.
    let retry = c.with_bypass();
    assert!(retry.bypasses_gate());
    let err = within(5, retry.list_searches()).await.unwrap_err();
    assert!(matches!(err, ApiError::RateLimited { .. }), "{err:?}");
    assert_eq!(srv.count(), 2, "exactly one attempt");
    assert!(c.gate().closed_until(RouteFamily::LeadFinder).is_some());
    // A plain call still fails fast without sending.
    assert!(c.list_searches().await.is_err());
    assert_eq!(srv.count(), 2);

    // The next explicit retry gets through, and that reopens the family.
    assert_eq!(within(5, retry.list_searches()).await, Ok(Some(vec![])));
    assert_eq!(srv.count(), 3);
    assert_eq!(c.gate().closed_until(RouteFamily::LeadFinder), None);
    assert_eq!(within(5, c.list_searches()).await, Ok(Some(vec![])));
}

#[tokio::test]
async fn an_explicit_retry_never_resends_on_its_own() {
    let srv = Server::always(Reply::raw(503, "down")).await;
    let c = client(&srv.url()).with_bypass();
    let err = within(5, c.get_context()).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(
        srv.count(),
        1,
        "a GET is not retried on 503 when the user retried"
    );

    let addr = dead_port().await;
    let c = client(&format!("http://{addr}")).with_bypass();
    let err = within(5, c.get_context()).await.unwrap_err();
    assert!(matches!(err, ApiError::Connect { .. }), "{err:?}");
    assert_eq!(c.attempts(), 1, "nor on a refused connection");
}

#[tokio::test]
async fn gets_are_retried_on_502_503_504_and_bounded() {
    let srv = Server::start(|_, all| match all.len() {
        1 => Reply::raw(502, "bad gateway"),
        2 => Reply::json(
            503,
            &json!({"error": {"code": "internal_error", "message": "down"}}),
        ),
        3 => Reply::raw(504, ""),
        _ => Reply::json(200, &json!({"thread": {"id": "t1"}})),
    })
    .await;
    let mut cfg = config(&srv.url());
    cfg.retry.max_attempts = 4;
    let c = Client::new(cfg).unwrap();
    assert_eq!(within(10, c.get_thread("t1")).await.unwrap().id, "t1");
    assert_eq!(srv.count(), 4);

    let srv = Server::always(Reply::raw(503, "")).await;
    let c = client(&srv.url());
    let err = within(10, c.get_thread("t1")).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(srv.count(), 3, "max_attempts bounds the tries");

    // A Retry-After on 503 is honoured.
    let srv = Server::start(|_, all| {
        if all.len() == 1 {
            Reply::raw(503, "").header("retry-after", "1")
        } else {
            Reply::json(200, &json!({}))
        }
    })
    .await;
    within(10, client(&srv.url()).get_context()).await.unwrap();
    let hits = srv.hits();
    assert!(hits[1].at - hits[0].at >= Duration::from_secs(1));

    // 500 is not a transient answer.
    let srv = Server::always(Reply::raw(500, "")).await;
    assert_eq!(
        client(&srv.url()).get_context().await.unwrap_err().status(),
        Some(500)
    );
    assert_eq!(srv.count(), 1);
}

#[tokio::test]
async fn writes_are_not_retried_on_502_503_504() {
    for status in [502, 503, 504] {
        let srv = Server::always(Reply::raw(status, "")).await;
        let c = client(&srv.url());
        let sm = SendMessage {
            subject: Some("Hi".into()),
            ..Default::default()
        };
        assert_eq!(
            c.send_message("t1", &sm).await.unwrap_err().status(),
            Some(status)
        );
        let pt = PatchThread {
            unread_count: Some(0),
            ..Default::default()
        };
        assert_eq!(
            c.patch_thread("t1", &pt).await.unwrap_err().status(),
            Some(status)
        );
        assert_eq!(
            c.delete_thread("t1").await.unwrap_err().status(),
            Some(status)
        );
        assert_eq!(srv.count(), 3, "one request per write on {status}");
    }
}

#[tokio::test]
async fn a_write_that_times_out_reaches_the_server_exactly_once() {
    let srv = RawServer::start(Raw::Stall).await;
    let mut cfg = config(&srv.url());
    cfg.request_timeout = Duration::from_millis(300);
    let c = Client::new(cfg).unwrap();

    let ct = CreateThread {
        draft_subject: Some("Hi".into()),
        ..Default::default()
    };
    let err = within(10, c.create_thread(&ct)).await.unwrap_err();
    assert!(
        matches!(&err, ApiError::Timeout { method, may_have_reached: true, .. } if method == "POST"),
        "{err:?}"
    );
    assert!(err.to_string().contains("not repeated"), "{err}");
    let pt = PatchThread {
        status: Some(ThreadStatus::Archived),
        ..Default::default()
    };
    let err = within(10, c.patch_thread("t1", &pt)).await.unwrap_err();
    assert!(
        matches!(&err, ApiError::Timeout { method, may_have_reached: true, .. } if method == "PATCH"),
        "{err:?}"
    );
    let err = within(10, c.delete_thread("t1")).await.unwrap_err();
    assert!(
        matches!(&err, ApiError::Timeout { method, may_have_reached: true, .. } if method == "DELETE"),
        "{err:?}"
    );
    let err = within(10, c.run_search("s1", None)).await.unwrap_err();
    assert!(matches!(err, ApiError::Timeout { .. }), "{err:?}");

    // Leave room for a (wrong) retry to arrive before counting.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let heads = srv.heads();
    assert_eq!(heads.len(), 4, "{heads:#?}");
    assert!(heads[0].starts_with("POST /api/threads "));
    assert!(heads[1].starts_with("PATCH /api/threads/t1 "));
    assert!(heads[2].starts_with("DELETE /api/threads/t1 "));
    assert!(heads[3].starts_with("POST /api/lead-finder/s1/run "));
    assert_eq!(c.attempts(), 4);

    // A read that times out is reported as such, without "may have reached".
    let err = within(10, c.get_context()).await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Timeout {
                may_have_reached: false,
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn a_connection_dropped_after_a_write_was_read_is_not_retried() {
    let srv = RawServer::start(Raw::Drop).await;
    let c = client(&srv.url());
    let sm = SendMessage {
        body_text: Some("Hello".into()),
        ..Default::default()
    };
    let err = within(10, c.send_message("t1", &sm)).await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Transport {
                may_have_reached: true,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("may have reached"), "{err}");
    let ct = CreateThread {
        draft_subject: Some("Hi".into()),
        ..Default::default()
    };
    let err = within(10, c.create_thread(&ct)).await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Transport {
                may_have_reached: true,
                ..
            }
        ),
        "{err:?}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(srv.count(), 2, "each write read once: {:#?}", srv.heads());
}

#[tokio::test]
async fn connect_errors_are_retried_for_reads_only_and_bounded() {
    let addr = dead_port().await;
    let c = client(&format!("http://{addr}"));
    let err = within(10, c.get_context()).await.unwrap_err();
    assert!(matches!(err, ApiError::Connect { .. }), "{err:?}");
    assert_eq!(err.code(), "unreachable");
    assert_eq!(
        c.attempts(),
        3,
        "a read retries a failed connection up to max_attempts"
    );

    let c = client(&format!("http://{addr}"));
    let ct = CreateThread {
        draft_subject: Some("Hi".into()),
        ..Default::default()
    };
    let err = within(10, c.create_thread(&ct)).await.unwrap_err();
    assert!(matches!(err, ApiError::Connect { .. }), "{err:?}");
    assert_eq!(c.attempts(), 1, "writes are not retried");
}

#[tokio::test]
async fn absurd_waits_from_the_server_do_not_panic() {
    let cases = [
        ("18446744073709551615", "slow down"),
        ("1e300", "slow down"),
        ("Fri, 31 Dec 9999 23:59:59 GMT", "slow down"),
        ("soon", "Retry in 99999999999999999999999 seconds."),
    ];
    for (header, message) in cases {
        let srv = Server::always(rate_limited(message).header("retry-after", header)).await;
        let c = client(&srv.url());
        let err = within(5, tokio::spawn(async move { c.get_context().await }))
            .await
            .unwrap_or_else(|e| {
                panic!("Retry-After {header:?} / {message:?}: the call panicked: {e}")
            });
        assert!(
            matches!(err, Err(ApiError::RateLimited { .. })),
            "{header}: {err:?}"
        );
        assert_eq!(srv.count(), 1);
    }
}
