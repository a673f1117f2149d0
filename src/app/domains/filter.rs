//! The `/` filter of every view of the pane — the domains, the senders, a
//! domain's records and a sender's schedule: narrowed live as it is typed,
//! matched without regard to case against what the rows show. While it has
//! the focus every printable key is text, so a letter never acts as a
//! command. Enter keeps it; Esc puts back the text from before `/` (so a
//! new filter is cleared), as every pane's filter does.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::watch::sync_watches;
use super::{DomainsModel, View, areas_for};
use crate::app::ctx::Ctx;
use crate::app::keymap::{Action, Scope};

/// A list's filter: the text typed, and whether it has the focus.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    /// The text box (one line).
    pub input: TextArea<'static>,
    /// Keys go to the text box.
    pub focused: bool,
    /// The text before typing began (Esc puts it back).
    before: String,
}

/// What a key did to a focused filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterKey {
    /// The text changed.
    Edited,
    /// Keep the filter and give the keys back to the list.
    Keep,
    /// Put back the text from before typing began and close it.
    Cancel,
    /// Move the list's selection (arrows and pages work while typing).
    Move(Action),
    /// Nothing changed (a cursor move, or a key a one-line box ignores).
    Unchanged,
}

impl ListFilter {
    /// The text typed.
    pub fn text(&self) -> String {
        self.input.lines().join(" ")
    }

    /// Whether the filter bar is shown: it has the focus, or text.
    pub fn shown(&self) -> bool {
        self.focused || !self.text().trim().is_empty()
    }

    /// What rows must contain, lower-cased; `None` admits every row.
    pub fn needle(&self) -> Option<String> {
        let text = self.text();
        let text = text.trim();
        (!text.is_empty()).then(|| text.to_lowercase())
    }

    /// The cursor's column in the text.
    pub fn cursor(&self) -> usize {
        self.input.cursor().1
    }

    /// Empties the text box.
    pub fn clear(&mut self) {
        self.input = TextArea::default();
    }

    /// Gives the box the focus, the cursor at the end of the text (Esc
    /// will put back the text it holds now).
    pub fn focus(&mut self) {
        self.before = self.text();
        self.focused = true;
        self.input.move_cursor(ratatui_textarea::CursorMove::End);
    }

    /// What Esc puts back while typing: the filter kept before `/`.
    pub fn before(&self) -> &str {
        &self.before
    }

    /// Puts back the text from before typing began and leaves the box.
    pub fn cancel(&mut self) {
        let mut input = TextArea::new(vec![std::mem::take(&mut self.before)]);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        self.input = input;
        self.focused = false;
    }

    /// Inserts pasted text, on one line.
    pub fn paste(&mut self, text: &str) {
        self.input.insert_str(text.replace(['\r', '\n', '\t'], " "));
    }

    /// Handles a key while focused. Printable keys are always text;
    /// `action` is what the keymap binds the key to, honoured only for keys
    /// that cannot be text (so a remapped Enter or Esc works here too).
    pub fn key(&mut self, key: KeyEvent, action: Option<Action>) -> FilterKey {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match key.code {
            KeyCode::Esc => return FilterKey::Cancel,
            KeyCode::Enter | KeyCode::Char('\r' | '\n') => return FilterKey::Keep,
            // The text box would start a second line.
            KeyCode::Char('m') if ctrl => return FilterKey::Keep,
            KeyCode::Up => return FilterKey::Move(Action::Up),
            KeyCode::Down => return FilterKey::Move(Action::Down),
            KeyCode::PageUp => return FilterKey::Move(Action::PageUp),
            KeyCode::PageDown => return FilterKey::Move(Action::PageDown),
            KeyCode::Tab | KeyCode::BackTab => return FilterKey::Unchanged,
            KeyCode::Char(_) if !ctrl && !alt => {}
            _ => match action {
                Some(Action::Open) => return FilterKey::Keep,
                Some(Action::Back) => return FilterKey::Cancel,
                _ => {}
            },
        }
        // Readline keys, as in every text box.
        if crate::app::form::edit_key(&mut self.input, key) {
            FilterKey::Edited
        } else {
            FilterKey::Unchanged
        }
    }
}

/// Whether any of `fields` contains `needle` (already lower-cased).
pub(super) fn admits(needle: Option<&str>, fields: &[&str]) -> bool {
    needle.is_none_or(|n| fields.iter().any(|f| f.to_lowercase().contains(n)))
}

