//! Keys, the mouse and pasted text.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use super::copy::{self, CopyChoice};
use super::filter::{self, FilterKey};
use super::load::{
    add_domain, live_refresh, load_schedule, load_senders, on_enter, open_add_dialog, verify,
};
use super::watch::{check_now, sync_watches};
use super::{
    DomainsModel, Loaded, Purpose, View, areas_for, list_viewport, records_viewport,
    schedule_viewport, senders_viewport,
};
use crate::app::Cmd;
use crate::app::ctx::Ctx;
use crate::app::form::FormEvent;
use crate::app::keymap::Action;
use crate::app::table::TableState;
use crate::app::toast::Level;

/// Keys for a focused text box (the add dialog, or a list's `/` filter);
/// `None` when none has the focus, so the keymap decides.
pub(super) fn on_text_key(
    d: &mut DomainsModel,
    cx: &mut Ctx<'_>,
    key: KeyEvent,
) -> Option<Vec<Cmd>> {
    if d.add.is_some() {
        return Some(add_dialog_key(d, cx, key));
    }
    if let Some(cmds) = copy::on_key(d, cx, key) {
        return Some(cmds);
    }
    Some(match filter::on_key(d, cx, key)? {
        FilterKey::Move(action) => on_action(d, cx, action),
        FilterKey::Edited | FilterKey::Keep | FilterKey::Cancel | FilterKey::Unchanged => {
            Vec::new()
        }
    })
}

/// A key in the add dialog.
fn add_dialog_key(d: &mut DomainsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    let adding = d.adding(cx.requests);
    let Some(form) = d.add.as_mut() else {
        return Vec::new();
    };
    if adding {
        // Sending: the dialog is read-only until the answer arrives; Esc
        // closes it, and the answer then arrives as a notice.
        if key.code == KeyCode::Esc {
            d.add = None;
        }
        return Vec::new();
    }
    match form.handle_key(key) {
        FormEvent::Cancel => {
            d.add = None;
            Vec::new()
        }
        FormEvent::Submit => {
            form.clear_errors();
            let name = form.value("domain");
            if form.check_required() {
                add_domain(d, cx, &name)
            } else {
                Vec::new()
            }
        }
        FormEvent::Edited | FormEvent::Ignored => Vec::new(),
    }
}

/// Pasted text goes to the open dialog, or to a focused filter.
pub(super) fn on_paste(d: &mut DomainsModel, cx: &Ctx<'_>, text: &str) {
    if let Some(form) = d.add.as_mut() {
        form.paste(text);
    } else if let Some(f) = d.query_mut().filter(|f| f.focused) {
        f.paste(text);
        let view = d.view;
        filter::reselect(d, cx, view, None);
        sync_watches(d, cx);
    }
}

/// A key action in Domains: the open dialog takes it first, then the view shown.
pub(super) fn on_action(d: &mut DomainsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let mut cmds = match d.view {
        View::Domains => list_action(d, cx, action),
        View::DomainDetail => detail_action(d, cx, action),
        View::Senders => senders_action(d, cx, action),
        View::SenderDetail => sender_detail_action(d, cx, action),
    };
    sync_watches(d, cx);
    cmds.extend(super::dns::ensure(d, cx));
    cmds
}

