//! Untrusted text made inert before it reaches a cell, a log line, the
//! clipboard or stdout.
//!
//! ratatui drops only the ESC byte of an escape sequence, so `"\x1b[0;36m"`
//! would still show as `[0;36m`, and it lets bidi overrides and zero-width
//! characters through. Here whole sequences are removed first (CSI; OSC, DCS,
//! SOS, PM, APC up to their terminator; two-byte escapes; the C1 forms), then
//! remaining controls are replaced, bidi and invisible format characters
//! dropped, runs of combining marks capped and the length capped.
//!
//! A zero-width joiner is kept only between two emoji (`👩‍💻`): anywhere
//! else a terminal may join the next character into the previous cell
//! (tmux does), so a row drawn as four cells takes three on screen and
//! every cell after it lands one column off. Text that looks like an API
//! key (`pk_live_…`) is masked to its last four characters wherever
//! service text is shown (`pk_live_…1a2b`); the clipboard gets it whole.

use std::fmt;

use unicode_width::UnicodeWidthChar;

/// Longest single-line text kept, in chars.
pub(crate) const INLINE_MAX: usize = 2048;
/// Longest multi-line text kept, in chars.
pub(crate) const BLOCK_MAX: usize = 256 * 1024;
/// Longest run of combining marks kept on one base character.
const MAX_COMBINING: usize = 4;

/// Text that went through the sanitizer: the only kind of service text the
/// views render.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DisplayText(String);

impl DisplayText {
    /// One line: newlines and tabs become spaces; key-like text masked.
    pub fn inline(raw: &str) -> DisplayText {
        DisplayText(shown(raw, false, INLINE_MAX))
    }

    /// Several lines: newlines kept (CR dropped), tabs expanded; key-like
    /// text masked.
    pub fn block(raw: &str) -> DisplayText {
        DisplayText(shown(raw, true, BLOCK_MAX))
    }

