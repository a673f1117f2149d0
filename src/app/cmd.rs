//! Effects `update` asks for: requests, clipboard writes, saves, exits. The
//! runtime carries them out and answers with `Msg`s.

use std::path::PathBuf;

use crate::api::model::*;
use crate::logic::write::Settle;
use crate::store::State;

/// Identifies one request so a reply the user moved away from is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RequestId(pub u64);

/// One operation of the contract, with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiRequest {
    /// `GET /api/email/domains`.
    ListDomains {
        /// Read the cached status without asking the mail provider.
        skip_sync: bool,
    },
    /// Create a sending domain.
    CreateDomain {
        /// The domain name.
        name: String,
    },
    /// `POST /api/email/domains/{id}/verify`.
    VerifyDomain {
        /// The domain's id.
        id: String,
        /// A watch poll (`poll=true`: a read) rather than a trigger.
        poll: bool,
    },
    /// `GET /api/senders`.
    ListSenders,
    /// `GET /api/senders/{id}/schedule`.
    SenderSchedule {
        /// The sender's id.
        id: String,
    },
    /// Optional `GET /api/lead-finder`.
    ListSearches,
    /// `GET /api/lead-finder/{id}`.
    GetSearch {
        /// The search's id.
        id: String,
        /// Which page, of what size.
        page: SearchPageQuery,
    },
    /// Create a search.
    CreateSearch(Box<CreateSearch>),
    /// `POST /api/lead-finder/{id}/results/query`.
    QueryResults {
        /// The search whose results are filtered.
        id: String,
        /// The filter, sort and page.
        query: ResultsQuery,
    },
    /// `POST /api/lead-finder/{id}/run`.
    RunSearch {
        /// The search to run.
        id: String,
        /// Continue the last run rather than start afresh.
        continuation: Option<bool>,
    },
    /// `POST /api/lead-finder/run`.
    RunAll,
    /// The enrichment profile of a result.
    Enrichment {
        /// The search the result belongs to.
        id: String,
        /// The result id.
        result_id: String,
    },
    /// Optional `GET /api/campaigns`.
    ListCampaigns,
    /// `GET /api/campaigns/{id}`.
    GetCampaign {
        /// The campaign's id.
        id: String,
    },
    /// `GET /api/campaigns/{id}/leads`.
    ListLeads {
        /// The campaign whose roster is read.
        id: String,
        /// The filter, sort and page.
        query: RosterQuery,
    },
    /// `POST /api/campaigns/{id}/leads`.
    AddLeads {
        /// The campaign the leads join.
        id: String,
        /// The channel the leads are added for.
        channel: Channel,
        /// The leads (shared: an import keeps the chunk it sends, to send
        /// it again without the rows a 400 names, and must not copy it).
        leads: std::sync::Arc<[LeadInput]>,
    },
    /// `POST /api/campaigns`.
    CreateCampaign(Box<CreateCampaign>),
    /// `PATCH /api/campaigns/{id}` (settings and/or the whole sequence).
    UpdateCampaign {
        /// The campaign to change.
        id: String,
        /// The changes.
        update: Box<UpdateCampaign>,
    },
    /// `POST /api/campaigns/{id}/launch`.
    LaunchCampaign {
        /// The campaign to launch.
        id: String,
    },
    /// `POST /api/campaigns/{id}/pause`.
    PauseCampaign {
        /// The campaign to pause.
        id: String,
    },
    /// `POST /api/campaigns/{id}/resume`.
    ResumeCampaign {
        /// The campaign to resume.
        id: String,
    },
    /// `PATCH /api/campaigns/{id}/leads`: one lead's profile fields.
    EditLead {
        /// The campaign whose lead is edited.
        id: String,
        /// The changes.
        edit: Box<EditLead>,
    },
    /// `DELETE /api/campaigns/{id}/leads`: up to 500 ids, or all.
    DeleteLeads {
        /// The campaign whose leads are removed.
        id: String,
        /// Which leads.
        which: DeleteLeads,
    },
    /// `GET /api/campaigns/{id}/generate-messages`.
    GeneratedMessages {
        /// The campaign whose generated messages are read.
        id: String,
        /// The filter, sort and page.
        query: GeneratedMessagesQuery,
    },
    /// `PATCH /api/campaigns/{id}/generate-messages`.
    EditGeneratedMessage {
        /// The campaign the message was generated for.
        id: String,
        /// The changes.
        edit: EditGeneratedMessage,
    },
    /// `GET /api/threads`.
    ListThreads {
        /// The filter, sort and page.
        query: ThreadQuery,
    },
    /// `GET /api/threads/{id}`.
    GetThread {
        /// The thread's id.
        id: String,
    },
    /// `POST /api/threads`: a draft (never sends).
    CreateThread(Box<CreateThread>),
    /// `PATCH /api/threads/{id}`.
    PatchThread {
        /// The thread to change.
        id: String,
        /// The changes.
        patch: Box<PatchThread>,
    },
    /// `DELETE /api/threads/{id}`: an unsent draft.
    DeleteThread {
        /// The draft thread to delete.
        id: String,
    },
    /// `GET /api/threads/{id}/messages`.
    ListMessages {
        /// The thread whose messages are read.
        id: String,
        /// Page number.
        page: Option<u64>,
        /// Page size.
        limit: Option<u64>,
    },
    /// `POST /api/threads/{id}/messages`: sends (never retried).
    SendMessage {
        /// The draft thread to send.
        id: String,
        /// The message.
        send: Box<SendMessage>,
    },
    /// `GET /api/senders/{id}`.
    GetSender {
        /// The sender's id.
        id: String,
    },
    /// `GET /api/context`.
    GetContext,
    /// `PUT /api/context`: the whole profile.
    PutContext(Box<PutContext>),
    /// `POST /api/test-access/redeem`.
    Redeem {
        /// The access code.
        code: String,
    },
}

