//! The Senders & Domains pane end to end, and terminal restore.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use outpost::testkit::dns::test_server::{TestDns, TestRecord};

use crate::support::{Pty, deadline};

/// Poll fast against the loopback demo service.
const FAST_POLL: &str = "[poll]\ndomain_secs = 1\n";

#[test]
fn verify_a_domain_and_see_it_verified_by_polling() {
    let mut pty = Pty::spawn(&["--demo", "--time-scale", "3000"], 100, 30, FAST_POLL);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("Sending domains")
        .expect("the domains pane opens");
    // Add a fresh domain (`a`), so the flow does not depend on the seed.
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add dialog opens");
    pty.type_text("mail.e2e-check.io");
    pty.send(b"\x13"); // Ctrl-S
    pty.wait_for("DNS records")
        .expect("the new domain opens on its records");
    pty.wait_for("pending").expect("a new domain is pending");
    pty.send(b"v");
    pty.wait_for("verif").expect("verification starts");
    let screen = pty
        .wait_until("verified", |s| {
            s.contains("● verified") || s.contains("Domain verified")
        })
        .expect("polling sees it verified");
    assert!(screen.contains("mail.e2e-check.io"), "{screen}");
    // `y` copies a record value through OSC 52.
    pty.send(b"y");
    pty.wait_for("copied to the clipboard")
        .expect("copy notice");
    let seen = pty.seen.lock().map(|s| s.clone()).unwrap_or_default();
    assert_eq!(seen.clipboard.len(), 1, "one OSC 52 write");
    assert!(seen.titles.is_empty(), "no window title was ever set");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits cleanly");
    let (alt, hidden) = pty.modes();
    assert!(!alt && !hidden, "terminal restored");
}

