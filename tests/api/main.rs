//! Acceptance tests of the typed API client: decoding of every resource and
//! envelope of the contract, serialization back to the contract's names, and
//! the HTTP behaviour against tiny servers on 127.0.0.1. One binary on
//! purpose: every file directly under `tests/` links the whole crate.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "Test helpers (servers, fixtures, clients) fail loudly: a broken fixture is a failed test, not an error to handle, and clippy's test allowance covers only `#[test]` functions themselves."
)]

mod bounds;
mod clock;
mod decode;
mod errors;
mod http;
mod net;
mod ops;
mod props;
mod retry;
mod roundtrip;
mod support;
mod uncertain;
mod validation;