impl ApiRequest {
    /// How a reply of this operation that may have reached the service is
    /// settled (`None`: a read, which changes nothing and read-only mode
    /// lets through). The one declaration per operation that the panes'
    /// checks and the read-only rule follow.
    pub fn settle(&self) -> Option<Settle> {
        match self {
            ApiRequest::ListDomains { .. }
            | ApiRequest::VerifyDomain { poll: true, .. }
            | ApiRequest::ListSenders
            | ApiRequest::SenderSchedule { .. }
            | ApiRequest::ListSearches
            | ApiRequest::GetSearch { .. }
            | ApiRequest::QueryResults { .. }
            | ApiRequest::Enrichment { .. }
            | ApiRequest::ListCampaigns
            | ApiRequest::GetCampaign { .. }
            | ApiRequest::ListLeads { .. }
            | ApiRequest::GeneratedMessages { .. }
            | ApiRequest::ListThreads { .. }
            | ApiRequest::GetThread { .. }
            | ApiRequest::ListMessages { .. }
            | ApiRequest::GetSender { .. }
            | ApiRequest::GetContext => None,
            // The service drops duplicate leads; a full replacement and a
            // trigger of verification do the same thing twice.
            ApiRequest::AddLeads { .. }
            | ApiRequest::PutContext(_)
            | ApiRequest::VerifyDomain { poll: false, .. } => Some(Settle::SafeToRepeat),
            // The contract has no read of a pass.
            ApiRequest::Redeem { .. } => Some(Settle::NoCheck),
            // A read proves each: the list of domains, searches, campaigns
            // or drafts; the search's runs; the campaign and its status;
            // the roster; the generated messages; the thread and its
            // messages.
            ApiRequest::CreateDomain { .. }
            | ApiRequest::CreateSearch(_)
            | ApiRequest::RunSearch { .. }
            | ApiRequest::RunAll
            | ApiRequest::CreateCampaign(_)
            | ApiRequest::UpdateCampaign { .. }
            | ApiRequest::LaunchCampaign { .. }
            | ApiRequest::PauseCampaign { .. }
            | ApiRequest::ResumeCampaign { .. }
            | ApiRequest::EditLead { .. }
            | ApiRequest::DeleteLeads { .. }
            | ApiRequest::EditGeneratedMessage { .. }
            | ApiRequest::CreateThread(_)
            | ApiRequest::PatchThread { .. }
            | ApiRequest::DeleteThread { .. }
            | ApiRequest::SendMessage { .. } => Some(Settle::Check),
        }
    }

    /// Whether the operation can change the service.
    pub fn is_write(&self) -> bool {
        self.settle().is_some()
    }
}

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
