//! Integration tests of the embedded demo service: every operation driven
//! through `api::Client` (and raw HTTP where the client would refuse to send)
//! against the in-process service on 127.0.0.1.
//!
//! One test binary on purpose: every file under `tests/` is a binary that
//! links the whole crate.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "Test helpers (servers, fixtures, clients) fail loudly: a broken fixture is a failed test, not an error to handle, and clippy's test allowance covers only `#[test]` functions themselves."
)]

mod common;

mod auth;
mod campaigns;
mod context;
mod domains;
mod hostile;
mod inbox;
mod journal;
mod lead_finder;
mod limits;
mod preflight;
mod senders;
mod threads;
