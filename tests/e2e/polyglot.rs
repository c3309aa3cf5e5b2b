//! The same component in three hosts: the JavaScript (`bindings/js`) and Python
//! (`bindings/python`) packages run their own suites here, against this build's component and
//! CLI, and then all three hosts are held to one another: the same component bytes, the same
//! conformance scenarios, homes identical byte for byte, and each host reading the homes
//! the others wrote.
//!
//! The first run installs the packages' dependencies from the registries: `npm install` in
//! `bindings/js` (better-sqlite3 and fs-ext compile with node-gyp, a few minutes) and a
//! virtual environment under the target folder for the Python package.
//!
//! None of it runs again in the end-to-end suite's pass on Postgres: the JavaScript and
//! Python hosts keep their homes in files whatever `ASH_TEST_BACKEND` says (it is the Rust
//! CLI's), so a second pass would only repeat the first, minutes of it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::support::ctx::{Ctx, cache_dir, files_only};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The component this build published for the other hosts: the policy with the index in it.
fn component() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join("ash_memory.wasm")
}

/// Runs `cmd` and insists on success, showing everything it printed if not.
fn run(what: &str, cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A command with the environment the hosts read cleaned out, and the Rust CLI named. The
/// CLI is always there, so the suites' tests that need it must run: a skip fails
/// (`ASH_TEST_REQUIRE_CLI=1`).
fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = Command::new(program);
    for var in [
        "ASH_HOME",
        "ASH_USER_ID",
        "ASH_CHAT_ID",
        "ASH_NOW",
        "ASH_COMPONENT",
        "ASH_LOG",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("ASH_CLI", env!("CARGO_BIN_EXE_ash-memory"))
        .env("ASH_TEST_REQUIRE_CLI", "1")
        .env("ASH_CACHE_DIR", cache_dir());
    cmd
}

/// `bindings/js` with its dependencies installed and this build's component transpiled.
fn js() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = workspace().join("bindings/js");
        let lock = std::fs::read_to_string(dir.join("package-lock.json")).expect("bindings/js/package-lock.json");
        let stamp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("js-installed.txt");
        if !dir.join("node_modules").is_dir() || std::fs::read_to_string(&stamp).ok() != Some(lock.clone()) {
            // `npm ci` would refuse the lock file: the registry lacks some optional
            // platform packages of jco's dependencies, so the lock cannot list them.
            run(
                "npm install in bindings/js",
                command("npm")
                    .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                    .current_dir(&dir),
            );
            std::fs::write(&stamp, &lock).unwrap();
        }
        run(
            "npm run build in bindings/js",
            command("npm")
                .args(["run", "build", "--silent"])
                .env("ASH_COMPONENT", component())
                .current_dir(&dir),
        );
        dir
    })
}

/// A Python with the `bindings/python` package installed from this checkout (rebuilt each
/// run, so that it holds this build's component) and pytest.
fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let package = workspace().join("bindings/python");
        let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hosts-venv");
        let python = venv.join("bin/python");
        let wanted = std::fs::read_to_string(package.join("pyproject.toml")).expect("bindings/python/pyproject.toml");
        let stamp = venv.join("installed.txt");
        if std::fs::read_to_string(&stamp).ok() != Some(wanted.clone()) {
            let _ = std::fs::remove_dir_all(&venv);
            run(
                "python3 -m venv",
                command(plain_python()).args(["-m", "venv"]).arg(&venv),
            );
            run(
                "pip install bindings/python[test]",
                command(&python)
                    .args(["-m", "pip", "install", "--quiet", "hatchling"])
                    .arg(format!("{}[test]", package.display()))
                    .env("ASH_COMPONENT", component()),
            );
            std::fs::write(&stamp, &wanted).unwrap();
        }
        run(
            "pip install bindings/python (this build's component)",
            command(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--no-deps",
                    "--no-build-isolation",
                    "--force-reinstall",
                ])
                .arg(&package)
                .env("ASH_COMPONENT", component()),
        );
        python
    })
}

/// The Python the package is tried with: one whose own `sqlite3` cannot load extensions
/// when there is one (pyenv's and python.org's builds, as a user meets them), since that is
/// the interpreter the package must not need more than itself for; else `python3`.
fn plain_python() -> &'static str {
    let loads = |python: &str| {
        let check = "import sqlite3; sqlite3.connect(':memory:').enable_load_extension(True)";
        Command::new(python)
            .args(["-c", check])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let found = ["python3", "/usr/bin/python3"].into_iter().find(|p| {
        Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
            && !loads(p)
    });
    found.unwrap_or("python3")
}

