//! A JSONL collection as the guest sees it: records folded by id (the last line for an id
//! wins), kept in memory between calls and refreshed by reading only what was appended
//! since, or everything when the file was replaced.

use std::collections::HashMap;

use crate::people::PersonRecord;
use crate::ports::{Collection, FileError, Level, Ports};
use crate::record::MemoryRecord;

/// A record type stored one per line in a collection.
pub trait Record: Clone {
    /// Which collection holds it.
    const COLLECTION: Collection;
    /// The file name, for messages.
    const FILE: &'static str;
    fn id(&self) -> &str;
    fn parse(line: &str) -> Result<Self, String>;
    fn to_line(&self) -> String;
}

impl Record for MemoryRecord {
    const COLLECTION: Collection = Collection::Memories;
    const FILE: &'static str = "memories.jsonl";
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

/// The folded records of one collection.
#[derive(Debug)]
pub struct Records<T: Record> {
    records: Vec<T>,
    positions: HashMap<String, usize>,
    end: u64,
    generation: Option<u64>,
}

impl<T: Record> Default for Records<T> {
    fn default() -> Self {
        Records {
            records: Vec::new(),
            positions: HashMap::new(),
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
        if Some(chunk.generation) != self.generation {
            self.records.clear();
            self.positions.clear();
        }
        self.generation = Some(chunk.generation);
        self.end = chunk.end;

        let mut bad: Vec<String> = Vec::new();
        for line in chunk.data.split('\n') {
            if line.trim().is_empty() {
                continue;
            }
            match T::parse(line) {
                Ok(record) => self.apply(record),
                Err(e) => {
                    ports.log(Level::Warn, &format!("{}: quarantined a line: {e}", T::FILE));
                    bad.push(line.to_owned());
                }
            }
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
    pub fn append<P: Ports>(&mut self, ports: &P, records: Vec<T>) -> Result<(), FileError> {
        if records.is_empty() {
            return Ok(());
        }
        let lines: Vec<String> = records.iter().map(T::to_line).collect();
        ports.append(T::COLLECTION, &lines)?;
        // The host holds the writers' lock for the whole call, so nobody else appended in
        // between: the file now ends exactly after our lines.
        self.end += lines.iter().map(|l| l.len() as u64 + 1).sum::<u64>();
        for record in records {
            self.apply(record);
        }
        Ok(())
    }

    /// Removes records by id and rewrites the collection atomically without them.
    pub fn remove<P: Ports>(&mut self, ports: &P, ids: &[String]) -> Result<(), FileError> {
        let keep: Vec<T> = self
            .records
            .iter()
            .filter(|r| !ids.iter().any(|id| id == r.id()))
            .cloned()
            .collect();
        let lines: Vec<String> = keep.iter().map(T::to_line).collect();
        ports.replace(T::COLLECTION, &lines)?;
        self.reset_to(keep);
        Ok(())
    }

    /// Rewrites the file from the cache: one line per record, superseded lines folded away.
    fn rewrite<P: Ports>(&mut self, ports: &P) -> Result<(), FileError> {
        let lines: Vec<String> = self.records.iter().map(T::to_line).collect();
        ports.replace(T::COLLECTION, &lines)?;
        let records = std::mem::take(&mut self.records);
        self.reset_to(records);
        Ok(())
    }

    fn reset_to(&mut self, records: Vec<T>) {
        self.positions = records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id().to_owned(), i))
            .collect();
        self.records = records;
        // The file was replaced: its generation is new, so the next refresh reads it whole.
        self.generation = None;
        self.end = 0;
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
