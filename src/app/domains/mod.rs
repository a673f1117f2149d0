//! The Senders & Domains pane: sending domains (what operators come to
//! watch) with their DNS records and live verification, and senders of both
//! types with their schedule.
//!
//! The watch: while a domain is `verifying` and on screen (its detail open,
//! or its row visible in the list), a subscription polls it with `poll=true`
//! at the configured interval; a 429 doubles the interval (up to 5 minutes);
//! a change to `verified` or `failed` is announced; and the subscription
//! disappears as soon as the domain is no longer watched.

pub mod layout;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use super::command_line::{Arg, CommandSpec};
use super::form::{Form, FormEvent};
use super::json_tree::JsonTree;
use super::pane::{PaneSpec, PaneUnit};
use super::table::TableState;
use super::toast::Level;
use super::{ApiReply, ApiRequest, Cmd, Model, Pane, Reply, RequestId};
use crate::api::ApiError;
use crate::api::model::{Channel, DomainStatus, SenderAccount, SendingDomain};
use crate::api::validate;
use crate::config::keymap::{Action, Scope};
use crate::text::sanitize;

/// Longest poll interval reached by backing off after 429s.
const MAX_BACKOFF: Duration = Duration::from_secs(300);
/// Largest value put on the clipboard.
const MAX_COPY: usize = 64 * 1024;

/// What the pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The sending domains, newest first.
    #[default]
    Domains,
    /// One domain with its DNS records.
    DomainDetail,
    /// The senders.
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

/// Why the pane sent a request.
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
    /// Creating a domain (the add dialog, or `:domain add`).
    Create,
    /// Triggering verification of a domain.
    Verify(String),
    /// A watch poll (`poll=true`) of a domain.
    Poll(String),
    /// The senders.
    Senders,
    /// A sender's schedule.
    Schedule(String),
}

/// The pane's pollers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DomainsSub {
    /// Poll a verifying domain (`poll=true`); the number is the watch's
    /// generation, bumped by a manual check so the timer restarts.
    Watch(String, u32),
}

/// The pane asks no questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {}

/// A domain being watched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watch {
    /// When it was last polled (or the watch began).
    pub last_poll: Instant,
    /// Failed polls in a row (each doubles the interval).
    pub backoff: u32,
    /// Bumped by a manual check, so the poller's timer restarts in step
    /// with the countdown.
    pub generation: u32,
}

/// A list loaded from the service.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded<T> {
    /// The items.
    pub items: Vec<T>,
    /// An answer arrived at least once.
    pub loaded: bool,
    /// The last failure, shown in place of the list when nothing loaded.
    pub error: Option<String>,
}

/// State of the pane.
#[derive(Debug, Default)]
pub struct DomainsModel {
    /// What is shown.
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
    /// Watched domains, by id.
    pub watches: BTreeMap<String, Watch>,
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

    /// Senders passing the filter.
    pub fn filtered_senders(&self) -> Vec<&SenderAccount> {
        self.senders
            .items
            .iter()
            .filter(|s| self.sender_filter.admits(s))
            .collect()
    }

    /// The open sender.
    pub fn open_sender(&self) -> Option<&SenderAccount> {
        let id = self.open_sender.as_deref()?;
        self.senders.items.iter().find(|s| s.id == id)
    }

    /// The interval of a watch, backoff included.
    pub fn watch_every(&self, base: Duration, id: &str) -> Duration {
        let backoff = self.watches.get(id).map_or(0, |w| w.backoff);
        base.saturating_mul(2u32.saturating_pow(backoff.min(10)))
            .min(MAX_BACKOFF.max(base))
    }

    /// Seconds until the next check of a watched domain (zero while a
    /// check is in flight).
    pub fn next_check_in(&self, m: &Model, id: &str) -> Option<Duration> {
        let w = self.watches.get(id)?;
        if in_flight(m, |p| matches!(p, Purpose::Poll(d) if d == id)) {
            return Some(Duration::ZERO);
        }
        let (base, now) = (m.poll.domain, m.now);
        let due = w.last_poll + self.watch_every(base, id);
        Some(due.saturating_duration_since(now))
    }

    /// Whether a countdown is on screen.
    pub fn countdown_visible(&self) -> bool {
        !self.watches.is_empty() && matches!(self.view, View::Domains | View::DomainDetail)
    }

    /// The pollers this pane wants.
    pub fn subscriptions(&self, m: &Model, subs: &mut Vec<(DomainsSub, Duration)>) {
        if m.pane != Pane::Domains {
            return;
        }
        for (id, w) in &self.watches {
            subs.push((
                DomainsSub::Watch(id.clone(), w.generation),
                self.watch_every(m.poll.domain, id),
            ));
        }
    }

    /// Whether the pane is still waiting for its first list.
    pub fn loading(&self, m: &Model) -> bool {
        !self.domains.loaded && in_flight(m, |p| matches!(p, Purpose::List { .. }))
    }

    /// Whether a domain is being added.
    pub fn adding(&self, m: &Model) -> bool {
        in_flight(m, |p| *p == Purpose::Create)
    }
}

/// Whether a verification of `domain` was asked for and not yet answered.
pub fn verify_pending(m: &Model, domain: &str) -> bool {
    in_flight(m, |p| matches!(p, Purpose::Verify(d) if d == domain))
}

/// Whether the live refresh of the list is on its way.
pub fn syncing(m: &Model) -> bool {
    in_flight(m, |p| matches!(p, Purpose::List { live: true, .. }))
}

/// Whether a request of this pane passing `f` is in flight.
fn in_flight(m: &Model, f: impl Fn(&Purpose) -> bool) -> bool {
    m.requests.pending::<DomainsModel>(f)
}

