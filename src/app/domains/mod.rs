//! The Senders & Domains pane: sending domains (what operators come to
//! watch) with their DNS records and live verification, and senders of both
//! types with their schedule.
//!
//! The watch: while a domain is `verifying` and on screen (its detail open,
//! or its row visible in the list), a subscription polls it with `poll=true`
//! at the configured interval; a 429 doubles the interval (up to 5 minutes);
//! a change to `verified` or `failed` is announced; and the subscription
//! disappears as soon as the domain is no longer watched.

mod actions;
mod copy;
pub(crate) mod dns;
mod filter;
pub(crate) mod keymap;
pub(crate) mod layout;
mod load;
pub(crate) mod lost_create;
mod records;
mod reload;
mod replies;
mod watch;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crossterm::event::{KeyEvent, MouseEvent};

use super::command_line::{Arg, CommandSpec};
use super::ctx::Ctx;
use super::form::Form;
use super::ids::IdShown;
use super::json_tree::JsonTree;
use super::pane::{PaneSpec, PaneUnit};
use super::requests::Requests;
use super::table::TableState;
use super::{Cmd, Model, Pane, Reply, RequestId};
use crate::api::model::{Channel, DnsRecord, SenderAccount, SendingDomain};
use crate::app::fresh::Freshness;
use crate::app::keymap::{Action, Scope};

use actions::{on_action, on_mouse, on_paste, on_text_key};
pub(crate) use copy::{CopyChoice, CopyMenu};
pub(crate) use filter::ListFilter;
pub(crate) use load::add_domain;
use load::{ADD_DRAFT, from_cache, on_enter, on_leave, on_resize};
pub(crate) use records::{RecordSummary, purpose};
pub(crate) use reload::{Reload, watch_age};
use replies::on_reply;
use watch::on_watch_due;

/// Largest value put on the clipboard.
const MAX_COPY: usize = 64 * 1024;

/// Which screen of Domains is up: domains or senders, as a list or one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The sending domains, newest first.
    #[default]
    Domains,
    /// One domain with its DNS records.
    DomainDetail,
    /// The sender accounts, with the domain each sends from.
    Senders,
    /// One sender with its schedule.
    SenderDetail,
}

/// Which senders are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SenderFilter {
    /// Both types.
    #[default]
    All,
    /// Email senders.
    Email,
    /// Network senders.
    Network,
}

impl SenderFilter {
    fn next(self) -> SenderFilter {
        match self {
            SenderFilter::All => SenderFilter::Email,
            SenderFilter::Email => SenderFilter::Network,
            SenderFilter::Network => SenderFilter::All,
        }
    }

    /// Label for the title.
    pub fn label(self) -> &'static str {
        match self {
            SenderFilter::All => "all",
            SenderFilter::Email => "email",
            SenderFilter::Network => "network",
        }
    }

    fn admits(self, s: &SenderAccount) -> bool {
        match self {
            SenderFilter::All => true,
            SenderFilter::Email => s.kind == Channel::Email,
            SenderFilter::Network => s.kind == Channel::Network,
        }
    }
}

/// Why Domains sent a request; its reply is matched against it when it arrives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// The domain list: the cached status (`skip_sync`) for a fast first
    /// paint, or the live refresh. `stale` holds the domains a later answer
    /// (a poll, a verify, a create) updated while this list was on its way:
    /// their rows in it are older than what is shown, and are not taken.
    List {
        /// The live refresh (`skip_sync=false`).
        live: bool,
        /// Domains already newer than this answer.
        stale: BTreeSet<String>,
    },
    /// Creating a domain (the add dialog, or `:domain add`): its name.
    Create(String),
    /// Reading the list after a create of this name whose answer was lost,
    /// to learn whether it was added.
    CreateCheck(String),
    /// Triggering verification of a domain.
    Verify(String),
    /// A watch poll (`poll=true`) of a domain.
    Poll(String),
    /// The sender accounts (`GET /api/senders`).
    Senders,
    /// A sender's schedule.
    Schedule(String),
    /// Asking DNS about a domain's records (the effect `ResolveRecords`).
    Resolve(String),
}

/// The pane's pollers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DomainsSub {
    /// Poll a verifying domain (`poll=true`); the number is the watch's
    /// generation, bumped by a manual check so the timer restarts.
    Watch(String, u32),
    /// Read again what failed to load; the number is the failures in a
    /// row, so each failure restarts the (longer) timer.
    Retry(Reload, u32),
    /// Stale values are on screen: redraw when their age ("as of 3m ago")
    /// changes.
    Age,
    /// Ask DNS about the open domain's records again (when the watch does
    /// not poll it).
    Dns(String),
    /// Read the domain list again after a create whose answer was lost;
    /// the number is the reads so far, so each wait of the one schedule
    /// is timed from the read before.
    AddCheck(u32),
}

