//! Where the last write left the home, for reads that find a writer holding the lock.
//!
//! A write that commits records, once its files and its index stand, the state of every
//! collection and the stamp of its index transaction in the lock file, after the holder's
//! pid (`HomeLock::record`). A read that finds the lock taken pins the files at those
//! states and reads the index in a snapshot holding the same stamp: the home between the
//! last two writes, whatever the writer under way has half written since. Every other
//! holder of the lock blanks the record as it lets go (a write that failed, a migration),
//! and another host cuts the file to its pid: a read that finds no record waits for the
//! lock as before. A writer killed before it recorded leaves the record of the write
//! before it, which still describes the home up to where that write left it: what the
//! killed one wrote after was never acknowledged, and if its index committed, the stamps
//! differ.

use ash_memory_files::{Collection, FileState};

/// The home as one write left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Boundary {
    /// The stamp of the write's index transaction (`SqliteIndex::set_stamp`).
    pub(crate) stamp: u64,
    /// Every collection's state, in `Collection::ALL`'s order.
    pub(crate) states: Vec<FileState>,
}

/// The record's first word.
const TAG: &str = "committed";

/// Numbers in the record: the stamp, two per collection and a check.
const NUMBERS: usize = 2 + 2 * Collection::ALL.len();

/// The record's length, its `\n` included: every number in 16 hex digits after a space.
pub(crate) const LINE_LEN: usize = TAG.len() + NUMBERS * 17 + 1;

impl Boundary {
    /// The record as it is written: one line of `LINE_LEN` bytes.
    pub(crate) fn line(&self) -> String {
        let numbers = self.numbers();
        let mut line = String::with_capacity(LINE_LEN);
        line.push_str(TAG);
        for n in numbers.iter().chain([&check(&numbers)]) {
            line.push_str(&format!(" {n:016x}"));
        }
        line.push('\n');
        debug_assert_eq!(line.len(), LINE_LEN);
        line
    }

    /// A record read back; none when it is blank, cut, torn by a write beside the read
    /// (its check fails) or of another layout.
    pub(crate) fn parse(bytes: &[u8]) -> Option<Boundary> {
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
        let states = numbers[1..]
            .chunks(2)
            .map(|pair| FileState {
                generation: pair[0],
                end: pair[1],
            })
            .collect();
        Some(Boundary {
            stamp: numbers[0],
            states,
        })
    }

    fn numbers(&self) -> Vec<u64> {
        let mut numbers = Vec::with_capacity(NUMBERS - 1);
        numbers.push(self.stamp);
        for state in &self.states {
            numbers.extend([state.generation, state.end]);
        }
        numbers
    }
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

    fn boundary() -> Boundary {
        Boundary {
            stamp: 0xdead_beef,
            states: (0..Collection::ALL.len() as u64)
                .map(|i| FileState {
                    generation: u64::MAX - i,
                    end: 1000 * i,
                })
                .collect(),
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let line = boundary().line();
        assert_eq!(line.len(), LINE_LEN);
        assert_eq!(Boundary::parse(line.as_bytes()), Some(boundary()));
    }

    #[test]
    fn a_blank_cut_or_torn_record_is_none() {
        let line = boundary().line();
        assert_eq!(Boundary::parse(blank().as_bytes()), None);
        assert_eq!(Boundary::parse(&line.as_bytes()[..LINE_LEN - 1]), None);
        assert_eq!(Boundary::parse(b""), None);
        // Half of a newer record written over an older one: every number well formed.
        let mut newer = boundary();
        newer.stamp = 7;
        newer.states[0].end = 99;
        let (old, new) = (line.as_bytes(), newer.line());
        let torn: Vec<u8> = old[..LINE_LEN / 2]
            .iter()
            .chain(&new.as_bytes()[LINE_LEN / 2..])
            .copied()
            .collect();
        let mut one_end = line.clone().into_bytes();
        one_end[30] = if one_end[30] == b'0' { b'1' } else { b'0' };
        for bytes in [torn, one_end] {
            assert_eq!(Boundary::parse(&bytes), None, "{}", String::from_utf8_lossy(&bytes));
        }
    }
}
