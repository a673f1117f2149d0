//! Outpost: a terminal dashboard for the outreach and lead-finding service.

pub mod api;
pub mod demo;
