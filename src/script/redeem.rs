//! `outpost redeem <code>`: redeems a discovery pass code.
//!
//! `redeem --json`:
//!
//! ```json
//! {"redeemed": true, "reason": null,
//!  "pass": {"status", "discovery_limit", "discovery_used", "remaining",
//!           "activated_at", "expires_at"} | null}
//! ```
//!
//! A code the service does not redeem (unknown, used, a pass already
//! active) is answered `redeemed: false` with the reason, and exits 1.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::exit::{Exit, Failure};
use super::output::{stdout_failure, write_json};
use crate::api::ApiRequest;
use crate::api::model::DiscoveryPass;
use crate::logic::write::{self, Settle};
use crate::text::{format, sanitize};

/// Why a lost redeem cannot be checked (the dashboard says the same).
const NO_READ: &str = "the contract has no read of a pass";

/// Flags of `outpost redeem`.
#[derive(Debug, Clone, Args)]
pub struct RedeemArgs {
    /// The code (1 to 100 characters).
    pub code: String,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `pass` of `redeem --json`.
#[derive(Debug, Serialize)]
struct PassJson<'a> {
    status: &'a str,
    discovery_limit: u64,
    discovery_used: u64,
    remaining: u64,
    activated_at: &'a str,
    expires_at: &'a str,
}

/// `redeem --json`.
#[derive(Debug, Serialize)]
struct RedeemJson<'a> {
    redeemed: bool,
    reason: Option<&'a str>,
    pass: Option<PassJson<'a>>,
}

/// `outpost redeem`.
pub(crate) async fn redeem(
    ctx: &Ctx,
    a: &RedeemArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let code = a.code.trim();
    if code.is_empty() || code.chars().count() > 100 {
        return Err(Failure::usage("a code is 1 to 100 characters"));
    }
    let sent = ctx
        .write::<DiscoveryPass>(ApiRequest::Redeem {
            code: code.to_owned(),
        })
        .await;
    let r = sent.answer.map_err(|e| {
        if write::of_error(&e) == write::Outcome::MayHaveReached {
            // The contract has no read of a pass: settled at once.
            ctx.verdict(
                sent.entry.as_deref(),
                &write::Verdict::NoCheck(NO_READ.into()),
            );
        }
        Failure::write("redeeming the code", &e, Settle::NoCheck)
    })?;
    let reason = r
        .eligibility
        .as_ref()
        .map(|e| e.reason.trim())
        .filter(|t| !t.is_empty());
    let pass = r.test_access.as_ref().map(|t| PassJson {
        status: &t.status,
        discovery_limit: t.discovery_limit,
        discovery_used: t.discovery_used,
        remaining: t.remaining,
        activated_at: &t.activated_at,
        expires_at: &t.expires_at,
    });
    let written = if a.json {
        write_json(
            out,
            &RedeemJson {
                redeemed: r.redeemed,
                reason: if r.redeemed { None } else { reason },
                pass,
            },
        )
    } else if r.redeemed {
        match &pass {
            Some(p) => writeln!(
                out,
                "redeemed: {} discoveries ({} left), {}, until {}",
                format::count(p.discovery_limit),
                format::count(p.remaining),
                sanitize::inline(p.status),
                format::date(p.expires_at)
            ),
            None => writeln!(out, "redeemed"),
        }
    } else {
        Ok(())
    };
    written.map_err(|e| stdout_failure(&e))?;
    if r.redeemed {
        Ok(Exit::Ok)
    } else {
        Err(Failure::new(
            Exit::Failed,
            format!(
                "not redeemed: {}",
                reason.unwrap_or("the service gave no reason")
            ),
        ))
    }
}
