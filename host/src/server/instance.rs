//! One server per home. The server holds an OS lock on `$ASH_HOME/run/serve.lock` for
//! its whole life (so a `kill -9` releases it) with its pid inside, so that a second
//! server can say who already serves the home. The socket file is another matter: a
//! killed server leaves it behind, and binding over it fails. A socket nobody answers
//! on is stale and is replaced; one that answers belongs to a live server.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read as _, Seek as _, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

/// The claim on a home, released when dropped (or when the process dies).
pub struct Instance {
    _lock: File,
}

/// `$ASH_HOME/run/`: the socket and the lock, owner-only.
pub fn run_dir(home: &Path) -> Result<PathBuf> {
    let dir = home.join("run");
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)
        .with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

impl Instance {
    /// Claims `home` for this process, or says which process already serves it.
    pub fn claim(home: &Path) -> Result<Instance> {
        let path = run_dir(home)?.join("serve.lock");
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .mode(0o600)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                bail!(
                    "{} is already served by ash-memory serve (pid {}); stop it first, or use it",
                    home.display(),
                    pid.trim()
                );
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()));
            }
        }
        file.set_len(0)?;
        file.rewind()?;
        file.write_all(std::process::id().to_string().as_bytes())?;
        Ok(Instance { _lock: file })
    }
}

/// Binds the Unix socket at `path`, owner-only, replacing a stale socket a killed server
/// left; refuses when a live server answers there.
pub fn bind_socket(path: &Path) -> Result<std::os::unix::net::UnixListener> {
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("checking {}", path.display())),
        Ok(meta) => {
            use std::os::unix::fs::FileTypeExt as _;
            if !meta.file_type().is_socket() {
                bail!("{} exists and is not a socket; move it away", path.display());
            }
            match UnixStream::connect(path) {
                Ok(_) => bail!("a server already answers at {}", path.display()),
                Err(_) => {
                    tracing::info!("replacing the stale socket {}", path.display());
                    std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
                }
            }
        }
    }
    let listener =
        std::os::unix::net::UnixListener::bind(path).with_context(|| format!("binding {}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("restricting {}", path.display()))?;
    Ok(listener)
}
