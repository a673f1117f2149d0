//! A small editor for an array of strings: one text box per item, with
//! keys to add, remove and reorder items. The selected item is always
//! being typed into, so editing an item is just typing; nothing is a
//! letter command while it has focus.
//!
//! Keys: ↑/↓ select (leaving the list at either end), Enter adds an item
//! below, Ctrl-D removes the item (Backspace on an empty item too),
//! Alt-↑/Alt-↓ (or Shift-↑/Shift-↓) move the item up or down.
//!
//! Items the user did not touch go back to the service exactly as they
//! came, even when their text was made inert for the screen.

use std::collections::{HashMap, VecDeque};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea};

use super::text::{edit_key, line_input};
use crate::app::fixed_keys::{self, FixedKey};
use crate::text::sanitize::DisplayText;
use crate::text::sanitize::Pasted;

/// Adds an item below the selected one.
pub(crate) const ADD: FixedKey = fixed_keys::CONFIRM;
/// Removes the selected item.
pub(crate) const REMOVE: FixedKey = fixed_keys::ctrl('d', "Ctrl-D");
/// How the keys that move an item are named (Alt or Shift with ↑/↓).
pub(crate) const MOVE_LABEL: &str = "Alt-↑/↓";

/// What a key did to the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKey {
    /// Handled inside the list.
    Edited,
    /// Focus leaves the list: forward (↓ on the last item) or back.
    Leave {
        /// Towards the next field.
        forward: bool,
    },
}

/// An editable list of strings.
#[derive(Debug, Clone, Default)]
pub struct ListEditor {
    /// One single-line text box per item.
    pub items: Vec<TextArea<'static>>,
    /// The item being edited.
    pub selected: usize,
    /// Item texts as first shown.
    initial: Vec<String>,
    /// The service's items, for the ones left untouched.
    raw: Vec<String>,
}

impl ListEditor {
    /// An editor over the service's `items`.
    pub fn new(items: &[String]) -> ListEditor {
        let initial: Vec<String> = items
            .iter()
            .map(|s| DisplayText::inline(s).into_string())
            .collect();
        ListEditor {
            items: initial.iter().map(|s| line_input(s)).collect(),
            selected: 0,
            initial,
            raw: items.to_vec(),
        }
    }

    /// The item texts as shown.
    pub fn texts(&self) -> Vec<String> {
        self.items.iter().map(|t| t.lines().join(" ")).collect()
    }

    /// Replaces the items (restoring a draft).
    pub fn set_texts(&mut self, texts: &[String]) {
        self.items = texts.iter().map(|s| line_input(s)).collect();
        self.selected = 0;
    }

    /// Whether the items differ from how they were first shown.
    pub fn is_dirty(&self) -> bool {
        self.texts() != self.initial
    }

    /// The array to send: trimmed items, empty ones dropped; an item whose
    /// text is as first shown is sent as the service had it.
    pub fn value(&self) -> Vec<String> {
        // Where each first-shown text was, in order, so a repeated text
        // maps to its copies one by one (and a long list stays linear).
        let mut at: HashMap<&str, VecDeque<usize>> = HashMap::new();
        for (i, s) in self.initial.iter().enumerate() {
            at.entry(s.as_str()).or_default().push_back(i);
        }
        self.items
            .iter()
            .filter_map(|t| {
                let text = t.lines().join(" ");
                if let Some(i) = at.get_mut(text.as_str()).and_then(VecDeque::pop_front) {
                    return self.raw.get(i).cloned();
                }
                let t = text.trim();
                (!t.is_empty()).then(|| t.to_owned())
            })
            .collect()
    }

