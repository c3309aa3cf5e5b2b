//! The home's lock: readers side by side, one writer at a time, across threads and
//! processes.
//!
//! Two layers, taken in this order and released in the other:
//!
//! - within a process, a gate per home that lets readers in together and a writer in
//!   alone, and shuts new readers out once a writer waits, so that a stream of searches
//!   cannot starve an add;
//! - across processes, an OS file lock on `$ASH_HOME/.lock` (`flock`, shared or
//!   exclusive), released by the kernel if its holder dies.
//!
//! The gate comes first because the OS lock alone would make two threads of one process
//! poll each other, and would let readers overtake a waiting writer for ever.
//!
//! The lock file holds the writer's pid, for the message of a process that waits, then
//! the record of where the last write left the home (`boundary.rs`), for a read that
//! finds the lock taken and goes on without it.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::boundary::{self, Boundary, Record};
use crate::error::Error;

/// What a call may do with the home.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read only, side by side with other readers.
    Read,
    /// Read and write, alone.
    Write,
}

/// Holds the home's lock until dropped.
#[derive(Debug)]
pub struct HomeLock {
    // Field order is drop order: the OS lock goes before the gate lets anyone else in.
    file: File,
    _gate: Pass,
    access: Access,
    /// Whether this holder left the record of where the home stands (`boundary.rs`)
    /// true: recorded it, or wrote nothing that would change it.
    recorded: bool,
}

/// The lock file: the holder's pid on a line of this width, then the record.
const PID_LINE: usize = 12;

impl HomeLock {
    /// Takes the lock of the home at `root`, whose gate is `gate`, for `access`, waiting at
    /// most `timeout`.
    pub(crate) fn take(root: &Path, gate: &Arc<Gate>, access: Access, timeout: Duration) -> Result<HomeLock, Error> {
        let start = Instant::now();
        let pass = gate.enter(access, timeout).ok_or_else(|| busy(root, timeout, ""))?;
        let path = root.join(".lock");
        let file = open_lock_file(&path)?;
        let mut pause = Duration::from_millis(1);
        loop {
            let tried = match access {
                Access::Read => file.try_lock_shared(),
                Access::Write => file.try_lock(),
            };
            match tried {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
            if start.elapsed() >= timeout {
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                return Err(busy(root, timeout, holder.lines().next().unwrap_or("").trim()));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(POLL_AT_MOST);
        }
        if access == Access::Write {
            // Who holds it, for the message another process prints while it waits; at one
            // width, written over rather than cut first (a cut cost 0.13 ms an add, a tenth).
            // The record after it stays for readers while this holder writes.
            let holder = format!("{:<width$}\n", std::process::id(), width = PID_LINE - 1);
            if file.metadata().map(|m| m.len()).ok() != Some((PID_LINE + boundary::LINE_LEN) as u64) {
                // Another host's (or an older version's) pid alone: no record to keep.
                let _ = file.set_len(0);
                let _ = file.write_all_at(format!("{holder}{}", boundary::blank()).as_bytes(), 0);
            } else {
                let _ = file.write_all_at(holder.as_bytes(), 0);
            }
        }
        Ok(HomeLock {
            file,
            _gate: pass,
            access,
            recorded: access == Access::Read,
        })
    }

    /// Takes the lock to read if nobody is writing now; none, at once, otherwise.
    pub(crate) fn try_take_read(root: &Path, gate: &Arc<Gate>) -> Result<Option<HomeLock>, Error> {
        let Some(pass) = gate.try_enter(Access::Read) else {
            return Ok(None);
        };
        let path = root.join(".lock");
        let file = open_lock_file(&path)?;
        match file.try_lock_shared() {
            Ok(()) => Ok(Some(HomeLock {
                file,
                _gate: pass,
                access: Access::Read,
                recorded: true,
            })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(&path, e)),
        }
    }

    /// Records, for readers that find the lock taken, that the home stands at `last` once
    /// this holder's index commits, and stood at the boundary recorded before until then.
    pub(crate) fn record(&mut self, last: Boundary) {
        debug_assert_eq!(self.access, Access::Write, "a reader records nothing");
        let before = read_record(&self.file).map(|r| r.last);
        let line = Record { last, before }.line();
        self.recorded = self.file.write_all_at(line.as_bytes(), PID_LINE as u64).is_ok();
    }

    /// Takes back what [`HomeLock::record`] said: the record is blanked as the lock goes.
    pub(crate) fn forget_record(&mut self) {
        self.recorded = false;
    }

    /// Says that this holder changed nothing: the record it found still stands.
    pub(crate) fn keep_record(&mut self) {
        self.recorded = true;
    }
}

impl Drop for HomeLock {
    /// A writer that did not record where the home stands blanks the record before it lets
    /// go: what it left may be past it (or behind it, after a rollback).
    fn drop(&mut self) {
        if !self.recorded {
            let _ = self.file.write_all_at(boundary::blank().as_bytes(), PID_LINE as u64);
        }
    }
}

/// The record of where the last writes left the home at `root`; none when the last holder
/// of the lock left none.
pub(crate) fn last_record(root: &Path) -> Option<Record> {
    read_record(&File::open(root.join(".lock")).ok()?)
}

fn read_record(file: &File) -> Option<Record> {
    let mut bytes = vec![0; boundary::LINE_LEN];
    file.read_exact_at(&mut bytes, PID_LINE as u64).ok()?;
    Record::parse(&bytes)
}

fn open_lock_file(path: &Path) -> Result<File, Error> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| Error::io(path, e))
}

