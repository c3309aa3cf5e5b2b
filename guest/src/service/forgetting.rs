//! `people.forget`: a user asks that a person in their life be forgotten. The person
//! leaves the people file (rewritten, so that their name is gone from it, not only folded
//! away), memories about them alone go to the archive, memories about them and others
//! keep the others. A purge (`purging`) goes further: nothing about them is kept, and
//! their names leave every file.

use std::collections::{HashMap, HashSet};

use super::MemoryService;
use crate::api::{Error, Forgotten, Person};
use crate::gc::ArchiveReason;
use crate::people::PersonRecord;
use crate::ports::Ports;
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;

/// What a forget does to the memories: which leave and which lose the person.
pub(super) struct Plan {
    /// Memories about the forgotten ids alone.
    pub(super) alone: Vec<MemoryRecord>,
    /// New versions of memories about them and others, without them.
    pub(super) unlinked: Vec<MemoryRecord>,
}

impl<P: Ports> MemoryService<P> {
    /// `people.forget`; see `wit/people.wit`.
    pub fn people_forget(&mut self, caller: &Caller, reference: &str, purge: bool) -> Result<Forgotten, Error> {
        self.load()?;
        let owner = Self::owner(caller)?.to_owned();
        let person = self
            .find_person(caller, reference)?
            .ok_or_else(|| Error::UnknownPerson(reference.to_owned()))?;
        let now = self.now()?;
        let stamp = format_time(now);
        let ids = self.merged_family(&owner, &person.id);
        let plan = self.plan(&ids);
        let alone_ids: Vec<String> = plan.alone.iter().map(|r| r.id.clone()).collect();
        let unlinked_ids: Vec<String> = plan.unlinked.iter().map(|r| r.id.clone()).collect();

        let mut purged = 0;
        if purge {
            purged = self.purge_person(&owner, &ids, &stamp)?;
        } else {
            let victims = plan.alone.into_iter().map(|r| (r, ArchiveReason::Forgotten)).collect();
            self.archive(victims, now)?;
            self.memories.append(&self.ports, plan.unlinked)?;
            self.forget_people(&owner, &ids, &stamp)?;
            // What left is dropped; the memories that kept others get their new records
            // and marks (`index_changed_records`), their words and vectors unchanged.
            self.index_written(&[], &alone_ids);
        }
        Ok(Forgotten {
            person: Person::from(&person),
            archived: alone_ids,
            unlinked: unlinked_ids,
            purged,
        })
    }

    /// The person and every entry of the owner merged into them, however indirectly:
    /// one person on file as several records.
    pub(super) fn merged_family(&self, owner: &str, id: &str) -> HashSet<String> {
        let mut ids = HashSet::from([id.to_owned()]);
        loop {
            let more: Vec<String> = self
                .people
                .iter()
                .filter(|p| p.owner_user_id == owner && !ids.contains(&p.id))
                .filter(|p| p.merged_into.as_ref().is_some_and(|m| ids.contains(m)))
                .map(|p| p.id.clone())
                .collect();
            if more.is_empty() {
                return ids;
            }
            ids.extend(more);
        }
    }

    /// Sorts the memories that name the forgotten ids. A person id belongs to one owner
    /// and only that owner's adds link it, so these are all the owner's doing, personal
    /// or in a chat.
    pub(super) fn plan(&self, ids: &HashSet<String>) -> Plan {
        let mut plan = Plan {
            alone: Vec::new(),
            unlinked: Vec::new(),
        };
        for record in self.memories.iter() {
            if !record.subject_person_ids.iter().any(|s| ids.contains(s)) {
                continue;
            }
            let others: Vec<String> = record
                .subject_person_ids
                .iter()
                .filter(|s| !ids.contains(*s))
                .cloned()
                .collect();
            if others.is_empty() {
                plan.alone.push(record.clone());
            } else {
                let mut record = record.clone();
                record.subject_person_ids = others;
                plan.unlinked.push(record);
            }
        }
        plan
    }

    /// Takes the person (and the entries merged into them) out of the people file, and
    /// every edge to them out of the owner's other people, in one rewrite. Aliases that
    /// reach someone through them ("Sarah's brother") go too, and a stand-in name made so
    /// becomes "someone's brother": they hold their name.
    pub(super) fn forget_people(&mut self, owner: &str, ids: &HashSet<String>, stamp: &str) -> Result<(), Error> {
        let possessives: Vec<String> = self
            .people
            .iter()
            .filter(|p| ids.contains(&p.id))
            .flat_map(|p| std::iter::once(&p.name).chain(&p.aliases))
            .map(|n| format!("{}'s ", n.trim().to_lowercase()))
            .collect();
        let through_them = |alias: &str| {
            let alias = alias.trim().to_lowercase();
            possessives.iter().any(|p| alias.starts_with(p.as_str()))
        };
        let mut changed: HashMap<String, PersonRecord> = HashMap::new();
        for p in self.people.iter() {
            if p.owner_user_id != owner || ids.contains(&p.id) {
                continue;
            }
            let edges = p.relationships.iter().any(|r| ids.contains(&r.person_id));
            let aliases = p.aliases.iter().any(|a| through_them(a));
            let named = through_them(&p.name);
            if edges || aliases || named {
                let mut p = p.clone();
                p.relationships.retain(|r| !ids.contains(&r.person_id));
                p.aliases.retain(|a| !through_them(a));
                // A stand-in name made from them ("Sarah's brother") keeps the relation
                // and loses them: "someone's brother".
                if named {
                    let lower = p.name.trim().to_lowercase();
                    let rest = possessives
                        .iter()
                        .find_map(|pre| lower.strip_prefix(pre.as_str()))
                        .unwrap_or("relation")
                        .to_owned();
                    p.name = format!("someone's {rest}");
                }
                p.updated_at = Some(stamp.to_owned());
                changed.insert(p.id.clone(), p);
            }
        }
        let removed: Vec<String> = ids.iter().cloned().collect();
        self.people
            .rewrite_with(&self.ports, changed.into_values().collect(), &removed)?;
        Ok(())
    }
}
