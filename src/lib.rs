//! Outpost: a terminal dashboard for the outreach and lead-finding service.

pub mod api;
pub mod app;
pub mod check;
pub mod cli;
pub mod config;
pub mod demo;
pub mod dns;
pub mod geometry;
pub mod logging;
pub mod logic;
pub mod num;
pub mod runtime;
pub mod script;
pub mod store;
pub mod text;
pub mod ui;