/// The longest pause between two tries of the OS lock. Short, because a holder that takes
/// it back at once (a server adding without a break) leaves gaps of well under a
/// millisecond: at 50 ms a CLI search beside such a server (static model) took 0.28 s at
/// the 90th percentile, at 2 ms 0.05-0.07 s (docs/performance.md). A try is one system
/// call.
const POLL_AT_MOST: Duration = Duration::from_millis(2);

fn busy(root: &Path, timeout: Duration, holder: &str) -> Error {
    Error::Busy(format!(
        "{} is busy: {}{} has held its lock for over {:.1} s; try again",
        root.display(),
        if holder.is_empty() {
            "another call"
        } else {
            "another process"
        },
        if holder.is_empty() {
            String::new()
        } else {
            format!(" (pid {holder})")
        },
        timeout.as_secs_f64()
    ))
}

/// Who is inside one home's gate in this process.
#[derive(Debug, Default)]
struct Inside {
    readers: usize,
    writer: bool,
    writers_waiting: usize,
}

/// The in-process half of a home's lock.
#[derive(Debug, Default)]
pub(crate) struct Gate {
    inside: Mutex<Inside>,
    changed: Condvar,
}

/// A place inside a gate, given back when dropped.
#[derive(Debug)]
struct Pass {
    gate: Arc<Gate>,
    access: Access,
}

