//! CSV export of the open search's filtered results: a path prompt (default
//! `./<search-title-slug>-<YYYYMMDD>.csv`), a check that never overwrites
//! without asking, every page read with progress, the CSV built here in
//! `update` with the `csv` crate, and one atomic write. Cells a spreadsheet
//! would run as a formula are neutralised.

use std::collections::HashSet;

use std::path::{Path, PathBuf};

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use super::super::cmd::FileWrite;
use super::super::dialog::Outcome;
use super::super::toast::Level;
use super::super::{ApiReply, ApiRequest, Cmd, Confirm, ConfirmAction, Model};
use super::window::capped_total;
use super::{Confirmed, Dialog, Filter, Purpose, error_text, keys, send};
use crate::api::model::{LeadResult, Pagination, SearchPageQuery};
use crate::text::sanitize::DisplayText;

/// Rows per page when reading an unfiltered list (the GET allows 500).
pub const GET_PAGE: u64 = 500;
/// Rows per page of the results query (at most 100).
pub const QUERY_PAGE: u64 = 100;

/// The columns of the CSV, in order.
pub const COLUMNS: [&str; 18] = [
    "result_id",
    "score",
    "quality_tier",
    "name",
    "title",
    "company",
    "company_domain",
    "email",
    "network_url",
    "status",
    "created_at",
    "occurred_at",
    "query",
    "search_reason",
    "signal_reason",
    "search_url",
    "lead_id",
    "run_id",
];

/// Reads every page of a search's results, filtered or not, in order.
///
/// A walk ends when the service says so (`hasMore: false`, or an empty
/// page), and also when the service goes round in circles: a page that
/// brings no row not read before, a cursor already followed, or more rows
/// read than the first reported total plus a margin ([`Walk::limit`]).
/// Why it stopped early is kept in [`Walk::stopped`] for the user.
#[derive(Debug, Clone, PartialEq)]
pub struct Walk {
    /// The search.
    pub search: String,
    /// The filter (empty: every result, by offset).
    pub filter: Filter,
    /// Next offset (unfiltered).
    pub offset: u64,
    /// Next cursor (filtered).
    pub cursor: Option<String>,
    /// Every page was read.
    pub done: bool,
    /// Distinct rows taken so far.
    pub fetched: u64,
    /// Rows the service says there are.
    pub total: u64,
    /// Rows read, repeats included.
    pub read: u64,
    /// The total the first page reported (capped).
    pub first_total: Option<u64>,
    /// Result ids taken: a row read twice is taken once.
    pub seen: HashSet<String>,
    /// Cursors followed.
    pub cursors: HashSet<String>,
    /// Why the walk ended before the service said it was done.
    pub stopped: Option<String>,
}

impl Walk {
    /// A walk from the first page.
    pub fn new(search: &str, filter: &Filter, total: u64) -> Walk {
        Walk {
            search: search.to_owned(),
            filter: filter.clone(),
            offset: 0,
            cursor: None,
            done: false,
            fetched: 0,
            total,
            read: 0,
            first_total: None,
            seen: HashSet::new(),
            cursors: HashSet::new(),
            stopped: None,
        }
    }

    /// Rows the walk reads at most: the first reported total and a margin
    /// for a run still storing results (a tenth, at least 1,000).
    pub fn limit(&self) -> u64 {
        let first = self.first_total.unwrap_or(self.total);
        first.saturating_add((first / 10).max(1000))
    }

    /// The request for the next page.
    pub fn request(&self) -> ApiRequest {
        if self.filter.is_empty() {
            ApiRequest::GetSearch {
                id: self.search.clone(),
                page: SearchPageQuery {
                    limit: Some(GET_PAGE),
                    offset: Some(self.offset),
                    cursor: None,
                },
            }
        } else {
            ApiRequest::QueryResults {
                id: self.search.clone(),
                query: self.filter.query(self.cursor.clone(), QUERY_PAGE),
            }
        }
    }

