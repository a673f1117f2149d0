//! UI tests: snapshots of every screen, rendering safety, property tests
//! over random messages, and the real loop on a test backend.

#![expect(
    clippy::expect_used,
    reason = "Test helpers (terminals, servers, fixtures) fail loudly: a broken fixture is a failed test, not an error to handle, and clippy's test allowance covers only `#[test]` functions themselves."
)]

mod advice;
mod campaigns;
mod campaigns_preflight;
mod chrome;
mod domains;
mod inbox;
mod journal;
mod leads;
mod profile;
mod props;
mod runtime;
mod screenshots;
mod support;
mod svg;
