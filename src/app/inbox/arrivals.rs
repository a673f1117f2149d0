//! Replies as they arrive: each thread's unread count as last read from
//! the service is remembered, and a live refresh that finds it risen rings
//! for attention ([`Ctx::alert`]: the bell and a desktop notification, as
//! `[notify]` says) — once per arrival, never on the first read of a
//! thread, and never for a count the user changed (`u`).

use std::collections::BTreeMap;

use crate::api::model::Thread;
use crate::app::ctx::Ctx;
use crate::app::toast::Level;
use crate::text::sanitize::DisplayText;

/// How a thread's value reached the pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// A first read, a page, or the answer to the user's own change: the
    /// count is noted, nothing rings.
    Quietly,
    /// A live refresh: a risen count is a reply that arrived.
    Live,
}

/// Notes the unread counts of `threads` in `unread_seen`; on a live refresh, a count that
/// rose is announced (one alert for all the threads of one answer).
pub(crate) fn observe<'a>(
    unread_seen: &mut BTreeMap<String, u64>,
    cx: &mut Ctx<'_>,
    threads: impl IntoIterator<Item = &'a Thread>,
    how: Seen,
) {
    let mut risen: Vec<(String, u64)> = Vec::new();
    for t in threads {
        let before = unread_seen.insert(t.id.clone(), t.unread_count);
        if how == Seen::Live && before.is_some_and(|b| t.unread_count > b) {
            risen.push((super::participant(t), t.unread_count));
        }
    }
    match risen.as_slice() {
        [] => {}
        [(who, unread)] => {
            let who = DisplayText::inline(who).into_string();
            cx.alert(
                Level::Info,
                &format!("Reply from {who}"),
                &format!(
                    "{} in the thread",
                    crate::text::format::plural(*unread, "unread message", "unread messages")
                ),
            );
        }
        many => {
            let names: Vec<String> = many
                .iter()
                .map(|(who, _)| DisplayText::inline(who).into_string())
                .collect();
            cx.alert(
                Level::Info,
                &format!("{} replies", many.len()),
                &format!("from {}", names.join(", ")),
            );
        }
    }
}
