//! `campaign launch|pause|resume`: asked first off a terminal (`--yes`),
//! a change from the wrong status refused before it is sent, the service's
//! refusal passed on, a lost answer checked and never sent twice, and
//! read-only mode refusing all three.

use serde_json::Value;

use crate::commands::id_where;
use crate::support::{Serve, cli, workspace};

const Q3: &str = "Q3 RevOps outreach (5,000-lead draft)";
const WAVE: &str = "Series B RevOps — wave 2";
const EU: &str = "Platform eng — EU";
const EMPTY: &str = "Platform eng intros (empty draft)";

/// The writes the service logged to a campaign route, as `METHOD path`.
fn changes(serve: &Serve) -> Vec<String> {
    serve.writes()
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    k.sort();
    k
}

#[test]
fn launch_asks_first_and_says_what_it_did() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let list = cli(d, &["campaigns", "--json"]).json();
    let q3 = id_where(&list["campaigns"], "name", Q3);

    // Off a terminal, launch needs --yes: nothing is sent without it.
    let unasked = cli(d, &["campaign", "launch", Q3]);
    assert_eq!(unasked.code, 13, "{}", unasked.stderr);
    assert!(
        unasked
            .stderr
            .contains("needs --yes when not run from a terminal"),
        "{}",
        unasked.stderr
    );
    assert!(changes(&serve).is_empty(), "{:?}", changes(&serve));

    let launched = cli(d, &["campaign", "launch", Q3, "--yes", "--json"]);
    assert_eq!(launched.code, 0, "{}", launched.stderr);
    let doc = launched.json();
    assert_eq!(
        keys(&doc),
        [
            "action",
            "campaign_id",
            "check",
            "name",
            "outcome",
            "preflight",
            "status"
        ]
    );
    assert_eq!(doc["action"], "launch");
    assert_eq!(doc["campaign_id"], q3.as_str());
    assert_eq!(doc["status"], "launching");
    assert_eq!(doc["outcome"], "done");
    assert_eq!(doc["check"], Value::Null);
    assert_eq!(
        doc["preflight"],
        serde_json::json!({"ran": true, "errors": [], "warnings": []}),
        "the preflight ran and found nothing"
    );
    assert_eq!(
        serve.wait_writes(1),
        [format!("POST /api/campaigns/{q3}/launch")]
    );

    // Not a draft any more: refused before it is sent.
    let again = cli(d, &["campaign", "launch", &q3, "--yes"]);
    assert_eq!(again.code, 9, "{}", again.stderr);
    assert!(
        again
            .stderr
            .contains("is launching: only a draft can be launched; nothing was sent"),
        "{}",
        again.stderr
    );
    assert_eq!(changes(&serve).len(), 1);

    // An empty draft (no lead) is blocked by the preflight, even with
    // --yes: nothing is sent.
    let empty = cli(d, &["campaign", "launch", EMPTY, "--yes", "--json"]);
    assert_eq!(empty.code, 8, "{}", empty.stderr);
    let doc = empty.json();
    assert_eq!(doc["outcome"], "blocked");
    assert_eq!(
        doc["preflight"]["errors"],
        serde_json::json!([
            {"group": "leads", "text": "No pending lead: the service refuses a launch without one"},
        ])
    );
    assert!(
        empty.stderr.contains("errors block the launch"),
        "{}",
        empty.stderr
    );
    assert_eq!(changes(&serve).len(), 1, "nothing more was sent");
    // `campaign ID` is still `campaign show ID`.
    let shown = cli(d, &["campaign", &q3]);
    assert!(
        shown.stdout.starts_with(&format!("Campaign  {Q3} (email)")),
        "{}",
        shown.stdout
    );
}