/// Domains that should be watched now: verifying and on screen.
fn wanted_watches(m: &Model) -> Vec<String> {
    let d = &m.panes.domains;
    if m.pane != Pane::Domains {
        return Vec::new();
    }
    match d.view {
        View::DomainDetail => d
            .open_domain()
            .filter(|dom| dom.status == DomainStatus::Verifying)
            .map(|dom| vec![dom.id.clone()])
            .unwrap_or_default(),
        View::Domains => {
            let viewport = list_viewport(m);
            d.table
                .visible(viewport)
                .filter_map(|i| d.domains.items.get(i))
                .filter(|dom| dom.status == DomainStatus::Verifying)
                .map(|dom| dom.id.clone())
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Starts watches for newly visible verifying domains, ends the others.
fn sync_watches(m: &mut Model) {
    let wanted = wanted_watches(m);
    let now = m.now;
    m.panes.domains.watches.retain(|id, _| wanted.contains(id));
    for id in wanted {
        m.panes.domains.watches.entry(id).or_insert(Watch {
            last_poll: now,
            backoff: 0,
            generation: 0,
        });
    }
}

fn list_viewport(m: &Model) -> usize {
    layout::areas(m.layout().body, View::Domains).viewport()
}

fn records_viewport(m: &Model) -> usize {
    layout::areas(m.layout().body, View::DomainDetail).viewport()
}

fn senders_viewport(m: &Model) -> usize {
    layout::areas(m.layout().body, View::Senders).viewport()
}

fn schedule_viewport(m: &Model) -> usize {
    layout::areas(m.layout().body, View::SenderDetail).viewport()
}

/// The pane is being left: its watches end (their timers stop with them).
fn on_leave(m: &mut Model) {
    m.panes.domains.watches.clear();
}

/// The pane became visible.
fn on_enter(m: &mut Model) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    match m.panes.domains.view {
        View::Domains | View::DomainDetail => {
            let listing = in_flight(m, |p| matches!(p, Purpose::List { .. }));
            if !m.panes.domains.domains.loaded && !listing {
                // Cached status first for a fast first paint; the live
                // refresh follows when it arrives.
                let (_, cmd) = m.request(list(false), ApiRequest::ListDomains { skip_sync: true });
                cmds.push(cmd);
            } else if m.panes.domains.domains.loaded {
                // Coming back: statuses may have moved while away.
                cmds.extend(live_refresh(m));
            }
        }
        View::Senders | View::SenderDetail => cmds.extend(load_senders(m, false)),
    }
    sync_watches(m);
    cmds
}

/// A list request's purpose.
fn list(live: bool) -> Purpose {
    Purpose::List {
        live,
        stale: BTreeSet::new(),
    }
}

fn load_senders(m: &mut Model, force: bool) -> Vec<Cmd> {
    if (m.panes.domains.senders.loaded && !force) || in_flight(m, |p| *p == Purpose::Senders) {
        return Vec::new();
    }
    let (_, cmd) = m.request(Purpose::Senders, ApiRequest::ListSenders);
    vec![cmd]
}

fn live_refresh(m: &mut Model) -> Vec<Cmd> {
    if in_flight(m, |p| matches!(p, Purpose::List { live: true, .. })) {
        return Vec::new();
    }
    let (_, cmd) = m.request(list(true), ApiRequest::ListDomains { skip_sync: false });
    vec![cmd]
}

/// Asks for a sender's schedule; an older schedule request is forgotten.
fn load_schedule(m: &mut Model, sender: String) -> Vec<Cmd> {
    m.requests
        .forget::<DomainsModel>(|p| matches!(p, Purpose::Schedule(_)));
    let (_, cmd) = m.request(
        Purpose::Schedule(sender.clone()),
        ApiRequest::SenderSchedule { id: sender },
    );
    vec![cmd]
}

/// The terminal was resized: keep selections on screen.
fn on_resize(m: &mut Model) {
    let (lv, rv, sv, tv) = (
        list_viewport(m),
        records_viewport(m),
        senders_viewport(m),
        schedule_viewport(m),
    );
    let d = &mut m.panes.domains;
    d.table.clamp(lv);
    d.records.clamp(rv);
    d.senders_table.clamp(sv);
    for tree in &mut d.schedule.items {
        tree.table.clamp(tv);
    }
    sync_watches(m);
}

/// Adds a domain (from the dialog or `:domain add NAME`).
pub fn add_domain(m: &mut Model, name: &str) -> Vec<Cmd> {
    let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
    if let Err(errors) = validate::domain_name(&name) {
        let mut form = add_form();
        form.set_value("domain", &name);
        form.set_error("domain", &validate::join(&errors));
        m.panes.domains.add = Some(form);
        return Vec::new();
    }
    let (_, cmd) = m.request(
        Purpose::Create,
        ApiRequest::CreateDomain { name: name.clone() },
    );
    if m.panes.domains.add.is_none() {
        // Keep what was typed somewhere the user can fix it if the service
        // refuses it.
        let mut form = add_form();
        form.set_value("domain", &name);
        m.panes.domains.add = Some(form);
    }
    m.panes.domains.view = View::Domains;
    vec![cmd]
}

/// The draft key of the add-domain dialog.
const ADD_DRAFT: &str = "add-domain";

/// The add dialog, holding a name typed before the last exit if there is one.
fn open_add_dialog(m: &mut Model) {
    let mut form = add_form();
    if let Some(draft) = m.state.drafts.remove(ADD_DRAFT) {
        form.restore(&draft.fields);
    }
    m.panes.domains.add = Some(form);
}

fn add_form() -> Form {
    Form::new("Add a sending domain", "Add").required_text(
        "domain",
        "Domain",
        "e.g. mail.example.com — you will publish its DKIM, SPF and DMARC records next",
    )
}

fn verify(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    if in_flight(m, |p| matches!(p, Purpose::Verify(d) if d == domain_id)) {
        return Vec::new();
    }
    let (_, cmd) = m.request(
        Purpose::Verify(domain_id.to_owned()),
        ApiRequest::VerifyDomain {
            id: domain_id.to_owned(),
            poll: false,
        },
    );
    vec![cmd]
}

fn poll_now(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    if !m.panes.domains.watches.contains_key(domain_id)
        || in_flight(m, |p| matches!(p, Purpose::Poll(d) if d == domain_id))
    {
        return Vec::new();
    }
    let (_, cmd) = m.request(
        Purpose::Poll(domain_id.to_owned()),
        ApiRequest::VerifyDomain {
            id: domain_id.to_owned(),
            poll: true,
        },
    );
    let now = m.now;
    if let Some(w) = m.panes.domains.watches.get_mut(domain_id) {
        w.last_poll = now;
    }
    vec![cmd]
}

/// A check asked for by hand: poll now and restart the timer from now.
fn check_now(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    let cmds = poll_now(m, domain_id);
    if !cmds.is_empty()
        && let Some(w) = m.panes.domains.watches.get_mut(domain_id)
    {
        w.generation = w.generation.wrapping_add(1);
    }
    cmds
}

/// A watch subscription fired.
fn on_watch_due(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    m.redraw = true;
    poll_now(m, domain_id)
}

/// Keys for a focused text box (the add dialog); `None` when none is open.
fn on_text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
    let adding = m.panes.domains.adding(m);
    let form = m.panes.domains.add.as_mut()?;
    if adding {
        // Sending: the dialog is read-only until the answer arrives; Esc
        // closes it, and the answer then arrives as a notice.
        if key.code == crossterm::event::KeyCode::Esc {
            m.panes.domains.add = None;
        }
        return Some(Vec::new());
    }
    Some(match form.handle_key(key) {
        FormEvent::Cancel => {
            m.panes.domains.add = None;
            Vec::new()
        }
        FormEvent::Submit => {
            form.clear_errors();
            let name = form.value("domain");
            if form.check_required() {
                add_domain(m, &name)
            } else {
                Vec::new()
            }
        }
        FormEvent::Edited | FormEvent::Ignored => Vec::new(),
    })
}

/// Pasted text goes to the open dialog.
fn on_paste(m: &mut Model, text: &str) -> Vec<Cmd> {
    if let Some(form) = m.panes.domains.add.as_mut() {
        form.paste(text);
    }
    Vec::new()
}

/// A key action on the pane.
fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let cmds = match m.panes.domains.view {
        View::Domains => list_action(m, action),
        View::DomainDetail => detail_action(m, action),
        View::Senders => senders_action(m, action),
        View::SenderDetail => sender_detail_action(m, action),
    };
    sync_watches(m);
    cmds
}

