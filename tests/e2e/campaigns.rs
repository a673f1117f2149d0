//! The Campaigns pane end to end against `--demo`: create an email
//! campaign, import a CSV of 2,500 rows with duplicates and rows without an
//! email and see the exact report, write the email step, launch, watch the
//! stats climb, pause, resume, and see an edit refused with its reason;
//! against `outpost serve`, a launch its preflight refuses (an empty step)
//! shows the finding, jumps to the step and sends no launch.

use crate::support::Pty;

/// Watch campaigns closely against the loopback demo service.
const FAST_POLL: &str = "[poll]\ncampaign_secs = 0.5\n";

const CTRL_S: &[u8] = b"\x13";

/// 2,500 rows: every 50th from the 8th has no email (50 rows, lines 9,
/// 59, …), every 25th from the 4th repeats the row above it in capitals
/// (100 rows).
fn csv() -> String {
    let mut out = String::from("Email,First Name,Last Name,Company,Plan\n");
    for i in 0..2500 {
        let email = if i % 50 == 7 {
            String::new()
        } else if i % 25 == 3 {
            format!("USER{}@EXAMPLE.IO", i - 1)
        } else {
            format!("user{i}@example.io")
        };
        out.push_str(&format!("{email},Ann{i},Lee,Acme {},pro\n", i % 7));
    }
    out
}

/// The number after `label` on the screen's stats chart.
fn counter(screen: &str, label: &str) -> Option<u64> {
    let line = screen.lines().find(|l| l.contains(label))?;
    let rest = &line[line.find(label)? + label.len()..];
    let digits: String = rest
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == ',' || *c == '│')
        .take_while(|c| *c != '│')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn create(pty: &Pty) -> Result<(), String> {
    pty.send(b"2");
    pty.wait_for("Campaigns (")?;
    pty.send(b"n");
    pty.wait_for("Maya Chen")?;
    pty.send(b"\t");
    pty.type_text("E2E import");
    pty.send(CTRL_S);
    pty.wait_for("E2E import  email ● draft")?;
    Ok(())
}

fn import(pty: &Pty) -> Result<(), String> {
    std::fs::write(pty.dir.path().join("leads.csv"), csv()).map_err(|e| e.to_string())?;
    pty.send(b":");
    pty.type_text("import leads.csv");
    pty.send(b"\r");
    pty.wait_for("custom_fields.plan")?;
    pty.send(CTRL_S);
    let screen = pty.wait_for("The first 1,000 rows")?;
    assert!(
        screen.contains("940 to import · 20 left out · 40 duplicates in the file"),
        "{screen}"
    );
    pty.send(CTRL_S);
    let screen = pty.wait_for("Import finished")?;
    assert!(screen.contains("Imported    2,350"), "{screen}");
    assert!(
        screen.contains("Duplicates  100 (100 in the file · 0 already in the roster)"),
        "{screen}"
    );
    assert!(screen.contains("Left out    50"), "{screen}");
    assert!(screen.contains("no email (50)"), "{screen}");
    assert!(screen.contains("9, 59, 109, 159"), "{screen}");
    pty.send(b"\r");
    Ok(())
}

fn write_step(pty: &Pty) -> Result<(), String> {
    pty.send(b"s");
    pty.wait_for("Body (soft wrap)")?;
    pty.type_text("Quick question for %company%");
    pty.send(b"\t");
    pty.type_text("Hi %first_name%, how do you keep your CRM clean?");
    pty.wait_for("Hi Ann0, how do you keep")?;
    pty.send(CTRL_S);
    pty.wait_for("Subject: Quick question for %company%")?;
    Ok(())
}

fn launch_and_watch(pty: &Pty) -> Result<(), String> {
    pty.send(b"L");
    // The launch preflight walks the roster: at the form's 50 a day, the
    // 2,350 leads take longer than 30 days, a warning to go past first.
    let screen = pty.wait_for("take 47 days")?;
    assert!(
        screen.contains("At 50 a day, 2,350 pending leads take 47 days"),
        "{screen}"
    );
    pty.send(b"y");
    pty.wait_for("2,350 pending leads")?;
    pty.send(b"y");
    pty.wait_for("● active")?;
    let first = pty.wait_until("the first sends", |s| {
        counter(s, "contacted").is_some_and(|n| n > 0)
    })?;
    let before = counter(&first, "contacted").unwrap_or(0);
    pty.wait_until("more sends", |s| {
        counter(s, "contacted").is_some_and(|n| n > before)
    })?;
    Ok(())
}

