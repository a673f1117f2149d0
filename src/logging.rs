//! Logs go to a file in the data directory, never to the screen: the
//! dashboard owns the terminal. `OUTPOST_LOG` sets the level (default `info`).

use std::path::Path;
use std::sync::Mutex;

use tracing_subscriber::filter::LevelFilter;

/// Starts file logging at `path`; returns an error text when the file cannot
/// be opened (the caller shows it and goes on without a log).
pub fn init(path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        crate::store::create_private_dir(dir)
            .map_err(|e| format!("cannot create log directory {}: {e}", dir.display()))?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let file = opts
        .open(path)
        .map_err(|e| format!("cannot open log file {}: {e}", path.display()))?;
    let level = std::env::var("OUTPOST_LOG")
        .ok()
        .and_then(|v| v.parse::<LevelFilter>().ok())
        .unwrap_or(LevelFilter::INFO);
    // tracing-subscriber >= 0.3.20 escapes control characters in field
    // values, so service text cannot inject escapes into the log file.
    tracing_subscriber::fmt()
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .with_max_level(level)
        .with_target(false)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}
