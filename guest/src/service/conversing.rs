//! `persist-turn`, and the conversation side of the index: keeping the messages' index
//! entries in step with `messages.jsonl` (the context's past messages are found from them
//! in `past_messages`).
//!
//! The conversation collections are read only by the calls that need them (a turn, the
//! context, extraction), so that the memory calls of a home with a long history of talk
//! do not pay for reading it.

use super::MemoryService;
use crate::api::{Error, StoredTurn, Turn};
use crate::collection;
use crate::conversation::records::{CONVERSATION_VERSION, session_scope};
use crate::conversation::redaction::redact_all;
use crate::conversation::{MessageRecord, Role, SessionRecord};
use crate::ports::{Collection, EntryKind, FileState, Level, Ports};
use crate::record::{encode_embedding, format_time};
use crate::scope::Caller;
use crate::vectors;

/// Longest message stored, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// Longest session name or provider, in characters.
const MAX_NAME_CHARS: usize = 200;

impl<P: Ports> MemoryService<P> {
    /// Stores one exchange; see `persist-turn` in `wit/conversations.wit`.
    pub fn persist_turn(&mut self, caller: &Caller, turn: Turn) -> Result<StoredTurn, Error> {
        let (owner_user_id, chat_id) = session_scope(caller).ok_or_else(|| {
            Error::InvalidInput("a turn needs a caller with a user or a chat, and this one has neither".into())
        })?;
        let name = check_name("session", &turn.session)?;
        let provider = check_name("provider", turn.provider.as_deref().unwrap_or("cli"))?;
        check_message("user-message", &turn.user_message, false)?;
        if let Some(a) = &turn.assistant_message {
            check_message("assistant-message", a, true)?;
        }
        let mut texts = vec![turn.user_message.trim()];
        texts.extend(
            turn.assistant_message
                .as_deref()
                .map(str::trim)
                .filter(|a| !a.is_empty()),
        );
        let (clean, redacted) = redact_all(&texts);
        let said: Vec<(Role, String)> = [Role::User, Role::Assistant].into_iter().zip(clean).collect();
        // Embedded before the collections are read: a remote embedder is asked without
        // the home's lock.
        let texts: Vec<String> = said.iter().map(|(_, t)| t.clone()).collect();
        let vectors = self.embed_texts(&texts);
        // Stamped once the lock is held again: a turn is never older than what another
        // process wrote meanwhile (the next turn of the same session, say).
        let stamp = format_time(self.now()?);

        self.load_conversations()?;
        let existing = self
            .sessions
            .iter()
            .find(|s| {
                s.name == name && s.provider == provider && s.owner_user_id == owner_user_id && s.chat_id == chat_id
            })
            .cloned();
        let mut session = existing.unwrap_or_else(|| SessionRecord {
            id: self.ports.new_id(),
            version: CONVERSATION_VERSION,
            name,
            provider,
            owner_user_id: owner_user_id.clone(),
            chat_id: chat_id.clone(),
            created_at: stamp.clone(),
            updated_at: stamp.clone(),
            turns: 0,
            extracted_turns: 0,
            extra: Default::default(),
        });
        session.turns += 1;
        session.updated_at = stamp.clone();
        let model = self.ports.embedder_model();
        let messages: Vec<MessageRecord> = said
            .into_iter()
            .zip(&vectors)
            .map(|((role, content), vector)| MessageRecord {
                id: self.ports.new_id(),
                version: CONVERSATION_VERSION,
                session_id: session.id.clone(),
                turn: session.turns,
                role,
                content,
                created_at: stamp.clone(),
                author_user_id: (role == Role::User).then(|| caller.user_id.clone()).flatten(),
                owner_user_id: owner_user_id.clone(),
                chat_id: chat_id.clone(),
                embedding: vector.as_ref().map(|v| encode_embedding(v)),
                embedding_model: vector.as_ref().map(|_| model.clone()),
                extra: Default::default(),
            })
            .collect();

        // Messages first: a session that counts a turn whose messages are missing would
        // be read for them. The host undoes both writes when the call fails.
        self.messages.append(&self.ports, messages.clone())?;
        self.sessions.append(&self.ports, vec![session.clone()])?;
        let entries: Vec<_> = messages.iter().zip(vectors).map(|(m, v)| m.index_entry(v)).collect();
        let state = self.messages.state();
        let indexed = self
            .ports
            .index_upsert(&entries)
            .map_err(Error::from)
            .and_then(|()| self.mark_messages(state));
        if let Err(e) = indexed {
            self.ports
                .log(Level::Warn, &format!("{e}; the index will catch up at the next call"));
        }
        Ok(StoredTurn {
            session_id: session.id,
            message_ids: messages.into_iter().map(|m| m.id).collect(),
            redacted,
        })
    }

    /// Vectors for texts, `None` for each the embedder could not give a usable one.
    pub(crate) fn embed_texts(&self, texts: &[String]) -> Vec<Option<Vec<f32>>> {
        let dimension = self.ports.embedder_dimension();
        match self.ports.embed(texts) {
            Ok(v) if v.len() == texts.len() => v.into_iter().map(|v| vectors::usable(v, dimension)).collect(),
            Ok(_) | Err(_) => vec![None; texts.len()],
        }
    }

    /// Reads the memories, then the conversation collections, and brings the messages'
    /// index entries up to the file.
    pub(crate) fn load_conversations(&mut self) -> Result<(), Error> {
        self.load()?;
        self.refresh_conversations()
    }

