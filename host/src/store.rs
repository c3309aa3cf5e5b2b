//! [`MemoryStore`]: the library's front door. Open a home, then call typed methods; each
//! call takes the home's lock, runs in the sandboxed policy component, and returns.

use crate::bindings::Policy;
use crate::clock::Clock;
use crate::error::Error;
use crate::home::{Access, Home};
use crate::host_state::HostState;
use crate::progress::ProgressFn;
use crate::sandbox::Sandbox;

use crate::contract::{
    Added, Caller, CompactReport, ContextBlock, Correction, Extraction, Finding, Forgotten, GcReport, ListOptions,
    Memory, NewMemory, NewPerson, Person, Profile, RebuildReport, Reflection, SearchQuery, SearchResults,
    SessionMessage, SessionSummary, Standing, Stats, StoredTurn, ToolAnswer, Turn,
};

/// A memory home opened through the policy component.
pub struct MemoryStore {
    home: Home,
    sandbox: Sandbox,
    /// `[memory] reflection_check_minutes`, for a server's weekly reflections.
    reflection_check: std::time::Duration,
    /// `[memory] extraction_delay_seconds`, for a server's extraction after turns.
    extraction_delay: std::time::Duration,
    /// Whether a read put off a write (see [`MemoryStore::flush_deferred`]).
    deferred: bool,
}

impl MemoryStore {
    /// A store over a home, its sandbox and the settings a long-lived host reads
    /// ([`MemoryStoreBuilder::open`] makes one).
    pub(crate) fn new(
        home: Home,
        sandbox: Sandbox,
        reflection_check: std::time::Duration,
        extraction_delay: std::time::Duration,
    ) -> Self {
        MemoryStore {
            home,
            sandbox,
            reflection_check,
            extraction_delay,
            deferred: false,
        }
    }

    /// The home folder.
    pub fn home(&self) -> &std::path::Path {
        self.home.root()
    }

    /// How long a long-lived host waits before it checks again whether a user's weekly
    /// reflection is due (`[memory] reflection_check_minutes`, default an hour).
    pub fn reflection_check_interval(&self) -> std::time::Duration {
        self.reflection_check
    }

    /// How long a long-lived host waits after a session's last turn before it reads the
    /// session for facts (`[memory] extraction_delay_seconds`, default 10): a
    /// conversation is read when it pauses, not after every message.
    pub fn extraction_delay(&self) -> std::time::Duration {
        self.extraction_delay
    }

    /// The home, for the host's own files beside the collections.
    pub(crate) fn home_ref(&self) -> &Home {
        &self.home
    }

    /// The embedder's model id and dimension.
    pub(crate) fn embedder_info(&mut self) -> (String, u32) {
        let e = &self.sandbox.state_mut().embedder;
        (e.model_id().to_owned(), e.dimension())
    }

    /// Sets the clock for later calls.
    pub fn set_clock(&mut self, clock: Clock) {
        self.sandbox.state_mut().clock = clock;
    }

    /// Where progress reports go, for calls the host makes itself (a migration on open).
    pub(crate) fn progress(&mut self) -> Option<ProgressFn> {
        self.sandbox.state_mut().progress.clone()
    }

    /// Runs one export under the home's lock, as one transaction: a transaction left
    /// open by a process that died is rolled back first; the call's writes are committed
    /// when it succeeds and rolled back when it fails or traps.
    pub(crate) fn call<T, E: Into<Error>>(
        &mut self,
        f: impl FnOnce(&Policy, &mut wasmtime::Store<HostState>) -> wasmtime::Result<Result<T, E>>,
    ) -> Result<T, Error> {
        self.sandbox.state_mut().begin_call(Access::Write)?;
        let result = self.sandbox.call(f).and_then(|r| r.map_err(Into::into));
        self.sandbox.state_mut().end_call(result)
    }

