//! The home's files through the `ash:memory/fs` import.

use ash_memory_files::{File, FileSystem, FsError, HomePath, Open, Stat};
use base64::Engine as _;

use crate::ash::memory::{clock, fs};

/// The host's file system, rooted at the home.
pub(crate) struct HostFs;

/// A file the host opened: dropping it closes it.
pub(crate) struct HostFile(fs::File);

impl From<fs::Error> for FsError {
    fn from(e: fs::Error) -> Self {
        match e {
            fs::Error::NotFound(m) => FsError::NotFound(m),
            fs::Error::Io(m) => FsError::Io(m),
        }
    }
}

fn stat(m: fs::Metadata) -> Stat {
    Stat {
        len: m.len,
        ino: m.ino,
        dev: m.dev,
    }
}

/// Bytes as the import takes them: text when they are UTF-8.
fn to_host(bytes: &[u8]) -> fs::Bytes {
    match std::str::from_utf8(bytes) {
        Ok(text) => fs::Bytes::Text(text.to_owned()),
        Err(_) => fs::Bytes::Base64(base64::engine::general_purpose::STANDARD.encode(bytes)),
    }
}

fn from_host(bytes: fs::Bytes) -> Result<Vec<u8>, FsError> {
    match bytes {
        fs::Bytes::Text(text) => Ok(text.into_bytes()),
        fs::Bytes::Base64(b64) => base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| FsError::Io(format!("the host's bytes are not base64: {e}"))),
    }
}

impl File for HostFile {
    fn stat(&mut self) -> Result<Stat, FsError> {
        Ok(stat(self.0.stat()?))
    }
    fn read_at(&mut self, offset: u64, len: Option<u64>) -> Result<Vec<u8>, FsError> {
        from_host(self.0.read_at(offset, len)?)
    }
    fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<(), FsError> {
        Ok(self.0.write_at(offset, &to_host(bytes))?)
    }
    fn set_len(&mut self, len: u64) -> Result<(), FsError> {
        Ok(self.0.set_len(len)?)
    }
    fn sync_data(&mut self) -> Result<(), FsError> {
        Ok(self.0.sync_data()?)
    }
    fn sync_all(&mut self) -> Result<(), FsError> {
        Ok(self.0.sync_all()?)
    }
}

impl FileSystem for HostFs {
    type File = HostFile;

    fn open(&mut self, path: &HomePath, how: Open) -> Result<HostFile, FsError> {
        let how = match how {
            Open::Read => fs::OpenMode::Read,
            Open::Write => fs::OpenMode::Write,
            Open::Append => fs::OpenMode::Append,
            Open::Update => fs::OpenMode::Update,
            Open::Create => fs::OpenMode::Create,
        };
        Ok(HostFile(fs::open(path, how)?))
    }
    fn stat(&mut self, path: &HomePath) -> Result<Option<Stat>, FsError> {
        match fs::stat(path) {
            Ok(m) => Ok(Some(stat(m))),
            Err(fs::Error::NotFound(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
    fn read_from(&mut self, path: &HomePath, offset: u64) -> Result<Option<(Stat, Vec<u8>)>, FsError> {
        match fs::read_from(path, offset) {
            Ok((m, bytes)) => Ok(Some((stat(m), from_host(bytes)?))),
            Err(fs::Error::NotFound(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
    fn overwrite(&mut self, path: &HomePath, bytes: &[u8]) -> Result<bool, FsError> {
        Ok(fs::overwrite(path, &to_host(bytes))?)
    }
    fn read_whole(&mut self, path: &HomePath) -> Result<Option<Vec<u8>>, FsError> {
        match fs::read_whole(path) {
            Ok(bytes) => from_host(bytes).map(Some),
            Err(fs::Error::NotFound(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
    fn rename(&mut self, from: &HomePath, to: &HomePath) -> Result<(), FsError> {
        Ok(fs::rename(from, to)?)
    }
    fn remove(&mut self, path: &HomePath) -> Result<(), FsError> {
        Ok(fs::remove(path)?)
    }
    fn list(&mut self, dir: &HomePath) -> Result<Vec<String>, FsError> {
        Ok(fs::list(dir)?)
    }
    fn sync_dir(&mut self, dir: &HomePath) -> Result<(), FsError> {
        Ok(fs::sync_dir(dir)?)
    }
    fn now_rfc3339(&mut self) -> String {
        clock::now()
    }
    fn random_u64(&mut self) -> u64 {
        fs::random()
    }
    fn process_id(&mut self) -> u32 {
        fs::process_id()
    }
}