    /// Text written by Outpost itself (labels, numbers): passed through the
    /// same filter, so even a formatted value cannot smuggle a control.
    pub fn own(text: impl Into<String>) -> DisplayText {
        let text = text.into();
        if text.chars().all(is_plain) && !text.contains(KEY_MARK) {
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
/// logs); key-like text masked.
pub fn inline(raw: &str) -> String {
    shown(raw, false, INLINE_MAX)
}

/// Text for the clipboard: made inert like [`inline`] but never cut and
/// never masked, so a long DNS value is copied whole (the caller caps the
/// size).
pub(crate) fn clipboard(raw: &str) -> String {
    sanitize(raw, false, usize::MAX)
}

/// The user's own typed text printed on the restored terminal so it can be
/// copied (unsent drafts that could not be saved): lines kept, made inert,
/// never cut and never masked — it is theirs, and this may be its last copy.
pub(crate) fn printable(raw: &str) -> String {
    sanitize(raw, true, usize::MAX)
}

/// The user's own text for a box (a draft restored, a paste): made inert
/// like [`DisplayText`], but never cut and never masked. With `lines`,
/// line breaks are kept (`\r\n` and `\r` as `\n`).
pub(crate) fn typed(raw: &str, lines: bool) -> String {
    if lines {
        sanitize(
            &raw.replace("\r\n", "\n").replace('\r', "\n"),
            true,
            usize::MAX,
        )
    } else {
        sanitize(raw, false, usize::MAX)
    }
}

/// Pasted text for a box: made inert like [`DisplayText`], but never
/// masked (it is the user's own) and never given a character that was not
/// pasted (no `…` where it was cut). A box takes the first [`INLINE_MAX`]
/// (one line) or [`BLOCK_MAX`] (several lines) characters of a paste;
/// [`Pasted::notice`] says when the paste was longer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pasted {
    /// The inert text to insert.
    pub text: String,
    /// Characters pasted, when more than the box took.
    pub cut_from: Option<usize>,
    /// Lines kept (a multi-line box).
    lines: bool,
}

impl Pasted {
    /// For a one-line box: line breaks and tabs become spaces.
    pub(crate) fn inline(raw: &str) -> Pasted {
        Pasted::new(raw, false)
    }

    /// For a multi-line box: line breaks kept (`\r\n` and `\r` as `\n`),
    /// tabs expanded.
    pub(crate) fn block(raw: &str) -> Pasted {
        Pasted::new(&raw.replace("\r\n", "\n").replace('\r', "\n"), true)
    }

    fn new(raw: &str, lines: bool) -> Pasted {
        let max = if lines { BLOCK_MAX } else { INLINE_MAX };
        let (head, cut_from) = match raw.char_indices().nth(max) {
            Some((at, _)) => (&raw[..at], Some(raw.chars().count())),
            None => (raw, None),
        };
        Pasted {
            text: typed(head, lines),
            cut_from,
            lines,
        }
    }

    /// What the user is told of a paste the box did not take whole.
    pub(crate) fn notice(&self) -> Option<String> {
        let (max, what) = if self.lines {
            (BLOCK_MAX, "a text box")
        } else {
            (INLINE_MAX, "a one-line field")
        };
        self.cut_from.map(|n| {
            format!(
                "only the first {} of the {} characters pasted went in: {what} takes at most {} at once",
                crate::text::format::count(max as u64),
                crate::text::format::count(n as u64),
                crate::text::format::count(max as u64),
            )
        })
    }
}

/// The title of [`Pasted::notice`]'s toast.
pub(crate) const PASTE_CUT: &str = "Paste cut short";

/// What starts text that may be an API key.
const KEY_MARK: &str = "pk_";

/// Sanitizes, then masks anything shaped like a key (after sanitizing, so
/// an invisible character inside a key cannot hide it from the mask).
fn shown(raw: &str, keep_newlines: bool, max: usize) -> String {
    let clean = sanitize(raw, keep_newlines, max);
    if clean.contains(KEY_MARK) {
        crate::api::key::redact(&clean)
    } else {
        clean
    }
}

/// Whether a char can never need filtering (the fast path).
fn is_plain(c: char) -> bool {
    (' '..='~').contains(&c)
}

/// Every format character (Unicode's general category Cf: bidi controls,
/// zero-width and invisible marks, tags, prepended number signs) — they can
/// reorder or hide text. ZWNJ (U+200C) is kept (several scripts need it);
/// ZWJ (U+200D) is handled apart: kept only inside emoji sequences.
pub(crate) fn is_hidden_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}'
        | '\u{0600}'..='\u{0605}'
        | '\u{061C}' | '\u{06DD}' | '\u{070F}'
        | '\u{0890}'..='\u{0891}'
        | '\u{08E2}' | '\u{180E}' | '\u{200B}' | '\u{200E}' | '\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}'
        | '\u{FEFF}'
        | '\u{FFF9}'..='\u{FFFB}'
        | '\u{110BD}' | '\u{110CD}'
        | '\u{13430}'..='\u{1343F}'
        | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}'
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

/// The output of [`sanitize`] being built: the text, its length in chars,
/// and the current run of combining marks.
struct Out {
    text: String,
    count: usize,
    combining: usize,
}

impl Out {
    fn push(&mut self, c: char) {
        self.text.push(c);
        self.count += 1;
    }

    /// Whether nothing precedes on this line (a mark would have no base).
    fn at_line_start(&self) -> bool {
        self.text.is_empty() || self.text.ends_with('\n')
    }

    /// A base character (or a replacement): ends any run of combining marks.
    fn base(&mut self, c: char) {
        self.combining = 0;
        self.push(c);
    }
}

fn sanitize(raw: &str, keep_newlines: bool, max: usize) -> String {
    if raw.len() <= max && raw.chars().all(is_plain) {
        return raw.to_owned();
    }
    let mut out = Out {
        text: String::with_capacity(raw.len().min(max.saturating_mul(4))),
        count: 0,
        combining: 0,
    };
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if out.count >= max {
            out.text.push('…');
            break;
        }
        match c {
            '\u{1B}' => skip_escape(&mut chars),
            '\u{9B}' => skip_csi(&mut chars),
            '\u{90}' | '\u{98}' | '\u{9D}' | '\u{9E}' | '\u{9F}' => skip_string(&mut chars),
            '\n' if keep_newlines => out.base('\n'),
            '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{0B}' | '\u{0C}' => {
                if !(keep_newlines && c == '\r') {
                    out.base(' ');
                }
            }
            '\t' => {
                for _ in 0..if keep_newlines { 4 } else { 1 } {
                    out.base(' ');
                }
            }
            c if c.is_control() => out.base('\u{FFFD}'),
            c if is_hidden_format(c) => {}
            // A zero-width mark with nothing to sit on (at the start of a
            // line) becomes a cell of its own in ratatui that the terminal
            // does not advance over: the row ends up one column short.
            c if out.at_line_start() && c.width() == Some(0) => {}
            c if is_combining(c) => {
                out.combining += 1;
                if out.combining <= MAX_COMBINING {
                    out.push(c);
                }
            }
            c => out.base(c),
        }
    }
    if out.text.contains(ZWJ) {
        unjoin(&out.text)
    } else {
        out.text
    }
}

