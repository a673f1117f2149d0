//! The scripting commands beside the dashboard: `outpost searches`,
//! `search run`, `results`, `campaigns`, `campaign
//! show|launch|pause|resume`, `leads list|import`, `threads`, `thread
//! send|reply`, `domains`, `domain watch`, `redeem`, `journal` and
//! `completions`.
//!
//! They use the dashboard's client with all its rules (HTTPS, the 429
//! gates and back-off, a write never sent twice), its config, profiles and
//! read-only mode, and `--demo` (an in-process demo service). Every listing
//! prints a readable table, or with `--json` one JSON document whose shape
//! is defined here, field by field (never a dump of the client's types), so
//! it stays stable when those change. Errors go to stderr with the
//! service's code; the exit code says what happened ([`Exit`]). Service
//! text is made inert before it reaches the terminal ([`output`]).
//!
//! Every argument that names a campaign, a search or a thread takes its
//! id, a unique id prefix or its exact name (a read also a unique part of
//! a name): [`resolve`]. Reads are retried as the dashboard's are, and
//! every write goes the one write path ([`call`]): sent once, a lost
//! answer checked until its verdict; a write that cannot be taken back
//! asks first ([`confirm`]). Every write is recorded in the profile's
//! write journal by the operations table's `execute` ([`write`] sends
//! one and appends the verdict on a lost one); `journal` prints it.
//!
//! One file per command group: [`searches`] (searches, results), [`runs`]
//! (search run), [`campaigns`] (campaigns, campaign show), [`change`]
//! (campaign launch, pause, resume), [`leads`] (leads list), [`import`]
//! (leads import), [`threads`], [`send`] (thread send, reply),
//! [`domains`] (domains, domain watch), [`redeem`], [`journal`].

pub(crate) mod call;
pub(crate) mod campaigns;
pub(crate) mod change;
pub(crate) mod confirm;
pub(crate) mod domains;
pub(crate) mod exit;
pub(crate) mod import;
pub(crate) mod journal;
pub(crate) mod leads;
pub(crate) mod output;
pub(crate) mod preflight;
pub(crate) mod redeem;
pub(crate) mod resolve;
pub(crate) mod runs;
pub(crate) mod searches;
pub(crate) mod send;
pub(crate) mod threads;
pub(crate) mod write;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::api::{ApiKey, Client, ClientConfig};
use crate::cli::Cli;
use crate::config::{Config, Paths, PollIntervals};
use crate::demo::DemoHandle;
use crate::journal::Source as JournalSource;
pub(crate) use exit::{EXIT_CODES, Exit, Failure};
use output::stdout_failure;

/// The scripting subcommands (flattened into `outpost`'s own).
#[derive(Debug, Clone, Subcommand)]
pub enum ScriptCommand {
    /// List the Lead Finder searches.
    #[command(after_help = EXIT_CODES)]
    Searches(JsonFlag),
    /// One Lead Finder search: run it.
    #[command(subcommand)]
    Search(SearchCommand),
    /// Print a search's results (every page), filtered with --q and
    /// --where, as a table, a CSV file or JSON.
    #[command(after_help = EXIT_CODES)]
    Results(searches::ResultsArgs),
    /// List the campaigns with their counts.
    #[command(after_help = EXIT_CODES)]
    Campaigns(JsonFlag),
    /// One campaign: show it (`outpost campaign CAMPAIGN` shows it too),
    /// launch, pause or resume it.
    #[command(after_help = EXIT_CODES)]
    Campaign(campaigns::CampaignArgs),
    /// Campaign leads.
    #[command(subcommand)]
    Leads(LeadsCommand),
    /// List inbox threads, latest activity first.
    #[command(after_help = EXIT_CODES)]
    Threads(threads::ThreadsArgs),
    /// One inbox thread: send its draft, or reply in it.
    #[command(subcommand)]
    Thread(ThreadCommand),
    /// List the sending domains with their live status.
    #[command(after_help = EXIT_CODES)]
    Domains(domains::DomainsArgs),
    /// One sending domain.
    #[command(subcommand)]
    Domain(DomainCommand),
    /// Redeem a discovery pass code.
    #[command(after_help = EXIT_CODES)]
    Redeem(redeem::RedeemArgs),
    /// Print the write journal of the profile, newest first: every write
    /// the dashboard and the CLI sent, and how it came out.
    #[command(after_help = EXIT_CODES)]
    Journal(journal::JournalArgs),
    /// Print shell completions for bash, zsh, fish, elvish or powershell.
    Completions(CompletionsArgs),
}