#[test]
fn create_import_write_launch_watch_pause_resume_and_a_refused_edit() {
    let mut pty = Pty::spawn(&["--demo", "--time-scale", "600"], 100, 30, FAST_POLL);
    pty.wait_for("Lead Finder searches")
        .expect("the dashboard opens");
    create(&pty).expect("create an email campaign");
    import(&pty).expect("import the CSV");
    write_step(&pty).expect("write the email step");
    launch_and_watch(&pty).expect("launch and watch");

    pty.send(b"p");
    pty.wait_for("Pause campaign?").expect("pause asks first");
    pty.send(b"y");
    pty.wait_for("● paused").expect("paused");
    pty.send(b"R");
    pty.wait_for("Resume campaign?").expect("resume asks first");
    pty.send(b"y");
    pty.wait_for("● active").expect("active again");

    pty.send(b"l");
    pty.wait_for("Roster · 2,350 leads").expect("the roster");
    pty.send(b"e");
    let screen = pty
        .wait_for("the roster is frozen")
        .expect("an edit after launch is refused with the reason");
    assert!(screen.contains("Cannot change the roster"), "{screen}");

    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits cleanly");
}

/// `outpost serve` with `flags` (e.g. losing the answers of every resume,
/// 502, after running it), its request log kept; killed when dropped.
struct LosingServe {
    child: std::process::Child,
    base_url: String,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl LosingServe {
    fn start(lost: &str) -> LosingServe {
        LosingServe::with(&["--chaos-lost-answer", lost])
    }

    fn with(flags: &[&str]) -> LosingServe {
        use std::io::{BufRead, BufReader};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_outpost"))
            .args(["serve", "--addr", "127.0.0.1:0", "--rate-limit", "0"])
            .args(flags)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("outpost serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("outpost demo service listening on ") {
                    let url = rest.split_whitespace().next().unwrap_or_default();
                    let _ = tx.send(url.to_owned());
                }
                if let Ok(mut l) = sink.lock() {
                    l.push(line);
                }
            }
        });
        let base_url = rx
            .recv_timeout(crate::support::deadline())
            .expect("serve prints its address");
        LosingServe {
            child,
            base_url,
            log,
        }
    }

    /// `METHOD path` of every request logged so far.
    fn requests(&self) -> Vec<String> {
        let lines = self.log.lock().map(|l| l.clone()).unwrap_or_default();
        lines
            .iter()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| Some(format!("{} {}", v["method"].as_str()?, v["path"].as_str()?)))
            .collect()
    }

    /// A dashboard config against this service.
    fn config(&self) -> String {
        format!(
            "base_url = \"{}\"\napi_key = \"{}\"\n",
            self.base_url,
            outpost::testkit::demo::DEMO_KEY
        )
    }
}

impl Drop for LosingServe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A resume whose answer is lost (the service did resume) is never sent
/// again and never offered as "r retries": the campaign's status is read,
/// found active, and the notice says so.
#[test]
fn a_resume_whose_answer_is_lost_is_checked_by_reading_the_status() {
    let serve = LosingServe::start("POST:/api/campaigns/*/resume:502");
    let pty = Pty::spawn(&[], 80, 24, &serve.config());
    pty.wait_for("Lead Finder").expect("the dashboard opens");
    pty.send(b"2");
    // The name's start: at 80 columns it may be cut (with `…`).
    pty.wait_for("Platform eng").expect("the campaigns");
    // Down to the paused campaign, then open it.
    let screen = pty.wait_for("● paused").expect("a paused campaign");
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains(" ● ")).collect();
    let at = rows
        .iter()
        .position(|l| l.contains("● paused"))
        .expect("the paused row");
    for _ in 0..at {
        pty.send(b"j");
    }
    pty.send(b"\r");
    pty.wait_for("R resume  ").expect("its detail, resumable");
    pty.send(b"R");
    pty.wait_for("Resume campaign?").expect("asked first");
    pty.send(b"y");
    let screen = pty
        .wait_for("Resume: it went")
        .expect("the status check finds it active");
    assert!(!screen.contains("retries"), "{screen}");
    pty.wait_for("● active").expect("shown active");
}

