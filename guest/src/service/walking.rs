//! Which cached memories a search, a context or a profile looks through.
//!
//! With a partial cache (`from_index`), they walk what was fetched for them by the index's
//! marks (`marked`, `newest`). With the whole collection cached, as in a long-lived host
//! after its first write, walking every memory for each call costs what the collection
//! holds (100,000 memories: tens of milliseconds a search). When the index is in step with
//! the cache, the same marks name the memories a partial cache would have fetched, and the
//! walk goes through those alone: the same answer, since every walk picks only among
//! memories a partial cache holds (see `newest` for why those are enough).

use std::collections::BTreeSet;

use super::MemoryService;
use crate::api::Error;
use crate::ports::Ports;
use crate::record::MemoryRecord;

impl<P: Ports> MemoryService<P> {
    /// Starts a call's walk: by marks when the whole collection is cached and the index
    /// reflects exactly what is cached, else over every cached memory.
    pub(super) fn begin_walk(&mut self) -> Result<(), Error> {
        self.walk = None;
        if self.memories.is_partial() || !self.memories.in_step() {
            return Ok(());
        }
        if self.index_stands_for_file()? == Some(self.memories.state()) {
            self.walk = Some(BTreeSet::new());
        }
        Ok(())
    }

    /// The cached memories the walks look through: those the marks named, or every one.
    pub(crate) fn walked(&self) -> Box<dyn Iterator<Item = &MemoryRecord> + '_> {
        match &self.walk {
            Some(positions) => Box::new(positions.iter().filter_map(|&p| self.memories.at(p))),
            None => Box::new(self.memories.cached()),
        }
    }

    /// Names these memories for the walk: true when there is one to add them to. The walk
    /// keeps where each stands in the cache, so that the several walks of one call look
    /// each up once, and go in the cache's order as a walk of every memory does.
    pub(super) fn walk_through(&mut self, ids: impl IntoIterator<Item = String>) -> bool {
        match &mut self.walk {
            Some(walk) => {
                walk.extend(ids.into_iter().filter_map(|id| self.memories.position(&id)));
                true
            }
            None => false,
        }
    }
}
