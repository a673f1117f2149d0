//! Reading a CSV file in chunks, as an effect: `Cmd::ReadCsv` asks the
//! runtime for at most `max_rows` records from a byte position, and
//! `Msg::CsvRead` brings them back with the position of the next chunk. The
//! file is never held whole: a reader asks for the next chunk only when it
//! is done with the last one (back-pressure), and can read any chunk again
//! from its position (resuming after a failure).

use std::path::PathBuf;

/// Where a chunk starts in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CsvPos {
    /// Byte offset of the first record.
    pub byte: u64,
    /// Line number of that record (1-based, as an editor shows it).
    pub line: u64,
}

impl CsvPos {
    /// The start of the file.
    pub const START: CsvPos = CsvPos { byte: 0, line: 1 };
}

/// What to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvRead {
    /// The file.
    pub path: PathBuf,
    /// Where to start (a UTF-8 byte-order mark at the start is skipped).
    pub start: CsvPos,
    /// The first record is the header (only at the start of the file).
    pub header: bool,
    /// Records to read at most.
    pub max_rows: usize,
    /// Bytes of records to read at most (a chunk ends after the record that
    /// reaches it, so very wide rows cannot make a chunk huge).
    pub max_bytes: usize,
}

/// One record of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvRow {
    /// Its line number in the file (1-based; the header is line 1).
    pub line: u64,
    /// Its fields, or why the row cannot be read (e.g. not UTF-8).
    pub fields: Result<Vec<String>, String>,
}

/// A chunk read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CsvChunk {
    /// The header's fields, when asked for.
    pub header: Option<Vec<String>>,
    /// The records, in file order.
    pub rows: Vec<CsvRow>,
    /// Where this chunk started.
    pub start: CsvPos,
    /// Where the next chunk starts.
    pub next: CsvPos,
    /// The file ended with this chunk.
    pub eof: bool,
    /// Size of the file in bytes (for progress).
    pub file_len: u64,
}
