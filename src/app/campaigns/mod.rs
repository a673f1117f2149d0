//! The Campaigns pane: the campaign list (list route, or the local registry
//! of ids met elsewhere), the create form, a campaign's detail (settings,
//! senders, sequence and every stats counter as a chart, watched live while
//! it sends), its roster in pages of at most 200 with a status filter, CSV
//! import in chunks of at most 1,000, lead edit and delete, the sequence
//! editor, launch / pause / resume with the contract's state rules, and the
//! generated messages.
//!
//! Every request is recorded in the shared request table with its
//! [`Purpose`]; when what it was for goes (another campaign opened, the
//! roster's filter changed) the request is forgotten, and the table drops
//! its reply (the one place stale replies are dropped). The state rules live in
//! [`rules`]: a key that cannot work in the campaign's status is shown with
//! its reason and never sent.

pub(crate) mod create;
pub(crate) mod custom;
pub(crate) mod delete;
pub(crate) mod detail;
pub(crate) mod fixed_keys;
#[cfg(test)]
mod forms_tests;
pub(crate) mod import;
pub(crate) mod keymap;
pub(crate) mod layout;
pub(crate) mod lead;
pub(crate) mod list;
#[cfg(test)]
mod lists_tests;
pub(crate) mod lost_create;
pub(crate) mod messages;
pub(crate) mod preflight;
#[cfg(test)]
mod preflight_tests;
pub(crate) mod roster;
pub(crate) mod rules;
pub(crate) mod sequence;
pub(crate) mod settle;
#[cfg(test)]
mod settle_tests;
#[cfg(test)]
mod tests;
pub(crate) mod trend;

use std::time::Duration;

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use super::command_line::{Arg, CommandSpec};
use super::ctx::{Ctx, Intent};
use super::dialog::Outcome;
use super::fresh::Freshness;
use super::ids::{self, IdShown, Target};
use super::pane::{Answer, PaneSpec, PaneUnit};
use super::requests::Requests;
use super::toast::Level;
use super::{Cmd, Model, Pane, Reply, RequestId};
use crate::api::ApiError;
use crate::api::model::{Campaign, CampaignStatus};
use crate::app::keymap::{Action, Scope};
use crate::logic::resolve::Item;
use crate::store::State;

/// Which screen of Campaigns is up: list, one campaign, create form, sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The campaigns.
    #[default]
    List,
    /// One campaign (overview, roster, messages).
    Detail,
    /// The create form (full pane).
    Create,
    /// The sequence editor of the open campaign (full pane).
    Sequence,
}

/// The parts of a campaign's detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// Settings, senders, sequence and the stats chart.
    #[default]
    Overview,
    /// The roster.
    Roster,
    /// Generated messages.
    Messages,
}

impl Tab {
    /// Every tab, in order.
    pub const ALL: [Tab; 3] = [Tab::Overview, Tab::Roster, Tab::Messages];

    /// Its title.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Roster => "Roster",
            Tab::Messages => "Messages",
        }
    }

    /// The next (or previous) tab, wrapping.
    pub fn step(self, forward: bool) -> Tab {
        let i = Tab::ALL.iter().position(|t| *t == self).unwrap_or(0);
        let n = Tab::ALL.len();
        Tab::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

/// Why a request (or file effect) was sent; checked when it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// The optional list route.
    List,
    /// One campaign of the local registry (the list route is not offered).
    Known(String),
    /// The open campaign: opened, refreshed, watched or re-read.
    Campaign(String),
    /// The senders, for the create form.
    Senders,
    /// Creating a campaign.
    Create,
    /// The campaigns, read after a create whose answer was lost.
    CreateCheck,
    /// Reading a campaign for its launch preflight.
    PreflightCampaign(String),
    /// A page of a campaign's pending roster, for its launch preflight.
    PreflightPage {
        /// The campaign.
        campaign: String,
        /// The page (from 1).
        page: u64,
    },
    /// Launching a campaign.
    Launch(String),
    /// Pausing a campaign.
    Pause(String),
    /// Resuming a campaign.
    Resume(String),
    /// Reading a campaign's status after a launch, pause or resume whose
    /// answer was lost ([`settle`]).
    StatusCheck(String),
    /// A roster page of the open campaign (forgotten when the filter
    /// changes or the campaign is left: the one way a stale page is
    /// dropped).
    Roster {
        /// The id of the campaign whose roster was read.
        campaign: String,
        /// The page index (0-based; the service's `page` is one more).
        page: usize,
    },
    /// A window of leads for the sequence editor's preview and variables.
    PreviewLeads {
        /// The id of the campaign whose sequence is previewed.
        campaign: String,
        /// The window (0-based, of the preview's window size).
        page: u64,
    },
    /// Editing one lead (its id).
    EditLead(String),
    /// A chunk of lead ids deleted (or all).
    Delete(String),
    /// Replacing the sequence.
    SaveSequence(String),
    /// Generated messages of the open campaign.
    Messages {
        /// The id of the campaign whose generated messages were read.
        campaign: String,
    },
    /// One lead's messages with the merged replies.
    LeadMessages {
        /// The id of the campaign the lead is in.
        campaign: String,
        /// The id of the lead (prospect) whose messages were read.
        prospect: String,
    },
    /// Editing a generated message (its id).
    EditMessage(String),
    /// A chunk of the CSV being imported.
    ImportRead,
    /// The import path's directory, listed for its Tab completion.
    ImportPathList,
    /// A chunk of leads sent by the import.
    ImportChunk,
}