    /// Runs one export that writes only in the caller's scopes (their personal memories,
    /// people and sessions, and their chat's): on a backend that locks scopes (Postgres),
    /// side by side with the writes of other scopes. One that turns out to write the whole
    /// home (a rewrite, a new index) runs again as a write of everything, and so does one
    /// that failed after another writer appended beside it (the policy fails a call whose
    /// records another scope's write changed meanwhile: the memories of a pending embedding,
    /// say) or that appended to a collection another host's rollback renewed meanwhile
    /// (the policy cannot tell what changed). A caller with neither a user nor a chat
    /// has no scope: its call locks everything.
    pub(crate) fn call_in<T, E: Into<Error>>(
        &mut self,
        caller: &Caller,
        f: impl Fn(&Policy, &mut wasmtime::Store<HostState>) -> wasmtime::Result<Result<T, E>>,
    ) -> Result<T, Error> {
        let scopes = caller.scopes();
        if scopes.is_empty() {
            return self.call(f);
        }
        let issued = self.sandbox.state_mut().ids.issued();
        self.sandbox.state_mut().begin_call_in(Access::Write, Some(scopes))?;
        let result = self.sandbox.call(&f).and_then(|r| r.map_err(Into::into));
        let state = self.sandbox.state_mut();
        let overtaken = result.is_err() && state.storage.overtaken();
        let again = state.refused_writes || overtaken || state.storage.regenerated();
        if again && !matches!(result, Err(Error::Trap(_))) {
            // Even when the policy went on without the refused write and succeeded, what
            // it did is undone: it runs again as a write of everything.
            tracing::debug!("a write of the caller's scopes needs the whole home: running it again as such");
            let undone: Result<T, Error> = Err(Error::Busy("running again as a write of the whole home".into()));
            let _ = state.end_call(undone);
            // The same ids as a first run would have, when nothing of it was kept.
            if !state.committed_midway {
                state.ids.rewind(issued);
            }
            return self.call(f);
        }
        state.end_call(result)
    }

    /// Runs one export that reads, side by side with the reads of other stores and
    /// processes (on the files backend over a snapshot pinned under the home's shared lock,
    /// which it then lets go). The host refuses its writes: one that failed
    /// for it (a dead writer's transaction to undo, an index to bring up to the files,
    /// lines to set aside) runs again as a write; one that succeeded put something off
    /// (when memories were recalled) for [`MemoryStore::flush_deferred`].
    pub(crate) fn read<T, E: Into<Error>>(
        &mut self,
        f: impl Fn(&Policy, &mut wasmtime::Store<HostState>) -> wasmtime::Result<Result<T, E>>,
    ) -> Result<T, Error> {
        if self.sandbox.state_mut().begin_call(Access::Read)? == Access::Write {
            let result = self.sandbox.call(&f).and_then(|r| r.map_err(Into::into));
            return self.sandbox.state_mut().end_call(result);
        }
        let result = self.sandbox.call(&f).and_then(|r| r.map_err(Into::into));
        let refused = self.sandbox.state_mut().refused_writes;
        match self.sandbox.state_mut().end_call(result) {
            Err(Error::Trap(m)) => Err(Error::Trap(m)),
            Err(_) if refused => {
                tracing::debug!("a read needed to write: running it again as a write");
                self.call(f)
            }
            Ok(value) => {
                self.deferred |= refused;
                Ok(value)
            }
            Err(e) => Err(e),
        }
    }

    /// Whether another store of this home may write at the same time as this one, each
    /// waiting only for writes of the same user or chat: true on Postgres, which locks
    /// scopes; false on the files backend (one writer at a time) and for stores that hand
    /// out sequential ids, which two stores would hand out twice.
    pub fn writes_beside_others(&mut self) -> bool {
        let state = self.sandbox.state_mut();
        !state.storage.is_local() && state.ids.unique_across_stores()
    }

    /// Whether reads put off writes that [`MemoryStore::flush_deferred`] would make.
    pub fn has_deferred(&self) -> bool {
        self.deferred
    }

    /// Writes what reads put off: that memories were recalled (which decay counts from),
    /// and the index brought up to the files when a read found it behind. Returns how
    /// many memories' accesses were written. A store does it when dropped; a long-lived
    /// host that only reads on this store calls it now and then.
    pub fn flush_deferred(&mut self) -> Result<u32, Error> {
        let written = self.call(|p, s| p.ash_memory_maintenance().call_flush_deferred(s))?;
        self.deferred = false;
        Ok(written)
    }

