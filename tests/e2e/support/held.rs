//! A CLI call held at a fault point (`ASH_FAULT_MODE=pause`) while a test works beside it,
//! then let go on.

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use super::ctx::Ctx;

/// A running CLI call, held at its fault point until [`Held::resume`].
pub struct Held {
    call: Child,
    /// The folder through which the call says it is held and is told to go on.
    pause: tempfile::TempDir,
}

impl Held {
    /// Starts `ash-memory --json ARGS` and waits until it is held at the first fault point
    /// named `at`.
    pub fn at(ctx: &Ctx, at: &str, args: &[&str]) -> Held {
        let pause = tempfile::tempdir().expect("a temp dir");
        let call = ctx
            .command()
            .env("ASH_FAULT", at)
            .env("ASH_FAULT_MODE", "pause")
            .env("ASH_FAULT_PAUSE", pause.path())
            .arg("--json")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let until = Instant::now() + Duration::from_secs(60);
        while !pause.path().join("paused").exists() {
            assert!(Instant::now() < until, "the call never reached {at}");
            std::thread::sleep(Duration::from_millis(10));
        }
        Held { call, pause }
    }

    /// Lets the call go on; what it printed, once it succeeded.
    pub fn resume(self) -> serde_json::Value {
        std::fs::write(self.pause.path().join("resume"), "").unwrap();
        let out = self.call.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("one JSON document")
    }
}
