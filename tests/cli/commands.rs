//! Every listing command, as a table and as JSON; errors and exit codes.

use outpost::testkit::api::model::{Operator, Predicate, PredicateValue, ResultsQuery};
use outpost::testkit::api::{ApiKey, Client, ClientConfig};
use serde_json::Value;

use crate::support::{Serve, cli, outpost, run, workspace};

/// The `id` of the element of `list` whose `key` is `value`.
pub fn id_where(list: &Value, key: &str, value: &str) -> String {
    list.as_array()
        .and_then(|a| a.iter().find(|x| x[key] == value))
        .and_then(|x| x["id"].as_str())
        .unwrap_or_else(|| panic!("no {key} = {value} in {list}"))
        .to_owned()
}

fn keys(v: &Value) -> Vec<String> {
    v.as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn searches_and_results_as_tables_and_json() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();

    let table = cli(d, &["searches"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let header = table.stdout.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("ID  ") && header.contains("TITLE"),
        "{header}"
    );
    assert!(
        table.stdout.contains("Founders hiring their first SDR"),
        "{}",
        table.stdout
    );

    let json = cli(d, &["searches", "--json"]).json();
    assert_eq!(json["source"], "service");
    let searches = &json["searches"];
    let mut shape = keys(&searches[0]);
    shape.sort();
    assert_eq!(
        shape,
        [
            "contacted_count",
            "created_at",
            "id",
            "kind",
            "last_run_id",
            "lead_count",
            "result_count",
            "title",
            "updated_at"
        ]
    );
    let id = id_where(searches, "title", "Founders hiring their first SDR");

    // Every page, filtered by text, as JSON.
    let all = cli(d, &["results", &id, "--json"]).json();
    assert_eq!(all["count"], 35);
    assert_eq!(all["complete"], true);
    assert_eq!(all["results"].as_array().map(Vec::len), Some(35));
    let founders = cli(d, &["results", &id, "--q", "founder", "--json"]).json();
    let n = founders["count"].as_u64().unwrap_or(0);
    assert!(n > 0 && n < 35, "the text filter narrows: {n}");
    assert_eq!(founders["q"], "founder");
    let row = &founders["results"][0];
    assert!(row["score"].is_f64(), "score is a number: {row}");
    assert_eq!(keys(row).len(), 18, "{row}");

    // A predicate the service checks: an unknown operator never leaves.
    let bad = cli(d, &["results", &id, "--where", "score", "like", "1"]);
    assert_eq!(bad.code, 64, "{}", bad.stderr);
    assert!(
        bad.stderr.contains("contains, eq, gt, gte, lt, lte"),
        "{}",
        bad.stderr
    );
}

/// The service's own count of the results matching `query`, read through
/// the client (its first page says the total).
fn service_count(serve: &Serve, search: &str, query: ResultsQuery) -> (u64, Vec<String>) {
    let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
    let client = Client::new(ClientConfig::new(&serve.url, key)).expect("client");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let page = rt
        .block_on(client.query_results(
            search,
            &ResultsQuery {
                limit: Some(100),
                ..query
            },
        ))
        .expect("the service filters");
    let ids = page.results.iter().map(|r| r.result_id.clone()).collect();
    (page.pagination.total, ids)
}

/// `results`' table holds the rows of its `--json` document: the header,
/// then one line per result, the first one's values on the first line.
fn assert_table_of(table: &str, json: &Value) {
    let lines: Vec<&str> = table.lines().collect();
    let header: Vec<&str> = lines
        .first()
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    assert_eq!(
        header,
        [
            "RESULT", "ID", "SCORE", "TIER", "NAME", "TITLE", "COMPANY", "EMAIL", "STATUS"
        ],
        "{table}"
    );
    assert_eq!(
        Some(lines.len() as u64 - 1),
        json["count"].as_u64(),
        "{table}"
    );
    let first = &json["results"][0];
    let row = lines.get(1).copied().unwrap_or_default();
    assert!(
        row.starts_with(first["result_id"].as_str().unwrap_or("?"))
            && row.contains(&format!("{:.2}", first["score"].as_f64().unwrap_or(-1.0)))
            && row.contains(first["quality_tier"].as_str().unwrap_or("?"))
            && row.contains(first["email"].as_str().unwrap_or("?")),
        "the first row is the first result:\n{row}\n{first}"
    );
}

/// `--where` on a real enrichment path of the demo: the command lists
/// exactly what the service's own filter counts, echoes the predicate with
/// the number as written, and prints the same rows as a table.
#[test]
fn results_where_lists_what_the_service_filter_finds() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let json = cli(d, &["searches", "--json"]).json();
    let id = id_where(
        &json["searches"],
        "title",
        "RevOps leaders at Series B SaaS",
    );
    let filter = ["--where", "company.firmographics.headcount", "gte", "5000"];

    let run = cli(d, &[&["results", &id, "--json"][..], &filter].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "\"where\": [\n    {\n      \"path\": \"company.firmographics.headcount\",\n      \"operator\": \"gte\",\n      \"value\": 5000\n    }\n  ]"
        ),
        "the predicate is echoed with the number as written:\n{}",
        run.stdout
    );
    let got = run.json();
    let count = got["count"].as_u64().unwrap_or(0);
    let (total, first_page) = service_count(
        &serve,
        &id,
        ResultsQuery {
            predicates: vec![Predicate {
                path: "company.firmographics.headcount".into(),
                operator: Operator::Gte,
                value: PredicateValue::Number(5000.0),
            }],
            ..ResultsQuery::default()
        },
    );
    assert_eq!(count, total, "the service's own filter count");
    let (all, _) = service_count(&serve, &id, ResultsQuery::default());
    assert!(
        count > 0 && count < all,
        "the filter narrows: {count} of {all}"
    );
    assert_eq!(
        got["results"].as_array().map(|a| a.len() as u64),
        Some(total)
    );
    let ids: Vec<&str> = got["results"]
        .as_array()
        .map(|a| a.iter().filter_map(|r| r["result_id"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        ids[..first_page.len()],
        first_page[..],
        "same rows, same order"
    );

    // The same rows as a table: the header, then one line per result.
    let table = cli(d, &[&["results", &id][..], &filter].concat());
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert_table_of(&table.stdout, &got);
    // Text and a predicate together narrow further.
    let both = cli(
        d,
        &[&["results", &id, "--q", "revops", "--json"][..], &filter].concat(),
    )
    .json();
    assert!(both["count"].as_u64().unwrap_or(u64::MAX) <= count);
}

#[test]
fn results_go_to_a_csv_file_that_is_never_replaced_unasked() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let json = cli(d, &["searches", "--json"]).json();
    let id = id_where(
        &json["searches"],
        "title",
        "Founders hiring their first SDR",
    );
    // The export's columns; an existing file is kept without --force.
    let csv = d.join("out.csv");
    let path = csv.to_str().unwrap_or_default();
    let wrote = cli(d, &["results", &id, "--limit", "5", "--csv", path]);
    assert_eq!(wrote.code, 0, "{}", wrote.stderr);
    assert_eq!(wrote.stdout.trim(), format!("wrote 5 results to {path}"));
    let text = std::fs::read_to_string(&csv).unwrap_or_default();
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(
        text.starts_with("result_id,score,quality_tier,name,"),
        "{text}"
    );
    let again = cli(d, &["results", &id, "--csv", path]);
    assert_eq!(again.code, 64);
    assert!(
        again.stderr.contains("exists; pass --force"),
        "{}",
        again.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap_or_default(),
        text,
        "kept"
    );
    let forced = cli(d, &["results", &id, "--csv", path, "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(
        std::fs::read_to_string(&csv)
            .unwrap_or_default()
            .lines()
            .count(),
        36
    );
    // Service data, readable by the user alone: as the dashboard's export.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&csv).map(|m| m.permissions().mode() & 0o777);
        assert_eq!(mode.ok(), Some(0o600), "the export is private");
    }
    // A named pipe at the target is refused, even with --force: never
    // written through, never replaced.
    let fifo = d.join("pipe.csv");
    if outpost::testkit::files::testing::mkfifo(&fifo) {
        let pipe = fifo.to_str().unwrap_or_default();
        let refused = cli(d, &["results", &id, "--csv", pipe, "--force"]);
        assert_eq!(refused.code, 64, "{}", refused.stderr);
        assert!(
            refused
                .stderr
                .contains("it is a named pipe (FIFO), not a regular file"),
            "{}",
            refused.stderr
        );
        let still = std::fs::symlink_metadata(&fifo).map(|m| m.file_type());
        #[cfg(unix)]
        assert!(
            still.is_ok_and(|t| std::os::unix::fs::FileTypeExt::is_fifo(&t)),
            "the pipe is left as it was"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(d)
        .map(|r| r.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        !leftovers
            .iter()
            .any(|n| n.to_string_lossy().ends_with(".tmp")),
        "no temporary file left: {leftovers:?}"
    );

    let missing = cli(d, &["results", "00000000-0000-0000-0000-000000000000"]);
    assert_eq!(missing.code, 1);
    assert!(missing.stderr.contains("not_found"), "{}", missing.stderr);
}

#[test]
fn campaigns_and_one_campaign() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let table = cli(d, &["campaigns"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("Series B RevOps — wave 2"),
        "{}",
        table.stdout
    );
    let json = cli(d, &["campaigns", "--json"]).json();
    assert_eq!(json["source"], "service");
    let list = &json["campaigns"];
    assert_eq!(list.as_array().map(Vec::len), Some(9));
    let mut shape = keys(&list[0]);
    shape.sort();
    assert_eq!(
        shape,
        [
            "channel",
            "created_at",
            "id",
            "name",
            "stats",
            "status",
            "updated_at"
        ]
    );
    let id = id_where(list, "name", "Series B RevOps — wave 2");

    let one = cli(d, &["campaign", &id, "--json"]).json();
    let c = &one["campaign"];
    assert_eq!(c["id"], id.as_str());
    assert_eq!(c["channel"], "email");
    assert_eq!(c["settings"]["daily_limit"], 100);
    let steps = c["sequence"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.last().map(|s| s["type"].clone()), Some("end".into()));
    assert!(
        c["senders"][0]["email_address"]
            .as_str()
            .is_some_and(|a| a.contains('@'))
    );
    let text = cli(d, &["campaign", &id]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout
            .starts_with("Campaign  Series B RevOps — wave 2 (email)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("Sequence\n  1. email"),
        "{}",
        text.stdout
    );

    // A name that matches nothing is refused without a request for it; a
    // whole id the service does not know is read, and answered 404.
    let missing = cli(d, &["campaign", "nope"]);
    assert_eq!(missing.code, 1);
    assert_eq!(
        missing.stderr.trim(),
        "outpost: not_found: no campaign matches \"nope\" by id, id prefix (at least 4 characters) or name; nothing was sent"
    );
    let gone = "00000000-0000-4000-8000-000000000000";
    let missing = cli(d, &["campaign", gone]);
    assert_eq!(missing.code, 1);
    assert_eq!(
        missing.stderr.trim(),
        format!("outpost: reading campaign {gone}: not_found: Campaign not found (HTTP 404)")
    );
}

#[test]
fn threads_domains_and_redeem() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let threads = cli(d, &["threads", "--json", "--limit", "3"]).json();
    assert_eq!(threads["threads"].as_array().map(Vec::len), Some(3));
    assert!(threads["total"].as_u64().unwrap_or(0) > 3);
    let drafts = cli(d, &["threads", "--json", "--status", "draft"]).json();
    let drafts = drafts["threads"].as_array().cloned().unwrap_or_default();
    assert!(!drafts.is_empty() && drafts.iter().all(|t| t["status"] == "draft"));
    let table = cli(d, &["threads", "--limit", "2"]);
    assert_eq!(table.stdout.lines().count(), 3, "{}", table.stdout);
    assert!(table.stderr.contains("2 of "), "{}", table.stderr);

    let domains = cli(d, &["domains", "--json"]).json();
    let list = domains["domains"].as_array().cloned().unwrap_or_default();
    let statuses: Vec<&str> = list.iter().filter_map(|x| x["status"].as_str()).collect();
    assert_eq!(statuses.len(), 5);
    for s in ["pending", "verifying", "verified", "failed"] {
        assert!(statuses.contains(&s), "{statuses:?}");
    }
    assert_eq!(
        list[0]["dns_records"][0]
            .as_object()
            .map(serde_json::Map::len),
        Some(4)
    );
    let table = cli(d, &["domains", "--cached"]);
    assert!(
        table.stdout.contains("fail-dkim.northwind-demo.io  failed"),
        "{}",
        table.stdout
    );

    let ok = cli(d, &["redeem", "DEMO-PASS-1", "--json"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let pass = ok.json();
    assert_eq!(pass["redeemed"], true);
    assert_eq!(pass["pass"]["discovery_limit"], 100);
    let again = cli(d, &["redeem", "DEMO-PASS-2"]);
    assert_eq!(again.code, 1, "a pass is already active");
    assert!(
        again.stderr.starts_with("outpost: not redeemed: "),
        "{}",
        again.stderr
    );
}

#[test]
fn service_text_is_inert_on_the_terminal_and_exact_in_json() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let hostile = "Evil \u{1b}]52;c;cGF3bmVk\u{7} \u{202e}name\u{9b}2J";
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let key =
            outpost::testkit::api::ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
        let client = outpost::testkit::api::Client::new(outpost::testkit::api::ClientConfig::new(
            &serve.url, key,
        ))
        .expect("client");
        let req = outpost::testkit::api::model::CreateCampaign {
            kind: outpost::testkit::api::model::Channel::Email,
            name: hostile.into(),
            ..Default::default()
        };
        client.create_campaign(&req).await.expect("created");
    });
    let table = cli(d, &["campaigns"]);
    assert!(table.stdout.contains("Evil  name "), "{}", table.stdout);
    assert!(
        !table.stdout.contains("2J"),
        "the whole sequence is removed"
    );
    for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
        assert!(!table.stdout.contains(bad), "{bad:?} reached the terminal");
    }
    let json = cli(d, &["campaigns", "--json"]);
    assert!(!json.stdout.contains('\u{202e}') && !json.stdout.contains('\u{9b}'));
    assert!(
        json.stdout.contains("\\u001b]52") && json.stdout.contains("\\u202e"),
        "{}",
        json.stdout
    );
    let list = json.json();
    assert!(
        list["campaigns"]
            .as_array()
            .is_some_and(|a| a.iter().any(|c| c["name"] == hostile)),
        "the value itself is exact"
    );
}

