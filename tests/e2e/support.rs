//! A pty harness: runs the real `outpost` binary in a pseudo-terminal and
//! reads its screen through the `vt100` terminal emulator.

#![expect(
    dead_code,
    reason = "Shared by every module; not each one uses every helper."
)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, PtySize, native_pty_system};

/// What the program asked the terminal to do besides drawing.
#[derive(Debug, Default, Clone)]
pub struct Seen {
    /// Clipboard writes (OSC 52), base64 as sent.
    pub clipboard: Vec<String>,
    /// Window titles set.
    pub titles: Vec<String>,
}

/// Records vt100 callbacks.
#[derive(Default)]
pub struct Recorder(pub Arc<Mutex<Seen>>);

impl vt100::Callbacks for Recorder {
    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, _ty: &[u8], data: &[u8]) {
        if let Ok(mut s) = self.0.lock() {
            s.clipboard.push(String::from_utf8_lossy(data).into_owned());
        }
    }
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        if let Ok(mut s) = self.0.lock() {
            s.titles.push(String::from_utf8_lossy(title).into_owned());
        }
    }
}

/// Deadlines are generous: machines are shared and noisy.
pub fn deadline() -> Duration {
    if std::env::var_os("CI").is_some() {
        Duration::from_secs(60)
    } else {
        Duration::from_secs(30)
    }
}

/// The keys' end of the pty; `None` once hung up.
type Writer = Arc<Mutex<Option<Box<dyn Write + Send>>>>;

/// A running `outpost` in a pty.
pub struct Pty {
    child: Box<dyn Child + Send + Sync>,
    writer: Writer,
    /// Set to close the pty's master end (the reader lets go of it).
    hang_up: Arc<AtomicBool>,
    parser: Arc<Mutex<vt100::Parser<Recorder>>>,
    /// What the program asked of the terminal.
    pub seen: Arc<Mutex<Seen>>,
    /// Every byte the program wrote, in order (what the screen no longer
    /// shows: a progress line drawn over, a bell).
    raw: Arc<Mutex<Vec<u8>>>,
    /// The directory of this run (the config, data and log files, unless
    /// it shares another run's: see [`Pty::beside`]).
    pub dir: tempfile::TempDir,
    /// Where the config, data and log files are.
    home: PathBuf,
    exit: Option<portable_pty::ExitStatus>,
}

impl Pty {
    /// Starts `outpost ARGS` at `cols`×`rows` with its own config and data
    /// directories; `config` is written to `config.toml` there.
    pub fn spawn(args: &[&str], cols: u16, rows: u16, config: &str) -> Pty {
        Pty::spawn_env(args, cols, rows, config, &[])
    }

