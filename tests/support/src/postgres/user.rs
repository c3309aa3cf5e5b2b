//! The unprivileged user the server runs as when the tests run as root, which Postgres
//! refuses to run as.

use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::run_quietly;

/// The unprivileged user the server runs as when the tests run as root.
pub(super) const SERVER_USER: &str = "ashpg";

/// The user and group ids a server runs as.
#[derive(Clone, Copy)]
pub(super) struct Ids {
    pub(super) uid: u32,
    pub(super) gid: u32,
}

/// Whether this process runs as root. std has no `geteuid`, but a folder this process has
/// just made belongs to its effective user.
pub(super) fn running_as_root(made_by_us: &Path) -> bool {
    fs::metadata(made_by_us).is_ok_and(|meta| meta.uid() == 0)
}

/// The ids of the unprivileged server user, made if missing. Parallel test processes may
/// race to make it: one `useradd` wins, the others fail ("exists", or /etc/passwd locked),
/// so the user's existence is what counts, looked at again after a short wait.
pub(super) fn server_user() -> Result<Ids, String> {
    let mut why = String::new();
    for _ in 0..20 {
        if let (Ok(uid), Ok(gid)) = (id_of("-u"), id_of("-g")) {
            return Ok(Ids { uid, gid });
        }
        let made = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                SERVER_USER,
            ])
            .stdin(Stdio::null())
            .output();
        why = match made {
            Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
            Err(e) => format!("cannot run useradd: {e}"),
        };
        std::thread::sleep(Duration::from_millis(250));
    }
    Err(format!(
        "Postgres refuses to run as root and there is no user {SERVER_USER} to run it as ({why})"
    ))
}

/// `id <flag> ashpg` as a number.
fn id_of(flag: &str) -> Result<u32, String> {
    let out = run_quietly("id", Command::new("id").args([flag, SERVER_USER]))?;
    out.trim()
        .parse()
        .map_err(|e| format!("id {flag} {SERVER_USER} said {out:?}: {e}"))
}

/// `program` run as `owner` (if any): `setpriv` execs it in place, so a child's pid is the
/// program's own and signals reach it directly (`runuser` would stay as its parent).
pub(super) fn command_as(owner: Option<Ids>, program: &Path) -> Command {
    match owner {
        Some(Ids { uid, gid }) => {
            let mut cmd = Command::new("setpriv");
            cmd.arg(format!("--reuid={uid}"))
                .arg(format!("--regid={gid}"))
                .args(["--clear-groups", "--"])
                .arg(program);
            cmd
        }
        None => Command::new(program),
    }
}