/// Whether this is the pass on Postgres, which the other hosts' homes never use.
fn backend_is_not_theirs() -> bool {
    files_only("the JavaScript and Python hosts keep their homes in files")
}

#[test]
fn the_javascript_host_passes_its_suite() {
    if backend_is_not_theirs() {
        return;
    }
    run(
        "npm test in bindings/js",
        command("npm").args(["test", "--silent"]).current_dir(js()),
    );
}

#[test]
fn the_python_host_passes_its_suite() {
    if backend_is_not_theirs() {
        return;
    }
    run(
        "pytest in bindings/python",
        command(python())
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .current_dir(workspace().join("bindings/python")),
    );
}

#[test]
fn the_three_hosts_load_the_same_component() {
    if backend_is_not_theirs() {
        return;
    }
    let published: String = Sha256::digest(std::fs::read(component()).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let rust = Ctx::new().ok(&["component", "--sha256"]);
    let js = run(
        "the JavaScript host's componentSha256",
        command("node")
            .args(["--input-type=module", "-e"])
            .arg("import { componentSha256 } from './src/index.js'; console.log(componentSha256());")
            .current_dir(js()),
    );
    // The installed package's own copy, from anywhere but its source folder.
    let python = run(
        "the Python host's component_sha256",
        command(python())
            .args(["-c", "import ash_memory; print(ash_memory.component_sha256())"])
            .current_dir(std::env::temp_dir()),
    );
    assert_eq!(rust.trim(), published);
    assert_eq!(String::from_utf8_lossy(&js.stdout).trim(), published);
    assert_eq!(String::from_utf8_lossy(&python.stdout).trim(), published);
}

/// The encoder module the other hosts run is the one the Rust binary hands out, and the one
/// each package ships.
#[test]
fn the_three_hosts_run_the_same_encoder_module() {
    if backend_is_not_theirs() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("encoder.wasm");
    let ctx = Ctx::new();
    ctx.ok(&["component", "--encoder", "--out", out.to_str().unwrap()]);
    let handed_out = std::fs::read(&out).unwrap();
    let built = std::fs::read(component().with_file_name("ash_memory_encoder.wasm")).unwrap();
    assert!(handed_out == built, "the binary's encoder differs from the build's");
    let digest: String = Sha256::digest(&built).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(ctx.ok(&["component", "--encoder", "--sha256"]).trim(), digest);
    // JavaScript's copy, and the installed Python package's.
    let js_copy = std::fs::read(js().join("model/transformer/encoder.wasm")).unwrap();
    assert!(js_copy == built, "bindings/js ships another encoder");
    let python = run(
        "the Python package's encoder",
        command(python())
            .args(["-c", "import ash_memory, pathlib; print(pathlib.Path(ash_memory.__file__).parent / 'model/transformer/encoder.wasm')"])
            .current_dir(std::env::temp_dir()),
    );
    let installed = std::fs::read(String::from_utf8_lossy(&python.stdout).trim()).unwrap();
    assert!(installed == built, "the Python package ships another encoder");
}

/// The collections of a home, by path: what must be the same bytes in every host.
fn collections(home: &Path) -> BTreeMap<String, Vec<u8>> {
    [
        "memory/memories.jsonl",
        "memory/archive.jsonl",
        "people.jsonl",
        "config.toml",
    ]
    .into_iter()
    .filter_map(|f| Some((f.to_owned(), std::fs::read(home.join(f)).ok()?)))
    .collect()
}

fn scenario_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(workspace().join("tests/conformance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    files
}

/// What each host reads for alice in `home`, as JSON: her memories (replaced ones too), a
/// search for `query` (through the index whoever wrote it) and her people.
fn readings(home: &Path, query: &str) -> [Value; 3] {
    // Read at the scenarios' own time: a search records accesses, and a reading later
    // than a day after the writes would see the first reader's access and its decay.
    const NOW: &str = "2026-03-01T12:00:00Z";
    let ctx = Ctx::new();
    let alice = |args: &[&str]| {
        let mut all = vec!["--now", NOW, "--home", home.to_str().unwrap(), "--user", "alice"];
        all.extend_from_slice(args);
        ctx.json(&all)
    };
    let rust = serde_json::json!({
        "list": alice(&["list", "--include-superseded"]),
        "search": alice(&["search", query]),
        "people": alice(&["people", "list"]),
    });
    let js = run(
        "the JavaScript host reads",
        command("node")
            .args(["--input-type=module", "-e"])
            .arg(
                "import { openMemory } from './src/index.js';
                 const m = await openMemory({ home: process.argv[1], now: process.argv[3] });
                 const alice = { user: 'alice' };
                 console.log(JSON.stringify({
                   list: await m.list(alice, { includeSuperseded: true }),
                   search: await m.search(alice, { query: process.argv[2] }),
                   people: await m.people.list(alice),
                 }));
                 m.close();",
            )
            .arg(home)
            .arg(query)
            .arg(NOW)
            .current_dir(js()),
    );
    let python = run(
        "the Python host reads",
        command(python())
            .args([
                "-c",
                "import json, sys; from ash_memory import Memory\n\
                 with Memory(sys.argv[1], user='alice', now=sys.argv[3]) as m:\n\
                 \x20   print(json.dumps({'list': [x.to_dict() for x in m.list(include_superseded=True)],\n\
                 \x20                     'search': m.search(sys.argv[2]).to_dict(),\n\
                 \x20                     'people': [p.to_dict() for p in m.people.list()]}))",
            ])
            .arg(home)
            .arg(query)
            .arg(NOW),
    );
    let parse = |o: &Output| serde_json::from_slice(&o.stdout).expect("a JSON reading");
    [rust, parse(&js), parse(&python)].map(|mut v| {
        scores_as_f32(&mut v);
        v
    })
}

/// Scores are f32 in the contract: Rust prints them as f32, JavaScript and Python as the f64
/// that holds the same value. Both are read back as that f32, so equal scores compare equal.
fn scores_as_f32(v: &mut Value) {
    match v {
        Value::Object(fields) => {
            for (key, value) in fields.iter_mut() {
                match value.as_f64() {
                    Some(x) if key == "score" || key == "similarity" => *value = serde_json::json!(x as f32),
                    _ => scores_as_f32(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(scores_as_f32),
        _ => {}
    }
}

#[test]
fn homes_are_the_same_bytes_in_every_host_and_each_reads_the_others() {
    if backend_is_not_theirs() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let keep = |host: &str| dir.path().join(host);
    let files = scenario_files();
    let mut rust = vec![
        "conformance".to_owned(),
        "--keep".to_owned(),
        keep("rust").display().to_string(),
    ];
    rust.extend(files.iter().cloned());
    run(
        "the Rust conformance run",
        command(env!("CARGO_BIN_EXE_ash-memory")).args(&rust),
    );
    run(
        "the JavaScript conformance run",
        command("node")
            .args(["test/conformance.mjs", "--keep"])
            .arg(keep("js"))
            .args(&files)
            .current_dir(js()),
    );
    run(
        "the Python conformance run",
        command(python())
            .args(["-m", "ash_memory.conformance", "--keep"])
            .arg(keep("python"))
            .args(&files),
    );
    for file in &files {
        let name = Path::new(file).file_stem().unwrap();
        let expected = collections(&keep("rust").join(name));
        assert!(
            expected.contains_key("memory/memories.jsonl"),
            "{name:?} wrote no memories"
        );
        for host in ["js", "python"] {
            let got = collections(&keep(host).join(name));
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                expected.keys().collect::<Vec<_>>(),
                "{host} wrote other files for {name:?}"
            );
            for (path, bytes) in &expected {
                assert!(got[path] == *bytes, "{host}'s {path} differs from Rust's in {name:?}");
            }
        }
    }
    // Every host reads every host's home the same way, its index included (a search for the
    // first memory's text); the Rust doctor finds each index in step with its files (nothing
    // to rebuild), whoever wrote it.
    for writer in ["rust", "js", "python"] {
        for scenario in ["people", "supersession", "expiry-and-gc"] {
            let home = keep(writer).join(scenario);
            let listed = Ctx::new().json(&["--home", home.to_str().unwrap(), "--user", "alice", "list"]);
            let query = listed[0]["content"]
                .as_str()
                .unwrap_or_else(|| panic!("{writer}/{scenario}: alice has no memory: {listed}"));
            let [rust, js, python] = readings(&home, query);
            assert!(
                rust["search"]["hits"].as_array().is_some_and(|h| !h.is_empty()),
                "{writer}/{scenario}: {rust}"
            );
            if scenario == "people" {
                assert!(
                    rust["people"].as_array().is_some_and(|p| !p.is_empty()),
                    "{writer}/{scenario}: {rust}"
                );
            }
            assert_eq!(
                js, rust,
                "the JavaScript host reads {writer}'s {scenario} home otherwise"
            );
            assert_eq!(
                python, rust,
                "the Python host reads {writer}'s {scenario} home otherwise"
            );
            let doctor = Ctx::new().ok(&["--home", home.to_str().unwrap(), "doctor"]);
            assert!(!doctor.contains("WARN"), "{writer}/{scenario}: {doctor}");
        }
    }
}
