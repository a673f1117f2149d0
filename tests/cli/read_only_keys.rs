//! Read-only mode in the dashboard, proven key by key: every action the
//! read-only list names ([`Action::writes`]) is pressed in every view where
//! it applies, with the keys that would complete it (the form filled, the
//! question answered), every write `:` command is typed, and then random
//! keys. The demo service's request log must hold nothing but reads, and
//! the dashboard's own log no refusal by the client: the dashboard's gate
//! must have stopped each one first (the client refusing is the second
//! line of defence, which must never be needed).
//!
//! The control run presses the same steps without `--read-only` and sees a
//! write for each: the witness would have seen them.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use outpost::testkit::app::keymap::{Action, ComboCode, KeyCombo, Keymap, Scope};

use crate::pty::Pty;
use crate::support::{Logged, Serve, workspace};

/// The text a refusal by the client leaves in the dashboard's log.
const CLIENT_REFUSAL: &str = "read-only mode: refused, not sent";
/// What the dashboard logs when its read-only gate refuses a key.
const GATE_REFUSAL: &str = "notice: Disabled";

/// The bytes a terminal sends for a key.
fn bytes_of(k: KeyCombo) -> Vec<u8> {
    let mut out = if k.alt { vec![0x1b] } else { Vec::new() };
    match k.code {
        ComboCode::Char(c) if k.ctrl => out.push((c.to_ascii_lowercase() as u8) & 0x1f),
        ComboCode::Char(c) => out.extend(c.to_string().bytes()),
        ComboCode::Named(n) => out.extend_from_slice(match n {
            "enter" => b"\r",
            "esc" => b"\x1b",
            "tab" => b"\t",
            "backtab" => b"\x1b[Z",
            "space" => b" ",
            "backspace" => b"\x7f",
            "up" => b"\x1b[A",
            "down" => b"\x1b[B",
            "right" => b"\x1b[C",
            "left" => b"\x1b[D",
            "home" => b"\x1b[H",
            "end" => b"\x1b[F",
            "pageup" => b"\x1b[5~",
            "pagedown" => b"\x1b[6~",
            "delete" => b"\x1b[3~",
            "insert" => b"\x1b[2~",
            other => panic!("no bytes for {other}"),
        }),
        ComboCode::F(n) => out.extend(
            format!(
                "\x1b[{}~",
                [11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 1)]
            )
            .bytes(),
        ),
    }
    out
}

/// The first default key of `action`, as bytes.
fn key(action: Action) -> Vec<u8> {
    let km = Keymap::default();
    let combo = *km
        .keys_for(action)
        .first()
        .unwrap_or_else(|| panic!("{action:?} has a key"));
    bytes_of(combo)
}

/// Whether `path` matches `pattern`, `*` standing for one segment.
fn path_matches(pattern: &str, path: &str) -> bool {
    let (p, q): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    p.len() == q.len() && p.iter().zip(&q).all(|(a, b)| *a == "*" || a == b)
}

/// Who drives: read-only or the control run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    ReadOnly,
    Control,
}

/// One write action: its keys, what must show before each further part of
/// it (its form, its question), and the write it makes.
struct Step<'a> {
    /// What it is, for messages.
    name: &'a str,
    /// The key that starts it.
    keys: Vec<u8>,
    /// (text on screen, keys typed then), in order.
    stages: &'a [(&'a str, &'a str)],
    /// The write the control run must see: method and path (`*`: any
    /// segment); `None` for a step that only opens a form.
    write: Option<(&'a str, &'a str)>,
}

/// Drives one dashboard through the steps.
struct Driver<'a> {
    pty: &'a Pty,
    serve: &'a Serve,
    mode: Mode,
    /// Steps whose form or question opened in read-only mode.
    bypassed: Vec<String>,
    /// Steps whose write the control run did not see.
    missing: Vec<String>,
}

