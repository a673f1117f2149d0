//! The newest message of each thread the list shows. A thread carries no
//! subject or direction of its own (only a draft's subject), so the list
//! reads the newest message of each visible thread to show its subject and
//! to mark the threads whose last message is inbound ("awaiting reply").
//!
//! Bounded: only the rows on screen are read, drafts never (they have no
//! messages), a row again only when the list shows it changed (its
//! activity time, unread count or status), and at most [`PER_TICK`] reads
//! go every [`EVERY`] through the pane's request path — well under the
//! service's per-route limit, which the open thread's reads share. A
//! first read takes a page of [`PEEK`] (a short thread answers in one); a
//! longer one is read again at its last message (`limit=1`, `page=total`),
//! and later reads start there.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{InboxModel, Purpose, View, in_flight};
use crate::api::ApiError;
use crate::api::model::{MessagesPage, Thread, ThreadMessage, ThreadStatus};
use crate::app::ctx::Ctx;
use crate::app::{ApiRequest, Cmd};

/// Messages of a thread's first read: a thread this short is read whole.
pub(crate) const PEEK: u64 = 5;
/// Reads sent per tick at most (and in flight at most).
pub(crate) const PER_TICK: usize = 3;
/// How often the reads go while some are wanted.
pub(crate) const EVERY: Duration = Duration::from_millis(250);
/// The longest subject kept (the list cuts it to its column anyway).
const SUBJECT_MAX: usize = 300;
/// Failed reads of a row before it is left alone until it changes (a
/// passing failure — a timeout under load, a 429 — is tried again).
pub(crate) const MAX_FAILURES: u8 = 3;

/// What the list showed of a thread when its newest message was read: a
/// change of any of it means the thread may have a newer message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowKey {
    /// The last activity, when the service sends it.
    pub updated_at: Option<String>,
    /// The unread count.
    pub unread: u64,
    /// The status.
    pub status: ThreadStatus,
}

impl RowKey {
    /// The key of a thread's row as the list holds it.
    pub fn of(t: &Thread) -> RowKey {
        RowKey {
            updated_at: t.updated_at.clone(),
            unread: t.unread_count,
            status: t.status.clone(),
        }
    }
}

/// The newest message of a thread, as far as the list needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Newest {
    /// Its subject (raw; made inert where shown).
    pub subject: String,
    /// It came from the participant: the thread awaits a reply.
    pub inbound: bool,
}

impl Newest {
    /// The part of a message the list keeps.
    pub fn of(m: &ThreadMessage) -> Newest {
        Newest {
            subject: m.subject.chars().take(SUBJECT_MAX).collect(),
            inbound: m.direction.eq_ignore_ascii_case("inbound"),
        }
    }
}

/// One thread's newest message as last read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Last {
    /// The newest message (`None`: the thread has none, or it is not read
    /// yet).
    pub newest: Option<Newest>,
    /// The thread's message count at that read.
    pub total: u64,
    /// The row it was read for; `None` while the read is not complete (a
    /// longer thread's last message is still to be read, or a failed read
    /// is tried again).
    pub row: Option<RowKey>,
    /// Reads that failed in a row, and the row they were for (a changed
    /// row starts the count again).
    pub failures: (u8, Option<RowKey>),
}

/// The newest messages read, by thread id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lasts {
    /// Per thread.
    pub items: BTreeMap<String, Last>,
}

impl Lasts {
    /// The newest message of a thread, when read.
    pub fn newest(&self, thread: &str) -> Option<&Newest> {
        self.items.get(thread).and_then(|l| l.newest.as_ref())
    }

    /// Whether the thread's newest message is inbound (it awaits a reply).
    pub fn awaiting(&self, thread: &str) -> bool {
        self.newest(thread).is_some_and(|n| n.inbound)
    }

    /// A message known to be the thread's newest (its `total`-th), from
    /// the open thread or a send: kept until the row changes.
    pub fn saw(&mut self, thread: &Thread, m: &ThreadMessage, total: u64) {
        self.items.insert(
            thread.id.clone(),
            Last {
                newest: Some(Newest::of(m)),
                total,
                row: Some(RowKey::of(thread)),
                failures: (0, None),
            },
        );
    }