    /// Takes in a page's rows out of an answer and moves on; returns the
    /// rows not taken before.
    pub fn take(&mut self, reply: ApiReply) -> Result<Vec<LeadResult>, String> {
        let (rows, p) = match reply {
            ApiReply::SearchPage(r) => r.map(|p| (p.results, p.pagination)),
            ApiReply::Results(r) => r.map(|p| (p.results, p.pagination)),
            _ => return Err("unexpected answer".into()),
        }
        .map_err(|e| error_text(&e))?;
        let n = rows.len();
        // Rows without an id cannot be told apart: each counts as new (the
        // limit still ends a walk of them).
        let fresh: Vec<LeadResult> = rows
            .into_iter()
            .filter(|r| r.result_id.is_empty() || self.seen.insert(r.result_id.clone()))
            .collect();
        self.advance(n, fresh.len(), &p);
        Ok(fresh)
    }

    fn stop(&mut self, why: String) {
        self.done = true;
        self.total = self.fetched;
        self.stopped = Some(why);
    }

    fn advance(&mut self, n: usize, fresh: usize, p: &Pagination) {
        let reported = capped_total(p.total) as u64;
        self.first_total.get_or_insert(reported);
        self.read = self.read.saturating_add(n as u64);
        self.fetched = self.fetched.saturating_add(fresh as u64);
        self.total = reported.max(self.fetched);
        if !p.has_more || n == 0 {
            self.done = true;
            self.total = self.fetched;
        } else if fresh == 0 {
            self.stop("the service sent rows already read again".into());
        } else if self.read > self.limit() {
            let first = crate::text::format::count(self.first_total.unwrap_or(0));
            self.stop(format!(
                "read {} where the service first reported {first}",
                crate::text::format::plural(self.read, "row", "rows")
            ));
        } else if self.filter.is_empty() {
            self.offset = self.offset.saturating_add(n as u64);
        } else {
            match &p.next_cursor {
                Some(c) => {
                    let c = c.to_text();
                    if self.cursors.insert(c.clone()) {
                        self.cursor = Some(c);
                    } else {
                        self.stop("the service's cursor led back to a page already read".into());
                    }
                }
                // Nothing to continue from: stop rather than loop.
                None => self.stop("the service said there is more but gave no cursor".into()),
            }
        }
    }
}

/// A cell as written: inert text (no escape sequences or bidi controls),
/// and a leading `'` when a spreadsheet would run it as a formula.
pub fn cell(raw: &str) -> String {
    let text = DisplayText::block(raw).into_string();
    neutralise(&text)
}

/// Prefixes `'` to text starting with `=`, `+`, `-`, `@`, tab or CR.
pub fn neutralise(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// The CSV record of a result.
pub fn record(r: &LeadResult) -> Vec<String> {
    let c = r.canonical_lead.clone().unwrap_or_default();
    let name = super::result_name(r);
    let company = if c.company.trim().is_empty() {
        r.entity_company.clone()
    } else {
        c.company.clone()
    };
    let mut out = vec![cell(&r.result_id), r.score.to_string()];
    out.extend(
        [
            &r.quality_tier,
            &name,
            &c.title,
            &company,
            &c.company_domain,
            &c.email,
            &c.network_url,
            &r.status,
            &r.created_at,
            &r.occurred_at,
            &r.query,
            &r.search_reason,
            &r.signal_reason,
            &r.search_url,
            &r.lead_id,
            &r.run_id,
        ]
        .into_iter()
        .map(|s| cell(s)),
    );
    out
}

fn csv_write(bytes: &mut Vec<u8>, record: &[String]) -> Result<(), String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(&mut *bytes);
    w.write_record(record).map_err(|e| e.to_string())?;
    w.flush().map_err(|e| e.to_string())
}

/// Where the export is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Asking for the path.
    Prompt,
    /// Checking whether the file exists.
    Checking,
    /// Asking whether to replace it.
    Confirming,
    /// Reading the pages.
    Fetching,
    /// Writing the file.
    Writing,
}

/// The export dialog and job.
#[derive(Debug, Clone)]
pub struct Export {
    /// Where it is.
    pub phase: Phase,
    /// The path typed.
    pub path: TextArea<'static>,
    /// What went wrong last.
    pub error: Option<String>,
    /// The search's title (for messages).
    pub title: String,
    /// The pages being read.
    pub walk: Walk,
    /// The CSV so far.
    pub bytes: Vec<u8>,
    /// Rows written so far (a live run can shift offset pages: the walk
    /// hands over a row seen twice once).
    pub rows: u64,
    /// Replacing an existing file was confirmed.
    pub overwrite: bool,
    /// Creating the missing directory was confirmed.
    pub create_dirs: bool,
}

