//! People operations of the memory service: resolving references (creating people on
//! first mention), aliases, merges, and the one-hop neighbourhood that person-graph
//! search follows. Only the owner may see, change or reference a person; to anyone else
//! a person's id is as unknown as an id that never existed.

use std::collections::{HashMap, HashSet};

use crate::api::{Error, Person};
use crate::people::{self, PERSON_VERSION, PersonRecord, Relationship};
use crate::ports::Ports;
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;
use crate::service::MemoryService;
use crate::supersession::RuleContext;

/// How many `merged_into` links a reference by id follows before giving up.
const MAX_MERGE_HOPS: usize = 16;

/// What a reference is, as an id.
enum IdReference<'a> {
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

/// Refuses text that looks like a secret: people's names and aliases are stored and
/// shown in prompts like memories are.
pub(crate) fn refuse_secret(text: &str) -> Result<(), Error> {
    match crate::secrets::detect(text) {
        Some(kind) => Err(Error::SecretRefused(format!(
            "this looks like {}; secrets are never stored in memory",
            kind.describe()
        ))),
        None => Ok(()),
    }
}

fn unknown_person(reference: &str) -> Error {
    Error::NotFound(format!("no person {reference} is known to you"))
}

fn too_deep(reference: &str) -> Error {
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
            .ok_or_else(|| Error::InvalidInput("people belong to a user (--user)".into()))
    }

    /// Reads a reference as an id. A merged person's id leads to the person they were
    /// merged into; another user's person is as unknown as no person at all.
    fn id_reference(&self, caller: &Caller, text: &str) -> IdReference<'_> {
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

    /// The caller's people as this resolution sees them: stored, with the ones being
    /// created or changed in the same call over them.
    fn known(&self, caller: &Caller, writes: &HashMap<String, PersonRecord>) -> Vec<PersonRecord> {
        let mut known: Vec<PersonRecord> = self.people_of(caller).into_iter().cloned().collect();
        let mut new: Vec<&PersonRecord> = writes.values().filter(|w| w.merged_into.is_none()).collect();
        new.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        for w in new {
            match known.iter_mut().find(|k| k.id == w.id) {
                Some(k) => *k = w.clone(),
                None => known.push(w.clone()),
            }
        }
        known
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
        self.resolve_person_in(caller, text, None, stamp, writes)
    }

    /// [`Self::resolve_person`] for a subject of a memory whose content may name the
    /// person: with "my wife" and "My wife Sarah loves hiking", the wife is Sarah.
    pub(crate) fn resolve_person_in(
        &self,
        caller: &Caller,
        text: &str,
        content: Option<&str>,
        stamp: &str,
        writes: &mut HashMap<String, PersonRecord>,
    ) -> Result<String, Error> {
        Self::owner(caller)?;
        refuse_secret(text)?;
        if people::nesting(text) > people::MAX_NESTING {
            return Err(too_deep(text));
        }
        self.resolve_at(caller, text, content, stamp, writes, 0)
    }

    fn resolve_at(
        &self,
        caller: &Caller,
        text: &str,
        content: Option<&str>,
        stamp: &str,
        writes: &mut HashMap<String, PersonRecord>,
        depth: usize,
    ) -> Result<String, Error> {
        if depth > people::MAX_NESTING {
            return Err(too_deep(text));
        }
        let owner = Self::owner(caller)?;
        match self.id_reference(caller, text) {
            IdReference::Mine(p) => return Ok(p.id.clone()),
            IdReference::Unknown => return Err(unknown_person(text.trim())),
            IdReference::NotAnId => {}
        }
        let mut reference = people::parse_reference(text);
        if reference.text.is_empty() {
            return Err(Error::InvalidInput("an empty person reference".into()));
        }
        if reference.name.is_none() && reference.relation.is_none() && reference.via.is_none() {
            return Err(Error::InvalidInput(format!(
                "{:?} does not say who: give a name or a relation (\"my wife\")",
                reference.text
            )));
        }
        if let Some((anchor, relation)) = reference.via.clone() {
            return self.resolve_via(caller, &reference, &anchor, &relation, stamp, writes, depth);
        }
        let known = self.known(caller, writes);
        let refs: Vec<&PersonRecord> = known.iter().collect();
        let mut found = people::find(&refs, &reference).cloned();
        let mut relation = reference.relation_meant(&refs);
        // "my wife" with "My wife Sarah loves hiking": the content names her. A wife
        // already known by name stays who "my wife" is.
        if let Some(content) = content
            && (reference.name.is_none() || reference.relation.is_none())
            && found.as_ref().is_none_or(PersonRecord::has_placeholder_name)
            && let Some(r) = &relation
            && let Some(name) = people::name_in_content(content, r)
        {
            reference = people::parse_reference(&format!("my {r} {name}"));
            found = people::find(&refs, &reference).cloned();
            relation = reference.relation.clone();
        }
        let mut person = match found {
            Some(found) => found,
            None => {
                let p = match (&reference.handle, &relation, &reference.name) {
                    // "@bob": Bob, who also answers to "@bob".
                    (Some(handle), _, Some(name)) => {
                        let mut p = self.new_person(owner, name, None, stamp);
                        p.add_alias(handle);
                        p
                    }
                    // "my wife", "the boss", "wife": a stand-in until the name is known.
                    (_, Some(relation), name) => {
                        let placeholder = format!("my {relation}");
                        let name = name
                            .as_deref()
                            .filter(|_| reference.relation.is_some())
                            .unwrap_or(&placeholder);
                        let mut p = self.new_person(owner, name, Some(relation.clone()), stamp);
                        p.add_alias(&placeholder);
                        p
                    }
                    (_, None, name) => {
                        let name = name.clone().unwrap_or_else(|| reference.text.clone());
                        self.new_person(owner, &name, None, stamp)
                    }
                };
                writes.insert(p.id.clone(), p.clone());
                return Ok(p.id);
            }
        };
        // Complete what the reference adds: a name for "my wife", a relation for "Sarah".
        let mut changed = false;
        if let Some(name) = &reference.name
            && reference.relation.is_some()
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
        if let Some(handle) = &reference.handle {
            changed |= person.add_alias(handle);
        }
        if changed {
            person.updated_at = Some(stamp.to_owned());
            writes.insert(person.id.clone(), person.clone());
        }
        Ok(person.id)
    }

    /// "Sarah's brother [Tom]": the person Sarah's record points at as her brother, or a
    /// new one (named Tom, or "Sarah's brother" until the name is known), with the edge.
    #[allow(clippy::too_many_arguments)]
    fn resolve_via(
        &self,
        caller: &Caller,
        reference: &people::Reference,
        anchor_ref: &str,
        relation: &str,
        stamp: &str,
        writes: &mut HashMap<String, PersonRecord>,
        depth: usize,
    ) -> Result<String, Error> {
        let owner = Self::owner(caller)?;
        let anchor_id = self.resolve_at(caller, anchor_ref, None, stamp, writes, depth + 1)?;
        let known = self.known(caller, writes);
        let anchor = known
            .iter()
            .find(|p| p.id == anchor_id)
            .cloned()
            .ok_or_else(|| unknown_person(anchor_ref))?;
        let label = format!("{anchor_ref}'s {relation}");
        let related: Vec<&PersonRecord> = anchor
            .relationships
            .iter()
            .filter(|r| r.relation.eq_ignore_ascii_case(relation))
            .filter_map(|r| known.iter().find(|p| p.id == r.person_id))
            .collect();
        let target = match &reference.name {
            Some(name) => {
                if let Some(p) = known.iter().find(|p| p.answers_to(name)) {
                    p.id.clone()
                } else if let Some(p) = related.iter().find(|p| p.has_placeholder_name()) {
                    // "Sarah's brother" learns his name.
                    let mut p = (*p).clone();
                    let old = std::mem::replace(&mut p.name, name.clone());
                    p.add_alias(&old);
                    p.updated_at = Some(stamp.to_owned());
                    writes.insert(p.id.clone(), p.clone());
                    p.id
                } else {
                    self.resolve_at(caller, name, None, stamp, writes, depth + 1)?
                }
            }
            None => match related
                .iter()
                .find(|p| p.answers_to(&label))
                .or(related.first())
                .map(|p| p.id.clone())
                .or_else(|| known.iter().find(|p| p.answers_to(&label)).map(|p| p.id.clone()))
            {
                Some(id) => id,
                None => {
                    let p = self.new_person(owner, &label, None, stamp);
                    writes.insert(p.id.clone(), p.clone());
                    p.id
                }
            },
        };
        if target == anchor.id {
            return Ok(target);
        }
        let current = |id: &str, writes: &HashMap<String, PersonRecord>| {
            writes
                .get(id)
                .cloned()
                .or_else(|| self.known(caller, writes).into_iter().find(|p| p.id == id))
                .ok_or_else(|| unknown_person(id))
        };
        let mut a = current(&anchor.id, writes)?;
        if !a.relationships.iter().any(|r| r.person_id == target) {
            a.relationships.push(Relationship {
                person_id: target.clone(),
                relation: relation.to_owned(),
            });
            a.updated_at = Some(stamp.to_owned());
            writes.insert(a.id.clone(), a);
        }
        let mut t = current(&target, writes)?;
        if t.add_alias(&label) {
            t.updated_at = Some(stamp.to_owned());
            writes.insert(t.id.clone(), t);
        }
        Ok(target)
    }

    /// Writes created and changed people in one append.
    pub(crate) fn write_people(&mut self, writes: HashMap<String, PersonRecord>) -> Result<(), Error> {
        let mut records: Vec<PersonRecord> = writes.into_values().collect();
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        self.people
            .append(&self.ports, records)
            .map(drop)
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

    /// What the supersession rule needs to know about a memory: whether it is a group's,
    /// and the names of the people it is about (merges followed). `pending` holds people
    /// resolved for the memory but not yet written. The ids on a record were checked
    /// against its owner when they were resolved.
    // Called from `service.rs` once the supersession check passes the context along.
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
        refuse_secret(name)?;
        if let Some(relation) = relation {
            refuse_secret(relation)?;
        }
        for alias in aliases {
            refuse_secret(alias)?;
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
        refuse_secret(alias)?;
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
