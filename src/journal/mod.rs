//! The write journal: every write the dashboard or the CLI sends, kept per
//! profile in the data directory so "did I send that?" has an answer
//! afterwards.
//!
//! The file is JSON lines ([`Line`]): a `write` line per write, when its
//! reply came (what was sent, to what, and its outcome: done, refused with
//! the code, or may have reached), and a `verdict` line when the check of a
//! write that may have reached settles, naming the write line's `id`. The
//! format is documented in the README ("The write journal"); `outpost
//! journal` and the dashboard's `:journal` read it with [`read`].
//!
//! Writes are recorded in one place below both front ends: the table of
//! operations' `execute` (`api::ops`), through the journal the client
//! carries ([`crate::api::Client::with_journal`]). The file is opened for
//! each line with `O_APPEND` and the line written with one call, so two
//! dashboards and a CLI on one profile never interleave partial lines; it
//! is created with mode 0600 (it holds customer data), only ever a regular
//! file ([`crate::files`]), and rotated at [`MAX_BYTES`] keeping one old
//! file (`journal.jsonl.1`), under a lock so two writers never rotate
//! twice. Text is run through [`redact`] before it is written: a key pasted
//! into a body never reaches the file.

pub(crate) mod entry;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::api::key::redact;
use crate::config::Paths;
use crate::logic::write::Verdict;

/// The journal's file name in a profile's directory.
pub const FILE: &str = "journal.jsonl";

/// The size past which the file is rotated.
pub(crate) const MAX_BYTES: u64 = 10 * 1024 * 1024;

/// The format version each line carries.
pub(crate) const VERSION: u32 = 1;

/// Which front end sent a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The dashboard.
    Dashboard,
    /// A scripting command.
    Cli,
}

impl Source {
    /// Its name in a table.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Dashboard => "dashboard",
            Source::Cli => "cli",
        }
    }
}

/// What a write's reply came to, as the journal keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The service answered with success.
    Done,
    /// Nothing happened: the service refused it (its code), or it never
    /// left.
    Refused,
    /// It may have been carried out although no success was read.
    MayHaveReached,
}

impl Outcome {
    /// As a table says it.
    pub fn text(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Refused => "refused",
            Outcome::MayHaveReached => "may have reached",
        }
    }
}

/// What a write was sent to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// The kind of resource (`campaign`, `thread`, `domain`, `search`,
    /// `profile`, `pass`).
    pub kind: String,
    /// Its id, when known (a create's comes from the answer).
    #[serde(default)]
    pub id: Option<String>,
    /// Its name (a campaign's name, a thread's participant, a domain), when
    /// known.
    #[serde(default)]
    pub name: Option<String>,
}

/// A `write` line: one write and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteLine {
    /// Names the line for its verdict (unique across processes).
    pub id: String,
    /// When the reply came (RFC 3339, UTC).
    pub at: String,
    /// The profile (`null`: the default workspace).
    #[serde(default)]
    pub profile: Option<String>,
    /// Which front end sent it.
    pub source: Source,
    /// The operation, as the table of operations names it
    /// (`LaunchCampaign`).
    pub operation: String,
    /// What it was sent to.
    pub target: Target,
    /// What was sent, short: a subject, counts, at most 200 characters of a
    /// body.
    pub summary: String,
    /// Done, refused or may have reached.
    pub outcome: Outcome,
    /// The HTTP status of a failure, when the service answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The failure's code (`conflict`, `timeout`, `bad_gateway`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The failure's message, short.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// How a write that may have reached is settled (`check`,
    /// `safe_to_repeat`, `no_check`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle: Option<String>,
}

/// A `verdict` line: how the check of a write that may have reached
/// settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictLine {
    /// The `id` of the write line it settles.
    pub entry: String,
    /// When it settled (RFC 3339, UTC).
    pub at: String,
    /// The profile.
    #[serde(default)]
    pub profile: Option<String>,
    /// Which front end checked.
    pub source: Source,
    /// `found`, `not_found`, `could_not_check` or `no_check`.
    pub verdict: String,
    /// What the check saw ("found in the thread", "not found after 5 good
    /// reads").
    pub text: String,
}

