//! The watch: verifying domains on screen are polled (`poll=true`) until
//! they settle, or after a lost verify trigger until a status read tells
//! what it did; failures back the poll off by the one rule
//! ([`Freshness::next_poll`]).

use super::{DomainsModel, Purpose, View, Watch, in_flight, list_viewport};
use crate::api::model::DomainStatus;
use crate::app::ctx::Ctx;
use crate::app::fresh::Freshness;
use crate::app::{ApiRequest, Cmd, Pane};

/// Domains that should be watched now: verifying and on screen.
pub(super) fn wanted_watches(d: &DomainsModel, cx: &Ctx<'_>) -> Vec<String> {
    if !cx.is_shown(Pane::Domains) {
        return Vec::new();
    }
    match d.view {
        View::DomainDetail => d
            .open_domain()
            .filter(|dom| dom.status == DomainStatus::Verifying || d.triggered.contains(&dom.id))
            .map(|dom| vec![dom.id.clone()])
            .unwrap_or_default(),
        View::Domains => {
            let viewport = list_viewport(d, cx);
            let shown = d.shown_domains();
            d.table
                .visible(viewport)
                .filter_map(|i| shown.get(i))
                .filter(|dom| {
                    dom.status == DomainStatus::Verifying || d.triggered.contains(&dom.id)
                })
                .map(|dom| dom.id.clone())
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Starts watches for newly visible verifying domains, ends the others.
pub(super) fn sync_watches(d: &mut DomainsModel, cx: &Ctx<'_>) {
    let wanted = wanted_watches(d, cx);
    let now = cx.now;
    // What is shown of a domain is as old as the list it came in.
    let as_of = d.domains.as_of().unwrap_or(cx.clock);
    d.watches.retain(|id, _| wanted.contains(id));
    // A watch polls while it exists (its subscription is its poll).
    let base = cx.poll.domain;
    for id in wanted {
        d.watches.entry(id).or_insert_with(|| {
            let mut fresh = Freshness::default();
            fresh.ok(as_of);
            fresh.schedule(Some(base));
            Watch {
                last_poll: now,
                generation: 0,
                fresh,
            }
        });
    }
}

/// Polls a watched domain now (once at a time).
pub(super) fn poll_now(d: &mut DomainsModel, cx: &mut Ctx<'_>, domain_id: &str) -> Vec<Cmd> {
    poll(d, cx, domain_id).unwrap_or_default()
}

/// Polls a watched domain unless it is not watched or a poll of it is on
/// its way (`None`: nothing sent); the commands that follow the poll.
fn poll(d: &mut DomainsModel, cx: &mut Ctx<'_>, domain_id: &str) -> Option<Vec<Cmd>> {
    if !d.watches.contains_key(domain_id)
        || in_flight(
            cx.requests,
            |p| matches!(p, Purpose::Poll(d) if d == domain_id),
        )
    {
        return None;
    }
    cx.request(
        Purpose::Poll(domain_id.to_owned()),
        ApiRequest::VerifyDomain {
            id: domain_id.to_owned(),
            poll: true,
        },
    );
    let now = cx.now;
    if let Some(w) = d.watches.get_mut(domain_id) {
        w.last_poll = now;
    }
    // When the watch polls, DNS is asked again too (the open domain's).
    Some(super::dns::recheck(d, cx, domain_id))
}

/// A check asked for by hand: poll now and restart the timer from now.
pub(super) fn check_now(d: &mut DomainsModel, cx: &mut Ctx<'_>, domain_id: &str) -> Vec<Cmd> {
    let cmds = poll(d, cx, domain_id);
    if cmds.is_some()
        && let Some(w) = d.watches.get_mut(domain_id)
    {
        w.generation = w.generation.wrapping_add(1);
    }
    cmds.unwrap_or_default()
}

/// A watch subscription fired.
pub(super) fn on_watch_due(d: &mut DomainsModel, cx: &mut Ctx<'_>, domain_id: &str) -> Vec<Cmd> {
    cx.redraw();
    poll_now(d, cx, domain_id)
}

/// A verify trigger's answer was lost: the domain is watched while on
/// screen until a status read tells what it did, and its status is read
/// now — by the watch (`poll=true`), else in the live list.
pub(super) fn read_status(d: &mut DomainsModel, cx: &mut Ctx<'_>, domain_id: &str) -> Vec<Cmd> {
    d.triggered.insert(domain_id.to_owned());
    sync_watches(d, cx);
    if d.watches.contains_key(domain_id) {
        return check_now(d, cx, domain_id);
    }
    super::load::live_refresh(cx)
}
