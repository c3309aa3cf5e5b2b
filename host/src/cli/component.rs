//! `ash-memory component`: hands out the policy component this binary embeds, byte for
//! byte, so that the JavaScript and Python hosts run exactly what the Rust host runs.

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

use ash_memory::POLICY_COMPONENT;

/// Writes the component to `out` (atomically) or stdout, or prints its sha256.
pub fn run(out: Option<&Path>, sha256: bool) -> Result<()> {
    if sha256 {
        println!("{}", self::sha256());
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
            tmp.write_all(POLICY_COMPONENT)?;
            tmp.as_file().sync_all()?;
            tmp.persist(path)
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {} ({} bytes)", path.display(), POLICY_COMPONENT.len());
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            if stdout.is_terminal() {
                bail!("the component is binary: give --out FILE, or redirect stdout");
            }
            stdout.write_all(POLICY_COMPONENT)?;
            stdout.flush()?;
        }
    }
    Ok(())
}

/// The sha256 of the embedded component, in hex (as the other hosts print theirs).
pub fn sha256() -> String {
    Sha256::digest(POLICY_COMPONENT)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
