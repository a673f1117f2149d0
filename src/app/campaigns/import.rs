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
//! file are found here with a hash per identity (8 bytes a row), so they
//! are reported as such even across chunks. A failure stops the import,
//! says which rows went in, and offers to resume from the failed chunk.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;
use serde_json::{Map, Value};

use super::super::csv_chunk::{CsvChunk, CsvPos, CsvRead};
use super::super::dialog::Outcome;
use super::super::form::edit_key;
use super::super::table::TableState;
use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::rules::Op;
use super::{Confirmed, Dialog, Purpose, detail, error_text, keys, roster, target};
use crate::api::model::{AddLeadsResponse, Channel, LeadInput};
use crate::app::keymap::Action;
use crate::text::format;

/// Rows per chunk, read and sent (the contract's most per add call).
pub const CHUNK: usize = 1000;
/// Bytes of rows per chunk at most (very wide rows make smaller chunks).
pub const CHUNK_BYTES: usize = 8 * 1024 * 1024;
/// Left-out rows listed in the report (the rest are counted).
pub const MAX_LISTED: usize = 1000;

/// Where a column goes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// `email`.
    Email,
    /// `network_url`.
    NetworkUrl,
    /// `first_name`.
    FirstName,
    /// `last_name`.
    LastName,
    /// `name`.
    Name,
    /// `company`.
    Company,
    /// `position`.
    Position,
    /// `headline`.
    Headline,
    /// `custom_fields.<key>`.
    Custom(String),
    /// Not imported.
    Skip,
}

/// The lead fields a column can fill, in the order the mapping cycles.
const FIXED: [Target; 8] = [
    Target::Email,
    Target::NetworkUrl,
    Target::FirstName,
    Target::LastName,
    Target::Name,
    Target::Company,
    Target::Position,
    Target::Headline,
];

impl Target {
    /// How the mapping shows it.
    pub fn label(&self) -> String {
        match self {
            Target::Email => "email".into(),
            Target::NetworkUrl => "network URL".into(),
            Target::FirstName => "first name".into(),
            Target::LastName => "last name".into(),
            Target::Name => "name".into(),
            Target::Company => "company".into(),
            Target::Position => "position".into(),
            Target::Headline => "headline".into(),
            Target::Custom(k) => format!("custom_fields.{k}"),
            Target::Skip => "(not imported)".into(),
        }
    }

