//! The thread list: newest activity first, filtered by status on the
//! service and by text (`/`) on the client, read a page at a time as the
//! selection nears the end, and refreshed live (the first page is read
//! again and merged, so a reply moves its thread to the top and its unread
//! count shows without losing the place).

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use super::{InboxModel, Purpose, View, in_flight};
use crate::api::ApiError;
use crate::api::model::{Thread, ThreadPage, ThreadQuery, ThreadStatus};
use crate::app::cache::Cached;
use crate::app::ctx::Ctx;
use crate::app::fresh::Freshness;
use crate::app::keymap::Action;
use crate::app::keymap::Keymap;
use crate::app::live_filter::{LiveFilter, hit};
use crate::app::table::TableState;
use crate::app::{ApiRequest, Cmd};
use crate::store::State;

/// Threads per page.
pub(crate) const PAGE: u64 = 100;
/// The most threads held; a text filter reads pages up to it.
pub(crate) const MAX_THREADS: usize = 5_000;

/// Which threads are listed (the service filters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum StatusFilter {
    /// Every status.
    #[default]
    All,
    /// Drafts.
    Draft,
    /// Active threads.
    Active,
    /// Archived threads.
    Archived,
}

impl StatusFilter {
    /// The next filter (`s` cycles).
    pub fn next(self) -> StatusFilter {
        match self {
            StatusFilter::All => StatusFilter::Draft,
            StatusFilter::Draft => StatusFilter::Active,
            StatusFilter::Active => StatusFilter::Archived,
            StatusFilter::Archived => StatusFilter::All,
        }
    }

    /// Label for the title.
    pub fn label(self) -> &'static str {
        match self {
            StatusFilter::All => "all",
            StatusFilter::Draft => "drafts",
            StatusFilter::Active => "active",
            StatusFilter::Archived => "archived",
        }
    }

    /// The `status` query parameter.
    pub fn query(self) -> Option<ThreadStatus> {
        match self {
            StatusFilter::All => None,
            StatusFilter::Draft => Some(ThreadStatus::Draft),
            StatusFilter::Active => Some(ThreadStatus::Active),
            StatusFilter::Archived => Some(ThreadStatus::Archived),
        }
    }

    /// Whether a thread of `status` belongs in the list.
    pub fn admits(self, status: &ThreadStatus) -> bool {
        self.query().is_none_or(|s| s == *status)
    }
}

/// How a page answer is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The first page of a fresh list.
    Reset,
    /// The next page, appended.
    Append,
    /// The first page again (live refresh), merged into what is held.
    Merge,
}

/// The thread list.
#[derive(Debug, Clone, Default)]
pub struct ThreadList {
    /// The status filter.
    pub status: StatusFilter,
    /// Loaded threads, in the service's order.
    pub threads: Vec<Thread>,
    /// Threads the service says match the status filter.
    pub total: Option<u64>,
    /// Pages read so far.
    pub pages: u64,
    /// A short page ended the list.
    pub end: bool,
    /// The text filter (`/`, live; case-insensitive, on participant and
    /// subject).
    pub needle: LiveFilter,
    /// Indices into `threads` of the rows shown (passing the text filter).
    pub shown: Vec<usize>,
    /// Selection and scroll over `shown`.
    pub table: TableState,
    /// The last failure, shown while nothing is loaded.
    pub error: Option<ApiError>,
    /// When the list was last read, and whether a refresh failed since
    /// (the rows stay, marked stale with their age).
    pub fresh: Freshness,
    /// The threads are the last-known list (every status) from the
    /// cache, read at this time (unix seconds): stale until a page
    /// answers.
    pub cached: Option<i64>,
}

impl ThreadList {
    /// A loaded thread by id.
    pub fn find(&self, id: &str) -> Option<&Thread> {
        self.threads.iter().find(|t| t.id == id)
    }

    /// The selected thread.
    pub fn selected(&self) -> Option<&Thread> {
        self.shown
            .get(self.table.selected)
            .and_then(|i| self.threads.get(*i))
    }

    /// The shown thread at row `i`.
    pub fn row(&self, i: usize) -> Option<&Thread> {
        self.shown.get(i).and_then(|j| self.threads.get(*j))
    }

    /// Whether the first page arrived.
    pub fn loaded(&self) -> bool {
        self.total.is_some()
    }

    /// Whether the service holds rows not read yet (and there is room).
    pub fn more(&self) -> bool {
        let held = self.threads.len();
        !self.end
            && held < MAX_THREADS
            && self
                .total
                .is_none_or(|t| u64::try_from(held).unwrap_or(u64::MAX) < t)
    }

