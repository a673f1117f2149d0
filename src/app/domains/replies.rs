//! Replies to the pane's requests.

use std::collections::BTreeSet;

use super::actions::open_domain;
use super::filter::reselect;
use super::load::live_refresh;
use super::watch::sync_watches;
use super::{DomainsModel, Purpose, View, records_viewport, schedule_viewport};
use crate::api::ApiError;
use crate::api::model::{DomainStatus, SenderAccount, SendingDomain};
use crate::app::ctx::Ctx;
use crate::app::json_tree::JsonTree;
use crate::app::keymap::Action;
use crate::app::toast::Level;
use crate::app::{Cmd, Reply, RequestId};
use crate::logic::write::{self, Outcome};
use crate::text::sanitize;

/// Replaces (or inserts) a domain from the answer to request `by`,
/// announcing a finished verification. Lists asked for before `by` and
/// still on their way learn that their row of it is older.
pub(super) fn upsert_domain(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    by: RequestId,
    new: SendingDomain,
) {
    let domain_id = new.id.clone();
    cx.requests.amend::<DomainsModel>(|id, p| {
        if let Purpose::List { stale, .. } = p
            && id < by
        {
            stale.insert(domain_id.clone());
        }
    });
    let name = sanitize::inline(&new.domain);
    let old = d.domains.items.iter().position(|x| x.id == new.id);
    match old {
        Some(i) => {
            let before = d.domains.items[i].status.clone();
            announce(cx, &name, &before, &new.status);
            let n = d.shown_records(&new).len();
            let keep = d.selected_domain().map(|d| d.id.clone());
            d.domains.items[i] = new;
            // Its new status may take it out of (or into) a kept filter.
            reselect(d, cx, View::Domains, keep);
            if d.open.as_deref() == Some(domain_id.as_str()) {
                let vp = records_viewport(d, cx);
                d.records.set_len(n, vp);
            }
        }
        None => {
            let keep = d.selected_domain().map(|d| d.id.clone());
            d.domains.items.insert(0, new);
            reselect(d, cx, View::Domains, keep);
        }
    }
}

/// Announces a verification that settled (from `verifying`), with the
/// bell and a desktop notification: it is what the watch was waited for.
pub(super) fn announce(cx: &mut Ctx<'_>, name: &str, before: &DomainStatus, after: &DomainStatus) {
    if before == after || *before != DomainStatus::Verifying {
        return;
    }
    match after {
        DomainStatus::Verified => cx.alert(
            Level::Success,
            "Domain verified",
            &format!("{name} is verified: its DKIM, SPF and DMARC records resolve"),
        ),
        DomainStatus::Failed => cx.alert(
            Level::Error,
            "Verification failed",
            &format!(
                "{name}: the verification service rejected the records; check them and verify again"
            ),
        ),
        other => cx.notify(
            Level::Info,
            "Domain status",
            &format!("{name} is now {other}"),
        ),
    }
}

/// Takes a list answer. Domains in `stale` — updated by a later answer (a
/// poll, a verify, a create) while the list was on its way — keep that
/// newer state: the slow live refresh must not undo them.
pub(super) fn replace_domains(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    stale: &BTreeSet<String>,
    mut list: Vec<SendingDomain>,
) {
    let newer: Vec<SendingDomain> = d
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
    // Announce changes seen by a refresh, too (not those since the last
    // session: nobody watched them happen).
    let cached = d.domains.cached;
    for new in list.iter().filter(|_| !cached) {
        if let Some(old) = d.domain(&new.id) {
            let (before, name) = (old.status.clone(), sanitize::inline(&new.domain));
            announce(cx, &name, &before, &new.status);
        }
    }
    let keep = d.selected_domain().map(|d| d.id.clone());
    let clock = cx.clock;
    d.domains.took(list, clock);
    let fresh = crate::app::cache::Cached::of(&d.domains.items, clock);
    cx.cache_list(|c| &mut c.domains, fresh);
    // The watched domains' statuses are as of this answer.
    let now = cx.now;
    for w in d.watches.values_mut() {
        if w.fresh.failures > 0 {
            // The interval changes back: its timer restarts now.
            w.last_poll = now;
        }
        w.fresh.ok(clock);
    }
    reselect(d, cx, View::Domains, keep);
    if let Some(open) = d.open_domain() {
        let n = d.shown_records(open).len();
        let vp = records_viewport(d, cx);
        d.records.set_len(n, vp);
    } else if d.view == View::DomainDetail {
        d.view = View::Domains;
        d.open = None;
    }
}

