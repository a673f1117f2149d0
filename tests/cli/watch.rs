//! `outpost domain watch`: exit 0 on verified, 1 on failed, 2 on time-out,
//! against the demo's seeded domains (sped up), and the interval rule.

use crate::support::{Serve, cli, workspace};

fn statuses(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
        .collect()
}

#[test]
fn a_domain_that_verifies_exits_0_after_printing_each_change() {
    // mail.northwind-demo.io verifies ~6 simulated minutes after start:
    // under a second at 600×.
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace(&serve);
    let r = cli(
        dir.path(),
        &[
            "domain",
            "watch",
            "mail.northwind-demo.io",
            "--interval",
            "0.2",
            "--timeout",
            "20",
        ],
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert_eq!(
        statuses(&r.stdout),
        ["verifying", "verified"],
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .all(|l| l.contains("  mail.northwind-demo.io  ")),
        "{}",
        r.stdout
    );
    let reads = serve.requests();
    assert!(
        reads
            .iter()
            .filter(|x| x.path.ends_with("/verify"))
            .all(|x| x.query.as_deref() == Some("poll=true")),
        "watching only reads: {reads:?}"
    );
}

#[test]
fn a_failed_domain_exits_1_and_a_stuck_one_times_out_with_2() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let failed = cli(
        d,
        &[
            "domain",
            "watch",
            "fail-dkim.northwind-demo.io",
            "--json",
            "--interval",
            "0.2",
        ],
    );
    assert_eq!(failed.code, 1, "{}", failed.stderr);
    let line: serde_json::Value =
        serde_json::from_str(failed.stdout.trim()).expect("one JSON line");
    assert_eq!(line["status"], "failed");
    assert_eq!(line["domain"], "fail-dkim.northwind-demo.io");
    assert!(
        line["at"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{line}"
    );
    assert!(
        failed.stderr.contains("failed verification"),
        "{}",
        failed.stderr
    );

    let domains = cli(d, &["domains", "--json"]).json();
    let slow =
        crate::commands::id_where(&domains["domains"], "domain", "slow-dns.northwind-demo.io");
    let stuck = cli(
        d,
        &[
            "domain",
            "watch",
            &slow,
            "--timeout",
            "1",
            "--interval",
            "0.2",
        ],
    );
    assert_eq!(stuck.code, 2, "{}", stuck.stderr);
    assert_eq!(
        statuses(&stuck.stdout),
        ["verifying"],
        "one line: no change"
    );
    assert!(
        stuck
            .stderr
            .contains("timed out after 1s: the domain is still verifying"),
        "{}",
        stuck.stderr
    );

    let unknown = cli(d, &["domain", "watch", "nowhere.example.com"]);
    assert_eq!(unknown.code, 1);
    assert!(
        unknown
            .stderr
            .contains("no sending domain named nowhere.example.com"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn trigger_starts_a_pending_domain_and_the_interval_follows_the_contract() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let pending = cli(
        d,
        &[
            "domain",
            "watch",
            "news.northwind-demo.io",
            "--timeout",
            "0.5",
            "--interval",
            "0.2",
        ],
    );
    assert_eq!(pending.code, 2);
    assert!(
        pending
            .stderr
            .contains("never triggered (--trigger starts it)"),
        "{}",
        pending.stderr
    );
    let triggered = cli(
        d,
        &[
            "domain",
            "watch",
            "news.northwind-demo.io",
            "--trigger",
            "--interval",
            "0.2",
            "--timeout",
            "20",
        ],
    );
    assert_eq!(triggered.code, 0, "{}", triggered.stderr);
    assert_eq!(statuses(&triggered.stdout), ["verifying", "verified"]);
    let triggers = serve
        .requests()
        .iter()
        .filter(|x| x.path.ends_with("/verify") && x.query.is_none())
        .count();
    assert_eq!(triggers, 1, "the trigger is sent once");

    // Against a remote service, 30 to 60 s only (checked before any call).
    let remote = crate::support::run(
        crate::support::outpost(d)
            .args(["domain", "watch", "x", "--interval", "5"])
            .env("OUTPOST_BASE_URL", "https://api.example.invalid")
            .env("OUTPOST_API_KEY", "pk_live_x1234567"),
    );
    assert_eq!(remote.code, 64, "{}", remote.stderr);
    assert!(
        remote
            .stderr
            .contains("allowed 30 to 60 seconds against api.example.invalid"),
        "{}",
        remote.stderr
    );
}