    /// Recomputes the shown rows, keeping the selected thread selected.
    pub fn refilter(&mut self, viewport: usize) {
        let keep = self.selected().map(|t| t.id.clone());
        let needle = self.needle.lower();
        self.shown = (0..self.threads.len())
            .filter(|i| passes(&self.threads[*i], &needle))
            .collect();
        self.table.set_len(self.shown.len(), viewport);
        if let Some(id) = keep
            && let Some(row) = self
                .shown
                .iter()
                .position(|i| self.threads.get(*i).is_some_and(|t| t.id == id))
        {
            self.table.select(row, viewport);
        }
    }

    /// Selects a thread by id, when shown.
    pub fn select_id(&mut self, id: &str, viewport: usize) {
        if let Some(row) = self
            .shown
            .iter()
            .position(|i| self.threads.get(*i).is_some_and(|t| t.id == id))
        {
            self.table.select(row, viewport);
        }
    }

    /// Adds or replaces rows by id, in order.
    fn absorb(&mut self, rows: Vec<Thread>) {
        for t in rows {
            match self.threads.iter_mut().find(|o| o.id == t.id) {
                Some(slot) => *slot = t,
                None => self.threads.push(t),
            }
        }
    }

    /// Merges a fresh first page: its rows come first, in its order; a
    /// held row it does not contain but that is at least as recent as its
    /// last row is gone from this filter (it would be on the page).
    fn merge(&mut self, fresh: Vec<Thread>) {
        let full = u64::try_from(fresh.len()).unwrap_or(u64::MAX) >= PAGE;
        let cutoff = fresh.last().and_then(|t| t.updated_at.clone());
        let old = std::mem::take(&mut self.threads);
        let mut rows = fresh;
        if full {
            for t in old {
                if rows.iter().any(|f| f.id == t.id) {
                    continue;
                }
                let gone = match (&t.updated_at, &cutoff) {
                    (Some(a), Some(c)) => a >= c,
                    _ => false,
                };
                if !gone {
                    rows.push(t);
                }
            }
        }
        self.threads = rows;
    }
}

/// Whether a thread passes the text filter (`needle` lowercase).
fn passes(t: &Thread, needle: &str) -> bool {
    hit(
        needle,
        [
            t.participant_email.as_str(),
            t.participant_name.as_deref().unwrap_or(""),
            t.draft_subject.as_deref().unwrap_or(""),
        ],
    )
}

/// Rows of the list on screen now.
fn viewport(l: &ThreadList, cx: &Ctx<'_>) -> usize {
    super::layout::list_viewport(cx.layout().body, l.needle.typing())
}

/// The pane became visible on the list: load it, or refresh it.
pub(crate) fn enter(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if inbox.list.loaded() {
        poll(inbox, cx)
    } else if in_flight(cx.requests, |p| matches!(p, Purpose::List { .. })) {
        Vec::new()
    } else {
        load(inbox, cx)
    }
}

/// The last-known threads, shown marked stale until the first page
/// answers (when nothing of this session is shown yet). No page is read
/// past them until then.
pub(crate) fn from_cache(l: &mut ThreadList, cx: &Ctx<'_>) {
    if l.loaded() || !l.threads.is_empty() || l.status != StatusFilter::All {
        return;
    }
    let Some(cached) = cx.cache().threads.clone() else {
        return;
    };
    let vp = viewport(l, cx);
    l.threads = cached.items;
    l.end = true;
    l.cached = Some(cached.as_of);
    l.refilter(vp);
}

/// Reads the list afresh from its first page.
pub(crate) fn load(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    cx.requests
        .forget::<InboxModel>(|p| matches!(p, Purpose::List { .. }));
    request(inbox, cx, 1, Mode::Reset)
}

fn request(inbox: &mut InboxModel, cx: &mut Ctx<'_>, page: u64, mode: Mode) -> Vec<Cmd> {
    let status = inbox.list.status;
    let query = ThreadQuery {
        page: Some(page),
        limit: Some(PAGE),
        status: status.query().map(|s| s.as_str().to_owned()),
    };
    cx.request(
        Purpose::List { status, page, mode },
        ApiRequest::ListThreads { query },
    );
    Vec::new()
}

/// The live refresh: the first page again, merged.
pub(crate) fn poll(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if !inbox.list.loaded() || in_flight(cx.requests, |p| matches!(p, Purpose::List { .. })) {
        return Vec::new();
    }
    request(inbox, cx, 1, Mode::Merge)
}

/// Reads the next page when the selection nears the end of what is held,
/// or when a text filter is set (it should cover every thread).
pub(crate) fn want_more(inbox: &mut InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let vp = viewport(&inbox.list, cx);
    let l = &inbox.list;
    let near = l.table.near_end(vp);
    let filtering = l.needle.active();
    if !l.more() || !(near || filtering) {
        return Vec::new();
    }
    if in_flight(cx.requests, |p| {
        matches!(
            p,
            Purpose::List {
                mode: Mode::Append | Mode::Reset,
                ..
            }
        )
    }) {
        return Vec::new();
    }
    let next = inbox.list.pages + 1;
    request(inbox, cx, next, Mode::Append)
}

