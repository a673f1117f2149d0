//! The fixed keys of the pane's dialogs: the ones that are not keymap
//! actions, because a text box in the dialog takes letters (Enter, Esc,
//! Tab, Ctrl-N …). Defined once here, so the handlers and the footers that
//! name them always agree. Keys that *are* actions (moving, reloading) are
//! read from the keymap and named with `Keymap::key_label`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key a dialog handles itself, with the text that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedKey {
    /// The key.
    pub code: KeyCode,
    /// Whether Ctrl is held.
    pub ctrl: bool,
    /// How footers and notes name it.
    pub label: &'static str,
}

impl FixedKey {
    /// Whether `key` is this key.
    pub fn matches(&self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match (self.code, key.code) {
            // Terminals send Shift-Tab as either.
            (KeyCode::BackTab, KeyCode::Tab) => key.modifiers.contains(KeyModifiers::SHIFT),
            (KeyCode::Tab, KeyCode::Tab) => !ctrl && !key.modifiers.contains(KeyModifiers::SHIFT),
            (KeyCode::Char(a), KeyCode::Char(b)) if self.ctrl => ctrl && a.eq_ignore_ascii_case(&b),
            (a, b) => a == b && ctrl == self.ctrl,
        }
    }
}

const fn plain(code: KeyCode, label: &'static str) -> FixedKey {
    FixedKey {
        code,
        ctrl: false,
        label,
    }
}

const fn ctrl(c: char, label: &'static str) -> FixedKey {
    FixedKey {
        code: KeyCode::Char(c),
        ctrl: true,
        label,
    }
}

/// Does what the dialog is for (apply, add, export, pick, close a report).
pub const CONFIRM: FixedKey = plain(KeyCode::Enter, "Enter");
/// Closes the dialog (typed text is kept where the dialog says so).
pub const CLOSE: FixedKey = plain(KeyCode::Esc, "Esc");
/// Sends from anywhere in a dialog with text boxes (as in the forms).
pub const SUBMIT: FixedKey = ctrl('s', "Ctrl-S");
/// Next box.
pub const NEXT: FixedKey = plain(KeyCode::Tab, "Tab");
/// Previous box.
pub const PREV: FixedKey = plain(KeyCode::BackTab, "Shift-Tab");
/// Adds a predicate row to the filter.
pub const ADD_ROW: FixedKey = ctrl('n', "Ctrl-N");
/// Removes the focused predicate row.
pub const REMOVE_ROW: FixedKey = ctrl('d', "Ctrl-D");
/// Moves in a list that has a text box above it (letters are typed).
pub const LIST_UP: FixedKey = plain(KeyCode::Up, "↑");
/// Moves in a list that has a text box above it (letters are typed).
pub const LIST_DOWN: FixedKey = plain(KeyCode::Down, "↓");
/// Page up in such a list.
pub const LIST_PAGE_UP: FixedKey = plain(KeyCode::PageUp, "PgUp");
/// Page down in such a list.
pub const LIST_PAGE_DOWN: FixedKey = plain(KeyCode::PageDown, "PgDn");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_match_with_and_without_ctrl() {
        let k = |code, m| KeyEvent::new(code, m);
        assert!(ADD_ROW.matches(&k(KeyCode::Char('n'), KeyModifiers::CONTROL)));
        assert!(!ADD_ROW.matches(&k(KeyCode::Char('n'), KeyModifiers::NONE)));
        assert!(!CONFIRM.matches(&k(KeyCode::Enter, KeyModifiers::CONTROL)));
        assert!(CONFIRM.matches(&k(KeyCode::Enter, KeyModifiers::NONE)));
        assert!(PREV.matches(&k(KeyCode::BackTab, KeyModifiers::SHIFT)));
        assert!(PREV.matches(&k(KeyCode::Tab, KeyModifiers::SHIFT)));
        assert!(!NEXT.matches(&k(KeyCode::Tab, KeyModifiers::SHIFT)));
    }
}
