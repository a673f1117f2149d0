//! End-to-end tests: the real binary in a pty (read through `vt100`), and
//! the command line.

// Test helpers (terminals, servers, fixtures) fail loudly: a broken fixture
// is a failed test, not an error to handle, and clippy's test allowance
// covers only `#[test]` functions themselves.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod campaigns;
mod chaos;
mod cli;
mod domains;
mod inbox;
mod input;
mod leads;
mod profile;
mod support;
mod trust;
