//! Rate limits (rule 10) and chaos.

use std::time::Duration;

use outpost::testkit::api::ApiError;
use outpost::testkit::api::model::*;
use outpost::testkit::demo::{ChaosConfig, DemoConfig, OTHER_KEY};

use crate::common::*;

#[tokio::test]
async fn rule_10_bursts_past_the_limit_get_429_with_retry_after() {
    let svc = start_with(DemoConfig {
        rate_limit_per_sec: 5,
        ..config()
    })
    .await;
    let mut answers = Vec::new();
    for _ in 0..12 {
        answers.push(svc.raw("GET", "/api/senders", None).await);
    }
    let ok = answers.iter().filter(|r| r.status == 200).count();
    let limited: Vec<&Raw> = answers.iter().filter(|r| r.status == 429).collect();
    assert!(
        ok >= 5 && !limited.is_empty(),
        "ok {ok}, limited {}",
        limited.len()
    );
    let r = limited[0];
    assert_eq!(r.code(), "rate_limited");
    let secs: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(secs >= 1);
    assert_eq!(
        r.message(),
        format!("Rate limit exceeded. Retry in {secs} seconds.")
    );
    // Per key and per route: neither the other key nor another route is
    // limited by this burst.
    assert_eq!(
        svc.raw_as(Some(OTHER_KEY), "GET", "/api/senders", None)
            .await
            .status,
        200
    );
    assert_eq!(svc.raw("GET", "/api/threads", None).await.status, 200);
    // After the wait, the route answers again.
    tokio::time::sleep(Duration::from_secs(secs)).await;
    assert_eq!(svc.raw("GET", "/api/senders", None).await.status, 200);
}

