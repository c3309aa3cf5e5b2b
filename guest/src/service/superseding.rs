//! Supersession during an add: which live memories (and earlier records of the same
//! batch) a new memory might restate or replace, the judgment of each pair (the rules,
//! then the language model for what they cannot settle), and a re-check after a fresh
//! read so that verdicts reached without the home's lock only apply to what still holds
//! the text that was judged.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::{Error, NewMemory};
use crate::judgment::{self, Verdict};
use crate::lifecycle;
use crate::people::PersonRecord;
use crate::ports::{EntryKind, IndexHit, Level, Ports, ScopeFilter};
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
/// Candidates found by their words, not their meaning, have a cosine of 0.
pub(super) type Candidate = (usize, Replaces, f32);

/// How many neighbours by meaning, and by words, a new memory is judged against.
const NEIGHBOURS: u32 = 8;

/// A new record's candidates that the rules call different, but that it may end as news
/// ([`judgment::judge_asking`]), go to the language model, most similar first, only while
/// fewer than this many of the record's questions have been asked: at most this many such
/// questions an add.
const NEWS_ASKS: u32 = 2;

/// Below this similarity a neighbour by meaning is not judged at all. At or above it the
/// rules judge; at or above `supersession-threshold`, what they cannot settle goes to the
/// language model. Changes told in other words ("I started a new job at Microsoft" after
/// "I work at Google") are often this far apart.
const JUDGED_FLOOR: f32 = 0.3;

/// What the judgment of an add decided.
#[derive(Debug, Default)]
pub(super) struct Decided {
    /// Existing memories the new ones replace, already marked.
    pub(super) replaced: Vec<MemoryRecord>,
    /// New records that restate what is kept: (position, the kept memory's id). Nothing
    /// is stored for them.
    pub(super) restated: Vec<(usize, String)>,
    /// Existing memories told again, as they are to be written: observed again, with the
    /// restatement's subjects added.
    pub(super) observed: Vec<MemoryRecord>,
}