pub(super) fn error_text(e: &ApiError) -> String {
    format!("{}: {}", e.code(), e.message())
}

/// A reply for this pane, with the purpose it was sent for.
pub(super) fn on_reply(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    id: RequestId,
    purpose: Purpose,
    reply: Reply,
) -> Vec<Cmd> {
    let reply = match reply {
        Reply::Api(reply) => reply,
        Reply::Dns(answers) => {
            super::dns::on_resolved(&mut d.dns, cx.now, cx.clock, answers);
            return Vec::new();
        }
        Reply::PathChecked(_) | Reply::FileWritten(_) | Reply::DirListed(_) | Reply::Csv(_) => {
            return Vec::new();
        }
    };
    let mut cmds = match purpose {
        Purpose::List { live, stale } => reply.answer(|r| on_list(d, cx, live, &stale, r)),
        Purpose::Create(name) => reply.answer(|r| on_create_answer(d, cx, id, &name, r)),
        Purpose::CreateCheck(name) => {
            reply.answer(|r| super::lost_create::on_check(d, cx, &name, r))
        }
        Purpose::Verify(domain) => {
            reply.answer(|r| on_verify(d, cx, id, &domain, named(r, &domain)))
        }
        Purpose::Poll(domain) => reply.answer(|r| {
            on_poll(d, cx, id, &domain, named(r, &domain));
            Vec::new()
        }),
        Purpose::Senders => reply.answer(|r| {
            on_senders(d, cx, r);
            Vec::new()
        }),
        Purpose::Schedule(_) => reply.answer(|r| {
            on_schedule(d, cx, r);
            Vec::new()
        }),
        // Answered by `Reply::Dns` above.
        Purpose::Resolve(_) => Vec::new(),
    };
    sync_watches(d, cx);
    // A domain opened, or its records changed: what DNS holds of them.
    cmds.extend(super::dns::ensure(d, cx));
    cmds
}

/// A domain answer about `expected`: one that names another domain (or
/// none: a malformed body read leniently) is a failure, so it can never
/// replace what is known.
fn named(
    result: Result<SendingDomain, ApiError>,
    expected: &str,
) -> Result<SendingDomain, ApiError> {
    match result {
        Ok(d) if d.id != expected => Err(ApiError::Decode {
            status: 200,
            detail: format!(
                "the answer is about domain {:?}, not {expected:?}",
                sanitize::inline(&d.id)
            ),
            may_have_reached: false,
        }),
        other => other,
    }
}

/// The domain list: the cached one asks for the live refresh next.
pub(super) fn on_list(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    live: bool,
    stale: &BTreeSet<String>,
    result: Result<Vec<SendingDomain>, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(list) => {
            replace_domains(d, cx, stale, list);
            // It may show the domain a lost create added.
            super::lost_create::spot(d, cx);
            if live {
                d.synced = true;
                Vec::new()
            } else {
                live_refresh(cx)
            }
        }
        Err(e) => {
            // What is shown stays, marked stale; the retry poller reads
            // again.
            let clock = cx.clock;
            d.domains.failed(&e, clock);
            let polled = d.domains.wants_retry();
            read_failed(cx, "loading sending domains", &e, polled);
            Vec::new()
        }
    }
}

/// The add's answer: a domain added, a refusal, or an answer that may have
/// reached the service (a lost one, or a success whose body names no
/// domain), whose list is then read to learn.
fn on_create_answer(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    id: RequestId,
    name: &str,
    result: Result<SendingDomain, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(dom) if dom.id.is_empty() => {
            // A success whose body names no domain: it may have been added.
            // Say so where the name was typed, and read the list to learn.
            let e = ApiError::Decode {
                status: 200,
                detail: "the answer names no domain".into(),
                may_have_reached: true,
            };
            super::lost_create::on_lost(d, cx, name, &e)
        }
        Err(e) if write::of_error(&e) == Outcome::MayHaveReached => {
            super::lost_create::on_lost(d, cx, name, &e)
        }
        r => {
            on_created(d, cx, id, r);
            Vec::new()
        }
    }
}

