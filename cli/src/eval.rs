//! Retrieval evaluation: memories and questions from a JSONL file, stored in a home through
//! the component's `import-records` (ids kept, embedded by the home's embedder) and asked
//! through `search`, scored by hit@k, recall@k and MRR, overall and per category.
//!
//! The format, one JSON object a line:
//!
//! ```text
//! {"kind": "memory", "id": "m1", "text": "I work as a nurse", "group": "c0"}
//! {"kind": "question", "question": "What is my job?", "answers": ["m1"], "category": "job", "group": "c0"}
//! ```
//!
//! `group` (optional) keeps sets apart: each group is stored for a user of its own and its
//! questions search only it (a LoCoMo conversation is a group). `category` is optional. A
//! memory may also carry `context`, stored as the memory's context: what was said around
//! it, such as a conversation's date and the turn before it.

use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use serde_json::json;

use ash_memory::{Caller, EXPORT_FORMAT, Error, MemoryStore, SearchQuery};

/// The cut-offs scored.
pub const KS: [usize; 3] = [1, 5, 10];

/// One line of an evaluation file.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum Line {
    Memory {
        id: String,
        text: String,
        #[serde(default)]
        group: Option<String>,
        #[serde(default)]
        context: Option<String>,
    },
    Question {
        question: String,
        answers: Vec<String>,
        #[serde(default)]
        category: Option<String>,
        #[serde(default)]
        group: Option<String>,
    },
}

/// A question and the ids of the memories that answer it.
#[derive(Debug, Clone)]
struct Question {
    group: String,
    text: String,
    answers: Vec<String>,
    category: Option<String>,
}

/// A memory of an evaluation file.
#[derive(Debug)]
struct EvalMemory {
    group: String,
    id: String,
    text: String,
    context: Option<String>,
}

/// Memories and questions read from an evaluation file.
#[derive(Debug, Default)]
pub struct EvalSet {
    /// In file order.
    memories: Vec<EvalMemory>,
    questions: Vec<Question>,
}

/// Scores over a set of questions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scores {
    /// Questions scored.
    pub questions: usize,
    /// Share of questions with an answer in the top k, for each of [`KS`].
    pub hit: [f64; 3],
    /// Mean share of a question's answers in the top k, for each of [`KS`].
    pub recall: [f64; 3],
    /// Mean reciprocal rank of the first answer within the top 10 (0 when none is).
    pub mrr: f64,
    /// Mean number of results a search showed (at most 10): what the relevance floor
    /// leaves of the noise.
    pub shown: f64,
}

/// What an evaluation measured.
#[derive(Debug, Clone, Default)]
pub struct EvalReport {
    /// Memories stored.
    pub memories: usize,
    /// Memories the component refused (a secret, empty text).
    pub refused: usize,
    /// Over all questions.
    pub overall: Scores,
    /// Per category, by name.
    pub categories: BTreeMap<String, Scores>,
    /// Each question and what its search ranked, in file order: what a figure is made of.
    pub per_question: Vec<Ranked>,
}

/// One question, its answers and what its search ranked, ids as the file gives them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ranked {
    /// The question's group (empty when it has none).
    pub group: String,
    /// The question as asked.
    pub question: String,
    /// Its category, if the file gives one.
    pub category: Option<String>,
    /// The ids of the memories that answer it.
    pub answers: Vec<String>,
    /// The ids of the memories search ranked in its top 10, best first.
    pub ranked: Vec<String>,
}

impl EvalSet {
    /// Reads an evaluation file's text; blank lines are skipped.
    ///
    /// Errors: [`Error::InvalidInput`] naming the line that is not one of the two shapes,
    /// a question with no answers, or a memory stored under the id of an earlier one (the
    /// same id in one group, or an ungrouped "c1/x" beside group c1's "x").
    pub fn parse(text: &str) -> Result<EvalSet, Error> {
        let mut set = EvalSet::default();
        let mut stored: HashMap<String, usize> = HashMap::new();
        for (n, line) in (1..).zip(text.lines()) {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: String| Error::InvalidInput(format!("line {n}: {why}"));
            match serde_json::from_str::<Line>(line).map_err(|e| bad(e.to_string()))? {
                Line::Memory {
                    id,
                    text,
                    group,
                    context,
                } => {
                    let group = group.unwrap_or_default();
                    let as_stored = stored_id(&group, &id);
                    if let Some(first) = stored.insert(as_stored.clone(), n) {
                        return Err(bad(format!(
                            "memory {id:?} is stored as {as_stored:?}, as line {first}'s is"
                        )));
                    }
                    set.memories.push(EvalMemory {
                        group,
                        id,
                        text,
                        context,
                    });
                }
                Line::Question {
                    question,
                    answers,
                    category,
                    group,
                } => {
                    if answers.is_empty() {
                        return Err(bad("a question needs the ids that answer it".into()));
                    }
                    set.questions.push(Question {
                        group: group.unwrap_or_default(),
                        text: question,
                        answers,
                        category,
                    });
                }
            }
        }
        Ok(set)
    }
}

/// The id a memory is stored under: ids need only be unique within a group.
fn stored_id(group: &str, id: &str) -> String {
    if group.is_empty() {
        id.to_owned()
    } else {
        format!("{group}/{id}")
    }
}

/// The user a group's memories are stored for.
fn user_of(group: &str) -> String {
    format!("eval:{group}")
}

