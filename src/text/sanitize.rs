//! Untrusted text made inert before it reaches a cell, a log line, the
//! clipboard or stdout.
//!
//! ratatui drops only the ESC byte of an escape sequence, so `"\x1b[0;36m"`
//! would still show as `[0;36m`, and it lets bidi overrides and zero-width
//! characters through. Here whole sequences are removed first (CSI; OSC, DCS,
//! SOS, PM, APC up to their terminator; two-byte escapes; the C1 forms), then
//! remaining controls are replaced, bidi and invisible format characters
//! dropped, runs of combining marks capped and the length capped.

use std::fmt;

/// Longest single-line text kept, in chars.
pub const INLINE_MAX: usize = 2048;
/// Longest multi-line text kept, in chars.
pub const BLOCK_MAX: usize = 256 * 1024;
/// Longest run of combining marks kept on one base character.
const MAX_COMBINING: usize = 4;

/// Text that went through the sanitizer: the only kind of service text the
/// views render.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DisplayText(String);

impl DisplayText {
    /// One line: newlines and tabs become spaces.
    pub fn inline(raw: &str) -> DisplayText {
        DisplayText(sanitize(raw, false, INLINE_MAX))
    }

    /// Several lines: newlines kept (CR dropped), tabs expanded.
    pub fn block(raw: &str) -> DisplayText {
        DisplayText(sanitize(raw, true, BLOCK_MAX))
    }

    /// Text written by Outpost itself (labels, numbers): passed through the
    /// same filter, so even a formatted value cannot smuggle a control.
    pub fn own(text: impl Into<String>) -> DisplayText {
        let text = text.into();
        if text.chars().all(is_plain) {
            DisplayText(text)
        } else {
            DisplayText::inline(&text)
        }
    }

    /// The inert text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Consumes it into the inert `String`.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for DisplayText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for DisplayText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// One-line sanitizing, for text printed outside the TUI (stdout, stderr,
/// the clipboard).
pub fn inline(raw: &str) -> String {
    sanitize(raw, false, INLINE_MAX)
}

/// Text for the clipboard: made inert like [`inline`] but never cut, so a
/// long DNS value is copied whole (the caller caps the size).
pub fn clipboard(raw: &str) -> String {
    sanitize(raw, false, usize::MAX)
}

/// Whether a char can never need filtering (the fast path).
fn is_plain(c: char) -> bool {
    (' '..='~').contains(&c)
}

/// Bidi controls, zero-width and other invisible format characters that can
/// reorder or hide text. ZWJ (U+200D) and ZWNJ (U+200C) are kept: emoji
/// sequences and several scripts need them.
pub(crate) fn is_hidden_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}' | '\u{200E}' | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}'
        | '\u{FEFF}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}')
}

fn is_combining(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// Skips a CSI body (parameters, intermediates, final byte).
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(&c) = chars.peek() {
        chars.next();
        if ('\u{40}'..='\u{7E}').contains(&c) {
            return;
        }
        if !('\u{20}'..='\u{3F}').contains(&c) {
            // Not a valid CSI byte: the sequence is broken; stop here.
            return;
        }
    }
}

/// Skips a control string (OSC, DCS, SOS, PM, APC) up to BEL, ST (`ESC \`
/// or U+009C), a newline or the end.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(&c) = chars.peek() {
        match c {
            '\u{07}' | '\u{9C}' => {
                chars.next();
                return;
            }
            '\n' => return,
            '\u{1B}' => {
                chars.next();
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                return;
            }
            _ => {
                chars.next();
            }
        }
    }
}

