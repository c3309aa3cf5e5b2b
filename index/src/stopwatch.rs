//! Time for the index's debug logs. WebAssembly without WASI has no clock (`Instant::now`
//! panics there), so in the index component a stopwatch reads zero.

use std::time::Duration;

/// A moment to measure from.
pub(crate) struct Stopwatch {
    #[cfg(not(target_family = "wasm"))]
    started: std::time::Instant,
}

impl Stopwatch {
    /// Starts measuring.
    pub(crate) fn start() -> Self {
        Stopwatch {
            #[cfg(not(target_family = "wasm"))]
            started: std::time::Instant::now(),
        }
    }

    /// The time since `start`; zero in WebAssembly.
    pub(crate) fn elapsed(&self) -> Duration {
        #[cfg(not(target_family = "wasm"))]
        return self.started.elapsed();
        #[cfg(target_family = "wasm")]
        return Duration::ZERO;
    }
}
