//! The `people` commands (list, show, add, alias, merge), linking the memories of an add
//! to the people they are about, and writing people. Only the owner may see or change a
//! person.

use std::collections::{HashMap, HashSet};

use super::MemoryService;
use super::person_resolution::check_person_text;
use crate::api::{Error, Person};
use crate::people::{self, PersonRecord};
use crate::ports::Ports;
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;
use crate::secrets;

impl<P: Ports> MemoryService<P> {
    /// People: the subjects named, anyone the content introduces ("My wife's name is
    /// Sarah"), and known people it names. Returns the people to write (not yet written).
    pub(super) fn link_people(
        &self,
        caller: &Caller,
        records: &mut [MemoryRecord],
        subjects: &[Vec<String>],
        stamp: &str,
    ) -> Result<HashMap<String, PersonRecord>, Error> {
        let mut writes = HashMap::new();
        for (record, refs) in records.iter_mut().zip(subjects) {
            let mut ids: Vec<String> = Vec::new();
            for reference in refs {
                ids.push(self.resolve_person_in(caller, reference, Some(&record.content), stamp, &mut writes)?);
            }
            if caller.user_id.is_some() {
                let mut introduced_name = None;
                if let Some((name, relation)) = people::introduced(&record.content) {
                    let reference = format!("my {relation} {name}");
                    if secrets::detect(&reference).is_none() {
                        ids.push(self.resolve_person(caller, &reference, stamp, &mut writes)?);
                        introduced_name = Some(name);
                    }
                }
                // "My son is called Sam" is about the son, not about another Sam known.
                let known = people::named_in(&record.content, &self.people_of(caller));
                ids.extend(
                    known
                        .iter()
                        .filter(|p| introduced_name.as_ref().is_none_or(|n| !p.name.eq_ignore_ascii_case(n)))
                        .map(|p| p.id.clone()),
                );
            }
            let mut seen = HashSet::new();
            ids.retain(|id| seen.insert(id.clone()));
            record.subject_person_ids = ids;
        }
        // Entities last: the people this call created are known by name too.
        let known: Vec<String> = self
            .people_of(caller)
            .into_iter()
            .chain(writes.values())
            .filter(|p| !p.has_placeholder_name())
            .map(|p| p.name.clone())
            .collect();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        for record in records.iter_mut() {
            record.entities = Some(crate::entities::held(&record.content, &known));
        }
        Ok(writes)
    }

    /// Writes created and changed people in one append.
    pub(crate) fn write_people(&mut self, writes: HashMap<String, PersonRecord>) -> Result<(), Error> {
        let mut records: Vec<PersonRecord> = writes.into_values().collect();
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        self.people.append(&self.ports, records)?;
        Ok(())
    }

    /// `people.list`: the caller's people, by name.
    pub fn people_list(&mut self, caller: &Caller) -> Result<Vec<Person>, Error> {
        self.refresh_people()?;
        Self::owner(caller)?;
        let mut list: Vec<Person> = self.people_of(caller).into_iter().map(Person::from).collect();
        list.sort_by_key(|p| p.name.to_lowercase());
        Ok(list)
    }

    /// `people.show`: one of the caller's people, by reference or id.
    pub fn people_show(&mut self, caller: &Caller, reference: &str) -> Result<Person, Error> {
        self.refresh_people()?;
        Self::owner(caller)?;
        self.find_person(caller, reference)?
            .map(|p| Person::from(&p))
            .ok_or_else(|| Error::UnknownPerson(reference.to_owned()))
    }

    /// `people.add`: creates the person, or completes
    /// the one who already answers to the name.
    pub fn people_add(
        &mut self,
        caller: &Caller,
        name: &str,
        relation: Option<&str>,
        aliases: &[String],
    ) -> Result<Person, Error> {
        self.refresh_people()?;
        let owner = Self::owner(caller)?.to_owned();
        let name = name.trim();
        if name.is_empty() {
            return Err(Error::InvalidInput("a person needs a name".into()));
        }
        check_person_text("a name", name)?;
        if let Some(relation) = relation {
            check_person_text("a relation", relation)?;
        }
        for alias in aliases {
            check_person_text("an alias", alias)?;
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

    /// `people.alias`: another name for one of the caller's people.
    pub fn people_alias(&mut self, caller: &Caller, reference: &str, alias: &str) -> Result<Person, Error> {
        self.refresh_people()?;
        Self::owner(caller)?;
        let mut person = self
            .find_person(caller, reference)?
            .ok_or_else(|| Error::UnknownPerson(reference.to_owned()))?;
        if alias.trim().is_empty() {
            return Err(Error::InvalidInput("an empty alias".into()));
        }
        check_person_text("an alias", alias)?;
        self.check_alias_free(caller, &person.id, alias)?;
        if person.add_alias(alias) {
            person.updated_at = Some(format_time(self.now()?));
            self.write_people(HashMap::from([(person.id.clone(), person.clone())]))?;
        }
        Ok(Person::from(&person))
    }

    /// `people.merge`: B turns out to be A. A keeps B's name as an alias, B's aliases,
    /// edges and memories; B stays on file marked `merged_into`, never resolved again.
    pub fn people_merge(&mut self, caller: &Caller, keep: &str, merge: &str) -> Result<Person, Error> {
        self.refresh_people()?;
        self.memories.refresh(&self.ports)?;
        Self::owner(caller)?;
        let not_found = |r: &str| Error::UnknownPerson(r.to_owned());
        for reference in [keep, merge] {
            self.refuse_merged_away(caller, reference)?;
        }
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
        self.memories.append(&self.ports, relinked)?;
        // Their records and marks (the subjects a search about A finds them by) in the
        // index; nothing searched by words or vector changed.
        self.index_written(&[], &[]);
        let view = Person::from(&a);
        writes.insert(a.id.clone(), a);
        writes.insert(b.id.clone(), b);
        self.write_people(writes)?;
        Ok(view)
    }
}
