//! Which item the user means by what they typed: the one rule of the CLI's
//! id arguments and the dashboard's `:open` (a campaign, a search, a
//! thread).
//!
//! In order: an exact id; a unique id prefix of at least [`MIN_PREFIX`]
//! characters; an exact name; a unique part of a name (case-insensitive).
//! The first step that matches anything decides: one match is the item,
//! several are refused with every match named. A write never acts on a
//! part of a name ([`Use::Write`]): a name half remembered could pick
//! another campaign to launch. What matches nothing but looks like a whole
//! id ([`looks_like_full_id`]) is to be read first ([`Resolved::ReadFirst`]:
//! the list routes are optional, so a real id may be in no list) and taken
//! only when the service answers 200; anything else is refused before any
//! request is made for it.

use std::fmt::Write as _;

/// The fewest characters an id prefix takes.
pub(crate) const MIN_PREFIX: usize = 4;

/// Matches named in a refusal before the rest is counted.
const NAMED: usize = 10;

/// One item an argument can name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item {
    /// Its id.
    pub id: String,
    /// Its names (a campaign's name, a thread's participant address and
    /// name); the first one labels it.
    pub names: Vec<String>,
}

impl Item {
    /// An item with one name.
    pub(crate) fn new(id: impl Into<String>, name: impl Into<String>) -> Item {
        Item {
            id: id.into(),
            names: vec![name.into()],
        }
    }

    /// The name it is shown by (its first), or "" without one.
    pub(crate) fn label(&self) -> &str {
        self.names.first().map_or("", String::as_str)
    }
}

/// What the resolved item is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// A read: any step may name it.
    Read,
    /// A write: an id, an id prefix or an exact name only.
    Write,
}

/// Which step found the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    /// The exact id.
    Id,
    /// A unique id prefix.
    Prefix,
    /// An exact name.
    Name,
    /// A unique part of a name.
    Part,
}

impl How {
    /// The step in words: "by id prefix".
    pub(crate) fn words(self) -> &'static str {
        match self {
            How::Id => "by id",
            How::Prefix => "by id prefix",
            How::Name => "by name",
            How::Part => "by part of a name",
        }
    }
}

/// A typed argument that names an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// One item of the list.
    Found {
        /// Its id.
        id: String,
        /// Its label (first name).
        label: String,
        /// The step that found it.
        how: How,
    },
    /// No item matched, but it looks like a whole id: read it, and take it
    /// only when the service answers 200.
    ReadFirst(String),
}

/// A typed argument refused before any request for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Nothing was typed.
    Empty,
    /// Several items match at the first step that matches any: each
    /// `(id, label)`.
    Ambiguous {
        /// The step.
        how: How,
        /// Every match.
        matches: Vec<(String, String)>,
    },
    /// For a write, the one match is by a part of its name only.
    PartForWrite {
        /// The item's id.
        id: String,
        /// Its label.
        label: String,
    },
    /// Nothing matches, and it does not look like an id.
    Unknown,
}

impl Refused {
    /// The refusal in words, of `typed` and a `kind` of item ("campaign").
    pub(crate) fn text(&self, typed: &str, kind: &str) -> String {
        let typed = typed.trim();
        match self {
            Refused::Empty => format!("no {kind} given"),
            Refused::Unknown => format!(
                "no {kind} matches \"{typed}\" by id, id prefix (at least {MIN_PREFIX} characters) or name; nothing was sent"
            ),
            Refused::PartForWrite { id, label } => format!(
                "\"{typed}\" is only part of the name of {kind} \"{label}\" ({id}): a change needs the {kind}'s id, a unique id prefix or its exact name; nothing was sent"
            ),
            Refused::Ambiguous { how, matches } => {
                let mut text = format!(
                    "\"{typed}\" matches {} {} {}: ",
                    matches.len(),
                    plural(kind),
                    how.words()
                );
                for (i, (id, label)) in matches.iter().take(NAMED).enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    let _ = write!(text, "\"{label}\" ({id})");
                }
                if matches.len() > NAMED {
                    let _ = write!(text, " and {} more", matches.len() - NAMED);
                }
                text.push_str(match how {
                    How::Id | How::Prefix => "; give more of the id",
                    How::Name | How::Part => "; give its id or a unique id prefix",
                });
                text.push_str("; nothing was sent");
                text
            }
        }
    }
}