    /// The next (or previous) choice for a column named `header`.
    pub fn step(&self, header: &str, forward: bool) -> Target {
        let mut all: Vec<Target> = FIXED.to_vec();
        all.push(Target::Custom(custom_key(header)));
        all.push(Target::Skip);
        let i = all
            .iter()
            .position(|t| t == self || matches!((t, self), (Target::Custom(_), Target::Custom(_))))
            .unwrap_or(0);
        let n = all.len();
        all[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
        .clone()
    }
}

/// A header made into a custom field key: lowercase words joined by `_`.
pub fn custom_key(header: &str) -> String {
    let mut out = String::new();
    for c in header.trim().chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_owned();
    if out.is_empty() { "column".into() } else { out }
}

/// The target a header name suggests.
pub fn guess(header: &str) -> Target {
    let key = custom_key(header);
    match key.as_str() {
        "email" | "e_mail" | "email_address" | "e_mail_address" | "mail" | "work_email" => {
            Target::Email
        }
        "network_url" | "networkurl" | "linkedin" | "linkedin_url" | "profile_url" | "profile"
        | "url" | "network" | "network_profile" => Target::NetworkUrl,
        "first_name" | "firstname" | "first" | "given_name" => Target::FirstName,
        "last_name" | "lastname" | "last" | "surname" | "family_name" => Target::LastName,
        "name" | "full_name" | "fullname" | "contact" | "contact_name" => Target::Name,
        "company" | "company_name" | "organization" | "organisation" | "account" | "employer" => {
            Target::Company
        }
        "position" | "title" | "job_title" | "role" => Target::Position,
        "headline" => Target::Headline,
        _ => Target::Custom(key),
    }
}

/// The mapping of a header: guesses, each lead field taken once (a later
/// column that guesses a taken field goes to `custom_fields`).
pub fn guess_all(header: &[String]) -> Vec<Target> {
    let mut taken = HashSet::new();
    header
        .iter()
        .map(|h| match guess(h) {
            Target::Custom(k) => Target::Custom(k),
            t if taken.insert(t.clone()) => t,
            _ => Target::Custom(custom_key(h)),
        })
        .collect()
}

/// What the mapping lacks or repeats, as a message.
pub fn check_mapping(mapping: &[Target], channel: &Channel) -> Result<(), String> {
    let identity = identity_target(channel);
    if !mapping.contains(&identity) {
        return Err(format!(
            "map a column to {} — {} needs it for every lead",
            identity.label(),
            a_campaign(channel)
        ));
    }
    let mut seen = HashSet::new();
    for t in mapping {
        if *t != Target::Skip && !seen.insert(t) {
            return Err(format!("{} is mapped from two columns", t.label()));
        }
    }
    Ok(())
}

/// "an email campaign", "a network campaign".
pub fn a_campaign(channel: &Channel) -> String {
    let kind = channel.as_str();
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {kind} campaign")
}

fn identity_target(channel: &Channel) -> Target {
    if *channel == Channel::Network {
        Target::NetworkUrl
    } else {
        Target::Email
    }
}

/// Whether `s` looks like an email address (the service's own test).
pub fn looks_like_email(s: &str) -> bool {
    let s = s.trim();
    match s.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !domain.contains('@')
                && !s.chars().any(|c| c.is_whitespace() || c == ',')
        }
        None => false,
    }
}

/// Whether `s` looks like a profile URL.
pub fn looks_like_url(s: &str) -> bool {
    let s = s.trim();
    (s.starts_with("https://") || s.starts_with("http://"))
        && s.len() > 10
        && !s.chars().any(char::is_whitespace)
}

/// A row made into a lead by the mapping. Owned fields are moved into the
/// lead (no copy of a 1,000-row chunk's text); borrowed ones are copied.
pub fn lead_of<S>(fields: impl IntoIterator<Item = S>, mapping: &[Target]) -> LeadInput
where
    S: AsRef<str> + Into<String>,
{
    let mut lead = LeadInput::default();
    let mut custom = Map::new();
    for (value, target) in fields.into_iter().zip(mapping) {
        let (len, start, end) = {
            let raw = value.as_ref();
            let trimmed = raw.trim_start();
            let start = raw.len() - trimmed.len();
            (raw.len(), start, start + trimmed.trim_end().len())
        };
        if start == end || *target == Target::Skip {
            continue;
        }
        let v = if (start, end) == (0, len) {
            value.into()
        } else {
            value.as_ref()[start..end].to_owned()
        };
        let slot = match target {
            Target::Email => &mut lead.email,
            Target::NetworkUrl => &mut lead.network_url,
            Target::FirstName => &mut lead.first_name,
            Target::LastName => &mut lead.last_name,
            Target::Name => &mut lead.name,
            Target::Company => &mut lead.company,
            Target::Position => &mut lead.position,
            Target::Headline => &mut lead.headline,
            Target::Custom(k) => {
                custom.insert(k.clone(), Value::String(v));
                continue;
            }
            Target::Skip => continue,
        };
        *slot = Some(v);
    }
    if !custom.is_empty() {
        lead.custom_fields = Some(custom);
    }
    lead
}

