//! Serde types of every resource, request and response of the contract.
//!
//! One type per concept, shared by the client and the demo service. Decoding
//! is lenient (see [`lenient`]): unknown fields are ignored, unknown enum
//! values kept as `Other(String)`, missing optional parts defaulted, and
//! everything the contract leaves "not shown" kept as `serde_json::Value`.

pub mod lenient;

pub mod campaigns;
pub mod context;
pub mod errors;
pub mod lead_finder;
pub mod senders;
pub mod threads;

pub use campaigns::*;
pub use context::*;
pub use errors::*;
pub use lead_finder::*;
pub use senders::*;
pub use threads::*;
