//! What the scripting commands print: readable tables and JSON documents,
//! both inert on a terminal (service text may be hostile).
//!
//! Table cells go through [`sanitize::inline`] and are cut to their
//! column's width. JSON keeps every value exactly (it is for programs) but
//! escapes, as `\uXXXX`, every character a terminal could act on or that
//! hides or reorders text — C1 controls, DEL, bidi and zero-width format
//! characters, line and paragraph separators — so even `outpost … --json`
//! printed straight to a terminal is inert, and `jq` reads the same values.

use std::io::{self, Write};

use serde::Serialize;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::exit::{Exit, Failure};
use crate::text::sanitize;

/// A column of a [`Table`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Col {
    /// Header text.
    pub name: &'static str,
    /// Widest cell in display columns (0: never cut, for ids).
    pub max: usize,
    /// Numbers are aligned right.
    pub right: bool,
}

impl Col {
    /// A left-aligned column cut at `max` columns (0: never cut).
    pub(crate) const fn left(name: &'static str, max: usize) -> Col {
        Col {
            name,
            max,
            right: false,
        }
    }

    /// A right-aligned (number) column.
    pub(crate) const fn num(name: &'static str) -> Col {
        Col {
            name,
            max: 0,
            right: true,
        }
    }
}

/// A table printed with aligned columns, two spaces apart.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    cols: Vec<Col>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these columns.
    pub(crate) fn new(cols: &[Col]) -> Table {
        Table {
            cols: cols.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Adds a row: service text is made inert and cut here.
    pub(crate) fn row(&mut self, cells: &[String]) {
        let row = cells
            .iter()
            .zip(&self.cols)
            .map(|(c, col)| cut(&sanitize::inline(c), col.max))
            .collect();
        self.rows.push(row);
    }

    /// Whether no row was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Writes the header and the rows.
    pub(crate) fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let widths: Vec<usize> = self
            .cols
            .iter()
            .enumerate()
            .map(|(i, c)| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(i))
                    .map(|s| s.width())
                    .chain([c.name.width()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let header: Vec<String> = self.cols.iter().map(|c| c.name.to_owned()).collect();
        for row in std::iter::once(&header).chain(&self.rows) {
            let mut line = String::new();
            for (i, (cell, col)) in row.iter().zip(&self.cols).enumerate() {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = widths[i].saturating_sub(cell.width());
                if col.right {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

/// Text cut to `max` display columns with `…` (0: whole).
pub(crate) fn cut(text: &str, max: usize) -> String {
    if max == 0 || text.width() <= max {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in text.chars() {
        let cw = c.width().unwrap_or(0);
        if w + cw + 1 > max {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

/// Whether a character must be escaped in JSON printed to a terminal.
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n')
        || sanitize::is_hidden_format(c)
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A JSON text with every character a terminal could act on escaped
/// (outside strings JSON is plain ASCII, so only string contents change,
/// and they decode to the same values).
pub(crate) fn inert_json(json: &str) -> String {
    if !json.chars().any(needs_escape) {
        return json.to_owned();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if needs_escape(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes a value as one pretty JSON document and a newline.
pub(crate) fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    writeln!(out, "{}", inert_json(&text))
}

/// Writes a value as one compact JSON line (a stream of events).
pub(crate) fn write_json_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string(value).map_err(io::Error::other)?;
    writeln!(out, "{}", inert_json(&text))
}

/// A failure to write stdout. A closed pipe (`outpost … | head`) ends the
/// command quietly: the reader has what it wanted.
pub(crate) fn stdout_failure(e: &io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::new(Exit::Ok, "")
    } else {
        Failure::new(Exit::Failed, format!("cannot write the output: {e}"))
    }
}

/// Now, UTC, to the second (the time stamp of a command's progress lines).
pub(crate) fn now_text() -> String {
    let t = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_cut_and_neutralise() {
        let mut t = Table::new(&[Col::left("ID", 0), Col::left("NAME", 8), Col::num("N")]);
        t.row(&["a1".into(), "Ann\x1b[31m Lee".into(), "7".into()]);
        t.row(&["b22".into(), "Bartholomew Jones".into(), "1234".into()]);
        let mut out = Vec::new();
        t.write(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "ID   NAME         N\na1   Ann Lee      7\nb22  Barthol…  1234\n"
        );
    }

    #[test]
    fn json_keeps_values_and_escapes_what_a_terminal_would_act_on() {
        let raw = "Ann\u{9b}31m \u{202e}evil\u{200b} Müller\x7f\u{2028}😀";
        let mut out = Vec::new();
        write_json_line(&mut out, &serde_json::json!({ "name": raw, "e": "\x1b" })).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.chars().all(|c| !needs_escape(c) || c == '\n'),
            "{text:?}"
        );
        assert!(text.contains("Müller") && text.contains("😀"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["name"], raw, "the value is unchanged");
        assert_eq!(back["e"], "\x1b");
    }
}
