//! UI tests: snapshots of every screen, rendering safety, property tests
//! over random messages, and the real loop on a test backend.

// Test helpers (terminals, servers, fixtures) fail loudly: a broken fixture
// is a failed test, not an error to handle, and clippy's test allowance
// covers only `#[test]` functions themselves.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod campaigns;
mod chrome;
mod domains;
mod inbox;
mod leads;
mod profile;
mod props;
mod runtime;
mod screenshots;
mod support;
mod svg;
