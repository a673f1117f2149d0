//! CSV import into a draft campaign: a path, a column mapping pre-filled
//! from the header names (any other column goes into `custom_fields`), a
//! preview of the first rows with the rows lacking the channel's identity
//! marked and left out, then the upload in chunks of at most 1,000 with a
//! progress bar, and the report: imported, duplicates (in the file /
//! already in the roster) and the rows left out with their numbers.
//!
//! The file is read by the runtime one chunk at a time (`Cmd::ReadCsv`):
//! while a chunk uploads, the next one is read and prepared (reading and
//! mapping the file overlap the upload), and no further, so the import
//! holds two chunks at most whatever the file size. Duplicates within the
//! file are found with a hash per identity (8 bytes a row), so they are
//! reported as such even across chunks. A failure stops the import, says
//! which rows went in, and offers to resume from the failed chunk. The
//! mapping, the rows made into leads and the counts are the rules the CLI's
//! import shares ([`crate::logic::import`]); this is the dialog around them.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use super::super::dialog::Outcome;
use super::super::form::edit_key;
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::rules::Op;
use super::{
    CampaignsModel, Confirmed, Dialog, Purpose, detail, error_text, fixed_keys, roster, target,
};
use crate::api::ApiError;
use crate::api::model::{AddLeadsResponse, Channel};
use crate::app::ctx::Ctx;
use crate::app::keymap::Action;
use crate::app::path_complete::PathCompletion;
use crate::app::requests::Requests;
use crate::logic::import::{
    Batch, CHUNK, CHUNK_BYTES, Counts, CsvChunk, CsvPos, CsvRead, PreviewRow, Target, Verdict,
    check_mapping, guess_all, preview,
};

/// Where the import is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Typing the file's path.
    Path,
    /// Reading the header and the first rows.
    Reading,
    /// Mapping columns to lead fields.
    Mapping,
    /// The first rows as they will be sent.
    Preview,
    /// Chunks going up.
    Uploading,
    /// Stopped by a failure; can resume from the failed chunk.
    Failed,
    /// Finished (or stopped by the user): the report.
    Done,
}

/// The chunk after the one in flight, read while that one uploads
/// (whether it is being read is the request table's to say).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Ahead {
    /// Not read yet: being read, or not asked for (the end of the file, a
    /// stop, or no upload yet).
    #[default]
    None,
    /// Read and prepared: sent as soon as the chunk in flight went in.
    Ready(Batch),
    /// It could not be read: the import stops there once the chunk in
    /// flight went in (so the report says which rows did).
    Unreadable(String),
}

/// Why the import stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Where the failed chunk starts.
    pub start: CsvPos,
    /// Its first line.
    pub line: u64,
    /// What failed.
    pub message: String,
    /// The chunk may have gone in (its answer was lost).
    pub uncertain: bool,
}

/// The upload: its counts, and where it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// What went in, and what did not.
    pub counts: Counts,
    /// The chunk on its way.
    pub inflight: Option<Batch>,
    /// The chunk after it.
    pub ahead: Ahead,
    /// Where the next chunk starts (`None`: the end was reached).
    pub next: Option<CsvPos>,
    /// Why it stopped.
    pub failure: Option<Failure>,
    /// The user asked to stop after the chunk in flight.
    pub stop: bool,
    /// When the open campaign was last read again during the upload.
    pub reread_at: Option<Instant>,
}

/// How often the open campaign is read again while an upload goes on (its
/// total and stats change with every chunk; reading it after each of a
/// hundred chunks would double the requests of a large import). It is read
/// again when the import ends, whatever the time.
const REREAD_EVERY: Duration = Duration::from_secs(2);

