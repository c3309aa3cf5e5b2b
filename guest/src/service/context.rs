//! `context`: the block an agent injects before each response, fitted to a token budget
//! by dropping past messages first, then the least relevant memory, then the least
//! recently active person.
//! What the block says and how it is rendered is `crate::context`'s.

use std::collections::HashMap;

use chrono::DateTime;

use super::MemoryService;
use super::searching::Reading;
use crate::api::{ContextBlock, Error, Memory, Person, SearchQuery};
use crate::context::{Blocks, DEFAULT_MAX_TOKENS, MAX_MEMORIES, MAX_PEOPLE, estimate_tokens, render};
use crate::memory_type::MemoryType;
use crate::ports::Ports;
use crate::record::parse_time;
use crate::scope::Caller;
use crate::search::Floor;

impl<P: Ports> MemoryService<P> {
    /// The context for a message; see `context` in `wit/recall.wit`.
    pub fn context(
        &mut self,
        caller: &Caller,
        message: &str,
        max_tokens: Option<u32>,
        session: Option<&str>,
    ) -> Result<ContextBlock, Error> {
        let budget = max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        let (mut memories, mut past_messages) = if message.trim().is_empty() {
            (Vec::new(), Vec::new())
        } else {
            let query = SearchQuery {
                text: message.to_owned(),
                limit: Some(MAX_MEMORIES),
                about: None,
            };
            let (vector, notices) = self.embed_query(message.trim());
            // The search loads the memories; past messages then read only the
            // conversation collections.
            let hits = self
                .search_embedded(caller, &query, Floor::NONE, vector.clone(), notices, Reading::Whole)?
                .hits;
            let past = match &vector {
                Some(v) => self.past_messages(caller, v, session.map(str::trim))?,
                None => Vec::new(),
            };
            (hits, past)
        };
        let mut reflection = self.latest_reflection(caller);
        // Shown in its own section, not twice.
        if let Some(r) = &reflection {
            memories.retain(|h| h.memory.id != r.id);
        }
        // The profile holds private facts: it is not shown in a chat, where others read
        // what the agent is told.
        let profile = match caller.chat_id {
            None => self.profile_of(caller),
            Some(_) => Default::default(),
        };
        // A memory the profile shows is not shown again among the relevant ones.
        memories.retain(|h| !profile.memory_ids.contains(&h.memory.id));
        let mut profile = profile.notes;
        let mut people = self.recently_active_people(caller);
        let mut dropped = 0;
        let markdown = loop {
            let blocks = Blocks {
                profile: &profile,
                people: &people,
                memories: &memories,
                past_messages: &past_messages,
                reflection: reflection.as_ref(),
            };
            let markdown = render(&blocks);
            if estimate_tokens(&markdown) <= budget {
                break markdown;
            }
            // Past messages go first (the least relevant first), then memories, then
            // the least recently active person, the reflection, and the profile's last
            // notes.
            if past_messages.pop().is_some()
                || memories.pop().is_some()
                || people.pop().is_some()
                || reflection.take().is_some()
                || profile.pop().is_some()
            {
                dropped += 1;
            } else {
                break String::new();
            }
        };
        Ok(ContextBlock {
            estimated_tokens: estimate_tokens(&markdown),
            people,
            memories,
            past_messages,
            profile,
            markdown,
            dropped,
        })
    }

    /// The newest live reflection of the caller's user, if any.
    fn latest_reflection(&self, caller: &Caller) -> Option<Memory> {
        let user = caller.user_id.as_ref()?;
        let now = self.now().ok()?;
        self.memories
            .iter()
            .filter(|r| r.memory_type == MemoryType::Reflection && r.owner_user_id.as_ref() == Some(user))
            .filter(|r| r.chat_id.is_none() && crate::lifecycle::is_live(r, now))
            .max_by_key(|r| parse_time(&r.created_at).unwrap_or(DateTime::UNIX_EPOCH))
            .map(Memory::from)
    }

    /// The caller's people, most recently active first: by the latest of their creation,
    /// their last update, and the newest memory about them.
    fn recently_active_people(&self, caller: &Caller) -> Vec<Person> {
        let time = |t: &str| parse_time(t).unwrap_or(DateTime::UNIX_EPOCH);
        // One pass over the memories: the newest memory about each person.
        let mut latest: HashMap<&str, &str> = HashMap::new();
        for m in self.memories.iter() {
            for id in &m.subject_person_ids {
                let newest = latest.entry(id.as_str()).or_insert(m.created_at.as_str());
                if time(&m.created_at) > time(newest) {
                    *newest = m.created_at.as_str();
                }
            }
        }
        let mut people: Vec<(DateTime<chrono::Utc>, Person)> = self
            .people_of(caller)
            .into_iter()
            .map(|p| {
                let mut active = time(&p.created_at);
                for t in p
                    .updated_at
                    .as_deref()
                    .into_iter()
                    .chain(latest.get(p.id.as_str()).copied())
                {
                    active = active.max(time(t));
                }
                (active, Person::from(p))
            })
            .collect();
        people.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.name.cmp(&b.1.name)));
        people.into_iter().take(MAX_PEOPLE).map(|(_, p)| p).collect()
    }
}
