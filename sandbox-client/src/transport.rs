//! Where the server is and how to talk to it: a Unix socket or loopback TCP, carrying
//! newline-delimited JSON. Kept apart from the JSON-RPC layer so that the byte-level limits
//! (a deadline for every answer, a cap on its size) are enforced in one place, whatever the
//! transport: a sandbox must never hang on, or be flooded by, a broken server.

use std::fmt;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::rpc::{self, Error, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES};

/// Where the server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Unix(PathBuf),
    /// `host` without brackets, even for an IPv6 address.
    Tcp {
        host: String,
        port: u16,
    },
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Unix(path) => write!(f, "{}", path.display()),
            Endpoint::Tcp { host, port } if host.contains(':') => write!(f, "tcp://[{host}]:{port}"),
            Endpoint::Tcp { host, port } => write!(f, "tcp://{host}:{port}"),
        }
    }
}

impl Endpoint {
    /// Reads `ASH_RPC_URL`: `tcp://HOST:PORT` or plain `HOST:PORT`, an IPv6 host in brackets.
    pub fn parse_url(url: &str) -> Result<Endpoint, String> {
        let bad = |why: &str| format!("bad server URL {url:?}: {why}; expected tcp://HOST:PORT");
        let rest = match url.split_once("://") {
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("tcp") => rest,
            Some((scheme, _)) => return Err(bad(&format!("unsupported scheme {scheme:?}"))),
            None => url,
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let (host, port) = rest.rsplit_once(':').ok_or_else(|| bad("no port"))?;
        let host = match host.strip_prefix('[') {
            Some(inner) => inner.strip_suffix(']').ok_or_else(|| bad("unclosed bracket"))?,
            None if host.contains(':') => return Err(bad("an IPv6 address needs brackets")),
            None => host,
        };
        if host.is_empty() || host.contains(['/', '[', ']']) || host.chars().any(char::is_whitespace) {
            return Err(bad("bad host"));
        }
        let port: u16 = port.parse().map_err(|_| bad("bad port"))?;
        if port == 0 {
            return Err(bad("port 0"));
        }
        Ok(Endpoint::Tcp {
            host: host.to_owned(),
            port,
        })
    }

    /// The socket `ash-memory serve` opens by default: `$ASH_HOME/run/ash.sock`, else
    /// `~/.ash/run/ash.sock` (the same home the main CLI uses).
    pub fn default_socket() -> PathBuf {
        default_socket_from(std::env::var_os("ASH_HOME"), std::env::var_os("HOME"))
    }
}

/// [`Endpoint::default_socket`] with the environment passed in, for tests.
pub fn default_socket_from(ash_home: Option<std::ffi::OsString>, home: Option<std::ffi::OsString>) -> PathBuf {
    let root = match ash_home.filter(|h| !h.is_empty()) {
        Some(root) => PathBuf::from(root),
        None => home
            .filter(|h| !h.is_empty())
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
            .join(".ash"),
    };
    root.join("run").join("ash.sock")
}

/// Either kind of stream; both are plain blocking sockets.
enum Stream {
    Unix(UnixStream),
    Tcp(TcpStream),
}

impl Stream {
    fn set_read_timeout(&self, t: Duration) -> io::Result<()> {
        match self {
            Stream::Unix(s) => s.set_read_timeout(Some(t)),
            Stream::Tcp(s) => s.set_read_timeout(Some(t)),
        }
    }

    fn set_write_timeout(&self, t: Duration) -> io::Result<()> {
        match self {
            Stream::Unix(s) => s.set_write_timeout(Some(t)),
            Stream::Tcp(s) => s.set_write_timeout(Some(t)),
        }
    }

