//! `config.toml`: optional settings in the home folder. A missing file means defaults; a
//! malformed one is an error that names the file, never a silent default.

use serde::Deserialize;

use crate::error::Error;
use crate::home::Home;
use crate::sandbox::Limits;

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
}

/// `[memory]`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryConfig {
    pub auto_gc: Option<bool>,
    pub max_entries: Option<u64>,
    pub extraction_enabled: Option<bool>,
    pub extraction_confidence_threshold: Option<f64>,
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

impl Config {
    /// Reads `config.toml` from the home, or defaults if there is none.
    pub fn load(home: &Home) -> Result<Self, Error> {
        let path = home.config();
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| Error::Config {
                path,
                message: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(e) => Err(Error::io(&path, e)),
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
