//! Effects `update` asks for: requests, clipboard writes, saves, exits. The
//! runtime carries them out and answers with `Msg`s.

use std::path::PathBuf;

pub(crate) use crate::api::ApiRequest;
use crate::store::State;

/// Identifies one request so a reply the user moved away from is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RequestId(pub u64);

/// A file to write, for CSV export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite {
    /// Destination.
    pub path: PathBuf,
    /// Contents.
    pub bytes: Vec<u8>,
    /// Whether an existing file may be replaced (the user confirmed).
    pub overwrite: bool,
    /// Whether a missing directory may be created (the user confirmed);
    /// otherwise the write fails naming it.
    pub create_dirs: bool,
}

/// An effect.
#[derive(Debug, Clone, PartialEq)]
pub enum Cmd {
    /// Send a request; the reply comes back as `Msg::Api` with this id.
    Api {
        /// Matches the reply to the request.
        id: RequestId,
        /// The operation.
        req: ApiRequest,
    },
    /// Check whether the local state could be saved now (answered by
    /// `Msg::StoreProbed`).
    ProbeStore,
    /// Open another workspace profile (`None`: the default one): a new
    /// client and state file (answered by `Msg::ProfileOpened` or
    /// `Msg::ProfileFailed`).
    SwitchProfile(Option<String>),
    /// Put text on the clipboard with OSC 52.
    Copy(String),
    /// Put an id on the clipboard like [`Cmd::Copy`]; the notice says
    /// `what` was copied.
    CopyId {
        /// The id.
        text: String,
        /// What it is, for the notice ("the id of campaign “Q3” (…)").
        what: String,
    },
    /// Get the user's attention: the bell and a desktop notification, as
    /// configured (`[notify]`); the text is made inert first.
    Notify {
        /// Short title.
        title: String,
        /// What happened.
        text: String,
    },
    /// Write the local state file.
    SaveState(Box<State>),
    /// Write the last-known lists of this workspace (behind, in order;
    /// unanswered: a failure is only logged).
    SaveCache(Box<super::cache::Cache>),
    /// Check whether a path exists (answered by `Msg::PathChecked`).
    CheckPath {
        /// Matches the answer to the check.
        id: RequestId,
        /// The path.
        path: PathBuf,
    },
    /// Write a file atomically (answered by `Msg::FileWritten`).
    WriteFile {
        /// Matches the answer to the write.
        id: RequestId,
        /// What to write where.
        file: FileWrite,
    },
    /// List a directory for a path field's Tab completion (answered by
    /// `Msg::DirListed`).
    ListDir {
        /// Answered with this id.
        id: RequestId,
        /// The directory, as typed (`~` is the home directory).
        dir: PathBuf,
    },
    /// Read one chunk of a CSV file (answered by `Msg::CsvRead`).
    ReadCsv {
        /// Answered with this id.
        id: RequestId,
        /// The file and the chunk.
        read: crate::logic::import::CsvRead,
    },
    /// Ask DNS for a domain's records (answered by `Msg::DnsResolved`).
    ResolveRecords {
        /// Answered with this id.
        id: RequestId,
        /// The questions, one per name and type.
        records: Vec<crate::dns::Query>,
    },
    /// Suspend to the shell (Ctrl-Z).
    Suspend,
    /// While offline: one attempt at the service, whose only use is the
    /// connection state it publishes (the return is noticed even when no
    /// poller is due for minutes).
    ProbeConnection,
    /// Append the verdict on a write that may have reached to the write
    /// journal, naming the write by the id of the request that sent it
    /// (its journal entry is numbered so); unanswered.
    JournalVerdict {
        /// The request that sent the write.
        write: RequestId,
        /// How its check settled.
        verdict: crate::logic::write::Verdict,
    },
    /// Read this profile's write journal for `:journal` (answered by
    /// `Msg::JournalRead`), off the loop.
    ReadJournal,
    /// Leave the dashboard.
    Quit,
}

impl Cmd {
    /// The request a command sends, with its id.
    pub fn request(&self) -> Option<(RequestId, &ApiRequest)> {
        match self {
            Cmd::Api { id, req } => Some((*id, req)),
            _ => None,
        }
    }
}
