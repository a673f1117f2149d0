//! The Leads pane: searches (list route or local registry), the create-search
//! form, runs with a live watch and query diagnostics, the results table over
//! a bounded window of pages, a result's enrichment detail, the filter
//! builder, CSV export and "add to campaign".
//!
//! Every request is recorded in the shared request table with its
//! [`Purpose`]; a reply whose purpose no longer matches what is on screen
//! (another search, another filter generation) is dropped.

pub(crate) mod advice;
pub(crate) mod campaign;
pub(crate) mod detail;
pub(crate) mod export;
pub(crate) mod facts;
pub(crate) mod filter;
pub(crate) mod fixed_keys;
pub(crate) mod keymap;
pub(crate) mod layout;
pub(crate) mod new_search;
pub(crate) mod run;
pub(crate) mod search;
pub(crate) mod searches;
#[cfg(test)]
mod tests;
pub(crate) mod window;
pub(crate) mod words;

use crate::app::ctx::{Ctx, Intent};
use crate::app::requests::Requests;
use crate::geometry::Rect;
use std::collections::{BTreeMap, BTreeSet};

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use std::time::Duration;

use super::command_line::{Arg, CommandSpec};
use super::dialog::Outcome;
use super::ids::{self, IdShown, Target};
use super::pane::{Answer, PaneSpec, PaneUnit};
use super::table::TableState;
use super::toast::Level;
use super::{Cmd, Model, Pane, Reply, RequestId};
use crate::api::ApiError;
use crate::api::model::{FieldDescriptor, LeadInput, LeadResult};
use crate::app::keymap::{Action, Scope};
use crate::logic::resolve::Item;
use crate::store::State;
use crate::text::sanitize::DisplayText;

/// Key of the create-search draft in the local state.
pub(crate) const DRAFT_KEY: &str = "new-search";

/// What a 404 on a search means to the user.
pub(crate) const NOT_FOUND: &str = "not found (deleted, or another workspace's)";

/// A confirmed Leads action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// Run every eligible search.
    RunAll,
    /// Offer back the unsent create-search draft.
    RestoreDraft,
    /// Replace the existing file of the export in progress.
    OverwriteExport,
    /// Create the missing directory of the export in progress.
    CreateExportDir,
    /// Run a search again after a run request that may have reached the
    /// service.
    RunAgain(String),
    /// Send the new search again after a create that may have reached the
    /// service.
    CreateAgain,
    /// Add leads to a campaign again after an add that may have reached
    /// the service (safe to repeat: the service drops duplicates).
    AddAgain,
}

/// Which screen of the Lead Finder is up: searches, a search, a lead, new search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The list of searches.
    #[default]
    Searches,
    /// One search: run status, diagnostics and its results.
    Search,
    /// One result: the lead, reasons, content, links and enrichment.
    Detail,
    /// The create-search form (full pane).
    NewSearch,
}

/// Why a request was sent; checked against the pane's state when it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// The list of searches.
    Searches,
    /// One search's metadata and run status (limit 1).
    SearchMeta(String),
    /// A page of the open search's results.
    Page {
        /// The id of the search whose results were read.
        search: String,
        /// The filter generation it was asked for.
        generation: u64,
        /// Page index.
        page: usize,
    },
    /// The run watch of the open search: its status, and (unfiltered) the
    /// page of the selection read again.
    Watch {
        /// The id of the search being watched.
        search: String,
        /// The filter generation when it was sent.
        generation: u64,
        /// The page it reads (`None`: a one-row read for the status).
        page: Option<usize>,
    },
    /// Creating a search.
    Create,
    /// Reading the searches after a create whose answer was lost.
    CreateCheck,
    /// Starting a run.
    Run(String),
    /// Reading a search's run status after a run request whose answer
    /// was lost.
    RunCheck(String),
    /// Run all.
    RunAll,
    /// Reading the searches' runs after a run-all whose answer was lost.
    RunAllCheck,
    /// The enrichment of a result shown in the detail.
    Enrichment(String),
    /// An enrichment fetched for its field descriptors (filter builder).
    Descriptors(String),
    /// An enrichment read for a lead's location and seniority (the wide
    /// results table).
    Facts(String),
    /// Campaigns for the add dialog.
    Campaigns,
    /// One campaign of the local registry (the list route is not offered).
    Campaign(String),
    /// The campaign read back after an add, for its roster size.
    RosterAfter(String),
    /// A chunk of leads sent to a campaign.
    AddChunk,
    /// A page read by the add job (all matching the filter).
    AddPage,
    /// A page read by the export.
    ExportPage,
    /// The export's check whether its directory exists.
    ExportDir,
    /// The export's check whether its file exists.
    ExportPath,
    /// The export's file write.
    ExportWrite,
    /// The export path's directory, listed for its Tab completion.
    ExportPathList,
}

/// The pane's pollers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LeadsSub {
    /// Poll a search while its run is queued or running.
    RunWatch(String),
    /// Read one more lead's facts for the wide results table.
    Facts,
    /// Apply the text typed in the filter builder (live, a moment after
    /// the last change).
    LiveFilter,
    /// Read the searches again to find a search whose create answer was
    /// lost (after this many reads that did not show it).
    CreateCheck(u32),
    /// Read a search's run status again after a run request whose answer
    /// was lost (after this many reads).
    RunCheck(String, u32),
    /// Read the searches' runs again after a run-all whose answer was lost
    /// (after this many reads).
    RunAllCheck(u32),
}

/// The filter applied to the open search's results (the CLI's too).
pub use crate::logic::results::Filter;

/// A lead picked by hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Picked {
    /// Shown in reports.
    pub name: String,
    /// What is sent to the campaign.
    pub lead: LeadInput,
}

