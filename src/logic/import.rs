//! The CSV import's rules, shared by the Campaigns pane's import dialog and
//! `outpost leads import`: the file's chunks (read by the runtime's
//! streaming reader, [`crate::runtime::csv_import`], one chunk of at most
//! [`CHUNK`] rows at a time), the column mapping (guessed from the header's
//! names; any other column goes into `custom_fields`), a chunk's rows made
//! into leads ([`Batch`]: rows lacking the channel's identity left out,
//! repeats of an identity within the file counted as duplicates, the rows
//! a 400 names left out before sending the rest again), and the counts of
//! what went in ([`Counts`]). Pure: reading the file and sending the chunks
//! are each front end's.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::lead_field::{LeadField, looks_like_email, looks_like_url};
use crate::api::ApiError;
use crate::api::model::{AddLeadsResponse, Channel, LeadInput};
use crate::text::format;

/// Rows per chunk, read and sent (the contract's most per add call).
pub const CHUNK: usize = 1000;
/// Bytes of one chunk's request body at most (`{"leads":[…]}`): a chunk
/// closes early when its next lead would pass it (very wide rows make
/// smaller chunks), and a row that alone would is left out. The reader
/// reads about as many bytes of rows.
pub const CHUNK_BYTES: usize = 8 * 1024 * 1024;
/// Left-out rows listed in the report (the rest are counted).
pub(crate) const MAX_LISTED: usize = 1000;

/// Where a column goes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A lead field.
    Field(LeadField),
    /// `custom_fields.<key>`.
    Custom(String),
    /// Not imported.
    Skip,
}

impl Target {
    /// How the mapping shows it (`first name`, `custom_fields.plan`).
    pub fn label(&self) -> String {
        match self {
            Target::Field(f) => f.label_in_text(),
            Target::Custom(k) => format!("custom_fields.{k}"),
            Target::Skip => "(not imported)".into(),
        }
    }