/// The defect of issue 9: `/fail` on Domains opened the add dialog (`a`)
/// with `il` typed in it. `/` now gives the keys to a filter.
#[test]
fn slash_fail_filters_the_domains_instead_of_opening_the_add_dialog() {
    let mut pty = Pty::spawn(&["--demo"], 80, 24, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("news.northwind-demo.io")
        .expect("the domains are listed");
    pty.type_text("/fail");
    let screen = pty
        .wait_until("the whole query or the add dialog", |s| {
            s.contains("Add a sending domain") || s.contains("/ fail ")
        })
        .expect("the keys had an effect");
    assert!(
        !screen.contains("Add a sending domain"),
        "letters typed in the filter opened the add dialog:\n{screen}"
    );
    assert!(screen.contains("/ fail"), "{screen}");
    assert!(screen.contains("fail-dkim.northwind-demo.io"), "{screen}");
    assert!(!screen.contains("news.northwind-demo.io"), "{screen}");
    // Enter keeps the filter; Esc on the list clears it.
    pty.send(b"\r");
    pty.wait_until("the filter kept", |s| {
        s.contains("/ fail") && s.contains("clear")
    })
    .expect("kept");
    pty.send(b"\x1b");
    pty.wait_until("every domain back", |s| {
        s.contains("news.northwind-demo.io") && !s.contains("/ fail")
    })
    .expect("Esc clears the filter");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits cleanly");
}

#[test]
fn sigterm_restores_the_terminal() {
    let mut pty = Pty::spawn(&["--demo"], 80, 24, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    let (alt, hidden) = pty.modes();
    assert!(alt && hidden, "the dashboard owns the screen");
    pty.signal(libc::SIGTERM);
    assert!(pty.wait_exit().is_some(), "SIGTERM ends the process");
    let (alt, hidden) = pty.modes();
    assert!(!alt, "left the alternate screen");
    assert!(!hidden, "the cursor is shown");
}

#[test]
fn sighup_ends_the_process_instead_of_spinning() {
    let mut pty = Pty::spawn(&["--demo"], 80, 24, "");
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.signal(libc::SIGHUP);
    assert!(pty.wait_exit().is_some(), "SIGHUP ends the process");
}

/// Issue 13, per-record DNS truth: against a DNS server the test runs, a
/// new domain's records show one found as published, one different (with
/// what DNS holds) and one missing, and the missing one turns found once
/// the test publishes it.
#[test]
fn each_record_shows_what_dns_holds_and_turns_found_once_published() {
    let dns = TestDns::start().expect("a DNS server on 127.0.0.1");
    let name = "mail.dns-e2e.io";
    let send = format!("send.{name}");
    dns.publish(
        &send,
        TestRecord::Mx(10, "feedback-smtp.demo-mail.example".into()),
    );
    dns.publish(
        &send,
        TestRecord::txt("v=spf1 include:spf.demo-mail.example ~all"),
    );
    dns.publish(
        &format!("outpost._domainkey.{name}"),
        TestRecord::txt("v=DKIM1; k=rsa; p=AN0LDKEY"),
    );
    let config = format!("{FAST_POLL}[dns]\nresolver = \"{}\"\n", dns.addr());
    let mut pty = Pty::spawn(&["--demo"], 100, 30, &config);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("Sending domains").expect("the domains pane");
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add dialog");
    pty.type_text(name);
    pty.send(b"\x13"); // Ctrl-S
    let screen = pty
        .wait_for("2 of 4 records found; missing: DMARC; different: DKIM")
        .expect("each record checked against the local DNS server");
    let row = |screen: &str, name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(row(&screen, "_dmarc.").contains("✗ missing"), "{screen}");
    assert!(
        row(&screen, "_domainkey.").contains("≠ differs"),
        "{screen}"
    );
    assert!(screen.contains(&format!("via {}", dns.addr())), "{screen}");
    // What DNS holds instead, under the selected (DKIM) value.
    assert!(
        screen.contains("at DNS   v=DKIM1; k=rsa; p=AN0LDKEY"),
        "{screen}"
    );
    let found = screen.lines().filter(|l| l.contains("✓ found")).count();
    assert_eq!(found, 2, "the MX and the SPF policy match:\n{screen}");

    dns.publish(
        &format!("_dmarc.{name}"),
        TestRecord::txt("v=DMARC1; p=none; rua=mailto:dmarc@demo-mail.example"),
    );
    let screen = pty
        .wait_for("3 of 4 records found; different: DKIM")
        .expect("the next check sees the published record");
    assert!(row(&screen, "_dmarc.").contains("✓ found"), "{screen}");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits cleanly");
}

/// `outpost serve` with its stderr (one JSON line per request, written once
/// the handler is done) collected.
struct Serve {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    url: String,
}

impl Serve {
    fn start(args: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_outpost"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("outpost serve starts");
        let stderr = child.stderr.take().expect("its stderr");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(mut l) = sink.lock() {
                    l.push(line);
                }
            }
        });
        let end = Instant::now() + deadline();
        let url = loop {
            let found = lines.lock().ok().and_then(|l| {
                l.iter().find_map(|line| {
                    let start = line.find("http://")?;
                    line[start..].split_whitespace().next().map(str::to_owned)
                })
            });
            if let Some(url) = found {
                break url;
            }
            assert!(Instant::now() < end, "serve never said where it listens");
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        Serve { child, lines, url }
    }

    /// Requests of `method` to exactly `path` the service has handled.
    fn count(&self, method: &str, path: &str) -> usize {
        self.lines.lock().map_or(0, |l| {
            l.iter()
                .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
                .filter(|v| v["method"] == method && v["path"] == path)
                .count()
        })
    }

    /// The dashboard against it, with a 1 s timeout, on the Domains pane.
    fn dashboard(&self) -> Pty {
        let config = format!(
            "base_url = \"{}\"\napi_key = \"pk_live_demo\"\nrequest_timeout_secs = 1\n{FAST_POLL}",
            self.url
        );
        let pty = Pty::spawn_env(&[], 100, 30, &config, &[("OUTPOST_LOG", "debug")]);
        pty.wait_for("Outpost").expect("the dashboard starts");
        pty.send(b"4");
        pty.wait_for("news.northwind-demo.io")
            .expect("the domains are listed");
        pty
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The creates of a domain the dashboard started, from its log (at
/// `OUTPOST_LOG=debug` the client logs every attempt before sending it).
fn creates_started(pty: &Pty) -> usize {
    let log = std::fs::read_to_string(pty.log_file()).unwrap_or_default();
    log.lines()
        .filter(|l| l.contains(" DEBUG request method=POST path=\"/api/email/domains\""))
        .count()
}

/// Adds `name` with the dialog and waits for it to be shown as added (the
/// dialog closed, the domain open on its records); every screen seen
/// meanwhile is kept, to say what was shown on the way.
fn add_and_see_it_added(pty: &Pty, name: &str) -> String {
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add dialog");
    pty.type_text(name);
    pty.send(b"\x13"); // Ctrl-S
    let seen = Mutex::new(String::new());
    pty.wait_until("shown as added", |s| {
        if let Ok(mut all) = seen.lock() {
            all.push_str(s);
        }
        s.contains("DNS records") && s.contains(name) && !s.contains("Add a sending domain")
    })
    .expect("the check finds the domain and opens it");
    seen.into_inner().unwrap_or_default()
}

/// Issue "One way to write, one way to read": with writes slower than the
/// client's timeout, the list was read once, before the service had added
/// the domain, and the dialog said "most likely not" for good. It is read
/// again on the schedule until the domain shows; the create is sent once.
#[test]
fn a_slow_create_is_found_by_the_later_reads_and_shown_as_added() {
    let serve = Serve::start(&[
        "--chaos-latency-ms",
        "3000",
        "--chaos-latency-methods",
        "POST",
    ]);
    let mut pty = serve.dashboard();
    let seen = add_and_see_it_added(&pty, "mail.slow-e2e.io");
    assert!(seen.contains("May have been added (timeout)"), "{seen}");
    assert!(!seen.contains("most likely"), "{seen}");
    assert!(!seen.contains("not found"), "{seen}");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true));
    assert_eq!(creates_started(&pty), 1, "sent once, never again by itself");
    assert_eq!(serve.count("POST", "/api/email/domains"), 1);
}

/// A create whose answer the service loses (502 after adding it) ends
/// with the domain shown as added, not "not added"; a verify trigger whose
/// answer is lost says pressing v again is safe.
#[test]
fn a_lost_create_answer_ends_added_and_a_lost_trigger_is_safe_to_repeat() {
    let serve = Serve::start(&[
        "--chaos-lost-answer",
        "POST:/api/email/domains:502",
        "--chaos-lost-answer",
        "POST:/api/email/domains/*/verify:502",
    ]);
    let mut pty = serve.dashboard();
    let seen = add_and_see_it_added(&pty, "mail.lost-e2e.io");
    assert!(!seen.contains("not found"), "{seen}");
    assert_eq!(serve.count("POST", "/api/email/domains"), 1);
    pty.send(b"v");
    let screen = pty
        .wait_for("Verification may have started")
        .expect("the lost trigger is said");
    assert!(screen.contains("Pressing v again is safe"), "{screen}");
    assert!(!screen.contains("r retries"), "{screen}");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true));
    assert_eq!(creates_started(&pty), 1, "sent once, never again by itself");
}