/// `/` on the pane: focuses the shown view's filter.
pub(super) fn open(d: &mut DomainsModel, cx: &Ctx<'_>) {
    let keep = selected_id(d);
    let view = d.view;
    if let Some(f) = d.query_mut() {
        f.focus();
        // The bar takes a line: the selection must stay in the window.
        refilter(d, cx, view, keep);
    }
}

/// Clears the shown list's filter; `false` when it had none.
pub(super) fn clear(d: &mut DomainsModel, cx: &Ctx<'_>) -> bool {
    let keep = selected_id(d);
    let view = d.view;
    let Some(f) = d.query_mut() else {
        return false;
    };
    if !f.shown() {
        return false;
    }
    f.clear();
    f.focused = false;
    refilter(d, cx, view, keep);
    sync_watches(d, cx);
    true
}

/// A key for the shown list's filter; `None` when it does not have the
/// focus.
pub(super) fn on_key(d: &mut DomainsModel, cx: &Ctx<'_>, key: KeyEvent) -> Option<FilterKey> {
    let action = cx.keymap.action(Scope::Domains, &key);
    let keep = selected_id(d);
    let view = d.view;
    let f = d.query_mut().filter(|f| f.focused)?;
    let what = f.key(key, action);
    match what {
        FilterKey::Keep => f.focused = false,
        FilterKey::Cancel => f.cancel(),
        FilterKey::Edited | FilterKey::Move(_) | FilterKey::Unchanged => {}
    }
    if matches!(
        what,
        FilterKey::Keep | FilterKey::Cancel | FilterKey::Edited
    ) {
        refilter(d, cx, view, keep);
        sync_watches(d, cx);
    }
    Some(what)
}

/// The id of the selected row of the shown list.
fn selected_id(d: &DomainsModel) -> Option<String> {
    match d.view {
        View::Domains => d.selected_domain().map(|s| s.id.clone()),
        View::Senders => d.selected_sender().map(|s| s.id.clone()),
        View::DomainDetail => d.selected_record().map(record_key),
        View::SenderDetail => None,
    }
}

/// A record's identity among its domain's (records have no id).
fn record_key(r: &crate::api::model::DnsRecord) -> String {
    format!("{}\n{}\n{}", r.kind, r.name, r.value)
}

/// After the rows of `view`'s list changed: the table learns their number,
/// and the row `keep` stays selected when it is still listed (else the
/// selection keeps its place, within the rows). Returns whether `keep` was
/// found.
pub(super) fn reselect(
    d: &mut DomainsModel,
    cx: &Ctx<'_>,
    view: View,
    keep: Option<String>,
) -> bool {
    let vp = areas_for(d, cx, view).viewport();
    if view == View::Domains {
        // Every change of the domain list comes through here.
        d.recount();
    }
    if view == View::SenderDetail {
        // The schedule is a tree: it keeps its own lines and selection.
        let needle = d.schedule_query.needle();
        if let Some(tree) = d.schedule.items.first_mut() {
            tree.set_filter(needle.as_deref(), vp);
        }
        return true;
    }
    let ids: Vec<String> = match view {
        View::Domains => d.shown_domains().iter().map(|x| x.id.clone()).collect(),
        View::DomainDetail => d
            .open_domain()
            .map(|dom| d.shown_records(dom).iter().map(|r| record_key(r)).collect())
            .unwrap_or_default(),
        View::Senders | View::SenderDetail => {
            d.filtered_senders().iter().map(|x| x.id.clone()).collect()
        }
    };
    let at = keep.and_then(|k| ids.iter().position(|id| *id == k));
    let table = match view {
        View::Domains => &mut d.table,
        View::DomainDetail => &mut d.records,
        View::Senders | View::SenderDetail => &mut d.senders_table,
    };
    table.set_len(ids.len(), vp);
    if let Some(i) = at {
        table.select(i, vp);
    }
    at.is_some()
}

/// After the filter text changed: like [`reselect`], but the first match
/// is selected when the selected row no longer matches.
fn refilter(d: &mut DomainsModel, cx: &Ctx<'_>, view: View, keep: Option<String>) {
    if !reselect(d, cx, view, keep) {
        let vp = areas_for(d, cx, view).viewport();
        match view {
            View::Domains => d.table.top(vp),
            View::DomainDetail => d.records.top(vp),
            View::Senders | View::SenderDetail => d.senders_table.top(vp),
        }
    }
}
