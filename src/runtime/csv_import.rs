//! The CSV chunk reader behind `Cmd::ReadCsv`: opens the file, seeks to the
//! chunk's byte position, reads at most `max_rows` records (or `max_bytes`)
//! and answers with them and the next position. Nothing is kept open
//! between chunks, so memory is one chunk whatever the file size, and any
//! chunk can be read again from its position.
//!
//! Rows may have any number of fields; a UTF-8 byte-order mark at the start
//! is skipped; a file starting with a UTF-16 byte-order mark is decoded as
//! UTF-16 (positions stay the file's own bytes). A row that is not UTF-8,
//! holds a field longer than [`FIELD_MAX`], more than [`FIELDS_MAX`] fields
//! or more than [`ROW_MAX`] bytes comes back as a broken row with its line
//! number, never as a failure of the whole chunk — and the bytes past a
//! bound are counted, never kept, so one 300 MB field costs 64 KiB. Only an
//! I/O failure, or a header that cannot be column names (not UTF-8 text,
//! past a bound), fails the chunk.
//!
//! Records are cut by `csv_core` (the `csv` crate's own parser): only `\n`
//! ends a record, so the line count is exact; a `\r` before it is taken off
//! the last field.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use tokio::sync::mpsc::UnboundedSender;

use crate::app::{Msg, RequestId};
use crate::logic::import::{CHUNK_BYTES, CsvChunk, CsvPos, CsvRead, CsvRow};
use crate::text::format;

/// The UTF-8 byte-order mark some spreadsheets write first.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// The UTF-16 byte-order marks ("Unicode text" exports), little and big
/// endian.
const BOM_16LE: [u8; 2] = [0xFF, 0xFE];
const BOM_16BE: [u8; 2] = [0xFE, 0xFF];

/// The longest field kept, in bytes: no lead field is near it, and a longer
/// one (a file that is not CSV, a whole document pasted into a cell) would
/// only be refused by the service.
pub(crate) const FIELD_MAX: usize = 64 * 1024;
/// The most fields one row may have.
pub(crate) const FIELDS_MAX: usize = 1000;
/// The most bytes of fields one row may hold: one chunk's request body.
pub(crate) const ROW_MAX: usize = CHUNK_BYTES;

/// Reads the chunk on the blocking pool and answers with `Msg::CsvRead`.
pub(crate) fn spawn(id: RequestId, read: CsvRead, tx: &UnboundedSender<Msg>) {
    let tx = tx.clone();
    tokio::task::spawn_blocking(move || {
        let result = read_chunk(&read);
        let _ = tx.send(Msg::CsvRead { id, result });
    });
}

/// Reads one chunk (see the module docs). The error names the file and,
/// past the header, the line where reading failed.
pub fn read_chunk(read: &CsvRead) -> Result<CsvChunk, String> {
    let path = read.path.display();
    let (file, base, file_len, utf16) = open(read)?;
    let mut src = Source::new(file, base, utf16);
    let mut core = csv_core::ReaderBuilder::new()
        .terminator(csv_core::Terminator::Any(b'\n'))
        .build();
    core.set_line(read.start.line);
    let mut chunk = CsvChunk {
        start: read.start,
        file_len,
        ..CsvChunk::default()
    };
    let mut record = Record::default();
    let mut bytes = 0usize;
    let mut want_header = read.header;
    loop {
        if chunk.rows.len() >= read.max_rows || bytes >= read.max_bytes {
            break;
        }
        let at = |src: &Source, core: &csv_core::Reader| CsvPos {
            byte: src.offset(),
            line: core.line(),
        };
        let io = |e: std::io::Error, line: u64| format!("{path}, after line {line}: {e}");
        // The empty lines before a record, which the parser would skip
        // without a word: skipped here, so the record's position is where
        // it really starts.
        let skipped = src.skip_newlines().map_err(|e| io(e, core.line()))?;
        core.set_line(core.line().saturating_add(skipped));
        let start = at(&src, &core);
        if !record
            .read(&mut core, &mut src)
            .map_err(|e| io(e, start.line))?
        {
            chunk.eof = true;
            break;
        }
        let fields = record.fields();
        if matches!(&fields, Ok(f) if f.len() == 1 && f[0].is_empty()) {
            // A blank line (`\r\n` alone).
            continue;
        }
        if want_header {
            want_header = false;
            chunk.header = Some(header(&read.path, &record, fields)?);
            continue;
        }
        bytes = bytes.saturating_add(record.raw);
        chunk.rows.push(CsvRow {
            line: start.line,
            byte: start.byte,
            fields,
        });
    }
    chunk.next = CsvPos {
        byte: src.offset(),
        line: core.line(),
    };
    if !chunk.eof && chunk.next.byte >= file_len {
        chunk.eof = true;
    }
    Ok(chunk)
}