/// One line of the journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    /// A write and its outcome.
    Write(WriteLine),
    /// The verdict on an earlier write.
    Verdict(VerdictLine),
}

/// A line as written: the version first.
#[derive(Serialize)]
struct Versioned<'a> {
    v: u32,
    #[serde(flatten)]
    line: &'a Line,
}

/// The verdict's word and its text.
pub(crate) fn verdict_words(v: &Verdict) -> (&'static str, String) {
    match v {
        Verdict::Found(how) => ("found", how.clone()),
        Verdict::NotFound => (
            "not_found",
            format!(
                "not found after {} good reads",
                crate::logic::write::GOOD_READS
            ),
        ),
        Verdict::CouldNotCheck(e) => (
            "could_not_check",
            format!(
                "could not check: {} reads failed (last: {e})",
                crate::logic::write::MAX_FAILED_READS
            ),
        ),
        Verdict::NoCheck(why) => ("no_check", format!("cannot be checked: {why}")),
    }
}

/// Now, UTC, RFC 3339 to the millisecond.
pub(crate) fn now_text() -> String {
    let t = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.millisecond()
    )
}

/// The journal file of a profile (`None`: the default workspace): beside
/// its state file, in the data directory.
pub(crate) fn path(paths: &Paths, profile: Option<&str>) -> Option<PathBuf> {
    crate::config::profile::state_file(paths, profile).map(|state| state.with_file_name(FILE))
}

/// The rotated file beside `path` (`journal.jsonl.1`).
pub(crate) fn old_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".1");
    path.with_file_name(name)
}

/// Journals opened in this process so far: two opened in one millisecond
/// (a quick profile switch) still number their entries apart.
static SESSIONS: AtomicU64 = AtomicU64::new(0);

/// The journal of one profile, as one front end appends to it.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    profile: Option<String>,
    source: Source,
    /// Makes entry ids unique across processes and journals: the start
    /// time, the process id and the journal's number in the process.
    session: String,
    next: AtomicU64,
    max_bytes: u64,
    /// The last append that failed, for the front end to say so.
    failure: Mutex<Option<String>>,
}

impl Journal {
    /// A journal at `path`, for `profile`, written by `source`.
    pub fn new(path: PathBuf, profile: Option<String>, source: Source) -> Journal {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        Journal {
            path,
            profile,
            source,
            session: format!(
                "{ms:x}-{:x}{}",
                std::process::id(),
                match SESSIONS.fetch_add(1, Ordering::Relaxed) {
                    0 => String::new(),
                    k => format!(".{k}"),
                }
            ),
            next: AtomicU64::new(1),
            max_bytes: MAX_BYTES,
            failure: Mutex::new(None),
        }
    }

    /// The journal of a profile in the data directory; `None` without one.
    pub fn for_profile(paths: &Paths, profile: Option<&str>, source: Source) -> Option<Journal> {
        path(paths, profile).map(|p| Journal::new(p, profile.map(str::to_owned), source))
    }

    /// The same journal rotated past `bytes` (tests).
    pub fn with_max_bytes(mut self, bytes: u64) -> Journal {
        self.max_bytes = bytes;
        self
    }

    /// Its file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The profile it belongs to.
    pub fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    /// Which front end writes it.
    pub fn source(&self) -> Source {
        self.source
    }

    /// The id of the entry of request `n` of this process (the dashboard
    /// numbers its writes by request id, so a verdict can name the write it
    /// settles).
    pub fn id_for(&self, n: u64) -> String {
        format!("{}-r{n}", self.session)
    }

    /// A fresh entry id, for a write no request id numbers (the CLI's).
    pub fn next_id(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("{}-{n}", self.session)
    }

    /// Appends a write line; a failure is logged and kept for
    /// [`Journal::take_failure`], never passed to the write itself.
    pub fn record(&self, write: WriteLine) {
        self.append_or_note(&Line::Write(write));
    }

    /// Appends the verdict on write `entry`.
    pub fn verdict(&self, entry: &str, verdict: &Verdict) {
        let (word, text) = verdict_words(verdict);
        self.append_or_note(&Line::Verdict(VerdictLine {
            entry: entry.to_owned(),
            at: now_text(),
            profile: self.profile.clone(),
            source: self.source,
            verdict: word.to_owned(),
            text: redact(&text),
        }));
    }