/// "Every result matching the filter", minus the ones unmarked since.
#[derive(Debug, Clone, PartialEq)]
pub struct AllMatching {
    /// The filter at the time.
    pub filter: Filter,
    /// How many matched.
    pub total: usize,
    /// Unmarked result ids.
    pub except: BTreeSet<String>,
}

/// The selected leads of the open search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Marks {
    /// Picked one by one (or every loaded one), by result id.
    pub picked: BTreeMap<String, Picked>,
    /// Everything matching the filter.
    pub all: Option<AllMatching>,
}

impl Marks {
    /// Selects or unselects one result (an exception while "all matching"
    /// is on).
    pub fn toggle(&mut self, r: &LeadResult) {
        match self.all.as_mut() {
            Some(all) => {
                if !all.except.remove(&r.result_id) {
                    all.except.insert(r.result_id.clone());
                }
            }
            None => {
                if self.picked.remove(&r.result_id).is_none() {
                    self.picked.insert(
                        r.result_id.clone(),
                        Picked {
                            name: result_name(r),
                            lead: lead_input(r),
                        },
                    );
                }
            }
        }
    }

    /// Whether a result is selected.
    pub fn is_marked(&self, result_id: &str) -> bool {
        match &self.all {
            Some(a) => !a.except.contains(result_id),
            None => self.picked.contains_key(result_id),
        }
    }

    /// How many are selected.
    pub fn count(&self) -> usize {
        match &self.all {
            Some(a) => a.total.saturating_sub(a.except.len()),
            None => self.picked.len(),
        }
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }
}

/// The open search.
#[derive(Debug, Clone, Default)]
pub struct Opened {
    /// The search (metadata refreshed by every page answer).
    pub search: crate::api::model::Search,
    /// Its latest run.
    pub latest_run: Option<crate::api::model::LatestRun>,
    /// Whether the search itself arrived at least once.
    pub loaded: bool,
    /// The filter.
    pub filter: Filter,
    /// Bumped when the filter changes: older page answers are dropped.
    pub generation: u64,
    /// The loaded pages.
    pub window: window::Window,
    /// Selected leads.
    pub marks: Marks,
    /// When the search and its run were last read, and whether the last
    /// read failed (what was read stays shown, marked stale; the watch
    /// tries again, more slowly after each failure).
    pub fresh: crate::app::fresh::Freshness,
    /// Why the run watch ended: the search is gone (404). The run status
    /// shown is only the last known one. `r` tries again.
    pub watch_lost: Option<String>,
    /// The total when the search was opened (to show "+N new").
    pub first_total: Option<usize>,
    /// Enter was pressed on a row still loading: open it on arrival.
    pub open_when_loaded: Option<detail::Tab>,
}

/// A message box (run-all answer).
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The box's title.
    pub title: String,
    /// Lines with their look.
    pub lines: Vec<(Level, String)>,
    /// Rows scrolled past at the top of the run-all report.
    pub scroll: u16,
}

/// A dialog over the Lead Finder; it takes the keys until it closes.
#[derive(Debug)]
pub enum Dialog {
    /// The filter builder.
    Filter(Box<filter::Builder>),
    /// Add the selected leads to a campaign.
    Campaign(Box<campaign::CampaignDialog>),
    /// CSV export: path prompt and progress.
    Export(Box<export::Export>),
    /// A report to read.
    Report(Report),
}

/// The Lead Finder pane's own state: searches, the open search and its dialogs.
#[derive(Debug, Default)]
pub struct LeadsModel {
    /// The screen shown: the searches, a search's results, a lead or the new search.
    pub view: View,
    /// The list of searches, as last read, with its selection.
    pub list: searches::SearchList,
    /// The open search.
    pub open: Option<Opened>,
    /// A search id opened from outside the lists (`:open search <uuid>`)
    /// and the source to remember it by once the service answers 200 for
    /// it: nothing unconfirmed is kept in the state file.
    pub unconfirmed: Option<(String, String)>,
    /// The open result.
    pub detail: Option<detail::Detail>,
    /// The create-search form.
    pub form: Option<new_search::NewSearch>,
    /// The last create: what it sent, and whether its answer was lost
    /// (kept when the form closes).
    pub last_create: new_search::LastCreate,
    /// The dialog open over the pane, if any: it takes the keys first.
    pub dialog: Option<Dialog>,
    /// Field descriptors by search id (from an enrichment answer).
    pub descriptors: BTreeMap<String, Vec<FieldDescriptor>>,
    /// Filter-builder edits left with Esc, by search: `/` brings them back.
    pub filter_edits: BTreeMap<String, Box<filter::Builder>>,
    /// The `continuationRetryAfter` of the last run started, by search:
    /// from then a live run may be continued.
    pub retry_after: BTreeMap<String, String>,
    /// Searches whose last run request may have reached the service (its
    /// answer was lost), each with the check of its run status: `R` is
    /// refused while it reads, then asks before sending again.
    pub uncertain_runs: BTreeMap<String, run::UncertainRun>,
    /// The last run-all may have reached the service: the check of the
    /// searches' runs; `Ctrl-R` is refused while it reads, then asks first.
    pub run_all_uncertain: Option<run::UncertainRunAll>,
    /// What each search showed of its runs when a run request was sent
    /// (what a lost answer's check compares against).
    pub(crate) runs_before: BTreeMap<String, run::RunSeen>,
    /// Leads' location and seniority for the wide results table.
    pub facts: facts::FactsCache,
    /// Whether the account may create Lead Finder searches (the Profile's
    /// `access.canCreateLeads`; `None` until known). Set with
    /// [`LeadsModel::set_can_create_leads`].
    pub can_create_leads: Option<bool>,
    /// The last add to a campaign that may have been accepted.
    pub uncertain_add: Option<campaign::UncertainAdd>,
}

