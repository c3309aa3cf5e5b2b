//! `ash-memory conformance FILES...`: the Rust host's runner for the scenarios every host
//! of the policy component must pass (format: `tests/conformance/README.md`). Each step is
//! a JSON-RPC method, run through the server's own method table on an opened store, so
//! that what is checked is what a client of `serve` gets.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use serde_json::{Map, Value};

use ash_memory::{Clock, Ids, MemoryStore};

use crate::server::methods;
use crate::server::rpc::RpcError;
use crate::server::session::owner_caller;

/// A scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    #[allow(dead_code)]
    description: String,
    now: String,
    config: Option<String>,
    steps: Vec<Step>,
}

/// One call and what it must answer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    #[allow(dead_code)]
    note: Option<String>,
    now: Option<String>,
    method: String,
    #[serde(default)]
    params: Map<String, Value>,
    expect: Option<Value>,
    error: Option<String>,
}

/// Runs every scenario; prints a line for each and says whether all passed.
pub fn run(files: &[PathBuf], keep: Option<&Path>, verbose: bool, postgres: Option<&str>) -> Result<bool> {
    if files.is_empty() {
        bail!("name the scenario files: conformance tests/conformance/*.json");
    }
    let mut failed = 0;
    for file in files {
        let name = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("scenario")
            .to_owned();
        // Each scenario starts from an empty memory: a namespace of its own.
        let storage = postgres.map(|prefix| {
            let namespace = format!("{prefix}_{name}").to_ascii_lowercase().replace('-', "_");
            format!("\n[storage]\nbackend = \"postgres\"\nnamespace = \"{namespace}\"\n")
        });
        match run_one(file, &name, keep, verbose, storage.as_deref()) {
            Ok(steps) => println!("ok    {name} ({steps} steps)"),
            Err(e) => {
                failed += 1;
                println!("FAIL  {name}: {e:#}");
            }
        }
    }
    println!("{} passed, {failed} failed", files.len() - failed);
    Ok(failed == 0)
}

fn run_one(file: &Path, name: &str, keep: Option<&Path>, verbose: bool, storage: Option<&str>) -> Result<usize> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let scenario: Scenario = serde_json::from_str(&text).with_context(|| format!("parsing {}", file.display()))?;
    let scratch;
    let home = match keep {
        Some(dir) => {
            let home = dir.join(name);
            if home.exists() {
                bail!("{} exists; --keep needs a folder without it", home.display());
            }
            home
        }
        None => {
            scratch = tempfile::tempdir()?;
            scratch.path().join("home")
        }
    };
    std::fs::create_dir_all(&home)?;
    let config = match (&scenario.config, storage) {
        (None, None) => None,
        (config, storage) => Some(format!("{}{}", config.as_deref().unwrap_or(""), storage.unwrap_or(""))),
    };
    if let Some(config) = &config {
        // Owner-only, as everything in a home.
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        std::fs::OpenOptions::new()
            .create_new(true)
            .write(true)
            .mode(0o600)
            .open(home.join("config.toml"))?
            .write_all(config.as_bytes())?;
    }
    let mut store = MemoryStore::builder(&home)
        .clock(Clock::fixed(&scenario.now).map_err(anyhow::Error::msg)?)
        .ids(Ids::Sequential)
        .open()?;
    for (i, step) in scenario.steps.iter().enumerate() {
        let at = format!("step {} ({})", i + 1, step.method);
        if let Some(now) = &step.now {
            store.set_clock(Clock::fixed(now).map_err(anyhow::Error::msg).context(at.clone())?);
        }
        let outcome = call(&mut store, &step.method, step.params.clone());
        if verbose {
            match &outcome {
                Ok(result) => println!("  {at}: {result}"),
                Err(kind) => println!("  {at}: error {kind}"),
            }
        }
        check(step, outcome).context(at)?;
    }
    Ok(scenario.steps.len())
}

/// Runs one method as the owner's socket would, answering the result or the error kind.
fn call(store: &mut MemoryStore, method: &str, mut params: Map<String, Value>) -> Result<Value, String> {
    let caller = owner_caller(&mut params).map_err(|e| kind(&e))?;
    let job = methods::prepare(method, caller, params).map_err(|e| kind(&e))?;
    job(store).map_err(|e| kind(&RpcError::from(e)))
}

/// The error's `data.kind`, or for the standard JSON-RPC codes, their names.
fn kind(e: &RpcError) -> String {
    if let Some(kind) = e.data.as_ref().and_then(|d| d.get("kind")).and_then(Value::as_str) {
        return kind.to_owned();
    }
    match e.code {
        -32602 => "invalid_params",
        -32601 => "method_not_found",
        -32600 => "invalid_request",
        _ => "internal",
    }
    .to_owned()
}

fn check(step: &Step, outcome: Result<Value, String>) -> Result<()> {
    match (&step.error, outcome) {
        (Some(want), Err(got)) if *want == got => Ok(()),
        (Some(want), Err(got)) => bail!("expected error {want}, got error {got}"),
        (Some(want), Ok(result)) => bail!("expected error {want}, got {result}"),
        (None, Err(got)) => bail!("failed with {got}"),
        (None, Ok(result)) => match step.expect.as_ref().and_then(|e| mismatch(e, &result, "")) {
            Some(why) => bail!("{why}\n  got: {result}"),
            None => Ok(()),
        },
    }
}

/// Where `actual` does not match `expected` as a subset (see the format's README).
fn mismatch(expected: &Value, actual: &Value, at: &str) -> Option<String> {
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => want.iter().find_map(|(key, w)| match got.get(key) {
            Some(g) => mismatch(w, g, &format!("{at}/{key}")),
            None => Some(format!("{at}/{key}: missing")),
        }),
        (Value::Array(want), Value::Array(got)) if want.len() == got.len() => want
            .iter()
            .zip(got)
            .enumerate()
            .find_map(|(i, (w, g))| mismatch(w, g, &format!("{at}/{i}"))),
        (Value::Array(want), Value::Array(got)) => {
            Some(format!("{at}: expected {} elements, got {}", want.len(), got.len()))
        }
        (Value::Number(w), Value::Number(g)) => {
            let (w, g) = (w.as_f64().unwrap_or(f64::NAN), g.as_f64().unwrap_or(f64::NAN));
            ((w - g).abs() > 1e-4).then(|| format!("{at}: expected {w}, got {g}"))
        }
        (w, g) => (w != g).then(|| format!("{at}: expected {w}, got {g}")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::mismatch;

    #[test]
    fn expectations_match_as_subsets() {
        let got = json!({"hits": [{"id": "a", "score": 0.51234, "x": 1}], "notices": []});
        assert_eq!(
            mismatch(&json!({"hits": [{"id": "a", "score": 0.5123}]}), &got, ""),
            None
        );
        assert!(
            mismatch(&json!({"hits": []}), &got, "")
                .unwrap()
                .contains("expected 0 elements")
        );
        assert!(
            mismatch(&json!({"hits": [{"id": "b"}]}), &got, "")
                .unwrap()
                .contains("/hits/0/id")
        );
        assert!(mismatch(&json!({"gone": null}), &got, "").unwrap().contains("missing"));
        assert!(mismatch(&json!({"hits": [{"score": 0.6}]}), &got, "").is_some());
    }
}