    fn shutdown(&self) {
        let _ = match self {
            Stream::Unix(s) => s.shutdown(Shutdown::Both),
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
        };
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.read(buf),
            Stream::Tcp(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.write(buf),
            Stream::Tcp(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Unix(s) => s.flush(),
            Stream::Tcp(s) => s.flush(),
        }
    }
}

/// One connection: requests go out one at a time, each waits for its answer.
pub struct Connection {
    stream: Stream,
    /// Where it goes, for error messages.
    at: String,
    timeout: Duration,
    /// Bytes read past the last answer (none, with a well-behaved server).
    pending: Vec<u8>,
    next_id: u64,
}

/// Connection failures that mean nothing is listening there.
fn nobody_listens(kind: ErrorKind) -> bool {
    matches!(
        kind,
        ErrorKind::NotFound
            | ErrorKind::ConnectionRefused
            | ErrorKind::NotADirectory
            | ErrorKind::TimedOut
            | ErrorKind::HostUnreachable
            | ErrorKind::NetworkUnreachable
            | ErrorKind::AddrNotAvailable
    )
}

impl Connection {
    /// Connects; `timeout` bounds the connect (TCP) and each answer.
    pub fn open(endpoint: &Endpoint, timeout: Duration) -> Result<Connection, Error> {
        let at = endpoint.to_string();
        let failed = |e: io::Error| {
            if nobody_listens(e.kind()) {
                Error::NoServer { at: at.clone() }
            } else {
                Error::Connect {
                    at: at.clone(),
                    reason: e.to_string(),
                }
            }
        };
        let stream = match endpoint {
            Endpoint::Unix(path) => Stream::Unix(UnixStream::connect(path).map_err(failed)?),
            Endpoint::Tcp { host, port } => Stream::Tcp(connect_tcp(host, *port, timeout).map_err(failed)?),
        };
        if let Stream::Tcp(s) = &stream {
            let _ = s.set_nodelay(true);
        }
        stream.set_write_timeout(timeout).map_err(failed)?;
        Ok(Connection {
            stream,
            at,
            timeout,
            pending: Vec::new(),
            next_id: 1,
        })
    }

    /// Calls `method` and returns its `result`.
    pub fn call(&mut self, method: &str, params: &Map<String, Value>) -> Result<Value, Error> {
        let id = self.next_id;
        self.next_id += 1;
        let mut line = rpc::encode(id, method, params);
        if line.len() > MAX_REQUEST_BYTES {
            return Err(Error::RequestTooLarge);
        }
        line.push(b'\n');
        let deadline = Instant::now() + self.timeout;
        if let Err(e) = self.stream.write_all(&line).and_then(|()| self.stream.flush()) {
            return Err(self.io_error(e));
        }
        let answer = self.read_line(deadline)?;
        rpc::decode(&answer, id)
    }

    /// Reads one line (without its newline) by `deadline`, refusing one longer than
    /// [`MAX_RESPONSE_BYTES`] as soon as it is known to be.
    fn read_line(&mut self, deadline: Instant) -> Result<Vec<u8>, Error> {
        let mut chunk = vec![0u8; 64 * 1024];
        let mut scanned = 0;
        loop {
            if let Some(pos) = self.pending[scanned..].iter().position(|&b| b == b'\n') {
                let end = scanned + pos;
                if end > MAX_RESPONSE_BYTES {
                    return Err(self.refuse());
                }
                let mut line: Vec<u8> = self.pending.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(line);
            }
            scanned = self.pending.len();
            if scanned > MAX_RESPONSE_BYTES {
                return Err(self.refuse());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timed_out());
            }
            if let Err(e) = self.stream.set_read_timeout(left) {
                return Err(self.io_error(e));
            }
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(Error::Closed { at: self.at.clone() }),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io_error(e)),
            }
        }
    }

    /// Drops the connection instead of reading the rest of an oversized answer.
    fn refuse(&mut self) -> Error {
        self.stream.shutdown();
        self.pending = Vec::new();
        Error::ResponseTooLarge
    }

    fn timed_out(&self) -> Error {
        Error::Timeout {
            at: self.at.clone(),
            secs: self.timeout.as_secs(),
        }
    }

    fn io_error(&self, e: io::Error) -> Error {
        match e.kind() {
            ErrorKind::WouldBlock | ErrorKind::TimedOut => self.timed_out(),
            ErrorKind::BrokenPipe | ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted => {
                Error::Closed { at: self.at.clone() }
            }
            _ => Error::Io {
                at: self.at.clone(),
                reason: e.to_string(),
            },
        }
    }
}