/// The import dialog.
#[derive(Debug, Clone)]
pub struct Import {
    /// The id of the campaign the leads are imported into.
    pub campaign: String,
    /// Its name.
    pub name: String,
    /// Its channel.
    pub channel: Channel,
    /// The step the import is at: path, reading, mapping, preview, uploading, end.
    pub stage: Stage,
    /// The path being typed.
    pub path_input: TextArea<'static>,
    /// The CSV file being imported, as the user named it.
    pub path: PathBuf,
    /// Tab completion of the path.
    pub complete: PathCompletion,
    /// A message (bad path, bad mapping).
    pub error: Option<String>,
    /// The header's column names.
    pub header: Vec<String>,
    /// Where each column goes.
    pub mapping: Vec<Target>,
    /// Selection over the columns.
    pub map_table: TableState,
    /// The first chunk (preview and first upload).
    pub first: Option<CsvChunk>,
    /// The preview of the first chunk.
    pub preview: Vec<PreviewRow>,
    /// Selection over the preview.
    pub preview_table: TableState,
    /// The upload.
    pub progress: Progress,
    /// Scroll of the report's list.
    pub scroll: u16,
}

impl Import {
    fn new(campaign: &crate::api::model::Campaign, path: Option<&str>) -> Import {
        let mut input = TextArea::new(vec![path.unwrap_or_default().to_owned()]);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        Import {
            campaign: campaign.id.clone(),
            name: campaign.name.clone(),
            channel: campaign.kind.clone(),
            stage: Stage::Path,
            path_input: input,
            path: PathBuf::new(),
            complete: PathCompletion::default(),
            error: None,
            header: Vec::new(),
            mapping: Vec::new(),
            map_table: TableState::default(),
            first: None,
            preview: Vec::new(),
            preview_table: TableState::default(),
            progress: Progress::default(),
            scroll: 0,
        }
    }

    /// Pasted text goes to the path prompt.
    pub fn paste(&mut self, text: &str) {
        if self.stage == Stage::Path {
            self.path_input
                .insert_str(text.trim().replace(['\n', '\r'], ""));
            self.complete.edited();
        }
    }

    /// Counts of the preview: (to import, left out, duplicates).
    pub fn preview_counts(&self) -> (usize, usize, usize) {
        let n = |f: fn(&Verdict) -> bool| self.preview.iter().filter(|r| f(&r.verdict)).count();
        (
            n(|v| *v == Verdict::Import),
            n(|v| matches!(v, Verdict::LeftOut(_))),
            n(|v| *v == Verdict::Duplicate),
        )
    }

    /// Whether it is busy with the file or the service (Esc then stops
    /// after the chunk in flight instead of closing).
    pub fn running(&self) -> bool {
        matches!(self.stage, Stage::Reading | Stage::Uploading)
    }
}

/// Rows of the mapping and preview tables on screen.
pub(crate) fn table_viewport(cx: &Ctx<'_>) -> usize {
    usize::from(
        super::layout::dialog(cx.layout().body, 100)
            .height
            .saturating_sub(9),
    )
    .max(1)
}

/// `i` / `:import [path]`: starts an import into the target campaign
/// (draft only), at the path prompt or, with a path, reading it.
pub fn open(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, path: Option<String>) -> Vec<Cmd> {
    let Some(c) = target(cm) else {
        cx.notify(
            Level::Info,
            "No campaign",
            "open (or select) the draft campaign to import into first",
        );
        return Vec::new();
    };
    if !detail::allowed(cx, &c, Op::ChangeRoster) {
        return Vec::new();
    }
    let mut d = Box::new(Import::new(&c, path.as_deref()));
    match path {
        Some(p) if !p.trim().is_empty() => {
            d.path = PathBuf::from(p.trim());
            d.stage = Stage::Reading;
            cm.dialog = Some(Dialog::Import(d));
            read_from(cm, cx, CsvPos::START)
        }
        _ => {
            cm.dialog = Some(Dialog::Import(d));
            Vec::new()
        }
    }
}

fn dialog_mut(cm: &mut CampaignsModel) -> Option<&mut Import> {
    match cm.dialog.as_mut() {
        Some(Dialog::Import(d)) => Some(d),
        _ => None,
    }
}

/// Asks the runtime for the chunk starting at `start`.
fn read_from(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, start: CsvPos) -> Vec<Cmd> {
    let Some(path) = dialog_mut(cm).map(|d| d.path.clone()) else {
        return Vec::new();
    };
    let id = cx.effect(Purpose::ImportRead);
    vec![Cmd::ReadCsv {
        id,
        read: CsvRead {
            path,
            start,
            header: start == CsvPos::START,
            max_rows: CHUNK,
            max_bytes: CHUNK_BYTES,
        },
    }]
}

