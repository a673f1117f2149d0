//! The Leads pane: searches, runs, results, enrichment, filters, export and
//! "add to campaign". (Built in the Leads issue; this holds the interface the
//! rest of the app calls.)

use crossterm::event::{KeyEvent, MouseEvent};

use super::{ApiReply, Cmd, Model, RequestId, Sub};
use crate::config::keymap::Action;
use crate::store::State;

/// A confirmed Leads action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// Run every eligible search.
    RunAll,
}

/// State of the pane.
#[derive(Debug, Default)]
pub struct LeadsModel {}

impl LeadsModel {
    /// The pollers this pane wants.
    pub fn subscriptions(&self, _m: &Model, _subs: &mut Vec<Sub>) {}

    /// What unsent text the pane holds, if any.
    pub fn unsent(&self) -> Option<String> {
        None
    }

    /// Copies unsent text into the local state.
    pub fn capture_drafts(&self, _state: &mut State) {}
}

/// The pane became visible.
pub fn on_enter(_m: &mut Model) -> Vec<Cmd> {
    Vec::new()
}

/// The terminal was resized.
pub fn on_resize(_m: &mut Model) {}

/// Pasted text.
pub fn on_paste(_m: &mut Model, _text: &str) -> Vec<Cmd> {
    Vec::new()
}

/// Keys for a focused text box.
pub fn on_text_key(_m: &mut Model, _key: KeyEvent) -> Option<Vec<Cmd>> {
    None
}

/// A key action.
pub fn on_action(_m: &mut Model, _action: Action) -> Vec<Cmd> {
    Vec::new()
}

/// A reply.
pub fn on_reply(_m: &mut Model, _id: RequestId, _reply: ApiReply) -> Vec<Cmd> {
    Vec::new()
}

/// A run watch fired.
pub fn on_run_watch_due(_m: &mut Model, _search: &str) -> Vec<Cmd> {
    Vec::new()
}

/// Mouse on the body.
pub fn on_mouse(_m: &mut Model, _ev: MouseEvent) -> Vec<Cmd> {
    Vec::new()
}

/// A confirm dialog said yes.
pub fn on_confirmed(_m: &mut Model, _what: Confirmed) -> Vec<Cmd> {
    Vec::new()
}

/// A confirm dialog said no.
pub fn on_declined(_m: &mut Model, _what: Confirmed) -> Vec<Cmd> {
    Vec::new()
}

/// A path check finished.
pub fn on_path_checked(_m: &mut Model, _id: RequestId, _exists: Result<bool, String>) -> Vec<Cmd> {
    Vec::new()
}

/// A file write finished.
pub fn on_file_written(_m: &mut Model, _id: RequestId, _result: Result<(), String>) -> Vec<Cmd> {
    Vec::new()
}

/// Opens a search by id.
pub fn open_search_by_id(_m: &mut Model, _id: &str, _source: &str) -> Vec<Cmd> {
    Vec::new()
}

/// Starts a CSV export.
pub fn start_export(_m: &mut Model, _path: Option<String>) -> Vec<Cmd> {
    Vec::new()
}