/// The header's names, trimmed; a header that cannot be column names fails
/// the read, saying what the file is not.
fn header(
    path: &Path,
    record: &Record,
    fields: Result<Vec<String>, String>,
) -> Result<Vec<String>, String> {
    let path = path.display();
    let not_text = || {
        format!(
            "{path} is not UTF-8 text: save it as CSV UTF-8 (a UTF-16 file with a byte-order mark is read too)"
        )
    };
    if record.not_utf8 {
        return Err(not_text());
    }
    let names =
        fields.map_err(|why| format!("{path}: its first line cannot be a header: {why}"))?;
    if names.iter().any(|n| n.contains('\0')) {
        // Text of two bytes a character without its byte-order mark (or a
        // binary file) reads as letters between NUL bytes.
        return Err(not_text());
    }
    Ok(names.iter().map(|f| f.trim().to_owned()).collect())
}

/// The file at the chunk's start (past a byte-order mark at the start of
/// the file): the open file, the start's byte, the file's size, and
/// whether it is UTF-16 (`Some(big_endian)`).
fn open(read: &CsvRead) -> Result<(File, u64, u64, Option<bool>), String> {
    let full = expand_home(&read.path);
    let path = read.path.display();
    let err = |e: std::io::Error| format!("{path}: {e}");
    // Only a regular file: a named pipe would hang the read, a directory or
    // a device is no CSV file.
    let mut file = crate::files::open_read(&full).map_err(|e| {
        if crate::files::is_not_regular(&e) {
            format!("{path} is not a CSV file: {e}")
        } else {
            err(e)
        }
    })?;
    let file_len = file.metadata().map_err(err)?.len();
    // Every chunk looks at the start again: a UTF-16 file is UTF-16 from
    // any position.
    let mut head = [0u8; 4];
    let n = read_up_to(&mut file, &mut head).map_err(err)?;
    let head = &head[..n];
    let (bom, utf16) = if head.starts_with(&BOM) {
        (3, None)
    } else if head == [0xFF, 0xFE, 0, 0] || head == [0, 0, 0xFE, 0xFF] {
        return Err(format!(
            "{path} is UTF-32 text, which Outpost does not read: save it as CSV UTF-8"
        ));
    } else if head.starts_with(&BOM_16LE) {
        (2, Some(false))
    } else if head.starts_with(&BOM_16BE) {
        (2, Some(true))
    } else {
        (0, None)
    };
    let base = read.start.byte.max(bom);
    file.seek(SeekFrom::Start(base)).map_err(err)?;
    Ok((file, base, file_len, utf16))
}

/// One record as read: its fields' bytes (those within the bounds), and
/// what went past them.
#[derive(Default)]
struct Record {
    /// The kept fields' bytes, one after the other, in `data[..used]`
    /// (`data` only grows: its zeroed tail is room to read into).
    data: Vec<u8>,
    /// Bytes of `data` in use.
    used: usize,
    /// Where each kept field ends in `data`.
    ends: Vec<usize>,
    /// Bytes of the field being read (kept or not).
    field_len: usize,
    /// Bytes of every field of the record (kept or not).
    raw: usize,
    /// Fields of the record.
    count: usize,
    /// The first bound passed, which leaves the row out.
    over: Option<Over>,
    /// A field is not UTF-8 (set by [`Record::fields`]).
    not_utf8: bool,
    /// A record was read with this parser (see [`Record::read`]).
    read_before: bool,
    /// Where the bytes past a bound are read to, and dropped.
    sink: Vec<u8>,
}

/// A bound a row passed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Over {
    /// Field `n` (1-based) is longer than [`FIELD_MAX`]; its whole length,
    /// once the field ended.
    Field(usize, usize),
    /// More than [`FIELDS_MAX`] fields.
    Fields,
    /// More than [`ROW_MAX`] bytes.
    Row,
}

/// Bytes read into at once.
const STEP: usize = 64 * 1024;

