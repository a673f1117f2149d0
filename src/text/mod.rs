//! Text below both `app` and `ui`: the sanitizer that makes service text
//! inert ([`sanitize::DisplayText`]), formatting of times and counts, and
//! wrapping by display width. Imports neither `app` nor `ui`.

pub(crate) mod format;
pub(crate) mod sanitize;
pub(crate) mod time_column;
pub(crate) mod wrap;
