//! Views: pure functions of the model into a ratatui frame.

pub mod sanitize;
