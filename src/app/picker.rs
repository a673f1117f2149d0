//! A list picked from by typing: the text typed narrows the rows (any of a
//! row's words holding it, in any case), ↑/↓ and PgUp/PgDn move, Enter
//! picks, Esc closes. The Lead Finder's field picker and the sequence
//! editor's variable picker are this one; each says what its rows are and
//! draws them with `ui::widgets::picker`.

use crossterm::event::KeyEvent;
use ratatui_textarea::{CursorMove, TextArea};

use super::fixed_keys::{CLOSE, CONFIRM, LIST_DOWN, LIST_PAGE_DOWN, LIST_PAGE_UP, LIST_UP};
use super::table::TableState;

/// Rows of a picker's list on screen (and its page).
pub(crate) const ROWS: usize = 8;

/// An open picker; `of` says what it picks for (a predicate row, nothing).
#[derive(Debug, Clone)]
pub struct Picker<T = ()> {
    /// What it picks for.
    pub of: T,
    /// Typed to narrow the list.
    pub query: TextArea<'static>,
    /// Selection over the matching rows.
    pub table: TableState,
}

/// What a key in a picker did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerKey {
    /// It stays open (moved, or the text changed).
    Keep,
    /// Close it, picking nothing.
    Close,
    /// Pick the match at this index of the matches (close it).
    Pick(usize),
}

impl<T> Picker<T> {
    /// A picker over `len` rows, on row `selected` when given.
    pub fn new(of: T, len: usize, selected: Option<usize>) -> Picker<T> {
        let mut query = TextArea::new(vec![String::new()]);
        query.move_cursor(CursorMove::End);
        let mut table = TableState::default();
        table.set_len(len, ROWS);
        if let Some(i) = selected {
            table.select(i, ROWS);
        }
        Picker { of, query, table }
    }

    /// The text typed, lowercased and trimmed.
    pub fn needle(&self) -> String {
        self.query.lines().join(" ").trim().to_lowercase()
    }

    /// Indices of the `items` one of whose `words` holds the text typed
    /// (every item while nothing is typed).
    pub fn matches<I>(&self, items: &[I], words: impl Fn(&I) -> Vec<&str>) -> Vec<usize> {
        let q = self.needle();
        items
            .iter()
            .enumerate()
            .filter(|(_, item)| {
                q.is_empty() || words(item).iter().any(|w| w.to_lowercase().contains(&q))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// A key: moves, picks or closes; anything else edits the text typed,
    /// and the list (`count`: how many rows match the text then) starts
    /// again at its top.
    pub fn key(&mut self, key: KeyEvent, count: impl Fn(&Self) -> usize) -> PickerKey {
        if CLOSE.matches(&key) {
            return PickerKey::Close;
        }
        if CONFIRM.matches(&key) {
            return PickerKey::Pick(self.table.selected);
        }
        if LIST_UP.matches(&key) {
            self.table.move_by(-1, ROWS);
        } else if LIST_DOWN.matches(&key) {
            self.table.move_by(1, ROWS);
        } else if LIST_PAGE_UP.matches(&key) {
            self.table.page_up(ROWS);
        } else if LIST_PAGE_DOWN.matches(&key) {
            self.table.page_down(ROWS);
        } else {
            super::form::edit_key(&mut self.query, key);
            let n = count(self);
            self.table = TableState::default();
            self.table.set_len(n, ROWS);
        }
        PickerKey::Keep
    }
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyModifiers};

    use super::*;

    fn press(p: &mut Picker, items: &[&str], code: KeyCode) -> PickerKey {
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        p.key(key, |p| p.matches(items, |s| vec![*s]).len())
    }

    #[test]
    fn typing_narrows_and_the_keys_move_over_the_matches() {
        let items = ["first_name", "last_name", "company", "custom_fields.plan"];
        let mut p = Picker::new((), items.len(), Some(2));
        assert_eq!(p.table.selected, 2);
        for c in "NAME".chars() {
            press(&mut p, &items, KeyCode::Char(c));
        }
        assert_eq!(p.matches(&items, |s| vec![*s]), vec![0, 1]);
        assert_eq!(p.table.selected, 0, "a new text starts at the top");
        press(&mut p, &items, KeyCode::Down);
        press(&mut p, &items, KeyCode::Down);
        assert_eq!(press(&mut p, &items, KeyCode::Enter), PickerKey::Pick(1));
        press(&mut p, &items, KeyCode::PageUp);
        assert_eq!(p.table.selected, 0);
        assert_eq!(press(&mut p, &items, KeyCode::Esc), PickerKey::Close);
    }
}
