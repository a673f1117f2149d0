//! The campaign list: from the optional list route, or — when the service
//! does not offer it — from the local registry (ids created here, pasted
//! with `:open campaign <id>`, or met in another pane), each read by id.
//! Newest first; `/` filters by name, type or status as you type.
//!
//! The list is read again when it is shown after the poll interval, and
//! polled while it shows a launching or active campaign; a failed read
//! keeps the rows, marked stale with their age.

use std::collections::BTreeMap;

use crossterm::event::KeyEvent;

use super::super::table::TableState;
use super::super::{ApiRequest, Cmd, Pane};
use super::{CampaignsModel, Purpose, View, detail, error_text, layout, pending, rules};
use crate::api::ApiError;
use crate::api::model::Campaign;
use crate::app::cache::Cached;
use crate::app::ctx::Ctx;
use crate::app::fresh::Freshness;
use crate::app::keymap::Action;
use crate::app::live_filter::{LiveFilter, hit};

/// The campaigns shown in the list.
#[derive(Debug, Clone, Default)]
pub struct CampaignList {
    /// Every campaign known, newest first.
    pub rows: Vec<Campaign>,
    /// The list route is not offered: rows come from the local registry.
    pub registry: bool,
    /// An answer arrived at least once.
    pub loaded: bool,
    /// The last failure to list, shown while nothing is loaded.
    pub error: Option<ApiError>,
    /// When the list was last read, and whether the last read failed.
    pub fresh: Freshness,
    /// Registry ids that could not be read, with why.
    pub missing: BTreeMap<String, String>,
    /// Selection over the filtered rows.
    pub table: TableState,
    /// The filter (case-insensitive, over name, type and status).
    pub needle: LiveFilter,
    /// The rows are the last-known list from the cache, read at this
    /// time (unix seconds): stale until the list answers.
    pub cached: Option<i64>,
}

impl CampaignList {
    /// Indices of the rows passing the filter, in order.
    pub fn visible(&self) -> Vec<usize> {
        let needle = self.needle.lower();
        (0..self.rows.len())
            .filter(|i| {
                let c = &self.rows[*i];
                hit(
                    &needle,
                    [c.name.as_str(), c.kind.as_str(), c.status.as_str()],
                )
            })
            .collect()
    }

    /// The selected campaign.
    pub fn selected(&self) -> Option<&Campaign> {
        let i = *self.visible().get(self.table.selected)?;
        self.rows.get(i)
    }
}

/// Whether a listed campaign is sending (the list is polled while one is
/// shown).
pub(crate) fn has_live(l: &CampaignList) -> bool {
    l.rows.iter().any(|c| rules::is_live(&c.status))
}

/// Whether the list is polled: shown, loaded, with a campaign sending
/// ([`super::schedule`] tells its freshness so; [`poll`] runs on it).
/// `shown`: the pane shown.
pub(crate) fn watched(c: &CampaignsModel, shown: Pane) -> bool {
    shown == Pane::Campaigns && c.view == View::List && c.list.loaded && has_live(&c.list)
}

/// The list's poll, when it runs: the period its freshness schedules
/// (slower after failures, none for a refused key), so the title's
/// "live" or "retrying in N s" is what really happens.
pub(crate) fn poll(c: &CampaignsModel, shown: Pane) -> Option<std::time::Duration> {
    if !watched(c, shown) {
        return None;
    }
    c.list.fresh.next_poll()
}

/// Leads sent at least one message: the service's `contacted` when it
/// gives it (the pause answer does not), else every lead past `pending`
/// as the counters add up (`stats` are counts of the roster by status, so
/// `sent` alone drops as leads reply or bounce).
pub(crate) fn reached(c: &Campaign) -> u64 {
    let s = &c.stats;
    s.contacted.unwrap_or_else(|| {
        [
            s.sent,
            s.replied,
            s.bounced,
            s.completed,
            s.timed_out,
            s.connection_sent,
            s.connected,
            s.message_sent,
        ]
        .iter()
        .fold(0u64, |a, b| a.saturating_add(*b))
    })
}

/// Reply rate: replied per lead reached, in percent (`None` before any
/// send).
pub(crate) fn reply_rate(c: &Campaign) -> Option<f64> {
    let reached = reached(c);
    #[expect(clippy::cast_precision_loss, reason = "display only")]
    (reached > 0).then(|| c.stats.replied as f64 * 100.0 / reached as f64)
}

/// The last-known campaigns, shown marked stale until the list answers
/// (when nothing of this session is shown yet).
pub(crate) fn from_cache(l: &mut CampaignList, cx: &Ctx<'_>) {
    if l.loaded || !l.rows.is_empty() {
        return;
    }
    let Some(cached) = cx.cache().campaigns.clone() else {
        return;
    };
    l.rows = cached.items;
    l.cached = Some(cached.as_of);
    relen(l, viewport(cx), None);
}

/// Reads the list when it is shown: when nothing is loaded, or when what
/// is shown is older than the poll interval (nothing is on its way).
pub(crate) fn ensure_fresh(l: &CampaignList, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let old = l
        .fresh
        .age(cx.clock)
        .is_none_or(|age| age >= cx.poll.campaign.as_secs());
    if (l.loaded && !old) || pending(cx.requests, |p| *p == Purpose::List) {
        return Vec::new();
    }
    refresh(cx)
}

/// Asks for the list again.
pub(crate) fn refresh(cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if pending(cx.requests, |p| *p == Purpose::List) {
        return Vec::new();
    }
    cx.request(Purpose::List, ApiRequest::ListCampaigns);
    Vec::new()
}

fn viewport(cx: &Ctx<'_>) -> usize {
    layout::list_viewport(cx.layout().body)
}

