//! `ash-memory component`: hands out the component the JavaScript and Python hosts load:
//! the policy this binary runs, byte for byte, with the index this binary runs natively
//! compiled beside it and plugged in; with `--encoder`, the transformer's encoder module
//! they run.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

use ash_memory::{COMPOSED_COMPONENT, ENCODER_MODULE};

/// Writes the component (or the encoder module) to `out` (atomically) or stdout, or prints
/// its sha256.
pub fn run(out: Option<&Path>, sha256: bool, encoder: bool) -> Result<()> {
    let bytes = if encoder { ENCODER_MODULE } else { COMPOSED_COMPONENT };
    if sha256 {
        println!("{}", hex_sha256(bytes));
        return Ok(());
    }
    match out {
        Some(path) => {
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let mut tmp =
                tempfile::NamedTempFile::new_in(dir).with_context(|| format!("writing in {}", dir.display()))?;
            tmp.write_all(bytes)?;
            tmp.as_file().sync_all()?;
            tmp.persist(path)
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {} ({} bytes)", path.display(), bytes.len());
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            if stdout.is_terminal() {
                bail!("the module is binary: give --out FILE, or redirect stdout");
            }
            stdout.write_all(bytes)?;
            stdout.flush()?;
        }
    }
    Ok(())
}

/// `bytes`' SHA-256 in lowercase hex.
pub(crate) fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
