//! The host's half of `doctor`: what only the host can see. Quarantined lines, temporary
//! files left by a process that died in the middle of a replace, and file modes (memories
//! are personal: 0600 files, 0700 folders). The policy's half (index against files,
//! embeddings, people) runs in the component.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::contract::Finding;
use crate::home::Home;

/// Runs the host's checks; the caller holds the home's lock.
pub(crate) fn host_checks(home: &Home, fix: bool) -> Vec<Finding> {
    vec![quarantine(home), temporary_files(home, fix), modes(home, fix)]
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default()
}

fn name(path: &Path) -> &str {
    path.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// Each quarantine file with lines in it, and how many.
fn quarantine_files(home: &Home) -> Vec<(PathBuf, usize)> {
    let mut files = Vec::new();
    for dir in [home.root().to_path_buf(), home.root().join("memory")] {
        for path in entries(&dir) {
            if name(&path).ends_with(".quarantine.jsonl") {
                let n = std::fs::read_to_string(&path)
                    .map(|t| t.lines().filter(|l| !l.trim().is_empty()).count())
                    .unwrap_or(0);
                if n > 0 {
                    files.push((path, n));
                }
            }
        }
    }
    files
}

/// Lines set aside in the quarantine files, all told.
pub(crate) fn quarantined_lines(home: &Home) -> u64 {
    quarantine_files(home).iter().map(|(_, n)| *n as u64).sum()
}

fn quarantine(home: &Home) -> Finding {
    let found = quarantine_files(home);
    let total: usize = found.iter().map(|(_, n)| n).sum();
    let files: Vec<String> = found.iter().map(|(p, n)| format!("{} ({n})", p.display())).collect();
    Finding {
        check: "quarantine".into(),
        ok: total == 0,
        detail: if total == 0 {
            "no lines set aside".into()
        } else {
            format!(
                "{total} line(s) set aside, kept for you to read or mend by hand: {}",
                files.join(", ")
            )
        },
        fixed: false,
    }
}

fn temporary_files(home: &Home, fix: bool) -> Finding {
    let leftovers: Vec<PathBuf> = [home.root().to_path_buf(), home.root().join("memory")]
        .iter()
        .flat_map(|d| entries(d))
        .filter(|p| {
            let n = name(p);
            n.starts_with('.') && n.contains(".tmp-")
        })
        .collect();
    if leftovers.is_empty() {
        return Finding {
            check: "temporary files".into(),
            ok: true,
            detail: "none left over".into(),
            fixed: false,
        };
    }
    // With the lock held no replace is under way: these are from a process that died.
    let fixed = fix && leftovers.iter().all(|p| std::fs::remove_file(p).is_ok());
    Finding {
        check: "temporary files".into(),
        ok: false,
        detail: format!(
            "{} left by an interrupted rewrite{}",
            leftovers.len(),
            if fixed {
                "; removed"
            } else {
                "; `doctor --fix` removes them"
            }
        ),
        fixed,
    }
}

fn modes(home: &Home, fix: bool) -> Finding {
    let mut loose: Vec<(PathBuf, u32, u32)> = Vec::new();
    let mut stack = vec![home.root().to_path_buf()];
    while let Some(dir) = stack.pop() {
        let want_dir = 0o700;
        // The home folder itself may be one the user chose and shares; what it holds
        // (every file 0600, our folders 0700) is what must be private.
        if dir != home.root()
            && let Ok(meta) = std::fs::metadata(&dir)
            && meta.permissions().mode() & 0o077 != 0
        {
            loose.push((dir.clone(), meta.permissions().mode() & 0o777, want_dir));
        }
        for path in entries(&dir) {
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() && meta.permissions().mode() & 0o077 != 0 {
                loose.push((path, meta.permissions().mode() & 0o777, 0o600));
            }
        }
    }
    if loose.is_empty() {
        return Finding {
            check: "file modes".into(),
            ok: true,
            detail: "files are 0600 and folders 0700".into(),
            fixed: false,
        };
    }
    let fixed = fix
        && loose
            .iter()
            .all(|(p, _, want)| std::fs::set_permissions(p, std::fs::Permissions::from_mode(*want)).is_ok());
    let shown: Vec<String> = loose
        .iter()
        .take(5)
        .map(|(p, mode, _)| format!("{} ({mode:o})", p.display()))
        .collect();
    Finding {
        check: "file modes".into(),
        ok: false,
        detail: format!(
            "{} readable by others: {}{}{}",
            loose.len(),
            shown.join(", "),
            if loose.len() > 5 { ", ..." } else { "" },
            if fixed {
                "; made owner-only"
            } else {
                "; `doctor --fix` makes them owner-only"
            }
        ),
        fixed,
    }
}
