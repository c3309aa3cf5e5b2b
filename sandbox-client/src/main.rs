//! `ash-sb`: the ash-memory client for sandboxes. An agent's tools run in sandboxes that must
//! not carry the memory itself (the wasmtime policy host, the embedding model, the files):
//! this small binary forwards each command over JSON-RPC to an `ash-memory serve` outside,
//! and prints its answer. It depends on clap and serde only, so it starts in milliseconds.
//!
//! This module holds the command line and the dispatch; `transport` connects and frames,
//! `rpc` writes requests and reads answers, `render` prints them for people.

mod rpc;
mod transport;

use std::ffi::OsString;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use ash_memory_render as render;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory as _, FromArgMatches as _, Parser, Subcommand};
use serde_json::{Map, Value, json};

use rpc::Error;
use transport::{Connection, Endpoint};

/// Talk to a running ash-memory server from inside a sandbox.
///
/// The server is found at --socket / ASH_RPC_SOCKET, else at --url / ASH_RPC_URL
/// (tcp://HOST:PORT), else at $ASH_HOME/run/ash.sock, else at ~/.ash/run/ash.sock.
#[derive(Debug, Parser)]
#[command(name = "ash-sb", version)]
struct Cli {
    /// Print the server's result as one JSON document on stdout
    #[arg(long, global = true)]
    json: bool,
    /// The server's Unix socket
    // (An OsString, not a PathBuf: clap refuses an empty path, and an exported but empty
    // ASH_RPC_SOCKET should mean "not set", as for the other variables.)
    #[arg(long, global = true, env = "ASH_RPC_SOCKET", value_name = "PATH",
          value_parser = clap::value_parser!(OsString))]
    socket: Option<OsString>,
    /// The server's TCP address: tcp://HOST:PORT or HOST:PORT
    #[arg(long, global = true, env = "ASH_RPC_URL", value_name = "URL")]
    url: Option<String>,
    /// A token to authenticate with before the call (prefer the environment variable:
    /// command lines are visible to other processes)
    #[arg(
        long,
        global = true,
        env = "ASH_RPC_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    token: Option<String>,
    /// Whose memory (with a token, it must be the token's user)
    #[arg(long, global = true, env = "ASH_USER_ID", value_name = "ID")]
    user: Option<String>,
    /// The chat the call comes from (with a token, it must be the token's chat)
    #[arg(long, global = true, env = "ASH_CHAT_ID", value_name = "ID")]
    chat: Option<String>,
    /// Seconds to wait for each answer before giving up
    #[arg(long, global = true, env = "ASH_RPC_TIMEOUT_SECS", value_name = "SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Remember, recall and forget
    #[command(subcommand)]
    Memory(MemoryCommand),
}