/// What a yes/no question of Domains asks; its answer arrives tagged with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// Send the create of this domain again, after one whose answer was
    /// lost (it may have been added).
    AddAgain(String),
}

/// A domain being watched.
#[derive(Debug, Clone, PartialEq)]
pub struct Watch {
    /// When it was last polled (or the watch began).
    pub last_poll: Instant,
    /// Bumped by a manual check, so the poller's timer restarts in step
    /// with the countdown.
    pub generation: u32,
    /// When an answer last told the domain's status (shown as its age
    /// while polls fail), the failed polls in a row (the one backoff rule),
    /// and the poll that reads it again.
    pub fresh: Freshness,
}

/// A list loaded from the service. A failed refresh keeps the items: they
/// are then stale, shown with their age as every pane says it
/// ([`crate::app::fresh::shown`]), and read again by a poller that backs
/// off by the one rule ([`Freshness::backoff`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded<T> {
    /// The items.
    pub items: Vec<T>,
    /// An answer arrived at least once.
    pub loaded: bool,
    /// When the items were read and how the reads since went: the last
    /// failure is shown in place of the list when nothing loaded
    /// (`Model::placeholder`), else the items are stale.
    pub fresh: Freshness,
    /// The items are the last-known list from the cache (read at
    /// `fresh.read_at`): stale until the first answer of this session.
    pub cached: bool,
}

