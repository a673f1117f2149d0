//! A reply in a thread: which message it answers (the last inbound one),
//! its subject (`Re: ` once, never `Re: Re:`), and the HTML body sent
//! beside the text one. The reply carries all three fields itself, so the
//! service never fills one from a stale draft of the thread.

use crate::api::model::ThreadMessage;

/// The message a reply on a thread answers: its last inbound one.
pub(crate) fn last_inbound(messages: &[ThreadMessage]) -> Option<&ThreadMessage> {
    messages
        .iter()
        .rev()
        .find(|m| m.direction.eq_ignore_ascii_case("inbound"))
}

/// The subject of a reply to a message with `subject`: `Re: ` before it,
/// unless it already starts with `Re:`, `RE:`, `re:` or a counted `Re[2]:`
/// (kept as it is, never doubled). A blank subject gives `Re: (no
/// subject)`.
pub(crate) fn subject(of: &str) -> String {
    let s = of.trim();
    if s.is_empty() {
        return "Re: (no subject)".to_owned();
    }
    if is_reply(s) {
        s.to_owned()
    } else {
        format!("Re: {s}")
    }
}

/// Whether a subject starts with a reply prefix: `re:` in any case, or
/// `re[N]:` with a count.
fn is_reply(s: &str) -> bool {
    let Some(head) = s.get(..2) else {
        return false;
    };
    if !head.eq_ignore_ascii_case("re") {
        return false;
    }
    let rest = &s[2..];
    if rest.starts_with(':') {
        return true;
    }
    rest.strip_prefix('[')
        .and_then(|r| r.split_once("]:"))
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The HTML body of a text body: escaped, paragraphs (split at blank
/// lines) in `<p>`, single line breaks as `<br>`.
pub(crate) fn html_of_text(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    let mut out = String::new();
    for para in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        out.push_str("<p>");
        for (i, line) in para.lines().enumerate() {
            if i > 0 {
                out.push_str("<br>");
            }
            escape_into(&mut out, line);
        }
        out.push_str("</p>");
    }
    out
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn re_is_added_once() {
        assert_eq!(subject("Pricing"), "Re: Pricing");
        assert_eq!(subject(" Re: Pricing "), "Re: Pricing");
        assert_eq!(subject("RE: Pricing"), "RE: Pricing");
        assert_eq!(subject("re:Pricing"), "re:Pricing");
        assert_eq!(subject("Re[2]: Pricing"), "Re[2]: Pricing");
        assert_eq!(subject("Re[]: Pricing"), "Re: Re[]: Pricing");
        assert_eq!(subject("Regarding pricing"), "Re: Regarding pricing");
        assert_eq!(subject("Ré: x"), "Re: Ré: x");
        assert_eq!(subject(""), "Re: (no subject)");
    }

    #[test]
    fn the_last_inbound_message_is_answered() {
        let m = |d: &str, s: &str| ThreadMessage {
            direction: d.into(),
            subject: s.into(),
            ..ThreadMessage::default()
        };
        let msgs = [
            m("outbound", "a"),
            m("inbound", "b"),
            m("Inbound", "c"),
            m("outbound", "d"),
        ];
        assert_eq!(last_inbound(&msgs).map(|m| m.subject.as_str()), Some("c"));
        assert_eq!(last_inbound(&msgs[..1]), None);
    }

    #[test]
    fn text_becomes_escaped_paragraphs() {
        assert_eq!(
            html_of_text("Hi <Rosa> & team,\r\nthanks.\n\n\nBest,\nSam\n"),
            "<p>Hi &lt;Rosa&gt; &amp; team,<br>thanks.</p><p>Best,<br>Sam</p>"
        );
        assert_eq!(html_of_text("  \n"), "");
    }
}
