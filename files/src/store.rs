//! The collections of one home: reads that notice a replaced file, whole-line appends,
//! atomic replaces and quarantine, each write inside the call's transaction (`journal`).

use base64::Engine as _;

use crate::fs::{self, File as _, FileSystem, Open, Stat};
use crate::journal::{Before, Journal};
use crate::{Chunk, Collection, FileError, FileState, mix, paths};

/// How many bytes of a replacement are written at a time.
const REPLACE_CHUNK: usize = 1 << 20;

/// The JSONL files of one home.
#[derive(Debug)]
pub struct FileStore<F: FileSystem> {
    pub(crate) fs: F,
    pub(crate) journal: Journal,
    /// Each collection's token, as read since the last commit or rollback. Every host
    /// holds the home's lock from the rollback that begins a call (or its return after a
    /// remote service) to the commit that ends it, so no other process changes a token in
    /// between; a file system call each time (a call out of the sandbox, in the other
    /// hosts) would be spent for nothing.
    tokens: [Option<u64>; Collection::ALL.len()],
    /// Set for a call begun as a read: what `read` would write (the raw bytes of lines
    /// that are not UTF-8, to quarantine) is refused instead.
    pub read_only: bool,
    /// Each collection's file as [`FileStore::pin`] found it, for a read that holds no lock.
    pinned: Option<Pinned<F::File>>,
    /// A line the call appended and that is not written yet (see [`FileStore::append`]).
    held: Option<Held<F::File>>,
    /// Whether a call's one line is held for its commit ([`FileStore::holding_lone_lines`]).
    hold_lone_lines: bool,
    /// Why a held line the call was told it appended could not be written: the call can
    /// only fail now, whatever it does next, and its commit says so.
    lost: Option<(Collection, FileError)>,
}

/// One line held back until the call commits or touches the files again.
struct Held<File> {
    collection: Collection,
    /// The collection, open to append.
    file: File,
    /// Where the bytes go: the collection's length when they were held.
    at: u64,
    /// The line and its `\n`, after a `\n` that ends an unterminated last line.
    bytes: String,
}

impl<File> std::fmt::Debug for Held<File> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Held")
            .field("collection", &self.collection)
            .field("at", &self.at)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// Each collection's open file and where it stood when pinned; none for a missing one.
struct Pinned<File>(Vec<Option<(File, Stat)>>);

impl<File> std::fmt::Debug for Pinned<File> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stats: Vec<Option<&Stat>> = self.0.iter().map(|p| p.as_ref().map(|(_, stat)| stat)).collect();
        f.debug_tuple("Pinned").field(&stats).finish()
    }
}

impl<F: FileSystem> FileStore<F> {
    /// The collections on this file system; nothing is opened until first use.
    pub fn new(fs: F) -> Self {
        FileStore {
            fs,
            journal: Journal::default(),
            tokens: [None; Collection::ALL.len()],
            read_only: false,
            pinned: None,
            held: None,
            hold_lone_lines: false,
            lost: None,
        }
    }

    /// Holds a call's one line for its commit, written then without the journal (see
    /// [`FileStore::append`]). Only for a host whose other writes in the call (its index)
    /// commit after the files, so that nothing refers to the line before it is written.
    pub fn holding_lone_lines(mut self) -> Self {
        self.hold_lone_lines = true;
        self
    }

    /// Whether a line is held for the commit: what the call writes now elsewhere must not
    /// stand before it does.
    pub fn holds_a_line(&self) -> bool {
        self.held.is_some()
    }

    /// Pins every collection where it stands now, for a read that then lets the home's
    /// lock go: until [`FileStore::unpin`], reads and states are those of this moment,
    /// whatever is appended or replaced after (a replaced file is still read through the
    /// handle opened here). Call it holding the lock, with no transaction to recover.
    pub fn pin(&mut self) -> Result<(), FileError> {
        debug_assert!(
            !self.journal.is_active() && self.held.is_none(),
            "a read pinned inside a write"
        );
        self.pinned = None;
        self.forget_tokens();
        let mut files = Vec::with_capacity(Collection::ALL.len());
        for c in Collection::ALL {
            self.token(c);
            files.push(self.open_to_pin(c)?);
        }
        self.pinned = Some(Pinned(files));
        Ok(())
    }