/// The domains the list shows ([`DomainsModel::shown_domains`]).
#[derive(Debug)]
pub enum Shown<'a> {
    /// No filter: every domain, as held.
    All(&'a [SendingDomain]),
    /// Those passing the filter.
    Some(Vec<&'a SendingDomain>),
}

impl<'a> Shown<'a> {
    /// How many are shown.
    pub fn len(&self) -> usize {
        match self {
            Shown::All(all) => all.len(),
            Shown::Some(some) => some.len(),
        }
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th shown.
    pub fn get(&self, i: usize) -> Option<&'a SendingDomain> {
        match self {
            Shown::All(all) => all.get(i),
            Shown::Some(some) => some.get(i).copied(),
        }
    }

    /// The shown domains, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a SendingDomain> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// The Domains pane's own state: domains, senders, the add dialog and watches.
#[derive(Debug, Default)]
pub struct DomainsModel {
    /// The screen shown: the domains or senders, as a list or one of them.
    pub view: View,
    /// Sending domains.
    pub domains: Loaded<SendingDomain>,
    /// The live refresh (`skip_sync=false`) finished.
    pub synced: bool,
    /// Selection in the domain list.
    pub table: TableState,
    /// The open domain.
    pub open: Option<String>,
    /// Selection in the DNS records.
    pub records: TableState,
    /// Senders (all types; filtered locally).
    pub senders: Loaded<SenderAccount>,
    /// Which senders are listed.
    pub sender_filter: SenderFilter,
    /// Selection in the filtered sender list.
    pub senders_table: TableState,
    /// The open sender.
    pub open_sender: Option<String>,
    /// The open sender's schedule.
    pub schedule: Loaded<JsonTree>,
    /// The add-domain dialog.
    pub add: Option<Form>,
    /// The last create may have been carried out (its answer was lost):
    /// what the check of the domain list found so far. Sending the same
    /// name again asks first.
    pub lost_create: Option<lost_create::LostAdd>,
    /// Watched domains, by id.
    pub watches: BTreeMap<String, Watch>,
    /// Domains whose verify trigger may have reached the service (its
    /// answer was lost): watched while on screen, whatever their status,
    /// until a status read tells what the trigger did.
    pub triggered: BTreeSet<String>,
    /// The `/` filter of the domain list.
    pub domain_query: ListFilter,
    /// The domains by status, counted when the list changes
    /// ([`DomainsModel::recount`]): `(status, count)`, none at zero.
    pub by_status: Vec<(String, usize)>,
    /// The `/` filter of the sender list.
    pub sender_query: ListFilter,
    /// The `/` filter of the open domain's DNS records.
    pub record_query: ListFilter,
    /// The `/` filter of the open sender's schedule.
    pub schedule_query: ListFilter,
    /// The chooser of what to copy from the selected DNS record.
    pub copy_menu: Option<CopyMenu>,
    /// The ages of stale values as last drawn (the age tick redraws only
    /// when they change).
    pub ages_drawn: String,
    /// What DNS holds of the records, asked by Outpost itself.
    pub dns: dns::DnsTruth,
}

impl DomainsModel {
    /// The domain with `id`.
    pub fn domain(&self, id: &str) -> Option<&SendingDomain> {
        self.domains.items.iter().find(|d| d.id == id)
    }

    /// The open domain.
    pub fn open_domain(&self) -> Option<&SendingDomain> {
        self.open.as_deref().and_then(|id| self.domain(id))
    }

    /// What unsent text the pane holds: a name typed in the add dialog.
    pub fn unsent(&self) -> Option<String> {
        self.add
            .as_ref()
            .filter(|f| !f.value("domain").is_empty())
            .map(|_| "the add-domain dialog".to_owned())
    }

    /// Keeps a name typed in the add dialog in the local state.
    pub fn capture_drafts(&self, state: &mut crate::store::State) {
        if let Some(form) = &self.add
            && !form.value("domain").is_empty()
        {
            state.drafts.insert(
                ADD_DRAFT.into(),
                crate::store::Draft {
                    title: "add a sending domain".into(),
                    fields: form.snapshot(),
                },
            );
        }
    }

    /// The domains the list shows: those passing its `/` filter (on the
    /// name or the status). Without a filter it is the list itself, taken
    /// as it is: a frame of 100,000 domains costs no more than one of 100.
    pub fn shown_domains(&self) -> Shown<'_> {
        let Some(needle) = self.domain_query.needle() else {
            return Shown::All(&self.domains.items);
        };
        Shown::Some(
            self.domains
                .items
                .iter()
                .filter(|d| filter::admits(Some(&needle), &[&d.domain, d.status.as_str()]))
                .collect(),
        )
    }

    /// Counts the domains by status (kept for the wide list's title, so a
    /// frame never walks the whole list); after every change of the list.
    pub fn recount(&mut self) {
        let mut counts: Vec<(String, usize)> = ["verified", "verifying", "pending", "failed"]
            .iter()
            .map(|s| ((*s).to_owned(), 0))
            .collect();
        for dom in &self.domains.items {
            let status = dom.status.as_str();
            match counts.iter_mut().find(|(s, _)| s == status) {
                Some((_, n)) => *n += 1,
                None => counts.push((status.to_owned(), 1)),
            }
        }
        counts.retain(|(_, n)| *n > 0);
        self.by_status = counts;
    }

    /// The records of `dom` its records view shows: those passing the
    /// `/` filter (on what each is for, its type, name or value).
    pub fn shown_records<'a>(&self, dom: &'a SendingDomain) -> Vec<&'a DnsRecord> {
        let needle = self.record_query.needle();
        dom.dns_records
            .iter()
            .filter(|r| {
                let what = records::purpose(r).unwrap_or_default();
                filter::admits(needle.as_deref(), &[what, &r.kind, &r.name, &r.value])
            })
            .collect()
    }

    /// The selected record of the open domain (among those shown).
    pub fn selected_record(&self) -> Option<&DnsRecord> {
        let dom = self.open_domain()?;
        self.shown_records(dom).get(self.records.selected).copied()
    }

    /// The selected row of the domain list.
    pub fn selected_domain(&self) -> Option<&SendingDomain> {
        match self.shown_domains() {
            Shown::All(all) => all.get(self.table.selected),
            Shown::Some(some) => some.get(self.table.selected).copied(),
        }
    }

    /// Senders passing the type filter and the `/` filter (on the names,
    /// the address or account, the status and the type).
    pub fn filtered_senders(&self) -> Vec<&SenderAccount> {
        let needle = self.sender_query.needle();
        self.senders
            .items
            .iter()
            .filter(|s| self.sender_filter.admits(s))
            .filter(|s| {
                let fields = [
                    s.display_name.as_str(),
                    &s.first_name,
                    &s.last_name,
                    &s.email_address,
                    &s.provider_account_id,
                    &s.status,
                    s.kind.as_str(),
                ];
                filter::admits(needle.as_deref(), &fields)
            })
            .collect()
    }

    /// The selected row of the sender list.
    pub fn selected_sender(&self) -> Option<&SenderAccount> {
        self.filtered_senders()
            .get(self.senders_table.selected)
            .copied()
    }

    /// The `/` filter of the list shown; `None` for a sender's schedule.
    pub fn query(&self) -> Option<&ListFilter> {
        match self.view {
            View::Domains => Some(&self.domain_query),
            View::Senders => Some(&self.sender_query),
            View::DomainDetail => Some(&self.record_query),
            View::SenderDetail => Some(&self.schedule_query),
        }
    }

    /// Whether `view` shows its filter bar.
    pub fn filter_bar(&self, view: View) -> bool {
        match view {
            View::Domains => self.domain_query.shown(),
            View::Senders => self.sender_query.shown(),
            View::DomainDetail => self.record_query.shown(),
            View::SenderDetail => self.schedule_query.shown(),
        }
    }

    /// The same, mutable.
    pub fn query_mut(&mut self) -> Option<&mut ListFilter> {
        match self.view {
            View::Domains => Some(&mut self.domain_query),
            View::Senders => Some(&mut self.sender_query),
            View::DomainDetail => Some(&mut self.record_query),
            View::SenderDetail => Some(&mut self.schedule_query),
        }
    }

    /// The open sender.
    pub fn open_sender(&self) -> Option<&SenderAccount> {
        let id = self.open_sender.as_deref()?;
        self.senders.items.iter().find(|s| s.id == id)
    }

    /// The interval of a watch, backed off by the one rule
    /// ([`Freshness::next_poll`]); `None` while no poll can help (a
    /// refused key) or the domain is not watched.
    pub fn watch_every(&self, id: &str) -> Option<Duration> {
        self.watches.get(id).and_then(|w| w.fresh.next_poll())
    }

    /// Seconds until the next check of a watched domain (zero while a
    /// check is in flight), for the view.
    pub fn next_check_in(&self, m: &Model, id: &str) -> Option<Duration> {
        let w = self.watches.get(id)?;
        if in_flight(&m.requests, |p| matches!(p, Purpose::Poll(d) if d == id)) {
            return Some(Duration::ZERO);
        }
        let due = w.last_poll + self.watch_every(id)?;
        Some(due.saturating_duration_since(m.now))
    }

    /// Whether a countdown is on screen.
    pub fn countdown_visible(&self) -> bool {
        !self.watches.is_empty() && matches!(self.view, View::Domains | View::DomainDetail)
    }

    /// The watch pollers, each at its interval backed off by the one rule.
    fn watch_subs(&self, subs: &mut Vec<(DomainsSub, Duration)>) {
        for (id, w) in &self.watches {
            if let Some(every) = w.fresh.next_poll() {
                subs.push((DomainsSub::Watch(id.clone(), w.generation), every));
            }
        }
    }

    /// Whether the pane is still waiting for its first list.
    pub fn loading(&self, requests: &Requests) -> bool {
        !self.domains.loaded && in_flight(requests, |p| matches!(p, Purpose::List { .. }))
    }

    /// Whether a domain is being added.
    pub fn adding(&self, requests: &Requests) -> bool {
        in_flight(requests, |p| matches!(p, Purpose::Create(_)))
    }

    /// Status-bar hints of the current view.
    fn hints(&self) -> Vec<(Action, &'static str)> {
        // A focused text box names its own keys (the dialog's footer, the
        // filter bar): letters there are text, not these actions.
        if self.add.is_some() || self.query().is_some_and(|q| q.focused) {
            return Vec::new();
        }
        if self.copy_menu.is_some() {
            return vec![(Action::Open, "copy"), (Action::Back, "close")];
        }
        let mut hints = match self.view {
            View::Domains => vec![
                (Action::Open, "records"),
                (Action::Verify, "verify"),
                (Action::AddDomain, "add"),
                (Action::ToggleSenders, "senders"),
                (Action::Refresh, "refresh"),
                (Action::Filter, "filter"),
            ],
            View::DomainDetail => vec![
                (Action::CopyValue, "copy value"),
                (Action::Verify, "verify"),
                (Action::Refresh, "check now"),
                (Action::Back, "back"),
                (Action::CopyRecord, "copy…"),
                (Action::Filter, "filter"),
            ],
            View::Senders => vec![
                (Action::Open, "schedule"),
                (Action::SenderType, "type"),
                (Action::ToggleSenders, "domains"),
                (Action::Refresh, "refresh"),
                (Action::Filter, "filter"),
            ],
            View::SenderDetail => vec![
                (Action::Open, "fold"),
                (Action::Filter, "filter"),
                (Action::Back, "back"),
            ],
        };
        // With no domain (sender) shown, the keys that act on the one
        // selected are not offered.
        let none = match self.view {
            View::Domains => self.selected_domain().is_none(),
            View::Senders => self.selected_sender().is_none(),
            _ => false,
        };
        if none {
            hints.retain(|(a, _)| !matches!(a, Action::Open | Action::Verify));
        }
        if self.query().is_some_and(ListFilter::shown) {
            hints.retain(|(a, _)| !matches!(a, Action::Filter | Action::Back));
            hints.insert(0, (Action::Back, "clear filter"));
        }
        hints
    }

    /// Whether a dialog of the pane (the add dialog, the copy chooser)
    /// holds the keys.
    fn modal(&self) -> bool {
        self.add.is_some() || self.copy_menu.is_some()
    }

    /// The writes still being checked: a lost add not yet settled.
    fn checking(&self) -> Vec<String> {
        self.lost_create
            .iter()
            .filter(|l| !l.check.settled())
            .map(|l| {
                format!(
                    "the add of {}",
                    crate::text::sanitize::DisplayText::inline(&l.name)
                )
            })
            .collect()
    }
}

