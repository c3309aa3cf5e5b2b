//! `import`: many facts at once, for moving a user's memories in. It stores what `add`
//! would store, with three differences that a list of thousands of facts needs:
//!
//! - A fact that fails validation is refused alone, with its position; the rest go in.
//!   (`check_only` runs only the validation, so that a caller can refuse a whole file
//!   before anything is written.)
//! - A fact already stored (the same text, context, scope and subjects as a live memory,
//!   or as an earlier fact of the list) is counted as present and not stored again, so
//!   that an interrupted import can simply be run again.
//! - When no language model answers, the conservative rule decides supersession, and the
//!   rule only ever replaces a fact by one in the same block (see
//!   [`supersession::rule_block`]). So candidates are grouped by block instead of searched
//!   for one by one in the vector index: the cost per fact stays flat as the collection
//!   grows. With a language model, candidates come from the index as for `add`.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::MemoryService;
use super::superseding::{Candidate, Decided, Replaces, same_slot};
use super::validation::check_subjects;
use crate::api::{Error, Imported, NewMemory};
use crate::judgment::Verdict;
use crate::lifecycle;
use crate::people::PersonRecord;
use crate::ports::{Collection, LlmRequest, Ports};
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;
use crate::supersession::{self, RuleContext};
use crate::vectors::cosine;

/// Most facts one `import` call takes; callers split longer lists.
pub const MAX_IMPORT_ITEMS: usize = 10_000;

/// Most earlier memories one fact is compared with, as `add` asks the index for.
const CANDIDATES_PER_FACT: usize = 8;

/// A memory's rule block, remembered with the context it was read in: a memory's text
/// never changes, but the names of its subjects can (a rename or a merge).
pub(crate) type BlockMemo = HashMap<String, (RuleContext, Option<String>)>;

impl<P: Ports> MemoryService<P> {
    /// Stores many facts; see `import-facts` in `wit/memories.wit`.
    pub fn import(&mut self, caller: &Caller, items: Vec<NewMemory>, check_only: bool) -> Result<Imported, Error> {
        if items.len() > MAX_IMPORT_ITEMS {
            return Err(Error::InvalidInput(format!(
                "{} facts in one call; an import call takes at most {MAX_IMPORT_ITEMS}",
                items.len()
            )));
        }
        let first = self.now()?;
        let mut report = Imported::default();
        let mut records = Vec::with_capacity(items.len());
        let mut subjects = Vec::with_capacity(items.len());
        let mut told = Vec::with_capacity(items.len());
        for (position, mut item) in (0u32..).zip(items) {
            let refs = std::mem::take(&mut item.subjects);
            match self
                .new_record(caller, item.clone(), first)
                .and_then(|r| check_subjects(&refs).map(|()| r))
            {
                Ok(record) => {
                    records.push(record);
                    subjects.push(refs);
                    told.push(item);
                }
                Err(e) => report.refused.push((position, e)),
            }
        }
        if check_only || records.is_empty() {
            return Ok(report);
        }

        // Everything that may be remote is asked before the collections are read: the
        // embedder, and whether a language model answers at all.
        let vectors = self.embed_new(&mut records);
        let llm_answers = self.ports.complete(&probe()).is_ok();

        self.load()?;
        let mut now = self.stamp_again(&told, &mut records, first)?;
        let stamp = format_time(now);
        let mut people_writes = self.link_people(caller, &mut records, &subjects, &stamp)?;
        let keep = self.not_present(&records)?;
        report.present = keep.iter().filter(|k| !**k).count() as u32;
        let mut kept = Vec::with_capacity(records.len());
        let (mut kept_subjects, mut kept_vectors, mut kept_told) = (Vec::new(), Vec::new(), Vec::new());
        for ((((record, refs), vector), item), keep) in
            records.into_iter().zip(subjects).zip(vectors).zip(told).zip(keep)
        {
            if keep {
                kept.push(record);
                kept_subjects.push(refs);
                kept_vectors.push(vector);
                kept_told.push(item);
            }
        }
        if kept.is_empty() {
            return Ok(report);
        }
        let decided = if llm_answers {
            self.supersede(
                caller,
                &mut kept,
                &kept_told,
                &kept_subjects,
                &kept_vectors,
                &mut people_writes,
                &mut now,
            )?
        } else {
            self.supersede_by_block(&mut kept, &kept_vectors, &people_writes, now, &stamp)
        };
        let restated = decided.restated.len() as u32;
        report.present += restated;
        let added = self.write_added(kept, decided, people_writes, &kept_vectors, now)?;
        report.added = added.memories.len() as u32 - restated;
        report.superseded = added.superseded.len() as u32;
        report.evicted = added.evicted.len() as u32;
        Ok(report)
    }

