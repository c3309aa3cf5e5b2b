//! A JSONL collection as the guest sees it: records folded by id (the last line for an id
//! wins), kept in memory between calls and refreshed by reading only what was appended
//! since, or everything when the file was replaced.
//!
//! A cache may also be partial (`adopt`): it then holds only records fetched from the
//! index, for a call that answers without reading the collection, and the next `refresh`
//! reads the whole file.
//!
//! Taking a record out appends a removal line (`{"id":…,"version":1,"removed_at":…}`)
//! rather than rewriting the file, so that a delete costs one line however large the
//! collection. Rewrites (GC, quarantine) fold removal lines away with what they removed.
//!
//! `lines` says what a line of the file is (a record, a marker, a newer writer's record);
//! `records` is the folded cache and every write to the file.

mod lines;
mod records;
#[cfg(test)]
mod tests;

use crate::people::{PERSON_VERSION, PersonRecord};
use crate::ports::Collection;
use crate::record::{MemoryRecord, RECORD_VERSION};

pub use lines::{MAX_LINE_BYTES, ids_named, ids_removed};
pub use records::Records;

/// A record type stored one per line in a collection.
pub trait Record: Clone {
    /// Which collection holds it.
    const COLLECTION: Collection;
    /// The file name, for messages.
    const FILE: &'static str;
    /// The newest record version this guest understands.
    const VERSION: u32;
    fn id(&self) -> &str;
    fn parse(line: &str) -> Result<Self, String>;
    fn to_line(&self) -> String;
    /// Folds in an access line: the record was returned at `at`. Only memories keep it.
    fn touch(&mut self, _at: &str) {}
}

impl Record for MemoryRecord {
    const COLLECTION: Collection = Collection::Memories;
    const FILE: &'static str = "memories.jsonl";
    const VERSION: u32 = RECORD_VERSION;
    fn id(&self) -> &str {
        &self.id
    }
    fn parse(line: &str) -> Result<Self, String> {
        MemoryRecord::parse(line).map_err(|e| e.0)
    }
    fn to_line(&self) -> String {
        MemoryRecord::to_line(self)
    }
    fn touch(&mut self, at: &str) {
        let later = match (&self.last_accessed_at, crate::record::parse_time(at)) {
            (_, Err(_)) => false,
            (None, Ok(_)) => true,
            (Some(old), Ok(new)) => crate::record::parse_time(old).is_ok_and(|old| new > old),
        };
        if later {
            self.last_accessed_at = Some(at.to_owned());
        }
    }
}

impl Record for PersonRecord {
    const COLLECTION: Collection = Collection::People;
    const FILE: &'static str = "people.jsonl";
    const VERSION: u32 = PERSON_VERSION;
    fn id(&self) -> &str {
        &self.id
    }
    fn parse(line: &str) -> Result<Self, String> {
        PersonRecord::parse(line)
    }
    fn to_line(&self) -> String {
        PersonRecord::to_line(self)
    }
}

/// The memories collection.
pub type Memories = Records<MemoryRecord>;
/// The people collection.
pub type People = Records<PersonRecord>;
