//! The migration's state across opens: the legacy store moved aside on first open, and
//! `data/migration.json`, which says whether a migration is under way or done.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::is_legacy_store;
use crate::error::Error;
use crate::home::Home;

/// The name a migrated legacy store is kept under, beside the new index.
const BACKUP_SUFFIX: &str = ".legacy";
/// Where a migration's state is recorded, under `data/`.
const MARKER: &str = "migration.json";

/// `data/migration.json`.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    from: PathBuf,
    done: bool,
}

/// Before the index is first opened: the legacy store to migrate from, if the home holds
/// one with no memories yet (it is moved aside first) or a migration was cut short.
pub(crate) fn pending(home: &Home) -> Result<Option<PathBuf>, Error> {
    let marker_path = home.root().join("data").join(MARKER);
    let db = home.index();
    if let Ok(text) = std::fs::read_to_string(&marker_path) {
        let marker: Marker =
            serde_json::from_str(&text).map_err(|e| Error::Storage(format!("{}: {e}", marker_path.display())))?;
        if marker.done {
            return Ok(None);
        }
        // Cut short, perhaps before the legacy file was moved aside: finish that first.
        if marker.from == with_suffix(&db, BACKUP_SUFFIX) && !marker.from.exists() {
            move_aside(&db, &marker.from)?;
        }
        return Ok(Some(marker.from));
    }
    let memories = home.root().join("memory").join("memories.jsonl");
    let has_memories = std::fs::metadata(&memories).is_ok_and(|m| m.len() > 0);
    if has_memories || !is_legacy_store(&db) {
        return Ok(None);
    }
    let backup = with_suffix(&db, BACKUP_SUFFIX);
    if backup.exists() {
        return Err(Error::Storage(format!(
            "{} is a legacy store to migrate, but {} already exists; move one of them away",
            db.display(),
            backup.display()
        )));
    }
    // The record first: a crash after it finds the move to finish and the backup to
    // resume from.
    write_marker(&marker_path, &backup, false)?;
    move_aside(&db, &backup)?;
    Ok(Some(backup))
}

/// Renames the legacy database and its `-wal` and `-shm` files, the database last (it is
/// what tells a legacy store); a file already moved is left where it is.
fn move_aside(db: &Path, backup: &Path) -> Result<(), Error> {
    for suffix in ["-wal", "-shm", ""] {
        let from = with_suffix(db, suffix);
        let to = with_suffix(backup, suffix);
        if from.exists() && !to.exists() {
            crate::fault::point("migrate:rename").map_err(|e| Error::io(&from, e))?;
            std::fs::rename(&from, &to).map_err(|e| Error::io(&from, e))?;
        }
    }
    Ok(())
}

/// Records that the migration from `from` finished.
pub(crate) fn finish(home: &Home, from: &Path) -> Result<(), Error> {
    write_marker(&home.root().join("data").join(MARKER), from, true)
}

fn write_marker(path: &Path, from: &Path, done: bool) -> Result<(), Error> {
    crate::fault::point("migrate:marker").map_err(|e| Error::io(path, e))?;
    let text = serde_json::to_string(&Marker {
        from: from.to_path_buf(),
        done,
    })
    .expect("a marker serializes");
    // Whole or not at all: a temporary file, flushed, renamed over the record.
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let tmp = with_suffix(path, ".tmp");
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(crate::files::FILE_MODE)
            .open(&tmp)?;
        f.write_all((text + "\n").as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent() {
            std::fs::File::open(dir)?.sync_all()?;
        }
        Ok(())
    };
    write().map_err(|e| Error::io(path, e))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}
