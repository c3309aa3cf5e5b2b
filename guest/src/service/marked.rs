//! A search about a person or naming an entity, answered from the index: the live memories
//! about those people or holding those entities are fetched by their marks (`holding`),
//! and the counts that tell a common entity from a telling one come from `tally`, so that
//! the collection is not read (see `from_index` for when the index stands in for it).

use std::collections::HashSet;

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::Error;
use crate::entities;
use crate::index_time;
use crate::marks;
use crate::ports::{Level, Ports, ScopeFilter};

/// How many live memories a caller sees, and how many of them hold each wanted entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Census {
    /// The caller's live memories.
    pub visible: usize,
    /// Per wanted entity, in the order wanted.
    pub holders: Vec<usize>,
}

impl Census {
    /// Per wanted entity, whether it tells memories apart (`entities::is_common` says not).
    pub fn telling(&self) -> Vec<bool> {
        self.holders
            .iter()
            .map(|&n| !entities::is_common(n, self.visible))
            .collect()
    }
}

impl<P: Ports> MemoryService<P> {
    /// Brings into the partial cache every live memory within `scope` about the people in
    /// `about` and every one holding a telling entity of `wanted` (with a whole cache and a
    /// walk, names them for the walk), and counts what tells them apart. None, with the
    /// whole collection read instead, when the index gives a record that does not read.
    pub(super) fn hold_marked(
        &mut self,
        scope: &ScopeFilter,
        about: &HashSet<String>,
        wanted: &[String],
        now: DateTime<Utc>,
    ) -> Result<Option<Census>, Error> {
        if about.is_empty() && wanted.is_empty() {
            return Ok(None);
        }
        let now = index_time::micros(now);
        let mut keys: Vec<String> = about.iter().map(|id| marks::subject(id)).collect();
        let mut census = None;
        if !wanted.is_empty() {
            let entity_keys: Vec<String> = wanted.iter().map(|e| marks::entity(e)).collect();
            let tally = self.ports.index_tally(&entity_keys, scope, now)?;
            if tally.holding.len() != wanted.len() {
                return Err(Error::Index(format!(
                    "the index tallied {} keys of {} asked",
                    tally.holding.len(),
                    wanted.len()
                )));
            }
            let counted = Census {
                visible: tally.live as usize,
                holders: tally.holding.iter().map(|&n| n as usize).collect(),
            };
            // A common entity's holders are not fetched: they rank by it no higher.
            keys.extend(
                entity_keys
                    .into_iter()
                    .zip(counted.telling())
                    .filter_map(|(key, telling)| telling.then_some(key)),
            );
            census = Some(counted);
        }
        // A whole cache holds them already: the search looks at these alone, and only
        // their ids are asked for.
        if self.walk.is_some() {
            let ids = if keys.is_empty() {
                Vec::new()
            } else {
                self.ports.index_holding_ids(&keys, scope, now)?
            };
            let n = ids.len();
            self.walk_through(ids);
            self.ports.log(
                Level::Debug,
                &format!("search: {n} cached memories named by {} marks in the index", keys.len()),
            );
            return Ok(census);
        }
        let held = if keys.is_empty() {
            Vec::new()
        } else {
            self.ports.index_holding(&keys, scope, now)?
        };
        let n = held.len();
        if !self.hold_held(held) {
            self.load()?;
            return Ok(None);
        }
        self.ports.log(
            Level::Debug,
            &format!("search: fetched {n} memories by {} marks from the index", keys.len()),
        );
        Ok(census)
    }
}
