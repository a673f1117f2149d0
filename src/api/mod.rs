//! The typed client of the whole service contract: one async method per
//! operation, grouped by area, over one HTTP core.

pub mod bound;
pub mod client;
pub mod error;
pub mod gate;
pub mod key;
pub mod model;
pub mod ops;
pub mod proxy;
pub mod read_only;
pub mod retry;
pub mod service_clock;
pub mod tls;
pub mod validate;

mod campaigns;
mod context;
mod lead_finder;
mod senders;
mod threads;

pub use client::{Client, ClientConfig};
pub use error::{ApiError, ServiceError};
pub use gate::{ConnState, RateGate, RateLimits, RouteFamily};
pub use key::{ApiKey, KeyError};
pub use ops::{Answer, ApiReply, ApiRequest, ResultRows, Settle};

/// Percent-encodes one path segment (an id), so a pasted id can never change
/// the route. Refuses ids the URL parser would remove or resolve (empty, `.`,
/// `..`: `/api/campaigns/../leads` is `/api/leads`).
pub fn seg(id: &str) -> Result<String, ApiError> {
    if matches!(id, "" | "." | "..") {
        return Err(ApiError::Invalid(vec![validate::FieldError::new(
            "id",
            format!("`{id}` is not an id"),
        )]));
    }
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Ok(out)
}
