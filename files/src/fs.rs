//! What the collections need of a file system: files named by paths relative to the home,
//! a handle to read, write, cut and flush one, and the folder operations of an atomic
//! replace. The Rust host supplies it with `std::fs` ([`crate::native`]).

/// A path relative to the home, with `/` between its parts (`memory/memories.jsonl`).
pub type HomePath = str;

/// A file system operation that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FsError {
    /// The file or folder is not there; the text names it.
    #[error("{0}")]
    NotFound(String),
    /// Anything else; the text names the file and says why.
    #[error("{0}")]
    Io(String),
}

impl FsError {
    /// The error in words.
    pub fn message(&self) -> &str {
        match self {
            FsError::NotFound(m) | FsError::Io(m) => m,
        }
    }
}

/// What identifies a file and how long it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// Its length in bytes.
    pub len: u64,
    /// Its inode number: a file deleted and made anew has another.
    pub ino: u64,
    /// The device it is on.
    pub dev: u64,
}

/// How a file is opened. Every mode that creates makes the file owner-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// To read; `NotFound` when missing.
    Read,
    /// To write, without creating; `NotFound` when missing.
    Write,
    /// To append (and read), created when missing: every write goes to the end.
    Append,
    /// To read and write anywhere, created when missing, its bytes kept.
    Update,
    /// To write from nothing: created when missing, emptied when not.
    Create,
}

/// An open file.
pub trait File {
    /// Its length and identity now.
    fn stat(&mut self) -> Result<Stat, FsError>;

    /// The bytes from `offset`: `len` of them, or all to the end when none (fewer when the
    /// file ends first).
    fn read_at(&mut self, offset: u64, len: Option<u64>) -> Result<Vec<u8>, FsError>;

    /// Writes all of `bytes` at `offset`; a file opened to `Append` writes them at its end,
    /// whatever the offset.
    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<(), FsError>;

    /// Cuts or extends the file to `len` bytes.
    fn set_len(&mut self, len: u64) -> Result<(), FsError>;

    /// Flushes its bytes to the disk (`fdatasync`).
    fn sync_data(&mut self) -> Result<(), FsError>;

    /// Flushes its bytes and metadata to the disk (`fsync`).
    fn sync_all(&mut self) -> Result<(), FsError>;
}

/// The home's files, and the few values of the host the collections need.
pub trait FileSystem {
    /// An open file of this file system.
    type File: File;

    /// Opens a file.
    fn open(&mut self, path: &HomePath, how: Open) -> Result<Self::File, FsError>;

    /// A file's length and identity; none when it is missing.
    fn stat(&mut self, path: &HomePath) -> Result<Option<Stat>, FsError>;

    /// Renames a file over another, atomically.
    fn rename(&mut self, from: &HomePath, to: &HomePath) -> Result<(), FsError>;

    /// Removes a file.
    fn remove(&mut self, path: &HomePath) -> Result<(), FsError>;

    /// Replaces a small file's bytes in place (made, owner-only, when missing), flushed
    /// (`fdatasync`) before it returns; true when the file was made, whose folder the
    /// caller then flushes. Not atomic: for the journal, whose torn entry does not parse.
    /// Bytes of the file's own length are written over it without cutting it first, so
    /// that the flush has no new length to record. A file system that can do it in a
    /// single step overrides this.
    fn overwrite(&mut self, path: &HomePath, bytes: &[u8]) -> Result<bool, FsError> {
        let before = self.stat(path)?;
        let mut file = self.open(path, Open::Update)?;
        if before.map(|s| s.len) != Some(bytes.len() as u64) {
            file.set_len(0)?;
        }
        file.write_at(0, bytes)?;
        file.sync_data()?;
        Ok(before.is_none())
    }

    /// A file's bytes from `offset` to its end (none past it), with its length and
    /// identity, read through one handle so that a replace in between cannot mix two
    /// files; none when it is missing. A file system that can do it in a single step
    /// overrides this.
    fn read_from(&mut self, path: &HomePath, offset: u64) -> Result<Option<(Stat, Vec<u8>)>, FsError> {
        let mut file = match self.open(path, Open::Read) {
            Ok(file) => file,
            Err(FsError::NotFound(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let stat = file.stat()?;
        let bytes = if offset <= stat.len {
            file.read_at(offset, None)?
        } else {
            Vec::new()
        };
        Ok(Some((stat, bytes)))
    }

    /// A whole small file's bytes (a token, the journal); none when it is missing. A file
    /// system that can read one in a single step overrides this.
    fn read_whole(&mut self, path: &HomePath) -> Result<Option<Vec<u8>>, FsError> {
        match self.open(path, Open::Read) {
            Ok(mut file) => file.read_at(0, None).map(Some),
            Err(FsError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The names in a folder (`""` is the home itself).
    fn list(&mut self, dir: &HomePath) -> Result<Vec<String>, FsError>;

    /// Flushes a folder's entries to the disk, so that a rename or a new file in it
    /// survives a power cut.
    fn sync_dir(&mut self, dir: &HomePath) -> Result<(), FsError>;

    /// The time now, RFC 3339 (quarantine records carry it).
    fn now_rfc3339(&mut self) -> String;

    /// A random number (a collection's generation token).
    fn random_u64(&mut self) -> u64;

    /// This process's id: temporary files are named by it, and the journal records it.
    fn process_id(&mut self) -> u32;

    /// A named step before a write, where a test may make the process fail or stop (the
    /// Rust host's fault injection).
    fn fault_point(&mut self, _name: &str) -> Result<(), FsError> {
        Ok(())
    }

    /// Whether the write at this named step is to be torn: the caller writes half of its
    /// bytes and calls [`FileSystem::abort`].
    fn torn(&mut self, _name: &str) -> bool {
        false
    }

    /// Stops the process at once, as a power cut would (after a torn write).
    fn abort(&mut self, name: &str) -> ! {
        panic!("aborted at {name}")
    }
}

/// Replaces a small file whole: a temporary file beside it, flushed, renamed over it. A
/// crash leaves the old bytes or the new ones; the caller flushes the folder if the rename
/// itself must survive a power cut.
pub(crate) fn write_atomically<F: FileSystem + ?Sized>(
    fs: &mut F,
    path: &HomePath,
    bytes: &[u8],
) -> Result<(), FsError> {
    let tmp = crate::paths::with_extension(path, &format!("tmp-{}", fs.process_id()));
    let written = (|| {
        let mut file = fs.open(&tmp, Open::Create)?;
        file.write_at(0, bytes)?;
        file.sync_data()?;
        drop(file);
        fs.rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs.remove(&tmp);
    }
    written
}