/// Why a create was refused, as far as the account's access (`can`, from
/// the last redeem answer) explains it.
pub(crate) fn refused_create_hint(
    keymap: &crate::app::keymap::Keymap,
    can: Option<bool>,
) -> String {
    let key = keymap.key_label(Action::RedeemPass);
    match can {
        Some(false) => format!(
            "This account cannot create leads (its access says so). A discovery pass grants discoveries: :redeem <code>, or {key} on the Profile pane."
        ),
        Some(true) => "The account can create leads (as of the last redeem answer), so the refusal concerns this request.".into(),
        None => format!(
            "Whether this account can create leads is not known yet: the service says so when a discovery pass is redeemed (:redeem <code>, or {key} on the Profile pane)."
        ),
    }
}

/// One of the pane's subscriptions fired.
fn sub_fired(leads: &mut LeadsModel, cx: &mut Ctx<'_>, sub: LeadsSub) -> Vec<Cmd> {
    match sub {
        LeadsSub::RunWatch(search) => on_run_watch_due(leads, cx, &search),
        LeadsSub::Facts => facts::fetch_next(leads, cx),
        LeadsSub::LiveFilter => filter::apply_live(leads, cx),
        LeadsSub::CreateCheck(_) => new_search::read_check(leads, cx),
        LeadsSub::RunCheck(search, _) => run::read_run_check(leads, cx, &search),
        LeadsSub::RunAllCheck(_) => run::read_run_all_check(leads, cx),
    }
}

/// Whether a request of this pane whose purpose passes `f` is in flight
/// (the shared request table is the one record of what is).
pub(crate) fn in_flight(requests: &Requests, f: impl Fn(&Purpose) -> bool) -> bool {
    requests.pending::<LeadsModel>(f)
}

/// Whether a run request for `search` is on its way.
pub(crate) fn starting(requests: &Requests, search: &str) -> bool {
    in_flight(requests, |p| matches!(p, Purpose::Run(s) if s == search))
}

/// Whether the create-search request is on its way.
pub(crate) fn creating(requests: &Requests) -> bool {
    in_flight(requests, |p| *p == Purpose::Create)
}

impl LeadsModel {
    /// The base period at which the pane's run watch reads the open search
    /// again (`None`: nothing does): while the pane is `shown` with the
    /// search and its run is live and not lost, every `every` (the run
    /// poll). What the subscriptions poll and what the pane says of the
    /// search's freshness both come from here.
    pub fn open_watch(&self, shown: bool, every: Duration) -> Option<Duration> {
        let o = self.open.as_ref()?;
        let shown = shown && matches!(self.view, View::Search | View::Detail);
        let live =
            o.watch_lost.is_none() && o.latest_run.as_ref().is_some_and(|r| r.status.is_live());
        (shown && live).then_some(every)
    }

    /// The base period at which the run watch reads a searches row again
    /// (`None`: nothing does): a watched row on screen in the list, while
    /// the pane is `shown`, every `every` (the run poll).
    pub fn row_watch(
        &self,
        shown: bool,
        every: Duration,
        row: &searches::SearchRow,
    ) -> Option<Duration> {
        let shown = shown && self.view == View::Searches;
        (shown && row.watched()).then_some(every)
    }
}

/// The period a poll at `base` really runs at for values held in `f` (the
/// holder's one backoff rule; none for a refused key).
fn poll_of(f: &crate::app::fresh::Freshness, base: Option<Duration>) -> Option<Duration> {
    let mut f = f.clone();
    f.schedule(base);
    f.next_poll()
}

/// Tells each holder of the pane whether a poll reads it again, from the
/// same rules the subscriptions use ([`LeadsModel::open_watch`],
/// [`LeadsModel::row_watch`]), so
/// what is drawn is what is scheduled (the pane's
/// [`PaneUnit::sync_fresh`], run after every message).
pub(crate) fn sync_polls(leads: &mut LeadsModel, cx: &mut Ctx<'_>) {
    let shown = cx.is_shown(Pane::Leads);
    let open = leads.open_watch(shown, cx.poll.run);
    if let Some(o) = leads.open.as_mut() {
        o.fresh.schedule(open);
    }
    let vp = layout::searches_viewport(cx.layout().body);
    let on_screen: BTreeSet<String> = leads
        .list
        .visible_rows(vp)
        .into_iter()
        .filter(|r| leads.row_watch(shown, cx.poll.run, r).is_some())
        .map(|r| r.search.search_id.clone())
        .collect();
    let base = cx.poll.run;
    for row in &mut leads.list.rows {
        let polled = on_screen.contains(&row.search.search_id);
        row.fresh.schedule(polled.then_some(base));
    }
}

impl LeadsModel {
    /// The pollers this pane wants: the run watch of the open search while
    /// its run is queued or running, and of the live searches in view.
    /// `shown`: the pane is shown; `body`: the pane's area on screen;
    /// `every`: the run poll.
    pub fn subscriptions(
        &self,
        shown: bool,
        body: Rect,
        requests: &Requests,
        every: Duration,
        subs: &mut Vec<(LeadsSub, Duration)>,
    ) {
        // Finding out whether a lost create went through goes on while the
        // user looks elsewhere.
        if let Some((misses, after)) = new_search::recheck(&self.last_create) {
            subs.push((LeadsSub::CreateCheck(misses), after));
        }
        // So does finding out whether a lost run request started a run.
        run::recheck(self, subs);
        if !shown {
            return;
        }
        match self.view {
            View::Search | View::Detail => {
                if let Some(o) = &self.open
                    && let Some(every) = poll_of(&o.fresh, self.open_watch(shown, every))
                {
                    subs.push((LeadsSub::RunWatch(o.search.search_id.clone()), every));
                }
                if facts::wanted(self, shown, body, requests).is_some() {
                    subs.push((LeadsSub::Facts, facts::EVERY));
                }
                if matches!(&self.dialog, Some(Dialog::Filter(b)) if b.live) {
                    subs.push((LeadsSub::LiveFilter, filter::LIVE_AFTER));
                }
            }
            View::Searches => {
                let vp = layout::searches_viewport(body);
                for row in self.list.visible_rows(vp) {
                    if let Some(every) = poll_of(&row.fresh, self.row_watch(shown, every, row)) {
                        subs.push((LeadsSub::RunWatch(row.search.search_id.clone()), every));
                    }
                }
            }
            View::NewSearch => {}
        }
    }

