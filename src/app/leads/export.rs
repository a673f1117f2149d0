//! CSV export of the open search's filtered results: a path prompt (default
//! `./<search-title-slug>-<YYYYMMDD>.csv`), a check that never overwrites
//! without asking, every page read with progress (the walk and the records
//! are `outpost results --csv`'s too: [`crate::logic::export`]), the CSV
//! built here in `update` with the `csv` crate, and one atomic write.

use super::LeadsModel;
use crate::app::ctx::Ctx;
use std::path::{Path, PathBuf};

use crossterm::event::KeyEvent;
use ratatui_textarea::TextArea;

use super::super::cmd::FileWrite;
use super::super::dialog::Outcome;
use super::super::toast::Level;
use super::super::{ApiRequest, Cmd, Confirm, ConfirmAction};
use super::{Confirmed, Dialog, Purpose, error_text, fixed_keys, send};
use crate::api::{ApiError, ResultRows};
use crate::app::path_complete::PathCompletion;
use crate::logic::export::{COLUMNS, Page, PageRequest, Walk, record};
use crate::text::sanitize::DisplayText;

/// The request of a walk's next page.
pub(crate) fn page_request(r: PageRequest) -> ApiRequest {
    match r {
        PageRequest::Search { id, page } => ApiRequest::GetSearch { id, page },
        PageRequest::Query { id, query } => ApiRequest::QueryResults { id, query },
    }
}

/// The page a walk's read brought, or why it brought none.
pub(crate) fn page_of(rows: Result<ResultRows, ApiError>) -> Result<Page, String> {
    rows.map(|rows| match rows {
        ResultRows::Search(p) => Page {
            results: p.results,
            pagination: p.pagination,
        },
        ResultRows::Query(p) => Page {
            results: p.results,
            pagination: p.pagination,
        },
    })
    .map_err(|e| error_text(&e))
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
    /// The step of the export: path prompt, checks, confirm, reading pages, writing.
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
    /// Tab completion of the path.
    pub complete: PathCompletion,
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
            self.complete.edited();
        }
    }
}

/// A file-name slug of a title: lowercase ASCII letters and digits joined by
/// single dashes.
pub(crate) fn slug(title: &str) -> String {
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
pub(crate) fn ymd(unix: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(unix) {
        Ok(t) => format!("{:04}{:02}{:02}", t.year(), u8::from(t.month()), t.day()),
        Err(_) => "00000000".into(),
    }
}

/// The default path: in the working directory.
pub(crate) fn default_path(title: &str, clock: i64) -> String {
    format!("./{}-{}.csv", slug(title), ymd(clock))
}

fn text_box(text: &str) -> TextArea<'static> {
    let mut t = TextArea::new(vec![text.to_owned()]);
    t.move_cursor(ratatui_textarea::CursorMove::End);
    t
}

/// Starts an export of the open search (with `path`: straight to the check).
pub(crate) fn start(leads: &mut LeadsModel, cx: &mut Ctx<'_>, path: Option<String>) -> Vec<Cmd> {
    // An export or an add in progress lives in the dialog: never replace it.
    if super::busy(leads, cx, "another export") {
        return Vec::new();
    }
    let Some(o) = leads.open.as_ref() else {
        cx.notify(
            Level::Info,
            "Open a search first",
            "export writes the results of the open search (with its filter)",
        );
        return Vec::new();
    };
    if o.window.total == Some(0) {
        cx.notify(
            Level::Info,
            "Nothing to export",
            "the open search has no results under its filter",
        );
        return Vec::new();
    }
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
        .unwrap_or_else(|| default_path(&title, cx.clock));
    super::show_dialog(
        leads,
        cx,
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
            complete: PathCompletion::default(),
        })),
    );
    if given.is_some() {
        return check(leads, cx);
    }
    Vec::new()
}