/// A domain was added: shown selected, with its records when the dialog
/// was still open.
pub(super) fn on_created(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    id: RequestId,
    result: Result<SendingDomain, ApiError>,
) {
    match result {
        Ok(domain) => {
            let name = sanitize::inline(&domain.domain);
            let domain_id = domain.id.clone();
            // The dialog was closed while sending: add quietly.
            let dialog_open = d.add.take().is_some();
            upsert_domain(d, cx, id, domain);
            if !reselect(d, cx, View::Domains, Some(domain_id.clone())) {
                // Hidden by the list's filter: the new domain is shown.
                d.domain_query.clear();
                reselect(d, cx, View::Domains, Some(domain_id.clone()));
            }
            if dialog_open {
                open_domain(d, cx, &domain_id);
            }
            let verify = cx.keymap.key_label(Action::Verify);
            cx.notify(
                Level::Success,
                "Domain added",
                &format!(
                    "{name}: publish these DNS records at your DNS host, then press {verify} to verify"
                ),
            );
        }
        Err(e) => match d.add.as_mut() {
            Some(form) => form.set_error("domain", &error_text(&e)),
            None => {
                let text = refused_text(cx, &e, Action::AddDomain, "adds it again");
                cx.notify(
                    Level::Error,
                    &format!("{} · adding the domain", e.code()),
                    &text,
                );
            }
        },
    }
}

/// What a write the service refused (nothing happened) says: the service's
/// words and the write's own key — never the Refresh key, which reads and
/// sends nothing.
fn refused_text(cx: &Ctx<'_>, e: &ApiError, action: Action, again: &str) -> String {
    if e.is_unauthorized() {
        return crate::app::toast::error_body(e, "");
    }
    let key = cx.keymap.key_label(action);
    format!("{} — {key} {again}", e.message())
}

/// A verification was triggered: its result announced as a change from
/// `verifying` (a trigger starts a fresh check). A trigger whose answer
/// was lost may have started it; pressing the key again is safe, and the
/// status read settles what is shown.
pub(super) fn on_verify(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    id: RequestId,
    domain_id: &str,
    result: Result<SendingDomain, ApiError>,
) -> Vec<Cmd> {
    match result {
        Ok(domain) => {
            d.triggered.remove(&domain.id);
            let status = domain.status.clone();
            let name = sanitize::inline(&domain.domain);
            if let Some(dom) = d.domains.items.iter_mut().find(|x| x.id == domain.id) {
                dom.status = DomainStatus::Verifying;
            }
            upsert_domain(d, cx, id, domain);
            if status == DomainStatus::Verifying {
                cx.notify(
                    Level::Info,
                    "Verification started",
                    &format!("{name}: DNS is being checked; this view polls until it settles"),
                );
            }
        }
        Err(e) if write::of_error(&e) == Outcome::MayHaveReached => {
            return trigger_lost(d, cx, domain_id, &e);
        }
        Err(e) => {
            let text = refused_text(cx, &e, Action::Verify, "triggers it again");
            cx.notify(
                Level::Error,
                &format!("{} · verifying the domain", e.code()),
                &text,
            );
        }
    }
    Vec::new()
}

/// The name of a domain as shown (its id while unknown).
fn domain_name(d: &DomainsModel, domain_id: &str) -> String {
    sanitize::inline(d.domain(domain_id).map_or(domain_id, |d| d.domain.as_str()))
}

/// A verify trigger whose answer was lost: it may have started a check.
/// Sending it again does no harm (`Settle::SafeToRepeat`), so the user is
/// told the key is safe to press; the status is read to show what it did.
fn trigger_lost(d: &mut DomainsModel, cx: &mut Ctx<'_>, domain_id: &str, e: &ApiError) -> Vec<Cmd> {
    let name = domain_name(d, domain_id);
    let v = cx.keymap.key_label(Action::Verify);
    cx.notify(
        Level::Warning,
        "Verification may have started",
        &format!(
            "{name} ({}): it may have started. Pressing {v} again is safe; reading its status",
            e.code()
        ),
    );
    super::watch::read_status(d, cx, domain_id)
}

