//! The typed client of the whole service contract: one async method per
//! operation, grouped by area, over one HTTP core.

pub(crate) mod bound;
pub(crate) mod client;
pub(crate) mod error;
pub(crate) mod gate;
pub(crate) mod key;
pub mod model;
pub(crate) mod ops;
pub(crate) mod proxy;
pub(crate) mod read_only;
pub(crate) mod retry;
pub(crate) mod service_clock;
pub(crate) mod tls;
pub(crate) mod validate;

mod campaigns;
mod context;
mod lead_finder;
mod senders;
mod threads;

pub use client::{Client, ClientConfig};
pub use error::{ApiError, ServiceError};
pub(crate) use gate::{ConnState, RateLimits, RouteFamily};
pub(crate) use key::{ApiKey, KeyError};
pub(crate) use ops::{Answer, ApiReply, ApiRequest, ResultRows, Settle};

/// Percent-encodes one path segment (an id), so a pasted id can never change
/// the route. Refuses ids the URL parser would remove or resolve (empty, `.`,
/// `..`: `/api/campaigns/../leads` is `/api/leads`).
pub(crate) fn seg(id: &str) -> Result<String, ApiError> {
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