/// A page answer.
pub(crate) fn on_page(
    inbox: &mut InboxModel,
    cx: &mut Ctx<'_>,
    status: StatusFilter,
    page: u64,
    mode: Mode,
    r: Result<ThreadPage, ApiError>,
) -> Vec<Cmd> {
    if status != inbox.list.status {
        return Vec::new();
    }
    let vp = viewport(&inbox.list, cx);
    match r {
        Ok(p) => {
            let how = if mode == Mode::Merge {
                super::arrivals::Seen::Live
            } else {
                super::arrivals::Seen::Quietly
            };
            super::arrivals::observe(&mut inbox.unread_seen, cx, &p.threads, how);
            let short = u64::try_from(p.threads.len()).unwrap_or(u64::MAX) < PAGE;
            let l = &mut inbox.list;
            match mode {
                Mode::Reset => {
                    l.threads.clear();
                    l.absorb(p.threads);
                    l.pages = 1;
                    l.end = short;
                }
                Mode::Append if page == l.pages + 1 => {
                    l.absorb(p.threads);
                    l.pages = page;
                    l.end = short;
                }
                Mode::Append => return Vec::new(),
                Mode::Merge => l.merge(p.threads),
            }
            l.total = Some(p.total);
            l.error = None;
            l.fresh.ok(cx.clock);
            l.cached = None;
            l.refilter(vp);
            if status == StatusFilter::All {
                let fresh = Cached::of(&inbox.list.threads, cx.clock);
                cx.cache_list(|c| &mut c.threads, fresh);
            }
            // The first newest messages at once; the tick reads the rest.
            let mut cmds = super::lasts::read(inbox, cx);
            cmds.extend(want_more(inbox, cx));
            cmds
        }
        Err(e) => {
            let l = &mut inbox.list;
            if !l.loaded() {
                l.error = Some(e.clone());
            } else if mode != Mode::Append {
                // The rows stay, marked stale; the next poll tries again.
                l.fresh.fail_at(cx.clock, super::error_text(&e), &e);
            }
            // A failing live refresh says so once, not on every poll.
            if mode != Mode::Merge || cx.toasts.is_empty() {
                cx.toasts.error(cx.now, "loading threads", &e);
            }
            Vec::new()
        }
    }
}

/// Puts a thread the service answered with into the list: replaced in
/// place, or dropped when it no longer matches the status filter.
pub(crate) fn update_row(l: &mut ThreadList, cx: &Ctx<'_>, t: Thread) {
    let vp = viewport(l, cx);
    let Some(i) = l.threads.iter().position(|o| o.id == t.id) else {
        return;
    };
    if l.status.admits(&t.status) {
        l.threads[i] = t;
    } else {
        l.threads.remove(i);
        l.total = l.total.map(|n| n.saturating_sub(1));
    }
    l.refilter(vp);
}

/// Puts a thread at the top (it was created, or sent: newest activity),
/// when the status filter admits it; selects it.
pub(crate) fn put_on_top(l: &mut ThreadList, cx: &Ctx<'_>, t: Thread) {
    let vp = viewport(l, cx);
    let had = l.threads.iter().position(|o| o.id == t.id);
    if let Some(i) = had {
        l.threads.remove(i);
    }
    if !l.status.admits(&t.status) {
        if had.is_some() {
            l.total = l.total.map(|n| n.saturating_sub(1));
        }
        l.refilter(vp);
        return;
    }
    if had.is_none() {
        l.total = l.total.map(|n| n.saturating_add(1));
    }
    let id = t.id.clone();
    l.threads.insert(0, t);
    l.refilter(vp);
    l.select_id(&id, vp);
}

/// Removes a thread (deleted, or gone).
pub(crate) fn remove(l: &mut ThreadList, cx: &Ctx<'_>, id: &str) {
    let vp = viewport(l, cx);
    let before = l.threads.len();
    l.threads.retain(|t| t.id != id);
    if l.threads.len() != before {
        l.total = l.total.map(|n| n.saturating_sub(1));
    }
    l.refilter(vp);
}