impl Record {
    /// Reads the next record; `false` at the end of the file.
    fn read(&mut self, core: &mut csv_core::Reader, src: &mut Source) -> std::io::Result<bool> {
        self.ends.clear();
        (self.used, self.field_len, self.raw, self.count, self.over) = (0, 0, 0, 0, None);
        loop {
            let field_start = self.ends.last().copied().unwrap_or(0);
            // Room for the field up to one byte past its bound (which says
            // it is too long); past a bound the bytes go to the sink.
            let keep = self.over.is_none();
            let room = (FIELD_MAX + 1)
                .saturating_sub(self.used - field_start)
                .min(STEP);
            if keep && self.data.len() < self.used + room {
                self.data.resize(self.used + room, 0);
            }
            let input = src.fill()?;
            // The parser drops a UTF-8 byte-order mark from the first input
            // it is given: only the file's own start has one (skipped in
            // `open`), so a record starting with those bytes is given one
            // byte first.
            let input = if self.read_before {
                input
            } else {
                &input[..input.len().min(1)]
            };
            if !keep && self.sink.is_empty() {
                self.sink = vec![0; STEP];
            }
            let out: &mut [u8] = if keep {
                &mut self.data[self.used..self.used + room]
            } else {
                &mut self.sink
            };
            let (res, nin, nout) = core.read_field(input, out);
            src.consume(nin);
            self.read_before |= nin > 0;
            if keep {
                self.used += nout;
            }
            self.field_len = self.field_len.saturating_add(nout);
            self.raw = self.raw.saturating_add(nout);
            if keep && self.used - field_start > FIELD_MAX {
                self.pass(Over::Field(self.count + 1, 0), field_start);
            } else if keep && self.used > ROW_MAX {
                self.pass(Over::Row, field_start);
            }
            match res {
                csv_core::ReadFieldResult::InputEmpty | csv_core::ReadFieldResult::OutputFull => {}
                csv_core::ReadFieldResult::Field { record_end } => {
                    self.end_field();
                    if record_end {
                        return Ok(true);
                    }
                }
                csv_core::ReadFieldResult::End => return Ok(false),
            }
        }
    }

    /// The row passed a bound: nothing more of it is kept.
    fn pass(&mut self, over: Over, field_start: usize) {
        self.over = Some(over);
        self.used = field_start;
    }

    /// A field ended.
    fn end_field(&mut self) {
        self.count += 1;
        match &mut self.over {
            Some(Over::Field(n, len)) if *n == self.count => *len = self.field_len,
            Some(_) => {}
            None if self.count > FIELDS_MAX => self.over = Some(Over::Fields),
            None => self.ends.push(self.used),
        }
        self.field_len = 0;
    }

    /// The fields as text (a `\r` ending the last one, from a CRLF line
    /// end, taken off), or why the row is left out.
    fn fields(&mut self) -> Result<Vec<String>, String> {
        self.not_utf8 = false;
        match self.over {
            Some(Over::Field(n, len)) => {
                return Err(format!(
                    "field {n} is {} long, more than the {} a field may hold",
                    format::bytes(len as u64),
                    format::bytes(FIELD_MAX as u64)
                ));
            }
            Some(Over::Fields) => {
                return Err(format!(
                    "the row has more than {} fields",
                    format::count(FIELDS_MAX as u64)
                ));
            }
            Some(Over::Row) => {
                return Err(format!(
                    "the row is {} long, more than the {} one request may carry",
                    format::bytes(self.raw as u64),
                    format::bytes(ROW_MAX as u64)
                ));
            }
            None => {}
        }
        let n = self.ends.len();
        let mut out = Vec::with_capacity(n);
        let mut from = 0;
        for (i, &end) in self.ends.iter().enumerate() {
            let mut f = self.data.get(from..end).unwrap_or_default();
            from = end;
            if i + 1 == n {
                f = f.strip_suffix(b"\r").unwrap_or(f);
            }
            match std::str::from_utf8(f) {
                Ok(text) => out.push(text.to_owned()),
                Err(_) => {
                    self.not_utf8 = true;
                    return Err(format!("field {} is not UTF-8 text", i + 1));
                }
            }
        }
        Ok(out)
    }
}

/// The file's text as UTF-8 bytes, and the file offset of the next one.
struct Source {
    inner: BufReader<File>,
    /// UTF-16 (`Some(big_endian)`): decoded into `text`.
    utf16: Option<bool>,
    /// File offset of the next byte `inner` gives.
    raw_at: u64,
    /// UTF-16: decoded text, `text[pos..]` not yet consumed.
    text: Vec<u8>,
    /// UTF-16: the file offset of each byte of `text`.
    from: Vec<u64>,
    pos: usize,
    /// UTF-16: a unit read after a high surrogate that did not pair with
    /// it, and its offset: the next character.
    carry: Option<(u16, u64)>,
}

