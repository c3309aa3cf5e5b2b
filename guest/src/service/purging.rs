//! `people forget --purge`: the person leaves every file of the home, not only the people
//! file. Memories about them alone go with no archive copy, older archive entries about
//! them alone too, and their names and aliases (and those of the entries merged into
//! them) are erased (`people::Erasure`) from what the owner keeps: memories, archive
//! entries, messages and session names. Then the index is rebuilt from the files.
//!
//! A purge rewrites several files and a call can die between any two, so its first write
//! marks the person (`purge_requested_at`) and each step after it can run again. Any call
//! that reads people and finds a mark finishes that owner's purge before its own work
//! (`refresh_people`). The person leaves `people.jsonl` last, with the mark: until then
//! their names are on file, and what still holds them can be found.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::MemoryService;
use crate::api::Error;
use crate::conversation::MessageRecord;
use crate::people::{Erasure, PersonRecord};
use crate::ports::{Collection, Level, Ports};
use crate::record::{MemoryRecord, encode_embedding, format_time};

/// What the owner's names for the purged people become, and what stays to be recognised.
struct Purge {
    owner: String,
    ids: HashSet<String>,
    erasure: Erasure,
    /// The owner's other people by name, for the entities of an erased memory.
    known: Vec<String>,
}

impl<P: Ports> MemoryService<P> {
    /// Reads people, and finishes first any purge they ask for. Whether one was finished
    /// (the files then changed). When none is, this costs one pass over the people.
    pub(crate) fn refresh_people(&mut self) -> Result<bool, Error> {
        self.people.refresh(&self.ports)?;
        let owners: BTreeSet<String> = self
            .people
            .iter()
            .filter(|p| p.purge_requested_at.is_some())
            .map(|p| p.owner_user_id.clone())
            .collect();
        for owner in &owners {
            self.ports
                .log(Level::Info, "finishing a purge that an earlier call left unfinished");
            self.finish_purge(owner)?;
        }
        Ok(!owners.is_empty())
    }

    /// Marks the person (`ids`: with the entries merged into them) for purging, then
    /// purges. Returns how many older archive entries about them alone were removed.
    pub(super) fn purge_person(&mut self, owner: &str, ids: &HashSet<String>, stamp: &str) -> Result<u32, Error> {
        let marked: Vec<PersonRecord> = self
            .people
            .iter()
            .filter(|p| ids.contains(&p.id))
            .map(|p| PersonRecord {
                purge_requested_at: Some(stamp.to_owned()),
                ..p.clone()
            })
            .collect();
        // An append: the host keeps it with the first rewrite below, a commit point, and
        // drops it with the rest if the call dies before one, when nothing is removed yet.
        self.people.append(&self.ports, marked)?;
        self.finish_purge(owner)
    }

    /// Every step of the owner's purge, each safe to run again. Returns how many archive
    /// entries about them alone were removed.
    fn finish_purge(&mut self, owner: &str) -> Result<u32, Error> {
        // Embedded first: a remote embedder is asked without the home's lock, so the
        // files are read again afterwards.
        let vectors = self.vectors_for_erased_messages(owner)?;
        self.people.refresh(&self.ports)?;
        self.memories.refresh(&self.ports)?;
        self.sessions.refresh(&self.ports)?;
        self.messages.refresh(&self.ports)?;
        let Some(purge) = self.purge_of(owner) else {
            // Another process finished it meanwhile.
            return Ok(0);
        };
        let stamp = format_time(self.now()?);
        let plan = self.plan(&purge.ids);
        let leaving: Vec<String> = plan.alone.iter().map(|r| r.id.clone()).collect();
        let purged = self.purge_archive(&purge, &leaving)?;
        self.purge_memories(&purge, plan.unlinked, &leaving)?;
        self.erase_conversations(&purge, &vectors)?;
        // Last of the files: this takes the mark away.
        self.forget_people(owner, &purge.ids, &stamp)?;
        // Rebuilt rather than edited: full-text search keeps a deleted row's words in
        // its segments until they merge, while tables cleared and filled again leave
        // only freed pages, which the hosts zero (`secure_delete`). Should this call die
        // first, the next one finds memories.jsonl replaced under the index, and rebuilds.
        self.rebuild()?;
        Ok(purged)
    }