/// Moves a table's selection; `false` when `action` is not a move.
pub(super) fn nav(t: &mut TableState, action: Action, viewport: usize) -> bool {
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

/// A key on the domain list.
fn list_action(d: &mut DomainsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = list_viewport(d, cx);
    if nav(&mut d.table, action, vp) {
        return Vec::new();
    }
    let selected = d.selected_domain().map(|d| d.id.clone());
    match action {
        Action::Open => {
            if let Some(id) = selected {
                open_domain(d, cx, &id);
            }
            Vec::new()
        }
        Action::Verify => selected.map(|id| verify(cx, &id)).unwrap_or_default(),
        Action::AddDomain => {
            open_add_dialog(d, cx);
            Vec::new()
        }
        Action::ToggleSenders => {
            d.view = View::Senders;
            load_senders(d, cx, false)
        }
        Action::Refresh => {
            if d.domains.loaded {
                live_refresh(cx)
            } else {
                on_enter(d, cx)
            }
        }
        Action::Filter => {
            filter::open(d, cx);
            Vec::new()
        }
        Action::Back => {
            filter::clear(d, cx);
            Vec::new()
        }
        other => {
            not_here(cx, other);
            Vec::new()
        }
    }
}

/// Says why a key of the pane does nothing in the view shown.
fn not_here(cx: &mut Ctx<'_>, action: Action) {
    let key = |a| cx.keymap.key_label(a);
    let why = match action {
        Action::CopyValue | Action::CopyRecord => format!(
            "{} copies from a DNS record: open a domain's records first ({})",
            key(action),
            key(Action::Open)
        ),
        Action::SenderType => format!(
            "{} filters the senders by type: {} shows the senders",
            key(Action::SenderType),
            key(Action::ToggleSenders)
        ),
        Action::Verify => format!(
            "{} verifies a sending domain: {} shows the domains",
            key(Action::Verify),
            key(Action::ToggleSenders)
        ),
        _ => return,
    };
    cx.notify(Level::Info, "not here", &why);
}

/// Opens a domain on its DNS records (unfiltered: another domain's
/// filter would hide rows for no reason).
pub(super) fn open_domain(d: &mut DomainsModel, cx: &Ctx<'_>, id: &str) {
    if d.open.as_deref() != Some(id) {
        d.record_query = filter::ListFilter::default();
    }
    d.open = Some(id.to_owned());
    d.view = View::DomainDetail;
    let n = d.open_domain().map_or(0, |dom| d.shown_records(dom).len());
    let vp = records_viewport(d, cx);
    d.records = TableState::default();
    d.records.set_len(n, vp);
}

/// A key on a domain's records.
fn detail_action(d: &mut DomainsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = records_viewport(d, cx);
    if nav(&mut d.records, action, vp) {
        return Vec::new();
    }
    let Some(domain) = d.open_domain().cloned() else {
        d.view = View::Domains;
        return Vec::new();
    };
    match action {
        Action::Back if filter::clear(d, cx) => Vec::new(),
        Action::Back => {
            d.view = View::Domains;
            d.open = None;
            Vec::new()
        }
        Action::Verify => verify(cx, &domain.id),
        Action::CopyRecord => {
            copy::open(d, cx);
            Vec::new()
        }
        Action::CopyValue => match copy::selected_record(d) {
            Some(rec) => copy::copy(cx, CopyChoice::Value.text(&rec)),
            None => {
                cx.notify(
                    Level::Info,
                    "nothing to copy",
                    "this domain has no DNS records yet",
                );
                Vec::new()
            }
        },
        Action::Refresh => {
            if d.watches.contains_key(&domain.id) {
                // The watch's poll asks DNS too.
                check_now(d, cx, &domain.id)
            } else {
                let mut cmds = live_refresh(cx);
                cmds.extend(super::dns::recheck(d, cx, &domain.id));
                cmds
            }
        }
        Action::AddDomain => {
            open_add_dialog(d, cx);
            Vec::new()
        }
        Action::ToggleSenders => {
            d.view = View::Senders;
            load_senders(d, cx, false)
        }
        Action::Filter => {
            filter::open(d, cx);
            Vec::new()
        }
        other => {
            not_here(cx, other);
            Vec::new()
        }
    }
}

/// A key on the sender list.
fn senders_action(d: &mut DomainsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = senders_viewport(d, cx);
    if nav(&mut d.senders_table, action, vp) {
        return Vec::new();
    }
    match action {
        Action::Back if filter::clear(d, cx) => Vec::new(),
        Action::ToggleSenders | Action::Back => {
            d.view = View::Domains;
            on_enter(d, cx)
        }
        Action::SenderType => {
            let keep = d.selected_sender().map(|s| s.id.clone());
            d.sender_filter = d.sender_filter.next();
            filter::reselect(d, cx, View::Senders, keep);
            Vec::new()
        }
        Action::Filter => {
            filter::open(d, cx);
            Vec::new()
        }
        Action::Open => {
            let Some(sender) = d.selected_sender().map(|s| s.id.clone()) else {
                return Vec::new();
            };
            if d.open_sender.as_deref() != Some(sender.as_str()) {
                // Another sender's filter would hide days for no reason.
                d.schedule_query = filter::ListFilter::default();
            }
            d.open_sender = Some(sender.clone());
            d.view = View::SenderDetail;
            d.schedule = Loaded::default();
            load_schedule(cx, sender)
        }
        Action::Refresh => load_senders(d, cx, true),
        Action::AddDomain => {
            open_add_dialog(d, cx);
            Vec::new()
        }
        other => {
            not_here(cx, other);
            Vec::new()
        }
    }
}

/// A key on a sender's schedule.
fn sender_detail_action(d: &mut DomainsModel, cx: &mut Ctx<'_>, action: Action) -> Vec<Cmd> {
    let vp = schedule_viewport(d, cx);
    if let Some(tree) = d.schedule.items.first_mut() {
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
            d.view = View::Senders;
            d.open_sender = None;
            // Its schedule is no longer wanted.
            cx.requests
                .forget::<DomainsModel>(|p| matches!(p, Purpose::Schedule(_)));
            Vec::new()
        }
        Action::ToggleSenders => {
            d.view = View::Domains;
            on_enter(d, cx)
        }
        Action::Refresh => {
            let Some(sender) = d.open_sender.clone() else {
                return Vec::new();
            };
            load_schedule(cx, sender)
        }
        Action::AddDomain => {
            open_add_dialog(d, cx);
            Vec::new()
        }
        Action::Filter => {
            filter::open(d, cx);
            Vec::new()
        }
        other => {
            not_here(cx, other);
            Vec::new()
        }
    }
}

/// Mouse on the pane body: click selects (a click on the selected row
/// opens it), the wheel scrolls.
pub(super) fn on_mouse(d: &mut DomainsModel, cx: &mut Ctx<'_>, ev: MouseEvent) -> Vec<Cmd> {
    if d.add.is_some() || d.copy_menu.is_some() {
        return Vec::new();
    }
    let view = d.view;
    let areas = areas_for(d, cx, view);
    let vp = areas.viewport();
    let cmds = match ev.kind {
        MouseEventKind::ScrollDown => {
            cx.redraw();
            on_action(d, cx, Action::Down)
        }
        MouseEventKind::ScrollUp => {
            cx.redraw();
            on_action(d, cx, Action::Up)
        }
        MouseEventKind::Down(MouseButton::Left) => {
            let Some(line) = areas.row_at(ev.column, ev.row) else {
                return Vec::new();
            };
            let table = match view {
                View::Domains => &mut d.table,
                View::DomainDetail => &mut d.records,
                View::Senders => &mut d.senders_table,
                View::SenderDetail => match d.schedule.items.first_mut() {
                    Some(t) => &mut t.table,
                    None => return Vec::new(),
                },
            };
            let Some(row) = table.row_at(line) else {
                return Vec::new();
            };
            let again = table.selected == row;
            table.select(row, vp);
            cx.redraw();
            if again && view != View::DomainDetail {
                on_action(d, cx, Action::Open)
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    sync_watches(d, cx);
    cmds
}