    /// Writes whose answer may have reached the service and that are still
    /// being checked, each said for the quit question.
    pub fn checking(&self) -> Vec<String> {
        let l = self;
        let mut all = Vec::new();
        if let (Some(u), Some(sent)) = (&l.last_create.uncertain, &l.last_create.sent)
            && !u.check.settled()
        {
            all.push(format!(
                "the create of the search “{}”",
                DisplayText::inline(&sent.title)
            ));
        }
        for (id, u) in &l.uncertain_runs {
            if !u.check.settled() {
                let title = l
                    .list
                    .rows
                    .iter()
                    .find(|r| r.search.search_id == *id)
                    .map_or_else(|| id.clone(), |r| r.search.title.clone());
                all.push(format!("the run of “{}”", DisplayText::inline(&title)));
            }
        }
        if l.run_all_uncertain
            .as_ref()
            .is_some_and(|u| !u.check.settled())
        {
            all.push("the run of every search".to_owned());
        }
        all
    }

    /// Tells the pane whether the account may create Lead Finder searches
    /// (the Profile pane's `access.canCreateLeads`): the create form then
    /// says so up front, and a refusal names it.
    pub fn set_can_create_leads(&mut self, can: Option<bool>) {
        self.can_create_leads = can;
        if let Some(f) = self.form.as_mut() {
            // The form already open learns it too.
            f.access_changed(can);
        }
    }

    /// What unsent text the pane holds, if any.
    pub fn unsent(&self) -> Option<String> {
        self.form
            .as_ref()
            .filter(|f| f.form.is_dirty())
            .map(|_| "the new-search form".to_owned())
    }

    /// Copies unsent text into the local state.
    pub fn capture_drafts(&self, state: &mut State) {
        if let Some(f) = &self.form
            && f.form.is_dirty()
        {
            state.drafts.insert(DRAFT_KEY.into(), f.draft());
        }
    }

    /// The job running in a dialog, if any (leads being added to a
    /// campaign, an export past its path prompt), said for a notice. While
    /// one runs its dialog stays: nothing may replace it, or the job would
    /// be dropped half-way.
    pub fn job(&self) -> Option<&'static str> {
        match &self.dialog {
            Some(Dialog::Campaign(c)) if c.stage == campaign::Stage::Sending => {
                Some("leads are being added to a campaign")
            }
            Some(Dialog::Export(e)) if e.phase != export::Phase::Prompt => {
                Some("an export is running")
            }
            _ => None,
        }
    }

    /// The open search's id.
    pub fn open_id(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.search.search_id.as_str())
    }

    /// Field descriptors known for the open search.
    pub fn open_descriptors(&self) -> &[FieldDescriptor] {
        self.open_id()
            .and_then(|id| self.descriptors.get(id))
            .map_or(&[], Vec::as_slice)
    }
}

/// Status-bar hints of the current view.
fn hints(l: &LeadsModel) -> Vec<(Action, &'static str)> {
    if l.dialog.is_some() || l.view == View::NewSearch {
        // Dialogs and the form show their own keys.
        return Vec::new();
    }
    // With nothing selected, `c` adds the lead under the cursor.
    let add = if l.open.as_ref().is_some_and(|o| !o.marks.is_empty()) {
        "add to campaign"
    } else {
        "add this lead to a campaign"
    };
    match l.view {
        View::Searches if l.list.query.as_ref().is_some_and(|q| q.editing) => Vec::new(),
        View::Searches => {
            // With no search shown, nothing is there to open or run.
            let one = l.list.selected_id().is_some();
            let mut out = Vec::new();
            if one {
                out.push((Action::Open, "open"));
            }
            out.push((Action::NewSearch, "new"));
            if one {
                out.push((Action::RunSearch, "run"));
            }
            out.extend([
                (Action::RunAll, "run all"),
                (Action::Refresh, "refresh"),
                (Action::Filter, "filter"),
            ]);
            out
        }
        View::Search => {
            let resumable = l
                .open
                .as_ref()
                .and_then(|o| o.latest_run.as_ref())
                .is_some_and(|r| run::resumable(Some(&r.status)));
            // No results (under the filter): nothing to select, open,
            // add or export, so those keys are not offered.
            let none = l.open.as_ref().is_some_and(|o| o.window.total == Some(0));
            let rows = [
                (Action::ToggleMark, "select"),
                (Action::AddToCampaign, add),
                (Action::Open, "detail"),
                (Action::Export, "export"),
            ];
            let mut out = vec![(Action::Filter, "filter")];
            if !none {
                out.extend(rows);
            }
            out.push((
                Action::RunSearch,
                if resumable { "resume run" } else { "run" },
            ));
            if !none {
                out.push((Action::MarkMatching, "all matching"));
            }
            out.push((Action::Back, "back"));
            out
        }
        View::Detail => vec![
            (Action::NextSection, "next part"),
            if l.detail
                .as_ref()
                .is_some_and(|d| d.tab == detail::Tab::Lead)
            {
                (Action::Down, "scroll")
            } else {
                (Action::Open, "fold")
            },
            (Action::ToggleMark, "select"),
            (Action::AddToCampaign, add),
            (Action::Back, "back"),
        ],
        View::NewSearch => Vec::new(),
    }
}