impl Source {
    fn new(file: File, at: u64, utf16: Option<bool>) -> Source {
        Source {
            inner: BufReader::with_capacity(64 * 1024, file),
            utf16,
            raw_at: at,
            text: Vec::new(),
            from: Vec::new(),
            pos: 0,
            carry: None,
        }
    }

    /// The bytes not yet consumed (empty at the end of the file).
    fn fill(&mut self) -> std::io::Result<&[u8]> {
        match self.utf16 {
            None => self.inner.fill_buf(),
            Some(big_endian) => {
                if self.pos == self.text.len() {
                    self.decode(big_endian)?;
                }
                Ok(self.text.get(self.pos..).unwrap_or_default())
            }
        }
    }

    fn consume(&mut self, n: usize) {
        match self.utf16 {
            None => {
                self.inner.consume(n);
                self.raw_at = self.raw_at.saturating_add(n as u64);
            }
            Some(_) => self.pos += n,
        }
    }

    /// The file offset of the next byte not yet consumed.
    fn offset(&self) -> u64 {
        match (self.utf16, self.from.get(self.pos)) {
            (Some(_), Some(&at)) => at,
            _ => self.carry.map_or(self.raw_at, |(_, at)| at),
        }
    }

    /// Consumes the `\n` bytes here; returns how many.
    fn skip_newlines(&mut self) -> std::io::Result<u64> {
        let mut count = 0u64;
        loop {
            let buf = self.fill()?;
            let (len, run) = (buf.len(), buf.iter().take_while(|b| **b == b'\n').count());
            self.consume(run);
            count = count.saturating_add(run as u64);
            if len == 0 || run < len {
                return Ok(count);
            }
        }
    }

    /// Decodes the next piece of a UTF-16 file (an unpaired surrogate or a
    /// last odd byte becomes U+FFFD).
    fn decode(&mut self, big_endian: bool) -> std::io::Result<()> {
        self.text.clear();
        self.from.clear();
        self.pos = 0;
        while self.text.len() < 16 * 1024 {
            let Some((unit, at)) = self.unit(big_endian)? else {
                break;
            };
            let c = if (0xD800..0xDC00).contains(&unit) {
                match self.unit(big_endian)? {
                    Some((low, _)) if (0xDC00..0xE000).contains(&low) => {
                        let code = 0x10000
                            + ((u32::from(unit) - 0xD800) << 10)
                            + (u32::from(low) - 0xDC00);
                        char::from_u32(code)
                    }
                    other => {
                        self.carry = other;
                        None
                    }
                }
            } else {
                // A low surrogate alone is no character either.
                char::from_u32(u32::from(unit))
            };
            let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
            let mut buf = [0u8; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            self.text.extend_from_slice(bytes);
            self.from.extend(std::iter::repeat_n(at, bytes.len()));
        }
        Ok(())
    }

    /// The next UTF-16 unit and its file offset; a last odd byte is
    /// U+FFFD.
    fn unit(&mut self, big_endian: bool) -> std::io::Result<Option<(u16, u64)>> {
        if let Some(carried) = self.carry.take() {
            return Ok(Some(carried));
        }
        let at = self.raw_at;
        let mut pair = [0u8; 2];
        let mut n = 0;
        while n < 2 {
            let buf = self.inner.fill_buf()?;
            let Some(&b) = buf.first() else {
                break;
            };
            pair[n] = b;
            self.inner.consume(1);
            n += 1;
        }
        self.raw_at = self.raw_at.saturating_add(n as u64);
        Ok(match n {
            0 => None,
            1 => Some((0xFFFD, at)),
            _ if big_endian => Some((u16::from_be_bytes(pair), at)),
            _ => Some((u16::from_le_bytes(pair), at)),
        })
    }
}

/// `~/x` as `$HOME/x` (the shell is not there to do it).
pub(crate) fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_owned(),
    }
}

