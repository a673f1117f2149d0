//! `outpost campaign launch|pause|resume <campaign>`: a campaign's status
//! changed, through the one write path ([`super::call`]).
//!
//! The campaign is named as every command names one (id, unique id prefix
//! or exact name — never a part of a name, for a change). A change that
//! does not start from the campaign's status (launch a campaign that is not
//! a draft, pause one that is not active, resume one that is not paused) is
//! refused before it is sent (exit 9). Launch first runs the launch
//! preflight ([`preflight`]): an error blocks it (exit 8), a warning needs
//! a second yes (`--yes` answers it; never an error). Launch and resume
//! ask first (`--yes` off a terminal); pause goes at once.
//!
//! `--json` (also when blocked or lost):
//!
//! ```json
//! {"action": "launch", "campaign_id", "name", "status",
//!  "outcome": "done" | "may_have_reached" | "blocked",
//!  "check": null | {"lost", "verdict", "text"},
//!  "preflight": null | {"ran", "errors": [{"group", "text"}],
//!                       "warnings": [{"group", "text"}]}}
//! ```
//!
//! `status` is the campaign's status after the change (as answered, or as
//! the check read it), else as it was.

use std::io::IsTerminal;

use clap::Args;
use serde::Serialize;

use super::Ctx;
use super::call::{self, CheckJson, Proof, Record, Sent, Write};
use super::confirm::{self, Question};
use super::exit::{Exit, Failure};
use super::output::{stdout_failure, write_json};
use crate::api::model::{Campaign, CampaignStatus};
use crate::api::{ApiError, ApiRequest};
use crate::logic::preflight::{Location, Report};
use crate::logic::proof::Move;
use crate::logic::resolve::Use;
use crate::text::{format, sanitize};

/// Flags of `outpost campaign launch|pause|resume`.
#[derive(Debug, Clone, Args)]
pub struct ChangeArgs {
    /// The campaign: its id, a unique id prefix (4 characters or more) or
    /// its exact name.
    pub campaign: String,
    /// Answer yes to the question (needed off a terminal for launch and
    /// resume, and to do again a change whose answer was lost); for
    /// launch also to the preflight's warnings (never its errors).
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
}

/// One finding of the launch preflight: its group (`sequence`, `leads`,
/// `senders`, `settings`) and what it says.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Finding {
    /// Its group: `sequence`, `leads`, `senders` or `settings`.
    pub group: String,
    /// What is wrong.
    pub text: String,
}

/// What the launch preflight found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Findings {
    /// Whether a preflight ran (always, for a launch).
    pub ran: bool,
    /// What blocks the launch.
    pub errors: Vec<Finding>,
    /// What needs a second yes.
    pub warnings: Vec<Finding>,
}

/// The group of a finding's place: `sequence`, `leads`, `senders` or
/// `settings`.
fn group(at: &Location) -> &'static str {
    match at {
        Location::Step { .. } | Location::Sequence | Location::Message(_) => "sequence",
        Location::Lead(_) | Location::Roster => "leads",
        Location::Senders | Location::Sender(_) => "senders",
        Location::Setting(_) => "settings",
    }
}

impl Findings {
    /// The findings of a preflight's report; pending leads it did not
    /// check (a roster that stopped paging) are a warning of their own.
    fn of(r: &Report) -> Findings {
        let finding = |f: &crate::logic::preflight::Finding| Finding {
            group: group(&f.location).to_owned(),
            text: f.text.clone(),
        };
        let mut warnings: Vec<Finding> = r.warnings.iter().map(finding).collect();
        if r.not_checked() > 0 {
            warnings.push(Finding {
                group: "leads".into(),
                text: format!(
                    "{} not checked",
                    format::plural(r.not_checked(), "pending lead", "pending leads")
                ),
            });
        }
        Findings {
            ran: true,
            errors: r.errors.iter().map(finding).collect(),
            warnings,
        }
    }
}

