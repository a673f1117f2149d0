//! Copying from a DNS record: `y` copies the value; the chooser (`Y`)
//! copies the name, the type, the value or the whole record as a zone-file
//! line. Everything copied is made inert first and capped at 64 KiB.

use crossterm::event::{KeyCode, KeyEvent};

use super::{DomainsModel, MAX_COPY, View};
use crate::api::model::DnsRecord;
use crate::app::Cmd;
use crate::app::ctx::Ctx;
use crate::app::dialog::Outcome;
use crate::app::keymap::{Action, Scope};
use crate::app::toast::Level;
use crate::text::sanitize;

/// The TTL of a zone-file line.
const TTL: u32 = 3600;
/// Longest character-string of a TXT record (RFC 1035, 3.3).
const TXT_CHUNK: usize = 255;

/// What the chooser copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CopyChoice {
    /// The record's name.
    Name,
    /// Its type.
    Type,
    /// Its value.
    Value,
    /// The record as a zone-file line.
    Zone,
}

impl CopyChoice {
    /// The choices, in the chooser's order.
    pub(crate) const ALL: [CopyChoice; 4] = [
        CopyChoice::Name,
        CopyChoice::Type,
        CopyChoice::Value,
        CopyChoice::Zone,
    ];

    /// The chooser's own key for the choice (shown beside it).
    pub(crate) fn key(self) -> char {
        match self {
            CopyChoice::Name => 'n',
            CopyChoice::Type => 't',
            CopyChoice::Value => 'v',
            CopyChoice::Zone => 'z',
        }
    }

    /// What it copies, in words.
    pub(crate) fn label(self) -> &'static str {
        match self {
            CopyChoice::Name => "name",
            CopyChoice::Type => "type",
            CopyChoice::Value => "value",
            CopyChoice::Zone => "zone-file line",
        }
    }

    /// The text it puts on the clipboard (made inert).
    pub(crate) fn text(self, r: &DnsRecord) -> String {
        match self {
            CopyChoice::Name => sanitize::clipboard(r.name.trim()),
            CopyChoice::Type => sanitize::clipboard(r.kind.trim()),
            CopyChoice::Value => sanitize::clipboard(&r.value),
            CopyChoice::Zone => zone_line(r),
        }
    }
}

/// The open chooser.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CopyMenu {
    /// The highlighted choice (index into [`CopyChoice::ALL`]).
    pub selected: usize,
}

/// The record as one zone-file line: `name. 3600 IN TXT "value"`, with MX
/// priority, host names fully qualified, and TXT values escaped and split
/// into strings of at most 255 bytes.
pub(crate) fn zone_line(r: &DnsRecord) -> String {
    let kind = sanitize::clipboard(r.kind.trim()).to_ascii_uppercase();
    let name = fqdn(&sanitize::clipboard(r.name.trim()));
    let value = sanitize::clipboard(r.value.trim());
    let data = match kind.as_str() {
        "TXT" | "SPF" => txt_strings(&value),
        "MX" => format!("{} {}", r.priority, fqdn(&value)),
        "CNAME" | "NS" | "PTR" | "DNAME" => fqdn(&value),
        _ => value,
    };
    format!("{name} {TTL} IN {kind} {data}")
}

/// A host name with its final dot (`@`, the zone's origin, when empty).
fn fqdn(name: &str) -> String {
    match name {
        "" => "@".into(),
        n if n.ends_with('.') => n.to_owned(),
        n => format!("{n}."),
    }
}

/// A TXT value as quoted strings of at most 255 bytes each; a value sent
/// already quoted is unquoted first.
fn txt_strings(value: &str) -> String {
    let raw = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .map_or_else(|| value.to_owned(), |v| v.replace("\\\"", "\""));
    let mut chunks = Vec::new();
    let mut chunk = String::new();
    for c in raw.chars() {
        if chunk.len() + c.len_utf8() > TXT_CHUNK {
            chunks.push(std::mem::take(&mut chunk));
        }
        chunk.push(c);
    }
    chunks.push(chunk);
    chunks
        .iter()
        .map(|c| format!("\"{}\"", c.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Puts `text` on the clipboard, unless it is over the size cap.
pub(super) fn copy(cx: &mut Ctx<'_>, text: String) -> Vec<Cmd> {
    if text.len() > MAX_COPY {
        cx.notify(
            Level::Warning,
            "not copied",
            "the text is larger than 64 KiB, the most a terminal is asked to take",
        );
        return Vec::new();
    }
    vec![Cmd::Copy(text)]
}

/// The selected record of the open domain.
pub(super) fn selected_record(d: &DomainsModel) -> Option<DnsRecord> {
    d.selected_record().cloned()
}

/// `Y` on a domain's records: opens the chooser.
pub(super) fn open(d: &mut DomainsModel, cx: &mut Ctx<'_>) {
    if selected_record(d).is_none() {
        cx.notify(
            Level::Info,
            "nothing to copy",
            "this domain has no DNS records yet",
        );
    } else {
        d.copy_menu = Some(CopyMenu::default());
    }
}

/// A key while the chooser is open; `None` when it is not.
pub(super) fn on_key(d: &mut DomainsModel, cx: &mut Ctx<'_>, key: KeyEvent) -> Option<Vec<Cmd>> {
    let action = cx.keymap.action(Scope::Domains, &key);
    if d.view != View::DomainDetail {
        // Its domain went away under it.
        d.copy_menu = None;
        return None;
    }
    let menu = d.copy_menu.as_mut()?;
    Some(match menu_key(menu, key, action) {
        Outcome::Keep => Vec::new(),
        Outcome::Close => {
            d.copy_menu = None;
            Vec::new()
        }
        Outcome::Act(choice) => {
            d.copy_menu = None;
            match selected_record(d) {
                Some(r) => copy(cx, choice.text(&r)),
                None => Vec::new(),
            }
        }
    })
}

/// The chooser's keys: its letters choose at once; the keymap's moves,
/// open (choose) and back (close) work as in a list; other keys do
/// nothing (they never reach the pane behind).
fn menu_key(menu: &mut CopyMenu, key: KeyEvent, action: Option<Action>) -> Outcome<CopyChoice> {
    let last = CopyChoice::ALL.len() - 1;
    if let KeyCode::Char(c) = key.code
        && let Some(choice) = CopyChoice::ALL.iter().find(|x| x.key() == c)
    {
        return Outcome::Act(*choice);
    }
    if key.code == KeyCode::Esc {
        return Outcome::Close;
    }
    match action {
        Some(Action::Up) => menu.selected = menu.selected.saturating_sub(1),
        Some(Action::Down) => menu.selected = (menu.selected + 1).min(last),
        Some(Action::Top) => menu.selected = 0,
        Some(Action::Bottom) => menu.selected = last,
        Some(Action::Open) => {
            return CopyChoice::ALL
                .get(menu.selected)
                .map_or(Outcome::Close, |c| Outcome::Act(*c));
        }
        Some(Action::Back) => return Outcome::Close,
        _ => {}
    }
    Outcome::Keep
}
