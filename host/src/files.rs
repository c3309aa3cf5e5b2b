//! The `files` capability: whole-line appends, atomic replaces and quarantine on the
//! JSONL collections. Callers hold the home lock, so no two writers interleave; the writes
//! of one exported call form a transaction (see [`journal`]).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use base64::Engine as _;

use self::journal::{Before, Journal};
use crate::fault;
use crate::home::Home;

pub(crate) use crate::bindings::ash::memory::files::{Chunk, Collection, Error as FileError, FileState};

impl Collection {
    /// All of them, in a fixed order.
    pub const ALL: [Collection; 5] = [
        Collection::Memories,
        Collection::People,
        Collection::Archive,
        Collection::Sessions,
        Collection::Messages,
    ];

    /// The name used in the journal and in fault points.
    pub fn name(self) -> &'static str {
        match self {
            Collection::Memories => "memories",
            Collection::People => "people",
            Collection::Archive => "archive",
            Collection::Sessions => "sessions",
            Collection::Messages => "messages",
        }
    }
}

impl FileError {
    /// The error in words. (The generated `Display` prints the debug form.)
    pub(crate) fn message(&self) -> String {
        match self {
            FileError::Io(m) | FileError::ReadOnly(m) => m.clone(),
            FileError::InvalidLine(m) => format!("invalid line: {m}"),
        }
    }
}

/// The JSONL files of one home.
#[derive(Debug)]
pub struct FileStore {
    home: Home,
    journal: Journal,
    /// Set for a call begun as a read: what `read` would write (the raw bytes of lines
    /// that are not UTF-8, to quarantine) is refused instead.
    pub(crate) read_only: bool,
}

pub(crate) fn io_error(path: &Path, e: std::io::Error) -> FileError {
    FileError::Io(format!("{}: {e}", path.display()))
}

/// Files of the home are personal: readable and writable by their owner only.
pub(crate) const FILE_MODE: u32 = 0o600;

/// Opens for appending, creating the file owner-only.
pub(crate) fn open_append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).append(true).mode(FILE_MODE).open(path)
}

