//! `import-records`: reading an export back, for a caller, into this home. Records keep
//! their ids unless this home already uses one for something else; vectors are kept when
//! the export's model is this home's.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::MemoryService;
use super::exporting::Header;
use super::index_sync::index_entry;
use super::person_resolution::{check_person_text, refuse_secret};
use super::validation::{check_content, check_context};
use crate::api::{Error, RecordsImported};
use crate::memory_type::classify;
use crate::people::PersonRecord;
use crate::ports::{Collection, IndexEntry, Level, Ports};
use crate::record::{MemoryRecord, encode_embedding};
use crate::scope::Caller;
use crate::vectors;

/// Texts per embedding call when an import must embed again.
const EMBED_BATCH: usize = 256;

/// The records of an export, each rescoped to the caller.
#[derive(Default)]
struct Parsed {
    people: Vec<PersonRecord>,
    /// (is it an archive entry, the record).
    memories: Vec<(bool, MemoryRecord)>,
    /// The position of the line each person's and each memory's id came on (archive
    /// entries aside), so that a second line of one id is refused, not folded into the
    /// first as a later version of it.
    first_lines: HashMap<(&'static str, String), u32>,
}

impl<P: Ports> MemoryService<P> {
    /// `import-records`; see `wit/portability.wit`.
    pub fn import_records(
        &mut self,
        caller: &Caller,
        lines: &[String],
        check_only: bool,
    ) -> Result<RecordsImported, Error> {
        if caller.user_id.is_none() && caller.chat_id.is_none() {
            return Err(Error::InvalidInput(
                "a caller with neither a user nor a chat cannot import".into(),
            ));
        }
        let header = Header::parse(lines.first().map(String::as_str).unwrap_or(""))?;
        let mut report = RecordsImported::default();
        let mut parsed = Parsed::default();
        for (i, line) in lines.iter().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            if let Err(reason) = parse_line(caller, i as u32, line, &mut parsed) {
                report.refused.push((i as u32, reason));
            }
        }
        if check_only {
            return Ok(report);
        }
        // Embedding first: a remote embedder is asked without the home's lock, and the
        // collections are read afresh afterwards.
        report.reembedded = self.embed_again(&header, &mut parsed.memories);
        self.load()?;
        self.store_parsed(caller, parsed, &mut report)?;
        Ok(report)
    }

    /// Drops the vectors another model made and embeds those memories again; when the
    /// embedder does not answer they wait for an embedding, as an add's would.
    fn embed_again(&self, header: &Header, memories: &mut [(bool, MemoryRecord)]) -> u32 {
        let want = self.wanted_index();
        let mut stale: Vec<usize> = Vec::new();
        for (i, (in_archive, r)) in memories.iter_mut().enumerate() {
            let model = r.embedding_model.as_deref().unwrap_or(&header.embedding_model);
            if *in_archive {
                // Never indexed, so never embedded again; but a vector of another model
                // keeps that model's name, so that a later rebuild does not take it for ours.
                if r.embedding.is_some() && model != want.model {
                    r.embedding_model = Some(model.to_owned());
                }
                continue;
            }
            let fits = model == want.model && r.vector().is_some_and(|v| vectors::usable(v, want.dimension).is_some());
            if !fits {
                r.embedding = None;
                r.embedding_model = None;
                stale.push(i);
            }
        }
        for batch in stale.chunks(EMBED_BATCH) {
            let texts: Vec<String> = batch.iter().map(|&i| memories[i].1.embedded_text()).collect();
            match self.ports.embed(&texts) {
                Ok(vectors) if vectors.len() == texts.len() => {
                    for (&i, v) in batch.iter().zip(vectors) {
                        if let Some(v) = vectors::usable(v, want.dimension) {
                            memories[i].1.embedding = Some(encode_embedding(&v));
                            memories[i].1.embedding_model = Some(want.model.clone());
                        }
                    }
                }
                _ => {
                    self.ports.log(
                        Level::Warn,
                        "embedder unavailable during import; memories wait for an embedding",
                    );
                    break;
                }
            }
        }
        stale.len() as u32
    }

