//! Instant open: the dashboard run once against the service keeps its
//! lists; started again with the service stopped, it opens on them at
//! once, marked stale, with the status bar saying it is offline.

use crate::pty::Pty;
use crate::support::{Serve, workspace};

/// A search of the seeded workspace, shown in the Leads list.
const SEARCH: &str = "RevOps leaders at Series B SaaS";
/// A domain of the seeded workspace.
const DOMAIN: &str = "fail-dkim.northwind-demo.io";

#[test]
fn the_dashboard_opens_on_its_last_known_lists_with_the_service_down() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut pty = Pty::spawn(&[], 120, 30, &config);
    pty.wait_for(SEARCH)
        .expect("the searches, from the service");
    pty.send(b"4");
    pty.wait_for(DOMAIN).expect("the domains, from the service");
    pty.send(b"1");
    pty.wait_for(SEARCH).expect("back on the searches");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
    let cache = pty.data_dir().join("cache.json");
    let text = std::fs::read_to_string(&cache).expect("the lists are kept");
    assert!(text.starts_with("{\"v\":1,"), "versioned: {}", &text[..40]);
    assert!(text.contains(SEARCH) && text.contains(DOMAIN));

    // The service stops; the same workspace opens again.
    drop(serve);
    let mut pty = pty.restart(&[], 120, 30, &[]);
    let screen = pty
        .wait_until("the cached searches, stale, offline", |s| {
            s.contains(SEARCH) && s.contains("stale · as of") && s.contains("offline")
        })
        .expect("it opens on what it knew");
    assert!(!screen.contains("could not load"), "{screen}");
    pty.send(b"4");
    let screen = pty
        .wait_until("the cached domains, stale", |s| {
            s.contains(DOMAIN) && s.contains("stale · as of")
        })
        .expect("the domains it knew");
    assert!(screen.contains("offline"), "{screen}");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
    assert!(
        std::fs::read_to_string(&cache).is_ok_and(|t| t.contains(DOMAIN)),
        "a failed read never empties the cache"
    );
}
