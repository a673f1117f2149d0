//! The last-known lists: searches, campaigns, threads and sending domains
//! as the service last gave them, kept per workspace profile in
//! `cache.json` beside the state file. At start (and after `:profile`)
//! each pane draws its list from here at once, marked stale with its age,
//! while the request for the fresh one is on its way; with the service
//! unreachable the dashboard still opens on what it last knew.
//!
//! # For pane owners
//!
//! - Show the cached rows in [`PaneUnit::from_cache`](super::pane::PaneUnit::from_cache)
//!   when the pane has nothing of its own yet, and mark the list stale
//!   with the slice's `as_of` ([`stale_text`]) until the first answer.
//! - Hand every fresh list to [`Model::cache_list`](super::Model::cache_list)
//!   (one read item: [`Model::cache_item`](super::Model::cache_item)); the
//!   cache is saved behind by a debounced subscription, and on quit.
//! - Only what the list shows is kept ([`Item::trimmed`]): never drafts,
//!   message bodies or anything secret. It is only a cache: a file that
//!   cannot be read is ignored (logged), never shown as an error.

use serde::{Deserialize, Serialize};

use crate::api::model::{Campaign, RunStatus, Search, SendingDomain, Thread};

/// The format version this build writes (`"v"` in the file); a file of
/// another version is ignored.
pub(crate) const CACHE_VERSION: u32 = 1;

/// The most items kept of each list (the first ones, as listed).
pub(crate) const MAX_ITEMS: usize = 500;

/// How long after a change the cache is written (changes in between are
/// written together).
pub(crate) const SAVE_AFTER: std::time::Duration = std::time::Duration::from_secs(10);

/// The largest cache file read (a bigger one is not ours: ignored).
pub(crate) const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One list as last read, with when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cached<T> {
    /// Wall clock (unix seconds) of the answer it was read from.
    pub as_of: i64,
    /// The items, in the list's order (at most [`MAX_ITEMS`]).
    pub items: Vec<T>,
}

/// A search row as the Leads list shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CachedSearch {
    /// The search (what the list shows of it).
    pub search: Search,
    /// Status of its latest run, when it was known.
    pub run: Option<RunStatus>,
    /// Where its id came from (a service without the list route).
    pub source: String,
}

/// Every last-known list of one workspace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cache {
    /// Format version ([`CACHE_VERSION`]).
    pub v: u32,
    /// The service the lists came from (host and port): a cache of
    /// another service is not shown.
    pub host: String,
    /// Lead Finder searches (Leads).
    pub searches: Option<Cached<CachedSearch>>,
    /// Campaigns (Campaigns).
    pub campaigns: Option<Cached<Campaign>>,
    /// Threads of every status (Inbox).
    pub threads: Option<Cached<Thread>>,
    /// Sending domains (Senders & Domains).
    pub domains: Option<Cached<SendingDomain>>,
}

impl Default for Cache {
    fn default() -> Self {
        Cache {
            v: CACHE_VERSION,
            host: String::new(),
            searches: None,
            campaigns: None,
            threads: None,
            domains: None,
        }
    }
}

impl Cache {
    /// The lists that hold something: an empty one tells nothing worth
    /// showing in place of "loading" (or of why loading failed).
    #[must_use]
    pub fn without_empty(mut self) -> Cache {
        fn keep<T>(slot: &mut Option<Cached<T>>) {
            if slot.as_ref().is_some_and(|c| c.items.is_empty()) {
                *slot = None;
            }
        }
        keep(&mut self.searches);
        keep(&mut self.campaigns);
        keep(&mut self.threads);
        keep(&mut self.domains);
        self
    }
}

/// An item of a cached list.
pub trait Item: Clone + PartialEq {
    /// Its id (an item read alone replaces the one of the same id).
    fn key(&self) -> &str;
    /// The item without what the list does not show: kept small, and
    /// never holding draft text.
    fn trimmed(&self) -> Self;
}

impl Item for SendingDomain {
    fn key(&self) -> &str {
        &self.id
    }
    // The records are what the detail shows offline.
    fn trimmed(&self) -> Self {
        self.clone()
    }
}

impl Item for Campaign {
    fn key(&self) -> &str {
        &self.id
    }
    fn trimmed(&self) -> Self {
        Campaign {
            signature: None,
            operating_hours: None,
            sequence_nodes: None,
            sender_accounts: None,
            ..self.clone()
        }
    }
}

impl Item for Thread {
    fn key(&self) -> &str {
        &self.id
    }
    // The subject is the row's; the draft's body, copies and attachments
    // are unsent text, never written here.
    fn trimmed(&self) -> Self {
        Thread {
            draft_body_text: None,
            draft_body_html: None,
            draft_cc: None,
            draft_bcc: None,
            draft_attachments: Vec::new(),
            ..self.clone()
        }
    }
}

impl Item for CachedSearch {
    fn key(&self) -> &str {
        &self.search.search_id
    }
    fn trimmed(&self) -> Self {
        CachedSearch {
            search: Search {
                description: String::new(),
                seller_context: String::new(),
                source_plans: Vec::new(),
                ..self.search.clone()
            },
            ..self.clone()
        }
    }
}

