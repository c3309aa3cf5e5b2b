//! `config.toml`: optional settings in the home folder. A missing file means defaults; a
//! malformed one is an error that names the file, never a silent default.

use serde::Deserialize;

use crate::error::Error;
use crate::home::Home;
use std::time::Duration;

use crate::embedder::{self, Embedder, OpenAiEmbedder};
use crate::http::HttpClient;
use crate::llm::{Llm, NoLlm, OpenAiLlm};

/// Retries after a 429 or 5xx answer, with exponential backoff from 250 ms.
const HTTP_RETRIES: u32 = 2;

pub(crate) use crate::bindings::ash::memory::settings::PolicySettings;

/// The parsed `config.toml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `[memory]`: memory policy settings (used by later features; accepted now).
    #[serde(default)]
    pub memory: MemoryConfig,
    /// `[sandbox]`: limits on the policy component.
    #[serde(default)]
    pub sandbox: SandboxConfig,
    /// `[llm]`: an OpenAI-compatible chat service; none by default.
    pub llm: Option<LlmConfig>,
    /// `[embedder]`: an embedded model (the transformer by default, or the static one), or an
    /// OpenAI-compatible service.
    #[serde(default)]
    pub embedder: EmbedderConfig,
    /// `[storage]`: where the collections and the index live.
    #[serde(default)]
    pub storage: StorageConfig,
}

/// `[storage]`: the home's own files and SQLite (`backend = "files"`, the default), or
/// Postgres with pgvector (`backend = "postgres"`), shared by every host that names the
/// same database and namespace.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageConfig {
    /// `"files"` or `"postgres"`.
    pub backend: Option<String>,
    /// The environment variable that holds the Postgres connection URL (default
    /// `ASH_PG_URL`). The URL itself never goes in the file, nor in any log.
    pub url_env: Option<String>,
    /// Which memory of the database this is: one per namespace (default `default`).
    /// Letters, digits and `_`, at most 48.
    pub namespace: Option<String>,
}

/// The backend `[storage]` names, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StorageBackend {
    /// The home's files and SQLite index.
    Files,
    /// Postgres: the URL is in the environment variable `url_env`.
    Postgres {
        /// The variable's name.
        url_env: String,
        /// The namespace, lower-cased.
        namespace: String,
    },
}

impl StorageConfig {
    /// The backend, or what is wrong with the section.
    pub(crate) fn backend(&self) -> Result<StorageBackend, String> {
        match self.backend.as_deref().unwrap_or("files") {
            "files" => {
                if self.url_env.is_some() || self.namespace.is_some() {
                    return Err("[storage] url_env and namespace apply to backend = \"postgres\" only".into());
                }
                Ok(StorageBackend::Files)
            }
            "postgres" => {
                let namespace = self.namespace.as_deref().unwrap_or("default").to_ascii_lowercase();
                let valid = !namespace.is_empty()
                    && namespace.len() <= 48
                    && namespace
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
                if !valid {
                    return Err(format!(
                        "[storage] namespace {namespace:?} must be 1 to 48 letters, digits or underscores"
                    ));
                }
                let url_env = self.url_env.clone().unwrap_or_else(|| "ASH_PG_URL".into());
                if url_env.is_empty() || url_env.contains('=') || url_env.contains('\0') {
                    return Err(format!(
                        "[storage] url_env {url_env:?} is not an environment variable's name"
                    ));
                }
                Ok(StorageBackend::Postgres { url_env, namespace })
            }
            other => Err(format!(
                "[storage] backend {other:?} is not one of \"files\", \"postgres\""
            )),
        }
    }
}

/// `[llm]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    /// The API root, such as `https://api.openai.com/v1`.
    pub base_url: String,
    pub model: String,
    /// The environment variable that holds the API key (the key itself is never in the file).
    pub api_key_env: Option<String>,
    /// Seconds before a request is abandoned (default 30).
    pub timeout_secs: Option<u64>,
}

/// `[embedder]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmbedderConfig {
    /// "transformer" (the default), "static" or "openai".
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// The vector length the service returns; required for "openai".
    pub dimensions: Option<u32>,
    pub api_key_env: Option<String>,
    pub timeout_secs: Option<u64>,
}

/// `[memory]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryConfig {
    pub auto_gc: Option<bool>,
    pub max_entries: Option<u64>,
    /// Whether `extract` reads conversations for facts (default true).
    pub extraction_enabled: Option<bool>,
    /// The least confidence a language model's fact needs to be stored, from 0 to 1
    /// (default 0.7).
    pub extraction_confidence_threshold: Option<f32>,
    /// Cosine similarity for supersession candidates (default: the embedder's: 0.5 for
    /// the embedded transformer, 0.6 for the static model, 0.75 for HTTP services).
    pub supersession_threshold: Option<f32>,
    /// Whether `gc` archives decayed facts the user told, not only extracted ones
    /// (default false).
    pub decay_told_facts: Option<bool>,
    /// How long `serve` waits before it checks again whether a user's weekly reflection
    /// is due, after one of their calls, in minutes (default 60; 0 checks after every call).
    pub reflection_check_minutes: Option<u64>,
    /// How long `serve` waits after a session's last turn before it extracts facts from
    /// it, in seconds (default 10; 0 extracts right after each turn).
    pub extraction_delay_seconds: Option<u64>,
}

/// `[sandbox]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxConfig {
    /// Fuel (roughly, WebAssembly instructions) one call may use.
    pub fuel_per_call: Option<u64>,
    /// The most linear memory the component may grow to, in MiB.
    pub memory_limit_mib: Option<u64>,
}

/// The longest vector the index holds: sqlite-vec's limit.
const MAX_DIMENSIONS: u32 = 8192;

