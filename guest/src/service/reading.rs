//! Reading memories: one by id (or unique id prefix), the caller's list, and the
//! supersession chain through one, archive included. Everything here sees only what the
//! caller may see, and says nothing about the rest.

use std::collections::{HashMap, HashSet};

use chrono::DateTime;

use super::{MIN_ID_PREFIX, MemoryService, recent};
use crate::api::{Error, ListOptions, Memory};
use crate::index_time;
use crate::ports::{Collection, Ports};
use crate::record::{MemoryRecord, parse_time};
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// One memory the caller may see, in any state.
    pub fn get(&mut self, caller: &Caller, id: &str) -> Result<Memory, Error> {
        let id = match self.held_by_id(caller, id, "show")? {
            Some(id) => id,
            None => {
                // People first: a purge cut short is finished before a memory is shown.
                self.refresh_people()?;
                self.memories.refresh(&self.ports)?;
                self.visible_id(caller, id)?
            }
        };
        match self.memories.get(&id) {
            Some(r) if caller.can_see(r) => Ok(Memory::from(r)),
            _ => Err(not_found(&id)),
        }
    }

    /// The memory `reference` names, if the caller may change it (delete, confirm or
    /// correct it): read by id from the index when the index stands for the file, else from
    /// the whole file. `call` names the call in the log.
    pub(super) fn changeable(&mut self, caller: &Caller, reference: &str, call: &str) -> Result<MemoryRecord, Error> {
        let id = match self.held_by_id(caller, reference, call)? {
            Some(id) => id,
            None => {
                self.load()?;
                self.visible_id(caller, reference)?
            }
        };
        let record = match self.memories.get(&id) {
            Some(r) if caller.can_see(r) => r.clone(),
            _ => return Err(not_found(&id)),
        };
        if !caller.can_delete(&record) {
            return Err(Error::Unauthorized(id));
        }
        Ok(record)
    }

    /// The full id of a memory the caller may see, from its id or a unique prefix.
    pub(super) fn visible_id(&self, caller: &Caller, reference: &str) -> Result<String, Error> {
        resolve_id(
            reference,
            self.memories
                .iter()
                .filter(|r| caller.can_see(r))
                .map(|r| r.id.as_str()),
        )
    }

    /// The caller's memories, most recently made first (in whole microseconds), equal
    /// moments last added first: from the index when it can stand in for the file
    /// (`recent`), else from the whole file, in the same order.
    pub fn list(&mut self, caller: &Caller, options: &ListOptions) -> Result<Vec<Memory>, Error> {
        super::validation::check_limit(options.limit, "every memory")?;
        // Whole microseconds, as the index compares expiries (`index_time::lapse`).
        let now = index_time::whole_micros(self.now()?);
        if let Some(found) = self.list_from_index(caller, options, now)? {
            return Ok(found);
        }
        self.refresh_people()?;
        self.memories.refresh(&self.ports)?;
        let mut found: Vec<(i64, usize, &MemoryRecord)> = self
            .memories
            .iter()
            .enumerate()
            .filter(|(_, r)| recent::listed(r, caller, options, now))
            .map(|(i, r)| (index_time::made(r), i, r))
            .collect();
        found.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let limit = options.limit.map_or(usize::MAX, |l| l as usize);
        Ok(found.into_iter().take(limit).map(|(_, _, r)| Memory::from(r)).collect())
    }

    /// The supersession chain through `id`, oldest first; see `history` in the WIT.
    pub fn history(&mut self, caller: &Caller, id: &str) -> Result<Vec<Memory>, Error> {
        self.refresh_people()?;
        self.memories.refresh(&self.ports)?;
        let chunk = self.ports.read(Collection::Archive, 0, None)?;
        let mut all: HashMap<String, MemoryRecord> = HashMap::new();
        for line in chunk.data.lines() {
            if let Ok(r) = MemoryRecord::parse(line) {
                all.insert(r.id.clone(), r);
            }
        }
        for r in self.memories.iter() {
            all.insert(r.id.clone(), r.clone());
        }
        let id = resolve_id(id, all.values().filter(|r| caller.can_see(r)).map(|r| r.id.as_str()))?;
        let id = id.as_str();
        let mut predecessors: HashMap<&str, Vec<&str>> = HashMap::new();
        for r in all.values() {
            if let Some(by) = &r.superseded_by_id {
                predecessors.entry(by.as_str()).or_default().push(r.id.as_str());
            }
        }
        let mut chain: Vec<&MemoryRecord> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        let mut stack = vec![id];
        while let Some(cur) = stack.pop() {
            if !seen.insert(cur) {
                continue;
            }
            let Some(r) = all.get(cur) else { continue };
            chain.push(r);
            stack.extend(predecessors.get(cur).into_iter().flatten());
            if let Some(next) = &r.superseded_by_id {
                stack.push(next);
            }
        }
        chain.retain(|r| caller.can_see(r));
        chain.sort_by_key(|r| {
            (
                parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH),
                r.superseded_at.is_none(),
            )
        });
        Ok(chain.into_iter().map(Memory::from).collect())
    }
}

pub(crate) fn not_found(id: &str) -> Error {
    Error::NotFound(id.to_owned())
}

/// Finds the one id among `candidates` that `reference` names: the id itself, or a unique
/// prefix of at least [`MIN_ID_PREFIX`] characters. Callers pass only ids the caller may
/// see, so neither an ambiguous nor a missing prefix says anything about other scopes.
pub(crate) fn resolve_id<'a>(reference: &str, candidates: impl Iterator<Item = &'a str>) -> Result<String, Error> {
    let reference = reference.trim();
    let mut found: Vec<&str> = Vec::new();
    for id in candidates {
        if id == reference {
            return Ok(id.to_owned());
        }
        if reference.len() >= MIN_ID_PREFIX && id.starts_with(reference) && !found.contains(&id) {
            found.push(id);
        }
    }
    match found.as_slice() {
        [one] => Ok((*one).to_owned()),
        // What is wrong with the reference itself, said before "not found", which would
        // send the caller looking for a memory rather than fixing what they typed.
        [] if reference.is_empty() => Err(Error::InvalidInput(format!(
            "no memory id given: give a memory's id, or its first {MIN_ID_PREFIX} or more characters"
        ))),
        [] if reference.chars().count() < MIN_ID_PREFIX => Err(Error::InvalidInput(format!(
            "{reference:?} is too short to find a memory by: give the whole id, or its first {MIN_ID_PREFIX} or more characters"
        ))),
        [] => Err(not_found(reference)),
        _ => Err(Error::AmbiguousId(reference.to_owned())),
    }
}
