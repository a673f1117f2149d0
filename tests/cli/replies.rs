//! `thread send` and `thread reply`: asked first off a terminal (`--yes`),
//! a reply carrying its own subject and body to the participant, sent
//! once (also when its answer is lost), a thread without a sender needing
//! `--from`, and a send whose last attempt may have reached said before it
//! goes again.

use outpost::testkit::api::model::ThreadMessage;
use outpost::testkit::api::{ApiKey, Client, ClientConfig};

use crate::support::{Serve, cli, workspace};

const NADIA: &str = "nadia.haddad@lumen.health";

/// The thread's messages, read through the client.
fn messages(serve: &Serve, thread: &str) -> Vec<ThreadMessage> {
    let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
    let client = Client::new(ClientConfig::new(&serve.url, key)).expect("client");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(client.list_messages(thread, Some(1), Some(200)))
        .expect("messages")
        .messages
}

/// The sends the service logged.
fn sends(serve: &Serve) -> Vec<String> {
    serve
        .writes()
        .into_iter()
        .filter(|w| w.starts_with("POST /api/threads/") && w.ends_with("/messages"))
        .collect()
}

fn body_file(dir: &std::path::Path, text: &str) -> String {
    let path = dir.join("reply.txt");
    std::fs::write(&path, text).expect("body");
    path.to_str().unwrap_or_default().to_owned()
}

#[test]
fn a_reply_goes_once_to_the_participant_with_re_and_its_own_body() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let body = body_file(d, "Two days is typical.\n\nWant the walkthrough link?\n");

    let unasked = cli(d, &["thread", "reply", NADIA, "--body-file", &body]);
    assert_eq!(unasked.code, 13, "{}", unasked.stderr);
    assert!(sends(&serve).is_empty(), "{:?}", sends(&serve));

    let r = cli(
        d,
        &[
            "thread",
            "reply",
            NADIA,
            "--body-file",
            &body,
            "--yes",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = r.json();
    let mut keys: Vec<&String> = doc
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    keys.sort();
    assert_eq!(
        keys,
        [
            "action",
            "check",
            "from",
            "message",
            "outcome",
            "subject",
            "thread_id",
            "to"
        ]
    );
    assert_eq!(doc["action"], "reply");
    assert_eq!(doc["to"], NADIA);
    // The last inbound message's subject already starts with "Re:".
    assert_eq!(doc["subject"], "Re: Lumen's quarterly forecast");
    assert_eq!(doc["outcome"], "done");
    let thread = doc["thread_id"].as_str().unwrap_or_default().to_owned();
    serve.wait_writes(1);
    assert_eq!(
        sends(&serve),
        [format!("POST /api/threads/{thread}/messages")]
    );
    let last = messages(&serve, &thread).pop().expect("a message");
    assert_eq!(last.direction, "outbound");
    assert_eq!(last.subject, "Re: Lumen's quarterly forecast");
    assert_eq!(
        last.body_text,
        "Two days is typical.\n\nWant the walkthrough link?"
    );
    assert_eq!(doc["message"]["id"], last.id.as_str());

    // --subject wins; an empty body file is refused before anything.
    let empty = body_file(d, " \n");
    let refused = cli(
        d,
        &["thread", "reply", NADIA, "--body-file", &empty, "--yes"],
    );
    assert_eq!(refused.code, 64, "{}", refused.stderr);
    assert_eq!(sends(&serve).len(), 1);
}

#[test]
fn send_goes_as_the_draft_and_a_thread_without_sender_needs_from() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let sent = cli(
        d,
        &[
            "thread",
            "send",
            "jonas.fischer@kestrel.io",
            "--yes",
            "--json",
        ],
    );
    assert_eq!(sent.code, 0, "{}", sent.stderr);
    assert_eq!(sent.json()["subject"], "Intro: Kestrel × Northwind");
    assert_eq!(sent.json()["action"], "send");

    // Priya's draft has no sender.
    let no_sender = cli(d, &["thread", "send", "priya.patel@orbital.ai", "--yes"]);
    assert_eq!(no_sender.code, 64, "{}", no_sender.stderr);
    assert!(
        no_sender
            .stderr
            .contains("has no sender: give --from SENDER"),
        "{}",
        no_sender.stderr
    );
    let from = cli(
        d,
        &[
            "thread",
            "send",
            "Priya Patel",
            "--from",
            "maya@northwind-demo.io",
            "--yes",
        ],
    );
    assert_eq!(from.code, 0, "{}", from.stderr);
    assert_eq!(
        from.stdout.trim(),
        "sent: \"Follow-up on pricing\" to Priya Patel <priya.patel@orbital.ai>"
    );
    // A thread whose draft is gone has nothing to send.
    let nothing = cli(d, &["thread", "send", "Priya Patel", "--yes"]);
    assert_eq!(nothing.code, 1, "{}", nothing.stderr);
    assert!(
        nothing.stderr.contains("has no draft to send"),
        "{}",
        nothing.stderr
    );
    serve.wait_writes(2);
    assert_eq!(sends(&serve).len(), 2);
}

