//! End-to-end tests: the real binary in a pty (read through `vt100`), and
//! the command line.

mod campaigns;
mod chaos;
mod cli;
mod domains;
mod inbox;
mod input;
mod leads;
mod profile;
mod support;
mod trust;