/// Where an evaluation stores memories and asks questions: the component or the policy
/// linked natively.
pub trait Evaluated {
    /// Stores an export's lines for `user`; answers how many were stored and refused.
    fn import(&mut self, user: &str, lines: &[String]) -> Result<(usize, usize), Error>;
    /// The ids `search` ranks in its top 10 for `user`, best first.
    fn search(&mut self, user: &str, question: &str) -> Result<Vec<String>, Error>;
}

impl Evaluated for MemoryStore {
    fn import(&mut self, user: &str, lines: &[String]) -> Result<(usize, usize), Error> {
        let done = self.import_records(&Caller::user(user), lines, false)?;
        Ok((done.memories as usize, done.refused.len()))
    }

    fn search(&mut self, user: &str, question: &str) -> Result<Vec<String>, Error> {
        let query = SearchQuery::new(question.to_owned()).limit(10);
        let found = MemoryStore::search(self, &Caller::user(user), &query)?;
        Ok(found.hits.into_iter().map(|h| h.memory.id).collect())
    }
}

#[cfg(feature = "native-policy")]
impl Evaluated for ash_memory::native::NativeStore {
    fn import(&mut self, user: &str, lines: &[String]) -> Result<(usize, usize), Error> {
        let caller = ash_memory::native::policy::Caller::new(Some(user), None);
        let done = self.call(|p| p.import_records(&caller, lines, false))?;
        Ok((done.memories as usize, done.refused.len()))
    }

    fn search(&mut self, user: &str, question: &str) -> Result<Vec<String>, Error> {
        let caller = ash_memory::native::policy::Caller::new(Some(user), None);
        let query = ash_memory::native::policy::SearchQuery {
            text: question.to_owned(),
            limit: Some(10),
            about: None,
        };
        let found = self.call(|p| p.search(&caller, &query))?;
        Ok(found.hits.into_iter().map(|h| h.memory.id).collect())
    }
}

impl EvalSet {
    /// Stores the memories in `store`, each group for a user of its own, and scores the
    /// questions by what its search ranks in the top 10.
    pub fn score(&self, store: &mut impl Evaluated) -> Result<EvalReport, Error> {
        let mut report = EvalReport::default();
        let mut groups: BTreeMap<&str, Vec<&EvalMemory>> = BTreeMap::new();
        for m in &self.memories {
            groups.entry(&m.group).or_default().push(m);
        }
        let now = chrono::Utc::now().to_rfc3339();
        for (group, items) in groups {
            let user = user_of(group);
            // The export format with no vectors: the home's embedder makes them.
            let header = json!({
                "format": EXPORT_FORMAT, "version": 1, "embedding_model": "none", "dimension": 0,
                "exported_at": now, "user_id": user, "chat_id": null, "include_archive": false,
            });
            let lines: Vec<String> = std::iter::once(header.to_string())
                .chain(items.iter().map(|m| {
                    json!({"kind": "memory", "id": stored_id(group, &m.id), "version": 1, "content": m.text,
                           "context": m.context, "embedding": null,
                           "created_at": now, "owner_user_id": user})
                    .to_string()
                }))
                .collect();
            let (stored, refused) = store.import(&user, &lines)?;
            report.memories += stored;
            report.refused += refused;
        }
        let mut all: Vec<(Option<String>, Figures)> = Vec::new();
        for q in &self.questions {
            let ranked = store.search(&user_of(&q.group), &q.text)?;
            let answers: Vec<String> = q.answers.iter().map(|a| stored_id(&q.group, a)).collect();
            let first = ranked.iter().position(|id| answers.contains(id));
            let mut hit = [0.0; 3];
            let mut recall = [0.0; 3];
            for (i, k) in KS.iter().enumerate() {
                let top = &ranked[..ranked.len().min(*k)];
                let found = answers.iter().filter(|a| top.contains(a)).count();
                hit[i] = f64::from(u8::from(found > 0));
                recall[i] = found as f64 / q.answers.len() as f64;
            }
            let rr = first.map_or(0.0, |r| 1.0 / (r + 1) as f64);
            all.push((q.category.clone(), (hit, recall, rr, ranked.len().min(10) as f64)));
            let prefix = stored_id(&q.group, "");
            report.per_question.push(Ranked {
                group: q.group.clone(),
                question: q.text.clone(),
                category: q.category.clone(),
                answers: q.answers.clone(),
                ranked: ranked
                    .iter()
                    .map(|id| id.strip_prefix(&prefix).unwrap_or(id).to_owned())
                    .collect(),
            });
        }
        report.overall = mean(all.iter().map(|(_, f)| *f));
        let mut by: HashMap<String, Vec<Figures>> = HashMap::new();
        for (c, f) in &all {
            if let Some(c) = c {
                by.entry(c.clone()).or_default().push(*f);
            }
        }
        report.categories = by.into_iter().map(|(c, v)| (c, mean(v.into_iter()))).collect();
        Ok(report)
    }
}

/// One question's figures: hit and recall at each of [`KS`], its reciprocal rank, and how
/// many results its search showed.
type Figures = ([f64; 3], [f64; 3], f64, f64);

fn mean(items: impl Iterator<Item = Figures>) -> Scores {
    let mut s = Scores::default();
    for (h, r, m, shown) in items {
        s.questions += 1;
        s.shown += shown;
        for i in 0..3 {
            s.hit[i] += h[i];
            s.recall[i] += r[i];
        }
        s.mrr += m;
    }
    if s.questions > 0 {
        let n = s.questions as f64;
        s.hit.iter_mut().chain(s.recall.iter_mut()).for_each(|x| *x /= n);
        s.mrr /= n;
        s.shown /= n;
    }
    s
}
