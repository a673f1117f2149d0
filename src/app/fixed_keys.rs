//! The fixed keys of dialogs and text boxes: the ones that are not keymap
//! actions, because a text box takes letters (Enter, Esc, Tab, Ctrl-S …),
//! or because a question answers with letters (`y`, `n`). Defined once
//! here, so a handler and the footer or note that names its keys read the
//! same constant and cannot drift. Keys that *are* actions (moving,
//! reloading) are read from the keymap and named with `Keymap::key_label`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::Confirm;
use super::pane::Answer;

/// A key a dialog handles itself, with the text that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedKey {
    /// The key pressed, with the modifier below.
    pub code: KeyCode,
    /// Whether Ctrl is held.
    pub ctrl: bool,
    /// How footers and notes name it.
    pub label: &'static str,
}

impl FixedKey {
    /// Whether `key` is this key (a letter in either case, so Caps Lock does
    /// not change an answer; never with Alt, which no fixed key uses).
    pub fn matches(&self, key: &KeyEvent) -> bool {
        if key.modifiers.contains(KeyModifiers::ALT) {
            return false;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match (self.code, key.code) {
            // Terminals send Shift-Tab as either.
            (KeyCode::BackTab, KeyCode::Tab) => key.modifiers.contains(KeyModifiers::SHIFT),
            (KeyCode::Tab, KeyCode::Tab) => !ctrl && !key.modifiers.contains(KeyModifiers::SHIFT),
            (KeyCode::Char(a), KeyCode::Char(b)) => ctrl == self.ctrl && a.eq_ignore_ascii_case(&b),
            (a, b) => a == b && ctrl == self.ctrl,
        }
    }
}

/// A key without modifiers.
pub(crate) const fn plain(code: KeyCode, label: &'static str) -> FixedKey {
    FixedKey {
        code,
        ctrl: false,
        label,
    }
}

/// A letter with Ctrl.
pub(crate) const fn ctrl(c: char, label: &'static str) -> FixedKey {
    FixedKey {
        code: KeyCode::Char(c),
        ctrl: true,
        label,
    }
}

/// Does what the dialog is for (apply, add, export, pick, close a report,
/// run a command line); yes to a question.
pub(crate) const CONFIRM: FixedKey = plain(KeyCode::Enter, "Enter");
/// Closes the dialog (typed text is kept where the dialog says so).
pub(crate) const CLOSE: FixedKey = plain(KeyCode::Esc, "Esc");
/// Sends from anywhere in a dialog with text boxes (as in the forms).
pub(crate) const SUBMIT: FixedKey = ctrl('s', "Ctrl-S");
/// Next box (completes in the command line).
pub(crate) const NEXT: FixedKey = plain(KeyCode::Tab, "Tab");
/// Completes a typed file path (a second Tab, with nothing left to add,
/// lists the candidates in the field's help line).
pub(crate) const COMPLETE: FixedKey = plain(KeyCode::Tab, "Tab");
/// Previous box.
pub(crate) const PREV: FixedKey = plain(KeyCode::BackTab, "Shift-Tab");
/// Moves in a list that has a text box above it (letters are typed); an
/// older command in the command line.
pub(crate) const LIST_UP: FixedKey = plain(KeyCode::Up, "↑");
/// Moves in a list that has a text box above it (letters are typed); a
/// newer command in the command line.
pub(crate) const LIST_DOWN: FixedKey = plain(KeyCode::Down, "↓");
/// Page up in such a list.
pub(crate) const LIST_PAGE_UP: FixedKey = plain(KeyCode::PageUp, "PgUp");
/// Page down in such a list.
pub(crate) const LIST_PAGE_DOWN: FixedKey = plain(KeyCode::PageDown, "PgDn");
/// Yes to a question.
pub(crate) const YES: FixedKey = plain(KeyCode::Char('y'), "y");
/// A question's labelled no (or, without one, a way out).
pub(crate) const NO: FixedKey = plain(KeyCode::Char('n'), "n");
/// Dismisses a question, like Esc (the quit key pressed twice stays safe).
pub(crate) const DISMISS: FixedKey = plain(KeyCode::Char('q'), "q");

/// One key a question takes: what it answers and, when the footer names
/// it, what the footer says it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct QuestionKey {
    /// The key that answers, and how hints name it.
    pub key: FixedKey,
    /// What it answers.
    pub answer: Answer,
    /// The footer's words for it; `None`: taken but not named.
    pub shown: Option<String>,
}

