//! Supersession during an add: which live memories (and earlier records of the same
//! batch) a new memory might replace, whether it does (the language model, or the rule
//! when it cannot be asked), and a re-check after a fresh read so that verdicts reached
//! without the home's lock only apply to what still holds the text that was judged.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::Error;
use crate::lifecycle;
use crate::people::PersonRecord;
use crate::ports::{EntryKind, Level, Ports, ScopeFilter};
use crate::record::{MemoryRecord, format_time};
use crate::scope::Caller;
use crate::supersession;
use crate::vectors::cosine;

/// What a new record might replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Replaces {
    /// An existing memory, by id.
    Existing(String),
    /// An earlier record of the same batch, by position.
    Batch(usize),
}

/// A supersession candidate: (the new record's position, what it might replace, cosine).
pub(super) type Candidate = (usize, Replaces, f32);

impl<P: Ports> MemoryService<P> {
    /// Decides what the new records replace. Batch records are marked in place; the
    /// existing memories they replace are returned, already marked. `people_writes` is
    /// resolved again when the collections are read again.
    pub(super) fn supersede(
        &mut self,
        caller: &Caller,
        records: &mut [MemoryRecord],
        subjects: &[Vec<String>],
        vectors: &[Option<Vec<f32>>],
        people_writes: &mut HashMap<String, PersonRecord>,
        now: DateTime<Utc>,
    ) -> Result<Vec<MemoryRecord>, Error> {
        let stamp = format_time(now);
        let candidates = self.supersession_candidates(records, vectors, now)?;
        let judged: Vec<(Candidate, String, bool)> = candidates
            .into_iter()
            .map(|c| {
                let old = self.candidate_content(&c, records);
                let context = self.rule_context(&records[c.0], people_writes);
                let verdict = self.verify(&old, &records[c.0].content, &context);
                (c, old, verdict)
            })
            .collect();
        if judged.is_empty() {
            return Ok(Vec::new());
        }
        // The language model may have been asked without the lock: read again, resolve
        // the people again, and keep only verdicts on candidates that are still live and
        // still say what was judged (anything new is kept, unjudged: doubt keeps both).
        // Read as the add first read: from the index when it still stands for the file.
        if self.memories.is_partial() {
            self.load_as_needed()?;
        } else {
            self.load()?;
        }
        *people_writes = self.link_people(caller, records, subjects, &stamp)?;
        let still: Vec<(Candidate, String)> = self
            .supersession_candidates(records, vectors, now)?
            .into_iter()
            .map(|c| {
                let old = self.candidate_content(&c, records);
                (c, old)
            })
            .collect();
        let (candidates, verdicts): (Vec<Candidate>, Vec<bool>) = judged
            .into_iter()
            .filter(|(c, old, _)| {
                still
                    .iter()
                    .any(|(s, now_old)| s.0 == c.0 && s.1 == c.1 && now_old == old)
            })
            .map(|(c, _, verdict)| (c, verdict))
            .unzip();
        Ok(self.apply_verdicts(records, candidates, verdicts, &stamp))
    }

    /// The text of what a candidate would replace.
    fn candidate_content(&self, candidate: &Candidate, records: &[MemoryRecord]) -> String {
        match &candidate.1 {
            Replaces::Existing(id) => self.memories.get(id).map(|r| r.content.clone()).unwrap_or_default(),
            Replaces::Batch(j) => records[*j].content.clone(),
        }
    }

    /// What each new record might replace, most similar first: live memories in the same
    /// scope about the same subjects at or above the threshold, and earlier records of the
    /// same batch. Each is (new record's position, candidate, similarity).
    fn supersession_candidates(
        &mut self,
        records: &[MemoryRecord],
        vectors: &[Option<Vec<f32>>],
        now: DateTime<Utc>,
    ) -> Result<Vec<Candidate>, Error> {
        let threshold = self.ports.settings().supersession_threshold;
        let nearest = loop {
            let mut nearest = Vec::with_capacity(records.len());
            for (new, vector) in records.iter().zip(vectors) {
                let hits = match vector {
                    Some(v) => self.ports.index_knn(v, 8, &scope_of(new))?,
                    None => Vec::new(),
                };
                nearest.push(hits.into_iter().filter(|h| h.score >= threshold).collect::<Vec<_>>());
            }
            if self.memories.is_partial() {
                let ids: Vec<String> = nearest.iter().flatten().map(|h| h.id.clone()).collect();
                if !self.hold_records(&ids)? {
                    self.load()?;
                    continue;
                }
            }
            break nearest;
        };
        let mut out = Vec::new();
        for ((i, new), hits) in records.iter().enumerate().zip(nearest) {
            let Some(vector) = &vectors[i] else { continue };
            let mut mine: Vec<Candidate> = hits
                .into_iter()
                .filter(|h| {
                    self.memories
                        .get(&h.id)
                        .is_some_and(|old| same_slot(old, new) && lifecycle::is_live(old, now))
                })
                .map(|h| (i, Replaces::Existing(h.id), h.score))
                .collect();
            for j in 0..i {
                if let Some(earlier) = &vectors[j] {
                    let sim = cosine(vector, earlier);
                    if sim >= threshold && same_slot(&records[j], new) {
                        mine.push((i, Replaces::Batch(j), sim));
                    }
                }
            }
            mine.sort_by(|a, b| b.2.total_cmp(&a.2));
            out.extend(mine);
        }
        Ok(out)
    }

