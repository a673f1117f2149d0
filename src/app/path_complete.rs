//! Tab completion of a typed file path, shared by every file field (the
//! campaign import's path, the Lead Finder export's). Listing a directory
//! is file I/O, so Tab only asks for it ([`super::Cmd::ListDir`]); the
//! field completes when the listing arrives ([`super::msg::Reply::DirListed`]):
//! the longest common prefix of the names that fit, or, when there is
//! nothing left to add, the candidates in the field's help line. Tab never
//! inserts a character of its own.

use std::path::PathBuf;

/// Names listed in the help line at most (the rest are counted).
const NAMES_SHOWN: usize = 12;

/// One entry of a listed directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// Its file name (only names that are valid UTF-8 and free of control
    /// characters are listed: others cannot be typed nor shown).
    pub name: String,
    /// A directory (completed with a trailing `/`).
    pub dir: bool,
}

/// What the runtime found in a directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirListing {
    /// The entries, at most [`DirListing::MAX`].
    pub entries: Vec<DirEntry>,
    /// More entries were there than were read.
    pub truncated: bool,
}

impl DirListing {
    /// Entries read at most (a huge directory costs bounded memory).
    pub(crate) const MAX: usize = 10_000;
}

/// A path field's completion state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathCompletion {
    /// The text a listing on its way was asked for: an answer for other
    /// text (the user typed on) is stale.
    asked: Option<String>,
    /// What the last Tab found to say: the candidates, or why none.
    pub(crate) note: Option<String>,
}

/// Splits typed text into the directory part, as typed (`""`: the
/// current directory), and the start of the name.
pub(crate) fn split(text: &str) -> (&str, &str) {
    match text.rfind('/') {
        Some(i) => text.split_at(i + 1),
        None => ("", text),
    }
}

impl PathCompletion {
    /// Tab in a field holding `text`: the directory to list (`~` is
    /// expanded by the runtime).
    pub(crate) fn tab(&mut self, text: &str) -> PathBuf {
        self.asked = Some(text.to_owned());
        match split(text).0 {
            "" => PathBuf::from("."),
            dir => PathBuf::from(dir),
        }
    }

    /// The field was edited: a listing on its way is for other text, and
    /// the candidates shown are stale.
    pub(crate) fn edited(&mut self) {
        self.asked = None;
        self.note = None;
    }

    /// A listing arrived while the field holds `text`: the completed text,
    /// when there is more to add; else the note says what there is.
    pub(crate) fn listed(
        &mut self,
        text: &str,
        listing: Result<DirListing, String>,
    ) -> Option<String> {
        if self.asked.as_deref() != Some(text) {
            return None;
        }
        self.asked = None;
        let listing = match listing {
            Ok(l) => l,
            Err(e) => {
                self.note = Some(format!("cannot list that directory: {e}"));
                return None;
            }
        };
        let (dir, start) = split(text);
        // Hidden files only when the name typed starts with a dot, as in
        // a shell.
        let mut names: Vec<String> = listing
            .entries
            .iter()
            .filter(|e| {
                e.name.starts_with(start) && (start.starts_with('.') || !e.name.starts_with('.'))
            })
            .map(|e| {
                if e.dir {
                    format!("{}/", e.name)
                } else {
                    e.name.clone()
                }
            })
            .collect();
        names.sort();
        if listing.truncated {
            self.note = Some(format!(
                "more than {} entries there: type more of the name",
                crate::text::format::count(DirListing::MAX as u64)
            ));
            return None;
        }
        let common = common_prefix(&names);
        if names.is_empty() {
            self.note = Some(if start.is_empty() {
                "nothing to complete: the directory is empty".into()
            } else {
                format!("no name there starts with “{start}”")
            });
            return None;
        }
        if common.len() > start.len() {
            self.note = None;
            return Some(format!("{dir}{common}"));
        }
        self.note = Some(candidates(&names));
        None
    }
}

/// The longest prefix all `names` share (whole characters).
fn common_prefix(names: &[String]) -> String {
    let Some(first) = names.first() else {
        return String::new();
    };
    let mut end = first.len();
    for n in &names[1..] {
        end = first
            .char_indices()
            .zip(n.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(end);
    }
    first[..end].to_owned()
}

/// The candidates for the help line: the first names, the rest counted.
fn candidates(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(NAMES_SHOWN).map(String::as_str).collect();
    let mut text = format!("{} match: {}", names.len(), shown.join("  "));
    if names.len() > NAMES_SHOWN {
        text.push_str(&format!("  … and {} more", names.len() - NAMES_SHOWN));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(names: &[(&str, bool)]) -> Result<DirListing, String> {
        Ok(DirListing {
            entries: names
                .iter()
                .map(|(n, dir)| DirEntry {
                    name: (*n).to_owned(),
                    dir: *dir,
                })
                .collect(),
            truncated: false,
        })
    }

    #[test]
    fn the_directory_typed_is_listed_and_the_name_started_is_completed() {
        let mut c = PathCompletion::default();
        assert_eq!(c.tab("data/le"), PathBuf::from("data/"));
        let got = c.listed("data/le", listing(&[("leads.csv", false), ("other", true)]));
        assert_eq!(got.as_deref(), Some("data/leads.csv"));
        assert_eq!(c.tab("l"), PathBuf::from("."));
        let got = c.listed("l", listing(&[("lists", true)]));
        assert_eq!(got.as_deref(), Some("lists/"), "a directory gets its slash");
    }

    #[test]
    fn several_names_complete_their_common_start_then_are_listed() {
        let mut c = PathCompletion::default();
        c.tab("le");
        let names = [
            ("leads-q3.csv", false),
            ("leads-q4.csv", false),
            (".leads", false),
        ];
        assert_eq!(c.listed("le", listing(&names)).as_deref(), Some("leads-q"));
        assert_eq!(c.note, None);
        c.tab("leads-q");
        assert_eq!(c.listed("leads-q", listing(&names)), None);
        assert_eq!(
            c.note.as_deref(),
            Some("2 match: leads-q3.csv  leads-q4.csv"),
            "hidden files only when a dot is typed"
        );
    }

    #[test]
    fn an_answer_for_text_since_edited_is_dropped() {
        let mut c = PathCompletion::default();
        c.tab("le");
        c.edited();
        assert_eq!(c.listed("le", listing(&[("leads.csv", false)])), None);
        c.tab("le");
        assert_eq!(c.listed("lea", listing(&[("leads.csv", false)])), None);
    }

    #[test]
    fn nothing_to_complete_says_why() {
        let mut c = PathCompletion::default();
        c.tab("zz");
        assert_eq!(c.listed("zz", listing(&[("a", false)])), None);
        assert_eq!(c.note.as_deref(), Some("no name there starts with “zz”"));
        c.tab("missing/");
        assert_eq!(
            c.listed("missing/", Err("No such file or directory".into())),
            None
        );
        assert!(
            c.note
                .as_deref()
                .is_some_and(|n| n.contains("No such file"))
        );
    }

    #[test]
    fn the_common_start_is_cut_at_whole_characters() {
        let names = ["añb".to_owned(), "añc".to_owned(), "aé".to_owned()];
        assert_eq!(common_prefix(&names), "a");
        assert_eq!(common_prefix(&names[..2]), "añ");
    }
}