fn sanitize(raw: &str, keep_newlines: bool, max: usize) -> String {
    if raw.len() <= max && raw.chars().all(is_plain) {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len().min(max.saturating_mul(4)));
    let mut count = 0usize;
    let mut combining = 0usize;
    let mut chars = raw.chars().peekable();
    let push = |out: &mut String, c: char, count: &mut usize| {
        out.push(c);
        *count += 1;
    };
    while let Some(c) = chars.next() {
        if count >= max {
            out.push('…');
            break;
        }
        match c {
            '\u{1B}' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    chars.next();
                    skip_string(&mut chars);
                }
                Some(n) if ('\u{20}'..='\u{2F}').contains(&n) => {
                    // nF escape: intermediates then one final byte.
                    while chars
                        .peek()
                        .is_some_and(|c| ('\u{20}'..='\u{2F}').contains(c))
                    {
                        chars.next();
                    }
                    chars.next();
                }
                Some(n) if !n.is_control() => {
                    chars.next();
                }
                _ => {}
            },
            '\u{9B}' => skip_csi(&mut chars),
            '\u{90}' | '\u{98}' | '\u{9D}' | '\u{9E}' | '\u{9F}' => skip_string(&mut chars),
            '\n' if keep_newlines => {
                combining = 0;
                push(&mut out, '\n', &mut count);
            }
            '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{0B}' | '\u{0C}' => {
                if !(keep_newlines && c == '\r') {
                    combining = 0;
                    push(&mut out, ' ', &mut count);
                }
            }
            '\t' => {
                combining = 0;
                for _ in 0..if keep_newlines { 4 } else { 1 } {
                    push(&mut out, ' ', &mut count);
                }
            }
            c if c.is_control() => {
                combining = 0;
                push(&mut out, '\u{FFFD}', &mut count);
            }
            c if is_hidden_format(c) => {}
            c if is_combining(c) => {
                combining += 1;
                if combining <= MAX_COMBINING {
                    push(&mut out, c, &mut count);
                }
            }
            c => {
                combining = 0;
                push(&mut out, c, &mut count);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn denied(c: char) -> bool {
        (c.is_control() && c != '\n') || is_hidden_format(c)
    }

    #[test]
    fn whole_sequences_are_removed() {
        assert_eq!(inline("a\x1b[0;36mb\x1b[0mc"), "abc");
        assert_eq!(inline("x\x1b]0;pwned\x07y"), "xy");
        assert_eq!(inline("x\x1b]52;c;SGVsbG8=\x1b\\y"), "xy");
        assert_eq!(inline("x\x1bPq#0;2;0;0;0\x1b\\y"), "xy");
        assert_eq!(inline("x\u{9b}31my"), "xy");
        assert_eq!(inline("x\u{9d}0;t\u{9c}y"), "xy");
        assert_eq!(inline("x\x1b(By\x1bcz"), "xyz");
        assert_eq!(inline("a\x1b[2J\x1b[Hfake prompt$ "), "afake prompt$ ");
    }

    #[test]
    fn controls_bidi_and_zero_width_are_neutralised() {
        assert_eq!(
            inline("a\u{202E}b\u{2066}c\u{200B}d\u{200F}e\u{FEFF}"),
            "abcde"
        );
        assert_eq!(inline("a\tb\r\nc\u{7}"), "a b  c\u{FFFD}");
        assert_eq!(DisplayText::block("l1\r\nl2\tx").as_str(), "l1\nl2    x");
        // ZWJ emoji sequences survive.
        assert_eq!(inline("👩\u{200D}💻"), "👩\u{200D}💻");
    }

    #[test]
    fn the_clipboard_gets_the_whole_value() {
        let long = format!("v=DKIM1; p={}", "A".repeat(5000));
        assert_eq!(clipboard(&long), long);
        assert_eq!(clipboard("a\x1b]52;c;eA==\x07b"), "ab");
    }

    #[test]
    fn length_and_zalgo_are_capped() {
        let long = "x".repeat(INLINE_MAX + 10);
        assert_eq!(inline(&long).chars().count(), INLINE_MAX + 1);
        let zalgo = format!("a{}", "\u{0301}".repeat(50));
        assert_eq!(inline(&zalgo).chars().count(), 1 + MAX_COMBINING);
    }

    proptest! {
        #[test]
        fn output_is_inert_and_idempotent(s in "(\\PC|[\\x00-\\x1f\\x7f-\\x9f\u{202A}-\u{202E}\u{2066}-\u{2069}\u{200B}])*") {
            let once = inline(&s);
            prop_assert!(!once.chars().any(|c| denied(c) || c == '\n'), "{:?}", once);
            prop_assert_eq!(inline(&once), once.clone());
            let block = DisplayText::block(&s);
            prop_assert!(!block.as_str().chars().any(denied));
        }
    }
}
