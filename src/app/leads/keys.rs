//! The fixed keys of the pane's dialogs: the shared ones (see
//! [`crate::app::keys`]) and the filter builder's own. Handlers and the
//! footers that name them read the same constants.

use crate::app::keys::ctrl;
pub use crate::app::keys::{
    CLOSE, CONFIRM, FixedKey, LIST_DOWN, LIST_PAGE_DOWN, LIST_PAGE_UP, LIST_UP, NEXT, PREV, SUBMIT,
};

/// Adds a predicate row to the filter.
pub const ADD_ROW: FixedKey = ctrl('n', "Ctrl-N");
/// Removes the focused predicate row.
pub const REMOVE_ROW: FixedKey = ctrl('d', "Ctrl-D");
