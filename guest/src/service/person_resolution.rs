//! Turning a reference ("my wife", "Sarah", "@bob", "Sarah's brother Tom", an id) into
//! one of the caller's people, creating people on first mention and completing them as
//! later references add a name, a relation or a handle. Nothing is written here: new and
//! changed people are collected for the caller to write.

use std::collections::HashMap;

use super::MemoryService;
use super::person_lookup::{IdReference, too_deep};
use crate::api::Error;
use crate::people::{self, PERSON_VERSION, PersonRecord, Relationship};
use crate::ports::Ports;
use crate::scope::Caller;

/// The longest name, alias, relation or reference to a person, in characters: a name
/// is a few words, and every context that shows the person shows all of it.
pub const MAX_NAME_CHARS: usize = 200;

/// What text that names a person must be: a name's length, no NUL, no secret. `what`
/// says which text it is ("a name", "an alias").
pub(crate) fn check_person_text(what: &str, text: &str) -> Result<(), Error> {
    let chars = text.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(Error::InvalidInput(format!(
            "{what} of {chars} characters is too long; names and references to people hold at most {MAX_NAME_CHARS}"
        )));
    }
    super::validation::refuse_nul(what, text)?;
    refuse_secret(text)
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
    Error::UnknownPerson(reference.to_owned())
}

impl<P: Ports> MemoryService<P> {
    pub(super) fn new_person(&self, owner: &str, name: &str, relation: Option<String>, stamp: &str) -> PersonRecord {
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
            purge_requested_at: None,
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
        if people::nesting(text) > people::MAX_NESTING {
            return Err(too_deep(text));
        }
        check_person_text("a reference to a person", text)?;
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
}