    fn append_or_note(&self, line: &Line) {
        if let Err(e) = self.append(line) {
            let why = format!(
                "the write journal {} could not be written: {e}",
                self.path.display()
            );
            tracing::warn!("{why}");
            if let Ok(mut f) = self.failure.lock() {
                *f = Some(why);
            }
        }
    }

    /// Why the last append failed, once.
    pub fn take_failure(&self) -> Option<String> {
        self.failure.lock().ok().and_then(|mut f| f.take())
    }

    /// Appends one line: one `write` call on a file opened with
    /// `O_APPEND`, rotated first when the line would take it past its
    /// limit.
    pub fn append(&self, line: &Line) -> io::Result<()> {
        let mut bytes = serde_json::to_vec(&Versioned { v: VERSION, line })
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        bytes.push(b'\n');
        if let Some(dir) = self.path.parent() {
            crate::store::create_private_dir(dir)?;
        }
        let mut file = crate::files::open_append_private(&self.path)?;
        let len = file.metadata()?.len();
        if len > 0 && len + bytes.len() as u64 > self.max_bytes {
            drop(file);
            self.rotate(bytes.len() as u64)?;
            file = crate::files::open_append_private(&self.path)?;
        }
        // One call: O_APPEND places the whole line at the end, whatever
        // other writers do (a regular file takes a short line whole).
        let n = file.write(&bytes)?;
        if n < bytes.len() {
            return Err(io::Error::new(
                io::ErrorKind::WriteZero,
                format!("only {n} of {} bytes of a line were written", bytes.len()),
            ));
        }
        Ok(())
    }

    /// Moves the file to `journal.jsonl.1` (replacing the old one), under
    /// a lock, unless another writer has just done it.
    fn rotate(&self, adding: u64) -> io::Result<()> {
        let lock_path = self.path.with_file_name(format!("{FILE}.lock"));
        let lock = crate::files::open_lock(&lock_path)?;
        lock.lock()?;
        let len = match std::fs::metadata(&self.path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => 0,
            Err(e) => return Err(e),
        };
        let result = if len > 0 && len + adding > self.max_bytes {
            std::fs::rename(&self.path, old_path(&self.path))
        } else {
            Ok(())
        };
        drop(lock);
        result
    }
}

/// A write with its verdict, as read back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The write line.
    #[serde(flatten)]
    pub write: WriteLine,
    /// Its verdict, once one was appended.
    pub verdict: Option<VerdictLine>,
}

impl Target {
    /// As a table says it: `campaign Spring push (c-1)`, `thread t-9`,
    /// `pass`.
    pub fn text(&self) -> String {
        match (&self.name, &self.id) {
            (Some(name), Some(id)) => format!("{} {name} ({id})", self.kind),
            (Some(name), None) => format!("{} {name}", self.kind),
            (None, Some(id)) => format!("{} {id}", self.kind),
            (None, None) => self.kind.clone(),
        }
    }
}

impl Record {
    /// How the write came out, in a word or a few, said the same by
    /// `outpost journal` and the dashboard's `:journal`: "done", "refused:
    /// conflict (409)", "may have reached (bad_gateway) · found in the
    /// domain list".
    pub fn outcome_text(&self) -> String {
        let w = &self.write;
        match w.outcome {
            Outcome::Done => "done".into(),
            Outcome::Refused => match (&w.code, w.status) {
                (Some(code), Some(status)) => format!("refused: {code} ({status})"),
                (Some(code), None) => format!("refused: {code}"),
                _ => "refused".into(),
            },
            Outcome::MayHaveReached => {
                let code = w.code.as_deref().unwrap_or("no answer");
                match &self.verdict {
                    Some(v) => format!("may have reached ({code}) · {}", v.text),
                    None => format!("may have reached ({code}) · no verdict recorded"),
                }
            }
        }
    }
}

