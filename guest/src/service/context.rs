//! `context`: the block an agent injects before each response, fitted to a token budget
//! by dropping past messages first, then the least relevant memory, then the least
//! recently active person.
//! What the block says and how it is rendered is `crate::context`'s.

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::MemoryService;
use crate::api::{ContextBlock, Error, Memory, Person, SearchQuery};
use crate::context::{Blocks, DEFAULT_MAX_TOKENS, MAX_MEMORIES, MAX_PEOPLE, estimate_tokens, render};
use crate::lifecycle;
use crate::marks;
use crate::memory_type::MemoryType;
use crate::ports::{Level, Ports};
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
        // One moment for every part, in whole microseconds as the index compares them.
        let now = marks::whole_micros(self.now()?);
        let (mut memories, mut past_messages) = if message.trim().is_empty() {
            self.load_as_needed()?;
            (Vec::new(), Vec::new())
        } else {
            let query = SearchQuery {
                text: message.to_owned(),
                limit: Some(MAX_MEMORIES),
                about: None,
            };
            let (vector, notices) = self.embed_query(message.trim());
            // The search reads the memories (from the index when it stands in for the
            // file); past messages then read only the conversation collections.
            let hits = self
                .search_embedded(caller, &query, Floor::NONE, vector.clone(), notices)?
                .hits;
            let past = match &vector {
                Some(v) => self.past_messages(caller, v, session.map(str::trim))?,
                None => Vec::new(),
            };
            (hits, past)
        };
        // What the block walks besides the hits, fetched when the index stands in for the
        // file (`newest`).
        self.hold_newest_for_context(caller, now)?;
        let private = caller.chat_id.is_none();
        if private {
            self.hold_profile(caller, now)?;
        }
        let mut reflection = self.latest_reflection(caller, now);
        // Shown in its own section, not twice.
        if let Some(r) = &reflection {
            memories.retain(|h| h.memory.id != r.id);
        }
        // The profile holds private facts: it is not shown in a chat, where others read
        // what the agent is told.
        let profile = if private {
            self.profile_of(caller, now)
        } else {
            Default::default()
        };
        // A memory the profile shows is not shown again among the relevant ones.
        memories.retain(|h| !profile.memory_ids.contains(&h.memory.id));
        let mut profile = profile.notes;
        let mut people = self.recently_active_people(caller, now);
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
        if self.memories.is_partial() {
            self.ports.log(
                Level::Debug,
                &format!(
                    "context: answered from the index, which reflects memories.jsonl up to byte {}",
                    self.memories.state().end
                ),
            );
        }
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

    /// The newest live personal reflection of the caller's user, if any: by when it was
    /// observed, equal moments by id (the order of the index's `newest`).
    fn latest_reflection(&self, caller: &Caller, now: DateTime<Utc>) -> Option<Memory> {
        let user = caller.user_id.as_ref()?;
        // `cached`: a partial cache holds what `hold_newest_for_context` fetched.
        self.memories
            .cached()
            .filter(|r| r.memory_type == MemoryType::Reflection && r.owner_user_id.as_ref() == Some(user))
            .filter(|r| r.chat_id.is_none() && lifecycle::is_live(r, now))
            .min_by(|a, b| marks::observed(b).cmp(&marks::observed(a)).then(a.id.cmp(&b.id)))
            .map(Memory::from)
    }

    /// The caller's people, most recently active first: by the latest of their creation,
    /// their last update, and when the newest live memory about them the caller can see
    /// was observed.
    fn recently_active_people(&self, caller: &Caller, now: DateTime<Utc>) -> Vec<Person> {
        let time = |t: &str| parse_time(t).unwrap_or(DateTime::UNIX_EPOCH);
        // One pass over the memories: the newest memory about each person.
        let mut latest: HashMap<&str, i64> = HashMap::new();
        for m in self.memories.cached() {
            if m.subject_person_ids.is_empty() || !caller.can_see(m) || !lifecycle::is_live(m, now) {
                continue;
            }
            let at = marks::observed(m);
            for id in &m.subject_person_ids {
                let newest = latest.entry(id.as_str()).or_insert(at);
                *newest = (*newest).max(at);
            }
        }
        let mut people: Vec<(i64, Person)> = self
            .people_of(caller)
            .into_iter()
            .map(|p| {
                let mut active = marks::micros(time(&p.created_at));
                if let Some(updated) = p.updated_at.as_deref() {
                    active = active.max(marks::micros(time(updated)));
                }
                if let Some(&at) = latest.get(p.id.as_str()) {
                    active = active.max(at);
                }
                (active, Person::from(p))
            })
            .collect();
        people.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.name.cmp(&b.1.name)));
        people.into_iter().take(MAX_PEOPLE).map(|(_, p)| p).collect()
    }
}