/// A reply whose answer is lost (the connection dropped after the service
/// sent it) is checked in the thread and found: sent once.
#[test]
fn a_reply_whose_answer_is_lost_is_found_in_the_thread_and_sent_once() {
    let serve = Serve::start(&["--chaos-lost-answer", "POST:/api/threads/*/messages:reset"]);
    let dir = workspace(&serve);
    let d = dir.path();
    let body = body_file(d, "Here is the link.");
    let r = cli(
        d,
        &[
            "thread",
            "reply",
            NADIA,
            "--body-file",
            &body,
            "--yes",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = r.json();
    assert_eq!(doc["outcome"], "done");
    assert_eq!(doc["message"], serde_json::Value::Null);
    assert_eq!(doc["check"]["verdict"], "found");
    assert_eq!(doc["check"]["text"], "found in the thread");
    serve.wait_writes(1);
    assert_eq!(sends(&serve).len(), 1, "sent once");
}

/// A send the dashboard kept as "may have reached" (its state's
/// `send:<thread>`) is said before the CLI sends on that thread again.
#[test]
fn a_send_that_may_have_reached_is_said_before_sending_again() {
    let serve = Serve::start(&[]);
    let dir = workspace(&serve);
    let d = dir.path();
    let threads = cli(d, &["threads", "--json"]).json();
    let thread = crate::commands::id_where(&threads["threads"], "participant_email", NADIA);
    let state = serde_json::json!({
        "version": 1,
        "pending_writes": {
            format!("send:{thread}"): {
                "kind": "send",
                "thread": thread,
                "fields": {"subject": "Re: Lumen's quarterly forecast", "body": "Earlier"},
                "lost": "bad_gateway",
                "absent": 5,
                "verdict": "not_found"
            }
        }
    });
    std::fs::write(d.join("state.json"), state.to_string()).expect("state");
    let body = body_file(d, "Following up.");
    let unasked = cli(d, &["thread", "reply", &thread[..8], "--body-file", &body]);
    assert_eq!(unasked.code, 13, "{}", unasked.stderr);
    assert!(
        unasked
            .stderr
            .contains("its last attempt may have reached the service"),
        "{}",
        unasked.stderr
    );
    let r = cli(
        d,
        &[
            "thread",
            "reply",
            &thread[..8],
            "--body-file",
            &body,
            "--yes",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "warning: The last attempt may have reached the service: not found in the thread after 5 good reads"
        ),
        "{}",
        r.stderr
    );
    // Done: the record of the earlier attempt goes.
    let kept = std::fs::read_to_string(d.join("state.json")).unwrap_or_default();
    assert!(!kept.contains(&format!("send:{thread}")), "{kept}");
}
