//! Shared widgets.

pub mod dialog;
pub mod filter_line;
pub mod form;
pub mod json_tree;
pub mod picker;
pub mod placeholder;
pub mod progress;
pub mod spark;
pub mod stale;
pub mod toast;
pub mod vtable;
pub mod wrapped;