impl Export {
    /// The path as typed.
    pub fn path_text(&self) -> String {
        self.path.lines().join("").trim().to_owned()
    }

    /// Pasted text goes to the path while it is asked for.
    pub fn paste(&mut self, text: &str) {
        if self.phase == Phase::Prompt {
            self.path.insert_str(text.replace(['\n', '\r'], ""));
        }
    }
}

/// A file-name slug of a title: lowercase ASCII letters and digits joined by
/// single dashes.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 48 {
            break;
        }
    }
    let out = out.trim_matches('-').to_owned();
    if out.is_empty() { "leads".into() } else { out }
}

/// `YYYYMMDD` (UTC) of unix seconds.
pub fn ymd(unix: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(unix) {
        Ok(t) => format!("{:04}{:02}{:02}", t.year(), u8::from(t.month()), t.day()),
        Err(_) => "00000000".into(),
    }
}

/// The default path: in the working directory.
pub fn default_path(title: &str, clock: i64) -> String {
    format!("./{}-{}.csv", slug(title), ymd(clock))
}

fn text_box(text: &str) -> TextArea<'static> {
    let mut t = TextArea::new(vec![text.to_owned()]);
    t.move_cursor(ratatui_textarea::CursorMove::End);
    t
}

/// Starts an export of the open search (with `path`: straight to the check).
pub fn start(m: &mut Model, path: Option<String>) -> Vec<Cmd> {
    // An export or an add in progress lives in the dialog: never replace it.
    if super::busy(m, "another export") {
        return Vec::new();
    }
    let Some(o) = m.panes.leads.open.as_ref() else {
        m.notify(
            Level::Info,
            "Open a search first",
            "export writes the results of the open search (with its filter)",
        );
        return Vec::new();
    };
    let title = if o.search.title.is_empty() {
        o.search.search_id.clone()
    } else {
        o.search.title.clone()
    };
    let total = o.window.total.unwrap_or(0) as u64;
    let walk = Walk::new(&o.search.search_id, &o.filter, total);
    let given = path.map(|p| p.trim().to_owned()).filter(|p| !p.is_empty());
    let shown = given
        .clone()
        .unwrap_or_else(|| default_path(&title, m.clock));
    super::show_dialog(
        m,
        Dialog::Export(Box::new(Export {
            phase: Phase::Prompt,
            path: text_box(&shown),
            error: None,
            title,
            walk,
            bytes: Vec::new(),
            rows: 0,
            overwrite: false,
            create_dirs: false,
        })),
    );
    if given.is_some() {
        return check(m);
    }
    Vec::new()
}

/// The directory a path is in, when it names one (`None`: the working
/// directory).
pub fn parent_dir(path: &str) -> Option<PathBuf> {
    Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf)
}

/// Checks the typed path: its directory first (never created without
/// asking), then whether the file exists.
fn check(m: &mut Model) -> Vec<Cmd> {
    let Some(exp) = export_any(m) else {
        return Vec::new();
    };
    let path = exp.path_text();
    if path.is_empty() {
        exp.error = Some("type a file path".into());
        return Vec::new();
    }
    if path.ends_with('/') {
        exp.error = Some("that is a directory; add a file name".into());
        return Vec::new();
    }
    let (purpose, target) = match parent_dir(&path) {
        Some(dir) => (Purpose::ExportDir, dir),
        None => (Purpose::ExportPath, PathBuf::from(&path)),
    };
    check_path(m, purpose, target)
}

/// Asks the runtime whether `path` exists, for `purpose`.
fn check_path(m: &mut Model, purpose: Purpose, path: PathBuf) -> Vec<Cmd> {
    let Some(exp) = export_any(m) else {
        return Vec::new();
    };
    exp.phase = Phase::Checking;
    exp.error = None;
    let id = m.effect(purpose);
    vec![Cmd::CheckPath { id, path }]
}

fn export_any(m: &mut Model) -> Option<&mut Export> {
    match m.panes.leads.dialog.as_mut() {
        Some(Dialog::Export(e)) => Some(e),
        _ => None,
    }
}

