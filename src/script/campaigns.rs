//! `outpost campaigns` and `outpost campaign [show] <campaign>` (the
//! changes, `campaign launch|pause|resume`, are [`super::change`]).
//!
//! `campaigns --json`:
//!
//! ```json
//! {"source": "service",
//!  "campaigns": [{"id", "name", "channel", "status", "stats": {…},
//!                 "created_at", "updated_at"}]}
//! ```
//!
//! `stats` is `{"total", "sent", "replied", "bounced", "completed",
//! "timed_out", "connection_sent", "connected", "message_sent",
//! "connections_accepted", "contacted"}` (the last two `null` when the
//! service did not send them). `source` is `local` when the service does
//! not list campaigns and the ids this profile has seen were read instead.
//!
//! `campaign show <campaign> --json` (also `campaign <campaign> --json`):
//!
//! ```json
//! {"campaign": {"id", "name", "channel", "status", "created_at",
//!   "updated_at",
//!   "settings": {"daily_limit", "stop_on_reply", "open_tracking",
//!                "signature", "skip_other_campaigns", "operating_hours"},
//!   "stats": {…},
//!   "sequence": [{"position", "type", "subject", "body"}],
//!   "senders": [{"id", "type", "name", "email_address", "status"}]}}
//! ```

use std::io::Write;

use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::Value;

use super::Ctx;
use super::exit::{Exit, Failure};
use super::output::{Col, Table, cut, stdout_failure, write_json};
use crate::api::ApiRequest;
use crate::api::model::{Campaign, CampaignStats};
use crate::logic::resolve::Use;
use crate::text::{format, sanitize};

/// `outpost campaign …`: `show`, `launch`, `pause`, `resume`, or a
/// campaign alone (as `show`, the command's first form).
#[derive(Debug, Clone, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct CampaignArgs {
    /// What to do with the campaign.
    #[command(subcommand)]
    pub action: Option<CampaignAction>,
    /// The campaign, to show: its id, a unique id prefix (4 characters or
    /// more), its exact name or a unique part of it.
    #[arg(required = true)]
    pub campaign: Option<String>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The subcommands of `outpost campaign`.
#[derive(Debug, Clone, Subcommand)]
pub enum CampaignAction {
    /// Show one campaign: settings, stats, sequence and senders.
    #[command(after_help = super::EXIT_CODES)]
    Show(ShowArgs),
    /// Launch a draft campaign: runs the launch preflight, then asks
    /// (--yes off a terminal).
    #[command(after_help = super::EXIT_CODES)]
    Launch(super::change::ChangeArgs),
    /// Pause an active campaign.
    #[command(after_help = super::EXIT_CODES)]
    Pause(super::change::ChangeArgs),
    /// Resume a paused campaign; asks first (--yes off a terminal).
    #[command(after_help = super::EXIT_CODES)]
    Resume(super::change::ChangeArgs),
}

/// Flags of `outpost campaign show`.
#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The campaign: its id, a unique id prefix (4 characters or more),
    /// its exact name or a unique part of it.
    pub campaign: String,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `stats` in the JSON shapes.
#[derive(Debug, Serialize)]
struct StatsJson {
    total: u64,
    sent: u64,
    replied: u64,
    bounced: u64,
    completed: u64,
    timed_out: u64,
    connection_sent: u64,
    connected: u64,
    message_sent: u64,
    connections_accepted: Option<u64>,
    contacted: Option<u64>,
}

impl From<&CampaignStats> for StatsJson {
    fn from(s: &CampaignStats) -> Self {
        StatsJson {
            total: s.total,
            sent: s.sent,
            replied: s.replied,
            bounced: s.bounced,
            completed: s.completed,
            timed_out: s.timed_out,
            connection_sent: s.connection_sent,
            connected: s.connected,
            message_sent: s.message_sent,
            connections_accepted: s.connections_accepted,
            contacted: s.contacted,
        }
    }
}

/// One campaign in `campaigns --json`.
#[derive(Debug, Serialize)]
struct CampaignRow<'a> {
    id: &'a str,
    name: &'a str,
    channel: &'a str,
    status: &'a str,
    stats: StatsJson,
    created_at: &'a str,
    updated_at: &'a str,
}

impl<'a> From<&'a Campaign> for CampaignRow<'a> {
    fn from(c: &'a Campaign) -> Self {
        CampaignRow {
            id: &c.id,
            name: &c.name,
            channel: c.kind.as_str(),
            status: c.status.as_str(),
            stats: StatsJson::from(&c.stats),
            created_at: &c.created_at,
            updated_at: &c.updated_at,
        }
    }
}

