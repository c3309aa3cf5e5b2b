//! `import FILE`: checks every fact first and refuses the file if any would be refused
//! (unless `--skip-refused`), then stores them with a progress bar on a terminal.

use std::io::IsTerminal as _;
use std::path::Path;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressStyle};

use ash_memory::{Caller, FactFile, MemoryStore, RefusedFact, is_export, read_import_text};

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
    let text = read_import_text(path)?;
    if is_export(&text) {
        return run_export(store, caller, &text, skip_refused, out);
    }
    let mut file = FactFile::parse(&text)?;
    let others = other_users(&mut file, caller);
    let refused = store.import_check(caller, &file.facts)?;
    let any_refused = !refused.is_empty() || !others.is_empty();
    if any_refused && !skip_refused {
        for (line, user) in others.iter().take(SHOWN) {
            eprintln!("line {line}: the fact is {user}'s; import it with --user {user}");
        }
        print_refused(&refused, &file);
        bail!(
            "{} of {} facts would be refused, so nothing was imported; fix them, or pass --skip-refused to import the others",
            refused.len() + others.len(),
            file.facts.len() + others.len()
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

/// Takes out the facts that name another user as their owner (mem0's `user_id`): one
/// user's import never stores another's memories. Returns their lines and users.
fn other_users(file: &mut FactFile, caller: &Caller) -> Vec<(usize, String)> {
    let mut others = Vec::new();
    let mut kept = FactFile::default();
    for ((fact, line), user) in file
        .facts
        .drain(..)
        .zip(file.lines.drain(..))
        .zip(file.user_ids.drain(..))
    {
        match user {
            Some(user) if Some(&user) != caller.user_id.as_ref() => others.push((line, user)),
            user => {
                kept.facts.push(fact);
                kept.lines.push(line);
                kept.user_ids.push(user);
            }
        }
    }
    *file = kept;
    others
}

/// Reads an export (see `wit/portability.wit`) for the caller: checked first, refused
/// as a whole when a line would be refused (unless `skip_refused`), then one write.
fn run_export(store: &mut MemoryStore, caller: &Caller, text: &str, skip_refused: bool, out: &Output) -> Result<()> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    // The header is the first line that is not blank; positions count from it.
    let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
    let lines = &lines[first..];
    let check = store.import_records(caller, lines, true)?;
    let show = |refused: &[ash_memory::RefusedLine]| {
        for r in refused.iter().take(SHOWN) {
            eprintln!("line {}: {}", first + r.position as usize + 1, r.reason);
        }
        if refused.len() > SHOWN {
            eprintln!("... and {} more", refused.len() - SHOWN);
        }
    };
    if !check.refused.is_empty() && !skip_refused {
        show(&check.refused);
        bail!(
            "{} lines of the export would be refused, so nothing was imported; fix them, or pass --skip-refused to import the others",
            check.refused.len()
        );
    }
    let report = store.import_records(caller, lines, false)?;
    if !out.json {
        show(&report.refused);
    }
    out.imported_records(&report);
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
