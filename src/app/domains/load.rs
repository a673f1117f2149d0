//! Loading what the pane shows, and the requests its keys send.

use std::collections::BTreeSet;

use super::watch::sync_watches;
use super::{
    DomainsModel, Purpose, View, in_flight, list_viewport, records_viewport, schedule_viewport,
    senders_viewport,
};
use crate::api::validate;
use crate::app::ctx::Ctx;
use crate::app::form::Form;
use crate::app::{ApiRequest, Cmd};

/// The pane is being left: its watches end (their timers stop with them).
pub(super) fn on_leave(d: &mut DomainsModel) {
    d.watches.clear();
}

/// The pane became visible.
pub(super) fn on_enter(d: &mut DomainsModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    match d.view {
        View::Domains | View::DomainDetail => {
            if d.domains.loaded {
                // Coming back: statuses may have moved while away.
                cmds.extend(live_refresh(cx));
            } else {
                cmds.extend(reload_domains(cx));
            }
        }
        View::Senders | View::SenderDetail => cmds.extend(load_senders(d, cx, false)),
    }
    sync_watches(d, cx);
    cmds.extend(super::dns::ensure(d, cx));
    cmds
}

/// The last-known domains, shown marked stale until the service answers
/// (when nothing of this session is shown yet).
pub(super) fn from_cache(d: &mut DomainsModel, cx: &Ctx<'_>) {
    let l = &d.domains;
    if l.loaded || !l.items.is_empty() {
        return;
    }
    let Some(cached) = cx.cache().domains.clone() else {
        return;
    };
    let l = &mut d.domains;
    l.items = cached.items;
    l.fresh.read_at = Some(cached.as_of);
    l.cached = true;
    super::filter::reselect(d, cx, View::Domains, None);
    sync_watches(d, cx);
}

/// The first read of the list: the cached status (`skip_sync`) for a fast
/// first paint; the live refresh follows when it arrives.
pub(super) fn reload_domains(cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| matches!(p, Purpose::List { .. })) {
        return Vec::new();
    }
    cx.request(list(false), ApiRequest::ListDomains { skip_sync: true });
    Vec::new()
}

/// A list request's purpose.
pub(super) fn list(live: bool) -> Purpose {
    Purpose::List {
        live,
        stale: BTreeSet::new(),
    }
}

/// Asks for the senders (once, unless `force`).
pub(super) fn load_senders(d: &DomainsModel, cx: &mut Ctx<'_>, force: bool) -> Vec<Cmd> {
    if (d.senders.loaded && !force) || in_flight(cx.requests, |p| *p == Purpose::Senders) {
        return Vec::new();
    }
    cx.request(Purpose::Senders, ApiRequest::ListSenders);
    Vec::new()
}

/// The live refresh of the domain list (`skip_sync=false`).
pub(super) fn live_refresh(cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if in_flight(cx.requests, |p| {
        matches!(p, Purpose::List { live: true, .. })
    }) {
        return Vec::new();
    }
    cx.request(list(true), ApiRequest::ListDomains { skip_sync: false });
    Vec::new()
}

/// Asks for a sender's schedule; an older schedule request is forgotten.
pub(super) fn load_schedule(cx: &mut Ctx<'_>, sender: String) -> Vec<Cmd> {
    cx.requests
        .forget::<DomainsModel>(|p| matches!(p, Purpose::Schedule(_)));
    cx.request(
        Purpose::Schedule(sender.clone()),
        ApiRequest::SenderSchedule { id: sender },
    );
    Vec::new()
}

/// The terminal was resized: keep selections on screen.
pub(super) fn on_resize(d: &mut DomainsModel, cx: &Ctx<'_>) {
    let (lv, rv, sv, tv) = (
        list_viewport(d, cx),
        records_viewport(d, cx),
        senders_viewport(d, cx),
        schedule_viewport(d, cx),
    );
    d.table.clamp(lv);
    d.records.clamp(rv);
    d.senders_table.clamp(sv);
    for tree in &mut d.schedule.items {
        tree.table.clamp(tv);
    }
    sync_watches(d, cx);
}

/// Adds a domain (from the dialog or `:domain add NAME`).
pub(crate) fn add_domain(d: &mut DomainsModel, cx: &mut Ctx<'_>, name: &str) -> Vec<Cmd> {
    let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
    if let Err(errors) = validate::domain_name(&name) {
        let mut form = add_form();
        form.set_value("domain", &name);
        form.set_error("domain", &validate::join(&errors));
        d.add = Some(form);
        return Vec::new();
    }
    if d.add.is_none() {
        // Keep what was typed somewhere the user can fix it if the service
        // refuses it.
        let mut form = add_form();
        form.set_value("domain", &name);
        d.add = Some(form);
    }
    // The last create of this name may have been accepted: asked first.
    if super::lost_create::ask_first(d, cx, &name) {
        return Vec::new();
    }
    send_create(d, cx, &name)
}

/// Sends the create of a checked name (once: never again on its own).
pub(super) fn send_create(d: &mut DomainsModel, cx: &mut Ctx<'_>, name: &str) -> Vec<Cmd> {
    cx.request(
        Purpose::Create(name.to_owned()),
        ApiRequest::CreateDomain {
            name: name.to_owned(),
        },
    );
    if let Some(form) = d.add.as_mut() {
        // What a note said of an earlier create is now old.
        form.note = None;
    }
    d.view = View::Domains;
    Vec::new()
}

/// The draft key of the add-domain dialog.
pub(super) const ADD_DRAFT: &str = "add-domain";

/// The add dialog, holding a name typed before the last exit if there is one.
pub(super) fn open_add_dialog(d: &mut DomainsModel, cx: &mut Ctx<'_>) {
    let mut form = add_form();
    if let Some(draft) = cx.state.drafts.remove(ADD_DRAFT) {
        form.restore(&draft.fields);
    }
    d.add = Some(form);
}

/// The add-domain dialog, empty.
pub(super) fn add_form() -> Form {
    Form::new("Add a sending domain", "Add").required_text(
        "domain",
        "Domain",
        "e.g. mail.example.com — you will publish its DKIM, SPF and DMARC records next",
    )
}

/// Triggers verification of a domain (once at a time).
pub(super) fn verify(cx: &mut Ctx<'_>, domain_id: &str) -> Vec<Cmd> {
    if in_flight(
        cx.requests,
        |p| matches!(p, Purpose::Verify(d) if d == domain_id),
    ) {
        return Vec::new();
    }
    cx.request(
        Purpose::Verify(domain_id.to_owned()),
        ApiRequest::VerifyDomain {
            id: domain_id.to_owned(),
            poll: false,
        },
    );
    Vec::new()
}
