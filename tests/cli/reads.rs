//! Reads: `leads list` with its JSON shape, `results --limit` saying
//! whether more match, a read retried after a 500 as the dashboard does,
//! a rate limit given up on without the service's "Retry in N seconds",
//! and an import that stops at its first read still printing its report.

use crate::commands::id_where;
use crate::support::{Fake, Serve, cli, workspace};

#[test]
fn a_roster_lists_as_a_table_and_as_json() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let all = cli(d, &["leads", "list", "Platform eng — EU", "--json"]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let doc = all.json();
    assert_eq!(doc["total"], 60);
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["status"], serde_json::Value::Null);
    assert_eq!(doc["leads"].as_array().map(Vec::len), Some(60));
    let mut keys: Vec<&String> = doc["leads"][0]
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    keys.sort();
    assert_eq!(
        keys,
        [
            "bounced_at",
            "company",
            "created_at",
            "custom_fields",
            "email",
            "first_name",
            "headline",
            "id",
            "last_name",
            "name",
            "network_url",
            "position",
            "replied_at",
            "status",
            "updated_at"
        ]
    );
    let replied = cli(
        d,
        &[
            "leads",
            "list",
            "Platform eng — EU",
            "--status",
            "replied",
            "--json",
        ],
    )
    .json();
    let leads = replied["leads"].as_array().cloned().unwrap_or_default();
    assert!(!leads.is_empty() && leads.iter().all(|l| l["status"] == "replied"));
    assert_eq!(replied["total"].as_u64(), Some(leads.len() as u64));

    let some = cli(d, &["leads", "list", "Platform eng — EU", "--limit", "3"]);
    assert_eq!(some.code, 0, "{}", some.stderr);
    assert_eq!(some.stdout.lines().count(), 4, "{}", some.stdout);
    assert!(some.stdout.starts_with("ID  "), "{}", some.stdout);
    assert!(
        some.stderr.contains("3 of 60 leads shown"),
        "{}",
        some.stderr
    );
    let bad = cli(
        d,
        &["leads", "list", "Platform eng — EU", "--status", "won"],
    );
    assert_eq!(bad.code, 64, "{}", bad.stderr);
}

/// `results --limit N --json` says `complete: false` when more results
/// match than it printed (it said true).
#[test]
fn results_cut_by_limit_are_not_complete() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let searches = cli(d, &["searches", "--json"]).json();
    let id = id_where(
        &searches["searches"],
        "title",
        "Founders hiring their first SDR",
    );
    let cut = cli(d, &["results", &id, "--limit", "5", "--json"]).json();
    assert_eq!(cut["count"], 5);
    assert_eq!(cut["complete"], false, "35 match");
    // A limit that takes them all is complete.
    let whole = cli(d, &["results", &id, "--limit", "35", "--json"]).json();
    assert_eq!(whole["count"], 35);
    assert_eq!(whole["complete"], true);
    let text = cli(d, &["results", &id, "--limit", "5"]);
    assert!(
        text.stderr
            .contains("the first 5 results; more match (--limit)"),
        "{}",
        text.stderr
    );
}

/// A read answered 500 is read again, as the dashboard's reads are (the
/// command failed at once).
#[test]
fn a_read_answered_500_is_read_again() {
    let fake = Fake::start(|_, path, n| {
        if n == 0 {
            (
                500,
                Vec::new(),
                r#"{"error":{"code":"internal_error","message":"boom"}}"#.into(),
            )
        } else if path == "/api/campaigns" {
            (200, Vec::new(), r#"{"campaigns": []}"#.into())
        } else {
            (404, Vec::new(), "{}".into())
        }
    });
    let dir = fake.workspace();
    let r = cli(dir.path(), &["campaigns", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["campaigns"], serde_json::json!([]));
    assert_eq!(
        fake.requests(),
        ["GET /api/campaigns", "GET /api/campaigns"]
    );
}

/// A rate limit the command gives up on never repeats the service's
/// "Retry in 1 seconds": nothing is retried after it.
#[test]
fn a_rate_limit_given_up_on_does_not_say_retry_in() {
    let fake = Fake::start(|_, _, _| {
        (
            429,
            vec![("Retry-After", "0".to_owned())],
            r#"{"error":{"code":"rate_limited","message":"Rate limit exceeded. Retry in 1 seconds."}}"#
                .into(),
        )
    });
    let dir = fake.workspace();
    let r = cli(dir.path(), &["campaigns"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(!r.stderr.contains("Retry in"), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "outpost: listing the campaigns: rate_limited: Rate limit exceeded; still limited after Outpost's own waits"
        ),
        "{}",
        r.stderr
    );
}

/// An import whose first read fails (the campaign is not found, the file
/// cannot be read) prints its report all the same: nothing went in, where
/// it stopped, and how to resume.
#[test]
fn an_import_stopped_at_its_first_read_prints_its_report() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let file = d.join("leads.csv");
    std::fs::write(&file, "Email\na@x-test.io\n").expect("csv");
    let path = file.to_str().unwrap_or_default();
    let gone = "00000000-0000-4000-8000-000000000000";
    let r = cli(d, &["leads", "import", gone, path]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let report = r.json();
    assert_eq!(report["imported"], 0);
    assert_eq!(report["went_in"], serde_json::Value::Null);
    assert_eq!(report["complete"], false);
    assert_eq!(report["stopped"]["line"], 2);
    assert_eq!(report["stopped"]["code"], "not_found");
    assert!(
        report["stopped"]["resume"]
            .as_str()
            .is_some_and(|t| t.starts_with("running the same import again is safe")),
        "{report}"
    );
    assert!(
        r.stderr
            .contains("import stopped before its first row: reading campaign")
            && r.stderr
                .contains("no line went in; running the same import again is safe"),
        "{}",
        r.stderr
    );

    let list = cli(d, &["campaigns", "--json"]).json();
    let draft = id_where(
        &list["campaigns"],
        "name",
        "Platform eng intros (empty draft)",
    );
    let missing = d.join("missing.csv");
    let r = cli(
        d,
        &[
            "leads",
            "import",
            &draft,
            missing.to_str().unwrap_or_default(),
        ],
    );
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert_eq!(r.json()["stopped"]["code"], "file");
    assert_eq!(r.json()["stopped"]["line"], 1);
    assert!(serve.writes().is_empty(), "{:?}", serve.writes());
}