/// Every key question `c` takes, in footer order: the handler answers by
/// this list and the footer names its `shown` keys, so they agree.
/// `y`/Enter yes; `n` the labelled no when there is one; Esc, `q` (and
/// `n` without a label) dismiss: nothing is chosen, nothing typed
/// discarded.
pub(crate) fn question(c: &Confirm) -> Vec<QuestionKey> {
    let key = |key, answer, shown: Option<&str>| QuestionKey {
        key,
        answer,
        shown: shown.map(str::to_owned),
    };
    let mut out = vec![
        key(YES, Answer::Yes, Some(&c.yes)),
        key(CONFIRM, Answer::Yes, None),
    ];
    match &c.no {
        Some(no) => out.extend([
            key(NO, Answer::No, Some(no)),
            key(CLOSE, Answer::Dismissed, Some("cancel")),
        ]),
        None => out.extend([
            key(NO, Answer::Dismissed, Some("cancel")),
            key(CLOSE, Answer::Dismissed, None),
        ]),
    }
    out.push(key(DISMISS, Answer::Dismissed, None));
    out
}

/// A footer's text for keys with what they do, `Enter runs · Esc closes ·
/// ↑/↓ history`: neighbours that do the same thing share one entry.
pub(crate) fn footer(keys: &[(FixedKey, &str)]) -> String {
    let mut parts: Vec<(String, &str)> = Vec::new();
    for (k, does) in keys {
        match parts.last_mut() {
            Some((labels, last)) if last == does => {
                labels.push('/');
                labels.push_str(k.label);
            }
            _ => parts.push((k.label.to_owned(), does)),
        }
    }
    parts
        .iter()
        .map(|(k, does)| format!("{k} {does}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_match_with_and_without_ctrl() {
        let k = |code, m| KeyEvent::new(code, m);
        let add_row = ctrl('n', "Ctrl-N");
        assert!(add_row.matches(&k(KeyCode::Char('n'), KeyModifiers::CONTROL)));
        assert!(!add_row.matches(&k(KeyCode::Char('n'), KeyModifiers::NONE)));
        assert!(!CONFIRM.matches(&k(KeyCode::Enter, KeyModifiers::CONTROL)));
        assert!(CONFIRM.matches(&k(KeyCode::Enter, KeyModifiers::NONE)));
        assert!(PREV.matches(&k(KeyCode::BackTab, KeyModifiers::SHIFT)));
        assert!(PREV.matches(&k(KeyCode::Tab, KeyModifiers::SHIFT)));
        assert!(!NEXT.matches(&k(KeyCode::Tab, KeyModifiers::SHIFT)));
        assert!(YES.matches(&k(KeyCode::Char('Y'), KeyModifiers::SHIFT)));
        assert!(!YES.matches(&k(KeyCode::Char('y'), KeyModifiers::CONTROL)));
        assert!(
            !YES.matches(&k(KeyCode::Char('y'), KeyModifiers::ALT)),
            "Alt-y is not y"
        );
        assert!(!CONFIRM.matches(&k(KeyCode::Enter, KeyModifiers::ALT)));
    }

    #[test]
    fn a_footer_joins_keys_that_do_the_same() {
        assert_eq!(
            footer(&[
                (CONFIRM, "runs"),
                (CLOSE, "closes"),
                (LIST_UP, "history"),
                (LIST_DOWN, "history"),
            ]),
            "Enter runs · Esc closes · ↑/↓ history"
        );
    }
}
