//! The command line's grammar: commands and flags as clap derives them. `--help` is
//! generated from the doc comments here; `docs/command-line.md` documents them.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use ash_memory::MemoryType;

/// Long-term memory for AI agents, with its policy in a sandboxed WebAssembly component.
#[derive(Debug, Parser)]
#[command(name = "ash-memory", version, about)]
pub(super) struct Cli {
    /// The memory home folder [default: ~/.ash]
    #[arg(long, global = true, env = "ASH_HOME", value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// Whose memory: the user personal memories belong to [default: local]
    #[arg(long, global = true, env = "ASH_USER_ID", value_name = "ID")]
    pub(super) user: Option<String>,
    /// The chat the call comes from: group memories belong to it
    #[arg(long, global = true, env = "ASH_CHAT_ID", value_name = "ID")]
    pub(super) chat: Option<String>,
    /// Print one JSON document on stdout
    #[arg(long, global = true)]
    pub(super) json: bool,
    /// Pretend it is this time (RFC 3339), for expiry and decay
    #[arg(long, global = true, env = "ASH_NOW", value_name = "RFC3339")]
    pub(super) now: Option<String>,
    /// Run this policy component instead of the built-in one (development)
    #[arg(long, global = true, env = "ASH_COMPONENT", value_name = "WASM", hide = true)]
    pub(super) component: Option<PathBuf>,
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Remember a fact
    Add {
        /// The fact, in words
        text: String,
        /// preference, identity, relationship, knowledge, context, event, task, observation or reflection
        /// [default: inferred from the text]
        #[arg(long = "type", value_name = "T", value_parser = parse_type)]
        memory_type: Option<MemoryType>,
        /// Forget it after this many days
        #[arg(long, value_name = "N")]
        expires_days: Option<u32>,
        /// Who it is about: "Sarah", "my wife", "my wife Sarah", "Sarah's brother Tom"
        #[arg(long = "subject", value_name = "REF")]
        subjects: Vec<String>,
        /// Share it with the current chat instead of keeping it personal
        #[arg(long)]
        shared: bool,
        /// Where it came from
        #[arg(long, value_name = "S", default_value = "cli")]
        source: String,
        /// When it was observed (RFC 3339); decay counts from then
        #[arg(long, value_name = "T")]
        observed_at: Option<String>,
        /// What was said around it (a conversation's date, the turn before): searched
        /// with the text, returned apart from the content
        #[arg(long, value_name = "TEXT")]
        context: Option<String>,
    },
    /// Remember many facts from a file: one per line, a JSON list, JSON lines, mem0's
    /// export, or an ash-memory export (records kept as they were)
    Import {
        /// The file: plain text (one fact per line), a JSON list of facts, or JSON lines;
        /// a JSON fact is a string or {"content", "type", "subjects", "expires_in_days",
        /// "shared", "source", "observed_at", "context"} (mem0's {"memory", "user_id", "metadata",
        /// "created_at"} too); or what `export` wrote
        file: PathBuf,
        /// Import the other facts when some would be refused (else nothing is imported)
        #[arg(long)]
        skip_refused: bool,
    },
    /// Write your people and memories (those of --user and --chat) as an export that
    /// `import` reads into another home
    Export {
        /// Also export the archive entries
        #[arg(long)]
        include_archive: bool,
        /// Write to this file (0600) instead of stdout
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Read a legacy SQLite store (its people and memories tables) into this home; the
    /// file is only read. A home that holds one at data/memory.db and no memories yet
    /// migrates on first open by itself
    Migrate {
        /// The legacy database
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
    },
    /// Search by meaning and words
    Search {
        query: String,
        #[arg(long, value_name = "N", default_value_t = 10)]
        limit: u32,
        /// Only memories about this person and the people one hop from them
        #[arg(long, value_name = "REF")]
        about: Option<String>,
    },
    /// List memories, newest first
    List {
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
        #[arg(long = "type", value_name = "T", value_parser = parse_type)]
        memory_type: Option<MemoryType>,
        /// Include memories past their expiry or lifetime
        #[arg(long)]
        include_expired: bool,
        /// Include memories a newer one replaced that gc has not archived yet
        #[arg(long)]
        include_superseded: bool,
    },
    /// Show one memory
    Show { id: String },
    /// Delete one memory (it is kept in the archive)
    Delete { id: String },
    /// Vouch for a memory: it never decays, however long nobody recalls it
    Confirm { id: String },
    /// Fix what a memory says: the new text replaces it, and its history keeps both
    Correct {
        /// The memory's id, or a unique prefix of 8 or more characters
        id: String,
        /// The corrected fact, in words
        text: String,
        /// A new type [default: the memory's]
        #[arg(long = "type", value_name = "T", value_parser = parse_type)]
        memory_type: Option<MemoryType>,
        /// Forget it after this many days
        #[arg(long, value_name = "N")]
        expires_days: Option<u32>,
        /// Who it is about, instead of the memory's subjects
        #[arg(long = "subject", value_name = "REF")]
        subjects: Vec<String>,
    },
    /// Show the chain of memories that replaced one another, oldest first
    History { id: String },
    /// Archive superseded, expired and decayed memories
    Gc {
        /// Report what would be archived and change nothing
        #[arg(long)]
        dry_run: bool,
    },
    /// Permanently remove archive entries archived long ago
    Compact {
        /// Only entries archived more than this many days ago
        #[arg(long, value_name = "DAYS", default_value_t = 90)]
        older_than: u32,
        /// Really remove them; without it, only report
        #[arg(long)]
        force: bool,
    },
    /// Rebuild the search index from memories.jsonl
    RebuildIndex,
    /// Check the home: index against files, embeddings, people, quarantine, modes
    Doctor {
        /// Mend what is safe to mend
        #[arg(long)]
        fix: bool,
    },
    /// What the home holds: counts by type, scope, source and age, the archive, the index
    Stats,
    /// Ask the language model for a short summary of your past week, kept as a
    /// `reflection` memory that the context shows (at most one per 6 days, with 3 new facts)
    Reflect,
    /// The people in your life that memory knows
    #[command(subcommand)]
    People(PeopleCommand),
    /// The context block an agent injects before responding to MESSAGE
    Context {
        message: String,
        /// The token budget (about four characters a token)
        #[arg(long, value_name = "N")]
        max_tokens: Option<u32>,
        /// The session MESSAGE belongs to: past messages come from your other sessions
        #[arg(long, value_name = "ID")]
        session: Option<String>,
    },
    /// Store one exchange of a conversation (secrets are redacted first)
    Turn {
        /// The session it belongs to (made on first use)
        #[arg(long, value_name = "ID")]
        session: String,
        /// Where the conversation happens
        #[arg(long, default_value = "cli")]
        provider: String,
        /// What the user said
        user_message: String,
        /// What the agent answered
        assistant_message: Option<String>,
    },
    /// Read the exchanges not read before for facts, and remember them (one language
    /// model call per exchange; without one, clear statements of the user's own and a few
    /// lasting ones about their people)
    Extract {
        /// Only this session
        #[arg(long, value_name = "ID")]
        session: Option<String>,
    },
    /// Your profile: identity, preferences and people, as the context shows it
    Profile,
    /// The remember and recall tools for agent frameworks: print their schemas, or call one
    Tools {
        #[command(subcommand)]
        call: Option<ToolsCommand>,
    },
    /// Serve this home to agent hosts: JSON-RPC on a Unix socket (and loopback TCP), MCP
    /// over HTTP; until SIGINT or SIGTERM
    Serve {
        /// The Unix socket [default: $ASH_HOME/run/ash.sock]
        #[arg(long, value_name = "PATH")]
        socket: Option<PathBuf>,
        /// Also serve JSON-RPC on this Unix socket for sandboxes: every connection must
        /// present a token
        #[arg(long, value_name = "PATH")]
        sandbox_socket: Option<PathBuf>,
        /// Also serve JSON-RPC on this loopback address (clients need a token)
        #[arg(long, value_name = "ADDR")]
        listen: Option<std::net::SocketAddr>,
        /// Also serve MCP (streamable HTTP, at /mcp) on this loopback address (clients need a token)
        #[arg(long, value_name = "ADDR")]
        mcp: Option<std::net::SocketAddr>,
        /// Stores that answer reads side by side (0: reads wait their turn with writes).
        /// Each holds its own component instance and index connection
        #[arg(long, value_name = "N", default_value_t = crate::server::DEFAULT_READERS,
              value_parser = clap::value_parser!(u8).range(0..=crate::server::MAX_READERS))]
        readers: u8,
        /// Stores that take writes (Postgres only: writes of different users and chats run
        /// side by side, one caller's in the order they came). Each holds its own
        /// component instance and connection; the files backend writes with one
        #[arg(long, value_name = "N", default_value_t = crate::server::DEFAULT_WRITERS,
              value_parser = clap::value_parser!(u8).range(1..=crate::server::MAX_WRITERS))]
        writers: u8,
        /// Also serve the memory browser on this loopback address (log in with
        /// http://ADDR/?token=<token>; each token sees its own caller)
        #[arg(long, value_name = "ADDR")]
        ui: Option<std::net::SocketAddr>,
    },
    /// See and correct what is remembered, in a browser: serves the memory browser on
    /// loopback and prints a login link that works once
    Ui {
        /// The loopback address to serve on [default: a free port of 127.0.0.1]
        #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
        listen: std::net::SocketAddr,
        /// Print the link without opening a browser
        #[arg(long)]
        no_open: bool,
    },
    /// Serve MCP on stdin and stdout, for the user and chat given, as agent apps launch it
    Mcp,
    /// Tokens that let a sandboxed client act as one user (and chat), and no one else
    #[command(subcommand)]
    Token(TokenCommand),
    /// Measure add and search at a given size, in a temporary home
    Bench(crate::bench::BenchArgs),
    /// Run one command and print its wall time (ns) and peak RSS (KiB): how `bench`
    /// measures a CLI call without counting its own memory (see `cli/src/bench/process.rs`)
    #[command(hide = true)]
    BenchRun {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        command: Vec<String>,
    },
    /// Measure retrieval: store FILE's memories in a temporary home and score its questions
    /// (hit@k, recall@k for k = 1, 5, 10, MRR, results shown, per category); the format is in
    /// `cli/src/eval.rs`
    Eval {
        file: PathBuf,
        /// The embedded model to measure: transformer (the default, as in a home) or static
        #[arg(long, default_value = "transformer", value_parser = clap::builder::PossibleValuesParser::new(ash_memory::EMBEDDED_MODELS))]
        embedder: String,
        /// Also write each question, its answers and the ids its search ranked in the top
        /// ten to OUT, a JSON object a line: what the figures are made of
        #[arg(long, value_name = "OUT")]
        ranks: Option<PathBuf>,
        /// Run the policy linked natively instead of the component: the same figures without
        /// the sandbox (for tuning; the figures to report come from the component)
        #[cfg(feature = "native-policy")]
        #[arg(long)]
        native: bool,
    },
    /// A short tour: remember, recall, scoping and secrets, in a temporary home
    Demo,
    /// The component other hosts (JavaScript, Python) load: this binary's policy and index
    Component {
        /// Write it to this file (else to stdout, which must not be a terminal)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Print its sha256 instead
        #[arg(long, conflicts_with = "out")]
        sha256: bool,
        /// The transformer's encoder module instead, which the other hosts run
        #[arg(long)]
        encoder: bool,
    },
    /// Run conformance scenarios (tests/conformance/*.json) against this host
    Conformance {
        /// Scenario files
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Leave each scenario's home in DIR/NAME
        #[arg(long, value_name = "DIR")]
        keep: Option<PathBuf>,
        /// Print each step's result
        #[arg(long)]
        verbose: bool,
        /// Run each scenario on Postgres (the URL in $ASH_PG_URL), in the namespace
        /// PREFIX_<scenario>, which must not hold anything yet
        #[arg(long, value_name = "PREFIX")]
        postgres: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub(super) enum PeopleCommand {
    /// List your people
    List,
    /// Show one person: by name, alias, "my RELATION", or id
    Show { reference: String },
    /// Add a person, or complete one who already has that name
    Add {
        name: String,
        /// What they are to you: wife, boss, friend
        #[arg(long, value_name = "R")]
        relation: Option<String>,
        /// Another name or reference for them
        #[arg(long = "alias", value_name = "A")]
        aliases: Vec<String>,
    },
    /// Give a person another name
    Alias { reference: String, alias: String },
    /// Two entries that are one person: fold the second into the first
    Merge { keep: String, merge: String },
    /// Forget a person: memories about them alone are archived, the others lose them
    Forget {
        reference: String,
        /// Keep nothing about them alone, in the archive either
        #[arg(long)]
        purge: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(super) enum TokenCommand {
    /// Mint a token for --user (and --chat), which must be given; it is printed once and
    /// stored hashed
    Issue {
        /// How long it is valid: 30d, 12h, 90m, 3600s [default: until revoked]
        #[arg(long, value_name = "TTL", value_parser = crate::server::tokens::parse_ttl)]
        ttl: Option<chrono::Duration>,
    },
    /// Revoke a token, by id (or 4+ characters of it) or by the token itself
    Revoke { id: String },
    /// List the tokens of this home
    List,
}

#[derive(Debug, Subcommand)]
pub(super) enum ToolsCommand {
    /// Run a tool call: NAME is one of `tools list` (remember, recall, correct), ARGUMENTS
    /// its JSON arguments
    Call { name: String, arguments: String },
}

fn parse_type(s: &str) -> Result<MemoryType, String> {
    MemoryType::parse(s).ok_or_else(|| {
        let names: Vec<&str> = MemoryType::ALL.iter().map(|t| t.as_str()).collect();
        format!("unknown type {s:?}; one of {}", names.join(", "))
    })
}