/// Why a lead cannot go to a campaign of `channel`, if it cannot.
pub fn lacks_identity(lead: &LeadInput, channel: &Channel) -> Option<String> {
    let (value, name, ok): (&Option<String>, &str, fn(&str) -> bool) = match channel {
        Channel::Network => (&lead.network_url, "network URL", looks_like_url),
        _ => (&lead.email, "email", looks_like_email),
    };
    match value.as_deref() {
        None => Some(format!("no {name}")),
        Some(v) if !ok(v) => Some(format!("not a valid {name}: {}", clip(v, 40))),
        Some(_) => None,
    }
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// The identity as the service compares it (email lowercased; a network
/// URL without its query string and trailing slashes), hashed.
pub fn identity_key(lead: &LeadInput, channel: &Channel) -> u64 {
    let text = match channel {
        Channel::Network => {
            let u = lead.network_url.as_deref().unwrap_or_default().trim();
            let u = u.split_once('?').map_or(u, |(a, _)| a);
            u.trim_end_matches('/').to_owned()
        }
        _ => lead
            .email
            .as_deref()
            .unwrap_or_default()
            .trim()
            .to_lowercase(),
    };
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// What the preview says of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It will be sent.
    Import,
    /// It is left out, and why.
    LeftOut(String),
    /// An earlier row of the file has the same identity.
    Duplicate,
}

/// One row of the preview.
#[derive(Debug, Clone, PartialEq)]
pub struct PreviewRow {
    /// Its line in the file.
    pub line: u64,
    /// The lead it makes.
    pub lead: LeadInput,
    /// What happens to it.
    pub verdict: Verdict,
}

/// The preview of a chunk under a mapping.
pub fn preview(chunk: &CsvChunk, mapping: &[Target], channel: &Channel) -> Vec<PreviewRow> {
    let mut seen = HashSet::new();
    chunk
        .rows
        .iter()
        .map(|row| match &row.fields {
            Err(why) => PreviewRow {
                line: row.line,
                lead: LeadInput::default(),
                verdict: Verdict::LeftOut(why.clone()),
            },
            Ok(fields) => {
                let lead = lead_of(fields, mapping);
                let verdict = match lacks_identity(&lead, channel) {
                    Some(why) => Verdict::LeftOut(why),
                    None if !seen.insert(identity_key(&lead, channel)) => Verdict::Duplicate,
                    None => Verdict::Import,
                };
                PreviewRow {
                    line: row.line,
                    lead,
                    verdict,
                }
            }
        })
        .collect()
}

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
    Ready(InFlight),
    /// It could not be read: the import stops there once the chunk in
    /// flight went in (so the report says which rows did).
    Unreadable(String),
}

/// A chunk on its way to the service.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InFlight {
    /// Where the chunk starts in the file (to read it again).
    pub start: CsvPos,
    /// Where the next chunk starts.
    pub next: CsvPos,
    /// The file ends with it.
    pub eof: bool,
    /// The leads sent (shared with the request on its way).
    pub leads: Arc<[LeadInput]>,
    /// The file line of each lead sent.
    pub lines: Vec<u64>,
    /// The identity hash of each lead sent.
    pub keys: Vec<u64>,
    /// The chunk's first and last line.
    pub span: (u64, u64),
    /// Rows read in the chunk.
    pub rows: u64,
    /// Rows of the chunk duplicating an earlier row of the file.
    pub dups: u64,
    /// Rows of the chunk left out, with why.
    pub left: Vec<(u64, String)>,
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

/// Counts of the upload.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// Size of the file.
    pub file_len: u64,
    /// Bytes of the file done.
    pub bytes_done: u64,
    /// Rows taken care of (sent, duplicates, left out).
    pub rows_done: u64,
    /// Imported, as the service counts them.
    pub imported: u64,
    /// Duplicates of an earlier row of the file.
    pub dup_file: u64,
    /// Duplicates of a lead already in the roster.
    pub dup_roster: u64,
    /// Rows left out (the first [`MAX_LISTED`]), with why.
    pub left_out: Vec<(u64, String)>,
    /// Rows left out in all.
    pub left_out_count: u64,
    /// Chunks the service took.
    pub chunks: u64,
    /// First and last line of the rows that went in.
    pub went_in: Option<(u64, u64)>,
    /// Identities seen in the chunks that went in.
    pub seen: HashSet<u64>,
    /// The chunk on its way.
    pub inflight: Option<InFlight>,
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

