//! When memories were recalled: one access line each, which decay counts from. A search
//! writes them, at most one a memory a day; in a call begun as a read (a host answering
//! reads side by side) the host refuses the write, and they wait here for
//! `flush_deferred`, so that reads stay reads.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::{Error, SearchHit};
use crate::decay;
use crate::ports::{FileError, Ports};
use crate::record::{format_time, parse_time};

impl<P: Ports> MemoryService<P> {
    /// Appends an access line for each hit not recorded as accessed within the day, or,
    /// when the call may not write, keeps them for `flush_deferred`.
    pub(crate) fn record_access(&mut self, hits: &[SearchHit], now: DateTime<Utc>) -> Result<(), Error> {
        let recent = now - chrono::TimeDelta::hours(decay::ACCESS_GRANULARITY_HOURS);
        let stale: Vec<String> = hits
            .iter()
            .filter_map(|h| self.memories.get(&h.memory.id))
            .filter(|r| decay::last_access(r).is_none_or(|at| at < recent))
            .map(|r| r.id.clone())
            .collect();
        if stale.is_empty() {
            return Ok(());
        }
        let at = format_time(now);
        match self.memories.touch(&self.ports, &stale, &at) {
            Ok(_) => {
                // The index holds nothing an access changes; it only follows the file's end.
                self.index_written(&[], &[]);
                Ok(())
            }
            Err(FileError::ReadOnly(_)) => {
                for id in stale {
                    self.deferred_access.insert(id, at.clone());
                }
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Writes the accesses that calls begun as reads put off; how many memories they
    /// were about (a memory deleted meanwhile is skipped). See `flush-deferred` in
    /// `wit/maintenance.wit`.
    pub fn flush_deferred(&mut self) -> Result<u32, Error> {
        if self.deferred_access.is_empty() {
            return Ok(0);
        }
        self.load_as_needed()?;
        let ids: Vec<String> = self.deferred_access.keys().cloned().collect();
        if self.memories.is_partial() && !self.hold_records(&ids)? {
            self.load()?;
        }
        let mut by_time: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (id, at) in std::mem::take(&mut self.deferred_access) {
            // Skipped when gone, or when another instance recorded a recall within the
            // day of this one meanwhile (readers of one server each put off their own).
            let Some(record) = self.memories.get(&id) else {
                continue;
            };
            let recorded = match (decay::last_access(record), parse_time(&at)) {
                (Some(last), Ok(at)) => last > at - chrono::TimeDelta::hours(decay::ACCESS_GRANULARITY_HOURS),
                _ => false,
            };
            if !recorded {
                by_time.entry(at).or_default().push(id);
            }
        }
        let mut written = 0;
        for (at, ids) in &by_time {
            if let Err(e) = self.memories.touch(&self.ports, ids, at) {
                // Kept for the next try: this one wrote none of them.
                for (at, ids) in &by_time {
                    for id in ids {
                        self.deferred_access.entry(id.clone()).or_insert_with(|| at.clone());
                    }
                }
                return Err(e.into());
            }
            written += ids.len() as u32;
        }
        self.index_written(&[], &[]);
        Ok(written)
    }
}
