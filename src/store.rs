//! The local state file: ids the user has seen (searches and campaigns the
//! service cannot list), unsent draft text, and UI preferences. Written
//! atomically (temp file, fsync, rename, fsync of the directory) with mode
//! 0600; versioned; a corrupt file is moved aside with a warning, never
//! silently dropped. Temp files a killed write left behind are removed on
//! load, and [`Store::probe`] tells at any time whether a save could land.
//!
//! Several instances may share the file (two dashboards on one data
//! directory). Every save takes an advisory lock on the data directory
//! (`flock`, so it goes when the process does), reads the file as it is
//! now, and writes it with only this instance's changes applied, key by
//! key ([`merge`] says how): no instance's drafts, ids or checks are lost
//! to another's save. The dashboard's saves all go through
//! [`Store::save`]; so does the CLI's one save (`script::confirm`: a write
//! whose answer was lost, kept in `pending_writes`).

mod merge;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub(crate) use merge::merge;

use serde::{Deserialize, Serialize};

/// The format version this build writes.
pub(crate) const STATE_VERSION: u32 = 1;

/// An id the user has seen, with a label to show.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct KnownId {
    /// The resource id.
    pub id: String,
    /// Title or name when known.
    pub label: String,
    /// Where it came from: `created`, `pasted`, `run-all`.
    pub source: String,
}

/// Unsent text of one editor, field by field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// What the draft is for, shown when it is offered back.
    pub title: String,
    /// Field name to text.
    pub fields: BTreeMap<String, String>,
}

/// UI preferences kept between sessions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// The pane open at exit.
    pub last_pane: Option<String>,
}

/// A write whose answer may have reached the service and that is still
/// being checked (or whose check ended without finding it), kept so a
/// restart resumes the check instead of forgetting that it may have gone.
/// The field of a kept send that marks it a reply (its text is kept apart
/// from the thread's draft, and the thread's status proves nothing of it):
/// written by the Inbox and by `outpost thread reply` alike.
pub(crate) const REPLY_FIELD: &str = "reply";

/// A plain record: the pane that owns it turns it back into its check.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PendingWrite {
    /// What was written: `send` (a thread's draft) or `create` (a draft).
    pub kind: String,
    /// The thread, when the write names one.
    pub thread: Option<String>,
    /// What was sent, field by field, to recognise it (subject, body…).
    pub fields: BTreeMap<String, String>,
    /// Messages the thread had before the write, when known.
    pub baseline: Option<usize>,
    /// What lost the answer (`bad_gateway`).
    pub lost: Option<String>,
    /// Good reads that did not show it.
    pub absent: u32,
    /// Reads that failed.
    pub failed: u32,
    /// The last failed read's error.
    pub last_error: Option<String>,
    /// The verdict, once settled: `not_found`, `could_not_check` or
    /// `no_check` (a found write is dropped, never kept).
    pub verdict: Option<String>,
    /// The verdict's detail (the last error, or why it cannot be checked).
    pub verdict_detail: String,
}

/// Everything the state file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    /// Format version.
    pub version: u32,
    /// Searches known locally (the list route is optional).
    pub known_searches: Vec<KnownId>,
    /// Campaigns known locally (the list route is optional).
    pub known_campaigns: Vec<KnownId>,
    /// Unsent drafts by editor key (e.g. `thread:<id>`, `new-search`).
    pub drafts: BTreeMap<String, Draft>,
    /// Preferences.
    pub prefs: Prefs,
    /// Writes still being checked, by key (e.g. `send:<thread id>`); an
    /// older file has none.
    #[serde(default)]
    pub pending_writes: BTreeMap<String, PendingWrite>,
}

impl Default for State {
    fn default() -> Self {
        State {
            version: STATE_VERSION,
            known_searches: Vec::new(),
            known_campaigns: Vec::new(),
            drafts: BTreeMap::new(),
            prefs: Prefs::default(),
            pending_writes: BTreeMap::new(),
        }
    }
}

impl State {
    /// Remembers a search id (updating its label when already known).
    pub fn remember_search(&mut self, id: &str, label: &str, source: &str) {
        remember(&mut self.known_searches, id, label, source);
    }

    /// Remembers a campaign id.
    pub fn remember_campaign(&mut self, id: &str, label: &str, source: &str) {
        remember(&mut self.known_campaigns, id, label, source);
    }
}