/// The export, when it is in `phase`: an answer is taken only in the
/// phase that waits for it (what is in flight is in the request table,
/// forgotten when the export is cancelled or closed).
fn export_in(m: &mut Model, phase: Phase) -> Option<&mut Export> {
    export_any(m).filter(|e| e.phase == phase)
}

/// A path check answered: of the directory (`dir`) or of the file.
pub fn on_path_checked(m: &mut Model, dir: bool, exists: Result<bool, String>) -> Vec<Cmd> {
    let Some(exp) = export_in(m, Phase::Checking) else {
        return Vec::new();
    };
    let path = exp.path_text();
    match (dir, exists) {
        (_, Err(e)) => {
            exp.phase = Phase::Prompt;
            exp.error = Some(format!("cannot check the path: {e}"));
            Vec::new()
        }
        (true, Ok(true)) => check_path(m, Purpose::ExportPath, PathBuf::from(path)),
        (true, Ok(false)) => {
            exp.phase = Phase::Confirming;
            let dir = parent_dir(&path).unwrap_or_default();
            m.confirm(Confirm {
                title: "Create the directory?".into(),
                lines: vec![
                    format!("The directory {} does not exist.", dir.display()),
                    "Create it and write the export there?".into(),
                ],
                yes: "Create it".into(),
                no: Some("pick another path".into()),
                destructive: false,
                on_yes: ConfirmAction::Pane(Confirmed::CreateExportDir.into()),
            });
            Vec::new()
        }
        (false, Ok(false)) => {
            exp.overwrite = false;
            begin(m)
        }
        (false, Ok(true)) => {
            exp.phase = Phase::Confirming;
            m.confirm(Confirm {
                title: "Replace the file?".into(),
                lines: vec![
                    format!("{path} exists."),
                    "Replace it with this export?".into(),
                ],
                yes: "Replace".into(),
                no: Some("pick another name".into()),
                destructive: true,
                on_yes: ConfirmAction::Pane(Confirmed::OverwriteExport.into()),
            });
            Vec::new()
        }
    }
}

/// The answer to "create the directory?".
pub fn create_dir_confirmed(m: &mut Model, yes: bool) -> Vec<Cmd> {
    let Some(exp) = export_any(m).filter(|e| e.phase == Phase::Confirming) else {
        return Vec::new();
    };
    if yes {
        // A new directory holds no file to replace.
        exp.create_dirs = true;
        exp.overwrite = false;
        begin(m)
    } else {
        exp.phase = Phase::Prompt;
        let dir = parent_dir(&exp.path_text()).unwrap_or_default();
        exp.error = Some(format!(
            "{} does not exist: pick another path, or confirm to create it",
            dir.display()
        ));
        Vec::new()
    }
}

/// The answer to "replace the file?".
pub fn overwrite_confirmed(m: &mut Model, yes: bool) -> Vec<Cmd> {
    let Some(exp) = export_any(m).filter(|e| e.phase == Phase::Confirming) else {
        return Vec::new();
    };
    if yes {
        exp.overwrite = true;
        begin(m)
    } else {
        exp.phase = Phase::Prompt;
        exp.error = Some("pick another name, or confirm to replace".into());
        Vec::new()
    }
}

fn begin(m: &mut Model) -> Vec<Cmd> {
    let Some(exp) = export_any(m) else {
        return Vec::new();
    };
    exp.phase = Phase::Fetching;
    exp.bytes.clear();
    exp.rows = 0;
    exp.walk = Walk::new(&exp.walk.search, &exp.walk.filter, exp.walk.total);
    let header: Vec<String> = COLUMNS.iter().map(|c| (*c).to_owned()).collect();
    if let Err(e) = csv_write(&mut exp.bytes, &header) {
        exp.phase = Phase::Prompt;
        exp.error = Some(e);
        return Vec::new();
    }
    next_page(m)
}

fn next_page(m: &mut Model) -> Vec<Cmd> {
    let Some(req) = export_any(m).map(|e| e.walk.request()) else {
        return Vec::new();
    };
    let (_, cmd) = send(m, Purpose::ExportPage, req);
    vec![cmd]
}