    // ---- memories: remembering and reading (`wit/memories.wit`) ----

    /// Stores one memory, superseding what it replaces; see `add` in `wit/memories.wit`.
    pub fn add(&mut self, caller: &Caller, item: &NewMemory) -> Result<Added, Error> {
        self.call_in(caller, |p, s| p.ash_memory_memories().call_add(s, caller, item))
    }

    /// Stores several memories in one write, all or none.
    pub fn add_batch(&mut self, caller: &Caller, items: &[NewMemory]) -> Result<Added, Error> {
        self.call_in(caller, |p, s| p.ash_memory_memories().call_add_batch(s, caller, items))
    }

    /// One memory the caller may see, by id or a unique prefix of 8 or more characters.
    pub fn get(&mut self, caller: &Caller, id: &str) -> Result<Memory, Error> {
        self.read(|p, s| p.ash_memory_memories().call_get(s, caller, id))
    }

    /// The caller's memories, newest first.
    pub fn list(&mut self, caller: &Caller, options: &ListOptions) -> Result<Vec<Memory>, Error> {
        self.read(|p, s| p.ash_memory_memories().call_list(s, caller, *options))
    }

    /// The supersession chain through a memory, oldest first, archived links included.
    pub fn history(&mut self, caller: &Caller, id: &str) -> Result<Vec<Memory>, Error> {
        self.read(|p, s| p.ash_memory_memories().call_history(s, caller, id))
    }

    /// Deletes a memory the caller may change (it is archived first). `id` may be a
    /// unique prefix of 8 or more characters; returns the full id deleted.
    pub fn delete(&mut self, caller: &Caller, id: &str) -> Result<String, Error> {
        self.call_in(caller, |p, s| p.ash_memory_memories().call_delete(s, caller, id))
    }

    // ---- recall (`wit/recall.wit`) ----

    /// Hybrid search within the caller's scope.
    pub fn search(&mut self, caller: &Caller, query: &SearchQuery) -> Result<SearchResults, Error> {
        self.read(|p, s| p.ash_memory_recall().call_search(s, caller, query))
    }

    /// The context block for a message, within `max_tokens` (default 2000), with past
    /// messages from any of the caller's sessions.
    pub fn context(&mut self, caller: &Caller, message: &str, max_tokens: Option<u32>) -> Result<ContextBlock, Error> {
        self.context_in(caller, message, max_tokens, None)
    }

    /// The context block for a message of the named session: past messages come from the
    /// caller's other sessions.
    pub fn context_in(
        &mut self,
        caller: &Caller,
        message: &str,
        max_tokens: Option<u32>,
        session: Option<&str>,
    ) -> Result<ContextBlock, Error> {
        let session = session.map(str::to_owned);
        self.read(|p, s| {
            p.ash_memory_recall()
                .call_context(s, caller, message, max_tokens, session.as_ref())
        })
    }

    // ---- conversations (`wit/conversations.wit`) ----

    /// Stores one exchange, secrets redacted; see `persist-turn`.
    pub fn persist_turn(&mut self, caller: &Caller, turn: &Turn) -> Result<StoredTurn, Error> {
        self.call_in(caller, |p, s| {
            p.ash_memory_conversations().call_persist_turn(s, caller, turn)
        })
    }

    /// Reads the caller's exchanges not read before (of one session, or all) for facts
    /// and stores them; see `extract`. A write of the whole home: in a chat, each fact
    /// goes to its author's own memories, not only the caller's.
    pub fn extract(&mut self, caller: &Caller, session: Option<&str>) -> Result<Extraction, Error> {
        let session = session.map(str::to_owned);
        self.call(|p, s| p.ash_memory_conversations().call_extract(s, caller, session.as_ref()))
    }

    /// The caller's user profile; see `profile`.
    pub fn profile(&mut self, caller: &Caller) -> Result<Profile, Error> {
        self.read(|p, s| p.ash_memory_conversations().call_profile(s, caller))
    }

    /// Corrects a memory: the new text replaces it, and `history` keeps both; see
    /// `correct` in `wit/memories.wit`.
    pub fn correct(&mut self, caller: &Caller, id: &str, correction: &Correction) -> Result<Added, Error> {
        self.call_in(caller, |p, s| {
            p.ash_memory_memories().call_correct(s, caller, id, correction)
        })
    }

