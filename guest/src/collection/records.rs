//! The folded records of one collection, and every write to its file: appends of records
//! and markers, rewrites, and the partial cache of records fetched from the index.

use std::collections::HashMap;

use super::Record;
use super::lines::{MAX_LINE_BYTES, access, access_line, ids_named, is_newer, removal, removal_line};
use crate::ports::{Collection, FileError, FileState, Level, Ports};

/// Why a line of the file could not be folded in.
enum Unfoldable {
    /// Longer than a record may be.
    Oversized,
    /// Not a record, a removal, an access or a newer format's line; why not.
    Bad(String),
}

/// The folded records of one collection.
#[derive(Debug)]
pub struct Records<T: Record> {
    /// In the order their ids first appeared; a removed record leaves an empty slot, so
    /// that a removal costs no shifting (a rewrite packs them).
    records: Vec<Option<T>>,
    positions: HashMap<String, usize>,
    /// Lines in the file that no longer count: older versions of a record, removed
    /// records and the removal lines themselves. What a rewrite would save.
    stale_lines: u64,
    /// Lines of a newer format, kept verbatim and written back by every rewrite.
    newer: Vec<String>,
    end: u64,
    generation: Option<u64>,
    /// Whether this cache holds only the records fetched from the index (`adopt`), not
    /// the whole collection.
    partial: bool,
    /// Ids of memories this instance wrote since the index last heard of them: the index
    /// keeps each memory's record, and must follow (`take_changed`).
    changed: Vec<String>,
}

impl<T: Record> Default for Records<T> {
    fn default() -> Self {
        Records {
            records: Vec::new(),
            positions: HashMap::new(),
            stale_lines: 0,
            newer: Vec::new(),
            end: 0,
            generation: None,
            partial: false,
            changed: Vec::new(),
        }
    }
}