/// The zero-width joiner.
const ZWJ: char = '\u{200D}';

/// Drops every zero-width joiner that does not join two emoji. A joiner
/// always belongs to the grapheme before it, and joins the next character
/// into that grapheme only inside an emoji sequence; so a grapheme that
/// ends in joiners holds exactly the ones that join nothing. The same
/// segmentation as ratatui's, so what is kept is what it lays out as one
/// cell.
fn unjoin(text: &str) -> String {
    use unicode_segmentation::UnicodeSegmentation;
    text.graphemes(true)
        .map(|g| g.trim_end_matches(ZWJ))
        .collect()
}

/// Skips what follows an ESC: a CSI, a control string, an nF escape, or
/// one final character.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.peek().copied() {
        Some('[') => {
            chars.next();
            skip_csi(chars);
        }
        Some(']' | 'P' | 'X' | '^' | '_') => {
            chars.next();
            skip_string(chars);
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The format characters (general category Cf, Unicode 16) that must
    /// never reach the terminal, written out here rather than asked of the
    /// code under test: ZWNJ and ZWJ aside (kept by rule).
    const FORMAT: &[(char, char)] = &[
        ('\u{00AD}', '\u{00AD}'),
        ('\u{0600}', '\u{0605}'),
        ('\u{061C}', '\u{061C}'),
        ('\u{06DD}', '\u{06DD}'),
        ('\u{070F}', '\u{070F}'),
        ('\u{0890}', '\u{0891}'),
        ('\u{08E2}', '\u{08E2}'),
        ('\u{180E}', '\u{180E}'),
        ('\u{200B}', '\u{200B}'),
        ('\u{200E}', '\u{200F}'),
        ('\u{202A}', '\u{202E}'),
        ('\u{2060}', '\u{2064}'),
        ('\u{2066}', '\u{206F}'),
        ('\u{FEFF}', '\u{FEFF}'),
        ('\u{FFF9}', '\u{FFFB}'),
        ('\u{110BD}', '\u{110BD}'),
        ('\u{110CD}', '\u{110CD}'),
        ('\u{13430}', '\u{1343F}'),
        ('\u{1BCA0}', '\u{1BCA3}'),
        ('\u{1D173}', '\u{1D17A}'),
        ('\u{E0001}', '\u{E0001}'),
        ('\u{E0020}', '\u{E007F}'),
    ];

    fn format_char(c: char) -> bool {
        FORMAT.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c))
    }

    fn denied(c: char) -> bool {
        (c.is_control() && c != '\n') || format_char(c)
    }

    /// Each format character alone, between letters: removed everywhere a
    /// service text is shown (inline and block), the letters kept.
    #[test]
    fn every_format_character_is_removed() {
        for (lo, hi) in FORMAT {
            for c in *lo..=*hi {
                let s = format!("a{c}b");
                assert_eq!(inline(&s), "ab", "U+{:04X} inline", c as u32);
                assert_eq!(
                    DisplayText::block(&s).as_str(),
                    "ab",
                    "U+{:04X} block",
                    c as u32
                );
            }
        }
        // Kept by rule: ZWNJ always, ZWJ inside an emoji sequence.
        assert_eq!(inline("a\u{200C}b"), "a\u{200C}b");
        assert_eq!(inline("👩\u{200D}💻"), "👩\u{200D}💻");
    }

    /// A paste is the user's own text: made inert, never masked, cut (when
    /// past its box's bound) at a character with nothing added, and the
    /// cut is told.
    #[test]
    fn a_paste_is_cut_with_nothing_added_and_says_so() {
        let p = Pasted::inline("pk_live_abcdefghijkl\x1b[31m red");
        assert_eq!(p.text, "pk_live_abcdefghijkl red");
        assert_eq!((p.cut_from, p.notice()), (None, None));
        let long = "é".repeat(INLINE_MAX + 5);
        let p = Pasted::inline(&long);
        assert_eq!(p.text, "é".repeat(INLINE_MAX));
        assert_eq!(p.cut_from, Some(INLINE_MAX + 5));
        assert!(p.notice().is_some_and(|n| n.contains("2,048 of the 2,053")));
        let p = Pasted::block(&"a\r\n".repeat(BLOCK_MAX));
        assert_eq!(p.text.len(), BLOCK_MAX, "CR LF is one line break");
        assert!(!p.text.contains('…') && !p.text.contains('\r'));
        assert!(p.notice().is_some_and(|n| n.contains("a text box")));
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
    fn a_zero_width_joiner_survives_only_inside_an_emoji_sequence() {
        // Seen in a search title: tmux joined `c` into the cell of `b`.
        assert_eq!(inline("ab\u{200D}cd"), "abcd");
        assert_eq!(DisplayText::block("x\u{200D}\ny").as_str(), "x\ny");
        assert_eq!(inline("👩\u{200D}💻 dev"), "👩\u{200D}💻 dev");
        assert_eq!(inline("👩🏽\u{200D}🚀"), "👩🏽\u{200D}🚀", "after a skin tone");
        assert_eq!(inline("❤\u{FE0F}\u{200D}🔥"), "❤\u{FE0F}\u{200D}🔥");
        // A joiner at an end, doubled, or between an emoji and a letter.
        assert_eq!(inline("👩\u{200D}"), "👩");
        assert_eq!(inline("\u{200D}💻"), "💻");
        assert_eq!(inline("👩\u{200D}\u{200D}💻"), "👩💻");
        // A flag is no emoji to join (tmux would pull 👩 into its cell).
        assert_eq!(inline("🇫🇷\u{200D}👩"), "🇫🇷👩");
        assert_eq!(inline("👩\u{200D}a"), "👩a");
        assert_eq!(inline("a\u{200D}👩"), "a👩");
        // A mark with nothing to sit on goes; on a base it stays.
        assert_eq!(inline("\u{301}e\u{301}"), "e\u{301}");
        assert_eq!(DisplayText::block("a\n\u{FE0F}b").as_str(), "a\nb");
        // ZWNJ stays: Persian needs it.
        assert_eq!(inline("می\u{200C}خواهم"), "می\u{200C}خواهم");
    }

    #[test]
    fn key_like_text_is_masked_where_it_is_shown() {
        let echoed = "your key pk_live_abcdefgh1a2b is not allowed";
        assert_eq!(inline(echoed), "your key pk_live_…1a2b is not allowed");
        assert_eq!(
            DisplayText::inline(echoed).as_str(),
            "your key pk_live_…1a2b is not allowed"
        );
        assert_eq!(
            DisplayText::block("a\npk_live_abcdefgh1a2b\n").as_str(),
            "a\npk_live_…1a2b\n"
        );
        assert_eq!(
            DisplayText::own(format!("key pk_live_abcdefgh{}", "1a2b")).as_str(),
            "key pk_live_…1a2b"
        );
        // An invisible character cannot hide a key from the mask.
        assert_eq!(inline("pk_live_abcd\u{200B}efgh1a2b"), "pk_live_…1a2b");
        // Already masked text, and the bare prefix, stay as they are.
        assert_eq!(inline("pk_live_…1a2b"), "pk_live_…1a2b");
        assert_eq!(inline("pk_ and pk_live_"), "pk_ and pk_live_");
        // The clipboard and the user's own printed text are never masked.
        assert_eq!(clipboard(echoed), echoed);
        assert_eq!(printable(echoed), echoed);
    }

    #[test]
    fn printable_text_keeps_lines_and_drops_escapes() {
        assert_eq!(printable("a\x1b[2Jb\nc\u{7}"), "ab\nc\u{FFFD}");
        let long = "y".repeat(BLOCK_MAX + 5);
        assert_eq!(printable(&long), long, "never cut");
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
        fn output_is_inert_and_idempotent(s in "(\\PC|\\p{Cf}|[\\x00-\\x1f\\x7f-\\x9f])*") {
            let once = inline(&s);
            prop_assert!(!once.chars().any(|c| denied(c) || c == '\n'), "{:?}", once);
            prop_assert_eq!(inline(&once), once.clone());
            let block = DisplayText::block(&s);
            prop_assert!(!block.as_str().chars().any(denied));
        }
    }
}