/// The launch preflight of `c` (`logic::preflight`, its pending roster
/// walked page by page; the count on stderr while it goes, on a
/// terminal).
async fn preflight(ctx: &Ctx, c: &Campaign) -> Result<Findings, Failure> {
    let shown = std::io::stderr().is_terminal();
    let report = super::preflight::run(ctx, c, |checked, total| {
        if shown {
            let of = total.map_or_else(String::new, |t| format!(" of {}", format::count(t)));
            crate::stdio::err_text(format_args!(
                "\routpost: checking the pending leads: {}{of}",
                format::count(checked)
            ));
        }
    })
    .await;
    if shown {
        crate::stdio::err_text(format_args!("\n"));
    }
    Ok(Findings::of(&report?))
}

/// The document of `--json`.
#[derive(Debug, Serialize)]
struct ChangeJson<'a> {
    action: &'a str,
    campaign_id: &'a str,
    name: &'a str,
    status: &'a str,
    outcome: &'a str,
    check: Option<CheckJson>,
    preflight: Option<&'a Findings>,
}

/// The status a change starts from, and the words of its refusal.
fn starts_from(mv: Move) -> (CampaignStatus, &'static str) {
    match mv {
        Move::Launch => (CampaignStatus::Draft, "only a draft can be launched"),
        Move::Pause => (
            CampaignStatus::Active,
            "only an active campaign can be paused",
        ),
        Move::Resume => (
            CampaignStatus::Paused,
            "only a paused campaign can be resumed",
        ),
    }
}

/// The question before a change (launch and resume always ask).
fn question(mv: Move, c: &Campaign) -> Question {
    let what = format!(
        "campaign \"{}\" ({}, {} leads)",
        c.name,
        c.kind,
        format::count(c.stats.total)
    );
    match mv {
        Move::Launch => Question {
            ask: format!("Launch {what}?"),
            lines: vec![
                "Sending starts to the campaign's pending leads; a sent message cannot be taken back.".into(),
            ],
            always: true,
        },
        Move::Resume => Question {
            ask: format!("Resume {what}?"),
            lines: vec!["Sending starts again where it stopped.".into()],
            always: true,
        },
        Move::Pause => Question {
            ask: format!("Pause {what}?"),
            lines: Vec::new(),
            always: false,
        },
    }
}

/// A refusal of the service: a 409 is a conflict (9), any other error its
/// own code.
fn refusal(doing: &str, e: &ApiError) -> Failure {
    let mut f = Failure::api(doing, e);
    if e.status() == Some(409) {
        f.exit = Exit::Conflict;
    }
    f
}

/// `outpost campaign launch|pause|resume`.
pub(crate) async fn change(
    ctx: &Ctx,
    mv: Move,
    a: &ChangeArgs,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let c = super::resolve::campaign(ctx, &a.campaign, Use::Write).await?;
    let doing = format!("{}ing campaign \"{}\" ({})", verb_ing(mv), c.name, c.id);
    if ctx.client.read_only() {
        return Err(Failure::new(
            Exit::ReadOnly,
            format!(
                "{doing}: read-only mode lets nothing through that could change the service; nothing was sent"
            ),
        ));
    }
    let (from, only) = starts_from(mv);
    if c.status != from {
        return Err(Failure::new(
            Exit::Conflict,
            format!(
                "campaign \"{}\" is {}: {only}; nothing was sent",
                sanitize::inline(&c.name),
                c.status
            ),
        ));
    }
    let findings = if mv == Move::Launch {
        Some(checked_launch(ctx, &c, a.json, out).await?)
    } else {
        None
    };
    let record = Record::cli(mv.verb(), &c.id);
    confirm::ask(ctx, &question(mv, &c), &record.key, a.yes).await?;
    if let Some(f) = &findings {
        confirm_warnings(f, a.yes).await?;
    }
    let w = Write {
        req: request(mv, &c.id),
        doing: doing.clone(),
        record,
    };
    let mut proof = Proof::Campaign {
        id: c.id.clone(),
        mv,
        status: None,
    };
    let sent = call::send::<Campaign>(ctx, &w, &mut proof)
        .await
        .map_err(|e| refusal(&doing, &e))?;
    report(mv, &c, &sent, &proof, findings.as_ref(), a.json, out)
}

