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
use crate::app::form::FormEvent;
use crate::app::keymap::Action;
use crate::app::table::TableState;
use crate::app::toast::Level;
use crate::app::{Cmd, Model};

/// Keys for a focused text box (the add dialog, or a list's `/` filter);
/// `None` when none has the focus, so the keymap decides.
pub(super) fn on_text_key(m: &mut Model, key: KeyEvent) -> Option<Vec<Cmd>> {
    if m.panes.domains.add.is_some() {
        return Some(add_dialog_key(m, key));
    }
    if let Some(cmds) = copy::on_key(m, key) {
        return Some(cmds);
    }
    Some(match filter::on_key(m, key)? {
        FilterKey::Move(action) => on_action(m, action),
        FilterKey::Edited | FilterKey::Keep | FilterKey::Cancel | FilterKey::Unchanged => {
            Vec::new()
        }
    })
}

/// A key in the add dialog.
fn add_dialog_key(m: &mut Model, key: KeyEvent) -> Vec<Cmd> {
    let adding = m.panes.domains.adding(m);
    let Some(form) = m.panes.domains.add.as_mut() else {
        return Vec::new();
    };
    if adding {
        // Sending: the dialog is read-only until the answer arrives; Esc
        // closes it, and the answer then arrives as a notice.
        if key.code == KeyCode::Esc {
            m.panes.domains.add = None;
        }
        return Vec::new();
    }
    match form.handle_key(key) {
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
    }
}

/// Pasted text goes to the open dialog, or to a focused filter.
pub(super) fn on_paste(m: &mut Model, text: &str) -> Vec<Cmd> {
    if let Some(form) = m.panes.domains.add.as_mut() {
        form.paste(text);
    } else if let Some(f) = m.panes.domains.query_mut().filter(|f| f.focused) {
        f.paste(text);
        let view = m.panes.domains.view;
        filter::reselect(m, view, None);
        sync_watches(m);
    }
    Vec::new()
}

/// A key action on the pane.
pub(super) fn on_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let mut cmds = match m.panes.domains.view {
        View::Domains => list_action(m, action),
        View::DomainDetail => detail_action(m, action),
        View::Senders => senders_action(m, action),
        View::SenderDetail => sender_detail_action(m, action),
    };
    sync_watches(m);
    cmds.extend(super::dns::ensure(m));
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
fn list_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = list_viewport(m);
    if nav(&mut m.panes.domains.table, action, vp) {
        return Vec::new();
    }
    let selected = m.panes.domains.selected_domain().map(|d| d.id.clone());
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
        Action::Filter => {
            filter::open(m);
            Vec::new()
        }
        Action::Back => {
            filter::clear(m);
            Vec::new()
        }
        other => {
            not_here(m, other);
            Vec::new()
        }
    }
}

/// Says why a key of the pane does nothing in the view shown.
fn not_here(m: &mut Model, action: Action) {
    let key = |a| m.keymap.key_label(a);
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
    m.notify(Level::Info, "not here", &why);
}

/// Opens a domain on its DNS records (unfiltered: another domain's
/// filter would hide rows for no reason).
pub(super) fn open_domain(m: &mut Model, id: &str) {
    let d = &mut m.panes.domains;
    if d.open.as_deref() != Some(id) {
        d.record_query = filter::ListFilter::default();
    }
    d.open = Some(id.to_owned());
    d.view = View::DomainDetail;
    let n = d.open_domain().map_or(0, |dom| d.shown_records(dom).len());
    let vp = records_viewport(m);
    m.panes.domains.records = TableState::default();
    m.panes.domains.records.set_len(n, vp);
}

/// A key on a domain's records.
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
        Action::Back if filter::clear(m) => Vec::new(),
        Action::Back => {
            m.panes.domains.view = View::Domains;
            m.panes.domains.open = None;
            Vec::new()
        }
        Action::Verify => verify(m, &domain.id),
        Action::CopyRecord => {
            copy::open(m);
            Vec::new()
        }
        Action::CopyValue => match copy::selected_record(m) {
            Some(rec) => copy::copy(m, CopyChoice::Value.text(&rec)),
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
                // The watch's poll asks DNS too.
                check_now(m, &domain.id)
            } else {
                let mut cmds = live_refresh(m);
                cmds.extend(super::dns::recheck(m, &domain.id));
                cmds
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
        Action::Filter => {
            filter::open(m);
            Vec::new()
        }
        other => {
            not_here(m, other);
            Vec::new()
        }
    }
}

/// A key on the sender list.
fn senders_action(m: &mut Model, action: Action) -> Vec<Cmd> {
    let vp = senders_viewport(m);
    if nav(&mut m.panes.domains.senders_table, action, vp) {
        return Vec::new();
    }
    match action {
        Action::Back if filter::clear(m) => Vec::new(),
        Action::ToggleSenders | Action::Back => {
            m.panes.domains.view = View::Domains;
            on_enter(m)
        }
        Action::SenderType => {
            let keep = m.panes.domains.selected_sender().map(|s| s.id.clone());
            m.panes.domains.sender_filter = m.panes.domains.sender_filter.next();
            filter::reselect(m, View::Senders, keep);
            Vec::new()
        }
        Action::Filter => {
            filter::open(m);
            Vec::new()
        }
        Action::Open => {
            let Some(sender) = m.panes.domains.selected_sender().map(|s| s.id.clone()) else {
                return Vec::new();
            };
            if m.panes.domains.open_sender.as_deref() != Some(sender.as_str()) {
                // Another sender's filter would hide days for no reason.
                m.panes.domains.schedule_query = filter::ListFilter::default();
            }
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
        other => {
            not_here(m, other);
            Vec::new()
        }
    }
}

/// A key on a sender's schedule.
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
        Action::AddDomain => {
            open_add_dialog(m);
            Vec::new()
        }
        Action::Filter => {
            filter::open(m);
            Vec::new()
        }
        other => {
            not_here(m, other);
            Vec::new()
        }
    }
}

/// Mouse on the pane body: click selects (a click on the selected row
/// opens it), the wheel scrolls.
pub(super) fn on_mouse(m: &mut Model, ev: MouseEvent) -> Vec<Cmd> {
    if m.panes.domains.add.is_some() || m.panes.domains.copy_menu.is_some() {
        return Vec::new();
    }
    let view = m.panes.domains.view;
    let areas = areas_for(m, view);
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
