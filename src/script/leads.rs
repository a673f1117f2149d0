//! `outpost leads list <campaign> [--status S] [--limit N]`: a campaign's
//! roster, page by page (200 a page), in the service's order.
//!
//! `leads list --json`:
//!
//! ```json
//! {"campaign_id", "name", "status": "pending" | null, "total": 0,
//!  "leads": [{"id", "status", "email", "network_url", "first_name",
//!             "last_name", "name", "company", "position", "headline",
//!             "custom_fields": {}, "created_at", "updated_at",
//!             "replied_at", "bounced_at"}],
//!  "complete": true}
//! ```
//!
//! `total` is how many leads the service holds (of `--status`, when
//! given); `complete` is false when `--limit` left some out.

use std::io::Write;

use clap::Args;
use serde::Serialize;
use serde_json::{Map, Value};

use super::Ctx;
use super::exit::{Exit, Failure};
use super::output::{Col, Table, stdout_failure, write_json};
use crate::api::ApiRequest;
use crate::api::model::{CampaignLead, RosterPage, RosterQuery};
use crate::logic::resolve::Use;
use crate::text::format;

/// Leads per page asked for (the contract's most).
const PAGE: u64 = 200;

/// The lead statuses of the contract.
const STATUSES: [&str; 10] = [
    "pending",
    "sent",
    "connection_sent",
    "connected",
    "message_sent",
    "replied",
    "bounced",
    "completed",
    "timed_out",
    "cancelled",
];

/// Flags of `outpost leads list`.
#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    /// The campaign: its id, a unique id prefix, its exact name or a
    /// unique part of it.
    pub campaign: String,
    /// Only leads of this status.
    #[arg(long, value_name = "STATUS", value_parser = STATUSES)]
    pub status: Option<String>,
    /// At most N leads.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print one JSON document instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One lead of `leads list --json`.
#[derive(Debug, Serialize)]
struct LeadJson<'a> {
    id: &'a str,
    status: &'a str,
    email: &'a str,
    network_url: &'a str,
    first_name: &'a str,
    last_name: &'a str,
    name: &'a str,
    company: &'a str,
    position: &'a str,
    headline: &'a str,
    custom_fields: &'a Map<String, Value>,
    created_at: &'a str,
    updated_at: &'a str,
    replied_at: Option<&'a str>,
    bounced_at: Option<&'a str>,
}

impl<'a> From<&'a CampaignLead> for LeadJson<'a> {
    fn from(l: &'a CampaignLead) -> Self {
        LeadJson {
            id: &l.id,
            status: l.status.as_str(),
            email: &l.email,
            network_url: &l.network_url,
            first_name: &l.first_name,
            last_name: &l.last_name,
            name: &l.name,
            company: &l.company,
            position: &l.position,
            headline: &l.headline,
            custom_fields: &l.custom_fields,
            created_at: &l.created_at,
            updated_at: &l.updated_at,
            replied_at: l.replied_at.as_deref(),
            bounced_at: l.bounced_at.as_deref(),
        }
    }
}

/// `leads list --json`.
#[derive(Debug, Serialize)]
struct ListJson<'a> {
    campaign_id: &'a str,
    name: &'a str,
    status: Option<&'a str>,
    total: u64,
    leads: Vec<LeadJson<'a>>,
    complete: bool,
}

/// A lead's name as shown: its full name, else first and last.
fn lead_name(l: &CampaignLead) -> String {
    if l.name.trim().is_empty() {
        format!("{} {}", l.first_name.trim(), l.last_name.trim())
            .trim()
            .to_owned()
    } else {
        l.name.trim().to_owned()
    }
}

/// Reads the roster page by page: at most `limit` leads (of `status`),
/// and how many the service holds.
async fn roster(
    ctx: &Ctx,
    id: &str,
    status: Option<&str>,
    limit: Option<u64>,
) -> Result<(Vec<CampaignLead>, u64), Failure> {
    let limit = limit.unwrap_or(u64::MAX);
    let mut leads: Vec<CampaignLead> = Vec::new();
    let mut total = 0;
    let mut page = 1;
    while (leads.len() as u64) < limit {
        let query = RosterQuery {
            page: Some(page),
            limit: Some(PAGE),
            status: status.map(str::to_owned),
        };
        let p: RosterPage = ctx
            .read(ApiRequest::ListLeads {
                id: id.to_owned(),
                query,
            })
            .await
            .map_err(|e| Failure::api("reading the roster", &e))?;
        total = p.total;
        let n = p.prospects.len() as u64;
        let room = usize::try_from(limit.saturating_sub(leads.len() as u64)).unwrap_or(usize::MAX);
        leads.extend(p.prospects.into_iter().take(room));
        // A short page is the last; so is one that reaches the total.
        if n < PAGE || (leads.len() as u64) >= total {
            break;
        }
        page += 1;
    }
    Ok((leads, total))
}

/// `outpost leads list`.
pub(crate) async fn list(ctx: &Ctx, a: &ListArgs, out: &mut impl Write) -> Result<Exit, Failure> {
    let c = super::resolve::campaign(ctx, &a.campaign, Use::Read).await?;
    let (leads, total) = roster(ctx, &c.id, a.status.as_deref(), a.limit).await?;
    let complete = (leads.len() as u64) >= total;
    let written = if a.json {
        write_json(
            out,
            &ListJson {
                campaign_id: &c.id,
                name: &c.name,
                status: a.status.as_deref(),
                total,
                leads: leads.iter().map(LeadJson::from).collect(),
                complete,
            },
        )
    } else {
        let mut t = Table::new(&[
            Col::left("ID", 0),
            Col::left("STATUS", 15),
            Col::left("EMAIL / PROFILE", 40),
            Col::left("NAME", 24),
            Col::left("COMPANY", 24),
            Col::left("POSITION", 28),
            Col::left("UPDATED", 16),
        ]);
        for l in &leads {
            let who = if l.email.is_empty() {
                l.network_url.clone()
            } else {
                l.email.clone()
            };
            t.row(&[
                l.id.clone(),
                l.status.to_string(),
                who,
                lead_name(l),
                l.company.clone(),
                l.position.clone(),
                format::date(&l.updated_at),
            ]);
        }
        if t.is_empty() {
            writeln!(out, "no leads")
        } else {
            if !complete {
                crate::errln!(
                    "outpost: note: {} of {} leads shown",
                    format::count(leads.len() as u64),
                    format::count(total)
                );
            }
            t.write(out)
        }
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}