/// `campaigns --json`.
#[derive(Debug, Serialize)]
struct CampaignsJson<'a> {
    source: &'a str,
    campaigns: Vec<CampaignRow<'a>>,
}

/// `settings` of `campaign --json`.
#[derive(Debug, Serialize)]
struct SettingsJson<'a> {
    daily_limit: Option<u64>,
    stop_on_reply: Option<bool>,
    open_tracking: Option<bool>,
    signature: Option<&'a str>,
    skip_other_campaigns: Option<bool>,
    operating_hours: Option<&'a Value>,
}

/// A sequence step of `campaign --json`.
#[derive(Debug, Serialize)]
struct StepJson<'a> {
    position: u64,
    #[serde(rename = "type")]
    kind: &'a str,
    subject: &'a str,
    body: &'a str,
}

/// A sender of `campaign --json`.
#[derive(Debug, Serialize)]
struct SenderJson<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    name: &'a str,
    email_address: &'a str,
    status: &'a str,
}

/// The campaign of `campaign --json`.
#[derive(Debug, Serialize)]
struct DetailJson<'a> {
    id: &'a str,
    name: &'a str,
    channel: &'a str,
    status: &'a str,
    created_at: &'a str,
    updated_at: &'a str,
    settings: SettingsJson<'a>,
    stats: StatsJson,
    sequence: Vec<StepJson<'a>>,
    senders: Vec<SenderJson<'a>>,
}

/// `campaign --json`.
#[derive(Debug, Serialize)]
struct CampaignJson<'a> {
    campaign: DetailJson<'a>,
}