    /// For each new record, whether it is new: no memory in its slot (live, replaced,
    /// expired or archived), and no earlier record of the list, holds the same text.
    /// Replaced and archived ones count, so that running an import again does not bring
    /// back a fact that a later one of the same import replaced, even after a `gc`.
    fn not_present(&mut self, records: &[MemoryRecord]) -> Result<Vec<bool>, Error> {
        let mut archived = std::mem::take(&mut self.archived);
        let read = archived.refresh(&self.ports);
        self.archived = archived;
        read?;
        let texts: HashSet<&str> = records.iter().map(|r| r.content.as_str()).collect();
        let stored: Vec<&MemoryRecord> = self
            .memories
            .iter()
            .filter(|m| texts.contains(m.content.as_str()))
            .collect();
        let mut keep = Vec::with_capacity(records.len());
        // Within the list, the same words told twice ("I like jazz", "i like Jazz!") in the
        // same context and slot are one fact; said in another context ("Yes!" to two
        // questions) they are two.
        let mut told: HashSet<String> = HashSet::new();
        for record in records {
            let same = |other: &MemoryRecord| {
                other.content == record.content && other.context == record.context && same_slot(other, record)
            };
            // A text of filler alone ("Yes!") repeats only word for word.
            let key = crate::judgment::restatement_key(&record.content);
            let key = if key.is_empty() { record.content.clone() } else { key };
            let repeated = !told.insert(slot_text_of(record, &key));
            let seen = repeated || stored.iter().any(|m| same(m)) || self.archived.texts.contains(&slot_text(record));
            keep.push(!seen);
        }
        Ok(keep)
    }

