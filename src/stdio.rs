//! Writing to stdout and stderr without panicking. `println!` and
//! `eprintln!` panic when the write fails, and after a hang-up (the
//! terminal window closed, the SSH session dropped) every write to the tty
//! fails with EIO: the dashboard's last line on the way out panicked, and
//! the panic hook's own line panicked again. Here a failed write is
//! dropped: there is no one left to read it. The crate denies the print
//! macros (clippy `print_stdout`, `print_stderr`) so none comes back.

use std::fmt;
use std::io::{self, Write};

/// Writes one line to stderr; a failure is ignored.
pub fn err_line(args: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// Writes text to stderr with no line end (a progress line); a failure is
/// ignored.
pub(crate) fn err_text(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args);
    let _ = err.flush();
}

/// Writes one line to stdout; a failure is ignored.
pub fn out_line(args: fmt::Arguments<'_>) {
    let _ = writeln!(io::stdout().lock(), "{args}");
}

/// `eprintln!` that never panics: a line on stderr, dropped when it cannot
/// be written.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::err_line(format_args!($($arg)*))
    };
}

/// `println!` that never panics: a line on stdout, dropped when it cannot
/// be written.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out_line(format_args!($($arg)*))
    };
}