/// What reading a journal found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Read {
    /// Writes, newest first, each with its verdict.
    pub records: Vec<Record>,
    /// Lines that could not be read (cut, corrupt, or of a newer format).
    pub skipped: usize,
}

/// Reads a journal and its rotated file: writes newest first, each with
/// its verdict. A missing file is an empty journal; anything but a regular
/// file is refused.
pub fn read(path: &Path) -> io::Result<Read> {
    let mut lines: Vec<Line> = Vec::new();
    let mut skipped = 0;
    for p in [old_path(path), path.to_path_buf()] {
        let text = match crate::files::read(&p) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for raw in text.split(|b| *b == b'\n') {
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match parse_line(raw) {
                Some(line) => lines.push(line),
                None => skipped += 1,
            }
        }
    }
    let mut records: Vec<Record> = Vec::new();
    let mut verdicts: Vec<VerdictLine> = Vec::new();
    for line in lines {
        match line {
            Line::Write(write) => records.push(Record {
                write,
                verdict: None,
            }),
            Line::Verdict(v) => verdicts.push(v),
        }
    }
    for v in verdicts {
        // The last verdict on an entry is the one that holds.
        if let Some(r) = records.iter_mut().rev().find(|r| r.write.id == v.entry) {
            r.verdict = Some(v);
        }
    }
    records.reverse();
    Ok(Read { records, skipped })
}

