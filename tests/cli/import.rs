//! `outpost leads import`: the report (JSON off a terminal, readable with
//! a progress bar on one), chunking, duplicates, mapping and refusals.

use std::path::PathBuf;

use serde_json::Value;

use crate::support::{Serve, cli, workspace};

fn write(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("csv");
    p
}

/// The id of the first campaign of `channel` in `status`.
fn campaign(d: &std::path::Path, channel: &str, status: &str) -> String {
    let list = cli(d, &["campaigns", "--json"]).json();
    list["campaigns"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|c| c["channel"] == channel && c["status"] == status)
        })
        .and_then(|c| c["id"].as_str())
        .unwrap_or_else(|| panic!("no {status} {channel} campaign"))
        .to_owned()
}

fn posts_to(serve: &Serve, id: &str) -> usize {
    serve
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == format!("/api/campaigns/{id}/leads"))
        .count()
}

#[test]
fn an_import_reports_imported_duplicates_and_left_out_lines() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let id = campaign(d, "email", "draft");
    let mut text = String::from("Email,First name,Company,Team\n");
    for i in 0..2400 {
        text.push_str(&format!(
            "lead{i}@import-test.io,Lead {i},Acme,t{}\n",
            i % 3
        ));
        match i {
            // Line 4 repeats line 2 (case differs); line 8 has no email;
            // line 12 a broken one.
            1 => text.push_str("LEAD0@import-test.io,Again,Acme,t0\n"),
            4 => text.push_str(",Nobody,Acme,t1\n"),
            7 => text.push_str("not-an-address,Broken,Acme,t2\n"),
            _ => {}
        }
    }
    let file = write(d, "leads.csv", &text);
    let r = cli(
        d,
        &["leads", "import", &id, file.to_str().unwrap_or_default()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report = r.json();
    assert_eq!(report["campaign_id"], id.as_str());
    assert_eq!(report["rows"], 2403);
    assert_eq!(report["imported"], 2400);
    assert_eq!(
        report["duplicates"],
        serde_json::json!({"in_file": 1, "in_roster": 0})
    );
    assert_eq!(report["left_out"]["count"], 2);
    assert_eq!(
        report["left_out"]["rows"],
        serde_json::json!([
            {"line": 8, "reason": "no email"},
            {"line": 12, "reason": "not a valid email: not-an-address"}
        ])
    );
    assert_eq!(report["chunks"], 3, "2,403 rows in chunks of at most 1,000");
    assert_eq!(report["complete"], true);
    assert_eq!(report["stopped"], Value::Null);
    assert_eq!(
        report["mapping"][3],
        serde_json::json!({"column": "Team", "field": "custom.team"})
    );
    assert_eq!(posts_to(&serve, &id), 3, "one call per chunk");

    // The same leads again: the roster already has them.
    let file = write(
        d,
        "again.csv",
        "Email\nlead5@import-test.io\nLEAD6@import-test.io\nfresh@import-test.io\n",
    );
    let again = cli(
        d,
        &["leads", "import", &id, file.to_str().unwrap_or_default()],
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    let report = again.json();
    assert_eq!(report["imported"], 1);
    assert_eq!(
        report["duplicates"],
        serde_json::json!({"in_file": 0, "in_roster": 2})
    );
    let c = cli(d, &["campaign", &id, "--json"]).json();
    assert_eq!(c["campaign"]["stats"]["total"], 5000 + 2401);
}

#[test]
fn columns_are_mapped_and_what_cannot_go_is_refused_before_sending() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let network = campaign(d, "network", "draft");
    let file = write(
        d,
        "people.csv",
        "Profile link,Full name\nhttps://network.example/in/ann-lee,Ann Lee\nhttps://network.example/in/bo-park/?x=1,Bo Park\n",
    );
    let path = file.to_str().unwrap_or_default();
    let unmapped = cli(d, &["leads", "import", &network, path]);
    assert_eq!(unmapped.code, 64, "{}", unmapped.stderr);
    assert!(
        unmapped.stderr.contains("map a column to network URL")
            && unmapped.stderr.contains("--map COLUMN=network_url"),
        "{}",
        unmapped.stderr
    );
    let bad = cli(
        d,
        &[
            "leads",
            "import",
            &network,
            path,
            "--map",
            "Link=network_url",
        ],
    );
    assert_eq!(bad.code, 64);
    assert!(
        bad.stderr.contains("its columns: Profile link, Full name"),
        "{}",
        bad.stderr
    );
    assert_eq!(posts_to(&serve, &network), 0, "nothing was sent");
    let mapped = cli(
        d,
        &[
            "leads",
            "import",
            &network,
            path,
            "--map",
            "profile link=network_url",
        ],
    );
    assert_eq!(mapped.code, 0, "{}", mapped.stderr);
    let report = mapped.json();
    assert_eq!(report["imported"], 2);
    assert_eq!(report["mapping"][1]["field"], "name");

    let active = campaign(d, "email", "active");
    let refused = cli(d, &["leads", "import", &active, path]);
    assert_eq!(refused.code, 1);
    assert!(
        refused
            .stderr
            .contains("leads can be added only while it is a draft"),
        "{}",
        refused.stderr
    );
    assert_eq!(posts_to(&serve, &active), 0);
    let missing = cli(d, &["leads", "import", &network, "/nonexistent/x.csv"]);
    assert_eq!(missing.code, 64);
    assert!(
        missing.stderr.contains("/nonexistent/x.csv"),
        "{}",
        missing.stderr
    );
}

#[test]
fn on_a_terminal_the_import_shows_progress_and_a_readable_report() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let id = campaign(dir.path(), "email", "draft");
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut text = String::from("email,name\n,No Address\n");
    for i in 0..1500 {
        text.push_str(&format!("tty{i}@import-test.io,Person {i}\n"));
    }
    let file = write(dir.path(), "tty.csv", &text);
    let mut pty = crate::pty::Pty::spawn(
        &["leads", "import", &id, file.to_str().unwrap_or_default()],
        120,
        30,
        &config,
    );
    let screen = pty
        .wait_for("1,501 rows read")
        .expect("the readable report");
    assert!(
        screen.contains(
            "imported 1,500 · duplicates 0 (0 in the file, 0 already in the roster) · left out 1"
        ),
        "{screen}"
    );
    assert!(screen.contains("left out:\n  line 2: no email"), "{screen}");
    assert!(
        !screen.contains("\"imported\""),
        "no JSON on a terminal: {screen}"
    );
    assert_eq!(pty.wait_exit(), Some(true));
}
