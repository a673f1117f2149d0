//! `outpost domains` and `outpost domain watch <id|name>`.
//!
//! `domains --json`:
//!
//! ```json
//! {"domains": [{"id", "domain", "status", "verified_at", "created_at",
//!               "updated_at",
//!               "dns_records": [{"type", "name", "value", "priority"}]}]}
//! ```
//!
//! `domain watch` reads the live status with `poll=true` (a read: it
//! triggers nothing, so it runs in read-only mode) every `--interval`
//! seconds — 30 to 60 against a remote service, as the contract
//! recommends; shorter only against a loopback one — and prints a line at
//! each change: `TIME  DOMAIN  STATUS`, or with `--json` one JSON object
//! per line, `{"at", "id", "domain", "status", "verified_at"}` (`at` is
//! the wall-clock time of the read, UTC). It exits 0 when the domain
//! verifies, 1 when it fails, 2 when `--timeout` passes first.
//! `--trigger` starts a verification first (a write, sent once).
//! A rate limit or a lost connection is waited out until the time-out.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::exit::{Exit, Failure, describe};
use super::output::{self, Col, Table, stdout_failure, write_json, write_json_line};
use crate::api::model::{DomainStatus, SendingDomain};
use crate::api::{ApiError, ApiRequest};
use crate::logic::resolve::{
    Item, Refused, Resolved, Use, looks_like_full_id, resolve as resolve_id,
};
use crate::logic::write::Settle;
use crate::text::{format, sanitize};

/// Flags of `outpost domains`.
#[derive(Debug, Clone, Args)]
pub struct DomainsArgs {
    /// The status the service last stored, without the live refresh
    /// (`skip_sync=true`).
    #[arg(long)]
    pub cached: bool,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `outpost domain watch`.
#[derive(Debug, Clone, Args)]
pub struct WatchArgs {
    /// The domain: its id, a unique id prefix, or its name (e.g.
    /// mail.example.com; without --trigger also a unique part of it).
    pub domain: String,
    /// Give up after SECS seconds (exit 2).
    #[arg(long, value_name = "SECS", default_value_t = 3600.0)]
    pub timeout: f64,
    /// Seconds between reads: 30 to 60 against a remote service (the
    /// contract's guidance), any against a loopback one. Default: the
    /// config's poll.domain_secs, else 45 (3 with --demo).
    #[arg(long, value_name = "SECS")]
    pub interval: Option<f64>,
    /// Trigger a verification first (a write, sent once; refused in
    /// read-only mode).
    #[arg(long)]
    pub trigger: bool,
    /// Print each change as one JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// A DNS record in `domains --json`.
#[derive(Debug, Serialize)]
struct RecordJson<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    name: &'a str,
    value: &'a str,
    priority: u64,
}

/// One domain in `domains --json`.
#[derive(Debug, Serialize)]
struct DomainJson<'a> {
    id: &'a str,
    domain: &'a str,
    status: &'a str,
    verified_at: Option<&'a str>,
    created_at: &'a str,
    updated_at: &'a str,
    dns_records: Vec<RecordJson<'a>>,
}

impl<'a> From<&'a SendingDomain> for DomainJson<'a> {
    fn from(d: &'a SendingDomain) -> Self {
        DomainJson {
            id: &d.id,
            domain: &d.domain,
            status: d.status.as_str(),
            verified_at: d.verified_at.as_deref(),
            created_at: &d.created_at,
            updated_at: &d.updated_at,
            dns_records: d
                .dns_records
                .iter()
                .map(|r| RecordJson {
                    kind: &r.kind,
                    name: &r.name,
                    value: &r.value,
                    priority: r.priority,
                })
                .collect(),
        }
    }
}

/// `domains --json`.
#[derive(Debug, Serialize)]
struct DomainsJson<'a> {
    domains: Vec<DomainJson<'a>>,
}

/// A status change of `domain watch --json`.
#[derive(Debug, Serialize)]
struct ChangeJson<'a> {
    at: String,
    id: &'a str,
    domain: &'a str,
    status: &'a str,
    verified_at: Option<&'a str>,
}

