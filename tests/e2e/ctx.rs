//! The shared test context: a temporary `ASH_HOME`, the real `ash-memory` binary, and
//! helpers to run it and to snapshot the home's files byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// One compiled-component cache for the whole run, so only the first call compiles.
pub fn cache_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temp dir")).path()
}

/// A fresh home and the CLI pointed at it.
#[derive(Debug)]
pub struct Ctx {
    dir: tempfile::TempDir,
    env: Vec<(String, String)>,
}

impl Ctx {
    pub fn new() -> Self {
        Ctx {
            dir: tempfile::tempdir().expect("a temp dir"),
            env: Vec::new(),
        }
    }

    /// A fresh home on the Postgres backend, in `namespace` of the test server: homes
    /// given the same namespace share one memory, as hosts on different machines would.
    pub fn on_postgres(pg: &ash_memory_test_support::postgres::PgServer, namespace: &str) -> Self {
        let ctx = Ctx::new().env("ASH_PG_URL", &pg.url());
        ctx.config(&format!(
            "[storage]\nbackend = \"postgres\"\nnamespace = \"{namespace}\"\n"
        ));
        ctx
    }

    /// Sets an environment variable for every later call.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Writes `config.toml`.
    pub fn config(&self, text: &str) {
        std::fs::write(self.home().join("config.toml"), text).expect("write config.toml");
    }

    pub fn archive_lines(&self) -> Vec<Value> {
        std::fs::read_to_string(self.home().join("memory/archive.jsonl"))
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
        let copy = Ctx {
            dir: tempfile::tempdir().expect("a temp dir"),
            env: self.env.clone(),
        };
        copy_dir(self.home(), copy.home());
        copy
    }

    /// Every file under the home except the index, the lock and the host's hidden
    /// bookkeeping (the journal, generation tokens), with its bytes.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        let mut stack = vec![self.home().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("readable home") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else if !path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
                    && path.extension().is_none_or(|e| e != "db")
                {
                    files.insert(path.clone(), std::fs::read(&path).expect("readable file"));
                }
            }
        }
        files
    }

    /// The lines of memories.jsonl, parsed.
    pub fn memory_lines(&self) -> Vec<Value> {
        std::fs::read_to_string(self.memories_path())
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
