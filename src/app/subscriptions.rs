//! Pollers and timers as a function of the model: after every update the
//! runtime diffs `subscriptions(&model)` against what runs and starts or
//! stops only what changed. "Stop polling when the domain is no longer
//! watched" therefore needs no code: the subscription simply disappears.

use std::time::Duration;

use super::{Model, PaneSub};

/// Identifies a subscription; the runtime keeps one task per id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SubId {
    /// A pane's poller or timer.
    Pane(PaneSub),
    /// One-second tick while a countdown is on screen.
    Countdown,
    /// Tick while a toast is waiting to expire.
    Toasts,
    /// The debounced save of the last-known lists, while one changed.
    CacheSave,
    /// Text typed into a form is written to the state file at most
    /// [`super::KEEP_TYPED_WITHIN`] after the first key.
    KeepTyped,
    /// While offline: try the service now and then, so its return is seen
    /// (and every pane reads again) without waiting for a backed-off poll.
    Reconnect,
}

/// How often the service is tried while offline.
pub(crate) const RECONNECT_EVERY: Duration = Duration::from_secs(5);

/// A wanted subscription: fire `Msg::SubFired(id)` every `every`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sub {
    /// Identity.
    pub id: SubId,
    /// Period; a change restarts the timer.
    pub every: Duration,
}

/// Every subscription the model wants now.
pub fn subscriptions(m: &Model) -> Vec<Sub> {
    let mut own = Vec::new();
    super::dispatch::subscriptions(m, &mut own);
    let mut subs: Vec<Sub> = own
        .into_iter()
        .map(|(s, every)| Sub {
            id: SubId::Pane(s),
            every,
        })
        .collect();
    if m.countdown_visible() {
        subs.push(Sub {
            id: SubId::Countdown,
            every: Duration::from_secs(1),
        });
    }
    if !m.toasts.is_empty() {
        subs.push(Sub {
            id: SubId::Toasts,
            every: Duration::from_millis(500),
        });
    }
    if m.net.conn.is_offline() {
        subs.push(Sub {
            id: SubId::Reconnect,
            every: RECONNECT_EVERY,
        });
    }
    if m.typed_unsaved() {
        subs.push(Sub {
            id: SubId::KeepTyped,
            every: super::KEEP_TYPED_WITHIN,
        });
    }
    if m.cache_due() {
        subs.push(Sub {
            id: SubId::CacheSave,
            every: super::cache::SAVE_AFTER,
        });
    }
    subs
}
