//! A JSONL collection as the guest sees it: records folded by id (the last line for an id
//! wins), kept in memory between calls and refreshed by reading only what was appended
//! since, or everything when the file was replaced.

use std::collections::HashMap;

use serde::Deserialize;

use crate::people::{PERSON_VERSION, PersonRecord};
use crate::ports::{Collection, FileError, FileState, Level, Ports};
use crate::record::{MemoryRecord, RECORD_VERSION};

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

/// Just enough of a line to tell whether a newer writer made it.
#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

/// Whether a line that did not parse is a record of a newer format: such lines are kept in
/// place, untouched, rather than quarantined, so that an older guest never takes a newer
/// writer's data out of the source of truth.
fn is_newer<T: Record>(line: &str) -> bool {
    // Only an object is a record (serde would also read `[2]` into the probe).
    line.trim_start().starts_with('{')
        && serde_json::from_str::<VersionProbe>(line).is_ok_and(|p| p.version > T::VERSION)
}

/// The folded records of one collection.
#[derive(Debug)]
pub struct Records<T: Record> {
    records: Vec<T>,
    positions: HashMap<String, usize>,
    /// Lines of a newer format, kept verbatim and written back by every rewrite.
    newer: Vec<String>,
    end: u64,
    generation: Option<u64>,
}

impl<T: Record> Default for Records<T> {
    fn default() -> Self {
        Records {
            records: Vec::new(),
            positions: HashMap::new(),
            newer: Vec::new(),
            end: 0,
            generation: None,
        }
    }
}

impl<T: Record> Records<T> {
    /// Brings the cache up to date with the file. Lines that do not parse are set aside in
    /// the quarantine file and the collection is rewritten without them; returns how many.
    pub fn refresh<P: Ports>(&mut self, ports: &P) -> Result<u64, FileError> {
        let chunk = ports.read(T::COLLECTION, self.end, self.generation)?;
        if Some(chunk.generation) != self.generation || chunk.end < self.end {
            self.records.clear();
            self.positions.clear();
            self.newer.clear();
        }
        self.generation = Some(chunk.generation);
        self.end = chunk.end;

        let mut bad: Vec<String> = Vec::new();
        let newer_before = self.newer.len();
        for line in chunk.data.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() {
                continue;
            }
            match T::parse(line) {
                Ok(record) => self.apply(record),
                Err(_) if is_newer::<T>(line) => self.newer.push(line.to_owned()),
                Err(e) => {
                    ports.log(Level::Warn, &format!("{}: quarantined a line: {e}", T::FILE));
                    bad.push(line.to_owned());
                }
            }
        }
        if self.newer.len() > newer_before {
            ports.log(
                Level::Warn,
                &format!(
                    "{}: {} record(s) of a newer format than this version understands are kept in place, untouched",
                    T::FILE,
                    self.newer.len() - newer_before
                ),
            );
        }
        if bad.is_empty() {
            return Ok(0);
        }
        // Set the lines aside first: if the rewrite then fails, they are in both places,
        // and never in neither.
        ports.quarantine(T::COLLECTION, &bad, "unparseable record")?;
        self.rewrite(ports)?;
        Ok(bad.len() as u64)
    }

    /// Folds one record in: a record with a known id replaces the earlier one in place.
    fn apply(&mut self, record: T) {
        match self.positions.get(record.id()) {
            Some(&i) => self.records[i] = record,
            None => {
                self.positions.insert(record.id().to_owned(), self.records.len());
                self.records.push(record);
            }
        }
    }

    /// Appends records (new ones, or new versions of existing ones) in one write.
    pub fn append<P: Ports>(&mut self, ports: &P, records: Vec<T>) -> Result<FileState, FileError> {
        if records.is_empty() {
            return Ok(self.state());
        }
        let lines: Vec<String> = records.iter().map(T::to_line).collect();
        let state = ports.append(T::COLLECTION, &lines)?;
        let written: u64 = lines.iter().map(|l| l.len() as u64 + 1).sum();
        // The file should now end just after our lines (one byte more when the host had
        // to end a last line that lacked its newline). Anything else means someone wrote
        // in between: read the file again from the start at the next refresh.
        let expected = self.end + written;
        let in_step = Some(state.generation) == self.generation && (state.end == expected || state.end == expected + 1);
        for record in records {
            self.apply(record);
        }
        if in_step {
            self.end = state.end;
        } else {
            self.generation = None;
        }
        Ok(state)
    }

    /// Removes records by id and rewrites the collection atomically without them.
    pub fn remove<P: Ports>(&mut self, ports: &P, ids: &[String]) -> Result<FileState, FileError> {
        let gone: std::collections::HashSet<&str> = ids.iter().map(String::as_str).collect();
        let keep: Vec<T> = self
            .records
            .iter()
            .filter(|r| !gone.contains(r.id()))
            .cloned()
            .collect();
        self.replace_with(ports, keep)
    }

    /// Rewrites the file from the cache: one line per record, superseded lines folded away.
    fn rewrite<P: Ports>(&mut self, ports: &P) -> Result<FileState, FileError> {
        let records = self.records.clone();
        self.replace_with(ports, records)
    }

    /// Replaces the file with the newer-format lines and these records.
    fn replace_with<P: Ports>(&mut self, ports: &P, records: Vec<T>) -> Result<FileState, FileError> {
        let lines: Vec<String> = self
            .newer
            .iter()
            .cloned()
            .chain(records.iter().map(T::to_line))
            .collect();
        let state = ports.replace(T::COLLECTION, &lines)?;
        self.positions = records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id().to_owned(), i))
            .collect();
        self.records = records;
        // The cache is exactly the new file.
        self.generation = Some(state.generation);
        self.end = state.end;
        Ok(state)
    }

    /// Where the file stood when the cache last matched it.
    pub fn state(&self) -> FileState {
        FileState {
            generation: self.generation.unwrap_or(0),
            end: self.end,
        }
    }

    /// Whether the cache is known to match the file up to `state().end`.
    pub fn in_step(&self) -> bool {
        self.generation.is_some()
    }

    /// Lines of a newer format kept untouched.
    pub fn newer_count(&self) -> usize {
        self.newer.len()
    }

    /// The record with this id.
    pub fn get(&self, id: &str) -> Option<&T> {
        self.positions.get(id).map(|&i| &self.records[i])
    }

    /// All records, in the order their ids first appeared (oldest first).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        self.records.iter()
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
}
