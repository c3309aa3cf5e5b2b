//! `doctor`: checks the collections against the index and against each other, and with
//! `fix` mends what is safe to mend. It reports the state as found, before the repairs
//! that an ordinary call makes on its own. A purge cut short is finished first, as by any
//! call: it is what the owner asked for, not a repair.

use std::collections::HashSet;

use super::MemoryService;
use super::index_sync::fits;
use crate::api::{Error, Finding};
use crate::collection;
use crate::ports::{Collection, EntryKind, IndexError, Ports};

impl<P: Ports> MemoryService<P> {
    /// See `doctor` in `wit/maintenance.wit`.
    pub fn doctor(&mut self, fix: bool) -> Result<Vec<Finding>, Error> {
        let quarantined = self.memories.refresh(&self.ports)?;
        self.refresh_people()?;
        let mut findings = vec![self.check_records(quarantined)];
        findings.push(self.check_index(fix)?);
        findings.push(self.check_embeddings(fix)?);
        findings.push(self.check_people(fix)?);
        findings.push(self.check_archive()?);
        Ok(findings)
    }

    /// Every memory taken out by a removal line has its archive copy (delete, GC, eviction
    /// and forget write the copy first; `compact` folds the removal lines away before it
    /// drops old copies), and no archive copy is of a memory still live. Either would
    /// mean a transaction was broken; which side is right cannot be told, so it is
    /// reported, not mended.
    fn check_archive(&mut self) -> Result<Finding, Error> {
        let archive = self.ports.read(Collection::Archive, 0, None)?;
        let archived: HashSet<String> = archive
            .data
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v["id"].as_str().map(str::to_owned))
            .collect();
        let memories = self.ports.read(Collection::Memories, 0, None)?;
        let mut lost: Vec<String> = collection::ids_removed(&memories.data)
            .into_iter()
            .filter(|id| !archived.contains(id) && self.memories.get(id).is_none())
            .collect();
        let mut doubled: Vec<String> = self
            .memories
            .iter()
            .filter(|r| archived.contains(&r.id))
            .map(|r| r.id.clone())
            .collect();
        lost.sort();
        doubled.sort();
        let mut problems = Vec::new();
        if !lost.is_empty() {
            problems.push(format!(
                "{} memory(ies) removed without an archive copy ({})",
                lost.len(),
                lost.join(", ")
            ));
        }
        if !doubled.is_empty() {
            problems.push(format!(
                "{} archive entry(ies) of memories still live ({}): check them with `history ID`",
                doubled.len(),
                doubled.join(", ")
            ));
        }
        Ok(Finding {
            check: "archive".into(),
            ok: problems.is_empty(),
            detail: if problems.is_empty() {
                format!("{} archive entries, each of a memory no longer live", archived.len())
            } else {
                problems.join("; ")
            },
            fixed: false,
        })
    }

    fn check_records(&self, quarantined: u64) -> Finding {
        let newer = self.memories.newer_count() + self.people.newer_count();
        let mut detail = format!("{} memories and {} people read", self.memories.len(), self.people.len());
        if quarantined > 0 {
            detail.push_str(&format!(
                "; {quarantined} unreadable line(s) were set aside in the quarantine file"
            ));
        }
        if newer > 0 {
            detail.push_str(&format!("; {newer} record(s) of a newer format are kept untouched"));
        }
        Finding {
            check: "records".into(),
            ok: quarantined == 0,
            detail,
            fixed: quarantined > 0,
        }
    }

    fn check_index(&mut self, fix: bool) -> Result<Finding, Error> {
        let want = self.wanted_index();
        let state = self.memories.state();
        let indexable = self.memories.iter().filter(|r| r.superseded_at.is_none()).count() as u64;
        let problem = match self.ports.index_info() {
            Err(IndexError::Unavailable(e)) => Some(format!("the index is unusable ({e})")),
            Err(e) => return Err(e.into()),
            Ok(None) => Some("the index is missing".to_owned()),
            Ok(Some(have)) if have != want => Some(format!(
                "the index was built by {} ({} dimensions), the embedder is {} ({} dimensions)",
                have.model, have.dimension, want.model, want.dimension
            )),
            Ok(Some(_)) => {
                let reflects = self.ports.index_reflects(EntryKind::Memory)?;
                let count = self.ports.index_count(EntryKind::Memory)?;
                if reflects != Some(state) {
                    Some(match reflects {
                        Some(r) if r.generation == state.generation && r.end < state.end => {
                            format!("the index is {} bytes behind memories.jsonl", state.end - r.end)
                        }
                        Some(_) => "the index reflects another version of memories.jsonl".to_owned(),
                        None => "the index reflects no known state of memories.jsonl".to_owned(),
                    })
                } else if count != indexable {
                    Some(format!("the index holds {count} entries for {indexable} memories"))
                } else {
                    None
                }
            }
        };
        let Some(problem) = problem else {
            return Ok(Finding {
                check: "index".into(),
                ok: true,
                detail: format!("{indexable} memories indexed, in step with memories.jsonl"),
                fixed: false,
            });
        };
        let fixed = fix && {
            self.rebuild()?;
            self.index_checked = true;
            true
        };
        Ok(Finding {
            check: "index".into(),
            ok: false,
            detail: if fixed {
                format!("{problem}; rebuilt from memories.jsonl")
            } else {
                format!("{problem}; a fix rebuilds it")
            },
            fixed,
        })
    }

    fn check_embeddings(&mut self, fix: bool) -> Result<Finding, Error> {
        let want = self.wanted_index();
        let pending = |s: &Self| {
            s.memories
                .iter()
                .filter(|r| r.superseded_at.is_none() && !fits(r, &want))
                .count()
        };
        let before = pending(self);
        if before == 0 {
            return Ok(Finding {
                check: "embeddings".into(),
                ok: true,
                detail: "every live memory has a usable embedding".into(),
                fixed: false,
            });
        }
        let mut fixed = false;
        let mut detail = format!("{before} live memories have no usable embedding (found by words only)");
        if fix {
            self.load()?;
            let report = self.rebuild()?;
            let after = pending(self);
            fixed = after < before;
            detail.push_str(&format!(
                "; embedded {} of them, {after} still waiting (no text the embedder can place, or the embedder is down)",
                report.embedded
            ));
        }
        Ok(Finding {
            check: "embeddings".into(),
            // A report, not a fault: memories the embedder cannot place at all (only
            // emoji, say) are found by their words, as designed.
            ok: true,
            detail,
            fixed,
        })
    }

    fn check_people(&mut self, fix: bool) -> Result<Finding, Error> {
        let known: HashSet<String> = self.people.iter().map(|p| p.id.clone()).collect();
        let dangling_memories: Vec<_> = self
            .memories
            .iter()
            .filter(|m| m.subject_person_ids.iter().any(|s| !known.contains(s)))
            .cloned()
            .collect();
        let dangling_people: Vec<_> = self
            .people
            .iter()
            .filter(|p| p.relationships.iter().any(|r| !known.contains(&r.person_id)))
            .cloned()
            .collect();
        if dangling_memories.is_empty() && dangling_people.is_empty() {
            return Ok(Finding {
                check: "people".into(),
                ok: true,
                detail: format!(
                    "every subject and relationship names a known person ({} people)",
                    known.len()
                ),
                fixed: false,
            });
        }
        let detail = format!(
            "{} memories and {} people refer to people who are not on file",
            dangling_memories.len(),
            dangling_people.len()
        );
        if !fix {
            return Ok(Finding {
                check: "people".into(),
                ok: false,
                detail: format!("{detail}; a fix drops those references"),
                fixed: false,
            });
        }
        let memories = dangling_memories
            .into_iter()
            .map(|mut m| {
                m.subject_person_ids.retain(|s| known.contains(s));
                m
            })
            .collect();
        let people = dangling_people
            .into_iter()
            .map(|mut p| {
                p.relationships.retain(|r| known.contains(&r.person_id));
                p
            })
            .collect();
        self.load()?;
        self.memories.append(&self.ports, memories)?;
        self.people.append(&self.ports, people)?;
        // Brings the index up to the lines just written.
        self.load()?;
        Ok(Finding {
            check: "people".into(),
            ok: false,
            detail: format!("{detail}; dropped those references"),
            fixed: true,
        })
    }
}