impl Progress {
    /// How much of the file went in, in per cent (an empty file is done).
    pub fn percent(&self) -> u64 {
        self.bytes_done
            .saturating_mul(100)
            .checked_div(self.file_len)
            .unwrap_or(100)
    }

    /// Rows left out or duplicated in the file, and imported, in one line.
    pub fn summary(&self) -> String {
        format!(
            "imported {} · duplicates {} ({} in the file, {} already in the roster) · left out {}",
            format::count(self.imported),
            format::count(self.dup_file.saturating_add(self.dup_roster)),
            format::count(self.dup_file),
            format::count(self.dup_roster),
            format::count(self.left_out_count)
        )
    }

    fn leave_out(&mut self, line: u64, why: String) {
        self.left_out_count += 1;
        if self.left_out.len() < MAX_LISTED {
            self.left_out.push((line, why));
        }
    }
}

/// The import dialog.
#[derive(Debug, Clone)]
pub struct Import {
    /// The campaign.
    pub campaign: String,
    /// Its name.
    pub name: String,
    /// Its channel.
    pub channel: Channel,
    /// Where it is.
    pub stage: Stage,
    /// The path being typed.
    pub path_input: TextArea<'static>,
    /// The file.
    pub path: PathBuf,
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

/// Whether the import of the dialog is running.
pub fn running(m: &Model) -> bool {
    matches!(&m.panes.campaigns.dialog, Some(Dialog::Import(d)) if d.running())
}

/// Rows of the mapping and preview tables on screen.
pub fn table_viewport(m: &Model) -> usize {
    usize::from(
        super::layout::dialog(m.layout().body, 100)
            .height
            .saturating_sub(9),
    )
    .max(1)
}

/// `i` / `:import [path]`: starts an import into the target campaign
/// (draft only), at the path prompt or, with a path, reading it.
pub fn open(m: &mut Model, path: Option<String>) -> Vec<Cmd> {
    let Some(c) = target(m) else {
        m.notify(
            Level::Info,
            "No campaign",
            "open (or select) the draft campaign to import into first",
        );
        return Vec::new();
    };
    if !detail::allowed(m, &c, Op::ChangeRoster) {
        return Vec::new();
    }
    let mut d = Box::new(Import::new(&c, path.as_deref()));
    match path {
        Some(p) if !p.trim().is_empty() => {
            d.path = PathBuf::from(p.trim());
            d.stage = Stage::Reading;
            m.panes.campaigns.dialog = Some(Dialog::Import(d));
            read_from(m, CsvPos::START)
        }
        _ => {
            m.panes.campaigns.dialog = Some(Dialog::Import(d));
            Vec::new()
        }
    }
}

fn dialog_mut(m: &mut Model) -> Option<&mut Import> {
    match m.panes.campaigns.dialog.as_mut() {
        Some(Dialog::Import(d)) => Some(d),
        _ => None,
    }
}

/// Asks the runtime for the chunk starting at `start`.
fn read_from(m: &mut Model, start: CsvPos) -> Vec<Cmd> {
    let Some(path) = dialog_mut(m).map(|d| d.path.clone()) else {
        return Vec::new();
    };
    let id = m.effect(Purpose::ImportRead);
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
pub fn on_read(m: &mut Model, result: Result<CsvChunk, String>) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    match (d.stage, result) {
        (Stage::Reading, Ok(chunk)) if d.first.is_none() => {
            to_mapping(d, chunk);
            Vec::new()
        }
        (Stage::Reading | Stage::Uploading, Ok(chunk)) => prepare(m, chunk),
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
    d.progress.file_len = chunk.file_len;
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
fn prepare(m: &mut Model, chunk: CsvChunk) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    if d.progress.stop && d.progress.inflight.is_none() {
        // Stopped while this chunk was read: it is not sent.
        d.stage = Stage::Done;
        d.progress.ahead = Ahead::None;
        return finish(m);
    }
    d.progress.file_len = chunk.file_len;
    // Identities of the chunk in flight count as seen: when it fails, the
    // chunk read ahead is dropped and read again.
    let pending: HashSet<u64> = d
        .progress
        .inflight
        .iter()
        .flat_map(|f| f.keys.iter().copied())
        .collect();
    let first_line = chunk.rows.first().map_or(chunk.start.line, |r| r.line);
    let last_line = chunk.rows.last().map_or(first_line, |r| r.line);
    let mut f = InFlight {
        start: chunk.start,
        next: chunk.next,
        eof: chunk.eof,
        span: (first_line, last_line),
        rows: chunk.rows.len() as u64,
        ..InFlight::default()
    };
    let mut keys_here = HashSet::new();
    let mut leads = Vec::with_capacity(chunk.rows.len());
    for row in chunk.rows {
        let fields = match row.fields {
            Ok(fields) => fields,
            Err(why) => {
                f.left.push((row.line, why));
                continue;
            }
        };
        let lead = lead_of(fields, &d.mapping);
        if let Some(why) = lacks_identity(&lead, &d.channel) {
            f.left.push((row.line, why));
            continue;
        }
        let key = identity_key(&lead, &d.channel);
        if d.progress.seen.contains(&key) || pending.contains(&key) || !keys_here.insert(key) {
            f.dups += 1;
            continue;
        }
        leads.push(lead);
        f.lines.push(row.line);
        f.keys.push(key);
    }
    f.leads = leads.into();
    if d.progress.inflight.is_some() {
        d.progress.ahead = Ahead::Ready(f);
        return Vec::new();
    }
    start_upload(m, f)
}

/// Sends `f` and reads the chunk after it meanwhile.
fn start_upload(m: &mut Model, f: InFlight) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
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
        cmds = read_from(m, next);
    }
    cmds.extend(send(m));
    cmds
}