fn remember(list: &mut Vec<KnownId>, id: &str, label: &str, source: &str) {
    if let Some(k) = list.iter_mut().find(|k| k.id == id) {
        if !label.is_empty() {
            k.label = label.to_owned();
        }
    } else {
        list.push(KnownId {
            id: id.to_owned(),
            label: label.to_owned(),
            source: source.to_owned(),
        });
    }
}

/// Why the state file cannot be written. Every variant names the path, so
/// the text alone tells the user where to look.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The file existed at start but could not be read: saving would replace
    /// what is in it, so saving is refused.
    #[error(
        "not saved: {} could not be read at start, so it is left as it was (fix or move it, then restart)",
        .path.display()
    )]
    Unreadable {
        /// The state file.
        path: PathBuf,
    },
    /// Something that is not a directory stands where the data directory
    /// (or one of its parents) should be.
    #[error("not saved: {} is not a directory", .path.display())]
    NotADirectory {
        /// The path that should be a directory.
        path: PathBuf,
    },
    /// Permission denied or a read-only file system.
    #[error("not saved: {} is read-only ({detail})", .path.display())]
    ReadOnly {
        /// The directory or file refused.
        path: PathBuf,
        /// The system's words.
        detail: String,
    },
    /// No space left (or the quota is used up).
    #[error("not saved: the disk holding {} is full", .path.display())]
    DiskFull {
        /// The file that could not be written.
        path: PathBuf,
    },
    /// Any other I/O failure.
    #[error("not saved: {}: {detail}", .path.display())]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The system's words.
        detail: String,
    },
    /// The state could not be encoded (a bug, never the user's doing).
    #[error("not saved: cannot encode the local state: {0}")]
    Encode(String),
    /// A newer Outpost wrote the file since it was read: saving would
    /// replace what this one cannot read.
    #[error(
        "not saved: {} was written by a newer Outpost (format {version}) since it was read; it is left as it is",
        .path.display()
    )]
    Newer {
        /// The state file.
        path: PathBuf,
        /// The format found.
        version: u32,
    },
    /// Another Outpost held the lock on the data directory too long (it
    /// may be stopped half-way through a save).
    #[error(
        "not saved: another Outpost is saving to {} and did not finish within {} s",
        .path.display(),
        LOCK_WAIT.as_secs()
    )]
    Busy {
        /// The data directory.
        path: PathBuf,
    },
}

/// How long a save waits for another instance's save to finish.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(2);

impl StoreError {
    /// Classifies an I/O error met while writing at `path`.
    pub fn from_io(path: &Path, e: &std::io::Error) -> StoreError {
        use std::io::ErrorKind as K;
        let path = path.to_path_buf();
        let detail = e.to_string();
        match e.kind() {
            K::PermissionDenied | K::ReadOnlyFilesystem => StoreError::ReadOnly { path, detail },
            K::StorageFull | K::QuotaExceeded => StoreError::DiskFull { path },
            K::NotADirectory => StoreError::NotADirectory { path },
            // EEXIST from creating a directory where a file is.
            K::AlreadyExists if path.is_file() => StoreError::NotADirectory { path },
            _ => StoreError::Io { path, detail },
        }
    }
}

/// Where the state lives; `None` path keeps state in memory only.
#[derive(Debug)]
pub struct Store {
    path: Option<PathBuf>,
    /// Set when the file exists but could not be read: saving would replace
    /// what is in it with an empty state, so saving is refused.
    read_only: AtomicBool,
    /// The state as this instance last read or saved it: what its changes
    /// are measured against when another instance wrote meanwhile.
    base: Mutex<State>,
}

impl Store {
    /// A store at `path` (or memory-only).
    pub fn new(path: Option<PathBuf>) -> Store {
        Store {
            path,
            read_only: AtomicBool::new(false),
            base: Mutex::new(State::default()),
        }
    }

    /// Sets the base later saves are measured against.
    fn set_base(&self, state: &State) {
        let mut base = self
            .base
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state.clone_into(&mut base);
    }