/// Whether a verification of `domain` was asked for and not yet answered
/// (for the view).
pub(crate) fn verify_pending(m: &Model, domain: &str) -> bool {
    in_flight(
        &m.requests,
        |p| matches!(p, Purpose::Verify(d) if d == domain),
    )
}

/// Whether the live refresh of the list is on its way (for the view).
pub(crate) fn syncing(m: &Model) -> bool {
    in_flight(&m.requests, |p| {
        matches!(p, Purpose::List { live: true, .. })
    })
}

/// Whether a request of this pane passing `f` is in flight.
fn in_flight(requests: &Requests, f: impl Fn(&Purpose) -> bool) -> bool {
    requests.pending::<DomainsModel>(f)
}

/// The areas of `view` in the pane body, with its filter bar if shown.
fn areas_for(d: &DomainsModel, cx: &Ctx<'_>, view: View) -> layout::Areas {
    let warned = view == View::DomainDetail && d.disagreement(cx.requests, "").is_some();
    layout::areas(cx.layout().body, view, d.filter_bar(view), warned)
}

/// Rows of the domain list on screen.
fn list_viewport(d: &DomainsModel, cx: &Ctx<'_>) -> usize {
    areas_for(d, cx, View::Domains).viewport()
}

/// Rows of the DNS records on screen.
fn records_viewport(d: &DomainsModel, cx: &Ctx<'_>) -> usize {
    areas_for(d, cx, View::DomainDetail).viewport()
}