/// A read failed: what went wrong and what comes next, as every pane says
/// it (`retrying` while the poller reads again).
fn read_failed(cx: &mut Ctx<'_>, context: &str, e: &ApiError, polled: bool) {
    let next = crate::app::fresh::next_step(cx.keymap, e, polled)
        .map(|n| format!(" · {n}"))
        .unwrap_or_default();
    cx.notify(
        Level::Error,
        &format!("{} · {context}", e.code()),
        &format!("{}{next}", read_failure(e)),
    );
}

/// What went wrong with a read, in its own words: a read is never "may
/// have been accepted".
fn read_failure(e: &ApiError) -> String {
    match e {
        ApiError::Timeout { after, .. } => format!("no answer within {}s", after.as_secs_f32()),
        ApiError::Transport { detail, .. } => format!("the connection was lost: {detail}"),
        ApiError::Decode { status, detail, .. } => {
            format!("the answer (HTTP {status}) could not be read: {detail}")
        }
        ApiError::Service(s) => format!("{} (HTTP {})", s.message, s.status),
        other => other.message(),
    }
}

/// A watch poll answered: a failure slows the watch down, a 404 ends it.
pub(super) fn on_poll(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    id: RequestId,
    domain_id: &str,
    result: Result<SendingDomain, ApiError>,
) {
    let now = cx.now;
    match result {
        Ok(domain) => {
            // The status read told what a lost trigger did.
            d.triggered.remove(domain_id);
            let clock = cx.clock;
            if let Some(w) = d.watches.get_mut(domain_id) {
                if w.fresh.failures > 0 {
                    // The interval changes back: its timer restarts now.
                    w.last_poll = now;
                }
                w.fresh.ok(clock);
            }
            upsert_domain(d, cx, id, domain);
        }
        Err(e) if e.is_not_found() => {
            // Gone on the service: stop watching and say so.
            d.triggered.remove(domain_id);
            let keep = d.selected_domain().map(|d| d.id.clone());
            d.domains.items.retain(|d| d.id != domain_id);
            reselect(d, cx, View::Domains, keep);
            if d.open.as_deref() == Some(domain_id) {
                d.open = None;
                d.view = View::Domains;
            }
            cx.toasts.error(cx.now, "the domain no longer exists", &e);
        }
        Err(e) => {
            // Any failure (429, 5xx, transport, revoked key, a malformed
            // answer) keeps the last known status and slows the watch down
            // instead of hammering the service.
            let clock = cx.clock;
            if let Some(w) = d.watches.get_mut(domain_id) {
                w.last_poll = now;
                w.fresh
                    .fail_at(clock, crate::app::toast::error_text(&e), &e);
            }
            let name = domain_name(d, domain_id);
            let watched = d.watches.contains_key(domain_id);
            let next = crate::app::fresh::next_step(cx.keymap, &e, watched)
                .map(|n| format!(" · {n}"))
                .unwrap_or_default();
            // A status read (`poll=true`) is a read: it failed, and the
            // status shown stays; it never "may have been accepted".
            cx.notify(
                Level::Error,
                &format!("{} · checking verification", e.code()),
                &format!(
                    "{name}: the status could not be read ({}); the status shown stays{next}",
                    read_failure(&e)
                ),
            );
        }
    }
}

/// The senders answered.
pub(super) fn on_senders(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    result: Result<Vec<SenderAccount>, ApiError>,
) {
    match result {
        Ok(list) => {
            let keep = d.selected_sender().map(|s| s.id.clone());
            let clock = cx.clock;
            d.senders.took(list, clock);
            reselect(d, cx, View::Senders, keep);
        }
        Err(e) => {
            let clock = cx.clock;
            d.senders.failed(&e, clock);
            let polled = d.senders.wants_retry();
            read_failed(cx, "loading senders", &e, polled);
        }
    }
}

/// A sender's schedule answered.
pub(super) fn on_schedule(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    result: Result<serde_json::Value, ApiError>,
) {
    match result {
        Ok(json) => {
            let vp = schedule_viewport(d, cx);
            let mut tree = JsonTree::new(json);
            let needle = d.schedule_query.needle();
            tree.set_filter(needle.as_deref(), vp);
            tree.table.clamp(vp);
            let clock = cx.clock;
            d.schedule.took(vec![tree], clock);
        }
        Err(e) => {
            let clock = cx.clock;
            d.schedule.failed(&e, clock);
            let polled = d.schedule.wants_retry();
            read_failed(cx, "loading the schedule", &e, polled);
        }
    }
}
