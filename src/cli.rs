//! The command line (clap): `outpost`, `outpost --demo`, `outpost serve`,
//! `outpost check`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::demo::{ChaosConfig, DemoConfig};

/// A terminal dashboard for the outreach and lead-finding service.
///
/// Parse with [`parse_from`] (or build with [`command`]): the derived parser
/// alone lacks the session flags after a subcommand (`outpost check
/// --profile x`).
#[derive(Debug, Parser)]
#[command(name = "outpost", version, about, long_about = None, after_help = crate::script::EXIT_CODES)]
pub struct Cli {
    /// Run against the embedded demo service, in-process (no key, no
    /// network): the dashboard, or a scripting command.
    #[arg(long)]
    pub demo: bool,

    /// Which service, key and workspace (given before or after the
    /// subcommand).
    #[command(flatten)]
    pub session: Session,

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

/// The flags that choose the service, the key and the workspace: the
/// dashboard's and every command's that talks to the service, never
/// `serve`'s (the demo service has no use for them, so its `--help` does not
/// list them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct Session {
    /// Read configuration from this file too (after the platform config file).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Base URL of the service (overrides config and OUTPOST_BASE_URL).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,

    /// Read the API key from standard input (keys are never taken as flag
    /// values: they would sit in shell history and `ps`).
    #[arg(long)]
    pub key_stdin: bool,

    /// Use the workspace profile NAME (a `[profiles.NAME]` table of the
    /// config; also OUTPOST_PROFILE). Its local state is kept apart.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Send only reads: the client refuses anything that could change the
    /// service (also `read_only = true` in the config).
    #[arg(long)]
    pub read_only: bool,
}

impl Session {
    /// The flags given after a subcommand win over those given before it.
    fn merge(self, after: Session) -> Session {
        Session {
            config: after.config.or(self.config),
            base_url: after.base_url.or(self.base_url),
            key_stdin: self.key_stdin || after.key_stdin,
            profile: after.profile.or(self.profile),
            read_only: self.read_only || after.read_only,
        }
    }

    /// The flags set, as typed (for the error of `serve`).
    fn given(&self) -> Vec<&'static str> {
        let mut flags = Vec::new();
        if self.config.is_some() {
            flags.push("--config");
        }
        if self.base_url.is_some() {
            flags.push("--base-url");
        }
        if self.key_stdin {
            flags.push("--key-stdin");
        }
        if self.profile.is_some() {
            flags.push("--profile");
        }
        if self.read_only {
            flags.push("--read-only");
        }
        flags
    }
}

/// The argument ids of [`Session`].
const SESSION_IDS: [&str; 5] = ["config", "base_url", "key_stdin", "profile", "read_only"];

/// The whole command line: [`Cli`] with the [`Session`] flags also on every
/// subcommand but `serve` (and on their own subcommands, as in `outpost
/// leads import --read-only`).
pub(crate) fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().mut_subcommands(|sub| {
        if sub.get_name() == "serve" {
            return sub;
        }
        // `augment_args` also sets the about text to `Session`'s doc: the
        // subcommand keeps its own.
        let about = sub.get_about().cloned();
        let long_about = sub.get_long_about().cloned();
        let sub = Session::augment_args(sub).mut_args(|arg| {
            if SESSION_IDS.contains(&arg.get_id().as_str()) {
                arg.global(true)
            } else {
                arg
            }
        });
        let sub = match about {
            Some(text) => sub.about(text),
            None => sub.about(None::<&str>),
        };
        match long_about {
            Some(text) => sub.long_about(text),
            None => sub.long_about(None::<&str>),
        }
    })
}

/// Parses a command line (the program name first).
pub(crate) fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let mut cmd = command();
    let mut matches = cmd.try_get_matches_from_mut(args)?;
    let after = match matches.subcommand() {
        Some((name, sub)) if name != "serve" => Some(Session::from_arg_matches(sub)?),
        _ => None,
    };
    let mut cli = Cli::from_arg_matches_mut(&mut matches)?;
    if let Some(after) = after {
        cli.session = cli.session.clone().merge(after);
    }
    if matches!(cli.command, Some(Command::Serve(_))) && cli.session != Session::default() {
        return Err(cmd.error(
            clap::error::ErrorKind::ArgumentConflict,
            format!(
                "{} is for the dashboard and its commands; `outpost serve` has no use for it",
                cli.session.given().join(", ")
            ),
        ));
    }
    Ok(cli)
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
    /// Serve HTTPS with this certificate chain (PEM, leaf first) instead of
    /// plain HTTP, to try a client's TLS end to end; needs --tls-key.
    #[arg(long, value_name = "PATH", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key (PEM) of --tls-cert.
    #[arg(long, value_name = "PATH", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
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
pub(crate) fn check_time_scale(x: Option<f64>) -> Result<Option<f64>, String> {
    match x {
        Some(v) if !(v.is_finite() && v > 0.0 && v <= 1_000_000.0) => Err(format!(
            "--time-scale {v}: allowed more than 0 and at most 1000000"
        )),
        other => Ok(other),
    }
}