    /// The file path, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Reads the state. A missing file is a fresh state; an unreadable,
    /// corrupt or too-new file is moved aside and reported in the warnings.
    /// Temp files of a write that was killed half-way are removed first.
    pub fn load(&self) -> (State, Vec<String>) {
        let Some(path) = &self.path else {
            return (State::default(), Vec::new());
        };
        // Under the lock no other instance is half-way through a save: its
        // temp file is not taken for a leftover, nor its file read half
        // replaced. A busy lock (a save stopped half-way) only waits.
        let _lock = lock_dir(&dir_of(path)).ok().flatten();
        remove_stale_temps(path);
        let bytes = match crate::files::read(path) {
            Ok(b) => b,
            // No file (or no directory to hold one, where a file stands in
            // its way): nothing to protect from being saved over; saving
            // will say what is wrong.
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return (State::default(), Vec::new());
            }
            Err(e) => {
                self.read_only.store(true, Ordering::SeqCst);
                return (
                    State::default(),
                    vec![format!(
                        "cannot read {} ({e}); starting with empty local state and not saving over it",
                        path.display()
                    )],
                );
            }
        };
        let problem = match serde_json::from_slice::<State>(&bytes) {
            Ok(state) if state.version <= STATE_VERSION => {
                self.set_base(&state);
                return (state, Vec::new());
            }
            Ok(state) => format!(
                "was written by a newer Outpost (format {}, this one reads {STATE_VERSION})",
                state.version
            ),
            Err(e) => format!("is corrupt ({e})"),
        };
        (State::default(), vec![set_aside(path, &problem)])
    }

    /// Writes the state atomically with mode 0600, merged under the lock
    /// with what another instance wrote since this one last read or saved
    /// (see [`merge`]). The error says why and where, so the caller never
    /// reports a draft as kept when it was not.
    pub fn save(&self, state: &State) -> Result<(), StoreError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        self.check_readable(path)?;
        let dir = dir_of(path);
        create_private_dir(&dir).map_err(|e| classify_write(path, &e))?;
        let _lock = lock_dir(&dir)?;
        let mut base = self
            .base
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let merged = merge(&base, state, current(path)?);
        let bytes =
            serde_json::to_vec_pretty(&merged).map_err(|e| StoreError::Encode(e.to_string()))?;
        write_atomic(path, &bytes).map_err(|e| classify_write(path, &e))?;
        // This instance's view, not the merged file: what it did not see
        // it cannot have removed.
        state.clone_into(&mut base);
        Ok(())
    }

    /// Checks, without touching the state file, that a save could land now:
    /// the data directory exists (or can be made) and is a writable
    /// directory with room for a small file, and the file was readable at
    /// start. Meant for start-up and after a failed save; it does file I/O,
    /// so it runs as an effect, never inside `update`. A memory-only store is
    /// always writable.
    pub fn probe(&self) -> Result<(), StoreError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        self.check_readable(path)?;
        let dir = dir_of(path);
        create_private_dir(&dir).map_err(|e| StoreError::from_io(&dir, &e))?;
        // A name of the temp-file pattern, so a probe killed half-way is
        // cleaned up like any other leftover.
        let probe = temp_path(path, "probe");
        let result = (|| {
            let mut f = crate::files::create_private(&probe)?;
            // A few real bytes and a sync: a full disk often accepts the
            // empty file and refuses only the data.
            f.write_all(&[b' '; 512])?;
            f.sync_all()
        })();
        let _ = std::fs::remove_file(&probe);
        result.map_err(|e| classify_write(path, &e))
    }

    fn check_readable(&self, path: &Path) -> Result<(), StoreError> {
        if self.read_only.load(Ordering::SeqCst) {
            return Err(StoreError::Unreadable {
                path: path.to_path_buf(),
            });
        }
        Ok(())
    }
}

/// Names the directory for errors met creating it, the file otherwise.
fn classify_write(path: &Path, e: &std::io::Error) -> StoreError {
    let dir = dir_of(path);
    if !dir.is_dir() {
        // Walk up to the part that is in the way (a file named like the
        // data directory, or like one of its parents).
        let mut cur = Some(dir.as_path());
        while let Some(p) = cur {
            if p.exists() && !p.is_dir() {
                return StoreError::NotADirectory {
                    path: p.to_path_buf(),
                };
            }
            cur = p.parent();
        }
        return StoreError::from_io(&dir, e);
    }
    match e.kind() {
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
            StoreError::from_io(&dir, e)
        }
        _ => StoreError::from_io(path, e),
    }
}

fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// `<file>.tmp-<tag>` beside `path`: the one pattern of temp names.
fn temp_path(path: &Path, tag: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{tag}"));
    dir_of(path).join(name)
}

