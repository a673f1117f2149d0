//! The fixed keys of the pane's dialogs: the shared ones (see
//! [`crate::app::fixed_keys`]) and the filter builder's own. Handlers and the
//! footers that name them read the same constants.

use crate::app::fixed_keys::ctrl;
pub(crate) use crate::app::fixed_keys::{CLOSE, COMPLETE, CONFIRM, FixedKey, NEXT, PREV, SUBMIT};

/// Adds a predicate row to the filter.
pub(crate) const ADD_ROW: FixedKey = ctrl('n', "Ctrl-N");
/// Removes the focused predicate row.
pub(crate) const REMOVE_ROW: FixedKey = ctrl('d', "Ctrl-D");
