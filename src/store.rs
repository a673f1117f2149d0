//! The local state file: ids the user has seen (searches and campaigns the
//! service cannot list), unsent draft text, and UI preferences. Written
//! atomically (temp file, fsync, rename, fsync of the directory) with mode
//! 0600; versioned; a corrupt file is moved aside with a warning, never
//! silently dropped.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

/// The format version this build writes.
pub const STATE_VERSION: u32 = 1;

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
}

impl Default for State {
    fn default() -> Self {
        State {
            version: STATE_VERSION,
            known_searches: Vec::new(),
            known_campaigns: Vec::new(),
            drafts: BTreeMap::new(),
            prefs: Prefs::default(),
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

/// Where the state lives; `None` path keeps state in memory only.
#[derive(Debug)]
pub struct Store {
    path: Option<PathBuf>,
    /// Set when the file exists but could not be read: saving would replace
    /// what is in it with an empty state, so saving is refused.
    read_only: AtomicBool,
}

impl Store {
    /// A store at `path` (or memory-only).
    pub fn new(path: Option<PathBuf>) -> Store {
        Store {
            path,
            read_only: AtomicBool::new(false),
        }
    }

    /// The file path, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Reads the state. A missing file is a fresh state; an unreadable,
    /// corrupt or too-new file is moved aside and reported in the warnings.
    pub fn load(&self) -> (State, Vec<String>) {
        let Some(path) = &self.path else {
            return (State::default(), Vec::new());
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
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
            Ok(state) if state.version <= STATE_VERSION => return (state, Vec::new()),
            Ok(state) => format!(
                "was written by a newer Outpost (format {}, this one reads {STATE_VERSION})",
                state.version
            ),
            Err(e) => format!("is corrupt ({e})"),
        };
        let aside = aside_path(path);
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
        (State::default(), vec![warning])
    }

    /// Writes the state atomically with mode 0600.
    pub fn save(&self, state: &State) -> std::io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if self.read_only.load(Ordering::SeqCst) {
            return Err(std::io::Error::other(
                "not saved: the existing file could not be read at start, so it is left as it was",
            ));
        }
        let bytes = serde_json::to_vec_pretty(state).map_err(std::io::Error::other)?;
        write_atomic(path, &bytes)
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
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    create_private_dir(&dir)?;
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&tmp)?;
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

/// Creates a directory (and parents) readable only by the user: logs and
/// drafts may hold customer data.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
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
            .filter_map(|e| e.ok())
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
        assert_eq!(std::fs::read(blocked.join("inside")).unwrap(), b"precious");
    }

    #[test]
    fn a_newer_format_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        std::fs::write(&path, b"{\"version\": 99}").unwrap();
        let (_, warnings) = Store::new(Some(path)).load();
        assert!(warnings[0].contains("newer Outpost"), "{warnings:?}");
    }
}