    /// Marks what the verdicts say is replaced: batch records in place; existing memories
    /// returned, already updated. A memory is replaced once, by the first new record that
    /// claims it.
    pub(super) fn apply_verdicts(
        &self,
        records: &mut [MemoryRecord],
        candidates: Vec<Candidate>,
        verdicts: Vec<bool>,
        stamp: &str,
    ) -> Vec<MemoryRecord> {
        let mut replaced: Vec<MemoryRecord> = Vec::new();
        let mut taken: HashSet<String> = HashSet::new();
        for ((i, candidate, _), verdict) in candidates.into_iter().zip(verdicts) {
            if !verdict {
                continue;
            }
            let new_id = records[i].id.clone();
            match candidate {
                Replaces::Existing(id) => {
                    if taken.insert(id.clone())
                        && let Some(old) = self.memories.get(&id)
                    {
                        let mut old = old.clone();
                        old.superseded_at = Some(stamp.to_owned());
                        old.superseded_by_id = Some(new_id);
                        replaced.push(old);
                    }
                }
                Replaces::Batch(j) => {
                    if records[j].superseded_at.is_none() {
                        records[j].superseded_at = Some(stamp.to_owned());
                        records[j].superseded_by_id = Some(new_id);
                    }
                }
            }
        }
        replaced
    }

    /// Whether `new` replaces `old`: the language model's clear yes, or, when it cannot
    /// be asked, the conservative rule. An unclear answer keeps both.
    fn verify(&self, old: &str, new: &str, context: &supersession::RuleContext) -> bool {
        match self.ports.complete(&supersession::verification_request(old, new)) {
            Ok(answer) => match supersession::parse_verdict(&answer) {
                Some(verdict) => verdict,
                None => {
                    let shown: String = answer.chars().take(80).collect();
                    self.ports.log(
                        Level::Warn,
                        &format!("the language model's answer {shown:?} is neither yes nor no; keeping both memories"),
                    );
                    false
                }
            },
            Err(e) => {
                self.ports
                    .log(Level::Debug, &format!("{}; the supersession rule decides", e.0));
                supersession::rule_replaces(old, new, context)
            }
        }
    }
}

/// The scope a new memory's candidates come from: only its own, so that a group fact never
/// replaces a personal one.
fn scope_of(new: &MemoryRecord) -> ScopeFilter {
    match &new.chat_id {
        Some(chat) => ScopeFilter {
            kind: EntryKind::Memory,
            user_id: None,
            chat_id: Some(chat.clone()),
        },
        None => ScopeFilter {
            kind: EntryKind::Memory,
            user_id: new.owner_user_id.clone(),
            chat_id: None,
        },
    }
}

/// Whether two records could state the same fact: the same scope and the same set of
/// subjects. A fact about Sarah never replaces a fact about the user, and a reflection (a
/// summary written by the model) neither replaces nor is replaced by what the user said.
pub(super) fn same_slot(a: &MemoryRecord, b: &MemoryRecord) -> bool {
    let reflection = |r: &MemoryRecord| r.memory_type == crate::memory_type::MemoryType::Reflection;
    if reflection(a) != reflection(b) {
        return false;
    }
    let subjects = |r: &MemoryRecord| {
        let mut s = r.subject_person_ids.clone();
        s.sort();
        s.dedup();
        s
    };
    a.owner_user_id == b.owner_user_id && a.chat_id == b.chat_id && subjects(a) == subjects(b)
}
