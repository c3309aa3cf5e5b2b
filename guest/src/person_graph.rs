//! People operations of the memory service: resolving references (creating people on
//! first mention), aliases, merges, and the one-hop neighbourhood that person-graph
//! search follows. Only the owner may see, change or reference a person.

use std::collections::{HashMap, HashSet};

use crate::api::{Error, Person};
use crate::people::{self, PERSON_VERSION, PersonRecord, Relationship};
use crate::ports::Ports;
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;
use crate::service::MemoryService;

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
            .ok_or_else(|| Error::InvalidInput("people belong to a user (--user)".into()))
    }

    /// A reference by id: an error if it names another user's person.
    fn check_id_reference(&self, caller: &Caller, text: &str) -> Result<Option<PersonRecord>, Error> {
        match self.people.get(text.trim()) {
            Some(p) if Some(&p.owner_user_id) == caller.user_id.as_ref() && p.merged_into.is_none() => {
                Ok(Some(p.clone()))
            }
            Some(_) => Err(Error::Unauthorized(format!(
                "person {} is not one of yours",
                text.trim()
            ))),
            None => Ok(None),
        }
    }

    /// Finds the person a reference means, without creating one.
    pub(crate) fn find_person(&self, caller: &Caller, text: &str) -> Result<Option<PersonRecord>, Error> {
        if let Some(p) = self.check_id_reference(caller, text)? {
            return Ok(Some(p));
        }
        Ok(people::find(&self.people_of(caller), &people::parse_reference(text)).cloned())
    }

    fn new_person(&self, owner: &str, name: &str, relation: Option<String>, stamp: &str) -> PersonRecord {
        PersonRecord {
            id: self.ports.new_id(),
            version: PERSON_VERSION,
            owner_user_id: owner.to_owned(),
            name: name.to_owned(),
            relation,
            aliases: Vec::new(),
            created_at: stamp.to_owned(),
            updated_at: None,
            metadata: None,
            relationships: Vec::new(),
            merged_into: None,
            extra: Default::default(),
        }
    }

    /// Resolves a reference to one of the caller's people, creating or completing entries
    /// as it goes: "my wife" then "Sarah" then "my wife Sarah" all end at one person.
    /// Changed and new records are collected in `writes` (not yet written).
    pub(crate) fn resolve_person(
        &self,
        caller: &Caller,
        text: &str,
        stamp: &str,
        writes: &mut HashMap<String, PersonRecord>,
    ) -> Result<String, Error> {
        let owner = Self::owner(caller)?;
        if let Some(p) = self.check_id_reference(caller, text)? {
            return Ok(p.id);
        }
        let reference = people::parse_reference(text);
        if reference.text.is_empty() {
            return Err(Error::InvalidInput("an empty person reference".into()));
        }
        // See the people being created in this same call too.
        let mut known: Vec<PersonRecord> = self.people_of(caller).into_iter().cloned().collect();
        for w in writes.values() {
            match known.iter_mut().find(|k| k.id == w.id) {
                Some(k) => *k = w.clone(),
                None => known.push(w.clone()),
            }
        }
        let refs: Vec<&PersonRecord> = known.iter().collect();
        if let Some((owner_ref, relation)) = &reference.via {
            // "Sarah's brother Tom": Tom, with an edge from Sarah.
            let anchor = self.resolve_person(caller, owner_ref, stamp, writes)?;
            let name = reference
                .name
                .clone()
                .unwrap_or_else(|| format!("{owner_ref}'s {relation}"));
            let target = self.resolve_person(caller, &name, stamp, writes)?;
            let mut a = writes
                .get(&anchor)
                .cloned()
                .or_else(|| self.people.get(&anchor).cloned())
                .expect("just resolved");
            if !a.relationships.iter().any(|r| r.person_id == target) {
                a.relationships.push(Relationship {
                    person_id: target.clone(),
                    relation: relation.clone(),
                });
                a.updated_at = Some(stamp.to_owned());
                writes.insert(a.id.clone(), a);
            }
            let mut t = writes
                .get(&target)
                .cloned()
                .or_else(|| self.people.get(&target).cloned())
                .expect("just resolved");
            if t.add_alias(&format!("{owner_ref}'s {relation}")) {
                t.updated_at = Some(stamp.to_owned());
                writes.insert(t.id.clone(), t);
            }
            return Ok(target);
        }
        let mut person = match people::find(&refs, &reference) {
            Some(found) => found.clone(),
            None => {
                let name = reference.name.clone().unwrap_or_else(|| reference.text.clone());
                let mut p = self.new_person(owner, &name, reference.relation.clone(), stamp);
                if let Some(relation) = &reference.relation {
                    p.add_alias(&format!("my {relation}"));
                }
                writes.insert(p.id.clone(), p.clone());
                return Ok(p.id);
            }
        };
        // Complete what the reference adds: a name for "my wife", a relation for "Sarah".
        let mut changed = false;
        if let Some(name) = &reference.name
            && person.has_placeholder_name()
            && !person.name.eq_ignore_ascii_case(name)
        {
            let old = std::mem::replace(&mut person.name, name.clone());
            person.add_alias(&old);
            changed = true;
        }
        if let Some(relation) = &reference.relation
            && person.relation.is_none()
        {
            person.relation = Some(relation.clone());
            person.add_alias(&format!("my {relation}"));
            changed = true;
        }
        if changed {
            person.updated_at = Some(stamp.to_owned());
            writes.insert(person.id.clone(), person.clone());
        }
        Ok(person.id)
    }

    /// Writes created and changed people in one append.
    pub(crate) fn write_people(&mut self, writes: HashMap<String, PersonRecord>) -> Result<(), Error> {
        let mut records: Vec<PersonRecord> = writes.into_values().collect();
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        self.people
            .append(&self.ports, records)
            .map_err(|e| Error::Storage(e.0))
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

    /// Names of the caller's people among these ids, in order.
    pub(crate) fn names(&self, caller: &Caller, ids: &[String]) -> Vec<String> {
        let mine = self.people_of(caller);
        ids.iter()
            .filter_map(|id| mine.iter().find(|p| &p.id == id).map(|p| p.name.clone()))
            .collect()
    }

    /// `people list`: the caller's people, by name.
    pub fn people_list(&mut self, caller: &Caller) -> Result<Vec<Person>, Error> {
        self.people.refresh(&self.ports).map_err(|e| Error::Storage(e.0))?;
        Self::owner(caller)?;
        let mut list: Vec<Person> = self.people_of(caller).into_iter().map(Person::from).collect();
        list.sort_by_key(|p| p.name.to_lowercase());
        Ok(list)
    }

    /// `people show REF`.
    pub fn people_show(&mut self, caller: &Caller, reference: &str) -> Result<Person, Error> {
        self.people.refresh(&self.ports).map_err(|e| Error::Storage(e.0))?;
        Self::owner(caller)?;
        self.find_person(caller, reference)?
            .map(|p| Person::from(&p))
            .ok_or_else(|| Error::NotFound(format!("no person {reference:?} is known to you")))
    }

    /// `people add NAME [--relation R] [--alias A]...`: creates the person, or completes
    /// the one who already answers to the name.
    pub fn people_add(
        &mut self,
        caller: &Caller,
        name: &str,
        relation: Option<&str>,
        aliases: &[String],
    ) -> Result<Person, Error> {
        self.people.refresh(&self.ports).map_err(|e| Error::Storage(e.0))?;
        let owner = Self::owner(caller)?.to_owned();
        let name = name.trim();
        if name.is_empty() {
            return Err(Error::InvalidInput("a person needs a name".into()));
        }
        let stamp = format_time(self.now()?);
        let relation = relation
            .map(|r| r.trim().trim_start_matches("my ").to_lowercase())
            .filter(|r| !r.is_empty());
        let mut person = match self.people_of(caller).into_iter().find(|p| p.answers_to(name)) {
            Some(p) => {
                let mut p = p.clone();
                p.updated_at = Some(stamp.clone());
                p
            }
            None => self.new_person(&owner, name, None, &stamp),
        };
        if let Some(r) = &relation {
            person.relation = Some(r.clone());
            person.add_alias(&format!("my {r}"));
        }
        for alias in aliases {
            self.check_alias_free(caller, &person.id, alias)?;
            person.add_alias(alias);
        }
        let view = Person::from(&person);
        self.write_people(HashMap::from([(person.id.clone(), person)]))?;
        Ok(view)
    }

    fn check_alias_free(&self, caller: &Caller, id: &str, alias: &str) -> Result<(), Error> {
        match self
            .people_of(caller)
            .into_iter()
            .find(|p| p.id != id && p.answers_to(alias))
        {
            Some(other) => Err(Error::InvalidInput(format!("{alias:?} already means {}", other.name))),
            None => Ok(()),
        }
    }

    /// `people alias REF ALIAS`.
    pub fn people_alias(&mut self, caller: &Caller, reference: &str, alias: &str) -> Result<Person, Error> {
        self.people.refresh(&self.ports).map_err(|e| Error::Storage(e.0))?;
        Self::owner(caller)?;
        let mut person = self
            .find_person(caller, reference)?
            .ok_or_else(|| Error::NotFound(format!("no person {reference:?} is known to you")))?;
        if alias.trim().is_empty() {
            return Err(Error::InvalidInput("an empty alias".into()));
        }
        self.check_alias_free(caller, &person.id, alias)?;
        if person.add_alias(alias) {
            person.updated_at = Some(format_time(self.now()?));
            self.write_people(HashMap::from([(person.id.clone(), person.clone())]))?;
        }
        Ok(Person::from(&person))
    }

    /// `people merge A B`: B turns out to be A. A keeps B's name as an alias, B's aliases,
    /// edges and memories; B stays on file marked `merged_into`, never resolved again.
    pub fn people_merge(&mut self, caller: &Caller, keep: &str, merge: &str) -> Result<Person, Error> {
        self.people.refresh(&self.ports).map_err(|e| Error::Storage(e.0))?;
        self.memories.refresh(&self.ports).map_err(|e| Error::Storage(e.0))?;
        Self::owner(caller)?;
        let not_found = |r: &str| Error::NotFound(format!("no person {r:?} is known to you"));
        let mut a = self.find_person(caller, keep)?.ok_or_else(|| not_found(keep))?;
        let mut b = self.find_person(caller, merge)?.ok_or_else(|| not_found(merge))?;
        if a.id == b.id {
            return Err(Error::InvalidInput(format!(
                "{keep:?} and {merge:?} are already the same person"
            )));
        }
        let stamp = format_time(self.now()?);
        let mut writes: HashMap<String, PersonRecord> = HashMap::new();
        a.add_alias(&b.name.clone());
        for alias in b.aliases.clone() {
            a.add_alias(&alias);
        }
        if a.relation.is_none() {
            a.relation = b.relation.clone();
        }
        for edge in b.relationships.drain(..) {
            if edge.person_id != a.id && !a.relationships.iter().any(|r| r.person_id == edge.person_id) {
                a.relationships.push(edge);
            }
        }
        // Edges that pointed at B now point at A.
        for p in self.people_of(caller) {
            if p.id != a.id && p.id != b.id && p.relationships.iter().any(|r| r.person_id == b.id) {
                let mut p = p.clone();
                for r in &mut p.relationships {
                    if r.person_id == b.id {
                        r.person_id = a.id.clone();
                    }
                }
                p.updated_at = Some(stamp.clone());
                writes.insert(p.id.clone(), p);
            }
        }
        a.updated_at = Some(stamp.clone());
        b.merged_into = Some(a.id.clone());
        b.updated_at = Some(stamp.clone());
        let relinked: Vec<MemoryRecord> = self
            .memories
            .iter()
            .filter(|m| m.subject_person_ids.contains(&b.id))
            .map(|m| {
                let mut m = m.clone();
                for s in &mut m.subject_person_ids {
                    if *s == b.id {
                        *s = a.id.clone();
                    }
                }
                let mut seen = HashSet::new();
                m.subject_person_ids.retain(|s| seen.insert(s.clone()));
                m
            })
            .collect();
        // Memories first: if the people write then fails, they point at A, who exists.
        self.memories
            .append(&self.ports, relinked)
            .map_err(|e| Error::Storage(e.0))?;
        let view = Person::from(&a);
        writes.insert(a.id.clone(), a);
        writes.insert(b.id.clone(), b);
        self.write_people(writes)?;
        Ok(view)
    }
}