/// A draft email campaign on `serve` named `name`, of 30 leads, whose
/// second email is empty: set up with the library's client.
fn draft_with_an_empty_step(serve: &LosingServe, name: &str) {
    use outpost::testkit::api::model::*;
    use outpost::testkit::api::{ApiKey, Client, ClientConfig};
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let key = ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
        let c = Client::new(ClientConfig::new(&serve.base_url, key)).expect("client");
        let sender = c
            .list_senders(Some(&Channel::Email))
            .await
            .expect("senders")
            .into_iter()
            .find(|s| s.status == "connected")
            .expect("a ready sender")
            .id;
        let campaign = c
            .create_campaign(&CreateCampaign {
                kind: Channel::Email,
                name: name.into(),
                sender_account_ids: vec![sender],
                ..Default::default()
            })
            .await
            .expect("created");
        let leads: Vec<LeadInput> = (0..30)
            .map(|i| LeadInput {
                email: Some(format!("empty{i}@example.com")),
                first_name: Some(format!("Lead{i}")),
                ..Default::default()
            })
            .collect();
        c.add_leads(&campaign.id, &Channel::Email, &leads)
            .await
            .expect("leads");
        let node = |kind, subject: &str, body: &str| SequenceNodeInput {
            kind,
            subject: subject.into(),
            body: body.into(),
        };
        let update = UpdateCampaign {
            sequence_nodes: Some(vec![
                node(NodeType::Email, "Hello %first_name%", "A first note"),
                node(NodeType::Email, "Again", ""),
                node(NodeType::End, "", ""),
            ]),
            ..Default::default()
        };
        c.update_campaign(&campaign.id, &update)
            .await
            .expect("sequence");
    });
}

/// `L` on a campaign with an empty step, against `outpost serve` at
/// 80x24: the preflight lists the finding, `y` does not launch (the errors
/// block it), Enter opens the sequence editor on that step, and the
/// service never sees a launch.
#[test]
fn a_launch_with_an_empty_step_is_refused_showing_the_finding_and_nothing_is_sent() {
    let serve = LosingServe::with(&[]);
    draft_with_an_empty_step(&serve, "Preflight e2e");
    let pty = Pty::spawn(&[], 80, 24, &serve.config());
    pty.wait_for("Lead Finder").expect("the dashboard opens");
    pty.send(b"2");
    // The newest campaign is the first row.
    pty.wait_for("Preflight e2e").expect("the campaigns");
    pty.send(b"L");
    let screen = pty
        .wait_for("Step 2 (email) has no body")
        .expect("the preflight lists the empty step");
    assert!(screen.contains("Launch preflight"), "{screen}");
    assert!(screen.contains("Steps without a body"), "{screen}");
    assert!(screen.contains("1 error blocks the launch"), "{screen}");
    pty.send(b"y");
    pty.wait_for("1 error blocks the launch: fix it first")
        .expect("y is refused, saying why");
    assert!(!pty.screen().contains("Launch campaign?"), "no question");
    pty.send(b"\r");
    let screen = pty
        .wait_for("Body (soft wrap)")
        .expect("Enter opens the sequence editor");
    assert!(screen.contains("Sequence · Preflight e2e"), "{screen}");
    let requests = serve.requests();
    assert!(
        requests
            .iter()
            .any(|r| r.starts_with("GET /api/campaigns/") && r.ends_with("/leads")),
        "the roster was read: {requests:?}"
    );
    assert!(
        !requests.iter().any(|r| r.ends_with("/launch")),
        "no launch was sent: {requests:?}"
    );
}

/// `:open campaign` (issue 20): a unique part of a name opens that
/// campaign; nonsense is refused on screen and sends nothing (the serve's
/// request log is the witness).
#[test]
fn open_campaign_by_a_part_of_its_name_and_nonsense_sends_nothing() {
    let serve = LosingServe::with(&[]);
    let pty = Pty::spawn(&[], 80, 24, &serve.config());
    pty.wait_for("Lead Finder").expect("the dashboard opens");
    pty.send(b"2");
    pty.wait_for("Platform eng").expect("the campaigns");
    pty.send(b":");
    pty.type_text("open campaign leaders q2");
    pty.send(b"\r");
    let screen = pty
        .wait_until("its detail", |s| {
            s.contains("Finance leaders Q2") && s.contains("Overview")
        })
        .expect("the campaign opens");
    assert!(screen.contains(" id "), "its id is shown: {screen}");
    let opened = serve.requests();
    assert!(
        opened
            .iter()
            .any(|r| r.starts_with("GET /api/campaigns/") && r.len() > "GET /api/campaigns/".len()),
        "{opened:?}"
    );

    pty.send(b":");
    pty.type_text("open campaign nonsense");
    pty.send(b"\r");
    pty.wait_for("no campaign matches")
        .expect("refused, saying why");
    // Something later is sent and logged (a refresh of what is shown), so
    // the log has caught up with the refusal before it is read.
    let before = serve.requests().len();
    pty.send(b"r");
    let deadline = std::time::Instant::now() + crate::support::deadline();
    while serve.requests().len() == before && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let all = serve.requests();
    assert!(all.len() > before, "the refresh is logged: {all:?}");
    assert!(
        !all.iter().any(|r| r.to_lowercase().contains("nonsense")),
        "nothing was sent for it: {all:?}"
    );
}