/// `outpost domains`.
pub(crate) async fn domains(
    ctx: &Ctx,
    a: &DomainsArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let list: Vec<SendingDomain> = ctx
        .read(ApiRequest::ListDomains {
            skip_sync: a.cached,
        })
        .await
        .map_err(|e| Failure::api("listing the domains", &e))?;
    let written = if a.json {
        write_json(
            out,
            &DomainsJson {
                domains: list.iter().map(DomainJson::from).collect(),
            },
        )
    } else {
        let mut t = Table::new(&[
            Col::left("ID", 0),
            Col::left("DOMAIN", 40),
            Col::left("STATUS", 10),
            Col::left("VERIFIED", 16),
            Col::num("RECORDS"),
            Col::left("CREATED", 16),
        ]);
        for d in &list {
            t.row(&[
                d.id.clone(),
                d.domain.clone(),
                d.status.to_string(),
                d.verified_at.as_deref().map_or("—".into(), format::date),
                d.dns_records.len().to_string(),
                format::date(&d.created_at),
            ]);
        }
        if t.is_empty() {
            writeln!(out, "no domains")
        } else {
            t.write(out)
        }
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}

/// Checks `--timeout` and `--interval` against the contract's guidance.
fn timing(ctx: &Ctx, a: &WatchArgs) -> Result<(Duration, Duration), Failure> {
    let ok = |v: f64| v.is_finite() && v > 0.0 && v <= 86_400.0;
    if !ok(a.timeout) {
        return Err(Failure::usage(format!(
            "--timeout {}: allowed more than 0 and at most 86400 seconds",
            a.timeout
        )));
    }
    let interval = match a.interval {
        None => ctx.poll().domain,
        Some(v) if !ok(v) || v > 3600.0 => {
            return Err(Failure::usage(format!(
                "--interval {v}: allowed more than 0 and at most 3600 seconds"
            )));
        }
        Some(v) if !ctx.client.is_loopback() && !(30.0..=60.0).contains(&v) => {
            return Err(Failure::usage(format!(
                "--interval {v}: allowed 30 to 60 seconds against {} (the contract's guidance); shorter only against a loopback service",
                ctx.client.host()
            )));
        }
        Some(v) => Duration::from_secs_f64(v),
    };
    Ok((Duration::from_secs_f64(a.timeout), interval))
}

/// The id of a domain given by id, a unique id prefix or its name (a
/// name's case does not matter) — or, for a watch alone, a unique part of
/// its name; `--trigger` is a change, which never takes a part.
async fn resolve(ctx: &Ctx, arg: &str, use_: Use) -> Result<String, Failure> {
    let arg = arg.trim();
    if looks_like_full_id(arg) {
        return Ok(arg.to_owned());
    }
    let list: Vec<SendingDomain> = ctx
        .read(ApiRequest::ListDomains { skip_sync: true })
        .await
        .map_err(|e| Failure::api("listing the domains", &e))?;
    let items: Vec<Item> = list
        .iter()
        .map(|d| Item {
            id: d.id.clone(),
            // Host names are compared without regard to case.
            names: vec![d.domain.clone(), d.domain.to_ascii_lowercase()],
        })
        .collect();
    let lower = if arg.contains('.') {
        arg.to_ascii_lowercase()
    } else {
        arg.to_owned()
    };
    match resolve_id(&lower, &items, use_) {
        Ok(Resolved::Found { id, .. } | Resolved::ReadFirst(id)) => Ok(id),
        Err(Refused::Unknown) => Err(Failure::new(
            Exit::Failed,
            format!("not_found: no sending domain named {arg} in this workspace"),
        )),
        Err(r) => Err(Failure::usage(r.text(arg, "sending domain"))),
    }
}

/// `outpost domain watch`.
pub(crate) async fn watch(ctx: &Ctx, a: &WatchArgs, out: &mut impl Write) -> Result<Exit, Failure> {
    let (timeout, interval) = timing(ctx, a)?;
    let deadline = Instant::now() + timeout;
    let use_ = if a.trigger { Use::Write } else { Use::Read };
    let id = resolve(ctx, &a.domain, use_).await?;
    let mut last: Option<DomainStatus> = None;
    let mut noted_pending = false;
    let mut trigger = a.trigger;
    loop {
        let read = if trigger {
            // A write: through the one write path (and its journal).
            let req = ApiRequest::VerifyDomain {
                id: id.clone(),
                poll: false,
            };
            ctx.write::<SendingDomain>(req).await.answer
        } else {
            ctx.client.verify_domain(&id, true).await
        };
        if trigger {
            // Sent once, whatever came back: a lost answer is not retried.
            trigger = false;
            if let Err(e) = &read {
                return Err(Failure::write(
                    &format!("triggering verification of {id}"),
                    e,
                    Settle::SafeToRepeat,
                ));
            }
        }
        let wait = match read {
            Ok(d) => {
                if last.as_ref() != Some(&d.status) {
                    print_change(out, &d, a.json)?;
                    last = Some(d.status.clone());
                }
                match d.status {
                    DomainStatus::Verified => return Ok(Exit::Ok),
                    DomainStatus::Failed => {
                        return Err(Failure::new(
                            Exit::Failed,
                            format!("{} failed verification", sanitize::inline(&d.domain)),
                        ));
                    }
                    DomainStatus::Pending if !noted_pending => {
                        noted_pending = true;
                        crate::errln!(
                            "outpost: note: {} is pending: its verification was never triggered (--trigger starts it)",
                            sanitize::inline(&d.domain)
                        );
                    }
                    _ => {}
                }
                interval
            }
            Err(e) if waitable(&e) => {
                crate::errln!(
                    "outpost: note: {}; trying again",
                    sanitize::inline(&describe(&e))
                );
                match e {
                    ApiError::RateLimited { wait, .. } => wait.max(interval),
                    _ => interval,
                }
            }
            Err(e) => return Err(Failure::api(&format!("reading domain {id}"), &e)),
        };
        let now = Instant::now();
        if now >= deadline {
            let status = last.as_ref().map_or("unknown", DomainStatus::as_str);
            return Err(Failure::new(
                Exit::TimedOut,
                format!(
                    "timed out after {}: the domain is still {status}",
                    format::duration(timeout)
                ),
            ));
        }
        tokio::time::sleep(wait.min(deadline - now)).await;
    }
}

/// Errors a long watch waits out: a rate limit, a lost connection, a 5xx.
fn waitable(e: &ApiError) -> bool {
    e.retryable() && !matches!(e, ApiError::Service(s) if s.status == 401)
}

fn print_change(out: &mut impl Write, d: &SendingDomain, json: bool) -> Result<(), Failure> {
    let written = if json {
        write_json_line(
            out,
            &ChangeJson {
                at: output::now_text(),
                id: &d.id,
                domain: &d.domain,
                status: d.status.as_str(),
                verified_at: d.verified_at.as_deref(),
            },
        )
    } else {
        writeln!(
            out,
            "{}  {}  {}",
            output::now_text(),
            sanitize::inline(&d.domain),
            sanitize::inline(d.status.as_str())
        )
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| stdout_failure(&e))
}