/// `outpost search …`.
#[derive(Debug, Clone, Subcommand)]
pub enum SearchCommand {
    /// Run a search (or every eligible one with --all): prints the
    /// disposition and summary; --wait follows the run to its end.
    #[command(after_help = EXIT_CODES)]
    Run(runs::RunArgs),
}

/// `outpost thread …`.
#[derive(Debug, Clone, Subcommand)]
pub enum ThreadCommand {
    /// Send the thread's draft as the service keeps it; asks first (--yes
    /// off a terminal).
    #[command(after_help = EXIT_CODES)]
    Send(send::SendArgs),
    /// Reply to the thread's last inbound message with the text of a file
    /// ("Re: " + its subject); asks first (--yes off a terminal).
    #[command(after_help = EXIT_CODES)]
    Reply(send::ReplyArgs),
}

/// `outpost leads …`.
#[derive(Debug, Clone, Subcommand)]
pub enum LeadsCommand {
    /// List a campaign's leads (every page, or --limit N), as a table or
    /// JSON.
    #[command(after_help = EXIT_CODES)]
    List(leads::ListArgs),
    /// Import a CSV file into a draft campaign, in chunks of at most 1,000
    /// rows: a progress bar on a terminal, a JSON report otherwise.
    #[command(after_help = EXIT_CODES)]
    Import(import::ImportArgs),
}

/// `outpost domain …`.
#[derive(Debug, Clone, Subcommand)]
pub enum DomainCommand {
    /// Watch a domain's verification and print each status change; exit 0
    /// when it verifies, 1 when it fails, 2 on time-out.
    #[command(after_help = EXIT_CODES)]
    Watch(domains::WatchArgs),
}

