//! The terminal: init and a restore that undoes everything (alternate
//! screen, raw mode, cursor, mouse capture, bracketed paste — ratatui's own
//! panic hook leaves the last three on), a panic hook that restores and ends
//! the process, OSC 52 copies, Ctrl-Z suspend, and a watchdog for a vanished
//! terminal.

use std::io::{self, Stdout, Write};
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::cursor::{Hide, Show};
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// Whether the terminal is in dashboard mode (so restore is idempotent).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The dashboard's terminal. Dropping it restores the terminal (see
/// [`restore`]) and never runs ratatui's own `Drop`: that one shows the
/// cursor again and `eprintln!`s when it cannot, which panics on a
/// terminal that hung up ("failed printing to stderr"). Its memory is left
/// to the process's end, which follows.
pub(crate) struct Screen(ManuallyDrop<Terminal<CrosstermBackend<Stdout>>>);

impl Deref for Screen {
    type Target = Terminal<CrosstermBackend<Stdout>>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Screen {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// Enters raw mode and the alternate screen with mouse and paste on.
pub(crate) fn init() -> io::Result<Screen> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    if let Err(e) = execute!(
        out,
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        Hide
    ) {
        restore();
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(io::stdout()))
        .map(|t| Screen(ManuallyDrop::new(t)))
        .inspect_err(|_| restore())
}

/// Undoes everything `init` did; errors (a vanished terminal) are ignored.
pub(crate) fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// On a panic anywhere (a tokio task included): restore the terminal, log,
/// print one line, and end the process, so nothing draws on a restored
/// terminal afterwards.
pub(crate) fn install_panic_hook(log_path: Option<String>) {
    std::panic::set_hook(Box::new(move |info| {
        restore();
        let text = crate::text::sanitize::inline(&info.to_string());
        tracing::error!("panic: {text}");
        match &log_path {
            Some(p) => {
                crate::errln!("outpost stopped on an internal error: {text}\n(details in {p})");
            }
            None => crate::errln!("outpost stopped on an internal error: {text}"),
        }
        std::process::exit(101);
    }));
}

/// Puts text on the clipboard with OSC 52 (the local terminal does it, so it
/// works over SSH).
pub(crate) fn copy(text: &str) -> io::Result<()> {
    let mut out = io::stdout();
    execute!(
        out,
        crossterm::clipboard::CopyToClipboard::to_clipboard_from(text.as_bytes())
    )
}

/// Loads `text` into tmux's paste buffer with `tmux load-buffer -w -`
/// (`-w` also hands it to the outer terminal's clipboard where tmux allows),
/// `tmux` being the program to run; the error says what tmux said.
pub(crate) fn tmux_load_buffer(tmux: &std::path::Path, text: &str) -> Result<(), String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(tmux)
        .args(["load-buffer", "-w", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run tmux: {e}"))?;
    // A tmux that stops reading (no server) breaks the pipe: what it says
    // on exit is the better reason, so the write's error waits for that.
    let wrote = child
        .stdin
        .take()
        .map_or(Ok(()), |mut stdin| stdin.write_all(text.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("tmux did not finish: {e}"))?;
    if out.status.success() {
        wrote.map_err(|e| format!("could not write to tmux: {e}"))
    } else {
        let said = crate::text::sanitize::inline(String::from_utf8_lossy(&out.stderr).trim());
        Err(if said.is_empty() {
            format!("tmux load-buffer exited with {}", out.status)
        } else {
            said
        })
    }
}

/// Writes the bell / desktop-notification bytes between frames (they move
/// no cursor and draw nothing; a failure to write is not worth a notice).
pub(crate) fn attention(sequence: &str) {
    let mut out = io::stdout();
    let _ = out.write_all(sequence.as_bytes());
    let _ = out.flush();
}

/// Suspends to the shell (Ctrl-Z) and comes back; the caller redraws.
#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; std has no getsid or raise, so these two libc calls are allowed here, each with its SAFETY note."
)]
pub(crate) fn suspend() -> Result<(), String> {
    #[cfg(unix)]
    {
        // Without job control (the process leads its own session, as with
        // `ssh host outpost`), a stop could never be undone.
        // SAFETY: getsid/getpid only read process state.
        let leader = unsafe { libc::getsid(0) == libc::getpid() };
        if leader {
            return Err(
                "no job control here (outpost leads its session), so it cannot be suspended".into(),
            );
        }
        restore();
        // SAFETY: raise only sends a signal to this process.
        unsafe {
            libc::raise(libc::SIGTSTP);
        }
        // Execution continues here after `fg` (SIGCONT).
        enable_raw_mode().map_err(|e| e.to_string())?;
        ACTIVE.store(true, Ordering::SeqCst);
        let mut out = io::stdout();
        execute!(
            out,
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste,
            Hide
        )
        .map_err(|e| e.to_string())
    }
    #[cfg(not(unix))]
    {
        Err("suspending is not supported on this platform".into())
    }
}

/// The terminal's events as a stream, read by a thread of their own.
///
/// crossterm's `EventStream` hands out one event per hop through a helper
/// thread and, with its default (mio, edge-triggered) source, stalls a burst
/// of more than 1,024 bytes until the next key press: it returns after the
/// first buffer-full and epoll does not report the rest again. Here the
/// level-triggered `use-dev-tty` source is read in a blocking loop, so every
/// byte is read as it arrives and parsed events queue up in a channel the
/// loop drains before it draws.
pub(crate) fn input_stream() -> impl tokio_stream::Stream<Item = io::Result<crossterm::event::Event>>
{
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("outpost-input".into())
        .spawn(move || {
            loop {
                let ev = crossterm::event::read();
                let failed = ev.is_err();
                // The loop is gone (the dashboard closed), or the terminal
                // is: either way there is nothing more to read for.
                if tx.send(ev).is_err() || failed {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        // No reader: the stream yields the error, and the loop treats it
        // like a vanished terminal (save and leave).
        let (tx2, rx2) = tokio::sync::mpsc::unbounded_channel();
        let _ = tx2.send(Err(e));
        return tokio_stream::wrappers::UnboundedReceiverStream::new(rx2);
    }
    tokio_stream::wrappers::UnboundedReceiverStream::new(rx)
}

/// Watches stdin for a hang-up (the SSH connection dropped) every two
/// seconds and calls `on_hangup` once: crossterm can otherwise spin on a
/// vanished terminal.
#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; std cannot poll a descriptor for a hang-up without reading it, so this one libc::poll is allowed here."
)]
pub(crate) fn watch_hangup(on_hangup: impl FnOnce() + Send + 'static) {
    #[cfg(unix)]
    {
        let _ = std::thread::Builder::new()
            .name("outpost-hangup-watch".into())
            .spawn(move || {
                loop {
                    let mut fds = libc::pollfd {
                        fd: 0,
                        events: 0,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd, a bounded timeout.
                    let n = unsafe { libc::poll(&mut fds, 1, 2000) };
                    if n > 0 && fds.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
                    {
                        on_hangup();
                        return;
                    }
                    if n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                        return;
                    }
                }
            });
    }
    #[cfg(not(unix))]
    {
        let _ = on_hangup;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text reaches tmux on stdin with `load-buffer -w -`, and a tmux
    /// that fails is reported with what it said (a fake `tmux` stands in).
    #[cfg(unix)]
    #[test]
    fn the_tmux_buffer_gets_the_text() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = dir.path().join("tmux");
        let got = dir.path().join("got");
        std::fs::write(
            &fake,
            format!(
                "#!/bin/sh\necho \"$@\" > '{0}.args'\ncat > '{0}'\n",
                got.display()
            ),
        )
        .expect("script");
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        tmux_load_buffer(&fake, "v=spf1 ~all").expect("loaded");
        assert_eq!(std::fs::read_to_string(&got).expect("read"), "v=spf1 ~all");
        let args = std::fs::read_to_string(dir.path().join("got.args")).expect("args");
        assert_eq!(args.trim(), "load-buffer -w -");
        std::fs::write(&fake, "#!/bin/sh\necho 'no server running' >&2\nexit 1\n").expect("script");
        assert_eq!(
            tmux_load_buffer(&fake, "x"),
            Err("no server running".to_owned())
        );
    }
}
