//! `outpost leads import`: the report (JSON off a terminal, readable with
//! a progress bar on one), chunking, duplicates, mapping and refusals.

use std::path::PathBuf;

use serde_json::Value;

use outpost::testkit::demo::ChaosConfig;
use outpost::testkit::demo::chaos::{Chaos, Fault};

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
    // The progress bar ran on stderr, redrawn in place (the report drew
    // over its last state): part-way after the first chunk, full after
    // the second.
    let out = pty.output();
    let first = out
        .find("1,000 rows · 999 imported · 0 duplicates · 1 left out")
        .unwrap_or_else(|| panic!("the bar after the first chunk: {out:?}"));
    let bar = out[..first].rsplit('\r').next().unwrap_or_default();
    let filled = bar.matches('#').count();
    assert!(
        bar.starts_with("\x1b[2K[") && filled > 0 && filled < 20 && bar.contains('-'),
        "part-way: {bar:?}"
    );
    let full =
        "[####################] 100%  1,501 rows · 1,500 imported · 0 duplicates · 1 left out";
    let last = out
        .find(full)
        .unwrap_or_else(|| panic!("the full bar: {out:?}"));
    assert!(last > first, "in order");
}

/// The lines of a file of `n` leads after the header (line 1).
fn leads_file(dir: &std::path::Path, n: usize) -> PathBuf {
    let mut text = String::from("email,name\n");
    for i in 0..n {
        text.push_str(&format!("stop{i}@import-test.io,Person {i}\n"));
    }
    write(dir, "stop.csv", &text)
}

/// A chaos seed whose first two requests (reading the campaign, the first
/// chunk) meet no fault and whose third (the second chunk) meets one that
/// `wanted` accepts, with `rates` (error, 429, malformed).
fn seed_failing_the_second_chunk(rates: (f64, f64, f64), wanted: fn(Fault) -> bool) -> u64 {
    (0..10_000u64)
        .find(|seed| {
            let chaos = Chaos::new(ChaosConfig {
                seed: *seed,
                error_rate: rates.0,
                rate_429: rates.1,
                malformed_rate: rates.2,
                ..ChaosConfig::default()
            });
            chaos.draw() == Fault::None && chaos.draw() == Fault::None && wanted(chaos.draw())
        })
        .expect("a seed")
}

/// The draft email campaign's id (ids are the same on every start).
fn draft_email_campaign() -> String {
    let plain = Serve::start(&[]);
    let dir = workspace(&plain);
    campaign(dir.path(), "email", "draft")
}

/// `leads import` of `rows` leads into the draft email campaign, against a
/// service whose chaos (`flag` at rate 0.5) meets the second chunk with a
/// fault `wanted` accepts; the service, for its log, and the run.
fn import_failing_the_second_chunk(
    flag: &str,
    rates: (f64, f64, f64),
    wanted: fn(Fault) -> bool,
    rows: usize,
) -> (Serve, crate::support::Run) {
    let id = draft_email_campaign();
    let seed = seed_failing_the_second_chunk(rates, wanted);
    let serve = Serve::start(&["--chaos-seed", &seed.to_string(), flag, "0.5"]);
    let dir = workspace(&serve);
    let file = leads_file(dir.path(), rows);
    let run = cli(
        dir.path(),
        &["leads", "import", &id, file.to_str().unwrap_or_default()],
    );
    (serve, run)
}

/// The statuses of the POSTs logged (the chunks sent).
fn chunks_sent(serve: &Serve) -> Vec<u64> {
    serve
        .wait_requests(3)
        .iter()
        .filter(|l| l.method == "POST")
        .map(|l| l.status)
        .collect()
}

/// An import the service fails part-way: the first chunk went in, the
/// second got a 500. The report says which lines went in and where it
/// stopped, nothing after the failure is sent, and the exit code is the
/// error's. A 500 does not promise that nothing happened (the contract
/// says no such thing), so the failed chunk may have gone in, and running
/// the import again is safe.
#[test]
fn an_import_stopped_part_way_says_which_lines_went_in() {
    let (serve, r) = import_failing_the_second_chunk(
        "--chaos-error-rate",
        (0.5, 0.0, 0.0),
        |f| f == Fault::Error,
        2500,
    );
    assert_eq!(r.code, 1, "the service failed the request: {}", r.stderr);
    let report = r.json();
    assert_eq!(report["imported"], 1000, "{report}");
    assert_eq!(report["chunks"], 1);
    assert_eq!(
        report["went_in"],
        serde_json::json!({"first_line": 2, "last_line": 1001})
    );
    assert_eq!(report["complete"], false);
    assert_eq!(report["stopped"]["line"], 1002);
    assert_eq!(report["stopped"]["code"], "internal_error");
    assert_eq!(report["stopped"]["may_have_gone_in"], true);
    assert!(
        r.stderr.contains(
            "import stopped at the chunk from line 1002: internal_error: Simulated failure (chaos): the request was not processed; lines 2–1001 went in; that chunk may have gone in"
        ),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("running the same import again is safe"),
        "{}",
        r.stderr
    );
    assert_eq!(
        chunks_sent(&serve),
        [200, 500],
        "nothing sent after the failure"
    );
}