/// A page of the export arrived.
pub fn on_page(m: &mut Model, reply: ApiReply) -> Vec<Cmd> {
    let Some(exp) = export_in(m, Phase::Fetching) else {
        return Vec::new();
    };
    let rows = match exp.walk.take(reply) {
        Ok(rows) => rows,
        Err(e) => {
            exp.phase = Phase::Prompt;
            exp.error = Some(format!(
                "reading the results failed ({e}); {} tries again",
                keys::CONFIRM.label
            ));
            return Vec::new();
        }
    };
    for r in &rows {
        if let Err(e) = csv_write(&mut exp.bytes, &record(r)) {
            exp.phase = Phase::Prompt;
            exp.error = Some(e);
            return Vec::new();
        }
        exp.rows += 1;
    }
    if !exp.walk.done {
        return next_page(m);
    }
    exp.phase = Phase::Writing;
    let id = m.effect(Purpose::ExportWrite);
    let Some(exp) = export_any(m) else {
        return Vec::new();
    };
    vec![Cmd::WriteFile {
        id,
        file: FileWrite {
            path: exp.path_text().into(),
            // The bytes stay until the write answers, for a retry.
            bytes: exp.bytes.clone(),
            overwrite: exp.overwrite,
            create_dirs: exp.create_dirs,
        },
    }]
}

/// The file was written (or not).
pub fn on_file_written(m: &mut Model, result: Result<(), String>) -> Vec<Cmd> {
    let Some(exp) = export_in(m, Phase::Writing) else {
        return Vec::new();
    };
    match result {
        Ok(()) => {
            let (rows, path, title) = (exp.rows, exp.path_text(), exp.title.clone());
            let stopped = exp.walk.stopped.clone();
            super::close_dialog(m);
            let text = format!(
                "{} of {} to {path}",
                crate::text::format::plural(rows, "row", "rows"),
                DisplayText::inline(&title)
            );
            match stopped {
                None => m.notify(Level::Success, "Exported", &text),
                Some(why) => m.notify(
                    Level::Warning,
                    "Exported, maybe not every row",
                    &format!("{text}; reading stopped early: {why}"),
                ),
            }
        }
        Err(e) => {
            exp.phase = Phase::Prompt;
            exp.bytes.clear();
            exp.error = Some(format!("not written: {e}"));
        }
    }
    Vec::new()
}

/// What a key in the export dialog asks the pane to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportDone {
    /// Check the typed path and export there.
    Check,
    /// Stop the export (nothing is written).
    Cancel,
}

impl Export {
    /// A key in the dialog, edited in place.
    pub fn key(&mut self, key: KeyEvent) -> Outcome<ExportDone> {
        match self.phase {
            Phase::Prompt if keys::CLOSE.matches(&key) => Outcome::Close,
            Phase::Prompt if keys::CONFIRM.matches(&key) || keys::SUBMIT.matches(&key) => {
                Outcome::Act(ExportDone::Check)
            }
            Phase::Prompt => {
                if crate::app::form::edit_key(&mut self.path, key) {
                    self.error = None;
                }
                Outcome::Keep
            }
            Phase::Fetching | Phase::Checking if keys::CLOSE.matches(&key) => {
                Outcome::Act(ExportDone::Cancel)
            }
            // The question is over the dialog; a write cannot be recalled.
            _ => Outcome::Keep,
        }
    }
}

/// Carries out what the dialog asked for, with the whole model.
pub fn act(m: &mut Model, done: ExportDone) -> Vec<Cmd> {
    match done {
        ExportDone::Check => check(m),
        ExportDone::Cancel => {
            // Its answers are not wanted any more.
            super::close_dialog(m);
            m.notify(Level::Info, "Export cancelled", "nothing was written");
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_neutralised_and_text_made_inert() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-2"), "'-2");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(neutralise("\tx"), "'\tx");
        assert_eq!(neutralise("\r=x"), "'\r=x");
        assert_eq!(cell("Ana\u{1b}[31m López"), "Ana López");
        assert_eq!(cell("plain, \"quoted\""), "plain, \"quoted\"");
    }

    #[test]
    fn default_path_is_a_slug_and_a_date() {
        assert_eq!(
            default_path("RevOps leaders @ EU SaaS!", crate::app::fixtures::CLOCK),
            "./revops-leaders-eu-saas-20261122.csv"
        );
        assert_eq!(slug("—"), "leads");
    }
}
