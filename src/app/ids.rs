//! Ids you can see and take: `I` (`copy_id`) copies the id of the selected
//! row of a list, or of the item a detail view shows, so it can be passed
//! to the CLI or `:open`. Each pane says what that is
//! ([`PaneUnit::id_shown`](super::pane::PaneUnit::id_shown)); copying goes
//! through the one clipboard effect ([`Cmd::CopyId`]).

use super::Model;
use super::cmd::Cmd;
use super::ctx::Ctx;
use super::toast::Level;
use crate::logic::resolve::{How, Item, Resolved, Use, resolve};
use crate::text::sanitize::DisplayText;

/// The item whose id `I` would copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdShown {
    /// What it is, in words ("campaign", "thread").
    pub kind: &'static str,
    /// Its id.
    pub id: String,
    /// Its name or title, "" when none is known.
    pub label: String,
}

impl IdShown {
    /// An item of `kind` with `id` and `label`.
    pub fn new(kind: &'static str, id: &str, label: &str) -> IdShown {
        IdShown {
            kind,
            id: id.to_owned(),
            label: label.trim().to_owned(),
        }
    }

    /// What was copied, for the notice: `the id of campaign “Q3” (7dfa…)`.
    pub fn what(&self) -> String {
        let id = crate::text::sanitize::clipboard(&self.id);
        if self.label.is_empty() {
            format!("the id of the {} ({id})", self.kind)
        } else {
            let label = DisplayText::inline(&self.label).into_string();
            format!("the id of {} “{label}” ({id})", self.kind)
        }
    }
}

/// An id cut for a narrow place: its first eight characters and `…`.
pub(crate) fn short(id: &str) -> String {
    if id.chars().count() <= 9 {
        id.to_owned()
    } else {
        let head: String = id.chars().take(8).collect();
        format!("{head}…")
    }
}

/// `I`: copies the id of what the pane shows, or says there is none.
pub(crate) fn copy(m: &mut Model, shown: Option<IdShown>) -> Vec<Cmd> {
    match shown.filter(|s| !s.id.trim().is_empty()) {
        Some(s) => vec![Cmd::CopyId {
            text: crate::text::sanitize::clipboard(&s.id),
            what: s.what(),
        }],
        None => {
            m.notify(
                Level::Info,
                "No id here",
                "select a row of a list (or open an item) to copy its id",
            );
            Vec::new()
        }
    }
}

/// What `:open KIND <what>` goes on to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// An item of the list held: open it.
    Listed(String),
    /// In no list but shaped like a whole id: open it by reading it, and
    /// remember it only when the service answers 200.
    Unconfirmed(String),
}

/// Resolves `typed` for `:open KIND` among the `items` the pane holds with
/// the rules the CLI shares ([`crate::logic::resolve`]). A refusal is said
/// (why, and every candidate when several match) and nothing is to be
/// sent; a match by more than its id says which item was taken.
pub(crate) fn resolve_open(
    cx: &mut Ctx<'_>,
    kind: &str,
    typed: &str,
    items: &[Item],
) -> Option<Target> {
    match resolve(typed, items, Use::Read) {
        Ok(Resolved::Found { id, label, how }) => {
            if how != How::Id {
                let label = DisplayText::inline(&label).into_string();
                cx.notify(
                    Level::Info,
                    &format!("Opening {kind}"),
                    &format!("“{label}” ({id}), found {}", how.words()),
                );
            }
            Some(Target::Listed(id))
        }
        Ok(Resolved::ReadFirst(id)) => Some(Target::Unconfirmed(id)),
        Err(refused) => {
            let typed = DisplayText::inline(typed).into_string();
            cx.notify(
                Level::Warning,
                &format!("No {kind} opened"),
                &refused.text(&typed, kind),
            );
            None
        }
    }
}

/// The candidates of `:open KIND` completion: every id and name of
/// `items` that starts with `typed` (case-insensitive), ids first; when
/// none does, the names that contain it (`:open` takes a unique part).
pub(crate) fn candidates(typed: &str, items: &[Item]) -> Vec<String> {
    let lower = typed.trim_start().to_lowercase();
    let ids = items.iter().map(|i| &i.id);
    let names = items.iter().flat_map(|i| i.names.iter());
    let all: Vec<&str> = ids.chain(names).map(|c| c.trim()).collect();
    let pick = |fits: &dyn Fn(&str) -> bool| {
        let mut out: Vec<String> = Vec::new();
        for c in &all {
            if !c.is_empty() && fits(&c.to_lowercase()) && !out.iter().any(|o| o == c) {
                out.push((*c).to_owned());
            }
        }
        out
    };
    let starting = pick(&|c| c.starts_with(&lower));
    if starting.is_empty() && !lower.is_empty() {
        pick(&|c| c.contains(&lower))
    } else {
        starting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_id_keeps_its_head() {
        assert_eq!(short("7dfa1b2c-0000-4000-8000-000000000000"), "7dfa1b2c…");
        assert_eq!(short("c-7"), "c-7");
    }

    #[test]
    fn the_notice_names_the_item() {
        let s = IdShown::new("campaign", "c-7", "Q3 RevOps");
        assert_eq!(s.what(), "the id of campaign “Q3 RevOps” (c-7)");
        assert_eq!(
            IdShown::new("lead", "r-1", " ").what(),
            "the id of the lead (r-1)"
        );
    }
}
