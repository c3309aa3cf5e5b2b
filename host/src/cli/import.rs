//! `import FILE`: checks every fact first and refuses the file if any would be refused
//! (unless `--skip-refused`), then stores them with a progress bar on a terminal.

use std::io::IsTerminal as _;
use std::path::Path;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use ash_memory::{Caller, FactFile, MemoryStore, RefusedFact};

use super::output::Output;

/// Refusals printed before "and N more".
const SHOWN: usize = 20;

pub(super) fn run(
    store: &mut MemoryStore,
    caller: &Caller,
    path: &Path,
    skip_refused: bool,
    out: &Output,
) -> Result<()> {
    let file = FactFile::read(path)?;
    let refused = store.import_check(caller, &file.facts)?;
    if !refused.is_empty() && !skip_refused {
        print_refused(&refused, &file);
        bail!(
            "{} of {} facts would be refused, so nothing was imported; fix them, or pass --skip-refused to import the others",
            refused.len(),
            file.facts.len()
        );
    }
    let bar = if std::io::stderr().is_terminal() && !out.json {
        let bar = ProgressBar::new(file.facts.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("importing [{bar:30}] {pos}/{len} ({per_sec}, {eta} left)")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = store.import(caller, &file.facts, |done| bar.set_position(done as u64));
    bar.finish_and_clear();
    let report = report?;
    if !out.json {
        print_refused(&report.refused, &file);
    }
    out.imported(&report, &file.lines);
    Ok(())
}

/// Each refused fact with its line, on stderr.
fn print_refused(refused: &[RefusedFact], file: &FactFile) {
    for r in refused.iter().take(SHOWN) {
        eprintln!("line {}: {}", file.lines[r.position], r.error);
    }
    if refused.len() > SHOWN {
        eprintln!("... and {} more", refused.len() - SHOWN);
    }
}
