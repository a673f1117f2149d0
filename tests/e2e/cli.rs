//! The command line: `outpost check`, `--help`, `--version`, bad config.

use std::process::Command;

fn outpost(dir: &std::path::Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_outpost"));
    c.env("OUTPOST_CONFIG_DIR", dir)
        .env("OUTPOST_DATA_DIR", dir)
        .env_remove("OUTPOST_BASE_URL")
        .env_remove("OUTPOST_API_KEY");
    c
}

fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    drop(l);
    port
}

#[test]
fn check_against_a_closed_port_fails_clearly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = outpost(dir.path())
        .arg("check")
        .env(
            "OUTPOST_BASE_URL",
            format!("http://127.0.0.1:{}", closed_port()),
        )
        .env("OUTPOST_API_KEY", "pk_live_abcdefgh12345678")
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("GET /api/context: FAIL"), "{text}");
    assert!(text.contains("cannot reach 127.0.0.1"), "{text}");
    assert!(text.contains("pk_live_…5678"), "masked key shown: {text}");
    assert!(!text.contains("abcdefgh"), "the key never appears: {text}");
}

#[test]
fn check_says_when_the_key_lacks_the_prefix() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = outpost(dir.path())
        .arg("check")
        .env("OUTPOST_BASE_URL", "https://api.example.com")
        .env("OUTPOST_API_KEY", "sk_test_123456")
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(text.contains("must start with `pk_live_`"), "{text}");
    assert!(!text.contains("sk_test_123456"), "{text}");
}

#[test]
fn check_refuses_plain_http_to_a_remote_host() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = outpost(dir.path())
        .arg("check")
        .env("OUTPOST_BASE_URL", "http://example.com")
        .env("OUTPOST_API_KEY", "pk_live_abcdefgh12345678")
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(text.contains("HTTPS:    FAIL"), "{text}");
    assert!(
        !text.contains("GET /api/context"),
        "no call is made: {text}"
    );
}

#[test]
fn check_passes_against_the_demo_service() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let handle = rt
        .block_on(outpost::testkit::demo::spawn(
            "127.0.0.1:0".parse().expect("addr"),
            Default::default(),
        ))
        .expect("demo");
    let out = outpost(dir.path())
        .arg("check")
        .env("OUTPOST_BASE_URL", handle.base_url())
        .env("OUTPOST_API_KEY", outpost::testkit::demo::DEMO_KEY)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("HTTPS:    ok (plain http is allowed to the loopback host 127.0.0.1)"),
        "{text}"
    );
    assert!(text.contains("GET /api/context: ok"), "{text}");
    assert!(text.contains("from env OUTPOST_BASE_URL"), "{text}");
}

#[test]
fn a_bad_config_names_the_file_and_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("config.toml"), "[poll]\ndomain_sec = 30\n").expect("write");
    let out = outpost(dir.path()).arg("check").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(text.contains("config.toml"), "{text}");
    assert!(text.contains("domain_sec"), "{text}");
    assert!(
        text.contains("domain_secs"),
        "the allowed key is named: {text}"
    );
}

#[test]
fn the_key_is_never_a_flag_value() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = outpost(dir.path())
        .args(["--key", "pk_live_x"])
        .output()
        .expect("run");
    assert!(!out.status.success());
    let help = outpost(dir.path()).arg("--help").output().expect("run");
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("--key-stdin"), "{text}");
    assert!(text.contains("--demo"), "{text}");
    let version = outpost(dir.path()).arg("--version").output().expect("run");
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("outpost "));
}

#[test]
fn key_stdin_is_read() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = outpost(dir.path())
        .args(["check", "--key-stdin", "--base-url", "http://example.com"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"pk_live_fromstdin12345678\n");
    }
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("pk_live_…5678  (from --key-stdin)"), "{text}");
}

#[test]
fn the_dashboard_refuses_to_run_without_a_terminal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = outpost(dir.path()).arg("--demo").output().expect("run");
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("needs a terminal"), "{text}");
}
