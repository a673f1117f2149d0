//! The scripting commands against the demo service: every command, its
//! JSON shape and exit codes, the writes (campaign changes, search runs,
//! thread sends and replies) with their questions and lost answers, ids
//! named by prefix or name, `leads import`'s report, `domain watch`'s
//! exit codes, profile selection, and read-only mode proven by the demo
//! service's request log (the client, the commands, and the dashboard in a
//! pty with its write keys pressed).

#![expect(
    clippy::expect_used,
    reason = "Test code: a failed expectation is a failed test, with its message."
)]

mod changes;
mod commands;
mod import;
mod instant;
mod journal;
mod launch_preflight;
mod net;
mod profiles;
#[path = "../e2e/support.rs"]
mod pty;
mod read_only;
mod read_only_keys;
mod reads;
mod replies;
mod resolving;
mod runs;
mod support;
mod tls;
mod watch;
