//! The collections over `std::fs`: what the Rust host runs.

use std::fs::OpenOptions;
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::fs::{File, FileSystem, FsError, HomePath, Open, Stat};

/// Files of the home are personal: readable and writable by their owner only.
pub const FILE_MODE: u32 = 0o600;

/// Test hooks at the collections' write steps: the Rust host's fault injection.
#[derive(Debug, Clone, Copy)]
pub struct FaultPoints {
    /// A write step: fails with the message, or stops the process, when it is the one
    /// selected.
    pub point: fn(&str) -> Result<(), String>,
    /// Whether the write at this step is to be torn.
    pub torn: fn(&str) -> bool,
    /// Stops the process at once.
    pub abort: fn(&str) -> !,
}

/// The home's folder on the local file system.
#[derive(Debug, Clone)]
pub struct NativeFs {
    root: PathBuf,
    faults: Option<FaultPoints>,
}

impl NativeFs {
    /// The home at `root`, whose folders exist.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        NativeFs {
            root: root.into(),
            faults: None,
        }
    }

    /// With fault points for the crash tests.
    pub fn with_fault_points(mut self, faults: FaultPoints) -> Self {
        self.faults = Some(faults);
        self
    }

    /// The full path of a path in the home. The collections name only their own files.
    pub fn full(&self, path: &HomePath) -> PathBuf {
        debug_assert!(!path.starts_with('/') && !path.split('/').any(|p| p == ".."), "{path}");
        if path.is_empty() {
            self.root.clone()
        } else {
            self.root.join(path)
        }
    }
}

fn error(path: &Path, e: std::io::Error) -> FsError {
    let message = format!("{}: {e}", path.display());
    if e.kind() == std::io::ErrorKind::NotFound {
        FsError::NotFound(message)
    } else {
        FsError::Io(message)
    }
}

/// An open file of the home.
#[derive(Debug)]
pub struct NativeFile {
    file: std::fs::File,
    path: PathBuf,
    /// Opened to append: writes go to the end (`pwrite` would honour the offset on macOS).
    appends: bool,
}

impl File for NativeFile {
    fn stat(&mut self) -> Result<Stat, FsError> {
        let meta = self.file.metadata().map_err(|e| error(&self.path, e))?;
        Ok(Stat {
            len: meta.len(),
            ino: meta.ino(),
            dev: meta.dev(),
        })
    }

    fn read_at(&mut self, offset: u64, len: Option<u64>) -> Result<Vec<u8>, FsError> {
        let wanted = match len {
            Some(len) => len,
            None => self.stat()?.len.saturating_sub(offset),
        };
        let mut bytes = vec![0u8; wanted as usize];
        let mut read = 0;
        while read < bytes.len() {
            match self.file.read_at(&mut bytes[read..], offset + read as u64) {
                Ok(0) => break,
                Ok(n) => read += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(error(&self.path, e)),
            }
        }
        bytes.truncate(read);
        if len.is_none() {
            // Whatever was written since the length was taken.
            let mut more = Vec::new();
            let mut at = offset + read as u64;
            let mut buf = [0u8; 64 * 1024];
            loop {
                match self.file.read_at(&mut buf, at) {
                    Ok(0) => break,
                    Ok(n) => {
                        more.extend_from_slice(&buf[..n]);
                        at += n as u64;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(error(&self.path, e)),
                }
            }
            bytes.extend(more);
        }
        Ok(bytes)
    }

    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<(), FsError> {
        let written = if self.appends {
            std::io::Write::write_all(&mut self.file, bytes)
        } else {
            self.file.write_all_at(bytes, offset)
        };
        written.map_err(|e| error(&self.path, e))
    }

    fn set_len(&mut self, len: u64) -> Result<(), FsError> {
        self.file.set_len(len).map_err(|e| error(&self.path, e))
    }

    fn sync_data(&mut self) -> Result<(), FsError> {
        self.file.sync_data().map_err(|e| error(&self.path, e))
    }

    fn sync_all(&mut self) -> Result<(), FsError> {
        self.file.sync_all().map_err(|e| error(&self.path, e))
    }
}

impl FileSystem for NativeFs {
    type File = NativeFile;

    fn open(&mut self, path: &HomePath, how: Open) -> Result<NativeFile, FsError> {
        let full = self.full(path);
        let mut options = OpenOptions::new();
        match how {
            Open::Read => options.read(true),
            Open::Write => options.write(true),
            Open::Append => options.read(true).append(true).create(true),
            Open::Update => options.read(true).write(true).create(true).truncate(false),
            Open::Create => options.write(true).create(true).truncate(true),
        };
        let file = options.mode(FILE_MODE).open(&full).map_err(|e| error(&full, e))?;
        Ok(NativeFile {
            file,
            path: full,
            appends: how == Open::Append,
        })
    }

    fn stat(&mut self, path: &HomePath) -> Result<Option<Stat>, FsError> {
        let full = self.full(path);
        match std::fs::metadata(&full) {
            Ok(meta) => Ok(Some(Stat {
                len: meta.len(),
                ino: meta.ino(),
                dev: meta.dev(),
            })),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(error(&full, e)),
        }
    }

    fn rename(&mut self, from: &HomePath, to: &HomePath) -> Result<(), FsError> {
        let to = self.full(to);
        std::fs::rename(self.full(from), &to).map_err(|e| error(&to, e))
    }

    fn remove(&mut self, path: &HomePath) -> Result<(), FsError> {
        let full = self.full(path);
        std::fs::remove_file(&full).map_err(|e| error(&full, e))
    }

    fn list(&mut self, dir: &HomePath) -> Result<Vec<String>, FsError> {
        let full = self.full(dir);
        let entries = std::fs::read_dir(&full).map_err(|e| error(&full, e))?;
        Ok(entries
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect())
    }

    fn sync_dir(&mut self, dir: &HomePath) -> Result<(), FsError> {
        let full = self.full(dir);
        std::fs::File::open(&full)
            .and_then(|d| d.sync_all())
            .map_err(|e| error(&full, e))
    }

    fn now_rfc3339(&mut self) -> String {
        chrono::Utc::now().to_rfc3339()
    }

    fn random_u64(&mut self) -> u64 {
        uuid::Uuid::new_v4().as_u64_pair().0
    }

    fn process_id(&mut self) -> u32 {
        std::process::id()
    }

    fn fault_point(&mut self, name: &str) -> Result<(), FsError> {
        match self.faults {
            Some(f) => (f.point)(name).map_err(FsError::Io),
            None => Ok(()),
        }
    }

    fn torn(&mut self, name: &str) -> bool {
        self.faults.is_some_and(|f| (f.torn)(name))
    }

    fn abort(&mut self, name: &str) -> ! {
        match self.faults {
            Some(f) => (f.abort)(name),
            None => panic!("aborted at {name}"),
        }
    }
}
