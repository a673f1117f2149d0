//! `outpost check`: where the config came from, the base URL, the masked
//! key, the HTTPS verdict, and the latency and outcome of `GET /api/context`.

use std::io::Write;
use std::time::Instant;

use crate::api::{Client, ClientConfig, client::check_base_url};
use crate::config::Config;

/// Where the config came from, its warnings, the profile and the mode.
fn config_lines(cfg: &Config, out: &mut impl Write) {
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
}

/// Runs the check, writing a report to `out`; returns whether all passed.
pub async fn run(cfg: &Config, out: &mut impl Write) -> bool {
    let mut ok = true;
    config_lines(cfg, out);
    let base = match &cfg.base_url {
        Some((url, origin)) => {
            let _ = writeln!(out, "base URL: {url}  (from {origin})");
            Some(url.clone())
        }
        None => {
            let _ = writeln!(
                out,
                "base URL: FAIL none configured: set OUTPOST_BASE_URL, `base_url` in the config file, or --base-url"
            );
            ok = false;
            None
        }
    };
    let key = match &cfg.key {
        Ok((key, origin)) => {
            let _ = writeln!(out, "API key:  {}  (from {origin})", key.masked());
            Some(key.clone())
        }
        Err(e) => {
            let _ = writeln!(out, "API key:  FAIL {e}");
            ok = false;
            None
        }
    };
    let Some(base) = base else {
        return false;
    };
    match check_base_url(&base) {
        Ok(url) if url.scheme() == "https" => {
            let _ = writeln!(out, "HTTPS:    ok");
        }
        Ok(url) => {
            let _ = writeln!(
                out,
                "HTTPS:    ok (plain http is allowed to the loopback host {})",
                url.host_str().unwrap_or("?")
            );
        }
        Err(e) => {
            let _ = writeln!(out, "HTTPS:    FAIL {e}");
            return false;
        }
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
    let started = Instant::now();
    let result = client.get_context().await;
    let ms = started.elapsed().as_millis();
    match result {
        Ok(_) => {
            let _ = writeln!(out, "GET /api/context: ok in {ms} ms");
        }
        Err(e) => {
            let hint = if e.is_unauthorized() {
                " — the key was refused (revoked or mistyped?); generate a new one in the dashboard under Settings → API"
            } else {
                ""
            };
            let _ = writeln!(out, "GET /api/context: FAIL after {ms} ms: {e}{hint}");
            ok = false;
        }
    }
    ok
}