/// Runs the launch preflight: its findings, or the launch blocked by its
/// errors (said, grouped, on stderr; with `--json` the document too).
async fn checked_launch(
    ctx: &Ctx,
    c: &Campaign,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<Findings, Failure> {
    let f = preflight(ctx, c).await?;
    if f.errors.is_empty() {
        return Ok(f);
    }
    say_findings("errors block the launch", &f.errors);
    if json {
        let d = doc(
            Move::Launch,
            c,
            c.status.as_str(),
            "blocked",
            None,
            Some(&f),
        );
        write_json(out, &d).map_err(|e| stdout_failure(&e))?;
    }
    Err(Failure::new(
        Exit::Blocked,
        format!(
            "the launch preflight found {} (nothing was sent)",
            plural(f.errors.len(), "error")
        ),
    ))
}

/// The second question, for the preflight's warnings (`--yes` answers it).
async fn confirm_warnings(f: &Findings, yes: bool) -> Result<(), Failure> {
    if f.warnings.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = f
        .warnings
        .iter()
        .map(|w| format!("  {}: {}", w.group, w.text))
        .collect();
    let ask = format!(
        "The preflight warns of {}: launch all the same?",
        plural(f.warnings.len(), "thing")
    );
    confirm::ask_again(&ask, &lines, yes).await
}

/// The operation of a change.
fn request(mv: Move, id: &str) -> ApiRequest {
    let id = id.to_owned();
    match mv {
        Move::Launch => ApiRequest::LaunchCampaign { id },
        Move::Pause => ApiRequest::PauseCampaign { id },
        Move::Resume => ApiRequest::ResumeCampaign { id },
    }
}

fn verb_ing(mv: Move) -> &'static str {
    match mv {
        Move::Launch => "launch",
        Move::Pause => "paus",
        Move::Resume => "resum",
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Says the preflight's findings on stderr, grouped.
fn say_findings(head: &str, findings: &[Finding]) {
    crate::errln!("outpost: {head}:");
    let mut groups: Vec<&str> = findings.iter().map(|f| f.group.as_str()).collect();
    groups.dedup();
    for g in groups {
        crate::errln!("  {}", sanitize::inline(g));
        for f in findings.iter().filter(|f| f.group == g) {
            crate::errln!("    {}", sanitize::inline(&f.text));
        }
    }
}

fn doc<'a>(
    mv: Move,
    c: &'a Campaign,
    status: &'a str,
    outcome: &'a str,
    check: Option<CheckJson>,
    preflight: Option<&'a Findings>,
) -> ChangeJson<'a> {
    ChangeJson {
        action: mv.verb(),
        campaign_id: &c.id,
        name: &c.name,
        status,
        outcome,
        check,
        preflight,
    }
}

/// Prints what the change came to; the exit code.
fn report(
    mv: Move,
    c: &Campaign,
    sent: &Sent<Campaign>,
    proof: &Proof,
    findings: Option<&Findings>,
    json: bool,
    out: &mut impl std::io::Write,
) -> Result<Exit, Failure> {
    let checked = match proof {
        Proof::Campaign { status, .. } => status.clone(),
        _ => None,
    };
    let (status, outcome, check, exit) = match sent {
        Sent::Done(now) => (now.status.as_str().to_owned(), "done", None, Exit::Ok),
        Sent::Lost(lost) if lost.found() => (
            checked.unwrap_or_else(|| c.status.as_str().to_owned()),
            "done",
            Some(lost.json()),
            Exit::Ok,
        ),
        Sent::Lost(lost) => (
            checked.unwrap_or_else(|| c.status.as_str().to_owned()),
            "may_have_reached",
            Some(lost.json()),
            Exit::MayHaveReached,
        ),
    };
    let written = if json {
        write_json(out, &doc(mv, c, &status, outcome, check, findings))
    } else if exit == Exit::Ok {
        writeln!(
            out,
            "{}: \"{}\" is {}",
            past(mv),
            sanitize::inline(&c.name),
            sanitize::inline(&status)
        )
    } else {
        Ok(())
    };
    written.map_err(|e| stdout_failure(&e))?;
    Ok(exit)
}

fn past(mv: Move) -> &'static str {
    match mv {
        Move::Launch => "launched",
        Move::Pause => "paused",
        Move::Resume => "resumed",
    }
}