/// Reads until `buf` is full or the file ends; returns how much was read.
fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::Write;

    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    fn read(f: &tempfile::NamedTempFile, start: CsvPos, header: bool, n: usize) -> CsvChunk {
        read_chunk(&CsvRead {
            path: f.path().to_owned(),
            start,
            header,
            max_rows: n,
            max_bytes: usize::MAX,
        })
        .unwrap()
    }

    fn lines(c: &CsvChunk) -> Vec<u64> {
        c.rows.iter().map(|r| r.line).collect()
    }

    #[test]
    fn chunks_follow_each_other_with_file_line_numbers() {
        let f = file(b"\xEF\xBB\xBFemail,name\r\na@x.io,Ann\r\n\r\nb@x.io,\"Bo\nBo\"\r\nc@x.io,Cy\r\nd@x.io\r\n");
        let first = read(&f, CsvPos::START, true, 2);
        assert_eq!(
            first.header,
            Some(vec!["email".to_owned(), "name".to_owned()]),
            "the BOM is not part of the first column's name"
        );
        assert_eq!(
            lines(&first),
            [2, 4],
            "a blank line is skipped, lines still count"
        );
        assert_eq!(
            first.rows[1].fields,
            Ok(vec!["b@x.io".to_owned(), "Bo\nBo".to_owned()])
        );
        assert!(!first.eof);
        let second = read(&f, first.next, false, 2);
        assert_eq!(
            lines(&second),
            [6, 7],
            "a quoted newline moves the line count"
        );
        assert_eq!(
            second.rows[1].fields,
            Ok(vec!["d@x.io".to_owned()]),
            "short rows are kept"
        );
        let third = read(&f, second.next, false, 2);
        assert!(third.rows.is_empty() && third.eof);
        let again = read(&f, first.next, false, 1);
        assert_eq!(
            lines(&again),
            [6],
            "a chunk reads the same again from its position"
        );
    }

    #[test]
    fn a_row_that_is_not_utf8_is_reported_with_its_line() {
        let f = file(b"email\na@x.io\n\xFF\xFE@x.io\nc@x.io\n");
        let c = read(&f, CsvPos::START, true, 10);
        assert_eq!(lines(&c), [2, 3, 4]);
        assert_eq!(
            c.rows[1].fields,
            Err("field 1 is not UTF-8 text".to_owned())
        );
        assert!(c.rows[2].fields.is_ok() && c.eof);
    }

    #[test]
    fn a_missing_file_a_directory_or_a_named_pipe_is_an_error_naming_it() {
        let err = read_chunk(&CsvRead {
            path: "/nonexistent/leads.csv".into(),
            start: CsvPos::START,
            header: true,
            max_rows: 10,
            max_bytes: 10,
        })
        .unwrap_err();
        assert!(err.starts_with("/nonexistent/leads.csv: "), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let err = read_chunk(&CsvRead {
            path: dir.path().to_owned(),
            start: CsvPos::START,
            header: true,
            max_rows: 10,
            max_bytes: 10,
        })
        .unwrap_err();
        assert!(
            err.contains("is not a CSV file: it is a directory"),
            "{err}"
        );
        // A named pipe no one writes to: refused at once, never waited on.
        let fifo = dir.path().join("leads.csv");
        assert!(crate::files::testing::mkfifo(&fifo));
        let err = read_chunk(&CsvRead {
            path: fifo.clone(),
            start: CsvPos::START,
            header: true,
            max_rows: 10,
            max_bytes: 10,
        })
        .unwrap_err();
        assert_eq!(
            err,
            format!(
                "{} is not a CSV file: it is a named pipe (FIFO), not a regular file",
                fifo.display()
            )
        );
    }

    #[test]
    fn the_last_row_without_a_newline_keeps_its_line() {
        let f = file(b"email\r\na@x.io\r\n\r\nb@x.io");
        let c = read(&f, CsvPos::START, true, 10);
        assert_eq!(lines(&c), [2, 4]);
        assert_eq!(c.rows[1].fields, Ok(vec!["b@x.io".to_owned()]));
        assert!(c.eof);
    }

    #[test]
    fn the_byte_cap_ends_a_chunk_early() {
        let f = file(b"email\naaaaaaaaaa@x.io\nb@x.io\nc@x.io\n");
        let c = read_chunk(&CsvRead {
            path: f.path().to_owned(),
            start: CsvPos::START,
            header: true,
            max_rows: 100,
            max_bytes: 10,
        })
        .unwrap();
        assert_eq!(lines(&c), [2]);
        assert_eq!(c.next.line, 3);
    }

    /// A 64 KiB field is kept; one byte more leaves the row out, saying
    /// how long the field is, while the field's bytes past the bound are
    /// only counted (a 300 MB field took 1.2 GB and went up whole); the
    /// rows after it read as before, with their own lines.
    #[test]
    fn a_field_past_64_kib_leaves_its_row_out_and_the_rest_reads_on() {
        let mut bytes = b"email,notes\n".to_vec();
        bytes.extend_from_slice(b"a@x.io,");
        bytes.extend(std::iter::repeat_n(b'n', FIELD_MAX));
        bytes.extend_from_slice(b"\nb@x.io,\"");
        bytes.extend(std::iter::repeat_n(b'm', 3 * 1024 * 1024));
        bytes.extend_from_slice(b"\nstill, quoted\"\nc@x.io,short\n");
        let f = file(&bytes);
        let c = read(&f, CsvPos::START, true, 10);
        assert_eq!(lines(&c), [2, 3, 5]);
        assert_eq!(c.rows[0].fields.as_ref().map(|f| f[1].len()), Ok(FIELD_MAX));
        assert_eq!(
            c.rows[1].fields,
            Err("field 2 is 3.0 MB long, more than the 64 KB a field may hold".to_owned())
        );
        assert_eq!(
            c.rows[2].fields,
            Ok(vec!["c@x.io".to_owned(), "short".to_owned()])
        );
        // Row by row, the same rows at the same places.
        let one_by_one: Vec<CsvRow> = walk(&bytes, 1, usize::MAX)
            .into_iter()
            .flat_map(|c| c.rows)
            .collect();
        assert_eq!(one_by_one, c.rows);
    }

    #[test]
    fn a_row_of_too_many_fields_or_bytes_is_left_out() {
        let mut bytes = b"email\n".to_vec();
        bytes.extend_from_slice(&b",".repeat(FIELDS_MAX));
        bytes.extend_from_slice(b"\nok@x.io\n");
        // 200 fields of 60 KB: each within its bound, 12 MB in all.
        let wide = vec!["w".repeat(60_000); 200].join(",");
        bytes.extend_from_slice(wide.as_bytes());
        bytes.extend_from_slice(b"\nlast@x.io\n");
        let c = read(&file(&bytes), CsvPos::START, true, 10);
        assert_eq!(lines(&c), [2, 3, 4, 5]);
        assert_eq!(
            c.rows[0].fields,
            Err("the row has more than 1,000 fields".to_owned())
        );
        assert_eq!(c.rows[1].fields, Ok(vec!["ok@x.io".to_owned()]));
        assert_eq!(
            c.rows[2].fields,
            Err("the row is 11 MB long, more than the 8.0 MB one request may carry".to_owned())
        );
        assert_eq!(c.rows[3].fields, Ok(vec!["last@x.io".to_owned()]));
    }

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        let mut out = if big_endian {
            BOM_16BE.to_vec()
        } else {
            BOM_16LE.to_vec()
        };
        for unit in text.encode_utf16() {
            out.extend(if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        out
    }

    /// "Unicode text" from a spreadsheet is UTF-16 with a byte-order mark:
    /// it reads as the same text would in UTF-8, in one go or row by row
    /// (positions are the file's own bytes, so a chunk starts where the
    /// last one ended).
    #[test]
    fn a_utf16_file_with_a_byte_order_mark_reads_as_text() {
        let text = "Email,Name\r\nana@x.io,Ana Ünal 🚀\r\n\r\nbo@x.io,\"Bo\nBo\"\r\ncy@x.io,Cy";
        for big_endian in [false, true] {
            let bytes = utf16(text, big_endian);
            let c = read(&file(&bytes), CsvPos::START, true, 10);
            assert_eq!(c.header, Some(vec!["Email".to_owned(), "Name".to_owned()]));
            assert_eq!(lines(&c), [2, 4, 6]);
            let fields: Vec<_> = c.rows.iter().map(|r| r.fields.clone()).collect();
            assert_eq!(
                fields,
                [
                    Ok(vec!["ana@x.io".to_owned(), "Ana Ünal 🚀".to_owned()]),
                    Ok(vec!["bo@x.io".to_owned(), "Bo\nBo".to_owned()]),
                    Ok(vec!["cy@x.io".to_owned(), "Cy".to_owned()]),
                ]
            );
            assert!(c.eof && c.next.byte == bytes.len() as u64);
            let one_by_one: Vec<CsvRow> = walk(&bytes, 1, usize::MAX)
                .into_iter()
                .flat_map(|c| c.rows)
                .collect();
            assert_eq!(one_by_one, c.rows);
            // A row's position is its first byte in the file.
            let second = &c.rows[1];
            let again = read(
                &file(&bytes),
                CsvPos {
                    byte: second.byte,
                    line: second.line,
                },
                false,
                1,
            );
            assert_eq!(again.rows.first(), Some(second));
        }
    }

    /// A file that is not UTF-8 (nor UTF-16 with its mark) is named as
    /// such, where its header was read as column names before ("map a
    /// column to email" followed).
    #[test]
    fn a_file_that_is_not_utf8_text_is_named_as_such() {
        let latin1 = b"E-mail,Nom,Soci\xe9t\xe9\nana@x.io,Ana,Caf\xe9\n".to_vec();
        let mut no_mark = utf16("Email,Name\nana@x.io,Ana\n", false);
        no_mark.drain(..2);
        let utf32 = [0xFF, 0xFE, 0, 0, b'E', 0, 0, 0];
        for (bytes, what) in [
            (latin1, "is not UTF-8 text"),
            (no_mark, "is not UTF-8 text"),
            (utf32.to_vec(), "is UTF-32 text"),
        ] {
            let f = file(&bytes);
            let err = read_chunk(&CsvRead {
                path: f.path().to_owned(),
                start: CsvPos::START,
                header: true,
                max_rows: 10,
                max_bytes: usize::MAX,
            })
            .unwrap_err();
            assert!(
                err.contains(what) && err.contains("save it as CSV UTF-8"),
                "{err}"
            );
        }
    }

    /// Reads every chunk of `bytes` (one row at a time when `n` is 1),
    /// the first record as the header when `header`; each chunk must move
    /// forward, so the walk ends. Only the first read may fail (a header
    /// that cannot be column names).
    fn walk_from(
        bytes: &[u8],
        n: usize,
        max_bytes: usize,
        header: bool,
    ) -> Result<Vec<CsvChunk>, String> {
        let f = file(bytes);
        let mut pos = CsvPos::START;
        let mut header = header;
        let mut out = Vec::new();
        for _ in 0..=bytes.len() + 1 {
            let read = read_chunk(&CsvRead {
                path: f.path().to_owned(),
                start: pos,
                header,
                max_rows: n,
                max_bytes,
            });
            let c = if out.is_empty() {
                read?
            } else {
                read.expect("past the header, an existing file always reads")
            };
            header = false;
            let (next, eof) = (c.next, c.eof);
            out.push(c);
            if eof {
                return Ok(out);
            }
            assert!(next.byte > pos.byte, "a chunk that does not move: {pos:?}");
            pos = next;
        }
        panic!("the walk never ended");
    }

    /// [`walk_from`] with a header that reads.
    fn walk(bytes: &[u8], n: usize, max_bytes: usize) -> Vec<CsvChunk> {
        walk_from(bytes, n, max_bytes, true).expect("the header reads")
    }

    /// Every row of [`walk_from`] without a header.
    fn all_rows(bytes: &[u8], n: usize, max_bytes: usize) -> Vec<CsvRow> {
        walk_from(bytes, n, max_bytes, false)
            .expect("without a header, an existing file always reads")
            .into_iter()
            .flat_map(|c| c.rows)
            .collect()
    }

    /// The property over any bytes: the walk ends, line numbers only
    /// grow, and reading row by row or under a byte cap gives the same rows
    /// as reading in one go. Read with a header, the rows are those after
    /// the first, or the header is refused for not being text.
    fn reads_to_the_end_in_order(bytes: &[u8], cap: usize) -> Result<(), TestCaseError> {
        let whole = all_rows(bytes, usize::MAX, usize::MAX);
        let lines: Vec<u64> = whole.iter().map(|r| r.line).collect();
        prop_assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
        prop_assert_eq!(&all_rows(bytes, 1, usize::MAX), &whole);
        prop_assert_eq!(&all_rows(bytes, usize::MAX, cap), &whole);
        match walk_from(bytes, usize::MAX, usize::MAX, true) {
            Ok(chunks) => {
                let after: Vec<CsvRow> = chunks.into_iter().flat_map(|c| c.rows).collect();
                prop_assert_eq!(after.as_slice(), whole.get(1..).unwrap_or_default());
            }
            Err(why) => {
                prop_assert!(why.contains("is not UTF-8 text"), "{why}");
                let first = whole.first().map(|r| &r.fields);
                prop_assert!(
                    matches!(first, Some(Err(_)))
                        || matches!(first, Some(Ok(f)) if f.iter().any(|x| x.contains('\0'))),
                    "{first:?}"
                );
            }
        }
        Ok(())
    }

    /// Any bytes at all, with the CSV's own punctuation made likely.
    fn csv_bytes() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                Just(b','),
                Just(b'"'),
                Just(b'\n'),
                Just(b'\r'),
                any::<u8>(),
            ],
            0..400,
        )
    }

    /// Without quotes every row is one line of the file: the line numbers
    /// are those an editor shows (empty lines and `\r` alone skipped).
    fn unquoted_rows_keep_their_line(bytes: &[u8]) -> Result<(), TestCaseError> {
        let text = bytes.strip_prefix(&BOM[..]).unwrap_or(bytes);
        let mut segments: Vec<&[u8]> = text.split(|b| *b == b'\n').collect();
        if segments.last().is_some_and(|s| s.is_empty()) {
            segments.pop();
        }
        let expected: Vec<u64> = segments
            .iter()
            .zip(1u64..)
            .filter(|(s, _)| !s.is_empty() && *s != b"\r")
            .map(|(_, line)| line)
            .collect();
        let got: Vec<u64> = all_rows(bytes, usize::MAX, usize::MAX)
            .iter()
            .map(|r| r.line)
            .collect();
        prop_assert_eq!(got, expected);
        Ok(())
    }

    /// The `csv` reader skips an empty line without a word: the row after
    /// it still has its own line, read in one go or a row at a time.
    #[test]
    fn rows_after_empty_lines_keep_their_own_line() {
        let bytes = b"email\n\na@x.io\n\n\n\nb@x.io\r\n\r\nc@x.io";
        assert_eq!(
            lines(&read(&file(bytes), CsvPos::START, true, 10)),
            [3, 7, 9]
        );
        let one_by_one: Vec<u64> = walk(bytes, 1, usize::MAX).iter().flat_map(lines).collect();
        assert_eq!(one_by_one, [3, 7, 9]);
    }

    /// Like [`csv_bytes`], without a quote.
    fn unquoted_bytes() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![
                Just(b','),
                Just(b'\n'),
                Just(b'\r'),
                any::<u8>().prop_filter("no quote", |b| *b != b'"'),
            ],
            0..400,
        )
    }

    /// The input the property first found (commit 8525000): a quote left
    /// open on the last line swallowed the newline after it, and the rows
    /// before it were given the same line. Each row keeps its own line.
    #[test]
    fn a_quote_left_open_at_the_end_keeps_each_row_its_own_line() {
        let bytes = [0, b'\n', b'\n', 0, b'\n', b'"', b'"', b'"', b'\n'];
        let rows = all_rows(&bytes, usize::MAX, usize::MAX);
        let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 3, 4], "{rows:?}");
        reads_to_the_end_in_order(&bytes, 30).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 64,
            ..ProptestConfig::default()
        })]

        /// Any bytes at all (broken quotes, NULs, lone CRs, invalid UTF-8):
        /// no panic, and [`reads_to_the_end_in_order`].
        #[test]
        fn any_bytes_read_to_the_end_in_order(bytes in csv_bytes(), cap in 1usize..64) {
            reads_to_the_end_in_order(&bytes, cap)?;
        }

        /// Any text in UTF-16 (either order, with its mark) reads as the
        /// same rows on the same lines as in UTF-8, in one go and row by
        /// row.
        #[test]
        fn utf16_text_reads_as_its_utf8(text in "[a-z,\"\n\r é€🚀]{0,120}", big_endian: bool) {
            let plain = all_rows(text.as_bytes(), usize::MAX, usize::MAX);
            let bytes = utf16(&text, big_endian);
            let whole = all_rows(&bytes, usize::MAX, usize::MAX);
            let strip = |rows: &[CsvRow]| -> Vec<(u64, Result<Vec<String>, String>)> {
                rows.iter().map(|r| (r.line, r.fields.clone())).collect()
            };
            prop_assert_eq!(strip(&whole), strip(&plain));
            prop_assert_eq!(all_rows(&bytes, 1, usize::MAX), whole);
        }

        /// Bytes without a quote: [`unquoted_rows_keep_their_line`].
        #[test]
        fn unquoted_rows_have_the_line_an_editor_shows(bytes in unquoted_bytes()) {
            unquoted_rows_keep_their_line(&bytes)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 10_000,
            ..ProptestConfig::default()
        })]

        /// The long run of the property above:
        /// `cargo test --lib any_bytes_long -- --ignored`.
        #[test]
        #[ignore = "long run: 10,000 cases (some minutes); cargo test --lib any_bytes_long -- --ignored"]
        fn any_bytes_long_run(bytes in csv_bytes(), cap in 1usize..64, plain in unquoted_bytes()) {
            reads_to_the_end_in_order(&bytes, cap)?;
            unquoted_rows_keep_their_line(&plain)?;
        }
    }
}