impl Gate {
    /// The gate of the home at `root`, shared by every store of this process open on it
    /// (however its path was spelt).
    pub(crate) fn of(root: &Path) -> Arc<Gate> {
        static GATES: OnceLock<Mutex<HashMap<PathBuf, Weak<Gate>>>> = OnceLock::new();
        let key = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_owned());
        let mut gates = GATES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(gate) = gates.get(&key).and_then(Weak::upgrade) {
            return gate;
        }
        gates.retain(|_, g| g.strong_count() > 0);
        let gate = Arc::new(Gate::default());
        gates.insert(key, Arc::downgrade(&gate));
        gate
    }

    /// Lets `access` in if it may enter now (see [`Gate::enter`]).
    fn try_enter(self: &Arc<Self>, access: Access) -> Option<Pass> {
        self.enter(access, Duration::ZERO)
    }

    /// Waits (at most `timeout`) until `access` may enter: a reader when no writer is in
    /// or waiting, a writer when nobody is in.
    fn enter(self: &Arc<Self>, access: Access, timeout: Duration) -> Option<Pass> {
        let deadline = Instant::now() + timeout;
        let mut inside = self.inside.lock().unwrap_or_else(|p| p.into_inner());
        if access == Access::Write {
            inside.writers_waiting += 1;
        }
        loop {
            let free = match access {
                Access::Read => !inside.writer && inside.writers_waiting == 0,
                Access::Write => !inside.writer && inside.readers == 0,
            };
            if free {
                match access {
                    Access::Read => inside.readers += 1,
                    Access::Write => {
                        inside.writers_waiting -= 1;
                        inside.writer = true;
                    }
                }
                return Some(Pass {
                    gate: Arc::clone(self),
                    access,
                });
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                if access == Access::Write {
                    inside.writers_waiting -= 1;
                    // Readers held back for this writer may go in now.
                    self.changed.notify_all();
                }
                return None;
            }
            inside = self
                .changed
                .wait_timeout(inside, left)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        let mut inside = self.gate.inside.lock().unwrap_or_else(|p| p.into_inner());
        match self.access {
            Access::Read => inside.readers -= 1,
            Access::Write => inside.writer = false,
        }
        self.gate.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_share_and_a_writer_waits_for_them() {
        let dir = tempfile::tempdir().unwrap();
        let short = Duration::from_millis(50);
        let a = HomeLock::take(dir.path(), &Gate::of(dir.path()), Access::Read, short).unwrap();
        let b = HomeLock::take(dir.path(), &Gate::of(dir.path()), Access::Read, short).unwrap();
        assert!(matches!(
            HomeLock::take(dir.path(), &Gate::of(dir.path()), Access::Write, short),
            Err(Error::Busy(_))
        ));
        drop((a, b));
        let _w = HomeLock::take(dir.path(), &Gate::of(dir.path()), Access::Write, short).unwrap();
        assert!(HomeLock::take(dir.path(), &Gate::of(dir.path()), Access::Read, short).is_err());
    }

    fn boundary(stamp: u64) -> Boundary {
        Boundary {
            stamp,
            states: vec![
                ash_memory_files::FileState { generation: 1, end: 2 };
                ash_memory_files::Collection::ALL.len()
            ],
        }
    }

    /// The record stays while a writer works, stands when a writer records it and is
    /// blanked by any other writer; another host's pid alone leaves none.
    #[test]
    fn only_a_writer_that_recorded_leaves_a_record() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = || HomeLock::take(root, &Gate::of(root), Access::Write, Duration::from_millis(50)).unwrap();
        assert_eq!(last_record(root), None);
        let mut first = write();
        first.record(boundary(1));
        drop(first);
        let only = |stamp| {
            Some(Record {
                last: boundary(stamp),
                before: None,
            })
        };
        assert_eq!(last_record(root), only(1));
        let second = write();
        assert_eq!(last_record(root), only(1), "kept while the next one writes");
        // Neither a reader that would take the lock, nor a writer waiting, gets in.
        assert!(HomeLock::try_take_read(root, &Gate::of(root)).unwrap().is_none());
        let message = HomeLock::take(root, &Gate::of(root), Access::Write, Duration::ZERO).unwrap_err();
        assert!(message.to_string().contains("another call"), "{message}");
        drop(second);
        assert_eq!(last_record(root), None, "a writer that did not record blanks it");
        let mut unchanged = write();
        unchanged.keep_record();
        drop(unchanged);
        assert_eq!(last_record(root), None);
        // Recorded, then taken back (its index failed to commit): blanked.
        let mut failed = write();
        failed.record(boundary(2));
        failed.forget_record();
        drop(failed);
        assert_eq!(last_record(root), None);
        let mut third = write();
        third.record(boundary(3));
        drop(third);
        assert_eq!(last_record(root), only(3));
        let mut next = write();
        next.record(boundary(5));
        assert_eq!(
            last_record(root),
            Some(Record {
                last: boundary(5),
                before: Some(boundary(3)),
            }),
            "the boundary before stays beside it"
        );
        drop(next);
        assert!(HomeLock::try_take_read(root, &Gate::of(root)).unwrap().is_some());
        // Another host cuts the file to its pid.
        std::fs::write(root.join(".lock"), "4242").unwrap();
        assert_eq!(last_record(root), None);
        let mut fourth = write();
        assert_eq!(last_record(root), None);
        fourth.record(boundary(4));
        drop(fourth);
        assert_eq!(last_record(root), only(4));
    }

    /// A lock file of junk, however long (a hand, a disk error), holds no record; the
    /// next writer makes it its own layout again.
    #[test]
    fn a_lock_file_of_junk_holds_no_record() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let junk: Vec<u8> = (0..1 << 20).map(|i: u32| (i % 251) as u8).collect();
        std::fs::write(root.join(".lock"), &junk).unwrap();
        assert_eq!(last_record(root), None);
        let mut writer = HomeLock::take(root, &Gate::of(root), Access::Write, Duration::from_millis(50)).unwrap();
        let len = std::fs::metadata(root.join(".lock")).unwrap().len();
        assert_eq!(len, (PID_LINE + boundary::LINE_LEN) as u64);
        assert_eq!(last_record(root), None);
        writer.record(boundary(6));
        drop(writer);
        assert_eq!(last_record(root).map(|r| r.last), Some(boundary(6)));
    }

    /// Another process waiting for a writer names its pid alone, not the record after it.
    #[test]
    fn a_busy_message_names_the_holders_pid() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_owned();
        let mut holder = HomeLock::take(&root, &Gate::of(&root), Access::Write, Duration::from_secs(1)).unwrap();
        holder.record(boundary(9));
        // Another process: its own open file description, outside this process's gate.
        let file = open_lock_file(&root.join(".lock")).unwrap();
        assert!(file.try_lock_shared().is_err());
        let gate = Arc::new(Gate::default());
        let e = HomeLock::take(&root, &gate, Access::Read, Duration::from_millis(20)).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(&format!("(pid {})", std::process::id())), "{text}");
        assert!(!text.contains("committed"), "{text}");
    }

    #[test]
    fn a_waiting_writer_holds_new_readers_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_owned();
        let reader = HomeLock::take(&root, &Gate::of(&root), Access::Read, Duration::from_secs(5)).unwrap();
        let writer = {
            let root = root.clone();
            std::thread::spawn(move || {
                HomeLock::take(&root, &Gate::of(&root), Access::Write, Duration::from_secs(5)).map(|_| ())
            })
        };
        // Wait until the writer is queued at the gate.
        let gate = Gate::of(&root);
        while gate.inside.lock().unwrap().writers_waiting == 0 {
            std::thread::yield_now();
        }
        assert!(
            HomeLock::take(&root, &Gate::of(&root), Access::Read, Duration::from_millis(50)).is_err(),
            "a new reader waits behind the writer"
        );
        drop(reader);
        writer.join().unwrap().unwrap();
        HomeLock::take(&root, &Gate::of(&root), Access::Read, Duration::from_millis(50)).unwrap();
    }
}
