//! How one instance's save merges with what another wrote meanwhile.
//!
//! Two dashboards (or a dashboard and a later one) may share a state file.
//! Each keeps a *base*: the state as it last read or wrote it. A save
//! replays onto the file as it is now (read under the lock) only what this
//! instance changed since its base, key by key:
//!
//! - **drafts** and **pending writes** (checks of writes that may have
//!   reached the service), by their key: a key this instance set or
//!   changed since its base is written as it has it; a key it removed
//!   since (a draft sent or discarded, a check that found its write) is
//!   removed; every other key stays as the file has it — so another
//!   instance's draft, which this one never saw, is never dropped, and a
//!   draft another instance removed is not written back by one that merely
//!   still holds the old copy. When both changed the same key, this save's
//!   copy wins: it is the newer edit (each change is saved within seconds
//!   of being made, and this save is the latest to reach the file).
//! - **known ids** (searches, campaigns), by id: the union of the file's
//!   and this instance's, with this instance's label where it changed one;
//!   an id it dropped since its base is dropped (the same rule as a key).
//! - **preferences**: this instance's when it changed them, else the
//!   file's.
//!
//! No tombstones or clocks are needed: the base tells a removal here from
//! an addition there. The merge is pure; the store does the locking and the
//! file I/O.

use std::collections::BTreeMap;

use super::{KnownId, STATE_VERSION, State};

/// The state to write: `disk` (the file now) with this instance's changes
/// since `base` (what it last read or wrote) applied, `ours` being its
/// state now.
pub(crate) fn merge(base: &State, ours: &State, disk: State) -> State {
    let mut out = disk;
    out.version = STATE_VERSION;
    merge_map(&mut out.drafts, &base.drafts, &ours.drafts);
    merge_map(
        &mut out.pending_writes,
        &base.pending_writes,
        &ours.pending_writes,
    );
    merge_known(
        &mut out.known_searches,
        &base.known_searches,
        &ours.known_searches,
    );
    merge_known(
        &mut out.known_campaigns,
        &base.known_campaigns,
        &ours.known_campaigns,
    );
    if ours.prefs != base.prefs {
        out.prefs = ours.prefs.clone();
    }
    out
}

/// Applies to `out` the keys `ours` set, changed or removed since `base`.
fn merge_map<V: Clone + PartialEq>(
    out: &mut BTreeMap<String, V>,
    base: &BTreeMap<String, V>,
    ours: &BTreeMap<String, V>,
) {
    for (key, was) in base {
        if !ours.contains_key(key) {
            out.remove(key);
        } else if ours.get(key) != Some(was) {
            out.insert(key.clone(), ours[key].clone());
        }
    }
    for (key, now) in ours {
        if !base.contains_key(key) {
            out.insert(key.clone(), now.clone());
        }
    }
}

