//! The `/` filter of an open thread: the loaded messages whose subject or
//! text contains what is typed, live as it is typed (while the input is
//! open letters go into it, never to the thread's keys). Only the loaded
//! messages are searched — the window holds at most a few pages — and the
//! title says so.

use crossterm::event::KeyEvent;

use super::InboxModel;
use super::messages::{MessageWindow, PAGE};
use crate::api::model::ThreadMessage;
use crate::app::Cmd;
use crate::app::ctx::Ctx;
use crate::app::live_filter::{LiveFilter, hit};
use crate::app::table::TableState;

/// The filter of the open thread's messages.
#[derive(Debug, Clone, Default)]
pub struct MessageFilter {
    /// The text (`/`, live; case-insensitive).
    pub needle: LiveFilter,
    /// Indices (in the thread) of the loaded messages that match.
    pub matches: Vec<usize>,
    /// Selection and scroll over `matches`.
    pub table: TableState,
}

impl MessageFilter {
    /// Whether a filter is in force (the table shows the matches).
    pub fn active(&self) -> bool {
        self.needle.active()
    }

    /// The index (in the thread) of the selected match.
    pub fn selected(&self) -> Option<usize> {
        if !self.active() {
            return None;
        }
        self.matches.get(self.table.selected).copied()
    }

    /// Finds the matches among the loaded messages again, keeping the
    /// selected one selected.
    pub fn refilter(&mut self, w: &MessageWindow, viewport: usize) {
        let keep = self.selected();
        let needle = self.needle.lower();
        self.matches = if needle.is_empty() {
            Vec::new()
        } else {
            w.pages
                .iter()
                .flat_map(|(p, rows)| {
                    rows.iter()
                        .enumerate()
                        .map(move |(i, msg)| (p.saturating_mul(PAGE).saturating_add(i), msg))
                })
                .filter(|(_, msg)| passes(msg, &needle))
                .map(|(i, _)| i)
                .collect()
        };
        self.table.set_len(self.matches.len(), viewport);
        if let Some(k) = keep
            && let Some(row) = self.matches.iter().position(|i| *i == k)
        {
            self.table.select(row, viewport);
        }
    }
}

/// Whether a message matches the (lowercase) needle: its subject, its text
/// or its direction.
fn passes(msg: &ThreadMessage, needle: &str) -> bool {
    hit(
        needle,
        [
            msg.subject.as_str(),
            super::html::readable(&msg.body_text).as_str(),
            msg.direction.as_str(),
        ],
    )
}

/// The message the reading pane shows: the selected match while filtering,
/// else the selected message.
pub(crate) fn selected_message(o: &super::OpenThread) -> Option<&ThreadMessage> {
    if o.filter.active() {
        o.filter.selected().and_then(|i| o.messages.row(i))
    } else {
        o.messages.selected()
    }
}

/// `/`: opens the input on the filter in force.
pub(crate) fn open(inbox: &mut InboxModel, cx: &Ctx<'_>) -> Vec<Cmd> {
    let Some(o) = inbox.open.as_mut() else {
        return Vec::new();
    };
    o.filter.needle.open();
    refilter(inbox, cx);
    Vec::new()
}

/// Finds the matches again at the current size.
pub(crate) fn refilter(inbox: &mut InboxModel, cx: &Ctx<'_>) {
    let vp = super::thread::viewport(inbox, cx);
    if let Some(o) = inbox.open.as_mut() {
        o.filter.refilter(&o.messages, vp);
        o.messages.table.clamp(vp);
    }
}

/// A key while the input is open ([`LiveFilter`]: Enter keeps the filter, Esc
/// puts back the one before); anything else edits it (readline keys) and
/// filters as it goes.
pub(crate) fn key(inbox: &mut InboxModel, cx: &Ctx<'_>, key: KeyEvent) -> Vec<Cmd> {
    typed(inbox, cx, |n| n.key(key))
}

/// Pasted text goes into the open input.
pub(crate) fn paste(inbox: &mut InboxModel, cx: &Ctx<'_>, text: &str) -> Vec<Cmd> {
    typed(inbox, cx, |n| n.paste(text))
}

/// Gives the input `what` was typed, then finds the matches again (from
/// the first when the text changed) at the size the input's opening or
/// closing gave.
fn typed(
    inbox: &mut InboxModel,
    cx: &Ctx<'_>,
    what: impl FnOnce(&mut LiveFilter) -> bool,
) -> Vec<Cmd> {
    let Some(o) = inbox.open.as_mut() else {
        return Vec::new();
    };
    let changed = what(&mut o.filter.needle);
    let vp = super::thread::viewport(inbox, cx);
    if let Some(o) = inbox.open.as_mut() {
        o.filter.refilter(&o.messages, vp);
        o.messages.table.clamp(vp);
        if changed {
            o.filter.table.top(vp);
            o.scroll = 0;
        }
    }
    Vec::new()
}

/// Clears the filter in force (Esc on the filtered thread).
pub(crate) fn clear(inbox: &mut InboxModel) {
    if let Some(o) = inbox.open.as_mut() {
        o.filter.needle.clear();
        o.filter.matches.clear();
        o.scroll = 0;
    }
}
