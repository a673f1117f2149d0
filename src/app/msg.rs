//! Everything that can happen: input, replies, timers, signals.

use std::time::Duration;

use crossterm::event::{KeyEvent, MouseEvent};
use serde_json::Value;

use super::cmd::RequestId;
use super::subscriptions::SubId;
use crate::api::ApiError;
use crate::api::model::*;

/// The answer to one `ApiRequest`, variant for variant.
#[derive(Debug, Clone)]
pub enum ApiReply {
    /// Domains, newest first.
    Domains(Result<Vec<SendingDomain>, ApiError>),
    /// One domain (create or verify).
    Domain(Result<SendingDomain, ApiError>),
    /// Senders.
    Senders(Result<Vec<SenderAccount>, ApiError>),
    /// A sender's schedule (free-form JSON).
    Schedule(Result<Value, ApiError>),
    /// Searches; `None` when the list route is not offered.
    Searches(Result<Option<Vec<Search>>, ApiError>),
    /// A search with a page of results.
    SearchPage(Box<Result<SearchPage, ApiError>>),
    /// A created search.
    SearchCreated(Box<Result<Search, ApiError>>),
    /// Filtered results.
    Results(Box<Result<ResultsPage, ApiError>>),
    /// A started run.
    RunStarted(Box<Result<RunResponse, ApiError>>),
    /// The answer of run-all.
    RunAll(Box<Result<RunAllResponse, ApiError>>),
    /// An enrichment profile.
    Enrichment(Box<Result<EnrichmentResponse, ApiError>>),
    /// Campaigns; `None` when the list route is not offered.
    Campaigns(Result<Option<Vec<Campaign>>, ApiError>),
    /// One campaign.
    Campaign(Box<Result<Campaign, ApiError>>),
    /// A roster page.
    Roster(Result<RosterPage, ApiError>),
    /// The answer of add-leads.
    LeadsAdded(Result<AddLeadsResponse, ApiError>),
    /// One lead (after an edit).
    Lead(Box<Result<CampaignLead, ApiError>>),
    /// How many leads were deleted.
    LeadsDeleted(Result<u64, ApiError>),
    /// Generated messages.
    Messages(Result<Vec<GeneratedMessage>, ApiError>),
    /// One generated message (after an edit).
    Message(Box<Result<GeneratedMessage, ApiError>>),
    /// A page of threads.
    Threads(Result<ThreadPage, ApiError>),
    /// One thread (get, or patch).
    Thread(Box<Result<Thread, ApiError>>),
    /// A created draft thread.
    ThreadCreated(Box<Result<CreateThreadResponse, ApiError>>),
    /// A deleted draft thread.
    ThreadDeleted(Result<(), ApiError>),
    /// A page of a thread's messages.
    ThreadMessages(Result<MessagesPage, ApiError>),
    /// A sent message with its thread.
    Sent(Box<Result<SendMessageResponse, ApiError>>),
    /// One sender.
    Sender(Box<Result<SenderAccount, ApiError>>),
    /// The company profile.
    Context(Box<Result<ContextResponse, ApiError>>),
    /// The stored profile after a replacement.
    ContextSaved(Box<Result<CompanyContext, ApiError>>),
    /// A discovery pass after a redeem.
    Redeemed(Box<Result<DiscoveryPass, ApiError>>),
}

impl ApiReply {
    /// The error, if the reply is one.
    pub fn error(&self) -> Option<&ApiError> {
        match self {
            ApiReply::Domains(r) => r.as_ref().err(),
            ApiReply::Domain(r) => r.as_ref().err(),
            ApiReply::Senders(r) => r.as_ref().err(),
            ApiReply::Schedule(r) => r.as_ref().err(),
            ApiReply::Searches(r) => r.as_ref().err(),
            ApiReply::SearchPage(r) => r.as_ref().as_ref().err(),
            ApiReply::SearchCreated(r) => r.as_ref().as_ref().err(),
            ApiReply::Results(r) => r.as_ref().as_ref().err(),
            ApiReply::RunStarted(r) => r.as_ref().as_ref().err(),
            ApiReply::RunAll(r) => r.as_ref().as_ref().err(),
            ApiReply::Enrichment(r) => r.as_ref().as_ref().err(),
            ApiReply::Campaigns(r) => r.as_ref().err(),
            ApiReply::Campaign(r) => r.as_ref().as_ref().err(),
            ApiReply::Roster(r) => r.as_ref().err(),
            ApiReply::LeadsAdded(r) => r.as_ref().err(),
            ApiReply::Lead(r) => r.as_ref().as_ref().err(),
            ApiReply::LeadsDeleted(r) => r.as_ref().err(),
            ApiReply::Messages(r) => r.as_ref().err(),
            ApiReply::Message(r) => r.as_ref().as_ref().err(),
            ApiReply::Threads(r) => r.as_ref().err(),
            ApiReply::Thread(r) => r.as_ref().as_ref().err(),
            ApiReply::ThreadCreated(r) => r.as_ref().as_ref().err(),
            ApiReply::ThreadDeleted(r) => r.as_ref().err(),
            ApiReply::ThreadMessages(r) => r.as_ref().err(),
            ApiReply::Sent(r) => r.as_ref().as_ref().err(),
            ApiReply::Sender(r) => r.as_ref().as_ref().err(),
            ApiReply::Context(r) => r.as_ref().as_ref().err(),
            ApiReply::ContextSaved(r) => r.as_ref().as_ref().err(),
            ApiReply::Redeemed(r) => r.as_ref().as_ref().err(),
        }
    }
}

/// What answers a request or an effect, handed to the pane that asked.
#[derive(Debug, Clone)]
pub enum Reply {
    /// An API reply.
    Api(ApiReply),
    /// A path check: whether it exists.
    PathChecked(Result<bool, String>),
    /// A file write.
    FileWritten(Result<(), String>),
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
    Copied(Result<usize, String>),
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
}
