//! The `files` capability: whole-line appends, atomic replaces and quarantine on the
//! three JSONL collections. Callers hold the home lock, so no two writers interleave.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use base64::Engine as _;

use crate::home::Home;

/// A collection, named as the `files` interface names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collection {
    Memories,
    People,
    Archive,
}

/// A failed file operation, as the `files` interface reports it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("{0}")]
    Io(String),
    #[error("invalid line: {0}")]
    InvalidLine(String),
}

/// What `read` returns; see `chunk` in `wit/files.wit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub data: String,
    pub end: u64,
    pub generation: u64,
}

/// The JSONL files of one home.
#[derive(Debug, Clone)]
pub struct FileStore {
    home: Home,
}

fn io_error(path: &Path, e: std::io::Error) -> FileError {
    FileError::Io(format!("{}: {e}", path.display()))
}

impl FileStore {
    pub fn new(home: Home) -> Self {
        FileStore { home }
    }

    /// The file behind a collection.
    pub fn path(&self, c: Collection) -> PathBuf {
        match c {
            Collection::Memories => self.home.memories(),
            Collection::People => self.home.people(),
            Collection::Archive => self.home.archive(),
        }
    }

    /// Where a collection's unparseable lines are kept.
    pub fn quarantine_path(&self, c: Collection) -> PathBuf {
        let path = self.path(c);
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("collection")
            .to_owned();
        path.with_file_name(format!("{stem}.quarantine.jsonl"))
    }

    /// Reads from `from` to the end; see `read` in `wit/files.wit`. The generation is the
    /// file's inode number, which a replace (a rename of a new file) changes.
    pub fn read(&self, c: Collection, from: u64, generation: Option<u64>) -> Result<Chunk, FileError> {
        let path = self.path(c);
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Chunk {
                    data: String::new(),
                    end: 0,
                    generation: 0,
                });
            }
            Err(e) => return Err(io_error(&path, e)),
        };
        let meta = file.metadata().map_err(|e| io_error(&path, e))?;
        let len = meta.len();
        let gen_ = meta.ino();
        let start = if generation == Some(gen_) && from <= len {
            from
        } else {
            0
        };
        file.seek(SeekFrom::Start(start)).map_err(|e| io_error(&path, e))?;
        let mut bytes = Vec::with_capacity((len - start) as usize);
        file.read_to_end(&mut bytes).map_err(|e| io_error(&path, e))?;
        let end = start + bytes.len() as u64;
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
    /// Their raw bytes go to the quarantine file (base64) here; the guest receives a lossy
    /// copy, fails to parse it, and removes it from the collection as usual.
    fn set_aside_invalid_utf8(&self, c: Collection, bytes: Vec<u8>) -> Result<String, FileError> {
        let mut records = Vec::new();
        for line in bytes.split(|b| *b == b'\n') {
            if std::str::from_utf8(line).is_err() {
                records.push(
                    serde_json::json!({
                        "quarantined_at": chrono::Utc::now().to_rfc3339(),
                        "reason": "not valid UTF-8",
                        "line_base64": base64::engine::general_purpose::STANDARD.encode(line),
                    })
                    .to_string(),
                );
            }
        }
        self.append_raw(&self.quarantine_path(c), &records)?;
        tracing::warn!(
            "{}: {} line(s) were not UTF-8 and were quarantined",
            self.path(c).display(),
            records.len()
        );
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Appends whole lines in one write and flushes them to disk.
    pub fn append(&self, c: Collection, lines: &[String]) -> Result<(), FileError> {
        check_lines(lines)?;
        self.append_raw(&self.path(c), lines)
    }

    fn append_raw(&self, path: &Path, lines: &[String]) -> Result<(), FileError> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut buf = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            buf.push_str(line);
            buf.push('\n');
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        file.write_all(buf.as_bytes()).map_err(|e| io_error(path, e))?;
        file.sync_data().map_err(|e| io_error(path, e))
    }

    /// Replaces a collection atomically: temp file, fsync, rename, fsync the folder.
    pub fn replace(&self, c: Collection, lines: &[String]) -> Result<(), FileError> {
        check_lines(lines)?;
        let path = self.path(c);
        let dir = path.parent().expect("collections live in a folder");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("collection");
        let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        let result = (|| {
            let mut file = File::create(&tmp).map_err(|e| io_error(&tmp, e))?;
            let mut writer = std::io::BufWriter::new(&mut file);
            for line in lines {
                writer.write_all(line.as_bytes()).map_err(|e| io_error(&tmp, e))?;
                writer.write_all(b"\n").map_err(|e| io_error(&tmp, e))?;
            }
            writer.flush().map_err(|e| io_error(&tmp, e))?;
            drop(writer);
            file.sync_all().map_err(|e| io_error(&tmp, e))?;
            std::fs::rename(&tmp, &path).map_err(|e| io_error(&path, e))?;
            File::open(dir).and_then(|d| d.sync_all()).map_err(|e| io_error(dir, e))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    /// Keeps unparseable lines, with the reason and time, in the quarantine file.
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
}

fn check_lines(lines: &[String]) -> Result<(), FileError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, FileStore) {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::open(dir.path()).unwrap();
        (dir, FileStore::new(home))
    }

    #[test]
    fn reads_incrementally_and_notices_a_replace() {
        let (_d, files) = store();
        assert_eq!(files.read(Collection::Memories, 0, None).unwrap().data, "");
        files.append(Collection::Memories, &["a".into(), "b".into()]).unwrap();
        let first = files.read(Collection::Memories, 0, None).unwrap();
        assert_eq!(first.data, "a\nb\n");
        files.append(Collection::Memories, &["c".into()]).unwrap();
        let next = files
            .read(Collection::Memories, first.end, Some(first.generation))
            .unwrap();
        assert_eq!((next.data.as_str(), next.generation), ("c\n", first.generation));
        files.replace(Collection::Memories, &["z".into()]).unwrap();
        let after = files
            .read(Collection::Memories, next.end, Some(next.generation))
            .unwrap();
        assert_eq!(after.data, "z\n");
        assert_ne!(after.generation, next.generation);
    }

    #[test]
    fn refuses_lines_that_would_tear_the_file() {
        let (_d, files) = store();
        for bad in ["", "two\nlines"] {
            let err = files
                .append(Collection::Memories, &["ok".into(), bad.into()])
                .unwrap_err();
            assert!(matches!(err, FileError::InvalidLine(_)));
            assert!(files.replace(Collection::Memories, &[bad.into()]).is_err());
        }
        assert!(!files.path(Collection::Memories).exists(), "nothing was written");
    }

    #[test]
    fn invalid_utf8_is_kept_raw_in_quarantine() {
        let (_d, files) = store();
        std::fs::write(files.path(Collection::Memories), b"good\n\xff\xfe bad\n").unwrap();
        let chunk = files.read(Collection::Memories, 0, None).unwrap();
        assert!(chunk.data.starts_with("good\n"));
        let q = std::fs::read_to_string(files.quarantine_path(Collection::Memories)).unwrap();
        let v: serde_json::Value = serde_json::from_str(q.trim()).unwrap();
        let raw = base64::engine::general_purpose::STANDARD
            .decode(v["line_base64"].as_str().unwrap())
            .unwrap();
        assert_eq!(raw, b"\xff\xfe bad");
    }
}