/// The pane's pollers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CampaignsSub {
    /// Read a launching or active campaign again while it is on screen.
    Watch(String),
    /// Read the campaigns again while the list shows one sending.
    List,
    /// Look again for a campaign whose create answer was lost (the number
    /// of looks that missed it, so each restarts the timer).
    CreateCheck(u32),
    /// Read a campaign's status again after a launch, pause or resume
    /// whose answer was lost (the reads so far, so each restarts the
    /// timer).
    StatusCheck(String, u32),
}

/// What a yes/no question of Campaigns asks; its answer arrives tagged with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// Launch the campaign.
    Launch(String),
    /// Pause the campaign.
    Pause(String),
    /// Resume the campaign.
    Resume(String),
    /// Delete these leads (in chunks of at most 500).
    DeleteLeads {
        /// The id of the campaign the leads are deleted from.
        campaign: String,
        /// The lead ids.
        ids: Vec<String>,
    },
    /// Delete every lead.
    DeleteAll(String),
    /// Send the failed import chunk again.
    ResumeImport,
    /// Remove a step of the sequence being edited.
    RemoveStep(usize),
    /// Send the create again after one whose answer was lost.
    CreateAgain,
}

/// A dialog over Campaigns; it takes the keys until it closes.
#[derive(Debug)]
pub enum Dialog {
    /// The CSV import: path, mapping, preview, upload, report.
    Import(Box<import::Import>),
    /// One lead of the roster, with its custom fields.
    Lead(Box<lead::LeadView>),
    /// The lead edit form.
    EditLead(Box<lead::LeadEdit>),
    /// One lead's messages with the merged replies.
    Thread(Box<messages::Thread>),
    /// The generated-message edit form.
    EditMessage(Box<messages::MessageEdit>),
    /// The launch preflight: its progress, then its findings.
    Preflight(Box<preflight::Check>),
}

/// The open campaign.
#[derive(Debug, Clone, Default)]
pub struct Opened {
    /// The campaign (merged from every answer: the pause answer omits some
    /// fields, which keep their last known value).
    pub campaign: Campaign,
    /// Whether the campaign itself arrived at least once.
    pub loaded: bool,
    /// The last failure to read it, shown while it never arrived.
    pub error: Option<ApiError>,
    /// When it was last read, and whether the last read failed (the values
    /// shown then stay, marked stale with their age).
    pub fresh: Freshness,
    /// The part shown.
    pub tab: Tab,
    /// The roster.
    pub roster: roster::Roster,
    /// The generated messages.
    pub messages: messages::Messages,
    /// A delete in progress.
    pub delete: Option<delete::DeleteJob>,
    /// Values shown that the last write's reply did not carry (a pause
    /// answer has no sequence and two fewer counters): kept from before
    /// and marked so until the campaign is read whole again.
    pub carried: Vec<&'static str>,
}

/// The Campaigns pane's own state: list, open campaign, dialogs and its requests.
#[derive(Debug, Default)]
pub struct CampaignsModel {
    /// The screen shown: the list, one campaign, the create form or the sequence.
    pub view: View,
    /// The campaigns.
    pub list: list::CampaignList,
    /// The open campaign.
    pub open: Option<Opened>,
    /// The create form.
    pub create: Option<create::CreateForm>,
    /// The last create sent and, when its answer was lost, what is known
    /// of it (kept when the form closes).
    pub last_create: lost_create::LastCreate,
    /// The sequence editor.
    pub sequence: Option<sequence::Editor>,
    /// The dialog open over the pane, if any: it takes the keys first.
    pub dialog: Option<Dialog>,
    /// The stats of each poll of the campaigns watched, for the sparklines.
    pub trends: trend::Trends,
    /// Launches, pauses and resumes whose answer was lost, by campaign:
    /// what their check saw.
    pub changes: std::collections::BTreeMap<String, settle::StatusCheck>,
    /// An id opened from outside the lists (`:open campaign <uuid>`) and
    /// the source to remember it by once the service answers 200 for it:
    /// nothing unconfirmed is kept in the state file.
    pub unconfirmed: Option<(String, String)>,
}

impl CampaignsModel {
    /// The open campaign's id.
    pub fn open_id(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.campaign.id.as_str())
    }

    /// The status of the open campaign.
    pub fn open_status(&self) -> Option<&CampaignStatus> {
        self.open
            .as_ref()
            .filter(|o| o.loaded)
            .map(|o| &o.campaign.status)
    }
}

