//! The fixed keys of the pane's dialogs, editor and filters: the ones that
//! are not keymap actions because a text box beside them takes letters
//! (Enter, Esc, Tab, Ctrl-S …), or because they act only inside the
//! sequence editor's step list or the import's mapping. Defined once
//! here — the shared [`FixedKey`]s of `app::fixed_keys`, plus the pane's own —
//! so the handlers and the footers that name them always agree. Keys that
//! *are* actions (moving, reloading) are read from the keymap and named
//! with `Keymap::key_label`.

use crossterm::event::KeyCode;

pub(crate) use crate::app::fixed_keys::{
    CLOSE, COMPLETE, CONFIRM, FixedKey, NEXT, PREV, SUBMIT, YES,
};
use crate::app::fixed_keys::{ctrl, plain};

/// Adds a step after the selected one (in the step list).
pub(crate) const ADD_STEP: FixedKey = plain(KeyCode::Char('a'), "a");
/// Removes the selected step (in the step list).
pub(crate) const REMOVE_STEP: FixedKey = plain(KeyCode::Char('x'), "x");
/// Opens the variable picker (in a subject or a body).
pub(crate) const INSERT_VARIABLE: FixedKey = ctrl('t', "Ctrl-T");
/// Gives the selected column of the import's mapping the next field (as
/// Enter does).
pub(crate) const NEXT_FIELD: FixedKey = plain(KeyCode::Char(' '), "Space");