/// Removes `<file>.tmp-*` beside `path`: what a write killed between
/// creating its temp file and the rename leaves. Only that pattern, only in
/// that directory; anything else there is not ours to delete.
fn remove_stale_temps(path: &Path) {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let prefix = format!("{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(dir_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(n) = file_name.to_str() else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        let Some(tag) = n.strip_prefix(&prefix) else {
            continue;
        };
        if is_file && !write_in_flight(tag) {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => tracing::info!("removed {} left by an interrupted save", n),
                Err(e) => tracing::warn!("cannot remove {}: {e}", entry.path().display()),
            }
        }
    }
}

/// Moves a file that cannot be used aside (named by its full path: the
/// user has to find it to recover drafts); the warning says so and is
/// logged.
fn set_aside(path: &Path, problem: &str) -> String {
    let aside = std::path::absolute(aside_path(path)).unwrap_or_else(|_| aside_path(path));
    let warning = match std::fs::rename(path, &aside) {
        Ok(()) => format!(
            "local state {} {problem}; it was moved to {} and a fresh one started",
            path.display(),
            aside.display()
        ),
        Err(e) => format!(
            "local state {} {problem} and could not be moved aside ({e})",
            path.display()
        ),
    };
    tracing::warn!("{warning}");
    warning
}

/// The file as it is now, read under the lock before a save: nothing yet is
/// an empty state; one turned corrupt is moved aside (logged); one a newer
/// Outpost wrote, or one that cannot be read, is not saved over.
fn current(path: &Path) -> Result<State, StoreError> {
    let bytes = match crate::files::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(State::default()),
        Err(e) => {
            return Err(StoreError::Io {
                path: path.to_path_buf(),
                detail: format!("cannot read it to merge ({e})"),
            });
        }
    };
    match serde_json::from_slice::<State>(&bytes) {
        Ok(state) if state.version <= STATE_VERSION => Ok(state),
        Ok(state) => Err(StoreError::Newer {
            path: path.to_path_buf(),
            version: state.version,
        }),
        Err(e) => {
            set_aside(path, &format!("turned corrupt ({e})"));
            Ok(State::default())
        }
    }
}

/// Takes the advisory lock of the data directory for one load or save
/// (released when the returned handle drops, or the process ends); waits at
/// most [`LOCK_WAIT`] for another instance's save. Where locks are not
/// supported (some network file systems) it goes on unlocked: a save is
/// still merged.
fn lock_dir(dir: &Path) -> Result<Option<std::fs::File>, StoreError> {
    let handle = match std::fs::File::open(dir) {
        Ok(h) => h,
        // No directory yet: nothing to read, nothing to race for.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            tracing::warn!(
                "cannot open {} to lock it ({e}); going on unlocked",
                dir.display()
            );
            return Ok(None);
        }
    };
    let end = Instant::now() + LOCK_WAIT;
    loop {
        match handle.try_lock() {
            Ok(()) => return Ok(Some(handle)),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < end => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Busy {
                    path: dir.to_path_buf(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => {
                tracing::warn!("cannot lock {} ({e}); going on unlocked", dir.display());
                return Ok(None);
            }
        }
    }
}

fn aside_path(path: &Path) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".corrupt-{secs}"));
    path.with_file_name(name)
}