/// Whether a chunk of the file is being read.
fn reading(m: &Model) -> bool {
    super::in_flight(m, |p| *p == Purpose::ImportRead)
}

/// Drops the chunk read ahead and forgets a read of it on its way.
fn drop_ahead(m: &mut Model) {
    if let Some(d) = dialog_mut(m) {
        d.progress.ahead = Ahead::None;
    }
    m.requests
        .forget::<super::CampaignsModel>(|p| *p == Purpose::ImportRead);
}

/// Sends the chunk in flight, or takes it as done when it holds no lead.
fn send(m: &mut Model) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    let Some(f) = d.progress.inflight.as_ref() else {
        return Vec::new();
    };
    if f.leads.is_empty() {
        return commit(m, &AddLeadsResponse::default());
    }
    let req = ApiRequest::AddLeads {
        id: d.campaign.clone(),
        channel: d.channel.clone(),
        leads: Arc::clone(&f.leads),
    };
    let (_, cmd) = m.request(Purpose::ImportChunk, req);
    vec![cmd]
}

/// The chunk in flight went in: its counts are taken, then the next chunk
/// is read (or the import ends).
fn commit(m: &mut Model, r: &AddLeadsResponse) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    let Some(f) = d.progress.inflight.take() else {
        return Vec::new();
    };
    let p = &mut d.progress;
    p.imported = p.imported.saturating_add(r.imported);
    let batch = r
        .duplicate_rows
        .iter()
        .filter(|x| x.reason == "batch")
        .count() as u64;
    // Counts without rows: the service did not say why, the roster it is.
    let roster_dups = r.duplicates.saturating_sub(batch);
    p.dup_file = p.dup_file.saturating_add(f.dups).saturating_add(batch);
    p.dup_roster = p.dup_roster.saturating_add(roster_dups);
    for (line, why) in f.left {
        p.leave_out(line, why);
    }
    p.seen.extend(f.keys);
    p.rows_done = p.rows_done.saturating_add(f.rows);
    p.bytes_done = f.next.byte.min(p.file_len);
    p.chunks += 1;
    if !f.lines.is_empty() || f.dups > 0 {
        let first = p.went_in.map_or(f.span.0, |(a, _)| a);
        p.went_in = Some((first, f.span.1));
    }
    if f.eof {
        p.next = None;
        d.stage = Stage::Done;
        return finish(m);
    }
    p.next = Some(f.next);
    if p.stop {
        d.stage = Stage::Done;
        drop_ahead(m);
        return finish(m);
    }
    d.stage = Stage::Uploading;
    let campaign = d.campaign.clone();
    let mut cmds = match std::mem::take(&mut d.progress.ahead) {
        Ahead::Ready(next) => start_upload(m, next),
        Ahead::Unreadable(why) => {
            fail(d, f.next, f.next.line, why, false);
            return Vec::new();
        }
        // Being read: it is sent when it arrives.
        Ahead::None if reading(m) => Vec::new(),
        Ahead::None => read_from(m, f.next),
    };
    // Each chunk that went in changes the campaign's total and stats: it is
    // read again now and then while the upload goes on.
    let now = m.now;
    let due = dialog_mut(m).is_some_and(|d| {
        d.progress
            .reread_at
            .is_none_or(|t| now.saturating_duration_since(t) >= REREAD_EVERY)
    });
    if r.imported > 0 && due && m.panes.campaigns.open_id() == Some(campaign.as_str()) {
        if let Some(d) = dialog_mut(m) {
            d.progress.reread_at = Some(now);
        }
        cmds.extend(detail::read_again(m, &campaign));
    }
    cmds
}