    /// Supersession by the rule alone, over candidates grouped by block: live memories in
    /// the same slot and block at or above the threshold (the most similar first, as many
    /// as `add` would ask the index for), and earlier records of the list.
    fn supersede_by_block(
        &mut self,
        records: &mut [MemoryRecord],
        vectors: &[Option<Vec<f32>>],
        pending: &HashMap<String, PersonRecord>,
        now: DateTime<Utc>,
        stamp: &str,
    ) -> Decided {
        let threshold = self.ports.settings().supersession_threshold;
        let contexts: Vec<RuleContext> = records.iter().map(|r| self.rule_context(r, pending)).collect();
        let blocks: Vec<Option<String>> = records
            .iter()
            .zip(&contexts)
            .map(|(r, ctx)| supersession::rule_block(&r.content, ctx))
            .collect();
        let wanted: HashSet<&str> = blocks.iter().flatten().map(String::as_str).collect();
        let scopes: HashSet<(Option<&str>, Option<&str>)> = records
            .iter()
            .map(|r| (r.owner_user_id.as_deref(), r.chat_id.as_deref()))
            .collect();

        // The stored memories in the wanted blocks, read once for the whole list.
        let mut memo = std::mem::take(&mut self.block_memo);
        let mut by_block: HashMap<String, Vec<(String, Vec<f32>)>> = HashMap::new();
        for m in self.memories.iter() {
            if m.superseded_at.is_some()
                || m.embedding.is_none()
                || !scopes.contains(&(m.owner_user_id.as_deref(), m.chat_id.as_deref()))
            {
                continue;
            }
            let ctx = self.rule_context(m, pending);
            let block = match memo.get(&m.id) {
                Some((seen, block)) if *seen == ctx => block.clone(),
                _ => {
                    let block = supersession::rule_block(&m.content, &ctx);
                    memo.insert(m.id.clone(), (ctx, block.clone()));
                    block
                }
            };
            let Some(block) = block.filter(|b| wanted.contains(b.as_str())) else {
                continue;
            };
            if lifecycle::is_live(m, now)
                && let Some(vector) = m.vector()
            {
                by_block.entry(block).or_default().push((m.id.clone(), vector));
            }
        }
        self.block_memo = memo;

        let mut earlier_in_block: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        for (i, new) in records.iter().enumerate() {
            let (Some(vector), Some(block)) = (&vectors[i], &blocks[i]) else {
                continue;
            };
            let mut mine: Vec<Candidate> = by_block
                .get(block)
                .into_iter()
                .flatten()
                .filter(|(id, _)| self.memories.get(id).is_some_and(|old| same_slot(old, new)))
                .map(|(id, v)| (i, Replaces::Existing(id.clone()), cosine(vector, v)))
                .filter(|c| c.2 >= threshold)
                .collect();
            mine.sort_by(|a, b| b.2.total_cmp(&a.2));
            mine.truncate(CANDIDATES_PER_FACT);
            let earlier = earlier_in_block.entry(block.as_str()).or_default();
            for &j in earlier.iter() {
                if let Some(v) = &vectors[j]
                    && same_slot(&records[j], new)
                {
                    let sim = cosine(vector, v);
                    if sim >= threshold {
                        mine.push((i, Replaces::Batch(j), sim));
                    }
                }
            }
            earlier.push(i);
            mine.sort_by(|a, b| b.2.total_cmp(&a.2));
            candidates.extend(mine);
        }
        let verdicts: Vec<Verdict> = candidates
            .iter()
            .map(|(i, candidate, _)| {
                let old = match candidate {
                    Replaces::Existing(id) => self.memories.get(id).map(|r| r.content.as_str()).unwrap_or_default(),
                    Replaces::Batch(j) => records[*j].content.as_str(),
                };
                if supersession::rule_replaces(old, &records[*i].content, &contexts[*i]) {
                    Verdict::Change
                } else {
                    Verdict::Different
                }
            })
            .collect();
        self.apply_verdicts(records, candidates, verdicts, stamp)
    }
}

/// What the archive holds, as [`slot_text`] keys, kept between calls and brought up to
/// date by reading only what was appended since (the whole file again after `compact`).
#[derive(Debug, Default)]
pub(crate) struct ArchivedTexts {
    generation: Option<u64>,
    end: u64,
    texts: HashSet<String>,
}

impl ArchivedTexts {
    fn refresh<P: Ports>(&mut self, ports: &P) -> Result<(), Error> {
        let chunk = ports.read(Collection::Archive, self.end, self.generation)?;
        if Some(chunk.generation) != self.generation || chunk.end < self.end {
            self.texts.clear();
        }
        self.generation = Some(chunk.generation);
        self.end = chunk.end;
        // A line that does not parse is the collection's business, not the import's.
        self.texts.extend(
            chunk
                .data
                .lines()
                .filter_map(|l| MemoryRecord::parse(l).ok())
                .map(|r| slot_text(&r)),
        );
        Ok(())
    }
}

/// A memory's text with its scope and subjects: two records with the same key hold the
/// same fact for the same people (see `same_slot`).
fn slot_text(r: &MemoryRecord) -> String {
    slot_text_of(r, &r.content)
}

/// [`slot_text`] with other words in place of the record's content.
fn slot_text_of(r: &MemoryRecord, content: &str) -> String {
    let mut subjects = r.subject_person_ids.clone();
    subjects.sort();
    subjects.dedup();
    format!(
        "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}",
        r.owner_user_id.as_deref().unwrap_or_default(),
        r.chat_id.as_deref().unwrap_or_default(),
        subjects.join("\u{1e}"),
        content,
        r.context.as_deref().unwrap_or_default()
    )
}

/// The question that tells whether a language model answers: one token, asked once per
/// import call, so that a list of thousands is not judged by a model that is not there.
fn probe() -> LlmRequest {
    LlmRequest {
        system: "Answer with exactly one word: yes or no.".to_owned(),
        prompt: "Are you there?".to_owned(),
        max_tokens: 1,
    }
}
