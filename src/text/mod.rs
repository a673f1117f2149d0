//! Text below both `app` and `ui`: the sanitizer that makes service text
//! inert ([`sanitize::DisplayText`]), formatting of times and counts, and
//! wrapping by display width. Imports neither `app` nor `ui`.

pub mod format;
pub mod sanitize;
pub mod time_column;
pub mod wrap;