/// Writes `bytes` to `path` so a crash leaves either the old or the new file:
/// temp file in the same directory, fsync, rename, fsync of the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = dir_of(path);
    create_private_dir(&dir)?;
    let tmp = temp_path(path, &std::process::id().to_string());
    // What is replaced must be a file: a pipe or a device in its place is
    // left alone and said.
    crate::files::check_target(path)?;
    let result = (|| {
        let mut f = crate::files::create_private(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        #[cfg(unix)]
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Whether the temp tag is the pid of another live process: a second
/// Outpost writing right now, whose temp file must not vanish under it.
#[expect(
    unsafe_code,
    reason = "The crate denies unsafe code; std cannot ask whether another pid lives, so this one libc::kill(pid, 0) is allowed here."
)]
fn write_in_flight(tag: &str) -> bool {
    let Ok(pid) = tag.parse::<u32>() else {
        return false;
    };
    if pid == std::process::id() {
        return false;
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 sends nothing; it only asks whether the pid lives.
        (unsafe { libc::kill(pid, 0) }) == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// A file of data that can be rebuilt from the service (the last-known
/// lists): versioned (`"v"` first), written atomically with mode 0600, and
/// never a reason to stop — a missing file is `Ok(None)`, one that cannot
/// be used (unreadable, corrupt, too big, another version) is `Err(why)`
/// for the log, and the next save replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheFile {
    path: PathBuf,
}

/// The version field every cache file starts with.
#[derive(Deserialize)]
struct Versioned {
    v: u32,
}

impl CacheFile {
    /// The cache at `path`.
    pub fn new(path: PathBuf) -> CacheFile {
        CacheFile { path }
    }

    /// The file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads it, when it is of `version` and at most `max_bytes` long.
    /// Temp files of a write that was killed half-way are removed first.
    pub fn load<T: serde::de::DeserializeOwned>(
        &self,
        version: u32,
        max_bytes: u64,
    ) -> Result<Option<T>, String> {
        remove_stale_temps(&self.path);
        let file = match crate::files::open_read(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read it ({e})")),
        };
        let len = file.metadata().map_err(|e| e.to_string())?.len();
        if len > max_bytes {
            return Err(format!("it is {len} bytes, more than {max_bytes}"));
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(file, max_bytes), &mut bytes)
            .map_err(|e| format!("cannot read it ({e})"))?;
        let found = serde_json::from_slice::<Versioned>(&bytes)
            .map_err(|e| format!("it is corrupt ({e})"))?
            .v;
        if found != version {
            return Err(format!(
                "it is format {found}, this Outpost reads {version}"
            ));
        }
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("it is corrupt ({e})"))
    }

    /// Writes it atomically (temp file, fsync, rename) with mode 0600.
    pub fn save<T: Serialize>(&self, value: &T) -> Result<(), String> {
        let bytes = serde_json::to_vec(value).map_err(|e| e.to_string())?;
        write_atomic(&self.path, &bytes).map_err(|e| e.to_string())
    }
}

/// Creates a directory (and parents) readable only by the user: logs and
/// drafts may hold customer data.
pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state file written before writes being checked were kept still
    /// loads, whole, with none pending; one that has them keeps them.
    #[test]
    fn an_older_file_without_pending_writes_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(
            &path,
            br#"{"version":1,"known_searches":[],"known_campaigns":[],"drafts":{"thread:t-1":{"title":"Re: hi","fields":{"body":"kept"}}},"prefs":{"last_pane":"inbox"}}"#,
        )
        .unwrap();
        let store = Store::new(Some(path));
        let (mut state, warnings) = store.load();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(state.drafts["thread:t-1"].fields["body"], "kept");
        assert_eq!(state.prefs.last_pane.as_deref(), Some("inbox"));
        assert!(state.pending_writes.is_empty());
        state.pending_writes.insert(
            "send:t-1".into(),
            PendingWrite {
                kind: "send".into(),
                thread: Some("t-1".into()),
                lost: Some("bad_gateway".into()),
                failed: 3,
                ..PendingWrite::default()
            },
        );
        store.save(&state).unwrap();
        let (back, _) = store.load();
        assert_eq!(back, state);
    }

    fn body(text: &str) -> Draft {
        Draft {
            title: "t".into(),
            fields: [("body".to_owned(), text.to_owned())].into(),
        }
    }

    fn check(thread: &str) -> PendingWrite {
        PendingWrite {
            kind: "send".into(),
            thread: Some(thread.into()),
            ..PendingWrite::default()
        }
    }

    /// Two instances on one file: each one's drafts, ids and checks survive
    /// the other's saves, and what one removed the other does not bring
    /// back.
    #[test]
    fn two_writers_keep_each_others_drafts_ids_and_checks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let (a, b) = (
            Store::new(Some(path.clone())),
            Store::new(Some(path.clone())),
        );
        let (mut sa, _) = a.load();
        let (mut sb, _) = b.load();
        sa.drafts.insert("thread:1".into(), body("from A"));
        sa.remember_search("s-a", "A's search", "created");
        sa.pending_writes.insert("send:1".into(), check("1"));
        a.save(&sa).unwrap();
        sb.drafts.insert("thread:2".into(), body("from B"));
        sb.remember_campaign("c-b", "B's campaign", "created");
        sb.pending_writes.insert("send:2".into(), check("2"));
        b.save(&sb).unwrap();
        let (both, _) = Store::new(Some(path.clone())).load();
        assert_eq!(both.drafts["thread:1"], body("from A"), "{both:?}");
        assert_eq!(both.drafts["thread:2"], body("from B"));
        assert_eq!(both.known_searches[0].id, "s-a");
        assert_eq!(both.known_campaigns[0].id, "c-b");
        assert_eq!(both.pending_writes.len(), 2);

        // A sends its draft (and its check finds the write): removed. B,
        // which never saw them, saves again: they stay removed.
        sa.drafts.remove("thread:1");
        sa.pending_writes.remove("send:1");
        a.save(&sa).unwrap();
        sb.drafts.insert("thread:2".into(), body("from B, more"));
        b.save(&sb).unwrap();
        // A saves once more with its old view of nothing of B's.
        a.save(&sa).unwrap();
        let (after, _) = Store::new(Some(path)).load();
        assert!(!after.drafts.contains_key("thread:1"), "{after:?}");
        assert!(!after.pending_writes.contains_key("send:1"));
        assert_eq!(after.drafts["thread:2"], body("from B, more"));
        assert!(after.pending_writes.contains_key("send:2"));
        assert_eq!(after.known_searches.len(), 1);
        assert_eq!(after.known_campaigns.len(), 1);
    }

    /// Writers saving at once, each adding its own drafts: the lock makes
    /// each read-merge-write whole, so none is lost.
    #[test]
    fn concurrent_writers_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let writers: Vec<_> = (0..6)
            .map(|w| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let store = Store::new(Some(path));
                    let (mut state, _) = store.load();
                    for i in 0..20 {
                        state.drafts.insert(format!("w{w}-{i}"), body("x"));
                        store.save(&state).unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        let (state, _) = Store::new(Some(path)).load();
        assert_eq!(state.drafts.len(), 120, "{:?}", state.drafts.keys());
    }

    #[test]
    fn a_newer_file_written_since_the_load_is_not_saved_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let store = Store::new(Some(path.clone()));
        let (state, _) = store.load();
        std::fs::write(&path, b"{\"version\": 99}").unwrap();
        assert_eq!(
            store.save(&state),
            Err(StoreError::Newer {
                path: path.clone(),
                version: 99
            })
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"{\"version\": 99}");
    }

    #[test]
    fn round_trip_and_atomic_replace() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(Some(dir.path().join("sub/state.json")));
        let mut s = State::default();
        s.remember_search("abc", "VP Sales", "created");
        s.remember_search("abc", "VP Sales EU", "pasted");
        s.drafts.insert(
            "thread:1".into(),
            Draft {
                title: "Re: hello".into(),
                fields: [("body".to_string(), "unsent text".to_string())].into(),
            },
        );
        store.save(&s).unwrap();
        let (back, warnings) = store.load();
        assert!(warnings.is_empty());
        assert_eq!(back, s);
        assert_eq!(back.known_searches.len(), 1);
        assert_eq!(back.known_searches[0].label, "VP Sales EU");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("sub")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file is left behind");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(store.path().unwrap())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_corrupt_file_is_moved_aside_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, b"{\"version\": 1, \"drafts\": {\"x\": ").unwrap();
        let (state, warnings) = Store::new(Some(path.clone())).load();
        assert_eq!(state, State::default());
        assert!(warnings[0].contains("is corrupt"), "{warnings:?}");
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            aside.iter().any(|n| n.starts_with("state.json.corrupt-")),
            "{aside:?}"
        );
        let kept = std::fs::read(dir.path().join(&aside[0])).unwrap();
        assert!(
            kept.starts_with(b"{\"version\""),
            "the bad file is kept, not dropped"
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Lists {
        v: u32,
        names: Vec<String>,
    }

    #[test]
    fn a_cache_file_is_replaced_atomically_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let file = CacheFile::new(dir.path().join("data/cache.json"));
        assert_eq!(file.load::<Lists>(1, 1024), Ok(None), "none yet");
        let first = Lists {
            v: 1,
            names: vec!["a".into()],
        };
        file.save(&first).unwrap();
        // A write killed half-way left its temp file: removed on load.
        let stale = dir.path().join("data/cache.json.tmp-999999999");
        std::fs::write(&stale, b"{\"v\":1,\"names\":[").unwrap();
        assert_eq!(file.load::<Lists>(1, 1024), Ok(Some(first)));
        assert!(!stale.exists());
        let second = Lists {
            v: 1,
            names: vec!["b".into(), "c".into()],
        };
        file.save(&second).unwrap();
        assert_eq!(file.load::<Lists>(1, 1024), Ok(Some(second)));
        let names: Vec<_> = std::fs::read_dir(dir.path().join("data"))
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, ["cache.json"], "nothing beside it");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(file.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_cache_file_that_cannot_be_used_says_why_and_is_left_to_be_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache.json");
        let file = CacheFile::new(path.clone());
        for (bytes, why) in [
            (&b"{\"v\":1,\"names\":[\"a\""[..], "corrupt"),
            (b"[1,2]", "corrupt"),
            (b"{\"v\":2,\"names\":[]}", "format 2"),
            (
                b"{\"v\":1,\"names\":[\"far too long for the bound\"]}",
                "more than 32",
            ),
        ] {
            std::fs::write(&path, bytes).unwrap();
            let err = file.load::<Lists>(1, 32).unwrap_err();
            assert!(err.contains(why), "{err} (want {why})");
        }
        file.save(&Lists {
            v: 1,
            names: Vec::new(),
        })
        .unwrap();
        assert!(file.load::<Lists>(1, 32).unwrap().is_some(), "replaced");
    }

    #[test]
    fn an_unreadable_file_is_never_saved_over() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: reading fails even as root.
        let blocked = dir.path().join("state.json");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("inside"), b"precious").unwrap();
        let store = Store::new(Some(blocked.clone()));
        let (state, warnings) = store.load();
        assert_eq!(state, State::default());
        assert!(warnings[0].contains("not saving over it"), "{warnings:?}");
        let err = store.save(&State::default()).unwrap_err();
        assert!(err.to_string().contains("not saved"), "{err}");
        assert_eq!(
            err,
            StoreError::Unreadable {
                path: blocked.clone()
            }
        );
        assert_eq!(store.probe(), Err(err), "the probe says so before any save");
        assert_eq!(std::fs::read(blocked.join("inside")).unwrap(), b"precious");
    }

    #[test]
    #[cfg(unix)]
    fn a_named_pipe_at_the_state_or_the_cache_file_is_refused_at_once_and_left_alone() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state.json");
        let cache = dir.path().join("cache.json");
        assert!(crate::files::testing::mkfifo(&state) && crate::files::testing::mkfifo(&cache));
        // No writer ever opens the pipes: a plain read would wait forever.
        let store = Store::new(Some(state.clone()));
        let (loaded, warnings) = store.load();
        assert_eq!(loaded, State::default());
        assert!(
            warnings[0].contains("it is a named pipe (FIFO), not a regular file")
                && warnings[0].contains("not saving over it"),
            "{warnings:?}"
        );
        assert_eq!(
            store.save(&State::default()),
            Err(StoreError::Unreadable {
                path: state.clone()
            })
        );
        let file = CacheFile::new(cache.clone());
        let err = file.load::<Lists>(1, 1024).unwrap_err();
        assert!(err.contains("named pipe"), "{err}");
        let err = file
            .save(&Lists {
                v: 1,
                names: Vec::new(),
            })
            .unwrap_err();
        assert!(err.contains("named pipe"), "{err}");
        for p in [&state, &cache] {
            let t = std::fs::symlink_metadata(p).unwrap().file_type();
            assert!(t.is_fifo(), "{} is left as it was", p.display());
        }
    }

    #[test]
    fn a_newer_format_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, b"{\"version\": 99}").unwrap();
        let (_, warnings) = Store::new(Some(path)).load();
        assert!(warnings[0].contains("newer Outpost"), "{warnings:?}");
    }

    /// Captures what `tracing` logs while `f` runs on this thread.
    fn logged(f: impl FnOnce()) -> String {
        use std::sync::{Arc, Mutex};
        let buf: Arc<Mutex<Vec<u8>>> = Arc::default();
        let sink = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || Capture(sink.clone()))
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, f);
        let bytes = buf.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    struct Capture(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Capture {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if let Ok(mut v) = self.0.lock() {
                v.extend_from_slice(b);
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_corrupt_notice_names_the_kept_file_by_full_path_and_is_logged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, b"not json").unwrap();
        let mut warnings = Vec::new();
        let log = logged(|| warnings = Store::new(Some(path.clone())).load().1);
        let aside = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().contains(".corrupt-"))
            .expect("moved aside");
        let full = aside.display().to_string();
        assert!(aside.is_absolute());
        assert!(warnings[0].contains(&full), "{warnings:?} names {full}");
        assert!(log.contains(&full), "the log names it too: {log}");
        assert!(log.contains("WARN"), "{log}");
    }

    #[test]
    fn leftover_temp_files_of_a_killed_write_are_removed_on_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        // A pid above the kernel's maximum: that writer is surely gone.
        let stale = dir.path().join("state.json.tmp-999999999");
        let probe = dir.path().join("state.json.tmp-probe");
        std::fs::write(&stale, b"{\"version\":1").unwrap();
        std::fs::write(&probe, b" ").unwrap();
        // Not ours: other names, and a directory that happens to match.
        let keep = [
            dir.path().join("other.json.tmp-1"),
            dir.path().join("state.json.tmpx"),
            dir.path().join("notes.txt"),
        ];
        for k in &keep {
            std::fs::write(k, b"keep").unwrap();
        }
        std::fs::create_dir(dir.path().join("state.json.tmp-dir")).unwrap();
        let (state, warnings) = Store::new(Some(path)).load();
        assert_eq!(state, State::default());
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(!stale.exists(), "the stale temp file is gone");
        assert!(!probe.exists(), "a killed probe's file is gone");
        for k in &keep {
            assert!(k.exists(), "{} is left alone", k.display());
        }
        assert!(dir.path().join("state.json.tmp-dir").is_dir());
    }

    #[test]
    fn the_temp_file_of_a_live_writer_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        // Pid 1 always lives: another Outpost mid-write, in effect.
        let live = dir.path().join("state.json.tmp-1");
        std::fs::write(&live, b"{").unwrap();
        let _ = Store::new(Some(dir.path().join("state.json"))).load();
        assert!(live.exists());
    }

    #[test]
    fn probe_passes_on_a_writable_directory_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(Some(dir.path().join("data/state.json")));
        assert_eq!(store.probe(), Ok(()));
        let left: Vec<_> = std::fs::read_dir(dir.path().join("data"))
            .unwrap()
            .collect();
        assert!(left.is_empty(), "{left:?}");
        assert_eq!(Store::new(None).probe(), Ok(()), "memory-only");
    }

    #[test]
    fn a_file_where_the_data_directory_should_be_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let in_the_way = dir.path().join("data");
        std::fs::write(&in_the_way, b"a file").unwrap();
        let store = Store::new(Some(in_the_way.join("state.json")));
        // Loading finds nothing to protect: the error names the file in
        // the way, not an "unreadable" state file.
        let (state, warnings) = store.load();
        assert_eq!(state, State::default());
        assert!(warnings.is_empty(), "{warnings:?}");
        let want = StoreError::NotADirectory {
            path: in_the_way.clone(),
        };
        assert_eq!(store.probe(), Err(want.clone()));
        assert_eq!(store.save(&State::default()), Err(want.clone()));
        assert!(want.to_string().contains(&in_the_way.display().to_string()));
        // Deeper: a file in place of a parent of the data directory.
        let store = Store::new(Some(in_the_way.join("sub/state.json")));
        assert_eq!(store.save(&State::default()), Err(want));
    }

    #[test]
    fn a_read_only_directory_is_reported_as_read_only() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o500)).unwrap();
            // Root writes anyway, so only check when the mode binds.
            if std::fs::write(data.join("x"), b"").is_err() {
                let store = Store::new(Some(data.join("state.json")));
                assert!(
                    matches!(store.probe(), Err(StoreError::ReadOnly { ref path, .. }) if *path == data)
                );
                assert!(matches!(
                    store.save(&State::default()),
                    Err(StoreError::ReadOnly { .. })
                ));
            }
        }
        // The classification itself, whoever runs the test.
        for (errno, ro) in [
            (libc::EACCES, true),
            (libc::EROFS, true),
            (libc::EIO, false),
        ] {
            let e = StoreError::from_io(&data, &std::io::Error::from_raw_os_error(errno));
            assert_eq!(matches!(e, StoreError::ReadOnly { .. }), ro, "{errno}: {e}");
        }
    }

    #[test]
    fn a_full_disk_is_reported_as_full() {
        let e = StoreError::from_io(
            Path::new("/d/state.json"),
            &std::io::Error::from_raw_os_error(libc::ENOSPC),
        );
        assert_eq!(
            e,
            StoreError::DiskFull {
                path: PathBuf::from("/d/state.json")
            }
        );
        assert_eq!(
            e.to_string(),
            "not saved: the disk holding /d/state.json is full"
        );
        // A real full device: writing the state to /dev/full fails at the
        // write, before any rename could replace something.
        #[cfg(target_os = "linux")]
        if Path::new("/dev/full").exists() {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let err = f.write_all(b"x").and_then(|()| f.sync_all()).unwrap_err();
            assert!(matches!(
                StoreError::from_io(Path::new("/dev/full"), &err),
                StoreError::DiskFull { .. }
            ));
        }
    }
}