/// `--json` of a listing.
#[derive(Debug, Clone, Args)]
pub struct JsonFlag {
    /// Print one JSON document (shapes documented in the README) instead
    /// of a table.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `outpost completions`.
#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// What every command works with: the client of the chosen workspace and
/// the configuration it came from.
pub(crate) struct Ctx {
    /// The client (read-only when so configured).
    pub client: Client,
    /// The loaded configuration.
    pub cfg: Config,
    /// The workspace's local state file.
    pub state_file: Option<PathBuf>,
    /// Running against the in-process demo service.
    pub demo: bool,
    /// Keeps the in-process demo service running.
    _demo: Option<DemoHandle>,
}

impl Ctx {
    /// The poll intervals for this service (loopback and demo allow
    /// shorter ones).
    pub(crate) fn poll(&self) -> PollIntervals {
        self.cfg
            .poll_intervals(self.client.is_loopback(), self.demo)
            .0
    }
}

/// Opens the workspace: the in-process demo service with `--demo`, else
/// the profile the config selects.
async fn open(cli: &Cli, paths: &Paths, cfg: Config) -> Result<Ctx, Failure> {
    let ws = if cli.demo {
        None
    } else {
        if let Err(e) = &cfg.key {
            return Err(Failure::new(Exit::Auth, e.to_string()));
        }
        Some(
            cfg.workspace(paths)
                .map_err(|e| Failure::usage(e.to_string()))?,
        )
    };
    let (client_cfg, handle) = match ws {
        Some(ws) => (ws.client, None),
        None => {
            let mut demo = crate::demo::DemoConfig::default();
            if let Some(x) = crate::cli::check_time_scale(cli.time_scale).map_err(Failure::usage)? {
                demo.time_scale = x;
            }
            demo.scale = cli.scale;
            let handle = crate::demo::spawn(([127, 0, 0, 1], 0).into(), demo)
                .await
                .map_err(|e| {
                    Failure::new(Exit::Failed, format!("cannot start the demo service: {e}"))
                })?;
            let key = ApiKey::parse(crate::demo::DEMO_KEY)
                .map_err(|e| Failure::new(Exit::Auth, e.to_string()))?;
            let mut c = ClientConfig::new(handle.base_url(), key);
            c.request_timeout = cfg.request_timeout;
            c.connect_timeout = cfg.connect_timeout;
            c.read_only = cfg.read_only;
            (c, Some(handle))
        }
    };
    let mut client = Client::new(client_cfg).map_err(|e| Failure::usage(e.to_string()))?;
    let profile = cfg.profile_name().map(str::to_owned);
    // The demo's writes reach no one: they are not journaled.
    if handle.is_none()
        && let Some(j) =
            crate::journal::Journal::for_profile(paths, profile.as_deref(), JournalSource::Cli)
    {
        client = client.with_journal(j);
    }
    Ok(Ctx {
        client,
        state_file: crate::config::profile::session_state_file(paths, profile.as_deref(), cli.demo),
        demo: cli.demo,
        cfg,
        _demo: handle,
    })
}

/// Runs a scripting command; `load` reads the configuration (not needed
/// by `completions`, so a broken config cannot stop it).
pub async fn run(
    cli: &Cli,
    cmd: &ScriptCommand,
    load: impl FnOnce() -> Result<(Paths, Config), String>,
) -> ExitCode {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match cmd {
        ScriptCommand::Completions(a) => {
            completions(a, &mut out);
            Ok(Exit::Ok)
        }
        _ => match load() {
            Err(e) => Err(Failure::usage(e)),
            Ok((paths, cfg)) => {
                for w in &cfg.warnings {
                    crate::errln!("outpost: warning: {}", crate::text::sanitize::inline(w));
                }
                match cmd {
                    // Local files only: no key, no service.
                    ScriptCommand::Journal(a) => journal::journal(&paths, &cfg, a, &mut out),
                    _ => match open(cli, &paths, cfg).await {
                        Ok(ctx) => {
                            let result = dispatch(&ctx, cmd, &mut out).await;
                            if let Some(why) = ctx.client.journal().and_then(|j| j.take_failure()) {
                                crate::errln!(
                                    "outpost: warning: {}",
                                    crate::text::sanitize::inline(&why)
                                );
                            }
                            result
                        }
                        Err(f) => Err(f),
                    },
                }
            }
        },
    };
    // What was printed before a failure is still delivered.
    let flushed = out.flush();
    let result = result.and_then(|code| flushed.map(|()| code).map_err(|e| stdout_failure(&e)));
    match result {
        Ok(code) => code.into(),
        Err(f) => {
            if !f.message.is_empty() {
                f.print();
            }
            f.exit.into()
        }
    }
}

async fn dispatch(ctx: &Ctx, cmd: &ScriptCommand, out: &mut impl Write) -> Result<Exit, Failure> {
    match cmd {
        ScriptCommand::Searches(a) => searches::searches(ctx, a.json, out).await,
        ScriptCommand::Results(a) => searches::results(ctx, a, out).await,
        ScriptCommand::Campaigns(a) => campaigns::campaigns(ctx, a.json, out).await,
        ScriptCommand::Search(SearchCommand::Run(a)) => runs::run(ctx, a, out).await,
        ScriptCommand::Campaign(a) => campaign(ctx, a, out).await,
        ScriptCommand::Leads(LeadsCommand::List(a)) => leads::list(ctx, a, out).await,
        ScriptCommand::Leads(LeadsCommand::Import(a)) => import::import(ctx, a, out).await,
        ScriptCommand::Threads(a) => threads::threads(ctx, a, out).await,
        ScriptCommand::Thread(ThreadCommand::Send(a)) => send::send(ctx, a, out).await,
        ScriptCommand::Thread(ThreadCommand::Reply(a)) => send::reply(ctx, a, out).await,
        ScriptCommand::Domains(a) => domains::domains(ctx, a, out).await,
        ScriptCommand::Domain(DomainCommand::Watch(a)) => domains::watch(ctx, a, out).await,
        ScriptCommand::Redeem(a) => redeem::redeem(ctx, a, out).await,
        ScriptCommand::Journal(_) => Err(Failure::usage("the journal is read without a service")),
        ScriptCommand::Completions(a) => {
            completions(a, out);
            Ok(Exit::Ok)
        }
    }
}

/// `outpost campaign …`: a campaign alone is `show`.
async fn campaign(
    ctx: &Ctx,
    a: &campaigns::CampaignArgs,
    out: &mut impl Write,
) -> Result<Exit, Failure> {
    use crate::logic::proof::Move;
    use campaigns::CampaignAction as A;
    match &a.action {
        Some(A::Show(s)) => campaigns::campaign(ctx, s, out).await,
        Some(A::Launch(c)) => change::change(ctx, Move::Launch, c, out).await,
        Some(A::Pause(c)) => change::change(ctx, Move::Pause, c, out).await,
        Some(A::Resume(c)) => change::change(ctx, Move::Resume, c, out).await,
        None => {
            let show = campaigns::ShowArgs {
                campaign: a.campaign.clone().unwrap_or_default(),
                json: a.json,
            };
            campaigns::campaign(ctx, &show, out).await
        }
    }
}

/// Prints the completion script of `shell`.
fn completions(a: &CompletionsArgs, out: &mut impl Write) {
    let mut cmd = crate::cli::command();
    clap_complete::generate(a.shell, &mut cmd, "outpost", out);
}

/// Parses the command line; a usage error exits 64 (2 belongs to `domain
/// watch`'s time-out), `--help` and `--version` 0.
pub fn parse_cli() -> Result<Cli, ExitCode> {
    crate::cli::parse_from(std::env::args_os()).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() {
            Exit::Usage.into()
        } else {
            Exit::Ok.into()
        }
    })
}
