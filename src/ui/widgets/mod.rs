//! Shared widgets.

pub(crate) mod dialog;
pub(crate) mod filter_line;
pub(crate) mod form;
pub(crate) mod id_tag;
pub(crate) mod json_tree;
pub(crate) mod picker;
pub(crate) mod placeholder;
pub(crate) mod progress;
pub(crate) mod spark;
pub(crate) mod stale;
pub(crate) mod toast;
pub(crate) mod vtable;
pub(crate) mod wrapped;
