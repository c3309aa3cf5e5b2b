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
    private_dir(&dir)?;
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

/// A bound Unix socket whose file is removed when this is dropped: at shutdown, and on
/// any error after binding.
pub struct SocketFile {
    path: PathBuf,
    listener: Option<std::os::unix::net::UnixListener>,
}

impl SocketFile {
    /// Binds `path`, owner-only, replacing a stale socket a killed server left; refuses
    /// when a live server answers there, or when it cannot tell.
    pub fn bind(path: &Path) -> Result<SocketFile> {
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
        {
            private_dir(parent)?;
        }
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("checking {}", path.display())),
            Ok(meta) => {
                use std::os::unix::fs::FileTypeExt as _;
                if !meta.file_type().is_socket() {
                    bail!("{} exists and is not a socket; move it away", path.display());
                }
                // Only a refused connection proves nobody listens; "permission denied"
                // or a full backlog may well be a live server.
                match UnixStream::connect(path) {
                    Ok(_) => bail!("a server already answers at {}", path.display()),
                    Err(e) if e.kind() == ErrorKind::ConnectionRefused => {
                        tracing::info!("replacing the stale socket {}", path.display());
                        std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
                    }
                    Err(e) => bail!("cannot tell whether a server answers at {}: {e}", path.display()),
                }
            }
        }
        let listener =
            std::os::unix::net::UnixListener::bind(path).with_context(|| format!("binding {}", path.display()))?;
        let socket = SocketFile {
            path: path.to_owned(),
            listener: Some(listener),
        };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .with_context(|| format!("restricting {}", path.display()))?;
        Ok(socket)
    }

    /// Where the socket is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The listener, for the runtime (once).
    pub fn listener(&mut self) -> Result<tokio::net::UnixListener> {
        let listener = self
            .listener
            .take()
            .context("the socket's listener was already taken")?;
        listener.set_nonblocking(true)?;
        Ok(tokio::net::UnixListener::from_std(listener)?)
    }
}

impl Drop for SocketFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn private_dir(dir: &Path) -> Result<()> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))
}