/// `code: message` of a failure, for inline display.
pub(crate) fn error_text(e: &ApiError) -> String {
    format!("{}: {}", e.code(), e.message())
}

/// What went wrong with a write that may have been carried out
/// ([`ApiError::maybe_accepted`]), without the advice the error's own text
/// adds: the pane says its own, once.
pub(crate) fn uncertain_detail(e: &ApiError) -> String {
    let message = e.message();
    let first = message.split("; ").next().unwrap_or_default();
    let code = e.code().replace('_', " ");
    if first.to_lowercase().starts_with(&code) {
        first.to_owned()
    } else {
        format!("{}: {first}", e.code())
    }
}

/// Keeps a closed editor's text as the local draft `key` (`what`, brought
/// back as `back` says), the state written when the handler returns;
/// while its save is on its way (`saving`), says that the draft goes when
/// the save succeeds.
pub(crate) fn keep_edit_draft(
    cx: &mut Ctx<'_>,
    (key, draft): (String, crate::store::Draft),
    what: &str,
    back: &str,
    saving: bool,
) {
    let how_back = if saving {
        format!("it is dropped when the save on its way succeeds; should it fail, {back}")
    } else {
        back.to_owned()
    };
    cx.keep_draft(key, draft, what, &how_back);
}

/// Drops the local draft `key` (its text was saved), writing the state
/// file (when the handler returns) when there was one.
pub(crate) fn drop_draft(cx: &mut Ctx<'_>, key: &str) {
    if cx.state.drafts.remove(key).is_some() {
        cx.save_state();
    }
}

/// A key in an edit form whose save is on its way: the form is read-only
/// until the answer; Esc leaves it to arrive as a notice, the text kept as
/// a draft (`keep`) until the save succeeds — it may still fail.
pub(crate) fn key_while_saving<D>(
    form: &crate::app::form::Form,
    key: &crossterm::event::KeyEvent,
    keep: D,
) -> crate::app::dialog::Outcome<D> {
    use crate::app::dialog::Outcome;
    if !fixed_keys::CLOSE.matches(key) {
        Outcome::Keep
    } else if form.is_dirty() {
        Outcome::Act(keep)
    } else {
        Outcome::Close
    }
}

/// Whether a request of this pane passing `f` is in flight (for the views,
/// which read the whole model; the pane's code asks [`pending`]).
pub(crate) fn in_flight(m: &Model, f: impl Fn(&Purpose) -> bool) -> bool {
    pending(&m.requests, f)
}

/// Whether a request of this pane passing `f` is in `requests`.
pub(crate) fn pending(requests: &Requests, f: impl Fn(&Purpose) -> bool) -> bool {
    requests.pending::<CampaignsModel>(f)
}

/// Notifies a failure of a request of this pane.
pub(crate) fn toast_error(cx: &mut Ctx<'_>, context: &str, e: &ApiError) {
    cx.toasts.error(cx.now, context, e);
    cx.redraw();
}

/// The campaign the campaign keys act on: the open one in the detail, the
/// selected row in the list.
pub(crate) fn target(c: &CampaignsModel) -> Option<Campaign> {
    match c.view {
        View::List => c.list.selected().cloned(),
        _ => c
            .open
            .as_ref()
            .filter(|o| o.loaded)
            .map(|o| o.campaign.clone()),
    }
}

/// Takes a newer copy of a campaign everywhere it is shown (list row and
/// open campaign), keeping what the answer omitted. When the open
/// campaign's status or stats moved, its roster and messages (whose
/// statuses moved with them) are marked to be read again.
pub(crate) fn upsert(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, c: Campaign) {
    let clock = cx.clock;
    if let Some(o) = cm.open.as_mut()
        && o.campaign.id == c.id
    {
        let merged = detail::merge(&o.campaign, c.clone());
        let moved =
            o.loaded && (merged.status != o.campaign.status || merged.stats != o.campaign.stats);
        if moved {
            o.roster.window.mark_stale(None);
            o.messages.stale |= o.messages.loaded;
        }
        o.campaign = merged;
        o.loaded = true;
        o.error = None;
        o.fresh.ok(clock);
    }
    list::upsert(&mut cm.list, cx, c);
}

/// Tells the list's and the open campaign's freshness whether a poll
/// reads them again, and at what base period (the pane's
/// [`PaneUnit::sync_fresh`], run after every message), so what the title
/// draws ("live", "retrying in N s", "stale · as of …") is what the
/// subscriptions run; off screen nothing polls them, and they say their
/// age.
pub(crate) fn schedule(c: &mut CampaignsModel, cx: &Ctx<'_>) {
    let every = cx.poll.campaign;
    let list = list::watched(c, cx.shown).then_some(every);
    let open = detail::watched(c, cx.shown).then_some(every);
    c.list.fresh.schedule(list);
    if let Some(o) = c.open.as_mut() {
        o.fresh.schedule(open);
    }
}

