//! Test-only fault injection: numbered points at every write step, so that the crash test
//! can kill the process between any two writes. Compiled into debug builds only; release
//! builds ignore the variables.
//!
//! - `ASH_FAULT_TRACE=1` prints `ash-fault-point N NAME` on stderr at each point.
//! - `ASH_FAULT=N` aborts the process (as `kill -9` would, no unwinding, no cleanup) at
//!   the Nth point; `ASH_FAULT=NAME` at the first point of that name, `NAME@K` at the
//!   Kth. At a point named `...:torn`, half of the bytes about to be written are written
//!   first, as a power cut in the middle of a write would leave them.
//! - `ASH_FAULT_MODE=error` makes the selected point fail with an I/O error instead, to
//!   test what a failing write leaves behind.
//! - `ASH_FAULT_MODE=pause` with `ASH_FAULT_PAUSE=DIR` holds the call at the selected
//!   point instead: it makes `DIR/paused` and goes on once `DIR/resume` exists, so that a
//!   test can do something else while a call is half way.

#[cfg(debug_assertions)]
mod imp {
    use std::collections::HashMap;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Mutex, OnceLock};

    static COUNT: AtomicU64 = AtomicU64::new(0);

    enum Target {
        Nth(u64),
        Named(String, u64),
    }

    struct Config {
        target: Option<Target>,
        trace: bool,
        error: bool,
        pause: Option<std::path::PathBuf>,
    }

    fn config() -> &'static Config {
        static CONFIG: OnceLock<Config> = OnceLock::new();
        CONFIG.get_or_init(|| {
            let target = std::env::var("ASH_FAULT").ok().map(|v| {
                let v = v.trim().to_owned();
                match v.parse() {
                    Ok(n) => Target::Nth(n),
                    Err(_) => match v.rsplit_once('@').and_then(|(name, k)| Some((name, k.parse().ok()?))) {
                        Some((name, k)) => Target::Named(name.to_owned(), k),
                        None => Target::Named(v, 1),
                    },
                }
            });
            Config {
                target,
                trace: std::env::var_os("ASH_FAULT_TRACE").is_some(),
                error: std::env::var("ASH_FAULT_MODE").is_ok_and(|m| m == "error"),
                pause: std::env::var("ASH_FAULT_MODE")
                    .is_ok_and(|m| m == "pause")
                    .then(|| std::env::var_os("ASH_FAULT_PAUSE").map(std::path::PathBuf::from))
                    .flatten(),
            }
        })
    }

    /// Counts a point; true when it is the selected one.
    pub fn selected(name: &str) -> bool {
        let config = config();
        if config.target.is_none() && !config.trace {
            return false;
        }
        let n = COUNT.fetch_add(1, Ordering::SeqCst) + 1;
        if config.trace {
            eprintln!("ash-fault-point {n} {name}");
        }
        match &config.target {
            Some(Target::Nth(k)) => *k == n,
            Some(Target::Named(want, k)) if want == name => {
                static SEEN: OnceLock<Mutex<HashMap<String, u64>>> = OnceLock::new();
                let mut seen = SEEN.get_or_init(Default::default).lock().expect("fault counter");
                let count = seen.entry(name.to_owned()).or_default();
                *count += 1;
                *count == *k
            }
            _ => false,
        }
    }

    pub fn error_mode() -> bool {
        config().error
    }

    /// Holds the call while a test works: `DIR/paused` made, until `DIR/resume` exists
    /// (a minute at most). False when not in pause mode.
    pub fn pause() -> bool {
        let Some(dir) = &config().pause else {
            return false;
        };
        let _ = std::fs::write(dir.join("paused"), std::process::id().to_string());
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !dir.join("resume").exists() && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        true
    }

    pub fn abort(name: &str) -> ! {
        eprintln!("ash-fault: aborting at {name}");
        std::process::abort()
    }
}

#[cfg(not(debug_assertions))]
mod imp {
    pub fn selected(_name: &str) -> bool {
        false
    }
    pub fn error_mode() -> bool {
        false
    }
    pub fn pause() -> bool {
        false
    }
    pub fn abort(_name: &str) -> ! {
        unreachable!("fault points are never selected in release builds")
    }
}

/// A step of a call: dies here if this point is selected, fails with an I/O error in
/// error mode, or waits for the test in pause mode.
pub(crate) fn point(name: &str) -> std::io::Result<()> {
    if imp::selected(name) {
        if imp::pause() {
            return Ok(());
        }
        if imp::error_mode() {
            return Err(std::io::Error::other(format!("injected fault at {name}")));
        }
        imp::abort(name);
    }
    Ok(())
}

/// A write step that can be torn: when selected (and not in error mode), the caller
/// writes part of its bytes and then calls [`abort`].
pub(crate) fn torn(name: &str) -> bool {
    imp::selected(name) && !imp::error_mode()
}

/// Dies after a torn write.
pub(crate) fn abort(name: &str) -> ! {
    imp::abort(name)
}