    /// Handles a key (Tab, Esc and Ctrl-S never reach here).
    pub fn key(&mut self, key: KeyEvent) -> ListKey {
        let moving = key
            .modifiers
            .intersects(KeyModifiers::ALT | KeyModifiers::SHIFT);
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Up if moving => self.move_item(false),
            KeyCode::Down if moving => self.move_item(true),
            KeyCode::Up if self.selected == 0 => return ListKey::Leave { forward: false },
            KeyCode::Down if self.selected + 1 >= self.items.len() => {
                return ListKey::Leave { forward: true };
            }
            KeyCode::Up => self.selected -= 1,
            KeyCode::Down => self.selected += 1,
            _ if ADD.matches(&key) => self.insert_below(""),
            _ if REMOVE.matches(&key) => self.remove(false),
            KeyCode::Backspace if self.current_is_empty() && !self.items.is_empty() => {
                self.remove(true);
            }
            _ => {
                if self.items.is_empty() {
                    if !matches!(key.code, KeyCode::Char(_)) || ctrl {
                        return ListKey::Edited;
                    }
                    self.items.push(line_input(""));
                    self.selected = 0;
                }
                if let Some(item) = self.items.get_mut(self.selected) {
                    edit_key(item, key);
                }
            }
        }
        ListKey::Edited
    }

    /// Pasted text: the first line goes into the item, every further line
    /// becomes an item of its own below it. Returns the notice of a paste
    /// (or a line of it) not taken whole.
    pub fn paste(&mut self, text: &str) -> Option<String> {
        let whole = Pasted::block(text);
        let mut notice = whole.notice();
        let lines: Vec<String> = whole
            .text
            .split('\n')
            .map(|line| {
                let p = Pasted::inline(line);
                notice = notice.take().or_else(|| p.notice());
                p.text
            })
            .collect();
        let mut rest = lines.into_iter();
        let Some(first) = rest.next() else {
            return notice;
        };
        if self.items.is_empty() {
            self.items.push(line_input(""));
            self.selected = 0;
        }
        if let Some(item) = self.items.get_mut(self.selected) {
            item.insert_str(first);
        }
        for line in rest.filter(|l| !l.trim().is_empty()) {
            self.insert_below(&line);
        }
        notice
    }

    fn current_is_empty(&self) -> bool {
        self.items
            .get(self.selected)
            .is_none_or(|t| t.lines().iter().all(String::is_empty))
    }

    fn insert_below(&mut self, text: &str) {
        let at = if self.items.is_empty() {
            0
        } else {
            self.selected + 1
        };
        self.items.insert(at, line_input(text));
        self.selected = at;
        if let Some(item) = self.items.get_mut(at) {
            item.move_cursor(CursorMove::End);
        }
    }

    /// Removes the selected item; the one above is selected next when
    /// `back` (Backspace), else the one that took its place (Ctrl-D).
    fn remove(&mut self, back: bool) {
        if self.selected < self.items.len() {
            self.items.remove(self.selected);
        }
        if back {
            self.selected = self.selected.saturating_sub(1);
        }
        self.selected = self.selected.min(self.items.len().saturating_sub(1));
    }

    fn move_item(&mut self, down: bool) {
        let i = self.selected;
        let j = if down {
            i + 1
        } else {
            match i.checked_sub(1) {
                Some(j) => j,
                None => return,
            }
        };
        if j < self.items.len() {
            self.items.swap(i, j);
            self.selected = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(l: &mut ListEditor, s: &str) {
        for c in s.chars() {
            l.key(k(KeyCode::Char(c)));
        }
    }

    fn list(items: &[&str]) -> ListEditor {
        let items: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
        ListEditor::new(&items)
    }

    #[test]
    fn add_edit_remove_and_reorder() {
        let mut l = list(&["a", "b", "c"]);
        assert!(!l.is_dirty());
        l.key(k(KeyCode::Enter));
        typed(&mut l, "new");
        assert_eq!(l.texts(), ["a", "new", "b", "c"], "Enter adds below");
        l.key(KeyEvent::new(KeyCode::Down, KeyModifiers::ALT));
        assert_eq!(l.texts(), ["a", "b", "new", "c"], "Alt-↓ moves it down");
        l.key(KeyEvent::new(KeyCode::Up, KeyModifiers::SHIFT));
        l.key(KeyEvent::new(KeyCode::Up, KeyModifiers::SHIFT));
        assert_eq!(l.texts(), ["new", "a", "b", "c"], "Shift-↑ moves it up");
        l.key(KeyEvent::new(KeyCode::Up, KeyModifiers::ALT));
        assert_eq!(l.selected, 0, "the top item stays on top");
        l.key(k(KeyCode::Down));
        l.key(KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL));
        assert_eq!(l.texts(), ["new", "b", "c"], "Ctrl-D removes the item");
        typed(&mut l, "x");
        assert_eq!(
            l.texts(),
            ["new", "bx", "c"],
            "typing edits the selected item"
        );
        assert!(l.is_dirty());
        assert_eq!(l.value(), ["new", "bx", "c"]);
    }

    #[test]
    fn the_ends_leave_the_list() {
        let mut l = list(&["a", "b"]);
        assert_eq!(l.key(k(KeyCode::Up)), ListKey::Leave { forward: false });
        assert_eq!(l.key(k(KeyCode::Down)), ListKey::Edited);
        assert_eq!(l.key(k(KeyCode::Down)), ListKey::Leave { forward: true });
        let mut empty = list(&[]);
        assert_eq!(
            empty.key(k(KeyCode::Down)),
            ListKey::Leave { forward: true }
        );
    }

    #[test]
    fn an_empty_list_starts_an_item_when_typed_into() {
        let mut l = list(&[]);
        typed(&mut l, "first");
        assert_eq!(l.value(), ["first"]);
        l.key(k(KeyCode::Enter));
        assert_eq!(l.value(), ["first"], "an empty item is not sent");
        l.key(k(KeyCode::Backspace));
        assert_eq!(l.texts(), ["first"], "Backspace removes the empty item");
    }

    #[test]
    fn untouched_items_keep_the_services_text() {
        let raw = vec!["tab\there".to_owned(), "esc\u{1b}[31m".to_owned()];
        let mut l = ListEditor::new(&raw);
        assert_eq!(l.texts(), ["tab here", "esc"], "shown inert");
        assert_eq!(l.value(), raw, "sent as it came");
        l.key(KeyEvent::new(KeyCode::Down, KeyModifiers::ALT));
        assert_eq!(
            l.value(),
            [raw[1].clone(), raw[0].clone()],
            "reordered, intact"
        );
        l.key(k(KeyCode::Char('!')));
        assert_eq!(l.value(), [raw[1].clone(), "tab here!".to_owned()]);
    }

    #[test]
    fn pasted_lines_become_items() {
        let mut l = list(&["a"]);
        l.items[0].move_cursor(CursorMove::End);
        l.paste("1\r\n2\n\n3\u{1b}[2J");
        assert_eq!(l.texts(), ["a1", "2", "3"]);
    }
}