#[test]
fn exit_codes_for_keys_config_and_usage() {
    let serve = Serve::start(&[]);
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let no_key = run(outpost(d)
        .args(["searches"])
        .env("OUTPOST_BASE_URL", &serve.url));
    assert_eq!(no_key.code, 3, "{}", no_key.stderr);
    assert!(no_key.stderr.contains("no API key"), "{}", no_key.stderr);
    let refused = run(outpost(d)
        .args(["domains"])
        .env("OUTPOST_BASE_URL", &serve.url)
        .env("OUTPOST_API_KEY", "pk_live_notthedemokey1234"));
    assert_eq!(refused.code, 3, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("unauthorized"),
        "{}",
        refused.stderr
    );
    assert!(
        !refused.stderr.contains("notthedemokey"),
        "the key is masked"
    );
    let no_url = run(outpost(d)
        .args(["domains"])
        .env("OUTPOST_API_KEY", "pk_live_x1234567"));
    assert_eq!(no_url.code, 64, "{}", no_url.stderr);
    assert!(no_url.stderr.contains("base URL"), "{}", no_url.stderr);
    let plain = run(outpost(d)
        .args(["domains"])
        .env("OUTPOST_BASE_URL", "http://example.com")
        .env("OUTPOST_API_KEY", "pk_live_x1234567"));
    assert_eq!(plain.code, 64, "{}", plain.stderr);
    assert!(plain.stderr.contains("HTTPS"), "{}", plain.stderr);
    let usage = cli(d, &["results"]);
    assert_eq!(usage.code, 64, "a missing argument: {}", usage.stderr);
    let usage = cli(d, &["searches", "--bogus"]);
    assert_eq!(usage.code, 64, "{}", usage.stderr);
    let help = cli(d, &["domain", "watch", "--help"]);
    assert_eq!(help.code, 0);
    assert!(
        help.stdout.contains("Exit codes") && help.stdout.contains("2   domain watch: timed out"),
        "{}",
        help.stdout
    );
}