/// Tries each address the host resolves to, as `TcpStream::connect` does, but with a timeout.
fn connect_tcp(host: &str, port: u16, timeout: Duration) -> io::Result<TcpStream> {
    let mut last = io::Error::new(ErrorKind::NotFound, format!("{host} resolves to no address"));
    for addr in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// Whether `path` looks like a socket path rather than a URL (used to give a clear error
/// when the two are mixed up).
pub fn looks_like_url(path: &Path) -> bool {
    path.to_str().is_some_and(|s| s.contains("://"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixListener;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn tcp(host: &str, port: u16) -> Endpoint {
        Endpoint::Tcp {
            host: host.into(),
            port,
        }
    }

    #[test]
    fn parses_urls() {
        assert_eq!(Endpoint::parse_url("tcp://127.0.0.1:7400"), Ok(tcp("127.0.0.1", 7400)));
        assert_eq!(Endpoint::parse_url("127.0.0.1:7400"), Ok(tcp("127.0.0.1", 7400)));
        assert_eq!(Endpoint::parse_url("TCP://localhost:1/"), Ok(tcp("localhost", 1)));
        assert_eq!(Endpoint::parse_url("tcp://[::1]:7400"), Ok(tcp("::1", 7400)));
        assert_eq!(Endpoint::parse_url("[::1]:7400"), Ok(tcp("::1", 7400)));
        assert_eq!(tcp("::1", 7400).to_string(), "tcp://[::1]:7400");
        assert_eq!(tcp("localhost", 9).to_string(), "tcp://localhost:9");
    }

    #[test]
    fn refuses_bad_urls() {
        for url in [
            "",
            "tcp://",
            "localhost",
            "tcp://localhost",
            "tcp://:7400",
            "tcp://host:0",
            "tcp://host:70000",
            "tcp://host:port",
            "http://host:80",
            "unix:///tmp/ash.sock",
            "::1:7400",
            "tcp://[::1:7400",
            "tcp://a b:1",
            "tcp://host:80/path",
        ] {
            let err = Endpoint::parse_url(url).expect_err(url);
            assert!(err.contains("expected tcp://HOST:PORT"), "{err}");
        }
    }

    #[test]
    fn default_socket_follows_ash_home_then_home() {
        let p = default_socket_from(Some("/srv/ash".into()), Some("/home/a".into()));
        assert_eq!(p, PathBuf::from("/srv/ash/run/ash.sock"));
        let p = default_socket_from(None, Some("/home/a".into()));
        assert_eq!(p, PathBuf::from("/home/a/.ash/run/ash.sock"));
        let p = default_socket_from(Some("".into()), Some("/home/a".into()));
        assert_eq!(p, PathBuf::from("/home/a/.ash/run/ash.sock"));
    }

    #[test]
    fn a_missing_socket_says_no_server() {
        let path = PathBuf::from("/nonexistent/ash-sb-test/run/ash.sock");
        let err = Connection::open(&Endpoint::Unix(path), Duration::from_secs(5))
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            "no ash-memory server at /nonexistent/ash-sb-test/run/ash.sock; start one with `ash-memory serve`"
        );
    }

    #[test]
    fn a_refused_tcp_connection_says_no_server() {
        // Bind a port, then free it: nothing listens there any more.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let err = Connection::open(&tcp("127.0.0.1", port), Duration::from_secs(5))
            .err()
            .unwrap();
        assert!(matches!(err, Error::NoServer { .. }), "{err}");
    }

    /// A socket path in a fresh folder under the system temp dir, removed on drop.
    struct TempSocket(PathBuf);

    impl TempSocket {
        fn new() -> TempSocket {
            static N: AtomicUsize = AtomicUsize::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("ash-sb-unit-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            TempSocket(dir)
        }
        fn path(&self) -> PathBuf {
            self.0.join("s.sock")
        }
    }

    impl Drop for TempSocket {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Serves one connection: reads one line, writes `answer` (already framed or not).
    fn serve_once(listener: UnixListener, answer: Vec<u8>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut line = Vec::new();
            let mut byte = [0u8; 1];
            while s.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
                line.push(byte[0]);
            }
            let _ = s.write_all(&answer);
            line
        })
    }

    #[test]
    fn a_call_sends_one_line_and_reads_one_answer() {
        let dir = TempSocket::new();
        let listener = UnixListener::bind(dir.path()).unwrap();
        let server = serve_once(
            listener,
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"ok\"}}\n".to_vec(),
        );
        let mut conn = Connection::open(&Endpoint::Unix(dir.path()), Duration::from_secs(10)).unwrap();
        let got = conn.call("health", &Map::new()).unwrap();
        assert_eq!(got, serde_json::json!({"status": "ok"}));
        let sent: Value = serde_json::from_slice(&server.join().unwrap()).unwrap();
        assert_eq!(
            sent,
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "health", "params": {}})
        );
    }

    #[test]
    fn an_oversized_answer_is_refused() {
        let dir = TempSocket::new();
        let listener = UnixListener::bind(dir.path()).unwrap();
        // One byte over the limit, then the newline: refused even though it is complete.
        let mut answer = vec![b' '; MAX_RESPONSE_BYTES + 1];
        answer.push(b'\n');
        let server = serve_once(listener, answer);
        let mut conn = Connection::open(&Endpoint::Unix(dir.path()), Duration::from_secs(10)).unwrap();
        let err = conn.call("health", &Map::new()).unwrap_err();
        assert!(matches!(err, Error::ResponseTooLarge), "{err}");
        assert_eq!(err.to_string(), "the server's answer is larger than 16 MiB; refused");
        server.join().unwrap();
    }

    #[test]
    fn an_answer_at_the_limit_is_read() {
        let dir = TempSocket::new();
        let listener = UnixListener::bind(dir.path()).unwrap();
        let head = br#"{"jsonrpc":"2.0","id":1,"result":"#;
        let tail = b"0}";
        let mut answer = head.to_vec();
        answer.resize(MAX_RESPONSE_BYTES - tail.len(), b' ');
        answer.extend_from_slice(tail);
        assert_eq!(answer.len(), MAX_RESPONSE_BYTES);
        answer.push(b'\n');
        let server = serve_once(listener, answer);
        let mut conn = Connection::open(&Endpoint::Unix(dir.path()), Duration::from_secs(10)).unwrap();
        assert_eq!(conn.call("health", &Map::new()).unwrap(), serde_json::json!(0));
        server.join().unwrap();
    }

    /// The server answers only after 5 s (or once the call has returned): a call whose
    /// 300 ms timeout did not fire would get that answer.
    #[test]
    fn a_silent_server_times_out() {
        let dir = TempSocket::new();
        let listener = UnixListener::bind(dir.path()).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let _ = rx.recv_timeout(Duration::from_secs(5));
            let _ = s.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"status\":\"ok\"}}\n");
        });
        let mut conn = Connection::open(&Endpoint::Unix(dir.path()), Duration::from_millis(300)).unwrap();
        let err = conn.call("health", &Map::new()).unwrap_err();
        assert!(matches!(err, Error::Timeout { .. }), "{err}");
        tx.send(()).unwrap();
        server.join().unwrap();
    }

    #[test]
    fn a_server_that_hangs_up_is_reported() {
        let dir = TempSocket::new();
        let listener = UnixListener::bind(dir.path()).unwrap();
        let server = serve_once(listener, b"{\"jsonrpc\":".to_vec());
        let mut conn = Connection::open(&Endpoint::Unix(dir.path()), Duration::from_secs(10)).unwrap();
        let err = conn.call("health", &Map::new()).unwrap_err();
        assert!(matches!(err, Error::Closed { .. }), "{err}");
        server.join().unwrap();
    }
}
