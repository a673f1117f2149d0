//! The key and the network: the HTTPS rule's loopback test, redirects never
//! followed, echoed keys of any shape redacted, and service text that
//! cannot hide what Outpost appends to it.

use outpost::testkit::api::client::{check_base_url, is_loopback};
use outpost::testkit::api::{ApiError, ApiKey, Client, ServiceError};
use outpost::testkit::text::sanitize;
use reqwest::Url;
use serde_json::json;

use crate::support::*;

#[test]
fn only_real_loopback_hosts_may_take_plain_http() {
    for host in [
        "127.0.0.1:8787",
        "localhost:1",
        "[::1]:9",
        "127.0.0.2",
        "LOCALHOST",
    ] {
        let url = format!("http://{host}");
        assert!(check_base_url(&url).is_ok(), "{url}");
    }
    // Names that merely start or end like a loopback host resolve anywhere.
    for host in [
        "localhost.evil.example",
        "127.0.0.1.nip.io",
        "localhostx",
        "xlocalhost",
        "127.0.0.1.evil.example:8787",
        "[::ffff:8.8.8.8]",
        "0.0.0.0",
    ] {
        let url = format!("http://{host}");
        assert!(
            !is_loopback(&Url::parse(&url).unwrap()),
            "{url} is not loopback"
        );
        match check_base_url(&url) {
            Err(ApiError::Config(msg)) => assert!(msg.contains("HTTPS"), "{url}: {msg}"),
            other => panic!("{url}: plain http must be refused, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_redirect_is_an_error_and_the_key_goes_nowhere_else() {
    let elsewhere = Server::always(Reply::json(200, &json!({}))).await;
    for status in [301, 302, 303, 307, 308] {
        // To another origin, and to another path of the same origin (where
        // a client following redirects would keep the Authorization header).
        for target in [format!("{}/api/context", elsewhere.url()), "/moved".into()] {
            let first = Server::always(Reply::raw(status, "").header("location", &target)).await;
            let err = client(&first.url()).get_context().await.unwrap_err();
            assert_eq!(err.status(), Some(status), "{err}");
            let text = err.to_string();
            assert!(
                text.contains("redirect") && text.contains(&target) && text.contains("base URL"),
                "says it was a redirect, where to, and what to check: {text}"
            );
            assert!(!err.retryable(), "{text}");
            let hits = first.hits();
            assert_eq!(
                hits.len(),
                1,
                "{status} to {target} was followed: {hits:#?}"
            );
            assert!(hits[0].path == "/api/context", "{hits:#?}");
        }
    }
    let hits = elsewhere.hits();
    assert!(
        hits.is_empty(),
        "a redirect reached the second server: {hits:#?}"
    );
    assert!(hits.iter().all(|h| h.auth.is_none()));
}

/// Keys of the shapes the issue found leaking: punctuation after the prefix.
const ODD_KEYS: [&str; 4] = [
    "pk_live_ab.cdEFGH/ijkl+mnop=qr12",
    "pk_live_A/B+C=D.E/F+G=H.I/J+K=L",
    "pk_test_xy=z.q/w+e=rtyu.iop/asdf",
    "pk_live_s3cr3t.s3cr3t.s3cr3t.x9z8",
];

/// The characters of `key` after its prefix that a mask must hide (all but
/// the last four).
fn hidden_part(key: &str) -> &str {
    let rest = &key["pk_live_".len()..];
    &rest[..rest.len() - 4]
}

#[track_caller]
fn assert_masked(what: &str, key: &str, text: &str) {
    let hidden = hidden_part(key);
    // Any 5 consecutive secret characters would be a leak.
    for i in 0..=hidden.len().saturating_sub(5) {
        let piece = &hidden[i..i + 5];
        assert!(
            !text.contains(piece),
            "{what} leaks `{piece}` of {key}: {text}"
        );
    }
}

#[test]
fn a_key_with_punctuation_is_masked_whole() {
    for key in ODD_KEYS {
        for text in [
            format!("key {key} revoked"),
            format!("\"{key}\""),
            format!("'{key}'"),
            format!("key={key}."),
            format!("({key})"),
            format!("<b>{key}</b>"),
            format!("{key}\n{key}"),
        ] {
            let shown = outpost::testkit::api::key::redact(&text);
            assert_masked("redact", key, &shown);
            assert_masked("sanitize::inline", key, &sanitize::inline(&text));
            assert!(
                shown.contains("pk_"),
                "the mask says a key was there: {shown}"
            );
            // Redacting again changes nothing (texts are redacted at their
            // source and again where they are shown).
            assert_eq!(outpost::testkit::api::key::redact(&shown), shown);
        }
    }
    // The masked form of a key keeps its last four characters.
    assert_eq!(
        outpost::testkit::api::key::redact("key pk_live_ab.cdEFGH/ijkl+mnop=qr12 revoked"),
        "key pk_live_…qr12 revoked"
    );
}

#[test]
fn the_configured_key_is_masked_even_where_no_prefix_rule_would_find_it() {
    // A quote inside the key stops the prefix rule's token.
    let key = "pk_live_abc\"defghijklmn'opqrstu";
    let parsed = ApiKey::parse(key).unwrap();
    let e = ServiceError::from_body(
        400,
        format!(r#"{{"error":"bad key: {}"}}"#, key.replace('"', "\\\"")).as_bytes(),
        None,
    );
    for text in [e.to_string(), format!("{e:?}"), sanitize::inline(key)] {
        assert!(
            !text.contains("defghij") && !text.contains("opqrs"),
            "the configured key leaks: {text}"
        );
    }
    assert_eq!(parsed.masked(), "pk_live_…rstu");
}

#[tokio::test]
async fn a_key_with_punctuation_echoed_by_the_service_never_shows() {
    // The service's keys are `pk_live_` ones; `pk_test_` is only redacted.
    for key in ODD_KEYS.into_iter().filter(|k| k.starts_with("pk_live_")) {
        let echo = format!("key {key} is revoked");
        let srv = Server::start(move |hit, _| match hit.path.as_str() {
            "/api/context" => Reply::json(
                401,
                &json!({"error": {"code": "unauthorized", "message": echo}}),
            ),
            "/api/senders" => Reply::raw(502, format!("<p>{echo}</p>")),
            _ => Reply::raw(200, format!("{{\"x\": {echo}")),
        })
        .await;
        let mut cfg = config(&srv.url());
        cfg.key = ApiKey::parse(key).unwrap();
        cfg.retry.max_attempts = 1;
        let c = Client::new(cfg).unwrap();
        let errors = [
            c.get_context().await.unwrap_err(),
            c.list_senders(None).await.unwrap_err(),
            c.get_thread("t").await.unwrap_err(),
        ];
        for e in &errors {
            for text in [e.to_string(), e.message(), format!("{e:?}")] {
                assert_masked("an error", key, &text);
            }
        }
    }
}

#[test]
fn service_text_cannot_swallow_what_outpost_appends() {
    // An unterminated OSC, an unterminated DCS, and a lone CSI start, at the
    // end of each piece of service text.
    for tail in ["\u{1b}]", "\u{1b}]0;title", "\u{1b}P", "\u{9d}", "\u{1b}["] {
        let body = json!({"error": {"code": "unauthorized", "message": format!("bad key{tail}")}});
        let e = ServiceError::from_body(401, body.to_string().as_bytes(), None)
            .refused_key("pk_live_…abcd");
        let shown = sanitize::inline(&e.to_string());
        assert!(shown.ends_with("(HTTP 401)"), "{tail:?}: {shown}");
        assert!(shown.contains("outpost check"), "{tail:?}: {shown}");

        let lf = json!({"error": "quota", "message": format!("used up{tail}"), "code": format!("quota{tail}"),
            "alternatives": [format!("redeem a pass{tail}"), "wait"], "retryable": true,
            "action": {"type": "navigate", "label": format!("Upgrade{tail}"), "href": format!("/billing{tail}")}});
        let e = ServiceError::from_body(402, lf.to_string().as_bytes(), None);
        let shown = sanitize::inline(&e.to_string());
        for ours in [
            "(HTTP 402)",
            "; try: ",
            ", wait",
            "; Upgrade",
            " (/billing",
            "; retryable",
        ] {
            assert!(
                shown.contains(ours),
                "{tail:?}: `{ours}` missing from {shown}"
            );
        }

        // A body that is no envelope is cut to a snippet: after sanitizing,
        // so the cut cannot leave a sequence open either.
        let raw = format!("{}{tail}", "x".repeat(195));
        let e = ServiceError::from_body(502, raw.as_bytes(), None);
        let shown = sanitize::inline(&e.to_string());
        assert!(shown.ends_with("(HTTP 502)"), "{tail:?}: {shown}");
    }
}