    /// Like [`Pty::spawn`], with extra environment variables.
    pub fn spawn_env(
        args: &[&str],
        cols: u16,
        rows: u16,
        config: &str,
        env: &[(&str, &str)],
    ) -> Pty {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("config.toml"), config).expect("config");
        Pty::spawn_in(dir, args, cols, rows, env)
    }

    /// Starts `outpost ARGS` with `dir` as its config and data directory,
    /// as the caller prepared it.
    pub fn spawn_in(
        dir: tempfile::TempDir,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Pty {
        let home = dir.path().to_owned();
        Pty::start(dir, home, args, cols, rows, env)
    }

    /// Starts a second `outpost ARGS` on this one's config, state file and
    /// log while this one runs: two instances on one data directory.
    pub fn beside(&self, args: &[&str], cols: u16, rows: u16, env: &[(&str, &str)]) -> Pty {
        let dir = tempfile::TempDir::new().expect("tempdir");
        Pty::start(dir, self.home.clone(), args, cols, rows, env)
    }

    /// Starts `outpost ARGS` again in this one's directories (its config,
    /// state file and log), once it has exited.
    pub fn restart(mut self, args: &[&str], cols: u16, rows: u16, env: &[(&str, &str)]) -> Pty {
        assert!(
            self.wait_exit().is_some(),
            "the first run ends before the restart"
        );
        let dir = tempfile::TempDir::new().expect("tempdir");
        let old = std::mem::replace(&mut self.dir, dir);
        let home = self.home.clone();
        drop(self);
        Pty::start(old, home, args, cols, rows, env)
    }

    fn start(
        dir: tempfile::TempDir,
        home: PathBuf,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Pty {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_outpost"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("OUTPOST_CONFIG_DIR", &home);
        cmd.env("OUTPOST_DATA_DIR", &home);
        cmd.env_remove("OUTPOST_BASE_URL");
        cmd.env_remove("OUTPOST_API_KEY");
        cmd.env_remove("NO_COLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(dir.path());
        let child = pty.slave.spawn_command(cmd).expect("spawn outpost");
        drop(pty.slave);
        let reader = pty.master.try_clone_reader().expect("reader");
        let writer: Writer = Arc::new(Mutex::new(Some(pty.master.take_writer().expect("writer"))));
        let seen = Arc::new(Mutex::new(Seen::default()));
        let parser = Arc::new(Mutex::new(vt100::Parser::new_with_callbacks(
            NonZeroU16::new(rows).expect("rows"),
            NonZeroU16::new(cols).expect("cols"),
            0,
            Recorder(seen.clone()),
        )));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let hang_up = Arc::new(AtomicBool::new(false));
        read_into(
            pty.master,
            reader,
            Shared {
                writer: writer.clone(),
                parser: parser.clone(),
                raw: raw.clone(),
                hang_up: hang_up.clone(),
            },
        );
        Pty {
            child,
            writer,
            hang_up,
            parser,
            seen,
            raw,
            dir,
            home,
            exit: None,
        }
    }

    /// The data directory (state file, log).
    pub fn data_dir(&self) -> &Path {
        &self.home
    }

    /// The state file of a `--demo` run (the demo's own, never the
    /// default workspace's).
    pub fn demo_state_file(&self) -> PathBuf {
        self.home.join("demo").join("state.json")
    }

    /// The log file.
    pub fn log_file(&self) -> PathBuf {
        self.home.join("outpost.log")
    }

    /// The log's text; empty when it is not a regular file (a test may put
    /// a named pipe there, which a read would wait on forever).
    pub fn log(&self) -> String {
        let path = self.log_file();
        if std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
            std::fs::read_to_string(path).unwrap_or_default()
        } else {
            String::new()
        }
    }

    /// Sends raw bytes (keys).
    pub fn send(&self, bytes: &[u8]) {
        if let Ok(mut w) = self.writer.lock()
            && let Some(w) = w.as_mut()
        {
            let _ = w.write_all(bytes);
            let _ = w.flush();
        }
    }

    /// Closes the pty's master end, as a terminal window closing does: the
    /// program's terminal hangs up (SIGHUP, then EIO on every read and
    /// write). Nothing can be sent after.
    pub fn hang_up(&self) {
        self.hang_up.store(true, Ordering::SeqCst);
    }

    /// Sends text, one key at a time.
    pub fn type_text(&self, s: &str) {
        for c in s.chars() {
            let mut b = [0u8; 4];
            self.send(c.encode_utf8(&mut b).as_bytes());
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Everything the program wrote so far, as text.
    pub fn output(&self) -> String {
        self.raw
            .lock()
            .map(|r| String::from_utf8_lossy(&r).into_owned())
            .unwrap_or_default()
    }

    /// The screen as text.
    pub fn screen(&self) -> String {
        self.parser
            .lock()
            .map(|p| p.screen().contents())
            .unwrap_or_default()
    }

    /// The last row of the screen: the dashboard's status bar.
    pub fn status_bar(&self) -> String {
        self.parser
            .lock()
            .ok()
            .and_then(|p| {
                let (_, cols) = p.screen().size();
                p.screen().rows(0, cols.get()).last()
            })
            .unwrap_or_default()
    }

    /// Whether the alternate screen is on and the cursor hidden.
    pub fn modes(&self) -> (bool, bool) {
        self.parser.lock().map_or((false, false), |p| {
            (p.screen().alternate_screen(), p.screen().hide_cursor())
        })
    }

    /// Waits until the screen holds `text`; the error carries the screen.
    pub fn wait_for(&self, text: &str) -> Result<String, String> {
        self.wait_until(text, |s| s.contains(text))
    }

    /// Waits until `ok(screen)`.
    pub fn wait_until(&self, what: &str, ok: impl Fn(&str) -> bool) -> Result<String, String> {
        let end = Instant::now() + deadline();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return Ok(screen);
            }
            if Instant::now() > end {
                let log = self.log();
                return Err(format!(
                    "`{what}` never appeared; the screen:\n{screen}\nlog:\n{log}"
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends a signal to the process.
    #[expect(
        unsafe_code,
        reason = "The crate denies unsafe code; a test signals its child with libc::kill."
    )]
    pub fn signal(&self, sig: i32) {
        if let Some(pid) = self.child.process_id() {
            // SAFETY: kill only sends a signal to our own child.
            unsafe {
                libc::kill(pid as i32, sig);
            }
        }
    }

    /// Waits for the process to end; returns whether it exited successfully.
    pub fn wait_exit(&mut self) -> Option<bool> {
        let end = Instant::now() + deadline();
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                let ok = status.success();
                self.exit = Some(status);
                // Let the reader drain the last bytes (the restore).
                std::thread::sleep(Duration::from_millis(300));
                return Some(ok);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

/// What the reader thread shares with the [`Pty`].
struct Shared {
    writer: Writer,
    parser: Arc<Mutex<vt100::Parser<Recorder>>>,
    raw: Arc<Mutex<Vec<u8>>>,
    hang_up: Arc<AtomicBool>,
}

/// Reads the program's output into the screen on a thread of its own,
/// which holds the pty's master (so it stays open while the reader runs)
/// and lets go of it, with the keys' end, when asked to hang up.
fn read_into(
    master: Box<dyn portable_pty::MasterPty + Send>,
    mut reader: Box<dyn Read + Send>,
    shared: Shared,
) {
    std::thread::spawn(move || {
        let fd = master.as_raw_fd();
        let mut buf = [0u8; 8192];
        loop {
            if shared.hang_up.load(Ordering::SeqCst) {
                // portable-pty's writer types a newline and Ctrl-D when
                // dropped (an EOF for a shell): keys no closing window
                // sends. With no EOF character it sends none.
                if let Some(fd) = fd {
                    no_eof_char(fd);
                }
                if let Ok(mut w) = shared.writer.lock() {
                    w.take();
                }
                break;
            }
            if !fd.is_some_and(readable) {
                continue;
            }
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    // A bare pty answers no cursor-position query: do it.
                    if buf[..n].windows(4).any(|s| s == b"\x1b[6n")
                        && let Ok(mut w) = shared.writer.lock()
                        && let Some(w) = w.as_mut()
                    {
                        let _ = w.write_all(b"\x1b[1;1R");
                    }
                    if let Ok(mut p) = shared.parser.lock() {
                        p.process(&buf[..n]);
                    }
                    if let Ok(mut r) = shared.raw.lock() {
                        r.extend_from_slice(&buf[..n]);
                    }
                }
            }
        }
    });
}

/// Whether the pty's master has bytes to read, waiting at most 50 ms (so
/// the reader sees a hang-up request in time).
#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; a test polls its pty's descriptor with libc::poll (std has no poll)."
)]
fn readable(fd: std::os::fd::RawFd) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, a bounded timeout.
    let n = unsafe { libc::poll(&raw mut p, 1, 50) };
    n > 0 && p.revents != 0
}

/// Clears the pty's EOF character (the program runs in raw mode, where it
/// means nothing).
#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; a test sets its pty's termios with libc (portable-pty has no setter)."
)]
fn no_eof_char(fd: std::os::fd::RawFd) {
    // SAFETY: a zeroed termios is a valid value to be filled; both calls
    // only read or write that struct and the pty's settings.
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(fd, &raw mut t) == 0 {
            t.c_cc[libc::VEOF] = 0;
            libc::tcsetattr(fd, libc::TCSANOW, &raw const t);
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if self.exit.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
