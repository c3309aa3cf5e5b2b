//! The calls `bench` times, over either policy: the component ([`MemoryStore`]) or the
//! same crate linked natively ([`NativeStore`]), so that one workload runs through both
//! and their ratio is what the sandbox costs. Everything is asked as the user `bench`.

use anyhow::{Result, ensure};

#[cfg(feature = "native-policy")]
use ash_memory::native::{NativeStore, policy};
use ash_memory::{Caller, MemoryStore, MemoryType, NewMemory, NewPerson, SearchQuery};

/// The user every bench call is made as.
pub(super) const BENCH_USER: &str = "bench";

/// One fact of the fill.
pub(super) struct FillFact {
    pub content: String,
    pub subject: Option<String>,
    /// An observation seen at this time (RFC 3339), or a plain fact.
    pub observed_at: Option<String>,
}

/// How big a context block came back.
pub(super) struct ContextSize {
    pub people: usize,
    pub memories: usize,
    pub tokens: u32,
}

/// What the bench asks of a policy.
pub(super) trait BenchPolicy {
    fn add_person(&mut self, name: &str, relation: &str) -> Result<()>;
    /// Imports the facts as `ash-memory import` does (`IMPORT_CHUNK` per call); returns
    /// how many were stored or found present.
    fn import(&mut self, facts: &[FillFact]) -> Result<usize>;
    /// Adds one memory: its id, and the ids of the older memories it superseded.
    fn add(&mut self, content: &str) -> Result<(String, Vec<String>)>;
    /// Searches; returns the number of hits.
    fn search(&mut self, query: &str, limit: u32) -> Result<usize>;
    fn context(&mut self, message: &str) -> Result<ContextSize>;
    fn delete(&mut self, id: &str) -> Result<()>;
    /// Rebuilds the index; returns how many memories were embedded.
    fn rebuild_index(&mut self) -> Result<u64>;
    /// Runs GC; returns how many memories it archived (or would).
    fn gc(&mut self, dry_run: bool) -> Result<usize>;
}

fn me() -> Caller {
    Caller::user(BENCH_USER)
}

impl BenchPolicy for MemoryStore {
    fn add_person(&mut self, name: &str, relation: &str) -> Result<()> {
        self.people_add(&me(), &NewPerson::named(name).relation(relation))?;
        Ok(())
    }
    fn import(&mut self, facts: &[FillFact]) -> Result<usize> {
        let items: Vec<NewMemory> = facts
            .iter()
            .map(|f| {
                let mut item = NewMemory::text(f.content.clone());
                item.subjects = f.subject.iter().cloned().collect();
                if f.observed_at.is_some() {
                    item.memory_type = Some(MemoryType::Observation);
                    item.observed_at = f.observed_at.clone();
                }
                item
            })
            .collect();
        let report = MemoryStore::import(self, &me(), &items, |_| {})?;
        ensure!(report.refused.is_empty(), "the fill was refused: {:?}", report.refused);
        Ok(report.added + report.present)
    }
    fn add(&mut self, content: &str) -> Result<(String, Vec<String>)> {
        let report = MemoryStore::add(self, &me(), &NewMemory::text(content))?;
        let superseded = report.superseded.iter().map(|(m, _)| m.id.clone()).collect();
        Ok((report.memories[0].id.clone(), superseded))
    }
    fn search(&mut self, query: &str, limit: u32) -> Result<usize> {
        Ok(MemoryStore::search(self, &me(), &SearchQuery::new(query).limit(limit))?
            .hits
            .len())
    }
    fn context(&mut self, message: &str) -> Result<ContextSize> {
        let block = MemoryStore::context(self, &me(), message, None)?;
        Ok(ContextSize {
            people: block.people.len(),
            memories: block.memories.len(),
            tokens: block.estimated_tokens,
        })
    }
    fn delete(&mut self, id: &str) -> Result<()> {
        MemoryStore::delete(self, &me(), id)?;
        Ok(())
    }
    fn rebuild_index(&mut self) -> Result<u64> {
        Ok(MemoryStore::rebuild_index(self)?.embedded)
    }
    fn gc(&mut self, dry_run: bool) -> Result<usize> {
        Ok(MemoryStore::gc(self, dry_run)?.archived.len())
    }
}

#[cfg(feature = "native-policy")]
fn native_me() -> policy::Caller {
    policy::Caller::new(Some(BENCH_USER), None)
}

#[cfg(feature = "native-policy")]
impl BenchPolicy for NativeStore {
    fn add_person(&mut self, name: &str, relation: &str) -> Result<()> {
        let aliases = Vec::new();
        self.call(|p| p.people_add(&native_me(), name, Some(relation), &aliases))?;
        Ok(())
    }
    fn import(&mut self, facts: &[FillFact]) -> Result<usize> {
        let mut stored = 0;
        for chunk in facts.chunks(ash_memory::IMPORT_CHUNK) {
            let items: Vec<policy::NewMemory> = chunk
                .iter()
                .map(|f| policy::NewMemory {
                    subjects: f.subject.iter().cloned().collect(),
                    memory_type: f.observed_at.as_ref().map(|_| policy::MemoryType::Observation),
                    observed_at: f.observed_at.clone(),
                    ..policy::NewMemory::text(&f.content)
                })
                .collect();
            let report = self.call(|p| p.import(&native_me(), items, false))?;
            ensure!(report.refused.is_empty(), "the fill was refused: {:?}", report.refused);
            stored += (report.added + report.present) as usize;
        }
        Ok(stored)
    }
    fn add(&mut self, content: &str) -> Result<(String, Vec<String>)> {
        let report = self.call(|p| p.add(&native_me(), policy::NewMemory::text(content)))?;
        let superseded = report.superseded.iter().map(|(m, _)| m.id.clone()).collect();
        Ok((report.memories[0].id.clone(), superseded))
    }
    fn search(&mut self, query: &str, limit: u32) -> Result<usize> {
        let query = policy::SearchQuery {
            text: query.to_owned(),
            limit: Some(limit),
            about: None,
        };
        Ok(self.call(|p| p.search(&native_me(), &query))?.hits.len())
    }
    fn context(&mut self, message: &str) -> Result<ContextSize> {
        let block = self.call(|p| p.context(&native_me(), message, None, None))?;
        Ok(ContextSize {
            people: block.people.len(),
            memories: block.memories.len(),
            tokens: block.estimated_tokens,
        })
    }
    fn delete(&mut self, id: &str) -> Result<()> {
        self.call(|p| p.delete(&native_me(), id))?;
        Ok(())
    }
    fn rebuild_index(&mut self) -> Result<u64> {
        Ok(self.call(|p| p.rebuild_index())?.embedded)
    }
    fn gc(&mut self, dry_run: bool) -> Result<usize> {
        Ok(self.call(|p| p.gc(dry_run))?.archived.len())
    }
}
