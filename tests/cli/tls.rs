//! TLS end to end, the real service's only path: `outpost serve
//! --tls-cert/--tls-key` with certificates made here (rcgen), and the CLI
//! and the dashboard trusting the test CA through `SSL_CERT_FILE` or
//! `SSL_CERT_DIR` — or not, with an expired certificate, or one for another
//! name, each failing with a message that says what it means and what to do.

use std::path::{Path, PathBuf};

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};

use crate::support::*;

/// A test CA, the PEM files made with it, and the other CA nobody uses.
struct Pki {
    dir: tempfile::TempDir,
    ca: CertifiedIssuer<'static, KeyPair>,
}

impl Pki {
    fn new() -> Pki {
        let dir = tempfile::tempdir().expect("tempdir");
        let ca = Pki::make_ca("Outpost test CA");
        std::fs::write(dir.path().join("ca.pem"), ca.pem()).expect("write");
        let other = Pki::make_ca("Some other CA");
        std::fs::write(dir.path().join("other-ca.pem"), other.pem()).expect("write");
        // A directory holding the test CA alone, for SSL_CERT_DIR.
        std::fs::create_dir(dir.path().join("cas")).expect("mkdir");
        std::fs::write(dir.path().join("cas/test-ca.pem"), ca.pem()).expect("write");
        Pki { dir, ca }
    }

    fn make_ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("params");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        CertifiedIssuer::self_signed(params, KeyPair::generate().expect("key")).expect("CA")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A leaf certificate for `names` signed by the test CA, written as
    /// `NAME.pem` and `NAME.key`; `expired` puts its validity in 2020.
    fn leaf(&self, file: &str, names: &[&str], expired: bool) -> (PathBuf, PathBuf) {
        let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let mut params = CertificateParams::new(names).expect("params");
        params
            .distinguished_name
            .push(DnType::CommonName, "outpost test service");
        if expired {
            params.not_before = time::macros::datetime!(2020-01-01 0:00 UTC);
            params.not_after = time::macros::datetime!(2020-06-01 0:00 UTC);
        }
        let key = KeyPair::generate().expect("key");
        let cert = params.signed_by(&key, &self.ca).expect("signed");
        let (cert_path, key_path) = (
            self.path(&format!("{file}.pem")),
            self.path(&format!("{file}.key")),
        );
        std::fs::write(&cert_path, cert.pem()).expect("write");
        std::fs::write(&key_path, key.serialize_pem()).expect("write");
        (cert_path, key_path)
    }

    /// `outpost serve` over TLS with a leaf for `names`.
    fn serve(&self, file: &str, names: &[&str], expired: bool) -> Serve {
        let (cert, key) = self.leaf(file, names, expired);
        let serve = Serve::start(&[
            "--tls-cert",
            cert.to_str().expect("utf-8"),
            "--tls-key",
            key.to_str().expect("utf-8"),
        ]);
        assert!(serve.url.starts_with("https://127.0.0.1:"), "{}", serve.url);
        serve
    }
}

/// `outpost ARGS` against `base` with the demo key, trusting what `trust`
/// (`SSL_CERT_FILE` or `SSL_CERT_DIR`) names.
fn against(base: &str, trust: (&str, &Path), args: &[&str]) -> Run {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = outpost(dir.path());
    for var in [
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        c.env_remove(var);
    }
    run(c
        .env("OUTPOST_BASE_URL", base)
        .env("OUTPOST_API_KEY", outpost::testkit::demo::DEMO_KEY)
        .env(trust.0, trust.1)
        .args(args))
}

#[test]
fn a_trusted_certificate_works_for_the_cli_by_address_and_by_name() {
    let pki = Pki::new();
    let serve = pki.serve("good", &["localhost", "127.0.0.1"], false);
    let by_name = serve.url.replace("127.0.0.1", "localhost");
    for base in [serve.url.as_str(), by_name.as_str()] {
        for trust in [
            ("SSL_CERT_FILE", pki.path("ca.pem")),
            ("SSL_CERT_DIR", pki.path("cas")),
        ] {
            let listed = against(base, (trust.0, &trust.1), &["campaigns", "--json"]);
            assert_eq!(listed.code, 0, "{base} {trust:?}: {listed:?}");
            assert!(listed.json()["campaigns"].is_array(), "{listed:?}");
            let check = against(base, (trust.0, &trust.1), &["check"]);
            assert_eq!(check.code, 0, "{base} {trust:?}: {check:?}");
            assert!(check.stdout.contains("HTTPS:    ok\n"), "{}", check.stdout);
            assert!(
                check.stdout.contains(&format!(
                    "CA roots: {}={} (instead of the system's CA store)",
                    trust.0,
                    trust.1.display()
                )),
                "{}",
                check.stdout
            );
            assert!(
                check.stdout.contains("GET /api/context: ok"),
                "{}",
                check.stdout
            );
        }
    }
    assert!(
        serve.requests().iter().any(|r| r.path == "/api/campaigns"),
        "the requests went over TLS to the service"
    );
}

/// Asserts a failed run explains itself on its channel (stderr for a
/// command, stdout for check) with each of `parts`, and that nothing was
/// served.
#[track_caller]
fn fails_saying(run: &Run, on_stdout: bool, parts: &[&str]) {
    assert_ne!(run.code, 0, "{run:?}");
    let text = if on_stdout { &run.stdout } else { &run.stderr };
    for part in parts {
        assert!(text.contains(part), "`{part}` missing from: {text}");
    }
}

