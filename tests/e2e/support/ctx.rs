//! The shared test context: a temporary `ASH_HOME`, the real `ash-memory` binary, and
//! helpers to run it and to snapshot the home's files byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use ash_memory_test_support::postgres::{self, PgServer};
use serde_json::Value;

/// One compiled-component cache for the whole run, so only the first call compiles.
pub fn cache_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temp dir")).path()
}

/// The Postgres server every home of this run lives on, when the suite runs a second time
/// on that backend (`ASH_TEST_BACKEND=postgres`, as `.ci/run` does).
pub fn postgres_run() -> Option<&'static PgServer> {
    static RUN: OnceLock<bool> = OnceLock::new();
    let on = *RUN.get_or_init(|| std::env::var("ASH_TEST_BACKEND").is_ok_and(|b| b == "postgres"));
    on.then(|| postgres::server().expect("ASH_TEST_BACKEND=postgres needs a Postgres"))
}

/// For a test of the files backend itself (its bytes, its journal, its index file): true,
/// and a note on stderr, when this run is on Postgres, where the test does not apply.
pub fn files_only(why: &str) -> bool {
    let skip = postgres_run().is_some();
    if skip {
        eprintln!("not run on Postgres: {why}");
    }
    skip
}

/// A fresh home and the CLI pointed at it.
#[derive(Debug)]
pub struct Ctx {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
    /// The namespace when the home is on Postgres.
    namespace: Option<String>,
}

impl Ctx {
    /// A fresh home: on the files backend, or on a fresh Postgres namespace in a
    /// Postgres run of the suite.
    pub fn new() -> Self {
        match postgres_run() {
            Some(pg) => Ctx::on_postgres(pg, &pg.namespace("e2e")),
            None => Ctx::on_files(),
        }
    }

    /// A fresh home on the files backend, whatever the run.
    pub fn on_files() -> Self {
        Ctx {
            dir: tempfile::tempdir().expect("a temp dir"),
            env: Vec::new(),
            namespace: None,
        }
    }

    /// A fresh home on the Postgres backend, in `namespace` of the test server: homes
    /// given the same namespace share one memory, as hosts on different machines would.
    pub fn on_postgres(pg: &PgServer, namespace: &str) -> Self {
        let mut ctx = Ctx::on_files().env("ASH_PG_URL", &pg.url());
        ctx.namespace = Some(namespace.to_owned());
        ctx.config("");
        ctx
    }

    /// The lines of a collection (0 memories, 2 archive) as Postgres holds them, joined as
    /// the file would hold them; `None` on the files backend.
    fn pg_collection(&self, collection: u8) -> Option<String> {
        let namespace = self.namespace.as_ref()?;
        let pg = postgres::server().expect("a Postgres for a home on it");
        // Before the first call the namespace has no tables: nothing is written yet.
        let exists = pg.psql(&format!("SELECT to_regclass('ash_{namespace}.lines') IS NOT NULL"));
        if exists.trim() != "t" {
            return Some(String::new());
        }
        let text = pg.psql(&format!(
            "SELECT coalesce(string_agg(line || E'\\n', '' ORDER BY pos), '')
             FROM ash_{namespace}.lines WHERE collection = {collection}"
        ));
        // psql -At ends its output with one newline of its own.
        Some(text.strip_suffix('\n').unwrap_or(&text).to_owned())
    }

    /// Sets an environment variable for every later call.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Writes `config.toml` (with the home's `[storage]` section when it is on Postgres),
    /// owner-only as `doctor` wants it.
    pub fn config(&self, text: &str) {
        use std::os::unix::fs::PermissionsExt;
        let storage = match &self.namespace {
            Some(ns) => format!("\n[storage]\nbackend = \"postgres\"\nnamespace = \"{ns}\"\n"),
            None => String::new(),
        };
        let path = self.home().join("config.toml");
        std::fs::write(&path, format!("{text}{storage}")).expect("write config.toml");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("config.toml owner-only");
    }