    /// The next (or previous) choice for a column named `header`: the lead
    /// fields in [`LeadField::ALL`]'s order, the header's custom field,
    /// then not imported.
    pub fn step(&self, header: &str, forward: bool) -> Target {
        let mut all: Vec<Target> = LeadField::ALL.into_iter().map(Target::Field).collect();
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

    /// Its name as `outpost leads import --map` and its report write it
    /// (`first_name`, `custom.plan`, `skip`).
    pub fn field_name(&self) -> String {
        match self {
            Target::Field(f) => f.name().to_owned(),
            Target::Custom(k) => format!("custom.{k}"),
            Target::Skip => "skip".into(),
        }
    }

    /// A `--map` field name as a target: a lead field's name (any case),
    /// `custom.KEY` or `custom_fields.KEY` (the key made as a header's
    /// would be), or `skip`.
    pub fn parse_field(field: &str) -> Option<Target> {
        let f = field.trim();
        let lower = f.to_ascii_lowercase();
        if lower == "skip" {
            return Some(Target::Skip);
        }
        if let Some(lf) = LeadField::parse(&lower) {
            return Some(Target::Field(lf));
        }
        let key = f
            .strip_prefix("custom.")
            .or_else(|| f.strip_prefix("custom_fields."))?;
        if key.trim().is_empty() {
            return None;
        }
        Some(Target::Custom(custom_key(key)))
    }
}

/// A header made into a custom field key: lowercase words joined by `_`.
pub(crate) fn custom_key(header: &str) -> String {
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
pub(crate) fn guess(header: &str) -> Target {
    let key = custom_key(header);
    let field = match key.as_str() {
        "email" | "e_mail" | "email_address" | "e_mail_address" | "mail" | "work_email" => {
            LeadField::Email
        }
        "network_url" | "networkurl" | "linkedin" | "linkedin_url" | "profile_url" | "profile"
        | "url" | "network" | "network_profile" => LeadField::NetworkUrl,
        "first_name" | "firstname" | "first" | "given_name" => LeadField::FirstName,
        "last_name" | "lastname" | "last" | "surname" | "family_name" => LeadField::LastName,
        "name" | "full_name" | "fullname" | "contact" | "contact_name" => LeadField::Name,
        "company" | "company_name" | "organization" | "organisation" | "account" | "employer" => {
            LeadField::Company
        }
        "position" | "title" | "job_title" | "role" => LeadField::Position,
        "headline" => LeadField::Headline,
        _ => return Target::Custom(key),
    };
    Target::Field(field)
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
pub(crate) fn check_mapping(mapping: &[Target], channel: &Channel) -> Result<(), String> {
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
pub(crate) fn a_campaign(channel: &Channel) -> String {
    let kind = channel.as_str();
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {kind} campaign")
}

fn identity_target(channel: &Channel) -> Target {
    Target::Field(LeadField::identity(channel))
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
        match target {
            Target::Field(f) => *f.in_input(&mut lead) = Some(v),
            Target::Custom(k) => {
                custom.insert(k.clone(), Value::String(v));
            }
            Target::Skip => {}
        }
    }
    if !custom.is_empty() {
        lead.custom_fields = Some(custom);
    }
    lead
}

/// Why a lead cannot go to a campaign of `channel`, if it cannot.
pub fn lacks_identity(lead: &LeadInput, channel: &Channel) -> Option<String> {
    let field = LeadField::identity(channel);
    let ok: fn(&str) -> bool = match field {
        LeadField::NetworkUrl => looks_like_url,
        _ => looks_like_email,
    };
    // The label is written only for a row left out: made for every row, it
    // was a tenth of what preparing a chunk cost.
    match field.of_input(lead) {
        None => Some(format!("no {}", field.label_in_text())),
        Some(v) if !ok(v) => Some(format!(
            "not a valid {}: {}",
            field.label_in_text(),
            clip(v, 40)
        )),
        Some(_) => None,
    }
}

/// Why a lead cannot go to a campaign of `channel`: one of its values
/// holds a NUL byte, which no name, address or text has (a binary file, or
/// text of two bytes a character read as one), or it lacks the channel's
/// identity ([`lacks_identity`]).
pub(crate) fn cannot_send(lead: &LeadInput, channel: &Channel) -> Option<String> {
    let field = LeadField::ALL
        .into_iter()
        .find(|f| f.of_input(lead).is_some_and(|v| v.contains('\0')))
        .map(LeadField::label_in_text);
    let custom = || {
        lead.custom_fields.iter().flatten().find_map(|(k, v)| {
            v.as_str()
                .is_some_and(|v| v.contains('\0'))
                .then(|| format!("custom_fields.{k}"))
        })
    };
    field
        .or_else(custom)
        .map(|name| format!("a NUL byte in {name}: not text"))
        .or_else(|| lacks_identity(lead, channel))
}

/// `{"leads":[]}`: a chunk's request body around its leads.
const EMPTY_BODY: usize = 12;

/// The length of a lead in the request body, counted as it is written
/// (nothing kept).
fn json_len(lead: &LeadInput) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    // Writing into a counter cannot fail; a lead of strings always encodes.
    let _ = serde_json::to_writer(&mut n, lead);
    n.0
}

/// An upper bound of [`json_len`] from the lengths of the lead's text
/// alone (nothing written): a byte of text takes at most 6 in JSON
/// (`\u001f`), and a field adds at most 24 for its name, quotes, colon and
/// comma. `None` when a custom value is not text.
fn json_len_bound(lead: &LeadInput) -> Option<usize> {
    const FIELD: usize = 24;
    // The braces, and `"custom_fields":{},`.
    let mut n = 2 + FIELD;
    for v in LeadField::ALL.into_iter().filter_map(|f| f.of_input(lead)) {
        n = n.saturating_add(FIELD + 6 * v.len());
    }
    for (k, v) in lead.custom_fields.iter().flatten() {
        let Value::String(v) = v else { return None };
        n = n.saturating_add(6 + 6 * k.len() + 6 * v.len());
    }
    Some(n)
}

/// Why a row too big for any request is left out.
fn too_big(size: usize) -> String {
    format!(
        "the row is {} as sent, more than the {} one request may carry",
        format::bytes(size as u64),
        format::bytes(CHUNK_BYTES as u64)
    )
}

/// `s` cut to `max` characters, `…` ending what was cut.
pub(crate) fn clip(s: &str, max: usize) -> String {
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
    let hash = |text: &str| {
        let mut h = DefaultHasher::new();
        text.hash(&mut h);
        h.finish()
    };
    match channel {
        Channel::Network => {
            let u = lead.network_url.as_deref().unwrap_or_default().trim();
            let u = u.split_once('?').map_or(u, |(a, _)| a);
            hash(u.trim_end_matches('/'))
        }
        _ => {
            let email = lead.email.as_deref().unwrap_or_default().trim();
            // Most addresses are lowercase ASCII already: hashed as they
            // are, without a lowercased copy.
            if email
                .bytes()
                .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
            {
                hash(email)
            } else {
                hash(&email.to_lowercase())
            }
        }
    }
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
pub(crate) fn preview(chunk: &CsvChunk, mapping: &[Target], channel: &Channel) -> Vec<PreviewRow> {
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
                let verdict = match cannot_send(&lead, channel) {
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

/// The rows a 400 names (`row N` with N the 0-based index in the batch).
pub(crate) fn rows_named(message: &str) -> Vec<usize> {
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

/// Where a chunk starts in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CsvPos {
    /// Byte offset of the first record.
    pub byte: u64,
    /// Line number of that record (1-based, as an editor shows it).
    pub line: u64,
}

impl CsvPos {
    /// The start of the file.
    pub const START: CsvPos = CsvPos { byte: 0, line: 1 };
}

/// What to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvRead {
    /// The path of the CSV file, as the user gave it.
    pub path: PathBuf,
    /// Where to start (a UTF-8 byte-order mark at the start is skipped).
    pub start: CsvPos,
    /// The first record is the header (only at the start of the file).
    pub header: bool,
    /// Records to read at most.
    pub max_rows: usize,
    /// Bytes of records to read at most (a chunk ends after the record that
    /// reaches it, so very wide rows cannot make a chunk huge).
    pub max_bytes: usize,
}

/// One record of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvRow {
    /// Its line number in the file (1-based; the header is line 1).
    pub line: u64,
    /// The byte where it starts in the file: with `line`, where a chunk
    /// that ends before it continues.
    pub byte: u64,
    /// Its fields, or why the row cannot be read (e.g. not UTF-8).
    pub fields: Result<Vec<String>, String>,
}

/// A chunk read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CsvChunk {
    /// The header's fields, when asked for.
    pub header: Option<Vec<String>>,
    /// The records, in file order.
    pub rows: Vec<CsvRow>,
    /// Where this chunk started.
    pub start: CsvPos,
    /// Where the next chunk starts.
    pub next: CsvPos,
    /// The file ended with this chunk.
    pub eof: bool,
    /// Size of the file in bytes (for progress).
    pub file_len: u64,
}

/// A chunk's rows made into leads: the leads to send, with each one's line
/// and identity, and the rows left out or duplicated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// Where the chunk starts in the file (to read it again).
    pub start: CsvPos,
    /// Where the next chunk starts.
    pub next: CsvPos,
    /// The file ends with it.
    pub eof: bool,
    /// The leads to send (shared with a request on its way, not copied).
    pub leads: Arc<[LeadInput]>,
    /// The file line of each lead.
    pub lines: Vec<u64>,
    /// The identity hash of each lead.
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

impl Batch {
    /// The leads of `chunk` under `mapping`: broken rows and rows without
    /// the channel's identity are left out; a row whose identity `seen`
    /// knows (an earlier chunk's), or an earlier row of this chunk has, is
    /// a duplicate.
    pub fn of(
        chunk: CsvChunk,
        mapping: &[Target],
        channel: &Channel,
        seen: impl Fn(u64) -> bool,
    ) -> Batch {
        let first_line = chunk.rows.first().map_or(chunk.start.line, |r| r.line);
        let last_line = chunk.rows.last().map_or(first_line, |r| r.line);
        let mut b = Batch {
            start: chunk.start,
            next: chunk.next,
            eof: chunk.eof,
            span: (first_line, last_line),
            ..Batch::default()
        };
        let mut here = HashSet::new();
        let mut leads = Vec::with_capacity(chunk.rows.len());
        // The request body's length: summed from each lead's bound while
        // that proves the chunk far from full, as most are (writing every
        // lead to count it was a fifth of what preparing a chunk cost);
        // counted exactly, as written, from the first lead whose bound
        // could pass the limit (`exact`). Either way a row goes where the
        // exact count would put it.
        let mut body = EMPTY_BODY;
        let mut exact = false;
        // Rows taken care of, and the line of the last one.
        let (mut taken, mut last) = (0u64, first_line);
        for row in chunk.rows {
            let (line, byte) = (row.line, row.byte);
            let Some(lead) = b.usable(row.fields, line, mapping, channel) else {
                (taken, last) = (taken + 1, line);
                continue;
            };
            let key = identity_key(&lead, channel);
            if seen(key) || here.contains(&key) {
                b.dups += 1;
                (taken, last) = (taken + 1, line);
                continue;
            }
            let len = match json_len_bound(&lead) {
                Some(bound)
                    if !exact && body.saturating_add(bound).saturating_add(1) <= CHUNK_BYTES =>
                {
                    bound
                }
                _ => {
                    if !exact {
                        exact = true;
                        body = leads
                            .iter()
                            .map(json_len)
                            .fold(EMPTY_BODY, usize::saturating_add)
                            + leads.len().saturating_sub(1);
                    }
                    json_len(&lead)
                }
            };
            if EMPTY_BODY.saturating_add(len) > CHUNK_BYTES {
                b.left.push((line, too_big(len)));
                (taken, last) = (taken + 1, line);
                continue;
            }
            // Each lead after the first is preceded by a comma.
            let size = len.saturating_add(usize::from(!leads.is_empty()));
            if body.saturating_add(size) > CHUNK_BYTES {
                // The chunk closes early: this row starts the next one.
                b.next = CsvPos { byte, line };
                b.eof = false;
                b.span.1 = last;
                break;
            }
            body += size;
            here.insert(key);
            leads.push(lead);
            b.lines.push(line);
            b.keys.push(key);
            (taken, last) = (taken + 1, line);
        }
        b.rows = taken;
        b.leads = leads.into();
        b
    }

    /// The lead a row makes, or `None` when it is left out (broken, or
    /// not fit to send: [`cannot_send`]), noted with why.
    fn usable(
        &mut self,
        fields: Result<Vec<String>, String>,
        line: u64,
        mapping: &[Target],
        channel: &Channel,
    ) -> Option<LeadInput> {
        let why = match fields {
            Ok(fields) => {
                let lead = lead_of(fields, mapping);
                match cannot_send(&lead, channel) {
                    None => return Some(lead),
                    Some(why) => why,
                }
            }
            Err(why) => why,
        };
        self.left.push((line, why));
        None
    }

    /// A refusal of the batch: when it is a 400 naming rows of it (the
    /// whole batch was refused, nothing went in), those rows are left out
    /// with the service's words and the rest can be sent again; returns
    /// whether it was (else the import stops).
    pub fn leave_out_refused(&mut self, e: &ApiError) -> bool {
        let named = if e.status() == Some(400) {
            rows_named(&e.message())
        } else {
            Vec::new()
        };
        if named.is_empty() || named.iter().any(|i| *i >= self.leads.len()) {
            return false;
        }
        // The message names every refused row: repeated on each, it is cut
        // short (a thousand copies of a long message would be megabytes).
        let why = clip(&format!("refused by the service: {}", e.message()), 120);
        let mut leads = self.leads.to_vec();
        for i in named.into_iter().rev() {
            leads.remove(i);
            self.keys.remove(i);
            let line = self.lines.remove(i);
            self.left.push((line, why.clone()));
        }
        self.leads = leads.into();
        self.left.sort_by_key(|(line, _)| *line);
        true
    }
}

/// The counts of an import as it goes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counts {
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
}

impl Counts {
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

