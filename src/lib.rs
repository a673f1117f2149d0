//! Outpost: a terminal dashboard for the outreach and lead-finding service.
//!
//! The crate's internals are `pub(crate)`: the binary reaches them through
//! [`entry`], the integration tests and benches through `testkit`.

// A print macro panics when its write fails (a hung-up terminal): every
// line goes through `errln!`/`outln!` (module `stdio`) instead.
#![warn(clippy::print_stdout, clippy::print_stderr)]
// An item that nothing outside its module can name is `pub(crate)`, so the
// compiler can report the ones no one uses.
#![warn(unreachable_pub)]

mod api;
mod app;
mod check;
mod cli;
mod config;
mod demo;
mod dns;
mod files;
mod geometry;
mod journal;
mod logging;
mod logic;
mod num;
mod runtime;
mod script;
mod stdio;
mod store;
mod text;
mod ui;

#[doc(hidden)]
pub mod testkit;

// The `errln!`/`outln!` macros expand in the binary too: they call these.
#[doc(hidden)]
pub use stdio::{err_line, out_line};

/// What `src/main.rs` calls, and nothing else: the command line, the config,
/// and the three front ends (dashboard, `outpost serve`, `check`/scripts).
pub mod entry {
    pub use crate::check::run as check;
    pub use crate::cli::{Cli, Command, ServeArgs};
    pub use crate::config::{Config, Overrides, Paths, load as load_config};
    pub use crate::demo::{DEMO_KEY, OTHER_KEY, spawn_with as spawn_demo};
    pub use crate::runtime::launch;
    pub use crate::runtime::signals::wait_for_shutdown;
    pub use crate::script::exit::Exit;
    pub use crate::script::{parse_cli, run as run_script};
    pub use crate::text::sanitize::inline as sanitize_inline;
}