#[test]
fn a_rate_limit_longer_than_outpost_waits_exits_4() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let body = r#"{"error":{"code":"rate_limited","message":"Rate limit exceeded. Retry in 9000 seconds."}}"#;
            let _ = write!(
                s,
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 9000\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(outpost(dir.path())
        .args(["campaigns", "--json"])
        .env("OUTPOST_BASE_URL", &url)
        .env("OUTPOST_API_KEY", "pk_live_x1234567"));
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("rate_limited"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no partial document: {}", r.stdout);
}

/// The answer that took the CLI to 15 GB: ten million empty campaigns
/// (30 MB, inside the body cap), then bytes that are not JSON. The command
/// says what was wrong and exits 5 with nothing on stdout; the error (not
/// a syntax error at the end) shows the reading stopped at the first
/// campaign past the bound.
#[test]
fn an_answer_of_ten_million_items_is_refused_not_decoded() {
    use std::io::{Read, Write};
    let mut body = String::from("{\"campaigns\":[");
    body.push_str(&"{},".repeat(10_000_000));
    body.push_str("\u{1}not json");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = s.write_all(body.as_bytes());
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let r = run(outpost(dir.path())
        .args(["campaigns", "--json"])
        .env("OUTPOST_BASE_URL", &url)
        .env("OUTPOST_API_KEY", "pk_live_x1234567"));
    assert_eq!(r.code, 5, "{}", r.stderr);
    assert!(
        r.stderr.contains("more than 100000 items in one list"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "no partial document: {}", r.stdout);
}

#[test]
fn completions_and_the_demo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // A broken config does not stop completions.
    std::fs::write(d.join("config.toml"), "nonsense = [").expect("config");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = cli(d, &["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(
            r.stdout.contains("outpost") && r.stdout.contains("searches"),
            "{shell}"
        );
    }
    let bad = cli(d, &["completions", "tcsh"]);
    assert_eq!(bad.code, 64);
    std::fs::remove_file(d.join("config.toml")).expect("rm");
    let demo = cli(d, &["--demo", "domains", "--json"]);
    assert_eq!(demo.code, 0, "{}", demo.stderr);
    assert_eq!(demo.json()["domains"].as_array().map(Vec::len), Some(5));
}

/// Every `--where PATH` the README shows is an enrichment path the demo
/// service has, so each example can be pasted and run.
#[test]
fn the_readme_filters_on_paths_the_demo_has() {
    let readme = include_str!("../../README.md");
    let paths: Vec<&str> = readme
        .split("--where ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|p| p.contains('.'))
        .collect();
    assert!(paths.len() >= 3, "{paths:?}");
    for p in paths {
        assert!(
            outpost::testkit::demo::people::field_index(p).is_some(),
            "README: --where {p} is not a field of the demo"
        );
    }
}

#[test]
fn serve_help_lists_only_the_services_own_flags() {
    let dir = tempfile::tempdir().expect("tempdir");
    let help = run(outpost(dir.path()).args(["serve", "--help"]));
    assert_eq!(help.code, 0, "{help:?}");
    for flag in [
        "--read-only",
        "--profile",
        "--key-stdin",
        "--base-url",
        "--config",
    ] {
        assert!(
            !help.stdout.contains(flag),
            "serve --help lists {flag}:\n{}",
            help.stdout
        );
    }
    assert!(help.stdout.contains("--chaos-seed"), "{}", help.stdout);
    // Given anyway, they are refused as meaningless rather than ignored.
    let flagged = run(outpost(dir.path()).args(["--read-only", "serve", "--addr", "127.0.0.1:0"]));
    assert_eq!(flagged.code, 64, "{flagged:?}");
    assert!(
        flagged.stderr.contains("--read-only is for the dashboard"),
        "{flagged:?}"
    );
    // The commands that talk to the service still take them on either side.
    for args in [
        &["check", "--help"][..],
        &["leads", "import", "--help"],
        &["--help"],
    ] {
        let help = run(outpost(dir.path()).args(args));
        for flag in [
            "--read-only",
            "--profile",
            "--key-stdin",
            "--base-url",
            "--config",
        ] {
            assert!(
                help.stdout.contains(flag),
                "{args:?} lacks {flag}:\n{}",
                help.stdout
            );
        }
    }
}
