//! Effects `update` asks for: requests, clipboard writes, saves, exits. The
//! runtime carries them out and answers with `Msg`s.

use std::path::PathBuf;

use crate::api::model::*;
use crate::store::State;

/// Identifies one request so a reply the user moved away from is dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RequestId(pub u64);

/// One operation of the contract, with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiRequest {
    /// `GET /api/email/domains`.
    ListDomains { skip_sync: bool },
    /// Create a sending domain.
    CreateDomain { name: String },
    /// `POST /api/email/domains/{id}/verify`.
    VerifyDomain { id: String, poll: bool },
    /// `GET /api/senders`.
    ListSenders,
    /// `GET /api/senders/{id}/schedule`.
    SenderSchedule { id: String },
    /// Optional `GET /api/lead-finder`.
    ListSearches,
    /// `GET /api/lead-finder/{id}`.
    GetSearch { id: String, page: SearchPageQuery },
    /// Create a search.
    CreateSearch(Box<CreateSearch>),
    /// `POST /api/lead-finder/{id}/results/query`.
    QueryResults { id: String, query: ResultsQuery },
    /// `POST /api/lead-finder/{id}/run`.
    RunSearch {
        id: String,
        continuation: Option<bool>,
    },
    /// `POST /api/lead-finder/run`.
    RunAll,
    /// The enrichment profile of a result.
    Enrichment { id: String, result_id: String },
    /// Optional `GET /api/campaigns`.
    ListCampaigns,
    /// `GET /api/campaigns/{id}`.
    GetCampaign { id: String },
    /// `GET /api/campaigns/{id}/leads`.
    ListLeads { id: String, query: RosterQuery },
    /// `POST /api/campaigns/{id}/leads`.
    AddLeads {
        id: String,
        channel: Channel,
        leads: Vec<LeadInput>,
    },
    /// `POST /api/campaigns`.
    CreateCampaign(Box<CreateCampaign>),
    /// `PATCH /api/campaigns/{id}` (settings and/or the whole sequence).
    UpdateCampaign {
        id: String,
        update: Box<UpdateCampaign>,
    },
    /// `POST /api/campaigns/{id}/launch`.
    LaunchCampaign { id: String },
    /// `POST /api/campaigns/{id}/pause`.
    PauseCampaign { id: String },
    /// `POST /api/campaigns/{id}/resume`.
    ResumeCampaign { id: String },
    /// `PATCH /api/campaigns/{id}/leads`: one lead's profile fields.
    EditLead { id: String, edit: Box<EditLead> },
    /// `DELETE /api/campaigns/{id}/leads`: up to 500 ids, or all.
    DeleteLeads { id: String, which: DeleteLeads },
    /// `GET /api/campaigns/{id}/generate-messages`.
    GeneratedMessages {
        id: String,
        query: GeneratedMessagesQuery,
    },
    /// `PATCH /api/campaigns/{id}/generate-messages`.
    EditGeneratedMessage {
        id: String,
        edit: EditGeneratedMessage,
    },
    /// `GET /api/threads`.
    ListThreads { query: ThreadQuery },
    /// `GET /api/threads/{id}`.
    GetThread { id: String },
    /// `POST /api/threads`: a draft (never sends).
    CreateThread(Box<CreateThread>),
    /// `PATCH /api/threads/{id}`.
    PatchThread { id: String, patch: Box<PatchThread> },
    /// `DELETE /api/threads/{id}`: an unsent draft.
    DeleteThread { id: String },
    /// `GET /api/threads/{id}/messages`.
    ListMessages {
        id: String,
        page: Option<u64>,
        limit: Option<u64>,
    },
    /// `POST /api/threads/{id}/messages`: sends (never retried).
    SendMessage { id: String, send: Box<SendMessage> },
    /// `GET /api/senders/{id}`.
    GetSender { id: String },
    /// `GET /api/context`.
    GetContext,
    /// `PUT /api/context`: the whole profile.
    PutContext(Box<PutContext>),
    /// `POST /api/test-access/redeem`.
    Redeem { code: String },
}

impl ApiRequest {
    /// Whether a timeout could have left a write half-done on the service.
    pub fn is_write(&self) -> bool {
        !matches!(
            self,
            ApiRequest::ListDomains { .. }
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
                | ApiRequest::GetContext
                | ApiRequest::VerifyDomain { poll: true, .. }
        )
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
    Api { id: RequestId, req: ApiRequest },
    /// Put text on the clipboard with OSC 52.
    Copy(String),
    /// Write the local state file.
    SaveState(Box<State>),
    /// Check whether a path exists (answered by `Msg::PathChecked`).
    CheckPath { id: RequestId, path: PathBuf },
    /// Write a file atomically (answered by `Msg::FileWritten`).
    WriteFile { id: RequestId, file: FileWrite },
    /// Read one chunk of a CSV file (answered by `Msg::CsvRead`).
    ReadCsv {
        /// Answered with this id.
        id: RequestId,
        /// The file and the chunk.
        read: super::csv_chunk::CsvRead,
    },
    /// Suspend to the shell (Ctrl-Z).
    Suspend,
    /// Leave the dashboard.
    Quit,
}