impl ServeArgs {
    /// The TLS server of `--tls-cert/--tls-key`, when given.
    pub fn tls(&self) -> Result<Option<crate::demo::tls::Tls>, String> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => crate::demo::tls::Tls::from_pem_files(cert, key).map(Some),
            _ => Ok(None),
        }
    }

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
        command().debug_assert();
    }

    fn session_of(args: &[&str]) -> Session {
        parse_from(args).unwrap().session
    }

    #[test]
    fn session_flags_go_before_or_after_any_subcommand_but_serve() {
        let want = Session {
            config: Some("c.toml".into()),
            base_url: Some("https://h.example".into()),
            key_stdin: true,
            profile: Some("acme".into()),
            read_only: true,
        };
        let flags = [
            "--config",
            "c.toml",
            "--base-url",
            "https://h.example",
            "--key-stdin",
            "--profile",
            "acme",
            "--read-only",
        ];
        for sub in [
            &[][..],
            &["check"],
            &["domains", "--json"],
            &["leads", "import", "c", "f.csv"],
            &["domain", "watch", "d"],
            &["redeem", "CODE"],
            &["campaign", "launch", "c"],
            &["campaign", "c"],
            &["search", "run", "s", "--wait"],
            &["thread", "reply", "t", "--body-file", "f"],
            &["leads", "list", "c"],
        ] {
            let before: Vec<&str> = ["outpost"]
                .iter()
                .chain(&flags)
                .chain(sub)
                .copied()
                .collect();
            assert_eq!(session_of(&before), want, "{before:?}");
            if !sub.is_empty() {
                let after: Vec<&str> = ["outpost"]
                    .iter()
                    .chain(sub)
                    .chain(&flags)
                    .copied()
                    .collect();
                assert_eq!(session_of(&after), want, "{after:?}");
            }
        }
        // After the subcommand wins.
        assert_eq!(
            session_of(&["outpost", "--profile", "a", "check", "--profile", "b"]).profile,
            Some("b".into())
        );
        assert_eq!(session_of(&["outpost", "check"]), Session::default());
    }

    #[test]
    fn serve_neither_lists_nor_takes_the_dashboards_flags() {
        let mut cmd = command();
        let help = cmd
            .find_subcommand_mut("serve")
            .unwrap()
            .render_long_help()
            .to_string();
        for flag in [
            "--read-only",
            "--profile",
            "--key-stdin",
            "--base-url",
            "--config",
        ] {
            assert!(!help.contains(flag), "serve --help lists {flag}:\n{help}");
        }
        assert!(help.contains("--chaos-seed"), "{help}");
        for flag in [
            "--read-only",
            "--profile=x",
            "--key-stdin",
            "--base-url=x",
            "--config=x",
        ] {
            assert!(
                parse_from(["outpost", "serve", flag]).is_err(),
                "serve {flag}"
            );
            let e = parse_from(["outpost", flag, "serve"]).unwrap_err();
            assert!(
                e.to_string().contains("has no use for it"),
                "{flag} serve: {e}"
            );
        }
        // The commands that talk to the service list them, under their own
        // about text.
        let check = cmd
            .find_subcommand_mut("check")
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(
            check.contains("--read-only") && check.contains("--profile"),
            "{check}"
        );
        assert!(check.starts_with("Check config"), "{check}");
    }

    #[test]
    fn serve_flags_build_a_demo_config() {
        let cli = parse_from([
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
        assert!(parse_from(["outpost", "serve", "--chaos-error-rate", "2"]).is_err());
        let cli = parse_from([
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
            parse_from(["outpost", "--time-scale", "5"]).is_err(),
            "needs --demo"
        );
    }
}
