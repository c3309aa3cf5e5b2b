//! Finding the caller's people without changing anything: by id (merges followed), by
//! reference, their one-hop neighbourhood for person-graph search, their names, and what
//! the supersession rule needs to know about a memory's subjects. Only the owner may see
//! or reference a person; to anyone else a person's id is as unknown as an id that never
//! existed.

use std::collections::{HashMap, HashSet};

use super::MemoryService;
use crate::api::Error;
use crate::people::{self, PersonRecord};
use crate::ports::Ports;
use crate::record::MemoryRecord;
use crate::scope::Caller;
use crate::supersession::RuleContext;

/// How many `merged_into` links a reference by id follows before giving up.
const MAX_MERGE_HOPS: usize = 16;

/// What a reference is, as an id.
pub(super) enum IdReference<'a> {
    /// One of the caller's people (through any merges).
    Mine(&'a PersonRecord),
    /// Shaped like an id, but no person of the caller's: another user's, or none at all.
    /// The two are never told apart.
    Unknown,
    /// Not an id: a name, a relation, a handle.
    NotAnId,
}

/// Whether text has the shape of the ids this guest makes (UUIDs).
fn looks_like_id(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()))
}

pub(super) fn too_deep(reference: &str) -> Error {
    let shown: String = reference.chars().take(60).collect();
    let more = if reference.chars().count() > 60 { "..." } else { "" };
    Error::InvalidInput(format!(
        "the person reference {shown:?}{more} nests more than {} possessives; name the person instead",
        people::MAX_NESTING
    ))
}

impl<P: Ports> MemoryService<P> {
    /// The caller's people (merged entries left out).
    pub(crate) fn people_of(&self, caller: &Caller) -> Vec<&PersonRecord> {
        let Some(user) = &caller.user_id else { return Vec::new() };
        self.people
            .iter()
            .filter(|p| &p.owner_user_id == user && p.merged_into.is_none())
            .collect()
    }

    pub(crate) fn owner(caller: &Caller) -> Result<&str, Error> {
        caller
            .user_id
            .as_deref()
            .ok_or_else(|| Error::InvalidInput("people belong to a user, and the caller has none".into()))
    }

    /// Reads a reference as an id. A merged person's id leads to the person they were
    /// merged into; another user's person is as unknown as no person at all.
    pub(super) fn id_reference(&self, caller: &Caller, text: &str) -> IdReference<'_> {
        let id = text.trim();
        let Some(mut p) = self.people.get(id) else {
            return if looks_like_id(id) {
                IdReference::Unknown
            } else {
                IdReference::NotAnId
            };
        };
        for _ in 0..=MAX_MERGE_HOPS {
            if Some(&p.owner_user_id) != caller.user_id.as_ref() {
                return IdReference::Unknown;
            }
            match &p.merged_into {
                None => return IdReference::Mine(p),
                Some(next) => match self.people.get(next) {
                    Some(n) => p = n,
                    None => return IdReference::Unknown,
                },
            }
        }
        IdReference::Unknown
    }

    /// Refuses a reference that names a person who was merged away, by their id or by
    /// their own name: it reads as the person they were merged into, and merging through
    /// it would merge that person, whom the caller did not name.
    pub(super) fn refuse_merged_away(&self, caller: &Caller, text: &str) -> Result<(), Error> {
        let text = text.trim();
        let Some(user) = &caller.user_id else { return Ok(()) };
        let mine = |p: &&PersonRecord| &p.owner_user_id == user;
        let named_now = self
            .people_of(caller)
            .iter()
            .any(|p| p.id == text || p.name.eq_ignore_ascii_case(text));
        let merged =
            self.people.iter().filter(mine).find(|p| {
                p.merged_into.is_some() && (p.id == text || (!named_now && p.name.eq_ignore_ascii_case(text)))
            });
        let Some(merged) = merged else { return Ok(()) };
        let kept = match self.id_reference(caller, &merged.id) {
            IdReference::Mine(kept) => format!("{} ({})", kept.name, kept.id),
            _ => "another person".to_owned(),
        };
        Err(Error::InvalidInput(format!(
            "{} ({}) was merged into {kept}; name the person you mean by their current name or id",
            merged.name, merged.id
        )))
    }

    /// Finds the person a reference means, without creating one. An id that is not one
    /// of the caller's people finds no one.
    pub(crate) fn find_person(&self, caller: &Caller, text: &str) -> Result<Option<PersonRecord>, Error> {
        match self.id_reference(caller, text) {
            IdReference::Mine(p) => return Ok(Some(p.clone())),
            IdReference::Unknown => return Ok(None),
            IdReference::NotAnId => {}
        }
        if people::nesting(text) > people::MAX_NESTING {
            return Err(too_deep(text));
        }
        Ok(people::find(&self.people_of(caller), &people::parse_reference(text)).cloned())
    }

    /// The person and the people one hop away (edges in either direction).
    pub(crate) fn neighbourhood(&self, caller: &Caller, id: &str) -> HashSet<String> {
        let mut ids = HashSet::from([id.to_owned()]);
        for p in self.people_of(caller) {
            if p.id == id {
                ids.extend(p.relationships.iter().map(|r| r.person_id.clone()));
            } else if p.relationships.iter().any(|r| r.person_id == id) {
                ids.insert(p.id.clone());
            }
        }
        ids
    }

    /// What the supersession rule needs to know about a memory: whether it is a group's,
    /// and the names of the people it is about (merges followed). `pending` holds people
    /// resolved for the memory but not yet written. The ids on a record were checked
    /// against its owner when they were resolved.
    pub(crate) fn rule_context(&self, record: &MemoryRecord, pending: &HashMap<String, PersonRecord>) -> RuleContext {
        let get = |id: &str| pending.get(id).or_else(|| self.people.get(id));
        let name_of = |id: &str| {
            let mut p = get(id)?;
            for _ in 0..MAX_MERGE_HOPS {
                match &p.merged_into {
                    Some(next) => p = get(next)?,
                    None => break,
                }
            }
            Some(p.name.clone())
        };
        RuleContext {
            group: record.chat_id.is_some(),
            subject_names: record.subject_person_ids.iter().filter_map(|id| name_of(id)).collect(),
        }
    }

    /// Names of the caller's people among these ids, in order.
    pub(crate) fn names(&self, caller: &Caller, ids: &[String]) -> Vec<String> {
        let mine = self.people_of(caller);
        ids.iter()
            .filter_map(|id| mine.iter().find(|p| &p.id == id).map(|p| p.name.clone()))
            .collect()
    }
}