/// Replaces a small file whole: a temporary file beside it, flushed, renamed over it. A
/// crash leaves the old bytes or the new ones; the caller flushes the folder if the rename
/// itself must survive a power cut.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let written = (|| {
        let mut f = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(FILE_MODE)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_data()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Mixes the parts of a generation into one number (splitmix64's finalizer): any change
/// of a part changes the result.
fn mix(parts: &[u64]) -> u64 {
    parts.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &p| {
        let mut z = (h ^ p).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

impl FileStore {
    pub fn new(home: Home) -> Self {
        let journal = Journal::new(home.journal());
        FileStore {
            home,
            journal,
            read_only: false,
        }
    }

    /// The file behind a collection.
    pub fn path(&self, c: Collection) -> PathBuf {
        match c {
            Collection::Memories => self.home.memories(),
            Collection::People => self.home.people(),
            Collection::Archive => self.home.archive(),
            Collection::Sessions => self.home.sessions(),
            Collection::Messages => self.home.messages(),
        }
    }

    /// Where a collection's unparseable lines are kept.
    pub fn quarantine_path(&self, c: Collection) -> PathBuf {
        self.sibling(c, ".quarantine.jsonl", false)
    }

    /// The file that holds the random part of a collection's generation.
    fn token_path(&self, c: Collection) -> PathBuf {
        self.sibling(c, ".generation", true)
    }

    fn sibling(&self, c: Collection, suffix: &str, hidden: bool) -> PathBuf {
        let path = self.path(c);
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("collection");
        let dot = if hidden { "." } else { "" };
        path.with_file_name(format!("{dot}{stem}{suffix}"))
    }

    /// The random token of the collection's current incarnation (0 before the first
    /// replace).
    fn token(&self, c: Collection) -> u64 {
        std::fs::read_to_string(self.token_path(c))
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Gives the collection a new random token, so that its generation is one never
    /// handed out before. Written (and flushed) before the change it announces: a crash in
    /// between only makes readers read again.
    pub(crate) fn new_token(&self, c: Collection) -> Result<(), FileError> {
        let path = self.token_path(c);
        let token = uuid::Uuid::new_v4().as_u64_pair().0;
        write_atomically(&path, token.to_string().as_bytes()).map_err(|e| io_error(&path, e))
    }

    /// The generation: the random token, the inode and the device. The token changes at
    /// every replace and rollback (inode numbers alone come back: ext4 hands the same one
    /// out again after two renames); the inode catches a file deleted and made anew by hand.
    fn generation(&self, c: Collection, meta: &std::fs::Metadata) -> u64 {
        mix(&[self.token(c), meta.ino(), meta.dev()])
    }

    /// Where the collection stands now. A missing file is empty, with a generation of its
    /// own (creating it changes the generation).
    pub fn state(&self, c: Collection) -> Result<FileState, FileError> {
        let path = self.path(c);
        match std::fs::metadata(&path) {
            Ok(meta) => Ok(FileState {
                generation: self.generation(c, &meta),
                end: meta.len(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(FileState {
                generation: mix(&[self.token(c), 0, 0]),
                end: 0,
            }),
            Err(e) => Err(io_error(&path, e)),
        }
    }

    /// Reads from `from` to the end; see `read` in `wit/files.wit`.
    pub fn read(&self, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError> {
        let path = self.path(c);
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let state = self.state(c)?;
                return Ok(Chunk {
                    data: String::new(),
                    end: 0,
                    generation: state.generation,
                });
            }
            Err(e) => return Err(io_error(&path, e)),
        };
        let meta = file.metadata().map_err(|e| io_error(&path, e))?;
        let len = meta.len();
        let gen_ = self.generation(c, &meta);
        let start = if generation == Some(gen_) && from <= len {
            from
        } else {
            0
        };
        file.seek(SeekFrom::Start(start)).map_err(|e| io_error(&path, e))?;
        let mut bytes = Vec::with_capacity((len - start) as usize);
        file.read_to_end(&mut bytes).map_err(|e| io_error(&path, e))?;
        let end = start + bytes.len() as u64;
        tracing::debug!(
            "files: read {} bytes of {} from offset {start}",
            bytes.len(),
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let data = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => self.set_aside_invalid_utf8(c, e.into_bytes())?,
        };
        Ok(Chunk {
            data,
            end,
            generation: gen_,
        })
    }

    /// A WIT string must be UTF-8, so lines that are not cannot reach the guest intact.
    /// Their raw bytes go to the quarantine file (base64) here; the guest receives in their
    /// place a line that is not a record, quarantines it as usual and rewrites the
    /// collection without it, so the bad bytes leave the collection once, not every call.
    fn set_aside_invalid_utf8(&self, c: Collection, bytes: Vec<u8>) -> Result<String, FileError> {
        if self.read_only {
            return Err(FileError::ReadOnly(format!(
                "{}: lines that are not UTF-8 are set aside by a write",
                self.path(c).display()
            )));
        }
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
                            "quarantined_at": chrono::Utc::now().to_rfc3339(),
                            "reason": "not valid UTF-8",
                            "line_base64": base64::engine::general_purpose::STANDARD.encode(line),
                        })
                        .to_string(),
                    );
                    text.push_str("\u{FFFD} a line that was not valid UTF-8; its bytes are in the quarantine file");
                }
            }
        }
        self.append_raw(&self.quarantine_path(c), &records)?;
        tracing::warn!(
            "{}: {} line(s) were not UTF-8 and were quarantined",
            self.path(c).display(),
            records.len()
        );
        Ok(text)
    }

    /// Appends whole lines in one write and flushes them to disk; ends an unterminated
    /// last line first, so that nothing is glued onto it.
    pub fn append(&mut self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        check_lines(lines)?;
        if !lines.is_empty() {
            self.begin()?;
            let path = self.path(c);
            let name = format!("append:{}", c.name());
            fault::point(&format!("{name}:before")).map_err(|e| io_error(&path, e))?;
            // Read access too: the last byte tells whether the file ends its last line.
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .read(true)
                .mode(FILE_MODE)
                .open(&path)
                .map_err(|e| io_error(&path, e))?;
            let mut buf = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1);
            let len = file.metadata().map_err(|e| io_error(&path, e))?.len();
            if len > 0 {
                let mut last = [0u8; 1];
                file.read_at(&mut last, len - 1).map_err(|e| io_error(&path, e))?;
                if last[0] != b'\n' {
                    buf.push('\n');
                }
            }
            for line in lines {
                buf.push_str(line);
                buf.push('\n');
            }
            if fault::torn(&format!("{name}:torn")) {
                let _ = file.write_all(&buf.as_bytes()[..buf.len() / 2]);
                fault::abort(&name);
            }
            file.write_all(buf.as_bytes()).map_err(|e| io_error(&path, e))?;
            fault::point(&format!("{name}:written")).map_err(|e| io_error(&path, e))?;
            file.sync_data().map_err(|e| io_error(&path, e))?;
            fault::point(&format!("{name}:synced")).map_err(|e| io_error(&path, e))?;
        }
        self.state(c)
    }

    /// Appends lines to a file that is not a collection (quarantine), flushed.
    fn append_raw(&self, path: &Path, lines: &[String]) -> Result<(), FileError> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut buf = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            buf.push_str(line);
            buf.push('\n');
        }
        let mut file = open_append(path).map_err(|e| io_error(path, e))?;
        file.write_all(buf.as_bytes()).map_err(|e| io_error(path, e))?;
        file.sync_data().map_err(|e| io_error(path, e))
    }

    /// Replaces a collection atomically: temp file, fsync, new token, rename, fsync the
    /// folder. A commit point of the call's transaction.
    pub fn replace(&mut self, c: Collection, lines: &[String]) -> Result<FileState, FileError> {
        check_lines(lines)?;
        self.begin()?;
        let path = self.path(c);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("collection");
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let result = self.write_replacement(c, lines, &tmp);
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result?;
        // A new baseline, so that appends after the rewrite still roll back.
        let states = self.states()?;
        self.journal.record(&states, None, &[])?;
        self.state(c)
    }

    fn write_replacement(&mut self, c: Collection, lines: &[String], tmp: &Path) -> Result<(), FileError> {
        let path = self.path(c);
        let dir = path.parent().expect("collections live in a folder").to_path_buf();
        let point = format!("replace:{}", c.name());
        fault::point(&format!("{point}:before")).map_err(|e| io_error(&path, e))?;
        let mut file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(FILE_MODE)
            .open(tmp)
            .map_err(|e| io_error(tmp, e))?;
        let mut writer = std::io::BufWriter::new(&mut file);
        for line in lines {
            writer.write_all(line.as_bytes()).map_err(|e| io_error(tmp, e))?;
            writer.write_all(b"\n").map_err(|e| io_error(tmp, e))?;
        }
        writer.flush().map_err(|e| io_error(tmp, e))?;
        drop(writer);
        file.sync_all().map_err(|e| io_error(tmp, e))?;
        fault::point(&format!("{point}:temp-written")).map_err(|e| io_error(tmp, e))?;
        // The commit point, recorded before the rename: what the call appended so far
        // (the archive copy of what this rewrite drops) must survive a crash from here on.
        // A crash before the rename then leaves a copy in both places, never in neither.
        let states = self.states()?;
        self.journal.record(&states, Some((c, tmp)), &[])?;
        self.new_token(c)?;
        fault::point(&format!("{point}:token")).map_err(|e| io_error(tmp, e))?;
        std::fs::rename(tmp, &path).map_err(|e| io_error(&path, e))?;
        fault::point(&format!("{point}:renamed")).map_err(|e| io_error(&path, e))?;
        File::open(&dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| io_error(&dir, e))
    }

    /// Keeps unparseable lines, with the reason and time, in the quarantine file. Never
    /// rolled back: extra copies of a line are harmless, a lost one is not.
    pub fn quarantine(&self, c: Collection, lines: &[String], reason: &str) -> Result<(), FileError> {
        let now = chrono::Utc::now().to_rfc3339();
        let records: Vec<String> = lines
            .iter()
            .map(|line| serde_json::json!({"quarantined_at": now, "reason": reason, "line": line}).to_string())
            .collect();
        let path = self.quarantine_path(c);
        self.append_raw(&path, &records)?;
        tracing::warn!("{} line(s) quarantined in {}", lines.len(), path.display());
        Ok(())
    }

    /// Where every collection stands, with its token.
    fn states(&self) -> Result<Vec<Before>, FileError> {
        Collection::ALL
            .iter()
            .map(|&c| {
                Ok(Before {
                    collection: c,
                    state: self.state(c)?,
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
        self.journal.begin(&states)
    }

    /// Whether a transaction was left open (by a process that died): the next call must
    /// roll it back, as a write.
    pub(crate) fn needs_recovery(&mut self) -> Result<bool, FileError> {
        Ok(self.journal.pending()?.is_some())
    }

    /// Ends the call's transaction: its writes stand.
    pub fn commit(&mut self) -> Result<(), FileError> {
        self.journal.commit()
    }
}

pub(crate) fn check_lines(lines: &[String]) -> Result<(), FileError> {
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

mod journal;
mod recovery;

#[cfg(test)]
mod tests;