    /// Confirms a memory, which then never decays; see `confirm` in `wit/memories.wit`.
    pub fn confirm(&mut self, caller: &Caller, id: &str) -> Result<Memory, Error> {
        self.call_in(caller, |p, s| p.ash_memory_memories().call_confirm(s, caller, id))
    }

    /// Asks the language model for a short summary of the caller's user's past week and
    /// stores it as a `reflection` memory; see `reflect` in `wit/memories.wit`.
    pub fn reflect(&mut self, caller: &Caller) -> Result<Reflection, Error> {
        self.call_in(caller, |p, s| p.ash_memory_memories().call_reflect(s, caller))
    }

    // ---- the browser's views (`wit/browse.wit`) ----

    /// How each of these memories stands today (confidence, subjects' names, the
    /// conversation it came from), for those the caller may see, live or archived.
    pub fn standings(&mut self, caller: &Caller, ids: &[String]) -> Result<Vec<Standing>, Error> {
        self.read(|p, s| p.ash_memory_browse().call_standings(s, caller, ids))
    }

    /// The caller's conversations, the most recently active first.
    pub fn sessions(&mut self, caller: &Caller) -> Result<Vec<SessionSummary>, Error> {
        self.read(|p, s| p.ash_memory_browse().call_sessions(s, caller))
    }

    /// The messages of one of the caller's sessions, each with the memories extraction
    /// took from it.
    pub fn session_messages(&mut self, caller: &Caller, session: &str) -> Result<Vec<SessionMessage>, Error> {
        let session = session.to_owned();
        self.read(|p, s| p.ash_memory_browse().call_messages(s, caller, &session))
    }

    // ---- people (`wit/people.wit`) ----

    /// The caller's people.
    pub fn people_list(&mut self, caller: &Caller) -> Result<Vec<Person>, Error> {
        self.read(|p, s| p.ash_memory_people().call_list(s, caller))
    }

    /// One of the caller's people, by reference ("my wife", "Sarah") or id.
    pub fn people_show(&mut self, caller: &Caller, reference: &str) -> Result<Person, Error> {
        self.read(|p, s| p.ash_memory_people().call_show(s, caller, reference))
    }

    /// Adds a person, or completes the one who already answers to the name.
    pub fn people_add(&mut self, caller: &Caller, person: &NewPerson) -> Result<Person, Error> {
        self.call_in(caller, |p, s| p.ash_memory_people().call_add(s, caller, person))
    }

    /// Adds an alias to a person.
    pub fn people_alias(&mut self, caller: &Caller, reference: &str, alias: &str) -> Result<Person, Error> {
        self.call_in(caller, |p, s| {
            p.ash_memory_people().call_alias(s, caller, reference, alias)
        })
    }

    /// Folds `merge` into `keep`, re-linking memories (a write of the whole home: the
    /// memories about them may be in any of the user's chats).
    pub fn people_merge(&mut self, caller: &Caller, keep: &str, merge: &str) -> Result<Person, Error> {
        self.call(|p, s| p.ash_memory_people().call_merge(s, caller, keep, merge))
    }

    /// Forgets one of the caller's people: they leave the people file, memories about
    /// them alone are archived (reason `forgotten`), others lose them as a subject. With
    /// `purge`, nothing about them alone is kept, in the archive either. A write of the
    /// whole home, as merging is, and one that rewrites the people.
    pub fn people_forget(&mut self, caller: &Caller, reference: &str, purge: bool) -> Result<Forgotten, Error> {
        self.call(|p, s| p.ash_memory_people().call_forget(s, caller, reference, purge))
    }

    // ---- agent tools (`wit/tools.wit`) ----

    /// The `remember` and `recall` tool schemas, as JSON.
    pub fn tool_schemas(&mut self) -> Result<serde_json::Value, Error> {
        let text = self.call(|p, s| p.ash_memory_tools().call_schemas(s).map(Ok::<_, Error>))?;
        serde_json::from_str(&text).map_err(|e| Error::Trap(format!("the component's tool schemas are not JSON: {e}")))
    }

