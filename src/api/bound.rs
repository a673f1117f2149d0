//! How much one answer may hold, checked on its bytes before anything is
//! decoded: an answer of ten million empty objects fits in the body cap
//! (31 MB) yet decodes into gigabytes of default-filled items, once per
//! poll. [`check`] walks the bytes once, keeping nothing but the open
//! brackets, and stops at the first list past its bound, so a refused
//! answer costs no more than its bytes.
//!
//! The bounds: a page (an array directly in the answer's top-level object,
//! when the call asked for a page) holds at most the page size asked for;
//! any other array, and any object, at most [`LIST_MAX`] elements; all the
//! arrays of one answer together at most [`ANSWER_MAX`] elements.

use std::fmt;

/// The most elements one list (or keys one object) of an answer may hold
/// when no page size bounds it: campaigns, domains, senders, searches,
/// threads.
pub const LIST_MAX: usize = 100_000;

/// The most array elements one answer may hold in all: a list at its
/// largest, with as many again in the lists its items carry.
pub const ANSWER_MAX: usize = 2 * LIST_MAX;

/// Deeper nesting is left to the JSON parser, which refuses past 128; the
/// walk keeps one small frame per level, so it stops there too.
const MAX_DEPTH: usize = 128;

/// Which bound an answer passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// A page held more items than the `limit` asked for.
    Page {
        /// The page size asked for.
        limit: usize,
    },
    /// One list held more than [`LIST_MAX`] elements (or one object more
    /// than [`LIST_MAX`] keys).
    List,
    /// The answer's lists held more than [`ANSWER_MAX`] elements in all.
    Answer,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Overflow::Page { limit } => write!(
                f,
                "the service's answer holds more than the {limit} items per page asked for"
            ),
            Overflow::List => write!(
                f,
                "the service's answer lists more than {LIST_MAX} items in one list, more than Outpost reads from one answer"
            ),
            Overflow::Answer => write!(
                f,
                "the service's answer lists more than {ANSWER_MAX} items in all, more than Outpost reads from one answer"
            ),
        }
    }
}

/// One open bracket of the walk.
struct Frame {
    /// An array (else an object).
    array: bool,
    /// Elements (keys, for an object) seen so far.
    count: usize,
    /// The most it may hold.
    limit: usize,
    /// Whether it is the page the call asked for.
    page: bool,
    /// Whether the next token starts a new element (after `[`, `{`, `,`).
    expecting: bool,
}

/// Checks the answer `bytes` against the bounds; `page` is the page size
/// the call asked for (bounding each array directly in the top-level
/// object), `None` for a call that is not paged. Stops at the first element
/// past a bound. Bytes that are not JSON pass: the parser says what is
/// wrong with them.
pub(crate) fn check(bytes: &[u8], page: Option<usize>) -> Result<(), Overflow> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut total = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.expecting = true;
                }
            }
            b']' | b'}' => {
                stack.pop();
            }
            _ => {
                element(&mut stack, &mut total)?;
                match b {
                    b'"' => i = string_end(bytes, i),
                    b'[' | b'{' => {
                        if stack.len() >= MAX_DEPTH {
                            return Ok(());
                        }
                        let in_top_object = matches!(stack.as_slice(), [only] if !only.array);
                        let page = page.filter(|_| b == b'[' && in_top_object);
                        stack.push(Frame {
                            array: b == b'[',
                            count: 0,
                            limit: page.unwrap_or(LIST_MAX),
                            page: page.is_some(),
                            expecting: true,
                        });
                    }
                    // The rest of a number or literal: one element, counted
                    // at its first byte.
                    _ => {}
                }
            }
        }
        i += 1;
    }
    Ok(())
}

/// Counts the element starting here when one starts (the first token after
/// `[`, `{` or `,`; a key's value after `:` is not a new element).
fn element(stack: &mut [Frame], total: &mut usize) -> Result<(), Overflow> {
    let Some(top) = stack.last_mut() else {
        return Ok(());
    };
    if !top.expecting {
        return Ok(());
    }
    top.expecting = false;
    top.count += 1;
    if top.count > top.limit {
        return Err(if top.page {
            Overflow::Page { limit: top.limit }
        } else {
            Overflow::List
        });
    }
    if top.array {
        *total += 1;
        if *total > ANSWER_MAX {
            return Err(Overflow::Answer);
        }
    }
    Ok(())
}

/// The index of the quote closing the string that opens at `start` (the
/// last index when it never closes).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize, item: &str) -> String {
        vec![item; n].join(",")
    }

    #[test]
    fn a_list_holds_at_most_list_max_and_the_walk_stops_at_the_next() {
        let at = format!("{{\"campaigns\":[{}]}}", list(LIST_MAX, "{}"));
        assert_eq!(check(at.as_bytes(), None), Ok(()));
        // Garbage after the first element too many is never reached.
        let over = format!(
            "{{\"campaigns\":[{},{{}},\u{0}garbage",
            list(LIST_MAX, "{}")
        );
        assert_eq!(check(over.as_bytes(), None), Err(Overflow::List));
        let bare = format!("[{}]", list(LIST_MAX + 1, "0"));
        assert_eq!(check(bare.as_bytes(), None), Err(Overflow::List));
    }

    #[test]
    fn a_page_holds_at_most_its_size_and_only_the_page_is_bound_by_it() {
        let page = |n: usize| {
            format!(
                "{{\"search\":{{\"sourcePlans\":[{}]}},\"results\":[{}],\"pagination\":{{}}}}",
                list(30, "{}"),
                list(n, "{\"tags\":[1,2,3]}")
            )
        };
        assert_eq!(check(page(25).as_bytes(), Some(25)), Ok(()));
        assert_eq!(
            check(page(26).as_bytes(), Some(25)),
            Err(Overflow::Page { limit: 25 })
        );
        // Unpaged, the same answer is fine.
        assert_eq!(check(page(26).as_bytes(), None), Ok(()));
    }

    #[test]
    fn brackets_commas_and_quotes_inside_strings_are_not_elements() {
        let text = r#"{"threads":["a,b,c", "[1,2,3]", "q\"],[", "\\", "{\"x\":1}"]}"#;
        assert_eq!(check(text.as_bytes(), Some(5)), Ok(()));
        assert_eq!(
            check(text.as_bytes(), Some(4)),
            Err(Overflow::Page { limit: 4 })
        );
    }

    #[test]
    fn nested_lists_count_toward_the_answer() {
        let item = format!("{{\"sender_accounts\":[{}]}}", list(LIST_MAX / 2, "{}"));
        let four = format!("{{\"campaigns\":[{}]}}", list(4, &item));
        assert_eq!(check(four.as_bytes(), None), Err(Overflow::Answer));
        let three = format!("{{\"campaigns\":[{}]}}", list(3, &item));
        assert_eq!(check(three.as_bytes(), None), Ok(()));
    }

    #[test]
    fn an_object_holds_at_most_list_max_keys() {
        let keys: Vec<String> = (0..=LIST_MAX).map(|k| format!("\"k{k}\":0")).collect();
        let text = format!("{{\"counts\":{{{}}}}}", keys.join(","));
        assert_eq!(check(text.as_bytes(), None), Err(Overflow::List));
    }

    #[test]
    fn deep_nesting_and_broken_json_are_left_to_the_parser() {
        let deep = "[".repeat(100_000);
        assert_eq!(check(deep.as_bytes(), None), Ok(()));
        for broken in ["", "]]]", "}{", "\"unterminated", "[1,,,2", "\\"] {
            assert_eq!(check(broken.as_bytes(), Some(1)), Ok(()), "{broken:?}");
        }
    }
}
