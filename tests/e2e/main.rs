//! End-to-end tests: the real binary in a pty (read through `vt100`), and
//! the command line.

#![expect(
    clippy::expect_used,
    reason = "Test helpers (terminals, servers, fixtures) fail loudly: a broken fixture is a failed test, not an error to handle, and clippy's test allowance covers only `#[test]` functions themselves."
)]

mod campaigns;
mod chaos;
mod cli;
mod domains;
mod inbox;
mod input;
mod leads;
mod profile;
mod support;
mod survive;
mod trust;