/// Re-counts the rows after a change (`vp`: rows on screen), keeping the
/// selected campaign.
fn relen(l: &mut CampaignList, vp: usize, keep: Option<String>) {
    let visible = l.visible();
    l.table.set_len(visible.len(), vp);
    if let Some(id) = keep
        && let Some(pos) = visible.iter().position(|i| l.rows[*i].id == id)
    {
        l.table.select(pos, vp);
    }
}

fn sort(rows: &mut [Campaign]) {
    // ISO 8601 timestamps sort as text; newest first.
    rows.sort_by(|a, b| b.created_at.cmp(&a.created_at));
}

/// The list answer: the rows, or `None` (read the registry one by one).
pub(crate) fn on_list(
    l: &mut CampaignList,
    cx: &mut Ctx<'_>,
    result: Result<Option<Vec<Campaign>>, ApiError>,
) -> Vec<Cmd> {
    let keep = l.selected().map(|c| c.id.clone());
    let vp = viewport(cx);
    match result {
        Ok(Some(mut rows)) => {
            sort(&mut rows);
            l.rows = rows;
            l.registry = false;
            l.loaded = true;
            l.error = None;
            l.fresh.ok(cx.clock);
            l.cached = None;
            relen(l, vp, keep);
            let fresh = Cached::of(&l.rows, cx.clock);
            cx.cache_list(|c| &mut c.campaigns, fresh);
            Vec::new()
        }
        Ok(None) => {
            l.registry = true;
            l.loaded = true;
            l.error = None;
            l.fresh.ok(cx.clock);
            // The cached rows give way to the registry's, read one by one.
            if l.cached.take().is_some() {
                l.rows.clear();
                relen(l, vp, None);
            }
            let known: Vec<String> = cx
                .state
                .known_campaigns
                .iter()
                .map(|k| k.id.clone())
                .collect();
            for id in known {
                if pending(cx.requests, |p| *p == Purpose::Known(id.clone())) {
                    continue;
                }
                cx.request(Purpose::Known(id.clone()), ApiRequest::GetCampaign { id });
            }
            Vec::new()
        }
        Err(e) => {
            if l.loaded {
                // The rows stay, marked stale with their age.
                l.fresh.fail_at(cx.clock, error_text(&e), &e);
            } else {
                l.error = Some(e.clone());
            }
            super::toast_error(cx, "listing campaigns", &e);
            Vec::new()
        }
    }
}

/// One registry campaign.
pub(crate) fn on_known(
    cm: &mut CampaignsModel,
    cx: &mut Ctx<'_>,
    id: &str,
    result: Result<Campaign, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(c) => {
            cm.list.missing.remove(id);
            if !c.name.is_empty() {
                cx.state.remember_campaign(&c.id, &c.name, "");
            }
            cx.cache_item(|c| &mut c.campaigns, &c);
            super::upsert(cm, cx, c);
        }
        Err(e) => {
            let why = if e.is_not_found() {
                "not found (deleted, or another workspace's)".to_owned()
            } else {
                error_text(&e)
            };
            cm.list.missing.insert(id.to_owned(), why);
        }
    }
    Vec::new()
}

/// Puts a newer copy of a campaign in the list (or adds it, in place by
/// creation time).
pub(crate) fn upsert(l: &mut CampaignList, cx: &Ctx<'_>, c: Campaign) {
    let keep = l.selected().map(|c| c.id.clone());
    let rows = &mut l.rows;
    match rows.iter_mut().find(|r| r.id == c.id) {
        Some(row) => *row = detail::merge(row, c),
        None => {
            rows.push(c);
            sort(rows);
        }
    }
    relen(l, viewport(cx), keep);
}

/// A key action on the list.
pub(crate) fn on_action(cm: &mut CampaignsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = viewport(cx);
    if detail::nav(&mut cm.list.table, action, vp) {
        return Vec::new();
    }
    match action {
        Action::Open => match cm.list.selected().map(|c| c.id.clone()) {
            Some(id) => detail::open(cm, cx, &id),
            None => Vec::new(),
        },
        Action::Filter => {
            cm.list.needle.open();
            Vec::new()
        }
        Action::Back if cm.list.needle.active() => {
            cm.list.needle.clear();
            relen(&mut cm.list, vp, None);
            Vec::new()
        }
        Action::Refresh => {
            cm.list.missing.clear();
            refresh(cx)
        }
        _ => super::detail::disabled_notice(cx, action),
    }
}

/// A key while the filter is typed: it applies as you type; Enter keeps
/// it, Esc puts back the one before.
pub(crate) fn on_filter_key(l: &mut CampaignList, cx: &Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    if l.needle.key(key) {
        relen(l, viewport(cx), None);
    }
    Vec::new()
}

/// Pasted text while the filter is typed.
pub(crate) fn on_filter_paste(l: &mut CampaignList, cx: &Ctx<'_>, text: &str) {
    if l.needle.paste(text) {
        relen(l, viewport(cx), None);
    }
}

/// Status-bar hints of the list.
pub(crate) fn hints(c: &CampaignsModel) -> Vec<(Action, &'static str)> {
    // With no campaign shown, Enter has nothing to open.
    let mut out = Vec::new();
    if c.list.selected().is_some() {
        out.push((Action::Open, "open"));
    }
    out.extend([(Action::NewCampaign, "new"), (Action::Filter, "filter")]);
    if let Some(c) = c.list.selected() {
        out.push((
            Action::Launch,
            rules::label(&c.status, rules::Op::Launch, "launch"),
        ));
        out.push((
            Action::Pause,
            rules::label(&c.status, rules::Op::Pause, "pause"),
        ));
        out.push((
            Action::Resume,
            rules::label(&c.status, rules::Op::Resume, "resume"),
        ));
    }
    out.push((Action::Refresh, "refresh"));
    out
}