/// A chunk of the file arrived (or could not be read).
pub(crate) fn on_read(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    result: Result<CsvChunk, String>,
) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    match (d.stage, result) {
        (Stage::Reading, Ok(chunk)) if d.first.is_none() => {
            to_mapping(d, chunk);
            Vec::new()
        }
        (Stage::Reading | Stage::Uploading, Ok(chunk)) => prepare(cm, cx, chunk),
        (Stage::Reading, Err(why)) if d.first.is_none() => {
            d.stage = Stage::Path;
            d.error = Some(why);
            Vec::new()
        }
        (Stage::Uploading, Err(why)) if d.progress.inflight.is_some() => {
            d.progress.ahead = Ahead::Unreadable(why);
            Vec::new()
        }
        (Stage::Reading | Stage::Uploading, Err(why)) => {
            let start = d.progress.next.unwrap_or(CsvPos::START);
            fail(d, start, start.line, why, false);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn to_mapping(d: &mut Import, chunk: CsvChunk) {
    let header = chunk.header.clone().unwrap_or_default();
    if header.iter().all(String::is_empty) {
        d.stage = Stage::Path;
        d.error = Some(format!(
            "{} has no header row: its first line must name the columns",
            d.path.display()
        ));
        return;
    }
    d.mapping = guess_all(&header);
    d.map_table = TableState::default();
    d.map_table.set_len(header.len(), 1);
    d.header = header;
    d.progress.counts.file_len = chunk.file_len;
    d.first = Some(chunk);
    d.stage = Stage::Mapping;
    d.error = None;
}

fn fail(d: &mut Import, start: CsvPos, line: u64, message: String, uncertain: bool) {
    d.progress.inflight = None;
    d.progress.ahead = Ahead::None;
    d.progress.failure = Some(Failure {
        start,
        line,
        message,
        uncertain,
    });
    d.stage = Stage::Failed;
}

/// Turns a chunk of rows into a chunk of leads: broken rows and rows
/// without the identity are left out, rows repeating an identity of the
/// file are counted as duplicates. With a chunk in flight it waits as the
/// next one; else it is sent (or taken as done when no lead is left) and
/// the chunk after it is read meanwhile.
fn prepare(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, chunk: CsvChunk) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    if d.progress.stop && d.progress.inflight.is_none() {
        // Stopped while this chunk was read: it is not sent.
        d.stage = Stage::Done;
        d.progress.ahead = Ahead::None;
        return finish(cm, cx);
    }
    d.progress.counts.file_len = chunk.file_len;
    // Identities of the chunk in flight count as seen: when it fails, the
    // chunk read ahead is dropped and read again.
    let pending: HashSet<u64> = d
        .progress
        .inflight
        .iter()
        .flat_map(|f| f.keys.iter().copied())
        .collect();
    let seen = &d.progress.counts.seen;
    let f = Batch::of(chunk, &d.mapping, &d.channel, |key| {
        seen.contains(&key) || pending.contains(&key)
    });
    if d.progress.inflight.is_some() {
        d.progress.ahead = Ahead::Ready(f);
        return Vec::new();
    }
    start_upload(cm, cx, f)
}

/// Sends `f` and reads the chunk after it meanwhile.
fn start_upload(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, f: Batch) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    let next = (!f.eof).then_some(f.next);
    d.progress.inflight = Some(f);
    d.progress.ahead = Ahead::None;
    d.stage = Stage::Uploading;
    let mut cmds = Vec::new();
    // Asked first: a chunk without a lead is done at once, and must find
    // the next one on its way.
    if let Some(next) = next {
        cmds = read_from(cm, cx, next);
    }
    cmds.extend(send(cm, cx));
    cmds
}

/// Whether a chunk of the file is being read.
fn reading(requests: &Requests) -> bool {
    super::pending(requests, |p| *p == Purpose::ImportRead)
}

/// Drops the chunk read ahead and forgets a read of it on its way.
fn drop_ahead(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) {
    if let Some(d) = dialog_mut(cm) {
        d.progress.ahead = Ahead::None;
    }
    cx.requests
        .forget::<super::CampaignsModel>(|p| *p == Purpose::ImportRead);
}

