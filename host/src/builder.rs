//! [`MemoryStoreBuilder`]: what a [`MemoryStore`] is opened with, and the opening itself
//! (the home, its config, the sandbox, a legacy store's migration, `auto_gc`).

use std::path::PathBuf;

use crate::clock::Clock;
use crate::config::{Config, Limits};
use crate::embedder::Embedder;
use crate::error::Error;
use crate::home::Home;
use crate::host_state::HostState;
use crate::ids::{IdSource, Ids};
use crate::llm::Llm;
use crate::progress::{Progress, ProgressFn};
use crate::sandbox::{self, Sandbox};
use crate::store::MemoryStore;

/// Builds a [`MemoryStore`]: everything but the home has a default.
pub struct MemoryStoreBuilder {
    home: PathBuf,
    clock: Clock,
    ids: Ids,
    embedder: Option<Box<dyn Embedder>>,
    llm: Option<Box<dyn Llm>>,
    limits: Option<Limits>,
    component: Option<Vec<u8>>,
    cache_dir: Option<Option<PathBuf>>,
    skip_auto_gc: bool,
    progress: Option<ProgressFn>,
}

impl MemoryStore {
    /// A builder for the home at `home`.
    pub fn builder(home: impl Into<PathBuf>) -> MemoryStoreBuilder {
        MemoryStoreBuilder::new(home.into())
    }
}

impl MemoryStoreBuilder {
    fn new(home: PathBuf) -> Self {
        MemoryStoreBuilder {
            home,
            clock: Clock::System,
            ids: Ids::Random,
            embedder: None,
            llm: None,
            limits: None,
            component: None,
            cache_dir: None,
            skip_auto_gc: false,
            progress: None,
        }
    }

    /// Fixes "now" (for tests and `--now`); the default is the system clock.
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }
    /// Where new ids come from; the default is random UUIDs.
    pub fn ids(mut self, ids: Ids) -> Self {
        self.ids = ids;
        self
    }
    /// Replaces the embedder `config.toml` names (by default the embedded transformer).
    pub fn embedder(mut self, embedder: Box<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }
    /// Sets the language model; the default is none.
    pub fn llm(mut self, llm: Box<dyn Llm>) -> Self {
        self.llm = Some(llm);
        self
    }
    /// Overrides the sandbox limits from `config.toml`.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }
    /// Runs another component instead of the built-in policy (it must implement the
    /// same `policy` world).
    pub fn component(mut self, bytes: Vec<u8>) -> Self {
        self.component = Some(bytes);
        self
    }
    /// Where to cache the compiled component; `None` disables the cache.
    pub fn cache_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.cache_dir = Some(dir);
        self
    }

    /// Reports how far long calls (imports, rebuilds, a legacy store's migration on open)
    /// have come; the default reports nowhere.
    pub fn progress(mut self, report: impl Fn(Progress<'_>) + Send + Sync + 'static) -> Self {
        self.progress = Some(std::sync::Arc::new(report));
        self
    }

    /// Opens the home (creating its folders) and loads the component.
    pub fn open(mut self) -> Result<MemoryStore, Error> {
        let (home, config, state) = self.host_state()?;
        // Before the index is first opened: a legacy store at its path is moved aside.
        let legacy = crate::migrate::pending(&home)?;
        let limits = self.limits.unwrap_or_else(|| config.limits());
        let cache_dir = self.cache_dir.unwrap_or_else(sandbox::default_cache_dir);
        let (component, digest) = match self.component.as_deref() {
            Some(bytes) => (bytes, sandbox::component_digest(bytes)),
            None => (sandbox::POLICY_COMPONENT, sandbox::POLICY_COMPONENT_SHA256.to_owned()),
        };
        let sandbox = Sandbox::new(component, &digest, cache_dir.as_deref(), limits, state)?;
        let minutes = config.memory.reflection_check_minutes.unwrap_or(60);
        let reflection_check = std::time::Duration::from_secs(minutes.saturating_mul(60));
        let extraction_delay = std::time::Duration::from_secs(config.memory.extraction_delay_seconds.unwrap_or(10));
        let mut store = MemoryStore::new(home, sandbox, reflection_check, extraction_delay);
        if let Some(from) = legacy {
            migrate_on_open(&mut store, &from)?;
        }
        // `[memory] auto_gc = true`: clean up when a host starts.
        if config.memory.auto_gc == Some(true) && !self.skip_auto_gc {
            let report = store.gc(false)?;
            if !report.archived.is_empty() {
                tracing::info!("auto_gc archived {} memories", report.archived.len());
            }
        }
        Ok(store)
    }

    /// Opens the home with the policy linked natively instead of the component (to
    /// measure the sandbox's cost; see [`crate::native`]). Limits, the component and its
    /// cache do not apply, and neither does `auto_gc`.
    #[cfg(feature = "native-policy")]
    pub fn open_native(mut self) -> Result<crate::native::NativeStore, Error> {
        let (home, _, state) = self.host_state()?;
        Ok(crate::native::NativeStore::new(home, state))
    }

    /// Opens the home (creating its folders) and builds what every call runs on.
    fn host_state(&mut self) -> Result<(Home, Config, HostState), Error> {
        let home = Home::open(self.home.clone())?;
        let config = Config::load(&home)?;
        let embedder = match self.embedder.take() {
            Some(e) => e,
            None => config.build_embedder(&home)?,
        };
        let llm = match self.llm.take() {
            Some(l) => l,
            None => config.build_llm(&home)?,
        };
        let settings = config.policy_settings(embedder.as_ref());
        let storage = crate::storage::open(&home, &config)?;
        let mut state = HostState::new(storage, embedder, llm, self.clock, settings);
        state.ids = IdSource::new(self.ids);
        state.progress = self.progress.clone();
        Ok((home, config, state))
    }

    /// A builder for another store on the same home with the same settings, `auto_gc`
    /// skipped: for a long-lived host that answers reads side by side, one store each.
    /// None when an embedder or a language model was handed in (`embedder`, `llm`),
    /// which one store owns.
    pub fn duplicate(&self) -> Option<MemoryStoreBuilder> {
        if self.embedder.is_some() || self.llm.is_some() {
            return None;
        }
        Some(MemoryStoreBuilder {
            home: self.home.clone(),
            clock: self.clock,
            ids: self.ids,
            embedder: None,
            llm: None,
            limits: self.limits,
            component: self.component.clone(),
            cache_dir: self.cache_dir.clone(),
            skip_auto_gc: true,
            progress: self.progress.clone(),
        })
    }

    /// Skips `auto_gc` for this open (commands that only report, such as `gc --dry-run`).
    pub fn skip_auto_gc(mut self) -> Self {
        self.skip_auto_gc = true;
        self
    }
}

/// The first open of a home that held a legacy store: migrate it (reporting progress
/// to the builder's callback), report the counts, and record that it is done.
fn migrate_on_open(store: &mut MemoryStore, from: &std::path::Path) -> Result<(), Error> {
    let progress = store.progress();
    let report = store.migrate_from(from, |done, total| {
        if let Some(report) = &progress {
            report(Progress {
                task: "migrating the legacy store",
                done,
                total,
            });
        }
    });
    let report = report?;
    crate::migrate::finish(store.home_ref(), from)?;
    tracing::warn!(
        "migrated the legacy store: {} people and {} memories read in ({} embedded again, {} already present), \
         {} rows set aside in memory/migration.quarantine.jsonl; the old file is kept as {}",
        report.people,
        report.memories,
        report.reembedded,
        report.present,
        report.quarantined,
        from.display()
    );
    Ok(())
}
