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
    /// Suspend to the shell (Ctrl-Z).
    Suspend,
    /// Leave the dashboard.
    Quit,
}
