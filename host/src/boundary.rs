//! Where the last write left the home, for reads that find a writer holding the lock.
//!
//! A write that commits records, once its files stand and before its index commits, the
//! state of every collection and the stamp of its index transaction in the lock file,
//! after the holder's pid (`HomeLock::record`), beside the boundary the write before it
//! recorded. A read that finds the lock taken opens an index snapshot and pins the files
//! at the states of the boundary whose stamp the snapshot holds: the home between two
//! writes, whatever the writer under way has half written since. A writer that changed
//! nothing leaves the record as it found it; every other holder of the write lock blanks
//! it as it lets go (a write whose index failed to commit, a migration), and another host
//! cuts the file to its pid: a read that finds no record, or neither stamp, waits for the
//! lock as before. Readers never touch it. A writer killed after it recorded leaves both
//! boundaries, of which its index holds one.

use ash_memory_files::{Collection, FileState};

/// The home as one write left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Boundary {
    /// The stamp of the write's index transaction (`SqliteIndex::set_stamp`); never 0.
    pub(crate) stamp: u64,
    /// Every collection's state, in `Collection::ALL`'s order.
    pub(crate) states: Vec<FileState>,
}

/// What the lock file records: the last write's boundary and the one before it. A write
/// records before its index commits (the commit's checkpoint may take milliseconds after
/// its changes are seen), so a reader's snapshot holds either stamp for a moment, and
/// each has the files' states that go with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Record {
    pub(crate) last: Boundary,
    pub(crate) before: Option<Boundary>,
}

/// The record's first word.
const TAG: &str = "committed";

/// Numbers of one boundary: the stamp and two per collection.
const PER_BOUNDARY: usize = 1 + 2 * Collection::ALL.len();

/// Numbers in the record: two boundaries and a check.
const NUMBERS: usize = 2 * PER_BOUNDARY + 1;

/// The record's length, its `\n` included: every number in 16 hex digits after a space.
pub(crate) const LINE_LEN: usize = TAG.len() + NUMBERS * 17 + 1;

impl Record {
    /// The files' states that go with an index snapshot holding `stamp`, if either
    /// boundary is its.
    pub(crate) fn states_at(&self, stamp: u64) -> Option<&[FileState]> {
        [Some(&self.last), self.before.as_ref()]
            .into_iter()
            .flatten()
            .find(|b| b.stamp == stamp)
            .map(|b| b.states.as_slice())
    }

    /// The record as it is written: one line of `LINE_LEN` bytes.
    pub(crate) fn line(&self) -> String {
        let mut all = numbers(Some(&self.last));
        all.extend(numbers(self.before.as_ref()));
        let mut line = String::with_capacity(LINE_LEN);
        line.push_str(TAG);
        for n in all.iter().chain([&check(&all)]) {
            line.push_str(&format!(" {n:016x}"));
        }
        line.push('\n');
        debug_assert_eq!(line.len(), LINE_LEN);
        line
    }

    /// A record read back; none when it is blank, cut, torn by a write beside the read
    /// (its check fails) or of another layout.
    pub(crate) fn parse(bytes: &[u8]) -> Option<Record> {
        let line = std::str::from_utf8(bytes.get(..LINE_LEN)?).ok()?;
        let mut words = line.strip_suffix('\n')?.split(' ');
        if words.next()? != TAG {
            return None;
        }
        let mut numbers = Vec::with_capacity(NUMBERS);
        for word in words {
            if word.len() != 16 {
                return None;
            }
            numbers.push(u64::from_str_radix(word, 16).ok()?);
        }
        let sum = numbers.pop()?;
        if numbers.len() != NUMBERS - 1 || check(&numbers) != sum {
            return None;
        }
        let (last, before) = numbers.split_at(PER_BOUNDARY);
        Some(Record {
            last: boundary(last)?,
            before: boundary(before),
        })
    }
}

/// A boundary's numbers; zeros for none (no stamp is 0).
fn numbers(boundary: Option<&Boundary>) -> Vec<u64> {
    let Some(b) = boundary else {
        return vec![0; PER_BOUNDARY];
    };
    let mut numbers = Vec::with_capacity(PER_BOUNDARY);
    numbers.push(b.stamp);
    for state in &b.states {
        numbers.extend([state.generation, state.end]);
    }
    numbers
}

/// The boundary of `PER_BOUNDARY` numbers; none for a stamp of 0.
fn boundary(numbers: &[u64]) -> Option<Boundary> {
    let (&stamp, states) = numbers.split_first()?;
    if stamp == 0 || states.len() != 2 * Collection::ALL.len() {
        return None;
    }
    Some(Boundary {
        stamp,
        states: states
            .chunks(2)
            .map(|pair| FileState {
                generation: pair[0],
                end: pair[1],
            })
            .collect(),
    })
}

/// What a record no write left reads as: spaces, with the line's `\n`.
pub(crate) fn blank() -> String {
    let mut line = " ".repeat(LINE_LEN - 1);
    line.push('\n');
    line
}

/// A check of the numbers (FNV-1a over their bytes): a record read while it is written
/// over may hold half of each.
fn check(numbers: &[u64]) -> u64 {
    numbers
        .iter()
        .flat_map(|n| n.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boundary(stamp: u64) -> Boundary {
        Boundary {
            stamp,
            states: (0..Collection::ALL.len() as u64)
                .map(|i| FileState {
                    generation: u64::MAX - i - stamp,
                    end: 1000 * i + stamp,
                })
                .collect(),
        }
    }

    fn record() -> Record {
        Record {
            last: boundary(0xdead_beef),
            before: Some(boundary(7)),
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        for record in [
            record(),
            Record {
                last: boundary(3),
                before: None,
            },
        ] {
            let line = record.line();
            assert_eq!(line.len(), LINE_LEN);
            assert_eq!(Record::parse(line.as_bytes()), Some(record));
        }
    }

    #[test]
    fn either_boundary_goes_with_a_snapshot_of_its_stamp() {
        let record = record();
        assert_eq!(
            record.states_at(0xdead_beef),
            Some(boundary(0xdead_beef).states.as_slice())
        );
        assert_eq!(record.states_at(7), Some(boundary(7).states.as_slice()));
        assert_eq!(record.states_at(8), None);
        assert_eq!(record.states_at(0), None, "no stamp is 0");
    }

    #[test]
    fn a_blank_cut_or_torn_record_is_none() {
        let line = record().line();
        assert_eq!(Record::parse(blank().as_bytes()), None);
        assert_eq!(Record::parse(&line.as_bytes()[..LINE_LEN - 1]), None);
        assert_eq!(Record::parse(b""), None);
        // Half of a newer record written over an older one: every number well formed.
        let newer = Record {
            last: boundary(9),
            before: Some(boundary(0xdead_beef)),
        };
        let (old, new) = (line.as_bytes(), newer.line());
        let torn: Vec<u8> = old[..LINE_LEN / 2]
            .iter()
            .chain(&new.as_bytes()[LINE_LEN / 2..])
            .copied()
            .collect();
        let mut one_end = line.clone().into_bytes();
        one_end[30] = if one_end[30] == b'0' { b'1' } else { b'0' };
        for bytes in [torn, one_end] {
            assert_eq!(Record::parse(&bytes), None, "{}", String::from_utf8_lossy(&bytes));
        }
    }
}
