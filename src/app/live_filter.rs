//! A live text filter over the rows a list holds (the campaigns, a
//! roster, generated messages…): `/` opens it, what is typed narrows the rows at once (every
//! letter goes into it, none acts as a command), Enter keeps it, Esc puts
//! back the text from before (so a new filter is cleared).

use crossterm::event::KeyEvent;
use ratatui_textarea::{CursorMove, TextArea};

use super::fixed_keys;
use crate::app::form::edit_key;

/// A live text filter.
#[derive(Debug, Clone, Default)]
pub struct LiveFilter {
    /// The text that filters (applied as it is typed).
    pub text: String,
    /// The box, while the filter is typed.
    pub input: Option<TextArea<'static>>,
    /// The text before typing began (Esc puts it back).
    before: String,
}

impl LiveFilter {
    /// Starts typing, from the text applied now.
    pub fn open(&mut self) {
        let mut input = TextArea::new(vec![self.text.clone()]);
        input.move_cursor(CursorMove::End);
        self.before = self.text.clone();
        self.input = Some(input);
    }

    /// Whether the filter is being typed.
    pub fn typing(&self) -> bool {
        self.input.is_some()
    }

    /// Whether anything filters.
    pub fn active(&self) -> bool {
        !self.text.trim().is_empty()
    }

    /// The text to look for: trimmed, lowercase.
    pub fn lower(&self) -> String {
        self.text.trim().to_lowercase()
    }

    /// Drops the filter.
    pub fn clear(&mut self) {
        self.text.clear();
        self.input = None;
    }

    /// A key while typing (readline keys as in every text box); whether the
    /// text changed.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let Some(input) = self.input.as_mut() else {
            return false;
        };
        let old = self.text.clone();
        if fixed_keys::CONFIRM.matches(&key) {
            self.input = None;
        } else if fixed_keys::CLOSE.matches(&key) {
            self.text = std::mem::take(&mut self.before);
            self.input = None;
        } else {
            edit_key(input, key);
            self.text = input.lines().join(" ");
        }
        self.text != old
    }

    /// Pasted text goes into the box (on one line).
    pub fn paste(&mut self, text: &str) -> bool {
        let Some(input) = self.input.as_mut() else {
            return false;
        };
        input.insert_str(text.replace(['\n', '\r'], " "));
        self.text = input.lines().join(" ");
        true
    }
}

/// Whether any of `fields` holds `needle` (already lowercase).
pub(crate) fn hit<'a>(needle: &str, fields: impl IntoIterator<Item = &'a str>) -> bool {
    needle.is_empty()
        || fields
            .into_iter()
            .any(|f| f.to_lowercase().contains(needle))
}