/// Applies to `out` (in its order, new ids after) the ids `ours` added,
/// relabelled or dropped since `base`.
fn merge_known(out: &mut Vec<KnownId>, base: &[KnownId], ours: &[KnownId]) {
    let base: BTreeMap<&str, &KnownId> = base.iter().map(|k| (k.id.as_str(), k)).collect();
    let ours_by_id: BTreeMap<&str, &KnownId> = ours.iter().map(|k| (k.id.as_str(), k)).collect();
    out.retain(|k| !base.contains_key(k.id.as_str()) || ours_by_id.contains_key(k.id.as_str()));
    let mut at: BTreeMap<String, usize> = out
        .iter()
        .enumerate()
        .map(|(i, k)| (k.id.clone(), i))
        .collect();
    for k in ours {
        if base.get(k.id.as_str()) == Some(&k) {
            continue;
        }
        match at.get(&k.id) {
            Some(&i) => out[i] = k.clone(),
            None => {
                at.insert(k.id.clone(), out.len());
                out.push(k.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Draft, PendingWrite};

    fn draft(text: &str) -> Draft {
        Draft {
            title: "t".into(),
            fields: [("body".to_owned(), text.to_owned())].into(),
        }
    }

    fn check(absent: u32) -> PendingWrite {
        PendingWrite {
            kind: "send".into(),
            absent,
            ..PendingWrite::default()
        }
    }

    fn with_drafts(drafts: &[(&str, &str)]) -> State {
        State {
            drafts: drafts
                .iter()
                .map(|(k, v)| ((*k).to_owned(), draft(v)))
                .collect(),
            ..State::default()
        }
    }

    #[test]
    fn a_draft_another_instance_added_is_kept_and_ours_is_added() {
        let base = State::default();
        let ours = with_drafts(&[("a", "from A")]);
        let disk = with_drafts(&[("b", "from B")]);
        let out = merge(&base, &ours, disk);
        assert_eq!(out.drafts["a"], draft("from A"));
        assert_eq!(out.drafts["b"], draft("from B"));
    }

    #[test]
    fn a_removal_sticks_and_is_not_undone_by_a_stale_copy() {
        // Both loaded draft x. A sent it (removed) and saved first.
        let loaded = with_drafts(&[("x", "old"), ("y", "kept")]);
        let a_now = with_drafts(&[("y", "kept")]);
        let disk = merge(&loaded, &a_now, loaded.clone());
        assert!(!disk.drafts.contains_key("x"), "A's removal is written");
        // B still holds x as loaded, unchanged: its save keeps it removed.
        let out = merge(&loaded, &loaded, disk);
        assert!(!out.drafts.contains_key("x"), "not resurrected: {out:?}");
        assert_eq!(out.drafts["y"], draft("kept"));
        // B removes y, which A kept: removed too.
        let b_now = with_drafts(&[("x", "old")]);
        let out = merge(&loaded, &b_now, out);
        assert!(out.drafts.is_empty(), "{out:?}");
    }

    #[test]
    fn the_newer_edit_of_one_draft_wins_and_an_unchanged_copy_loses() {
        let loaded = with_drafts(&[("x", "v1")]);
        // B edits x and saves; A, which did not touch x, saves later.
        let disk = merge(&loaded, &with_drafts(&[("x", "v2 by B")]), loaded.clone());
        let out = merge(&loaded, &loaded, disk);
        assert_eq!(out.drafts["x"], draft("v2 by B"), "A's stale v1 loses");
        // A edits x too, after B's save: its save is the newer edit.
        let out = merge(&loaded, &with_drafts(&[("x", "v3 by A")]), out);
        assert_eq!(out.drafts["x"], draft("v3 by A"));
    }

    #[test]
    fn a_finished_check_is_not_brought_back_and_a_new_one_is_kept() {
        let loaded = State {
            pending_writes: [("send:t1".to_owned(), check(1))].into(),
            ..State::default()
        };
        // A's check found its write: dropped. B started another check.
        let a_now = State::default();
        let disk = merge(&loaded, &a_now, loaded.clone());
        let mut b_now = loaded.clone();
        b_now.pending_writes.insert("send:t2".to_owned(), check(0));
        let out = merge(&loaded, &b_now, disk);
        assert!(!out.pending_writes.contains_key("send:t1"), "{out:?}");
        assert_eq!(out.pending_writes["send:t2"], check(0));
        // A check B advanced (another read) is written as B has it.
        let mut b_later = b_now.clone();
        b_later
            .pending_writes
            .insert("send:t2".to_owned(), check(2));
        let out = merge(&b_now, &b_later, out);
        assert_eq!(out.pending_writes["send:t2"], check(2));
    }

    #[test]
    fn known_ids_are_unioned_in_order_with_our_labels() {
        let mut loaded = State::default();
        loaded.remember_search("s1", "First", "created");
        let mut disk = loaded.clone();
        disk.remember_search("s2", "From B", "created");
        let mut ours = loaded.clone();
        ours.remember_search("s1", "First, renamed", "");
        ours.remember_search("s3", "From A", "pasted");
        ours.remember_campaign("c1", "Campaign", "created");
        let out = merge(&loaded, &ours, disk);
        let ids: Vec<(&str, &str)> = out
            .known_searches
            .iter()
            .map(|k| (k.id.as_str(), k.label.as_str()))
            .collect();
        assert_eq!(
            ids,
            [("s1", "First, renamed"), ("s2", "From B"), ("s3", "From A")]
        );
        assert_eq!(out.known_campaigns.len(), 1);
        // An id this instance dropped is dropped; one it kept unchanged
        // does not overwrite the file's label.
        let mut relabelled = out.clone();
        relabelled.known_searches[1].label = "B's new label".into();
        let mut dropped = out.clone();
        dropped.known_searches.retain(|k| k.id != "s3");
        let again = merge(&out, &dropped, relabelled);
        let ids: Vec<(&str, &str)> = again
            .known_searches
            .iter()
            .map(|k| (k.id.as_str(), k.label.as_str()))
            .collect();
        assert_eq!(ids, [("s1", "First, renamed"), ("s2", "B's new label")]);
    }

    #[test]
    fn preferences_follow_whoever_changed_them() {
        let loaded = State::default();
        let mut disk = loaded.clone();
        disk.prefs.last_pane = Some("inbox".into());
        let out = merge(&loaded, &loaded, disk.clone());
        assert_eq!(out.prefs.last_pane.as_deref(), Some("inbox"));
        let mut ours = loaded.clone();
        ours.prefs.last_pane = Some("domains".into());
        let out = merge(&loaded, &ours, disk);
        assert_eq!(out.prefs.last_pane.as_deref(), Some("domains"));
    }
}
