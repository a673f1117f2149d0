//! The scripting commands beside the dashboard: `outpost searches`,
//! `results`, `campaigns`, `campaign`, `leads import`, `threads`,
//! `domains`, `domain watch`, `redeem` and `completions`.
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
//! One file per command group: [`searches`] (searches, results),
//! [`campaigns`], [`import`] (leads import), [`threads`], [`domains`]
//! (domains, domain watch), [`redeem`].

pub mod campaigns;
pub mod domains;
pub mod exit;
pub mod import;
pub mod output;
pub mod redeem;
pub mod searches;
pub mod threads;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::api::{ApiKey, Client, ClientConfig};
use crate::cli::Cli;
use crate::config::{Config, Paths, PollIntervals};
use crate::demo::DemoHandle;
pub use exit::{EXIT_CODES, Exit, Failure};
use output::stdout_failure;

/// The scripting subcommands (flattened into `outpost`'s own).
#[derive(Debug, Clone, Subcommand)]
pub enum ScriptCommand {
    /// List the Lead Finder searches.
    #[command(after_help = EXIT_CODES)]
    Searches(JsonFlag),
    /// Print a search's results (every page), filtered with --q and
    /// --where, as a table, a CSV file or JSON.
    #[command(after_help = EXIT_CODES)]
    Results(searches::ResultsArgs),
    /// List the campaigns with their counts.
    #[command(after_help = EXIT_CODES)]
    Campaigns(JsonFlag),
    /// Show one campaign: settings, stats, sequence and senders.
    #[command(after_help = EXIT_CODES)]
    Campaign(campaigns::CampaignArgs),
    /// Campaign leads.
    #[command(subcommand)]
    Leads(LeadsCommand),
    /// List inbox threads, latest activity first.
    #[command(after_help = EXIT_CODES)]
    Threads(threads::ThreadsArgs),
    /// List the sending domains with their live status.
    #[command(after_help = EXIT_CODES)]
    Domains(domains::DomainsArgs),
    /// One sending domain.
    #[command(subcommand)]
    Domain(DomainCommand),
    /// Redeem a discovery pass code.
    #[command(after_help = EXIT_CODES)]
    Redeem(redeem::RedeemArgs),
    /// Print shell completions for bash, zsh, fish, elvish or powershell.
    Completions(CompletionsArgs),
}

/// `outpost leads …`.
#[derive(Debug, Clone, Subcommand)]
pub enum LeadsCommand {
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
pub struct Ctx {
    /// The client (read-only when so configured).
    pub client: Client,
    /// The loaded configuration.
    pub cfg: Config,
    /// The profile in use.
    pub profile: Option<String>,
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
    pub fn poll(&self) -> PollIntervals {
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
    let client = Client::new(client_cfg).map_err(|e| Failure::usage(e.to_string()))?;
    let profile = cfg.profile_name().map(str::to_owned);
    Ok(Ctx {
        client,
        state_file: crate::config::profile::state_file(paths, profile.as_deref()),
        profile,
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
                match open(cli, &paths, cfg).await {
                    Ok(ctx) => dispatch(&ctx, cmd, &mut out).await,
                    Err(f) => Err(f),
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
        ScriptCommand::Campaign(a) => campaigns::campaign(ctx, a, out).await,
        ScriptCommand::Leads(LeadsCommand::Import(a)) => import::import(ctx, a, out).await,
        ScriptCommand::Threads(a) => threads::threads(ctx, a, out).await,
        ScriptCommand::Domains(a) => domains::domains(ctx, a, out).await,
        ScriptCommand::Domain(DomainCommand::Watch(a)) => domains::watch(ctx, a, out).await,
        ScriptCommand::Redeem(a) => redeem::redeem(ctx, a, out).await,
        ScriptCommand::Completions(a) => {
            completions(a, out);
            Ok(Exit::Ok)
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
