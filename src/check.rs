//! `outpost check`: where the config came from, the base URL, the masked
//! key, the HTTPS verdict, the proxy the client would use, where the trust
//! roots come from, and the latency and outcome of `GET /api/context`.

use std::io::Write;
use std::time::Instant;

use reqwest::Url;

use crate::api::{ApiKey, Client, ClientConfig, client::check_base_url, proxy};
use crate::config::Config;

/// Runs the check, writing a report to `out`; returns whether all passed.
pub async fn run(cfg: &Config, out: &mut impl Write) -> bool {
    let _ = writeln!(out, "config:   {}", cfg.layers.join(" < "));
    for w in &cfg.warnings {
        let _ = writeln!(out, "warning:  {w}");
    }
    let _ = match &cfg.profile {
        Some((name, origin)) => writeln!(out, "profile:  {name}  (from {origin})"),
        None => writeln!(out, "profile:  default"),
    };
    if cfg.read_only {
        let _ = writeln!(out, "mode:     read-only (only reads are sent)");
    }
    let base = report_base_url(cfg, out);
    let key = report_key(cfg, out);
    let Some(base) = base else {
        return false;
    };
    let Some(url) = report_https(&base, out) else {
        return false;
    };
    if !report_proxy(&url, out) {
        return false;
    }
    if url.scheme() == "https" {
        let _ = writeln!(out, "CA roots: {}", crate::api::tls::roots_line());
    }
    let Some(key) = key else {
        return false;
    };
    let mut client_cfg = ClientConfig::new(base, key);
    client_cfg.request_timeout = cfg.request_timeout;
    client_cfg.connect_timeout = cfg.connect_timeout;
    client_cfg.read_only = cfg.read_only;
    // One attempt: `check` reports what happened, it does not wait out
    // retries.
    client_cfg.retry.max_attempts = 1;
    let client = match Client::new(client_cfg) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(out, "client:   FAIL {e}");
            return false;
        }
    };
    report_live_call(&client, out).await
}

/// The base URL line; the URL when one is configured.
fn report_base_url(cfg: &Config, out: &mut impl Write) -> Option<String> {
    if let Some((url, origin)) = &cfg.base_url {
        let _ = writeln!(out, "base URL: {url}  (from {origin})");
        Some(url.clone())
    } else {
        let _ = writeln!(
            out,
            "base URL: FAIL none configured: set OUTPOST_BASE_URL, `base_url` in the config file, or --base-url"
        );
        None
    }
}

/// The API key line (masked); the key when one is configured.
fn report_key(cfg: &Config, out: &mut impl Write) -> Option<ApiKey> {
    match &cfg.key {
        Ok((key, origin)) => {
            let _ = writeln!(out, "API key:  {}  (from {origin})", key.masked());
            Some(key.clone())
        }
        Err(e) => {
            let _ = writeln!(out, "API key:  FAIL {e}");
            None
        }
    }
}

/// The HTTPS verdict line; the parsed base URL when it passes the HTTPS rule.
fn report_https(base: &str, out: &mut impl Write) -> Option<Url> {
    match check_base_url(base) {
        Ok(url) if url.scheme() == "https" => {
            let _ = writeln!(out, "HTTPS:    ok");
            Some(url)
        }
        Ok(url) => {
            let _ = writeln!(
                out,
                "HTTPS:    ok (plain http is allowed to the loopback host {})",
                url.host_str().unwrap_or("?")
            );
            Some(url)
        }
        Err(e) => {
            let _ = writeln!(out, "HTTPS:    FAIL {e}");
            None
        }
    }
}

/// The proxy line: which proxy the client would use, from which variable,
/// or why none; whether the route is allowed.
fn report_proxy(base: &Url, out: &mut impl Write) -> bool {
    match proxy::route(base, |name| std::env::var(name).ok()) {
        Ok(route) => {
            let _ = writeln!(out, "proxy:    {}", route.describe());
            true
        }
        Err(e) => {
            let _ = writeln!(out, "proxy:    FAIL {e}");
            false
        }
    }
}

/// Times one `GET /api/context` and reports it; whether it succeeded.
async fn report_live_call(client: &Client, out: &mut impl Write) -> bool {
    let started = Instant::now();
    let result = client.get_context().await;
    let ms = started.elapsed().as_millis();
    match result {
        Ok(_) => {
            let _ = writeln!(out, "GET /api/context: ok in {ms} ms");
            true
        }
        Err(e) => {
            let hint = if e.is_unauthorized() {
                " — the key was refused (revoked or mistyped?); generate a new one in the dashboard under Settings → API"
            } else {
                ""
            };
            let _ = writeln!(out, "GET /api/context: FAIL after {ms} ms: {e}{hint}");
            false
        }
    }
}