/// The second chunk's answer is unreadable (the service took it): the
/// report says it may have gone in, it is not sent again, and the exit
/// code says the answer could not be read.
#[test]
fn an_import_whose_answer_was_lost_says_the_chunk_may_have_gone_in() {
    let (serve, r) = import_failing_the_second_chunk(
        "--chaos-malformed-rate",
        (0.0, 0.0, 0.5),
        |f| matches!(f, Fault::Malformed(_)),
        1500,
    );
    assert_eq!(r.code, 5, "an unreadable answer: {}", r.stderr);
    let report = r.json();
    assert_eq!(report["imported"], 1000, "{report}");
    assert_eq!(
        report["went_in"],
        serde_json::json!({"first_line": 2, "last_line": 1001})
    );
    assert_eq!(report["stopped"]["line"], 1002);
    assert_eq!(report["stopped"]["may_have_gone_in"], true);
    assert!(
        r.stderr.contains("lines 2–1001 went in")
            && r.stderr
                .contains("that chunk may have gone in (its answer was lost)"),
        "{}",
        r.stderr
    );
    assert_eq!(chunks_sent(&serve).len(), 2, "the chunk is not sent again");
}

/// An import limits bytes, not only rows: a field past 64 KiB leaves its
/// row out (reported, never sent), a value holding a NUL byte too, and
/// rows of 40 KB go up in requests the service's 8 MiB body limit takes
/// (1,000 of them went up as one 40 MB request, which it refused).
#[test]
fn wide_rows_go_up_in_requests_of_at_most_8_mib_and_an_oversized_field_is_left_out() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let id = campaign(d, "email", "draft");
    let notes = "n".repeat(40_000);
    let mut text = String::from("Email,Notes\n");
    text.push_str(&format!("over@wide-test.io,{}\n", "x".repeat(70_000)));
    text.push_str("nul@wide-test.io,a\0b\n");
    for i in 0..300 {
        text.push_str(&format!("lead{i}@wide-test.io,{notes}\n"));
    }
    let file = write(d, "wide.csv", &text);
    let r = cli(
        d,
        &["leads", "import", &id, file.to_str().unwrap_or_default()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report = r.json();
    assert_eq!(report["imported"], 300, "{report}");
    assert_eq!(
        report["left_out"]["rows"],
        serde_json::json!([
            {"line": 2, "reason": "field 2 is 68 KB long, more than the 64 KB a field may hold"},
            {"line": 3, "reason": "a NUL byte in custom_fields.notes: not text"},
        ])
    );
    let posts: Vec<u64> = serve
        .requests()
        .iter()
        .filter(|l| l.method == "POST" && l.path == format!("/api/campaigns/{id}/leads"))
        .map(|l| l.status)
        .collect();
    assert!(posts.len() >= 2, "{posts:?}");
    assert!(posts.iter().all(|s| *s == 200), "{posts:?}");
}

/// "Unicode text" (UTF-16 with its byte-order mark) imports; a file in
/// another encoding is named as such (its header read as garbled names
/// ended in "map a column to email").
#[test]
fn a_utf16_file_imports_and_a_file_in_another_encoding_is_named() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let id = campaign(d, "email", "draft");
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "E-mail,Prénom\r\nana@enc-test.io,Ana\r\nbo@enc-test.io,Bö\r\n".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    let file = d.join("unicode.csv");
    std::fs::write(&file, &utf16).expect("csv");
    let r = cli(
        d,
        &["leads", "import", &id, file.to_str().unwrap_or_default()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["imported"], 2);
    assert_eq!(r.json()["mapping"][1]["column"], "Prénom");

    let latin1 = d.join("latin1.csv");
    std::fs::write(&latin1, b"E-mail,Pr\xe9nom\nana@enc-test.io,Ana\n").expect("csv");
    let r = cli(
        d,
        &["leads", "import", &id, latin1.to_str().unwrap_or_default()],
    );
    assert_eq!(r.code, 64, "{}", r.stderr);
    assert!(
        r.stderr.contains("is not UTF-8 text: save it as CSV UTF-8"),
        "{}",
        r.stderr
    );
}
