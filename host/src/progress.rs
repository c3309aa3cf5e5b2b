//! [`Progress`]: how far a long call (an import, a rebuild, a migration) has come, reported
//! to a callback the library's user hands to the builder. The library draws nothing itself.

use std::sync::Arc;

/// One report from a long call: `done` of `total` units of `task`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress<'a> {
    /// What is being done, in a few words ("embedding", "migrating the legacy store").
    pub task: &'a str,
    /// How many units are done.
    pub done: u64,
    /// How many units there are; `done == total` is the task's last report.
    pub total: u64,
}

/// The callback [`crate::MemoryStoreBuilder::progress`] installs. It runs on the calling
/// thread, in the middle of the call, so it should return quickly.
pub type ProgressFn = Arc<dyn Fn(Progress<'_>) + Send + Sync>;