    /// Takes the memories about them alone out, and erases their names from the memories
    /// about them and others (`unlinked`, already without them) and from the owner's
    /// other memories, in one rewrite.
    fn purge_memories(&mut self, purge: &Purge, unlinked: Vec<MemoryRecord>, leaving: &[String]) -> Result<(), Error> {
        let known: Vec<&str> = purge.known.iter().map(String::as_str).collect();
        let mut changed: Vec<MemoryRecord> = unlinked
            .into_iter()
            .map(|r| erased(&r, &purge.erasure, &known).unwrap_or(r))
            .collect();
        let linked: HashSet<&str> = changed
            .iter()
            .map(|r| r.id.as_str())
            .chain(leaving.iter().map(String::as_str))
            .collect();
        let named: Vec<MemoryRecord> = self
            .memories
            .iter()
            .filter(|r| r.owner_user_id.as_deref() == Some(purge.owner.as_str()) && !linked.contains(r.id.as_str()))
            .filter_map(|r| erased(r, &purge.erasure, &known))
            .collect();
        changed.extend(named);
        // Rewritten even when nothing changes now: older lines of memories removed or
        // erased before (a delete, an earlier try) may still hold them.
        self.memories.rewrite_with(&self.ports, changed, leaving)?;
        Ok(())
    }

    /// The purge the owner's marked people ask for, if any is left.
    fn purge_of(&self, owner: &str) -> Option<Purge> {
        let marked: Vec<String> = self
            .people
            .iter()
            .filter(|p| p.owner_user_id == owner && p.purge_requested_at.is_some())
            .map(|p| p.id.clone())
            .collect();
        if marked.is_empty() {
            return None;
        }
        let ids: HashSet<String> = marked.iter().flat_map(|id| self.merged_family(owner, id)).collect();
        let erasure = Erasure::of(self.people.iter().filter(|p| ids.contains(&p.id)));
        let known = self
            .people
            .iter()
            .filter(|p| p.owner_user_id == owner && !ids.contains(&p.id) && !p.has_placeholder_name())
            .map(|p| p.name.clone())
            .collect();
        Some(Purge {
            owner: owner.to_owned(),
            ids,
            erasure,
            known,
        })
    }

    /// Vectors for the owner's messages as the erasure leaves them, by text: a message
    /// keeps being found by meaning, and its old vector, which encoded the names, goes.
    fn vectors_for_erased_messages(&mut self, owner: &str) -> Result<HashMap<String, Vec<f32>>, Error> {
        self.people.refresh(&self.ports)?;
        self.messages.refresh(&self.ports)?;
        let Some(purge) = self.purge_of(owner) else {
            return Ok(HashMap::new());
        };
        let mut texts: Vec<String> = self
            .owners_messages(owner)
            .into_iter()
            .filter_map(|m| purge.erasure.erase(&m.content))
            .collect();
        texts.sort();
        texts.dedup();
        if texts.is_empty() {
            return Ok(HashMap::new());
        }
        let vectors = self.embed_texts(&texts);
        Ok(texts
            .into_iter()
            .zip(vectors)
            .filter_map(|(text, vector)| Some((text, vector?)))
            .collect())
    }

    /// The owner's messages: those of their own sessions, and in a chat the exchanges
    /// they began (their message and the answer to it). Another member's words are theirs.
    fn owners_messages(&self, owner: &str) -> Vec<&MessageRecord> {
        let began: HashSet<(&str, u64)> = self
            .messages
            .iter()
            .filter(|m| m.author_user_id.as_deref() == Some(owner))
            .map(|m| (m.session_id.as_str(), m.turn))
            .collect();
        self.messages
            .iter()
            .filter(|m| m.owner_user_id.as_deref() == Some(owner) || began.contains(&(m.session_id.as_str(), m.turn)))
            .collect()
    }

