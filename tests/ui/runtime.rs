//! The real loop on a test backend, against the in-process demo service.

use std::sync::atomic::Ordering;
use std::time::Duration;

use crossterm::event::KeyCode;
use outpost::api::model::DomainStatus;
use outpost::demo::DemoConfig;

use crate::support::Runner;

/// Idle costs nothing: with no input and no due poller, no frame is drawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_dashboard_draws_nothing() {
    let r = Runner::start(80, 24, "domains", DemoConfig::default()).await;
    r.wait_for("Sending domains").await.expect("domains load");
    // The senders view watches nothing, so nothing is due.
    r.key(KeyCode::Char('s'));
    r.wait_for("Senders (").await.expect("senders load");
    // Let replies and toasts settle.
    let mut last = r.stats.frames.load(Ordering::Relaxed);
    loop {
        tokio::time::sleep(Duration::from_millis(700)).await;
        let now = r.stats.frames.load(Ordering::Relaxed);
        if now == last {
            break;
        }
        last = now;
    }
    let messages = r.stats.messages.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        r.stats.frames.load(Ordering::Relaxed),
        last,
        "no frame while idle"
    );
    assert_eq!(
        r.stats.messages.load(Ordering::Relaxed),
        messages,
        "no message while idle"
    );
    r.quit().await;
}

/// Through the real loop: open the newest (pending) domain, copy a record
/// value, trigger a check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_and_copy_through_the_loop() {
    let demo = DemoConfig {
        time_scale: 6000.0,
        ..DemoConfig::default()
    };
    let r = Runner::start(120, 30, "domains", demo).await;
    r.wait_for("● pending").await.expect("domains load");
    r.key(KeyCode::Enter);
    let detail = r.wait_for("DNS records").await.expect("detail opens");
    assert!(
        detail.contains("● pending"),
        "the newest seeded domain is pending:\n{detail}"
    );
    r.key(KeyCode::Char('y'));
    r.wait_for("copied to the clipboard")
        .await
        .expect("copy notice");
    assert_eq!(r.host.copies.lock().map(|c| c.len()).unwrap_or(0), 1);
    r.key(KeyCode::Char('v'));
    r.wait_for("Verification started")
        .await
        .expect("verify answered");
    let model = r.quit().await;
    let status = model.panes.domains.open_domain().map(|d| d.status.clone());
    assert!(
        matches!(
            status,
            Some(DomainStatus::Verifying | DomainStatus::Verified)
        ),
        "the trigger moved it on: {status:?}"
    );
}