/// A kind of item, more than one ("searches", "campaigns").
fn plural(kind: &str) -> String {
    if kind.ends_with("ch") || kind.ends_with('s') {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}

/// Whether `text` looks like a whole id of the contract (a UUID), worth
/// one read to learn whether the service knows it.
pub(crate) fn looks_like_full_id(text: &str) -> bool {
    let t = text.trim();
    t.len() == 36 && uuid::Uuid::try_parse(t).is_ok()
}

/// Resolves `typed` among `items` for `use_` (see the module doc).
pub(crate) fn resolve(typed: &str, items: &[Item], use_: Use) -> Result<Resolved, Refused> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err(Refused::Empty);
    }
    let lower = typed.to_lowercase();
    for how in [How::Id, How::Prefix, How::Name, How::Part] {
        let mut found: Vec<&Item> = Vec::new();
        for item in items.iter().filter(|i| matches_at(how, typed, &lower, i)) {
            // The same item listed twice is still one item.
            if !found.iter().any(|f| f.id == item.id) {
                found.push(item);
            }
        }
        match found.as_slice() {
            [] => {}
            [one] if how == How::Part && use_ == Use::Write => {
                return Err(Refused::PartForWrite {
                    id: one.id.clone(),
                    label: one.label().to_owned(),
                });
            }
            [one] => {
                return Ok(Resolved::Found {
                    id: one.id.clone(),
                    label: one.label().to_owned(),
                    how,
                });
            }
            many => {
                return Err(Refused::Ambiguous {
                    how,
                    matches: many
                        .iter()
                        .map(|i| (i.id.clone(), i.label().to_owned()))
                        .collect(),
                });
            }
        }
    }
    if looks_like_full_id(typed) {
        Ok(Resolved::ReadFirst(typed.to_owned()))
    } else {
        Err(Refused::Unknown)
    }
}

/// Whether `item` matches `typed` (`lower`: in lower case) at step `how`.
fn matches_at(how: How, typed: &str, lower: &str, item: &Item) -> bool {
    match how {
        How::Id => item.id.eq_ignore_ascii_case(typed),
        How::Prefix => is_prefix(typed, &item.id),
        How::Name => item.names.iter().any(|n| n.trim() == typed),
        How::Part => item.names.iter().any(|n| n.to_lowercase().contains(lower)),
    }
}