/// Sends the chunk in flight, or takes it as done when it holds no lead.
fn send(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    let Some(f) = d.progress.inflight.as_ref() else {
        return Vec::new();
    };
    if f.leads.is_empty() {
        return commit(cm, cx, &AddLeadsResponse::default());
    }
    let req = ApiRequest::AddLeads {
        id: d.campaign.clone(),
        channel: d.channel.clone(),
        leads: Arc::clone(&f.leads),
    };
    cx.request(Purpose::ImportChunk, req);
    Vec::new()
}

/// The chunk in flight went in: its counts are taken, then the next chunk
/// is read (or the import ends).
fn commit(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, r: &AddLeadsResponse) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    let Some(f) = d.progress.inflight.take() else {
        return Vec::new();
    };
    let (next, eof) = (f.next, f.eof);
    let p = &mut d.progress;
    p.counts.went_in(f, r);
    if eof {
        p.next = None;
        d.stage = Stage::Done;
        return finish(cm, cx);
    }
    p.next = Some(next);
    if p.stop {
        d.stage = Stage::Done;
        drop_ahead(cm, cx);
        return finish(cm, cx);
    }
    d.stage = Stage::Uploading;
    let campaign = d.campaign.clone();
    let mut cmds = match std::mem::take(&mut d.progress.ahead) {
        Ahead::Ready(next) => start_upload(cm, cx, next),
        Ahead::Unreadable(why) => {
            fail(d, next, next.line, why, false);
            return Vec::new();
        }
        // Being read: it is sent when it arrives.
        Ahead::None if reading(cx.requests) => Vec::new(),
        Ahead::None => read_from(cm, cx, next),
    };
    // Each chunk that went in changes the campaign's total and stats: it is
    // read again now and then while the upload goes on.
    let now = cx.now;
    let due = dialog_mut(cm).is_some_and(|d| {
        d.progress
            .reread_at
            .is_none_or(|t| now.saturating_duration_since(t) >= REREAD_EVERY)
    });
    if r.imported > 0 && due && cm.open_id() == Some(campaign.as_str()) {
        if let Some(d) = dialog_mut(cm) {
            d.progress.reread_at = Some(now);
        }
        cmds.extend(detail::read_again(cx, &campaign));
    }
    cmds
}

/// A chunk answered.
pub(crate) fn on_uploaded(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    result: Result<AddLeadsResponse, ApiError>,
) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    if d.progress.inflight.is_none() {
        return Vec::new();
    }
    match result {
        Ok(r) => commit(cm, cx, &r),
        Err(e) => on_refused(cm, cx, &e),
    }
}

/// A chunk was refused. A 400 naming rows the service would not take
/// (the whole batch is refused, nothing went in) leaves those rows out and
/// sends the rest again; any other failure stops the import.
fn on_refused(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, e: &crate::api::ApiError) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    let Some(f) = d.progress.inflight.as_mut() else {
        return Vec::new();
    };
    if f.leave_out_refused(e) {
        // The chunk ahead counted the refused rows as seen: it is read
        // again once this one went in.
        drop_ahead(cm, cx);
        return send(cm, cx);
    }
    let (start, line) = (f.start, f.span.0);
    let lost = crate::logic::write::of_error(e) == crate::logic::write::Outcome::MayHaveReached;
    fail(d, start, line, error_text(e), lost);
    // The chunk read ahead is not wanted (a resume reads from the failed
    // one), and its answer must never reach a later import.
    drop_ahead(cm, cx);
    Vec::new()
}

/// Reads the roster and the campaign again after the import.
fn finish(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    let (campaign, summary) = (d.campaign.clone(), d.progress.counts.summary());
    cx.notify(Level::Success, "Import finished", &summary);
    if cm.open_id() == Some(campaign.as_str()) {
        let mut cmds = detail::read_again(cx, &campaign);
        cmds.extend(roster::reload(cm, cx));
        cmds
    } else {
        super::list::refresh(cx)
    }
}