#[tokio::test]
async fn ids_share_one_route_limit_and_the_client_waits_it_out() {
    let svc = start_with(DemoConfig {
        rate_limit_per_sec: 3,
        ..config()
    })
    .await;
    let threads = svc
        .api
        .list_threads(&ThreadQuery::default())
        .await
        .unwrap()
        .threads;
    let mut statuses = Vec::new();
    for t in threads.iter().cycle().take(10) {
        statuses.push(
            svc.raw("GET", &format!("/api/threads/{}", t.id), None)
                .await
                .status,
        );
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    // The typed client honours Retry-After and succeeds.
    let t = svc.api.get_thread(&threads[0].id).await.unwrap();
    assert_eq!(t.id, threads[0].id);
}

#[tokio::test]
async fn unknown_paths_and_methods_share_one_window() {
    let svc = start_with(DemoConfig {
        rate_limit_per_sec: 3,
        ..config()
    })
    .await;
    let mut statuses = Vec::new();
    let mut path = String::from("/api/nope");
    for i in 0..8 {
        path.push_str(&format!("/{i}"));
        let method = if i % 2 == 0 { "GET" } else { "BREW" };
        statuses.push(svc.raw(method, &path, None).await.status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    assert!(
        statuses.iter().all(|s| [404, 405, 429].contains(s)),
        "{statuses:?}"
    );
    // Known routes keep their own windows.
    assert_eq!(svc.raw("GET", "/api/senders", None).await.status, 200);
}

#[tokio::test]
async fn the_default_limit_leaves_normal_polling_alone() {
    let svc = start_with(DemoConfig {
        rate_limit_per_sec: DemoConfig::default().rate_limit_per_sec,
        ..config()
    })
    .await;
    for _ in 0..10 {
        assert_eq!(
            svc.raw("GET", "/api/email/domains?skip_sync=true", None)
                .await
                .status,
            200
        );
        assert_eq!(svc.raw("GET", "/api/campaigns", None).await.status, 200);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn chaos(seed: u64, error: f64, too_many: f64, malformed: f64) -> DemoConfig {
    DemoConfig {
        chaos: ChaosConfig {
            seed,
            latency: Duration::ZERO,
            latency_methods: Vec::new(),
            error_rate: error,
            rate_429: too_many,
            malformed_rate: malformed,
            lost_answers: Vec::new(),
        },
        ..config()
    }
}

/// Statuses and body validity of 40 sequential reads.
async fn sample(svc: &Svc) -> Vec<(u16, bool, bool)> {
    let mut out = Vec::new();
    for _ in 0..40 {
        let r = svc.raw("GET", "/api/senders", None).await;
        out.push((
            r.status,
            !r.body.is_null(),
            r.headers.contains_key("retry-after"),
        ));
    }
    out
}

#[tokio::test]
async fn chaos_is_reproducible_from_the_seed() {
    let a = sample(&start_with(chaos(7, 0.2, 0.2, 0.2)).await).await;
    let b = sample(&start_with(chaos(7, 0.2, 0.2, 0.2)).await).await;
    let c = sample(&start_with(chaos(8, 0.2, 0.2, 0.2)).await).await;
    assert_eq!(a, b, "same seed, same faults");
    assert_ne!(a, c, "another seed, other faults");
    assert!(a.iter().any(|x| x.0 == 500) && a.iter().any(|x| x.0 == 429));
    assert!(
        a.iter().any(|x| x.0 == 200 && !x.1),
        "some 200 bodies are not JSON"
    );
    assert!(a.iter().any(|x| x.0 == 200 && x.1), "some requests pass");
    assert!(
        a.iter().filter(|x| x.0 == 429).all(|x| !x.2),
        "chaos 429s carry no Retry-After"
    );
}

#[tokio::test]
async fn chaos_faults_have_the_documented_shapes() {
    let svc = start_with(chaos(1, 1.0, 0.0, 0.0)).await;
    let r = svc.raw("GET", "/api/senders", None).await;
    assert_eq!((r.status, r.code()), (500, "internal_error"));
    let svc = start_with(chaos(1, 0.0, 1.0, 0.0)).await;
    let r = svc.raw("GET", "/api/senders", None).await;
    assert_eq!((r.status, r.code()), (429, "rate_limited"));
    assert!(r.message().starts_with("Rate limit exceeded. Retry in "));
    let svc = start_with(chaos(1, 0.0, 0.0, 1.0)).await;
    let mut kinds = Vec::new();
    for _ in 0..12 {
        let r = svc.raw("GET", "/api/senders", None).await;
        assert_eq!(r.status, 200);
        assert!(
            serde_json::from_str::<serde_json::Value>(&r.text).is_err(),
            "{}",
            r.text
        );
        kinds.push(if r.text.starts_with('<') {
            "html"
        } else if r.text.contains("garbage") {
            "trailing"
        } else {
            "truncated"
        });
    }
    kinds.sort();
    kinds.dedup();
    assert!(kinds.len() >= 2, "several kinds of broken body: {kinds:?}");
    // The typed client reports a decode error, not a panic.
    let e = svc.api.list_senders(None).await.unwrap_err();
    assert!(matches!(e, ApiError::Decode { status: 200, .. }), "{e}");
    // Authentication still comes first.
    let r = svc.raw_as(None, "GET", "/api/senders", None).await;
    assert_eq!(r.status, 401);
}

#[tokio::test]
async fn chaos_latency_delays_answers() {
    let mut cfg = chaos(1, 0.0, 0.0, 0.0);
    cfg.chaos.latency = Duration::from_millis(300);
    let svc = start_with(cfg).await;
    let started = std::time::Instant::now();
    svc.raw("GET", "/api/senders", None).await;
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn a_write_whose_client_gave_up_still_happens_once() {
    // Latency on POST only: the client's timeout passes while the write
    // waits, the client hangs up, and the service still carries it out —
    // the failure a client must be ready for (its answer lost, not its
    // effect).
    let mut cfg = chaos(1, 0.0, 0.0, 0.0);
    cfg.chaos.latency = Duration::from_millis(600);
    cfg.chaos.latency_methods = vec!["POST".into()];
    let svc = start_with(cfg).await;
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(100))
        .build()
        .expect("client");
    let sent = impatient
        .post(format!("{}/api/threads", svc.handle.base_url()))
        .header(
            "authorization",
            format!("Bearer {}", outpost::testkit::demo::DEMO_KEY),
        )
        .header("content-type", "application/json")
        .body(r#"{"participant_email":"late.write@example.com"}"#)
        .send()
        .await;
    assert!(sent.is_err_and(|e| e.is_timeout()), "the client gave up");
    let count = || async {
        let r = svc.raw("GET", "/api/threads?status=draft", None).await;
        r.body["threads"]
            .as_array()
            .map(|ts| {
                ts.iter()
                    .filter(|t| t["participant_email"] == "late.write@example.com")
                    .count()
            })
            .filter(|n| *n > 0)
    };
    let n = eventually(10, "the late write", count).await;
    assert_eq!(n, 1, "carried out once");
}

/// `--chaos-lost-answer`: the handler runs and its effect is stored, then
/// the answer is lost — a 502 or 504 in its place, or the connection
/// dropped mid-answer — and the client, told nothing happened or nothing
/// at all, must treat the write as one that may have reached.
#[tokio::test]
async fn a_lost_answer_is_lost_after_the_write_was_carried_out() {
    use outpost::testkit::demo::chaos::LostAnswer;
    let mut cfg = config();
    cfg.chaos.lost_answers = ["POST:/api/threads:502", "POST:/api/email/domains:504"]
        .iter()
        .map(|r| LostAnswer::parse(r).expect("rule"))
        .collect();
    cfg.chaos
        .lost_answers
        .push(LostAnswer::parse("PATCH:/api/threads/*:reset").expect("rule"));
    let svc = start_with(cfg).await;
    let r = svc
        .raw(
            "POST",
            "/api/threads",
            Some(serde_json::json!({"participant_email": "lost.answer@example.com"})),
        )
        .await;
    assert_eq!((r.status, r.code()), (502, "bad_gateway"));
    let threads = svc.raw("GET", "/api/threads?status=draft", None).await;
    let made: Vec<&serde_json::Value> = threads.body["threads"]
        .as_array()
        .expect("threads")
        .iter()
        .filter(|t| t["participant_email"] == "lost.answer@example.com")
        .collect();
    assert_eq!(made.len(), 1, "the handler ran once although it said 502");
    // The typed client: a write answered 502 may have reached the service.
    let err = svc
        .api
        .create_domain("lost-answer.example.com")
        .await
        .expect_err("504");
    assert_eq!(err.status(), Some(504));
    assert!(err.maybe_accepted(), "{err:?}");
    let listed = svc.api.list_domains(true).await.expect("list");
    assert!(
        listed.iter().any(|d| d.domain == "lost-answer.example.com"),
        "the domain was added"
    );
    // Reads are untouched by a rule for writes.
    assert_eq!(svc.raw("GET", "/api/threads", None).await.status, 200);
    // `reset`: the connection drops after the status line; the update is
    // stored.
    let id = made[0]["id"].as_str().expect("id").to_owned();
    let patch = outpost::testkit::api::model::PatchThread {
        draft_subject: Some(Some("After reset".into())),
        ..Default::default()
    };
    let err = svc.api.patch_thread(&id, &patch).await.expect_err("reset");
    assert!(err.maybe_accepted(), "{err:?}");
    let t = svc.api.get_thread(&id).await.expect("thread");
    assert_eq!(t.draft_subject.as_deref(), Some("After reset"));
}