impl CampaignsModel {
    /// Status-bar hints of what is shown.
    fn hints(&self) -> Vec<(Action, &'static str)> {
        if self.modal() {
            // Dialogs, the form and the editor show their own keys.
            return Vec::new();
        }
        if typing(self) {
            return Vec::new();
        }
        match self.view {
            View::List => list::hints(self),
            _ => detail::hints(self),
        }
    }

    /// A dialog, the create form or the sequence editor holds the focus.
    fn modal(&self) -> bool {
        self.dialog.is_some() || matches!(self.view, View::Create | View::Sequence)
    }

    /// The pollers this pane wants (`shown`: the pane shown; `requests`:
    /// what is in flight): a watch on the open campaign while it is
    /// launching or active and on screen, and on the list while it shows
    /// such a campaign. Each failed read in a row slows its poller down.
    fn subscriptions(
        &self,
        shown: Pane,
        requests: &Requests,
        subs: &mut Vec<(CampaignsSub, Duration)>,
    ) {
        if let Some(every) = list::poll(self, shown) {
            subs.push((CampaignsSub::List, every));
        }
        if let Some((misses, after)) = lost_create::recheck(self) {
            subs.push((CampaignsSub::CreateCheck(misses), after));
        }
        for (id, reads, after) in settle::due(self, requests) {
            subs.push((CampaignsSub::StatusCheck(id, reads), after));
        }
        if let Some((id, every)) = detail::watch(self, shown) {
            subs.push((CampaignsSub::Watch(id), every));
        }
    }

    /// What unsent text the pane holds.
    fn unsent(&self) -> Option<String> {
        if self.create.as_ref().is_some_and(|f| f.form.is_dirty()) {
            return Some("the new-campaign form".into());
        }
        if self
            .sequence
            .as_ref()
            .is_some_and(sequence::Editor::is_dirty)
        {
            return Some("the sequence editor".into());
        }
        match &self.dialog {
            Some(Dialog::EditLead(d)) if d.form.is_dirty() => Some("the lead edit form".into()),
            Some(Dialog::EditMessage(d)) if d.form.is_dirty() => {
                Some("the message edit form".into())
            }
            _ => None,
        }
    }

    /// Copies unsent text into the local state.
    fn capture_drafts(&self, state: &mut State) {
        if let Some(f) = &self.create
            && f.form.is_dirty()
        {
            state.drafts.insert(create::DRAFT_KEY.into(), f.draft());
        }
        if let Some(e) = &self.sequence
            && e.is_dirty()
        {
            state.drafts.insert(e.draft_key(), e.draft());
        }
        match &self.dialog {
            Some(Dialog::EditLead(d)) if d.form.is_dirty() => {
                state.drafts.insert(d.draft_key(), d.draft());
            }
            Some(Dialog::EditMessage(d)) if d.form.is_dirty() => {
                state.drafts.insert(d.draft_key(), d.draft());
            }
            _ => {}
        }
    }

    /// Writes whose answer may have reached the service, still checked.
    fn checking(&self) -> Vec<String> {
        let mut all: Vec<String> = self
            .changes
            .values()
            .filter(|s| !s.check.settled())
            .map(|s| {
                let what = match s.op {
                    rules::Op::Launch => "launch",
                    rules::Op::Pause => "pause",
                    rules::Op::Resume => "resume",
                    rules::Op::ChangeRoster | rules::Op::EditSequence => "change",
                };
                format!(
                    "the {what} of “{}”",
                    crate::text::sanitize::DisplayText::inline(&s.name)
                )
            })
            .collect();
        if let (Some(u), Some(sent)) = (&self.last_create.uncertain, &self.last_create.sent)
            && !u.check.settled()
        {
            all.push(format!(
                "the create of the campaign “{}”",
                crate::text::sanitize::DisplayText::inline(&sent.name)
            ));
        }
        all
    }

    /// Whether "retrying in N s" counts down on screen (`shown`: the pane
    /// shown; `clock`: unix seconds now).
    fn countdown_visible(&self, shown: Pane, clock: i64) -> bool {
        let fresh = match self.view {
            View::List => Some(&self.list.fresh),
            View::Detail => self.open.as_ref().map(|o| &o.fresh),
            _ => None,
        };
        shown == Pane::Campaigns
            && fresh.is_some_and(|f| {
                matches!(f.shown(clock), crate::app::fresh::Shown::Retrying { .. })
            })
    }
}

/// Whether a list's text filter is being typed (letters go into it).
fn typing(c: &CampaignsModel) -> bool {
    if c.list.needle.typing() {
        return true;
    }
    c.open.as_ref().is_some_and(|o| match o.tab {
        Tab::Roster => o.roster.needle.typing(),
        Tab::Messages => o.messages.needle.typing(),
        Tab::Overview => false,
    })
}

/// The pane became visible: load what it shows (the list again when it is
/// older than the poll interval).
fn on_enter(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let mut cmds = list::ensure_fresh(&cm.list, cx);
    if cm.view == View::Detail {
        cmds.extend(detail::refresh(cm, cx));
    }
    cmds
}