/// Issue 19: a dashboard write whose answer was lost is journaled as "may
/// have reached", then its verdict is appended naming the write's entry
/// when the check settles; `:journal` shows the verdict beside the write.
#[test]
fn a_lost_create_is_journaled_then_its_verdict_and_journal_shows_both() {
    let serve = Serve::start(&["--chaos-lost-answer", "POST:/api/email/domains:502"]);
    let mut pty = serve.dashboard();
    add_and_see_it_added(&pty, "mail.journal-e2e.io");
    // The verdict is appended off the loop, just after the check settles:
    // wait for its line.
    let path = pty.data_dir().join("journal.jsonl");
    let end = Instant::now() + deadline();
    let lines: Vec<serde_json::Value> = loop {
        let lines: Vec<serde_json::Value> = std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if lines.iter().any(|l| l["kind"] == "verdict") {
            break lines;
        }
        assert!(Instant::now() < end, "no verdict line: {lines:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let writes: Vec<&serde_json::Value> = lines.iter().filter(|l| l["kind"] == "write").collect();
    assert_eq!(writes.len(), 1, "the create, once: {lines:?}");
    let w = writes[0];
    assert_eq!(w["source"], "dashboard");
    assert_eq!(w["operation"], "CreateDomain");
    assert_eq!(w["target"]["name"], "mail.journal-e2e.io");
    assert_eq!(w["outcome"], "may_have_reached");
    assert_eq!(w["code"], "bad_gateway");
    assert_eq!(w["settle"], "check");
    let verdicts: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["kind"] == "verdict").collect();
    assert_eq!(verdicts.len(), 1, "one verdict: {lines:?}");
    let v = verdicts[0];
    assert_eq!(v["entry"], w["id"], "it names the write's entry");
    assert_eq!(v["verdict"], "found");
    assert_eq!(v["text"], "found in the domain list");
    pty.send(b":journal\r");
    let screen = pty
        .wait_for("may have reached → found")
        .expect(":journal shows the verdict beside the write");
    assert!(screen.contains("CreateDomain"), "{screen}");
    assert!(
        screen.contains("verdict: found — found in the domain list"),
        "{screen}"
    );
    pty.send(b"\x1b");
    pty.wait_until("the journal closed", |s| !s.contains("Journal ·"))
        .expect("Esc closes it");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true));
}
