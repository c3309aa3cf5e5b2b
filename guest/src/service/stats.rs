//! `stats`: what a home holds, counted over every scope. It reads and reports; it
//! mends nothing (an index out of step is reported, not rebuilt).

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, TimeDelta, Utc};

use super::MemoryService;
use crate::api::{Ages, Error, IndexState, Stats};
use crate::decay;
use crate::gc::{self, ArchiveReason};
use crate::memory_type::MemoryType;
use crate::ports::{Collection, EntryKind, IndexError, Ports};
use crate::record::{MemoryRecord, parse_time};

impl<P: Ports> MemoryService<P> {
    /// See `stats` in `wit/maintenance.wit`.
    pub fn stats(&mut self) -> Result<Stats, Error> {
        self.memories.refresh(&self.ports)?;
        self.refresh_people()?;
        let now = self.now()?;
        let told = self.ports.settings().decay_told_facts;
        let mut stats = Stats {
            memories: self.memories.len() as u64,
            by_type: MemoryType::ALL.iter().map(|t| (*t, 0)).collect(),
            people: self.people.iter().filter(|p| p.merged_into.is_none()).count() as u64,
            newer_format: (self.memories.newer_count() + self.people.newer_count()) as u64,
            ..Stats::default()
        };
        let mut users = HashSet::new();
        let mut chats = HashSet::new();
        let mut sources: BTreeMap<&str, u64> = BTreeMap::new();
        for r in self.memories.iter() {
            if let Some(slot) = stats.by_type.iter_mut().find(|(t, _)| *t == r.memory_type) {
                slot.1 += 1;
            }
            // A chat makes a memory a group one (older data may also carry its adder).
            match (&r.chat_id, &r.owner_user_id) {
                (Some(chat), _) => {
                    stats.group += 1;
                    chats.insert(chat.as_str());
                }
                (None, Some(user)) => {
                    stats.personal += 1;
                    users.insert(user.as_str());
                }
                (None, None) => {}
            }
            *sources.entry(r.source.as_str()).or_default() += 1;
            add_age(&mut stats.by_age, r, now);
            match gc::reason(r, now, told) {
                Some(ArchiveReason::Superseded) => stats.superseded += 1,
                Some(ArchiveReason::Decayed) => stats.decayed += 1,
                Some(_) => stats.expired += 1,
                None if decay::may_fade_away(r, told) => stats.fading += 1,
                None => {}
            }
            if r.embedding.is_none() {
                stats.pending += 1;
            }
        }
        stats.users = users.len() as u64;
        stats.chats = chats.len() as u64;
        let mut by_source: Vec<(String, u64)> = sources.into_iter().map(|(s, n)| (s.to_owned(), n)).collect();
        by_source.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        stats.by_source = by_source;
        stats.archived = self.archive_by_reason()?;
        stats.index = self.index_state()?;
        Ok(stats)
    }

    /// Archive entries by reason, in `archive-reason` order, reasons with none left out.
    fn archive_by_reason(&self) -> Result<Vec<(ArchiveReason, u64)>, Error> {
        let chunk = self.ports.read(Collection::Archive, 0, None)?;
        let mut counts = [0u64; ArchiveReason::ALL.len()];
        for line in chunk.data.lines().filter(|l| !l.trim().is_empty()) {
            // Only the reason is needed: an entry need not parse as a whole record.
            let reason = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v["archive_reason"].as_str().and_then(ArchiveReason::parse));
            if let Some(i) = reason.and_then(|r| ArchiveReason::ALL.iter().position(|a| *a == r)) {
                counts[i] += 1;
            }
        }
        Ok(ArchiveReason::ALL
            .into_iter()
            .zip(counts)
            .filter(|(_, n)| *n > 0)
            .collect())
    }

    /// The index as found.
    fn index_state(&self) -> Result<IndexState, Error> {
        let info = match self.ports.index_info() {
            Ok(info) => info,
            Err(IndexError::Unavailable(_)) => None,
            Err(e) => return Err(e.into()),
        };
        let Some(info) = info else {
            return Ok(IndexState::default());
        };
        let entries = self.ports.index_count(EntryKind::Memory)?;
        let indexable = self.memories.iter().filter(|r| r.superseded_at.is_none()).count() as u64;
        let in_step = info == self.wanted_index()
            && self.ports.index_reflects(EntryKind::Memory)? == Some(self.memories.state())
            && entries == indexable;
        Ok(IndexState {
            model: Some(info.model),
            dimension: Some(info.dimension),
            entries,
            in_step,
        })
    }
}

/// Counts a record in its age bucket, by `created_at` (a record from the future, or
/// with an unreadable stamp, counts as a day old).
fn add_age(ages: &mut Ages, record: &MemoryRecord, now: DateTime<Utc>) {
    let age = parse_time(&record.created_at)
        .map(|t| now - t)
        .unwrap_or(TimeDelta::zero());
    let slot = if age < TimeDelta::days(1) {
        &mut ages.day
    } else if age < TimeDelta::days(7) {
        &mut ages.week
    } else if age < TimeDelta::days(30) {
        &mut ages.month
    } else if age < TimeDelta::days(365) {
        &mut ages.year
    } else {
        &mut ages.older
    };
    *slot += 1;
}