    /// The conversation collections and the messages' index entries, for a call that has
    /// just loaded the memories.
    pub(super) fn refresh_conversations(&mut self) -> Result<(), Error> {
        self.sessions.refresh(&self.ports)?;
        self.messages.refresh(&self.ports)?;
        self.sync_message_index()
    }

    /// As `sync_index` does for memories. Messages never change once written, so a
    /// grown file needs only its new lines indexed; a replaced one (a rollback) is
    /// rebuilt with everything else.
    fn sync_message_index(&mut self) -> Result<(), Error> {
        for _ in 0..super::index_sync::CATCH_UP_TRIES {
            if self.sync_message_index_once(true)? {
                return Ok(());
            }
            self.messages.refresh(&self.ports)?;
        }
        self.sync_message_index_once(false).map(drop)
    }

    /// One comparison; false, with nothing done, when the cache is behind the file the
    /// index reflects and `may_wait`.
    fn sync_message_index_once(&mut self, may_wait: bool) -> Result<bool, Error> {
        let current = self.messages.state();
        let reflects = self.ports.index_reflects(EntryKind::Message)?;
        let behind = |end: u64| may_wait && self.messages.in_step() && end > current.end;
        match reflects {
            Some(s) if s == current => Ok(true),
            Some(s) if s.generation == current.generation && behind(s.end) => Ok(false),
            Some(s) if s.end == 0 || (s.generation == current.generation && s.end < current.end) => {
                let chunk = self.ports.read(Collection::Messages, s.end, Some(s.generation))?;
                if chunk.generation == current.generation && behind(chunk.end) {
                    return Ok(false);
                }
                if (chunk.generation != s.generation && s.end != 0) || chunk.end != current.end {
                    return self.rebuild().map(|_| true);
                }
                let ids = collection::ids_named::<MessageRecord>(&chunk.data);
                self.index_messages(ids.iter().filter_map(|id| self.messages.get(id)).cloned().collect())?;
                self.mark_messages(current).map(|()| true)
            }
            // No messages and none indexed: nothing to record, so that a read of a home
            // without conversations stays a read. The first message is indexed with all.
            None if self.messages.is_empty() => Ok(true),
            // After a clear the index holds no messages: all of them go in.
            None => {
                self.index_messages(self.messages.iter().cloned().collect())?;
                self.mark_messages(current).map(|()| true)
            }
            Some(_) => {
                self.ports.log(
                    Level::Warn,
                    "the index does not reflect the current messages.jsonl: rebuilding it",
                );
                self.rebuild().map(|_| true)
            }
        }
    }

    /// Indexes messages with their stored vectors when they fit the embedder (others by
    /// their words only).
    pub(crate) fn index_messages(&self, messages: Vec<MessageRecord>) -> Result<(), Error> {
        let want = self.wanted_index();
        for batch in messages.chunks(256) {
            let entries: Vec<_> = batch
                .iter()
                .map(|m| {
                    let fits = m.embedding_model.as_deref().is_none_or(|model| model == want.model);
                    let vector = m
                        .vector()
                        .filter(|_| fits)
                        .and_then(|v| vectors::usable(v, want.dimension));
                    m.index_entry(vector)
                })
                .collect();
            self.ports.index_upsert(&entries)?;
        }
        Ok(())
    }

    /// Records that the index holds the messages up to `state`, when the cache matches it.
    pub(crate) fn mark_messages(&mut self, state: FileState) -> Result<(), Error> {
        if self.messages.in_step() {
            self.ports.index_set_reflects(EntryKind::Message, state)?;
        }
        Ok(())
    }
}

fn check_name(what: &str, name: &str) -> Result<String, Error> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::InvalidInput(format!("the {what} name is empty")));
    }
    if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(Error::InvalidInput(format!(
            "the {what} name must be at most {MAX_NAME_CHARS} characters, without control characters"
        )));
    }
    // A name is stored and shown as it is, unredacted: one that holds a secret is refused.
    if let Some(kind) = crate::secrets::detect(name) {
        return Err(Error::SecretRefused(format!(
            "the {what} name looks like {}; secrets are never stored in memory",
            kind.describe()
        )));
    }
    Ok(name.to_owned())
}

fn check_message(what: &str, text: &str, may_be_empty: bool) -> Result<(), Error> {
    if !may_be_empty && text.trim().is_empty() {
        return Err(Error::InvalidInput(format!("{what} is empty")));
    }
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(Error::InvalidInput(format!(
            "{what} is {} bytes; a message holds at most {MAX_MESSAGE_BYTES}",
            text.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_name;
    use crate::api::Error;

    #[test]
    fn a_name_that_holds_a_secret_is_refused_and_an_id_is_not() {
        for id in [
            "monday",
            "cc932e00-6ef5-4fdc-ba1b-2a4da238e4e9",
            "01J9ZQ4X7M3K8V2N5P6R1T0W9Y",
            "chat-2026-05-01",
        ] {
            assert_eq!(check_name("session", id).ok().as_deref(), Some(id));
        }
        for secret in ["password=hunter2hunter2", "sk-live-51HGs8d7f6g5h4j3k2l1"] {
            assert!(
                matches!(check_name("session", secret), Err(Error::SecretRefused(_))),
                "{secret}"
            );
        }
    }
}