impl Config {
    /// Reads `config.toml` from the home, or defaults if there is none.
    pub fn load(home: &Home) -> Result<Self, Error> {
        let path = home.config();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let config: Config = toml::from_str(&text).map_err(|e| Error::Config {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
                if let Some(t) = config.memory.extraction_confidence_threshold
                    && !(0.0..=1.0).contains(&t)
                {
                    return Err(Error::Config {
                        path,
                        message: format!("[memory] extraction_confidence_threshold is {t}; it must be from 0 to 1"),
                    });
                }
                config.storage.backend().map_err(|message| Error::Config {
                    path: path.clone(),
                    message,
                })?;
                config
                    .check_sizes()
                    .map_err(|message| Error::Config { path, message })?;
                Ok(config)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(Error::io(&path, e)),
        }
    }

    /// Refuses a size of 0, which no call could work with: the call would fail later, with
    /// a message about something else (a trap, a vector the index cannot hold).
    fn check_sizes(&self) -> Result<(), String> {
        let default = Limits::default();
        if self.sandbox.fuel_per_call == Some(0) {
            return Err(format!(
                "[sandbox] fuel_per_call is 0: no call could run; leave it out for the default of {}",
                default.fuel_per_call
            ));
        }
        if self.sandbox.memory_limit_mib == Some(0) {
            return Err(format!(
                "[sandbox] memory_limit_mib is 0: the policy component could not start; leave it out for the default of {}",
                default.memory_limit_mib
            ));
        }
        match self.embedder.dimensions {
            Some(0) => Err(
                "[embedder] dimensions is 0: give the length of the vectors the model returns (its documentation says; 1536 for many)"
                    .into(),
            ),
            Some(d) if d > MAX_DIMENSIONS => Err(format!(
                "[embedder] dimensions is {d}: the index holds vectors of at most {MAX_DIMENSIONS}; \
                 ask the service for shorter ones (OpenAI's models take a smaller `dimensions`)"
            )),
            _ => Ok(()),
        }
    }

    /// Builds the configured embedder.
    pub fn build_embedder(&self, home: &Home) -> Result<Box<dyn Embedder>, Error> {
        let e = &self.embedder;
        let bad = |message: String| Error::Config {
            path: home.config(),
            message,
        };
        let provider = e.provider.as_deref().unwrap_or("transformer");
        if let Some(model) = embedder::embedded(provider) {
            return Ok(model);
        }
        match provider {
            "openai" => {
                let base_url = e
                    .base_url
                    .as_deref()
                    .ok_or_else(|| bad("[embedder] base_url is required for openai".into()))?;
                let model = e
                    .model
                    .as_deref()
                    .ok_or_else(|| bad("[embedder] model is required for openai".into()))?;
                let dimensions = e
                    .dimensions
                    .ok_or_else(|| bad("[embedder] dimensions is required for openai".into()))?;
                let http = HttpClient::new(
                    Duration::from_secs(e.timeout_secs.unwrap_or(30)),
                    HTTP_RETRIES,
                    e.api_key_env.as_deref(),
                )
                .map_err(bad)?;
                Ok(Box::new(OpenAiEmbedder::new(http, base_url, model, dimensions)))
            }
            other => Err(bad(format!(
                "[embedder] provider {other:?} is not one of \"static\", \"transformer\", \"openai\""
            ))),
        }
    }

    /// Builds the configured language model, or none.
    pub fn build_llm(&self, home: &Home) -> Result<Box<dyn Llm>, Error> {
        let Some(l) = &self.llm else { return Ok(Box::new(NoLlm)) };
        let http = HttpClient::new(
            Duration::from_secs(l.timeout_secs.unwrap_or(30)),
            HTTP_RETRIES,
            l.api_key_env.as_deref(),
        )
        .map_err(|message| Error::Config {
            path: home.config(),
            message,
        })?;
        Ok(Box::new(OpenAiLlm::new(http, &l.base_url, &l.model)))
    }

    /// The policy settings the guest reads through the `settings` import; the
    /// supersession threshold defaults to the embedder's own.
    pub fn policy_settings(&self, embedder: &dyn Embedder) -> PolicySettings {
        PolicySettings {
            supersession_threshold: self
                .memory
                .supersession_threshold
                .unwrap_or(embedder.supersession_threshold()),
            max_entries: self.memory.max_entries,
            extraction_enabled: self.memory.extraction_enabled.unwrap_or(true),
            extraction_confidence_threshold: self.memory.extraction_confidence_threshold.unwrap_or(0.7),
            local_embedder: !embedder.is_remote(),
            decay_told_facts: self.memory.decay_told_facts.unwrap_or(false),
            weak_similarity: embedder.weak_similarity(),
        }
    }

    /// The sandbox limits, defaults filled in.
    pub fn limits(&self) -> Limits {
        let default = Limits::default();
        Limits {
            fuel_per_call: self.sandbox.fuel_per_call.unwrap_or(default.fuel_per_call),
            memory_limit_mib: self.sandbox.memory_limit_mib.unwrap_or(default.memory_limit_mib),
        }
    }
}

/// What one call into the component may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Fuel per call; one unit is roughly one WebAssembly instruction. The default is
    /// about ten seconds of work: enough for `rebuild-index` over 100,000 memories, not for
    /// a loop that never ends (docs/performance.md has the measurement).
    pub fuel_per_call: u64,
    /// The most linear memory the component may have, in MiB.
    pub memory_limit_mib: u64,
}

impl Limits {
    /// The limits when nothing says otherwise (`[sandbox]` in `config.toml`).
    pub const DEFAULT: Limits = Limits {
        fuel_per_call: 30_000_000_000,
        memory_limit_mib: 1024,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