#[test]
fn pause_goes_at_once_and_resume_asks_first() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    // Pause goes without a question; resume asks.
    let paused = cli(d, &["campaign", "pause", WAVE]);
    assert_eq!(paused.code, 0, "{}", paused.stderr);
    assert_eq!(
        paused.stdout.trim(),
        format!("paused: \"{WAVE}\" is paused")
    );
    let resume = cli(d, &["campaign", "resume", WAVE, "--json"]);
    assert_eq!(resume.code, 13, "{}", resume.stderr);
    let resumed = cli(d, &["campaign", "resume", WAVE, "--yes", "--json"]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(resumed.json()["status"], "active");
    assert_eq!(resumed.json()["preflight"], Value::Null);
    // A paused campaign cannot be paused again.
    let twice = cli(d, &["campaign", "resume", EU, "--yes"]);
    assert_eq!(twice.code, 0, "{}", twice.stderr);
    let pause_twice = cli(d, &["campaign", "pause", EU]);
    assert_eq!(pause_twice.code, 0, "{}", pause_twice.stderr);
    let pause_again = cli(d, &["campaign", "pause", EU]);
    assert_eq!(pause_again.code, 9, "{}", pause_again.stderr);
    assert!(
        pause_again
            .stderr
            .contains("only an active campaign can be paused"),
        "{}",
        pause_again.stderr
    );
}

/// A launch whose answer is lost (the service launched, then the answer
/// was replaced by a 502) is checked in the campaign's status, found, and
/// sent once.
#[test]
fn a_launch_whose_answer_is_lost_is_checked_and_sent_once() {
    let serve = Serve::start(&["--chaos-lost-answer", "POST:/api/campaigns/*/launch"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let r = cli(d, &["campaign", "launch", Q3, "--yes", "--json"]);
    assert_eq!(r.code, 0, "found: it was carried out. {}", r.stderr);
    let doc = r.json();
    assert_eq!(doc["outcome"], "done");
    assert_eq!(doc["status"], "launching");
    assert_eq!(
        doc["check"],
        serde_json::json!({
            "lost": "bad_gateway",
            "verdict": "found",
            "text": "the campaign is launching"
        })
    );
    assert!(
        r.stderr.contains(
            "it was not sent again; the check: the campaign is launching — it was carried out once"
        ),
        "{}",
        r.stderr
    );
    let launches = serve
        .wait_writes(1)
        .iter()
        .filter(|l| l.starts_with("POST ") && l.ends_with("/launch"))
        .count();
    assert_eq!(launches, 1, "sent once");
}

/// Read-only mode refuses every change before any question or request.
#[test]
fn read_only_refuses_every_change() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    for (verb, name) in [("launch", Q3), ("pause", WAVE), ("resume", EU)] {
        let r = cli(d, &["--read-only", "campaign", verb, name, "--yes"]);
        assert_eq!(r.code, 6, "{verb}: {}", r.stderr);
        assert!(r.stderr.contains("read-only mode"), "{}", r.stderr);
    }
    assert!(serve.writes().is_empty(), "{:?}", serve.writes());
}

/// On a terminal the question is asked: "n" sends nothing, "y" sends once.
#[test]
fn on_a_terminal_the_question_is_asked_and_answered() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut no = crate::pty::Pty::spawn(&["campaign", "resume", EU], 120, 30, &config);
    let screen = no.wait_for("[y/N]").expect("the question");
    assert!(
        screen.contains(&format!(
            "Resume campaign \"{EU}\" (email, 60 leads)? [y/N]"
        )),
        "{screen}"
    );
    no.type_text("n\r");
    assert_eq!(no.wait_exit(), Some(false));
    assert!(serve.writes().is_empty(), "{:?}", serve.writes());

    let mut yes = crate::pty::Pty::spawn(&["campaign", "resume", EU], 120, 30, &config);
    yes.wait_for("[y/N]").expect("the question");
    yes.type_text("y\r");
    let screen = yes
        .wait_for(&format!("resumed: \"{EU}\" is active"))
        .expect("resumed");
    assert!(screen.contains("Sending starts again"), "{screen}");
    assert_eq!(yes.wait_exit(), Some(true));
    assert_eq!(serve.wait_writes(1).len(), 1, "{:?}", serve.writes());
}
