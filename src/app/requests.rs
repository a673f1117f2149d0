//! The one way replies are matched to requests, for every pane: each
//! request (or file effect) gets a fresh [`RequestId`] and an entry
//! `id → purpose` here. A reply whose id is no longer in the table was
//! forgotten — the user moved on — and is dropped before any pane sees it;
//! a pane that no longer wants an answer forgets its entry. What is in
//! flight for a pane is read from the table, not kept in pane fields.

use std::collections::BTreeMap;

use super::registry::Registered;
use super::{Purpose, RequestId};

/// Requests in flight and what each is for.
#[derive(Debug, Default)]
pub struct Requests {
    table: BTreeMap<RequestId, Purpose>,
    next: u64,
}

impl Requests {
    /// Records a new request with its purpose; returns its id. Ids only
    /// grow, so a larger id was sent later.
    pub fn open(&mut self, purpose: Purpose) -> RequestId {
        self.next += 1;
        let id = RequestId(self.next);
        self.table.insert(id, purpose);
        id
    }

    /// Takes the purpose of a reply; `None` when it was forgotten.
    pub fn take(&mut self, id: RequestId) -> Option<Purpose> {
        self.table.remove(&id)
    }

    /// The purpose recorded for `id`.
    pub fn get(&self, id: RequestId) -> Option<&Purpose> {
        self.table.get(&id)
    }

    /// The oldest request of pane `P` whose purpose passes `f`.
    pub fn find<P: Registered>(&self, f: impl Fn(&P::Purpose) -> bool) -> Option<RequestId> {
        self.table
            .iter()
            .find(|(_, p)| P::purpose(p).is_some_and(&f))
            .map(|(id, _)| *id)
    }

    /// Whether a request of pane `P` whose purpose passes `f` is in flight.
    pub fn pending<P: Registered>(&self, f: impl Fn(&P::Purpose) -> bool) -> bool {
        self.find::<P>(f).is_some()
    }

    /// The purposes of pane `P`'s requests in flight, oldest first.
    pub fn purposes<'a, P: Registered>(&'a self) -> impl Iterator<Item = &'a P::Purpose>
    where
        P::Purpose: 'a,
    {
        self.table.values().filter_map(P::purpose)
    }

    /// How many requests of pane `P` pass `f`.
    pub fn count<P: Registered>(&self, f: impl Fn(&P::Purpose) -> bool) -> usize {
        self.table
            .values()
            .filter(|p| P::purpose(p).is_some_and(&f))
            .count()
    }

    /// Forgets the requests of pane `P` whose purpose passes `f`: their
    /// replies will be dropped. Returns how many were forgotten.
    pub fn forget<P: Registered>(&mut self, f: impl Fn(&P::Purpose) -> bool) -> usize {
        let before = self.table.len();
        self.table.retain(|_, p| !P::purpose(p).is_some_and(&f));
        before - self.table.len()
    }

    /// Lets pane `P` amend the purposes of its requests in flight (e.g. a
    /// list still on its way learns that one of its rows is already older
    /// than what is shown).
    pub fn amend<P: Registered>(&mut self, mut f: impl FnMut(RequestId, &mut P::Purpose)) {
        for (id, p) in &mut self.table {
            if let Some(p) = P::purpose_mut(p) {
                f(*id, p);
            }
        }
    }

    /// Forgets every request (another workspace opened): their replies are
    /// dropped. Ids keep growing, so a late reply never matches a new one.
    pub fn forget_all(&mut self) {
        self.table.clear();
    }

    /// Requests in flight.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}
