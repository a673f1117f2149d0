//! Find in the body: the text typed, as it is (no pattern syntax: `.` is a
//! dot), in any case, within a line. The match is selected with the
//! cursor on its first character, so the view shows it and the next look
//! starts from it. Written here rather than with ratatui-textarea's regex
//! search: a literal look needs no regex engine, which was the largest
//! optional part of the binary.

use ratatui_textarea::{CursorMove, TextArea};

/// One character as compared: its lowercase form's first character (so
/// positions stay those of the text).
fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Where `needle` starts in `lines` (row, character column), looking
/// forward from just after `from` (or at it, `at_from`), or back from just
/// before it; wrapping around the body. `None` when it is nowhere (or the
/// needle is empty).
pub(super) fn locate(
    lines: &[String],
    needle: &str,
    from: (usize, usize),
    forward: bool,
    at_from: bool,
) -> Option<(usize, usize)> {
    let needle: Vec<char> = needle.chars().map(fold).collect();
    if needle.is_empty() || lines.is_empty() {
        return None;
    }
    let starts = |row: usize| -> Vec<usize> {
        let line: Vec<char> = lines[row].chars().map(fold).collect();
        if line.len() < needle.len() {
            return Vec::new();
        }
        (0..=line.len() - needle.len())
            .filter(|&i| line[i..i + needle.len()] == needle[..])
            .collect()
    };
    let n = lines.len();
    let (row, col) = (from.0.min(n - 1), from.1);
    if forward {
        // The rest of this line, every other line in turn, then this
        // line's start (wrapping).
        let first = starts(row)
            .into_iter()
            .find(|&i| if at_from { i >= col } else { i > col });
        if let Some(i) = first {
            return Some((row, i));
        }
        for k in 1..n {
            let r = (row + k) % n;
            if let Some(&i) = starts(r).first() {
                return Some((r, i));
            }
        }
        starts(row).first().map(|&i| (row, i))
    } else {
        let before = starts(row).into_iter().rev().find(|&i| i < col);
        if let Some(i) = before {
            return Some((row, i));
        }
        for k in 1..n {
            let r = (row + n - k) % n;
            if let Some(&i) = starts(r).last() {
                return Some((r, i));
            }
        }
        starts(row).last().map(|&i| (row, i))
    }
}

/// Moves the cursor to (`row`, `col`) in characters.
fn jump(ta: &mut TextArea<'_>, row: usize, col: usize) {
    match (u16::try_from(row), u16::try_from(col)) {
        (Ok(r), Ok(c)) => ta.move_cursor(CursorMove::Jump(r, c)),
        _ => {
            // Past what `Jump` can name: to the row, then along it.
            ta.move_cursor(CursorMove::Top);
            for _ in 0..row {
                ta.move_cursor(CursorMove::Down);
            }
            ta.move_cursor(CursorMove::Head);
            for _ in 0..col {
                ta.move_cursor(CursorMove::Forward);
            }
        }
    }
}

/// Looks for `needle` in `ta` from its cursor (see [`locate`]) and selects
/// what it finds, the cursor on its first character; `false` (the
/// selection dropped, the cursor kept) when it is nowhere.
pub(super) fn look(ta: &mut TextArea<'_>, needle: &str, forward: bool, at_cursor: bool) -> bool {
    let ratatui_textarea::DataCursor(r, c) = ta.cursor();
    let from = (r, c);
    let Some((row, col)) = locate(ta.lines(), needle, from, forward, at_cursor) else {
        ta.cancel_selection();
        return false;
    };
    ta.cancel_selection();
    jump(ta, row, col + needle.chars().count());
    ta.start_selection();
    jump(ta, row, col);
    true
}

#[cfg(test)]
mod tests {
    use ratatui_textarea::DataCursor;

    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn a_look_is_literal_in_any_case_and_wraps_both_ways() {
        let body = lines("Sync at 9.\nsync again\nNo S.a here: SaaStock");
        // From the top, at the cursor: the first line's own.
        assert_eq!(locate(&body, "SYNC", (0, 0), true, true), Some((0, 0)));
        // Next: past the cursor.
        assert_eq!(locate(&body, "sync", (0, 0), true, false), Some((1, 0)));
        // Wrapping forward from the last match.
        assert_eq!(locate(&body, "sync", (1, 0), true, false), Some((0, 0)));
        // Back from the first wraps to the last.
        assert_eq!(locate(&body, "sync", (0, 0), false, false), Some((1, 0)));
        // A dot is a dot.
        assert_eq!(locate(&body, "S.a", (0, 0), true, true), Some((2, 3)));
        assert_eq!(locate(&body, "9.", (0, 0), true, true), Some((0, 8)));
        assert_eq!(locate(&body, "x.y", (0, 0), true, true), None);
        assert_eq!(locate(&body, "", (0, 0), true, true), None);
    }

    #[test]
    fn positions_are_characters_not_bytes() {
        let body = lines("Grüße aus Köln, KÖLN");
        assert_eq!(locate(&body, "köln", (0, 0), true, true), Some((0, 10)));
        assert_eq!(locate(&body, "köln", (0, 10), true, false), Some((0, 16)));
    }

    #[test]
    fn a_found_match_is_selected_with_the_cursor_on_its_start() {
        let mut ta = TextArea::new(lines("one two\nthree two"));
        assert!(look(&mut ta, "TWO", true, true));
        assert_eq!(ta.cursor(), DataCursor(0, 4));
        assert_eq!(ta.selection_range(), Some(((0, 4), (0, 7))));
        assert!(look(&mut ta, "two", true, false));
        assert_eq!(ta.cursor(), DataCursor(1, 6));
        assert!(!look(&mut ta, "four", true, false));
        assert_eq!(ta.cursor(), DataCursor(1, 6), "nowhere: the cursor stays");
        assert_eq!(ta.selection_range(), None);
    }
}