    /// Runs a tool call (`remember` or `recall`) with its JSON arguments and returns the
    /// text for the model: the second of the two functions an agent loop needs.
    pub fn tool_call(&mut self, caller: &Caller, name: &str, arguments: &str) -> Result<String, Error> {
        let name = name.to_owned();
        self.tool(caller, &name, |p, s| {
            p.ash_memory_tools().call_call(s, caller, &name, arguments)
        })
    }

    /// Runs a tool call as [`MemoryStore::tool_call`] does, and answers both as text for
    /// the model and as data (of the shape the tool's `output_schema` declares).
    pub fn tool_answer(&mut self, caller: &Caller, name: &str, arguments: &str) -> Result<ToolAnswer, Error> {
        let name = name.to_owned();
        let answer = self.tool(caller, &name, |p, s| {
            p.ash_memory_tools().call_run(s, caller, &name, arguments)
        })?;
        let data = serde_json::from_str(&answer.data)
            .map_err(|e| Error::Trap(format!("the component's tool answer is not JSON: {e}")))?;
        Ok(ToolAnswer {
            text: answer.text,
            data,
        })
    }

    /// Runs a call of the tool `name` as a read when the tool only reads.
    fn tool<T, E: Into<Error>>(
        &mut self,
        caller: &Caller,
        name: &str,
        f: impl Fn(&Policy, &mut wasmtime::Store<HostState>) -> wasmtime::Result<Result<T, E>>,
    ) -> Result<T, Error> {
        if tool_only_reads(name) {
            self.read(f)
        } else {
            self.call_in(caller, f)
        }
    }

    // ---- maintenance (`wit/maintenance.wit`) ----

    /// Archives superseded, expired and decayed memories (or reports them, on a dry run).
    pub fn gc(&mut self, dry_run: bool) -> Result<GcReport, Error> {
        self.call(|p, s| p.ash_memory_maintenance().call_gc(s, dry_run))
    }

    /// Removes archive entries older than `older_than_days` (or reports them, without `force`).
    pub fn compact(&mut self, older_than_days: u32, force: bool) -> Result<CompactReport, Error> {
        self.call(|p, s| p.ash_memory_maintenance().call_compact(s, older_than_days, force))
    }

    /// Rebuilds the index from `memories.jsonl`.
    pub fn rebuild_index(&mut self) -> Result<RebuildReport, Error> {
        self.call(|p, s| p.ash_memory_maintenance().call_rebuild_index(s))
    }

    /// What the home holds, over every scope: counts by type, scope, source and age, what
    /// waits for `gc` or an embedding, the archive by reason, people, quarantined lines
    /// and the index's state. Changes nothing.
    pub fn stats(&mut self) -> Result<Stats, Error> {
        let home = self.read(|p, s| p.ash_memory_maintenance().call_stats(s))?;
        let _lock = self.home.lock_for(Access::Read)?;
        let quarantined = self.sandbox.state_mut().storage.quarantined_lines();
        Ok(Stats { home, quarantined })
    }

    /// Checks the home: the policy's checks (index against files, embeddings, people)
    /// and the host's (quarantined lines, leftover temporary files, file modes). With
    /// `fix`, mends what is safe to mend.
    pub fn doctor(&mut self, fix: bool) -> Result<Vec<Finding>, Error> {
        let mut findings = self.call(|p, s| p.ash_memory_maintenance().call_doctor(s, fix))?;
        if self.sandbox.state_mut().storage.is_local() {
            let _lock = self.home.lock()?;
            findings.extend(crate::doctor::host_checks(&self.home, fix));
        }
        Ok(findings)
    }
}

impl Drop for MemoryStore {
    /// Writes what reads put off, so that a one-shot process loses no access.
    fn drop(&mut self) {
        if self.deferred
            && let Err(e) = self.flush_deferred()
        {
            tracing::warn!("could not write what reads put off (when memories were recalled): {e}");
        }
    }
}

/// Whether the agent tool `name` only reads: `recall` does; `remember` and `correct` write
/// (see `wit/tools.wit`). A server routes such calls with the other reads.
pub fn tool_only_reads(name: &str) -> bool {
    name == "recall"
}