/// The terminal was resized: keep selections on screen, load newly
/// visible roster rows.
fn on_resize(cm: &mut CampaignsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let body = cx.layout().body;
    let lvp = layout::list_viewport(body);
    cm.list.table.clamp(lvp);
    let tvp = layout::tab_viewport(body);
    if let Some(o) = cm.open.as_mut() {
        o.roster.window.table.clamp(tvp);
        o.messages.table.clamp(tvp);
    }
    if cx.is_shown(Pane::Campaigns) && cm.view == View::Detail {
        roster::fetch_pages(cm, cx)
    } else {
        Vec::new()
    }
}

/// What a key in one of the dialogs asks the pane to do.
enum DialogDone {
    Import(import::ImportDone),
    Lead(lead::LeadDone),
    EditLead(lead::EditDone),
    Thread(messages::ThreadDone),
    EditMessage(messages::EditDone),
    Preflight(preflight::PreflightDone),
}

/// Whether the dialog's write is on its way (its form is read-only).
fn dialog_sending(dialog: Option<&Dialog>, requests: &Requests) -> bool {
    match dialog {
        Some(Dialog::EditLead(d)) => {
            pending(requests, |p| *p == Purpose::EditLead(d.lead.id.clone()))
        }
        Some(Dialog::EditMessage(d)) => pending(requests, |p| {
            *p == Purpose::EditMessage(d.message.id.clone())
        }),
        _ => false,
    }
}

/// A key in the dialog, which is edited in place; what it asks for is then
/// carried out with the pane's state and context.
fn dialog_key(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let action = cx.keymap.action(Scope::Campaigns, &key);
    let sending = dialog_sending(cm.dialog.as_ref(), cx.requests);
    let vp = import::table_viewport(cx);
    let Some(dialog) = cm.dialog.as_mut() else {
        return Vec::new();
    };
    let outcome = match dialog {
        Dialog::Import(d) => d.key(key, action, vp).map(DialogDone::Import),
        Dialog::Lead(d) => d.key(action).map(DialogDone::Lead),
        Dialog::EditLead(d) => d.key(key, sending).map(DialogDone::EditLead),
        Dialog::Thread(d) => d.key(action).map(DialogDone::Thread),
        Dialog::EditMessage(d) => d.key(key, sending).map(DialogDone::EditMessage),
        Dialog::Preflight(d) => d
            .key(key, action, preflight::viewport(cx))
            .map(DialogDone::Preflight),
    };
    match outcome {
        Outcome::Keep => Vec::new(),
        Outcome::Close => {
            match cm.dialog.take() {
                Some(Dialog::Import(_)) => import::closed(cx),
                Some(Dialog::Preflight(_)) => preflight::closed(cx),
                _ => {}
            }
            Vec::new()
        }
        Outcome::Act(DialogDone::Import(done)) => import::act(cm, cx, done),
        Outcome::Act(DialogDone::Lead(done)) => lead::act_view(cm, cx, done),
        Outcome::Act(DialogDone::EditLead(done)) => lead::act_edit(cm, cx, done),
        Outcome::Act(DialogDone::Thread(done)) => messages::act_thread(cm, cx, done),
        Outcome::Act(DialogDone::EditMessage(done)) => messages::act_edit(cm, cx, done),
        Outcome::Act(DialogDone::Preflight(done)) => preflight::act(cm, cx, done),
    }
}