/// The directory a path is in, when it names one (`None`: the working
/// directory).
pub(crate) fn parent_dir(path: &str) -> Option<PathBuf> {
    Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf)
}

/// Checks the typed path: its directory first (never created without
/// asking), then whether the file exists.
fn check(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(exp) = export_any(leads) else {
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
    check_path(leads, cx, purpose, target)
}

/// A directory listed for the path's completion: the path is completed,
/// or the candidates (or why there are none) go to the help line.
pub(crate) fn on_listed(
    leads: &mut LeadsModel,
    listing: Result<crate::app::path_complete::DirListing, String>,
) -> Vec<Cmd> {
    let Some(exp) = export_in(leads, Phase::Prompt) else {
        return Vec::new();
    };
    let text = exp.path.lines().join("");
    if let Some(done) = exp.complete.listed(&text, listing) {
        exp.path = text_box(&done);
        exp.error = None;
    }
    Vec::new()
}

/// Asks the runtime whether `path` exists, for `purpose`.
fn check_path(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    purpose: Purpose,
    path: PathBuf,
) -> Vec<Cmd> {
    let Some(exp) = export_any(leads) else {
        return Vec::new();
    };
    exp.phase = Phase::Checking;
    exp.error = None;
    let id = cx.effect(purpose);
    vec![Cmd::CheckPath { id, path }]
}

fn export_any(leads: &mut LeadsModel) -> Option<&mut Export> {
    match leads.dialog.as_mut() {
        Some(Dialog::Export(e)) => Some(e),
        _ => None,
    }
}

/// The export, when it is in `phase`: an answer is taken only in the
/// phase that waits for it (what is in flight is in the request table,
/// forgotten when the export is cancelled or closed).
fn export_in(leads: &mut LeadsModel, phase: Phase) -> Option<&mut Export> {
    export_any(leads).filter(|e| e.phase == phase)
}

/// A path check answered: of the directory (`dir`) or of the file.
pub(crate) fn on_path_checked(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    dir: bool,
    exists: Result<bool, String>,
) -> Vec<Cmd> {
    let Some(exp) = export_in(leads, Phase::Checking) else {
        return Vec::new();
    };
    let path = exp.path_text();
    match (dir, exists) {
        (_, Err(e)) => {
            exp.phase = Phase::Prompt;
            exp.error = Some(format!("cannot check the path: {e}"));
            Vec::new()
        }
        (true, Ok(true)) => check_path(leads, cx, Purpose::ExportPath, PathBuf::from(path)),
        (true, Ok(false)) => {
            exp.phase = Phase::Confirming;
            let dir = parent_dir(&path).unwrap_or_default();
            cx.confirm(Confirm {
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
            begin(leads, cx)
        }
        (false, Ok(true)) => {
            exp.phase = Phase::Confirming;
            cx.confirm(Confirm {
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
pub(crate) fn create_dir_confirmed(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    yes: bool,
) -> Vec<Cmd> {
    let Some(exp) = export_any(leads).filter(|e| e.phase == Phase::Confirming) else {
        return Vec::new();
    };
    if yes {
        // A new directory holds no file to replace.
        exp.create_dirs = true;
        exp.overwrite = false;
        begin(leads, cx)
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
pub(crate) fn overwrite_confirmed(leads: &mut LeadsModel, cx: &mut Ctx<'_>, yes: bool) -> Vec<Cmd> {
    let Some(exp) = export_any(leads).filter(|e| e.phase == Phase::Confirming) else {
        return Vec::new();
    };
    if yes {
        exp.overwrite = true;
        begin(leads, cx)
    } else {
        exp.phase = Phase::Prompt;
        exp.error = Some("pick another name, or confirm to replace".into());
        Vec::new()
    }
}

fn begin(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(exp) = export_any(leads) else {
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
    next_page(leads, cx)
}

fn next_page(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let Some(req) = export_any(leads).map(|e| page_request(e.walk.request())) else {
        return Vec::new();
    };
    send(cx, Purpose::ExportPage, req);
    Vec::new()
}

/// A page of the export arrived.
pub(crate) fn on_page(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    rows: Result<ResultRows, ApiError>,
) -> Vec<Cmd> {
    let Some(exp) = export_in(leads, Phase::Fetching) else {
        return Vec::new();
    };
    let rows = match page_of(rows) {
        Ok(page) => exp.walk.take(page),
        Err(e) => {
            exp.phase = Phase::Prompt;
            exp.error = Some(format!(
                "reading the results failed ({e}); {} tries again",
                fixed_keys::CONFIRM.label
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
        return next_page(leads, cx);
    }
    exp.phase = Phase::Writing;
    let id = cx.effect(Purpose::ExportWrite);
    let Some(exp) = export_any(leads) else {
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
pub(crate) fn on_file_written(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    result: Result<(), String>,
) -> Vec<Cmd> {
    let Some(exp) = export_in(leads, Phase::Writing) else {
        return Vec::new();
    };
    match result {
        Ok(()) => {
            let (rows, path, title) = (exp.rows, exp.path_text(), exp.title.clone());
            let stopped = exp.walk.stopped.clone();
            super::close_dialog(leads, cx);
            let text = format!(
                "{} of {} to {path}",
                crate::text::format::plural(rows, "row", "rows"),
                DisplayText::inline(&title)
            );
            match stopped {
                None => cx.notify(Level::Success, "Exported", &text),
                Some(why) => cx.notify(
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
    /// Complete the path typed (Tab).
    Complete,
}

impl Export {
    /// A key in the dialog, edited in place.
    pub fn key(&mut self, key: KeyEvent) -> Outcome<ExportDone> {
        match self.phase {
            Phase::Prompt if fixed_keys::CLOSE.matches(&key) => Outcome::Close,
            Phase::Prompt
                if fixed_keys::CONFIRM.matches(&key) || fixed_keys::SUBMIT.matches(&key) =>
            {
                Outcome::Act(ExportDone::Check)
            }
            Phase::Prompt if fixed_keys::COMPLETE.matches(&key) => {
                Outcome::Act(ExportDone::Complete)
            }
            // Not text: a tab character is never typed into a path.
            Phase::Prompt if fixed_keys::PREV.matches(&key) => Outcome::Keep,
            Phase::Prompt => {
                if crate::app::form::edit_key(&mut self.path, key) {
                    self.error = None;
                    self.complete.edited();
                }
                Outcome::Keep
            }
            Phase::Fetching | Phase::Checking if fixed_keys::CLOSE.matches(&key) => {
                Outcome::Act(ExportDone::Cancel)
            }
            // The question is over the dialog; a write cannot be recalled.
            _ => Outcome::Keep,
        }
    }
}

/// Carries out what the dialog asked for, with the whole pane.
pub(crate) fn act(leads: &mut LeadsModel, cx: &mut Ctx<'_>, done: ExportDone) -> Vec<Cmd> {
    match done {
        ExportDone::Check => check(leads, cx),
        ExportDone::Complete => {
            let Some(exp) = export_in(leads, Phase::Prompt) else {
                return Vec::new();
            };
            let text = exp.path.lines().join("");
            let dir = exp.complete.tab(&text);
            let id = cx.effect(Purpose::ExportPathList);
            vec![Cmd::ListDir { id, dir }]
        }
        ExportDone::Cancel => {
            // Its answers are not wanted any more.
            super::close_dialog(leads, cx);
            cx.notify(Level::Info, "Export cancelled", "nothing was written");
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_path_is_a_slug_and_a_date() {
        assert_eq!(
            default_path("RevOps leaders @ EU SaaS!", crate::app::fixtures::CLOCK),
            "./revops-leaders-eu-saas-20261122.csv"
        );
        assert_eq!(slug("—"), "leads");
    }
}
