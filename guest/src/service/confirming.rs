//! `confirm`: its owner vouches for a memory, which then never decays (seed 004's
//! `confirm_fact`). One appended new version of the record.

use super::MemoryService;
use crate::api::{Error, Memory};
use crate::ports::Ports;
use crate::record::format_time;
use crate::scope::Caller;

impl<P: Ports> MemoryService<P> {
    /// See `confirm` in `wit/memories.wit`.
    pub fn confirm(&mut self, caller: &Caller, id: &str) -> Result<Memory, Error> {
        let mut record = self.changeable(caller, id, "confirm")?;
        if record.confirmed_at.is_none() {
            let now = format_time(self.now()?);
            record.confirmed_at = Some(now.clone());
            record.last_accessed_at = Some(now);
            self.memories.append(&self.ports, vec![record.clone()])?;
            self.index_written(&[], &[]);
        }
        Ok(Memory::from(&record))
    }
}