fn nav(t: &mut TableState, action: Action, viewport: usize) -> bool {
    match action {
        Action::Up => t.move_by(-1, viewport),
        Action::Down => t.move_by(1, viewport),
        Action::Top => t.top(viewport),
        Action::Bottom => t.bottom(viewport),
        Action::PageUp => t.page_up(viewport),
        Action::PageDown => t.page_down(viewport),
        _ => return false,
    }
    true
}

fn list_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = list_viewport(m);
    if nav(&mut m.panes.domains.table, action, vp) {
        return Vec::new();
    }
    let selected = m
        .panes
        .domains
        .domains
        .items
        .get(m.panes.domains.table.selected)
        .map(|d| d.id.clone());
    match action {
        Action::Open => {
            if let Some(id) = selected {
                open_domain(m, &id);
            }
            Vec::new()
        }
        Action::Verify => selected.map(|id| verify(m, &id)).unwrap_or_default(),
        Action::AddDomain => {
            open_add_dialog(m);
            Vec::new()
        }
        Action::ToggleSenders => {
            m.panes.domains.view = View::Senders;
            load_senders(m, false)
        }
        Action::Refresh => {
            if m.panes.domains.domains.loaded {
                live_refresh(m)
            } else {
                on_enter(m)
            }
        }
        Action::Back | Action::Filter | Action::CopyValue | Action::SenderType => Vec::new(),
        _ => Vec::new(),
    }
}

fn open_domain(m: &mut Model, id: &str) {
    m.panes.domains.open = Some(id.to_owned());
    m.panes.domains.view = View::DomainDetail;
    let n = m
        .panes
        .domains
        .domain(id)
        .map_or(0, |d| d.dns_records.len());
    let vp = records_viewport(m);
    m.panes.domains.records = TableState::default();
    m.panes.domains.records.set_len(n, vp);
}

fn detail_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = records_viewport(m);
    if nav(&mut m.panes.domains.records, action, vp) {
        return Vec::new();
    }
    let Some(domain) = m.panes.domains.open_domain().cloned() else {
        m.panes.domains.view = View::Domains;
        return Vec::new();
    };
    match action {
        Action::Back => {
            m.panes.domains.view = View::Domains;
            m.panes.domains.open = None;
            Vec::new()
        }
        Action::Verify => verify(m, &domain.id),
        Action::CopyValue => match domain.dns_records.get(m.panes.domains.records.selected) {
            Some(rec) => {
                let value = sanitize::clipboard(&rec.value);
                if value.len() > MAX_COPY {
                    m.notify(
                        Level::Warning,
                        "not copied",
                        "the value is larger than 64 KiB",
                    );
                    Vec::new()
                } else {
                    vec![Cmd::Copy(value)]
                }
            }
            None => {
                m.notify(
                    Level::Info,
                    "nothing to copy",
                    "this domain has no DNS records yet",
                );
                Vec::new()
            }
        },
        Action::Refresh => {
            if m.panes.domains.watches.contains_key(&domain.id) {
                check_now(m, &domain.id)
            } else {
                live_refresh(m)
            }
        }
        Action::AddDomain => {
            open_add_dialog(m);
            Vec::new()
        }
        Action::ToggleSenders => {
            m.panes.domains.view = View::Senders;
            load_senders(m, false)
        }
        _ => Vec::new(),
    }
}

fn senders_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = senders_viewport(m);
    if nav(&mut m.panes.domains.senders_table, action, vp) {
        return Vec::new();
    }
    match action {
        Action::ToggleSenders | Action::Back => {
            m.panes.domains.view = View::Domains;
            on_enter(m)
        }
        Action::SenderType => {
            m.panes.domains.sender_filter = m.panes.domains.sender_filter.next();
            let n = m.panes.domains.filtered_senders().len();
            m.panes.domains.senders_table = TableState::default();
            m.panes.domains.senders_table.set_len(n, vp);
            Vec::new()
        }
        Action::Open => {
            let Some(sender) = m
                .panes
                .domains
                .filtered_senders()
                .get(m.panes.domains.senders_table.selected)
                .map(|s| s.id.clone())
            else {
                return Vec::new();
            };
            m.panes.domains.open_sender = Some(sender.clone());
            m.panes.domains.view = View::SenderDetail;
            m.panes.domains.schedule = Loaded::default();
            load_schedule(m, sender)
        }
        Action::Refresh => load_senders(m, true),
        Action::AddDomain => {
            open_add_dialog(m);
            Vec::new()
        }
        _ => Vec::new(),
    }
}