/// Whether `typed` is a prefix of `id` long enough to count, compared
/// without regard to case (ids are hex).
fn is_prefix(typed: &str, id: &str) -> bool {
    typed.chars().count() >= MIN_PREFIX
        && id.len() >= typed.len()
        && id
            .get(..typed.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(typed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn items() -> Vec<Item> {
        vec![
            Item::new(
                "2988581c-38c9-40f9-a121-2be332886705",
                "DACH growth leaders (network)",
            ),
            Item::new(
                "c844f263-513a-4e80-9bee-d4813d6c0576",
                "Series B RevOps — wave 2",
            ),
            Item::new("c8447dba-021d-4029-8f8c-89bdc5f61136", "Q3 RevOps outreach"),
            Item::new("51331597-d29c-4449-92d5-3e65324c18d0", "Platform eng — EU"),
        ]
    }

    fn found(r: Result<Resolved, Refused>) -> (String, How) {
        match r {
            Ok(Resolved::Found { id, how, .. }) => (id, how),
            other => panic!("not found: {other:?}"),
        }
    }

    #[test]
    fn each_step_in_order() {
        let it = items();
        assert_eq!(
            found(resolve(
                " 2988581C-38c9-40f9-a121-2be332886705 ",
                &it,
                Use::Write
            )),
            ("2988581c-38c9-40f9-a121-2be332886705".into(), How::Id)
        );
        assert_eq!(
            found(resolve("2988", &it, Use::Write)),
            ("2988581c-38c9-40f9-a121-2be332886705".into(), How::Prefix)
        );
        assert_eq!(
            found(resolve("Platform eng — EU", &it, Use::Write)),
            ("51331597-d29c-4449-92d5-3e65324c18d0".into(), How::Name)
        );
        assert_eq!(
            found(resolve("dach", &it, Use::Read)),
            ("2988581c-38c9-40f9-a121-2be332886705".into(), How::Part)
        );
    }

    #[test]
    fn a_prefix_matching_two_names_both() {
        let r = resolve("c844", &items(), Use::Read).unwrap_err();
        assert_eq!(
            r.text("c844", "campaign"),
            "\"c844\" matches 2 campaigns by id prefix: \"Series B RevOps — wave 2\" (c844f263-513a-4e80-9bee-d4813d6c0576), \"Q3 RevOps outreach\" (c8447dba-021d-4029-8f8c-89bdc5f61136); give more of the id; nothing was sent"
        );
        // Three characters are no prefix at all.
        assert_eq!(resolve("c84", &items(), Use::Read), Err(Refused::Unknown));
        assert_eq!(found(resolve("c844f", &items(), Use::Write)).1, How::Prefix);
    }

    #[test]
    fn a_part_of_a_name_serves_a_read_never_a_write() {
        let r = resolve("growth", &items(), Use::Write).unwrap_err();
        assert_eq!(
            r.text("growth", "campaign"),
            "\"growth\" is only part of the name of campaign \"DACH growth leaders (network)\" (2988581c-38c9-40f9-a121-2be332886705): a change needs the campaign's id, a unique id prefix or its exact name; nothing was sent"
        );
        let two = resolve("revops", &items(), Use::Read).unwrap_err();
        assert!(
            matches!(&two, Refused::Ambiguous { how: How::Part, matches } if matches.len() == 2),
            "{two:?}"
        );
        assert!(
            two.text("revops", "campaign")
                .ends_with("; give its id or a unique id prefix; nothing was sent")
        );
    }

    #[test]
    fn an_unknown_whole_id_is_read_first_anything_else_refused() {
        let id = "00000000-0000-4000-8000-000000000000";
        assert_eq!(
            resolve(id, &items(), Use::Write),
            Ok(Resolved::ReadFirst(id.into()))
        );
        assert_eq!(resolve("DACH2", &items(), Use::Read), Err(Refused::Unknown));
        assert_eq!(resolve("  ", &items(), Use::Read), Err(Refused::Empty));
        assert_eq!(
            Refused::Unknown.text("nonsense", "thread"),
            "no thread matches \"nonsense\" by id, id prefix (at least 4 characters) or name; nothing was sent"
        );
        assert!(!looks_like_full_id("DACH"));
        assert!(!looks_like_full_id("2988581c38c940f9a1212be332886705"));
    }

    #[test]
    fn a_refusal_names_ten_and_counts_the_rest() {
        let many: Vec<Item> = (0..12)
            .map(|i| Item::new(format!("abcd{i:04}"), format!("n{i}")))
            .collect();
        let text = resolve("abcd", &many, Use::Read)
            .unwrap_err()
            .text("abcd", "search");
        assert!(text.contains("\"n9\" (abcd0009) and 2 more"), "{text}");
        assert!(
            text.starts_with("\"abcd\" matches 12 searches by id prefix"),
            "{text}"
        );
    }

    #[test]
    fn an_exact_name_is_found_even_where_other_names_contain_it() {
        let it = vec![
            Item::new("aaaa-1", "Growth"),
            Item::new("bbbb-2", "Growth leaders"),
        ];
        assert_eq!(
            found(resolve("Growth", &it, Use::Write)),
            ("aaaa-1".into(), How::Name)
        );
    }

    fn arb_items() -> impl Strategy<Value = Vec<Item>> {
        proptest::collection::btree_map("[0-9a-f]{4,12}", "[A-Za-z ]{0,12}", 0..12).prop_map(|m| {
            m.into_iter()
                .map(|(id, name)| Item::new(id, name))
                .collect()
        })
    }

    proptest! {
        /// Whatever is typed, what is resolved is an item of the list (or
        /// a whole id to read), and a write never rests on a part of a name.
        #[test]
        fn what_is_found_is_listed_and_a_write_never_takes_a_part(
            items in arb_items(),
            typed in "[0-9a-fA-F A-Za-z-]{0,14}",
            write: bool,
        ) {
            let use_ = if write { Use::Write } else { Use::Read };
            match resolve(&typed, &items, use_) {
                Ok(Resolved::Found { id, how, .. }) => {
                    prop_assert!(items.iter().any(|i| i.id == id));
                    prop_assert!(!(write && how == How::Part));
                }
                Ok(Resolved::ReadFirst(id)) => prop_assert!(looks_like_full_id(&id)),
                Err(Refused::Ambiguous { matches, .. }) => prop_assert!(matches.len() >= 2),
                Err(_) => {}
            }
        }

        /// Every item is found by its own id, and by any prefix of it of at
        /// least four characters that no other id shares.
        #[test]
        fn an_id_and_its_unique_prefixes_find_their_item(items in arb_items(), cut in 4usize..12) {
            for item in &items {
                let r = resolve(&item.id, &items, Use::Write);
                prop_assert_eq!(found(r), (item.id.clone(), How::Id));
                let prefix: String = item.id.chars().take(cut).collect();
                let unique = items.iter().filter(|i| i.id.starts_with(&prefix)).count() == 1;
                let exact = items.iter().any(|i| i.id == prefix);
                if unique && !exact {
                    prop_assert_eq!(found(resolve(&prefix, &items, Use::Write)), (item.id.clone(), How::Prefix));
                }
            }
        }
    }
}
