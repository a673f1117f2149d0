//! Toasts: short notices and errors in a corner, expiring on their own.
//! Errors show the service's `error.code` and message.

use std::time::{Duration, Instant};

use crate::api::ApiError;
use crate::text::sanitize::DisplayText;

/// How a toast looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Neutral information.
    Info,
    /// Something finished well.
    Success,
    /// Worth a look.
    Warning,
    /// Something failed.
    Error,
}

/// One toast.
#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    /// Identity, for expiry.
    pub id: u64,
    /// Look.
    pub level: Level,
    /// Short title: the error code or what happened.
    pub title: DisplayText,
    /// The message.
    pub text: DisplayText,
    /// When it goes away.
    pub expires: Instant,
}

/// The toasts on screen, newest last; at most `MAX` kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Toasts {
    items: Vec<Toast>,
    next_id: u64,
}

impl Toasts {
    /// Most toasts shown at once.
    pub const MAX: usize = 4;

    /// Adds a toast.
    pub fn push(&mut self, now: Instant, level: Level, title: &str, text: &str) {
        let ttl = match level {
            Level::Error => Duration::from_secs(10),
            Level::Warning => Duration::from_secs(8),
            _ => Duration::from_secs(5),
        };
        self.next_id += 1;
        // The same message twice in a row (a failing poller) refreshes the
        // first instead of stacking.
        let title = DisplayText::inline(title);
        let text = DisplayText::block(text);
        if let Some(last) = self.items.last_mut()
            && last.title == title
            && last.text == text
        {
            last.expires = now + ttl;
            return;
        }
        self.items.push(Toast {
            id: self.next_id,
            level,
            title,
            text,
            expires: now + ttl,
        });
        if self.items.len() > Self::MAX {
            self.items.remove(0);
        }
    }

    /// Adds an error toast for a failed call: `code` as title, message below.
    pub fn error(&mut self, now: Instant, context: &str, err: &ApiError) {
        let title = format!("{} · {}", err.code(), context);
        self.push(now, Level::Error, &title, &err.message());
    }

    /// Drops expired toasts; returns whether any went.
    pub fn expire(&mut self, now: Instant) -> bool {
        let before = self.items.len();
        self.items.retain(|t| t.expires > now);
        before != self.items.len()
    }

    /// Dismisses every toast.
    pub fn clear(&mut self) -> bool {
        let had = !self.items.is_empty();
        self.items.clear();
        had
    }

    /// The toasts, oldest first.
    pub fn items(&self) -> &[Toast] {
        &self.items
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