#[test]
fn an_untrusted_certificate_says_what_it_means_and_names_ssl_cert_file() {
    let pki = Pki::new();
    let serve = pki.serve("good", &["localhost", "127.0.0.1"], false);
    let other = pki.path("other-ca.pem");
    let listed = against(&serve.url, ("SSL_CERT_FILE", &other), &["campaigns"]);
    let check = against(&serve.url, ("SSL_CERT_FILE", &other), &["check"]);
    let set = format!("SSL_CERT_FILE={} is set", other.display());
    for (run, on_stdout) in [(&listed, false), (&check, true)] {
        fails_saying(
            run,
            on_stdout,
            &[
                "signed by an authority this machine does not trust",
                "UnknownIssuer",
                &set,
                "outpost check",
            ],
        );
    }
    assert_eq!(listed.code, 5, "unreachable: {listed:?}");
    assert!(
        check.stdout.contains("GET /api/context: FAIL"),
        "{}",
        check.stdout
    );
    assert!(
        serve.requests().is_empty(),
        "nothing was served: {:?}",
        serve.requests()
    );
    // One handshake each: a refused certificate is not retried. The check
    // ran after the listing had exited, so once its handshake is logged,
    // the listing's are too.
    let handshakes = || {
        serve
            .log_lines()
            .iter()
            .filter(|l| l.contains("TLS handshake with"))
            .count()
    };
    let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while handshakes() < 2 && std::time::Instant::now() < end {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(handshakes(), 2, "{:?}", serve.log_lines());

    // A bundle that holds no certificate at all is named as such.
    let empty = pki.path("empty.pem");
    std::fs::write(&empty, "").expect("write");
    let listed = against(&serve.url, ("SSL_CERT_FILE", &empty), &["campaigns"]);
    fails_saying(
        &listed,
        false,
        &[&format!(
            "no CA certificate could be read from SSL_CERT_FILE={}",
            empty.display()
        )],
    );
}

#[test]
fn an_expired_certificate_says_when_it_expired() {
    let pki = Pki::new();
    let serve = pki.serve("expired", &["localhost", "127.0.0.1"], true);
    let ca = pki.path("ca.pem");
    for (args, on_stdout) in [(&["campaigns"][..], false), (&["check"], true)] {
        let run = against(&serve.url, ("SSL_CERT_FILE", &ca), args);
        fails_saying(
            &run,
            on_stdout,
            &[
                "TLS certificate expired on 2020-06-01 00:00 UTC",
                "if the clock is right",
            ],
        );
    }
    assert!(serve.requests().is_empty());
}

#[test]
fn a_certificate_for_another_name_says_which_names_it_holds() {
    let pki = Pki::new();
    let serve = pki.serve("other-name", &["other.example"], false);
    let ca = pki.path("ca.pem");
    for (args, on_stdout) in [(&["campaigns"][..], false), (&["check"], true)] {
        let run = against(&serve.url, ("SSL_CERT_FILE", &ca), args);
        fails_saying(
            &run,
            on_stdout,
            &[
                "not valid for 127.0.0.1 (it names other.example)",
                "host name in the base URL",
            ],
        );
    }
    assert!(serve.requests().is_empty());
}

/// The dashboard at 200×50 against `serve`, trusting `ca`.
fn dashboard(serve: &Serve, ca: &Path) -> crate::pty::Pty {
    let config = format!(
        "base_url = \"{}\"\napi_key = \"{}\"\n",
        serve.url,
        outpost::testkit::demo::DEMO_KEY
    );
    crate::pty::Pty::spawn_env(
        &[],
        200,
        50,
        &config,
        &[("SSL_CERT_FILE", ca.to_str().expect("utf-8"))],
    )
}

#[test]
fn the_dashboard_works_over_tls_and_explains_an_untrusted_certificate() {
    let pki = Pki::new();
    let serve = pki.serve("good", &["localhost", "127.0.0.1"], false);

    let mut pty = dashboard(&serve, &pki.path("ca.pem"));
    pty.wait_for("Outpost").expect("the dashboard starts");
    pty.send(b"4");
    pty.wait_for("fail-dkim.northwind-demo.io")
        .expect("the seeded domains, over TLS");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");

    let mut pty = dashboard(&serve, &pki.path("other-ca.pem"));
    pty.wait_for("Outpost").expect("the dashboard starts");
    let screen = pty
        .wait_for("does not trust")
        .expect("the dashboard says the certificate is not trusted");
    assert!(screen.contains("SSL_CERT_FILE"), "{screen}");
    pty.send(b"q");
    assert_eq!(pty.wait_exit(), Some(true), "q quits");
}

#[test]
fn serve_names_a_certificate_or_key_it_cannot_use() {
    let pki = Pki::new();
    let (cert, key) = pki.leaf("good", &["localhost"], false);
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = pki.path("missing.pem");
    for (c, k, says) in [
        (
            &missing,
            &key,
            format!("cannot read the certificate {}", missing.display()),
        ),
        (
            &cert,
            &missing,
            format!("cannot read the private key {}", missing.display()),
        ),
        (
            &key,
            &key,
            format!(
                "no PEM certificate (-----BEGIN CERTIFICATE-----) in {}",
                key.display()
            ),
        ),
    ] {
        let r = run(outpost(dir.path())
            .args(["serve", "--addr", "127.0.0.1:0", "--tls-cert"])
            .arg(c)
            .arg("--tls-key")
            .arg(k));
        assert_eq!(r.code, 64, "{r:?}");
        assert!(r.stderr.contains(&says), "`{says}` missing: {}", r.stderr);
    }
    let half = run(outpost(dir.path()).args(["serve", "--tls-cert"]).arg(&cert));
    assert_eq!(half.code, 64, "--tls-cert needs --tls-key: {half:?}");
}