impl<T: Record> Records<T> {
    /// Brings the cache up to date with the file. Lines that do not parse are set aside in
    /// the quarantine file and the collection is rewritten without them; returns how many.
    pub fn refresh<P: Ports>(&mut self, ports: &P) -> Result<u64, FileError> {
        if self.partial {
            self.partial = false;
            self.generation = None;
            self.end = 0;
        }
        let chunk = ports.read(T::COLLECTION, self.end, self.generation)?;
        if Some(chunk.generation) != self.generation || chunk.end < self.end {
            self.records.clear();
            self.positions.clear();
            self.stale_lines = 0;
            self.newer.clear();
        }
        self.generation = Some(chunk.generation);
        self.end = chunk.end;

        let mut bad: Vec<String> = Vec::new();
        let mut oversized: Vec<String> = Vec::new();
        let newer_before = self.newer.len();
        for line in chunk.data.split('\n') {
            match self.fold_line(line) {
                Ok(()) => {}
                Err(Unfoldable::Oversized) => {
                    ports.log(
                        Level::Warn,
                        &format!(
                            "{}: quarantined a line of {} bytes: a record holds at most {} MiB",
                            T::FILE,
                            line.len(),
                            MAX_LINE_BYTES >> 20
                        ),
                    );
                    oversized.push(line.to_owned());
                }
                Err(Unfoldable::Bad(e)) => {
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
        if bad.is_empty() && oversized.is_empty() {
            return Ok(0);
        }
        // Set the lines aside first: if the rewrite then fails, they are in both places,
        // and never in neither.
        let set_aside = (|| {
            if !oversized.is_empty() {
                let reason = format!("a record line over {} MiB", MAX_LINE_BYTES >> 20);
                ports.quarantine(T::COLLECTION, &oversized, &reason)?;
            }
            if !bad.is_empty() {
                ports.quarantine(T::COLLECTION, &bad, "unparseable record")?;
            }
            Ok(())
        })()
        .and_then(|()| self.rewrite(ports));
        if let Err(e) = set_aside {
            // The file still holds the lines: the next refresh reads it all again and
            // sets them aside then (a call begun as a read runs again as a write).
            self.read_again();
            return Err(e);
        }
        Ok((bad.len() + oversized.len()) as u64)
    }

    /// Folds one line of the file in: a record, a removal, an access, or a line of a newer
    /// format (kept verbatim). Blank lines are nothing.
    fn fold_line(&mut self, line: &str) -> Result<(), Unfoldable> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            return Ok(());
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(Unfoldable::Oversized);
        }
        match T::parse(line) {
            Ok(record) => self.apply(record),
            Err(_) if is_newer::<T>(line) => self.newer.push(line.to_owned()),
            Err(_) if let Some(id) = removal(line) => self.unfold(&id),
            Err(_) if let Some((id, at)) = access(line) => self.touched(&id, &at),
            Err(e) => return Err(Unfoldable::Bad(e.to_string())),
        }
        Ok(())
    }

    /// Folds one record in: a record with a known id replaces the earlier one in place.
    fn apply(&mut self, record: T) {
        match self.positions.get(record.id()) {
            Some(&i) => {
                self.records[i] = Some(record);
                self.stale_lines += 1;
            }
            None => {
                self.positions.insert(record.id().to_owned(), self.records.len());
                self.records.push(Some(record));
            }
        }
    }

    /// Folds an access line in; the line itself no longer counts once folded.
    fn touched(&mut self, id: &str, at: &str) {
        if let Some(record) = self.positions.get(id).and_then(|&i| self.records[i].as_mut()) {
            record.touch(at);
        }
        self.stale_lines += 1;
    }

    /// Records that these records were returned at `at`: one appended access line each.
    /// Ids not in the collection are skipped.
    pub fn touch<P: Ports>(&mut self, ports: &P, ids: &[String], at: &str) -> Result<FileState, FileError> {
        self.append_about(ports, ids, |id| access_line(id, at), |c, id| c.touched(id, at))
    }

    /// Appends one line about each known id (each once) and folds it into the cache.
    fn append_about<P: Ports>(
        &mut self,
        ports: &P,
        ids: &[String],
        line: impl Fn(&str) -> serde_json::Result<String>,
        fold: impl Fn(&mut Self, &str),
    ) -> Result<FileState, FileError> {
        let mut seen = std::collections::HashSet::new();
        let known: Vec<&String> = ids
            .iter()
            .filter(|id| self.positions.contains_key(id.as_str()) && seen.insert(id.as_str()))
            .collect();
        if known.is_empty() {
            return Ok(self.state());
        }
        let lines: Vec<String> = known
            .iter()
            .map(|id| line(id).expect("a line of three strings serializes"))
            .collect();
        let (state, in_step) = self.append_lines(ports, &lines)?;
        for id in known {
            fold(self, id);
            self.note_changed(id);
        }
        self.follow(state, in_step);
        Ok(state)
    }

    /// Folds a removal in: the record and the removal line both stop counting.
    fn unfold(&mut self, id: &str) {
        if let Some(i) = self.positions.remove(id) {
            self.records[i] = None;
            self.stale_lines += 1;
        }
        self.stale_lines += 1;
    }

    /// Appends records (new ones, or new versions of existing ones) in one write.
    pub fn append<P: Ports>(&mut self, ports: &P, records: Vec<T>) -> Result<FileState, FileError> {
        if records.is_empty() {
            return Ok(self.state());
        }
        let lines = lines_of(&records)?;
        let (state, in_step) = self.append_lines(ports, &lines)?;
        for record in records {
            self.note_changed(record.id());
            self.apply(record);
        }
        self.follow(state, in_step);
        Ok(state)
    }

    /// Takes records out by id with one appended removal line each, stamped `at`. Ids
    /// not in the collection are skipped.
    pub fn remove<P: Ports>(&mut self, ports: &P, ids: &[String], at: &str) -> Result<FileState, FileError> {
        self.append_about(ports, ids, |id| removal_line(id, at), |c, id| c.unfold(id))
    }

    /// Appends lines; also says whether the file now ends just after them (one byte more
    /// when the host had to end a last line that lacked its newline). Anything else means
    /// someone wrote in between.
    ///
    /// Creating a missing file gives it a new generation (a host's generation includes the
    /// file's identity), so the first append to a collection read as empty finds another
    /// generation; the file then holds exactly the lines appended, which the cache holds
    /// too. Taken for someone else's write, it would leave the index claiming the empty
    /// file, and the next call would replay every line of a new home's first import.
    ///
    /// Lines another writer appended between the cache's end and this append (a write
    /// of another scope, on a backend that lets those run side by side) are read and
    /// folded in, before the caller folds its own. When they name a record this append
    /// writes too, what the caller decided was decided on an old version: the append
    /// fails, and the host undoes the call (and runs it again under the whole lock).
    fn append_lines<P: Ports>(&mut self, ports: &P, lines: &[String]) -> Result<(FileState, bool), FileError> {
        let state = ports.append(T::COLLECTION, lines)?;
        let written: u64 = lines.iter().map(|l| l.len() as u64 + 1).sum();
        let expected = self.end + written;
        let same_file = Some(state.generation) == self.generation;
        let created = self.generation.is_some() && self.end == 0 && state.end == written;
        let in_step = (same_file && (state.end == expected || state.end == expected + 1)) || created;
        let caught_up =
            !in_step && same_file && state.end > expected && self.catch_up(ports, state.end - written, lines)?;
        Ok((state, in_step || caught_up))
    }

    /// Folds in the lines between the cache's end and `to`, where this instance's own
    /// append (`own`) began: one read of what the cache missed, not of the whole file.
    /// False when they cannot all be folded in (the next refresh then reads everything);
    /// an error when they name a record of `own`, with nothing folded.
    fn catch_up<P: Ports>(&mut self, ports: &P, to: u64, own: &[String]) -> Result<bool, FileError> {
        let chunk = ports
            .read(T::COLLECTION, self.end, self.generation)
            .inspect_err(|_| self.read_again())?;
        let gap = usize::try_from(to - self.end).unwrap_or(usize::MAX);
        let Some(missed) = chunk.data.get(..gap) else {
            return Ok(false);
        };
        if Some(chunk.generation) != self.generation || !missed.ends_with('\n') {
            return Ok(false);
        }
        let theirs: std::collections::HashSet<String> = ids_named::<T>(missed).into_iter().collect();
        if let Some(id) = ids_named::<T>(&own.join("\n"))
            .into_iter()
            .find(|id| theirs.contains(id))
        {
            self.read_again();
            return Err(FileError::Failed(format!(
                "{}: another writer changed {id} while this call decided what to write; nothing of the call is kept",
                T::FILE
            )));
        }
        Ok(missed.split('\n').all(|line| self.fold_line(line).is_ok()))
    }

    /// After an append: the cache reaches the new end (in the file's generation, which
    /// creating it changed), or, when someone else wrote too, is read again from the start
    /// at the next refresh.
    fn follow(&mut self, state: FileState, in_step: bool) {
        if in_step {
            self.end = state.end;
            self.generation = Some(state.generation);
        } else {
            self.read_again();
        }
    }

    /// Makes the next refresh read the whole file again. Both the position and the
    /// generation go: a host reads from `from` when no generation is given.
    fn read_again(&mut self) {
        self.generation = None;
        self.end = 0;
    }

    /// Rewrites the file from the cache: one line per record, stale lines folded away.
    pub fn rewrite<P: Ports>(&mut self, ports: &P) -> Result<FileState, FileError> {
        let records: Vec<T> = self.iter().cloned().collect();
        self.replace_with(ports, records)
    }

    /// Applies new versions of records and takes others out, then rewrites the file from
    /// the result: one write that leaves no line of the old file behind, for when what
    /// leaves must be gone from the file and not only folded away (forgetting a person).
    /// The cache must be fresh (refreshed under the home's lock).
    pub fn rewrite_with<P: Ports>(
        &mut self,
        ports: &P,
        changed: Vec<T>,
        removed: &[String],
    ) -> Result<FileState, FileError> {
        removed.iter().for_each(|id| self.note_changed(id));
        let removed: std::collections::HashSet<&str> = removed.iter().map(String::as_str).collect();
        let mut records: Vec<T> = self.iter().filter(|r| !removed.contains(r.id())).cloned().collect();
        let mut at: HashMap<String, usize> = records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id().to_owned(), i))
            .collect();
        for record in changed {
            self.note_changed(record.id());
            match at.get(record.id()) {
                Some(&i) => records[i] = record,
                None => {
                    at.insert(record.id().to_owned(), records.len());
                    records.push(record);
                }
            }
        }
        self.replace_with(ports, records)
    }

    /// Replaces the file with the newer-format lines and these records.
    fn replace_with<P: Ports>(&mut self, ports: &P, records: Vec<T>) -> Result<FileState, FileError> {
        // A partial cache rewriting the file would drop every record it never fetched.
        assert!(!self.partial, "{}: a rewrite from a partial cache", T::FILE);
        let lines: Vec<String> = self.newer.iter().cloned().chain(lines_of(&records)?).collect();
        let state = ports.replace(T::COLLECTION, &lines)?;
        self.positions = records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id().to_owned(), i))
            .collect();
        self.records = records.into_iter().map(Some).collect();
        self.stale_lines = 0;
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
        self.positions.get(id).and_then(|&i| self.records[i].as_ref())
    }

    /// The record that stands at `position` in `iter`'s order, if it is still there.
    pub fn at(&self, position: usize) -> Option<&T> {
        self.records.get(position).and_then(Option::as_ref)
    }

    /// The records that come after `position` in `iter`'s order, each with its own.
    pub fn after(&self, position: usize) -> impl Iterator<Item = (usize, &T)> {
        self.records
            .iter()
            .enumerate()
            .skip(position + 1)
            .filter_map(|(i, r)| r.as_ref().map(|r| (i, r)))
    }

    /// Where the record with this id stands in `iter`'s order.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.positions.get(id).copied()
    }

    /// All records, in the order their ids first appeared (oldest first). Not for a
    /// partial cache, which holds only what it fetched.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        debug_assert!(!self.partial, "{}: iterating a partial cache", T::FILE);
        self.cached()
    }

    /// The records in the cache, in the order they came: all of them, or for a partial
    /// cache those it fetched, for a caller that fetched every record it looks for.
    pub fn cached(&self) -> impl DoubleEndedIterator<Item = &T> {
        self.records.iter().flatten()
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        debug_assert!(!self.partial, "{}: counting a partial cache", T::FILE);
        self.positions.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        debug_assert!(!self.partial, "{}: counting a partial cache", T::FILE);
        self.positions.is_empty()
    }

    /// Lines in the file that a rewrite would drop (older versions, removals).
    pub fn stale_lines(&self) -> u64 {
        debug_assert!(!self.partial, "{}: counting a partial cache", T::FILE);
        self.stale_lines
    }

    /// Makes this a partial cache of the collection as it stands at `state`, which the
    /// caller has checked the index reflects: it holds no record until `hold` adds those
    /// fetched from the index. A partial cache already at `state` keeps what it holds.
    ///
    /// What this instance changed before is forgotten: the index reflecting `state` has
    /// every line up to it, ours included (another process replayed them).
    pub fn adopt(&mut self, state: FileState) {
        if self.partial && self.in_step() && self.state() == state {
            return;
        }
        *self = Records {
            generation: Some(state.generation),
            end: state.end,
            partial: true,
            ..Records::default()
        };
    }

    /// Adds records fetched from the index to a partial cache; those it holds stay.
    pub fn hold(&mut self, records: Vec<T>) {
        debug_assert!(self.partial, "{}: holding records in a whole cache", T::FILE);
        for record in records {
            if !self.positions.contains_key(record.id()) {
                self.positions.insert(record.id().to_owned(), self.records.len());
                self.records.push(Some(record));
            }
        }
    }

    /// Whether this cache holds only records fetched from the index.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The ids this instance wrote since the last call, each once, oldest first.
    pub fn take_changed(&mut self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        let mut changed = std::mem::take(&mut self.changed);
        changed.retain(|id| seen.insert(id.clone()));
        changed
    }

    fn note_changed(&mut self, id: &str) {
        // Only memories have records in the index.
        if T::COLLECTION == Collection::Memories {
            self.changed.push(id.to_owned());
        }
    }
}

/// The records' lines; refused, with nothing written, when one would be longer than a
/// reader takes: it would be quarantined unread at the next call, after its write was
/// acknowledged.
fn lines_of<T: Record>(records: &[T]) -> Result<Vec<String>, FileError> {
    records
        .iter()
        .map(|r| {
            let line = r.to_line();
            if line.len() > MAX_LINE_BYTES {
                return Err(FileError::Oversized(format!(
                    "the record {} would take {} bytes in {}, over the {} MiB a line may hold: \
                     its text, source, metadata or aliases are too long",
                    r.id(),
                    line.len(),
                    T::FILE,
                    MAX_LINE_BYTES >> 20
                )));
            }
            Ok(line)
        })
        .collect()
}