    /// A collection's file opened to read, with its length and identity now; none when
    /// it is missing.
    fn open_to_pin(&mut self, c: Collection) -> Result<Option<(F::File, Stat)>, FileError> {
        match self.fs.open(paths::collection(c), Open::Read) {
            Ok(mut file) => {
                let stat = file.stat()?;
                Ok(Some((file, stat)))
            }
            Err(fs::FsError::NotFound(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Pins every collection where `states` says it stood (in [`Collection::ALL`]'s order),
    /// for a read that never took the home's lock: a writer may be appending meanwhile,
    /// and nothing past those ends is read. False, pinning nothing, when a collection is
    /// no longer that incarnation or is shorter: the read must wait for the lock then.
    ///
    /// Each file is opened before its token is read: a replace writes the new token before
    /// it renames the new file in, so a file opened before the rename is checked against
    /// the old token or found changed, and one opened after finds the new token.
    pub fn pin_at(&mut self, states: &[FileState]) -> Result<bool, FileError> {
        self.unpin();
        if states.len() != Collection::ALL.len() {
            return Ok(false);
        }
        let mut files = Vec::with_capacity(Collection::ALL.len());
        for (c, want) in Collection::ALL.into_iter().zip(states) {
            let file = self.open_to_pin(c)?;
            self.tokens[c.position()] = None;
            let token = self.token(c);
            let pinned = match file {
                // Missing when recorded: made since, it is read as still missing.
                _ if want.end == 0 && mix(&[token, 0, 0]) == want.generation => None,
                Some((file, stat)) if stat.len >= want.end && mix(&[token, stat.ino, stat.dev]) == want.generation => {
                    Some((file, Stat { len: want.end, ..stat }))
                }
                _ => {
                    self.forget_tokens();
                    return Ok(false);
                }
            };
            files.push(pinned);
        }
        self.pinned = Some(Pinned(files));
        Ok(true)
    }

    /// Whether the files are pinned.
    pub fn pinned(&self) -> bool {
        self.pinned.is_some()
    }

    /// Lets the pinned files go: reads see the files as they are again.
    pub fn unpin(&mut self) {
        if self.pinned.take().is_some() {
            self.forget_tokens();
        }
    }

    /// A collection's bytes from `offset` to its end, with its length and identity: the
    /// pinned file's, up to where it stood, or the file's now.
    fn read_from(&mut self, c: Collection, offset: u64) -> Result<Option<(Stat, Vec<u8>)>, FileError> {
        let Some(Pinned(files)) = &mut self.pinned else {
            return Ok(self.fs.read_from(paths::collection(c), offset)?);
        };
        let Some((file, stat)) = &mut files[c.position()] else {
            return Ok(None);
        };
        let bytes = if offset <= stat.len {
            file.read_at(offset, Some(stat.len - offset))?
        } else {
            Vec::new()
        };
        Ok(Some((*stat, bytes)))
    }

    /// The file system underneath.
    pub fn file_system(&mut self) -> &mut F {
        &mut self.fs
    }

    /// The random token of the collection's current incarnation (0 before the first
    /// replace).
    pub(crate) fn token(&mut self, c: Collection) -> u64 {
        if let Some(token) = self.tokens[c.position()] {
            return token;
        }
        let token = self
            .fs
            .read_whole(&paths::token(c))
            .ok()
            .flatten()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        self.tokens[c.position()] = Some(token);
        token
    }

    /// Forgets the tokens read: the lock may pass to another process after this.
    pub(crate) fn forget_tokens(&mut self) {
        self.tokens = [None; Collection::ALL.len()];
    }

    /// Gives the collection a new random token, so that its generation is one never
    /// handed out before. Written (and flushed) before the change it announces: a crash in
    /// between only makes readers read again.
    pub(crate) fn new_token(&mut self, c: Collection) -> Result<(), FileError> {
        let token = self.fs.random_u64();
        // Unknown until written: a failed write may or may not have replaced the file.
        self.tokens[c.position()] = None;
        fs::write_atomically(&mut self.fs, &paths::token(c), token.to_string().as_bytes())?;
        self.tokens[c.position()] = Some(token);
        Ok(())
    }

    /// The generation: the random token, the inode and the device. The token changes at
    /// every replace and rollback (inode numbers alone come back: ext4 hands the same one
    /// out again after two renames); the inode catches a file deleted and made anew by hand.
    fn generation(&mut self, c: Collection, stat: Stat) -> u64 {
        mix(&[self.token(c), stat.ino, stat.dev])
    }

    /// Where the collection stands now. A missing file is empty, with a generation of its
    /// own (creating it changes the generation).
    pub fn state(&mut self, c: Collection) -> Result<FileState, FileError> {
        self.write_held_of(c)?;
        let stat = match &self.pinned {
            Some(Pinned(files)) => files[c.position()].as_ref().map(|(_, stat)| *stat),
            None => self.fs.stat(paths::collection(c))?,
        };
        match stat {
            Some(stat) => Ok(FileState {
                generation: self.generation(c, stat),
                end: stat.len,
            }),
            None => Ok(FileState {
                generation: mix(&[self.token(c), 0, 0]),
                end: 0,
            }),
        }
    }

    /// Reads from `from` to the end; see `read` in `wit/files.wit`.
    pub fn read(&mut self, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError> {
        self.write_held_of(c)?;
        let path = paths::collection(c);
        let offset = if generation.is_some() { from } else { 0 };
        let mut read = self.read_from(c, offset)?;
        let mut start = offset;
        if let Some((stat, _)) = &read
            && start > 0
            && (generation != Some(self.generation(c, *stat)) || from > stat.len)
        {
            // Another file than the reader's, or a shorter one: all of it.
            read = self.read_from(c, 0)?;
            start = 0;
        }
        let Some((stat, bytes)) = read else {
            // Missing: empty, with the generation `state` gives a missing file.
            return Ok(Chunk {
                data: String::new(),
                end: 0,
                generation: mix(&[self.token(c), 0, 0]),
            });
        };
        let current = self.generation(c, stat);
        let end = start + bytes.len() as u64;
        tracing::debug!(
            "files: read {} bytes of {} from offset {start}",
            bytes.len(),
            paths::file_name(path)
        );
        let data = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => self.set_aside_invalid_utf8(c, e.into_bytes())?,
        };
        Ok(Chunk {
            data,
            end,
            generation: current,
        })
    }

    /// A WIT string must be UTF-8, so lines that are not cannot reach the guest intact.
    /// Their raw bytes go to the quarantine file (base64) here; the guest receives in their
    /// place a line that is not a record, quarantines it as usual and rewrites the
    /// collection without it, so the bad bytes leave the collection once, not every call.
    fn set_aside_invalid_utf8(&mut self, c: Collection, bytes: Vec<u8>) -> Result<String, FileError> {
        let path = paths::collection(c);
        if self.read_only {
            return Err(FileError::ReadOnly(format!(
                "{path}: lines that are not UTF-8 are set aside by a write"
            )));
        }
        let now = self.fs.now_rfc3339();
        let mut records = Vec::new();
        let mut text = String::with_capacity(bytes.len());
        for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
            if i > 0 {
                text.push('\n');
            }
            match std::str::from_utf8(line) {
                Ok(s) => text.push_str(s),
                Err(_) => {
                    records.push(
                        serde_json::json!({
                            "quarantined_at": now,
                            "reason": "not valid UTF-8",
                            "line_base64": base64::engine::general_purpose::STANDARD.encode(line),
                        })
                        .to_string(),
                    );
                    text.push_str("\u{FFFD} a line that was not valid UTF-8; its bytes are in the quarantine file");
                }
            }
        }
        self.append_raw(&paths::quarantine(c), &records)?;
        tracing::warn!("{path}: {} line(s) were not UTF-8 and were quarantined", records.len());
        Ok(text)
    }

    /// Appends whole lines in one write and flushes them to disk; ends an unterminated
    /// last line first, so that nothing is glued onto it.
    ///
    /// Holding lone lines ([`FileStore::holding_lone_lines`]), a call's first write, when it
    /// is one line to a collection that exists, is held instead: written when the call
    /// commits, flushed, without the journal, if the call
    /// writes nothing else (an add's usual write: one flush, not three). One line is whole
    /// or torn, and a torn last line (a power cut in the middle of the write) is
    /// quarantined by its next reader, so the line needs no rollback. Anything else the
    /// call then does with that collection, or a second write, writes the line first inside
    /// the journal, as every write of a call of several is.
    pub fn append(&mut self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        check_lines(lines)?;
        if lines.is_empty() {
            return self.state(c);
        }
        if let [line] = lines
            && self.hold_lone_lines
            && self.held.is_none()
            && self.lost.is_none()
            && !self.journal.is_active()
            && self.pinned.is_none()
            && let Some(state) = self.hold(c, line)?
        {
            return Ok(state);
        }
        self.write_held()?;
        self.begin()?;
        let (mut file, at, bytes) = self.open_to_append(c, lines)?;
        self.write_lines(c, &mut file, at, &bytes)?;
        self.state(c)
    }

    /// The collection open to append, its length, and the bytes that append `lines` to
    /// it: each line and its `\n`, after a `\n` that ends an unterminated last line.
    fn open_to_append<S: AsRef<str>>(
        &mut self,
        c: Collection,
        lines: &[S],
    ) -> Result<(F::File, u64, String), FileError> {
        // Read access too: the last byte tells whether the file ends its last line.
        let mut file = self.fs.open(paths::collection(c), Open::Append)?;
        let at = file.stat()?.len;
        let mut bytes = String::with_capacity(lines.iter().map(|l| l.as_ref().len() + 1).sum::<usize>() + 1);
        if at > 0 && file.read_at(at - 1, Some(1))? != b"\n" {
            bytes.push('\n');
        }
        for line in lines {
            bytes.push_str(line.as_ref());
            bytes.push('\n');
        }
        Ok((file, at, bytes))
    }

    /// Holds `line` for the call's commit, if the collection exists (a file made anew is
    /// written at once, in the journal, which removes it on a rollback), and answers where
    /// the collection will stand.
    fn hold(&mut self, c: Collection, line: &str) -> Result<Option<FileState>, FileError> {
        let Some(stat) = self.fs.stat(paths::collection(c))? else {
            return Ok(None);
        };
        let (file, at, bytes) = self.open_to_append(c, &[line])?;
        let state = FileState {
            generation: self.generation(c, stat),
            end: at + bytes.len() as u64,
        };
        self.held = Some(Held {
            collection: c,
            file,
            at,
            bytes,
        });
        Ok(Some(state))
    }

    /// Drops the held or lost line, the call undone: the collection it was for, which the
    /// rollback gives a new generation once the journal's cuts are made (the guest was
    /// told where the collection would end, and must read again rather than read on from
    /// there; a token changed before a cut would make the cut pass the file by).
    pub(crate) fn forget_held(&mut self) -> Option<Collection> {
        let lost = self.lost.take().map(|(c, _)| c);
        self.held.take().map(|h| h.collection).or(lost)
    }

    /// Records that a held line of `c` could not be written (`e`): the call can only fail.
    fn lose(&mut self, c: Collection, e: &FileError) {
        self.lost = Some((c, e.clone()));
    }

    /// Writes the held line, if it is of `c`, inside the journal.
    fn write_held_of(&mut self, c: Collection) -> Result<(), FileError> {
        if self.held.as_ref().is_some_and(|h| h.collection == c) {
            self.write_held()?;
        }
        Ok(())
    }

    /// Writes the held line inside the journal: the call does more with the files, so its
    /// writes are one transaction, rolled back together.
    fn write_held(&mut self) -> Result<(), FileError> {
        let Some(mut held) = self.held.take() else {
            return Ok(());
        };
        // The journal records the files as they stand: the line is not written yet.
        let c = held.collection;
        let written = self
            .begin()
            .and_then(|()| self.write_lines(c, &mut held.file, held.at, &held.bytes));
        if let Err(e) = &written {
            // What the journal began, the line included, is cut by the call's rollback.
            self.lose(c, e);
        }
        written
    }

    /// Writes `bytes` at the end of the collection (`at`) and flushes them, with the
    /// crash tests' steps.
    fn write_lines(&mut self, c: Collection, file: &mut F::File, at: u64, bytes: &str) -> Result<(), FileError> {
        let name = format!("append:{}", c.name());
        self.fs.fault_point(&format!("{name}:before"))?;
        if self.fs.torn(&format!("{name}:torn")) {
            let _ = file.write_at(at, &bytes.as_bytes()[..bytes.len() / 2]);
            self.fs.abort(&name);
        }
        file.write_at(at, bytes.as_bytes())?;
        self.fs.fault_point(&format!("{name}:written"))?;
        file.sync_data()?;
        self.fs.fault_point(&format!("{name}:synced"))?;
        Ok(())
    }

    /// Appends lines to a file that is not a collection (quarantine), flushed.
    fn append_raw(&mut self, path: &str, lines: &[String]) -> Result<(), FileError> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut buf = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            buf.push_str(line);
            buf.push('\n');
        }
        let mut file = self.fs.open(path, Open::Append)?;
        file.write_at(0, buf.as_bytes())?;
        Ok(file.sync_data()?)
    }

    /// Replaces a collection atomically: temp file, fsync, new token, rename, fsync the
    /// folder. A commit point of the call's transaction.
    pub fn replace(&mut self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        check_lines(lines)?;
        self.write_held()?;
        self.begin()?;
        let path = paths::collection(c);
        let tmp = paths::with_file_name(
            path,
            &format!(".{}.tmp-{}", paths::file_name(path), self.fs.process_id()),
        );
        let result = self.write_replacement(c, lines, &tmp);
        if result.is_err() {
            let _ = self.fs.remove(&tmp);
        }
        result?;
        // A new baseline, so that appends after the rewrite still roll back.
        let states = self.states()?;
        self.journal.record(&mut self.fs, &states, None, &[])?;
        self.state(c)
    }

    fn write_replacement(&mut self, c: Collection, lines: &[String], tmp: &str) -> Result<(), FileError> {
        let path = paths::collection(c);
        let point = format!("replace:{}", c.name());
        self.fs.fault_point(&format!("{point}:before"))?;
        // Written a megabyte at a time: a collection of many megabytes is not copied whole.
        let mut file = self.fs.open(tmp, Open::Create)?;
        let (mut buf, mut at) = (String::with_capacity(REPLACE_CHUNK + 4096), 0u64);
        for line in lines {
            buf.push_str(line);
            buf.push('\n');
            if buf.len() >= REPLACE_CHUNK {
                file.write_at(at, buf.as_bytes())?;
                at += buf.len() as u64;
                buf.clear();
            }
        }
        file.write_at(at, buf.as_bytes())?;
        file.sync_all()?;
        drop(file);
        self.fs.fault_point(&format!("{point}:temp-written"))?;
        // The commit point, recorded before the rename: what the call appended so far
        // (the archive copy of what this rewrite drops) must survive a crash from here on.
        // A crash before the rename then leaves a copy in both places, never in neither.
        let states = self.states()?;
        self.journal.record(&mut self.fs, &states, Some((c, tmp)), &[])?;
        self.new_token(c)?;
        self.fs.fault_point(&format!("{point}:token"))?;
        self.fs.rename(tmp, path)?;
        self.fs.fault_point(&format!("{point}:renamed"))?;
        Ok(self.fs.sync_dir(paths::parent(path))?)
    }

    /// Keeps unparseable lines, with the reason and time, in the quarantine file. Never
    /// rolled back: extra copies of a line are harmless, a lost one is not.
    pub fn quarantine(&mut self, c: Collection, lines: &[String], reason: &str) -> Result<(), FileError> {
        let now = self.fs.now_rfc3339();
        let records: Vec<String> = lines
            .iter()
            .map(|line| serde_json::json!({"quarantined_at": now, "reason": reason, "line": line}).to_string())
            .collect();
        let path = paths::quarantine(c);
        self.append_raw(&path, &records)?;
        tracing::warn!("{} line(s) quarantined in {path}", lines.len());
        Ok(())
    }

    /// Where every collection stands, with its token.
    pub(crate) fn states(&mut self) -> Result<Vec<Before>, FileError> {
        Collection::ALL
            .iter()
            .map(|&c| {
                Ok(Before {
                    collection: c,
                    state: self.state(c)?,
                    // Read once a call: `state` just read it.
                    token: Some(self.token(c)),
                })
            })
            .collect()
    }

    /// Starts the call's transaction at its first write: records where every collection
    /// stands, durably, before anything changes.
    fn begin(&mut self) -> Result<(), FileError> {
        if self.journal.is_active() {
            return Ok(());
        }
        let states = self.states()?;
        self.journal.begin(&mut self.fs, &states)
    }

    /// Whether a transaction was left open (by a process that died): the next call must
    /// roll it back, as a write.
    pub fn needs_recovery(&mut self) -> Result<bool, FileError> {
        self.forget_tokens();
        Ok(self.journal.pending(&mut self.fs)?.is_some())
    }

    /// Ends the call's transaction: its writes stand. A held line (the call's only write)
    /// is written and flushed now; if that fails, it is cut off again, best effort, and the
    /// call fails. Once a held line is lost, every commit fails until a rollback: a call
    /// that commits midway (before a remote model) and goes on cannot succeed without it;
    /// the journal of what it wrote after is left for the rollback.
    pub fn commit(&mut self) -> Result<(), FileError> {
        self.commit_and_report(false).map(drop)
    }

    /// Whether the call wrote anything since its last commit or rollback.
    pub fn has_writes(&self) -> bool {
        self.journal.is_active() || self.held.is_some() || self.lost.is_some()
    }

    /// [`FileStore::commit`], saying where every collection stands after it (in
    /// [`Collection::ALL`]'s order), for readers that hold no lock to pin
    /// ([`FileStore::pin_at`]); none when a file could not be looked at.
    pub fn commit_reporting(&mut self) -> Result<Option<Vec<FileState>>, FileError> {
        self.commit_and_report(true)
    }

    fn commit_and_report(&mut self, report: bool) -> Result<Option<Vec<FileState>>, FileError> {
        if let Some(mut held) = self.held.take() {
            let c = held.collection;
            if let Err(e) = self.write_lines(c, &mut held.file, held.at, &held.bytes) {
                if held.file.set_len(held.at).and_then(|()| held.file.sync_data()).is_err() {
                    tracing::warn!("{}: a line not written may be left torn", paths::collection(c));
                }
                self.lose(c, &e);
                // No journal to cut by: a new generation now, before a call that committed
                // midway lets the lock go and another process appends where the line was.
                if let Err(token) = self.new_token(c) {
                    tracing::warn!("{}: no new generation after a lost line: {token}", paths::collection(c));
                }
            }
        }
        if let Some((_, e)) = self.lost.clone() {
            self.forget_tokens();
            return Err(e);
        }
        // While the lock is held the tokens read this call are still the files' own.
        let states = report.then(|| {
            Collection::ALL
                .iter()
                .map(|&c| self.state(c))
                .collect::<Result<Vec<_>, _>>()
        });
        self.forget_tokens();
        self.journal.commit(&mut self.fs)?;
        Ok(states.and_then(Result::ok))
    }
}

/// Refuses lines that would tear the file: empty, or spanning several lines.
pub fn check_lines(lines: &[String]) -> Result<(), FileError> {
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() || line.contains('\n') || line.contains('\r') {
            return Err(FileError::InvalidLine(format!(
                "line {} is empty or spans several lines",
                i + 1
            )));
        }
    }
    Ok(())
}