    /// Gives colliding records new ids, follows the references, and writes the rest.
    ///
    /// An id this home already holds in the same scope (the caller's user for people, the
    /// record's owner and chat for memories) is the same record: present, and the home's
    /// version is kept, so that an import or a migration run again, or resumed, stores
    /// nothing twice. An id held in another scope is someone else's: the record gets a new
    /// id. References to people who are neither in the export nor the caller's are
    /// dropped, so that no imported memory points at another user's person.
    fn store_parsed(&mut self, caller: &Caller, parsed: Parsed, report: &mut RecordsImported) -> Result<(), Error> {
        let archived: HashMap<String, Scope> = {
            let chunk = self.ports.read(Collection::Archive, 0, None)?;
            chunk
                .data
                .lines()
                .filter_map(|l| MemoryRecord::parse(l).ok())
                .map(|r| (r.id.clone(), scope_of(&r)))
                .collect()
        };
        let user = caller.user_id.clone().unwrap_or_default();
        let mut person_ids: HashMap<String, String> = HashMap::new();
        let mut present_people: HashSet<String> = HashSet::new();
        for p in &parsed.people {
            match self.people.get(&p.id) {
                Some(e) if e.owner_user_id == p.owner_user_id => {
                    present_people.insert(p.id.clone());
                }
                Some(_) => {
                    person_ids.insert(p.id.clone(), self.ports.new_id());
                }
                None => {}
            }
        }
        let mut memory_ids: HashMap<String, String> = HashMap::new();
        let mut present_memories: HashSet<String> = HashSet::new();
        for (_, r) in &parsed.memories {
            let held = self
                .memories
                .get(&r.id)
                .map(scope_of)
                .or_else(|| archived.get(&r.id).cloned());
            match held {
                Some(scope) if scope == scope_of(r) => {
                    present_memories.insert(r.id.clone());
                }
                Some(_) => {
                    memory_ids.insert(r.id.clone(), self.ports.new_id());
                }
                None => {}
            }
        }
        report.renamed = (person_ids.len() + memory_ids.len()) as u32;
        let follow = |map: &HashMap<String, String>, id: &mut String| {
            if let Some(new) = map.get(id.as_str()) {
                *id = new.clone();
            }
        };
        // The people a reference may name: those of the export and the caller's own.
        let exported: HashSet<String> = parsed
            .people
            .iter()
            .map(|p| person_ids.get(&p.id).unwrap_or(&p.id).clone())
            .collect();
        let nameable = |id: &str| {
            exported.contains(id)
                || self
                    .people
                    .get(id)
                    .is_some_and(|p| !user.is_empty() && p.owner_user_id == user)
        };

        let mut people = Vec::new();
        for mut p in parsed.people {
            if present_people.contains(&p.id) {
                report.present += 1;
                continue;
            }
            follow(&person_ids, &mut p.id);
            p.relationships
                .iter_mut()
                .for_each(|r| follow(&person_ids, &mut r.person_id));
            p.relationships.retain(|r| nameable(&r.person_id));
            if let Some(m) = p.merged_into.as_mut() {
                follow(&person_ids, m);
            }
            p.merged_into = p.merged_into.filter(|m| nameable(m));
            people.push(p);
        }
        let (mut live, mut archive) = (Vec::new(), Vec::new());
        for (in_archive, mut r) in parsed.memories {
            if present_memories.contains(&r.id) {
                report.present += 1;
                continue;
            }
            follow(&memory_ids, &mut r.id);
            r.subject_person_ids.iter_mut().for_each(|s| follow(&person_ids, s));
            r.subject_person_ids.retain(|s| nameable(s));
            if let Some(by) = r.superseded_by_id.as_mut() {
                follow(&memory_ids, by);
            }
            if in_archive {
                archive.push(r.to_line());
            } else {
                live.push(r);
            }
        }
        report.people = people.len() as u32;
        report.memories = live.len() as u32;
        report.archived = archive.len() as u32;

        // People first, so that no memory points at someone not yet on file.
        self.people.append(&self.ports, people)?;
        self.ports.append(Collection::Archive, &archive)?;
        let now = self.now()?;
        self.memories.append(&self.ports, live.clone())?;
        // Each id once, as its last line folds it, in the order ids first appear: a file
        // naming a memory twice indexes what the collection now holds, not a line of it.
        let mut seen = HashSet::new();
        let (mut entries, mut gone): (Vec<IndexEntry>, Vec<String>) = (Vec::new(), Vec::new());
        for id in live.iter().map(|r| &r.id).filter(|id| seen.insert(id.as_str())) {
            match self.memories.get(id) {
                Some(r) if r.superseded_at.is_none() => entries.push(index_entry(r, r.vector())),
                _ => gone.push(id.clone()),
            }
        }
        self.index_written(&entries, &gone);
        let ids: Vec<String> = live.iter().map(|r| r.id.clone()).collect();
        self.enforce_max_entries(&live, &ids, now)?;
        Ok(())
    }
}

/// A memory's scope: (owner, chat).
type Scope = (Option<String>, Option<String>);