    pub fn archive_lines(&self) -> Vec<Value> {
        self.pg_collection(2)
            .or_else(|| std::fs::read_to_string(self.home().join("memory/archive.jsonl")).ok())
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("archive lines are JSON"))
            .collect()
    }

    pub fn home(&self) -> &Path {
        self.dir.path()
    }

    pub fn memories_path(&self) -> PathBuf {
        self.home().join("memory/memories.jsonl")
    }

    pub fn index_path(&self) -> PathBuf {
        self.home().join("data/memory.db")
    }

    /// The `ash-memory` command with this home and the shared cache, nothing inherited
    /// that could change its behaviour.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ash-memory"));
        for var in ["ASH_USER_ID", "ASH_CHAT_ID", "ASH_NOW", "ASH_COMPONENT", "ASH_LOG"] {
            cmd.env_remove(var);
        }
        cmd.env("ASH_HOME", self.home()).env("ASH_CACHE_DIR", cache_dir());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// `sh -c SCRIPT` with this context's environment and `$BIN` naming the binary, for
    /// tests that run many calls in one process of their own.
    pub fn shell(&self, script: &str) -> Command {
        let mut sh = Command::new("sh");
        for (k, v) in self.command().get_envs() {
            match v {
                Some(v) => sh.env(k, v),
                None => sh.env_remove(k),
            };
        }
        sh.env("BIN", env!("CARGO_BIN_EXE_ash-memory")).arg("-ec").arg(script);
        sh
    }

    /// Runs with these arguments.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command().args(args).output().expect("the binary runs")
    }

    /// Runs and expects success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "ash-memory {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    /// Runs with `--json` and expects success; returns the parsed document.
    pub fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let text = self.ok(&all);
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("stdout of {args:?} is not one JSON document ({e}): {text}"))
    }

    /// Runs, expects failure with a clean message (no panic, no backtrace), returns stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.run(args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            !out.status.success(),
            "ash-memory {args:?} should fail; stdout: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(stderr.contains("error:"), "no error message: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
            "not a clean error: {stderr}"
        );
        stderr
    }

    /// Adds a personal memory for `user` and returns its id.
    pub fn add(&self, user: &str, text: &str) -> String {
        self.json(&["--user", user, "add", text])["id"]
            .as_str()
            .expect("an id")
            .to_owned()
    }

    /// The contents of search hits for `user`, best first.
    pub fn search(&self, user: &str, query: &str) -> Vec<String> {
        contents(&self.json(&["--user", user, "search", query])["hits"])
    }

    /// A new context with the same settings and a byte-for-byte copy of this home.
    pub fn copy(&self) -> Ctx {
        assert!(self.namespace.is_none(), "a home on Postgres cannot be copied as files");
        let copy = Ctx {
            dir: tempfile::tempdir().expect("a temp dir"),
            env: self.env.clone(),
            namespace: None,
        };
        copy_dir(self.home(), copy.home());
        copy
    }

    /// Every file under the home except the index, the lock and the host's hidden
    /// bookkeeping (the journal, generation tokens), with its bytes (a server's `run/`
    /// left out); on Postgres, each
    /// collection's rows too. The index is a cache of the files; its SQLite companions
    /// (`-wal`, `-shm`) count as the index, since a call that only reads it opens them.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        let mut stack = vec![self.home().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("readable home") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    // `run/` holds a server's socket and its pid, not memory.
                    if path != self.home().join("run") {
                        stack.push(path);
                    }
                } else if !path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
                    && path
                        .extension()
                        .is_none_or(|e| !["db", "db-wal", "db-shm"].contains(&&*e.to_string_lossy()))
                {
                    files.insert(path.clone(), std::fs::read(&path).expect("readable file"));
                }
            }
        }
        // On Postgres the collections are rows: each as the bytes its file would hold.
        for collection in 0..5 {
            if let Some(text) = self.pg_collection(collection) {
                files.insert(PathBuf::from(format!("postgres:{collection}")), text.into_bytes());
            }
        }
        files
    }

    /// Every file under the home with its bytes, the index, the journal and the lock
    /// included: what a test of what the home keeps on disk reads.
    pub fn every_file(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let mut stack = vec![self.home().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("readable home") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let bytes = std::fs::read(&path).expect("readable file");
                    files.push((path, bytes));
                }
            }
        }
        files
    }

    /// The lines of memories.jsonl (or of the memories collection in Postgres), parsed.
    pub fn memory_lines(&self) -> Vec<Value> {
        self.pg_collection(0)
            .or_else(|| std::fs::read_to_string(self.memories_path()).ok())
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
            .collect()
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    let mode = std::fs::metadata(from).expect("a folder").permissions();
    std::fs::set_permissions(to, mode).expect("copy the folder's mode");
    for entry in std::fs::read_dir(from).expect("readable home") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

/// The `content` of each object in a JSON array.
pub fn contents(hits: &Value) -> Vec<String> {
    hits.as_array()
        .expect("an array")
        .iter()
        .map(|h| h["content"].as_str().expect("content").to_owned())
        .collect()
}

/// Each hit of a `search --json` answer: its content and the reasons it was found, best
/// first.
pub fn contents_and_reasons(found: &Value) -> Vec<(String, Vec<String>)> {
    found["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| {
            let reasons = h["reasons"].as_array().expect("reasons");
            let reasons = reasons
                .iter()
                .map(|r| r.as_str().expect("a reason").to_owned())
                .collect();
            (h["content"].as_str().expect("content").to_owned(), reasons)
        })
        .collect()
}
