//! Text boxes of the profile form: built from service text made inert
//! first (a text box draws what it holds as it is), with the readline keys
//! operators expect, and pasted text made inert on the way in.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{CursorMove, TextArea, WrapMode};

use crate::text::sanitize;

/// A one-line text box holding `text`, the cursor at its end.
pub(crate) fn line_input(text: &str) -> TextArea<'static> {
    let mut ta = TextArea::new(vec![text.to_owned()]);
    ta.move_cursor(CursorMove::End);
    ta
}

/// A wrapped multi-line text box holding `text`, the cursor at its start.
pub(crate) fn block_input(text: &str) -> TextArea<'static> {
    let mut ta = TextArea::new(text.split('\n').map(str::to_owned).collect());
    ta.set_wrap_mode(WrapMode::WordOrGlyph);
    ta
}

/// The text of a text box, lines joined with `\n`.
pub(crate) fn content(ta: &TextArea<'static>) -> String {
    ta.lines().join("\n")
}

/// A key for a text box: the readline keys of every text field
/// (`Ctrl-U` to the start of the line, `Ctrl-_` undo, …).
pub(crate) use crate::app::form::edit_key;

/// Whether a key types into a text box (a character without Ctrl or Alt):
/// such a key never acts as a command there.
pub(crate) fn types(key: &KeyEvent) -> bool {
    matches!(key.code, KeyCode::Char(_))
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// The user's own text for a one-line box (a draft restored): made inert,
/// on one line, whole.
pub(crate) fn inert_inline(text: &str) -> String {
    sanitize::typed(text, false)
}

/// The user's own text for a multi-line box: made inert, line breaks
/// kept, whole.
pub(crate) fn inert_block(text: &str) -> String {
    sanitize::typed(text, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readline_keys_work() {
        let mut ta = line_input("hello world");
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert!(edit_key(&mut ta, ctrl('w')), "Ctrl-W deletes a word");
        assert_eq!(content(&ta), "hello ");
        edit_key(&mut ta, ctrl('a'));
        edit_key(&mut ta, ctrl('k'));
        assert_eq!(content(&ta), "", "Ctrl-A then Ctrl-K clears");
        let mut ta = line_input("abc");
        assert!(edit_key(&mut ta, ctrl('u')), "Ctrl-U deletes to the start");
        assert_eq!(content(&ta), "");
    }

    #[test]
    fn the_users_text_is_made_inert_but_kept_whole() {
        assert_eq!(inert_inline("a\nb\u{1b}]52;c;x\u{7}"), "a b");
        assert_eq!(inert_block("a\r\nb\u{202e}c"), "a\nbc");
        let long = "pk_live_abcdefghijkl ".repeat(200);
        assert_eq!(inert_inline(&long), long, "not cut, not masked");
    }
}
