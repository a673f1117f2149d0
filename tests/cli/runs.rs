//! `search run`: the disposition and summary, `--wait` to the run's end
//! with its exit code, a run already going (409), `--all` with its counts
//! and a run-all in which some searches failed; a lost run-all answer kept
//! so that running again asks first.

use crate::support::{Fake, Serve, cli, workspace_with};

const FAILS: &str = "Founders hiring their first SDR";
const STATIC: &str = "CFOs at bootstrapped e-commerce brands";

/// Polls a second apart (the demo runs a run's four minutes in under a
/// second at this time scale).
const FAST: &str = "[poll]\nrun_secs = 1\n";

#[test]
fn a_run_says_its_disposition_and_wait_exits_by_how_it_ended() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace_with(&serve, FAST);
    let d = dir.path();

    let ok = cli(d, &["search", "run", STATIC, "--wait", "--json"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let doc = ok.json();
    let mut keys: Vec<&String> = doc
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    keys.sort();
    assert_eq!(
        keys,
        [
            "check",
            "dispatch",
            "disposition",
            "errors",
            "outcome",
            "run",
            "search_id",
            "title",
            "waited"
        ]
    );
    assert_eq!(doc["disposition"], "queued");
    assert_eq!(doc["dispatch"], "recorded");
    assert_eq!(doc["waited"], true);
    assert_eq!(doc["run"]["status"], "completed");
    assert!(
        doc["run"]["counts"]["stored"].as_u64().unwrap_or(0) > 0,
        "{doc}"
    );

    // The demo's failing search: exit 10, its sources' errors said.
    let failed = cli(d, &["search", "run", FAILS, "--wait"]);
    assert_eq!(failed.code, 10, "{}", failed.stderr);
    assert!(
        failed
            .stdout
            .starts_with(&format!("queued: \"{FAILS}\" — run ")),
        "{}",
        failed.stdout
    );
    assert!(
        failed
            .stdout
            .contains("(disposition queued, dispatch recorded)"),
        "{}",
        failed.stdout
    );
    assert!(failed.stdout.contains("  failed"), "{}", failed.stdout);
    assert!(
        failed.stderr.contains("the run failed (provider_timeout:"),
        "{}",
        failed.stderr
    );
}

#[test]
fn a_run_already_going_is_a_conflict_and_a_wait_can_time_out() {
    // At one simulated second a second, a run stays queued a minute.
    let serve = Serve::start(&["--time-scale", "1"]);
    let dir = workspace_with(&serve, FAST);
    let d = dir.path();
    let first = cli(d, &["search", "run", "RevOps leaders"]);
    assert_eq!(
        first.code, 64,
        "a part of a title never starts a run: {}",
        first.stderr
    );
    let first = cli(d, &["search", "run", "RevOps leaders at Series B SaaS"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let second = cli(d, &["search", "run", "RevOps leaders at Series B SaaS"]);
    assert_eq!(second.code, 9, "{}", second.stderr);
    assert!(second.stderr.contains("conflict:"), "{}", second.stderr);
    let waited = cli(
        d,
        &[
            "search",
            "run",
            STATIC,
            "--wait",
            "--timeout",
            "1.5",
            "--json",
        ],
    );
    assert_eq!(waited.code, 2, "{}", waited.stderr);
    assert_eq!(waited.json()["run"]["status"], "queued");
    assert!(
        waited.stderr.contains("timed out after")
            && waited.stderr.contains("the run is still going"),
        "{}",
        waited.stderr
    );
}

#[test]
fn run_all_prints_its_counts_and_each_search() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace_with(&serve, FAST);
    let d = dir.path();
    let r = cli(d, &["search", "run", "--all", "--wait", "--json"]);
    assert_eq!(
        r.code, 12,
        "the failing search's run did not complete: {}",
        r.stderr
    );
    let doc = r.json();
    assert_eq!(doc["outcome"], "done");
    assert_eq!(doc["waited"], true);
    assert_eq!(
        doc["counts"],
        serde_json::json!({"matched": 5, "queued": 3, "existing": 1, "blocked": 0, "failed": 0, "skipped": 1})
    );
    let searches = doc["searches"].as_array().cloned().unwrap_or_default();
    assert_eq!(searches.len(), 5);
    let status_of = |title: &str| {
        searches
            .iter()
            .find(|s| s["title"] == title)
            .map(|s| s["status"].clone())
    };
    assert_eq!(status_of(FAILS), Some("failed".into()));
    assert_eq!(
        status_of("RevOps leaders at Series B SaaS"),
        Some("completed".into())
    );
    assert_eq!(
        status_of("Heads of Growth in fintech (DACH)"),
        Some("skipped".into())
    );
    // The run that was going already is followed to its end too.
    assert_eq!(
        status_of("Platform engineering managers, 200–1000 staff"),
        Some("completed".into())
    );
    assert!(r.stderr.contains("1 run did not complete"), "{}", r.stderr);
    let text = cli(d, &["search", "run", "--all"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("matched 5 · queued "),
        "{}",
        text.stdout
    );
}

/// A run-all answer in which some searches failed to start exits 12.
#[test]
fn a_run_all_in_which_searches_failed_exits_12() {
    let fake = Fake::start(|method, path, _| {
        match (method, path) {
        ("GET", "/api/lead-finder") => (200, Vec::new(), r#"{"searches": []}"#.into()),
        ("POST", "/api/lead-finder/run") => (
            200,
            Vec::new(),
            r#"{"surface": "lead-finder", "matchedCount": 2, "queuedCount": 1, "failedCount": 1,
                "results": [
                  {"searchId": "s-1", "title": "A", "status": "queued", "runId": "r-1"},
                  {"searchId": "s-2", "title": "B", "status": "failed", "code": "provider_down", "message": "The provider is down."}
                ],
                "agentSummary": "Queued 1 of 2 searches; 1 failed."}"#
                .into(),
        ),
        _ => (404, Vec::new(), "{}".into()),
    }
    });
    let dir = fake.workspace();
    let r = cli(dir.path(), &["search", "run", "--all"]);
    assert_eq!(r.code, 12, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("Queued 1 of 2 searches; 1 failed.\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("provider_down: The provider is down."),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("1 of 2 searches failed to start"),
        "{}",
        r.stderr
    );
}

/// A run-all whose answer is lost: found when the searches show new runs;
/// not found when nothing new could start (every search already going),
/// exit 7, and kept — running again then asks first, so off a terminal it
/// needs --yes, which it would not otherwise.
#[test]
fn a_lost_run_all_is_checked_and_running_again_needs_yes() {
    // At one simulated second a second, the runs it starts stay live.
    let serve = Serve::start(&[
        "--time-scale",
        "1",
        "--chaos-lost-answer",
        "POST:/api/lead-finder/run",
    ]);
    let dir = workspace_with(&serve, FAST);
    let d = dir.path();
    let found = cli(d, &["search", "run", "--all", "--json"]);
    assert_eq!(found.code, 0, "{}", found.stderr);
    assert_eq!(found.json()["check"]["verdict"], "found");

    let lost = cli(d, &["search", "run", "--all", "--json"]);
    assert_eq!(lost.code, 7, "{}", lost.stderr);
    let doc = lost.json();
    assert_eq!(doc["outcome"], "may_have_reached");
    assert_eq!(doc["check"]["verdict"], "not_found");
    assert_eq!(
        doc["check"]["text"],
        "not found in the searches' runs after 5 good reads"
    );
    let posts = |serve: &Serve| {
        serve
            .requests()
            .iter()
            .filter(|l| l.method == "POST" && l.path == "/api/lead-finder/run")
            .count()
    };
    serve.wait_writes(2);
    assert_eq!(posts(&serve), 2, "each sent once");

    let again = cli(d, &["search", "run", "--all"]);
    assert_eq!(again.code, 13, "{}", again.stderr);
    assert!(
        again.stderr.contains(
            "its last attempt may have reached the service, so doing it again needs --yes"
        ),
        "{}",
        again.stderr
    );
    assert_eq!(posts(&serve), 2, "not sent without --yes");
    let state = std::fs::read_to_string(d.join("state.json")).unwrap_or_default();
    assert!(state.contains("\"cli:run:all\""), "{state}");
}