/// Refuses `what` while a job runs (see [`LeadsModel::job`]), saying so;
/// returns whether it refused.
pub(crate) fn busy(leads: &LeadsModel, cx: &mut Ctx<'_>, what: &str) -> bool {
    let Some(job) = leads.job() else {
        return false;
    };
    cx.notify(
        Level::Warning,
        "Busy",
        &format!(
            "{job}: {what} has to wait until it ends ({} in its dialog stops it)",
            fixed_keys::CLOSE.label
        ),
    );
    true
}

/// `code: message` of a failure, for inline display (the code once, when
/// the message already starts with it: "timeout: no answer …").
pub(crate) fn error_text(e: &ApiError) -> String {
    let (code, message) = (e.code(), e.message());
    if message.starts_with(&format!("{code}:")) {
        message
    } else {
        format!("{code}: {message}")
    }
}

/// The pane became visible.
pub(crate) fn on_enter(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let mut cmds = searches::ensure_loaded(leads, cx);
    if matches!(leads.view, View::Search | View::Detail) {
        cmds.extend(search::fetch_pages(leads, cx, false));
    }
    cmds
}

/// The terminal was resized: keep selections on screen.
pub(crate) fn on_resize(leads: &mut LeadsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let body = cx.layout().body;
    let vp = layout::searches_viewport(body);
    leads.list.table.clamp(vp);
    let rvp = layout::results_viewport(body, leads);
    if let Some(o) = leads.open.as_mut() {
        o.window.table.clamp(rvp);
    }
    let dvp = layout::detail_viewport(body);
    if let Some(d) = leads.detail.as_mut() {
        d.clamp(dvp);
        detail::clamp_lead(d, cx);
    }
    // A taller window shows rows whose pages are not loaded yet.
    if cx.is_shown(Pane::Leads) && leads.open.is_some() {
        search::fetch_pages(leads, cx, false)
    } else {
        Vec::new()
    }
}

/// Pasted text goes to the focused text box.
pub(crate) fn on_paste(leads: &mut LeadsModel, text: &str) -> Vec<Cmd> {
    match &mut leads.dialog {
        Some(Dialog::Filter(b)) => b.paste(text),
        Some(Dialog::Export(e)) => e.paste(text),
        Some(_) => {}
        None => {
            if leads.view == View::NewSearch
                && let Some(f) = leads.form.as_mut()
            {
                f.form.paste(text);
                new_search::recheck_errors(f);
            }
        }
    }
    Vec::new()
}

/// Keys for a focused text box or a dialog; `None` when neither is open.
pub(crate) fn on_text_key(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    key: KeyEvent,
) -> Option<Vec<Cmd>> {
    if leads.dialog.is_some() {
        return Some(dialog_key(leads, cx, key));
    }
    match leads.view {
        View::NewSearch if leads.form.is_some() => Some(new_search::on_key(leads, cx, key)),
        View::Searches => searches::query_key(leads, cx, key),
        _ => None,
    }
}

/// Closes the dialog. The requests only it wanted (the campaigns it
/// offered, the pages an export read) are forgotten: their answers are
/// dropped, and a dialog opened later never takes them for its own.
pub(crate) fn close_dialog(leads: &mut LeadsModel, cx: &mut Ctx<'_>) {
    if let Some(d) = leads.dialog.take() {
        forget_dialog(cx.requests, &d);
    }
}

/// Shows `dialog` over the pane, closing the one shown (see
/// [`close_dialog`]).
pub(crate) fn show_dialog(leads: &mut LeadsModel, cx: &mut Ctx<'_>, dialog: Dialog) {
    close_dialog(leads, cx);
    leads.dialog = Some(dialog);
}

fn forget_dialog(requests: &mut Requests, d: &Dialog) {
    match d {
        Dialog::Campaign(_) => {
            requests.forget::<LeadsModel>(|p| {
                matches!(
                    p,
                    Purpose::Campaigns
                        | Purpose::Campaign(_)
                        | Purpose::RosterAfter(_)
                        | Purpose::AddChunk
                        | Purpose::AddPage
                )
            });
        }
        // A write cannot be recalled; what reads the file would write is
        // not wanted any more.
        Dialog::Export(_) => {
            requests.forget::<LeadsModel>(|p| {
                matches!(
                    p,
                    Purpose::ExportPage | Purpose::ExportPath | Purpose::ExportDir
                )
            });
        }
        // The field descriptors fill the cache whether or not the builder
        // is still open.
        Dialog::Filter(_) | Dialog::Report(_) => {}
    }
}

/// What a key in one of the dialogs asks the pane to do.
enum DialogDone {
    Filter(filter::FilterDone),
    Campaign(campaign::CampaignDone),
    Export(export::ExportDone),
}

/// A key in the dialog, which is edited in place; what it asks for is then
/// carried out with the whole pane.
fn dialog_key(leads: &mut LeadsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let action = cx.keymap.action(Scope::Leads, &key);
    let Some(dialog) = leads.dialog.as_mut() else {
        return Vec::new();
    };
    let outcome = match dialog {
        Dialog::Filter(b) => b.key(key).map(DialogDone::Filter),
        Dialog::Campaign(c) => c.key(key, action).map(DialogDone::Campaign),
        Dialog::Export(e) => e.key(key).map(DialogDone::Export),
        Dialog::Report(r) => r.key(action),
    };
    match outcome {
        Outcome::Keep => Vec::new(),
        Outcome::Close => {
            close_dialog(leads, cx);
            Vec::new()
        }
        Outcome::Act(DialogDone::Filter(done)) => filter::act(leads, cx, done),
        Outcome::Act(DialogDone::Campaign(done)) => campaign::act(leads, cx, done),
        Outcome::Act(DialogDone::Export(done)) => export::act(leads, cx, done),
    }
}