/// `outpost campaigns`.
pub(crate) async fn campaigns(
    ctx: &Ctx,
    json: bool,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let (list, source) = match ctx
        .read::<Option<Vec<Campaign>>>(ApiRequest::ListCampaigns)
        .await
    {
        Ok(Some(list)) => (list, "service"),
        Ok(None) => {
            crate::errln!(
                "outpost: note: the service does not list campaigns; showing the ids this workspace has seen"
            );
            let mut list = Vec::new();
            for k in super::searches::known_ids(ctx, false) {
                match ctx
                    .read::<Campaign>(ApiRequest::GetCampaign { id: k.id.clone() })
                    .await
                {
                    Ok(c) => list.push(c),
                    Err(e) if e.is_not_found() => {
                        crate::errln!("outpost: note: campaign {} is gone from the service", k.id);
                    }
                    Err(e) => return Err(Failure::api(&format!("reading campaign {}", k.id), &e)),
                }
            }
            (list, "local")
        }
        Err(e) => return Err(Failure::api("listing the campaigns", &e)),
    };
    let written = if json {
        write_json(
            out,
            &CampaignsJson {
                source,
                campaigns: list.iter().map(CampaignRow::from).collect(),
            },
        )
    } else {
        let mut t = Table::new(&[
            Col::left("ID", 0),
            Col::left("NAME", 32),
            Col::left("CHANNEL", 8),
            Col::left("STATUS", 10),
            Col::num("LEADS"),
            Col::num("CONTACTED"),
            Col::num("REPLIED"),
            Col::left("UPDATED", 16),
        ]);
        for c in &list {
            t.row(&[
                c.id.clone(),
                c.name.clone(),
                c.kind.to_string(),
                c.status.to_string(),
                format::count(c.stats.total),
                c.stats.contacted.map_or("—".into(), format::count),
                format::count(c.stats.replied),
                format::date(&c.updated_at),
            ]);
        }
        if t.is_empty() {
            writeln!(out, "no campaigns")
        } else {
            t.write(out)
        }
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}

/// `outpost campaign [show] <campaign>`.
pub(crate) async fn campaign(
    ctx: &Ctx,
    a: &ShowArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    let c = super::resolve::campaign(ctx, &a.campaign, Use::Read).await?;
    let steps = c.sequence_nodes.as_deref().unwrap_or_default();
    let senders = c.sender_accounts.as_deref().unwrap_or_default();
    let written = if a.json {
        write_json(
            out,
            &CampaignJson {
                campaign: DetailJson {
                    id: &c.id,
                    name: &c.name,
                    channel: c.kind.as_str(),
                    status: c.status.as_str(),
                    created_at: &c.created_at,
                    updated_at: &c.updated_at,
                    settings: SettingsJson {
                        daily_limit: c.daily_limit,
                        stop_on_reply: c.stop_on_reply,
                        open_tracking: c.open_tracking,
                        signature: c.signature.as_deref(),
                        skip_other_campaigns: c.skip_other_campaigns,
                        operating_hours: c.operating_hours.as_ref(),
                    },
                    stats: StatsJson::from(&c.stats),
                    sequence: steps
                        .iter()
                        .map(|n| StepJson {
                            position: n.position,
                            kind: n.kind.as_str(),
                            subject: &n.subject,
                            body: &n.body,
                        })
                        .collect(),
                    senders: senders
                        .iter()
                        .map(|s| SenderJson {
                            id: &s.id,
                            kind: s.kind.as_str(),
                            name: &s.display_name,
                            email_address: &s.email_address,
                            status: &s.status,
                        })
                        .collect(),
                },
            },
        )
    } else {
        detail_text(&c, out)
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(Exit::Ok)
}

fn yes_no(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "yes",
        Some(false) => "no",
        None => "—",
    }
}

/// The settings a campaign sets, on one line.
fn settings_line(c: &Campaign) -> String {
    let mut settings = Vec::new();
    if let Some(n) = c.daily_limit {
        settings.push(format!("daily limit {n}"));
    }
    if c.stop_on_reply.is_some() {
        settings.push(format!("stop on reply {}", yes_no(c.stop_on_reply)));
    }
    if c.open_tracking.is_some() {
        settings.push(format!("open tracking {}", yes_no(c.open_tracking)));
    }
    if c.skip_other_campaigns.is_some() {
        settings.push(format!(
            "skip leads of other campaigns {}",
            yes_no(c.skip_other_campaigns)
        ));
    }
    settings.join(" · ")
}

/// The counts that are not zero, on one line (the lead count always).
fn stats_line(st: &CampaignStats) -> String {
    let mut stats = vec![format!("leads {}", format::count(st.total))];
    if let Some(n) = st.contacted {
        stats.push(format!("contacted {}", format::count(n)));
    }
    for (label, n) in [
        ("sent", st.sent),
        ("connection sent", st.connection_sent),
        ("connected", st.connected),
        ("message sent", st.message_sent),
        ("replied", st.replied),
        ("bounced", st.bounced),
        ("completed", st.completed),
        ("timed out", st.timed_out),
    ] {
        if n > 0 {
            stats.push(format!("{label} {}", format::count(n)));
        }
    }
    stats.join(" · ")
}

/// The readable form of a campaign; every service text made inert.
fn detail_text(c: &Campaign, out: &mut impl Write) -> std::io::Result<()> {
    let s = |t: &str| sanitize::inline(t);
    writeln!(out, "Campaign  {} ({})", s(&c.name), s(c.kind.as_str()))?;
    writeln!(out, "ID        {}", s(&c.id))?;
    writeln!(out, "Status    {}", s(c.status.as_str()))?;
    writeln!(
        out,
        "Created   {}   Updated {}",
        format::date(&c.created_at),
        format::date(&c.updated_at)
    )?;
    let settings = settings_line(c);
    if !settings.is_empty() {
        writeln!(out, "Settings  {settings}")?;
    }
    let stats = stats_line(&c.stats);
    writeln!(out, "Stats     {stats}")?;
    let steps = c.sequence_nodes.as_deref().unwrap_or_default();
    if !steps.is_empty() {
        writeln!(out, "Sequence")?;
        for (i, n) in steps.iter().enumerate() {
            let mut line = format!("  {}. {}", i + 1, s(n.kind.as_str()));
            if !n.subject.trim().is_empty() {
                line.push_str(&format!("  \"{}\"", cut(&s(&n.subject), 50)));
            }
            if !n.body.trim().is_empty() {
                line.push_str(&format!("  {}", cut(&s(&n.body), 60)));
            }
            writeln!(out, "{line}")?;
        }
    }
    let senders = c.sender_accounts.as_deref().unwrap_or_default();
    if !senders.is_empty() {
        let mut t = Table::new(&[
            Col::left("  SENDER", 30),
            Col::left("ADDRESS", 40),
            Col::left("TYPE", 8),
            Col::left("STATUS", 14),
        ]);
        for x in senders {
            t.row(&[
                format!("  {}", x.display_name),
                x.email_address.clone(),
                x.kind.to_string(),
                x.status.clone(),
            ]);
        }
        t.write(out)?;
    }
    Ok(())
}
