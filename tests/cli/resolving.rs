//! Every command that takes an id also takes a unique id prefix or an exact
//! name (a read also a unique part of a name); what is ambiguous, or only
//! part of a name for a change, is refused before any request for it.

use crate::commands::id_where;
use crate::support::{Fake, Serve, cli, workspace};

/// A campaign list whose two ids share their first eight characters.
fn two_alike(method: &str, path: &str, _: usize) -> crate::support::Answer {
    let body = match (method, path) {
        ("GET", "/api/campaigns") => r#"{"campaigns": [
            {"id": "abcd1234-0000-4000-8000-000000000001", "name": "Spring push", "type": "email", "status": "draft"},
            {"id": "abcd1234-0000-4000-8000-000000000002", "name": "Autumn push", "type": "email", "status": "draft"}
        ]}"#
        .to_owned(),
        _ => {
            return (
                404,
                Vec::new(),
                r#"{"error":{"code":"not_found","message":"no such route"}}"#.into(),
            );
        }
    };
    (200, Vec::new(), body)
}

/// A prefix that two campaigns share is refused, both named, and nothing
/// but the list is read: no launch goes out, to either.
#[test]
fn a_prefix_matching_two_campaigns_is_refused_naming_both() {
    let fake = Fake::start(two_alike);
    let dir = fake.workspace();
    for args in [
        &["campaign", "launch", "abcd1234", "--yes"][..],
        &["campaign", "show", "abcd"],
        &["leads", "list", "abcd1234-0000"],
    ] {
        let r = cli(dir.path(), args);
        assert_eq!(r.code, 64, "{args:?}: {}", r.stderr);
        for named in [
            "\"Spring push\" (abcd1234-0000-4000-8000-000000000001)",
            "\"Autumn push\" (abcd1234-0000-4000-8000-000000000002)",
        ] {
            assert!(r.stderr.contains(named), "{args:?}: {}", r.stderr);
        }
        assert!(
            r.stderr.contains("matches 2 campaigns by id prefix")
                && r.stderr.contains("nothing was sent"),
            "{}",
            r.stderr
        );
    }
    assert!(
        fake.requests().iter().all(|r| r == "GET /api/campaigns"),
        "only the list was read: {:?}",
        fake.requests()
    );
}

/// Against the demo: a part of a name serves a read, never a change; a
/// name that matches nothing is refused without a request for it; an
/// exact name, a prefix and a part each find their campaign.
#[test]
fn names_and_prefixes_find_campaigns_and_a_change_never_takes_a_part() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let list = cli(d, &["campaigns", "--json"]).json();
    let wave = id_where(&list["campaigns"], "name", "Series B RevOps — wave 2");

    // A read by a unique part, by a prefix, by the exact name.
    for typed in ["wave 2", &wave[..6], "Series B RevOps — wave 2"] {
        let r = cli(d, &["campaign", typed, "--json"]);
        assert_eq!(r.code, 0, "{typed}: {}", r.stderr);
        assert_eq!(r.json()["campaign"]["id"], wave.as_str(), "{typed}");
    }
    // Two names hold "RevOps": refused, both named.
    let two = cli(d, &["campaign", "show", "revops"]);
    assert_eq!(two.code, 64, "{}", two.stderr);
    assert!(
        two.stderr.contains("\"Series B RevOps — wave 2\"")
            && two
                .stderr
                .contains("\"Q3 RevOps outreach (5,000-lead draft)\""),
        "{}",
        two.stderr
    );
    // A change by a part of the name is refused, whatever --yes says.
    let part = cli(d, &["campaign", "pause", "wave 2", "--yes"]);
    assert_eq!(part.code, 64, "{}", part.stderr);
    assert!(
        part.stderr.contains(
            "\"wave 2\" is only part of the name of campaign \"Series B RevOps — wave 2\""
        ),
        "{}",
        part.stderr
    );
    // Nothing matching: not found, and the name is never sent as an id.
    let none = cli(d, &["campaign", "launch", "DACH2", "--yes"]);
    assert_eq!(none.code, 1, "{}", none.stderr);
    assert!(
        none.stderr
            .contains("not_found: no campaign matches \"DACH2\""),
        "{}",
        none.stderr
    );
    assert!(serve.writes().is_empty(), "{:?}", serve.writes());
    assert!(
        !serve.requests().iter().any(|r| r.path.contains("DACH2")),
        "{:?}",
        serve.requests()
    );
}

/// The other commands that take an id take a prefix or a name too:
/// results (a search by part of its title), a roster (a campaign by
/// name), a domain watch (by a prefix of its id).
#[test]
fn results_rosters_and_watches_take_names_and_prefixes() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let results = cli(d, &["results", "first SDR", "--limit", "2", "--json"]);
    assert_eq!(results.code, 0, "{}", results.stderr);
    let searches = cli(d, &["searches", "--json"]).json();
    let sdr = id_where(
        &searches["searches"],
        "title",
        "Founders hiring their first SDR",
    );
    assert_eq!(results.json()["search_id"], sdr.as_str());

    let roster = cli(d, &["leads", "list", "Platform eng — EU", "--json"]);
    assert_eq!(roster.code, 0, "{}", roster.stderr);
    assert_eq!(roster.json()["name"], "Platform eng — EU");

    let domains = cli(d, &["domains", "--json"]).json();
    let mail = id_where(&domains["domains"], "domain", "mail.northwind-demo.io");
    let watch = cli(
        d,
        &[
            "domain",
            "watch",
            &mail[..8],
            "--interval",
            "0.2",
            "--timeout",
            "30",
        ],
    );
    assert_eq!(watch.code, 0, "{}", watch.stderr);
    assert!(
        watch.stdout.contains("mail.northwind-demo.io  verified"),
        "{}",
        watch.stdout
    );
}