impl Report {
    /// The movement keys scroll; any other key closes it.
    fn key<T>(&mut self, action: Option<Action>) -> Outcome<T> {
        self.scroll = match action {
            Some(Action::Down) => self.scroll.saturating_add(1),
            Some(Action::Up) => self.scroll.saturating_sub(1),
            Some(Action::PageDown) => self.scroll.saturating_add(10),
            Some(Action::PageUp) => self.scroll.saturating_sub(10),
            _ => return Outcome::Close,
        };
        Outcome::Keep
    }
}

/// A key action in the Lead Finder: the open dialog takes it first, then the view.
pub(crate) fn on_action(leads: &mut LeadsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    match action {
        Action::NewSearch if leads.view != View::NewSearch => return new_search::open(leads, cx),
        Action::RunAll => return run::ask_run_all(leads, cx),
        _ => {}
    }
    match leads.view {
        View::Searches => searches::on_action(leads, cx, action),
        View::Search => search::on_action(leads, cx, action),
        View::Detail => detail::on_action(leads, cx, action),
        View::NewSearch => Vec::new(),
    }
}

/// A reply for this pane, with the purpose it was sent for.
pub(crate) fn on_reply(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    _id: RequestId,
    purpose: Purpose,
    reply: Reply,
) -> Vec<Cmd> {
    let reply = match reply {
        Reply::Api(r) => r,
        Reply::PathChecked(exists) => {
            let dir = purpose == Purpose::ExportDir;
            return export::on_path_checked(leads, cx, dir, exists);
        }
        Reply::FileWritten(result) => return export::on_file_written(leads, cx, result),
        Reply::DirListed(listing) => return export::on_listed(leads, listing),
        Reply::Csv(_) | Reply::Dns(_) => return Vec::new(),
    };
    match purpose {
        Purpose::Searches => reply.answer(|r| searches::on_list(leads, cx, r)),
        Purpose::SearchMeta(search) => reply.answer(|r| searches::on_meta(leads, cx, &search, r)),
        Purpose::Page {
            search,
            generation,
            page,
        } => reply.answer(|r| search::on_page(leads, cx, &search, generation, page, r)),
        Purpose::Watch {
            search,
            generation,
            page,
        } => reply.answer(|r| search::on_watch(leads, cx, &search, generation, page, r)),
        Purpose::Create => reply.answer(|r| new_search::on_created(leads, cx, r)),
        Purpose::CreateCheck => reply.answer(|r| new_search::on_create_check(leads, cx, r)),
        Purpose::Run(search) => reply.answer(|r| run::on_run(leads, cx, &search, r)),
        Purpose::RunCheck(search) => reply.answer(|r| run::on_run_check(leads, cx, &search, r)),
        Purpose::RunAll => reply.answer(|r| run::on_run_all(leads, cx, r)),
        Purpose::RunAllCheck => reply.answer(|r| run::on_run_all_check(leads, cx, r)),
        Purpose::Enrichment(result) => {
            reply.answer(|r| detail::on_enrichment(leads, cx, &result, r))
        }
        Purpose::Descriptors(search) => reply.answer(|r| filter::on_descriptors(leads, &search, r)),
        Purpose::Facts(result) => reply.answer(|r| facts::on_facts(leads, &result, r)),
        Purpose::Campaigns => reply.answer(|r| campaign::on_campaigns(leads, cx, r)),
        Purpose::Campaign(campaign) => reply.answer(|r| campaign::on_campaign(leads, &campaign, r)),
        Purpose::RosterAfter(campaign) => {
            reply.answer(|r| campaign::on_roster_after(leads, cx, &campaign, r))
        }
        Purpose::AddChunk => reply.answer(|r| campaign::on_chunk(leads, cx, r)),
        Purpose::AddPage => reply.answer(|r| campaign::on_page(leads, cx, r)),
        Purpose::ExportPage => reply.answer(|r| export::on_page(leads, cx, r)),
        // File effects answer with `Reply::PathChecked` / `FileWritten`.
        Purpose::ExportDir
        | Purpose::ExportPath
        | Purpose::ExportWrite
        | Purpose::ExportPathList => Vec::new(),
    }
}

/// Sends a request for this pane, recording its purpose.
pub(crate) fn send(cx: &mut Ctx<'_>, purpose: Purpose, req: crate::app::ApiRequest) -> RequestId {
    cx.request(purpose, req)
}

/// A run watch fired.
fn on_run_watch_due(leads: &mut LeadsModel, cx: &mut Ctx<'_>, search: &str) -> Vec<Cmd> {
    if !cx.is_shown(Pane::Leads) {
        return Vec::new();
    }
    if matches!(leads.view, View::Search | View::Detail) && leads.open_id() == Some(search) {
        return search::poll(leads, cx);
    }
    searches::fetch_meta(leads, cx, search)
}

