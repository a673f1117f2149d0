//! Opening the files Outpost reads and writes (state, cache, lock, log,
//! config, CSV import, export): only regular files, or symlinks to one. A
//! named pipe, a device, a socket or a directory where a file should be is
//! refused with an error saying what is there, before anything blocks on
//! it: opening a named pipe for reading waits for a writer forever (one at
//! `state.json` hung the dashboard blank at start), and reading a device
//! such as `/dev/zero` never ends.
//!
//! Files are opened with `O_NONBLOCK` so the open itself cannot wait, then
//! checked on the open descriptor (no gap between the check and the use).
//! On a regular file Linux and the BSDs ignore `O_NONBLOCK`, so reads and
//! writes behave as usual once the check passed.

use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// What stands at a path, said for an error ("a named pipe").
fn kind_name(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "something else"
    }
}

/// Something other than a regular file stands where one should be; the
/// text says what (the caller names the path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("it is {0}, not a regular file")]
pub(crate) struct NotRegular(&'static str);

/// The error for something other than a regular file, as an `io::Error`
/// (so every opener keeps its one error type).
pub(crate) fn not_regular(t: FileType) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, NotRegular(kind_name(t)))
}

/// Whether an error is the refusal of [`not_regular`].
pub(crate) fn is_not_regular(e: &io::Error) -> bool {
    matches!(e.get_ref(), Some(r) if r.is::<NotRegular>())
}

/// Opens with `opts` without blocking, then refuses anything but a regular
/// file (a symlink is followed).
fn open_checked(path: &Path, opts: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(path)?;
    let t = file.metadata()?.file_type();
    if t.is_file() {
        Ok(file)
    } else {
        Err(not_regular(t))
    }
}

/// Opens a regular file for reading.
pub(crate) fn open_read(path: &Path) -> io::Result<File> {
    open_checked(path, OpenOptions::new().read(true))
}

/// Reads a regular file whole.
pub(crate) fn read(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = open_read(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads a regular file whole as UTF-8 text.
pub(crate) fn read_to_string(path: &Path) -> io::Result<String> {
    let mut file = open_read(path)?;
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

/// Opens (creating it with mode 0600: it may hold customer data) a regular
/// file to append to: the log.
pub(crate) fn open_append_private(path: &Path) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    open_checked(path, &mut opts)
}

/// Creates (or empties) a regular file to write, with mode 0600: the temp
/// file of an atomic write, a probe.
pub(crate) fn create_private(path: &Path) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    open_checked(path, &mut opts)
}

/// Opens (creating it with mode 0600) a regular file to hold a lock on.
pub(crate) fn open_lock(path: &Path) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.create(true).read(true).write(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    open_checked(path, &mut opts)
}

/// Checks a path about to be replaced (a write lands by renaming a temp
/// file onto it): nothing there yet, or a regular file (a symlink is
/// followed). Replacing a named pipe or a device someone put there is
/// refused, as is writing through one.
pub(crate) fn check_target(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) => Err(not_regular(m.file_type())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Test helpers: a named pipe made with the system's `mkfifo`.
#[cfg(any(test, feature = "test-util"))]
pub(crate) mod testing {
    use std::path::Path;

    /// Makes a named pipe at `path`; `false` when `mkfifo` is missing or
    /// fails (the caller skips what needs one).
    pub fn mkfifo(path: &Path) -> bool {
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_pipe_is_refused_at_once_and_a_regular_file_or_its_symlink_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        assert!(testing::mkfifo(&fifo), "mkfifo works here");
        // No writer ever comes: a plain open would wait forever.
        let err = read(&fifo).unwrap_err();
        assert!(is_not_regular(&err), "{err}");
        assert_eq!(
            err.to_string(),
            "it is a named pipe (FIFO), not a regular file"
        );
        let err = read_to_string(&fifo).unwrap_err();
        assert!(is_not_regular(&err), "{err}");
        // Writing: the log's open and a replaced target refuse it too.
        // With no reader, opening a pipe to write without blocking fails
        // on its own (ENXIO): refused either way, never hung.
        assert!(open_append_private(&fifo).is_err());
        assert!(is_not_regular(&check_target(&fifo).unwrap_err()));
        assert!(is_not_regular(&open_lock(&fifo).unwrap_err()));

        let file = dir.path().join("file");
        std::fs::write(&file, b"text").unwrap();
        assert_eq!(read(&file).unwrap(), b"text");
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert_eq!(read_to_string(&link).unwrap(), "text");
            assert_eq!(check_target(&link).unwrap(), ());
            let to_pipe = dir.path().join("to-pipe");
            std::os::unix::fs::symlink(&fifo, &to_pipe).unwrap();
            assert!(is_not_regular(&read(&to_pipe).unwrap_err()));
        }
        assert_eq!(check_target(&dir.path().join("none")).unwrap(), ());
        let err = read(dir.path()).unwrap_err();
        assert!(err.to_string().contains("a directory"), "{err}");
        #[cfg(target_os = "linux")]
        {
            let err = read(Path::new("/dev/zero")).unwrap_err();
            assert_eq!(
                err.to_string(),
                "it is a character device, not a regular file"
            );
        }
    }
}