fn sender_detail_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = schedule_viewport(m);
    if let Some(tree) = m.panes.domains.schedule.items.first_mut() {
        if nav(&mut tree.table, action, vp) {
            return Vec::new();
        }
        if action == Action::Open {
            tree.toggle(vp);
            return Vec::new();
        }
    }
    match action {
        Action::Back => {
            m.panes.domains.view = View::Senders;
            m.panes.domains.open_sender = None;
            // Its schedule is no longer wanted.
            m.requests
                .forget::<DomainsModel>(|p| matches!(p, Purpose::Schedule(_)));
            Vec::new()
        }
        Action::ToggleSenders => {
            m.panes.domains.view = View::Domains;
            on_enter(m)
        }
        Action::Refresh => {
            let Some(sender) = m.panes.domains.open_sender.clone() else {
                return Vec::new();
            };
            load_schedule(m, sender)
        }
        _ => Vec::new(),
    }
}

/// Mouse on the pane body: click selects (a click on the selected row
/// opens it), the wheel scrolls.
fn on_mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
    if m.panes.domains.add.is_some() {
        return Vec::new();
    }
    let view = m.panes.domains.view;
    let areas = layout::areas(m.layout().body, view);
    let vp = areas.viewport();
    let cmds = match ev.kind {
        MouseEventKind::ScrollDown => {
            m.redraw = true;
            on_action(m, Action::Down)
        }
        MouseEventKind::ScrollUp => {
            m.redraw = true;
            on_action(m, Action::Up)
        }
        MouseEventKind::Down(MouseButton::Left) => {
            let Some(line) = areas.row_at(ev.column, ev.row) else {
                return Vec::new();
            };
            let table = match view {
                View::Domains => &mut m.panes.domains.table,
                View::DomainDetail => &mut m.panes.domains.records,
                View::Senders => &mut m.panes.domains.senders_table,
                View::SenderDetail => match m.panes.domains.schedule.items.first_mut() {
                    Some(t) => &mut t.table,
                    None => return Vec::new(),
                },
            };
            let Some(row) = table.row_at(line) else {
                return Vec::new();
            };
            let again = table.selected == row;
            table.select(row, vp);
            m.redraw = true;
            if again && view != View::DomainDetail {
                on_action(m, Action::Open)
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    sync_watches(m);
    cmds
}

/// Replaces (or inserts) a domain from the answer to request `by`,
/// announcing a finished verification. Lists asked for before `by` and
/// still on their way learn that their row of it is older.
fn upsert_domain(m: &mut Model, by: RequestId, new: SendingDomain) {
    let domain_id = new.id.clone();
    m.requests.amend::<DomainsModel>(|id, p| {
        if let Purpose::List { stale, .. } = p
            && id < by
        {
            stale.insert(domain_id.clone());
        }
    });
    let name = sanitize::inline(&new.domain);
    let old = m
        .panes
        .domains
        .domains
        .items
        .iter()
        .position(|d| d.id == new.id);
    match old {
        Some(i) => {
            let before = m.panes.domains.domains.items[i].status.clone();
            announce(m, &name, &before, &new.status);
            let n = new.dns_records.len();
            m.panes.domains.domains.items[i] = new;
            if m.panes.domains.open.as_deref() == Some(domain_id.as_str()) {
                let vp = records_viewport(m);
                m.panes.domains.records.set_len(n, vp);
            }
        }
        None => {
            m.panes.domains.domains.items.insert(0, new);
            let vp = list_viewport(m);
            let n = m.panes.domains.domains.items.len();
            m.panes.domains.table.set_len(n, vp);
        }
    }
}

fn announce(m: &mut Model, name: &str, before: &DomainStatus, after: &DomainStatus) {
    if before == after || *before != DomainStatus::Verifying {
        return;
    }
    match after {
        DomainStatus::Verified => m.notify(
            Level::Success,
            "Domain verified",
            &format!("{name} is verified: its DKIM, SPF and DMARC records resolve"),
        ),
        DomainStatus::Failed => m.notify(
            Level::Error,
            "Verification failed",
            &format!(
                "{name}: the verification service rejected the records; check them and verify again"
            ),
        ),
        other => m.notify(
            Level::Info,
            "Domain status",
            &format!("{name} is now {other}"),
        ),
    }
}

/// Takes a list answer. Domains in `stale` — updated by a later answer (a
/// poll, a verify, a create) while the list was on its way — keep that
/// newer state: the slow live refresh must not undo them.
fn replace_domains(m: &mut Model, stale: &BTreeSet<String>, mut list: Vec<SendingDomain>) {
    let newer: Vec<SendingDomain> = m
        .panes
        .domains
        .domains
        .items
        .iter()
        .filter(|d| stale.contains(&d.id))
        .cloned()
        .collect();
    for local in newer.into_iter().rev() {
        match list.iter_mut().find(|d| d.id == local.id) {
            Some(slot) => *slot = local,
            // Created after the list was asked for: keep it, newest first.
            None => list.insert(0, local),
        }
    }
    // Announce changes seen by a refresh, too.
    for new in &list {
        if let Some(old) = m.panes.domains.domain(&new.id) {
            let (before, name) = (old.status.clone(), sanitize::inline(&new.domain));
            announce(m, &name, &before, &new.status);
        }
    }
    let selected_id = m
        .panes
        .domains
        .domains
        .items
        .get(m.panes.domains.table.selected)
        .map(|d| d.id.clone());
    m.panes.domains.domains.items = list;
    m.panes.domains.domains.loaded = true;
    m.panes.domains.domains.error = None;
    let vp = list_viewport(m);
    let n = m.panes.domains.domains.items.len();
    m.panes.domains.table.set_len(n, vp);
    if let Some(id) = selected_id
        && let Some(i) = m
            .panes
            .domains
            .domains
            .items
            .iter()
            .position(|d| d.id == id)
    {
        m.panes.domains.table.select(i, vp);
    }
    if let Some(open) = m.panes.domains.open_domain() {
        let n = open.dns_records.len();
        let vp = records_viewport(m);
        m.panes.domains.records.set_len(n, vp);
    } else if m.panes.domains.view == View::DomainDetail {
        m.panes.domains.view = View::Domains;
        m.panes.domains.open = None;
    }
}

fn error_text(e: &ApiError) -> String {
    format!("{}: {}", e.code(), e.message())
}

/// A reply for this pane, with the purpose it was sent for.
fn on_reply(m: &mut Model, id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
    let Reply::Api(reply) = reply else {
        return Vec::new();
    };
    let cmds = match (purpose, reply) {
        (Purpose::List { live, stale }, ApiReply::Domains(r)) => on_list(m, live, &stale, r),
        (Purpose::Create, ApiReply::Domain(r)) => {
            on_created(m, id, r);
            Vec::new()
        }
        (Purpose::Verify(_), ApiReply::Domain(r)) => {
            on_verify(m, id, r);
            Vec::new()
        }
        (Purpose::Poll(domain), ApiReply::Domain(r)) => {
            on_poll(m, id, &domain, r);
            Vec::new()
        }
        (Purpose::Senders, ApiReply::Senders(r)) => {
            on_senders(m, r);
            Vec::new()
        }
        (Purpose::Schedule(_), ApiReply::Schedule(r)) => {
            on_schedule(m, r);
            Vec::new()
        }
        _ => Vec::new(),
    };
    sync_watches(m);
    cmds
}

/// The domain list: the cached one asks for the live refresh next.
fn on_list(
    m: &mut Model,
    live: bool,
    stale: &BTreeSet<String>,
    result: Result<Vec<SendingDomain>, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(list) => {
            replace_domains(m, stale, list);
            if live {
                m.panes.domains.synced = true;
                Vec::new()
            } else {
                live_refresh(m)
            }
        }
        Err(e) => {
            if !m.panes.domains.domains.loaded {
                m.panes.domains.domains.error = Some(error_text(&e));
            }
            m.toasts.error(m.now, "loading sending domains", &e);
            Vec::new()
        }
    }
}

/// A domain was added: shown selected, with its records when the dialog
/// was still open.
fn on_created(m: &mut Model, id: RequestId, result: Result<SendingDomain, ApiError>) {
    match result {
        Ok(domain) => {
            let name = sanitize::inline(&domain.domain);
            let domain_id = domain.id.clone();
            // The dialog was closed while sending: add quietly.
            let dialog_open = m.panes.domains.add.take().is_some();
            upsert_domain(m, id, domain);
            if let Some(i) = m
                .panes
                .domains
                .domains
                .items
                .iter()
                .position(|d| d.id == domain_id)
            {
                let vp = list_viewport(m);
                m.panes.domains.table.select(i, vp);
            }
            if dialog_open {
                open_domain(m, &domain_id);
            }
            m.notify(
                Level::Success,
                "Domain added",
                &format!(
                    "{name}: publish these DNS records at your DNS host, then press v to verify"
                ),
            );
        }
        Err(e) => match m.panes.domains.add.as_mut() {
            Some(form) => form.set_error("domain", &error_text(&e)),
            None => m.toasts.error(m.now, "adding the domain", &e),
        },
    }
}

/// A verification was triggered: its result announced as a change from
/// `verifying` (a trigger starts a fresh check).
fn on_verify(m: &mut Model, id: RequestId, result: Result<SendingDomain, ApiError>) {
    match result {
        Ok(domain) => {
            let status = domain.status.clone();
            let name = sanitize::inline(&domain.domain);
            if let Some(d) = m
                .panes
                .domains
                .domains
                .items
                .iter_mut()
                .find(|d| d.id == domain.id)
            {
                d.status = DomainStatus::Verifying;
            }
            upsert_domain(m, id, domain);
            if status == DomainStatus::Verifying {
                m.notify(
                    Level::Info,
                    "Verification started",
                    &format!("{name}: DNS is being checked; this view polls until it settles"),
                );
            }
        }
        Err(e) => m.toasts.error(m.now, "verifying the domain", &e),
    }
}

/// A watch poll answered: a failure slows the watch down, a 404 ends it.
fn on_poll(m: &mut Model, id: RequestId, domain_id: &str, result: Result<SendingDomain, ApiError>) {
    let now = m.now;
    match result {
        Ok(domain) => {
            if let Some(w) = m.panes.domains.watches.get_mut(domain_id)
                && w.backoff > 0
            {
                // The interval changes back: its timer restarts now.
                w.backoff = 0;
                w.last_poll = now;
            }
            upsert_domain(m, id, domain);
        }
        Err(e) if e.is_not_found() => {
            // Gone on the service: stop watching and say so.
            m.panes.domains.domains.items.retain(|d| d.id != domain_id);
            let n = m.panes.domains.domains.items.len();
            let vp = list_viewport(m);
            m.panes.domains.table.set_len(n, vp);
            if m.panes.domains.open.as_deref() == Some(domain_id) {
                m.panes.domains.open = None;
                m.panes.domains.view = View::Domains;
            }
            m.toasts.error(m.now, "the domain no longer exists", &e);
        }
        Err(e) => {
            // Any failure (429, 5xx, transport, revoked key) slows the
            // watch down instead of hammering the service.
            if let Some(w) = m.panes.domains.watches.get_mut(domain_id) {
                w.last_poll = now;
                w.backoff += 1;
            }
            m.toasts.error(m.now, "checking verification", &e);
        }
    }
}

fn on_senders(m: &mut Model, result: Result<Vec<SenderAccount>, ApiError>) {
    match result {
        Ok(list) => {
            m.panes.domains.senders.items = list;
            m.panes.domains.senders.loaded = true;
            m.panes.domains.senders.error = None;
            let n = m.panes.domains.filtered_senders().len();
            let vp = senders_viewport(m);
            m.panes.domains.senders_table.set_len(n, vp);
        }
        Err(e) => {
            if !m.panes.domains.senders.loaded {
                m.panes.domains.senders.error = Some(error_text(&e));
            }
            m.toasts.error(m.now, "loading senders", &e);
        }
    }
}

fn on_schedule(m: &mut Model, result: Result<serde_json::Value, ApiError>) {
    match result {
        Ok(json) => {
            let vp = schedule_viewport(m);
            let mut tree = JsonTree::new(json);
            tree.table.clamp(vp);
            m.panes.domains.schedule.items = vec![tree];
            m.panes.domains.schedule.loaded = true;
            m.panes.domains.schedule.error = None;
        }
        Err(e) => {
            m.panes.domains.schedule.error = Some(error_text(&e));
            m.toasts.error(m.now, "loading the schedule", &e);
        }
    }
}

/// Status-bar hints of the current view.
fn hints(m: &Model) -> Vec<(Action, &'static str)> {
    if m.panes.domains.add.is_some() {
        return Vec::new();
    }
    match m.panes.domains.view {
        View::Domains => vec![
            (Action::Open, "records"),
            (Action::Verify, "verify"),
            (Action::AddDomain, "add"),
            (Action::ToggleSenders, "senders"),
            (Action::Refresh, "refresh"),
        ],
        View::DomainDetail => vec![
            (Action::CopyValue, "copy value"),
            (Action::Verify, "verify"),
            (Action::Refresh, "check now"),
            (Action::Back, "back"),
        ],
        View::Senders => vec![
            (Action::Open, "schedule"),
            (Action::SenderType, "type"),
            (Action::ToggleSenders, "domains"),
            (Action::Refresh, "refresh"),
        ],
        View::SenderDetail => vec![(Action::Open, "fold"), (Action::Back, "back")],
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
        arg: Arg::Required("<name>"),
        help: "add a sending domain",
    }];

    fn enter(m: &mut Model) -> Vec<Cmd> {
        on_enter(m)
    }
    fn leave(m: &mut Model) {
        on_leave(m);
    }
    fn resize(m: &mut Model) -> Vec<Cmd> {
        on_resize(m);
        Vec::new()
    }
    fn text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
        on_text_key(m, key)
    }
    fn action(m: &mut Model, action: Action) -> Vec<Cmd> {
        on_action(m, action)
    }
    fn mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
        on_mouse(m, ev)
    }
    fn paste(m: &mut Model, text: &str) -> Vec<Cmd> {
        on_paste(m, text)
    }
    fn reply(m: &mut Model, id: RequestId, purpose: Purpose, reply: Reply) -> Vec<Cmd> {
        on_reply(m, id, purpose, reply)
    }
    fn subscriptions(m: &Model, subs: &mut Vec<(DomainsSub, Duration)>) {
        m.panes.domains.subscriptions(m, subs);
    }
    fn sub_fired(m: &mut Model, sub: DomainsSub) -> Vec<Cmd> {
        match sub {
            DomainsSub::Watch(domain, _) => on_watch_due(m, &domain),
        }
    }
    fn command(m: &mut Model, name: &str, arg: Option<String>) -> Vec<Cmd> {
        match name {
            "domain add" => add_domain(m, arg.as_deref().unwrap_or("")),
            _ => Vec::new(),
        }
    }
    fn unsent(m: &Model) -> Option<String> {
        m.panes.domains.unsent()
    }
    fn capture_drafts(m: &Model, state: &mut crate::store::State) {
        m.panes.domains.capture_drafts(state);
    }
    fn countdown_visible(m: &Model) -> bool {
        m.panes.domains.countdown_visible()
    }
    fn hints(m: &Model) -> Vec<(Action, &'static str)> {
        hints(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fixtures;
    use crate::app::{Msg, PaneSub, SubId, subscriptions, update};

    /// The watch subscription of a domain (generation 0).
    fn watch_sub(domain: &str) -> SubId {
        SubId::Pane(PaneSub::Domains(DomainsSub::Watch(domain.into(), 0)))
    }
    use crossterm::event::{KeyCode, KeyModifiers, MouseEvent, MouseEventKind};

    use crate::app::fixtures::drive::{api, chars, key, reply, service_error};

    /// A model on the Domains pane with the fixture domains loaded.
    fn loaded() -> Model {
        let mut m = fixtures::model(80, 24);
        let cmds = m.start();
        let (id, req) = api(&cmds).remove(0);
        assert_eq!(req, ApiRequest::ListDomains { skip_sync: true });
        let cmds = reply(&mut m, id, ApiReply::Domains(Ok(fixtures::domains())));
        let (sync_id, req) = api(&cmds).remove(0);
        assert_eq!(
            req,
            ApiRequest::ListDomains { skip_sync: false },
            "cached first, then live"
        );
        reply(&mut m, sync_id, ApiReply::Domains(Ok(fixtures::domains())));
        assert!(m.panes.domains.synced);
        m
    }

    fn watch_ids(m: &Model) -> Vec<String> {
        subscriptions(m)
            .into_iter()
            .filter_map(|s| match s.id {
                SubId::Pane(PaneSub::Domains(DomainsSub::Watch(d, _))) => Some(d),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_visible_verifying_domain_is_watched_until_it_is_not() {
        let mut m = loaded();
        assert_eq!(
            watch_ids(&m),
            ["d-4"],
            "the verifying domain in view is watched"
        );
        assert!(
            subscriptions(&m).iter().any(|s| s.id == SubId::Countdown),
            "its countdown ticks"
        );
        key(&mut m, KeyCode::Char('1'));
        assert!(watch_ids(&m).is_empty(), "leaving the pane stops the watch");
        key(&mut m, KeyCode::Char('4'));
        assert_eq!(watch_ids(&m), ["d-4"]);
        key(&mut m, KeyCode::Char('j'));
        key(&mut m, KeyCode::Enter);
        assert_eq!(m.panes.domains.view, View::DomainDetail);
        assert!(
            watch_ids(&m).is_empty(),
            "the detail of a pending domain watches nothing"
        );
    }

    #[test]
    fn polling_asks_once_at_a_time_and_announces_verified() {
        let mut m = loaded();
        key(&mut m, KeyCode::Enter);
        assert_eq!(m.panes.domains.open.as_deref(), Some("d-4"));
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (id, req) = api(&cmds).remove(0);
        assert_eq!(
            req,
            ApiRequest::VerifyDomain {
                id: "d-4".into(),
                poll: true
            }
        );
        let again = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        assert!(
            api(&again).is_empty(),
            "no second poll while one is in flight"
        );
        let mut done = fixtures::domain(
            "d-4",
            "mail.brightlabs.io",
            DomainStatus::Verified,
            "2026-11-22T11:50:00Z",
        );
        done.verified_at = Some("2026-11-22T12:00:00Z".into());
        reply(&mut m, id, ApiReply::Domain(Ok(done)));
        assert_eq!(
            m.panes.domains.open_domain().map(|d| d.status.clone()),
            Some(DomainStatus::Verified)
        );
        let toast = m.toasts.items().last().expect("announced");
        assert_eq!(toast.title.as_str(), "Domain verified");
        assert!(toast.text.as_str().contains("mail.brightlabs.io"));
        assert!(watch_ids(&m).is_empty(), "verified: polling stops");
    }

    #[test]
    fn a_429_backs_the_watch_off() {
        let mut m = loaded();
        let base = subscriptions(&m)
            .into_iter()
            .find(|s| s.id == watch_sub("d-4"))
            .map(|s| s.every);
        assert_eq!(base, Some(m.poll.domain));
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (id, _) = api(&cmds).remove(0);
        let err = ApiError::RateLimited {
            wait: Duration::from_secs(3),
            message: "Rate limit exceeded. Retry in 3 seconds.".into(),
        };
        reply(&mut m, id, ApiReply::Domain(Err(err)));
        let every = subscriptions(&m)
            .into_iter()
            .find(|s| s.id == watch_sub("d-4"))
            .map(|s| s.every);
        assert_eq!(every, Some(m.poll.domain * 2));
        assert_eq!(
            m.toasts
                .items()
                .last()
                .map(|t| t.title.as_str().starts_with("rate_limited")),
            Some(true)
        );
    }

    #[test]
    fn stale_replies_change_nothing() {
        let mut m = loaded();
        let before = m.panes.domains.domains.items.clone();
        reply(&mut m, RequestId(999), ApiReply::Domains(Ok(Vec::new())));
        assert_eq!(m.panes.domains.domains.items, before);
        assert_eq!(m.net.in_flight, 0);
    }

    #[test]
    fn y_copies_the_selected_value_sanitized() {
        let mut m = loaded();
        m.panes.domains.domains.items[0].dns_records[0].value =
            "v=spf1\x1b]52;c;ZXZpbA==\x07 ~all".into();
        key(&mut m, KeyCode::Enter);
        let cmds = key(&mut m, KeyCode::Char('y'));
        assert_eq!(cmds, vec![Cmd::Copy("v=spf1 ~all".into())]);
        update(&mut m, Msg::Copied(Ok(11)));
        assert_eq!(
            m.toasts.items().last().map(|t| t.title.as_str()),
            Some("Copied")
        );
    }

    #[test]
    fn adding_a_domain_keeps_the_text_when_refused() {
        let mut m = loaded();
        key(&mut m, KeyCode::Char('a'));
        assert!(m.panes.domains.add.is_some());
        chars(&mut m, "acme-mail.com");
        let cmds = update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        );
        let (id, req) = api(&cmds).remove(0);
        assert_eq!(
            req,
            ApiRequest::CreateDomain {
                name: "acme-mail.com".into()
            }
        );
        reply(
            &mut m,
            id,
            ApiReply::Domain(Err(service_error(
                409,
                r#"{"error":{"code":"conflict","message":"Domain already added"}}"#,
            ))),
        );
        let form = m.panes.domains.add.as_ref().expect("the dialog stays open");
        assert_eq!(form.value("domain"), "acme-mail.com");
        assert_eq!(
            form.fields[0].error.as_deref(),
            Some("conflict: Domain already added")
        );
    }

    #[test]
    fn a_new_domain_opens_on_its_records() {
        let mut m = loaded();
        let cmds = update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)),
        );
        assert!(cmds.is_empty());
        chars(&mut m, "domain add News.Example.com");
        let cmds = key(&mut m, KeyCode::Enter);
        let (id, req) = api(&cmds).remove(0);
        assert_eq!(
            req,
            ApiRequest::CreateDomain {
                name: "news.example.com".into()
            }
        );
        let new = fixtures::domain(
            "d-9",
            "news.example.com",
            DomainStatus::Pending,
            "2026-11-22T12:00:00Z",
        );
        reply(&mut m, id, ApiReply::Domain(Ok(new)));
        assert!(m.panes.domains.add.is_none());
        assert_eq!(m.panes.domains.view, View::DomainDetail);
        assert_eq!(m.panes.domains.open.as_deref(), Some("d-9"));
        assert_eq!(m.panes.domains.domains.items[0].id, "d-9", "newest first");
    }

    #[test]
    fn a_bad_name_is_refused_before_sending() {
        let mut m = loaded();
        let cmds = add_domain(&mut m, "not a domain");
        assert!(api(&cmds).is_empty());
        let form = m.panes.domains.add.as_ref().expect("dialog with the error");
        assert!(
            form.fields[0]
                .error
                .as_deref()
                .is_some_and(|e| e.contains("hostname"))
        );
    }

    #[test]
    fn senders_filter_by_type() {
        let mut m = loaded();
        let cmds = key(&mut m, KeyCode::Char('s'));
        let (id, req) = api(&cmds).remove(0);
        assert_eq!(req, ApiRequest::ListSenders);
        reply(&mut m, id, ApiReply::Senders(Ok(fixtures::senders())));
        assert_eq!(m.panes.domains.filtered_senders().len(), 3);
        key(&mut m, KeyCode::Char('t'));
        assert_eq!(m.panes.domains.filtered_senders().len(), 2);
        key(&mut m, KeyCode::Char('t'));
        assert_eq!(m.panes.domains.filtered_senders().len(), 1);
        let cmds = key(&mut m, KeyCode::Enter);
        let (_, req) = api(&cmds).remove(0);
        assert_eq!(req, ApiRequest::SenderSchedule { id: "s-3".into() });
        assert_eq!(m.panes.domains.view, View::SenderDetail);
    }

    #[test]
    fn a_trigger_that_fails_is_announced() {
        let mut m = loaded();
        key(&mut m, KeyCode::Char('j'));
        let cmds = key(&mut m, KeyCode::Char('v'));
        let (id, req) = api(&cmds).remove(0);
        assert_eq!(
            req,
            ApiRequest::VerifyDomain {
                id: "d-3".into(),
                poll: false
            }
        );
        let failed = fixtures::domain(
            "d-3",
            "outreach.northwind.com",
            DomainStatus::Failed,
            "2026-11-21T08:00:00Z",
        );
        reply(&mut m, id, ApiReply::Domain(Ok(failed)));
        assert_eq!(
            m.toasts.items().last().map(|t| t.title.as_str()),
            Some("Verification failed")
        );
    }

    #[test]
    fn the_wheel_moves_and_redraws() {
        let mut m = loaded();
        m.redraw = false;
        let wheel = |kind| {
            Msg::Mouse(MouseEvent {
                kind,
                column: 10,
                row: 5,
                modifiers: KeyModifiers::NONE,
            })
        };
        update(&mut m, wheel(MouseEventKind::ScrollDown));
        assert_eq!(m.panes.domains.table.selected, 1);
        assert!(m.redraw, "a wheel step is drawn at once");
        m.redraw = false;
        update(&mut m, wheel(MouseEventKind::Moved));
        assert!(!m.redraw, "bare motion draws nothing");
    }

    #[test]
    fn coming_back_restarts_the_watch_and_refreshes() {
        let mut m = loaded();
        key(&mut m, KeyCode::Char('1'));
        assert!(
            m.panes.domains.watches.is_empty(),
            "leaving ends the watches"
        );
        m.now += Duration::from_secs(60);
        let cmds = key(&mut m, KeyCode::Char('4'));
        assert!(
            api(&cmds)
                .iter()
                .any(|(_, r)| *r == ApiRequest::ListDomains { skip_sync: false }),
            "statuses are refreshed on return"
        );
        let left = m.panes.domains.next_check_in(&m, "d-4");
        assert_eq!(
            left,
            Some(m.poll.domain),
            "the countdown starts with the new timer"
        );
    }

    #[test]
    fn a_manual_check_restarts_the_timer() {
        let mut m = loaded();
        key(&mut m, KeyCode::Enter);
        let before: Vec<_> = subscriptions(&m).into_iter().map(|s| s.id).collect();
        let cmds = key(&mut m, KeyCode::Char('r'));
        assert_eq!(api(&cmds).len(), 1, "r checks now");
        let after: Vec<_> = subscriptions(&m).into_iter().map(|s| s.id).collect();
        assert_ne!(
            before, after,
            "a new generation restarts the poller in step"
        );
    }

    #[test]
    fn an_older_list_answer_does_not_undo_a_newer_poll() {
        let mut m = loaded();
        let cmds = key(&mut m, KeyCode::Char('r'));
        let (list_id, _) = api(&cmds).remove(0);
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (poll_id, _) = api(&cmds).remove(0);
        let verified = fixtures::domain(
            "d-4",
            "mail.brightlabs.io",
            DomainStatus::Verified,
            "2026-11-22T11:50:00Z",
        );
        reply(&mut m, poll_id, ApiReply::Domain(Ok(verified)));
        let announced = m.toasts.items().len();
        // The slow live refresh answers last, with the older status.
        reply(&mut m, list_id, ApiReply::Domains(Ok(fixtures::domains())));
        assert_eq!(
            m.panes.domains.domain("d-4").map(|d| d.status.clone()),
            Some(DomainStatus::Verified)
        );
        assert_eq!(m.toasts.items().len(), announced, "no second announcement");
    }

    #[test]
    fn an_older_list_answer_keeps_a_domain_added_since() {
        let mut m = loaded();
        let cmds = key(&mut m, KeyCode::Char('r'));
        let (list_id, _) = api(&cmds).remove(0);
        let cmds = add_domain(&mut m, "new.example.com");
        let (add_id, _) = api(&cmds).remove(0);
        let new = fixtures::domain(
            "d-9",
            "new.example.com",
            DomainStatus::Pending,
            "2026-11-22T12:00:00Z",
        );
        reply(&mut m, add_id, ApiReply::Domain(Ok(new)));
        reply(&mut m, list_id, ApiReply::Domains(Ok(fixtures::domains())));
        assert_eq!(m.panes.domains.domains.items[0].id, "d-9");
        assert_eq!(
            m.panes.domains.view,
            View::DomainDetail,
            "its records stay open"
        );
    }

    #[test]
    fn a_vanished_domain_ends_its_watch_and_failures_slow_it() {
        let mut m = loaded();
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (id, _) = api(&cmds).remove(0);
        reply(
            &mut m,
            id,
            ApiReply::Domain(Err(service_error(
                500,
                r#"{"error":{"code":"internal_error","message":"boom"}}"#,
            ))),
        );
        assert_eq!(
            m.panes.domains.watches.get("d-4").map(|w| w.backoff),
            Some(1),
            "a 500 backs off"
        );
        let cmds = update(&mut m, Msg::SubFired(watch_sub("d-4")));
        let (id, _) = api(&cmds).remove(0);
        reply(
            &mut m,
            id,
            ApiReply::Domain(Err(service_error(
                404,
                r#"{"error":{"code":"not_found","message":"Not found"}}"#,
            ))),
        );
        assert!(
            m.panes.domains.domain("d-4").is_none(),
            "gone from the list"
        );
        assert!(watch_ids(&m).is_empty(), "no more polling");
    }

    #[test]
    fn ctrl_z_and_esc_work_while_a_dialog_is_open() {
        let mut m = loaded();
        key(&mut m, KeyCode::Char('a'));
        chars(&mut m, "half.typed.io");
        let cmds = update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)),
        );
        assert!(
            cmds.contains(&Cmd::Suspend),
            "Ctrl-Z suspends from a text box"
        );
        let saved = cmds.iter().find_map(|c| match c {
            Cmd::SaveState(s) => s.drafts.get(ADD_DRAFT).cloned(),
            _ => None,
        });
        assert_eq!(
            saved
                .and_then(|d| d.fields.get("domain").cloned())
                .as_deref(),
            Some("half.typed.io")
        );
        update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        );
        assert!(m.panes.domains.adding(&m));
        key(&mut m, KeyCode::Esc);
        assert!(
            m.panes.domains.add.is_none(),
            "Esc closes a dialog that is sending"
        );
    }

    #[test]
    fn a_typed_name_survives_quitting_and_comes_back() {
        let mut m = loaded();
        key(&mut m, KeyCode::Char('a'));
        chars(&mut m, "later.example.com");
        assert_eq!(m.unsent().as_deref(), Some("the add-domain dialog"));
        let cmds = key(&mut m, KeyCode::Char('q'));
        assert!(cmds.is_empty(), "typed in the dialog, q is text");
        let cmds = update(
            &mut m,
            Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        );
        let Some(Cmd::SaveState(state)) = cmds.first() else {
            panic!("state saved first: {cmds:?}");
        };
        let mut next = fixtures::model(80, 24);
        next.state = (**state).clone();
        next.start();
        key(&mut next, KeyCode::Char('a'));
        assert_eq!(
            next.panes
                .domains
                .add
                .as_ref()
                .map(|f| f.value("domain"))
                .as_deref(),
            Some("later.example.comq")
        );
    }
}
