//! Word wrapping by display width, shared by drawing (which lays the lines
//! out) and `update` (which only needs to count them to bound a scroll).
//!
//! Views wrap with this, never with ratatui's `Paragraph::wrap`: ratatui
//! 0.30's word wrapper can put a wide character (CJK, emoji) on a line with
//! no room left for it, drawing past the area's edge (ratatui issue #2679).
//! Here lines are cut between graphemes, measured as ratatui measures the
//! cells it fills, so a line never exceeds its width and an emoji sequence
//! is never split.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Display width of one grapheme, as ratatui lays it out.
fn grapheme_width(g: &str) -> usize {
    g.width()
}

/// Display width of a piece of text, grapheme by grapheme.
pub(crate) fn width(text: &str) -> usize {
    text.graphemes(true).map(grapheme_width).sum()
}

/// `text` on one line of at most `columns` columns: whole when it fits,
/// else cut between graphemes and ended with `…`, so a reader sees that
/// more was said (`:messages` has it whole).
pub(crate) fn fit(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut w = 0;
    for g in text.graphemes(true) {
        let gw = grapheme_width(g);
        if w + gw + 1 > columns {
            break;
        }
        out.push_str(g);
        w += gw;
    }
    if columns > 0 {
        out.push('…');
    }
    out
}

/// Cuts `text` into lines of at most `width` columns, breaking at spaces
/// (a word longer than a line, such as a URL, is cut where it falls), each
/// line of the text on its own.
pub(crate) fn wrap(text: &str, columns: usize) -> Vec<String> {
    let width = columns.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut w = 0usize;
        for word in para.split(' ') {
            let ww = self::width(word);
            let gap = usize::from(!line.is_empty());
            if w + gap + ww <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(word);
                w += gap + ww;
                continue;
            }
            if ww <= width {
                // It fits a line of its own.
                out.push(std::mem::take(&mut line));
                w = 0;
            } else if gap == 1 && w + 1 < width {
                // Longer than any line (a URL): cut, starting right here.
                line.push(' ');
                w += 1;
            } else if !line.is_empty() {
                out.push(std::mem::take(&mut line));
                w = 0;
            }
            for g in word.graphemes(true) {
                let x = grapheme_width(g);
                if w + x > width && !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                    w = 0;
                }
                // Wider than the whole line (a wide character in one
                // column): left out rather than drawn past the edge.
                if x > width {
                    continue;
                }
                line.push_str(g);
                w += x;
            }
        }
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{fit, width, wrap};

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_what_cannot_fit() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("link: abcdefghij", 8), ["link: ab", "cdefghij"]);
        assert_eq!(wrap("a\n\nb", 5), ["a", "", "b"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("López Ω", 5), ["López", "Ω"]);
        assert!(wrap("x y z", 0).iter().all(|l| l.chars().count() <= 1));
    }

    #[test]
    fn wide_characters_never_overflow_and_emoji_stay_whole() {
        // ratatui 0.30 puts `漢字` on one 2-column line after `a`.
        assert_eq!(wrap("a漢字", 2), ["a", "漢", "字"]);
        assert_eq!(wrap("    漢字かな", 2), ["漢", "字", "か", "な"]);
        assert_eq!(wrap("ab👩\u{200D}💻", 3), ["ab", "👩\u{200D}💻"]);
        assert_eq!(wrap("漢", 1), [""], "cannot fit at all");
        for line in wrap("x漢y字zかなab cd 👍🏽👍🏽", 3) {
            assert!(super::width(&line) <= 3, "{line}");
        }
    }

    #[test]
    fn fit_cuts_with_an_ellipsis_only_when_needed() {
        assert_eq!(fit("short", 10), "short");
        assert_eq!(fit("a longer error message", 10), "a longer …");
        assert_eq!(width(&fit("日本語のエラー", 7)), 7);
        assert_eq!(fit("anything", 0), "");
    }
}
