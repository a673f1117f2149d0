//! Logs go to a file in the data directory, never to the screen: the
//! dashboard owns the terminal. `OUTPOST_LOG` sets the level (default `info`).
//!
//! The log is best effort: a full disk, a revoked file or any other write
//! failure drops the line silently. Nothing here may print to stdout or
//! stderr, because either would scribble over the dashboard.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use tracing_subscriber::filter::LevelFilter;

/// A writer that reports every write as done: a failing log must never
/// surface, neither as an error up the stack nor as tracing-subscriber's own
/// complaint on stderr. It is also the log's last redaction: anything
/// shaped like a key is masked ([`crate::api::key::redact`]) before it is
/// written.
#[derive(Debug)]
pub(crate) struct Quiet<W>(pub W);

impl<W: Write> Write for Quiet<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // tracing-subscriber writes one whole event per call, so a key is
        // never split across two writes.
        if buf.windows(3).any(|w| w == b"pk_") {
            let shown = crate::api::key::redact(&String::from_utf8_lossy(buf));
            let _ = self.0.write_all(shown.as_bytes());
        } else {
            let _ = self.0.write_all(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

/// Starts file logging at `path`; returns an error text when the file cannot
/// be opened, or is not a regular file (the caller shows it and goes on
/// without a log).
pub(crate) fn init(path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        crate::store::create_private_dir(dir)
            .map_err(|e| format!("cannot create log directory {}: {e}", dir.display()))?;
    }
    let file = crate::files::open_append_private(path)
        .map_err(|e| format!("cannot open log file {}: {e}", path.display()))?;
    init_file(file)
}

/// Starts logging into an open file.
fn init_file(file: std::fs::File) -> Result<(), String> {
    let level = std::env::var("OUTPOST_LOG")
        .ok()
        .and_then(|v| v.parse::<LevelFilter>().ok())
        .unwrap_or(LevelFilter::INFO);
    // tracing-subscriber >= 0.3.20 escapes control characters in field
    // values, so service text cannot inject escapes into the log file.
    tracing_subscriber::fmt()
        .with_writer(Mutex::new(Quiet(file)))
        .with_ansi(false)
        .with_max_level(level)
        .with_target(false)
        // Its default is to eprintln! a failed write: off, belt and braces.
        .log_internal_errors(false)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_never_reaches_the_log_file() {
        let mut log = Quiet(Vec::new());
        let line = b"WARN answer message=\"key pk_live_ab.cdEFGH/ijkl+mnop=qr12 revoked\"\n";
        assert_eq!(log.write(line).unwrap(), line.len());
        let written = String::from_utf8(log.0).unwrap();
        assert_eq!(
            written,
            "WARN answer message=\"key pk_live_…qr12 revoked\"\n"
        );
    }

    /// Set in the child process of the test below: where it logs.
    const CHILD_LOG: &str = "OUTPOST_TEST_CHILD_LOG";

    #[test]
    fn a_full_disk_never_reaches_the_terminal() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            return;
        }
        // Logging is process-wide, so run the logging half in a child copy
        // of this test binary, with stderr and stdout kept apart.
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "logging::tests::child_logs_to_a_full_disk",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_LOG, full)
            .env("OUTPOST_LOG", "debug")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stdout}\n{stderr}");
        assert!(
            stdout.contains("1 passed"),
            "the child ran its half: {stdout}"
        );
        assert!(stderr.trim().is_empty(), "stderr: {stderr}");
        assert!(
            !stdout.contains("tracing") && !stdout.contains("No space"),
            "stdout: {stdout}"
        );
    }

    /// The child half of the test above; does nothing on its own.
    #[test]
    #[ignore = "run by a_full_disk_never_reaches_the_terminal in a child process"]
    fn child_logs_to_a_full_disk() {
        let Some(path) = std::env::var_os(CHILD_LOG) else {
            return;
        };
        // A device, which `init` refuses: opened here as a full disk.
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(Path::new(&path))
            .unwrap();
        init_file(file).unwrap();
        for i in 0..100 {
            tracing::info!(i, "a line that does not fit on the disk");
            tracing::debug!(i, "and another");
        }
        tracing::warn!(detail = %"x".repeat(10_000), "a long one");
    }

    #[test]
    fn quiet_reports_every_write_as_done() {
        struct Failing;
        impl Write for Failing {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Err(std::io::Error::from_raw_os_error(libc::ENOSPC))
            }
        }
        let mut w = Quiet(Failing);
        assert_eq!(w.write(b"line\n").unwrap(), 5);
        assert!(w.write_all(b"more").is_ok());
        assert!(w.flush().is_ok());
    }
}