    /// Counts a row left out (listed while fewer than [`MAX_LISTED`] are).
    pub fn leave_out(&mut self, line: u64, why: String) {
        self.left_out_count += 1;
        if self.left_out.len() < MAX_LISTED {
            self.left_out.push((line, why));
        }
    }

    /// Takes in a batch the service took, with its answer.
    pub fn went_in(&mut self, b: Batch, r: &AddLeadsResponse) {
        self.imported = self.imported.saturating_add(r.imported);
        let in_batch = r
            .duplicate_rows
            .iter()
            .filter(|x| x.reason == "batch")
            .count() as u64;
        // Counts without rows: the service did not say why, the roster it is.
        let in_roster = r.duplicates.saturating_sub(in_batch);
        self.dup_file = self
            .dup_file
            .saturating_add(b.dups)
            .saturating_add(in_batch);
        self.dup_roster = self.dup_roster.saturating_add(in_roster);
        let mut left = b.left;
        left.sort_by_key(|(line, _)| *line);
        for (line, why) in left {
            self.leave_out(line, why);
        }
        self.seen.extend(b.keys);
        self.rows_done = self.rows_done.saturating_add(b.rows);
        self.bytes_done = b.next.byte.min(self.file_len);
        self.chunks += 1;
        if !b.lines.is_empty() || b.dups > 0 {
            let first = self.went_in.map_or(b.span.0, |(a, _)| a);
            self.went_in = Some((first, b.span.1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_is_guessed_from_the_header_names() {
        let header: Vec<String> = [
            "E-mail",
            "First Name",
            "surname",
            "Company Name",
            "Job Title",
            "LinkedIn URL",
            "Headline",
            "Plan tier",
            "email",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(
            guess_all(&header),
            vec![
                Target::Field(LeadField::Email),
                Target::Field(LeadField::FirstName),
                Target::Field(LeadField::LastName),
                Target::Field(LeadField::Company),
                Target::Field(LeadField::Position),
                Target::Field(LeadField::NetworkUrl),
                Target::Field(LeadField::Headline),
                Target::Custom("plan_tier".into()),
                Target::Custom("email".into()),
            ]
        );
        assert!(
            check_mapping(&[Target::Field(LeadField::FirstName)], &Channel::Email)
                .is_err_and(|e| e.contains("email") && e.contains("an email campaign"))
        );
        for h in ["E-mail Address", "e_mail_address"] {
            assert_eq!(guess(h), Target::Field(LeadField::Email), "{h}");
        }
        assert!(
            check_mapping(
                &[
                    Target::Field(LeadField::Email),
                    Target::Field(LeadField::Email)
                ],
                &Channel::Email
            )
            .is_err_and(|e| e.contains("two columns"))
        );
    }

    fn row(line: u64, cols: &[&str]) -> CsvRow {
        CsvRow {
            line,
            byte: line * 100,
            fields: Ok(cols.iter().map(|c| (*c).to_owned()).collect()),
        }
    }

    fn refusal(status: u16, message: &str) -> ApiError {
        let body = serde_json::json!({"error": message}).to_string();
        ApiError::Service(Box::new(crate::api::ServiceError::from_body(
            status,
            body.as_bytes(),
            None,
        )))
    }

    fn batch_of_five() -> Batch {
        let chunk = CsvChunk {
            rows: (0..5)
                .map(|i| row(i + 2, &[&format!("p{i}@x.io"), "Acme"]))
                .collect(),
            next: CsvPos { byte: 100, line: 7 },
            eof: true,
            file_len: 100,
            ..CsvChunk::default()
        };
        let mapping = [
            Target::Field(LeadField::Email),
            Target::Field(LeadField::Company),
        ];
        Batch::of(chunk, &mapping, &Channel::Email, |_| false)
    }

    #[test]
    fn a_chunk_is_made_into_leads_left_out_rows_and_duplicates() {
        let chunk = CsvChunk {
            rows: vec![
                row(2, &["ana@x.io", "Acme"]),
                row(3, &["", "Acme"]),
                row(4, &["ANA@x.io ", "Acme"]),
                row(5, &["seen@x.io", "Acme"]),
                CsvRow {
                    line: 6,
                    byte: 600,
                    fields: Err("not UTF-8".into()),
                },
                row(7, &["ben@x.io", ""]),
            ],
            ..CsvChunk::default()
        };
        let mapping = [
            Target::Field(LeadField::Email),
            Target::Custom("org".into()),
        ];
        let seen = identity_key(
            &LeadInput {
                email: Some("seen@x.io".into()),
                ..LeadInput::default()
            },
            &Channel::Email,
        );
        let b = Batch::of(chunk, &mapping, &Channel::Email, |k| k == seen);
        assert_eq!(b.lines, [2, 7]);
        assert_eq!(b.leads[0].email.as_deref(), Some("ana@x.io"));
        assert_eq!(b.leads[0].custom_fields.as_ref().unwrap()["org"], "Acme");
        assert_eq!(b.leads[1].custom_fields, None, "an empty cell sets nothing");
        assert_eq!(b.dups, 2, "line 4 repeats line 2; line 5 an earlier chunk");
        assert_eq!(
            b.left,
            [(3, "no email".to_owned()), (6, "not UTF-8".to_owned())]
        );
        assert_eq!((b.span, b.rows), ((2, 7), 6));
    }

    /// A NUL byte is no part of an address or a name: the row is left out
    /// saying where it was (it went up as text before).
    #[test]
    fn a_nul_byte_is_not_an_email_or_a_name() {
        let chunk = CsvChunk {
            rows: vec![
                row(2, &["ana@x.io\0", "Ana"]),
                row(3, &["bo@x.io", "B\0o"]),
                row(4, &["cy@x.io", "Cy", "\0"]),
                row(5, &["di@x.io", "Di"]),
            ],
            eof: true,
            ..CsvChunk::default()
        };
        let mapping = [
            Target::Field(LeadField::Email),
            Target::Field(LeadField::FirstName),
            Target::Custom("note".into()),
        ];
        let b = Batch::of(chunk, &mapping, &Channel::Email, |_| false);
        assert_eq!(b.lines, [5]);
        assert_eq!(
            b.left,
            [
                (2, "a NUL byte in email: not text".to_owned()),
                (3, "a NUL byte in first name: not text".to_owned()),
                (4, "a NUL byte in custom_fields.note: not text".to_owned()),
            ]
        );
    }

    /// A chunk's request body is at most 8 MiB: the chunk closes before
    /// the lead that would pass it, and the next chunk starts at that
    /// row; a row too big for any request is left out. (Rows of 1 MB each
    /// went up as one request of however many megabytes they made.)
    #[test]
    fn a_chunk_closes_before_its_body_passes_8_mib() {
        let wide = "w".repeat(60_000);
        let mut rows: Vec<CsvRow> = (0..200)
            .map(|i| {
                let email = format!("p{i}@x.io");
                row(i + 2, &[email.as_str(), wide.as_str(), wide.as_str()])
            })
            .collect();
        // Line 3: two hundred 60 KB fields, 12 MB as sent.
        let huge: Vec<String> = (0..200).map(|_| wide.clone()).collect();
        let mut huge_fields = vec!["big@x.io".to_owned()];
        huge_fields.extend(huge);
        rows[1].fields = Ok(huge_fields);
        let chunk = CsvChunk {
            rows,
            next: CsvPos {
                byte: 99_999,
                line: 202,
            },
            eof: true,
            ..CsvChunk::default()
        };
        let mut mapping = vec![
            Target::Field(LeadField::Email),
            Target::Custom("a".into()),
            Target::Custom("b".into()),
        ];
        mapping.extend((3..201).map(|i| Target::Custom(format!("c{i}"))));
        let b = Batch::of(chunk, &mapping, &Channel::Email, |_| false);
        let body = serde_json::to_vec(&crate::api::model::AddLeads {
            leads: b.leads.to_vec(),
        })
        .unwrap();
        assert!(body.len() <= CHUNK_BYTES, "{} bytes", body.len());
        let n = b.leads.len();
        assert!(n > 60 && n < 199, "{n} leads");
        let next_line = b.lines[n - 1] + 1;
        assert_eq!(
            b.next,
            CsvPos {
                byte: next_line * 100,
                line: next_line
            },
            "the next chunk starts at the first row left for it"
        );
        assert!(!b.eof);
        assert_eq!((b.rows, b.span), (n as u64 + 1, (2, next_line - 1)));
        assert_eq!(b.left.len(), 1);
        assert_eq!(b.left[0].0, 3);
        assert!(
            b.left[0].1.starts_with("the row is 11 MB as sent"),
            "{}",
            b.left[0].1
        );
    }

    /// A chunk holds the leads an exact count of each one as written lets
    /// in, whatever the rows' widths: the bound from the text's length
    /// only spares the counting where it cannot change where a chunk ends.
    #[test]
    fn a_chunk_holds_what_an_exact_count_lets_in() {
        let mapping = vec![Target::Field(LeadField::Email), Target::Custom("a".into())];
        for width in [0, 300, 9_000, 40_000, 65_000] {
            // Quotes take two bytes each as sent, `é` two as read.
            let wide = "é\"".repeat(width / 3);
            let fields = |i: usize| [format!("p{i}@x.io"), wide.clone()];
            let rows: Vec<CsvRow> = (0..400)
                .map(|i| {
                    let [email, text] = fields(i);
                    row(i as u64 + 2, &[email.as_str(), text.as_str()])
                })
                .collect();
            let chunk = CsvChunk {
                rows,
                eof: true,
                ..CsvChunk::default()
            };
            let b = Batch::of(chunk, &mapping, &Channel::Email, |_| false);
            let (mut body, mut n) = (EMPTY_BODY, 0);
            for i in 0..400 {
                let size = json_len(&lead_of(fields(i), &mapping)) + usize::from(n > 0);
                if body + size > CHUNK_BYTES {
                    break;
                }
                (body, n) = (body + size, n + 1);
            }
            assert_eq!(b.leads.len(), n, "rows of {width} bytes");
        }
    }

    /// The rows a 400 names are left out and the rest sent again; the
    /// reason each keeps is the service's message cut short (the CLI kept
    /// it whole: a message naming a thousand rows, a thousand times).
    #[test]
    fn a_refusal_naming_rows_leaves_them_out_with_a_short_reason() {
        let mut b = batch_of_five();
        let long: String = (0..40)
            .map(|i| format!("row {}: invalid email", if i % 2 == 0 { 3 } else { 1 }))
            .collect::<Vec<_>>()
            .join("; ");
        assert!(b.leave_out_refused(&refusal(400, &long)));
        assert_eq!(b.leads.len(), 3);
        assert_eq!(b.lines, [2, 4, 6]);
        assert_eq!(b.left.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [3, 5]);
        for (_, why) in &b.left {
            assert!(
                why.starts_with("refused by the service: row 3: invalid email"),
                "{why}"
            );
            assert_eq!(why.chars().count(), 120, "{why}");
            assert!(why.ends_with('…'), "{why}");
        }
        // Not a 400, or a row the batch does not have: the import stops.
        let mut b = batch_of_five();
        assert!(!b.leave_out_refused(&refusal(500, "row 1: invalid email")));
        assert!(!b.leave_out_refused(&refusal(400, "row 9: invalid email")));
        assert!(!b.leave_out_refused(&refusal(400, "invalid body")));
        assert_eq!(b.leads.len(), 5);
    }

    #[test]
    fn counts_take_in_what_went_in() {
        let mut c = Counts {
            file_len: 200,
            ..Counts::default()
        };
        let mut b = batch_of_five();
        b.dups = 1;
        b.left = vec![(9, "no email".into()), (8, "no email".into())];
        let answer = AddLeadsResponse {
            imported: 3,
            duplicates: 2,
            duplicate_rows: vec![crate::api::model::DuplicateRow {
                index: 4,
                reason: "batch".into(),
            }],
            ..AddLeadsResponse::default()
        };
        c.went_in(b, &answer);
        assert_eq!(
            (c.imported, c.dup_file, c.dup_roster, c.left_out_count),
            (3, 2, 1, 2)
        );
        assert_eq!(c.left_out[0].0, 8, "left-out rows in line order");
        assert_eq!((c.went_in, c.chunks, c.bytes_done), (Some((2, 6)), 1, 100));
        assert_eq!(c.percent(), 50);
        assert_eq!(c.seen.len(), 5);
        assert_eq!(
            c.summary(),
            "imported 3 · duplicates 3 (2 in the file, 1 already in the roster) · left out 2"
        );
    }
}