/// One line, when it is of a version this Outpost reads.
fn parse_line(raw: &[u8]) -> Option<Line> {
    #[derive(Deserialize)]
    struct V {
        v: u32,
    }
    let v: V = serde_json::from_slice(raw).ok()?;
    if v.v != VERSION {
        return None;
    }
    serde_json::from_slice(raw).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(id: &str, summary: &str) -> WriteLine {
        WriteLine {
            id: id.into(),
            at: "2026-05-01T10:00:00.000Z".into(),
            profile: Some("acme".into()),
            source: Source::Cli,
            operation: "SendMessage".into(),
            target: Target {
                kind: "thread".into(),
                id: Some("t-1".into()),
                name: Some("rosa@example.com".into()),
            },
            summary: summary.into(),
            outcome: Outcome::Done,
            status: None,
            code: None,
            message: None,
            settle: None,
        }
    }

    fn journal(dir: &Path) -> Journal {
        Journal::new(dir.join(FILE), Some("acme".into()), Source::Cli)
    }

    #[test]
    fn a_line_is_one_json_object_with_its_version_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let j = journal(dir.path());
        j.record(write("a-1", "subject: Hi"));
        j.verdict("a-1", &Verdict::Found("found in the thread".into()));
        let text = std::fs::read_to_string(j.path()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].starts_with(r#"{"v":1,"kind":"write","id":"a-1","at":"2026-05-01T10:00:00.000Z","profile":"acme","source":"cli","operation":"SendMessage","target":{"kind":"thread","id":"t-1","name":"rosa@example.com"},"summary":"subject: Hi","outcome":"done"}"#),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with(r#"{"v":1,"kind":"verdict","entry":"a-1","at":"#));
        let r = read(j.path()).unwrap();
        assert_eq!(r.skipped, 0);
        assert_eq!(r.records.len(), 1);
        let v = r.records[0].verdict.as_ref().expect("its verdict");
        assert_eq!(
            (v.verdict.as_str(), v.text.as_str()),
            ("found", "found in the thread")
        );
    }

    #[test]
    fn newest_comes_first_and_a_bad_line_is_skipped_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let j = journal(dir.path());
        j.record(write("a-1", "first"));
        std::fs::OpenOptions::new()
            .append(true)
            .open(j.path())
            .unwrap()
            .write_all(b"{\"v\":1,\"kind\":\"wri\n{\"v\":9,\"kind\":\"write\"}\n")
            .unwrap();
        j.record(write("a-2", "second"));
        let r = read(j.path()).unwrap();
        let ids: Vec<&str> = r.records.iter().map(|r| r.write.id.as_str()).collect();
        assert_eq!(ids, ["a-2", "a-1"]);
        assert_eq!(r.skipped, 2);
        assert_eq!(
            read(&dir.path().join("none.jsonl")).unwrap(),
            Read::default()
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_file_and_its_directory_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::new(
            dir.path().join("profiles/acme").join(FILE),
            None,
            Source::Cli,
        );
        j.record(write("a-1", "x"));
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(j.path()), 0o600);
        assert_eq!(mode(&dir.path().join("profiles/acme")), 0o700);
        assert_eq!(j.take_failure(), None);
    }

    #[test]
    fn it_is_rotated_past_its_size_keeping_one_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let j = journal(dir.path()).with_max_bytes(1000);
        for n in 0..12 {
            j.record(write(&format!("a-{n}"), &"x".repeat(100)));
        }
        let size = std::fs::metadata(j.path()).unwrap().len();
        let old = std::fs::metadata(old_path(j.path())).unwrap().len();
        assert!(size <= 1000 && old <= 1000, "{size} {old}");
        assert!(!dir.path().join(format!("{FILE}.2")).exists());
        let r = read(j.path()).unwrap();
        // Whatever was rotated twice is gone; the newest are all there, in
        // order, across both files.
        let ids: Vec<String> = r.records.iter().map(|r| r.write.id.clone()).collect();
        assert_eq!(ids[0], "a-11");
        assert!(ids.len() >= 4 && ids.len() < 12, "{ids:?}");
        let expected: Vec<String> = (12 - ids.len()..12)
            .rev()
            .map(|n| format!("a-{n}"))
            .collect();
        assert_eq!(ids, expected);
        assert_eq!(r.skipped, 0);
    }

    #[test]
    fn a_key_in_a_verdict_is_redacted() {
        let dir = tempfile::tempdir().unwrap();
        let j = journal(dir.path());
        j.verdict(
            "a-1",
            &Verdict::CouldNotCheck("unauthorized: pk_live_abcdefghijklmnop refused".into()),
        );
        let text = std::fs::read_to_string(j.path()).unwrap();
        assert!(!text.contains("pk_live_abcdefghijklmnop"), "{text}");
        assert!(text.contains("could not check"), "{text}");
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_or_a_directory_is_refused_never_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join(FILE);
        assert!(crate::files::testing::mkfifo(&fifo), "mkfifo works here");
        let j = journal(dir.path());
        assert!(j.append(&Line::Write(write("a-1", "x"))).is_err());
        j.record(write("a-1", "x"));
        let why = j.take_failure().expect("the failure is kept");
        assert!(why.contains("could not be written"), "{why}");
        assert!(crate::files::is_not_regular(&read(&fifo).unwrap_err()));
        let other = tempfile::tempdir().unwrap();
        std::fs::create_dir(other.path().join(FILE)).unwrap();
        let j = journal(other.path());
        assert!(j.append(&Line::Write(write("a-1", "x"))).is_err());
    }

    /// Writers in parallel (two dashboards and a CLI) never interleave
    /// parts of lines, across rotations too.
    #[test]
    fn parallel_writers_leave_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let j = Journal::new(path, None, Source::Dashboard).with_max_bytes(20_000);
                    for n in 0..100 {
                        j.record(write(&format!("t{t}-{n}"), &"y".repeat(150)));
                    }
                    j.take_failure()
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), None);
        }
        let r = read(&path).unwrap();
        assert_eq!(r.skipped, 0, "every line whole");
        assert!(!r.records.is_empty());
        for t in 0..4 {
            // Each writer's lines that are still kept are in its order.
            let mine: Vec<u32> = r
                .records
                .iter()
                .rev()
                .filter_map(|x| x.write.id.strip_prefix(&format!("t{t}-")))
                .map(|n| n.parse().unwrap())
                .collect();
            assert!(mine.windows(2).all(|w| w[0] < w[1]), "{mine:?}");
        }
    }

    #[test]
    fn ids_are_unique_per_process_and_number() {
        let dir = tempfile::tempdir().unwrap();
        let j = journal(dir.path());
        let a = j.next_id();
        let b = j.next_id();
        assert_ne!(a, b);
        assert_eq!(a, format!("{}-1", j.session));
        assert_eq!(j.id_for(1), format!("{}-r1", j.session));
        let other = journal(dir.path());
        assert_ne!(other.session, j.session, "another process or profile");
    }
}
