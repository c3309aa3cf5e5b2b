//! One server's life: its scratch folder, `initdb`, `postgres` on a free loopback port,
//! the watchdog that stops it when the tests are gone, and `psql`.

use std::fs;
use std::io;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::run_quietly;
use super::user::{Ids, SERVER_USER, command_as};

/// How long a server may take to accept connections before the tests give up on it.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Start attempts: another process may take the free port between our look and the bind.
const START_ATTEMPTS: u32 = 5;

/// A fresh folder for one server (its data folder, log and pid file), which others may
/// enter: the server's user must reach its data folder inside.
pub(super) fn scratch_dir() -> io::Result<PathBuf> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("ash-pg-{}-{nanos}", std::process::id()));
    fs::create_dir(&dir)?;
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// Makes the data folder with `initdb`: trust authentication (loopback only, tests only),
/// the C locale so that results do not depend on the machine's, and no fsync.
pub(super) fn init_data(bin: &Path, data: &Path, owner: Option<Ids>) -> Result<(), String> {
    fs::create_dir(data).map_err(|e| format!("cannot make {}: {e}", data.display()))?;
    if let Some(Ids { uid, gid }) = owner {
        std::os::unix::fs::chown(data, Some(uid), Some(gid))
            .map_err(|e| format!("cannot give {} to {SERVER_USER}: {e}", data.display()))?;
    }
    let parent = data.parent().unwrap_or(data);
    run_quietly(
        "initdb",
        command_as(owner, &bin.join("initdb"))
            .arg("-D")
            .arg(data)
            .args(["-U", "postgres", "--auth=trust", "--no-sync"])
            .args(["-E", "UTF8", "--locale=C"])
            // The test's own folder may be closed to the server's user.
            .current_dir(parent),
    )
    .map_err(|why| match owner {
        Some(_) => format!("{why} (as {SERVER_USER}, who must be able to read {})", bin.display()),
        None => why,
    })?;
    Ok(())
}

/// Starts the server on a free loopback port and waits until it answers; returns the port.
/// A start that fails (most likely the port was taken meanwhile) is tried again on another.
pub(super) fn listen(bin: &Path, scratch: &Path, data: &Path, owner: Option<Ids>) -> Result<u16, String> {
    let log = scratch.join("postgres.log");
    // Unique, and shown in the server's process titles: tells our server from another
    // that got the same port.
    let name = scratch.file_name().unwrap_or_default().to_string_lossy().into_owned();
    for _ in 0..START_ATTEMPTS {
        let port = free_port().map_err(|e| format!("cannot find a free port: {e}"))?;
        let mut child = spawn_postgres(bin, data, port, &name, &log, owner)?;
        // For the watchdog, which stops whatever server this names when the tests are gone.
        fs::write(scratch.join("postgres.pid"), child.id().to_string())
            .map_err(|e| format!("cannot write the pid file: {e}"))?;
        if wait_ready(&mut child, bin, port, &name, &log)? {
            return Ok(port);
        }
    }
    Err(format!(
        "postgres did not start in {START_ATTEMPTS} attempts; its log:\n{}",
        read_log(&log)
    ))
}

/// A loopback port nobody listened on a moment ago.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Starts `postgres` with its output appended to `log`: the test's stdout and stderr must
/// not stay open in a process that outlives the tests, or `cargo test` waits for it.
fn spawn_postgres(
    bin: &Path,
    data: &Path,
    port: u16,
    name: &str,
    log: &Path,
    owner: Option<Ids>,
) -> Result<Child, String> {
    let open_log = || {
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .map_err(|e| format!("cannot open {}: {e}", log.display()))
    };
    let mut cmd = command_as(owner, &bin.join("postgres"));
    cmd.arg("-D")
        .arg(data)
        .args(["-h", "127.0.0.1", "-p", &port.to_string()])
        // The socket in the data folder, not in a system folder that may be missing.
        .arg("-k")
        .arg(data)
        .args(["-c", &format!("cluster_name={name}")])
        // Durability is worth nothing to a test's throwaway data.
        .args([
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            "-c",
            "full_page_writes=off",
        ])
        .args(["-c", "max_connections=200", "-c", "shared_buffers=128MB"])
        .current_dir(data.parent().unwrap_or(data))
        .stdin(Stdio::null())
        .stdout(open_log()?)
        .stderr(open_log()?)
        // Out of the terminal's process group, so that a ^C reaches the tests, whose
        // watchdog then stops the server, rather than the server in mid-test.
        .process_group(0);
    cmd.spawn().map_err(|e| format!("cannot start postgres: {e}"))
}

/// Waits until the server named `name` answers on `port`: true then, false if it exited
/// (worth another try), an error if it neither answers nor exits in time.
fn wait_ready(child: &mut Child, bin: &Path, port: u16, name: &str, log: &Path) -> Result<bool, String> {
    let deadline = Instant::now() + START_TIMEOUT;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return Ok(false);
        }
        // Until it is up, psql fails (refused, or "the database system is starting up").
        if psql(bin, port, "SHOW cluster_name").is_ok_and(|answer| answer.trim() == name) {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // The watchdog stops it when the tests end.
    Err(format!(
        "postgres did not accept connections on port {port} within {} s; its log:\n{}",
        START_TIMEOUT.as_secs(),
        read_log(log)
    ))
}

/// The server's log, for failure messages.
fn read_log(log: &Path) -> String {
    fs::read_to_string(log).unwrap_or_else(|e| format!("(cannot read {}: {e})", log.display()))
}

/// Starts the watchdog: a detached shell that polls this process once a second and, once
/// it is gone, stops the server named in `scratch/postgres.pid` (SIGQUIT is Postgres's
/// immediate shutdown; SIGKILL if it still lingers) and deletes `scratch`. It is in a
/// process group of its own, ignores hangups and ^C, and holds none of the test's output.
pub(super) fn watchdog(scratch: &Path) -> io::Result<()> {
    const SCRIPT: &str = r#"
trap '' HUP INT
while kill -0 "$1" 2>/dev/null; do sleep 1; done
pid=$(cat "$2/postgres.pid" 2>/dev/null)
if [ -n "$pid" ]; then
    kill -QUIT "$pid" 2>/dev/null
    for _ in 1 2 3 4 5; do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL "$pid" 2>/dev/null
fi
rm -rf "$2"
"#;
    Command::new("sh")
        .args(["-c", SCRIPT, "ash-pg-watchdog"])
        .arg(std::process::id().to_string())
        .arg(scratch)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    // Not waited for: it outlives us by design, and init reaps it.
    Ok(())
}

/// Runs `sql` with psql as the superuser over loopback TCP, stopping at the first error;
/// returns its output, unaligned and without headers. psql is only a client, so it runs as
/// whoever runs the tests; it finds the wheel's libpq through its own rpath.
pub(super) fn psql(bin: &Path, port: u16, sql: &str) -> Result<String, String> {
    run_quietly(
        "psql",
        Command::new(bin.join("psql"))
            // -w: never prompt for a password (a stranger's server on our port might ask).
            .args(["-X", "-w", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"])
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                "postgres",
                "-d",
                "postgres",
            ])
            .args(["-c", sql]),
    )
    .map_err(|why| format!("{why}\n(the SQL: {sql})"))
}