impl<P: Ports> MemoryService<P> {
    /// Decides what the new records replace. Batch records are marked in place; the
    /// existing memories they replace are returned, already marked. `people_writes` is
    /// resolved again when the collections are read again, and the records (built from
    /// `told`) are stamped again, and `now` moved, when the clock is read again.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn supersede(
        &mut self,
        caller: &Caller,
        records: &mut [MemoryRecord],
        told: &[NewMemory],
        subjects: &[Vec<String>],
        vectors: &[Option<Vec<f32>>],
        people_writes: &mut HashMap<String, PersonRecord>,
        now: &mut DateTime<Utc>,
    ) -> Result<Decided, Error> {
        let threshold = self.ports.settings().supersession_threshold;
        let candidates = self.supersession_candidates(records, vectors, *now)?;
        // Where the collections stood before a language model may have let the lock go.
        let read_at = (self.memories.state(), self.people.state());
        // Each new record is read once, in its context, for all its candidates.
        let mut read: HashMap<usize, (supersession::RuleContext, judgment::NewFact<'_>)> = HashMap::new();
        let mut judged: Vec<(Candidate, String, Verdict)> = Vec::with_capacity(candidates.len());
        let mut asked = false;
        let mut questions: HashMap<usize, u32> = HashMap::new();
        for c in candidates {
            let old = self.candidate_content(&c, records);
            let (context, new) = read.entry(c.0).or_insert_with(|| {
                let context = self.rule_context(&records[c.0], people_writes);
                let new = judgment::NewFact::read(&records[c.0].content, &context);
                (context, new)
            });
            let holder = match &c.1 {
                Replaces::Existing(id) => self.memories.get(id).is_some_and(|o| new_holder(o, &records[c.0])),
                Replaces::Batch(_) => false,
            };
            let news_left = questions.get(&c.0).copied().unwrap_or(0) < NEWS_ASKS;
            let ask = Ask {
                unsure: c.2 >= threshold,
                news: news_left,
            };
            let (verdict, by_model) = if holder {
                (Verdict::Change, false)
            } else {
                self.judge(&old, new, context, ask)
            };
            if by_model {
                *questions.entry(c.0).or_insert(0) += 1;
            }
            asked |= by_model;
            judged.push((c, old, verdict));
        }
        drop(read);
        let weighed = judged.len();
        let judged: Vec<(Candidate, String, Verdict)> = judged
            .into_iter()
            .filter(|(_, _, v)| matches!(v, Verdict::Same | Verdict::Refinement | Verdict::Change))
            .collect();
        if weighed > 0 {
            self.ports.log(
                Level::Debug,
                &format!(
                    "judgment: weighed {weighed} candidate(s); {} restated or replaced",
                    judged.len()
                ),
            );
        }
        if judged.is_empty() && !asked {
            return Ok(Decided::default());
        }
        // The language model may have been asked without the lock: read again, stamp and
        // resolve the people again, and keep only verdicts on candidates that are still
        // live and still say what was judged (anything new is kept, unjudged: doubt keeps
        // both). Read as the add first read: from the index when it still stands for the
        // file.
        if self.memories.is_partial() {
            self.load_as_needed()?;
        } else {
            self.load()?;
        }
        // Stamped again when another process wrote meanwhile: nothing of theirs may be
        // newer than these records.
        let moved = (self.memories.state(), self.people.state()) != read_at;
        if moved {
            *now = self.stamp_again(told, records, *now)?;
        }
        let stamp = format_time(*now);
        if judged.is_empty() {
            if moved {
                *people_writes = self.link_people(caller, records, subjects, &stamp)?;
            }
            return Ok(Decided::default());
        }
        *people_writes = self.link_people(caller, records, subjects, &stamp)?;
        let still: Vec<(Candidate, String)> = self
            .supersession_candidates(records, vectors, *now)?
            .into_iter()
            .map(|c| {
                let old = self.candidate_content(&c, records);
                (c, old)
            })
            .collect();
        let (candidates, verdicts): (Vec<Candidate>, Vec<Verdict>) = judged
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

    /// What each new record might restate or replace, most similar first: live memories in
    /// its scope, about its subjects or fewer, near it in meaning (cosine `JUDGED_FLOOR` and
    /// up) or sharing the words of the attribute it states, and earlier records of the same
    /// batch. Each is (new record's position, candidate, similarity; 0 for a neighbour by
    /// words alone).
    fn supersession_candidates(
        &mut self,
        records: &[MemoryRecord],
        vectors: &[Option<Vec<f32>>],
        now: DateTime<Utc>,
    ) -> Result<Vec<Candidate>, Error> {
        let floor = self.ports.settings().supersession_threshold.min(JUDGED_FLOOR);
        let nearest = loop {
            let mut nearest = Vec::with_capacity(records.len());
            for (new, vector) in records.iter().zip(vectors) {
                let mut hits: Vec<IndexHit> = match vector {
                    Some(v) => self.ports.index_knn(v, NEIGHBOURS, &scope_of(new))?,
                    None => Vec::new(),
                };
                hits.retain(|h| h.score >= floor);
                // Neighbours by the attribute's words: a change often means little alike. A
                // relation's new holder ("My wife is called Anna") looks for the old one by
                // the relation.
                let mut terms = judgment::candidate_terms(&new.content);
                if let Some(holder) = crate::people::holder::holder(&new.content) {
                    for word in crate::people::holder_words(&holder.relation) {
                        if !terms.iter().any(|t| t == word) {
                            terms.push((*word).to_owned());
                        }
                    }
                }
                if !terms.is_empty() {
                    for hit in self.ports.index_text_search(&terms, NEIGHBOURS, &scope_of(new))? {
                        if !hits.iter().any(|h| h.id == hit.id) {
                            hits.push(IndexHit { score: 0.0, ..hit });
                        }
                    }
                }
                nearest.push(hits);
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
        // Within a batch, the same words told twice are a candidate whatever their vectors.
        let keys: Vec<String> = records.iter().map(|r| judgment::restatement_key(&r.content)).collect();
        let mut out = Vec::new();
        for ((i, new), hits) in records.iter().enumerate().zip(nearest) {
            let mut mine: Vec<Candidate> = hits
                .into_iter()
                .filter(|h| {
                    self.memories.get(&h.id).is_some_and(|old| {
                        (within_slot(old, new) || new_holder(old, new)) && lifecycle::is_live(old, now)
                    })
                })
                .map(|h| (i, Replaces::Existing(h.id), h.score))
                .collect();
            for j in 0..i {
                let sim = match (&vectors[i], &vectors[j]) {
                    (Some(a), Some(b)) => cosine(a, b),
                    _ => 0.0,
                };
                let repeated = !keys[i].is_empty() && keys[i] == keys[j];
                if within_slot(&records[j], new) && (sim >= floor || repeated) {
                    mine.push((i, Replaces::Batch(j), sim));
                }
            }
            mine.sort_by(|a, b| b.2.total_cmp(&a.2));
            out.extend(mine);
        }
        Ok(out)
    }

    /// Carries out the verdicts: batch records are marked or dropped in place; existing
    /// memories come back marked (replaced) or observed again (restated). A memory is
    /// replaced once, by the first new record that claims it, and a new record that
    /// restates something is stored for nothing else.
    pub(super) fn apply_verdicts(
        &self,
        records: &mut [MemoryRecord],
        candidates: Vec<Candidate>,
        verdicts: Vec<Verdict>,
        stamp: &str,
    ) -> Decided {
        let mut decided = Decided::default();
        let mut taken: HashSet<String> = HashSet::new();
        let mut restating: HashSet<usize> = HashSet::new();
        // Restatements first: a fact told again replaces nothing.
        for ((i, candidate, _), verdict) in candidates.iter().zip(&verdicts) {
            if *verdict != Verdict::Same || restating.contains(i) {
                continue;
            }
            // The same words said in another context ("Yes!" to two questions) are two facts.
            let context = &records[*i].context;
            match candidate {
                Replaces::Existing(id) => {
                    let Some(old) = self.memories.get(id).filter(|old| &old.context == context) else {
                        continue;
                    };
                    let mut kept = decided
                        .observed
                        .iter()
                        .position(|r| &r.id == id)
                        .map(|p| decided.observed.remove(p))
                        .unwrap_or_else(|| old.clone());
                    observe_again(&mut kept, &records[*i]);
                    decided.observed.push(kept);
                    decided.restated.push((*i, id.clone()));
                }
                Replaces::Batch(j) => {
                    if restating.contains(j) || &records[*j].context != context {
                        continue;
                    }
                    decided.restated.push((*i, records[*j].id.clone()));
                }
            }
            restating.insert(*i);
        }
        for ((i, candidate, _), verdict) in candidates.into_iter().zip(verdicts) {
            if !verdict.replaces() || restating.contains(&i) {
                continue;
            }
            let new_id = records[i].id.clone();
            match candidate {
                Replaces::Existing(id) => {
                    if decided.observed.iter().any(|r| r.id == id) {
                        continue;
                    }
                    let old = self.memories.get(&id).unwrap_or(&records[i]);
                    if (!same_slot(old, &records[i]) && !new_holder(old, &records[i])) || passes_over(old, &records[i])
                    {
                        continue;
                    }
                    if taken.insert(id.clone())
                        && let Some(old) = self.memories.get(&id)
                    {
                        let mut old = old.clone();
                        old.superseded_at = Some(stamp.to_owned());
                        old.superseded_by_id = Some(new_id);
                        keep_lifetime(&mut records[i], &old);
                        decided.replaced.push(old);
                    }
                }
                Replaces::Batch(j) => {
                    if restating.contains(&j)
                        || !same_slot(&records[j], &records[i])
                        || passes_over(&records[j], &records[i])
                    {
                        continue;
                    }
                    if records[j].superseded_at.is_none() {
                        records[j].superseded_at = Some(stamp.to_owned());
                        records[j].superseded_by_id = Some(new_id);
                        let old = records[j].clone();
                        keep_lifetime(&mut records[i], &old);
                    }
                }
            }
        }
        decided
    }

    /// What `new` is to `old`: the rules' verdict, or, for what they cannot settle among
    /// neighbours close enough to ask about, the language model's. An unclear answer, or
    /// none, keeps both. Also whether the model was asked (perhaps without the lock).
    fn judge(
        &self,
        old: &str,
        new: &judgment::NewFact<'_>,
        context: &supersession::RuleContext,
        ask: Ask,
    ) -> (Verdict, bool) {
        // "walked across the stage, diploma in hand!!" after "I'm a sophomore": no word
        // shared, news of a change all the same.
        let (verdict, news) = judgment::judge_asking(old, new, context, ask.news);
        let worth_asking = match verdict {
            Verdict::Unsure => ask.unsure,
            Verdict::Different => news,
            _ => false,
        };
        if !worth_asking {
            return (verdict, false);
        }
        let new = new.text();
        let verdict = match self.ports.complete(&judgment::judgment_request(old, new)) {
            Ok(answer) => judgment::parse_judgment(&answer).unwrap_or_else(|| {
                let shown: String = answer.chars().take(80).collect();
                self.ports.log(
                    Level::Warn,
                    &format!("the language model's answer {shown:?} is not one of same, refinement, change or different; keeping both memories"),
                );
                Verdict::Different
            }),
            Err(e) => {
                self.ports.log(Level::Debug, &format!("{}; both memories are kept", e.0));
                Verdict::Unsure
            }
        };
        (verdict, true)
    }
}

/// Which verdicts of the rules a pair's judgment may take to the language model.
#[derive(Debug, Clone, Copy)]
struct Ask {
    /// "Unsure": the pair is as similar as `supersession-threshold`.
    unsure: bool,
    /// "Different" for a new fact that may end the old as news: the record's budget of
    /// such questions is not spent.
    news: bool,
}

/// A memory told again counts as observed again, and is about whoever the new telling
/// names too.
fn observe_again(kept: &mut MemoryRecord, told: &MemoryRecord) {
    let at = told.observed_at.clone().unwrap_or_else(|| told.created_at.clone());
    let later = kept
        .observed_at
        .as_deref()
        .or(Some(kept.created_at.as_str()))
        .is_none_or(|was| crate::record::parse_time(was).ok() < crate::record::parse_time(&at).ok());
    if later {
        kept.observed_at = Some(at);
    }
    for id in &told.subject_person_ids {
        if !kept.subject_person_ids.contains(id) {
            kept.subject_person_ids.push(id.clone());
        }
    }
}

/// Whether `new` ends at a moment of its own and `old` lasts: "skipped my 3pm coffee
/// today" after "I have a coffee at 3pm". Such a fact is a departure from the old one, not
/// its end; replacing would leave nothing once the moment had passed.
fn passes_over(old: &MemoryRecord, new: &MemoryRecord) -> bool {
    new.expires_at.is_some() && old.expires_at.is_none() && !old.memory_type.is_ephemeral()
}

/// A fact that replaces a long-lived one keeps at least its lifetime: "I moved to Porto
/// last month" answers where the user lives as "I live in Lisbon" did, however passing
/// its words sound. A fact given its own expiry replaces no such fact ([`passes_over`]).
fn keep_lifetime(new: &mut MemoryRecord, old: &MemoryRecord) {
    if new.memory_type.is_ephemeral() && !old.memory_type.is_ephemeral() && new.expires_at.is_none() {
        new.memory_type = old.memory_type;
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

/// Whether a new record may be judged against an older one: the same scope, and the
/// older one's subjects among the new one's (a restatement may name someone more).
/// Replacing takes [`same_slot`].
fn within_slot(old: &MemoryRecord, new: &MemoryRecord) -> bool {
    let reflection = |r: &MemoryRecord| r.memory_type == crate::memory_type::MemoryType::Reflection;
    reflection(old) == reflection(new)
        && old.owner_user_id == new.owner_user_id
        && old.chat_id == new.chat_id
        && old
            .subject_person_ids
            .iter()
            .all(|s| new.subject_person_ids.contains(s))
}

/// Whether `new` names a new holder of a relation one person holds, which `old` named
/// another: "My wife is called Anna" after "My wife is called Priya", "my new boss is
/// Dev" after "My manager is Karen". Their subjects may differ (two people) and their
/// words share nothing the rules of words weigh; the relation has one holder.
fn new_holder(old: &MemoryRecord, new: &MemoryRecord) -> bool {
    let reflection = |r: &MemoryRecord| r.memory_type == crate::memory_type::MemoryType::Reflection;
    if reflection(old) || reflection(new) || old.owner_user_id != new.owner_user_id || old.chat_id != new.chat_id {
        return false;
    }
    use crate::people::holder::{holder, replaces};
    match (holder(&old.content), holder(&new.content)) {
        (Some(was), Some(now)) => replaces(&was, &now),
        _ => false,
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