    /// Erases the names from the owner's messages and the names of their sessions. A
    /// message whose text changed takes the vector embedded for its new text, or none
    /// (found by words until then).
    fn erase_conversations(&mut self, purge: &Purge, vectors: &HashMap<String, Vec<f32>>) -> Result<(), Error> {
        let model = self.ports.embedder_model();
        let messages: Vec<MessageRecord> = self
            .owners_messages(&purge.owner)
            .into_iter()
            .filter_map(|m| {
                let mut m = m.clone();
                let mut changed = erase_fields(&purge.erasure, &mut m.extra);
                if let Some(content) = purge.erasure.erase(&m.content) {
                    let vector = vectors.get(&content);
                    m.embedding = vector.map(|v| encode_embedding(v));
                    m.embedding_model = vector.map(|_| model.clone());
                    m.content = content;
                    changed = true;
                }
                changed.then_some(m)
            })
            .collect();
        if !messages.is_empty() {
            self.messages.rewrite_with(&self.ports, messages, &[])?;
        }
        let sessions: Vec<_> = self
            .sessions
            .iter()
            .filter(|s| s.owner_user_id.as_deref() == Some(purge.owner.as_str()))
            .filter_map(|s| {
                let mut s = s.clone();
                let mut changed = erase_fields(&purge.erasure, &mut s.extra);
                if let Some(name) = purge.erasure.erase(&s.name) {
                    s.name = name;
                    changed = true;
                }
                changed.then_some(s)
            })
            .collect();
        if !sessions.is_empty() {
            // Every line of a session goes: its older lines hold the same name.
            self.sessions.rewrite_with(&self.ports, sessions, &[])?;
        }
        Ok(())
    }

    /// Rewrites the archive without the entries about the purged people alone (and
    /// without the memories being removed now, should an older copy of one be there);
    /// entries about them and others lose them as a subject, and the owner's entries lose
    /// their names. Lines that do not parse are kept as they are. Returns how many
    /// entries about them alone were removed.
    fn purge_archive(&mut self, purge: &Purge, leaving: &[String]) -> Result<u32, Error> {
        let chunk = self.ports.read(Collection::Archive, 0, None)?;
        let known: Vec<&str> = purge.known.iter().map(String::as_str).collect();
        let mut kept: Vec<String> = Vec::new();
        let mut purged = 0;
        let mut changed = false;
        for line in chunk.data.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(mut record) = MemoryRecord::parse(line) else {
                kept.push(line.to_owned());
                continue;
            };
            if leaving.contains(&record.id) {
                changed = true;
                continue;
            }
            let about = record.subject_person_ids.iter().any(|s| purge.ids.contains(s));
            if about {
                record.subject_person_ids.retain(|s| !purge.ids.contains(s));
                if record.subject_person_ids.is_empty() {
                    purged += 1;
                    changed = true;
                    continue;
                }
            }
            // What the person's links put there was the owner's doing, in a chat too.
            let mine = about || record.owner_user_id.as_deref() == Some(purge.owner.as_str());
            let erased = mine.then(|| erased(&record, &purge.erasure, &known)).flatten();
            if about || erased.is_some() {
                changed = true;
                kept.push(erased.unwrap_or(record).to_line());
            } else {
                kept.push(line.to_owned());
            }
        }
        if changed {
            self.ports.replace(Collection::Archive, &kept)?;
        }
        Ok(purged)
    }
}

/// The record with the names erased from what it says and its entities found again; when
/// the text it is embedded by changed, without its vector (which encoded the names), so
/// that the rebuild embeds it again. `None` when it names none of them.
fn erased(record: &MemoryRecord, erasure: &Erasure, known: &[&str]) -> Option<MemoryRecord> {
    let mut r = record.clone();
    let content = erasure.erase(&r.content);
    let context = r.context.as_deref().and_then(|c| erasure.erase(c));
    let text_changed = content.is_some() || context.is_some();
    if let Some(content) = content {
        r.content = content;
    }
    if context.is_some() {
        r.context = context;
    }
    let mut changed = text_changed;
    if let Some(metadata) = r.metadata.as_mut() {
        changed |= erasure.erase_value(metadata);
    }
    changed |= erase_fields(erasure, &mut r.extra);
    let entities_name_them = r
        .entities
        .as_ref()
        .is_some_and(|e| e.iter().any(|entity| erasure.erase(entity).is_some()));
    if text_changed || entities_name_them {
        r.entities = Some(crate::entities::held(&r.content, known));
        changed = true;
    }
    if text_changed {
        r.embedding = None;
        r.embedding_model = None;
    }
    changed.then_some(r)
}

/// Erases the names from fields of a newer schema; whether any changed.
fn erase_fields(erasure: &Erasure, fields: &mut serde_json::Map<String, serde_json::Value>) -> bool {
    fields
        .values_mut()
        .fold(false, |changed, v| erasure.erase_value(v) | changed)
}
