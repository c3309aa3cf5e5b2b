//! `export`: the caller's records as an export (see `wit/portability.wit`), on stdout or
//! written to a file that is private (0600) and whole (a temporary file renamed over it).

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use anyhow::{Context as _, Result};

use ash_memory::{Caller, MemoryStore};

use super::output::Output;

pub(super) fn run(
    store: &mut MemoryStore,
    caller: &Caller,
    include_archive: bool,
    out_file: Option<&Path>,
    out: &Output,
) -> Result<()> {
    let lines = store.export_records(caller, include_archive)?;
    let Some(path) = out_file else {
        out.lines(&lines);
        return Ok(());
    };
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let mut created = false;
    let mut write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        created = true;
        let mut text = lines.join("\n");
        text.push('\n');
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    if let Err(e) = write() {
        // Only a file this call made: another one of that name is not ours to remove.
        if created {
            let _ = std::fs::remove_file(&tmp);
        }
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    eprintln!("Exported {} records to {}", lines.len() - 1, path.display());
    Ok(())
}
