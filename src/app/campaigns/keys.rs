//! The fixed keys of the pane's dialogs, editor and filters: the ones that
//! are not keymap actions because a text box beside them takes letters
//! (Enter, Esc, Tab, Ctrl-S …), or because they act only inside the
//! sequence editor's step list. Defined once here — the shared
//! [`FixedKey`]s of `app::keys`, plus the pane's own — so the handlers
//! and the footers that name them always agree. Keys that *are* actions
//! (moving, reloading) are read from the keymap and named with
//! `Keymap::key_label`.

use crossterm::event::KeyCode;

pub use crate::app::keys::{CLOSE, CONFIRM, FixedKey, NEXT, PREV, SUBMIT};

/// Adds a step after the selected one (in the step list).
pub const ADD_STEP: FixedKey = FixedKey {
    code: KeyCode::Char('a'),
    ctrl: false,
    label: "a",
};
/// Removes the selected step (in the step list).
pub const REMOVE_STEP: FixedKey = FixedKey {
    code: KeyCode::Char('x'),
    ctrl: false,
    label: "x",
};
/// Opens the variable picker (in a subject or a body).
pub const INSERT_VARIABLE: FixedKey = FixedKey {
    code: KeyCode::Char('t'),
    ctrl: true,
    label: "Ctrl-T",
};
/// Shows the preview for the next lead of the roster.
pub const NEXT_LEAD: FixedKey = FixedKey {
    code: KeyCode::Char('l'),
    ctrl: true,
    label: "Ctrl-L",
};