fn scope_of(r: &MemoryRecord) -> Scope {
    (r.owner_user_id.clone(), r.chat_id.clone())
}

/// Refuses a line whose person or memory id an earlier line of the export holds: an export
/// holds each record once, and a second line (two files joined, one edited by hand) would
/// otherwise replace the first without a word.
fn first_line_of(parsed: &mut Parsed, kind: &'static str, id: &str, position: u32) -> Result<(), String> {
    match parsed.first_lines.entry((kind, id.to_owned())) {
        std::collections::hash_map::Entry::Occupied(first) => Err(format!(
            "{kind} {id} is on line {} already: an export holds each record once",
            first.get() + 1
        )),
        std::collections::hash_map::Entry::Vacant(v) => {
            v.insert(position);
            Ok(())
        }
    }
}

/// The longest id an export may give a record.
const MAX_ID_BYTES: usize = 128;

/// Refuses an id that could not be named again: one with spaces, invisible or control
/// characters, or over [`MAX_ID_BYTES`]. Ids this project makes are UUIDs (`eval` makes
/// "group/id"); a padded or invisible one was stored as given, and then no command found
/// it (a command trims what it is given).
fn check_id(kind: &str, id: &str) -> Result<(), String> {
    let clean = !id.is_empty() && id.len() <= MAX_ID_BYTES && id.chars().all(|c| c.is_ascii_graphic());
    if clean {
        return Ok(());
    }
    let shown: String = id.chars().take(48).collect();
    Err(format!(
        "{kind} id {shown:?} is not one a command can name: an id is 1 to {MAX_ID_BYTES} visible ASCII \
         characters, without spaces"
    ))
}

/// Reads one record line (at `position`, the header 0) into `parsed`, rescoped to the
/// caller; says why not otherwise.
fn parse_line(caller: &Caller, position: u32, line: &str, parsed: &mut Parsed) -> Result<(), String> {
    let mut value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let kind = match value.as_object_mut().and_then(|o| o.remove("kind")) {
        Some(Value::String(kind)) => kind,
        _ => return Err("a record line needs a \"kind\"".into()),
    };
    // A record from before memories had types (a legacy store) gets the type its words
    // suggest, as an add without one does.
    if matches!(kind.as_str(), "memory" | "archived")
        && let Some(o) = value.as_object_mut()
        && !o.contains_key("memory_type")
        && let Some(content) = o.get("content").and_then(Value::as_str)
    {
        let inferred = serde_json::to_value(classify(content)).expect("a type serializes");
        o.insert("memory_type".into(), inferred);
    }
    let record = value.to_string();
    match kind.as_str() {
        "person" => {
            let user = caller
                .user_id
                .as_ref()
                .ok_or("people belong to a user, and the caller has none")?;
            let mut p = PersonRecord::parse(&record)?;
            for text in std::iter::once(&p.name).chain(&p.aliases).chain(p.relation.as_ref()) {
                check_person_text("a name", text).map_err(|e| e.to_string())?;
            }
            p.owner_user_id = user.clone();
            check_id("person", &p.id)?;
            first_line_of(parsed, "person", &p.id, position)?;
            parsed.people.push(p);
        }
        "memory" | "archived" => {
            let mut r = MemoryRecord::parse(&record).map_err(|e| e.0)?;
            check_id("memory", &r.id)?;
            check_content(&r.content).map_err(|e| e.to_string())?;
            r.context = check_context(r.context.as_deref()).map_err(|e| e.to_string())?;
            refuse_secret(&r.source).map_err(|e| format!("the source: {e}"))?;
            let in_archive = kind == "archived";
            if in_archive != r.archived_at.is_some() {
                return Err(format!(
                    "a {kind} line {} an archived_at",
                    if in_archive { "needs" } else { "has" }
                ));
            }
            if r.chat_id.is_some() {
                let chat = caller.chat_id.as_ref().ok_or("a group memory needs a chat to go to")?;
                r.chat_id = Some(chat.clone());
                // Group memories have no owner here (older data may name their adder).
                r.owner_user_id = None;
            } else if r.owner_user_id.is_some() {
                let user = caller
                    .user_id
                    .as_ref()
                    .ok_or("a personal memory needs a user to belong to")?;
                r.owner_user_id = Some(user.clone());
            } else {
                return Err("a memory with neither an owner nor a chat".into());
            }
            if !in_archive {
                first_line_of(parsed, "memory", &r.id, position)?;
            }
            parsed.memories.push((in_archive, r));
        }
        other => return Err(format!("unknown kind {other:?}")),
    }
    Ok(())
}
