//! UI tests: snapshots of every screen, rendering safety, property tests
//! over random messages, and the real loop on a test backend.

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
