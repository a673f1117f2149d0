//! The CSV chunk reader behind `Cmd::ReadCsv`: opens the file, seeks to the
//! chunk's byte position, reads at most `max_rows` records (or `max_bytes`)
//! with the `csv` crate and answers with them and the next position. Nothing
//! is kept open between chunks, so memory is one chunk whatever the file
//! size, and any chunk can be read again from its position.
//!
//! Rows may have any number of fields (`flexible`); a UTF-8 byte-order mark
//! at the start is skipped; a row that is not UTF-8 comes back as a broken
//! row with its line number, never as a failure of the whole chunk. Only an
//! I/O failure fails the chunk, naming the line where it happened.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use tokio::sync::mpsc::UnboundedSender;

use crate::app::{Msg, RequestId};
use crate::logic::import::{CsvChunk, CsvPos, CsvRead, CsvRow};

/// The UTF-8 byte-order mark some spreadsheets write first.
const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// Reads the chunk on the blocking pool and answers with `Msg::CsvRead`.
pub fn spawn(id: RequestId, read: CsvRead, tx: &UnboundedSender<Msg>) {
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
    let (file, base, file_len) = open(read)?;
    // A second handle (its own offset) to look where a record starts.
    let mut peek = Peek::open(&read.path).map_err(|e| format!("{path}: {e}"))?;
    // Only `\n` ends a record, so every record's newline is read with it
    // and the line count is exact; a `\r` before it is taken off below.
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_reader(BufReader::with_capacity(64 * 1024, file));
    let line_of = |rel: u64| read.start.line.saturating_add(rel.saturating_sub(1));
    let mut chunk = CsvChunk {
        start: read.start,
        file_len,
        ..CsvChunk::default()
    };
    let mut record = csv::ByteRecord::new();
    let mut bytes = 0usize;
    let mut want_header = read.header;
    loop {
        if chunk.rows.len() >= read.max_rows || bytes >= read.max_bytes {
            break;
        }
        let before = line_of(rdr.position().line());
        match rdr.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => {
                chunk.eof = true;
                break;
            }
            Err(e) => return Err(format!("{path}, after line {before}: {e}")),
        }
        // The line the record starts on, as the reader saw it (counting
        // from newlines in the file itself, so a quoted newline or a quote
        // left open at the end cannot move it), past the empty lines the
        // reader skipped before it without a word: its position is where
        // it started looking.
        let line = record.position().map_or(before, |p| {
            let skipped = peek.newlines_at(base.saturating_add(p.byte()));
            line_of(p.line()).saturating_add(skipped)
        });
        let fields = decode(&record);
        if matches!(&fields, Ok(f) if f.len() == 1 && f[0].is_empty()) {
            // A blank line (`\r\n` alone).
            continue;
        }
        if want_header {
            want_header = false;
            chunk.header = Some(
                record
                    .iter()
                    .map(|f| {
                        let f = String::from_utf8_lossy(f);
                        f.strip_suffix('\r').unwrap_or(&f).trim().to_owned()
                    })
                    .collect(),
            );
            continue;
        }
        bytes = bytes.saturating_add(record.as_slice().len());
        chunk.rows.push(CsvRow { line, fields });
    }
    let pos = rdr.position();
    chunk.next = CsvPos {
        byte: base.saturating_add(pos.byte()),
        line: line_of(pos.line()),
    };
    if !chunk.eof && chunk.next.byte >= file_len {
        chunk.eof = true;
    }
    Ok(chunk)
}

/// The file at the chunk's start (past a byte-order mark at the start of
/// the file): the open file, the start's byte and the file's size.
fn open(read: &CsvRead) -> Result<(File, u64, u64), String> {
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
    let mut base = read.start.byte;
    if base == 0 {
        let mut head = [0u8; 3];
        file.seek(SeekFrom::Start(0)).map_err(err)?;
        if read_up_to(&mut file, &mut head).map_err(err)? == 3 && head == BOM {
            base = 3;
        }
    }
    file.seek(SeekFrom::Start(base)).map_err(err)?;
    Ok((file, base, file_len))
}