/// Resumes from the failed chunk (confirmed when it may have gone in).
pub(crate) fn resume(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm) else {
        return Vec::new();
    };
    let Some(failure) = d.progress.failure.take() else {
        return Vec::new();
    };
    d.stage = Stage::Uploading;
    d.progress.stop = false;
    // A read ahead from before the failure must not be taken for this one.
    drop_ahead(cm, cx);
    read_from(cm, cx, failure.start)
}

/// What a key in the import dialog asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportDone {
    /// Read the file whose path was typed.
    Read,
    /// Send the file, from the first chunk (the preview was accepted).
    Upload,
    /// Resume from the failed chunk (asked first when it may have gone in).
    Resume,
    /// Complete the path typed (Tab).
    Complete,
}

/// "Resume?" when the failed chunk may have gone in; else resumes at once.
fn ask_resume(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(f) = dialog_mut(cm).and_then(|d| d.progress.failure.clone()) else {
        return Vec::new();
    };
    if !f.uncertain {
        return resume(cm, cx);
    }
    cx.confirm(Confirm {
        title: "Resume the import?".into(),
        lines: vec![
            format!(
                "The chunk from row {} may have gone in: its answer was lost.",
                f.line
            ),
            "Sending it again is safe: rows already in the roster come back as duplicates.".into(),
        ],
        yes: "Resume".into(),
        no: None,
        destructive: false,
        on_yes: ConfirmAction::Pane(Confirmed::ResumeImport.into()),
    });
    Vec::new()
}

/// Moves in a table of the dialog by a keymap action; whether it was one.
fn nav(t: &mut TableState, action: Option<Action>, vp: usize) -> bool {
    action.is_some_and(|a| detail::nav(t, a, vp))
}

impl Import {
    /// A key in the dialog, edited in place (`action`: what the keymap
    /// makes of it; `vp`: rows of its tables on screen).
    pub fn key(&mut self, key: KeyEvent, action: Option<Action>, vp: usize) -> Outcome<ImportDone> {
        match self.stage {
            Stage::Path => self.path_key(key),
            Stage::Mapping => self.mapping_key(key, action, vp),
            Stage::Preview => self.preview_key(key, action, vp),
            Stage::Reading | Stage::Uploading => {
                if fixed_keys::CLOSE.matches(&key) {
                    // Closed before the file was read: nothing to wait for.
                    if self.stage == Stage::Reading && self.first.is_none() {
                        return Outcome::Close;
                    }
                    // A chunk in flight cannot be recalled: stop after it.
                    self.progress.stop = true;
                }
                Outcome::Keep
            }
            Stage::Failed => {
                if fixed_keys::CONFIRM.matches(&key) || action == Some(Action::Resume) {
                    Outcome::Act(ImportDone::Resume)
                } else if fixed_keys::CLOSE.matches(&key) || action == Some(Action::Quit) {
                    Outcome::Close
                } else {
                    Outcome::Keep
                }
            }
            Stage::Done => self.report_key(key, action),
        }
    }

    fn path_key(&mut self, key: KeyEvent) -> Outcome<ImportDone> {
        if fixed_keys::CLOSE.matches(&key) {
            return Outcome::Close;
        }
        if fixed_keys::CONFIRM.matches(&key) {
            let path = self.path_input.lines().join("").trim().to_owned();
            if path.is_empty() {
                self.error = Some("type the path of a CSV file".into());
                return Outcome::Keep;
            }
            self.path = PathBuf::from(path);
            self.stage = Stage::Reading;
            self.error = None;
            return Outcome::Act(ImportDone::Read);
        }
        if fixed_keys::COMPLETE.matches(&key) {
            return Outcome::Act(ImportDone::Complete);
        }
        if fixed_keys::PREV.matches(&key) {
            // Not text: a tab character is never typed into a path.
            return Outcome::Keep;
        }
        if edit_key(&mut self.path_input, key) {
            self.error = None;
            self.complete.edited();
        }
        Outcome::Keep
    }

