//! `outpost journal`: writes the CLI sends are recorded in the profile's
//! journal — done, refused with the service's code, or may have reached
//! followed by its verdict line — and printed newest first, as a table or
//! JSON. Read from local files only.

use serde_json::Value;

use crate::support::{Serve, cli, workspace};

fn entries(d: &std::path::Path, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["journal", "--json"];
    args.extend_from_slice(extra);
    let r = cli(d, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.json()["entries"].as_array().cloned().unwrap_or_default()
}

#[test]
fn an_import_a_run_and_a_refused_run_are_in_the_journal_newest_first() {
    // At one simulated second a second, a run stays queued: a second run
    // of the same search is refused.
    let serve = Serve::start(&["--time-scale", "1"]);
    let dir = workspace(&serve);
    let d = dir.path();
    assert_eq!(entries(d, &[]), Vec::<Value>::new(), "nothing sent yet");
    let empty = cli(d, &["journal"]);
    assert_eq!(empty.stdout, "no writes recorded\n");

    let campaigns = cli(d, &["campaigns", "--json"]).json();
    let draft = campaigns["campaigns"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|c| c["channel"] == "email" && c["status"] == "draft")
        })
        .cloned()
        .expect("a draft email campaign");
    let id = draft["id"].as_str().unwrap_or_default();
    let file = d.join("leads.csv");
    std::fs::write(
        &file,
        "email,first_name\nana@journal.test,Ana\nbo@journal.test,Bo\n",
    )
    .expect("csv");
    let r = cli(
        d,
        &["leads", "import", id, file.to_str().unwrap_or_default()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // A search run twice: the service refuses the second while the first
    // is going (409).
    let search = "RevOps leaders at Series B SaaS";
    assert_eq!(cli(d, &["search", "run", search]).code, 0);
    let r = cli(d, &["search", "run", search]);
    assert_eq!(r.code, 9, "{}", r.stderr);
    assert_eq!(serve.wait_writes(3).len(), 3, "{:?}", serve.writes());

    let e = entries(d, &[]);
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!(e[0]["operation"], "RunSearch");
    assert_eq!(e[0]["outcome"], "refused");
    assert_eq!(e[0]["status"], 409);
    assert_eq!(e[0]["code"], "conflict");
    assert_eq!(e[0]["target"]["kind"], "search");
    assert_eq!(e[1]["operation"], "RunSearch");
    assert_eq!(e[1]["outcome"], "done");
    assert_eq!(e[1]["target"]["name"], search);
    assert_eq!(e[2]["operation"], "AddLeads");
    assert_eq!(e[2]["outcome"], "done");
    assert_eq!(e[2]["source"], "cli");
    assert_eq!(e[2]["profile"], Value::Null);
    assert_eq!(e[2]["target"]["kind"], "campaign");
    assert_eq!(e[2]["target"]["id"], id);
    assert_eq!(e[2]["summary"], "2 leads (email)");
    assert_eq!(e[2]["verdict"], Value::Null);

    let table = cli(d, &["journal"]);
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", table.stdout);
    assert!(lines[0].starts_with("WHEN (UTC)"), "{}", lines[0]);
    assert!(lines[1].contains("RunSearch") && lines[1].contains("refused: conflict (409)"));
    assert!(lines[3].contains("AddLeads") && lines[3].contains("2 leads (email)"));

    assert_eq!(entries(d, &["--since", "1h"]).len(), 3);
    let bad = cli(d, &["journal", "--since", "yesterday"]);
    assert_eq!(bad.code, 64, "{}", bad.stderr);

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(d.join("journal.jsonl"))
            .expect("the journal file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

/// A redeem answered 502 after the service acted may have reached: it is
/// recorded so, and the verdict (the contract has no read of a pass) is
/// appended as its own line naming the entry.
#[test]
fn a_lost_answer_is_recorded_as_may_have_reached_then_its_verdict() {
    let serve = Serve::start(&["--chaos-lost-answer", "POST:/api/test-access/redeem:502"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let r = cli(d, &["redeem", "DEMO-PASS-1"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("may have been carried out"),
        "{}",
        r.stderr
    );

    let text = std::fs::read_to_string(d.join("journal.jsonl")).expect("the journal");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["kind"], "write");
    assert_eq!(lines[0]["outcome"], "may_have_reached");
    assert_eq!(lines[0]["status"], 502);
    assert_eq!(lines[0]["settle"], "no_check");
    assert_eq!(lines[0]["summary"], "code DEMO…");
    assert!(!text.contains("DEMO-PASS-1"), "the code is not kept whole");
    assert_eq!(lines[1]["kind"], "verdict");
    assert_eq!(lines[1]["entry"], lines[0]["id"]);
    assert_eq!(lines[1]["verdict"], "no_check");

    let e = entries(d, &[]);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0]["outcome"], "may_have_reached");
    assert_eq!(
        e[0]["verdict"]["text"],
        "cannot be checked: the contract has no read of a pass"
    );
    let table = cli(d, &["journal"]);
    assert!(
        table
            .stdout
            .contains("may have reached (bad_gateway) · cannot be checked"),
        "{}",
        table.stdout
    );
}

/// A reply sent from the CLI is journaled: to whom, its `Re:` subject and
/// the start of its body.
#[test]
fn a_reply_is_journaled_with_its_subject_and_body() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let body = d.join("reply.txt");
    std::fs::write(
        &body,
        "Two days is typical.\n\nWant the walkthrough link?\n",
    )
    .expect("body");
    let r = cli(
        d,
        &[
            "thread",
            "reply",
            "nadia.haddad@lumen.health",
            "--body-file",
            body.to_str().unwrap_or_default(),
            "--yes",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let e = entries(d, &[]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0]["operation"], "SendMessage");
    assert_eq!(e[0]["outcome"], "done");
    assert_eq!(e[0]["target"]["name"], "nadia.haddad@lumen.health");
    let summary = e[0]["summary"].as_str().unwrap_or_default();
    assert!(
        summary.starts_with(
            "subject: \"Re: Lumen's quarterly forecast\"; body: \"Two days is typical. Want the walkthrough link?\""
        ),
        "{summary}"
    );
}

/// A launch whose answer was lost after the service acted: recorded as may
/// have reached, then the check's verdict (found) as its own line.
#[test]
fn a_lost_launch_is_recorded_then_its_check_found_it() {
    let serve = Serve::start(&["--chaos-lost-answer", "POST:/api/campaigns/*/launch:502"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let r = cli(
        d,
        &[
            "campaign",
            "launch",
            "Q3 RevOps outreach (5,000-lead draft)",
            "--yes",
        ],
    );
    assert_eq!(r.code, 0, "found: carried out once. {}", r.stderr);
    let text = std::fs::read_to_string(d.join("journal.jsonl")).expect("the journal");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["operation"], "LaunchCampaign");
    assert_eq!(lines[0]["outcome"], "may_have_reached");
    assert_eq!(lines[0]["code"], "bad_gateway");
    assert_eq!(lines[0]["settle"], "check");
    assert_eq!(lines[1]["kind"], "verdict");
    assert_eq!(lines[1]["entry"], lines[0]["id"]);
    assert_eq!(lines[1]["verdict"], "found");
    assert_eq!(lines[1]["text"], "the campaign is launching");
    let e = entries(d, &[]);
    assert_eq!(e[0]["verdict"]["verdict"], "found");
}