/// The fields as text (a `\r` ending the last one, from a CRLF line end,
/// taken off), or why the row is broken.
fn decode(record: &csv::ByteRecord) -> Result<Vec<String>, String> {
    let n = record.len();
    record
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let f = if i + 1 == n {
                f.strip_suffix(b"\r").unwrap_or(f)
            } else {
                f
            };
            std::str::from_utf8(f)
                .map(str::to_owned)
                .map_err(|_| format!("field {} is not UTF-8 text", i + 1))
        })
        .collect()
}

/// A second, forward-reading look at the file: where each record really
/// starts. Records come in file order, so it mostly skips ahead inside its
/// buffer; a read costs a system call per 64 KiB, not one per record.
struct Peek {
    r: BufReader<File>,
    pos: u64,
}

impl Peek {
    fn open(path: &Path) -> std::io::Result<Peek> {
        Ok(Peek {
            r: BufReader::with_capacity(64 * 1024, crate::files::open_read(&expand_home(path))?),
            pos: 0,
        })
    }

    /// How many `\n` bytes follow each other from `at`: the empty lines the
    /// `csv` reader skips before a record. A failed read counts none.
    fn newlines_at(&mut self, at: u64) -> u64 {
        let moved = match at.checked_sub(self.pos) {
            Some(0) => Ok(()),
            Some(ahead) => self
                .r
                .seek_relative(i64::try_from(ahead).unwrap_or(i64::MAX)),
            None => self.r.seek(SeekFrom::Start(at)).map(|_| ()),
        };
        if moved.is_err() {
            return 0;
        }
        self.pos = at;
        let mut count = 0u64;
        loop {
            let Ok(buf) = self.r.fill_buf() else {
                return count;
            };
            let (len, run) = (buf.len(), buf.iter().take_while(|b| **b == b'\n').count());
            self.r.consume(run);
            self.pos = self.pos.saturating_add(run as u64);
            count = count.saturating_add(run as u64);
            if len == 0 || run < len {
                return count;
            }
        }
    }
}

/// `~/x` as `$HOME/x` (the shell is not there to do it).
fn expand_home(path: &Path) -> PathBuf {
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

    /// Reads every chunk of `bytes` (one row at a time when `n` is 1);
    /// each chunk must move forward, so the walk ends.
    fn walk(bytes: &[u8], n: usize, max_bytes: usize) -> Vec<CsvChunk> {
        let f = file(bytes);
        let mut pos = CsvPos::START;
        let mut header = true;
        let mut out = Vec::new();
        for _ in 0..=bytes.len() + 1 {
            let c = read_chunk(&CsvRead {
                path: f.path().to_owned(),
                start: pos,
                header,
                max_rows: n,
                max_bytes,
            })
            .expect("an existing file always reads");
            header = false;
            let (next, eof) = (c.next, c.eof);
            out.push(c);
            if eof {
                return out;
            }
            assert!(next.byte > pos.byte, "a chunk that does not move: {pos:?}");
            pos = next;
        }
        panic!("the walk never ended");
    }

    /// The property over any bytes: the walk ends, line numbers only
    /// grow, and reading row by row or under a byte cap gives the same rows
    /// as reading in one go.
    fn reads_to_the_end_in_order(bytes: &[u8], cap: usize) -> Result<(), TestCaseError> {
        let whole: Vec<CsvRow> = walk(bytes, usize::MAX, usize::MAX)
            .into_iter()
            .flat_map(|c| c.rows)
            .collect();
        let lines: Vec<u64> = whole.iter().map(|r| r.line).collect();
        prop_assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
        let one_by_one: Vec<CsvRow> = walk(bytes, 1, usize::MAX)
            .into_iter()
            .flat_map(|c| c.rows)
            .collect();
        prop_assert_eq!(&one_by_one, &whole);
        let capped: Vec<CsvRow> = walk(bytes, usize::MAX, cap)
            .into_iter()
            .flat_map(|c| c.rows)
            .collect();
        prop_assert_eq!(&capped, &whole);
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
            .skip(1)
            .collect();
        let got: Vec<u64> = walk(bytes, usize::MAX, usize::MAX)
            .into_iter()
            .flat_map(|c| c.rows)
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
        let rows: Vec<CsvRow> = walk(&bytes, usize::MAX, usize::MAX)
            .into_iter()
            .flat_map(|c| c.rows)
            .collect();
        let lines: Vec<u64> = rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 4], "{rows:?}");
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