#[derive(Debug, Subcommand)]
enum MemoryCommand {
    /// Search by meaning and words
    Search {
        query: String,
        /// At most this many hits [default: the server's]
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
    },
    /// Remember a fact
    Add {
        /// The fact, in words
        content: String,
        /// Where it came from
        #[arg(long, value_name = "S")]
        source: Option<String>,
        /// Forget it after this many days
        #[arg(long, value_name = "N")]
        expires_days: Option<u32>,
        /// Who it is about: "Sarah", "my wife", "my wife Sarah", "Sarah's brother Tom"
        #[arg(long = "subject", value_name = "REF")]
        subjects: Vec<String>,
        /// preference, identity, relationship, knowledge, context, event, task or observation
        /// [default: inferred from the text]
        #[arg(long = "type", value_name = "T")]
        memory_type: Option<String>,
        /// Share it with the current chat instead of keeping it personal
        #[arg(long)]
        shared: bool,
    },
    /// List memories, newest first
    List {
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
        /// Include memories past their expiry or lifetime
        #[arg(long)]
        include_expired: bool,
    },
    /// Delete one memory (the server keeps it in its archive)
    Delete {
        /// Its id, or an unambiguous prefix of it
        id: String,
    },
    /// Fix what a memory says: the new text replaces it, and its history keeps both
    Correct {
        /// Its id, or an unambiguous prefix of it
        id: String,
        /// The corrected fact, in words
        content: String,
        /// A new type [default: the memory's]
        #[arg(long = "type", value_name = "T")]
        memory_type: Option<String>,
        /// Forget it after this many days
        #[arg(long, value_name = "N")]
        expires_days: Option<u32>,
        /// Who it is about, instead of the memory's subjects
        #[arg(long = "subject", value_name = "REF")]
        subjects: Vec<String>,
    },
    /// The context block an agent injects before responding to MESSAGE
    Context {
        message: String,
        /// The token budget (about four characters a token)
        #[arg(long, value_name = "N")]
        max_tokens: Option<u32>,
    },
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let mut stderr = std::io::stderr();
    match run(&cli, &matches) {
        Ok(text) => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
                // A reader that went away (`| head`) is no error.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    let _ = writeln!(stderr, "error: the output could not be written: {e}");
                    ExitCode::FAILURE
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            let mut message = render::one_line(&e.to_string());
            if matches!(&e, Error::Server(r) if r.code == -32001) && cli.token.is_none() {
                message.push_str(" (set ASH_RPC_TOKEN)");
            }
            let _ = writeln!(stderr, "error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the command and returns what to print on stdout.
fn run(cli: &Cli, matches: &ArgMatches) -> Result<String, Error> {
    let endpoint = endpoint(cli, matches)?;
    let (method, params) = request(cli);
    let mut conn = Connection::open(&endpoint, Duration::from_secs(cli.timeout))?;
    if let Some(token) = given(&cli.token) {
        let mut auth = Map::new();
        auth.insert("token".into(), json!(token));
        conn.call("auth", &auth)?;
    }
    let result = conn.call(method, &params)?;
    if cli.json {
        let mut text = serde_json::to_string_pretty(&result).expect("JSON values serialize");
        text.push('\n');
        return Ok(text);
    }
    let text = match &cli.command {
        Command::Memory(MemoryCommand::Search { .. }) => {
            for notice in render::search_notices(&result) {
                let _ = writeln!(std::io::stderr(), "note: {}", render::one_line(&notice));
            }
            render::search(&result)
        }
        Command::Memory(MemoryCommand::Add { .. }) => render::added(&result),
        Command::Memory(MemoryCommand::List { .. }) => render::list(&result),
        Command::Memory(MemoryCommand::Delete { .. }) => render::deleted(&result),
        Command::Memory(MemoryCommand::Correct { .. }) => render::corrected(&result),
        Command::Memory(MemoryCommand::Context { .. }) => render::context(&result),
    };
    Ok(text?)
}

/// An option's value, with an empty one (`ASH_CHAT_ID=`) counted as not given.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.is_empty())
}

/// Where the server is. A flag beats the environment; a socket and a URL given the same way
/// (both flags, or both variables) are a mistake to report, not to guess at.
fn endpoint(cli: &Cli, matches: &ArgMatches) -> Result<Endpoint, Error> {
    let socket = cli.socket.as_ref().filter(|p| !p.is_empty()).map(Path::new);
    let url = given(&cli.url);
    let on_command_line = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    let use_socket = match (socket, url) {
        (None, None) => return Ok(Endpoint::Unix(Endpoint::default_socket())),
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (Some(_), Some(_)) => match (on_command_line("socket"), on_command_line("url")) {
            (true, false) => true,
            (false, true) => false,
            _ => {
                return Err(Error::Usage(
                    "both a socket (--socket, ASH_RPC_SOCKET) and a URL (--url, ASH_RPC_URL) are set; use one".into(),
                ));
            }
        },
    };
    match (socket, url) {
        (Some(path), _) if use_socket => {
            if transport::looks_like_url(path) {
                return Err(Error::Usage(format!(
                    "the socket {} looks like a URL; give tcp://HOST:PORT with --url or ASH_RPC_URL",
                    path.display()
                )));
            }
            Ok(Endpoint::Unix(path.to_path_buf()))
        }
        (_, Some(url)) => Endpoint::parse_url(url).map_err(Error::Usage),
        _ => unreachable!("one of them is set"),
    }
}

/// The method and params for the command, with the caller (`user_id`, `chat_id`) when set.
/// They are sent with a token too: the server checks that they match it.
fn request(cli: &Cli) -> (&'static str, Map<String, Value>) {
    let mut params = Map::new();
    let mut put = |key: &str, value: Value| {
        params.insert(key.to_owned(), value);
    };
    let method = match &cli.command {
        Command::Memory(MemoryCommand::Search { query, limit }) => {
            put("query", json!(query));
            if let Some(n) = limit {
                put("limit", json!(n));
            }
            "memory.search"
        }
        Command::Memory(MemoryCommand::Add {
            content,
            source,
            expires_days,
            subjects,
            memory_type,
            shared,
        }) => {
            put("content", json!(content));
            if let Some(s) = source {
                put("source", json!(s));
            }
            if let Some(n) = expires_days {
                put("expires_days", json!(n));
            }
            if !subjects.is_empty() {
                put("subjects", json!(subjects));
            }
            if let Some(t) = memory_type {
                put("memory_type", json!(t));
            }
            if *shared {
                put("shared", json!(true));
            }
            "memory.add"
        }
        Command::Memory(MemoryCommand::List { limit, include_expired }) => {
            if let Some(n) = limit {
                put("limit", json!(n));
            }
            if *include_expired {
                put("include_expired", json!(true));
            }
            "memory.list"
        }
        Command::Memory(MemoryCommand::Delete { id }) => {
            put("memory_id", json!(id));
            "memory.delete"
        }
        Command::Memory(MemoryCommand::Correct {
            id,
            content,
            memory_type,
            expires_days,
            subjects,
        }) => {
            put("memory_id", json!(id));
            put("content", json!(content));
            if let Some(t) = memory_type {
                put("memory_type", json!(t));
            }
            if let Some(n) = expires_days {
                put("expires_days", json!(n));
            }
            if !subjects.is_empty() {
                put("subjects", json!(subjects));
            }
            "memory.correct"
        }
        Command::Memory(MemoryCommand::Context { message, max_tokens }) => {
            put("message", json!(message));
            if let Some(n) = max_tokens {
                put("max_tokens", json!(n));
            }
            "memory.context"
        }
    };
    if let Some(user) = given(&cli.user) {
        put("user_id", json!(user));
    }
    if let Some(chat) = given(&cli.chat) {
        put("chat_id", json!(chat));
    }
    (method, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> (Cli, ArgMatches) {
        let matches = Cli::command().try_get_matches_from(args).unwrap();
        (Cli::from_arg_matches(&matches).unwrap(), matches)
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn add_sends_only_what_was_given() {
        let (cli, _) = parse(&[
            "ash-sb",
            "memory",
            "add",
            "likes tea",
            "--subject",
            "Sarah",
            "--subject",
            "my wife",
            "--type",
            "preference",
            "--shared",
            "--expires-days",
            "3",
            "--source",
            "agent",
            "--user",
            "alice",
        ]);
        let (method, params) = request(&cli);
        assert_eq!(method, "memory.add");
        assert_eq!(
            Value::Object(params),
            json!({
                "content": "likes tea", "subjects": ["Sarah", "my wife"], "memory_type": "preference",
                "shared": true, "expires_days": 3, "source": "agent", "user_id": "alice",
            })
        );
        let (cli, _) = parse(&["ash-sb", "memory", "add", "x", "--user", "", "--chat", ""]);
        assert_eq!(Value::Object(request(&cli).1), json!({"content": "x"}));
    }

    #[test]
    fn other_commands_map_to_their_methods() {
        let cases: [(&[&str], &str, Value); 5] = [
            (
                &["memory", "search", "tea", "--limit", "3"],
                "memory.search",
                json!({"query": "tea", "limit": 3}),
            ),
            (
                &["memory", "list", "--include-expired"],
                "memory.list",
                json!({"include_expired": true}),
            ),
            (
                &["memory", "delete", "0b8f"],
                "memory.delete",
                json!({"memory_id": "0b8f"}),
            ),
            (
                &["memory", "correct", "0b8f", "I live in Porto", "--subject", "Sarah"],
                "memory.correct",
                json!({"memory_id": "0b8f", "content": "I live in Porto", "subjects": ["Sarah"]}),
            ),
            (
                &["memory", "context", "hi", "--max-tokens", "200", "--chat", "team"],
                "memory.context",
                json!({"message": "hi", "max_tokens": 200, "chat_id": "team"}),
            ),
        ];
        for (args, method, params) in cases {
            let mut argv = vec!["ash-sb"];
            argv.extend_from_slice(args);
            let (cli, _) = parse(&argv);
            let got = request(&cli);
            assert_eq!((got.0, Value::Object(got.1)), (method, params));
        }
    }

    #[test]
    fn flags_choose_the_endpoint() {
        let (cli, m) = parse(&["ash-sb", "--socket", "/s.sock", "memory", "list"]);
        assert_eq!(endpoint(&cli, &m).unwrap(), Endpoint::Unix("/s.sock".into()));
        let (cli, m) = parse(&["ash-sb", "memory", "list", "--url", "127.0.0.1:9"]);
        assert!(matches!(endpoint(&cli, &m).unwrap(), Endpoint::Tcp { port: 9, .. }));
        let (cli, m) = parse(&["ash-sb", "--socket", "/s", "--url", "h:1", "memory", "list"]);
        assert!(matches!(endpoint(&cli, &m), Err(Error::Usage(_))));
        let (cli, m) = parse(&["ash-sb", "--socket", "tcp://h:1", "memory", "list"]);
        assert!(matches!(endpoint(&cli, &m), Err(Error::Usage(_))));
    }
}
