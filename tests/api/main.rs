//! Acceptance tests of the typed API client: decoding of every resource and
//! envelope of the contract, serialization back to the contract's names, and
//! the HTTP behaviour against tiny servers on 127.0.0.1. One binary on
//! purpose: every file directly under `tests/` links the whole crate.

mod decode;
mod errors;
mod http;
mod props;
mod retry;
mod roundtrip;
mod support;
mod uncertain;
mod validation;