/// The rows a 400 names (`row N` with N the 0-based index in the batch).
pub fn rows_named(message: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = message;
    while let Some(i) = rest.find("row ") {
        rest = &rest[i + 4..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse() {
            out.push(n);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A chunk answered.
pub fn on_uploaded(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let ApiReply::LeadsAdded(result) = reply else {
        return Vec::new();
    };
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    if d.progress.inflight.is_none() {
        return Vec::new();
    }
    match result {
        Ok(r) => commit(m, &r),
        Err(e) => on_refused(m, &e),
    }
}

/// A chunk was refused. A 400 naming rows the service would not take
/// (the whole batch is refused, nothing went in) leaves those rows out and
/// sends the rest again; any other failure stops the import.
fn on_refused(m: &mut Model, e: &crate::api::ApiError) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    let Some(f) = d.progress.inflight.as_mut() else {
        return Vec::new();
    };
    let named = if e.status() == Some(400) {
        rows_named(&e.message())
    } else {
        Vec::new()
    };
    if !named.is_empty() && named.iter().all(|i| *i < f.leads.len()) {
        let why = format!("refused by the service: {}", e.message());
        let mut leads = f.leads.to_vec();
        for i in named.into_iter().rev() {
            leads.remove(i);
            f.keys.remove(i);
            let line = f.lines.remove(i);
            f.left.push((line, clip(&why, 120)));
        }
        f.leads = leads.into();
        f.left.sort_by_key(|(line, _)| *line);
        // The chunk ahead counted the refused rows as seen: it is read
        // again once this one went in.
        drop_ahead(m);
        return send(m);
    }
    let (start, line) = (f.start, f.span.0);
    let lost = crate::logic::write::of_error(e) == crate::logic::write::Outcome::MayHaveReached;
    fail(d, start, line, error_text(e), lost);
    // The chunk read ahead is not wanted (a resume reads from the failed
    // one), and its answer must never reach a later import.
    drop_ahead(m);
    Vec::new()
}

/// Reads the roster and the campaign again after the import.
fn finish(m: &mut Model) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    let (campaign, summary) = (d.campaign.clone(), d.progress.summary());
    m.notify(Level::Success, "Import finished", &summary);
    if m.panes.campaigns.open_id() == Some(campaign.as_str()) {
        let mut cmds = detail::read_again(m, &campaign);
        cmds.extend(roster::reload(m));
        cmds
    } else {
        super::list::refresh(m)
    }
}

/// Resumes from the failed chunk (confirmed when it may have gone in).
pub fn resume(m: &mut Model) -> Vec<Cmd> {
    let Some(d) = dialog_mut(m) else {
        return Vec::new();
    };
    let Some(failure) = d.progress.failure.take() else {
        return Vec::new();
    };
    d.stage = Stage::Uploading;
    d.progress.stop = false;
    // A read ahead from before the failure must not be taken for this one.
    drop_ahead(m);
    read_from(m, failure.start)
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
}

/// "Resume?" when the failed chunk may have gone in; else resumes at once.
fn ask_resume(m: &mut Model) -> Vec<Cmd> {
    let Some(f) = dialog_mut(m).and_then(|d| d.progress.failure.clone()) else {
        return Vec::new();
    };
    if !f.uncertain {
        return resume(m);
    }
    m.confirm(Confirm {
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
                if keys::CLOSE.matches(&key) {
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
                if keys::CONFIRM.matches(&key) || action == Some(Action::Resume) {
                    Outcome::Act(ImportDone::Resume)
                } else if keys::CLOSE.matches(&key) || action == Some(Action::Quit) {
                    Outcome::Close
                } else {
                    Outcome::Keep
                }
            }
            Stage::Done => self.report_key(key, action),
        }
    }

    fn path_key(&mut self, key: KeyEvent) -> Outcome<ImportDone> {
        if keys::CLOSE.matches(&key) {
            return Outcome::Close;
        }
        if keys::CONFIRM.matches(&key) {
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
        if edit_key(&mut self.path_input, key) {
            self.error = None;
        }
        Outcome::Keep
    }

    fn mapping_key(
        &mut self,
        key: KeyEvent,
        action: Option<Action>,
        vp: usize,
    ) -> Outcome<ImportDone> {
        if keys::CLOSE.matches(&key) {
            return Outcome::Close;
        }
        if keys::SUBMIT.matches(&key) {
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
            _ if keys::CONFIRM.matches(&key) || keys::NEXT_FIELD.matches(&key) => true,
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
        if keys::CLOSE.matches(&key) {
            self.stage = Stage::Mapping;
        } else if keys::SUBMIT.matches(&key) && self.first.is_some() {
            return Outcome::Act(ImportDone::Upload);
        } else {
            nav(&mut self.preview_table, action, vp);
        }
        Outcome::Keep
    }

    /// The report: the keymap's moves scroll it; Enter, Esc or quit close it.
    fn report_key(&mut self, key: KeyEvent, action: Option<Action>) -> Outcome<ImportDone> {
        if keys::CLOSE.matches(&key) || keys::CONFIRM.matches(&key) {
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
pub fn act(m: &mut Model, done: ImportDone) -> Vec<Cmd> {
    match done {
        ImportDone::Read => read_from(m, CsvPos::START),
        ImportDone::Upload => {
            let Some(d) = dialog_mut(m) else {
                return Vec::new();
            };
            let Some(first) = d.first.clone() else {
                return Vec::new();
            };
            d.progress.next = Some(first.start);
            prepare(m, first)
        }
        ImportDone::Resume => ask_resume(m),
    }
}

/// The import dialog was closed: a read of its file still on its way
/// (the first chunk, or one read ahead) is not wanted any more (a later
/// import must never take it).
pub fn closed(m: &mut Model) {
    m.requests
        .forget::<super::CampaignsModel>(|p| *p == Purpose::ImportRead);
}