impl Driver<'_> {
    fn press(&self, keys: &[u8]) {
        self.pty.send(keys);
        std::thread::sleep(Duration::from_millis(80));
    }

    fn wait(&self, text: &str) {
        self.pty
            .wait_for(text)
            .unwrap_or_else(|e| panic!("{:?}: {e}", self.mode));
    }

    /// Back out of whatever is open (a view, a filter), then to `pane`.
    fn go(&self, pane: Action, ready: &str) {
        for _ in 0..3 {
            self.press(b"\x1b");
        }
        self.press(&key(pane));
        self.wait(ready);
    }

    /// The list of `pane` narrowed by `/text`, its first row opened (again
    /// if the list was being read again when `Enter` came).
    fn open(&self, pane: Action, ready: &str, filter: &str, opened: &str) {
        self.go(pane, ready);
        self.filter(filter);
        for _ in 0..5 {
            self.press(b"\r");
            if self.shows_soon(opened) {
                return;
            }
        }
        self.wait(opened);
    }

    /// The list shown narrowed by `/text` to one row. An earlier filter is
    /// cleared first (the panes differ: `Esc` on the list or in the box).
    fn filter(&self, text: &str) {
        for k in [&b"/"[..], b"\x1b", b"\x1b", b"/"] {
            self.press(k);
        }
        self.pty.type_text(text);
        self.press(b"\r");
        let lower = text.to_lowercase();
        self.pty
            .wait_until(&format!("the list narrowed to {text}"), |s| {
                s.to_lowercase().contains(&lower) && (s.contains("1 of") || s.contains("1 shown"))
            })
            .unwrap_or_else(|e| panic!("{:?}: {e}", self.mode));
    }

    /// Whether `text` shows within two seconds.
    fn shows_soon(&self, text: &str) -> bool {
        let end = Instant::now() + Duration::from_secs(2);
        while Instant::now() < end {
            if self.pty.screen().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// The dashboard gate's refusals so far: each is a "Disabled" notice,
    /// and the dashboard writes every notice to its log.
    fn gate_refusals(&self) -> usize {
        std::fs::read_to_string(self.pty.log_file())
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(GATE_REFUSAL))
            .count()
    }

    /// Waits until the gate has refused `more` keys since `before`; `false`
    /// when it did not in time.
    fn refused(&self, before: usize, more: usize) -> bool {
        let end = Instant::now() + crate::pty::deadline();
        while Instant::now() < end {
            if self.gate_refusals() >= before + more {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Writes of `method` to `pattern` logged so far.
    fn writes(&self, method: &str, pattern: &str) -> usize {
        self.serve
            .requests()
            .iter()
            .filter(|r| !r.is_read() && r.method == method && path_matches(pattern, &r.path))
            .count()
    }

    /// Runs a step: in the control run each part must show and the write
    /// must reach the service; in read-only mode none may show (when one
    /// does, the rest is pressed too, so the client's refusal is logged).
    fn act(&mut self, step: &Step) {
        let before = step.write.map_or(0, |(m, p)| self.writes(m, p));
        let refusals = self.gate_refusals();
        self.press(&step.keys);
        if self.mode == Mode::ReadOnly {
            // The gate's own witness: its refusal, written to the log.
            let refused = self.refused(refusals, 1);
            match step.stages.first() {
                Some((shown, _)) if self.pty.screen().contains(shown) => {
                    self.bypassed.push(step.name.to_owned());
                }
                _ if refused => return,
                _ => {
                    self.missing.push(format!("{}: not refused", step.name));
                    return;
                }
            }
        }
        for (shown, typed) in step.stages {
            if let Err(e) = self.pty.wait_for(shown) {
                let screen = e.split("\nlog:").next().unwrap_or_default().to_owned();
                self.missing.push(format!("{}: {screen}", step.name));
                return;
            }
            self.pty.type_text(typed);
            std::thread::sleep(Duration::from_millis(150));
        }
        if let (Mode::Control, Some((method, path))) = (self.mode, step.write) {
            let end = Instant::now() + crate::pty::deadline();
            while self.writes(method, path) <= before {
                if Instant::now() > end {
                    self.missing
                        .push(format!("{}: no {method} {path}", step.name));
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// Leads: create a search, run one from the list and one opened, run all,
/// add a result to a campaign.
fn leads(d: &mut Driver) {
    d.go(Action::PaneLeads, "Lead Finder searches");
    d.act(&Step {
        name: "new search",
        keys: key(Action::NewSearch),
        stages: &[(
            "New Lead Finder search",
            "RO search\t\tfind buyers\t\t\tvp sales\tthey buy\x13",
        )],
        write: Some(("POST", "/api/lead-finder")),
    });
    d.go(Action::PaneLeads, "Lead Finder searches");
    d.filter("CFOs");
    d.act(&Step {
        name: "run (list)",
        keys: key(Action::RunSearch),
        stages: &[],
        write: Some(("POST", "/api/lead-finder/*/run")),
    });
    d.act(&Step {
        name: "run all",
        keys: key(Action::RunAll),
        stages: &[("Run all searches?", "y")],
        write: Some(("POST", "/api/lead-finder/run")),
    });
    d.open(
        Action::PaneLeads,
        "Lead Finder searches",
        "Founders",
        "Results 35",
    );
    d.act(&Step {
        name: "run (open)",
        keys: key(Action::RunSearch),
        stages: &[],
        write: Some(("POST", "/api/lead-finder/*/run")),
    });
    d.act(&Step {
        name: "add to campaign",
        keys: key(Action::AddToCampaign),
        stages: &[("Add to campaign", "\r")],
        write: Some(("POST", "/api/campaigns/*/leads")),
    });
}

/// Campaigns: create one; in the 5,000-lead draft edit the sequence,
/// import, edit and delete a lead, launch; delete every lead of the draft
/// the Leads step added to; edit a generated message, pause, resume.
fn campaigns(d: &mut Driver) {
    d.go(Action::PaneCampaigns, "Campaigns (");
    d.act(&Step {
        name: "new campaign",
        keys: key(Action::NewCampaign),
        stages: &[("New campaign", "\tRO campaign\x13")],
        write: Some(("POST", "/api/campaigns")),
    });
    d.open(
        Action::PaneCampaigns,
        "Campaigns (",
        "Q3",
        "Settings & sequence",
    );
    d.act(&Step {
        name: "edit the sequence",
        keys: key(Action::EditSequence),
        stages: &[("Sequence ·", "\x13")],
        write: Some(("PATCH", "/api/campaigns/*")),
    });
    d.act(&Step {
        name: "import",
        keys: key(Action::ImportCsv),
        stages: &[
            ("Import leads into", "\x15l.csv\r"),
            ("Column mapping", "\x13"),
            ("Ctrl-S import", "\x13"),
            ("Import finished", "\r"),
        ],
        write: Some(("POST", "/api/campaigns/*/leads")),
    });
    d.press(&key(Action::NextTab));
    d.wait("Roster ·");
    // The rows, not only the heading: `e` on a roster still loading edits
    // nothing.
    d.pty
        .wait_until("the roster's rows", |s| {
            s.lines()
                .any(|l| l.contains(" pending ") && l.contains('@'))
        })
        .unwrap_or_else(|e| panic!("{:?}: {e}", d.mode));
    d.act(&Step {
        name: "edit a lead",
        keys: key(Action::EditItem),
        stages: &[("Edit lead", "x\x13")],
        write: Some(("PATCH", "/api/campaigns/*/leads")),
    });
    d.press(&key(Action::MarkLead));
    d.act(&Step {
        name: "delete a lead",
        keys: key(Action::DeleteLeads),
        stages: &[("Delete", "y")],
        write: Some(("DELETE", "/api/campaigns/*/leads")),
    });
    d.act(&Step {
        name: "launch",
        keys: key(Action::Launch),
        // The launch preflight first: the lead edited above lacks fields
        // the sequence uses, a warning to go past before the question.
        stages: &[("go on to launch", "y"), ("Launch campaign?", "y")],
        write: Some(("POST", "/api/campaigns/*/launch")),
    });
    campaigns_live(d);
}

/// Campaigns that are not the 5,000-lead draft.
fn campaigns_live(d: &mut Driver) {
    d.open(
        Action::PaneCampaigns,
        "Campaigns (",
        "Platform eng intros",
        "Settings & sequence",
    );
    d.act(&Step {
        name: "delete every lead",
        keys: key(Action::DeleteAllLeads),
        stages: &[("Delete every lead?", "y")],
        write: Some(("DELETE", "/api/campaigns/*/leads")),
    });
    d.open(
        Action::PaneCampaigns,
        "Campaigns (",
        "Series B",
        "Settings & sequence",
    );
    d.press(&key(Action::NextTab));
    d.press(&key(Action::NextTab));
    d.wait("Generated messages");
    d.act(&Step {
        name: "edit a generated message",
        keys: key(Action::EditItem),
        stages: &[("Edit generated message", "x\x13")],
        write: Some(("PATCH", "/api/campaigns/*/generate-messages")),
    });
    d.act(&Step {
        name: "pause (open)",
        keys: key(Action::Pause),
        stages: &[("Pause campaign?", "y")],
        write: Some(("POST", "/api/campaigns/*/pause")),
    });
    d.go(Action::PaneCampaigns, "Campaigns (");
    d.filter("eng — EU");
    d.act(&Step {
        name: "resume (list)",
        keys: key(Action::Resume),
        stages: &[("Resume campaign?", "y")],
        write: Some(("POST", "/api/campaigns/*/resume")),
    });
}

/// Inbox: compose, save and send from the editor; edit and save a draft;
/// send and delete drafts from the list; mark read, unread and archive in
/// the list and in an opened thread.
fn inbox(d: &mut Driver) {
    d.go(Action::PaneInbox, "Inbox ·");
    d.act(&Step {
        name: "compose",
        keys: key(Action::Compose),
        stages: &[(
            "New email",
            "ro.lead@example.com\t\t\t\tRO subject\tRO body",
        )],
        write: None,
    });
    d.act(&Step {
        name: "save in the editor",
        keys: key(Action::SaveDraft),
        stages: &[],
        write: Some(("POST", "/api/threads")),
    });
    d.act(&Step {
        name: "send from the editor",
        keys: key(Action::EditorSend),
        stages: &[("Send this email?", "y")],
        write: Some(("POST", "/api/threads/*/messages")),
    });
    d.go(Action::PaneInbox, "Inbox ·");
    d.filter("jonas");
    d.act(&Step {
        name: "edit a draft",
        keys: key(Action::EditDraft),
        stages: &[("Edit draft", "Edited. ")],
        write: None,
    });
    d.act(&Step {
        name: "save the draft",
        keys: key(Action::SaveDraft),
        stages: &[],
        write: Some(("PATCH", "/api/threads/*")),
    });
    inbox_list(
        d,
        "jonas",
        "send (list)",
        Action::SendDraft,
        &[("Send this email?", "y")],
        Some(("POST", "/api/threads/*/messages")),
    );
    inbox_list(
        d,
        "hana",
        "delete a draft",
        Action::DeleteDraft,
        &[("Delete this draft?", "y")],
        Some(("DELETE", "/api/threads/*")),
    );
    inbox_list(
        d,
        "mateo",
        "mark read (list)",
        Action::MarkRead,
        &[],
        Some(("PATCH", "/api/threads/*")),
    );
    d.act(&Step {
        name: "mark unread (list)",
        keys: key(Action::MarkUnread),
        stages: &[],
        write: Some(("PATCH", "/api/threads/*")),
    });
    d.act(&Step {
        name: "archive (list)",
        keys: key(Action::Archive),
        stages: &[],
        write: Some(("PATCH", "/api/threads/*")),
    });
    d.open(Action::PaneInbox, "Inbox ·", "kofi", "Messages (");
    for (name, action) in [
        ("mark read (thread)", Action::MarkRead),
        ("mark unread (thread)", Action::MarkUnread),
        ("archive (thread)", Action::Archive),
    ] {
        d.act(&Step {
            name,
            keys: key(action),
            stages: &[],
            write: Some(("PATCH", "/api/threads/*")),
        });
    }
}

/// The Inbox narrowed to `who`, then a step on its row.
fn inbox_list(
    d: &mut Driver,
    who: &str,
    name: &str,
    action: Action,
    stages: &[(&str, &str)],
    write: Option<(&str, &str)>,
) {
    d.go(Action::PaneInbox, "Inbox ·");
    d.filter(who);
    d.act(&Step {
        name,
        keys: key(action),
        stages,
        write,
    });
}

/// Senders & Domains: add one; verify from the list and from a domain's
/// records.
fn domains(d: &mut Driver) {
    d.go(Action::PaneDomains, "Sending domains");
    d.act(&Step {
        name: "add a domain",
        keys: key(Action::AddDomain),
        stages: &[("Add a sending domain", "ro.example.com\x13")],
        write: Some(("POST", "/api/email/domains")),
    });
    d.go(Action::PaneDomains, "Sending domains");
    d.filter("news.");
    d.act(&Step {
        name: "verify (list)",
        keys: key(Action::Verify),
        stages: &[],
        write: Some(("POST", "/api/email/domains/*/verify")),
    });
    d.open(
        Action::PaneDomains,
        "Sending domains",
        "fail-dkim",
        "DNS records",
    );
    d.act(&Step {
        name: "verify (records)",
        keys: key(Action::Verify),
        stages: &[],
        write: Some(("POST", "/api/email/domains/*/verify")),
    });
}

/// Profile: edit and save with `e` and with `Enter` (which opens the form
/// at the field under the cursor), redeem a pass.
fn profile(d: &mut Driver) {
    let save: &[(&str, &str)] = &[("Edit company profile", "X\x13"), ("Review:", "y")];
    d.go(Action::PaneProfile, "Company profile");
    d.act(&Step {
        name: "edit the profile (e)",
        keys: key(Action::EditProfile),
        stages: save,
        write: Some(("PUT", "/api/context")),
    });
    d.go(Action::PaneProfile, "Company profile");
    // `Enter` on a field opens the form too: in read-only mode it once did,
    // past the gate, leaving the client to refuse the save.
    d.act(&Step {
        name: "edit the profile (Enter)",
        keys: key(Action::Open),
        stages: save,
        write: Some(("PUT", "/api/context")),
    });
    d.go(Action::PaneProfile, "Company profile");
    d.act(&Step {
        name: "redeem a pass",
        keys: key(Action::RedeemPass),
        stages: &[("Redeem a discovery pass", "DEMO-PASS-1\r")],
        write: Some(("POST", "/api/test-access/redeem")),
    });
}

/// Read-only mode: every write `:` command, typed where it would apply,
/// is refused by name.
fn commands(d: &mut Driver) {
    let refused = |d: &mut Driver, line: &str, name: &str| {
        d.press(b":");
        d.pty.type_text(line);
        d.press(b"\r");
        if d.pty.wait_for(&format!(":{name}:")).is_err() {
            d.missing.push(format!(":{line} was not refused by name"));
        }
    };
    d.go(Action::PaneLeads, "Lead Finder searches");
    refused(d, "run all", "run all");
    refused(d, "compose ro@example.com", "compose");
    refused(d, "domain add ro2.example.com", "domain add");
    refused(d, "redeem DEMO-PASS-2", "redeem");
    d.open(
        Action::PaneCampaigns,
        "Campaigns (",
        "Q3",
        "Settings & sequence",
    );
    refused(d, "import l.csv", "import");
    refused(d, "launch", "launch");
    d.open(
        Action::PaneCampaigns,
        "Campaigns (",
        "Series B",
        "Settings & sequence",
    );
    refused(d, "pause", "pause");
    d.open(
        Action::PaneCampaigns,
        "Campaigns (",
        "eng — EU",
        "Settings & sequence",
    );
    refused(d, "resume", "resume");
    d.open(Action::PaneInbox, "Inbox ·", "jonas", "Thread");
    refused(d, "send", "send");
}

/// The default keys of the actions of `scope` that write.
fn write_keys(scope: Scope) -> Vec<Vec<u8>> {
    Action::ALL
        .iter()
        .filter(|a| a.scope() == scope && a.writes())
        .map(|a| key(*a))
        .collect()
}

/// Read-only mode: in every view, every write key of its pane, one after
/// the other; each is refused ("Disabled") and nothing opens.
fn sweep(d: &mut Driver) {
    let all = |d: &mut Driver, scope: Scope, view: &str| {
        let before = d.gate_refusals();
        let keys = write_keys(scope);
        for k in &keys {
            d.press(k);
        }
        // Every one of them refused by the gate, each a notice of its own.
        if !d.refused(before, keys.len()) {
            let n = d.gate_refusals().saturating_sub(before);
            d.missing
                .push(format!("{view}: {n} of {} write keys refused", keys.len()));
        }
    };
    // A card over a list takes only its own keys (the rest do nothing
    // there): each of those that writes must be refused.
    let card = |d: &mut Driver, actions: &[Action], view: &str| {
        let before = d.gate_refusals();
        for a in actions {
            d.press(&key(*a));
        }
        if !d.refused(before, actions.len()) {
            d.missing
                .push(format!("{view}: a write key was not refused"));
        }
    };
    d.go(Action::PaneLeads, "Lead Finder searches");
    all(d, Scope::Leads, "searches");
    d.open(
        Action::PaneLeads,
        "Lead Finder searches",
        "Founders",
        "Results 35",
    );
    all(d, Scope::Leads, "a search");
    d.press(b"\r");
    all(d, Scope::Leads, "a result");
    d.go(Action::PaneCampaigns, "Campaigns (");
    all(d, Scope::Campaigns, "campaigns");
    for name in ["Q3", "Series B"] {
        d.open(
            Action::PaneCampaigns,
            "Campaigns (",
            name,
            "Settings & sequence",
        );
        all(d, Scope::Campaigns, "overview");
        d.press(&key(Action::NextTab));
        d.wait("Roster ·");
        all(d, Scope::Campaigns, "roster");
        d.press(b"\r");
        card(d, &[Action::EditItem], "a lead");
        d.press(b"\x1b");
        d.press(&key(Action::NextTab));
        d.wait("Generated messages");
        all(d, Scope::Campaigns, "messages");
        d.press(b"\r");
        card(d, &[Action::EditItem], "a lead's messages");
    }
    d.go(Action::PaneInbox, "Inbox ·");
    all(d, Scope::Inbox, "threads");
    for who in ["jonas", "kofi"] {
        d.open(Action::PaneInbox, "Inbox ·", who, "Thread");
        all(d, Scope::Inbox, "a thread");
    }
    d.go(Action::PaneDomains, "Sending domains");
    all(d, Scope::Domains, "domains");
    d.open(
        Action::PaneDomains,
        "Sending domains",
        "news.",
        "DNS records",
    );
    all(d, Scope::Domains, "a domain's records");
    d.go(Action::PaneDomains, "Sending domains");
    d.press(&key(Action::ToggleSenders));
    all(d, Scope::Domains, "senders");
    d.press(&key(Action::ToggleSenders));
    d.go(Action::PaneProfile, "Company profile");
    all(d, Scope::Profile, "the profile");
}

/// Read-only mode: random keys (every bound key but quitting and
/// suspending, plus answers and text) in random panes and views.
fn random_keys(d: &mut Driver) {
    let km = Keymap::default();
    let skip = [Action::Quit, Action::ForceQuit, Action::Suspend];
    let mut pool: BTreeSet<Vec<u8>> = Action::ALL
        .iter()
        .filter(|a| !skip.contains(a))
        .flat_map(|a| km.keys_for(*a))
        .map(bytes_of)
        .collect();
    for extra in [&b"y"[..], b"n", b"x", b"@", b".", b"\x13", b"\x0f", b"\x15"] {
        pool.insert(extra.to_vec());
    }
    let quit: Vec<Vec<u8>> = skip
        .iter()
        .flat_map(|a| km.keys_for(*a))
        .map(bytes_of)
        .collect();
    pool.retain(|k| !quit.contains(k));
    let pool: Vec<Vec<u8>> = pool.into_iter().collect();
    let mut rng = fastrand::Rng::with_seed(13);
    for _ in 0..400 {
        d.pty.send(&pool[rng.usize(..pool.len())]);
        std::thread::sleep(Duration::from_millis(15));
    }
    d.go(Action::PaneLeads, "Outpost");
}

/// What a run of the dashboard left behind.
struct Run {
    bypassed: Vec<String>,
    missing: Vec<String>,
    /// Client refusals in the dashboard's log.
    refusals: Vec<String>,
    /// The status bar at start.
    status_bar: String,
}

/// Runs the dashboard against `serve` in `mode` through every step (and in
/// read-only mode the commands, the sweep and random keys), then quits.
fn drive(serve: &Serve, mode: Mode) -> Run {
    let dir = workspace(serve);
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let args: &[&str] = if mode == Mode::ReadOnly {
        &["--read-only"]
    } else {
        &[]
    };
    let mut pty = Pty::spawn(args, 120, 36, &config);
    std::fs::write(
        pty.data_dir().join("l.csv"),
        "email,name\nro1@example.com,Ro One\n",
    )
    .expect("csv");
    // The title and the status bar on one whole screen (a frame can
    // arrive in parts, the status bar last).
    pty.wait_until("the dashboard with its status bar", |s| {
        s.contains("Lead Finder searches") && s.lines().last().is_some_and(|l| l.contains("help"))
    })
    .expect("the dashboard starts");
    let status_bar = pty.status_bar();
    let mut d = Driver {
        pty: &pty,
        serve,
        mode,
        bypassed: Vec::new(),
        missing: Vec::new(),
    };
    leads(&mut d);
    campaigns(&mut d);
    inbox(&mut d);
    domains(&mut d);
    profile(&mut d);
    if mode == Mode::ReadOnly {
        commands(&mut d);
        sweep(&mut d);
        random_keys(&mut d);
    }
    let (bypassed, missing) = (d.bypassed, d.missing);
    pty.send(b":messages\r");
    let messages = pty.wait_for("Messages").unwrap_or_default();
    pty.send(b"\x1b");
    std::thread::sleep(Duration::from_millis(100));
    pty.send(b"q");
    std::thread::sleep(Duration::from_millis(300));
    pty.send(b"y");
    if pty.wait_exit().is_none() {
        pty.send(b"\x03");
        let _ = pty.wait_exit();
    }
    let log = std::fs::read_to_string(pty.log_file()).unwrap_or_default();
    let mut refusals: Vec<String> = log
        .lines()
        .filter(|l| l.contains(CLIENT_REFUSAL))
        .map(str::to_owned)
        .collect();
    if mode == Mode::ReadOnly && messages.contains("read_only ·") {
        refusals.push(format!("a client refusal in :messages:\n{messages}"));
    }
    Run {
        bypassed,
        missing,
        refusals,
        status_bar,
    }
}

/// Read-only mode: whatever keys are pressed, in whatever view, nothing but
/// reads reaches the service, and the client never has to refuse one.
#[test]
fn the_dashboard_sends_no_write_whatever_keys_are_pressed() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let run = drive(&serve, Mode::ReadOnly);
    assert!(
        run.status_bar.contains(" READ-ONLY "),
        "the status bar says so: {}",
        run.status_bar
    );
    let logged: Vec<Logged> = serve.requests();
    assert!(logged.len() > 20, "the dashboard was live: {logged:?}");
    assert!(
        serve.writes().is_empty(),
        "writes reached the service: {:?}",
        serve.writes()
    );
    let problems = [
        ("the dashboard's gate let these open", run.bypassed),
        (
            "the client had to refuse what the dashboard let through",
            run.refusals,
        ),
        ("not refused as expected", run.missing),
    ];
    assert!(
        problems.iter().all(|(_, p)| p.is_empty()),
        "{:#?}",
        problems
            .iter()
            .filter(|(_, p)| !p.is_empty())
            .collect::<Vec<_>>()
    );
}

/// The control: the same steps without read-only mode each make their
/// write, so the witness above would have seen any of them.
#[test]
fn without_read_only_the_same_keys_write() {
    let serve = Serve::start(&["--time-scale", "600"]);
    let run = drive(&serve, Mode::Control);
    assert!(!run.status_bar.contains("READ-ONLY"), "{}", run.status_bar);
    assert!(
        run.missing.is_empty(),
        "steps that did not write: {:#?}",
        run.missing
    );
    assert!(run.refusals.is_empty(), "{:?}", run.refusals);
}

/// The witness above: a write the client refuses leaves its line in the
/// log (method and path), which the dashboard's log file would hold.
#[test]
fn a_refusal_by_the_client_is_logged() {
    #[derive(Clone, Default)]
    struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if let Ok(mut b) = self.0.lock() {
                b.extend_from_slice(buf);
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sink = Sink::default();
    let writer = sink.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let key = outpost::testkit::api::ApiKey::parse(outpost::testkit::demo::DEMO_KEY).expect("key");
    let mut cfg = outpost::testkit::api::ClientConfig::new("http://127.0.0.1:9", key);
    cfg.read_only = true;
    let client = outpost::testkit::api::Client::new(cfg).expect("client");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let refused =
        tracing::subscriber::with_default(subscriber, || rt.block_on(client.redeem("DEMO-PASS-1")));
    assert!(
        matches!(
            refused,
            Err(outpost::testkit::api::ApiError::ReadOnly { .. })
        ),
        "{refused:?}"
    );
    let log = sink
        .0
        .lock()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    assert!(
        log.contains(CLIENT_REFUSAL)
            && log.contains("POST")
            && log.contains("/api/test-access/redeem"),
        "{log}"
    );
}
