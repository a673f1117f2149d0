//! The key and the network, end to end through the `outpost` binary: proxy
//! variables never carry a loopback service's key anywhere, an `https://`
//! service goes through an http proxy only as a CONNECT tunnel, and a key
//! echoed back by a service shows masked, with Outpost's advice intact.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::*;

/// Every proxy variable the client could read.
const PROXY_VARS: [&str; 8] = [
    "HTTP_PROXY",
    "http_proxy",
    "HTTPS_PROXY",
    "https_proxy",
    "ALL_PROXY",
    "all_proxy",
    "NO_PROXY",
    "no_proxy",
];

/// `outpost` in `dir` with no proxy variable from the test's environment.
fn outpost_without_proxies(dir: &std::path::Path) -> std::process::Command {
    let mut c = outpost(dir);
    for var in PROXY_VARS {
        c.env_remove(var);
    }
    c
}

/// A TCP server on 127.0.0.1 that reads each request head and answers with
/// what `answer` makes of it (nothing: the connection is closed). The head
/// is recorded before the answer, so a client that got its answer (or saw
/// the close) finds it recorded.
struct Recorder {
    url: String,
    heads: Arc<Mutex<Vec<String>>>,
}

impl Recorder {
    fn start(answer: impl Fn(&str) -> Option<Vec<u8>> + Send + 'static) -> Recorder {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let heads: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = heads.clone();
        // Lives as long as the test process: nothing to stop.
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let head = read_head(&mut stream);
                seen.lock().expect("lock").push(head.clone());
                if let Some(bytes) = answer(&head) {
                    let _ = stream.write_all(&bytes);
                }
            }
        });
        Recorder { url, heads }
    }

    fn heads(&self) -> Vec<String> {
        self.heads.lock().expect("lock").clone()
    }
}

/// Reads up to the end of a request head (or 5 s of silence).
fn read_head(stream: &mut TcpStream) -> String {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

#[test]
fn a_loopback_service_is_reached_directly_whatever_the_proxy_variables_say() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
        let proxy = Recorder::start(|_| None);
        let listed = run(outpost_without_proxies(dir.path())
            .env(var, &proxy.url)
            .args(["campaigns", "--json"]));
        assert_eq!(listed.code, 0, "{var}: {listed:?}");
        let check = run(outpost_without_proxies(dir.path())
            .env(var, &proxy.url)
            .arg("check"));
        assert_eq!(check.code, 0, "{var}: {check:?}");
        assert!(
            check.stdout.contains(&format!(
                "proxy:    none: {var} is set, but a service on a loopback address is always reached directly"
            )),
            "{var}: {}",
            check.stdout
        );
        // Both commands got their answers from the service, so anything
        // sent to the proxy was recorded by now.
        assert_eq!(proxy.heads(), Vec::<String>::new(), "{var}");
    }
}

#[test]
fn an_https_service_goes_through_an_http_proxy_only_as_a_tunnel() {
    let proxy = Recorder::start(|_| None);
    let dir = tempfile::tempdir().expect("tempdir");
    let check = run(outpost_without_proxies(dir.path())
        .env("HTTPS_PROXY", &proxy.url)
        .env("OUTPOST_BASE_URL", "https://api.outpost.invalid")
        .env("OUTPOST_API_KEY", "pk_live_SECRETKEY1234abcd")
        .arg("check"));
    assert!(check.stdout.contains("HTTPS:    ok\n"), "{check:?}");
    let line = format!(
        "proxy:    {} (from HTTPS_PROXY; a CONNECT tunnel: the key travels inside TLS)",
        proxy.url
    );
    assert!(check.stdout.contains(&line), "{}", check.stdout);
    // The proxy closed the tunnel, so the call failed; what it saw in clear
    // was the CONNECT alone.
    assert_eq!(check.code, 1, "{check:?}");
    let heads = proxy.heads();
    assert!(!heads.is_empty(), "the proxy was used");
    for head in heads {
        assert!(
            head.starts_with("CONNECT api.outpost.invalid:443 "),
            "{head}"
        );
        assert!(
            !head.contains("SECRET") && !head.contains("Bearer"),
            "{head}"
        );
    }
}

#[test]
fn a_proxy_that_would_break_the_https_rule_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let check = run(outpost_without_proxies(dir.path())
        .env("HTTPS_PROXY", "socks5://127.0.0.1:1080")
        .env("OUTPOST_BASE_URL", "https://api.outpost.invalid")
        .env("OUTPOST_API_KEY", "pk_live_SECRETKEY1234abcd")
        .arg("check"));
    assert_eq!(check.code, 1, "{check:?}");
    assert!(
        check
            .stdout
            .contains("proxy:    FAIL HTTPS_PROXY names a socks5:// proxy"),
        "{}",
        check.stdout
    );
}

/// Keys of the shapes that leaked: punctuation after the prefix.
const ODD_KEY: &str = "pk_live_ab.cdEFGH/ijkl+mnop=qr12";

#[test]
fn a_key_echoed_by_the_service_shows_masked_with_the_advice_after_it() {
    // Echoes the Bearer key in a 401 whose message ends in an open OSC.
    let service = Recorder::start(|head| {
        let key = head
            .lines()
            .find_map(|l| l.strip_prefix("authorization: Bearer "))
            .unwrap_or("none");
        let body = serde_json::json!({"error": {"code": "unauthorized", "message": format!("key {key} revoked\u{1b}]")}})
            .to_string();
        Some(
            format!(
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            )
            .into_bytes(),
        )
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let with_key = |args: &[&str]| {
        run(outpost_without_proxies(dir.path())
            .env("OUTPOST_BASE_URL", &service.url)
            .env("OUTPOST_API_KEY", ODD_KEY)
            .args(args))
    };
    let check = with_key(&["check"]);
    let listed = with_key(&["campaigns"]);
    assert!(
        service.heads().iter().any(|h| h.contains(ODD_KEY)),
        "the service got the key to echo: {:?}",
        service.heads()
    );
    for (what, text) in [("check", &check.stdout), ("campaigns", &listed.stderr)] {
        let secret = "ab.cdEFGH/ijkl+mnop=";
        for i in 0..secret.len() - 4 {
            assert!(
                !text.contains(&secret[i..i + 5]),
                "{what} leaks the key: {text}"
            );
        }
        assert!(text.contains("pk_live_…qr12"), "{what}: {text}");
        for ours in ["(HTTP 401)", "outpost check"] {
            assert!(text.contains(ours), "{what}: `{ours}` swallowed: {text}");
        }
    }
}