    /// The thread changed in a way the row may not show (a reply was
    /// sent): it is read again when shown.
    pub fn forget(&mut self, thread: &str) {
        if let Some(l) = self.items.get_mut(thread) {
            l.row = None;
        }
    }
}

/// The visible threads whose newest message is wanted: on screen, not a
/// draft, never read for the row as it is now. With the count each had.
pub(crate) fn wanted(inbox: &InboxModel, viewport: usize) -> Vec<(String, RowKey, Option<u64>)> {
    let l = &inbox.list;
    let end = l.table.offset.saturating_add(viewport);
    (l.table.offset..end)
        .filter_map(|i| l.row(i))
        .filter(|t| t.status != ThreadStatus::Draft)
        .filter_map(|t| {
            let key = RowKey::of(t);
            let had = inbox.lasts.items.get(&t.id);
            if had.and_then(|h| h.row.as_ref()) == Some(&key) {
                return None;
            }
            Some((t.id.clone(), key, had.map(|h| h.total)))
        })
        .collect()
}

/// Whether the list wants newest messages read now (the tick runs while
/// it does).
pub(crate) fn due(inbox: &InboxModel, viewport: usize) -> bool {
    inbox.view == View::List && inbox.list.loaded() && !wanted(inbox, viewport).is_empty()
}

/// Sends the reads the visible rows want, up to [`PER_TICK`] in flight.
pub(crate) fn read(inbox: &InboxModel, cx: &mut Ctx<'_>) -> Vec<Cmd> {
    if inbox.view != View::List {
        return Vec::new();
    }
    let vp = super::layout::list_viewport(cx.layout().body, inbox.list.needle.typing());
    let flying = cx
        .requests
        .purposes::<InboxModel>()
        .filter(|p| matches!(p, Purpose::Last { .. }))
        .count();
    let room = PER_TICK.saturating_sub(flying);
    let todo: Vec<_> = wanted(inbox, vp)
        .into_iter()
        .filter(|(id, _, _)| {
            !in_flight(
                cx.requests,
                |p| matches!(p, Purpose::Last { thread, .. } if thread == id),
            )
        })
        .take(room)
        .collect();
    for (id, row, total) in todo {
        // A thread read before: its last message where it was; else a
        // first page that holds a short thread whole.
        let (page, limit) = match total {
            Some(t) if t > 0 => (t, 1),
            _ => (1, PEEK),
        };
        cx.request(
            Purpose::Last {
                thread: id.clone(),
                page,
                limit,
                row: Box::new(row),
            },
            ApiRequest::ListMessages {
                id,
                page: Some(page),
                limit: Some(limit),
            },
        );
    }
    Vec::new()
}

/// A read of a thread's newest message answered. When the page did not
/// reach the thread's end, the entry keeps the count and the next tick
/// reads the last message. A failed read is tried again on a later tick,
/// up to [`MAX_FAILURES`] times, then not until the row changes (the
/// subject is decoration; the thread itself shows why reads fail).
pub(crate) fn on_read(
    inbox: &mut InboxModel,
    thread: &str,
    page: u64,
    limit: u64,
    row: RowKey,
    r: Result<MessagesPage, ApiError>,
) -> Vec<Cmd> {
    let entry = inbox.lasts.items.entry(thread.to_owned()).or_insert(Last {
        newest: None,
        total: 0,
        row: None,
        failures: (0, None),
    });
    let Ok(p) = r else {
        let n = match &entry.failures {
            (n, Some(r)) if *r == row => n.saturating_add(1),
            _ => 1,
        };
        entry.row = (n >= MAX_FAILURES).then(|| row.clone());
        entry.failures = (n, Some(row));
        return Vec::new();
    };
    entry.failures = (0, None);
    let first = page.saturating_sub(1).saturating_mul(limit);
    let reached = first.saturating_add(u64::try_from(p.messages.len()).unwrap_or(u64::MAX));
    entry.total = p.total;
    if p.total == 0 {
        entry.newest = None;
        entry.row = Some(row);
    } else if reached == p.total
        && let Some(m) = p.messages.last()
    {
        entry.newest = Some(Newest::of(m));
        entry.row = Some(row);
    } else {
        // Not the end (the thread is longer, or it grew): its last message
        // is read on the next tick.
        entry.row = None;
    }
    Vec::new()
}
