//! HTML bodies shown as text: tags dropped, block ends turned into line
//! breaks, list items bulleted, the common entities decoded, `<script>`,
//! `<style>` and `<head>` left out. Not a renderer: enough to read an email
//! written in the web dashboard. The result still goes through the
//! sanitizer before it reaches a cell.

/// Tags whose end (or, for `br` and `hr`, whose presence) ends a line.
const LINE: &[&str] = &["br", "hr", "div", "li", "tr"];
/// Tags that stand apart as paragraphs (an empty line after them).
const PARAGRAPH: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "table",
    "ul",
    "ol",
];
/// Elements whose content is not text to read.
const HIDDEN: &[&str] = &["script", "style", "head", "title"];
/// Tags that make a body look like HTML.
const TELLTALE: &[&str] = &[
    "<html", "<body", "<p>", "<p ", "<br", "<div", "<span", "<a ", "<table", "<ul", "<ol", "<li",
    "<strong", "<em>", "<b>", "<i>", "<h1", "<h2", "<h3", "</p>", "</div>",
];

/// Whether a body that came as text is really HTML (some senders put HTML
/// in the text field).
pub(crate) fn looks_like_html(text: &str) -> bool {
    let head: String = text.chars().take(4096).collect::<String>().to_lowercase();
    TELLTALE.iter().any(|t| head.contains(t))
}

/// The body as text: `html` made readable, or `text` unchanged when it is
/// not HTML.
pub(crate) fn readable(text: &str) -> String {
    if looks_like_html(text) {
        to_text(text)
    } else {
        text.to_owned()
    }
}

/// HTML as plain text.
pub(crate) fn to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut hidden: Option<String> = None;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            if hidden.is_none() {
                push_text(&mut out, rest);
            }
            break;
        };
        if hidden.is_none() {
            push_text(&mut out, &rest[..lt]);
        }
        let after = &rest[lt + 1..];
        // A comment runs to `-->`.
        if after.starts_with("!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let Some(gt) = after.find('>') else {
            // A lone `<` (as in `a < b`) is text.
            if hidden.is_none() {
                out.push('<');
            }
            rest = after;
            continue;
        };
        let tag = &after[..gt];
        rest = &after[gt + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(h) = &hidden {
            if closing && *h == name {
                hidden = None;
            }
            continue;
        }
        if !closing && HIDDEN.contains(&name.as_str()) && !tag.ends_with('/') {
            hidden = Some(name);
            continue;
        }
        let name = name.as_str();
        if name == "li" && !closing {
            newline(&mut out);
            out.push_str("• ");
        } else if PARAGRAPH.contains(&name) && closing {
            out.push_str("\n\n");
        } else if LINE.contains(&name) && (closing || name == "br" || name == "hr") {
            out.push('\n');
        } else if PARAGRAPH.contains(&name) || LINE.contains(&name) {
            newline(&mut out);
        }
    }
    tidy(&out)
}

/// Appends text: whitespace runs collapse to one space (HTML does not keep
/// them), entities are decoded.
fn push_text(out: &mut String, raw: &str) {
    let mut last_space = out.ends_with([' ', '\n']) || out.is_empty();
    for c in decode_entities(raw).chars() {
        if c.is_whitespace() && c != '\u{a0}' {
            if !last_space {
                out.push(' ');
                last_space = true;
            }
        } else {
            out.push(if c == '\u{a0}' { ' ' } else { c });
            last_space = false;
        }
    }
}

/// Ends the current line unless it is already ended.
fn newline(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

/// Trims each line and keeps at most one empty line between paragraphs.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            blank += 1;
            if blank > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.trim_end().to_owned()
}

/// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#39;`, `&nbsp;`
/// and numeric references; anything else is left as written.
fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after
            .char_indices()
            .take(10)
            .find(|(_, c)| *c == ';')
            .map(|(i, _)| i);
        let decoded = end.and_then(|e| entity(&after[..e]).map(|c| (c, e)));
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{a0}'),
        "mdash" => Some('—'),
        "ndash" => Some('–'),
        "hellip" => Some('…'),
        n if n.starts_with("#x") || n.starts_with("#X") => u32::from_str_radix(&n[2..], 16)
            .ok()
            .and_then(char::from_u32),
        n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_reads_as_text() {
        let html = "<html><head><style>p{color:red}</style></head><body>\
            <p>Hi&nbsp;Lena,</p><p>Here   it is:<br>the <b>benchmark</b> &amp; notes.</p>\
            <ul><li>one</li><li>two</li></ul><!-- tracking --><script>x()</script>\
            <p>5 &lt; 6 &#8212; ok</p></body></html>";
        assert_eq!(
            to_text(html),
            "Hi Lena,\n\nHere it is:\nthe benchmark & notes.\n\n• one\n• two\n\n5 < 6 — ok"
        );
    }

    #[test]
    fn text_is_left_alone() {
        let t = "Thursday 3pm works. a < b and c > d";
        assert!(!looks_like_html(t));
        assert_eq!(readable(t), t);
        assert!(looks_like_html("<div>Hello</div>"));
        assert_eq!(readable("<div>Hello</div><div>again</div>"), "Hello\nagain");
        assert_eq!(to_text("a < b"), "a < b");
        assert_eq!(to_text("AT&T &bogus; &#x41;"), "AT&T &bogus; A");
    }
}