/// Rows of the sender list on screen.
fn senders_viewport(d: &DomainsModel, cx: &Ctx<'_>) -> usize {
    areas_for(d, cx, View::Senders).viewport()
}

/// Rows of the schedule tree on screen.
fn schedule_viewport(d: &DomainsModel, cx: &Ctx<'_>) -> usize {
    areas_for(d, cx, View::SenderDetail).viewport()
}

/// One of the pane's subscriptions fired (the age tick is the entry
/// point's: the age texts are read from the whole model).
fn sub_fired(d: &mut DomainsModel, cx: &mut Ctx<'_>, sub: DomainsSub) -> Vec<Cmd> {
    match sub {
        DomainsSub::Watch(domain, _) => on_watch_due(d, cx, &domain),
        DomainsSub::Retry(what, _) => reload::retry(d, cx, what),
        DomainsSub::Age => Vec::new(),
        DomainsSub::Dns(domain) => dns::recheck(d, cx, &domain),
        DomainsSub::AddCheck(_) => lost_create::read(d, cx),
    }
}

impl PaneUnit for DomainsModel {
    type Purpose = Purpose;
    type Sub = DomainsSub;
    type Confirmed = Question;

    const SPEC: PaneSpec = PaneSpec {
        number: 4,
        title: "Senders & Domains",
        key: "domains",
        aliases: &["senders"],
        scope: Scope::Domains,
        action: Action::PaneDomains,
    };
    const COMMANDS: &'static [CommandSpec] = &[CommandSpec {
        name: "domain add",
        writes: true,
        arg: Arg::Required("<name>"),
        help: "add a sending domain",
    }];

    fn enter(m: &mut Model) -> Vec<Cmd> {
        let (d, mut cx) = m.split::<Self>();
        on_enter(d, &mut cx)
    }
    fn from_cache(m: &mut Model) {
        let (d, cx) = m.split::<Self>();
        from_cache(d, &cx);
    }
    fn leave(m: &mut Model) {
        on_leave(&mut m.panes.domains);
    }
    fn resize(m: &mut Model) -> Vec<Cmd> {
        let (d, cx) = m.split::<Self>();
        on_resize(d, &cx);
        Vec::new()
    }
    fn text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
        let (d, mut cx) = m.split::<Self>();
        on_text_key(d, &mut cx, key)
    }
    fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
        let (d, mut cx) = m.split::<Self>();
        on_action(d, &mut cx, action)
    }
    fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
        let (d, mut cx) = m.split::<Self>();
        on_mouse(d, &mut cx, ev)
    }
    fn paste(m: &mut Model, text: &str) -> Vec<Cmd> {
        let (d, cx) = m.split::<Self>();
        on_paste(d, &cx, text);
        Vec::new()
    }
    fn reply(m: &mut Model, id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
        let api = matches!(reply, Reply::Api(_));
        let cmds = {
            let (d, mut cx) = m.split::<Self>();
            on_reply(d, &mut cx, id, purpose, reply)
        };
        if api {
            // This frame draws the ages of stale values as they are now.
            m.panes.domains.ages_drawn = reload::ages(&reload::stale_shown(m));
        }
        cmds
    }
    fn subscriptions(m: &Model, subs: &mut Vec<(DomainsSub, Duration)>) {
        if m.pane != Pane::Domains {
            return;
        }
        let d = &m.panes.domains;
        d.watch_subs(subs);
        if let Some((id, every)) = dns::subscription(d, m.poll.domain) {
            subs.push((DomainsSub::Dns(id), every));
        }
        reload::subscriptions(d, m.poll.domain, subs);
        if let Some(every) = reload::age_every(&reload::stale_shown(m), m.clock) {
            subs.push((DomainsSub::Age, every));
        }
        if let Some((reads, after)) = lost_create::recheck(d) {
            subs.push((DomainsSub::AddCheck(reads), after));
        }
    }
    fn sync_fresh(m: &mut Model) {
        let (d, cx) = m.split::<Self>();
        reload::reschedule(d, &cx);
    }
    fn sub_fired(m: &mut Model, sub: DomainsSub) -> Vec<Cmd> {
        if sub == DomainsSub::Age {
            // Redraw only when an age shown changed.
            let now = reload::ages(&reload::stale_shown(m));
            if now != m.panes.domains.ages_drawn {
                m.panes.domains.ages_drawn = now;
                m.ctx().redraw();
            }
            return Vec::new();
        }
        let (d, mut cx) = m.split::<Self>();
        sub_fired(d, &mut cx, sub)
    }
    fn answered(m: &mut Model, what: Question, answer: crate::app::pane::Answer) -> Vec<Cmd> {
        let (d, mut cx) = m.split::<Self>();
        lost_create::answered(d, &mut cx, what, answer)
    }
    fn command(m: &mut Model, name: &str, arg: Option<String>) -> Vec<Cmd> {
        let (d, mut cx) = m.split::<Self>();
        match name {
            "domain add" => add_domain(d, &mut cx, arg.as_deref().unwrap_or("")),
            _ => Vec::new(),
        }
    }
    fn unsent(m: &Model) -> Option<String> {
        m.panes.domains.unsent()
    }
    fn checking(m: &Model) -> Vec<String> {
        m.panes.domains.checking()
    }
    fn capture_drafts(m: &Model, state: &mut crate::store::State) {
        m.panes.domains.capture_drafts(state);
    }
    fn modal(m: &Model) -> bool {
        m.panes.domains.modal()
    }
    fn countdown_visible(m: &Model) -> bool {
        m.panes.domains.countdown_visible()
    }
    fn id_shown(m: &Model) -> Option<IdShown> {
        let d = &m.panes.domains;
        let domain = |x: &SendingDomain| IdShown::new("domain", &x.id, &x.domain);
        let sender = |s: &SenderAccount| {
            let name = if s.email_address.trim().is_empty() {
                &s.display_name
            } else {
                &s.email_address
            };
            IdShown::new("sender", &s.id, name)
        };
        match d.view {
            View::Domains => d.selected_domain().map(domain),
            View::DomainDetail => d.open_domain().map(domain),
            View::Senders => d.selected_sender().map(sender),
            View::SenderDetail => d.open_sender().map(sender),
        }
    }
    fn hints(m: &Model) -> Vec<(Action, &'static str)> {
        m.panes.domains.hints()
    }
}

#[cfg(test)]
mod tests;
