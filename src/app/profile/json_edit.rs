//! The editor of `extra`: its JSON as text, checked after every edit (is
//! it JSON, and an object?) with the line and column of a mistake.
//!
//! The text is the service's object pretty-printed, with every character
//! the screen must not receive (bidi overrides, invisible characters)
//! written as a `\u` escape: the same JSON, inert on screen. Left
//! untouched, the service's object goes back exactly as it came.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;
use serde_json::{Map, Value};

use super::list_edit::ListKey;
use super::text::{block_input, content, edit_key};
use crate::app::json_tree::inert_json;
use crate::text::sanitize::Pasted;

/// Largest text checked after every edit; a larger one is checked when
/// the form is saved.
pub(crate) const LIVE_CHECK_MAX: usize = 256 * 1024;

/// What the last check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// A JSON object with this many keys.
    Valid(usize),
    /// Not JSON, or not an object: why, with the line and column.
    Invalid(String),
    /// Too large to check after every edit.
    Unchecked,
}

/// The JSON editor.
#[derive(Debug, Clone, Default)]
pub struct JsonEditor {
    /// The text.
    pub text: TextArea<'static>,
    /// The last check.
    pub check: Option<Check>,
    /// The object the last check parsed (when it was one).
    parsed: Option<Map<String, Value>>,
    initial: String,
    raw: Map<String, Value>,
}

impl JsonEditor {
    /// An editor over the service's object.
    pub fn new(raw: &Map<String, Value>) -> JsonEditor {
        let initial = inert_pretty(raw);
        let mut e = JsonEditor {
            text: block_input(&initial),
            check: None,
            parsed: None,
            initial,
            raw: raw.clone(),
        };
        e.recheck();
        e
    }

    /// The text.
    pub fn content(&self) -> String {
        content(&self.text)
    }

    /// Replaces the text (restoring a draft).
    pub fn set_text(&mut self, text: &str) {
        self.text = block_input(text);
        self.recheck();
    }

    /// Whether the text differs from how it was first shown.
    pub fn is_dirty(&self) -> bool {
        self.content() != self.initial
    }

    /// The object to send, or why the text is not one.
    pub fn value(&self) -> Result<Map<String, Value>, String> {
        let text = self.content();
        if text == self.initial {
            return Ok(self.raw.clone());
        }
        match &self.parsed {
            Some(map) => Ok(map.clone()),
            None => parse(&text),
        }
    }

    /// Handles a key (Tab, Esc and Ctrl-S never reach here): ↑ on the first
    /// line and ↓ on the last leave the editor; Enter keeps the indent.
    pub fn key(&mut self, key: KeyEvent) -> ListKey {
        let plain = key.modifiers == KeyModifiers::NONE;
        let before = self.text.cursor();
        match key.code {
            KeyCode::Enter if plain => {
                let line = self.text.lines().get(before.0).cloned().unwrap_or_default();
                let indent: String = line.chars().take_while(|c| *c == ' ').collect();
                self.text.insert_newline();
                self.text.insert_str(indent);
            }
            KeyCode::Up | KeyCode::Down if plain => {
                self.text.input(key);
                if self.text.cursor() == before {
                    return ListKey::Leave {
                        forward: key.code == KeyCode::Down,
                    };
                }
                return ListKey::Edited;
            }
            _ => {
                if !edit_key(&mut self.text, key) {
                    return ListKey::Edited;
                }
            }
        }
        self.recheck();
        ListKey::Edited
    }

    /// Inserts pasted text (made inert); returns the notice of a paste it
    /// did not take whole.
    pub fn paste(&mut self, text: &str) -> Option<String> {
        let p = Pasted::block(text);
        self.text.insert_str(&p.text);
        self.recheck();
        p.notice()
    }

    fn recheck(&mut self) {
        let text = self.content();
        self.parsed = None;
        self.check = Some(if text.len() > LIVE_CHECK_MAX {
            Check::Unchecked
        } else {
            match parse(&text) {
                Ok(map) => {
                    let n = map.len();
                    self.parsed = Some(map);
                    Check::Valid(n)
                }
                Err(e) => Check::Invalid(e),
            }
        });
    }
}

/// Parses the text as a JSON object; the error says where and why.
pub(crate) fn parse(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!(
            "must be a JSON object such as {{\"key\": \"value\"}}, not {}",
            kind(&other)
        )),
        Err(e) => {
            let full = e.to_string();
            let what = full
                .split_once(" at line ")
                .map_or(full.as_str(), |(w, _)| w);
            Err(format!("line {}, column {}: {what}", e.line(), e.column()))
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The object pretty-printed, with every character the screen must not
/// receive as it is written as a `\u` escape (they can only be inside
/// strings, so the JSON means the same).
pub(crate) fn inert_pretty(map: &Map<String, Value>) -> String {
    let pretty = serde_json::to_string_pretty(map).unwrap_or_else(|_| "{}".to_owned());
    pretty
        .split('\n')
        .map(inert_json)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: &Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn mistakes_are_located() {
        assert_eq!(
            parse("{\n  \"a\" 1\n}"),
            Err("line 2, column 7: expected `:`".into())
        );
        assert_eq!(
            parse("[1]"),
            Err("must be a JSON object such as {\"key\": \"value\"}, not an array".into())
        );
        assert_eq!(parse("{}"), Ok(Map::new()));
    }

    #[test]
    fn edits_are_checked_live_and_untouched_json_is_kept() {
        let raw = obj(&json!({"demo": true}));
        let mut e = JsonEditor::new(&raw);
        assert_eq!(e.check, Some(Check::Valid(1)));
        assert!(!e.is_dirty());
        assert_eq!(e.value(), Ok(raw.clone()));
        e.text.move_cursor(ratatui_textarea::CursorMove::Bottom);
        e.text.move_cursor(ratatui_textarea::CursorMove::Head);
        e.key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE));
        assert!(matches!(e.check, Some(Check::Invalid(_))), "{:?}", e.check);
        assert!(e.value().is_err());
        e.key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
        assert_eq!(e.check, Some(Check::Valid(1)));
    }

    #[test]
    fn unsafe_characters_become_escapes_of_the_same_json() {
        let raw = obj(&json!({"rtl": "a\u{202e}b", "plain": "café", "esc": "\u{1b}[31m"}));
        let text = inert_pretty(&raw);
        assert!(text.contains("a\\u202eb"), "{text}");
        assert!(text.contains("café"), "safe lines stay readable: {text}");
        assert!(text.contains("\\u001b[31m"), "{text}");
        assert_eq!(parse(&text), Ok(raw), "it is the same JSON");
    }

    #[test]
    fn enter_keeps_the_indent_and_the_ends_leave() {
        let mut e = JsonEditor::new(&obj(&json!({"a": 1})));
        assert_eq!(
            e.key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE)),
            ListKey::Leave { forward: false }
        );
        e.text.move_cursor(ratatui_textarea::CursorMove::Down);
        e.text.move_cursor(ratatui_textarea::CursorMove::End);
        e.key(KeyEvent::new(KeyCode::Char(','), KeyModifiers::NONE));
        e.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        for c in "\"b\": 2".chars() {
            e.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        assert_eq!(e.content(), "{\n  \"a\": 1,\n  \"b\": 2\n}");
        assert_eq!(e.check, Some(Check::Valid(2)));
    }
}
