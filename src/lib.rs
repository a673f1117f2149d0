//! Outpost: a terminal dashboard for the outreach and lead-finding service.

// A print macro panics when its write fails (a hung-up terminal): every
// line goes through `errln!`/`outln!` (module `stdio`) instead.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod api;
pub mod app;
pub mod check;
pub mod cli;
pub mod config;
pub mod demo;
pub mod dns;
pub mod files;
pub mod geometry;
pub mod journal;
pub mod logging;
pub mod logic;
pub mod num;
pub mod runtime;
pub mod script;
pub mod stdio;
pub mod store;
pub mod text;
pub mod ui;