/// Mouse on the body: click selects (again opens), the wheel scrolls, a
/// click on a filter chip removes it.
pub(crate) fn on_mouse(leads: &mut LeadsModel, cx: &mut Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    if leads.dialog.is_some() || leads.view == View::NewSearch {
        return Vec::new();
    }
    let body = cx.layout().body;
    match ev.kind {
        MouseEventKind::ScrollDown => on_action(leads, cx, Action::Down),
        MouseEventKind::ScrollUp => on_action(leads, cx, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => match leads.view {
            View::Searches => {
                let area = layout::searches_area(body);
                let Some(line) = crate::geometry::table::line_at(area, ev.column, ev.row) else {
                    return Vec::new();
                };
                let vp = layout::searches_viewport(body);
                click_row(leads, cx, |l| &mut l.list.table, line, vp)
            }
            View::Search => {
                let areas = layout::search_areas(body, leads);
                if let Some(chip) = layout::chip_at(leads, areas.chips, ev.column, ev.row) {
                    return search::remove_chip(leads, cx, chip);
                }
                let Some(line) = crate::geometry::table::line_at(areas.table, ev.column, ev.row)
                else {
                    return Vec::new();
                };
                let vp = areas.viewport();
                let Some(o) = leads.open.as_mut() else {
                    return Vec::new();
                };
                let Some(row) = o.window.table.row_at(line) else {
                    return Vec::new();
                };
                let again = o.window.table.selected == row;
                o.window.table.select(row, vp);
                if again {
                    on_action(leads, cx, Action::Open)
                } else {
                    search::fetch_pages(leads, cx, false)
                }
            }
            View::Detail | View::NewSearch => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn click_row(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    table: impl Fn(&mut LeadsModel) -> &mut TableState,
    line: usize,
    vp: usize,
) -> Vec<Cmd> {
    let t = table(leads);
    let Some(row) = t.row_at(line) else {
        return Vec::new();
    };
    let again = t.selected == row;
    t.select(row, vp);
    if again {
        on_action(leads, cx, Action::Open)
    } else {
        searches::fetch_visible_meta(leads, cx)
    }
}

/// A question of the pane was answered. Dismissed (Esc or `q`): nothing
/// is chosen and nothing typed is discarded.
pub(crate) fn on_answered(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    what: Confirmed,
    answer: Answer,
) -> Vec<Cmd> {
    match (what, answer) {
        (Confirmed::RunAll, Answer::Yes) => run::run_all(leads, cx),
        (Confirmed::RunAgain(id), Answer::Yes) => run::run_again(leads, cx, &id),
        (Confirmed::CreateAgain, Answer::Yes) => new_search::create_again(leads, cx),
        (Confirmed::AddAgain, Answer::Yes) => campaign::add_again(leads, cx),
        (
            Confirmed::RunAll
            | Confirmed::RunAgain(_)
            | Confirmed::CreateAgain
            | Confirmed::AddAgain,
            _,
        ) => Vec::new(),
        (Confirmed::RestoreDraft, Answer::Yes) => new_search::restore_draft(leads, cx, true),
        // "discard the draft": the one place the draft is thrown away.
        (Confirmed::RestoreDraft, Answer::No) => new_search::restore_draft(leads, cx, false),
        // The draft stays saved; back to where the form was opened from.
        (Confirmed::RestoreDraft, Answer::Dismissed) => new_search::keep_draft(leads),
        (Confirmed::OverwriteExport, Answer::Yes) => export::overwrite_confirmed(leads, cx, true),
        // Back to the path prompt, the path as typed.
        (Confirmed::OverwriteExport, _) => export::overwrite_confirmed(leads, cx, false),
        (Confirmed::CreateExportDir, Answer::Yes) => export::create_dir_confirmed(leads, cx, true),
        (Confirmed::CreateExportDir, _) => export::create_dir_confirmed(leads, cx, false),
    }
}

/// Whether `id` has the form of a search id: a UUID, hyphenated
/// (`3f2b8c1e-…`), as the service writes them.
pub(crate) fn is_search_id(id: &str) -> bool {
    id.len() == 36 && uuid::Uuid::try_parse(id).is_ok()
}

/// Opens a search by an id in no list; it is remembered locally (as from
/// `source`) only once the service answers 200 for it. An id that is not
/// a UUID is refused before anything is sent or remembered.
pub(crate) fn open_search_by_id(
    leads: &mut LeadsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    source: &str,
) -> Vec<Cmd> {
    let id = id.trim();
    if id.is_empty() {
        return Vec::new();
    }
    if !is_search_id(id) {
        let shown: String = DisplayText::inline(id)
            .into_string()
            .chars()
            .take(48)
            .collect();
        cx.notify(
            Level::Warning,
            "Not a search id",
            &format!(
                "\"{shown}\" is not a search id: one is a UUID like 3f2b8c1e-5d4a-4e7b-9c1d-2a6f0e9b7c35 (copy it from the web dashboard's search URL)"
            ),
        );
        return Vec::new();
    }
    if busy(leads, cx, "opening a search") {
        return Vec::new();
    }
    leads.unconfirmed = Some((id.to_owned(), source.to_owned()));
    search::open(leads, cx, id)
}

/// `:open search <what>`: an id, a unique id prefix, a title or a unique
/// part of a title of a search listed; a whole id in no list is read
/// first; anything else is refused before any request.
pub(crate) fn open_typed(leads: &mut LeadsModel, cx: &mut Ctx<'_>, typed: &str) -> Vec<Cmd> {
    match ids::resolve_open(cx, "search", typed, &open_items(leads)) {
        None => Vec::new(),
        Some(Target::Listed(id)) => {
            if busy(leads, cx, "opening a search") {
                return Vec::new();
            }
            search::open(leads, cx, &id)
        }
        Some(Target::Unconfirmed(id)) => open_search_by_id(leads, cx, &id, "pasted"),
    }
}

/// The searches `:open search` resolves among (and completes from).
pub(crate) fn open_items(leads: &LeadsModel) -> Vec<Item> {
    leads
        .list
        .rows
        .iter()
        .map(|r| Item::new(r.search.search_id.as_str(), r.search.title.as_str()))
        .collect()
}

/// Starts a CSV export of the open search's filtered results.
pub fn start_export(leads: &mut LeadsModel, cx: &mut Ctx<'_>, path: Option<String>) -> Vec<Cmd> {
    export::start(leads, cx, path)
}

/// The lead to send to a campaign for a result.
pub(crate) fn lead_input(r: &LeadResult) -> LeadInput {
    let c = r.canonical_lead.clone().unwrap_or_default();
    let some = |s: &str| {
        let s = s.trim();
        (!s.is_empty()).then(|| s.to_owned())
    };
    let name = some(&c.name).or_else(|| some(&r.entity_person));
    let (first, last) = match name.as_deref().map(|n| n.split_once(' ')) {
        Some(Some((f, l))) => (some(f), some(l)),
        Some(None) => (name.clone(), None),
        None => (None, None),
    };
    let mut custom = serde_json::Map::new();
    custom.insert("lead_finder_search_id".into(), r.search_id.clone().into());
    custom.insert("lead_finder_result_id".into(), r.result_id.clone().into());
    if let Some(score) = serde_json::Number::from_f64(r.score) {
        custom.insert("lead_finder_score".into(), score.into());
    }
    LeadInput {
        email: some(&c.email),
        network_url: some(&c.network_url),
        first_name: first,
        last_name: last,
        name,
        company: some(&c.company).or_else(|| some(&r.entity_company)),
        position: some(&c.title),
        headline: None,
        custom_fields: Some(custom),
    }
}

/// Display name of a result (the CLI's too).
pub(crate) use crate::logic::results::result_name;

/// The item whose id `I` copies: the selected search of the list, the
/// selected result of the open search (the search while none is), the
/// result shown in the detail.
fn id_shown(leads: &LeadsModel) -> Option<IdShown> {
    let result = |r: &LeadResult| IdShown::new("lead result", &r.result_id, &result_name(r));
    match leads.view {
        View::Searches => leads
            .list
            .row(leads.list.table.selected)
            .map(|r| IdShown::new("search", &r.search.search_id, &r.search.title)),
        View::Search => {
            let o = leads.open.as_ref()?;
            o.window
                .selected()
                .map(result)
                .or_else(|| Some(IdShown::new("search", &o.search.search_id, &o.search.title)))
        }
        View::Detail => leads.detail.as_ref().map(|d| result(&d.result)),
        View::NewSearch => None,
    }
}

/// Notifies, in one place, a failure of a request of this pane.
pub(crate) fn toast_error(cx: &mut Ctx<'_>, context: &str, e: &ApiError) {
    cx.toasts.error(cx.now, context, e);
    cx.redraw();
}

impl PaneUnit for LeadsModel {
    type Purpose = Purpose;
    type Sub = LeadsSub;
    type Confirmed = Confirmed;

    const SPEC: PaneSpec = PaneSpec {
        number: 1,
        title: "Leads",
        key: "leads",
        aliases: &["searches"],
        scope: Scope::Leads,
        action: Action::PaneLeads,
    };
    const COMMANDS: &'static [CommandSpec] = &[
        CommandSpec {
            name: "open search",
            writes: false,
            arg: Arg::Required("<search>"),
            help: "open a search by id, id prefix, title or part of one (Tab completes)",
        },
        CommandSpec {
            name: "run all",
            writes: true,
            arg: Arg::None,
            help: "run every eligible search",
        },
        CommandSpec {
            name: "export",
            writes: false,
            arg: Arg::Optional("[path.csv]"),
            help: "export the open search's filtered results to CSV",
        },
    ];

    fn enter(m: &mut Model) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        on_enter(leads, &mut cx)
    }
    fn from_cache(m: &mut Model) {
        let (leads, mut cx) = m.split::<Self>();
        searches::from_cache(leads, &mut cx);
    }
    fn resize(m: &mut Model) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        on_resize(leads, &mut cx)
    }
    fn text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
        let (leads, mut cx) = m.split::<Self>();
        on_text_key(leads, &mut cx, key)
    }
    fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        on_action(leads, &mut cx, action)
    }
    fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        on_mouse(leads, &mut cx, ev)
    }
    fn paste(m: &mut Model, text: &str) -> Vec<Cmd> {
        on_paste(&mut m.panes.leads, text)
    }
    fn reply(m: &mut Model, id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        on_reply(leads, &mut cx, id, purpose, reply)
    }
    fn subscriptions(m: &Model, subs: &mut Vec<(LeadsSub, Duration)>) {
        m.panes.leads.subscriptions(
            m.pane == Pane::Leads,
            m.layout().body,
            &m.requests,
            m.poll.run,
            subs,
        );
    }
    fn sync_fresh(m: &mut Model) {
        let (leads, mut cx) = m.split::<Self>();
        sync_polls(leads, &mut cx);
    }
    fn sub_fired(m: &mut Model, sub: LeadsSub) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        sub_fired(leads, &mut cx, sub)
    }
    fn answered(m: &mut Model, what: Confirmed, answer: Answer) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        on_answered(leads, &mut cx, what, answer)
    }
    fn intent(m: &mut Model, intent: &Intent) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        match intent {
            Intent::CampaignForLeads(c) => campaign::take_new(leads, &mut cx, (**c).clone()),
            Intent::CanCreateLeads(can) => {
                leads.set_can_create_leads(*can);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
    fn command(m: &mut Model, name: &str, arg: Option<String>) -> Vec<Cmd> {
        let (leads, mut cx) = m.split::<Self>();
        match name {
            "open search" => open_typed(leads, &mut cx, arg.as_deref().unwrap_or("")),
            "run all" => on_action(leads, &mut cx, Action::RunAll),
            "export" => start_export(leads, &mut cx, arg),
            _ => Vec::new(),
        }
    }
    fn unsent(m: &Model) -> Option<String> {
        m.panes.leads.unsent()
    }
    fn checking(m: &Model) -> Vec<String> {
        m.panes.leads.checking()
    }
    fn capture_drafts(m: &Model, state: &mut State) {
        m.panes.leads.capture_drafts(state);
    }
    fn modal(m: &Model) -> bool {
        m.panes.leads.dialog.is_some()
    }
    fn id_shown(m: &Model) -> Option<IdShown> {
        id_shown(&m.panes.leads)
    }
    fn hints(m: &Model) -> Vec<(Action, &'static str)> {
        hints(&m.panes.leads)
    }
}
