//! Everything that can happen: input, replies, timers, signals.

use std::time::Duration;

use crossterm::event::{KeyEvent, MouseEvent};

use super::cmd::RequestId;
use super::subscriptions::SubId;
pub(crate) use crate::api::ApiReply;

/// What answers a request or an effect, handed to the pane that asked.
#[derive(Debug, Clone)]
pub enum Reply {
    /// An API reply.
    Api(ApiReply),
    /// A path check: whether it exists.
    PathChecked(Result<bool, String>),
    /// A file write.
    FileWritten(Result<(), String>),
    /// A directory listed for a path completion.
    DirListed(Result<super::path_complete::DirListing, String>),
    /// A chunk of a CSV file (or why it could not be read).
    Csv(Result<crate::logic::import::CsvChunk, String>),
    /// What DNS holds for the records asked.
    Dns(crate::dns::Answers),
}

/// A workspace profile opened by a live switch.
#[derive(Debug, Clone)]
pub struct OpenedProfile {
    /// The session facts of its service.
    pub session: super::Session,
    /// Its local state (known ids, drafts, preferences).
    pub state: crate::store::State,
    /// Its poll intervals (loopback services may poll faster).
    pub poll: crate::config::PollIntervals,
    /// Warnings met opening it (its state file, its config).
    pub notices: Vec<String>,
    /// Its last-known lists (empty when it has none, or they could not be
    /// read).
    pub cache: super::cache::Cache,
}

/// Why the process is asked to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// SIGTERM, SIGQUIT or SIGINT.
    Terminate,
    /// SIGHUP: the terminal (SSH session) is gone.
    Hangup,
}

/// One event for `update`.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// Bracketed paste.
    Paste(String),
    /// The terminal was resized.
    Resize(u16, u16),
    /// A request finished.
    Api {
        /// The request it answers.
        id: RequestId,
        /// How long it took.
        latency: Duration,
        /// The answer (boxed: it dwarfs the other messages).
        reply: Box<ApiReply>,
    },
    /// A subscription fired (a poller is due, or a countdown ticked).
    SubFired(SubId),
    /// A route family's rate-limit gate closed or opened: every family's
    /// reopening instant.
    RateLimit(crate::api::RateLimits),
    /// The connection state changed (offline since the first failed
    /// connection, online at any answer).
    Connection(crate::api::ConnState),
    /// A clipboard write finished.
    Copied(Result<Copied, String>),
    /// The state file was written (or why not).
    Saved(Result<(), crate::store::StoreError>),
    /// The store probe answered: whether a save could land now.
    StoreProbed(Result<(), crate::store::StoreError>),
    /// Another workspace profile is open: its session, its local state and
    /// its poll intervals.
    ProfileOpened(Box<OpenedProfile>),
    /// A profile could not be opened (unknown name, bad config, no key).
    ProfileFailed(String),
    /// A path check finished: whether it exists.
    PathChecked {
        /// The check it answers.
        id: RequestId,
        /// Whether the path exists, or why that cannot be told.
        exists: Result<bool, String>,
    },
    /// A file write finished.
    FileWritten {
        /// The write it answers.
        id: RequestId,
        /// Done, or why not.
        result: Result<(), String>,
    },
    /// A directory was listed for a path completion.
    DirListed {
        /// The listing it answers.
        id: RequestId,
        /// The entries, or why the directory could not be read.
        listing: Result<super::path_complete::DirListing, String>,
    },
    /// A chunk of a CSV file was read.
    CsvRead {
        /// The read it answers.
        id: RequestId,
        /// The chunk, or why the file could not be read.
        result: Result<crate::logic::import::CsvChunk, String>,
    },
    /// DNS answered the questions of a `Cmd::ResolveRecords`.
    DnsResolved {
        /// The effect it answers.
        id: RequestId,
        /// Each question with its answer.
        answers: crate::dns::Answers,
    },
    /// The process was asked to end.
    Signal(Signal),
    /// The terminal came back from a suspend: redraw everything.
    Resumed,
    /// Suspending was not possible.
    SuspendFailed(String),
    /// The write journal was read for `:journal` (boxed: it holds every
    /// write of the file).
    JournalRead(Box<super::journal_view::Reading>),
}

/// Where a copied text went, for the notice to say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    /// Characters copied.
    pub chars: usize,
    /// Inside tmux (`$TMUX` set): whether `tmux load-buffer -w -` took the
    /// text (tmux's default `set-clipboard external` drops an application's
    /// OSC 52, so without it nothing may have been kept); `None` outside.
    pub tmux: Option<Result<(), String>>,
    /// What was copied, said in the notice (`None`: only the count).
    pub what: Option<String>,
}
