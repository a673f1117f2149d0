//! The command line (clap): `outpost`, `outpost --demo`, `outpost serve`,
//! `outpost check`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::demo::{ChaosConfig, DemoConfig};

/// A terminal dashboard for the outreach and lead-finding service.
#[derive(Debug, Parser)]
#[command(name = "outpost", version, about, long_about = None, after_help = crate::script::EXIT_CODES)]
pub struct Cli {
    /// Run against the embedded demo service, in-process (no key, no
    /// network): the dashboard, or a scripting command.
    #[arg(long)]
    pub demo: bool,

    /// Read configuration from this file too (after the platform config file).
    #[arg(long, value_name = "PATH", global = true)]
    pub config: Option<PathBuf>,

    /// Base URL of the service (overrides config and OUTPOST_BASE_URL).
    #[arg(long, value_name = "URL", global = true)]
    pub base_url: Option<String>,

    /// Read the API key from standard input (keys are never taken as flag
    /// values: they would sit in shell history and `ps`).
    #[arg(long, global = true)]
    pub key_stdin: bool,

    /// Use the workspace profile NAME (a `[profiles.NAME]` table of the
    /// config; also OUTPOST_PROFILE). Its local state is kept apart.
    #[arg(long, value_name = "NAME", global = true)]
    pub profile: Option<String>,

    /// Send only reads: the client refuses anything that could change the
    /// service (also `read_only = true` in the config).
    #[arg(long, global = true)]
    pub read_only: bool,

    /// With --demo: simulated seconds per real second.
    #[arg(long, value_name = "X", requires = "demo")]
    pub time_scale: Option<f64>,

    /// With --demo: put N results in one search (performance work).
    #[arg(long, value_name = "N", requires = "demo")]
    pub scale: Option<usize>,

    /// The subcommand; none starts the dashboard.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the demo service alone, for other clients and tests.
    Serve(ServeArgs),
    /// Check config, key format, the HTTPS rule and one live call, then exit.
    Check,
    /// The scripting commands (`outpost searches`, `outpost leads import`, …).
    #[command(flatten)]
    Script(crate::script::ScriptCommand),
}

/// Flags of `outpost serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,
    /// Simulated seconds per real second.
    #[arg(long, value_name = "X")]
    pub time_scale: Option<f64>,
    /// Put N results in one search (performance work).
    #[arg(long, value_name = "N")]
    pub scale: Option<usize>,
    /// Requests per second allowed per key and route (0: unlimited).
    #[arg(long, value_name = "N")]
    pub rate_limit: Option<u32>,
    /// Seed of every chaos decision (reproducible runs).
    #[arg(long, default_value_t = 0)]
    pub chaos_seed: u64,
    /// Latency added to every request, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub chaos_latency_ms: u64,
    /// Add the latency only to these HTTP methods (comma-separated, e.g.
    /// `POST`): reads stay fast while writes outlast a client's timeout.
    #[arg(long, value_name = "METHODS", value_delimiter = ',')]
    pub chaos_latency_methods: Vec<String>,
    /// Share of requests answered 500 internal_error (0 to 1).
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    pub chaos_error_rate: f64,
    /// Share of requests answered 429 rate_limited (0 to 1).
    #[arg(long = "chaos-429-rate", default_value_t = 0.0, value_parser = rate)]
    pub chaos_429_rate: f64,
    /// Share of requests answered with truncated or invalid JSON (0 to 1).
    #[arg(long, default_value_t = 0.0, value_parser = rate)]
    pub chaos_malformed_rate: f64,
    /// Run the handler, then lose its answer: `METHOD:PATH-PATTERN[:502|504|reset]`
    /// (`*` is one path segment; 502 when not given). Repeatable.
    #[arg(long, value_name = "RULE", value_parser = crate::demo::chaos::LostAnswer::parse)]
    pub chaos_lost_answer: Vec<crate::demo::chaos::LostAnswer>,
}

fn rate(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside 0 to 1"))
    }
}

/// Checks a time scale flag.
pub fn check_time_scale(x: Option<f64>) -> Result<Option<f64>, String> {
    match x {
        Some(v) if !(v.is_finite() && v > 0.0 && v <= 1_000_000.0) => Err(format!(
            "--time-scale {v}: allowed more than 0 and at most 1000000"
        )),
        other => Ok(other),
    }
}

impl ServeArgs {
    /// The demo configuration these flags describe.
    pub fn demo_config(&self) -> Result<DemoConfig, String> {
        let mut cfg = DemoConfig {
            scale: self.scale,
            log_requests: true,
            chaos: ChaosConfig {
                seed: self.chaos_seed,
                latency: Duration::from_millis(self.chaos_latency_ms),
                latency_methods: self
                    .chaos_latency_methods
                    .iter()
                    .map(|m| m.trim().to_ascii_uppercase())
                    .filter(|m| !m.is_empty())
                    .collect(),
                error_rate: self.chaos_error_rate,
                rate_429: self.chaos_429_rate,
                malformed_rate: self.chaos_malformed_rate,
                lost_answers: self.chaos_lost_answer.clone(),
            },
            ..DemoConfig::default()
        };
        if let Some(x) = check_time_scale(self.time_scale)? {
            cfg.time_scale = x;
        }
        if let Some(r) = self.rate_limit {
            cfg.rate_limit_per_sec = r;
        }
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cli_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn serve_flags_build_a_demo_config() {
        let cli = Cli::try_parse_from([
            "outpost",
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--time-scale",
            "600",
            "--chaos-429-rate",
            "0.5",
        ])
        .unwrap();
        let Some(Command::Serve(args)) = cli.command else {
            panic!("serve expected");
        };
        let cfg = args.demo_config().unwrap();
        assert_eq!(cfg.time_scale, 600.0);
        assert_eq!(cfg.chaos.rate_429, 0.5);
        assert!(cfg.log_requests);
        assert!(Cli::try_parse_from(["outpost", "serve", "--chaos-error-rate", "2"]).is_err());
        let cli = Cli::try_parse_from([
            "outpost",
            "serve",
            "--chaos-latency-ms",
            "2500",
            "--chaos-latency-methods",
            "post, Patch",
        ])
        .unwrap();
        let Some(Command::Serve(args)) = cli.command else {
            panic!("serve expected");
        };
        let cfg = args.demo_config().unwrap();
        assert_eq!(cfg.chaos.latency_methods, ["POST", "PATCH"]);
        assert!(
            Cli::try_parse_from(["outpost", "--time-scale", "5"]).is_err(),
            "needs --demo"
        );
    }
}
