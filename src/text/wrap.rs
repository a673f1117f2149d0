//! Word wrapping by display width, shared by drawing (which lays the lines
//! out) and `update` (which only needs to count them to bound a scroll).

use unicode_width::UnicodeWidthChar;

/// Display width of one char (0 for controls, which never reach here).
fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Cuts `text` into lines of at most `width` columns, breaking at spaces
/// (a word longer than a line, such as a URL, is cut where it falls), each
/// line of the text on its own.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let cw = char_width;
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut w = 0usize;
        for word in para.split(' ') {
            let ww: usize = word.chars().map(cw).sum();
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
            for c in word.chars() {
                let x = cw(c);
                if w + x > width && !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                    w = 0;
                }
                line.push(c);
                w += x;
            }
        }
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_breaks_at_spaces_and_cuts_what_cannot_fit() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("link: abcdefghij", 8), ["link: ab", "cdefghij"]);
        assert_eq!(wrap("a\n\nb", 5), ["a", "", "b"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("López Ω", 5), ["López", "Ω"]);
        assert!(wrap("x y z", 0).iter().all(|l| l.chars().count() <= 1));
    }
}
