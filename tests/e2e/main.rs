//! End-to-end tests: the real binary in a pty (read through `vt100`), and
//! the command line.

mod campaigns;
mod cli;
mod domains;
mod leads;
mod support;
