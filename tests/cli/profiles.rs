//! Workspace profiles: `--profile` / `OUTPOST_PROFILE` pick the service,
//! the key and the local state of the CLI and the dashboard.

use crate::support::{Serve, cli, outpost, run, workspace_with};

/// A config whose default workspace is the demo's seeded one and whose
/// profile `other` holds the second workspace's key.
fn two_workspaces(serve: &Serve) -> tempfile::TempDir {
    workspace_with(
        serve,
        &format!(
            "\n[profiles.other]\napi_key = \"{}\"\n",
            outpost::testkit::demo::OTHER_KEY
        ),
    )
}

fn domain_names(r: &crate::support::Run) -> Vec<String> {
    r.json()["domains"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|d| d["domain"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_profile_picks_the_workspace_of_every_command() {
    let serve = Serve::start(&[]);
    let dir = two_workspaces(&serve);
    let d = dir.path();
    let default = domain_names(&cli(d, &["domains", "--json"]));
    assert_eq!(default.len(), 5, "{default:?}");
    let other = domain_names(&cli(d, &["--profile", "other", "domains", "--json"]));
    assert_eq!(other, ["other-demo.test"]);
    let after = domain_names(&cli(d, &["domains", "--json", "--profile", "other"]));
    assert_eq!(after, other, "--profile is global: after the command too");
    let env = run(outpost(d)
        .args(["domains", "--json"])
        .env("OUTPOST_PROFILE", "other"));
    assert_eq!(domain_names(&env), other, "OUTPOST_PROFILE picks it too");

    let unknown = cli(d, &["--profile", "acme", "domains"]);
    assert_eq!(unknown.code, 64);
    assert!(
        unknown
            .stderr
            .contains("--profile: no profile `acme`; defined: other (in "),
        "{}",
        unknown.stderr
    );
    let check = cli(d, &["check", "--profile", "other"]);
    assert_eq!(check.code, 0, "{}", check.stdout);
    assert!(
        check.stdout.contains("profile:  other  (from --profile)"),
        "{}",
        check.stdout
    );
    assert!(
        check.stdout.contains("API key:  pk_live_…ther"),
        "{}",
        check.stdout
    );
    let check = cli(d, &["check"]);
    assert!(
        check.stdout.contains("profile:  default"),
        "{}",
        check.stdout
    );
}

#[test]
fn a_profile_table_with_a_mistake_names_the_file_and_key() {
    let serve = Serve::start(&[]);
    let dir = workspace_with(&serve, "[profiles.other]\napi_key_envv = \"X\"\n");
    let r = cli(dir.path(), &["--profile", "other", "domains"]);
    assert_eq!(r.code, 64);
    assert!(
        r.stderr
            .contains("config.toml: profiles.other: unknown field `api_key_envv`"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_dashboard_opens_the_profile_and_keeps_its_state_apart() {
    let serve = Serve::start(&[]);
    let dir = two_workspaces(&serve);
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut pty = crate::pty::Pty::spawn(&["--profile", "other"], 100, 30, &config);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    let screen = pty
        .wait_for("other-demo.test")
        .expect("the other workspace's domain");
    assert!(!screen.contains("northwind-demo.io"), "{screen}");
    let bar = pty.status_bar();
    assert!(
        bar.split_whitespace().any(|w| w == "other"),
        "the status bar names the profile: {bar}"
    );
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
    let data = pty.data_dir().to_path_buf();
    assert!(
        data.join("profiles/other/state.json").exists(),
        "the profile's state is its own"
    );
    assert!(
        !data.join("state.json").exists(),
        "the default state is untouched"
    );

    // The default workspace, same directories: its own state file.
    let mut pty = pty.restart(&[], 100, 30, &[]);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("fail-dkim.northwind-demo.io")
        .expect("the seeded workspace");
    let bar = pty.status_bar();
    assert!(
        !bar.split_whitespace().any(|w| w == "other"),
        "no profile named: {bar}"
    );
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true));
    assert!(pty.data_dir().join("state.json").exists());
}

/// `:profile NAME` switches the open dashboard to another workspace: its
/// service's data, its name in the status bar, its own state file; the
/// text typed in the first one is kept in the first one's state.
#[test]
fn profile_switches_the_open_dashboard_live() {
    let serve = Serve::start(&[]);
    let dir = two_workspaces(&serve);
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut pty = crate::pty::Pty::spawn(&[], 120, 30, &config);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("fail-dkim.northwind-demo.io")
        .expect("the seeded workspace first");
    pty.send(b":profile other\r");
    // The list and the status bar's own line (a domain name holds "other"
    // too), looked for on one whole screen: a frame can arrive in parts.
    let screen = pty
        .wait_until("the other workspace, named on the status bar", |s| {
            s.contains("other-demo.test") && bar_words(s).contains(&"other")
        })
        .expect("the other workspace's domains after the switch");
    assert!(!screen.contains("northwind-demo.io"), "{screen}");
    pty.send(b":profile nowhere\r");
    let screen = pty
        .wait_for("no profile `nowhere`")
        .expect("an unknown profile is refused with the names defined");
    assert!(screen.contains("other-demo.test"), "still open: {screen}");
    // `:profile` alone: back to the default workspace, named so.
    pty.send(b":profile\r");
    pty.wait_until("the default workspace, named on the status bar", |s| {
        let words = bar_words(s);
        s.contains("fail-dkim.northwind-demo.io")
            && words.contains(&"default")
            && !words.contains(&"other")
    })
    .expect("the default workspace again, named so on the status bar");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
    assert!(
        pty.data_dir().join("profiles/other/state.json").exists(),
        "the switched-to profile keeps its own state"
    );
    assert!(
        pty.data_dir().join("state.json").exists(),
        "the first workspace's state was saved before the switch"
    );
}

/// The words of a screen's last line: the dashboard's status bar.
fn bar_words(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .collect()
}

/// Read-only belongs to a profile: switching to a read-only profile turns
/// writes off, and switching back to a normal one turns them on again
/// (the switch used to keep the old session's read-only for good).
#[test]
fn read_only_follows_the_profile_both_ways() {
    let serve = Serve::start(&[]);
    let dir = workspace_with(
        &serve,
        &format!(
            "\n[profiles.watcher]\napi_key = \"{}\"\nread_only = true\n",
            outpost::testkit::demo::OTHER_KEY
        ),
    );
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut pty = crate::pty::Pty::spawn(&[], 120, 30, &config);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("fail-dkim.northwind-demo.io")
        .expect("the seeded workspace first");
    assert!(
        !pty.status_bar().contains("READ-ONLY"),
        "writes on at start"
    );

    pty.send(b":profile watcher\r");
    pty.wait_until("the read-only profile, named on the status bar", |s| {
        let words = bar_words(s);
        s.contains("other-demo.test") && words.contains(&"watcher") && words.contains(&"READ-ONLY")
    })
    .expect("read-only after the switch");
    pty.send(b"a");
    pty.wait_for("Disabled")
        .expect("adding a domain is refused in the read-only profile");

    pty.send(b":profile\r");
    let screen = pty
        .wait_until("the default workspace, writes on again", |s| {
            let words = bar_words(s);
            s.contains("fail-dkim.northwind-demo.io")
                && words.contains(&"default")
                && !words.contains(&"READ-ONLY")
        })
        .expect("read-only off again after switching back");
    assert!(!screen.contains("(--read-only)"), "{screen}");
    pty.send(b"a");
    pty.wait_for("Add a sending domain")
        .expect("the add form opens: writes are allowed again");
    pty.send(b"\x1b");
    // Apart from the Esc: sent together they read as Alt-q.
    pty.wait_until("the form closed", |s| !s.contains("Add a sending domain"))
        .expect("Esc closes the form");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
}

/// `--read-only` on the command line holds for the whole session: a switch
/// to a profile that is not read-only stays read-only, and the status bar
/// names the flag.
#[test]
fn the_read_only_flag_holds_across_a_profile_switch() {
    let serve = Serve::start(&[]);
    let dir = two_workspaces(&serve);
    let config = std::fs::read_to_string(dir.path().join("config.toml")).unwrap_or_default();
    let mut pty = crate::pty::Pty::spawn(&["--read-only"], 120, 30, &config);
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("fail-dkim.northwind-demo.io")
        .expect("the seeded workspace first");
    pty.wait_until("the flag named on the status bar", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("READ-ONLY (--read-only)"))
    })
    .expect("the status bar names --read-only");
    pty.send(b":profile other\r");
    pty.wait_until("the other workspace, still read-only by the flag", |s| {
        s.contains("other-demo.test")
            && bar_words(s).contains(&"other")
            && s.lines()
                .last()
                .is_some_and(|l| l.contains("READ-ONLY (--read-only)"))
    })
    .expect("still read-only after the switch");
    pty.send(b"a");
    pty.wait_for("Disabled")
        .expect("adding a domain is refused: the flag holds");
    // The refusal is the dashboard's own: it opened no form, so typing a
    // name and Enter sends nothing either.
    pty.type_text("ro.example.com\r");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
    let writes: Vec<String> = serve
        .requests()
        .iter()
        .filter(|r| !r.is_read())
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert!(
        writes.is_empty(),
        "no write reached the service: {writes:?}"
    );
}