/// Keys for a focused text box or a dialog; `None` when neither is open.
fn on_text_key(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Option<Vec<Cmd>> {
    if cm.dialog.is_some() {
        return Some(dialog_key(cm, cx, key));
    }
    let tab = cm.open.as_ref().map(|o| o.tab);
    match cm.view {
        View::Create if cm.create.is_some() => Some(create::on_key(cm, cx, key)),
        View::Sequence if cm.sequence.is_some() => Some(sequence::on_key(cm, cx, key)),
        View::List if cm.list.needle.typing() => Some(list::on_filter_key(&mut cm.list, cx, key)),
        View::Detail if typing(cm) => Some(match tab {
            Some(Tab::Messages) => messages::on_filter_key(cm, cx, key),
            _ => roster::on_filter_key(cm, cx, key),
        }),
        _ => None,
    }
}

/// Pasted text goes to the focused text box (not to a form whose write is
/// on its way: it is read-only until the answer, as for keys).
fn on_paste(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, text: &str) -> Vec<Cmd> {
    let busy = match cm.view {
        View::Create => pending(cx.requests, |p| *p == Purpose::Create),
        View::Sequence => sequence::saving(cx.requests),
        View::List | View::Detail => false,
    };
    let dialog_busy = dialog_sending(cm.dialog.as_ref(), cx.requests);
    match &mut cm.dialog {
        Some(Dialog::Import(d)) => d.paste(text),
        Some(Dialog::EditLead(_) | Dialog::EditMessage(_)) if dialog_busy => {}
        Some(Dialog::EditLead(d)) => d.form.paste(text),
        Some(Dialog::EditMessage(d)) => d.form.paste(text),
        Some(_) => {}
        None => match cm.view {
            View::Create | View::Sequence if busy => {}
            View::Create => {
                if let Some(f) = cm.create.as_mut() {
                    f.form.paste(text);
                }
            }
            View::Sequence => {
                if let Some(e) = cm.sequence.as_mut() {
                    e.paste(text);
                }
            }
            View::List => list::on_filter_paste(&mut cm.list, cx, text),
            View::Detail => match cm.open.as_ref().map(|o| o.tab) {
                Some(Tab::Roster) => roster::on_filter_paste(cm, cx, text),
                Some(Tab::Messages) => messages::on_filter_paste(cm, cx, text),
                _ => {}
            },
        },
    }
    Vec::new()
}

/// A key action in Campaigns: the open dialog takes it first, then the view shown.
fn on_action(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    match action {
        Action::NewCampaign => return create::open(cm, cx),
        Action::Launch => return detail::ask_launch(cm, cx),
        Action::Pause => return detail::ask_pause(cm, cx),
        Action::Resume => return detail::ask_resume(cm, cx),
        Action::ImportCsv => return import::open(cm, cx, None),
        _ => {}
    }
    match cm.view {
        View::List => list::on_action(cm, cx, action),
        View::Detail => detail::on_action(cm, cx, action),
        View::Create | View::Sequence => Vec::new(),
    }
}

/// A reply for this pane, with the purpose it was sent for.
fn on_reply(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
    let reply = match reply {
        Reply::Api(r) => r,
        Reply::Csv(result) => return import::on_read(cm, cx, result),
        Reply::DirListed(listing) => return import::on_listed(cm, listing),
        Reply::PathChecked(_) | Reply::FileWritten(_) | Reply::Dns(_) => return Vec::new(),
    };
    match purpose {
        Purpose::List => reply.answer(|r| list::on_list(&mut cm.list, cx, r)),
        Purpose::Known(campaign) => reply.answer(|r| list::on_known(cm, cx, &campaign, r)),
        Purpose::Campaign(campaign) => reply.answer(|r| detail::on_campaign(cm, cx, &campaign, r)),
        Purpose::Senders => reply.answer(|r| create::on_senders(cm, r)),
        Purpose::Create => reply.answer(|r| create::on_created(cm, cx, r)),
        Purpose::CreateCheck => reply.answer(|r| lost_create::on_check(cm, cx, r)),
        Purpose::PreflightCampaign(campaign) => {
            reply.answer(|r| preflight::on_campaign(cm, cx, &campaign, r))
        }
        Purpose::PreflightPage { campaign, page } => {
            reply.answer(|r| preflight::on_page(cm, cx, &campaign, page, r))
        }
        Purpose::Launch(campaign) => reply.answer(|r| detail::on_launched(cm, cx, &campaign, r)),
        Purpose::Pause(campaign) => reply.answer(|r| detail::on_paused(cm, cx, &campaign, r)),
        Purpose::Resume(campaign) => reply.answer(|r| detail::on_resumed(cm, cx, &campaign, r)),
        Purpose::StatusCheck(campaign) => reply.answer(|r| settle::on_read(cm, cx, &campaign, r)),
        Purpose::Roster { page, .. } => reply.answer(|r| roster::on_page(cm, cx, page, r)),
        Purpose::PreviewLeads { campaign, page } => {
            reply.answer(|r| sequence::on_leads(cm, cx, &campaign, page, r))
        }
        Purpose::EditLead(id) => reply.answer(|r| lead::on_edited(cm, cx, &id, r)),
        Purpose::Delete(campaign) => reply.answer(|r| delete::on_deleted(cm, cx, &campaign, r)),
        Purpose::SaveSequence(campaign) => {
            reply.answer(|r| sequence::on_saved(cm, cx, &campaign, r))
        }
        Purpose::Messages { campaign } => reply.answer(|r| messages::on_list(cm, cx, &campaign, r)),
        Purpose::LeadMessages { campaign, prospect } => {
            reply.answer(|r| messages::on_thread(cm, &campaign, &prospect, r))
        }
        Purpose::EditMessage(message) => reply.answer(|r| messages::on_edited(cm, cx, &message, r)),
        Purpose::ImportChunk => reply.answer(|r| import::on_uploaded(cm, cx, r)),
        // Answered by `Reply::Csv` above.
        Purpose::ImportRead | Purpose::ImportPathList => Vec::new(),
    }
}

/// A question of the pane was answered. Dismissed (Esc or `q`): nothing is
/// chosen and nothing typed is discarded.
fn on_answered(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    what: Confirmed,
    answer: Answer,
) -> Vec<Cmd> {
    if answer != Answer::Yes {
        return Vec::new();
    }
    match what {
        Confirmed::Launch(id) => detail::launch(cm, cx, &id),
        Confirmed::Pause(id) => detail::pause(cm, cx, &id),
        Confirmed::Resume(id) => detail::resume(cm, cx, &id),
        Confirmed::DeleteLeads { campaign, ids } => delete::delete(cm, cx, &campaign, ids),
        Confirmed::DeleteAll(campaign) => delete::delete_all(cm, cx, &campaign),
        Confirmed::ResumeImport => import::resume(cm, cx),
        Confirmed::RemoveStep(i) => sequence::remove_step(cm, i),
        Confirmed::CreateAgain => lost_create::create_again(cm, cx),
    }
}

/// Mouse on the body: a click selects (again opens), the wheel scrolls.
fn on_mouse(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    if cm.modal() {
        return Vec::new();
    }
    let body = cx.layout().body;
    match ev.kind {
        MouseEventKind::ScrollDown => on_action(cm, cx, Action::Down),
        MouseEventKind::ScrollUp => on_action(cm, cx, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => {
            let (area, vp) = match cm.view {
                View::List => (layout::list_area(body), layout::list_viewport(body)),
                _ => {
                    let a = layout::detail(body);
                    if let Some(tab) = layout::tab_at(a.tabs, ev.column, ev.row) {
                        return detail::show_tab(cm, cx, tab);
                    }
                    (a.content, layout::tab_viewport(body))
                }
            };
            let Some(line) = crate::geometry::table::line_at(area, ev.column, ev.row) else {
                return Vec::new();
            };
            let Some(table) = table_mut(cm) else {
                return Vec::new();
            };
            let Some(row) = table.row_at(line) else {
                return Vec::new();
            };
            let again = table.selected == row;
            table.select(row, vp);
            if again {
                on_action(cm, cx, Action::Open)
            } else {
                roster::fetch_pages(cm, cx)
            }
        }
        _ => Vec::new(),
    }
}

/// The table the mouse acts on in the view shown.
fn table_mut(c: &mut CampaignsModel) -> Option<&mut super::table::TableState> {
    match c.view {
        View::List => Some(&mut c.list.table),
        View::Detail => {
            let o = c.open.as_mut()?;
            match o.tab {
                Tab::Overview => None,
                Tab::Roster => Some(&mut o.roster.window.table),
                Tab::Messages => Some(&mut o.messages.table),
            }
        }
        View::Create | View::Sequence => None,
    }
}

/// Opens a campaign by an id in no list; it is remembered locally (as from
/// `source`) only once the service answers 200 for it.
pub(crate) fn open_by_id(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    source: &str,
) -> Vec<Cmd> {
    let id = id.trim();
    if id.is_empty() {
        return Vec::new();
    }
    cm.unconfirmed = Some((id.to_owned(), source.to_owned()));
    detail::open(cm, cx, id)
}

/// `:open campaign <what>`: an id, a unique id prefix, a name or a unique
/// part of a name of a campaign listed; a whole id in no list is read
/// first; anything else is refused before any request.
pub(crate) fn open_typed(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, typed: &str) -> Vec<Cmd> {
    match ids::resolve_open(cx, "campaign", typed, &open_items(cm)) {
        None => Vec::new(),
        Some(Target::Listed(id)) => detail::open(cm, cx, &id),
        Some(Target::Unconfirmed(id)) => open_by_id(cm, cx, &id, "pasted"),
    }
}

/// The campaigns `:open campaign` resolves among (and completes from).
pub(crate) fn open_items(cm: &CampaignsModel) -> Vec<Item> {
    cm.list
        .rows
        .iter()
        .map(|c| Item::new(c.id.as_str(), c.name.as_str()))
        .collect()
}

/// The item whose id `I` copies: the selected campaign of the list; in a
/// campaign, the selected lead of the roster, the selected message, or the
/// campaign itself on its overview (and in its sequence editor).
fn id_shown(cm: &CampaignsModel) -> Option<IdShown> {
    let campaign = |c: &Campaign| IdShown::new("campaign", &c.id, &c.name);
    match cm.view {
        View::List => cm.list.selected().map(campaign),
        View::Detail | View::Sequence => {
            let o = cm.open.as_ref()?;
            let inner = match (cm.view, o.tab) {
                (View::Detail, Tab::Roster) => o.roster.selected().map(|l| {
                    let name = [l.name.as_str(), &l.email, &l.network_url]
                        .into_iter()
                        .map(str::trim)
                        .find(|n| !n.is_empty())
                        .unwrap_or("");
                    IdShown::new("lead", &l.id, name)
                }),
                (View::Detail, Tab::Messages) => o
                    .messages
                    .selected()
                    .map(|g| IdShown::new("generated message", &g.id, "")),
                _ => None,
            };
            inner.or_else(|| Some(campaign(&o.campaign)))
        }
        View::Create => None,
    }
}

/// A `:` command.
fn on_command(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    name: &str,
    arg: Option<String>,
) -> Vec<Cmd> {
    if cm.modal() {
        cx.notify(
            Level::Warning,
            "Busy",
            &format!(
                "close the open form or dialog first ({}); what you typed is kept",
                fixed_keys::CLOSE.label
            ),
        );
        return Vec::new();
    }
    match name {
        "open campaign" => open_typed(cm, cx, arg.as_deref().unwrap_or("")),
        "import" => import::open(cm, cx, arg),
        "launch" | "pause" | "resume" => {
            if cm.view != View::Detail || cm.open.is_none() {
                let open = cx.keymap.key_label(Action::Open);
                cx.notify(
                    Level::Info,
                    "No campaign open",
                    &format!(":{name} acts on the open campaign: open one first ({open})"),
                );
                return Vec::new();
            }
            match name {
                "launch" => detail::ask_launch(cm, cx),
                "pause" => detail::ask_pause(cm, cx),
                _ => detail::ask_resume(cm, cx),
            }
        }
        _ => Vec::new(),
    }
}

impl PaneUnit for CampaignsModel {
    type Purpose = Purpose;
    type Sub = CampaignsSub;
    type Confirmed = Confirmed;

    const SPEC: PaneSpec = PaneSpec {
        number: 2,
        title: "Campaigns",
        key: "campaigns",
        aliases: &["outbound"],
        scope: Scope::Campaigns,
        action: Action::PaneCampaigns,
    };
    const COMMANDS: &'static [CommandSpec] = &[
        CommandSpec {
            name: "open campaign",
            writes: false,
            arg: Arg::Required("<campaign>"),
            help: "open a campaign by id, id prefix, name or part of one (Tab completes)",
        },
        CommandSpec {
            name: "import",
            writes: true,
            arg: Arg::Optional("[path.csv]"),
            help: "import leads from a CSV file into the draft campaign",
        },
        CommandSpec {
            name: "launch",
            writes: true,
            arg: Arg::None,
            help: "launch the open campaign (after the launch preflight)",
        },
        CommandSpec {
            name: "pause",
            writes: true,
            arg: Arg::None,
            help: "pause the open campaign",
        },
        CommandSpec {
            name: "resume",
            writes: true,
            arg: Arg::None,
            help: "resume the open campaign",
        },
    ];

    fn enter(m: &mut Model) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_enter(c, &mut cx)
    }
    fn from_cache(m: &mut Model) {
        let (c, cx) = m.split::<Self>();
        list::from_cache(&mut c.list, &cx);
    }
    fn resize(m: &mut Model) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_resize(c, &mut cx)
    }
    fn text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
        let (c, mut cx) = m.split::<Self>();
        on_text_key(c, &mut cx, key)
    }
    fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_action(c, &mut cx, action)
    }
    fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_mouse(c, &mut cx, ev)
    }
    fn paste(m: &mut Model, text: &str) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_paste(c, &mut cx, text)
    }
    fn reply(m: &mut Model, _id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_reply(c, &mut cx, purpose, reply)
    }
    fn subscriptions(m: &Model, subs: &mut Vec<(CampaignsSub, Duration)>) {
        m.panes.campaigns.subscriptions(m.pane, &m.requests, subs);
    }
    fn sync_fresh(m: &mut Model) {
        let (c, cx) = m.split::<Self>();
        schedule(c, &cx);
    }
    fn sub_fired(m: &mut Model, sub: CampaignsSub) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        match sub {
            CampaignsSub::Watch(id) => detail::on_watch(c, &mut cx, &id),
            CampaignsSub::List => list::refresh(&mut cx),
            CampaignsSub::CreateCheck(_) => lost_create::read(c, &mut cx),
            CampaignsSub::StatusCheck(id, _) => settle::read(c, &mut cx, &id),
        }
    }
    fn intent(m: &mut Model, intent: &Intent) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        match intent {
            Intent::NewCampaignForLeads(channel) => {
                create::open_for_leads(c, &mut cx, channel.clone())
            }
            Intent::CampaignRead(campaign) if c.list.loaded => {
                list::upsert(&mut c.list, &cx, (**campaign).clone());
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
    fn answered(m: &mut Model, what: Confirmed, answer: Answer) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_answered(c, &mut cx, what, answer)
    }
    fn command(m: &mut Model, name: &str, arg: Option<String>) -> Vec<Cmd> {
        let (c, mut cx) = m.split::<Self>();
        on_command(c, &mut cx, name, arg)
    }
    fn unsent(m: &Model) -> Option<String> {
        m.panes.campaigns.unsent()
    }
    fn checking(m: &Model) -> Vec<String> {
        m.panes.campaigns.checking()
    }
    fn capture_drafts(m: &Model, state: &mut State) {
        m.panes.campaigns.capture_drafts(state);
    }
    fn countdown_visible(m: &Model) -> bool {
        // "retrying in N s" counts down on screen: the one-second tick
        // redraws it.
        m.panes.campaigns.countdown_visible(m.pane, m.clock)
    }
    fn modal(m: &Model) -> bool {
        m.panes.campaigns.modal()
    }
    fn id_shown(m: &Model) -> Option<IdShown> {
        id_shown(&m.panes.campaigns)
    }
    fn hints(m: &Model) -> Vec<(Action, &'static str)> {
        m.panes.campaigns.hints()
    }
}