    fn mapping_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        vp: usize,
    ) -> Outcome<ImportDone> {
        if fixed_keys::CLOSE.matches(&key) {
            return Outcome::Close;
        }
        if fixed_keys::SUBMIT.matches(&key) {
            if let Err(e) = check_mapping(&self.mapping, &self.channel) {
                self.error = Some(e);
            } else if let Some(first) = self.first.as_ref() {
                self.preview = preview(first, &self.mapping, &self.channel);
                self.preview_table = TableState::default();
                self.preview_table.set_len(self.preview.len(), vp);
                self.stage = Stage::Preview;
                self.error = None;
            }
            return Outcome::Keep;
        }
        let i = self.map_table.selected;
        let forward = match action {
            Some(Action::NextTab) => true,
            Some(Action::PrevTab) => false,
            _ if fixed_keys::CONFIRM.matches(&key) || fixed_keys::NEXT_FIELD.matches(&key) => true,
            _ => {
                nav(&mut self.map_table, action, vp);
                return Outcome::Keep;
            }
        };
        if let (Some(t), Some(h)) = (self.mapping.get(i), self.header.get(i)) {
            self.mapping[i] = t.step(h, forward);
            self.error = None;
        }
        Outcome::Keep
    }

    fn preview_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        vp: usize,
    ) -> Outcome<ImportDone> {
        if fixed_keys::CLOSE.matches(&key) {
            self.stage = Stage::Mapping;
        } else if fixed_keys::SUBMIT.matches(&key) && self.first.is_some() {
            return Outcome::Act(ImportDone::Upload);
        } else {
            nav(&mut self.preview_table, action, vp);
        }
        Outcome::Keep
    }

    /// The report: the keymap's moves scroll it; Enter, Esc or quit close it.
    fn report_key(&mut self, key: KeyEvent, action: Option<Action>) -> Outcome<ImportDone> {
        if fixed_keys::CLOSE.matches(&key) || fixed_keys::CONFIRM.matches(&key) {
            return Outcome::Close;
        }
        self.scroll = match action {
            Some(Action::Quit) => return Outcome::Close,
            Some(Action::Down) => self.scroll.saturating_add(1),
            Some(Action::Up) => self.scroll.saturating_sub(1),
            Some(Action::PageDown) => self.scroll.saturating_add(10),
            Some(Action::PageUp) => self.scroll.saturating_sub(10),
            Some(Action::Top) => 0,
            _ => self.scroll,
        };
        Outcome::Keep
    }
}

/// What the import dialog asked for.
pub(crate) fn act(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, done: ImportDone) -> Vec<Cmd> {
    match done {
        ImportDone::Read => read_from(cm, cx, CsvPos::START),
        ImportDone::Upload => {
            let Some(d) = dialog_mut(cm) else {
                return Vec::new();
            };
            let Some(first) = d.first.clone() else {
                return Vec::new();
            };
            d.progress.next = Some(first.start);
            prepare(cm, cx, first)
        }
        ImportDone::Resume => ask_resume(cm, cx),
        ImportDone::Complete => {
            let Some(d) = dialog_mut(cm) else {
                return Vec::new();
            };
            let dir = d.complete.tab(&path_text(&d.path_input));
            let id = cx.effect(Purpose::ImportPathList);
            vec![Cmd::ListDir { id, dir }]
        }
    }
}

/// The text of a one-line path box, as typed.
fn path_text(input: &TextArea<'_>) -> String {
    input.lines().join("")
}

/// A directory listed for the path's completion: the path is completed,
/// or the candidates (or why there are none) go to the help line.
pub(crate) fn on_listed(
    cm: &mut CampaignsModel,
    listing: Result<crate::app::path_complete::DirListing, String>,
) -> Vec<Cmd> {
    let Some(d) = dialog_mut(cm).filter(|d| d.stage == Stage::Path) else {
        return Vec::new();
    };
    let text = path_text(&d.path_input);
    if let Some(done) = d.complete.listed(&text, listing) {
        d.path_input = TextArea::new(vec![done]);
        d.path_input.move_cursor(ratatui_textarea::CursorMove::End);
        d.error = None;
    }
    Vec::new()
}

/// The import dialog was closed: a read of its file still on its way
/// (the first chunk, or one read ahead) is not wanted any more (a later
/// import must never take it).
pub(crate) fn closed(cx: &mut Ctx<'_>) {
    cx.requests
        .forget::<super::CampaignsModel>(|p| *p == Purpose::ImportRead);
}
