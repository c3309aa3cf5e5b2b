//! What leaves the live collection and the archive: `delete`, `gc`, eviction beyond
//! `max_entries` after an add, and `compact` of the archive. `delete` is here rather than
//! with reading because a deleted memory goes to the archive like an evicted one.

use chrono::{DateTime, TimeDelta, Utc};

use super::MemoryService;
use crate::api::{Archived, CompactReport, Error, GcReport, Memory};
use crate::gc::{self, ArchiveReason};
use crate::ports::{Collection, Ports};
use crate::record::{MemoryRecord, format_time, parse_time};
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// Deletes a memory the caller may change; it goes to the archive first.
    pub fn delete(&mut self, caller: &Caller, id: &str) -> Result<String, Error> {
        let record = self.changeable(caller, id, "delete")?;
        let id = record.id.clone();
        let stamp = format_time(self.now()?);
        let mut archived = record;
        archived.archived_at = Some(stamp.clone());
        archived.archive_reason = Some(ArchiveReason::Deleted.as_str().to_owned());
        self.ports.append(Collection::Archive, &[archived.to_line()])?;
        // One removal line, not a rewrite: a delete costs the same at any size.
        self.memories.remove(&self.ports, std::slice::from_ref(&id), &stamp)?;
        self.index_written(&[], std::slice::from_ref(&id));
        Ok(id)
    }

    /// Archives the oldest, most ephemeral memories beyond `max_entries` in each scope the
    /// new records went to, never the ones just added. The limit is per scope (a user's
    /// personal memories, a chat's group memories): one user's adds never evict another's.
    pub(super) fn enforce_max_entries(
        &mut self,
        added: &[MemoryRecord],
        protected: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<Memory>, Error> {
        let Some(max) = self.ports.settings().max_entries else {
            return Ok(Vec::new());
        };
        let mut scopes: Vec<(Option<String>, Option<String>)> = Vec::new();
        for r in added {
            let key = (r.owner_user_id.clone(), r.chat_id.clone());
            if !scopes.contains(&key) {
                scopes.push(key);
            }
        }
        let mut victims: Vec<MemoryRecord> = Vec::new();
        for (owner, chat) in scopes {
            let in_scope: Vec<&MemoryRecord> = self
                .memories
                .iter()
                .filter(|r| r.owner_user_id == owner && r.chat_id == chat)
                .collect();
            let count = in_scope.len() as u64;
            if count > max {
                victims.extend(
                    gc::eviction_order(in_scope.into_iter(), (count - max) as usize, protected, now)
                        .into_iter()
                        .cloned(),
                );
            }
        }
        let evicted = victims.iter().map(Memory::from).collect();
        self.archive(victims.into_iter().map(|r| (r, ArchiveReason::Evicted)).collect(), now)?;
        Ok(evicted)
    }

    /// Appends records to the archive with a reason, then takes them out of the
    /// collection (a removal line each: never a rewrite) and the index. The archive is
    /// written first: if the call then fails, the host rolls the archive back with it.
    pub(super) fn archive(
        &mut self,
        victims: Vec<(MemoryRecord, ArchiveReason)>,
        now: DateTime<Utc>,
    ) -> Result<(), Error> {
        if victims.is_empty() {
            return Ok(());
        }
        let stamp = format_time(now);
        let lines: Vec<String> = victims
            .iter()
            .map(|(r, reason)| {
                let mut r = r.clone();
                r.archived_at = Some(stamp.clone());
                r.archive_reason = Some(reason.as_str().to_owned());
                r.to_line()
            })
            .collect();
        self.ports.append(Collection::Archive, &lines)?;
        let ids: Vec<String> = victims.iter().map(|(r, _)| r.id.clone()).collect();
        self.memories.remove(&self.ports, &ids, &stamp)?;
        self.index_written(&[], &ids);
        Ok(())
    }

    /// Archives superseded, expired and decayed memories; see `gc` in `wit/maintenance.wit`.
    pub fn gc(&mut self, dry_run: bool) -> Result<GcReport, Error> {
        self.load()?;
        let now = self.now()?;
        let told = self.ports.settings().decay_told_facts;
        let selected: Vec<(MemoryRecord, ArchiveReason)> = self
            .memories
            .iter()
            .filter_map(|r| gc::reason(r, now, told).map(|reason| (r.clone(), reason)))
            .collect();
        let archived = selected
            .iter()
            .map(|(r, reason)| Archived {
                id: r.id.clone(),
                content: r.content.clone(),
                reason: *reason,
            })
            .collect();
        if !dry_run {
            // What GC archives leaves by removal lines, as a delete does, so that its cost
            // follows what it archives rather than the collection's size. The stale lines
            // (replaced versions, removed records, removal lines) are folded away by one
            // rewrite once they are a quarter of the live records: after any GC they are
            // fewer than that, and a GC that archives a line or two (auto_gc at every
            // start) does not rewrite the file.
            self.archive(selected, now)?;
            let stale = self.memories.stale_lines();
            if stale > 0 && stale * 4 >= self.memories.len() as u64 {
                self.memories.rewrite(&self.ports)?;
                self.mark_index(self.memories.state())?;
            }
        }
        Ok(GcReport { archived, dry_run })
    }

    /// Removes archive entries archived more than `older_than_days` ago, if `force`.
    pub fn compact(&mut self, older_than_days: u32, force: bool) -> Result<CompactReport, Error> {
        // A purge cut short rewrites the archive too: finished first, so that this reads
        // what it left.
        self.refresh_people()?;
        let now = self.now()?;
        // A cutoff before the calendar begins means nothing is that old.
        let cutoff = now
            .checked_sub_signed(TimeDelta::days(i64::from(older_than_days)))
            .unwrap_or(DateTime::<Utc>::MIN_UTC);
        let chunk = self.ports.read(Collection::Archive, 0, None)?;
        let mut kept: Vec<String> = Vec::new();
        let mut removed: Vec<String> = Vec::new();
        for line in chunk.data.lines().filter(|l| !l.trim().is_empty()) {
            // Judged by the archive stamp alone; a line that cannot be read is never removed.
            let value: Option<serde_json::Value> = serde_json::from_str(line).ok();
            let archived_at = value
                .as_ref()
                .and_then(|v| v["archived_at"].as_str())
                .and_then(|t| parse_time(t).ok());
            match archived_at {
                Some(at) if at < cutoff => {
                    removed.push(value.as_ref().and_then(|v| v["id"].as_str()).unwrap_or("?").to_owned())
                }
                _ => kept.push(line.to_owned()),
            }
        }
        if force && !removed.is_empty() {
            // Removal lines of the memories whose copies go are folded away first, so that
            // every removal line left has its copy (`doctor` checks it). Each rewrite is a
            // commit point, and either order of a crash between them leaves that true.
            let lines = self.ports.read(Collection::Memories, 0, None)?;
            let removal_lines = crate::collection::ids_removed(&lines.data);
            if removed.iter().any(|id| removal_lines.contains(id)) {
                self.memories.refresh(&self.ports)?;
                self.memories.rewrite(&self.ports)?;
                self.mark_index(self.memories.state())?;
            }
            self.ports.replace(Collection::Archive, &kept)?;
        }
        Ok(CompactReport {
            removed,
            kept: kept.len() as u64,
            forced: force,
        })
    }
}
