//! The `outpost` binary: parses the command line and picks the dashboard,
//! the demo service, or `check`.

// A print macro panics when its write fails (a hung-up terminal): lines go
// through `outpost::errln!`/`outln!`, which drop what cannot be written.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::io::{IsTerminal, Read};
use std::process::ExitCode;

use outpost::entry::{self, Cli, Command, Config, Overrides, Paths, sanitize_inline};

fn main() -> ExitCode {
    let cli = match entry::parse_cli() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            outpost::errln!("outpost: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        Some(Command::Serve(ref args)) => runtime.block_on(serve(args.clone())),
        Some(Command::Check) => runtime.block_on(check(&cli)),
        Some(Command::Script(ref cmd)) => {
            runtime.block_on(entry::run_script(&cli, cmd, || load_config(&cli)))
        }
        None => runtime.block_on(dashboard(&cli)),
    }
}

/// Reads the key from stdin for `--key-stdin`.
fn key_from_stdin(cli: &Cli) -> Result<Option<String>, String> {
    if !cli.session.key_stdin {
        return Ok(None);
    }
    let mut stdin = std::io::stdin();
    if stdin.is_terminal() {
        outpost::errln!("Paste the API key and press Enter, then Ctrl-D:");
    }
    let mut key = String::new();
    stdin
        .read_to_string(&mut key)
        .map_err(|e| format!("cannot read the key from stdin: {e}"))?;
    Ok(Some(key.trim().to_owned()))
}

fn load_config(cli: &Cli) -> Result<(Paths, Config), String> {
    let paths = Paths::resolve();
    let overrides = Overrides {
        config_path: cli.session.config.clone(),
        base_url: cli.session.base_url.clone(),
        key_from_stdin: key_from_stdin(cli)?,
        profile: cli.session.profile.clone(),
        read_only: cli.session.read_only,
    };
    let cfg = entry::load_config(&paths, &overrides).map_err(|e| e.to_string())?;
    Ok((paths, cfg))
}

async fn serve(args: entry::ServeArgs) -> ExitCode {
    let cfg = match args.demo_config() {
        Ok(c) => c,
        Err(e) => {
            outpost::errln!("outpost serve: {e}");
            return entry::Exit::Usage.into();
        }
    };
    let tls = match args.tls() {
        Ok(t) => t,
        Err(e) => {
            outpost::errln!("outpost serve: {e}");
            return entry::Exit::Usage.into();
        }
    };
    let handle = match entry::spawn_demo(args.addr, cfg, tls).await {
        Ok(h) => h,
        Err(e) => {
            outpost::errln!("outpost serve: cannot listen on {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    outpost::errln!(
        "outpost demo service listening on {} (keys: {}, {})",
        handle.base_url(),
        entry::DEMO_KEY,
        entry::OTHER_KEY
    );
    entry::wait_for_shutdown().await;
    outpost::errln!("outpost demo service stopped");
    ExitCode::SUCCESS
}

async fn check(cli: &Cli) -> ExitCode {
    let (_, cfg) = match load_config(cli) {
        Ok(c) => c,
        Err(e) => {
            outpost::outln!("config:   FAIL {}", sanitize_inline(&e));
            return ExitCode::FAILURE;
        }
    };
    let mut out = Vec::new();
    let ok = entry::check(&cfg, &mut out).await;
    // Service text may be hostile: make it inert before it reaches stdout.
    for line in String::from_utf8_lossy(&out).lines() {
        outpost::outln!("{}", sanitize_inline(line));
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

async fn dashboard(cli: &Cli) -> ExitCode {
    let (paths, cfg) = match load_config(cli) {
        Ok(c) => c,
        Err(e) => {
            outpost::errln!("outpost: {}", sanitize_inline(&e));
            return entry::Exit::Usage.into();
        }
    };
    match entry::launch(cli, paths, cfg).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            outpost::errln!("outpost: {}", sanitize_inline(&e));
            ExitCode::FAILURE
        }
    }
}
