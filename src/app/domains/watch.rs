//! The watch: verifying domains on screen are polled (`poll=true`) until
//! they settle, or after a lost verify trigger until a status read tells
//! what it did; failures back the poll off by the one rule
//! ([`Freshness::next_poll`]).

use super::{Purpose, View, Watch, in_flight, list_viewport};
use crate::api::model::DomainStatus;
use crate::app::fresh::Freshness;
use crate::app::{ApiRequest, Cmd, Model, Pane};

/// Domains that should be watched now: verifying and on screen.
pub(super) fn wanted_watches(m: &Model) -> Vec<String> {
    let d = &m.panes.domains;
    if m.pane != Pane::Domains {
        return Vec::new();
    }
    match d.view {
        View::DomainDetail => d
            .open_domain()
            .filter(|dom| dom.status == DomainStatus::Verifying || d.triggered.contains(&dom.id))
            .map(|dom| vec![dom.id.clone()])
            .unwrap_or_default(),
        View::Domains => {
            let viewport = list_viewport(m);
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
pub(super) fn sync_watches(m: &mut Model) {
    let wanted = wanted_watches(m);
    let now = m.now;
    // What is shown of a domain is as old as the list it came in.
    let as_of = m.panes.domains.domains.as_of().unwrap_or(m.clock);
    m.panes.domains.watches.retain(|id, _| wanted.contains(id));
    // A watch polls while it exists (its subscription is its poll).
    let base = m.poll.domain;
    for id in wanted {
        m.panes.domains.watches.entry(id).or_insert_with(|| {
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
pub(super) fn poll_now(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    poll(m, domain_id).unwrap_or_default()
}

/// Polls a watched domain unless it is not watched or a poll of it is on
/// its way (`None`: nothing sent); the commands that follow the poll.
fn poll(m: &mut Model, domain_id: &str) -> Option<Vec<Cmd>> {
    if !m.panes.domains.watches.contains_key(domain_id)
        || in_flight(m, |p| matches!(p, Purpose::Poll(d) if d == domain_id))
    {
        return None;
    }
    m.request(
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
    // When the watch polls, DNS is asked again too (the open domain's).
    Some(super::dns::recheck(m, domain_id))
}

/// A check asked for by hand: poll now and restart the timer from now.
pub(super) fn check_now(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    let cmds = poll(m, domain_id);
    if cmds.is_some()
        && let Some(w) = m.panes.domains.watches.get_mut(domain_id)
    {
        w.generation = w.generation.wrapping_add(1);
    }
    cmds.unwrap_or_default()
}

/// A watch subscription fired.
pub(super) fn on_watch_due(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    m.redraw = true;
    poll_now(m, domain_id)
}

/// A verify trigger's answer was lost: the domain is watched while on
/// screen until a status read tells what it did, and its status is read
/// now — by the watch (`poll=true`), else in the live list.
pub(super) fn read_status(m: &mut Model, domain_id: &str) -> Vec<Cmd> {
    m.panes.domains.triggered.insert(domain_id.to_owned());
    sync_watches(m);
    if m.panes.domains.watches.contains_key(domain_id) {
        return check_now(m, domain_id);
    }
    super::load::live_refresh(m)
}