/// The terminal was resized.
pub(crate) fn resize(l: &mut ThreadList, cx: &Ctx<'_>) {
    let vp = viewport(l, cx);
    l.table.clamp(vp);
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

/// A key action on the list.
pub(crate) fn action(inbox: &mut InboxModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = viewport(&inbox.list, cx);
    if nav(&mut inbox.list.table, action, vp) {
        return want_more(inbox, cx);
    }
    let selected = inbox.list.selected().map(|t| t.id.clone());
    match action {
        Action::Open => match inbox.list.selected().cloned() {
            Some(t) => super::thread::open(inbox, cx, t),
            None => Vec::new(),
        },
        Action::Compose => super::editor::open_new(inbox, cx, None),
        Action::ReplyThread => super::reply::key(inbox, cx),
        Action::StatusFilter => {
            let l = &mut inbox.list;
            l.status = l.status.next();
            l.total = None;
            l.threads.clear();
            l.pages = 0;
            l.end = false;
            l.error = None;
            l.fresh = Freshness::default();
            l.cached = None;
            l.table = TableState::default();
            l.refilter(vp);
            load(inbox, cx)
        }
        Action::Filter => {
            inbox.list.needle.open();
            let vp = viewport(&inbox.list, cx);
            inbox.list.table.clamp(vp);
            Vec::new()
        }
        Action::Back if inbox.list.needle.active() => {
            inbox.list.needle.clear();
            inbox.list.refilter(vp);
            Vec::new()
        }
        Action::Refresh => load(inbox, cx),
        Action::EditDraft
        | Action::SendDraft
        | Action::EditorSend
        | Action::MarkRead
        | Action::MarkUnread
        | Action::Archive
        | Action::DeleteDraft => match selected {
            Some(id) => super::thread::thread_action(inbox, cx, &id, action),
            None => super::refuse(
                cx,
                "Nothing selected",
                "no thread is selected (the list is empty or still loading)",
            ),
        },
        _ => Vec::new(),
    }
}

/// A key while the `/` input is open ([`LiveFilter`]: Enter keeps the
/// filter, Esc puts back the one before); typing filters as it goes.
pub(crate) fn filter_key(inbox: &mut InboxModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let changed = inbox.list.needle.key(key);
    filtered(inbox, cx, changed)
}

/// Pasted text goes to the filter input when it is open.
pub(crate) fn paste(inbox: &mut InboxModel, cx: &mut Ctx<'_>, text: &str) -> Vec<Cmd> {
    let changed = inbox.list.needle.paste(text);
    filtered(inbox, cx, changed)
}

/// After a key or a paste in the filter: the rows again when the text
/// changed (from the top), the selection kept in view of the viewport the
/// input's opening or closing gave, and the pages the filter wants.
fn filtered(inbox: &mut InboxModel, cx: &mut Ctx<'_>, changed: bool) -> Vec<Cmd> {
    let vp = viewport(&inbox.list, cx);
    let l = &mut inbox.list;
    if changed {
        l.refilter(vp);
        l.table.top(vp);
    } else {
        l.table.clamp(vp);
    }
    want_more(inbox, cx)
}

/// Mouse on the list: click selects (again: opens), the wheel scrolls.
pub(crate) fn mouse(inbox: &mut InboxModel, cx: &mut Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    let filtering = inbox.list.needle.typing();
    let areas = super::layout::list(cx.layout().body, filtering);
    match ev.kind {
        MouseEventKind::ScrollDown => action(inbox, cx, Action::Down),
        MouseEventKind::ScrollUp => action(inbox, cx, Action::Up),
        MouseEventKind::Down(MouseButton::Left) => {
            let Some(line) = crate::geometry::table::line_at(areas.table, ev.column, ev.row) else {
                return Vec::new();
            };
            let vp = viewport(&inbox.list, cx);
            let t = &mut inbox.list.table;
            let Some(row) = t.row_at(line) else {
                return Vec::new();
            };
            let again = t.selected == row;
            t.select(row, vp);
            if again {
                action(inbox, cx, Action::Open)
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// Status-bar hints of the list (`keymap` and `state` as
/// [`super::rules::hints`] reads them).
pub(crate) fn hints(
    inbox: &InboxModel,
    keymap: &Keymap,
    state: &State,
) -> Vec<(Action, &'static str)> {
    let l = &inbox.list;
    if l.needle.typing() {
        return Vec::new();
    }
    let mut out = vec![(Action::Open, "open"), (Action::Compose, "compose")];
    let mut off = Vec::new();
    if let Some(t) = l.selected() {
        let (on, mut not) = super::rules::hints(inbox, keymap, state, t);
        out.extend(on);
        super::thread::reply_hint(inbox, keymap, t, &mut out, &mut not);
        off = not;
        out.push(if t.status == ThreadStatus::Archived {
            (Action::Archive, "unarchive")
        } else {
            (Action::Archive, "archive")
        });
    }
    out.push((Action::StatusFilter, "status"));
    out.push((Action::Filter, "filter"));
    if inbox.view == View::List {
        out.push((Action::Refresh, "refresh"));
    }
    // Keys that do not apply to the selected thread, with why.
    out.extend(off);
    out
}