impl<T: Item> Cached<T> {
    /// The first [`MAX_ITEMS`] of a list read at `as_of`, trimmed.
    pub fn of<'a>(items: impl IntoIterator<Item = &'a T>, as_of: i64) -> Cached<T>
    where
        T: 'a,
    {
        Cached {
            as_of,
            items: items
                .into_iter()
                .take(MAX_ITEMS)
                .map(Item::trimmed)
                .collect(),
        }
    }

    /// Puts one item read alone: it replaces the one of the same id, or
    /// comes first (within the bound). Whether anything changed.
    pub fn put_one(&mut self, item: &T) -> bool {
        let item = item.trimmed();
        match self.items.iter_mut().find(|i| i.key() == item.key()) {
            Some(slot) if *slot == item => false,
            Some(slot) => {
                *slot = item;
                true
            }
            None => {
                self.items.insert(0, item);
                self.items.truncate(MAX_ITEMS);
                true
            }
        }
    }
}

/// `stale · as of 3h ago`: what a list drawn from the cache (or kept after
/// a failed read) says of itself.
pub(crate) fn stale_text(as_of: i64, clock: i64) -> String {
    format!("stale · as of {}", super::fresh::ago_since(as_of, clock))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domain(id: &str) -> SendingDomain {
        SendingDomain {
            id: id.into(),
            domain: format!("{id}.example"),
            ..SendingDomain::default()
        }
    }

    #[test]
    fn a_list_is_bounded_to_its_first_items() {
        let many: Vec<SendingDomain> = (0..MAX_ITEMS + 100)
            .map(|i| domain(&format!("d{i}")))
            .collect();
        let c = Cached::of(&many, 7);
        assert_eq!(c.items.len(), MAX_ITEMS);
        assert_eq!(c.items[0].id, "d0", "the first ones, in order");
        assert_eq!(c.as_of, 7);
    }

    #[test]
    fn an_item_read_alone_replaces_its_row_or_comes_first() {
        let mut c = Cached::of(&[domain("a"), domain("b")], 1);
        assert!(!c.put_one(&domain("b")), "the same: no change to save");
        let mut b = domain("b");
        b.domain = "renamed.example".into();
        assert!(c.put_one(&b));
        assert_eq!(c.items[1].domain, "renamed.example");
        assert!(c.put_one(&domain("c")));
        let ids: Vec<&str> = c.items.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["c", "a", "b"]);
    }

    #[test]
    fn draft_text_and_unshown_fields_are_never_cached() {
        let t = Thread {
            id: "t1".into(),
            draft_subject: Some("Hello".into()),
            draft_body_text: Some("unsent words".into()),
            draft_body_html: Some("<p>unsent words</p>".into()),
            draft_cc: Some("cc@example.com".into()),
            draft_bcc: Some("bcc@example.com".into()),
            ..Thread::default()
        };
        let c = Cached::of(&[t], 0);
        let json = serde_json::to_string(&c).unwrap_or_default();
        assert!(json.contains("Hello"), "the row's subject is kept: {json}");
        for secret in ["unsent words", "cc@example.com", "bcc@example.com"] {
            assert!(!json.contains(secret), "{secret} leaked: {json}");
        }
        let camp = Campaign {
            id: "c1".into(),
            signature: Some("Best, Ana — private line".into()),
            ..Campaign::default()
        };
        let json = serde_json::to_string(&Cached::of(&[camp], 0)).unwrap_or_default();
        assert!(!json.contains("private line"), "{json}");
    }

    #[test]
    fn a_cache_survives_its_own_file_format() {
        let cache = Cache {
            host: "127.0.0.1:8080".into(),
            searches: Some(Cached::of(
                &[CachedSearch {
                    search: Search {
                        search_id: "s1".into(),
                        title: "Dentists in Lyon".into(),
                        lead_count: 12,
                        // Written as `{}` when absent, as the contract
                        // requires, and read back as absent.
                        details: None,
                        ..Search::default()
                    },
                    run: Some(RunStatus::Completed),
                    source: String::new(),
                }],
                100,
            )),
            campaigns: Some(Cached::of(
                &[Campaign {
                    id: "c1".into(),
                    name: "Spring".into(),
                    ..Campaign::default()
                }],
                101,
            )),
            threads: Some(Cached::of(
                &[Thread {
                    id: "t1".into(),
                    participant_email: "ana@example.com".into(),
                    ..Thread::default()
                }],
                102,
            )),
            domains: Some(Cached::of(&[domain("d1")], 103)),
            ..Cache::default()
        };
        let bytes = serde_json::to_vec(&cache).unwrap_or_default();
        let back: Cache = serde_json::from_slice(&bytes).unwrap_or_default();
        assert_eq!(back, cache);
        assert!(bytes.starts_with(b"{\"v\":1,"), "versioned first");
    }

    #[test]
    fn an_empty_list_is_not_shown_as_known() {
        let c = Cache {
            domains: Some(Cached::of(&[], 1)),
            threads: Some(Cached::of(
                &[Thread {
                    id: "t".into(),
                    ..Thread::default()
                }],
                1,
            )),
            ..Cache::default()
        }
        .without_empty();
        assert_eq!(c.domains, None);
        assert!(c.threads.is_some());
    }

    #[test]
    fn the_stale_mark_says_how_old() {
        assert_eq!(stale_text(0, 3 * 3600 + 5), "stale · as of 3h ago");
        assert_eq!(stale_text(100, 110), "stale · as of just now");
    }
}
